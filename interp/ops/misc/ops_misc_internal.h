/* ops_misc_internal: what the files of the misc family (creation, image, vision, quantization
 * and gradient operators) share: their inference and kernel functions, gathered into one table
 * by ops_misc.c. SPEC_NOTES: "Operators" (OP-eye_like and the rows after it). */
#ifndef RELAX_INTERP_OPS_MISC_INTERNAL_H
#define RELAX_INTERP_OPS_MISC_INTERNAL_H

#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"

#define MISC_DECLARE(op)                                                                           \
    StructInfo *misc_infer_##op(OpInferCtx *ctx);                                                  \
    Value *misc_eval_##op(struct Interp *in, const Expr *call, Value **args, int nargs)

/* ops_misc_create.c */
MISC_DECLARE(eye_like);
MISC_DECLARE(hamming_window);
MISC_DECLARE(multinomial_from_uniform);
MISC_DECLARE(ewise_fma);
MISC_DECLARE(wrap_param);
/* ops_misc_collapse.c */
MISC_DECLARE(collapse_sum_like);
MISC_DECLARE(collapse_sum_to);
/* ops_misc_quantize.c */
MISC_DECLARE(quantize);
MISC_DECLARE(dequantize);
/* ops_misc_image.c */
MISC_DECLARE(resize2d);
/* ops_misc_grad.c */
MISC_DECLARE(no_grad);
MISC_DECLARE(checkpoint);
MISC_DECLARE(nll_loss_backward);
MISC_DECLARE(pool2d_backward);
MISC_DECLARE(take_backward);
/* ops_misc_vision.c */
MISC_DECLARE(nms);

/* OpPrecondition with the call's rule. */
_Noreturn void misc_fail(struct Interp *in, const Expr *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A PrimValue argument as int64 (an integer dtype, else OpPrecondition). */
int64_t misc_kernel_int(struct Interp *in, const Expr *call, Value **args, int nargs, int i);

#endif
