/* kernels_sort: a stable merge sort over lanes or slices of a tensor, and unique built on
 * it. Keys are read once as double, int64 or uint64. SPEC_NOTES: "Operators" (OP-sort, ...). */
#include "values/kernels/kernels_sort.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"

typedef enum KeyKind {
    KEY_F64,
    KEY_I64,
    KEY_U64,
} KeyKind;

typedef struct Keys {
    KeyKind kind;
    double *f;
    int64_t *i;
} Keys;

/* What a comparison of two items sees: keys, and how items map to elements. An item is a
 * position along the axis; it stands for the slice [o, item, in] over o < outer, in < inner
 * (outer is 1 for a lane sort, whose base offset selects the lane). */
typedef struct SortCtx {
    Keys keys;
    int64_t base, outer, len, inner;
    bool descending;
} SortCtx;

static Keys read_keys(const Tensor *x)
{
    Keys k = {KEY_I64, NULL, NULL};
    if (dtype_is_float(x->dtype)) {
        k.kind = KEY_F64;
        k.f = tensor_scratch(x->numel, sizeof(double));
        tensor_read_f64(x, k.f);
        return k;
    }
    if (dtype_is_uint(x->dtype) && x->dtype.bits == 64)
        k.kind = KEY_U64;
    k.i = tensor_scratch(x->numel, sizeof(int64_t));
    tensor_read_i64(x, k.i);
    return k;
}

/* numpy's order: NaN is greater than every number and equal to itself. */
static int compare_elem(const Keys *k, int64_t a, int64_t b)
{
    switch (k->kind) {
    case KEY_F64: {
        double x = k->f[a], y = k->f[b];
        if (isnan(x) || isnan(y))
            return isnan(x) - isnan(y);
        return (x > y) - (x < y);
    }
    case KEY_I64:
        return (k->i[a] > k->i[b]) - (k->i[a] < k->i[b]);
    case KEY_U64: {
        uint64_t x = (uint64_t)k->i[a], y = (uint64_t)k->i[b];
        return (x > y) - (x < y);
    }
    }
    return 0;
}

static int compare_items(const SortCtx *c, int64_t a, int64_t b)
{
    for (int64_t o = 0; o < c->outer; o++) {
        for (int64_t in = 0; in < c->inner; in++) {
            int64_t off = c->base + o * c->len * c->inner + in;
            int r = compare_elem(&c->keys, off + a * c->inner, off + b * c->inner);
            if (r != 0)
                return c->descending ? -r : r;
        }
    }
    return 0;
}

/* Bottom-up merge sort of items[0..n); taking from the left run on ties keeps it stable. */
static void merge_sort(const SortCtx *c, int64_t *items, int64_t n)
{
    int64_t *tmp = tensor_scratch(n, sizeof(int64_t));
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = compare_items(c, items[j], items[i]) < 0 ? items[j++] : items[i++];
            while (i < mid)
                tmp[k++] = items[i++];
            while (j < hi)
                tmp[k++] = items[j++];
        }
        memcpy(items, tmp, sizeof(int64_t) * (size_t)n);
    }
}

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
    *len = t->ndim ? t->shape[axis] : 1;
}

void kernels_sort_perm(const Tensor *x, int axis, bool descending, int64_t *perm)
{
    if (x->numel == 0)
        return; /* nor a lane buffer as long as an axis that may count 2^63 - 1 */
    int64_t outer, len, inner;
    split_at_axis(x, axis, &outer, &len, &inner);
    SortCtx c = {read_keys(x), 0, 1, len, inner, descending};
    int64_t *items = tensor_scratch(len, sizeof(int64_t));
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t in = 0; in < inner; in++) {
            c.base = o * len * inner + in;
            for (int64_t j = 0; j < len; j++)
                items[j] = j;
            merge_sort(&c, items, len);
            for (int64_t j = 0; j < len; j++)
                perm[c.base + j * inner] = items[j];
        }
    }
}

void kernels_sort_gather(const Tensor *x, int axis, const int64_t *perm, Tensor *out)
{
    int64_t outer, len, inner, out_len = out->ndim ? out->shape[axis] : 1;
    size_t esize = dtype_bytes(x->dtype);
    split_at_axis(x, axis, &outer, &len, &inner);
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t j = 0; j < out_len; j++) {
            for (int64_t in = 0; in < inner; in++) {
                int64_t src_lane = o * len * inner + in;
                int64_t src = src_lane + perm[src_lane + j * inner] * inner;
                int64_t dst = (o * out_len + j) * inner + in;
                memcpy((char *)out->data + (size_t)dst * esize,
                       (const char *)x->data + (size_t)src * esize, esize);
            }
        }
    }
}

void kernels_sort_indices(const Tensor *x, int axis, const int64_t *perm, Tensor *out)
{
    int64_t outer, len, inner, out_len = out->ndim ? out->shape[axis] : 1;
    int64_t *buf = tensor_scratch(out->numel, sizeof(int64_t));
    split_at_axis(x, axis, &outer, &len, &inner);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < out_len; j++)
            for (int64_t in = 0; in < inner; in++)
                buf[(o * out_len + j) * inner + in] = perm[o * len * inner + in + j * inner];
    tensor_write_i64(out, buf);
}

/* The groups of equal slices: for each, its first occurrence and count, in output order. */
typedef struct UniqueGroups {
    int64_t n;
    int64_t *first, *count;
    int64_t *of_item; /* output position of every item's group */
} UniqueGroups;

static UniqueGroups group_items(const SortCtx *c, bool sorted)
{
    UniqueGroups g = {0, NULL, NULL, NULL};
    /* The axis's length, not the element count: an empty tensor's axis may be near 2^63. */
    int64_t n = c->len, *perm = tensor_scratch(n, sizeof(int64_t));
    int64_t *gid = tensor_scratch(n, sizeof(int64_t));
    g.first = tensor_scratch(n, sizeof(int64_t));
    g.count = tensor_scratch(n, sizeof(int64_t));
    g.of_item = tensor_scratch(n, sizeof(int64_t));
    for (int64_t j = 0; j < c->len; j++)
        perm[j] = j;
    merge_sort(c, perm, c->len);
    for (int64_t j = 0; j < c->len; j++) {
        if (j == 0 || compare_items(c, perm[j - 1], perm[j]) != 0) {
            g.first[g.n] = perm[j];
            g.count[g.n++] = 0;
        }
        g.count[g.n - 1]++;
        gid[perm[j]] = g.n - 1;
    }
    for (int64_t j = 0; j < c->len; j++)
        g.of_item[j] = gid[j];
    if (sorted)
        return g;
    /* Unsorted: groups in order of first occurrence, i.e. sorted by their first index. */
    int64_t *order = tensor_scratch(n, sizeof(int64_t)), *rank = tensor_scratch(n, sizeof(int64_t));
    int64_t *first = tensor_scratch(n, sizeof(int64_t)),
            *count = tensor_scratch(n, sizeof(int64_t));
    Keys fk = {KEY_I64, NULL, g.first};
    SortCtx by_first = {fk, 0, 1, g.n, 1, false};
    for (int64_t k = 0; k < g.n; k++)
        order[k] = k;
    merge_sort(&by_first, order, g.n);
    for (int64_t k = 0; k < g.n; k++) {
        rank[order[k]] = k;
        first[k] = g.first[order[k]];
        count[k] = g.count[order[k]];
    }
    for (int64_t j = 0; j < c->len; j++)
        g.of_item[j] = rank[gid[j]];
    g.first = first;
    g.count = count;
    return g;
}

static Tensor *int64_tensor(const int64_t *v, int64_t n)
{
    Tensor *t = tensor_new(dtype_int64(), 1, &n);
    if (t)
        tensor_write_i64(t, v);
    return t;
}

UniqueResult kernels_unique(const Tensor *x, int axis, bool sorted)
{
    UniqueResult r = {NULL, NULL, NULL, NULL};
    int64_t outer = 1, len = x->numel, inner = 1;
    if (axis >= 0)
        split_at_axis(x, axis, &outer, &len, &inner);
    SortCtx c = {read_keys(x), 0, outer, len, inner, false};
    UniqueGroups g = group_items(&c, sorted);
    int64_t shape[TENSOR_MAX_NDIM];
    int ndim = axis >= 0 ? x->ndim : 1;
    for (int d = 0; d < ndim; d++)
        shape[d] = axis >= 0 ? x->shape[d] : g.n;
    if (axis >= 0)
        shape[axis] = g.n;
    r.values = tensor_new(x->dtype, ndim, shape);
    if (!r.values)
        return r;
    size_t esize = dtype_bytes(x->dtype);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 0; k < g.n; k++)
            memcpy((char *)r.values->data + (size_t)((o * g.n + k) * inner) * esize,
                   (const char *)x->data + (size_t)((o * len + g.first[k]) * inner) * esize,
                   esize * (size_t)inner);
    r.index = int64_tensor(g.first, g.n);
    r.inverse = int64_tensor(g.of_item, len);
    r.counts = int64_tensor(g.count, g.n);
    return r;
}
