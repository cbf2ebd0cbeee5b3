/* kernels_misc: quantize/dequantize, the fused multiply-add, collapse_sum, the Hamming window,
 * sampling from a uniform draw and the backward kernels of take, pooling and nll_loss.
 * SPEC_NOTES: "Operators" (OP-quantize, OP-dequantize, OP-ewise_fma, OP-grad.take_backward, ...).
 */
#include "values/kernels/kernels_misc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"

static double *read_all(const Tensor *t)
{
    double *buf = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, buf);
    return buf;
}

static int64_t *read_all_i64(const Tensor *t)
{
    int64_t *buf = tensor_scratch(t->numel, sizeof(int64_t));
    tensor_read_i64(t, buf);
    return buf;
}

/* Flat index i's coordinate along `axis`. */
static int64_t coord(const Tensor *t, int64_t i, int axis)
{
    int64_t inner = 1;
    bool over = false; /* i indexes an element, so the dims after axis multiply within int64 */
    for (int k = axis + 1; k < t->ndim; k++)
        inner = checked_mul(inner, t->shape[k], &over);
    return (i / inner) % t->shape[axis];
}

/* A per-axis parameter: element c of a 1-D tensor, or a rank-0 tensor's value. */
static double param_at(const Tensor *p, int64_t c)
{
    return tensor_get_f64(p, p->ndim == 0 ? 0 : c);
}

/* ---- quantize, dequantize (legalize_ops/qdq.py) ----------------------------------------- */

/* The wider of two float dtypes, as TIR's binary operators promote them. */
static DataType wider_float(DataType a, DataType b)
{
    return a.bits >= b.bits ? a : b;
}

void kernels_quantize(const Tensor *x, const QdqParams *p, Tensor *out)
{
    const Tensor *scale = p->scale, *zp = p->zero_point;
    int axis = p->axis;
    DataType t = wider_float(x->dtype, scale->dtype);
    bool to_int = !dtype_is_float(out->dtype);
    double lo = 0, hi = 0;
    if (to_int) {
        int bits = out->dtype.bits;
        lo = dtype_is_int(out->dtype) ? -ldexp(1.0, bits - 1) : 0.0;
        hi = dtype_is_int(out->dtype) ? ldexp(1.0, bits - 1) - 1 : ldexp(1.0, bits) - 1;
        lo = tensor_round_f64(t, lo);
        hi = tensor_round_f64(t, hi);
    }
    DataType tz = dtype_is_float(zp->dtype) ? wider_float(t, zp->dtype) : t;
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t c = x->ndim == 0 ? 0 : coord(x, i, axis);
        double v = tensor_round_f64(t, tensor_get_f64(x, i) / param_at(scale, c));
        if (to_int)
            v = round(v);
        v = tensor_round_f64(tz, v + tensor_round_f64(tz, param_at(zp, c)));
        if (to_int)
            v = fmax(fmin(v, hi), lo);
        tensor_set_f64(out, i, v);
    }
}

void kernels_dequantize(const Tensor *x, const QdqParams *p, Tensor *out)
{
    const Tensor *scale = p->scale, *zp = p->zero_point;
    int axis = p->axis;
    DataType f32 = dtype_float32();
    bool int_sub = !dtype_is_float(x->dtype) && !dtype_is_float(zp->dtype);
    DataType tsub = dtype_is_float(x->dtype) ? f32 : zp->dtype;
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t c = x->ndim == 0 ? 0 : coord(x, i, axis);
        double sub;
        if (int_sub)
            sub = (double)tensor_wrap_i64(dtype_int32(),
                                          tensor_get_i64(x, i) - (int64_t)param_at(zp, c));
        else
            sub = tensor_round_f64(tsub, tensor_round_f64(tsub, tensor_get_f64(x, i)) -
                                             tensor_round_f64(tsub, param_at(zp, c)));
        double v = tensor_round_f64(f32, tensor_round_f64(f32, sub) * param_at(scale, c));
        if (out->dtype.bits == 16)
            v = fmax(fmin(v, 65504.0), -65504.0);
        tensor_set_f64(out, i, v);
    }
}

/* ---- ewise_fma, collapse_sum ------------------------------------------------------------ */

void kernels_fma(const Tensor *a, const Tensor *b, const Tensor *c, Tensor *out)
{
    if (dtype_is_float(out->dtype)) {
        double *x = read_all(a), *y = read_all(b), *z = read_all(c);
        for (int64_t i = 0; i < a->numel; i++)
            x[i] = fma(x[i], y[i], z[i]);
        tensor_write_f64(out, x);
        return;
    }
    int64_t *x = read_all_i64(a), *y = read_all_i64(b), *z = read_all_i64(c);
    for (int64_t i = 0; i < a->numel; i++)
        x[i] = (int64_t)((uint64_t)x[i] * (uint64_t)y[i] + (uint64_t)z[i]);
    tensor_write_i64(out, x);
}

/* The flat index in out of x's flat index i (x's dims aligned right with out's). */
static int64_t collapse_index(const Tensor *x, const Tensor *out, int64_t i)
{
    int64_t o = 0, ostride = 1;
    for (int k = x->ndim - 1, ko = out->ndim - 1; k >= 0; k--) {
        int64_t ci = i % x->shape[k];
        i /= x->shape[k];
        if (ko < 0)
            continue;
        if (out->shape[ko] == x->shape[k])
            o += ci * ostride;
        ostride *= out->shape[ko];
        ko--;
    }
    return o;
}

void kernels_collapse_sum(const Tensor *x, Tensor *out)
{
    if (dtype_is_float(out->dtype)) {
        double *acc = tensor_scratch(out->numel, sizeof(double));
        memset(acc, 0, sizeof(double) * (size_t)out->numel);
        for (int64_t i = 0; i < x->numel; i++)
            acc[collapse_index(x, out, i)] += tensor_get_f64(x, i);
        tensor_write_f64(out, acc);
        return;
    }
    int64_t *acc = tensor_scratch(out->numel, sizeof(int64_t));
    memset(acc, 0, sizeof(int64_t) * (size_t)out->numel);
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t *a = &acc[collapse_index(x, out, i)];
        *a = (int64_t)((uint64_t)*a + (uint64_t)tensor_get_i64(x, i));
    }
    tensor_write_i64(out, acc);
}

/* ---- hamming_window (topi transform.py), multinomial_from_uniform ------------------------ */

void kernels_hamming(bool periodic, double alpha, double beta, Tensor *out)
{
    int64_t n = out->numel;
    if (n == 1) {
        tensor_set_f64(out, 0, 1.0);
        return;
    }
    /* topi's window takes its index in the dtype, but a 16-bit float dtype computes the rest
     * in float32 (its constants are float32) and is cast to the dtype once, at the end. */
    DataType t = out->dtype, ct = t.bits == 16 ? dtype_float32() : t;
    double denom = tensor_round_f64(ct, (double)(periodic ? n : n - 1));
    double two_pi = tensor_round_f64(ct, 6.283185307179586);
    alpha = tensor_round_f64(ct, alpha);
    beta = tensor_round_f64(ct, beta);
    for (int64_t i = 0; i < n; i++) {
        double index = tensor_round_f64(t, (double)i);
        double f = tensor_round_f64(ct, tensor_round_f64(ct, two_pi * index) / denom);
        double c = tensor_round_f64(ct, cos(f));
        tensor_set_f64(out, i, tensor_round_f64(ct, alpha - tensor_round_f64(ct, beta * c)));
    }
}

/* A sample is the first j < vocab - 1 at which its row's running sum (rounded to the dtype
 * at each step) passes the uniform value, else vocab - 1. The running sums of each row are
 * made once and searched through their running maximum, which first passes a value where
 * the sums first do (it rises only at a sum above all before it; a NaN sum never passes
 * one), so n samples over rows of V cost V per row and log V per sample, not n x V. */
int64_t kernels_multinomial(const Tensor *prob, const Tensor *u, const Tensor *rows, Tensor *out)
{
    int64_t batch = prob->shape[0], last = prob->shape[1] - 1;
    double *peak = tensor_scratch(batch * last, sizeof(double));
    for (int64_t r = 0; r < batch; r++) {
        double cs = 0, high = -INFINITY;
        for (int64_t j = 0; j < last; j++) {
            cs = tensor_round_f64(prob->dtype, cs + tensor_get_f64(prob, r * (last + 1) + j));
            high = cs > high ? cs : high;
            peak[r * last + j] = high;
        }
    }
    for (int64_t i = 0; i < u->shape[0]; i++) {
        int64_t r = tensor_get_i64(rows, i);
        if (r < 0 || r >= batch)
            return i;
        double ui = tensor_get_f64(u, i);
        const double *row = peak + r * last;
        int64_t lo = 0, hi = last; /* the first j in [lo, hi] with ui < row[j], hi: none */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (ui < row[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        tensor_set_i64(out, i, lo);
    }
    return -1;
}

/* ---- gradients (legalize_ops/grad.py, topi pool_grad) ------------------------------------- */

int64_t kernels_take_backward(const Tensor *grad, const Tensor *indices, int axis, Tensor *out)
{
    int64_t nidx = indices->numel, len = axis < 0 ? out->numel : out->shape[axis];
    int64_t pre = 1, post = 1;
    for (int k = 0; axis >= 0 && k < out->ndim; k++) {
        if (k < axis)
            pre *= out->shape[k];
        else if (k > axis)
            post *= out->shape[k];
    }
    for (int64_t l = 0; l < nidx; l++) {
        int64_t v = tensor_get_i64(indices, l);
        if (v < 0 || v >= len)
            return l;
    }
    double *acc = read_all(out);
    memset(acc, 0, sizeof(double) * (size_t)out->numel);
    for (int64_t i = 0; i < pre; i++)
        for (int64_t l = 0; l < nidx; l++) {
            int64_t v = tensor_get_i64(indices, l);
            for (int64_t j = 0; j < post; j++)
                acc[(i * len + v) * post + j] += tensor_get_f64(grad, (i * nidx + l) * post + j);
        }
    tensor_write_f64(out, acc);
    return -1;
}

/* One (n, c) plane of the pooling: the data, the output gradient and the accumulated input
 * gradient, with dims (H, W, OH, OW). */
typedef struct PoolPlane {
    const double *x;
    const double *g;
    double *acc;
    int64_t dims[4];
} PoolPlane;

/* The window (oy, ox)'s first maximal input tap as a flat (y, x) offset in the plane, or -1
 * when every tap is padding. */
static int64_t window_argmax(const PoolPlane *pl, const WindowPool *p, int64_t oy, int64_t ox)
{
    int64_t best = -1, h = pl->dims[0], w = pl->dims[1];
    for (int64_t a = 0; a < p->pool_size[0]; a++) {
        int64_t y = oy * p->strides[0] - p->pad_lo[0] + a * p->dilation[0];
        for (int64_t b = 0; b < p->pool_size[1]; b++) {
            int64_t x = ox * p->strides[1] - p->pad_lo[1] + b * p->dilation[1];
            if (y < 0 || y >= h || x < 0 || x >= w)
                continue;
            if (best < 0 || pl->x[y * w + x] > pl->x[best])
                best = y * w + x;
        }
    }
    return best;
}

/* The avg window's divisor: its taps inside the input, or inside the padded input. */
static int64_t window_count(const PoolPlane *pl, const WindowPool *p, int64_t oy, int64_t ox)
{
    int64_t n = 0, h = pl->dims[0], w = pl->dims[1];
    for (int64_t a = 0; a < p->pool_size[0]; a++) {
        int64_t y = oy * p->strides[0] - p->pad_lo[0] + a * p->dilation[0];
        for (int64_t b = 0; b < p->pool_size[1]; b++) {
            int64_t x = ox * p->strides[1] - p->pad_lo[1] + b * p->dilation[1];
            bool inside = y >= 0 && y < h && x >= 0 && x < w;
            bool padded = y >= -p->pad_lo[0] && y < h + p->pad_hi[0] && x >= -p->pad_lo[1] &&
                          x < w + p->pad_hi[1];
            n += p->count_include_pad ? padded : inside;
        }
    }
    return n > 0 ? n : 1;
}

/* The avg window (oy, ox)'s gradient divided among its input taps. */
static void spread_avg(const PoolPlane *pl, const WindowPool *p, int64_t oy, int64_t ox)
{
    int64_t h = pl->dims[0], w = pl->dims[1];
    double share = pl->g[oy * pl->dims[3] + ox] / (double)window_count(pl, p, oy, ox);
    for (int64_t a = 0; a < p->pool_size[0]; a++) {
        int64_t y = oy * p->strides[0] - p->pad_lo[0] + a * p->dilation[0];
        for (int64_t b = 0; b < p->pool_size[1]; b++) {
            int64_t x = ox * p->strides[1] - p->pad_lo[1] + b * p->dilation[1];
            if (y >= 0 && y < h && x >= 0 && x < w)
                pl->acc[y * w + x] += share;
        }
    }
}

static void pool_plane(const PoolPlane *pl, const WindowPool *p, bool is_max)
{
    for (int64_t oy = 0; oy < pl->dims[2]; oy++)
        for (int64_t ox = 0; ox < pl->dims[3]; ox++) {
            if (!is_max) {
                spread_avg(pl, p, oy, ox);
                continue;
            }
            int64_t at = window_argmax(pl, p, oy, ox);
            if (at >= 0)
                pl->acc[at] += pl->g[oy * pl->dims[3] + ox];
        }
}

void kernels_pool2d_backward(const Tensor *grad, const Tensor *data, const WindowPool *p,
                             bool is_max, Tensor *out)
{
    if (out->numel == 0)
        return; /* N C may be near 2^63 with H W = 0: no plane to visit, nor to count */
    double *x = read_all(data), *g = read_all(grad);
    double *acc = tensor_scratch(out->numel, sizeof(double));
    memset(acc, 0, sizeof(double) * (size_t)out->numel);
    int64_t h = data->shape[2], w = data->shape[3], oh = grad->shape[2], ow = grad->shape[3];
    /* Bounded by out's (= data's) element count, as are the plane offsets below. */
    int64_t planes = data->shape[0] * data->shape[1];
    for (int64_t c = 0; c < planes; c++) {
        PoolPlane pl = {x + c * h * w, g + c * oh * ow, acc + c * h * w, {h, w, oh, ow}};
        pool_plane(&pl, p, is_max);
    }
    tensor_write_f64(out, acc);
}

bool kernels_nll_loss_backward(const Tensor *g, const Tensor *pred, const NllTargets *nt,
                               Tensor *out)
{
    const Tensor *targets = nt->targets, *weights = nt->weights;
    const char *reduction = nt->reduction;
    int64_t ignore_index = nt->ignore_index;
    int64_t nc = pred->ndim == 1 ? pred->shape[0] : pred->shape[1];
    int64_t inner = 1;
    for (int k = 2; k < pred->ndim; k++)
        inner *= pred->shape[k];
    double *w = tensor_scratch(targets->numel, sizeof(double));
    double wsum = 0;
    for (int64_t i = 0; i < targets->numel; i++) {
        int64_t t = tensor_get_i64(targets, i);
        if (t < 0 || t >= nc)
            return false;
        w[i] = (weights ? tensor_get_f64(weights, t) : 1.0) * (t == ignore_index ? 0.0 : 1.0);
        wsum += w[i];
    }
    bool mean = strcmp(reduction, "mean") == 0, none = strcmp(reduction, "none") == 0;
    double *acc = tensor_scratch(out->numel, sizeof(double));
    memset(acc, 0, sizeof(double) * (size_t)out->numel);
    for (int64_t i = 0; i < targets->numel; i++) {
        double gv = tensor_get_f64(g, none ? i : 0);
        if (mean)
            gv /= wsum;
        int64_t n = i / inner, d = i % inner, t = tensor_get_i64(targets, i);
        acc[(n * nc + t) * inner + d] = -w[i] * gv;
    }
    tensor_write_f64(out, acc);
    return true;
}

/* ---- all_class_non_max_suppression (topi vision/nms.py, nms_util.py) --------------------- */

static double f32(double v)
{
    return (double)(float)v;
}

/* calculate_overlap: intersection over union of boxes a and b (4 values each). */
static double box_iou(const double *a, const double *b)
{
    double al = fmin(a[0], a[2]), at = fmin(a[1], a[3]), ar = fmax(a[0], a[2]),
           ab = fmax(a[1], a[3]);
    double bl = fmin(b[0], b[2]), bt = fmin(b[1], b[3]), br = fmax(b[0], b[2]),
           bb = fmax(b[1], b[3]);
    double w = fmax(0.0, f32(fmin(ar, br) - fmax(al, bl)));
    double h = fmax(0.0, f32(fmin(ab, bb) - fmax(at, bt)));
    double area = f32(h * w);
    double u = f32(f32(f32(f32(ar - al) * f32(ab - at)) + f32(f32(br - bl) * f32(bb - bt))) - area);
    return u <= 0.0 ? 0.0 : f32(area / u);
}

typedef struct Scored {
    double score;
    int64_t index;
} Scored;

/* Descending score, then ascending index (a stable descending order). */
static int by_score_desc(const void *pa, const void *pb)
{
    const Scored *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

/* The candidates of one (batch, class) row: indices sorted by descending score, stable. */
static void sort_desc(const double *score, int64_t n, int64_t *order)
{
    Scored *s = tensor_scratch(n, sizeof(Scored));
    for (int64_t i = 0; i < n; i++)
        s[i] = (Scored){isnan(score[i]) ? -INFINITY : score[i], i};
    qsort(s, (size_t)n, sizeof(Scored), by_score_desc);
    for (int64_t i = 0; i < n; i++)
        order[i] = s[i].index;
}

/* One (batch, class) row: its boxes (N, 4), scores (N) and room for the candidate order. */
typedef struct NmsRow {
    const double *box;
    const double *score;
    int64_t n;
    int64_t *order;
} NmsRow;

static int64_t nms_row(const NmsRow *r, const NmsParams *p, int64_t *sel, int64_t *work)
{
    double iou_threshold = f32(p->iou_threshold), score_threshold = f32(p->score_threshold);
    int64_t n = r->n, *order = r->order, keep = 0, count = 0;
    sort_desc(r->score, n, order);
    while (keep < n && r->score[order[keep]] > score_threshold)
        keep++;
    if (iou_threshold <= 0)
        return 0;
    bool *gone = tensor_scratch(n, sizeof(bool));
    memset(gone, 0, sizeof(bool) * (size_t)(n ? n : 1));
    for (int64_t j = 0; j < keep && count < p->max_per_class; j++) {
        if (gone[j] || r->score[order[j]] <= -1.0)
            continue;
        sel[count++] = order[j];
        if (keep - (j + 1) > p->budget - *work) {
            *work = p->budget + 1; /* past the budget: the caller refuses the call */
            return count;
        }
        *work += keep - (j + 1);
        for (int64_t k = j + 1; k < keep; k++)
            if (!gone[k] && r->score[order[k]] > 0 &&
                box_iou(r->box + order[j] * 4, r->box + order[k] * 4) >= iou_threshold)
                gone[k] = true;
    }
    return count;
}

void kernels_nms(const Tensor *boxes, const Tensor *scores, const NmsParams *p, NmsSelection *out)
{
    int64_t nb = scores->shape[0], nc = scores->shape[1], n = scores->shape[2];
    for (int64_t row = 0; scores->numel == 0 && row < nb * nc; row++)
        out->count[row] = 0;
    if (scores->numel == 0)
        return; /* a dim may be near 2^63 beside the 0: no row, or rows without boxes */
    double *box = read_all(boxes), *sc = read_all(scores);
    int64_t *order = tensor_scratch(n, sizeof(int64_t));
    out->work = 0;
    for (int64_t b = 0; b < nb && out->work <= p->budget; b++)
        for (int64_t c = 0; c < nc && out->work <= p->budget; c++) {
            int64_t row = b * nc + c;
            NmsRow r = {box + b * n * 4, sc + row * n, n, order};
            out->count[row] = nms_row(&r, p, out->boxes + row * n, &out->work);
        }
}
