/* ops_gather: StructInfo inference and kernel calls of the operators that read elements by
 * index: gather_elements, gather_nd and index_tensor. SPEC_NOTES: "Operators"
 * (OP-gather_elements, OP-gather_nd, OP-index_tensor). */
#include "interp/ops/scatter/scatter_internal.h"

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- gather_elements ---------------------------------------------------------------------- */

/* OP-gather_elements: signed integer indices of data's rank, an axis in range; the result has
 * the indices' shape and the data's dtype (manipulate.cc, InferStructInfoGatherElements). */
StructInfo *scatter_infer_gather_elements(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *ix = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (ix == NULL)
        return ops_infer_object(ctx);
    if (!scatter_index_dtype_ok(ix->u.tensor.dtype, false))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be a signed integer, got %s",
                              dtype_str(ix->u.tensor.dtype));
    int nd = x->u.tensor.ndim, axis;
    if (nd < 0 || ix->u.tensor.ndim < 0) {
        OpShape r = {NULL, -1};
        return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
    }
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), nd, &axis))
        return ops_infer_object(ctx);
    if (ix->u.tensor.ndim != nd)
        return ops_infer_fail(ctx, "OpShapeMismatch", "data has rank %d, indices rank %d", nd,
                              ix->u.tensor.ndim);
    return ops_tensor_result(ops_shape_of(ix), x->u.tensor.dtype, x->u.tensor.vdevice,
                             ctx->call->span);
}

Value *scatter_eval_gather_elements(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *ix = ops_kernel_tensor(in, call, args, nargs, 1);
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    const char *err = NULL;
    Tensor *out = kernel_gather_elements(x, ix, axis, &err);
    return scatter_result(in, call, out, err);
}

/* ---- gather_nd ---------------------------------------------------------------------------- */

/* OP-gather_nd: int64 indices (TVM v0.22 accepts no other dtype), 0 <= batch_dims <=
 * min(data rank, indices rank - 1); with M the constant last dim of indices, the result is
 * indices.shape[:-1] + data.shape[batch_dims + M:] (InferStructInfoGatherND). */
StructInfo *scatter_infer_gather_nd(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *ix = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (ix == NULL)
        return ops_infer_object(ctx);
    DataType it = ix->u.tensor.dtype, dt = x->u.tensor.dtype;
    if (!dtype_is_void(it) && !(dtype_is_int(it) && it.bits == 64))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be int64, got %s",
                              dtype_str(it));
    int64_t b = ops_attr_int(ctx->call, "batch_dims", 0);
    if (b < 0)
        return ops_infer_fail(ctx, "OpAttr", "batch_dims must be non-negative");
    int nd = x->u.tensor.ndim, ni = ix->u.tensor.ndim;
    OpShape r = {NULL, -1};
    if (nd < 0 || ni < 0)
        return ops_tensor_result(r, dt, x->u.tensor.vdevice, ctx->call->span);
    if (b > nd || b > ni - 1)
        return ops_infer_fail(ctx, "OpAttr", "batch_dims %lld out of range for ranks %d and %d",
                              (long long)b, nd, ni);
    OpShape xs = ops_shape_of(x), is = ops_shape_of(ix);
    int64_t m;
    if (is.dims == NULL || ni < 1 || !prover_const_int(is.dims[ni - 1], &m))
        return ops_tensor_result(r, dt, x->u.tensor.vdevice, ctx->call->span);
    if (m > nd - b)
        return ops_infer_fail(ctx, "OpShapeMismatch",
                              "indices' last dim %lld exceeds data rank %d minus batch_dims",
                              (long long)m, nd);
    r.ndim = ni + nd - (int)m - 1 - (int)b;
    if (xs.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim + 1);
        int k = 0;
        for (int i = 0; i < ni - 1; i++)
            r.dims[k++] = is.dims[i];
        for (int i = (int)(b + m); i < nd; i++)
            r.dims[k++] = xs.dims[i];
    }
    return ops_tensor_result(r, dt, x->u.tensor.vdevice, ctx->call->span);
}

Value *scatter_eval_gather_nd(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *ix = ops_kernel_tensor(in, call, args, nargs, 1);
    int64_t b = ops_attr_int(call, "batch_dims", 0);
    const char *err = "batch_dims out of range";
    Tensor *out = b >= 0 && b <= x->ndim ? kernel_gather_nd(x, ix, (int)b, &err) : NULL;
    return scatter_result(in, call, out, err);
}

/* ---- index_tensor ------------------------------------------------------------------------- */

/* TVM's broadcast of the index shapes (InferStructInfoIndexTensor): right-aligned; a slot
 * still 1 takes the other dim, a 1 keeps the slot, two different constants are an error,
 * dims not provably equal leave the shape unknown. False after an error. */
static bool index_broadcast(OpInferCtx *ctx, const StructInfo **ts, int n, OpShape *out,
                            bool *unknown)
{
    int nd = 0;
    for (int i = 0; i < n; i++) {
        OpShape s = ops_shape_of(ts[i]);
        if (s.dims == NULL)
            *unknown = true;
        nd = s.ndim > nd ? s.ndim : nd;
    }
    out->ndim = nd;
    out->dims = NULL;
    if (*unknown)
        return true;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, nd + 1);
    for (int d = 0; d < nd; d++)
        dims[d] = primexpr_int(1, dtype_int64(), ctx->call->span);
    for (int i = 0; i < n && !*unknown; i++) {
        OpShape s = ops_shape_of(ts[i]);
        for (int k = 0; k < s.ndim; k++) {
            PrimExpr **lhs = &dims[nd - 1 - k], *rhs = s.dims[s.ndim - 1 - k];
            int64_t a, c;
            bool ac = prover_const_int(*lhs, &a), cc = prover_const_int(rhs, &c);
            if (ac && a == 1) {
                *lhs = rhs;
                continue;
            }
            if (cc && c == 1)
                continue;
            if (ac && cc && a != c) {
                ops_infer_fail(ctx, "OpShapeMismatch", "index shapes do not broadcast");
                return false;
            }
            if (prover_compare(*lhs, rhs) != PROVE_EQUAL) {
                *unknown = true;
                break;
            }
        }
    }
    if (!*unknown)
        out->dims = dims;
    return true;
}

/* OP-index_tensor: a non-empty tuple of at most rank-of-data signed integer index tensors;
 * the result is their broadcast shape + data.shape[k:]. */
StructInfo *scatter_infer_index_tensor(OpInferCtx *ctx)
{
    int n = 0;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    const StructInfo **ts = x ? scatter_arg_tensors(ctx, 1, &n) : NULL;
    if (ts == NULL)
        return ops_infer_object(ctx);
    if (n == 0)
        return ops_infer_fail(ctx, "OpArity", "expects at least one index tensor");
    for (int i = 0; i < n; i++)
        if (!scatter_index_dtype_ok(ts[i]->u.tensor.dtype, false))
            return ops_infer_fail(ctx, "OpDTypeMismatch",
                                  "index %d must be a signed integer, "
                                  "got %s",
                                  i, dtype_str(ts[i]->u.tensor.dtype));
    int nd = x->u.tensor.ndim;
    if (nd >= 0 && n > nd)
        return ops_infer_fail(ctx, "OpShapeMismatch", "%d index tensors for rank %d", n, nd);
    OpShape b;
    bool unknown = false;
    if (!index_broadcast(ctx, ts, n, &b, &unknown))
        return ops_infer_object(ctx);
    OpShape xs = ops_shape_of(x), r = {NULL, -1};
    if (nd >= 0 && !unknown)
        r.ndim = b.ndim + nd - n;
    if (b.dims != NULL && xs.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim + 1);
        for (int i = 0; i < b.ndim; i++)
            r.dims[i] = b.dims[i];
        for (int i = n; i < nd; i++)
            r.dims[b.ndim + i - n] = xs.dims[i];
    }
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

Value *scatter_eval_index_tensor(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int n = 0;
    Tensor **ts = nargs > 1 ? scatter_kernel_tensors(in, call, args, 1, false, &n) : NULL;
    const char *err = NULL;
    Tensor *out = kernel_index_tensor(x, ts, n, &err);
    return scatter_result(in, call, out, err);
}
