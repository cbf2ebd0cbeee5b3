/* op_schema_misc: the Python signatures of the creation, image, vision, quantization and gradient
 * operators as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-eye_like and the rows after it). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

/* clang-format off */
#define ARG(n) {n, OPP_ARG, OPA_INT, NULL}
#define ARG_OPT(n) {n, OPP_ARG, OPA_INT, "None"}
#define ARG_SHAPE(n) {n, OPP_ARG_SHAPE, OPA_INT, NULL}
#define ARG_PRIM(n, d) {n, OPP_ARG_PRIM, OPA_INT, d}
#define ATTR(n, t, d) {n, OPP_ATTR, t, d}
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SCHEMA(name, params) {name, params, COUNT(params), NULL, 0}
#define SCHEMA_ORDER(name, params, order) {name, params, COUNT(params), order, COUNT(order)}
/* clang-format on */

/* Creation (create.py, sampling.py, ternary.py, datatype.py). */
static const OpParam P_EYE_LIKE[] = {ARG("x"), ARG_PRIM("k", "0"),
                                     ATTR("dtype", OPA_DTYPE, "None")};
static const OpParam P_HAMMING[] = {ARG_PRIM("window_size", NULL), ARG_PRIM("periodic", NULL),
                                    ARG_PRIM("alpha", NULL), ARG_PRIM("beta", NULL),
                                    ATTR("dtype", OPA_DTYPE, NULL)};
static const OpParam P_MULTINOMIAL[] = {ARG("prob"), ARG("uniform_sample"), ARG("sample_indices"),
                                        ATTR("dtype", OPA_DTYPE, "\"int64\"")};
static const OpParam P_FMA[] = {ARG("x1"), ARG("x2"), ARG("x3")};
static const OpParam P_WRAP_PARAM[] = {ARG("data"), ATTR("dtype", OPA_DTYPE, "\"float32\"")};

/* Collapse sums (manipulate.py). */
static const OpParam P_COLLAPSE_LIKE[] = {ARG("data"), ARG("collapse_target")};
static const OpParam P_COLLAPSE_TO[] = {ARG("data"), ARG_SHAPE("shape")};
static const OpParam P_INPUT[] = {ARG("input")};

/* Image (image/image.py). roi is a list of four numbers, kept as floats. */
static const OpParam P_RESIZE2D[] = {
    ARG("data"),
    ARG_SHAPE("size"),
    ATTR("roi", OPA_FLOAT_LIST, "[0.0, 0.0, 0.0, 0.0]"),
    ATTR("layout", OPA_STR, "\"NCHW\""),
    ATTR("method", OPA_STR, "\"linear\""),
    ATTR("coordinate_transformation_mode", OPA_STR, "\"half_pixel\""),
    ATTR("rounding_method", OPA_STR, "\"round\""),
    ATTR("cubic_alpha", OPA_FLOAT, "-0.75"),
    ATTR("cubic_exclude", OPA_INT, "0"),
    ATTR("extrapolation_value", OPA_FLOAT, "0.0"),
    ATTR("out_dtype", OPA_DTYPE, "None"),
};

/* Vision (vision/nms.py). */
static const OpParam P_NMS[] = {
    ARG("boxes"),         ARG("scores"),          ARG("max_output_boxes_per_class"),
    ARG("iou_threshold"), ARG("score_threshold"), ATTR("output_format", OPA_STR, "\"onnx\"")};

/* Quantization (qdq.py); QuantizeAttrs prints out_dtype before axis. */
static const OpParam P_QUANTIZE[] = {ARG("data"), ARG("scale"), ARG("zero_point"),
                                     ATTR("axis", OPA_INT, "-1"),
                                     ATTR("out_dtype", OPA_DTYPE, "\"int8\"")};
static const OpParam P_DEQUANTIZE[] = {ARG("data"), ARG("scale"), ARG("zero_point"),
                                       ATTR("axis", OPA_INT, "-1"),
                                       ATTR("out_dtype", OPA_DTYPE, "\"float32\"")};
static const char *const QDQ_PRINT[] = {"out_dtype", "axis"};

/* Gradients (grad/grad.py). */
static const OpParam P_NLL_BACKWARD[] = {ARG("output_grad"),
                                         ARG("predictions"),
                                         ARG("targets"),
                                         ARG_OPT("weights"),
                                         ATTR("reduction", OPA_STR, "\"mean\""),
                                         ATTR("ignore_index", OPA_INT, "-100")};
static const OpParam P_POOL_BACKWARD[] = {
    ARG("output_grad"),
    ARG("data"),
    ATTR("pool_size", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("strides", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("padding", OPA_INT_OR_LIST, "[0, 0, 0, 0]"),
    ATTR("dilation", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("ceil_mode", OPA_BOOL, "False"),
    ATTR("count_include_pad", OPA_BOOL, "False"),
    ATTR("layout", OPA_STR, "\"NCHW\""),
    ATTR("out_layout", OPA_OPT_STR, "None"),
};
/* Pool2DAttrs declares dilation before padding. */
static const char *const POOL_PRINT[] = {
    "pool_size", "strides",           "dilation", "padding",
    "ceil_mode", "count_include_pad", "layout",   "out_layout",
};
/* TakeAttrs also holds the mode, which take_backward's constructor leaves empty. */
static const OpParam P_TAKE_BACKWARD[] = {ARG("output_grad"), ARG("x"), ARG("indices"),
                                          ATTR("axis", OPA_OPT_INT, "None"),
                                          ATTR("mode", OPA_STR, "\"\"")};

static const OpSchema MISC_SCHEMAS[] = {
    SCHEMA("relax.eye_like", P_EYE_LIKE),
    SCHEMA("relax.hamming_window", P_HAMMING),
    SCHEMA("relax.multinomial_from_uniform", P_MULTINOMIAL),
    SCHEMA("relax.ewise_fma", P_FMA),
    SCHEMA("relax.wrap_param", P_WRAP_PARAM),
    SCHEMA("relax.collapse_sum_like", P_COLLAPSE_LIKE),
    SCHEMA("relax.collapse_sum_to", P_COLLAPSE_TO),
    SCHEMA("relax.image.resize2d", P_RESIZE2D),
    SCHEMA("relax.vision.all_class_non_max_suppression", P_NMS),
    SCHEMA_ORDER("relax.quantize", P_QUANTIZE, QDQ_PRINT),
    SCHEMA_ORDER("relax.dequantize", P_DEQUANTIZE, QDQ_PRINT),
    SCHEMA("relax.grad.no_grad", P_INPUT),
    SCHEMA("relax.grad.start_checkpoint", P_INPUT),
    SCHEMA("relax.grad.end_checkpoint", P_INPUT),
    SCHEMA("relax.grad.nll_loss_backward", P_NLL_BACKWARD),
    SCHEMA_ORDER("relax.grad.max_pool2d_backward", P_POOL_BACKWARD, POOL_PRINT),
    SCHEMA_ORDER("relax.grad.avg_pool2d_backward", P_POOL_BACKWARD, POOL_PRINT),
    SCHEMA("relax.grad.take_backward", P_TAKE_BACKWARD),
};

const OpSchema *op_schema_misc(int *n)
{
    *n = COUNT(MISC_SCHEMAS);
    return MISC_SCHEMAS;
}
