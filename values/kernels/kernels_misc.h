/* kernels_misc: kernels of the creation, quantization and gradient operators: quantize and
 * dequantize in TVM's lowered arithmetic, the fused multiply-add, collapse_sum, the Hamming
 * window, sampling from a uniform draw, and the backward kernels of take and pooling.
 * SPEC_NOTES: "Operators" (OP-quantize, OP-dequantize, OP-ewise_fma, OP-collapse_sum_to, ...). */
#ifndef RELAX_VALUES_KERNELS_MISC_H
#define RELAX_VALUES_KERNELS_MISC_H

#include <stdbool.h>
#include <stdint.h>

#include "values/kernels/kernels_window.h"
#include "values/tensor.h"

/* The quantization parameters: scale and zero_point of rank 0 or 1-D along `axis` (checked by
 * the caller). */
typedef struct QdqParams {
    const Tensor *scale;
    const Tensor *zero_point;
    int axis;
} QdqParams;

/* quantize: clip(round(x / scale) + zero_point) cast to out's dtype, each step in the wider
 * float dtype of x and scale as TVM's legalization computes it; round halves away from zero
 * (llvm.round). */
void kernels_quantize(const Tensor *x, const QdqParams *p, Tensor *out);
/* dequantize: (x - zero_point) * scale in float32 (the subtraction in int32 for integer x and
 * an int8 zero point, in float16 for integer x and a float16 zero point), then for a float16
 * result clipped to +-65504 and rounded. */
void kernels_dequantize(const Tensor *x, const QdqParams *p, Tensor *out);

/* a * b + c elementwise (equal shapes): floats fused in double and rounded once, integers
 * wrapping. */
void kernels_fma(const Tensor *a, const Tensor *b, const Tensor *c, Tensor *out);

/* Sums x into out's shape, dims aligned from the right: an input axis missing from out or
 * matched by a 1 in out is summed. Floats accumulate in double, integers wrap. */
void kernels_collapse_sum(const Tensor *x, Tensor *out);

/* The Hamming window alpha - beta cos(2 pi i / (N - 1)) over out's N elements (N + 1 points,
 * the last dropped, when periodic), with TVM's float32 steps for a float32 result. */
void kernels_hamming(bool periodic, double alpha, double beta, Tensor *out);

/* For each row i the first j with u[i] < cumsum(prob[rows[i]])[j] (the last index when none),
 * the cumulative sum rounded to prob's dtype at each step. Returns the first row index out of
 * range, or -1. */
int64_t kernels_multinomial(const Tensor *prob, const Tensor *u, const Tensor *rows, Tensor *out);

/* take_backward: out (x's shape, zeroed) gets grad scattered back along `axis` (-1: the
 * flattened x) at the 1-D indices, repeated indices accumulating. Returns the first index out
 * of range, or -1 when all are in range. */
int64_t kernels_take_backward(const Tensor *grad, const Tensor *indices, int axis, Tensor *out);

/* max/avg pool2d backward (NCHW): each output window's gradient goes to its first maximal
 * input tap (max) or is divided among its taps (avg, divisor as the forward pooling). */
void kernels_pool2d_backward(const Tensor *grad, const Tensor *data, const WindowPool *p,
                             bool is_max, Tensor *out);

/* nll_loss's targets: their shape is the predictions' without C; weights (C) or NULL (ones);
 * reduction "mean", "sum" or "none"; the class whose weight ignore_index zeroes. */
typedef struct NllTargets {
    const Tensor *targets;
    const Tensor *weights;
    const char *reduction;
    int64_t ignore_index;
} NllTargets;

/* nll_loss_backward: -w[t] * g at the target class, 0 elsewhere; predictions (C) or
 * (N, C, d...). "mean" divides g by the sum of the targets' weights, "sum" and "none" use g
 * (a scalar, or per target for "none"). Returns false when a target is out of range. */
bool kernels_nll_loss_backward(const Tensor *g, const Tensor *pred, const NllTargets *t,
                               Tensor *out);

typedef struct NmsParams {
    int64_t max_per_class;
    double iou_threshold;
    double score_threshold;
    int64_t budget; /* the box comparisons (IoUs) allowed: past them the kernel stops */
} NmsParams;

/* What NMS selects per (batch, class) row: boxes (B * C, N) the selected box indices in
 * order, count (B * C) their number. */
typedef struct NmsSelection {
    int64_t *boxes;
    int64_t *count;
    int64_t work; /* the box comparisons made: more than the budget when it stopped early */
} NmsSelection;

/* all_class_non_max_suppression on boxes (B, N, 4) and scores (B, C, N): per batch and class,
 * the boxes scoring above score_threshold in descending score order (ties: lower index first);
 * each one not suppressed is selected (at most max_per_class), then suppresses the later
 * positive-scoring candidates whose IoU with it (float32, corners in either order) reaches
 * iou_threshold; no box is selected when iou_threshold <= 0. A selected box is compared with
 * every later candidate, so a row of N boxes may take N x N comparisons: the kernel counts
 * them in out->work and stops once they pass p->budget (the caller's step budget). */
void kernels_nms(const Tensor *boxes, const Tensor *scores, const NmsParams *p, NmsSelection *out);

#endif
