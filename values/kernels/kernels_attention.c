/* kernels_attention: multi-head attention, softmax(scale Q K^T + bias) V over the visible
 * keys, in double rounded once (float16 step by step, as TVM). SPEC_NOTES: "Operators". */
#include "values/kernels/kernels_attention.h"

#include <math.h>

#include "ast/mem.h"

static double *read_all(const Tensor *t)
{
    double *buf = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, buf);
    return buf;
}

/* The operands read into double, with their dims: q (B, S, H, D), k (B, Skv, Hk, D),
 * v (B, Skv, Hv, Dv), bias (b0, b1, b2, Skv) or NULL. */
typedef struct Attn {
    const double *q, *k, *v, *bias;
    int64_t S, Skv, H, Hk, Hv, D, Dv;
    bool half;       /* float16: every step rounded to float16, as TVM computes it */
    DataType dtype;  /* the query's */
    double sqrt_dim; /* sqrt(head_dim), in float16 steps for float16 */
    const int64_t *bshape;
    const AttnParams *p;
    double *out;
    double *scores; /* one row of Skv */
} Attn;

/* The bias of (batch b, head h, row i, key j); a bias dim of 1 broadcasts. */
static double bias_at(const Attn *a, int64_t b, int64_t h, int64_t i, int64_t j)
{
    const int64_t *s = a->bshape;
    int64_t bb = s[0] == 1 ? 0 : b, hh = s[1] == 1 ? 0 : h, ii = s[2] == 1 ? 0 : i;
    return a->bias[((bb * s[1] + hh) * s[2] + ii) * s[3] + j];
}

/* x as float16 holds it, for float16 operands; x itself otherwise. */
static double rd(const Attn *a, double x)
{
    return a->half ? tensor_round_f64(a->dtype, x) : x;
}

static bool visible(const AttnParams *p, int64_t i, int64_t j, int64_t offset)
{
    if (p->mask != ATTN_NO_MASK && j > i + offset)
        return false;
    return p->window <= 0 || j > i + offset - p->window;
}

static double score(const Attn *a, int64_t b, int64_t h, int64_t s, int64_t j)
{
    int64_t hk = h / (a->H / a->Hk);
    const double *qr = a->q + ((b * a->S + s) * a->H + h) * a->D;
    const double *kr = a->k + ((b * a->Skv + j) * a->Hk + hk) * a->D;
    double dot = 0.0;
    for (int64_t d = 0; d < a->D; d++)
        dot = rd(a, dot + rd(a, qr[d] * kr[d]));
    return rd(a, a->p->has_scale ? dot * a->p->scale : dot / a->sqrt_dim);
}

/* One output row: query row s (row i of its sequence, whose keys are [k0, k0 + sk)). The
 * max is taken over the visible keys only; the exponentials are kept in a->scores. */
static void attend_row(const Attn *a, int64_t b, int64_t h, int64_t s, int64_t i, int64_t k0,
                       int64_t sk, int64_t offset)
{
    double mx = -INFINITY, sum = 0.0;
    bool any = false;
    for (int64_t j = 0; j < sk; j++) {
        if (!visible(a->p, i, j, offset))
            continue;
        double x = score(a, b, h, s, k0 + j);
        if (a->bias != NULL)
            x = rd(a, x + bias_at(a, b, h, i, j));
        a->scores[j] = x;
        mx = any && !(x > mx) && !isnan(x) ? mx : x;
        any = true;
    }
    double *o = a->out + ((b * a->S + s) * a->H + h) * a->Dv;
    for (int64_t d = 0; d < a->Dv; d++)
        o[d] = 0.0;
    if (!any)
        return;
    for (int64_t j = 0; j < sk; j++) {
        if (visible(a->p, i, j, offset)) {
            a->scores[j] = rd(a, exp(rd(a, a->scores[j] - mx)));
            sum = rd(a, sum + a->scores[j]);
        }
    }
    int64_t hv = h / (a->H / a->Hv);
    for (int64_t j = 0; j < sk; j++) {
        if (!visible(a->p, i, j, offset))
            continue;
        double w = rd(a, a->scores[j] / sum);
        const double *vr = a->v + ((b * a->Skv + k0 + j) * a->Hv + hv) * a->Dv;
        for (int64_t d = 0; d < a->Dv; d++)
            o[d] = rd(a, o[d] + rd(a, w * vr[d]));
    }
}

/* Batch entry b, query rows [q0, q0 + sq) against key rows [k0, k0 + sk). */
static void attend(const Attn *a, int64_t b, int64_t q0, int64_t sq, int64_t k0, int64_t sk)
{
    int64_t offset = a->p->mask == ATTN_BOTTOM_RIGHT ? (sq > sk ? sq - sk : sk - sq) : 0;
    for (int64_t h = 0; h < a->H; h++)
        for (int64_t i = 0; i < sq; i++)
            attend_row(a, b, h, q0 + i, i, k0, sk, offset);
}

static Attn attn_new(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *bias,
                     const AttnParams *p, const Tensor *out)
{
    Attn a;
    a.q = read_all(q);
    a.k = read_all(k);
    a.v = read_all(v);
    a.bias = bias != NULL ? read_all(bias) : NULL;
    a.bshape = bias != NULL ? bias->shape : NULL;
    a.S = q->shape[1];
    a.H = q->shape[2];
    a.D = q->shape[3];
    a.Skv = k->shape[1];
    a.Hk = k->shape[2];
    a.Hv = v->shape[2];
    a.Dv = v->shape[3];
    a.p = p;
    a.dtype = q->dtype;
    a.half = q->dtype.code == DT_FLOAT && q->dtype.bits == 16;
    a.sqrt_dim = rd(&a, sqrt(rd(&a, (double)a.D)));
    a.out = tensor_scratch(out->numel, sizeof(double));
    for (int64_t i = 0; i < out->numel; i++)
        a.out[i] = 0.0;
    a.scores = tensor_scratch(a.Skv, sizeof(double));
    return a;
}

void kernels_attention(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *bias,
                       const AttnParams *p, Tensor *out)
{
    /* An empty result needs no score: the pairs of query rows and keys of an empty head
     * dim may still be many. */
    if (out->numel == 0)
        return;
    Attn a = attn_new(q, k, v, bias, p, out);
    if (a.Hk > 0 && a.Hv > 0)
        for (int64_t b = 0; b < q->shape[0]; b++)
            attend(&a, b, 0, a.S, 0, a.Skv);
    tensor_write_f64(out, a.out);
}

void kernels_attention_var_len(const Tensor *q, const Tensor *k, const Tensor *v,
                               const int64_t *seqstart_q, const int64_t *seqstart_k, int64_t nseq,
                               const AttnParams *p, Tensor *out)
{
    if (out->numel == 0)
        return; /* as kernels_attention */
    Attn a = attn_new(q, k, v, NULL, p, out);
    for (int64_t s = 0; a.Hk > 0 && a.Hv > 0 && s < nseq; s++)
        attend(&a, 0, seqstart_q[s], seqstart_q[s + 1] - seqstart_q[s], seqstart_k[s],
               seqstart_k[s + 1] - seqstart_k[s]);
    tensor_write_f64(out, a.out);
}
