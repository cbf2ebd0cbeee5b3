/* ops_stat: the statistical operators: reductions (sum, mean, max, min, prod, std, variance),
 * scans (cumsum, cumprod) and argmax/argmin. SPEC_NOTES: "Operators" (OP-sum ... OP-argmin). */
#include "interp/ops/ops_manip_internal.h"

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"

/* ---- reductions -------------------------------------------------------------------------- */

/* OP-sum ... OP-argmin: the result shape when the input's dims are unknown, as TVM's
 * inference gives it: rank 0 is the shape (), and reducing every axis of a tensor of known
 * rank with keepdims gives all ones; otherwise only the rank (or nothing) is known. */
static OpShape reduce_unknown_dims(bool all_axes, bool keep, int out_ndim)
{
    OpShape r = {NULL, out_ndim};
    if (out_ndim == 0 || (all_axes && keep && out_ndim > 0)) {
        r.dims = MEM_ARRAY(PrimExpr *, out_ndim > 0 ? out_ndim : 1);
        for (int i = 0; i < out_ndim; i++)
            r.dims[i] = manip_dim_int(1);
    }
    return r;
}

/* The result shape of reducing `axes` (NULL: all) of x, keeping reduced dims as 1 or not. */
static StructInfo *infer_reduce(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    const AttrValue *axis = ops_attr(ctx->call, "axis");
    bool keep = ops_attr_bool(ctx->call, "keepdims", false);
    DataType dt = x->u.tensor.dtype;
    VDevice *vd = x->u.tensor.vdevice;
    if (s.ndim < 0) {
        OpShape r = reduce_unknown_dims(axis == NULL, keep, (axis == NULL && !keep) ? 0 : -1);
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    }
    int *ax, n;
    if (s.ndim > TENSOR_MAX_NDIM)
        return ops_infer_fail(ctx, "OpAttr", "rank too large");
    if (!ops_normalize_axes(ctx, axis, s.ndim, &ax, &n))
        return ops_infer_object(ctx);
    bool red[TENSOR_MAX_NDIM + 1] = {false};
    for (int i = 0; i < n; i++)
        red[ax[i]] = true;
    OpShape r = {NULL, keep ? s.ndim : s.ndim - n};
    if (s.dims == NULL)
        r = reduce_unknown_dims(axis == NULL, keep, r.ndim);
    else {
        r.dims = MEM_ARRAY(PrimExpr *, s.ndim > 0 ? s.ndim : 1);
        for (int i = 0, j = 0; i < s.ndim; i++) {
            if (!red[i])
                r.dims[j++] = s.dims[i];
            else if (keep)
                r.dims[j++] = manip_dim_int(1);
        }
    }
    return ops_tensor_result(r, dt, vd, ctx->call->span);
}

static Value *eval_reduce(struct Interp *in, const Expr *call, Value **args, int nargs,
                          ReduceKind kind)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t *axes;
    int n = 0;
    bool given = ops_attr_int_list(call, "axis", &axes, &n);
    bool red[TENSOR_MAX_NDIM];
    for (int i = 0; i < x->ndim; i++)
        red[i] = !given;
    for (int i = 0; given && i < n; i++)
        red[ops_kernel_axis(in, call, axes[i], x->ndim)] = true;
    /* LIMIT-fuel: the result's elements before it is made: a reduction of an empty axis keeps
     * the other dims, which may hold 2^31 elements beside the 0 (the prepayment fails at once
     * when their product passes int64, and costs nothing when one of them is 0). */
    int64_t kept[TENSOR_MAX_NDIM];
    int nkept = 0;
    for (int i = 0; i < x->ndim; i++)
        if (!red[i])
            kept[nkept++] = x->shape[i];
    interp_prepay_result(in, checked_count(kept, nkept), call->span);
    const char *err = NULL;
    Tensor *made = kernel_reduce(x, kind, red, ops_attr_bool(call, "keepdims", false), &err);
    return manip_result(in, call, made, err);
}

#define REDUCTION(op, kind)                                                                        \
    StructInfo *manip_infer_##op(OpInferCtx *ctx)                                                  \
    {                                                                                              \
        return infer_reduce(ctx);                                                                  \
    }                                                                                              \
    Value *manip_eval_##op(struct Interp *in, const Expr *call, Value **args, int nargs)           \
    {                                                                                              \
        return eval_reduce(in, call, args, nargs, kind);                                           \
    }

REDUCTION(sum, REDUCE_SUM)
REDUCTION(mean, REDUCE_MEAN)
REDUCTION(max, REDUCE_MAX)
REDUCTION(min, REDUCE_MIN)
REDUCTION(prod, REDUCE_PROD)
REDUCTION(std, REDUCE_STD)
REDUCTION(variance, REDUCE_VARIANCE)

/* ---- scans ------------------------------------------------------------------------------- */

/* cumsum/cumprod: axis=None scans the flattened tensor (a 1-D result). */
static StructInfo *infer_scan(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt))
        dt = x->u.tensor.dtype;
    if (ops_attr(ctx->call, "axis") == NULL) {
        PrimExpr *total = s.dims ? manip_dim_product(s.dims, s.ndim) : NULL;
        OpShape r = {s.dims ? &total : NULL, 1};
        if (!ops_dims_fit(ctx, r))
            return ops_infer_object(ctx);
        return ops_tensor_result(r, dt, x->u.tensor.vdevice, ctx->call->span);
    }
    int axis;
    if (s.ndim >= 0 && !ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), s.ndim, &axis))
        return ops_infer_object(ctx);
    return ops_tensor_result(s, dt, x->u.tensor.vdevice, ctx->call->span);
}

static Value *eval_scan(struct Interp *in, const Expr *call, Value **args, int nargs, bool product)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis = ops_attr(call, "axis")
                   ? ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim)
                   : -1;
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = x->dtype;
    const char *err = NULL;
    Tensor *t = kernel_scan(x, axis, product, ops_attr_bool(call, "exclusive", false), dt, &err);
    return manip_result(in, call, t, err);
}

StructInfo *manip_infer_cumsum(OpInferCtx *ctx)
{
    return infer_scan(ctx);
}

StructInfo *manip_infer_cumprod(OpInferCtx *ctx)
{
    return infer_scan(ctx);
}

Value *manip_eval_cumsum(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_scan(in, call, args, nargs, false);
}

Value *manip_eval_cumprod(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_scan(in, call, args, nargs, true);
}

/* ---- argmax, argmin ---------------------------------------------------------------------- */

static StructInfo *infer_arg_extreme(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    bool keep = ops_attr_bool(ctx->call, "keepdims", false);
    const AttrValue *axis = ops_attr(ctx->call, "axis");
    int k = -1;
    if (axis != NULL && axis->kind != ATTR_INT)
        return ops_infer_fail(ctx, "OpAttr", "axis must be an int");
    if (s.ndim < 0) {
        OpShape r = reduce_unknown_dims(axis == NULL, keep, (axis == NULL && !keep) ? 0 : -1);
        return ops_tensor_result(r, dtype_int64(), x->u.tensor.vdevice, ctx->call->span);
    }
    if (axis != NULL && !ops_normalize_axis(ctx, axis->u.i, s.ndim, &k))
        return ops_infer_object(ctx);
    OpShape r = {NULL, 0};
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, s.ndim > 0 ? s.ndim : 1);
    for (int i = 0; i < s.ndim; i++) {
        bool reduced = axis == NULL || i == k;
        if (!reduced)
            dims[r.ndim++] = s.dims ? s.dims[i] : NULL;
        else if (keep)
            dims[r.ndim++] = manip_dim_int(1);
    }
    r.dims = s.dims ? dims : NULL;
    if (s.dims == NULL)
        r = reduce_unknown_dims(axis == NULL, keep, r.ndim);
    return ops_tensor_result(r, dtype_int64(), x->u.tensor.vdevice, ctx->call->span);
}

static Value *eval_arg_extreme(struct Interp *in, const Expr *call, Value **args, int nargs,
                               bool is_max)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis = ops_attr(call, "axis")
                   ? ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim)
                   : -1;
    const char *err = NULL;
    Tensor *t = kernel_arg_extreme(x, axis, ops_attr_bool(call, "keepdims", false), is_max, &err);
    return manip_result(in, call, t, err);
}

StructInfo *manip_infer_argmax(OpInferCtx *ctx)
{
    return infer_arg_extreme(ctx);
}

StructInfo *manip_infer_argmin(OpInferCtx *ctx)
{
    return infer_arg_extreme(ctx);
}

Value *manip_eval_argmax(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_arg_extreme(in, call, args, nargs, true);
}

Value *manip_eval_argmin(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_arg_extreme(in, call, args, nargs, false);
}
