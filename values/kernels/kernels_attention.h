/* kernels_attention: fused multi-head attention in the (batch, seq, heads, head_dim) layout,
 * over whole batches or over concatenated sequences of variable length. SPEC_NOTES:
 * "Operators" (OP-nn.attention, OP-nn.attention_bias, OP-nn.attention_var_len). */
#ifndef RELAX_VALUES_KERNELS_ATTENTION_H
#define RELAX_VALUES_KERNELS_ATTENTION_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

typedef enum AttnMask { ATTN_NO_MASK, ATTN_TOP_LEFT, ATTN_BOTTOM_RIGHT } AttnMask;

typedef struct AttnParams {
    bool has_scale;
    double scale;   /* multiplies Q K^T; without it the scores are divided by sqrt(head_dim) */
    AttnMask mask;  /* key j is visible from query i when j <= i + offset, the offset 0
                     * (TopLeft) or |seq_len - seq_len_kv| (BottomRight) */
    int64_t window; /* > 0: also j > i + offset - window (sliding window); 0: none */
} AttnParams;

/* q (B, S, H, D), k (B, Skv, Hk, D), v (B, Skv, Hv, Dv), H a multiple of Hk and Hv (query
 * head h reads key head h / (H / Hk)); bias NULL or 4-D broadcasting to (B, H, S, Skv).
 * out (B, S, H, Dv): softmax over the visible keys of scale * q.k (+ bias), in double,
 * rounded once; a row that sees no key is 0. float16 rounds every step to float16 in TVM's
 * order (products, sums, the scaling, bias, exponentials, their sum, the weights, the
 * weighted sum of v), as TVM's float16 lowering computes; only the max differs (TVM's masked
 * form counts the hidden scores as 0 in it). */
void kernels_attention(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *bias,
                       const AttnParams *p, Tensor *out);

/* Variable-length attention over concatenated sequences (batch dims 1): sequence b has the
 * query rows [seqstart_q[b], seqstart_q[b + 1]) and the key rows [seqstart_k[b],
 * seqstart_k[b + 1]), each attended as kernels_attention does (masks relative to that
 * sequence's lengths); rows outside every sequence are 0. The caller checked the starts. */
void kernels_attention_var_len(const Tensor *q, const Tensor *k, const Tensor *v,
                               const int64_t *seqstart_q, const int64_t *seqstart_k, int64_t nseq,
                               const AttnParams *p, Tensor *out);

#endif
