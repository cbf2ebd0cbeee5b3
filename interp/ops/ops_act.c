/* ops_act: StructInfo inference, kernels and the table of the parameterized activations
 * leakyrelu, softplus, selu and prelu (the table also lists nn.pad, from ops_pad). SPEC_NOTES:
 * "Operators" (OP-nn.leakyrelu, OP-nn.softplus, OP-nn.selu, OP-nn.prelu). */
#include <string.h>

#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/ops/ops_pad.h"
#include "values/kernels/kernels_act.h"

static bool require_float(OpInferCtx *ctx, const StructInfo *x)
{
    DataType t = x->u.tensor.dtype;
    if (dtype_is_void(t) || dtype_is_float(t))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "requires a float tensor, got %s", dtype_str(t));
    return false;
}

/* OP-nn.leakyrelu, OP-nn.softplus, OP-nn.selu: TVM's unary arithmetic rule with a float
 * requirement: the input's StructInfo. */
static StructInfo *infer_unary(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || !require_float(ctx, x))
        return ops_infer_object(ctx);
    return (StructInfo *)x;
}

/* OP-nn.prelu: the data's StructInfo; float data and an axis in range (checked only when
 * the rank is known, as TVM). alpha is not inspected statically (TVM does not either). */
static StructInfo *infer_prelu(OpInferCtx *ctx)
{
    int axis;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *a = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (a == NULL)
        return ops_infer_object(ctx);
    if (x->u.tensor.ndim < 0)
        return (StructInfo *)x;
    if (!require_float(ctx, x) ||
        !ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 1), x->u.tensor.ndim, &axis))
        return ops_infer_object(ctx);
    return (StructInfo *)x;
}

static Tensor *float_arg(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, i);
    if (!dtype_is_float(t->dtype))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "requires a float tensor, got %s", dtype_str(t->dtype));
    return t;
}

static Value *run_act(struct Interp *in, const Expr *call, Value **args, int nargs, ActKind k)
{
    Tensor *x = float_arg(in, call, args, nargs, 0);
    ActParams p = {ops_attr_float(call, "alpha", 0.01), ops_attr_float(call, "beta", 1.0),
                   ops_attr_float(call, "threshold", 20.0)};
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_act(k, &p, x, out);
    return value_tensor(out);
}

static Value *kernel_leakyrelu(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return run_act(in, call, args, nargs, ACT_LEAKYRELU);
}

static Value *kernel_softplus(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return run_act(in, call, args, nargs, ACT_SOFTPLUS);
}

static Value *kernel_selu(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return run_act(in, call, args, nargs, ACT_SELU);
}

/* prelu's alpha is 1-D with the length of the data's axis, or a single slope for all. */
static Value *kernel_prelu(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = float_arg(in, call, args, nargs, 0), *a = float_arg(in, call, args, nargs, 1);
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 1), x->ndim);
    if (a->ndim != 1 || (a->shape[0] != x->shape[axis] && a->shape[0] != 1))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "alpha must be 1-D of the axis length %lld or 1", (long long)x->shape[axis]);
    if (a->shape[0] == 1 && x->shape[axis] != 1) {
        ActParams p = {tensor_get_f64(a, 0), 1.0, 20.0};
        Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
        kernels_act(ACT_LEAKYRELU, &p, x, out);
        return value_tensor(out);
    }
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_act_prelu(x, a, axis, out);
    return value_tensor(out);
}

static const OpImpl ACT_IMPLS[] = {
    {"relax.nn.leakyrelu", true, infer_unary, kernel_leakyrelu, "float"},
    {"relax.nn.softplus", true, infer_unary, kernel_softplus, "float"},
    {"relax.nn.selu", true, infer_unary, kernel_selu, "float"},
    {"relax.nn.prelu", true, infer_prelu, kernel_prelu, "float"},
    {"relax.nn.pad", true, ops_pad_infer, ops_pad_kernel, "all"},
};

const OpImpl *ops_act(int *n)
{
    *n = (int)(sizeof(ACT_IMPLS) / sizeof(ACT_IMPLS[0]));
    return ACT_IMPLS;
}
