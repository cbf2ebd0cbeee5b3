/* ops_misc: the table of the creation, image, vision, quantization and gradient operators;
 * their inference and kernels live in the ops_misc_*.c files of this folder.
 * SPEC_NOTES: "Operators" (OP-eye_like and the rows after it). */
#include "interp/ops/misc/ops_misc_internal.h"

#define OP(name, fn, dtypes)                                                                       \
    {                                                                                              \
        name, true, misc_infer_##fn, misc_eval_##fn, dtypes                                        \
    }

static const OpImpl MISC_IMPLS[] = {
    OP("relax.eye_like", eye_like, "all"),
    OP("relax.hamming_window", hamming_window, "float"),
    OP("relax.multinomial_from_uniform", multinomial_from_uniform, "float"),
    OP("relax.ewise_fma", ewise_fma, "all"),
    OP("relax.wrap_param", wrap_param, "all"),
    OP("relax.collapse_sum_like", collapse_sum_like, "all"),
    OP("relax.collapse_sum_to", collapse_sum_to, "all"),
    OP("relax.image.resize2d", resize2d, "all"),
    OP("relax.vision.all_class_non_max_suppression", nms, "float"),
    OP("relax.quantize", quantize, "float"),
    OP("relax.dequantize", dequantize, "all"),
    OP("relax.grad.no_grad", no_grad, "all"),
    OP("relax.grad.start_checkpoint", checkpoint, "all"),
    OP("relax.grad.end_checkpoint", checkpoint, "all"),
    OP("relax.grad.nll_loss_backward", nll_loss_backward, "float"),
    OP("relax.grad.max_pool2d_backward", pool2d_backward, "float"),
    OP("relax.grad.avg_pool2d_backward", pool2d_backward, "float"),
    OP("relax.grad.take_backward", take_backward, "float"),
};

const OpImpl *ops_misc(int *n)
{
    *n = (int)(sizeof(MISC_IMPLS) / sizeof(MISC_IMPLS[0]));
    return MISC_IMPLS;
}
