/* ops_coords: StructInfo inference and kernel calls of the operators that make index and
 * coordinate tensors: one_hot, nonzero, bucketize and meshgrid. SPEC_NOTES: "Operators"
 * (OP-one_hot, OP-nonzero, OP-bucketize, OP-meshgrid). */
#include "interp/ops/scatter/scatter_internal.h"

#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- one_hot ------------------------------------------------------------------------------ */

/* OP-one_hot: integer indices, on and off PrimValues of one dtype (the result's), depth >= 1,
 * axis in [-(ndim + 1), ndim] (a negative axis counts from the end of the result); the depth
 * is inserted at the axis (manipulate.cc one_hot and InferStructInfoOneHot). */
StructInfo *scatter_infer_one_hot(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *ix = ops_arg_tensor(ctx, 0), *on = ix ? ops_arg_prim(ctx, 1) : NULL;
    const StructInfo *off = on ? ops_arg_prim(ctx, 2) : NULL;
    if (off == NULL)
        return ops_infer_object(ctx);
    DataType dt = on->u.prim.dtype;
    if (!dtype_equal(dt, off->u.prim.dtype))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "on_value is %s but off_value is %s",
                              dtype_str(dt), dtype_str(off->u.prim.dtype));
    int64_t depth = ops_attr_int(ctx->call, "depth", 0);
    if (depth < 1)
        return ops_infer_fail(ctx, "OpAttr", "depth must be positive, got %lld", (long long)depth);
    if (!scatter_index_dtype_ok(ix->u.tensor.dtype, true))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be integers, got %s",
                              dtype_str(ix->u.tensor.dtype));
    OpShape is = ops_shape_of(ix), r = {NULL, -1};
    if (is.ndim < 0)
        return ops_tensor_result(r, dt, ix->u.tensor.vdevice, ctx->call->span);
    int64_t axis = ops_attr_int(ctx->call, "axis", -1);
    if (axis < 0)
        axis += is.ndim + 1;
    if (axis < 0 || axis > is.ndim)
        return ops_infer_fail(ctx, "OpAttr", "axis out of range [%d, %d]", -(is.ndim + 1), is.ndim);
    r.ndim = is.ndim + 1;
    if (is.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim);
        for (int i = 0, j = 0; i < r.ndim; i++)
            r.dims[i] =
                i == axis ? primexpr_int(depth, dtype_int64(), ctx->call->span) : is.dims[j++];
    }
    return ops_tensor_result(r, dt, ix->u.tensor.vdevice, ctx->call->span);
}

Value *scatter_eval_one_hot(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *ix = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *on = ops_kernel_prim(in, call, args, nargs, 1);
    const Value *off = ops_kernel_prim(in, call, args, nargs, 2);
    OneHotValues v = {on->u.prim.dtype,       value_prim_is_float(on), value_prim_as_f64(on),
                      value_prim_as_f64(off), value_prim_as_i64(on),   value_prim_as_i64(off)};
    int64_t axis = ops_attr_int(call, "axis", -1);
    axis += axis < 0 ? ix->ndim + 1 : 0;
    const char *err = "on_value and off_value must have one dtype, the indices integers";
    bool ok = dtype_equal(on->u.prim.dtype, off->u.prim.dtype) && !dtype_is_float(ix->dtype) &&
              axis >= 0 && axis <= ix->ndim;
    Tensor *out =
        ok ? kernel_one_hot(ix, &v, ops_attr_int(call, "depth", 0), (int)axis, &err) : NULL;
    return scatter_result(in, call, out, err);
}

/* ---- nonzero ------------------------------------------------------------------------------ */

/* OP-nonzero: a 2-D int64 tensor whose second dim depends on the data (set.cc,
 * InferStructInfoNonzero). */
StructInfo *scatter_infer_nonzero(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    OpShape r = {NULL, 2};
    return ops_tensor_result(r, dtype_int64(), x->u.tensor.vdevice, ctx->call->span);
}

Value *scatter_eval_nonzero(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const char *err = NULL;
    Tensor *out = kernel_nonzero(x, &err);
    return scatter_result(in, call, out, err);
}

/* ---- bucketize ---------------------------------------------------------------------------- */

/* OP-bucketize: 1-D boundaries; the input's shape in int64, or int32 with out_int32
 * (search.cc, InferStructInfoBucketize). */
StructInfo *scatter_infer_bucketize(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *b = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (b == NULL)
        return ops_infer_object(ctx);
    if (b->u.tensor.ndim >= 0 && b->u.tensor.ndim != 1)
        return ops_infer_fail(ctx, "OpShapeMismatch", "boundaries must be 1-D, got rank %d",
                              b->u.tensor.ndim);
    bool i32 = ops_attr_bool(ctx->call, "out_int32", false);
    return scatter_like(ctx, x, i32 ? dtype_int32() : dtype_int64());
}

Value *scatter_eval_bucketize(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *b = ops_kernel_tensor(in, call, args, nargs, 1);
    DataType dt = ops_attr_bool(call, "out_int32", false) ? dtype_int32() : dtype_int64();
    const char *err = NULL;
    Tensor *out = kernel_bucketize(x, b, dt, ops_attr_bool(call, "right", false), &err);
    return scatter_result(in, call, out, err);
}

/* ---- meshgrid ----------------------------------------------------------------------------- */

/* "ij" (also for None) or "xy"; the reference rejects other strings, which TVM v0.22 reads as
 * "ij". */
static bool meshgrid_xy(const Expr *call, bool *ok)
{
    const char *s = ops_attr_str(call, "indexing", "ij");
    *ok = strcmp(s, "ij") == 0 || strcmp(s, "xy") == 0;
    return strcmp(s, "xy") == 0;
}

/* OP-meshgrid: a non-empty tuple of 1-D tensors of one dtype; n grids of shape (len_0, ...,
 * len_n-1). With "xy" the reference swaps the first two dims, as the grids TVM computes; TVM
 * v0.22's inference does not swap them. */
StructInfo *scatter_infer_meshgrid(OpInferCtx *ctx)
{
    int n = 0;
    bool ok;
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo **ts = scatter_arg_tensors(ctx, 0, &n);
    if (ts == NULL)
        return ops_infer_object(ctx);
    bool xy = meshgrid_xy(ctx->call, &ok);
    if (!ok)
        return ops_infer_fail(ctx, "OpAttr", "indexing must be \"ij\" or \"xy\"");
    if (n == 0)
        return ops_infer_fail(ctx, "OpArity", "expects at least one tensor");
    DataType dt = dtype_void();
    OpShape r = {MEM_ARRAY(PrimExpr *, n), n};
    for (int i = 0; i < n; i++) {
        if (ts[i]->u.tensor.ndim != 1)
            return ops_infer_fail(ctx, "OpShapeMismatch", "tensor %d must be 1-D", i);
        DataType t = ts[i]->u.tensor.dtype;
        if (!dtype_is_void(t) && !dtype_is_void(dt) && !dtype_equal(t, dt))
            return ops_infer_fail(ctx, "OpDTypeMismatch", "tensors of %s and %s", dtype_str(dt),
                                  dtype_str(t));
        dt = dtype_is_void(t) ? dt : t;
        OpShape s = ops_shape_of(ts[i]);
        if (s.dims == NULL || dtype_is_void(t))
            r.dims = NULL;
        else if (r.dims != NULL)
            r.dims[i] = s.dims[0];
    }
    if (xy && n >= 2 && r.dims != NULL) {
        PrimExpr *d0 = r.dims[0];
        r.dims[0] = r.dims[1];
        r.dims[1] = d0;
    }
    StructInfo **fields = MEM_ARRAY(StructInfo *, n);
    for (int i = 0; i < n; i++)
        fields[i] = ops_tensor_result(r, dt, ops_common_vdevice(ts, n), ctx->call->span);
    return sinfo_tuple(fields, n, ctx->call->span);
}

Value *scatter_eval_meshgrid(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    int n = 0;
    bool ok;
    if (nargs != 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "expects one tuple argument");
    Tensor **ts = scatter_kernel_tensors(in, call, args, 0, false, &n);
    bool xy = meshgrid_xy(call, &ok);
    const char *err = "indexing must be \"ij\" or \"xy\"";
    /* LIMIT-fuel: n grids of the product of the lengths each, far more than the operands,
     * paid for before they are made; inputs the kernel refuses are its own error first. */
    bool valid = ok && n > 0 && n <= TENSOR_MAX_NDIM;
    int64_t lens[TENSOR_MAX_NDIM];
    for (int i = 0; valid && i < n; i++) {
        valid = ts[i]->ndim == 1 && dtype_equal(ts[i]->dtype, ts[0]->dtype);
        lens[i] = valid ? ts[i]->shape[0] : 0;
    }
    int64_t each = valid ? tensor_shape_numel(ts[0]->dtype, n, lens) : -1; /* -1: refused */
    bool over = false;
    int64_t all = each >= 0 ? checked_mul(each, n, &over) : -1;
    if (all >= 0 && !over)
        interp_prepay_result(in, all, call->span);
    Tensor **grids = ok ? kernel_meshgrid(ts, n, xy, &err) : NULL;
    if (grids == NULL)
        scatter_result(in, call, NULL, err);
    Value **fields = MEM_ARRAY(Value *, n);
    for (int i = 0; i < n; i++)
        fields[i] = value_tensor(grids[i]);
    return value_tuple(fields, n);
}
