/* kernels_nn: activations, softmax and the normalizations, computed in double and rounded
 * once into the output dtype. SPEC_NOTES: "Operators" (OP-nn.*). */
#include "values/kernels/kernels_nn.h"

#include <math.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "values/kernels/kernels_exp.h"
#include "values/kernels/kernels_vector.h"

static double *read_all(const Tensor *t)
{
    double *buf = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, buf);
    return buf;
}

/* outer x len x inner: the loop structure of an operation along one axis. */
static void split_at_axis(const Tensor *t, int axis, int64_t *outer, int64_t *len, int64_t *inner)
{
    *outer = 1;
    *inner = 1;
    bool over = false; /* only an empty tensor's dims overflow: no element is visited */
    for (int d = 0; d < axis; d++)
        *outer = checked_mul(*outer, t->shape[d], &over);
    for (int d = axis + 1; d < t->ndim; d++)
        *inner = checked_mul(*inner, t->shape[d], &over);
    /* An empty tensor has no lane: its outer dims may still count up to 2^63 - 1 of them. */
    if (t->numel == 0)
        *outer = 0;
    *len = t->shape[axis];
}

static double activate(NnActivation act, double v)
{
    switch (act) {
    case NN_ACT_RELU:
        return v < 0 ? 0.0 : v;
    case NN_ACT_RELU6:
        return v < 0 ? 0.0 : (v > 6 ? 6.0 : v);
    case NN_ACT_GELU:
        return 0.5 * v * (1.0 + erf(v * sqrt(0.5)));
    case NN_ACT_GELU_TANH: {
        const double c = sqrt(2.0 / 3.14159265358979323846);
        return 0.5 * v * (1.0 + tanh(c * (v + 0.044715 * v * v * v)));
    }
    case NN_ACT_SILU:
        return v / (1.0 + exp(-v));
    }
    return v;
}

/* relu and relu6 on integers: exact, and unsigned values (uint64 included) never negative. */
static void activation_int(NnActivation act, const Tensor *x, Tensor *out)
{
    int64_t n = x->numel;
    int64_t *buf = tensor_scratch(n, sizeof(int64_t));
    bool is_unsigned = dtype_is_uint(x->dtype);
    tensor_read_i64(x, buf);
    for (int64_t i = 0; i < n; i++) {
        if (is_unsigned) {
            if (act == NN_ACT_RELU6 && (uint64_t)buf[i] > 6)
                buf[i] = 6;
            continue;
        }
        if (buf[i] < 0)
            buf[i] = 0;
        if (act == NN_ACT_RELU6 && buf[i] > 6)
            buf[i] = 6;
    }
    tensor_write_i64(out, buf);
}

void kernels_nn_activation(NnActivation act, const Tensor *x, Tensor *out)
{
    bool exact = act == NN_ACT_RELU || act == NN_ACT_RELU6;
    if (exact && !dtype_is_float(x->dtype)) {
        activation_int(act, x, out);
        return;
    }
    double *buf = read_all(x);
    for (int64_t i = 0; i < x->numel; i++)
        buf[i] = activate(act, buf[i]);
    tensor_write_f64(out, buf);
}

/* OP-nn.softmax, OP-nn.log_softmax of a lane: its maximum mx, each e = exp(x - mx), their
 * sum in element order, then each e / sum, or for log_softmax (x - mx) - log(sum), in double
 * (rounded once as the output is written). */

/* The maximum of a contiguous row in four interleaved partial maxima, a loop that compiles
 * to vector instructions. The order cannot show: a NaN is passed over, and a row with one
 * comes out all NaN whatever the maximum (x - mx, its exp and the sum are NaN); among equal
 * maxima of opposite signs of zero the order picks which one, and x - mx then differs only
 * in the sign of a zero, which neither exp nor a log_sum of at least log 2 (two elements
 * whose exp is 1) can see. */
static double row_max(const double *row, int64_t len)
{
    double m4[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    int64_t k = 0;
    for (; k + 4 <= len; k += 4)
        for (int i = 0; i < 4; i++)
            m4[i] = row[k + i] > m4[i] ? row[k + i] : m4[i];
    for (; k < len; k++)
        m4[0] = row[k] > m4[0] ? row[k] : m4[0];
    double mx = m4[0];
    for (int i = 1; i < 4; i++)
        mx = m4[i] > mx ? m4[i] : mx;
    return mx;
}

KERNELS_VECTOR_CLONES static void subtract_all(const double *row, int64_t len, double mx,
                                               double *out)
{
    for (int64_t k = 0; k < len; k++)
        out[k] = row[k] - mx;
}

KERNELS_VECTOR_CLONES static void divide_all(double *row, int64_t len, double sum)
{
    for (int64_t k = 0; k < len; k++)
        row[k] = row[k] / sum;
}

KERNELS_VECTOR_CLONES static void log_finish_all(double *row, int64_t len, double mx,
                                                 double log_sum)
{
    for (int64_t k = 0; k < len; k++)
        row[k] = (row[k] - mx) - log_sum;
}

/* Up to SOFTMAX_ROWS contiguous rows at once, in place (`tmp` as large): the maxima and
 * exponentials in vector loops, and each row's sum in element order, the rows' sums
 * interleaved so that their chains of dependent additions overlap. */
enum { SOFTMAX_ROWS = 4 };

static void softmax_rows(double *rows, int64_t nrows, int64_t len, bool log_form, double *tmp)
{
    double mx[SOFTMAX_ROWS], sum[SOFTMAX_ROWS] = {0};
    double *e[SOFTMAX_ROWS];
    for (int64_t r = 0; r < nrows; r++) {
        double *row = rows + r * len, *t = tmp + r * len;
        mx[r] = row_max(row, len);
        subtract_all(row, len, mx[r], t);
        /* softmax keeps each exponential for the division; log_softmax needs their sum. */
        e[r] = log_form ? t : row;
        kernels_exp_many(t, e[r], len);
    }
    /* A last block of fewer rows sums its first row again in place of the missing ones. */
    for (int64_t r = nrows; r < SOFTMAX_ROWS; r++)
        e[r] = e[0];
    for (int64_t k = 0; k < len; k++) {
        sum[0] += e[0][k];
        sum[1] += e[1][k];
        sum[2] += e[2][k];
        sum[3] += e[3][k];
    }
    for (int64_t r = 0; r < nrows; r++) {
        if (log_form)
            log_finish_all(rows + r * len, len, mx[r], log(sum[r]));
        else
            divide_all(rows + r * len, len, sum[r]);
    }
}

/* Lane `l` (of outer x inner) of buf, `len` values `inner` apart, copied to or from row. */
static void lane_copy(double *buf, int64_t l, int64_t len, int64_t inner, double *row,
                      bool to_row)
{
    double *lane = buf + (l / inner) * len * inner + l % inner;
    for (int64_t k = 0; k < len; k++) {
        if (to_row)
            row[k] = lane[k * inner];
        else
            lane[k * inner] = row[k];
    }
}

void kernels_nn_softmax(const Tensor *x, int axis, bool log_form, Tensor *out)
{
    if (x->numel == 0)
        return; /* nor a row buffer as long as an axis that may count 2^63 - 1 */
    int64_t outer, len, inner;
    split_at_axis(x, axis, &outer, &len, &inner);
    int64_t lanes = outer * inner; /* <= numel, as the block below */
    int64_t block = (lanes < SOFTMAX_ROWS ? lanes : SOFTMAX_ROWS) * len;
    double *rows = tensor_scratch(block, sizeof(double)),
           *tmp = tensor_scratch(block, sizeof(double));
    if (inner == 1) {
        /* Along the last axis: the rows are the tensor's, read and written a few at a time. */
        for (int64_t o = 0; o < outer; o += SOFTMAX_ROWS) {
            int64_t n = outer - o < SOFTMAX_ROWS ? outer - o : SOFTMAX_ROWS;
            tensor_read_f64_range(x, o * len, n * len, rows);
            softmax_rows(rows, n, len, log_form, tmp);
            tensor_write_f64_range(out, o * len, n * len, rows);
        }
        return;
    }
    /* Along another axis: a few lanes at a time gathered into rows and scattered back. */
    double *buf = read_all(x);
    for (int64_t l = 0; l < lanes; l += SOFTMAX_ROWS) {
        int64_t n = lanes - l < SOFTMAX_ROWS ? lanes - l : SOFTMAX_ROWS;
        for (int64_t r = 0; r < n; r++)
            lane_copy(buf, l + r, len, inner, rows + r * len, true);
        softmax_rows(rows, n, len, log_form, tmp);
        for (int64_t r = 0; r < n; r++)
            lane_copy(buf, l + r, len, inner, rows + r * len, false);
    }
    tensor_write_f64(out, buf);
}

/* For every element, the index of its normalization group (coordinates on the kept axes,
 * row-major) and of its parameter (coordinates on the normalized axes in their given order,
 * the layout of gamma and beta). */
static void norm_indices(const Tensor *x, const int *axes, int naxes, int64_t *group,
                         int64_t *param)
{
    int64_t coords[TENSOR_MAX_NDIM] = {0};
    bool normed[TENSOR_MAX_NDIM] = {false};
    for (int k = 0; k < naxes; k++)
        normed[axes[k]] = true;
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t g = 0, p = 0;
        for (int d = 0; d < x->ndim; d++)
            if (!normed[d])
                g = g * x->shape[d] + coords[d];
        for (int k = 0; k < naxes; k++)
            p = p * x->shape[axes[k]] + coords[axes[k]];
        group[i] = g;
        param[i] = p;
        for (int d = x->ndim - 1; d >= 0; d--) {
            if (++coords[d] < x->shape[d])
                break;
            coords[d] = 0;
        }
    }
}

/* Per-group mean and biased variance, two passes. */
static void group_stats(const double *v, const int64_t *group, int64_t n, int64_t ngroups,
                        double *mean, double *var)
{
    int64_t count = ngroups ? n / ngroups : 0;
    for (int64_t g = 0; g < ngroups; g++)
        mean[g] = var[g] = 0.0;
    for (int64_t i = 0; i < n; i++)
        mean[group[i]] += v[i];
    for (int64_t g = 0; g < ngroups; g++)
        mean[g] /= (double)count;
    for (int64_t i = 0; i < n; i++) {
        double d = v[i] - mean[group[i]];
        var[group[i]] += d * d;
    }
    for (int64_t g = 0; g < ngroups; g++)
        var[g] /= (double)count;
}

static double affine(double normed, const double *gamma, const double *beta, int64_t p,
                     const NnNormOptions *opt)
{
    if (opt->scale)
        normed *= gamma[p];
    if (opt->center)
        normed += beta[p];
    return normed;
}

void kernels_nn_layer_norm(const Tensor *x, const Tensor *gamma, const Tensor *beta,
                           const int *axes, int naxes, const NnNormOptions *opt, Tensor *out)
{
    int64_t ngroups = x->numel;
    for (int k = 0; k < naxes; k++)
        ngroups = x->shape[axes[k]] ? ngroups / x->shape[axes[k]] : 0;
    int64_t n = x->numel;
    int64_t *group = tensor_scratch(n, sizeof(int64_t)),
            *param = tensor_scratch(n, sizeof(int64_t));
    double *mean = tensor_scratch(ngroups, sizeof(double));
    double *var = tensor_scratch(ngroups, sizeof(double));
    double *v = read_all(x), *g = read_all(gamma), *b = read_all(beta);
    norm_indices(x, axes, naxes, group, param);
    group_stats(v, group, n, ngroups, mean, var);
    for (int64_t i = 0; i < n; i++) {
        double z = (v[i] - mean[group[i]]) / sqrt(var[group[i]] + opt->epsilon);
        v[i] = affine(z, g, b, param[i], opt);
    }
    tensor_write_f64(out, v);
}

void kernels_nn_batch_norm(const Tensor *x, const Tensor *const params[4], int axis,
                           const NnNormOptions *opt, Tensor *const outs[3])
{
    int64_t outer, channels, inner;
    split_at_axis(x, axis, &outer, &channels, &inner);
    double *v = read_all(x), *g = read_all(params[0]), *b = read_all(params[1]);
    double *mm = read_all(params[2]), *mv = read_all(params[3]);
    double *mean = mm, *var = mv;
    if (opt->training) {
        int64_t n = x->numel;
        int64_t *group = tensor_scratch(n, sizeof(int64_t));
        mean = tensor_scratch(channels, sizeof(double));
        var = tensor_scratch(channels, sizeof(double));
        for (int64_t i = 0; i < n; i++)
            group[i] = (i / inner) % channels;
        group_stats(v, group, n, channels, mean, var);
    }
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t c = (i / inner) % channels;
        v[i] = affine((v[i] - mean[c]) / sqrt(var[c] + opt->epsilon), g, b, c, opt);
    }
    tensor_write_f64(outs[0], v);
    if (opt->training) {
        for (int64_t c = 0; c < channels; c++) {
            mm[c] = (1.0 - opt->momentum) * mm[c] + opt->momentum * mean[c];
            mv[c] = (1.0 - opt->momentum) * mv[c] + opt->momentum * var[c];
        }
    }
    tensor_write_f64(outs[1], mm);
    tensor_write_f64(outs[2], mv);
}
