/* ops_join: operators that join or cut tensors along an axis: concat, stack and split.
 * SPEC_NOTES: "Operators" (OP-concat, OP-stack, OP-split). */
#include "interp/ops/ops_manip_internal.h"

#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* The most pieces one split makes (SPEC_NOTES 4.18). */
#define SPLIT_MAX_PIECES 65536

/* The common dtype and rank of a list of tensors; -2 rank when ranks disagree (reported). */
static bool join_common(OpInferCtx *ctx, const StructInfo **ts, int n, DataType *dt, int *ndim)
{
    *dt = ts[0]->u.tensor.dtype;
    *ndim = ts[0]->u.tensor.ndim;
    for (int i = 1; i < n; i++) {
        if (!ops_unify_dtype(ctx, *dt, ts[i]->u.tensor.dtype, dt))
            return false;
        int nd = ts[i]->u.tensor.ndim;
        if (nd >= 0 && *ndim >= 0 && nd != *ndim) {
            ops_infer_fail(ctx, "OpShapeMismatch", "tensors of rank %d and %d", *ndim, nd);
            return false;
        }
        if (*ndim < 0)
            *ndim = nd;
    }
    return true;
}

/* Dims off the axis must agree; `axis` < 0 compares every dim. False on a proven mismatch;
 * *known false when some dims are unknown or undecided. */
static bool join_dims(OpInferCtx *ctx, const StructInfo **ts, int n, int axis, bool *known)
{
    OpShape s0 = ops_shape_of(ts[0]);
    *known = s0.dims != NULL;
    for (int i = 1; i < n; i++) {
        OpShape s = ops_shape_of(ts[i]);
        if (s.dims == NULL || s0.dims == NULL) {
            *known = false;
            continue;
        }
        for (int d = 0; d < s.ndim; d++) {
            if (d == axis)
                continue;
            ProveResult r = prover_compare(s0.dims[d], s.dims[d]);
            if (r == PROVE_UNEQUAL) {
                ops_infer_fail(ctx, "OpShapeMismatch", "dim %d differs: %s vs %s", d,
                               prover_canonical(s0.dims[d]), prover_canonical(s.dims[d]));
                return false;
            }
            if (r == PROVE_UNKNOWN)
                *known = false;
        }
    }
    return true;
}

StructInfo *manip_infer_concat(OpInferCtx *ctx)
{
    const StructInfo **ts;
    int n, ndim;
    DataType dt;
    if (!ops_check_arity(ctx, 1, 1) || !manip_arg_tensors(ctx, 0, &ts, &n))
        return ops_infer_object(ctx);
    if (n == 0)
        return ops_infer_fail(ctx, "OpArgType", "concat needs at least one tensor");
    if (!join_common(ctx, ts, n, &dt, &ndim))
        return ops_infer_object(ctx);
    VDevice *vd = ops_common_vdevice(ts, n);
    /* axis=None concatenates the flattened tensors. */
    if (manip_attr_is_none(ctx->call, "axis")) {
        PrimExpr *total = manip_dim_int(0);
        bool known = true;
        for (int i = 0; i < n && known && total; i++) {
            OpShape s = ops_shape_of(ts[i]);
            known = s.dims != NULL;
            total = known ? manip_dim_add(total, manip_dim_product(s.dims, s.ndim)) : total;
        }
        OpShape r = {known ? &total : NULL, 1};
        if (!ops_dims_fit(ctx, r))
            return ops_infer_object(ctx);
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    }
    OpShape r = {NULL, ndim};
    if (ndim < 0)
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    int axis;
    bool known;
    if (ndim == 0)
        return ops_infer_fail(ctx, "OpShapeMismatch", "cannot concat scalars");
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), ndim, &axis) ||
        !join_dims(ctx, ts, n, axis, &known))
        return ops_infer_object(ctx);
    if (!known)
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    r.dims = MEM_ARRAY(PrimExpr *, ndim);
    memcpy(r.dims, ops_shape_of(ts[0]).dims, sizeof(PrimExpr *) * (size_t)ndim);
    r.dims[axis] = manip_dim_int(0);
    for (int i = 0; i < n; i++)
        r.dims[axis] = manip_dim_add(r.dims[axis], ops_shape_of(ts[i]).dims[axis]);
    if (!ops_dims_fit(ctx, r))
        return ops_infer_object(ctx);
    return ops_tensor_result(r, dt, vd, ctx->call->span);
}

Value *manip_eval_concat(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    if (nargs < 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no tensors");
    int n;
    Tensor **xs = manip_kernel_tensors(in, call, args[0], &n);
    if (n == 0)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no tensors");
    const char *err = NULL;
    if (manip_attr_is_none(call, "axis")) {
        Tensor **flat = MEM_ARRAY(Tensor *, n);
        for (int i = 0; i < n; i++)
            flat[i] = kernel_reshape(xs[i], 1, &xs[i]->numel, &err);
        Tensor *made = kernel_concat(flat, n, 0, &err);
        return manip_result(in, call, made, err);
    }
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), xs[0]->ndim);
    Tensor *made = kernel_concat(xs, n, axis, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_stack(OpInferCtx *ctx)
{
    const StructInfo **ts;
    int n, ndim;
    DataType dt;
    if (!ops_check_arity(ctx, 1, 1) || !manip_arg_tensors(ctx, 0, &ts, &n))
        return ops_infer_object(ctx);
    if (n == 0)
        return ops_infer_fail(ctx, "OpArgType", "stack needs at least one tensor");
    if (!join_common(ctx, ts, n, &dt, &ndim))
        return ops_infer_object(ctx);
    VDevice *vd = ops_common_vdevice(ts, n);
    OpShape r = {NULL, ndim < 0 ? -1 : ndim + 1};
    if (ndim < 0)
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    int axis;
    bool known;
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), ndim + 1, &axis) ||
        !join_dims(ctx, ts, n, -1, &known))
        return ops_infer_object(ctx);
    if (!known)
        return ops_tensor_result(r, dt, vd, ctx->call->span);
    r.dims = MEM_ARRAY(PrimExpr *, ndim + 1);
    PrimExpr **d0 = ops_shape_of(ts[0]).dims;
    for (int i = 0, j = 0; i <= ndim; i++)
        r.dims[i] = i == axis ? manip_dim_int(n) : d0[j++];
    return ops_tensor_result(r, dt, vd, ctx->call->span);
}

Value *manip_eval_stack(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    if (nargs < 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no tensors");
    int n;
    Tensor **xs = manip_kernel_tensors(in, call, args[0], &n);
    if (n == 0)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no tensors");
    int nd = xs[0]->ndim;
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), nd + 1);
    const char *err = NULL;
    Tensor **ex = MEM_ARRAY(Tensor *, n);
    int64_t dims[TENSOR_MAX_NDIM + 1];
    for (int i = 0; i < n; i++) {
        if (xs[i]->ndim != nd || nd + 1 > TENSOR_MAX_NDIM)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "ranks differ");
        for (int a = 0, b = 0; a <= nd; a++)
            dims[a] = a == axis ? 1 : xs[i]->shape[b++];
        ex[i] = kernel_reshape(xs[i], nd + 1, dims, &err);
    }
    Tensor *made = kernel_concat(ex, n, axis, &err);
    return manip_result(in, call, made, err);
}

/* ---- split ------------------------------------------------------------------------------- */

/* The split points: explicit indices, or `sections` equal parts of ceil(dim / sections), at
 * most SPLIT_MAX_PIECES of them (SPEC_NOTES 4.18: a few bytes of program would otherwise
 * describe a tuple of 2^31 tensors). */
static bool split_points(const Expr *call, int64_t dim, int64_t **idx, int *n, int64_t *sections)
{
    const AttrValue *v = ops_attr(call, "indices_or_sections");
    *sections = 0;
    if (v != NULL && v->kind == ATTR_INT) {
        *sections = v->u.i;
        if (*sections <= 0 || *sections > SPLIT_MAX_PIECES)
            return false;
        *n = (int)(*sections - 1);
        *idx = MEM_ARRAY(int64_t, *n > 0 ? *n : 1); /* at most SPLIT_MAX_PIECES */
        int64_t step = dim >= 0 ? checked_ceildiv(dim, *sections) : 0;
        for (int i = 0; i < *n; i++)
            (*idx)[i] = step * (i + 1);
        return true;
    }
    return ops_attr_int_list(call, "indices_or_sections", idx, n);
}

/* OP-split: a piece of a symbolic dim d between the indices lo and hi (-1: the dim's start or end),
 * as TVM's InferStructInfoSplit gives it: max(min(hi, d) - min(lo, d), 0) with every index
 * clamped into [0, d], after its analyzer's simplification: min(hi, d) for the first piece,
 * max(d - lo, 0) for the last, so a dim shorter than the indices gives empty pieces. */
static PrimExpr *symbolic_piece(PrimExpr *d, int64_t lo, int64_t hi, Span sp)
{
    if (lo <= 0 && hi < 0) /* from the start to the end */
        return d;
    DataType i64 = d->dtype;
    PrimExpr *zero = primexpr_int(0, i64, sp);
    if (lo <= 0) /* from the start (the first piece, or an index 0): min(hi, d) */
        return hi == 0 ? zero : primexpr_binary(PE_MIN, primexpr_int(hi, i64, sp), d, sp);
    if (hi < 0) /* the last piece: max(d - lo, 0) */
        return primexpr_binary(PE_MAX, primexpr_binary(PE_SUB, d, primexpr_int(lo, i64, sp), sp),
                               zero, sp);
    /* Zero where TVM's analyzer proves the piece empty (an index 0 or two equal indices); a
     * decreasing pair stays max(min(hi, d) - min(lo, d), 0), as it leaves it. */
    if (hi == 0 || hi == lo)
        return zero;
    PrimExpr *right = primexpr_binary(PE_MIN, primexpr_int(hi, i64, sp), d, sp);
    PrimExpr *left = primexpr_binary(PE_MIN, primexpr_int(lo, i64, sp), d, sp);
    return primexpr_binary(PE_MAX, primexpr_binary(PE_SUB, right, left, sp), zero, sp);
}

static StructInfo *split_result(OpInferCtx *ctx, const StructInfo *x, int axis, int64_t *idx, int n,
                                int64_t sections)
{
    OpShape s = ops_shape_of(x);
    StructInfo **fields = MEM_ARRAY(StructInfo *, n + 1);
    int64_t dim = -1;
    bool static_dim = s.dims != NULL && prover_const_int(s.dims[axis], &dim);
    for (int p = 0; p <= n; p++) {
        OpShape r = {NULL, s.ndim};
        PrimExpr *piece = NULL;
        if (static_dim) {
            /* OP-split: TVM clamps each index to [0, dim]; a piece is max(r - l, 0). */
            int64_t lo = p == 0 ? 0 : idx[p - 1], hi = p < n ? idx[p] : dim;
            lo = lo < 0 ? 0 : lo > dim ? dim : lo;
            hi = hi < 0 ? 0 : hi > dim ? dim : hi < lo ? lo : hi;
            piece = manip_dim_int(hi > lo ? hi - lo : 0);
        } else if (s.dims != NULL && sections == 0) {
            /* -1 stands for "the start" / "the end" here; a negative index clamps to 0. */
            int64_t lo = p == 0 ? -1 : idx[p - 1] < 0 ? 0 : idx[p - 1];
            int64_t hi = p < n ? (idx[p] < 0 ? 0 : idx[p]) : -1;
            piece = symbolic_piece(s.dims[axis], lo, hi, ctx->call->span);
        } else if (s.dims != NULL && sections == 1) {
            piece = s.dims[axis];
        }
        if (piece != NULL) {
            r.dims = MEM_ARRAY(PrimExpr *, s.ndim);
            memcpy(r.dims, s.dims, sizeof(PrimExpr *) * (size_t)s.ndim);
            r.dims[axis] = piece;
        }
        fields[p] = ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
    }
    return sinfo_tuple(fields, n + 1, ctx->call->span);
}

StructInfo *manip_infer_split(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    int64_t dim = -1, *idx, sections;
    int n, axis = 0;
    if (s.ndim >= 0 && !ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), s.ndim, &axis))
        return ops_infer_object(ctx);
    if (s.dims != NULL)
        prover_const_int(s.dims[axis], &dim);
    if (!split_points(ctx->call, dim, &idx, &n, &sections))
        return ops_infer_fail(ctx, "OpAttr",
                              "indices_or_sections must be a positive int (at most %d) or a "
                              "list of ints",
                              SPLIT_MAX_PIECES);
    /* One piece (one section, or no index): the data itself, as TVM's InferStructInfoSplit. */
    if (n == 0)
        return (StructInfo *)x;
    if (sections > 0 && dim < 0 && sections != 1) {
        /* Sections of a symbolic dim: each piece's dim is unknown. */
        StructInfo **fields = MEM_ARRAY(StructInfo *, sections);
        OpShape r = {NULL, s.ndim};
        for (int64_t p = 0; p < sections; p++)
            fields[p] =
                ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
        return sinfo_tuple(fields, (int)sections, ctx->call->span);
    }
    if (s.ndim < 0) {
        StructInfo **fields = MEM_ARRAY(StructInfo *, n + 1);
        for (int p = 0; p <= n; p++)
            fields[p] = ops_tensor_result(s, x->u.tensor.dtype, NULL, ctx->call->span);
        return sinfo_tuple(fields, n + 1, ctx->call->span);
    }
    return split_result(ctx, x, axis, idx, n, sections);
}

Value *manip_eval_split(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int axis = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    int64_t *idx, sections;
    int n;
    if (!split_points(call, x->shape[axis], &idx, &n, &sections))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "bad indices_or_sections");
    if (n == 0)
        return args[0];
    const char *err = NULL;
    Tensor **parts = kernel_split(x, idx, n, axis, &err);
    if (parts == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", err);
    Value **fields = MEM_ARRAY(Value *, n + 1);
    for (int i = 0; i <= n; i++)
        fields[i] = value_tensor(parts[i]);
    return value_tuple(fields, n + 1);
}
