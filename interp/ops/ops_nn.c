/* ops_nn: StructInfo inference and kernels of the nn activations, softmax, layer_norm,
 * batch_norm and dropout, and the family's table. SPEC_NOTES: "Operators" (OP-nn.*). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/ops/ops_nn_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_nn.h"

/* ---- shared checks ---------------------------------------------------------------------- */

/* TVM requires a float (or bfloat) element type for these; an unknown dtype passes. */
static bool require_float(OpInferCtx *ctx, const StructInfo *x)
{
    DataType t = x->u.tensor.dtype;
    if (dtype_is_void(t) || dtype_is_float(t))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "requires a float tensor, got %s", dtype_str(t));
    return false;
}

static void kernel_require_float(struct Interp *in, const Expr *call, const Tensor *t)
{
    if (!dtype_is_float(t->dtype))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "requires a float tensor, got %s", dtype_str(t->dtype));
}

static const char *op_name_of(const Expr *call)
{
    const Expr *op = call->u.call.op;
    return op->kind == EXPR_OP ? op->u.op_name : "";
}

/* ---- activations ------------------------------------------------------------------------ */

static StructInfo *infer_activation(OpInferCtx *ctx, bool need_float)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || (need_float && !require_float(ctx, x)))
        return ops_infer_object(ctx);
    return (StructInfo *)x;
}

/* relu and relu6 take any numeric dtype (TVM's unary arithmetic rule without the float
 * requirement); gelu, gelu_tanh and silu require floats. */
static StructInfo *infer_act_any(OpInferCtx *ctx)
{
    return infer_activation(ctx, false);
}

static StructInfo *infer_act_float(OpInferCtx *ctx)
{
    return infer_activation(ctx, true);
}

static const struct {
    const char *name;
    NnActivation act;
} ACTIVATIONS[] = {
    {"relax.nn.relu", NN_ACT_RELU}, {"relax.nn.relu6", NN_ACT_RELU6},
    {"relax.nn.gelu", NN_ACT_GELU}, {"relax.nn.gelu_tanh", NN_ACT_GELU_TANH},
    {"relax.nn.silu", NN_ACT_SILU},
};

static Value *kernel_activation(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    NnActivation act = NN_ACT_RELU;
    for (size_t i = 0; i < sizeof ACTIVATIONS / sizeof ACTIVATIONS[0]; i++)
        if (strcmp(ACTIVATIONS[i].name, op_name_of(call)) == 0)
            act = ACTIVATIONS[i].act;
    if (act != NN_ACT_RELU && act != NN_ACT_RELU6)
        kernel_require_float(in, call, x);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_nn_activation(act, x, out);
    return value_tensor(out);
}

/* ---- softmax ---------------------------------------------------------------------------- */

/* OP-nn.softmax, OP-nn.log_softmax: the input's StructInfo; a float tensor and an axis in
 * range when the rank is known. */
static StructInfo *infer_softmax(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    if (x->u.tensor.ndim < 0)
        return (StructInfo *)x;
    int axis;
    if (!require_float(ctx, x) ||
        !ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", -1), x->u.tensor.ndim, &axis))
        return ops_infer_object(ctx);
    return (StructInfo *)x;
}

static Value *kernel_softmax(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    kernel_require_float(in, call, x);
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", -1), x->ndim);
    Tensor *out = ops_kernel_new_tensor_uninit(in, call, x->dtype, x->ndim, x->shape);
    kernels_nn_softmax(x, axis, strcmp(op_name_of(call), "relax.nn.log_softmax") == 0, out);
    return value_tensor(out);
}

/* ---- normalizations --------------------------------------------------------------------- */

/* The axes attribute of layer_norm (or batch_norm's single axis) as written. */
static bool norm_axes(const Expr *call, int64_t **axes, int *naxes)
{
    if (strcmp(op_name_of(call), "relax.nn.batch_norm") != 0)
        return ops_attr_int_list(call, "axes", axes, naxes);
    if (ops_attr(call, "axis") == NULL)
        return false;
    *axes = MEM_ARRAY(int64_t, 1);
    (*axes)[0] = ops_attr_int(call, "axis", 0);
    *naxes = 1;
    return true;
}

/* Compares the data's dims on the normalized axes with each parameter's dims. Returns -1
 * after an error, 1 when some pair is undecided (the result keeps only its rank), else 0. */
static int compare_param_dims(OpInferCtx *ctx, const StructInfo *const *in, int nin,
                              const int *axes, int naxes)
{
    OpShape data = ops_shape_of(in[0]);
    int unknown = 0;
    if (data.dims == NULL)
        return 0;
    for (int i = 1; i < nin; i++) {
        OpShape p = ops_shape_of(in[i]);
        for (int d = 0; p.dims != NULL && d < naxes; d++) {
            ProveResult r = prover_compare(data.dims[axes[d]], p.dims[d]);
            if (r == PROVE_UNEQUAL) {
                ops_infer_fail(ctx, "OpShapeMismatch",
                               "argument %d has dim %d unequal to the data's axis %d", i + 1, d,
                               axes[d]);
                return -1;
            }
            if (r == PROVE_UNKNOWN)
                unknown = 1;
        }
    }
    return unknown;
}

/* The normalized axes made non-negative (left as written when the rank is unknown). */
int *ops_nn_norm_axes(OpInferCtx *ctx, int ndim, int *naxes)
{
    int64_t *raw;
    if (!norm_axes(ctx->call, &raw, naxes)) {
        ops_infer_fail(ctx, "OpAttr", "the normalized axes are missing or not integers");
        return NULL;
    }
    int *axes = MEM_ARRAY(int, *naxes > 0 ? *naxes : 1);
    for (int k = 0; ndim >= 0 && k < *naxes; k++) {
        if (!ops_normalize_axis(ctx, raw[k], ndim, &axes[k]))
            return NULL;
        for (int j = 0; j < k; j++) {
            if (axes[j] == axes[k]) {
                ops_infer_fail(ctx, "OpAttr", "axis %d is given twice", axes[k]);
                return NULL;
            }
        }
    }
    return axes;
}

/* Parameters of the data's dtype with one dim per normalized axis. TVM compares dtypes and
 * ranks as they are: an unknown dtype differs from a known one, an unknown rank from any. */
static bool check_norm_params(OpInferCtx *ctx, const StructInfo *const *in, int nin, int naxes)
{
    DataType a = in[0]->u.tensor.dtype;
    for (int i = 1; i < nin; i++) {
        DataType b = in[i]->u.tensor.dtype;
        if (!dtype_equal(a, b)) {
            ops_infer_fail(ctx, "OpDTypeMismatch", "argument %d is %s, data is %s", i + 1,
                           dtype_is_void(b) ? "of unknown dtype" : dtype_str(b),
                           dtype_is_void(a) ? "of unknown dtype" : dtype_str(a));
            return false;
        }
        if (in[i]->u.tensor.ndim != naxes) {
            ops_infer_fail(ctx, "OpShapeMismatch", "argument %d must have rank %d", i + 1, naxes);
            return false;
        }
    }
    return true;
}

/* TVM's check shared by the norms: axes in range, a float data tensor, parameters of the
 * data's dtype and rank, dims equal where provable. Returns -1 after an error, 1 when a
 * dim comparison is undecided, else 0. */
static int check_norm(OpInferCtx *ctx, const StructInfo *const *in, int nin)
{
    int naxes, ndim = in[0]->u.tensor.ndim;
    int *axes = ops_nn_norm_axes(ctx, ndim, &naxes);
    if (axes == NULL || !require_float(ctx, in[0]) || !check_norm_params(ctx, in, nin, naxes))
        return -1;
    return ndim < 0 ? 0 : compare_param_dims(ctx, in, nin, axes, naxes);
}

static bool tensor_args(OpInferCtx *ctx, int n, const StructInfo **out)
{
    if (!ops_check_arity(ctx, n, n))
        return false;
    for (int i = 0; i < n; i++)
        if ((out[i] = ops_arg_tensor(ctx, i)) == NULL)
            return false;
    return true;
}

/* OP-nn.layer_norm: the data's StructInfo (rank only when a parameter dim is undecided). */
static StructInfo *infer_layer_norm(OpInferCtx *ctx)
{
    const StructInfo *in[3];
    if (!tensor_args(ctx, 3, in))
        return ops_infer_object(ctx);
    int r = check_norm(ctx, in, 3);
    if (r < 0)
        return ops_infer_object(ctx);
    if (r == 0)
        return (StructInfo *)in[0];
    return sinfo_tensor(NULL, in[0]->u.tensor.dtype, in[0]->u.tensor.vdevice, in[0]->u.tensor.ndim,
                        ctx->call->span);
}

/* OP-nn.batch_norm: (data, moving_mean, moving_var) StructInfos, as TVM returns. */
static StructInfo *infer_batch_norm(OpInferCtx *ctx)
{
    const StructInfo *in[5];
    if (!tensor_args(ctx, 5, in))
        return ops_infer_object(ctx);
    int r = check_norm(ctx, in, 5);
    if (r < 0)
        return ops_infer_object(ctx);
    StructInfo **fields = MEM_ARRAY(StructInfo *, 3);
    DataType t = in[0]->u.tensor.dtype;
    VDevice *vd = in[0]->u.tensor.vdevice;
    Span sp = ctx->call->span;
    fields[0] = r ? sinfo_tensor(NULL, t, vd, in[0]->u.tensor.ndim, sp) : (StructInfo *)in[0];
    fields[1] = r ? sinfo_tensor(NULL, t, vd, 1, sp) : (StructInfo *)in[3];
    fields[2] = r ? sinfo_tensor(NULL, t, vd, 1, sp) : (StructInfo *)in[4];
    return sinfo_tuple(fields, 3, sp);
}

static NnNormOptions norm_options(const Expr *call)
{
    NnNormOptions o;
    o.epsilon = ops_attr_float(call, "epsilon", 1e-5);
    o.center = ops_attr_bool(call, "center", true);
    o.scale = ops_attr_bool(call, "scale", true);
    o.momentum = ops_attr_float(call, "momentum", 0.1);
    o.training = ops_attr_bool(call, "training", true);
    return o;
}

/* A parameter tensor must have exactly the data's dims on the normalized axes. */
static void check_param(struct Interp *in, const Expr *call, const Tensor *x, const Tensor *p,
                        const int *axes, int naxes)
{
    bool ok = p->ndim == naxes;
    for (int k = 0; ok && k < naxes; k++)
        ok = p->shape[k] == x->shape[axes[k]];
    if (!ok)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "a parameter's shape does not match the data's normalized dims");
}

int *ops_nn_norm_kernel_axes(struct Interp *in, const Expr *call, const Tensor *x, int *naxes)
{
    int64_t *raw;
    if (!norm_axes(call, &raw, naxes))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the normalized axes are missing");
    int *axes = MEM_ARRAY(int, *naxes > 0 ? *naxes : 1);
    for (int k = 0; k < *naxes; k++) {
        axes[k] = ops_kernel_axis(in, call, raw[k], x->ndim);
        for (int j = 0; j < k; j++)
            if (axes[j] == axes[k])
                interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                            "axis %d is given twice", axes[k]);
    }
    return axes;
}

static Value *kernel_layer_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *gamma = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *beta = ops_kernel_tensor(in, call, args, nargs, 2);
    kernel_require_float(in, call, x);
    int naxes;
    int *axes = ops_nn_norm_kernel_axes(in, call, x, &naxes);
    check_param(in, call, x, gamma, axes, naxes);
    check_param(in, call, x, beta, axes, naxes);
    NnNormOptions opt = norm_options(call);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_nn_layer_norm(x, gamma, beta, axes, naxes, &opt, out);
    return value_tensor(out);
}

static Value *kernel_batch_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    kernel_require_float(in, call, x);
    int naxes;
    int *axes = ops_nn_norm_kernel_axes(in, call, x, &naxes);
    const Tensor *params[4];
    Tensor *outs[3];
    for (int i = 0; i < 4; i++) {
        params[i] = ops_kernel_tensor(in, call, args, nargs, i + 1);
        check_param(in, call, x, params[i], axes, naxes);
    }
    outs[0] = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    for (int i = 1; i < 3; i++)
        outs[i] = ops_kernel_new_tensor(in, call, params[i + 1]->dtype, 1, params[i + 1]->shape);
    NnNormOptions opt = norm_options(call);
    kernels_nn_batch_norm(x, params, axes[0], &opt, outs);
    Value *fields[3] = {value_tensor(outs[0]), value_tensor(outs[1]), value_tensor(outs[2])};
    return value_tuple(fields, 3);
}

/* ---- dropout ---------------------------------------------------------------------------- */

/* OP-nn.dropout: (data, mask), both with the data's StructInfo. */
static StructInfo *infer_dropout(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    StructInfo **fields = MEM_ARRAY(StructInfo *, 2);
    fields[0] = fields[1] = (StructInfo *)x;
    return sinfo_tuple(fields, 2, ctx->call->span);
}

/* Evaluation is inference mode: nothing is dropped, the output is a copy of the input and
 * the mask is all ones. */
static Value *kernel_dropout(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *mask = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    tensor_fill_f64(mask, 1.0);
    Value *fields[2] = {value_tensor(tensor_copy(x)), value_tensor(mask)};
    return value_tuple(fields, 2);
}

/* ---- the table -------------------------------------------------------------------------- */

static const OpImpl NN_IMPLS[] = {
    {"relax.nn.relu", true, infer_act_any, kernel_activation, "all"},
    {"relax.nn.relu6", true, infer_act_any, kernel_activation, "all"},
    {"relax.nn.gelu", true, infer_act_float, kernel_activation, "float"},
    {"relax.nn.gelu_tanh", true, infer_act_float, kernel_activation, "float"},
    {"relax.nn.silu", true, infer_act_float, kernel_activation, "float"},
    {"relax.nn.softmax", true, infer_softmax, kernel_softmax, "float"},
    {"relax.nn.log_softmax", true, infer_softmax, kernel_softmax, "float"},
    {"relax.nn.layer_norm", true, infer_layer_norm, kernel_layer_norm, "float"},
    {"relax.nn.batch_norm", true, infer_batch_norm, kernel_batch_norm, "float"},
    {"relax.nn.dropout", true, infer_dropout, kernel_dropout, "all"},
    {"relax.sort", true, ops_search_infer_sort, ops_search_kernel_sort, "all"},
    {"relax.argsort", true, ops_search_infer_argsort, ops_search_kernel_argsort, "all"},
    {"relax.topk", true, ops_search_infer_topk, ops_search_kernel_topk, "all"},
    {"relax.unique", true, ops_search_infer_unique, ops_search_kernel_unique, "all"},
};

const OpImpl *ops_nn(int *n)
{
    *n = (int)(sizeof NN_IMPLS / sizeof NN_IMPLS[0]);
    return NN_IMPLS;
}
