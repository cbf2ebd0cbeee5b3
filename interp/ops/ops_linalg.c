/* ops_linalg: matmul (numpy semantics), linear, outer and einsum.
 * SPEC_NOTES: "Operators" (OP-matmul, OP-linear, OP-outer, OP-einsum). */
#include "interp/ops/ops_manip_internal.h"

#include <ctype.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

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

Value *manip_eval_matmul(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *a = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *b = ops_kernel_tensor(in, call, args, nargs, 1);
    /* LIMIT-fuel: one unit per multiply-accumulate: batch x M x K x N, where the batch is
     * the larger operand's (a (..., M, K) times b (..., K, N)); an overflow is more than any
     * budget. */
    if (a->ndim >= 1 && b->ndim >= 1) {
        int64_t m = a->ndim >= 2 ? a->shape[a->ndim - 2] : 1;
        int64_t n = b->ndim >= 2 ? b->shape[b->ndim - 1] : 1;
        int64_t via_a = 0, via_b = 0;
        bool over = __builtin_mul_overflow(tensor_numel(a), n, &via_a) ||
                    __builtin_mul_overflow(tensor_numel(b), m, &via_b);
        interp_charge(in, over ? -1 : via_a > via_b ? via_a : via_b, call->span);
    }
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
    return ops_tensor_result(r, dt, ops_pick_vdevice(a, b), ctx->call->span);
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

/* Splits explicit subscripts into operand label strings and the output; the implicit
 * output is numpy's (labels used once, alphabetical). NULL with *why on a form outside the
 * supported subset: letters only, no ellipsis, output labels distinct and all used. */
static const char *einsum_output(const char *sub, int nops, const char ***labels, const char **why)
{
    for (const char *p = sub; *p; p++) {
        if (*p == '.') {
            *why = "ellipsis (...) is not supported";
            return NULL;
        }
        if (!isalpha((unsigned char)*p) && *p != ',' && *p != '-' && *p != '>') {
            *why = "subscripts may hold only letters, ',' and '->'";
            return NULL;
        }
    }
    char *spec = mem_strdup(sub);
    char *arrow = strstr(spec, "->");
    if (arrow)
        *arrow = '\0';
    *labels = MEM_ARRAY(const char *, nops > 0 ? nops : 1);
    int k = 0;
    for (char *p = spec; p; k++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (k < nops)
            (*labels)[k] = p;
        p = comma ? comma + 1 : NULL;
    }
    if (k != nops) {
        *why = "the subscripts name a different number of operands";
        return NULL;
    }
    if (!arrow) {
        StrBuf sb;
        strbuf_init(&sb);
        for (int c = 'A'; c <= 'z'; c++) {
            int uses = 0;
            for (int i = 0; i < nops; i++)
                for (const char *q = (*labels)[i]; *q; q++)
                    uses += *q == c;
            if (uses == 1)
                strbuf_addc(&sb, (char)c);
        }
        return strbuf_str(&sb);
    }
    const char *out = arrow + 2;
    for (const char *q = out; *q; q++) {
        bool used = false;
        for (int i = 0; i < nops; i++)
            used = used || strchr((*labels)[i], *q) != NULL;
        if (!used || strchr(q + 1, *q)) {
            *why = "an output label is unused or repeated";
            return NULL;
        }
    }
    return out;
}

StructInfo *manip_infer_einsum(OpInferCtx *ctx)
{
    const StructInfo **ts;
    int n;
    if (!ops_check_arity(ctx, 1, 1) || !manip_arg_tensors(ctx, 0, &ts, &n))
        return ops_infer_object(ctx);
    const char *sub = ops_attr_str(ctx->call, "subscripts", NULL), *why = NULL;
    const char **labels;
    const char *out = sub ? einsum_output(sub, n, &labels, &why) : NULL;
    if (out == NULL)
        return ops_infer_fail(ctx, "OpAttr", "%s", why ? why : "subscripts are required");
    DataType dt = n > 0 ? ts[0]->u.tensor.dtype : dtype_void();
    PrimExpr *size[128] = {NULL};
    bool known = true;
    for (int i = 0; i < n; i++) {
        if (!ops_unify_dtype(ctx, dt, ts[i]->u.tensor.dtype, &dt))
            return ops_infer_object(ctx);
        OpShape s = ops_shape_of(ts[i]);
        if (s.ndim >= 0 && s.ndim != (int)strlen(labels[i]))
            return ops_infer_fail(ctx, "OpShapeMismatch", "operand %d has rank %d for \"%s\"", i,
                                  s.ndim, labels[i]);
        known = known && s.dims != NULL;
        for (int a = 0; s.dims && labels[i][a]; a++) {
            PrimExpr **slot = &size[(unsigned char)labels[i][a]];
            if (*slot && prover_compare(*slot, s.dims[a]) == PROVE_UNEQUAL)
                return ops_infer_fail(ctx, "OpShapeMismatch", "label %c has dims %s and %s",
                                      labels[i][a], prover_canonical(*slot),
                                      prover_canonical(s.dims[a]));
            if (!*slot)
                *slot = s.dims[a];
        }
    }
    OpShape r = {NULL, (int)strlen(out)};
    if (known) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim > 0 ? r.ndim : 1);
        for (int i = 0; i < r.ndim; i++)
            r.dims[i] = size[(unsigned char)out[i]];
    }
    return ops_tensor_result(r, dt, n > 0 ? ts[0]->u.tensor.vdevice : NULL, ctx->call->span);
}

Value *manip_eval_einsum(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    if (nargs < 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "no operands");
    int n;
    Tensor **xs = manip_kernel_tensors(in, call, args[0], &n);
    const char *sub = ops_attr_str(call, "subscripts", NULL), *why = NULL;
    const char **labels;
    if (n == 0 || sub == NULL || einsum_output(sub, n, &labels, &why) == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s",
                    why ? why : "bad einsum");
    const char *err = NULL;
    Tensor *made = kernel_einsum(sub, xs, n, xs[0]->dtype, &err);
    return manip_result(in, call, made, err);
}
