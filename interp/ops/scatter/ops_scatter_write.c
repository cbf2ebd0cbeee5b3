/* ops_scatter_write: StructInfo inference and kernel calls of the operators that write
 * elements by index into a copy of their data: scatter_elements, scatter_nd, index_put and
 * slice_scatter. SPEC_NOTES: "Operators" (OP-scatter_elements, OP-scatter_nd, OP-index_put,
 * OP-slice_scatter). */
#include "interp/ops/scatter/scatter_internal.h"

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* Equal dtypes when both are known, or OpDTypeMismatch. */
static bool same_dtype(OpInferCtx *ctx, const StructInfo *a, const StructInfo *b, const char *what)
{
    DataType x = a->u.tensor.dtype, y = b->u.tensor.dtype;
    if (dtype_is_void(x) || dtype_is_void(y) || dtype_equal(x, y))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "data is %s but %s is %s", dtype_str(x), what,
                   dtype_str(y));
    return false;
}

/* A reduction name the operator's topi kernel implements (scatter_nd has no "mean"). */
static bool reduction_ok(OpInferCtx *ctx, bool mean_ok)
{
    ScatterReduce r;
    const char *name = ops_attr_str(ctx->call, "reduction", "update");
    if (kernel_scatter_reduce_of(name, &r) && (mean_ok || r != SCATTER_MEAN))
        return true;
    ops_infer_fail(ctx, "OpAttr", "unknown reduction \"%s\"", name);
    return false;
}

/* ---- scatter_elements --------------------------------------------------------------------- */

/* OP-scatter_elements: data, indices and updates of one rank, integer indices, updates of the
 * data's dtype and the indices' shape (InferStructInfoScatterElements); the reference also
 * checks the axis and the reduction here, which TVM v0.22 leaves to its legalization. */
StructInfo *scatter_infer_scatter_elements(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *ix = x ? ops_arg_tensor(ctx, 1) : NULL;
    const StructInfo *u = ix ? ops_arg_tensor(ctx, 2) : NULL;
    if (u == NULL || !reduction_ok(ctx, true))
        return ops_infer_object(ctx);
    int nd = x->u.tensor.ndim, axis;
    if (nd < 0)
        return scatter_like(ctx, x, x->u.tensor.dtype);
    if (ix->u.tensor.ndim >= 0 && u->u.tensor.ndim >= 0 &&
        (ix->u.tensor.ndim != nd || u->u.tensor.ndim != nd))
        return ops_infer_fail(ctx, "OpShapeMismatch",
                              "data, indices and updates have ranks %d, "
                              "%d and %d",
                              nd, ix->u.tensor.ndim, u->u.tensor.ndim);
    if (!same_dtype(ctx, x, u, "updates"))
        return ops_infer_object(ctx);
    if (!scatter_index_dtype_ok(ix->u.tensor.dtype, true))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be integers, got %s",
                              dtype_str(ix->u.tensor.dtype));
    OpShape is = ops_shape_of(ix), us = ops_shape_of(u);
    for (int i = 0; is.dims != NULL && us.dims != NULL && i < is.ndim && i < us.ndim; i++)
        if (prover_compare(is.dims[i], us.dims[i]) == PROVE_UNEQUAL)
            return ops_infer_fail(ctx, "OpShapeMismatch", "indices and updates differ in dim %d",
                                  i);
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), nd, &axis))
        return ops_infer_object(ctx);
    return scatter_like(ctx, x, x->u.tensor.dtype);
}

Value *scatter_eval_scatter_elements(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *ix = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *u = ops_kernel_tensor(in, call, args, nargs, 2);
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    ScatterReduce r = scatter_kernel_reduce(in, call);
    const char *err = "updates must have the data's dtype";
    Tensor *out =
        dtype_equal(x->dtype, u->dtype) ? kernel_scatter_elements(x, ix, u, axis, r, &err) : NULL;
    return scatter_result(in, call, out, err);
}

/* ---- scatter_nd --------------------------------------------------------------------------- */

/* Why updates.shape is not indices.shape[:-1] + data.shape[M:], each dim provably equal
 * (TVM's CanProve), or NULL when it is. */
static const char *nd_updates_shape(OpShape xs, OpShape is, OpShape us)
{
    int64_t m;
    if (is.ndim < 1 || !prover_const_int(is.dims[is.ndim - 1], &m))
        return "indices' last dim must be a constant";
    if (xs.ndim + is.ndim - m - 1 != us.ndim)
        return "updates' rank must be data's + indices' - M - 1";
    if (m > xs.ndim)
        return "indices' last dim exceeds data's rank";
    for (int i = 0; i < us.ndim; i++) {
        PrimExpr *want = i < is.ndim - 1 ? is.dims[i] : xs.dims[i - (is.ndim - 1) + m];
        if (prover_compare(want, us.dims[i]) != PROVE_EQUAL)
            return "updates must be indices.shape[:-1] + data.shape[M:]";
    }
    return NULL;
}

/* OP-scatter_nd: data and updates of one known dtype, integer indices; with every shape
 * known, updates.shape = indices.shape[:-1] + data.shape[M:] (InferStructInfoScatterND). */
StructInfo *scatter_infer_scatter_nd(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *ix = x ? ops_arg_tensor(ctx, 1) : NULL;
    const StructInfo *u = ix ? ops_arg_tensor(ctx, 2) : NULL;
    if (u == NULL || !reduction_ok(ctx, false))
        return ops_infer_object(ctx);
    if (dtype_is_void(x->u.tensor.dtype) || dtype_is_void(u->u.tensor.dtype))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "data and updates need a known dtype");
    if (!same_dtype(ctx, x, u, "updates"))
        return ops_infer_object(ctx);
    if (!scatter_index_dtype_ok(ix->u.tensor.dtype, true))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be integers, got %s",
                              dtype_str(ix->u.tensor.dtype));
    OpShape xs = ops_shape_of(x), is = ops_shape_of(ix), us = ops_shape_of(u);
    const char *why = xs.dims && is.dims && us.dims ? nd_updates_shape(xs, is, us) : NULL;
    if (why != NULL)
        return ops_infer_fail(ctx, "OpShapeMismatch", "%s", why);
    return scatter_like(ctx, x, x->u.tensor.dtype);
}

Value *scatter_eval_scatter_nd(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *ix = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *u = ops_kernel_tensor(in, call, args, nargs, 2);
    ScatterReduce r = scatter_kernel_reduce(in, call);
    const char *err = "updates must have the data's dtype; no \"mean\" reduction";
    Tensor *out = dtype_equal(x->dtype, u->dtype) && r != SCATTER_MEAN
                      ? kernel_scatter_nd(x, ix, u, r, &err)
                      : NULL;
    return scatter_result(in, call, out, err);
}

/* ---- index_put ---------------------------------------------------------------------------- */

/* OP-index_put: one 1-D integer index tensor per axis of data (a tuple, or a lone tensor for
 * 1-D data), values of the data's dtype (InferStructInfoIndexPut). */
StructInfo *scatter_infer_index_put(OpInferCtx *ctx)
{
    int n = 1;
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *v = x ? ops_arg_tensor(ctx, 2) : NULL;
    if (v == NULL)
        return ops_infer_object(ctx);
    const StructInfo **ts = (const StructInfo **)&ctx->arg_sinfo[1];
    if (ctx->arg_sinfo[1]->kind != SINFO_TENSOR)
        ts = scatter_arg_tensors(ctx, 1, &n);
    if (ts == NULL)
        return ops_infer_object(ctx);
    int nd = x->u.tensor.ndim;
    if (nd < 0)
        return scatter_like(ctx, x, x->u.tensor.dtype);
    for (int i = 0; i < n; i++) {
        if (ts[i]->u.tensor.ndim >= 0 && ts[i]->u.tensor.ndim != 1)
            return ops_infer_fail(ctx, "OpShapeMismatch", "index %d must be 1-D", i);
        if (!scatter_index_dtype_ok(ts[i]->u.tensor.dtype, true))
            return ops_infer_fail(ctx, "OpDTypeMismatch", "index %d must be integers, got %s", i,
                                  dtype_str(ts[i]->u.tensor.dtype));
    }
    if (n != nd)
        return ops_infer_fail(ctx, "OpShapeMismatch", "%d index tensors for rank %d", n, nd);
    if (!same_dtype(ctx, x, v, "values"))
        return ops_infer_object(ctx);
    return scatter_like(ctx, x, x->u.tensor.dtype);
}

Value *scatter_eval_index_put(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *v = ops_kernel_tensor(in, call, args, nargs, 2);
    int n = 0;
    Tensor **ts = scatter_kernel_tensors(in, call, args, 1, true, &n);
    const char *err = "values must have the data's dtype";
    Tensor *out =
        dtype_equal(x->dtype, v->dtype)
            ? kernel_index_put(x, ts, n, v, ops_attr_bool(call, "accumulate", false), &err)
            : NULL;
    return scatter_result(in, call, out, err);
}

/* ---- slice_scatter ------------------------------------------------------------------------ */

/* start, end and step: integer PrimValues; *value their constant or NULL. */
static bool slice_bound(OpInferCtx *ctx, int i, const char *what, int64_t *value, bool *known)
{
    const StructInfo *p = ops_arg_prim(ctx, i);
    if (p == NULL)
        return false;
    if (!dtype_is_int(p->u.prim.dtype) && !dtype_is_uint(p->u.prim.dtype)) {
        ops_infer_fail(ctx, "OpDTypeMismatch", "%s must be an integer, got %s", what,
                       dtype_str(p->u.prim.dtype));
        return false;
    }
    if (p->u.prim.value == NULL || !prover_const_int(p->u.prim.value, value))
        *known = false;
    return true;
}

/* OP-slice_scatter: src of data's rank and dtype, an axis in range, integer start/end/step
 * with step >= 1 and start <= end where provable, src's dims equal to data's off the axis and
 * ceil((end - start) / step) on it where provable (InferStructInfoSliceScatter). */
StructInfo *scatter_infer_slice_scatter(OpInferCtx *ctx)
{
    int64_t b[3];
    bool known = true;
    int axis;
    if (!ops_check_arity(ctx, 5, 5))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *s = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (s == NULL)
        return ops_infer_object(ctx);
    int nd = x->u.tensor.ndim;
    if (nd < 0)
        return scatter_like(ctx, x, x->u.tensor.dtype);
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), nd, &axis))
        return ops_infer_object(ctx);
    if (s->u.tensor.ndim >= 0 && s->u.tensor.ndim != nd)
        return ops_infer_fail(ctx, "OpShapeMismatch", "data has rank %d, src rank %d", nd,
                              s->u.tensor.ndim);
    if (!same_dtype(ctx, x, s, "src") || !slice_bound(ctx, 2, "start", &b[0], &known) ||
        !slice_bound(ctx, 3, "end", &b[1], &known) || !slice_bound(ctx, 4, "step", &b[2], &known))
        return ops_infer_object(ctx);
    if (known && b[2] < 1)
        return ops_infer_fail(ctx, "OpAttr", "step must be at least 1");
    if (known && b[1] < b[0])
        return ops_infer_fail(ctx, "OpAttr", "start must not exceed end");
    OpShape xs = ops_shape_of(x), ss = ops_shape_of(s);
    for (int i = 0; xs.dims != NULL && ss.dims != NULL && i < nd; i++) {
        PrimExpr *want = xs.dims[i];
        if (i == axis && !known)
            continue;
        if (i == axis) {
            uint64_t span = (uint64_t)b[1] - (uint64_t)b[0], step = (uint64_t)b[2];
            int64_t count = (int64_t)(span / step + (span % step != 0));
            want = primexpr_int(count, dtype_int64(), ctx->call->span);
        }
        if (prover_compare(want, ss.dims[i]) == PROVE_UNEQUAL)
            return ops_infer_fail(ctx, "OpShapeMismatch", "src's dim %d does not fit", i);
    }
    return scatter_like(ctx, x, x->u.tensor.dtype);
}

Value *scatter_eval_slice_scatter(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *s = ops_kernel_tensor(in, call, args, nargs, 1);
    SliceRange r = {value_prim_as_i64(ops_kernel_prim(in, call, args, nargs, 2)),
                    value_prim_as_i64(ops_kernel_prim(in, call, args, nargs, 3)),
                    value_prim_as_i64(ops_kernel_prim(in, call, args, nargs, 4))};
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    const char *err = "src must have the data's dtype";
    Tensor *out =
        dtype_equal(x->dtype, s->dtype) ? kernel_slice_scatter(x, s, axis, &r, &err) : NULL;
    return scatter_result(in, call, out, err);
}
