/* ops_norm: the family table of the normalizations, attention, losses and pixel_shuffle of
 * R.nn, the helpers its files share, and group_norm, instance_norm and rms_norm.
 * SPEC_NOTES: "Operators" (OP-nn.group_norm and the rows after it). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/norm/ops_norm_internal.h"
#include "interp/ops/ops_nn_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_norm.h"

/* ---- shared helpers --------------------------------------------------------------------- */

bool norm_tensor_args(OpInferCtx *ctx, int min, int max, const StructInfo **out)
{
    if (!ops_check_arity(ctx, min, max))
        return false;
    for (int i = 0; i < ctx->nargs; i++)
        if ((out[i] = ops_arg_tensor(ctx, i)) == NULL)
            return false;
    return true;
}

const char *norm_dtype_name(DataType t)
{
    return dtype_is_void(t) ? "of unknown dtype" : dtype_str(t);
}

bool norm_require_float(OpInferCtx *ctx, const StructInfo *x)
{
    DataType t = x->u.tensor.dtype;
    if (dtype_is_void(t) || dtype_is_float(t))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "requires float data, got %s", dtype_str(t));
    return false;
}

/* TVM compares the dtypes as they are: an unknown one differs from any known one
 * (SPEC_NOTES OP-nn.layer_norm). */
bool norm_same_dtype(OpInferCtx *ctx, const StructInfo *data, const StructInfo *arg, int i)
{
    DataType a = data->u.tensor.dtype, b = arg->u.tensor.dtype;
    if (dtype_equal(a, b))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "argument %d is %s, the data %s", i + 1,
                   norm_dtype_name(b), norm_dtype_name(a));
    return false;
}

bool norm_dims_agree(OpInferCtx *ctx, const PrimExpr *a, const PrimExpr *b, const char *what,
                     bool *undecided)
{
    ProveResult r = prover_compare(a, b);
    if (r == PROVE_UNEQUAL) {
        ops_infer_fail(ctx, "OpShapeMismatch", "%s differ", what);
        return false;
    }
    if (r == PROVE_UNKNOWN && undecided != NULL)
        *undecided = true;
    return true;
}

const char *norm_op_name(const Expr *call)
{
    const Expr *op = call->u.call.op;
    return op->kind == EXPR_OP ? op->u.op_name : "";
}

noreturn void norm_kernel_fail(struct Interp *in, const Expr *call, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* R.nn.attention(q, k, v, bias) is TVM's attention_bias. */
    bool bias = strcmp(norm_op_name(call), "relax.nn.attention") == 0 && call->u.call.nargs == 4;
    interp_fail(in, "OpPrecondition", bias ? "OP-nn.attention_bias" : ops_call_rule(call),
                call->span, "%s", msg);
}

Tensor *norm_float_arg(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, i);
    if (!dtype_is_float(t->dtype))
        norm_kernel_fail(in, call, "argument %d must be a float tensor, got %s", i + 1,
                         dtype_str(t->dtype));
    return t;
}

/* ---- axes ------------------------------------------------------------------------------- */

/* The `axes` attribute made non-negative in its given order (distinct, in range: OpAttr);
 * with an unknown rank only read. NULL after an error. */
static NormAffine affine_of(const Expr *call)
{
    NormAffine o;
    o.epsilon = ops_attr_float(call, "epsilon", 1e-5);
    o.center = ops_attr_bool(call, "center", true);
    o.scale = ops_attr_bool(call, "scale", true);
    return o;
}

/* ---- group_norm and instance_norm ------------------------------------------------------ */

/* The channel_axis attribute: TVM's attributes hold an int there, so a missing one or one of
 * another kind (which only the ast: form can write) is no axis. */
static const AttrValue *channel_axis_attr(const Expr *call)
{
    const AttrValue *v = ops_attr(call, "channel_axis");
    return v != NULL && v->kind == ATTR_INT ? v : NULL;
}

/* TVM's first checks: the channel axis in range and not among the normalized axes. */
static bool infer_channel_axes(OpInferCtx *ctx, int ndim, int *channel)
{
    int naxes;
    *channel = -1;
    const AttrValue *ca = channel_axis_attr(ctx->call);
    if (ca == NULL) {
        ops_infer_fail(ctx, "OpAttr", "channel_axis must be an integer");
        return false;
    }
    int *axes = ops_nn_norm_axes(ctx, ndim, &naxes);
    if (axes == NULL)
        return false;
    if (ndim < 0)
        return true;
    if (!ops_normalize_axis(ctx, ca->u.i, ndim, channel))
        return false;
    for (int k = 0; k < naxes; k++) {
        if (axes[k] == *channel) {
            ops_infer_fail(ctx, "OpAttr", "the channel axis %d is among the axes", *channel);
            return false;
        }
    }
    return true;
}

/* gamma and beta: the data's dtype, rank 1, the channel count when both are known. */
static bool infer_channel_params(OpInferCtx *ctx, const StructInfo *const *in, int channel)
{
    OpShape data = ops_shape_of(in[0]);
    for (int i = 1; i < 3; i++) {
        if (!norm_same_dtype(ctx, in[0], in[i], i))
            return false;
        if (in[i]->u.tensor.ndim != 1) { /* an unknown rank too, as TVM */
            ops_infer_fail(ctx, "OpShapeMismatch", "argument %d must have rank 1", i + 1);
            return false;
        }
        OpShape p = ops_shape_of(in[i]);
        if (p.dims != NULL && data.dims != NULL && channel >= 0 &&
            !norm_dims_agree(ctx, data.dims[channel], p.dims[0],
                             "the channel count and a parameter's length", NULL))
            return false;
    }
    return true;
}

/* OP-nn.group_norm, OP-nn.instance_norm: the data's StructInfo, after TVM's checks (only
 * group_norm requires float data statically, as TVM). */
static StructInfo *infer_channel_norm(OpInferCtx *ctx, bool grouped)
{
    const StructInfo *in[3];
    int channel;
    if (!norm_tensor_args(ctx, 3, 3, in) ||
        !infer_channel_axes(ctx, in[0]->u.tensor.ndim, &channel))
        return ops_infer_object(ctx);
    if (grouped) {
        int64_t groups = ops_attr_int(ctx->call, "num_groups", 0), c;
        OpShape s = ops_shape_of(in[0]);
        if (!norm_require_float(ctx, in[0]))
            return ops_infer_object(ctx);
        if (groups <= 0)
            return ops_infer_fail(ctx, "OpAttr", "num_groups must be positive");
        if (s.dims != NULL && channel >= 0 && prover_const_int(s.dims[channel], &c) &&
            c % groups != 0)
            return ops_infer_fail(ctx, "OpShapeMismatch",
                                  "%lld channels do not split into %lld groups", (long long)c,
                                  (long long)groups);
    }
    if (!infer_channel_params(ctx, in, channel))
        return ops_infer_object(ctx);
    return (StructInfo *)in[0];
}

static StructInfo *infer_group_norm(OpInferCtx *ctx)
{
    return infer_channel_norm(ctx, true);
}

static StructInfo *infer_instance_norm(OpInferCtx *ctx)
{
    return infer_channel_norm(ctx, false);
}

typedef struct ChannelNorm {
    Tensor *x, *gamma, *beta;
    int channel, *axes, naxes;
} ChannelNorm;

static ChannelNorm kernel_channel_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    ChannelNorm n;
    n.x = norm_float_arg(in, call, args, nargs, 0);
    n.gamma = ops_kernel_tensor(in, call, args, nargs, 1);
    n.beta = ops_kernel_tensor(in, call, args, nargs, 2);
    const AttrValue *ca = channel_axis_attr(call);
    if (ca == NULL)
        norm_kernel_fail(in, call, "channel_axis must be an integer");
    n.channel = ops_kernel_axis(in, call, ca->u.i, n.x->ndim);
    n.axes = ops_nn_norm_kernel_axes(in, call, n.x, &n.naxes);
    for (int k = 0; k < n.naxes; k++)
        if (n.axes[k] == n.channel)
            norm_kernel_fail(in, call, "the channel axis is among the axes");
    int64_t c = n.x->shape[n.channel];
    if (n.gamma->ndim != 1 || n.gamma->shape[0] != c || n.beta->ndim != 1 || n.beta->shape[0] != c)
        norm_kernel_fail(in, call, "gamma and beta must have the %lld channels", (long long)c);
    return n;
}

static Value *kernel_group_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    ChannelNorm n = kernel_channel_norm(in, call, args, nargs);
    int64_t groups = ops_attr_int(call, "num_groups", 0);
    if (groups <= 0 || n.x->shape[n.channel] % groups != 0)
        norm_kernel_fail(in, call, "%lld channels do not split into %lld groups",
                         (long long)n.x->shape[n.channel], (long long)groups);
    NormAffine opt = affine_of(call);
    Tensor *out = ops_kernel_new_tensor(in, call, n.x->dtype, n.x->ndim, n.x->shape);
    kernels_norm_group(n.x, n.gamma, n.beta, n.channel, groups, n.axes, n.naxes, &opt, out);
    return value_tensor(out);
}

static Value *kernel_instance_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    ChannelNorm n = kernel_channel_norm(in, call, args, nargs);
    NormAffine opt = affine_of(call);
    Tensor *out = ops_kernel_new_tensor(in, call, n.x->dtype, n.x->ndim, n.x->shape);
    kernels_norm_instance(n.x, n.gamma, n.beta, n.channel, n.axes, n.naxes, &opt, out);
    return value_tensor(out);
}

/* ---- rms_norm --------------------------------------------------------------------------- */

/* OP-nn.rms_norm: TVM's check shared with layer_norm (axes, float data, a weight of the
 * data's dtype with one dim per axis, equal where provable); an undecided dim leaves the
 * result with the rank only. */
static StructInfo *infer_rms_norm(OpInferCtx *ctx)
{
    const StructInfo *in[2];
    int naxes;
    if (!norm_tensor_args(ctx, 2, 2, in))
        return ops_infer_object(ctx);
    const StructInfo *x = in[0], *w = in[1];
    int *axes = ops_nn_norm_axes(ctx, x->u.tensor.ndim, &naxes);
    if (axes == NULL || !norm_require_float(ctx, x) || !norm_same_dtype(ctx, x, w, 1))
        return ops_infer_object(ctx);
    if (w->u.tensor.ndim != naxes) /* an unknown rank too, as TVM */
        return ops_infer_fail(ctx, "OpShapeMismatch", "the weight must have rank %d", naxes);
    OpShape xs = ops_shape_of(x), ws = ops_shape_of(w);
    bool undecided = false;
    for (int k = 0; xs.dims != NULL && ws.dims != NULL && k < naxes; k++)
        if (!norm_dims_agree(ctx, xs.dims[axes[k]], ws.dims[k],
                             "the weight's dims and the data's on the axes", &undecided))
            return ops_infer_object(ctx);
    if (!undecided)
        return (StructInfo *)x;
    return sinfo_tensor(NULL, x->u.tensor.dtype, x->u.tensor.vdevice, x->u.tensor.ndim,
                        ctx->call->span);
}

static Value *kernel_rms_norm(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = norm_float_arg(in, call, args, nargs, 0);
    Tensor *w = ops_kernel_tensor(in, call, args, nargs, 1);
    int naxes;
    int *axes = ops_nn_norm_kernel_axes(in, call, x, &naxes);
    bool ok = w->ndim == naxes;
    for (int k = 0; ok && k < naxes; k++)
        ok = w->shape[k] == x->shape[axes[k]];
    if (!ok)
        norm_kernel_fail(in, call, "the weight's shape does not match the data's on the axes");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_norm_rms(x, w, axes, naxes, ops_attr_float(call, "epsilon", 1e-5), out);
    return value_tensor(out);
}

/* ---- the table -------------------------------------------------------------------------- */

static const OpImpl NORM_IMPLS[] = {
    {"relax.nn.group_norm", true, infer_group_norm, kernel_group_norm, "float"},
    {"relax.nn.instance_norm", true, infer_instance_norm, kernel_instance_norm, "float"},
    {"relax.nn.rms_norm", true, infer_rms_norm, kernel_rms_norm, "float"},
    {"relax.nn.attention", true, ops_norm_infer_attention, ops_norm_kernel_attention, "float"},
    {"relax.nn.attention_bias", true, ops_norm_infer_attention, ops_norm_kernel_attention, "float"},
    {"relax.nn.attention_var_len", true, ops_norm_infer_attention_var_len,
     ops_norm_kernel_attention_var_len, "float"},
    {"relax.nn.cross_entropy_with_logits", true, ops_norm_infer_cross_entropy,
     ops_norm_kernel_cross_entropy, "all"},
    {"relax.nn.nll_loss", true, ops_norm_infer_nll_loss, ops_norm_kernel_nll_loss, "float"},
    {"relax.nn.pixel_shuffle", true, ops_norm_infer_pixel_shuffle, ops_norm_kernel_pixel_shuffle,
     "all"},
};

const OpImpl *ops_norm(int *n)
{
    *n = (int)(sizeof NORM_IMPLS / sizeof NORM_IMPLS[0]);
    return NORM_IMPLS;
}
