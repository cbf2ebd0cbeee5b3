/* kernels_norm: group_norm, instance_norm and rms_norm in double with the roundings TVM's
 * lowering makes, the losses and pixel_shuffle. SPEC_NOTES: "Operators" (OP-nn.group_norm
 * and the rows after it). */
#include "values/kernels/kernels_norm.h"

#include <math.h>
#include <string.h>

#include "ast/mem.h"

static double *read_all(const Tensor *t)
{
    double *buf = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, buf);
    return buf;
}

static bool is_half(DataType t)
{
    return t.code == DT_FLOAT && t.bits == 16;
}

/* How the elements fall into normalization groups: the axes whose coordinate is reduced
 * over, the channel axis (or -1) split into runs of `per_group` channels, and where each
 * element's parameter (gamma, beta, weight) sits. */
typedef struct Grouping {
    bool reduced[TENSOR_MAX_NDIM];
    int channel;       /* the parameter is the channel coordinate; -1: the reduced coords */
    int64_t per_group; /* channels per group on the channel axis (1: every channel its own) */
    const int *axes;   /* the parameter's axes in their given order, when channel < 0 */
    int naxes;
} Grouping;

static int64_t count_groups(const Tensor *x, const Grouping *g)
{
    int64_t n = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (g->reduced[d])
            continue;
        n *= d == g->channel ? x->shape[d] / g->per_group : x->shape[d];
    }
    return n;
}

/* For every element its group (the kept coordinates, row-major) and its parameter index. */
static void index_maps(const Tensor *x, const Grouping *g, int64_t *group, int64_t *param)
{
    int64_t coords[TENSOR_MAX_NDIM] = {0};
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t gi = 0, p = 0;
        for (int d = 0; d < x->ndim; d++) {
            if (g->reduced[d])
                continue;
            if (d == g->channel)
                gi = gi * (x->shape[d] / g->per_group) + coords[d] / g->per_group;
            else
                gi = gi * x->shape[d] + coords[d];
        }
        if (g->channel >= 0)
            p = coords[g->channel];
        for (int k = 0; g->channel < 0 && k < g->naxes; k++)
            p = p * x->shape[g->axes[k]] + coords[g->axes[k]];
        group[i] = gi;
        param[i] = p;
        for (int d = x->ndim - 1; d >= 0; d--) {
            if (++coords[d] < x->shape[d])
                break;
            coords[d] = 0;
        }
    }
}

typedef struct GroupMaps {
    int64_t *group, *param, ngroups, count;
} GroupMaps;

static GroupMaps group_maps(const Tensor *x, const Grouping *g)
{
    GroupMaps m;
    m.group = tensor_scratch(x->numel, sizeof(int64_t));
    m.param = tensor_scratch(x->numel, sizeof(int64_t));
    m.ngroups = count_groups(x, g);
    m.count = m.ngroups ? x->numel / m.ngroups : 0;
    index_maps(x, g, m.group, m.param);
    return m;
}

static double *zeros(int64_t n)
{
    double *b = tensor_scratch(n, sizeof(double));
    for (int64_t i = 0; i < n; i++)
        b[i] = 0.0;
    return b;
}

/* Mean and biased variance per group, two passes in double. */
static void group_stats(const double *v, int64_t n, const GroupMaps *m, double *mean, double *var)
{
    for (int64_t i = 0; i < n; i++)
        mean[m->group[i]] += v[i];
    for (int64_t g = 0; g < m->ngroups; g++)
        mean[g] /= (double)m->count;
    for (int64_t i = 0; i < n; i++) {
        double d = v[i] - mean[m->group[i]];
        var[m->group[i]] += d * d;
    }
    for (int64_t g = 0; g < m->ngroups; g++)
        var[g] /= (double)m->count;
}

/* (x - mean) / sqrt(var + eps), then gamma and beta. The epsilon is a constant of the data's
 * dtype (make_const in topi). For float16 TVM normalizes in float32 and casts to float16
 * before the affine step, which it computes in float16: the reference rounds the normalized
 * value, the product and the sum to float16 one by one, as that float16 arithmetic does. */
static void normalize(const Tensor *x, const Tensor *gamma, const Tensor *beta, const Grouping *g,
                      const NormAffine *opt, Tensor *out)
{
    if (x->numel == 0)
        return; /* no element to normalize: the kept dims, maybe near 2^63, make no group */
    GroupMaps m = group_maps(x, g);
    double *v = read_all(x), *ga = read_all(gamma), *be = read_all(beta);
    double *mean = zeros(m.ngroups), *var = zeros(m.ngroups);
    double eps = tensor_round_f64(x->dtype, opt->epsilon);
    bool half = is_half(x->dtype);
    group_stats(v, x->numel, &m, mean, var);
    for (int64_t i = 0; i < x->numel; i++) {
        double z = (v[i] - mean[m.group[i]]) / sqrt(var[m.group[i]] + eps);
        if (half)
            z = tensor_round_f64(x->dtype, z);
        if (opt->scale)
            z *= ga[m.param[i]];
        if (half)
            z = tensor_round_f64(x->dtype, z);
        if (opt->center)
            z += be[m.param[i]];
        v[i] = z;
    }
    tensor_write_f64(out, v);
}

void kernels_norm_group(const Tensor *x, const Tensor *gamma, const Tensor *beta, int channel_axis,
                        int64_t num_groups, const int *axes, int naxes, const NormAffine *opt,
                        Tensor *out)
{
    Grouping g = {{false}, channel_axis, 1, NULL, 0};
    for (int k = 0; k < naxes; k++)
        g.reduced[axes[k]] = true;
    g.per_group = num_groups > 0 ? x->shape[channel_axis] / num_groups : 1;
    if (g.per_group <= 0)
        g.per_group = 1;
    normalize(x, gamma, beta, &g, opt, out);
}

void kernels_norm_instance(const Tensor *x, const Tensor *gamma, const Tensor *beta,
                           int channel_axis, const int *axes, int naxes, const NormAffine *opt,
                           Tensor *out)
{
    Grouping g = {{false}, channel_axis, 1, NULL, 0};
    for (int k = 0; k < naxes; k++)
        g.reduced[axes[k]] = true;
    normalize(x, gamma, beta, &g, opt, out);
}

/* TVM's rms_norm casts data and weight to float32 and the result back: the reference rounds
 * the inputs to float32 (a float64 tensor keeps only float32 precision, as on TVM), computes
 * in double and rounds to float32 before the result's dtype (float16 rounds twice, as TVM's
 * cast does; float64 keeps the double, as TVM's float64 epsilon promotes the last steps).
 * The epsilon is a constant of the data's dtype. */
void kernels_norm_rms(const Tensor *x, const Tensor *weight, const int *axes, int naxes,
                      double epsilon, Tensor *out)
{
    if (x->numel == 0)
        return; /* as normalize */
    Grouping g = {{false}, -1, 1, axes, naxes};
    DataType f32 = dtype_float32();
    for (int k = 0; k < naxes; k++)
        g.reduced[axes[k]] = true;
    GroupMaps m = group_maps(x, &g);
    double *v = read_all(x), *w = read_all(weight), *ms = zeros(m.ngroups);
    double eps = tensor_round_f64(x->dtype, epsilon);
    for (int64_t i = 0; i < x->numel; i++)
        v[i] = tensor_round_f64(f32, v[i]);
    for (int64_t i = 0; i < weight->numel; i++)
        w[i] = tensor_round_f64(f32, w[i]);
    for (int64_t i = 0; i < x->numel; i++)
        ms[m.group[i]] += v[i] * v[i];
    for (int64_t gi = 0; gi < m.ngroups; gi++)
        ms[gi] = 1.0 / sqrt(ms[gi] / (double)m.count + eps);
    for (int64_t i = 0; i < x->numel; i++) {
        v[i] = ms[m.group[i]] * v[i] * w[m.param[i]];
        if (x->dtype.bits < 64) /* float64 data computes its last steps in float64 */
            v[i] = tensor_round_f64(f32, v[i]);
    }
    tensor_write_f64(out, v);
}

/* ---- losses ----------------------------------------------------------------------------- */

/* Integers as TVM's lowering on them: products and sum wrap in the dtype, the division by
 * the first dim truncates. */
static bool cross_entropy_int(const Tensor *x, const Tensor *y, Tensor *out)
{
    int64_t n = x->numel;
    int64_t *a = tensor_scratch(n, sizeof(int64_t));
    int64_t *b = tensor_scratch(n, sizeof(int64_t));
    uint64_t sum = 0;
    tensor_read_i64(x, a);
    tensor_read_i64(y, b);
    for (int64_t i = 0; i < n; i++)
        sum += (uint64_t)a[i] * (uint64_t)b[i];
    int64_t s = tensor_wrap_i64(x->dtype, (int64_t)(0 - sum));
    if (x->ndim > 1) {
        if (x->shape[0] == 0)
            return false;
        s /= x->shape[0];
    }
    tensor_set_i64(out, 0, s);
    return true;
}

bool kernels_norm_cross_entropy(const Tensor *x, const Tensor *y, Tensor *out)
{
    if (!dtype_is_float(x->dtype))
        return cross_entropy_int(x, y, out);
    double *a = read_all(x), *b = read_all(y);
    double sum = 0.0;
    for (int64_t i = 0; i < x->numel; i++)
        sum += a[i] * b[i];
    double r = -sum;
    if (x->ndim > 1)
        r /= (double)x->shape[0];
    tensor_set_f64(out, 0, r);
    return true;
}

int64_t kernels_norm_nll_loss(const Tensor *pred, const Tensor *targets, const Tensor *weights,
                              NllReduction reduction, int64_t ignore_index, Tensor *out)
{
    int64_t classes = pred->ndim == 1 ? pred->shape[0] : pred->shape[1];
    int64_t inner = 1, n = targets->numel;
    for (int d = 2; d < pred->ndim; d++)
        inner *= pred->shape[d];
    double *p = read_all(pred), *w = weights ? read_all(weights) : NULL;
    int64_t *t = tensor_scratch(n, sizeof(int64_t));
    double *loss = zeros(n), tsum = 0.0, wsum = 0.0;
    tensor_read_i64(targets, t);
    for (int64_t i = 0; i < n; i++) {
        if (t[i] == ignore_index)
            continue;
        if (t[i] < 0 || t[i] >= classes)
            return i;
        double wt = w ? w[t[i]] : 1.0;
        /* (n, d...) flat index i: batch i / inner, position i % inner. */
        int64_t at = pred->ndim == 1 ? t[i] : ((i / inner) * classes + t[i]) * inner + i % inner;
        loss[i] = -p[at] * wt;
        tsum += loss[i];
        wsum += wt;
    }
    if (reduction == NLL_NONE)
        tensor_write_f64(out, loss);
    else
        tensor_set_f64(out, 0, reduction == NLL_SUM ? tsum : tsum / wsum);
    return -1;
}

/* ---- pixel_shuffle ---------------------------------------------------------------------- */

void kernels_norm_pixel_shuffle(const Tensor *x, int64_t r, Tensor *out)
{
    if (out->numel == 0)
        return; /* the other dims may then be near 2^63: nothing to visit, nor to multiply */
    int nd = out->ndim;
    int64_t c = out->shape[nd - 3], h = out->shape[nd - 2], w = out->shape[nd - 1];
    int64_t ih = x->shape[nd - 2], iw = x->shape[nd - 1], ic = x->shape[nd - 3];
    /* Bounded by out's elements, as are the indices below by the two tensors' counts. */
    int64_t plane = c * h * w;
    int64_t outer = out->numel / plane;
    size_t eb = dtype_bytes(x->dtype);
    const char *src = x->data;
    char *dst = out->data;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t ci = 0; ci < c; ci++)
            for (int64_t hi = 0; hi < h; hi++)
                for (int64_t wi = 0; wi < w; wi++) {
                    int64_t cin = ci * r * r + (hi % r) * r + wi % r;
                    int64_t from = ((o * ic + cin) * ih + hi / r) * iw + wi / r;
                    int64_t to = ((o * c + ci) * h + hi) * w + wi;
                    memcpy(dst + (size_t)to * eb, src + (size_t)from * eb, eb);
                }
}
