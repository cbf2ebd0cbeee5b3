/* kernels_stat: reductions, scans and arg-extremes. Floats accumulate in double and integers
 * in wrapping 64-bit arithmetic; the result rounds once. SPEC_NOTES: "Operators" (OP-*). */
#include "values/kernels/kernels_manip.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "values/kernels/kernels_vector.h"

/* Integer dtypes compare as int64, except that uint64 flips its top bit so that the signed
 * order of the flipped bits is the unsigned order. */
static int64_t int_key(DataType t, int64_t v)
{
    return (t.code == DT_UINT && t.bits == 64) ? (int64_t)((uint64_t)v ^ ((uint64_t)1 << 63)) : v;
}

/* For every element of x (row-major), the flat index of the output element it reduces into;
 * NULL when everything reduces into one element. */
static int64_t *reduce_map(const Tensor *x, const bool *reduced, int64_t *out_numel)
{
    int64_t oshape[TENSOR_MAX_NDIM], ostr[TENSOR_MAX_NDIM], st[TENSOR_MAX_NDIM];
    for (int i = 0; i < x->ndim; i++)
        oshape[i] = reduced[i] ? 1 : x->shape[i];
    /* An empty x may keep dims near 2^63 (-1: past int64), and has no element to map (the
     * map is not NULL, which would map all into one output element). */
    *out_numel = checked_count(oshape, x->ndim);
    if (*out_numel == 1)
        return NULL;
    if (x->numel == 0)
        return tensor_scratch(1, sizeof(int64_t));
    kernel_strides(x->ndim, oshape, ostr);
    for (int i = 0; i < x->ndim; i++)
        st[i] = reduced[i] ? 0 : ostr[i];
    return kernel_view_index(x->ndim, x->shape, st, 0);
}

#define MAP(k) (map ? map[k] : 0)

static Tensor *reduce_result(const Tensor *x, const bool *reduced, bool keepdims, const char **err)
{
    int64_t shape[TENSOR_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < x->ndim; i++) {
        if (!reduced[i])
            shape[nd++] = x->shape[i];
        else if (keepdims)
            shape[nd++] = 1;
    }
    Tensor *t = tensor_new(x->dtype, nd, shape);
    if (!t)
        *err = "the reduction's dtype is not supported";
    return t;
}

static bool is_extreme(ReduceKind kind)
{
    return kind == REDUCE_MAX || kind == REDUCE_MIN;
}

/* OP-sum, OP-prod, OP-mean, OP-variance, OP-std: one step of a float reduction rounded to
 * the tensor's dtype, as TVM's lowering computes
 * it (topi's sum, prod and mean accumulate in the dtype, in index order); `dt` is NULL for an
 * integer tensor reduced through double (mean, std and variance of integers). */
static double step(const DataType *dt, double v)
{
    if (dt == NULL || dt->bits == 64)
        return v;
    if (dt->code == DT_FLOAT && dt->bits == 32)
        return (double)(float)v;
    return tensor_round_f64(*dt, v);
}

/* Sum, product, max or min, each step rounded to the dtype; NaN propagates through max/min
 * as in numpy. Mean, std and variance divide by the count (itself a value of the dtype). */
static void reduce_float(const double *v, int64_t n, const int64_t *map, ReduceKind kind,
                         const DataType *dt, double *acc, int64_t on, int64_t count)
{
    double init = kind == REDUCE_PROD ? 1.0 : 0.0;
    for (int64_t o = 0; o < on; o++)
        acc[o] = is_extreme(kind) ? NAN : init;
    bool *seen = tensor_scratch(on + 1, 1);
    memset(seen, 0, (size_t)on + 1);
    for (int64_t k = 0; k < n; k++) {
        double *a = &acc[MAP(k)];
        switch (kind) {
        case REDUCE_SUM:
        case REDUCE_MEAN:
        case REDUCE_STD:
        case REDUCE_VARIANCE:
            *a = step(dt, *a + v[k]);
            break;
        case REDUCE_PROD:
            *a = step(dt, *a * v[k]);
            break;
        case REDUCE_MAX:
        case REDUCE_MIN:
            if (!seen[MAP(k)] || isnan(v[k]))
                *a = v[k];
            else if (!isnan(*a) && (kind == REDUCE_MAX ? v[k] > *a : v[k] < *a))
                *a = v[k];
            seen[MAP(k)] = true;
            break;
        }
    }
    if (kind == REDUCE_MEAN || kind == REDUCE_STD || kind == REDUCE_VARIANCE)
        for (int64_t o = 0; o < on; o++)
            acc[o] = step(dt, acc[o] / step(dt, (double)count));
}

/* Second pass of std and variance: the mean of squared deviations (ddof 0), each deviation,
 * square and partial sum rounded to the dtype as TVM's legalization (x - mean, squared,
 * then mean) computes them; std is its square root. */
static void reduce_deviation(const double *v, int64_t n, const int64_t *map, const DataType *dt,
                             double *mean, int64_t on, int64_t count, bool root)
{
    double *sq = tensor_scratch(on + 1, sizeof(double));
    for (int64_t o = 0; o < on; o++)
        sq[o] = 0;
    for (int64_t k = 0; k < n; k++) {
        double d = step(dt, v[k] - mean[MAP(k)]);
        sq[MAP(k)] = step(dt, sq[MAP(k)] + step(dt, d * d));
    }
    for (int64_t o = 0; o < on; o++) {
        double var = step(dt, sq[o] / step(dt, (double)count));
        mean[o] = root ? sqrt(var) : var;
    }
}

static void reduce_int(const int64_t *v, int64_t n, const int64_t *map, ReduceKind kind,
                       DataType dt, int64_t *acc, int64_t on)
{
    for (int64_t o = 0; o < on; o++)
        acc[o] = kind == REDUCE_PROD ? 1 : 0;
    bool *seen = tensor_scratch(on + 1, 1);
    memset(seen, 0, (size_t)on + 1);
    for (int64_t k = 0; k < n; k++) {
        int64_t *a = &acc[MAP(k)];
        if (kind == REDUCE_PROD) {
            *a = (int64_t)((uint64_t)*a * (uint64_t)v[k]);
        } else if (is_extreme(kind)) {
            bool better = kind == REDUCE_MAX ? int_key(dt, v[k]) > int_key(dt, *a)
                                             : int_key(dt, v[k]) < int_key(dt, *a);
            if (!seen[MAP(k)] || better)
                *a = v[k];
            seen[MAP(k)] = true;
        } else {
            *a = (int64_t)((uint64_t)*a + (uint64_t)v[k]);
        }
    }
}

/* ---- the float32 sum in element order, a block at a time ----------------------------------
 *
 * OP-sum of float32 is a chain: acc = fl32(acc + x[k]), k = 0, 1, ... Within one binade of
 * acc, [2^e, 2^(e+1)), the float32 values are the multiples of u = 2^(e-23), and acc is one of
 * them, so while the exact acc + x stays inside that binade its rounding is acc plus x
 * rounded to a multiple of u: acc + u rne(x / u), the same whatever acc is, unless x / u is a
 * tie (an odd multiple of 1/2, where the evenness of the sum decides). A block of the chain
 * is then acc + u (q[0] + q[1] + ...), q[k] = rne(x[k] / u): integers, summed in any order,
 * a loop that compiles to vector instructions. The block is taken that way only when it
 * provably stays inside the binade (below) and has no tie; otherwise it runs as the chain. */

enum { SUM_BLOCK = 256 };

#define SUM_MAGIC 0x1.8p23f /* adding it rounds a float below 2^22 to an integer (rne) */

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* For x[0..n) and 1/u: the sum of the q[k] in *q and of the |q[k]| in *mag; false when some
 * x[k] / u is a tie, is not finite or is 2^22 or more. x[k] / u is exact in float32 (u is a
 * power of two) unless it overflows, which the bound catches, or underflows to below 2^-126,
 * where q[k] is 0 and no tie either way. */
KERNELS_VECTOR_CLONES static bool sum_block_units(const float *x, int64_t n, float inv_u,
                                                  int32_t *q, int32_t *mag)
{
    int32_t sq = 0, sm = 0, odd = 0;
    for (int64_t k = 0; k < n; k++) {
        float v = x[k] * inv_u;
        int32_t inside = fabsf(v) < 0x1p22f;
        /* rne(v) exactly, and 0 outside, so that neither the conversion nor the sums of at
         * most SUM_BLOCK terms below 2^22 can overflow */
        float r = inside ? (v + SUM_MAGIC) - SUM_MAGIC : 0.0f;
        int32_t qk = (int32_t)r;
        float frac = v - r; /* exact */
        odd |= !inside | (fabsf(frac) == 0.5f);
        sq += qk;
        sm += qk < 0 ? -qk : qk;
    }
    *q = sq;
    *mag = sm;
    return odd == 0;
}

/* OP-sum, float32: fl32(...fl32(fl32(0 + x[0]) + x[1]) ... + x[n-1]). A block is summed in
 * units of acc's ulp when acc is a normal float32 whose binade the whole block stays inside.
 * In units, acc is an integer M in [2^23, 2^24) (its magnitude); with S the block's sum of
 * |q|, every partial sum lies within S of M, and every exact acc + x on the way within half a
 * unit of two consecutive partial sums (no tie: strictly within). So M - S > 2^23 keeps each
 * exact sum above 2^23 + 1/2, inside the binade; M + S <= 2^24 keeps it below 2^24 + 1/2, where
 * a sum at or past 2^24 - 1/2 rounds to 2^24 in either binade, and a partial sum of 2^24 can
 * only be followed by terms of q = 0, which leave it there in either binade too. */
static float sum_f32_in_order(const float *x, int64_t n)
{
    float acc = 0.0f;
    for (int64_t at = 0; at < n; at += SUM_BLOCK) {
        int64_t len = n - at < SUM_BLOCK ? n - at : SUM_BLOCK;
        uint32_t a = f32_bits(acc);
        /* acc a normal float32 (biased exponent up to 254) whose 1/u = 2^(150 - biased) is
         * one too (biased 23 and up) */
        uint32_t biased = (a >> 23) & 0xff;
        if (biased >= 23 && biased <= 254) {
            int32_t m = (int32_t)((a & 0x7fffff) | 0x800000), q, mag;
            float inv_u = ldexpf(1.0f, 150 - (int)biased);
            if (sum_block_units(x + at, len, inv_u, &q, &mag) && m - mag > (1 << 23) &&
                m + mag <= (1 << 24)) {
                int32_t units = (a >> 31 ? -m : m) + q;
                acc = (float)ldexp((double)units, (int)biased - 150); /* exact */
                continue;
            }
        }
        for (int64_t k = at; k < at + len; k++)
            acc += x[k];
    }
    return acc;
}

/* The sum or product of every element in element order, as reduce_float computes it, with
 * the elements streamed through a small buffer and the running value kept in a register. */
static double reduce_all_streamed(const Tensor *x, ReduceKind kind, const DataType *dt)
{
    enum { CHUNK = 512 };
    if (kind != REDUCE_PROD && dt != NULL && dt->code == DT_FLOAT && dt->bits == 32) {
        /* float32 adds in float32: each sum is correctly rounded, as the double sum rounded
         * once to float32 is (double rounding is innocuous for addition), so the running
         * value is the same, without two conversions per element. */
        return sum_f32_in_order(x->data, x->numel);
    }
    double buf[CHUNK];
    double acc = kind == REDUCE_PROD ? 1.0 : 0.0;
    for (int64_t at = 0; at < x->numel; at += CHUNK) {
        int64_t n = x->numel - at < CHUNK ? x->numel - at : CHUNK;
        tensor_read_f64_range(x, at, n, buf);
        if (kind == REDUCE_PROD)
            for (int64_t k = 0; k < n; k++)
                acc = step(dt, acc * buf[k]);
        else
            for (int64_t k = 0; k < n; k++)
                acc = step(dt, acc + buf[k]);
    }
    return acc;
}

/* OP-mean of an integer tensor: exact, then truncated toward zero. Each output keeps its sum
 * as a quotient and a remainder by the count, so no element loses bits in double and the sum
 * never wraps; uint64 elements are read as their unsigned values. */
static void mean_int(const int64_t *v, int64_t n, const int64_t *map, DataType dt, int64_t *acc,
                     int64_t on, int64_t count)
{
    bool u64 = dt.code == DT_UINT && dt.bits == 64;
    int64_t *rem = tensor_scratch(on + 1, sizeof(int64_t));
    for (int64_t o = 0; o < on; o++)
        acc[o] = rem[o] = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t *q = &acc[MAP(k)], *r = &rem[MAP(k)];
        if (u64) {
            uint64_t e = (uint64_t)v[k], c = (uint64_t)count, rr = (uint64_t)*r + e % c;
            *q = (int64_t)((uint64_t)*q + e / c + (rr >= c));
            *r = (int64_t)(rr >= c ? rr - c : rr);
            continue;
        }
        *q += v[k] / count;
        *r += v[k] % count;
        if (*r >= count || *r <= -count) {
            *q += *r > 0 ? 1 : -1;
            *r -= *r > 0 ? count : -count;
        }
    }
    for (int64_t o = 0; !u64 && o < on; o++)
        if ((acc[o] > 0 && rem[o] < 0) || (acc[o] < 0 && rem[o] > 0))
            acc[o] += acc[o] > 0 ? -1 : 1;
}

Tensor *kernel_reduce(const Tensor *x, ReduceKind kind, const bool *reduced, bool keepdims,
                      const char **err)
{
    int64_t on;
    int64_t *map = reduce_map(x, reduced, &on);
    int64_t count = on > 0 ? x->numel / on : 0;
    if (is_extreme(kind) && count == 0 && on != 0) {
        *err = "max/min of an empty axis has no identity";
        return NULL;
    }
    Tensor *out = reduce_result(x, reduced, keepdims, err);
    if (!out)
        return NULL;
    bool as_int = !dtype_is_float(x->dtype) &&
                  (kind == REDUCE_SUM || kind == REDUCE_PROD || is_extreme(kind));
    if (as_int) {
        int64_t *v = tensor_scratch(x->numel, sizeof(int64_t)),
                *acc = tensor_scratch(on, sizeof(int64_t));
        tensor_read_i64(x, v);
        reduce_int(v, x->numel, map, kind, x->dtype, acc, on);
        tensor_write_i64(out, acc);
        return out;
    }
    if (kind == REDUCE_MEAN && !dtype_is_float(x->dtype) && !dtype_is_bool(x->dtype) && count > 0) {
        int64_t *v = tensor_scratch(x->numel, sizeof(int64_t)),
                *acc = tensor_scratch(on, sizeof(int64_t));
        tensor_read_i64(x, v);
        mean_int(v, x->numel, map, x->dtype, acc, on, count);
        tensor_write_i64(out, acc);
        return out;
    }
    const DataType *dt = dtype_is_float(x->dtype) ? &x->dtype : NULL;
    if (map == NULL && (kind == REDUCE_SUM || kind == REDUCE_MEAN || kind == REDUCE_PROD)) {
        double all = reduce_all_streamed(x, kind, dt);
        if (kind == REDUCE_MEAN)
            all = step(dt, all / step(dt, (double)count));
        tensor_write_f64(out, &all);
        return out;
    }
    double *v = tensor_scratch(x->numel, sizeof(double)), *acc = tensor_scratch(on, sizeof(double));
    if (x->dtype.code == DT_UINT && x->dtype.bits == 64)
        for (int64_t k = 0; k < x->numel; k++)
            v[k] = (double)tensor_get_u64(x, k);
    else
        tensor_read_f64(x, v);
    reduce_float(v, x->numel, map, kind, dt, acc, on, count);
    if (kind == REDUCE_STD || kind == REDUCE_VARIANCE)
        reduce_deviation(v, x->numel, map, dt, acc, on, count, kind == REDUCE_STD);
    tensor_write_f64(out, acc);
    return out;
}

Tensor *kernel_scan(const Tensor *x, int axis, bool product, bool exclusive, DataType dtype,
                    const char **err)
{
    int64_t flat = x->numel;
    int nd = axis < 0 ? 1 : x->ndim;
    const int64_t *shape = axis < 0 ? &flat : x->shape;
    if (axis < 0)
        axis = 0;
    Tensor *out = tensor_new(dtype, nd, shape);
    if (!out) {
        *err = "the scan's dtype is not supported";
        return NULL;
    }
    int64_t len = shape[axis], inner = 1;
    bool over = false; /* only an empty tensor's dims overflow: no element is visited */
    for (int i = axis + 1; i < nd; i++)
        inner = checked_mul(inner, shape[i], &over);
    bool as_float = dtype_is_float(dtype) || dtype_is_float(x->dtype);
    /* Each (outer, inner) line runs along the axis; elements of a line are `inner` apart. */
    for (int64_t base = 0; base < x->numel; base++) {
        if ((base / inner) % (len > 0 ? len : 1) != 0)
            continue;
        double facc = product ? 1.0 : 0.0;
        int64_t iacc = product ? 1 : 0;
        for (int64_t j = 0; j < len; j++) {
            int64_t e = base + j * inner;
            if (exclusive) {
                if (as_float)
                    tensor_set_f64(out, e, facc);
                else
                    tensor_set_i64(out, e, iacc);
            }
            if (as_float) {
                double v = tensor_get_f64(x, e);
                facc = product ? facc * v : facc + v;
            } else {
                int64_t v = tensor_wrap_i64(dtype, tensor_get_i64(x, e));
                iacc = (int64_t)(product ? (uint64_t)iacc * (uint64_t)v
                                         : (uint64_t)iacc + (uint64_t)v);
            }
            if (!exclusive) {
                if (as_float)
                    tensor_set_f64(out, e, facc);
                else
                    tensor_set_i64(out, e, iacc);
            }
        }
    }
    return out;
}

Tensor *kernel_arg_extreme(const Tensor *x, int axis, bool keepdims, bool is_max, const char **err)
{
    bool reduced[TENSOR_MAX_NDIM];
    for (int i = 0; i < x->ndim; i++)
        reduced[i] = axis < 0 || i == axis;
    int64_t on;
    int64_t *map = reduce_map(x, reduced, &on);
    if (on != 0 && x->numel == 0) {
        *err = "argmax/argmin of an empty axis";
        return NULL;
    }
    int64_t oshape[TENSOR_MAX_NDIM], own[TENSOR_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < x->ndim; i++)
        if (!reduced[i] || keepdims)
            oshape[nd++] = reduced[i] ? 1 : x->shape[i];
    Tensor *out = tensor_new(dtype_int64(), nd, oshape);
    kernel_strides(x->ndim, x->shape, own);
    bool as_float = dtype_is_float(x->dtype);
    double *best = tensor_scratch(on + 1, sizeof(double));
    int64_t *ibest = tensor_scratch(on + 1, sizeof(int64_t));
    int64_t *pos = tensor_scratch(on + 1, sizeof(int64_t));
    int64_t *count = tensor_scratch(on + 1, sizeof(int64_t));
    memset(count, 0, sizeof(int64_t) * (size_t)(on + 1));
    for (int64_t k = 0; k < x->numel; k++) {
        int64_t o = MAP(k);
        /* The position along the reduced axis (or the flat index) of element k. */
        int64_t here = axis < 0 ? k : (k / own[axis]) % x->shape[axis];
        bool take;
        if (as_float) {
            double v = tensor_get_f64(x, k);
            take = count[o] == 0 ||
                   (!isnan(best[o]) && (isnan(v) || (is_max ? v > best[o] : v < best[o])));
            if (take)
                best[o] = v;
        } else {
            int64_t v = int_key(x->dtype, tensor_get_i64(x, k));
            take = count[o] == 0 || (is_max ? v > ibest[o] : v < ibest[o]);
            if (take)
                ibest[o] = v;
        }
        if (take)
            pos[o] = here;
        count[o]++;
    }
    tensor_write_i64(out, pos);
    return out;
}
