/* kernels_window: convolution, transposed convolution and pooling over 1 to 3 spatial axes,
 * naive loops in a fixed order, and tensors moved between a layout and the canonical one.
 * SPEC_NOTES: "Operators" (OP-nn.conv1d, OP-nn.conv2d, OP-nn.max_pool1d, ...). */
#include "values/kernels/kernels_window.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "values/kernels/kernels_native.h"

int64_t kernels_window_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pads,
                              bool ceil_mode)
{
    bool over = false;
    int64_t span = checked_mul(dilation, checked_sub(k, 1, &over), &over);
    int64_t num = checked_sub(checked_sub(checked_add(in, pads, &over), span, &over), 1, &over);
    if (ceil_mode)
        num = checked_add(num, stride - 1, &over);
    int64_t out = checked_add(checked_floordiv(num, stride, &over), 1, &over);
    return over ? WINDOW_EXTENT_OVERFLOW : out;
}

int64_t kernels_window_transpose_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                                        int64_t pads, int64_t out_pad)
{
    bool over = false;
    int64_t base = checked_mul(checked_sub(in, 1, &over), stride, &over);
    int64_t span = checked_mul(dilation, checked_sub(k, 1, &over), &over);
    int64_t out = checked_add(checked_sub(base, pads, &over), span, &over);
    out = checked_add(checked_add(out, out_pad, &over), 1, &over);
    return over ? WINDOW_EXTENT_OVERFLOW : out;
}

/* Channel and group checks: a forward weight is (O, C / groups, ...), a transposed one
 * (C, O / groups, ...). */
static bool channels_fit(const int64_t *dshape, const int64_t *wshape, const WindowConv *p)
{
    if (p->groups <= 0)
        return false;
    if (p->transpose)
        return dshape[1] == wshape[0] && wshape[0] % p->groups == 0;
    bool over = false;
    int64_t need = checked_mul(wshape[1], p->groups, &over);
    return !over && dshape[1] == need && wshape[0] % p->groups == 0;
}

bool kernels_window_conv_shape(const int64_t *dshape, const int64_t *wshape, const WindowConv *p,
                               int64_t *out)
{
    if (!channels_fit(dshape, wshape, p))
        return false;
    bool over = false;
    out[0] = dshape[0];
    out[1] = p->transpose ? checked_mul(wshape[1], p->groups, &over) : wshape[0];
    for (int k = 0; k < p->nsp; k++) {
        if (p->strides[k] <= 0 || p->dilation[k] <= 0)
            return false;
        if (p->transpose && (p->out_pad[k] < 0 || p->out_pad[k] >= p->strides[k]))
            return false;
        int64_t pads = checked_add(p->pad_lo[k], p->pad_hi[k], &over);
        out[2 + k] =
            p->transpose
                ? kernels_window_transpose_extent(dshape[2 + k], wshape[2 + k], p->strides[k],
                                                  p->dilation[k], pads, p->out_pad[k])
                : kernels_window_extent(dshape[2 + k], wshape[2 + k], p->strides[k], p->dilation[k],
                                        pads, false);
        if (over || out[2 + k] < 0)
            return false;
    }
    return !over;
}

/* ---- geometry over three spatial axes ---------------------------------------------------- */

/* Dims of one tensor padded to three spatial axes (missing leading ones of extent 1). */
typedef struct Dims3 {
    int64_t n, c, sp[3];
} Dims3;

static Dims3 dims3(const Tensor *t, int nsp)
{
    Dims3 d = {t->shape[0], t->shape[1], {1, 1, 1}};
    for (int k = 0; k < nsp; k++)
        d.sp[3 - nsp + k] = t->shape[2 + k];
    return d;
}

/* The elements of one spatial plane: 0 when a dim is 0 (the others may then be anything up to
 * 2^63 - 1), else a product bounded by the tensor's element count. */
static int64_t plane_size(const Dims3 *d)
{
    if (d->sp[0] == 0 || d->sp[1] == 0 || d->sp[2] == 0)
        return 0;
    return d->sp[0] * d->sp[1] * d->sp[2];
}

/* A parameter array moved to the last nsp of three slots; the others get `fill`. */
static void spread(const int64_t *v, int nsp, int64_t fill, int64_t out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = k < 3 - nsp ? fill : v[k - (3 - nsp)];
}

typedef struct Geom3 {
    int64_t stride[3], dil[3], pad[3];
} Geom3;

static Geom3 conv_geom3(const WindowConv *p)
{
    Geom3 g;
    spread(p->strides, p->nsp, 1, g.stride);
    spread(p->dilation, p->nsp, 1, g.dil);
    spread(p->pad_lo, p->nsp, 0, g.pad);
    return g;
}

static int64_t at3(const Dims3 *d, int64_t n, int64_t c, const int64_t s[3])
{
    return (((n * d->c + c) * d->sp[0] + s[0]) * d->sp[1] + s[1]) * d->sp[2] + s[2];
}

/* The input position a forward tap reads, or false when it falls in the padding. */
static bool forward_tap(const Geom3 *g, const Dims3 *in, const int64_t o[3], const int64_t k[3],
                        int64_t pos[3])
{
    for (int a = 0; a < 3; a++) {
        pos[a] = o[a] * g->stride[a] - g->pad[a] + k[a] * g->dil[a];
        if (pos[a] < 0 || pos[a] >= in->sp[a])
            return false;
    }
    return true;
}

/* The input position whose scatter reaches output `o` through tap `k` of a transposed
 * convolution (o = i stride - pad + k dilation), or false when there is none. */
static bool transpose_tap(const Geom3 *g, const Dims3 *in, const int64_t o[3], const int64_t k[3],
                          int64_t pos[3])
{
    for (int a = 0; a < 3; a++) {
        int64_t num = o[a] + g->pad[a] - k[a] * g->dil[a];
        if (num < 0 || num % g->stride[a] != 0)
            return false;
        pos[a] = num / g->stride[a];
        if (pos[a] >= in->sp[a])
            return false;
    }
    return true;
}

/* ---- convolution ------------------------------------------------------------------------- */

typedef struct ConvRun {
    const WindowConv *p;
    Geom3 g;
    Dims3 in, w, out;
    int64_t cin_pg, cout_pg;
    const double *df, *wf;
    const int64_t *di, *wi;
    bool is_float;
} ConvRun;

/* The weight element of output channel `o`, group-local input channel `c`, tap `k`. */
static int64_t weight_index(const ConvRun *r, int64_t o, int64_t c, const int64_t k[3])
{
    if (!r->p->transpose)
        return at3(&r->w, o, c, k);
    int64_t group = o / r->cout_pg;
    return at3(&r->w, group * r->cin_pg + c, o % r->cout_pg, k);
}

static void conv_point(const ConvRun *r, int64_t n, int64_t o, const int64_t os[3], double *f,
                       uint64_t *u)
{
    int64_t group = o / r->cout_pg, k[3], pos[3];
    for (int64_t c = 0; c < r->cin_pg; c++) {
        int64_t ci = group * r->cin_pg + c;
        for (k[0] = 0; k[0] < r->w.sp[0]; k[0]++) {
            for (k[1] = 0; k[1] < r->w.sp[1]; k[1]++) {
                for (k[2] = 0; k[2] < r->w.sp[2]; k[2]++) {
                    bool hit = r->p->transpose ? transpose_tap(&r->g, &r->in, os, k, pos)
                                               : forward_tap(&r->g, &r->in, os, k, pos);
                    if (!hit)
                        continue;
                    int64_t xi = at3(&r->in, n, ci, pos), wi = weight_index(r, o, c, k);
                    if (r->is_float)
                        *f += r->df[xi] * r->wf[wi];
                    else
                        *u += (uint64_t)r->di[xi] * (uint64_t)r->wi[wi];
                }
            }
        }
    }
}

static ConvRun conv_run(const Tensor *data, const Tensor *weight, const WindowConv *p,
                        const Tensor *out)
{
    ConvRun r = {p,
                 conv_geom3(p),
                 dims3(data, p->nsp),
                 dims3(weight, p->nsp),
                 dims3(out, p->nsp),
                 0,
                 0,
                 NULL,
                 NULL,
                 NULL,
                 NULL,
                 dtype_is_float(out->dtype)};
    r.cin_pg = p->transpose ? weight->shape[0] / p->groups : weight->shape[1];
    r.cout_pg = p->transpose ? weight->shape[1] : weight->shape[0] / p->groups;
    return r;
}

/* acc[j] += x[j * stride] * w for j in [0, n): one tap along a row of outputs. */
KERNELS_VECTOR_CLONES
static void tap_row(double *acc, const double *x, int64_t stride, double w, int64_t n)
{
    if (stride == 1) {
        for (int64_t j = 0; j < n; j++)
            acc[j] += x[j] * w;
        return;
    }
    for (int64_t j = 0; j < n; j++)
        acc[j] += x[j * stride] * w;
}

/* The first output along the last axis whose tap k reads inside the input, and one past the
 * last: pos = o stride - pad + k dilation in [0, len). */
static void tap_range(const ConvRun *r, int64_t k, int64_t *lo, int64_t *hi)
{
    int64_t s = r->g.stride[2], off = k * r->g.dil[2] - r->g.pad[2], len = r->in.sp[2];
    int64_t a = -off <= 0 ? 0 : checked_ceildiv(-off, s);
    int64_t b = len - 1 - off < 0 ? 0 : (len - 1 - off) / s + 1;
    *lo = a;
    *hi = b < r->out.sp[2] ? b : r->out.sp[2];
}

/* Forward float convolution a row of outputs at a time: for each output along the last axis
 * the same products in the same order as conv_point (input channel, then taps, those in the
 * padding skipped), each tap applied to the whole row. */
static void conv_rows_f64(const ConvRun *r, double *of)
{
    int64_t os[3], k[3], pos[3], width = r->out.sp[2];
    for (int64_t n = 0; n < r->out.n; n++)
        for (int64_t o = 0; o < r->out.c; o++)
            for (os[0] = 0; os[0] < r->out.sp[0]; os[0]++)
                for (os[1] = 0; os[1] < r->out.sp[1]; os[1]++) {
                    os[2] = 0;
                    double *acc = of + at3(&r->out, n, o, os);
                    for (int64_t j = 0; j < width; j++)
                        acc[j] = 0.0;
                    int64_t group = o / r->cout_pg;
                    for (int64_t c = 0; c < r->cin_pg; c++)
                        for (k[0] = 0; k[0] < r->w.sp[0]; k[0]++)
                            for (k[1] = 0; k[1] < r->w.sp[1]; k[1]++)
                                for (k[2] = 0; k[2] < r->w.sp[2]; k[2]++) {
                                    int64_t lo, hi;
                                    tap_range(r, k[2], &lo, &hi);
                                    int64_t first[3] = {os[0], os[1], lo};
                                    if (lo >= hi || !forward_tap(&r->g, &r->in, first, k, pos))
                                        continue;
                                    double w = r->wf[weight_index(r, o, c, k)];
                                    const double *x =
                                        r->df + at3(&r->in, n, group * r->cin_pg + c, pos);
                                    tap_row(acc + lo, x, r->g.stride[2], w, hi - lo);
                                }
                }
}

void kernels_window_conv(const Tensor *data, const Tensor *weight, const WindowConv *p, Tensor *out)
{
    if (out->numel == 0)
        return; /* N x C may be near 2^63 beside an empty axis: no plane to visit */
    ConvRun r = conv_run(data, weight, p, out);
    double *of = NULL;
    int64_t *oi = NULL;
    if (r.is_float) {
        double *d = tensor_scratch(data->numel, sizeof(double)),
               *w = tensor_scratch(weight->numel, sizeof(double));
        tensor_read_f64(data, d);
        tensor_read_f64(weight, w);
        r.df = d;
        r.wf = w;
        of = tensor_scratch(out->numel, sizeof(double));
    } else {
        int64_t *d = tensor_scratch(data->numel, sizeof(int64_t));
        int64_t *w = tensor_scratch(weight->numel, sizeof(int64_t));
        tensor_read_i64(data, d);
        tensor_read_i64(weight, w);
        r.di = d;
        r.wi = w;
        oi = tensor_scratch(out->numel, sizeof(int64_t));
    }
    if (r.is_float && !p->transpose) {
        conv_rows_f64(&r, of);
        tensor_write_f64(out, of);
        return;
    }
    int64_t at = 0, os[3];
    for (int64_t n = 0; n < r.out.n; n++)
        for (int64_t o = 0; o < r.out.c; o++)
            for (os[0] = 0; os[0] < r.out.sp[0]; os[0]++)
                for (os[1] = 0; os[1] < r.out.sp[1]; os[1]++)
                    for (os[2] = 0; os[2] < r.out.sp[2]; os[2]++, at++) {
                        double f = 0.0;
                        uint64_t u = 0;
                        conv_point(&r, n, o, os, &f, &u);
                        if (r.is_float)
                            of[at] = f;
                        else
                            oi[at] = (int64_t)u;
                    }
    if (r.is_float)
        tensor_write_f64(out, of);
    else
        tensor_write_i64(out, oi);
}

/* ---- pooling ----------------------------------------------------------------------------- */

int64_t kernels_window_pool_extent(int64_t in, const WindowPool *p, int k)
{
    bool over = false;
    int64_t pads = checked_add(p->pad_lo[k], p->pad_hi[k], &over);
    int64_t out = over ? WINDOW_EXTENT_OVERFLOW
                       : kernels_window_extent(in, p->pool_size[k], p->strides[k], p->dilation[k],
                                               pads, p->ceil_mode);
    if (out == WINDOW_EXTENT_OVERFLOW || !p->ceil_mode)
        return out;
    int64_t last = checked_mul(out - 1, p->strides[k], &over);
    int64_t end = checked_add(in, p->pad_lo[k], &over);
    if (over)
        return WINDOW_EXTENT_OVERFLOW;
    return last >= end ? out - 1 : out;
}

bool kernels_window_pool_shape(const int64_t *dshape, const WindowPool *p, int64_t *out)
{
    out[0] = dshape[0];
    out[1] = dshape[1];
    for (int k = 0; k < p->nsp; k++) {
        if (p->strides[k] <= 0 || p->dilation[k] <= 0 || p->pool_size[k] <= 0)
            return false;
        out[2 + k] = kernels_window_pool_extent(dshape[2 + k], p, k);
        if (out[2 + k] < 0)
            return false;
    }
    return true;
}

/* The taps of window `o` along one axis inside the input (into pos) and inside the padded
 * input (counted in *padded). */
static int axis_taps(const WindowPool *p, int a, int64_t o, int64_t len, int64_t *pos,
                     int64_t *padded)
{
    int n = 0;
    *padded = 0;
    for (int64_t t = 0; t < p->pool_size[a]; t++) {
        int64_t x = o * p->strides[a] - p->pad_lo[a] + t * p->dilation[a];
        if (x >= -p->pad_lo[a] && x < len + p->pad_hi[a])
            (*padded)++;
        if (x >= 0 && x < len)
            pos[n++] = x;
    }
    return n;
}

typedef struct PoolAxis {
    int64_t *pos;
    int n;
    int64_t padded;
} PoolAxis;

static double pool_point(const double *plane, const Dims3 *in, const PoolAxis ax[3], bool is_max,
                         bool include_pad)
{
    double acc = is_max ? -INFINITY : 0.0;
    for (int a = 0; a < ax[0].n; a++)
        for (int b = 0; b < ax[1].n; b++)
            for (int c = 0; c < ax[2].n; c++) {
                double v =
                    plane[(ax[0].pos[a] * in->sp[1] + ax[1].pos[b]) * in->sp[2] + ax[2].pos[c]];
                acc = is_max ? (v > acc || isnan(v) ? v : acc) : acc + v;
            }
    if (is_max)
        return acc;
    int64_t count = include_pad ? ax[0].padded * ax[1].padded * ax[2].padded
                                : (int64_t)ax[0].n * ax[1].n * ax[2].n;
    return count ? acc / (double)count : 0.0;
}

void kernels_window_pool(const Tensor *data, const WindowPool *p, bool is_max, Tensor *out)
{
    if (out->numel == 0)
        return; /* N x C may be near 2^63 beside an empty axis: no plane to visit */
    WindowPool q = *p;
    q.nsp = 3;
    spread(p->pool_size, p->nsp, 1, q.pool_size);
    spread(p->strides, p->nsp, 1, q.strides);
    spread(p->dilation, p->nsp, 1, q.dilation);
    spread(p->pad_lo, p->nsp, 0, q.pad_lo);
    spread(p->pad_hi, p->nsp, 0, q.pad_hi);
    Dims3 in = dims3(data, p->nsp), od = dims3(out, p->nsp);
    double *d = tensor_scratch(data->numel, sizeof(double));
    double *o = tensor_scratch(out->numel, sizeof(double));
    tensor_read_f64(data, d);
    PoolAxis ax[3];
    for (int a = 0; a < 3; a++)
        ax[a].pos = tensor_scratch(q.pool_size[a], sizeof(int64_t)); /* an attribute */
    int64_t plane_in = plane_size(&in), at = 0, os[3];
    for (int64_t pl = 0; pl < od.n * od.c; pl++)
        for (os[0] = 0; os[0] < od.sp[0]; os[0]++)
            for (os[1] = 0; os[1] < od.sp[1]; os[1]++)
                for (os[2] = 0; os[2] < od.sp[2]; os[2]++, at++) {
                    for (int a = 0; a < 3; a++)
                        ax[a].n = axis_taps(&q, a, os[a], in.sp[a], ax[a].pos, &ax[a].padded);
                    o[at] = pool_point(d + pl * plane_in, &in, ax, is_max, q.count_include_pad);
                }
    tensor_write_f64(out, o);
}

/* ---- adaptive average pooling ------------------------------------------------------------ */

/* [floor(o in / out), ceil((o + 1) in / out)) for 0 <= o < out, without forming o in (in may
 * be up to 2^63 - 1 when another input dim is 0): with in = q out + r, o in / out is
 * o q + o r / out, where o q <= in and o r < out^2, and out^2 fits because out is a dim of a
 * tensor that holds elements (out <= 2^31 under any tensor limit the heap can meet). */
static void adaptive_range(int64_t o, int64_t in, int64_t out, int64_t *lo, int64_t *hi)
{
    int64_t q = in / out, r = in % out;
    *lo = o * q + (o * r) / out;
    *hi = (o + 1) * q + checked_ceildiv((o + 1) * r, out);
}

int64_t kernels_window_adaptive_reads(const Tensor *data, const int64_t *out_shape)
{
    int nsp = data->ndim - 2;
    bool over = false;
    int64_t reads = checked_mul(out_shape[0], out_shape[1], &over);
    for (int k = 0; k < nsp; k++)
        if (out_shape[2 + k] == 0)
            return 0;
    for (int k = 0; k < nsp && reads != 0 && !over; k++) {
        /* The windows of one axis read at most in + out elements between them. */
        int64_t in = data->shape[2 + k], out = out_shape[2 + k], lo, hi, axis = 0;
        if (checked_mul(out, out, &over) != 0 && !over)
            for (int64_t o = 0; o < out && !over; o++) {
                adaptive_range(o, in, out, &lo, &hi);
                axis = checked_add(axis, hi - lo, &over); /* in + out may pass int64 */
            }
        reads = checked_mul(reads, axis, &over);
    }
    return over ? -1 : reads;
}

static double adaptive_point(const double *plane, const Dims3 *in, const Dims3 *od,
                             const int64_t os[3])
{
    int64_t lo[3], hi[3], s[3];
    for (int a = 0; a < 3; a++) {
        adaptive_range(os[a], in->sp[a], od->sp[a], &lo[a], &hi[a]);
        if (hi[a] == lo[a])
            return 0.0; /* an empty window (an input dim of 0): no loop over the others */
    }
    double acc = 0.0;
    for (s[0] = lo[0]; s[0] < hi[0]; s[0]++)
        for (s[1] = lo[1]; s[1] < hi[1]; s[1]++)
            for (s[2] = lo[2]; s[2] < hi[2]; s[2]++)
                acc += plane[(s[0] * in->sp[1] + s[1]) * in->sp[2] + s[2]];
    int64_t count = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    return count ? acc / (double)count : 0.0;
}

void kernels_window_adaptive_avg(const Tensor *data, Tensor *out)
{
    if (out->numel == 0)
        return; /* N x C may be near 2^63 beside an empty axis: no plane to visit */
    int nsp = data->ndim - 2;
    Dims3 in = dims3(data, nsp), od = dims3(out, nsp);
    double *d = tensor_scratch(data->numel, sizeof(double));
    double *o = tensor_scratch(out->numel, sizeof(double));
    tensor_read_f64(data, d);
    int64_t plane_in = plane_size(&in), at = 0, os[3];
    for (int64_t pl = 0; pl < od.n * od.c; pl++)
        for (os[0] = 0; os[0] < od.sp[0]; os[0]++)
            for (os[1] = 0; os[1] < od.sp[1]; os[1]++)
                for (os[2] = 0; os[2] < od.sp[2]; os[2]++, at++)
                    o[at] = adaptive_point(d + pl * plane_in, &in, &od, os);
    tensor_write_f64(out, o);
}

/* ---- layouts ----------------------------------------------------------------------------- */

/* Visits every element of `packed` (shaped by the layout) in row-major order with the flat
 * index of the canonical element it holds, or -1 past a canonical extent; copies that element
 * one way or the other. */
static void relayout(const Tensor *packed_t, const Tensor *canon_t, const WindowAxes *a,
                     bool to_canonical, Tensor *dst)
{
    int64_t idx[WINDOW_MAX_AXES] = {0}, stride[WINDOW_MAX_AXES];
    size_t width = dtype_bytes(dst->dtype);
    const unsigned char *src = to_canonical ? packed_t->data : canon_t->data;
    unsigned char *out = dst->data;
    stride[a->canon_ndim - 1] = 1;
    for (int k = a->canon_ndim - 1; k > 0; k--)
        stride[k - 1] = stride[k] * canon_t->shape[k];
    for (int64_t i = 0; i < packed_t->numel; i++) {
        int64_t at = 0, pos[WINDOW_MAX_AXES] = {0};
        for (int j = 0; j < a->ndim; j++)
            pos[a->canon[j]] += idx[j] * a->weight[j];
        for (int k = 0; k < a->canon_ndim && at >= 0; k++)
            at = pos[k] < canon_t->shape[k] ? at + pos[k] * stride[k] : -1;
        if (to_canonical && at >= 0)
            memcpy(out + (size_t)at * width, src + (size_t)i * width, width);
        else if (at >= 0)
            memcpy(out + (size_t)i * width, src + (size_t)at * width, width);
        for (int j = a->ndim - 1; j >= 0 && ++idx[j] == packed_t->shape[j]; j--)
            idx[j] = 0;
    }
}

void kernels_window_to_canonical(const Tensor *t, const WindowAxes *a, Tensor *out)
{
    relayout(t, out, a, true, out);
}

void kernels_window_from_canonical(const Tensor *t, const WindowAxes *a, Tensor *out)
{
    memset(out->data, 0, tensor_nbytes(out));
    relayout(out, t, a, false, out);
}
