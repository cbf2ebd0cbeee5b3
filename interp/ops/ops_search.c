/* ops_search: StructInfo inference and kernels of sort, argsort, topk and unique.
 * SPEC_NOTES: "Operators" (OP-sort, OP-argsort, OP-topk, OP-unique). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/ops/ops_nn_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_sort.h"

/* argsort's and topk's index dtype: the attribute (TVMScript always writes one, int32 by
 * default); the data's dtype when it is "void" or absent (as only the ast: form leaves it),
 * TVM's ArgsortAttrs and TopKAttrs defaulting to a void dtype. */
static DataType index_dtype(const Expr *call, DataType data)
{
    DataType t = ops_attr_dtype(call, "dtype");
    return dtype_is_void(t) ? data : t;
}

/* The data tensor of a one-argument sorting op, its axis checked when the rank is known
 * (TVM leaves a bad axis to the kernel; the reference reports it statically). */
static const StructInfo *sort_input(OpInferCtx *ctx, int *axis)
{
    if (!ops_check_arity(ctx, 1, 1))
        return NULL;
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    *axis = -1;
    if (x == NULL || x->u.tensor.ndim < 0)
        return x;
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", -1), x->u.tensor.ndim, axis))
        return NULL;
    return x;
}

/* OP-sort: the input's StructInfo. */
StructInfo *ops_search_infer_sort(OpInferCtx *ctx)
{
    int axis;
    const StructInfo *x = sort_input(ctx, &axis);
    return x ? (StructInfo *)x : ops_infer_object(ctx);
}

/* OP-argsort: the input's shape with the index dtype. */
StructInfo *ops_search_infer_argsort(OpInferCtx *ctx)
{
    int axis;
    const StructInfo *x = sort_input(ctx, &axis);
    if (x == NULL)
        return ops_infer_object(ctx);
    return sinfo_tensor(x->u.tensor.shape, index_dtype(ctx->call, x->u.tensor.dtype),
                        x->u.tensor.vdevice, x->u.tensor.ndim, ctx->call->span);
}

/* OP-topk: values and indices with the axis dim replaced by k, unless k < 1 or k is not
 * smaller than a constant dim; ret_type picks both (a tuple), values or indices. */
StructInfo *ops_search_infer_topk(OpInferCtx *ctx)
{
    int axis;
    const StructInfo *x = sort_input(ctx, &axis);
    if (x == NULL)
        return ops_infer_object(ctx);
    const char *ret = ops_attr_str(ctx->call, "ret_type", "both");
    if (strcmp(ret, "both") != 0 && strcmp(ret, "values") != 0 && strcmp(ret, "indices") != 0)
        return ops_infer_fail(ctx, "OpAttr", "ret_type must be both, values or indices");
    int64_t k = ops_attr_int(ctx->call, "k", 1), dim;
    OpShape s = ops_shape_of(x);
    if (s.dims != NULL && k > 0 && !(prover_const_int(s.dims[axis], &dim) && k >= dim)) {
        PrimExpr **dims = MEM_ARRAY(PrimExpr *, s.ndim);
        memcpy(dims, s.dims, sizeof(PrimExpr *) * (size_t)s.ndim);
        dims[axis] = primexpr_int(k, dtype_int64(), ctx->call->span);
        s.dims = dims;
    }
    VDevice *vd = x->u.tensor.vdevice;
    StructInfo **f = MEM_ARRAY(StructInfo *, 2);
    f[0] = ops_tensor_result(s, x->u.tensor.dtype, vd, ctx->call->span);
    f[1] = ops_tensor_result(s, index_dtype(ctx->call, x->u.tensor.dtype), vd, ctx->call->span);
    if (strcmp(ret, "values") == 0)
        return f[0];
    if (strcmp(ret, "indices") == 0)
        return f[1];
    return sinfo_tuple(f, 2, ctx->call->span);
}

/* A flag argument of unique: a PrimValue whose value is a constant. */
static bool unique_flag(OpInferCtx *ctx, int i, int64_t *out)
{
    const Expr *a = ctx->call->u.call.args[i];
    if (a->kind == EXPR_PRIM_VALUE && prover_const_int(a->u.prim, out))
        return true;
    ops_infer_fail(ctx, "OpArgType", "argument %d must be a constant PrimValue", i + 1);
    return false;
}

static StructInfo *unique_field(const StructInfo *x, DataType t, int ndim, Span sp)
{
    if (x->u.tensor.ndim == 0) {
        int64_t one = 1;
        OpShape s = {ops_const_dims(&one, 1, sp), 1};
        return ops_tensor_result(s, t, x->u.tensor.vdevice, sp);
    }
    return sinfo_tensor(NULL, t, x->u.tensor.vdevice, ndim, sp);
}

/* OP-unique: data-dependent sizes: the unique values (rank 1, or the input's rank with an
 * axis), then int64 index, inverse and counts as requested, each of rank 1; a rank-0 input
 * gives shape (1,). One result alone is not wrapped in a tuple. */
StructInfo *ops_search_infer_unique(OpInferCtx *ctx)
{
    int64_t flags[3], axis_value;
    if (!ops_check_arity(ctx, 5, 6))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || ops_arg_prim(ctx, 1) == NULL)
        return ops_infer_object(ctx);
    for (int i = 0; i < 3; i++)
        if (!unique_flag(ctx, i + 2, &flags[i]))
            return ops_infer_object(ctx);
    bool has_axis = ctx->nargs == 6;
    if (has_axis && !unique_flag(ctx, 5, &axis_value))
        return ops_infer_object(ctx);
    int ax, ndim = x->u.tensor.ndim;
    if (has_axis && ndim >= 0 && !ops_normalize_axis(ctx, axis_value, ndim, &ax))
        return ops_infer_object(ctx);
    Span sp = ctx->call->span;
    StructInfo **f = MEM_ARRAY(StructInfo *, 4);
    int n = 0;
    f[n++] = unique_field(x, x->u.tensor.dtype, has_axis ? ndim : 1, sp);
    for (int i = 0; i < 3; i++)
        if (flags[i])
            f[n++] = unique_field(x, dtype_int64(), 1, sp);
    return n == 1 ? f[0] : sinfo_tuple(f, n, sp);
}

/* ---- kernels ---------------------------------------------------------------------------- */

static int64_t *sort_perm(struct Interp *in, const Expr *call, const Tensor *x, bool desc,
                          int *axis)
{
    *axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", -1), x->ndim);
    int64_t *perm = tensor_scratch(x->numel, sizeof(int64_t));
    kernels_sort_perm(x, *axis, desc, perm);
    return perm;
}

Value *ops_search_kernel_sort(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis;
    int64_t *perm = sort_perm(in, call, x, ops_attr_bool(call, "descending", false), &axis);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    kernels_sort_gather(x, axis, perm, out);
    return value_tensor(out);
}

Value *ops_search_kernel_argsort(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis;
    int64_t *perm = sort_perm(in, call, x, ops_attr_bool(call, "descending", false), &axis);
    Tensor *out = ops_kernel_new_tensor(in, call, index_dtype(call, x->dtype), x->ndim, x->shape);
    kernels_sort_indices(x, axis, perm, out);
    return value_tensor(out);
}

Value *ops_search_kernel_topk(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis;
    int64_t *perm = sort_perm(in, call, x, ops_attr_bool(call, "largest", true), &axis);
    int64_t shape[TENSOR_MAX_NDIM], k = ops_attr_int(call, "k", 1);
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    if (k >= 1 && k < shape[axis])
        shape[axis] = k;
    Tensor *values = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, shape);
    Tensor *indices = ops_kernel_new_tensor(in, call, index_dtype(call, x->dtype), x->ndim, shape);
    kernels_sort_gather(x, axis, perm, values);
    kernels_sort_indices(x, axis, perm, indices);
    const char *ret = ops_attr_str(call, "ret_type", "both");
    if (strcmp(ret, "values") == 0)
        return value_tensor(values);
    if (strcmp(ret, "indices") == 0)
        return value_tensor(indices);
    Value *fields[2] = {value_tensor(values), value_tensor(indices)};
    return value_tuple(fields, 2);
}

Value *ops_search_kernel_unique(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    bool flag[4];
    for (int i = 0; i < 4; i++)
        flag[i] = value_prim_as_i64(ops_kernel_prim(in, call, args, nargs, i + 1)) != 0;
    int axis = -1;
    if (nargs == 6 && args[5]->kind == VAL_PRIM)
        axis = ops_kernel_axis(in, call, value_prim_as_i64(args[5]), x->ndim);
    UniqueResult r = kernels_unique(x, axis, flag[0]);
    if (!r.values || !r.index || !r.inverse || !r.counts)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the result of unique is too large");
    Tensor *extra[3] = {r.index, r.inverse, r.counts};
    Value *fields[4] = {value_tensor(r.values)};
    int n = 1;
    for (int i = 0; i < 3; i++)
        if (flag[i + 1])
            fields[n++] = value_tensor(extra[i]);
    return n == 1 ? fields[0] : value_tuple(fields, n);
}
