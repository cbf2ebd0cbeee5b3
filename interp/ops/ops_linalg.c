/* ops_linalg: matmul (numpy semantics), linear, outer and einsum.
 * SPEC_NOTES: "Operators" (OP-matmul, OP-linear, OP-outer, OP-einsum). */
#include "interp/ops/ops_manip_internal.h"

#include <ctype.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_einsum.h"

/* The result dtype: out_dtype when given, else the operands' common dtype. */
static bool linalg_dtype(OpInferCtx *ctx, DataType a, DataType b, DataType *out)
{
    DataType od = ops_attr_dtype(ctx->call, "out_dtype");
    if (!dtype_is_void(od)) {
        *out = od;
        return true;
    }
    return ops_unify_dtype(ctx, a, b, out);
}

/* numpy matmul over shapes: 1-D operands are promoted and the added axis dropped. */
static bool matmul_shape(OpInferCtx *ctx, OpShape a, OpShape b, OpShape *out)
{
    if (a.ndim == 0 || b.ndim == 0) {
        ops_infer_fail(ctx, "OpShapeMismatch", "matmul needs operands of rank at least 1");
        return false;
    }
    out->dims = NULL;
    out->ndim = -1;
    if (a.ndim < 0 || b.ndim < 0)
        return true;
    int ca = a.ndim == 1 ? 1 : 2, cb = b.ndim == 1 ? 1 : 2;
    int nb = a.ndim - ca > b.ndim - cb ? a.ndim - ca : b.ndim - cb;
    out->ndim = nb + (ca == 2) + (cb == 2);
    if (a.dims == NULL || b.dims == NULL)
        return true;
    PrimExpr *ka = a.dims[a.ndim - 1], *kb = b.dims[b.ndim - cb];
    if (prover_compare(ka, kb) == PROVE_UNEQUAL) {
        ops_infer_fail(ctx, "OpShapeMismatch", "reduction dims %s and %s differ",
                       prover_canonical(ka), prover_canonical(kb));
        return false;
    }
    OpShape ba = {a.dims, a.ndim - ca}, bb = {b.dims, b.ndim - cb}, batch;
    if (!ops_broadcast(ctx, ba, bb, &batch))
        return false;
    if (batch.dims == NULL)
        return true;
    out->dims = MEM_ARRAY(PrimExpr *, out->ndim > 0 ? out->ndim : 1);
    int k = 0;
    for (int i = 0; i < nb; i++)
        out->dims[k++] = batch.dims[i];
    if (ca == 2)
        out->dims[k++] = a.dims[a.ndim - 2];
    if (cb == 2)
        out->dims[k++] = b.dims[b.ndim - 1];
    return true;
}

StructInfo *manip_infer_matmul(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *a = ops_arg_tensor(ctx, 0), *b = a ? ops_arg_tensor(ctx, 1) : NULL;
    DataType dt;
    OpShape r;
    if (b == NULL || !linalg_dtype(ctx, a->u.tensor.dtype, b->u.tensor.dtype, &dt) ||
        !matmul_shape(ctx, ops_shape_of(a), ops_shape_of(b), &r))
        return ops_infer_object(ctx);
    return ops_tensor_result(r, dt, ops_pick_vdevice(a, b), ctx->call->span);
}

static DataType out_dtype_or(const Expr *call, DataType dflt)
{
    DataType od = ops_attr_dtype(call, "out_dtype");
    return dtype_is_void(od) ? dflt : od;
}

/* LIMIT-fuel: one unit per multiply-accumulate of a (..., M, K) times b (..., K, N), before
 * the work: batch x M x K x N, where the batch is the larger operand's; an overflow is more
 * than any budget. An empty operand makes none, whatever the other's dims: its 0 is a batch
 * dim or M or N, which empties the result, or K, which leaves nothing to sum. */
static void charge_matmul(struct Interp *in, const Expr *call, const Tensor *a, const Tensor *b)
{
    if (a->ndim < 1 || b->ndim < 1)
        return;
    int64_t m = a->ndim >= 2 ? a->shape[a->ndim - 2] : 1;
    int64_t n = b->ndim >= 2 ? b->shape[b->ndim - 1] : 1;
    int64_t via_a = checked_count((const int64_t[2]){tensor_numel(a), n}, 2);
    int64_t via_b = checked_count((const int64_t[2]){tensor_numel(b), m}, 2);
    bool empty = via_a == 0 || via_b == 0;
    int64_t macs = via_a < 0 || via_b < 0 ? -1 : via_a > via_b ? via_a : via_b;
    interp_charge(in, empty ? 0 : macs, call->span);
}

Value *manip_eval_matmul(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *a = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *b = ops_kernel_tensor(in, call, args, nargs, 1);
    charge_matmul(in, call, a, b);
    const char *err = NULL;
    Tensor *made = kernel_matmul(a, b, out_dtype_or(call, a->dtype), &err);
    return manip_result(in, call, made, err);
}

/* linear(x, w, b) = matmul(x, permute_dims(w)) + b. */
StructInfo *manip_infer_linear(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 3))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *w = x ? ops_arg_tensor(ctx, 1) : NULL;
    const StructInfo *bias = (w && ctx->nargs == 3) ? ops_arg_tensor(ctx, 2) : NULL;
    if (w == NULL || (ctx->nargs == 3 && bias == NULL))
        return ops_infer_object(ctx);
    OpShape ws = ops_shape_of(w), wt = ws;
    if (ws.ndim > 2)
        return ops_infer_fail(ctx, "OpShapeMismatch", "weight must be 1-D or 2-D");
    if (ws.dims != NULL && ws.ndim == 2) {
        wt.dims = MEM_ARRAY(PrimExpr *, 2);
        wt.dims[0] = ws.dims[1];
        wt.dims[1] = ws.dims[0];
    }
    DataType dt;
    OpShape r;
    if (!linalg_dtype(ctx, x->u.tensor.dtype, w->u.tensor.dtype, &dt) ||
        !matmul_shape(ctx, ops_shape_of(x), wt, &r))
        return ops_infer_object(ctx);
    if (bias != NULL) {
        OpShape rb;
        if (!ops_unify_dtype(ctx, dt, bias->u.tensor.dtype, &dt) ||
            !ops_broadcast(ctx, r, ops_shape_of(bias), &rb))
            return ops_infer_object(ctx);
        r = rb;
    }
    return ops_tensor_result(r, dt, ops_pick_vdevice(x, w), ctx->call->span);
}

Value *manip_eval_linear(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *w = ops_kernel_tensor(in, call, args, nargs, 1);
    const char *err = NULL;
    int perm[2] = {1, 0};
    Tensor *wt = w->ndim == 2 ? kernel_permute(w, perm, &err) : w;
    if (wt != NULL)
        charge_matmul(in, call, x, wt); /* as matmul's */
    DataType dt = out_dtype_or(call, x->dtype);
    Tensor *y = wt ? kernel_matmul(x, wt, dt, &err) : NULL;
    if (y == NULL || nargs < 3 || args[2]->kind != VAL_TENSOR)
        return manip_result(in, call, y, err);
    /* The bias adds in double (or wrapping int64) and rounds once. */
    Tensor *b = args[2]->u.tensor;
    int nd = y->ndim > b->ndim ? y->ndim : b->ndim;
    int64_t shape[TENSOR_MAX_NDIM];
    for (int i = 0; i < nd; i++) {
        int yi = i - (nd - y->ndim), bi = i - (nd - b->ndim);
        int64_t dy = yi >= 0 ? y->shape[yi] : 1, db = bi >= 0 ? b->shape[bi] : 1;
        if (dy != db && dy != 1 && db != 1)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "bias does not broadcast");
        shape[i] = dy == 1 ? db : dy;
    }
    Tensor *yb = kernel_broadcast_to(y, nd, shape, &err),
           *bb = kernel_broadcast_to(b, nd, shape, &err);
    Tensor *out = ops_kernel_new_tensor(in, call, dt, nd, shape);
    for (int64_t k = 0; k < out->numel; k++) {
        if (dtype_is_float(dt))
            tensor_set_f64(out, k, tensor_get_f64(yb, k) + tensor_get_f64(bb, k));
        else
            tensor_set_i64(
                out, k,
                (int64_t)((uint64_t)tensor_get_i64(yb, k) + (uint64_t)tensor_get_i64(bb, k)));
    }
    return value_tensor(out);
}

StructInfo *manip_infer_outer(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *a = ops_arg_tensor(ctx, 0), *b = a ? ops_arg_tensor(ctx, 1) : NULL;
    DataType dt;
    if (b == NULL || !ops_unify_dtype(ctx, a->u.tensor.dtype, b->u.tensor.dtype, &dt))
        return ops_infer_object(ctx);
    OpShape sa = ops_shape_of(a), sb = ops_shape_of(b);
    if ((sa.ndim >= 0 && sa.ndim != 1) || (sb.ndim >= 0 && sb.ndim != 1))
        return ops_infer_fail(ctx, "OpShapeMismatch", "outer needs 1-D operands");
    PrimExpr *dims[2] = {sa.dims ? sa.dims[0] : NULL, sb.dims ? sb.dims[0] : NULL};
    OpShape r = {dims[0] && dims[1] ? dims : NULL, 2};
    /* No vdevice, as TVM's InferStructInfoOuter builds it (VDEV-2 then gives the operands'). */
    return ops_tensor_result(r, dt, NULL, ctx->call->span);
}

Value *manip_eval_outer(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *a = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *b = ops_kernel_tensor(in, call, args, nargs, 1);
    const char *err = NULL;
    Tensor *made = kernel_outer(a, b, a->dtype, &err);
    return manip_result(in, call, made, err);
}

/* ---- einsum ------------------------------------------------------------------------------ */

/* GetBroadcastedExtent (topi einsum.cc) for a label, BroadcastShape's rule for an ellipsis
 * dim: equal dims stay, a dim of 1 takes the other, two different constants are
 * OpShapeMismatch; a constant against a symbolic dim gives the symbolic one for a label and
 * the constant for an ellipsis dim; two symbolic dims not provably equal give their max. */
static PrimExpr *einsum_extent(OpInferCtx *ctx, char label, PrimExpr *a, PrimExpr *b)
{
    int64_t ca, cb;
    bool ka = prover_const_int(a, &ca), kb = prover_const_int(b, &cb);
    if (prover_compare(a, b) == PROVE_EQUAL)
        return a;
    if ((ka && ca == 1) || (kb && cb == 1))
        return ka && ca == 1 ? b : a;
    if (ka && kb) {
        ops_infer_fail(ctx, "OpShapeMismatch", "dims %lld and %lld of one label do not broadcast",
                       (long long)ca, (long long)cb);
        return NULL;
    }
    if (ka || kb)
        return (ka != kernel_einsum_is_ellipsis(label)) ? b : a;
    return primexpr_binary(PE_MAX, a, b, ctx->call->span);
}

/* The output dims of a spec read for operands whose shapes are all known. */
static OpShape einsum_dims(OpInferCtx *ctx, const EinsumSpec *spec, OpShape *shapes)
{
    PrimExpr *size[128] = {NULL};
    OpShape r = {MEM_ARRAY(PrimExpr *, spec->out_ndim > 0 ? spec->out_ndim : 1), spec->out_ndim};
    for (int i = 0; i < spec->nin; i++)
        for (int a = 0; spec->in[i][a]; a++) {
            PrimExpr **slot = &size[(unsigned char)spec->in[i][a]];
            *slot = *slot == NULL ? shapes[i].dims[a]
                                  : einsum_extent(ctx, spec->in[i][a], *slot, shapes[i].dims[a]);
            if (*slot == NULL)
                return (OpShape){NULL, -2};
        }
    for (int i = 0; i < r.ndim; i++)
        r.dims[i] = size[(unsigned char)spec->out[i]];
    return r;
}

/* OP-einsum: one tuple of tensors of one dtype (`OpDTypeMismatch`); the subscripts read as
 * topi's EinsumEquation (`OpAttr`), an operand's rank against its labels (`OpShapeMismatch`);
 * dims per label broadcast as einsum_extent; an operand of unknown shape leaves the rank. */
StructInfo *manip_infer_einsum(OpInferCtx *ctx)
{
    const StructInfo **ts;
    int n;
    EinsumSpec spec;
    if (!ops_check_arity(ctx, 1, 1) || !manip_arg_tensors(ctx, 0, &ts, &n))
        return ops_infer_object(ctx);
    const char *sub = ops_attr_str(ctx->call, "subscripts", NULL);
    if (sub == NULL)
        return ops_infer_fail(ctx, "OpAttr", "subscripts are required");
    if (n == 0)
        return ops_infer_fail(ctx, "OpArity", "einsum needs at least one operand");
    DataType dt = ts[0]->u.tensor.dtype;
    OpShape *shapes = MEM_ARRAY(OpShape, n);
    int *ranks = MEM_ARRAY(int, n);
    bool known = true;
    for (int i = 0; i < n; i++) {
        if (!ops_unify_dtype(ctx, dt, ts[i]->u.tensor.dtype, &dt))
            return ops_infer_object(ctx);
        shapes[i] = ops_shape_of(ts[i]);
        ranks[i] = shapes[i].ndim;
        known = known && shapes[i].dims != NULL;
    }
    const char *why = kernel_einsum_spec(sub, ranks, n, &spec);
    if (why != NULL)
        return ops_infer_fail(ctx, strstr(why, "rank") ? "OpShapeMismatch" : "OpAttr", "%s", why);
    OpShape r = {NULL, spec.out_ndim};
    if (known && (r = einsum_dims(ctx, &spec, shapes)).ndim == -2)
        return ops_infer_object(ctx);
    return ops_tensor_result(r, dt, ops_common_vdevice(ts, n), ctx->call->span);
}

Value *manip_eval_einsum(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    int n;
    EinsumSpec spec;
    if (nargs < 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no operands");
    Tensor **xs = manip_kernel_tensors(in, call, args[0], &n);
    const char *sub = ops_attr_str(call, "subscripts", NULL);
    int *ranks = MEM_ARRAY(int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        ranks[i] = xs[i]->ndim;
    const char *why = n == 0 || sub == NULL ? "einsum needs subscripts and an operand"
                                            : kernel_einsum_spec(sub, ranks, n, &spec);
    if (why != NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", why);
    /* LIMIT-fuel: one unit per element read, before the work: every assignment of the
     * labels reads one element of each operand (matmul's multiply-accumulates, once per
     * operand); an overflow is more than any budget. */
    interp_charge(in, kernel_einsum_work(&spec, xs), call->span);
    const char *err = NULL;
    Tensor *made = kernel_einsum(&spec, xs, xs[0]->dtype, &err);
    return manip_result(in, call, made, err);
}
