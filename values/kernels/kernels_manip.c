/* kernels_manip: data-movement and creation kernels: every result element is copied from one
 * source element through an index map. SPEC_NOTES: "Operators" (OP-* rules). */
#include "values/kernels/kernels_manip.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"

void kernel_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    /* Only an empty tensor's dims can multiply past int64, and its strides are never
     * followed: the overflow is ignored (the stride is then 0). */
    bool over = false;
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s = checked_mul(s, shape[i] > 0 ? shape[i] : 1, &over);
    }
}

int64_t *kernel_view_index(int ndim, const int64_t *shape, const int64_t *strides, int64_t base)
{
    bool over = false;
    int64_t numel = checked_product(shape, ndim, &over);
    if (over || numel < 0 || (uint64_t)numel > SIZE_MAX / sizeof(int64_t))
        return NULL;
    int64_t *idx = tensor_scratch(numel, sizeof(int64_t));
    if (numel == 0)
        return idx;
    int64_t pos[TENSOR_MAX_NDIM] = {0};
    int64_t off = base;
    for (int64_t k = 0; k < numel; k++) {
        idx[k] = off;
        /* Odometer step: bump the last axis, carrying into earlier ones. */
        for (int a = ndim - 1; a >= 0; a--) {
            off += strides[a];
            if (++pos[a] < shape[a])
                break;
            off -= strides[a] * shape[a];
            pos[a] = 0;
        }
    }
    return idx;
}

static Tensor *new_tensor(DataType dtype, int ndim, const int64_t *shape, const char **err)
{
    Tensor *t = tensor_new(dtype, ndim, shape);
    if (!t)
        *err = tensor_new_refusal(dtype, ndim, shape);
    return t;
}

Tensor *kernel_gather(const Tensor *src, int ndim, const int64_t *shape, const int64_t *idx,
                      const char **err)
{
    Tensor *out = new_tensor(src->dtype, ndim, shape, err);
    if (!out)
        return NULL;
    if (idx == NULL && out->numel > 0) {
        *err = "the result's element count overflows int64";
        return NULL;
    }
    size_t es = dtype_bytes(src->dtype);
    const char *s = src->data;
    char *d = out->data;
    for (int64_t k = 0; k < out->numel; k++)
        memcpy(d + (size_t)k * es, s + (size_t)idx[k] * es, es);
    return out;
}

void kernel_broadcast_strides(const Tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t own[TENSOR_MAX_NDIM];
    kernel_strides(t->ndim, t->shape, own);
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int j = i - lead;
        strides[i] = (j < 0 || (t->shape[j] == 1 && shape[i] != 1)) ? 0 : own[j];
    }
}

/* ---- creation ------------------------------------------------------------------------- */

Tensor *kernel_full(DataType dtype, int ndim, const int64_t *shape, bool is_float, double f,
                    int64_t i, const char **err)
{
    /* Every element is written: no zero fill first. */
    Tensor *t = tensor_new_uninit(dtype, ndim, shape);
    if (!t) {
        *err = tensor_new_refusal(dtype, ndim, shape);
        return NULL;
    }
    if (is_float)
        tensor_fill_f64(t, f);
    else
        tensor_fill_i64(t, i);
    return t;
}

bool kernel_arange_float_count(double start, double end, double step, int64_t *n)
{
    double len = step != 0 ? ceil((end - start) / step) : NAN;
    *n = len > 0 && len < 9.0e15 ? (int64_t)len : 0;
    return len < 9.0e15; /* false for NaN */
}

Tensor *kernel_arange(DataType dtype, bool is_float, double fstart, double fend, double fstep,
                      const char **err)
{
    (void)is_float;
    if (fstep == 0 || isnan(fstep) || isnan(fstart) || isnan(fend)) {
        *err = "arange needs a non-zero, non-NaN step and finite bounds";
        return NULL;
    }
    int64_t n;
    if (!kernel_arange_float_count(fstart, fend, fstep, &n)) {
        *err = "arange's length is too large";
        return NULL;
    }
    Tensor *t = new_tensor(dtype, 1, &n, err);
    if (!t)
        return NULL;
    for (int64_t k = 0; k < n; k++)
        tensor_set_f64(t, k, fstart + (double)k * fstep);
    return t;
}

bool kernel_arange_count(int64_t start, int64_t end, int64_t step, int64_t *n)
{
    /* ceil(|end - start| / |step|) in unsigned arithmetic, where the difference is exact. */
    *n = 0;
    if (step == 0 || (step > 0 ? end <= start : end >= start))
        return step != 0;
    uint64_t diff = step > 0 ? (uint64_t)end - (uint64_t)start : (uint64_t)start - (uint64_t)end;
    uint64_t st = step > 0 ? (uint64_t)step : (uint64_t)0 - (uint64_t)step;
    uint64_t count = diff / st + (diff % st != 0);
    if (count > (uint64_t)INT64_MAX)
        return false;
    *n = (int64_t)count;
    return true;
}

Tensor *kernel_arange_int(DataType dtype, int64_t start, int64_t end, int64_t step,
                          const char **err)
{
    if (step == 0) {
        *err = "arange's step is zero";
        return NULL;
    }
    int64_t n;
    if (!kernel_arange_count(start, end, step, &n)) {
        *err = "arange's length overflows int64";
        return NULL;
    }
    Tensor *t = new_tensor(dtype, 1, &n, err);
    if (!t)
        return NULL;
    for (int64_t k = 0; k < n; k++)
        tensor_set_i64(t, k, (int64_t)((uint64_t)start + (uint64_t)k * (uint64_t)step));
    return t;
}

Tensor *kernel_eye(DataType dtype, int64_t n, int64_t m, int64_t k, const char **err)
{
    int64_t shape[2] = {n, m};
    if (n < 0 || m < 0) {
        *err = "eye's dimensions must be non-negative";
        return NULL;
    }
    Tensor *t = new_tensor(dtype, 2, shape, err);
    if (!t)
        return NULL;
    /* An empty result has no diagonal to set, however many rows it counts; otherwise
     * i m + j is below its element count. */
    for (int64_t i = 0; t->numel > 0 && i < n; i++) {
        bool over = false;
        int64_t j = checked_add(i, k, &over);
        if (!over && j >= 0 && j < m)
            tensor_set_i64(t, i * m + j, 1);
    }
    return t;
}

Tensor *kernel_trilu(const Tensor *x, int64_t k, bool lower, const char **err)
{
    if (x->ndim < 2) {
        *err = "tril/triu need at least two dimensions";
        return NULL;
    }
    Tensor *t = tensor_copy(x);
    int64_t rows = x->shape[x->ndim - 2], cols = x->shape[x->ndim - 1];
    size_t es = dtype_bytes(x->dtype);
    char *d = t->data;
    for (int64_t e = 0; e < t->numel; e++) {
        int64_t j = e % cols, i = (e / cols) % rows;
        bool keep = lower ? j - i <= k : j - i >= k;
        if (!keep)
            memset(d + (size_t)e * es, 0, es);
    }
    return t;
}

/* ---- manipulation ---------------------------------------------------------------------- */

Tensor *kernel_reshape(const Tensor *x, int ndim, const int64_t *shape, const char **err)
{
    int64_t numel = tensor_shape_numel(x->dtype, ndim, shape);
    if (numel != x->numel) {
        *err = "reshape changes the number of elements";
        return NULL;
    }
    Tensor *t = new_tensor(x->dtype, ndim, shape, err);
    if (t)
        memcpy(t->data, x->data, tensor_nbytes(x));
    return t;
}

Tensor *kernel_permute(const Tensor *x, const int *axes, const char **err)
{
    int64_t own[TENSOR_MAX_NDIM], shape[TENSOR_MAX_NDIM], strides[TENSOR_MAX_NDIM];
    kernel_strides(x->ndim, x->shape, own);
    for (int i = 0; i < x->ndim; i++) {
        shape[i] = x->shape[axes[i]];
        strides[i] = own[axes[i]];
    }
    return kernel_gather(x, x->ndim, shape, kernel_view_index(x->ndim, shape, strides, 0), err);
}

Tensor *kernel_broadcast_to(const Tensor *x, int ndim, const int64_t *shape, const char **err)
{
    if (ndim < x->ndim) {
        *err = "broadcast_to cannot lower the rank";
        return NULL;
    }
    for (int i = 0; i < x->ndim; i++) {
        int64_t d = x->shape[i], o = shape[ndim - x->ndim + i];
        if (d != 1 && d != o) {
            *err = "broadcast_to: a dim is neither 1 nor the target dim";
            return NULL;
        }
    }
    int64_t strides[TENSOR_MAX_NDIM];
    kernel_broadcast_strides(x, ndim, shape, strides);
    return kernel_gather(x, ndim, shape, kernel_view_index(ndim, shape, strides, 0), err);
}

/* The product of dims [from, to). */
static int64_t dims_product(const int64_t *shape, int from, int to)
{
    /* An overflow means an empty tensor (a dim elsewhere is 0): no element to move. */
    bool over = false;
    int64_t p = checked_product(shape + from, to - from, &over);
    return over ? 0 : p;
}

Tensor *kernel_concat(Tensor *const *xs, int n, int axis, const char **err)
{
    const Tensor *x0 = xs[0];
    int64_t shape[TENSOR_MAX_NDIM];
    memcpy(shape, x0->shape, sizeof(int64_t) * (size_t)x0->ndim);
    shape[axis] = 0;
    bool over = false;
    for (int j = 0; j < n; j++) {
        bool same = xs[j]->ndim == x0->ndim && dtype_equal(xs[j]->dtype, x0->dtype);
        for (int i = 0; same && i < x0->ndim; i++)
            same = i == axis || xs[j]->shape[i] == x0->shape[i];
        if (!same) {
            *err = "concat's tensors differ in dtype, rank or a dim off the axis";
            return NULL;
        }
        shape[axis] = checked_add(shape[axis], xs[j]->shape[axis], &over);
    }
    if (over) { /* empty tensors whose axis dims are near 2^63 */
        *err = "concat's result dim overflows int64";
        return NULL;
    }
    Tensor *out = new_tensor(x0->dtype, x0->ndim, shape, err);
    if (!out)
        return NULL;
    if (out->numel == 0)
        return out; /* no chunk to copy, however many outer indices the dims count */
    size_t es = dtype_bytes(x0->dtype);
    int64_t outer = dims_product(shape, 0, axis);
    int64_t inner = dims_product(shape, axis + 1, x0->ndim);
    char *d = out->data;
    for (int64_t o = 0; o < outer; o++) {
        for (int j = 0; j < n; j++) {
            size_t chunk = (size_t)(xs[j]->shape[axis] * inner) * es;
            memcpy(d, (const char *)xs[j]->data + (size_t)o * chunk, chunk);
            d += chunk;
        }
    }
    return out;
}

Tensor **kernel_split(const Tensor *x, const int64_t *indices, int nidx, int axis, const char **err)
{
    Tensor **parts = MEM_ARRAY(Tensor *, nidx + 1);
    int64_t dim = x->shape[axis];
    int64_t prev = 0;
    int64_t shape[TENSOR_MAX_NDIM];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    int64_t inner = dims_product(x->shape, axis + 1, x->ndim);
    int64_t outer = dims_product(x->shape, 0, axis);
    size_t es = dtype_bytes(x->dtype);
    for (int p = 0; p <= nidx; p++) {
        /* OP-split: piece p is x[l:r] along the axis, l and r the neighbouring indices
         * clamped to [0, dim] each (TVM's inference), empty when r <= l; pieces may overlap
         * when the indices do not ascend. */
        prev = p == 0 ? 0 : indices[p - 1] < 0 ? 0 : indices[p - 1] > dim ? dim : indices[p - 1];
        int64_t stop = p < nidx ? indices[p] : dim;
        stop = stop < prev ? prev : stop > dim ? dim : stop;
        shape[axis] = stop - prev;
        parts[p] = new_tensor(x->dtype, x->ndim, shape, err);
        if (!parts[p])
            return NULL;
        size_t chunk = (size_t)(shape[axis] * inner) * es;
        for (int64_t o = 0; chunk > 0 && o < outer; o++)
            memcpy((char *)parts[p]->data + (size_t)o * chunk,
                   (const char *)x->data + ((size_t)(o * dim + prev) * (size_t)inner) * es, chunk);
    }
    return parts;
}

Tensor *kernel_tile(const Tensor *x, const int64_t *reps, int nreps, const char **err)
{
    int nd = x->ndim > nreps ? x->ndim : nreps;
    if (2 * nd > TENSOR_MAX_NDIM) {
        *err = "tile's rank is too large";
        return NULL;
    }
    /* View as (r0, d0, r1, d1, ...) with stride 0 on the repeat axes, then merge pairs. */
    int64_t own[TENSOR_MAX_NDIM], vshape[TENSOR_MAX_NDIM], vstr[TENSOR_MAX_NDIM];
    int64_t out[TENSOR_MAX_NDIM];
    bool over = false;
    kernel_strides(x->ndim, x->shape, own);
    for (int i = 0; i < nd; i++) {
        int xi = i - (nd - x->ndim), ri = i - (nd - nreps);
        int64_t d = xi >= 0 ? x->shape[xi] : 1, r = ri >= 0 ? reps[ri] : 1;
        if (r < 0) {
            *err = "tile's repeats must be non-negative";
            return NULL;
        }
        vshape[2 * i] = r;
        vstr[2 * i] = 0;
        vshape[2 * i + 1] = d;
        vstr[2 * i + 1] = xi >= 0 ? own[xi] : 0;
        out[i] = checked_mul(r, d, &over);
    }
    if (over) {
        *err = "tile's result dims overflow int64";
        return NULL;
    }
    int64_t *idx = kernel_view_index(2 * nd, vshape, vstr, 0);
    return kernel_gather(x, nd, out, idx, err);
}

Tensor *kernel_repeat(const Tensor *x, int64_t repeats, int axis, const char **err)
{
    if (repeats < 0) {
        *err = "repeat's count must be non-negative";
        return NULL;
    }
    int64_t own[TENSOR_MAX_NDIM], vshape[TENSOR_MAX_NDIM], vstr[TENSOR_MAX_NDIM];
    int64_t out[TENSOR_MAX_NDIM];
    int nd = axis < 0 ? 1 : x->ndim;
    if (axis < 0) {
        own[0] = 1;
        vshape[0] = x->numel;
        axis = 0;
    } else {
        kernel_strides(x->ndim, x->shape, own);
        memcpy(vshape, x->shape, sizeof(int64_t) * (size_t)nd);
    }
    if (nd + 1 > TENSOR_MAX_NDIM) {
        *err = "repeat's rank is too large";
        return NULL;
    }
    /* View with an extra stride-0 axis of length `repeats` right after `axis`. */
    int64_t shp[TENSOR_MAX_NDIM];
    bool over = false;
    for (int i = 0, j = 0; i < nd; i++) {
        shp[j] = vshape[i];
        vstr[j++] = own[i];
        out[i] = checked_mul(vshape[i], i == axis ? repeats : 1, &over);
        if (i == axis) {
            shp[j] = repeats;
            vstr[j++] = 0;
        }
    }
    if (over) {
        *err = "repeat's result dims overflow int64";
        return NULL;
    }
    return kernel_gather(x, nd, out, kernel_view_index(nd + 1, shp, vstr, 0), err);
}

Tensor *kernel_flip(const Tensor *x, int axis, const char **err)
{
    int64_t strides[TENSOR_MAX_NDIM];
    kernel_strides(x->ndim, x->shape, strides);
    int64_t base = x->shape[axis] > 0 ? (x->shape[axis] - 1) * strides[axis] : 0;
    strides[axis] = -strides[axis];
    return kernel_gather(x, x->ndim, x->shape, kernel_view_index(x->ndim, x->shape, strides, base),
                         err);
}
