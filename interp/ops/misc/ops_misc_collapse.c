/* ops_misc_collapse: collapse_sum_like and collapse_sum_to, the backward of broadcasting:
 * inference as TVM's manipulate.cc (CheckCollapseShape), values as topi's collapse_sum.
 * SPEC_NOTES: "Operators" (OP-collapse_sum_like, OP-collapse_sum_to). */
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_misc.h"

/* CheckCollapseShape: from the right, each data dim is provably the target's (or the target's
 * is the constant 1), else OpShapeMismatch (also for an undecided symbolic pair). Target dims
 * past the data's rank are not looked at. */
static bool check_collapse(OpInferCtx *ctx, OpShape data, OpShape target)
{
    for (int d = data.ndim - 1, t = target.ndim - 1; d >= 0 && t >= 0; d--) {
        if (prover_compare(data.dims[d], target.dims[t]) == PROVE_EQUAL ||
            ops_dim_is(target.dims[t], 1)) {
            t--;
            continue;
        }
        ops_infer_fail(ctx, "OpShapeMismatch",
                       "data dim %d does not collapse onto target dim %d (equal or 1 needed; "
                       "match_cast a symbolic dim first)",
                       d, t);
        return false;
    }
    return true;
}

/* OP-collapse_sum_like: the target tensor's shape (or rank) with the data's dtype and the
 * target's vdevice. */
StructInfo *misc_infer_collapse_sum_like(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *t = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (t == NULL)
        return ops_infer_object(ctx);
    OpShape xs = ops_shape_of(x), ts = ops_shape_of(t);
    if (xs.dims != NULL && ts.dims != NULL && !check_collapse(ctx, xs, ts))
        return ops_infer_object(ctx);
    return ops_tensor_result(ts, x->u.tensor.dtype, t->u.tensor.vdevice, ctx->call->span);
}

/* OP-collapse_sum_to: the shape argument's dims (or rank) with the data's dtype and vdevice. */
StructInfo *misc_infer_collapse_sum_to(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *s = x ? ops_arg_shape(ctx, 1) : NULL;
    if (s == NULL)
        return ops_infer_object(ctx);
    OpShape xs = ops_shape_of(x), ts = {s->u.shape.values, s->u.shape.ndim};
    if (xs.dims != NULL && ts.dims != NULL && !check_collapse(ctx, xs, ts))
        return ops_infer_object(ctx);
    return ops_tensor_result(ts, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

/* topi collapse_sum on concrete shapes: the target's rank at most the data's, each aligned
 * target dim equal to the data's or 1. */
static Value *collapse(struct Interp *in, const Expr *call, Tensor *x, int ndim,
                       const int64_t *shape)
{
    if (ndim > x->ndim)
        misc_fail(in, call, "the target rank %d exceeds the data rank %d", ndim, x->ndim);
    for (int d = x->ndim - 1, t = ndim - 1; t >= 0; d--, t--)
        if (shape[t] != x->shape[d] && shape[t] != 1)
            misc_fail(in, call, "target dim %d (%lld) is neither data dim %d (%lld) nor 1", t,
                      (long long)shape[t], d, (long long)x->shape[d]);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, ndim, shape);
    kernels_collapse_sum(x, out);
    return value_tensor(out);
}

Value *misc_eval_collapse_sum_like(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, 1);
    return collapse(in, call, x, t->ndim, t->shape);
}

Value *misc_eval_collapse_sum_to(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *s = ops_kernel_shape(in, call, args, nargs, 1);
    return collapse(in, call, x, s->u.shape.ndim, s->u.shape.dims);
}
