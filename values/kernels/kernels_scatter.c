/* kernels_scatter: exact kernels of the indexing and scatter operators (gather, scatter,
 * index_put, slice_scatter, one_hot, nonzero, bucketize, meshgrid). SPEC_NOTES: "Operators"
 * (OP-gather_elements and the rows after it). */
#include "values/kernels/kernels_scatter.h"

#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* The indices as int64; an unsigned value above INT64_MAX becomes INT64_MAX (out of range).
 * NULL for float indices (an annotation without a dtype lets them reach the kernel). */
static int64_t *read_indices(const Tensor *t, const char **err)
{
    if (dtype_is_float(t->dtype)) {
        *err = "indices must be integers";
        return NULL;
    }
    int64_t *ix = tensor_scratch(t->numel + 1, sizeof(int64_t));
    tensor_read_i64(t, ix);
    if (dtype_is_uint(t->dtype) && t->dtype.bits == 64)
        for (int64_t k = 0; k < t->numel; k++)
            if (ix[k] < 0)
                ix[k] = INT64_MAX;
    return ix;
}

static void strides_of(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t s = 1;
    bool over = false; /* only an empty tensor's dims overflow: no element is visited */
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s = checked_mul(s, shape[i], &over);
    }
}

/* The coordinates of a row-major flat index. */
static void unravel(int64_t flat, int ndim, const int64_t *shape, int64_t *coord)
{
    for (int i = ndim - 1; i >= 0; i--) {
        coord[i] = shape[i] > 0 ? flat % shape[i] : 0;
        flat = shape[i] > 0 ? flat / shape[i] : 0;
    }
}

static Tensor *fresh(DataType dtype, int ndim, const int64_t *shape, const char **err)
{
    Tensor *t = tensor_new(dtype, ndim, shape);
    if (t == NULL)
        *err = "the result is too large";
    return t;
}

static void copy_elem(Tensor *dst, int64_t d, const Tensor *src, int64_t s)
{
    size_t es = dtype_bytes(dst->dtype);
    memcpy((char *)dst->data + (size_t)d * es, (const char *)src->data + (size_t)s * es, es);
}

bool kernel_scatter_reduce_of(const char *name, ScatterReduce *out)
{
    static const char *const NAMES[] = {"update", "add", "mul", "mean", "min", "max"};
    for (int i = 0; i < 6; i++)
        if (strcmp(name, NAMES[i]) == 0) {
            *out = (ScatterReduce)i;
            return true;
        }
    return false;
}

static double reduce_f64(ScatterReduce r, double old, double u)
{
    switch (r) {
    case SCATTER_UPDATE:
        return u;
    case SCATTER_ADD:
        return old + u;
    case SCATTER_MUL:
        return old * u;
    case SCATTER_MEAN:
        return old + u; /* halved after rounding the sum, as the dtype computes */
    case SCATTER_MIN:
        return old < u ? old : u;
    case SCATTER_MAX:
        return old > u ? old : u;
    }
    return u;
}

/* Integer reductions wrap in the dtype (the sum wraps before the mean's division). */
static int64_t reduce_i64(DataType t, ScatterReduce r, int64_t old, int64_t u)
{
    bool uns = dtype_is_uint(t);
    switch (r) {
    case SCATTER_UPDATE:
        return u;
    case SCATTER_ADD:
        return (int64_t)((uint64_t)old + (uint64_t)u);
    case SCATTER_MUL:
        return (int64_t)((uint64_t)old * (uint64_t)u);
    case SCATTER_MEAN: {
        int64_t s = tensor_wrap_i64(t, (int64_t)((uint64_t)old + (uint64_t)u));
        return uns ? (int64_t)((uint64_t)s / 2) : s / 2;
    }
    case SCATTER_MIN:
        return (uns ? (uint64_t)old < (uint64_t)u : old < u) ? old : u;
    case SCATTER_MAX:
        return (uns ? (uint64_t)old > (uint64_t)u : old > u) ? old : u;
    }
    return u;
}

/* out[at] = r(out[at], upd[k]) in out's dtype. */
static void combine(Tensor *out, int64_t at, const Tensor *upd, int64_t k, ScatterReduce r)
{
    if (r == SCATTER_UPDATE) {
        copy_elem(out, at, upd, k);
    } else if (dtype_is_float(out->dtype)) {
        double v = reduce_f64(r, tensor_get_f64(out, at), tensor_get_f64(upd, k));
        if (r == SCATTER_MEAN)
            v = tensor_round_f64(out->dtype, v) / 2.0;
        tensor_set_f64(out, at, v);
    } else {
        tensor_set_i64(out, at,
                       reduce_i64(out->dtype, r, tensor_get_i64(out, at), tensor_get_i64(upd, k)));
    }
}

/* ---- gathers ------------------------------------------------------------------------------ */

Tensor *kernel_gather_elements(const Tensor *data, const Tensor *indices, int axis,
                               const char **err)
{
    int nd = data->ndim;
    if (indices->ndim != nd || nd == 0) {
        *err = "data and indices must have the same rank, at least 1";
        return NULL;
    }
    Tensor *out = fresh(data->dtype, nd, indices->shape, err);
    if (out == NULL)
        return NULL;
    int64_t *ix = read_indices(indices, err), coord[TENSOR_MAX_NDIM], st[TENSOR_MAX_NDIM];
    if (ix == NULL)
        return NULL;
    strides_of(nd, data->shape, st);
    for (int64_t k = 0; k < out->numel; k++) {
        unravel(k, nd, indices->shape, coord);
        coord[axis] = ix[k];
        int64_t at = 0;
        for (int i = 0; i < nd; i++) {
            if (coord[i] < 0 || coord[i] >= data->shape[i]) {
                *err = "an index is out of range";
                return NULL;
            }
            at += coord[i] * st[i];
        }
        copy_elem(out, k, data, at);
    }
    return out;
}

Tensor *kernel_gather_nd(const Tensor *data, const Tensor *indices, int batch_dims,
                         const char **err)
{
    int nd = data->ndim, ni = indices->ndim;
    int64_t m = ni > 0 ? indices->shape[ni - 1] : 0;
    if (ni < 1 || batch_dims > ni - 1 || batch_dims + m > nd) {
        *err = "indices' last axis must be at most the rank of data minus batch_dims";
        return NULL;
    }
    int64_t shape[TENSOR_MAX_NDIM], st[TENSOR_MAX_NDIM], coord[TENSOR_MAX_NDIM];
    int ond = 0;
    for (int i = 0; i < ni - 1; i++)
        shape[ond++] = indices->shape[i];
    for (int i = batch_dims + (int)m; i < nd; i++)
        shape[ond++] = data->shape[i];
    Tensor *out = ond <= TENSOR_MAX_NDIM ? fresh(data->dtype, ond, shape, err) : NULL;
    if (out == NULL) {
        *err = ond > TENSOR_MAX_NDIM ? "the result rank is too large" : *err;
        return NULL;
    }
    int64_t *ix = read_indices(indices, err), oc[TENSOR_MAX_NDIM];
    if (ix == NULL)
        return NULL;
    strides_of(nd, data->shape, st);
    for (int64_t k = 0; k < out->numel; k++) {
        unravel(k, ond, shape, oc);
        int64_t row = 0; /* the flat index of indices[oc[0 .. ni-2], 0] */
        for (int i = 0; i < ni - 1; i++)
            row = row * indices->shape[i] + oc[i];
        row *= m;
        int c = 0;
        for (int i = 0; i < batch_dims; i++)
            coord[c++] = oc[i];
        for (int64_t j = 0; j < m; j++)
            coord[c++] = ix[row + j];
        for (int i = ni - 1; i < ond; i++)
            coord[c++] = oc[i];
        int64_t at = 0;
        for (int i = 0; i < nd; i++) {
            if (coord[i] < 0 || coord[i] >= data->shape[i]) {
                *err = "an index is out of range";
                return NULL;
            }
            at += coord[i] * st[i];
        }
        copy_elem(out, k, data, at);
    }
    return out;
}

/* numpy broadcasting of the index shapes into shape/ndim; false when incompatible. */
static bool broadcast_shapes(Tensor *const *ts, int n, int64_t *shape, int *ndim)
{
    int nd = 0;
    for (int i = 0; i < n; i++)
        nd = ts[i]->ndim > nd ? ts[i]->ndim : nd;
    for (int d = 0; d < nd; d++)
        shape[d] = 1;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < ts[i]->ndim; d++) {
            int64_t v = ts[i]->shape[d], *o = &shape[nd - ts[i]->ndim + d];
            if (v != 1 && *o != 1 && v != *o)
                return false;
            if (v != 1)
                *o = v;
        }
    *ndim = nd;
    return true;
}

/* The flat index into t (broadcast to the trailing dims of coord) of a broadcast position. */
static int64_t broadcast_at(const Tensor *t, int nd, const int64_t *coord)
{
    int64_t at = 0;
    for (int d = 0; d < t->ndim; d++) {
        int64_t c = coord[nd - t->ndim + d];
        at = at * t->shape[d] + (t->shape[d] == 1 ? 0 : c);
    }
    return at;
}

Tensor *kernel_index_tensor(const Tensor *data, Tensor *const *indices, int n, const char **err)
{
    int64_t shape[TENSOR_MAX_NDIM], bc[TENSOR_MAX_NDIM], st[TENSOR_MAX_NDIM];
    int bnd = 0;
    if (n < 1 || n > data->ndim) {
        *err = "expects between 1 and rank-of-data index tensors";
        return NULL;
    }
    if (!broadcast_shapes(indices, n, shape, &bnd)) {
        *err = "the index tensors do not broadcast together";
        return NULL;
    }
    int ond = bnd + data->ndim - n;
    if (ond > TENSOR_MAX_NDIM) {
        *err = "the result rank is too large";
        return NULL;
    }
    for (int i = n; i < data->ndim; i++)
        shape[bnd + i - n] = data->shape[i];
    Tensor *out = fresh(data->dtype, ond, shape, err);
    if (out == NULL)
        return NULL;
    int64_t **ix = MEM_ARRAY(int64_t *, n);
    for (int i = 0; i < n; i++)
        if ((ix[i] = read_indices(indices[i], err)) == NULL)
            return NULL;
    strides_of(data->ndim, data->shape, st);
    for (int64_t k = 0; k < out->numel; k++) {
        unravel(k, ond, shape, bc);
        int64_t at = 0;
        for (int i = 0; i < data->ndim; i++) {
            int64_t c = i < n ? ix[i][broadcast_at(indices[i], bnd, bc)] : bc[bnd + i - n];
            if (c < 0 || c >= data->shape[i]) {
                *err = "an index is out of range";
                return NULL;
            }
            at += c * st[i];
        }
        copy_elem(out, k, data, at);
    }
    return out;
}

/* ---- scatters ----------------------------------------------------------------------------- */

Tensor *kernel_scatter_elements(const Tensor *data, const Tensor *indices, const Tensor *updates,
                                int axis, ScatterReduce r, const char **err)
{
    int nd = data->ndim;
    if (indices->ndim != nd || !tensor_shape_equal(indices, updates)) {
        *err = "indices must have data's rank and updates' shape";
        return NULL;
    }
    for (int i = 0; i < nd; i++)
        if (i != axis && indices->shape[i] > data->shape[i]) {
            *err = "indices is larger than data on an axis other than the scatter axis";
            return NULL;
        }
    Tensor *out = tensor_copy(data);
    int64_t *ix = read_indices(indices, err), coord[TENSOR_MAX_NDIM], st[TENSOR_MAX_NDIM];
    if (ix == NULL)
        return NULL;
    strides_of(nd, data->shape, st);
    for (int64_t k = 0; k < indices->numel; k++) {
        unravel(k, nd, indices->shape, coord);
        int64_t i = ix[k] < 0 ? ix[k] + data->shape[axis] : ix[k];
        if (i < 0 || i >= data->shape[axis]) {
            *err = "an index is out of range";
            return NULL;
        }
        coord[axis] = i;
        int64_t at = 0;
        for (int d = 0; d < nd; d++)
            at += coord[d] * st[d];
        combine(out, at, updates, k, r);
    }
    return out;
}

Tensor *kernel_scatter_nd(const Tensor *data, const Tensor *indices, const Tensor *updates,
                          ScatterReduce r, const char **err)
{
    int nd = data->ndim, ni = indices->ndim;
    int64_t m = ni > 0 ? indices->shape[ni - 1] : -1;
    bool ok = m >= 0 && m <= nd && updates->ndim == ni - 1 + nd - (int)m;
    for (int i = 0; ok && i < updates->ndim; i++)
        ok = updates->shape[i] == (i < ni - 1 ? indices->shape[i] : data->shape[i - (ni - 1) + m]);
    if (!ok) {
        *err = "updates' shape must be indices.shape[:-1] + data.shape[M:]";
        return NULL;
    }
    Tensor *out = tensor_copy(data);
    int64_t *ix = read_indices(indices, err), st[TENSOR_MAX_NDIM];
    if (ix == NULL)
        return NULL;
    strides_of(nd, data->shape, st);
    int64_t rows = 1, slice = 1;
    for (int i = 0; i < ni - 1; i++)
        rows *= indices->shape[i];
    for (int i = (int)m; i < nd; i++)
        slice *= data->shape[i];
    for (int64_t y = 0; y < rows; y++) {
        int64_t base = 0;
        for (int64_t j = 0; j < m; j++) {
            int64_t c = ix[y * m + j];
            if (c < 0 || c >= data->shape[j]) {
                *err = "an index is out of range";
                return NULL;
            }
            base += c * st[j];
        }
        for (int64_t e = 0; e < slice; e++)
            combine(out, base + e, updates, y * slice + e, r);
    }
    return out;
}

Tensor *kernel_index_put(const Tensor *data, Tensor *const *indices, int n, const Tensor *values,
                         bool accumulate, const char **err)
{
    if (n != data->ndim) {
        *err = "needs one index tensor per axis of data";
        return NULL;
    }
    int64_t len = n > 0 ? indices[0]->numel : 1;
    for (int i = 0; i < n; i++)
        if (indices[i]->ndim != 1 || indices[i]->numel != len) {
            *err = "the index tensors must be 1-D of one length";
            return NULL;
        }
    if (values->numel != len) {
        *err = "values must have as many elements as each index tensor";
        return NULL;
    }
    Tensor *out = tensor_copy(data);
    int64_t **ix = MEM_ARRAY(int64_t *, n > 0 ? n : 1), st[TENSOR_MAX_NDIM];
    for (int i = 0; i < n; i++)
        if ((ix[i] = read_indices(indices[i], err)) == NULL)
            return NULL;
    strides_of(n, data->shape, st);
    for (int64_t k = 0; k < len; k++) {
        int64_t at = 0;
        for (int i = 0; i < n; i++) {
            int64_t c = ix[i][k] < 0 ? ix[i][k] + data->shape[i] : ix[i][k];
            if (c < 0 || c >= data->shape[i]) {
                *err = "an index is out of range";
                return NULL;
            }
            at += c * st[i];
        }
        combine(out, at, values, k, accumulate ? SCATTER_ADD : SCATTER_UPDATE);
    }
    return out;
}

Tensor *kernel_slice_scatter(const Tensor *data, const Tensor *src, int axis, const SliceRange *r,
                             const char **err)
{
    int64_t start = r->start, end = r->end, step = r->step;
    if (step < 1 || end < start) {
        *err = "needs step >= 1 and start <= end";
        return NULL;
    }
    /* ceil((end - start) / step) without overflow: end >= start here. */
    uint64_t span = (uint64_t)end - (uint64_t)start;
    int64_t count = (int64_t)(span / (uint64_t)step + (span % (uint64_t)step != 0));
    bool ok = src->ndim == data->ndim && src->shape[axis] == count;
    for (int i = 0; ok && i < data->ndim; i++)
        ok = i == axis || src->shape[i] == data->shape[i];
    if (!ok) {
        *err = "src must have data's shape except on axis, there ceil((end - start) / step)";
        return NULL;
    }
    Tensor *out = tensor_copy(data);
    int64_t coord[TENSOR_MAX_NDIM], sst[TENSOR_MAX_NDIM];
    strides_of(src->ndim, src->shape, sst);
    for (int64_t k = 0; k < out->numel; k++) {
        unravel(k, data->ndim, data->shape, coord);
        int64_t i = coord[axis];
        if (i < start || i >= end || (i - start) % step != 0)
            continue;
        coord[axis] = (i - start) / step;
        int64_t at = 0;
        for (int d = 0; d < src->ndim; d++)
            at += coord[d] * sst[d];
        copy_elem(out, k, src, at);
    }
    return out;
}

/* ---- index and coordinate tensors --------------------------------------------------------- */

Tensor *kernel_one_hot(const Tensor *indices, const OneHotValues *v, int64_t depth, int axis,
                       const char **err)
{
    int nd = indices->ndim + 1;
    if (depth < 1 || axis < 0 || axis >= nd || nd > TENSOR_MAX_NDIM) {
        *err = "needs depth >= 1 and an axis in range";
        return NULL;
    }
    int64_t shape[TENSOR_MAX_NDIM], coord[TENSOR_MAX_NDIM];
    for (int i = 0, j = 0; i < nd; i++)
        shape[i] = i == axis ? depth : indices->shape[j++];
    Tensor *out = fresh(v->dtype, nd, shape, err);
    if (out == NULL)
        return NULL;
    int64_t *ix = read_indices(indices, err);
    if (ix == NULL)
        return NULL;
    for (int64_t k = 0; k < out->numel; k++) {
        unravel(k, nd, shape, coord);
        int64_t at = 0;
        for (int i = 0; i < nd; i++)
            if (i != axis)
                at = at * shape[i] + coord[i];
        bool on = ix[at] == coord[axis];
        if (v->is_float)
            tensor_set_f64(out, k, on ? v->f_on : v->f_off);
        else
            tensor_set_i64(out, k, on ? v->i_on : v->i_off);
    }
    return out;
}

static bool nonzero_at(const Tensor *x, int64_t k)
{
    if (dtype_is_float(x->dtype))
        return tensor_get_f64(x, k) != 0.0; /* NaN is non-zero */
    return tensor_get_i64(x, k) != 0;
}

Tensor *kernel_nonzero(const Tensor *x, const char **err)
{
    int64_t count = 0, coord[TENSOR_MAX_NDIM];
    for (int64_t k = 0; k < x->numel; k++)
        count += nonzero_at(x, k);
    int rows = x->ndim > 0 ? x->ndim : 1;
    int64_t shape[2] = {rows, count};
    Tensor *out = fresh(dtype_int64(), 2, shape, err);
    if (out == NULL)
        return NULL;
    int64_t *o = out->data, c = 0;
    for (int64_t k = 0; k < x->numel; k++) {
        if (!nonzero_at(x, k))
            continue;
        unravel(k, x->ndim, x->shape, coord);
        for (int r = 0; r < rows; r++)
            o[r * count + c] = x->ndim > 0 ? coord[r] : 0;
        c++;
    }
    return out;
}

/* TVM's search: lo = 0, hi = n; while lo < hi: mid = lo + (hi - lo) / 2; below(b[mid], v) ?
 * lo = mid + 1 : hi = mid. below is b < v, or b <= v when right. */
static int64_t search(const Tensor *b, const Tensor *x, int64_t k, bool right)
{
    bool ints = !dtype_is_float(b->dtype) && !dtype_is_float(x->dtype);
    int64_t lo = 0, hi = b->numel;
    while (lo < hi) {
        int64_t mid = lo + ((hi - lo) >> 1);
        bool below;
        if (ints) {
            int64_t bv = tensor_get_i64(b, mid), xv = tensor_get_i64(x, k);
            below = right ? bv <= xv : bv < xv;
        } else {
            double bv = tensor_get_f64(b, mid), xv = tensor_get_f64(x, k);
            below = right ? bv <= xv : bv < xv;
        }
        if (below)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

Tensor *kernel_bucketize(const Tensor *x, const Tensor *boundaries, DataType out_dtype, bool right,
                         const char **err)
{
    if (boundaries->ndim != 1) {
        *err = "boundaries must be 1-D";
        return NULL;
    }
    Tensor *out = fresh(out_dtype, x->ndim, x->shape, err);
    if (out == NULL)
        return NULL;
    for (int64_t k = 0; k < x->numel; k++)
        tensor_set_i64(out, k, search(boundaries, x, k, right));
    return out;
}

Tensor **kernel_meshgrid(Tensor *const *xs, int n, bool xy, const char **err)
{
    int64_t shape[TENSOR_MAX_NDIM], coord[TENSOR_MAX_NDIM];
    if (n < 1 || n > TENSOR_MAX_NDIM) {
        *err = "needs between 1 and 64 tensors";
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (xs[i]->ndim != 1 || !dtype_equal(xs[i]->dtype, xs[0]->dtype)) {
            *err = "the tensors must be 1-D of one dtype";
            return NULL;
        }
        shape[i] = xs[i]->shape[0];
    }
    bool swap = xy && n >= 2;
    if (swap) {
        shape[0] = xs[1]->shape[0];
        shape[1] = xs[0]->shape[0];
    }
    Tensor **outs = MEM_ARRAY(Tensor *, n);
    for (int i = 0; i < n; i++) {
        int src_axis = swap && i < 2 ? 1 - i : i;
        outs[i] = fresh(xs[i]->dtype, n, shape, err);
        if (outs[i] == NULL)
            return NULL;
        for (int64_t k = 0; k < outs[i]->numel; k++) {
            unravel(k, n, shape, coord);
            copy_elem(outs[i], k, xs[i], coord[src_axis]);
        }
    }
    return outs;
}
