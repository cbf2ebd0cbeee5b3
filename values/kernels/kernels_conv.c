/* kernels_conv: conv2d and 2-D pooling in NCHW, naive loops in a fixed order, accumulated
 * in double (int64 for integer convolutions). SPEC_NOTES: "Operators" (OP-nn.conv2d, ...). */
#include "values/kernels/kernels_nn.h"

#include <math.h>

#include "ast/mem.h"

static int64_t floordiv64(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool kernels_nn_conv2d_shape(const int64_t dshape[4], const int64_t wshape[4], const NnConv2d *p,
                             int64_t out[4])
{
    if (p->groups <= 0 || dshape[1] != wshape[1] * p->groups || wshape[0] % p->groups != 0)
        return false;
    for (int k = 0; k < 2; k++) {
        if (p->strides[k] <= 0 || p->dilation[k] <= 0)
            return false;
        int64_t num = dshape[2 + k] + p->padding[k] + p->padding[k + 2] -
                      p->dilation[k] * (wshape[2 + k] - 1) - 1;
        out[2 + k] = floordiv64(num, p->strides[k]) + 1;
        if (out[2 + k] < 0)
            return false;
    }
    out[0] = dshape[0];
    out[1] = wshape[0];
    return true;
}

/* The spatial geometry one output element needs. */
typedef struct ConvGeom {
    int64_t cin_per_group, cout_per_group;
    int64_t h, w, kh, kw, oh, ow;
} ConvGeom;

static ConvGeom conv_geom(const Tensor *data, const Tensor *weight, const Tensor *out,
                          const NnConv2d *p)
{
    ConvGeom g;
    g.cin_per_group = weight->shape[1];
    g.cout_per_group = weight->shape[0] / p->groups;
    g.h = data->shape[2];
    g.w = data->shape[3];
    g.kh = weight->shape[2];
    g.kw = weight->shape[3];
    g.oh = out->shape[2];
    g.ow = out->shape[3];
    return g;
}

/* One output element: sum over the group's input channels and the kernel window; taps in
 * the padding contribute zero. Integers accumulate with wrap-around in uint64. */
static double conv_point_f(const double *d, const double *w, const ConvGeom *g, const NnConv2d *p,
                           const int64_t idx[4])
{
    int64_t n = idx[0], o = idx[1], group = o / g->cout_per_group;
    double acc = 0.0;
    for (int64_t c = 0; c < g->cin_per_group; c++) {
        int64_t ci = group * g->cin_per_group + c;
        const double *plane = d + (n * g->cin_per_group * p->groups + ci) * g->h * g->w;
        const double *kern = w + (o * g->cin_per_group + c) * g->kh * g->kw;
        for (int64_t ky = 0; ky < g->kh; ky++) {
            int64_t y = idx[2] * p->strides[0] - p->padding[0] + ky * p->dilation[0];
            if (y < 0 || y >= g->h)
                continue;
            for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t x = idx[3] * p->strides[1] - p->padding[1] + kx * p->dilation[1];
                if (x >= 0 && x < g->w)
                    acc += plane[y * g->w + x] * kern[ky * g->kw + kx];
            }
        }
    }
    return acc;
}

static int64_t conv_point_i(const int64_t *d, const int64_t *w, const ConvGeom *g,
                            const NnConv2d *p, const int64_t idx[4])
{
    int64_t n = idx[0], o = idx[1], group = o / g->cout_per_group;
    uint64_t acc = 0;
    for (int64_t c = 0; c < g->cin_per_group; c++) {
        int64_t ci = group * g->cin_per_group + c;
        const int64_t *plane = d + (n * g->cin_per_group * p->groups + ci) * g->h * g->w;
        const int64_t *kern = w + (o * g->cin_per_group + c) * g->kh * g->kw;
        for (int64_t ky = 0; ky < g->kh; ky++) {
            int64_t y = idx[2] * p->strides[0] - p->padding[0] + ky * p->dilation[0];
            if (y < 0 || y >= g->h)
                continue;
            for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t x = idx[3] * p->strides[1] - p->padding[1] + kx * p->dilation[1];
                if (x >= 0 && x < g->w)
                    acc += (uint64_t)plane[y * g->w + x] * (uint64_t)kern[ky * g->kw + kx];
            }
        }
    }
    return (int64_t)acc;
}

static void next_index(int64_t idx[4], const int64_t *shape)
{
    for (int d = 3; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return;
        idx[d] = 0;
    }
}

void kernels_nn_conv2d(const Tensor *data, const Tensor *weight, const NnConv2d *p, Tensor *out)
{
    ConvGeom g = conv_geom(data, weight, out, p);
    int64_t idx[4] = {0, 0, 0, 0};
    size_t nd = (size_t)(data->numel ? data->numel : 1);
    size_t nw = (size_t)(weight->numel ? weight->numel : 1);
    size_t no = (size_t)(out->numel ? out->numel : 1);
    if (!dtype_is_float(data->dtype) && !dtype_is_float(weight->dtype)) {
        int64_t *d = mem_alloc_atomic(sizeof(int64_t) * nd);
        int64_t *w = mem_alloc_atomic(sizeof(int64_t) * nw);
        int64_t *o = mem_alloc_atomic(sizeof(int64_t) * no);
        tensor_read_i64(data, d);
        tensor_read_i64(weight, w);
        for (int64_t i = 0; i < out->numel; i++, next_index(idx, out->shape))
            o[i] = conv_point_i(d, w, &g, p, idx);
        tensor_write_i64(out, o);
        return;
    }
    double *d = mem_alloc_atomic(sizeof(double) * nd);
    double *w = mem_alloc_atomic(sizeof(double) * nw);
    double *o = mem_alloc_atomic(sizeof(double) * no);
    tensor_read_f64(data, d);
    tensor_read_f64(weight, w);
    for (int64_t i = 0; i < out->numel; i++, next_index(idx, out->shape))
        o[i] = conv_point_f(d, w, &g, p, idx);
    tensor_write_f64(out, o);
}

int64_t kernels_nn_pool_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                               const int64_t pad[2], bool ceil_mode)
{
    int64_t num = in + pad[0] + pad[1] - dilation * (k - 1) - 1;
    if (ceil_mode)
        num += stride - 1;
    int64_t out = floordiv64(num, stride) + 1;
    if (ceil_mode && (out - 1) * stride >= in + pad[0])
        out--;
    return out;
}

bool kernels_nn_pool2d_shape(const int64_t dshape[4], const NnPool2d *p, int64_t out[4])
{
    out[0] = dshape[0];
    out[1] = dshape[1];
    for (int k = 0; k < 2; k++) {
        if (p->strides[k] <= 0 || p->dilation[k] <= 0 || p->pool_size[k] <= 0)
            return false;
        int64_t pad[2] = {p->padding[k], p->padding[k + 2]};
        out[2 + k] = kernels_nn_pool_extent(dshape[2 + k], p->pool_size[k], p->strides[k],
                                            p->dilation[k], pad, p->ceil_mode);
        if (out[2 + k] < 0)
            return false;
    }
    return true;
}

/* Visits the taps of one pooling window along one spatial axis: positions inside the input
 * are returned in `pos`; `in_padded` counts taps inside the padded input. */
static int window_taps(int64_t o, int64_t axis_len, const NnPool2d *p, int k, int64_t *pos,
                       int64_t *in_padded)
{
    int n = 0;
    *in_padded = 0;
    for (int64_t t = 0; t < p->pool_size[k]; t++) {
        int64_t x = o * p->strides[k] - p->padding[k] + t * p->dilation[k];
        if (x >= -p->padding[k] && x < axis_len + p->padding[k + 2])
            (*in_padded)++;
        if (x >= 0 && x < axis_len)
            pos[n++] = x;
    }
    return n;
}

static void pool2d(const Tensor *data, const NnPool2d *p, Tensor *out, bool is_max)
{
    int64_t h = data->shape[2], w = data->shape[3];
    int64_t planes = out->shape[0] * out->shape[1], oh = out->shape[2], ow = out->shape[3];
    int64_t *ys = mem_alloc_atomic(sizeof(int64_t) * (size_t)p->pool_size[0]);
    int64_t *xs = mem_alloc_atomic(sizeof(int64_t) * (size_t)p->pool_size[1]);
    double *d = mem_alloc_atomic(sizeof(double) * (size_t)(data->numel ? data->numel : 1));
    double *o = mem_alloc_atomic(sizeof(double) * (size_t)(out->numel ? out->numel : 1));
    tensor_read_f64(data, d);
    for (int64_t pl = 0; pl < planes; pl++) {
        const double *plane = d + pl * h * w;
        for (int64_t y = 0; y < oh; y++) {
            int64_t py, px;
            int ny = window_taps(y, h, p, 0, ys, &py);
            for (int64_t x = 0; x < ow; x++) {
                int nx = window_taps(x, w, p, 1, xs, &px);
                double acc = is_max ? -INFINITY : 0.0;
                for (int a = 0; a < ny; a++) {
                    for (int b = 0; b < nx; b++) {
                        double v = plane[ys[a] * w + xs[b]];
                        acc = is_max ? (v > acc || isnan(v) ? v : acc) : acc + v;
                    }
                }
                if (!is_max) {
                    int64_t count = p->count_include_pad ? py * px : (int64_t)ny * nx;
                    acc = count ? acc / (double)count : 0.0;
                }
                o[(pl * oh + y) * ow + x] = acc;
            }
        }
    }
    tensor_write_f64(out, o);
}

void kernels_nn_max_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out)
{
    pool2d(data, p, out, true);
}

void kernels_nn_avg_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out)
{
    pool2d(data, p, out, false);
}
