/* kernels_select: kernels that pick elements by value or index: take, strided_slice, where,
 * and the dtype conversion astype. SPEC_NOTES: "Operators" (OP-* rules). */
#include "values/kernels/kernels_manip.h"

#include <string.h>

#include "ast/mem.h"

/* An index resolved against a dim under take's mode; -1 when out of range in "fast". */
static int64_t take_index(int64_t i, int64_t dim, const char *mode)
{
    if (strcmp(mode, "clip") == 0)
        return i < 0 ? 0 : i >= dim ? dim - 1 : i;
    if (strcmp(mode, "wrap") == 0) {
        int64_t r = dim > 0 ? i % dim : 0;
        return r < 0 ? r + dim : r;
    }
    if (i < 0)
        i += dim;
    return i >= 0 && i < dim ? i : -1;
}

/* A uint64 index above INT64_MAX, which reads as negative: TVM compares and wraps it unsigned,
 * so "clip" gives the last position, "wrap" its unsigned remainder, "fast" out of range. */
static int64_t take_index_u64(uint64_t u, int64_t dim, const char *mode)
{
    if (strcmp(mode, "clip") == 0)
        return dim - 1;
    if (strcmp(mode, "wrap") == 0)
        return dim > 0 ? (int64_t)(u % (uint64_t)dim) : 0;
    return -1;
}

Tensor *kernel_take(const Tensor *x, const Tensor *indices, int axis, const char *mode,
                    const char **err)
{
    int64_t flat = x->numel;
    const int64_t *xshape = axis < 0 ? &flat : x->shape;
    int xnd = axis < 0 ? 1 : x->ndim;
    if (axis < 0)
        axis = 0;
    if (xnd - 1 + indices->ndim > TENSOR_MAX_NDIM) {
        *err = "take's result rank is too large";
        return NULL;
    }
    int64_t shape[TENSOR_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < axis; i++)
        shape[nd++] = xshape[i];
    for (int i = 0; i < indices->ndim; i++)
        shape[nd++] = indices->shape[i];
    for (int i = axis + 1; i < xnd; i++)
        shape[nd++] = xshape[i];
    int64_t dim = xshape[axis];
    if (dim == 0 && indices->numel > 0) {
        *err = "take from an empty axis";
        return NULL;
    }
    int64_t *ix = tensor_scratch(indices->numel + 1, sizeof(int64_t));
    tensor_read_i64(indices, ix);
    bool u64 = dtype_is_uint(indices->dtype) && indices->dtype.bits == 64;
    for (int64_t k = 0; k < indices->numel; k++) {
        ix[k] = u64 && ix[k] < 0 ? take_index_u64((uint64_t)ix[k], dim, mode)
                                 : take_index(ix[k], dim, mode);
        if (ix[k] < 0) {
            *err = "take: an index is out of range";
            return NULL;
        }
    }
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; i++)
        outer *= xshape[i];
    for (int i = axis + 1; i < xnd; i++)
        inner *= xshape[i];
    Tensor *out = tensor_new(x->dtype, nd, shape);
    if (!out) {
        *err = "take's result is too large";
        return NULL;
    }
    size_t es = dtype_bytes(x->dtype), chunk = (size_t)inner * es;
    char *d = out->data;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 0; k < indices->numel; k++, d += chunk)
            memcpy(d, (const char *)x->data + ((size_t)(o * dim + ix[k]) * (size_t)inner) * es,
                   chunk);
    return out;
}

/* Python's slice.indices for one axis: the first index and the length. */
static void slice_axis(int64_t dim, int64_t b, int64_t e, int64_t s, int64_t *first, int64_t *len)
{
    int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
    if (b < 0)
        b = b < -dim ? lo : b + dim;
    if (e < 0)
        e = e < -dim ? lo : e + dim;
    b = b < lo ? lo : b > hi ? hi : b;
    e = e < lo ? lo : e > hi ? hi : e;
    *first = b;
    *len = kernel_slice_count(b, e, s);
}

int64_t kernel_slice_count(int64_t b, int64_t e, int64_t s)
{
    /* b and e are clamped to [-1, dim], so their difference fits; |INT64_MIN| is above any
     * difference, as INT64_MAX is. */
    if (s > 0)
        return e > b ? (e - b - 1) / s + 1 : 0;
    return b > e ? (b - e - 1) / (s == INT64_MIN ? INT64_MAX : -s) + 1 : 0;
}

Tensor *kernel_strided_slice(const Tensor *x, const int64_t *begin, const int64_t *end,
                             const int64_t *strides, const char **err)
{
    int64_t own[TENSOR_MAX_NDIM], shape[TENSOR_MAX_NDIM], vstr[TENSOR_MAX_NDIM];
    kernel_strides(x->ndim, x->shape, own);
    int64_t base = 0;
    for (int i = 0; i < x->ndim; i++) {
        if (strides[i] == 0) {
            *err = "strided_slice's stride is zero";
            return NULL;
        }
        int64_t first;
        slice_axis(x->shape[i], begin[i], end[i], strides[i], &first, &shape[i]);
        if (shape[i] > 0)
            base += first * own[i];
        /* Followed only along a length of 2 or more, where |stride| < dim bounds it. */
        vstr[i] = shape[i] > 1 ? strides[i] * own[i] : 0;
    }
    return kernel_gather(x, x->ndim, shape, kernel_view_index(x->ndim, shape, vstr, base), err);
}

/* The broadcast shape of three tensors, or false. */
static bool broadcast3(const Tensor *const ts[3], int *ndim, int64_t *shape)
{
    int nd = 0;
    for (int t = 0; t < 3; t++)
        nd = ts[t]->ndim > nd ? ts[t]->ndim : nd;
    for (int i = 0; i < nd; i++)
        shape[i] = 1;
    for (int t = 0; t < 3; t++) {
        for (int j = 0; j < ts[t]->ndim; j++) {
            int64_t *o = &shape[nd - ts[t]->ndim + j];
            int64_t d = ts[t]->shape[j];
            if (d == *o || d == 1)
                continue;
            if (*o != 1)
                return false;
            *o = d;
        }
    }
    *ndim = nd;
    return true;
}

Tensor *kernel_where(const Tensor *cond, const Tensor *a, const Tensor *b, const char **err)
{
    const Tensor *ts[3] = {cond, a, b};
    int nd;
    int64_t shape[TENSOR_MAX_NDIM], st[3][TENSOR_MAX_NDIM];
    if (!broadcast3(ts, &nd, shape) || !dtype_equal(a->dtype, b->dtype)) {
        *err = "where's operands do not broadcast or differ in dtype";
        return NULL;
    }
    int64_t *ix[3];
    for (int t = 0; t < 3; t++) {
        kernel_broadcast_strides(ts[t], nd, shape, st[t]);
        ix[t] = kernel_view_index(nd, shape, st[t], 0);
    }
    Tensor *out = tensor_new(a->dtype, nd, shape);
    if (!out) {
        *err = "where's result is too large";
        return NULL;
    }
    double *c = tensor_scratch(cond->numel + 1, sizeof(double));
    tensor_read_f64(cond, c);
    size_t es = dtype_bytes(a->dtype);
    for (int64_t k = 0; k < out->numel; k++) {
        bool pick_a = c[ix[0][k]] != 0;
        const char *src = pick_a ? (const char *)a->data + (size_t)ix[1][k] * es
                                 : (const char *)b->data + (size_t)ix[2][k] * es;
        memcpy((char *)out->data + (size_t)k * es, src, es);
    }
    return out;
}

Tensor *kernel_astype(const Tensor *x, DataType dtype, const char **err)
{
    Tensor *out = tensor_new(dtype, x->ndim, x->shape);
    if (!out) {
        *err = "astype's target dtype is not supported";
        return NULL;
    }
    /* Floats convert through double (exact); integers through int64 so that wide values and
     * wrap-around stay exact. */
    if (dtype_is_float(x->dtype)) {
        double *buf = tensor_scratch(x->numel, sizeof(double));
        tensor_read_f64(x, buf);
        tensor_write_f64(out, buf);
    } else if (dtype_is_float(dtype)) {
        for (int64_t k = 0; k < x->numel; k++) {
            bool big_u = x->dtype.code == DT_UINT && x->dtype.bits == 64;
            double v = big_u ? (double)tensor_get_u64(x, k) : (double)tensor_get_i64(x, k);
            tensor_set_f64(out, k, v);
        }
    } else {
        int64_t *buf = tensor_scratch(x->numel, sizeof(int64_t));
        tensor_read_i64(x, buf);
        tensor_write_i64(out, buf);
    }
    return out;
}
