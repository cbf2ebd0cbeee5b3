/* ops_attention: StructInfo inference and kernels of attention, attention_bias and
 * attention_var_len. SPEC_NOTES: "Operators" (OP-nn.attention, OP-nn.attention_bias,
 * OP-nn.attention_var_len). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/interp.h"
#include "interp/ops/norm/ops_norm_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_attention.h"

/* ---- attributes ------------------------------------------------------------------------- */

/* The scale: absent (None), a number, or a constant PrimValue such as T.float32(0.5), the
 * form TVM prints. False when it is something else. */
static bool scale_of(const Expr *call, bool *given, double *out)
{
    const AttrValue *a = ops_attr(call, "scale");
    *given = a != NULL;
    *out = 1.0;
    if (a == NULL)
        return true;
    if (a->kind == ATTR_FLOAT || a->kind == ATTR_INT) {
        *out = a->kind == ATTR_FLOAT ? a->u.f : (double)a->u.i;
        return true;
    }
    if (a->kind != ATTR_EXPR || a->u.expr->kind != EXPR_PRIM_VALUE)
        return false;
    const PrimExpr *v = a->u.expr->u.prim;
    if (v->kind == PE_FLOAT)
        *out = v->u.float_value;
    else if (v->kind == PE_INT)
        *out = (double)v->u.int_value;
    return v->kind == PE_FLOAT || v->kind == PE_INT;
}

/* scale a number; causal_mask None, "TopLeft" or "BottomRight"; window_size None or
 * positive and only with a causal mask (the one implementation TVM has of it, flash
 * attention, requires one). Returns false after OpAttr. */
static bool infer_attrs(OpInferCtx *ctx)
{
    const AttrValue *mask = ops_attr(ctx->call, "causal_mask");
    const AttrValue *window = ops_attr(ctx->call, "window_size");
    bool given;
    double scale;
    if (!scale_of(ctx->call, &given, &scale)) {
        ops_infer_fail(ctx, "OpAttr", "scale must be a number");
        return false;
    }
    if (mask != NULL && (mask->kind != ATTR_STR || (strcmp(mask->u.s, "TopLeft") != 0 &&
                                                    strcmp(mask->u.s, "BottomRight") != 0))) {
        ops_infer_fail(ctx, "OpAttr", "causal_mask must be \"TopLeft\" or \"BottomRight\"");
        return false;
    }
    if (window != NULL && (window->kind != ATTR_INT || window->u.i <= 0)) {
        ops_infer_fail(ctx, "OpAttr", "window_size must be a positive integer");
        return false;
    }
    if (window != NULL && mask == NULL) {
        ops_infer_fail(ctx, "OpAttr", "window_size needs a causal_mask");
        return false;
    }
    return true;
}

/* The attributes at run time, checked again (a program may reach the kernel unchecked). */
static AttnParams params_of(struct Interp *in, const Expr *call)
{
    AttnParams p;
    const char *mask = ops_attr_str(call, "causal_mask", "");
    if (!scale_of(call, &p.has_scale, &p.scale))
        norm_kernel_fail(in, call, "scale must be a number");
    if (ops_attr(call, "causal_mask") != NULL && strcmp(mask, "TopLeft") != 0 &&
        strcmp(mask, "BottomRight") != 0)
        norm_kernel_fail(in, call, "causal_mask must be \"TopLeft\" or \"BottomRight\"");
    if (ops_attr(call, "window_size") != NULL &&
        (ops_attr_int(call, "window_size", 0) <= 0 || ops_attr(call, "causal_mask") == NULL))
        norm_kernel_fail(in, call, "window_size must be positive and come with a causal_mask");
    /* The scale is a float32 FloatImm in TVM's attributes. */
    p.scale = tensor_round_f64(dtype_float32(), p.scale);
    p.mask = strcmp(mask, "TopLeft") == 0       ? ATTN_TOP_LEFT
             : strcmp(mask, "BottomRight") == 0 ? ATTN_BOTTOM_RIGHT
                                                : ATTN_NO_MASK;
    p.window = ops_attr_int(call, "window_size", 0);
    return p;
}

/* ---- inference -------------------------------------------------------------------------- */

static bool heads_divide(OpInferCtx *ctx, const PrimExpr *h, const PrimExpr *hkv)
{
    int64_t a, b;
    if (prover_const_int(h, &a) && prover_const_int(hkv, &b) && b != 0 && a % b != 0) {
        ops_infer_fail(ctx, "OpShapeMismatch",
                       "the query's %lld heads are not a multiple of %lld heads", (long long)a,
                       (long long)b);
        return false;
    }
    return true;
}

/* The bias (rank 4): each of its first three dims the query's (batch, heads, seq_len) or
 * the constant 1, the last the key's seq_len. */
static bool infer_bias(OpInferCtx *ctx, OpShape q, OpShape k, const StructInfo *bias)
{
    if (bias->u.tensor.ndim >= 0 && bias->u.tensor.ndim != 4) {
        ops_infer_fail(ctx, "OpShapeMismatch", "the bias must have rank 4");
        return false;
    }
    OpShape b = ops_shape_of(bias);
    if (b.dims == NULL)
        return true;
    const PrimExpr *want[3] = {q.dims[0], q.dims[2], q.dims[1]};
    for (int d = 0; d < 3; d++) {
        if (!ops_dim_is(b.dims[d], 1) && prover_compare(want[d], b.dims[d]) == PROVE_UNEQUAL) {
            ops_infer_fail(ctx, "OpShapeMismatch",
                           "bias dim %d neither broadcasts nor matches the query", d);
            return false;
        }
    }
    return norm_dims_agree(ctx, k.dims[1], b.dims[3], "the key's and the bias's seq_len", NULL);
}

/* TVM's InferStructInfoAttention: q, k, v of rank 4; equal batch, key/value seq_len and
 * query/key head_dim where provable; the query's heads a multiple of the key's and value's;
 * the result (batch, seq_len, heads, head_dim_v) of the query's dtype. An unknown rank or
 * shape leaves the rank 4 only. */
static StructInfo *infer_qkv(OpInferCtx *ctx, const StructInfo *const *in, const StructInfo *bias)
{
    for (int i = 0; i < 3; i++)
        if (in[i]->u.tensor.ndim >= 0 && in[i]->u.tensor.ndim != 4)
            return ops_infer_fail(ctx, "OpShapeMismatch",
                                  "argument %d must have rank 4 (batch, seq, heads, dim)", i + 1);
    if (!infer_attrs(ctx))
        return ops_infer_object(ctx);
    const StructInfo *q = in[0];
    OpShape qs = ops_shape_of(q), ks = ops_shape_of(in[1]), vs = ops_shape_of(in[2]);
    if (qs.dims == NULL || ks.dims == NULL || vs.dims == NULL)
        return sinfo_tensor(NULL, q->u.tensor.dtype, q->u.tensor.vdevice, 4, ctx->call->span);
    if (!norm_dims_agree(ctx, qs.dims[0], ks.dims[0], "the query's and key's batch", NULL) ||
        !norm_dims_agree(ctx, qs.dims[0], vs.dims[0], "the query's and value's batch", NULL) ||
        !heads_divide(ctx, qs.dims[2], ks.dims[2]) || !heads_divide(ctx, qs.dims[2], vs.dims[2]) ||
        !norm_dims_agree(ctx, ks.dims[1], vs.dims[1], "the key's and value's seq_len", NULL) ||
        !norm_dims_agree(ctx, qs.dims[3], ks.dims[3], "the query's and key's head_dim", NULL))
        return ops_infer_object(ctx);
    if (bias != NULL && !infer_bias(ctx, qs, ks, bias))
        return ops_infer_object(ctx);
    PrimExpr *dims[4] = {qs.dims[0], qs.dims[1], qs.dims[2], vs.dims[3]};
    OpShape out = {dims, 4};
    return ops_tensor_result(out, q->u.tensor.dtype, q->u.tensor.vdevice, ctx->call->span);
}

/* OP-nn.attention, OP-nn.attention_bias: relax.nn.attention takes (q, k, v) or, as
 * R.nn.attention(q, k, v, bias) reads, a fourth argument, the bias. */
StructInfo *ops_norm_infer_attention(OpInferCtx *ctx)
{
    const StructInfo *in[4];
    bool with_bias = strcmp(norm_op_name(ctx->call), "relax.nn.attention_bias") == 0;
    if (ctx->nargs == 4)
        ctx->rule = "OP-nn.attention_bias"; /* the op TVM's constructor makes of it */
    rule_fired(ctx->rule);
    if (!norm_tensor_args(ctx, with_bias ? 4 : 3, 4, in))
        return ops_infer_object(ctx);
    return infer_qkv(ctx, in, ctx->nargs == 4 ? in[3] : NULL);
}

/* OP-nn.attention_var_len: arguments in the Python order (queries, keys, values,
 * seqstart_q, max_seqlen_q[, seqstart_k, max_seqlen_k]), every one a tensor; the query,
 * key and value checks of attention. */
StructInfo *ops_norm_infer_attention_var_len(OpInferCtx *ctx)
{
    const StructInfo *in[7];
    if (ctx->nargs == 6)
        return ops_infer_fail(ctx, "OpArity", "seqstart_k and max_seqlen_k go together");
    if (!norm_tensor_args(ctx, 5, 7, in))
        return ops_infer_object(ctx);
    return infer_qkv(ctx, in, NULL);
}

/* ---- kernels ---------------------------------------------------------------------------- */

static void check_qkv(struct Interp *in, const Expr *call, Tensor *const *t)
{
    for (int i = 0; i < 3; i++)
        if (t[i]->ndim != 4)
            norm_kernel_fail(in, call, "argument %d must have rank 4", i + 1);
    const int64_t *q = t[0]->shape, *k = t[1]->shape, *v = t[2]->shape;
    if (q[0] != k[0] || q[0] != v[0] || k[1] != v[1] || q[3] != k[3])
        norm_kernel_fail(in, call, "the query, key and value shapes do not agree");
    bool heads_ok = q[2] == 0 || (k[2] != 0 && v[2] != 0 && q[2] % k[2] == 0 && q[2] % v[2] == 0);
    if (!heads_ok)
        norm_kernel_fail(in, call, "the query's heads are not a multiple of the key's and value's");
    /* LIMIT-fuel: one unit per multiply-accumulate, before the work: every (batch, head,
     * query, key) pair takes a dot product of the head dim and a weighted sum of the value
     * dim. An empty result (no pair, or a value dim of 0) is not computed and costs nothing,
     * however large its other dims. */
    int64_t per_pair = v[3] == 0 ? 0 : q[3] > INT64_MAX - v[3] ? INT64_MAX : q[3] + v[3];
    const int64_t factors[5] = {q[0], q[2], q[1], k[1], per_pair};
    interp_charge(in, checked_count(factors, 5), call->span);
}

static void check_bias(struct Interp *in, const Expr *call, const Tensor *q, const Tensor *k,
                       const Tensor *bias)
{
    const int64_t want[4] = {q->shape[0], q->shape[2], q->shape[1], k->shape[1]};
    bool ok = bias->ndim == 4;
    for (int d = 0; ok && d < 4; d++)
        ok = bias->shape[d] == want[d] || (d < 3 && bias->shape[d] == 1);
    if (!ok)
        norm_kernel_fail(in, call, "the bias does not broadcast to (batch, heads, seq, seq_kv)");
}

static Tensor *new_output(struct Interp *in, const Expr *call, Tensor *const *t)
{
    int64_t shape[4] = {t[0]->shape[0], t[0]->shape[1], t[0]->shape[2], t[2]->shape[3]};
    return ops_kernel_new_tensor(in, call, t[0]->dtype, 4, shape);
}

Value *ops_norm_kernel_attention(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *t[4];
    for (int i = 0; i < 3; i++)
        t[i] = norm_float_arg(in, call, args, nargs, i);
    check_qkv(in, call, t);
    t[3] = nargs == 4 ? norm_float_arg(in, call, args, nargs, 3) : NULL;
    if (t[3] != NULL)
        check_bias(in, call, t[0], t[1], t[3]);
    AttnParams p = params_of(in, call);
    Tensor *out = new_output(in, call, t);
    kernels_attention(t[0], t[1], t[2], t[3], &p, out);
    return value_tensor(out);
}

/* A sequence-start tensor: 1-D integers from 0 or more, non-decreasing, at most `total`. */
static int64_t *seqstarts(struct Interp *in, const Expr *call, const Tensor *s, int64_t total)
{
    if (s->ndim != 1 || s->shape[0] < 1 || dtype_is_float(s->dtype))
        norm_kernel_fail(in, call, "a seqstart must be a non-empty 1-D integer tensor");
    int64_t *v = tensor_scratch(s->numel, sizeof(int64_t));
    tensor_read_i64(s, v);
    for (int64_t i = 0; i < s->numel; i++)
        if (v[i] < (i ? v[i - 1] : 0) || v[i] > total)
            norm_kernel_fail(in, call, "seqstart entry %lld is out of order or range",
                             (long long)i);
    return v;
}

/* Every sequence no longer than the max_seqlen given (one integer). */
static void check_max(struct Interp *in, const Expr *call, const Tensor *m, const int64_t *starts,
                      int64_t nseq)
{
    if (m->numel != 1 || dtype_is_float(m->dtype))
        norm_kernel_fail(in, call, "a max_seqlen must be one integer");
    int64_t mx = tensor_get_i64(m, 0);
    for (int64_t s = 0; s < nseq; s++)
        if (starts[s + 1] - starts[s] > mx)
            norm_kernel_fail(in, call, "sequence %lld is longer than max_seqlen %lld", (long long)s,
                             (long long)mx);
}

Value *ops_norm_kernel_attention_var_len(struct Interp *in, const Expr *call, Value **args,
                                         int nargs)
{
    Tensor *t[3];
    for (int i = 0; i < 3; i++)
        t[i] = norm_float_arg(in, call, args, nargs, i);
    check_qkv(in, call, t);
    if (t[0]->shape[0] != 1)
        norm_kernel_fail(in, call, "the concatenated sequences need a batch of 1");
    Tensor *sq = ops_kernel_tensor(in, call, args, nargs, 3);
    Tensor *mq = ops_kernel_tensor(in, call, args, nargs, 4);
    Tensor *sk = nargs == 7 ? ops_kernel_tensor(in, call, args, nargs, 5) : sq;
    Tensor *mk = nargs == 7 ? ops_kernel_tensor(in, call, args, nargs, 6) : mq;
    int64_t *q0 = seqstarts(in, call, sq, t[0]->shape[1]);
    int64_t *k0 = seqstarts(in, call, sk, t[1]->shape[1]);
    if (sq->numel != sk->numel)
        norm_kernel_fail(in, call, "seqstart_q and seqstart_k count different sequences");
    check_max(in, call, mq, q0, sq->numel - 1);
    check_max(in, call, mk, k0, sk->numel - 1);
    AttnParams p = params_of(in, call);
    Tensor *out = new_output(in, call, t);
    kernels_attention_var_len(t[0], t[1], t[2], q0, k0, sq->numel - 1, &p, out);
    return value_tensor(out);
}
