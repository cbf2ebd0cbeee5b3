/* ops_index: operators that select elements: take, strided_slice, dynamic_strided_slice,
 * where, and the conversion astype. SPEC_NOTES: "Operators" (OP-take ... OP-astype). */
#include "interp/ops/ops_manip_internal.h"

#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- take -------------------------------------------------------------------------------- */

static bool take_mode_ok(const char *mode)
{
    return strcmp(mode, "fast") == 0 || strcmp(mode, "clip") == 0 || strcmp(mode, "wrap") == 0;
}

/* OP-take: a PrimValue index is read as a rank-0 tensor of its dtype (TVM v0.22's
 * InferStructInfoTake), so it drops the axis. */
static const StructInfo *take_indices(OpInferCtx *ctx)
{
    const StructInfo *s = ctx->arg_sinfo[1];
    if (s == NULL || s->kind != SINFO_PRIM)
        return ops_arg_tensor(ctx, 1);
    OpShape scalar = {MEM_ARRAY(PrimExpr *, 1), 0};
    return ops_tensor_result(scalar, s->u.prim.dtype, NULL, ctx->call->span);
}

StructInfo *manip_infer_take(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *ix = x ? take_indices(ctx) : NULL;
    if (x == NULL || ix == NULL)
        return ops_infer_object(ctx);
    DataType it = ix->u.tensor.dtype;
    if (!dtype_is_void(it) && !dtype_is_int(it) && !(dtype_is_uint(it) && !dtype_is_bool(it)))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "indices must be integers, got %s",
                              dtype_str(it));
    if (!take_mode_ok(ops_attr_str(ctx->call, "mode", "fast")))
        return ops_infer_fail(ctx, "OpAttr", "mode must be \"fast\", \"clip\" or \"wrap\"");
    OpShape xs = ops_shape_of(x), is = ops_shape_of(ix);
    int axis = 0;
    if (ops_attr(ctx->call, "axis") == NULL) {
        /* axis=None: the data must be 1-D. */
        if (xs.ndim >= 0 && xs.ndim != 1)
            return ops_infer_fail(ctx, "OpShapeMismatch", "axis=None needs 1-D data, got rank %d",
                                  xs.ndim);
    } else if (xs.ndim >= 0 &&
               !ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), xs.ndim, &axis)) {
        return ops_infer_object(ctx);
    }
    OpShape r = {NULL, (xs.ndim < 0 || is.ndim < 0) ? -1 : xs.ndim - 1 + is.ndim};
    if (xs.dims != NULL && is.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim > 0 ? r.ndim : 1);
        int k = 0;
        for (int i = 0; i < axis; i++)
            r.dims[k++] = xs.dims[i];
        for (int i = 0; i < is.ndim; i++)
            r.dims[k++] = is.dims[i];
        for (int i = axis + 1; i < xs.ndim; i++)
            r.dims[k++] = xs.dims[i];
    }
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

Value *manip_eval_take(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *ix;
    if (nargs > 1 && args[1]->kind == VAL_PRIM && !value_prim_is_float(args[1])) {
        /* OP-take: a PrimValue index is a rank-0 index tensor of its dtype. */
        ix = ops_kernel_new_tensor(in, call, args[1]->u.prim.dtype, 0, NULL);
        tensor_set_i64(ix, 0, args[1]->u.prim.i);
    } else {
        ix = ops_kernel_tensor(in, call, args, nargs, 1);
    }
    int axis = ops_attr(call, "axis")
                   ? ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim)
                   : -1;
    const char *err = NULL;
    Tensor *made = kernel_take(x, ix, axis, ops_attr_str(call, "mode", "fast"), &err);
    return manip_result(in, call, made, err);
}

/* ---- strided_slice ----------------------------------------------------------------------- */

/* The axes, begin, end and strides of a call: constant ints, or `known` false when some is
 * symbolic (TVM v0.22 takes them as Relax tuples of PrimValues, index.cc strided_slice). */
typedef struct SliceArgs {
    int64_t *list[4]; /* axes, begin, end, strides (NULL: strides omitted) */
    int len[4];
    bool known;
} SliceArgs;

/* A tuple StructInfo of PrimValues with constant values -> ints. */
static bool sinfo_ints(const StructInfo *t, int64_t **out, int *n, bool *known)
{
    if (t == NULL || t->kind != SINFO_TUPLE)
        return false;
    *n = t->u.tuple.n;
    *out = MEM_ARRAY(int64_t, *n + 1);
    for (int i = 0; i < *n; i++) {
        const StructInfo *f = t->u.tuple.fields[i];
        if (f->kind != SINFO_PRIM || !dtype_is_int(f->u.prim.dtype))
            return false;
        if (f->u.prim.value == NULL || !prover_const_int(f->u.prim.value, &(*out)[i]))
            *known = false;
    }
    return true;
}

/* A tuple value of integer PrimValues -> ints. */
static bool value_ints(const Value *v, int64_t **out, int *n)
{
    if (v == NULL || v->kind != VAL_TUPLE)
        return false;
    *n = v->u.tuple.n;
    *out = MEM_ARRAY(int64_t, *n + 1);
    for (int i = 0; i < *n; i++) {
        if (v->u.tuple.fields[i]->kind != VAL_PRIM)
            return false;
        (*out)[i] = value_prim_as_i64(v->u.tuple.fields[i]);
    }
    return true;
}

/* Per-axis begin/end/stride for every axis of x (untouched axes take the whole dim). */
static bool slice_plan(const SliceArgs *a, int ndim, int64_t *b, int64_t *e, int64_t *s,
                       bool *touched, const char **why)
{
    int na = a->len[0];
    bool has_strides = a->list[3] != NULL;
    if (a->len[1] != na || a->len[2] != na || (has_strides && a->len[3] != na)) {
        *why = "axes, begin, end and strides must have the same length";
        return false;
    }
    for (int i = 0; i < ndim; i++) {
        b[i] = 0, e[i] = INT64_MAX, s[i] = 1;
        touched[i] = false;
    }
    for (int i = 0; i < na; i++) {
        int64_t ax = a->list[0][i] < 0 ? a->list[0][i] + ndim : a->list[0][i];
        if (ax < 0 || ax >= ndim || touched[ax]) {
            *why = "an axis is out of range or repeated";
            return false;
        }
        touched[ax] = true;
        b[ax] = a->list[1][i], e[ax] = a->list[2][i], s[ax] = has_strides ? a->list[3][i] : 1;
        if (s[ax] == 0) {
            *why = "a stride is zero";
            return false;
        }
    }
    return true;
}

/* Python's slice length for a constant dim. */
static int64_t slice_len(int64_t dim, int64_t b, int64_t e, int64_t s)
{
    int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
    if (b < 0)
        b = b < -dim ? lo : b + dim;
    if (e < 0)
        e = e < -dim ? lo : e + dim;
    b = b < lo ? lo : b > hi ? hi : b;
    e = e < lo ? lo : e > hi ? hi : e;
    return kernel_slice_count(b, e, s);
}

/* The call's axes/begin/end/strides from their StructInfo; false (after an error) when one
 * is not a tuple of integer PrimValues. */
static bool infer_slice_args(OpInferCtx *ctx, SliceArgs *a)
{
    a->known = true;
    a->list[3] = NULL;
    a->len[3] = 0;
    for (int k = 0; k < ctx->nargs - 1 && k < 4; k++) {
        if (!sinfo_ints(ctx->arg_sinfo[k + 1], &a->list[k], &a->len[k], &a->known)) {
            ops_infer_fail(ctx, "OpArgType",
                           "axes, begin, end and strides must be tuples of integer PrimValues");
            return false;
        }
    }
    return true;
}

StructInfo *manip_infer_strided_slice(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 4, 5))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    SliceArgs args;
    if (x == NULL || !infer_slice_args(ctx, &args))
        return ops_infer_object(ctx);
    OpShape xs = ops_shape_of(x);
    int nd = xs.ndim < 0 ? 0 : xs.ndim;
    int64_t b[TENSOR_MAX_NDIM], e[TENSOR_MAX_NDIM], s[TENSOR_MAX_NDIM];
    bool touched[TENSOR_MAX_NDIM];
    const char *why = NULL;
    if (xs.ndim > TENSOR_MAX_NDIM)
        return ops_infer_fail(ctx, "OpAttr", "rank too large");
    if (args.known && xs.ndim >= 0 && !slice_plan(&args, nd, b, e, s, touched, &why))
        return ops_infer_fail(ctx, "OpAttr", "%s", why);
    OpShape r = {NULL, xs.ndim};
    /* Symbolic bounds: the result keeps only its rank (the reference does not build TVM's
     * clamped symbolic length). */
    if (xs.dims == NULL || !args.known)
        return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
    r.dims = MEM_ARRAY(PrimExpr *, nd > 0 ? nd : 1);
    for (int i = 0; i < nd; i++) {
        int64_t dim;
        bool whole = b[i] == 0 && s[i] == 1 && e[i] >= INT32_MAX;
        if (!touched[i] || whole) {
            r.dims[i] = xs.dims[i];
        } else if (prover_const_int(xs.dims[i], &dim)) {
            r.dims[i] = manip_dim_int(slice_len(dim, b[i], e[i], s[i]));
        } else {
            /* A symbolic dim sliced by constants: the result keeps only its rank. */
            r.dims = NULL;
            break;
        }
    }
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

Value *manip_eval_strided_slice(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t b[TENSOR_MAX_NDIM], e[TENSOR_MAX_NDIM], s[TENSOR_MAX_NDIM];
    bool touched[TENSOR_MAX_NDIM];
    const char *why = "axes, begin, end and strides must be tuples of integer PrimValues";
    SliceArgs a = {{NULL, NULL, NULL, NULL}, {0, 0, 0, 0}, true};
    bool ok = nargs >= 4;
    for (int k = 0; ok && k < nargs - 1 && k < 4; k++)
        ok = value_ints(args[k + 1], &a.list[k], &a.len[k]);
    if (!ok || !slice_plan(&a, x->ndim, b, e, s, touched, &why))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", why);
    Tensor *made = kernel_strided_slice(x, b, e, s, &why);
    return manip_result(in, call, made, why);
}

StructInfo *manip_infer_dynamic_strided_slice(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 4, 4))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    for (int i = 1; i < 4; i++) {
        const StructInfo *t = ops_arg_tensor(ctx, i);
        if (t == NULL)
            return ops_infer_object(ctx);
        if (t->u.tensor.ndim >= 0 && t->u.tensor.ndim != 1)
            return ops_infer_fail(ctx, "OpShapeMismatch", "begin, end and strides must be 1-D");
        /* OP-dynamic_strided_slice: int64 only (src/relax/op/tensor/index.cc,
         * InferStructInfoDynStridedSlice); an unknown dtype is assumed int64. */
        DataType dt = t->u.tensor.dtype;
        if (!dtype_is_void(dt) && !(dtype_is_int(dt) && dt.bits == 64))
            return ops_infer_fail(ctx, "OpDTypeMismatch",
                                  "begin, end and strides must be int64, got %s", dtype_str(dt));
    }
    OpShape r = {NULL, x->u.tensor.ndim};
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

Value *manip_eval_dynamic_strided_slice(struct Interp *in, const Expr *call, Value **args,
                                        int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t v[3][TENSOR_MAX_NDIM];
    for (int k = 0; k < 3; k++) {
        Tensor *t = ops_kernel_tensor(in, call, args, nargs, k + 1);
        if (t->ndim != 1 || t->numel != x->ndim || dtype_is_float(t->dtype))
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "begin, end and strides need one integer per axis");
        tensor_read_i64(t, v[k]);
    }
    const char *err = NULL;
    Tensor *made = kernel_strided_slice(x, v[0], v[1], v[2], &err);
    return manip_result(in, call, made, err);
}

/* ---- where, astype ----------------------------------------------------------------------- */

StructInfo *manip_infer_where(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *t[3];
    for (int i = 0; i < 3; i++)
        if ((t[i] = ops_arg_tensor(ctx, i)) == NULL)
            return ops_infer_object(ctx);
    DataType c = t[0]->u.tensor.dtype, dt;
    if (!dtype_is_void(c) && !dtype_is_bool(c))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "condition must be bool, got %s",
                              dtype_str(c));
    if (!ops_unify_dtype(ctx, t[1]->u.tensor.dtype, t[2]->u.tensor.dtype, &dt))
        return ops_infer_object(ctx);
    OpShape ab, r;
    if (!ops_broadcast(ctx, ops_shape_of(t[1]), ops_shape_of(t[2]), &ab) ||
        !ops_broadcast(ctx, ops_shape_of(t[0]), ab, &r))
        return ops_infer_object(ctx);
    /* The condition's vdevice counts too, as in TVM's InferStructInfoWhere. */
    return ops_tensor_result(r, dt, ops_common_vdevice(t, 3), ctx->call->span);
}

Value *manip_eval_where(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *c = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *a = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *b = ops_kernel_tensor(in, call, args, nargs, 2);
    const char *err = NULL;
    Tensor *made = kernel_where(c, a, b, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_astype(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt))
        return ops_infer_fail(ctx, "OpAttr", "astype needs a dtype");
    return ops_tensor_result(ops_shape_of(x), dt, x->u.tensor.vdevice, ctx->call->span);
}

Value *manip_eval_astype(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const char *err = NULL;
    Tensor *made = kernel_astype(x, ops_attr_dtype(call, "dtype"), &err);
    return manip_result(in, call, made, err);
}
