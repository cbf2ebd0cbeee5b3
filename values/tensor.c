/* tensor: allocation, exact element conversions and bulk access for dense tensors.
 * SPEC_NOTES: "Values" (tensors; float16 and bfloat16; integer wrap-around). */
#include "values/tensor.h"

#include <inttypes.h>
#include <math.h>
#include <stdnoreturn.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/scalar.h"
#include "values/kernels/kernels_vector.h"

/* The storage formats; every supported dtype maps to exactly one. */
typedef enum ElemKind {
    EK_BOOL,
    EK_I8,
    EK_I16,
    EK_I32,
    EK_I64,
    EK_U8,
    EK_U16,
    EK_U32,
    EK_U64,
    EK_F16,
    EK_BF16,
    EK_F32,
    EK_F64,
    EK_NONE,
} ElemKind;

/* Read on every element a kernel-less path loads or stores: one switch over code and bits
 * (uint1 is bool), not a chain of tests. */
static ElemKind elem_kind(DataType t)
{
    if (t.lanes != 1)
        return EK_NONE;
#define EK_CASE(code, bits) (((unsigned)(code) << 8) | (unsigned)(bits))
    switch (EK_CASE(t.code, t.bits)) {
    case EK_CASE(DT_UINT, 1):
        return EK_BOOL;
    case EK_CASE(DT_INT, 8):
        return EK_I8;
    case EK_CASE(DT_INT, 16):
        return EK_I16;
    case EK_CASE(DT_INT, 32):
        return EK_I32;
    case EK_CASE(DT_INT, 64):
        return EK_I64;
    case EK_CASE(DT_UINT, 8):
        return EK_U8;
    case EK_CASE(DT_UINT, 16):
        return EK_U16;
    case EK_CASE(DT_UINT, 32):
        return EK_U32;
    case EK_CASE(DT_UINT, 64):
        return EK_U64;
    case EK_CASE(DT_FLOAT, 16):
        return EK_F16;
    case EK_CASE(DT_FLOAT, 32):
        return EK_F32;
    case EK_CASE(DT_FLOAT, 64):
        return EK_F64;
    case EK_CASE(DT_BFLOAT, 16):
        return EK_BF16;
    default:
        return EK_NONE;
    }
#undef EK_CASE
}

bool tensor_dtype_supported(DataType dtype)
{
    return elem_kind(dtype) != EK_NONE;
}

static int64_t max_bytes = TENSOR_DEFAULT_MAX_BYTES;

int64_t tensor_max_bytes(void)
{
    return max_bytes;
}

void tensor_set_max_bytes(int64_t bytes)
{
    max_bytes = bytes > 0 ? bytes : 1;
}

static TensorBudget budget; /* no bound until the evaluator sets one */

TensorBudget tensor_set_budget(TensorBudget next)
{
    TensorBudget was = budget;
    budget = next;
    return was;
}

/* The bytes of `count` elements of `size`, or -1 past tensor_max_bytes() (or overflowing). */
static int64_t scratch_bytes(int64_t count, size_t size)
{
    bool over = count < 0 || size > (size_t)INT64_MAX;
    int64_t bytes = checked_mul(count, (int64_t)size, &over);
    return over || bytes > tensor_max_bytes() ? -1 : bytes;
}

static noreturn void scratch_refused(int64_t count, size_t size)
{
    mem_fail(mem_printf("an operator needs working memory of %" PRId64 " elements of %zu bytes, "
                        "past the limit of %" PRId64 " bytes (--max-tensor-bytes)",
                        count, size, tensor_max_bytes()));
}

void *tensor_scratch(int64_t count, size_t size)
{
    int64_t bytes = scratch_bytes(count, size);
    if (bytes < 0)
        scratch_refused(count, size);
    return mem_alloc_atomic(bytes > 0 ? (size_t)bytes : 1);
}

void *tensor_scratch_ptrs(int64_t count, size_t size)
{
    int64_t bytes = scratch_bytes(count, size);
    if (bytes < 0)
        scratch_refused(count, size);
    return mem_alloc(bytes > 0 ? (size_t)bytes : 1);
}

int64_t tensor_shape_numel(DataType dtype, int ndim, const int64_t *shape)
{
    int64_t bytes = (int64_t)dtype_bytes(dtype);
    int64_t limit = tensor_max_bytes() / (bytes > 0 ? bytes : 1);
    int64_t n = 1;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return -1;
        if (shape[i] == 0)
            empty = true;
    }
    if (empty)
        return 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] > limit / n)
            return -1;
        n *= shape[i];
    }
    return n;
}

/* The data size up to which a tensor's header, shape and data share one allocation. */
#define TENSOR_INLINE_BYTES 64

Tensor *tensor_new(DataType dtype, int ndim, const int64_t *shape)
{
    Tensor *t = tensor_new_uninit(dtype, ndim, shape);
    /* A small tensor's block comes zeroed (mem_alloc). */
    if (t != NULL && tensor_nbytes(t) > TENSOR_INLINE_BYTES)
        memset(t->data, 0, tensor_nbytes(t));
    return t;
}

Tensor *tensor_new_uninit(DataType dtype, int ndim, const int64_t *shape)
{
    if (!tensor_dtype_supported(dtype) || ndim < 0 || ndim > TENSOR_MAX_NDIM)
        return NULL;
    int64_t numel = tensor_shape_numel(dtype, ndim, shape);
    if (numel < 0)
        return NULL;
    if (budget.refuse != NULL && numel > budget.elements)
        budget.refuse(budget.ctx, numel);
    size_t nbytes = (size_t)numel * dtype_bytes(dtype);
    size_t shape_bytes = sizeof(int64_t) * (size_t)(ndim > 0 ? ndim : 1);
    Tensor *t;
    if (nbytes <= TENSOR_INLINE_BYTES) {
        /* A small tensor (a scalar, a short vector: most of what control flow computes) is
         * one block: the header, then its shape, then its data, each 8-byte aligned. */
        t = mem_alloc(sizeof(Tensor) + shape_bytes + (nbytes ? nbytes : 1));
        t->shape = (int64_t *)(t + 1);
        t->data = (char *)t->shape + shape_bytes;
    } else {
        t = MEM_NEW(Tensor);
        t->shape = mem_alloc_atomic(shape_bytes);
        t->data = mem_alloc_atomic(nbytes);
    }
    t->dtype = dtype;
    t->ndim = ndim;
    if (ndim > 0)
        memcpy(t->shape, shape, sizeof(int64_t) * (size_t)ndim);
    t->numel = numel;
    return t;
}

const char *tensor_new_refusal(DataType dtype, int ndim, const int64_t *shape)
{
    if (!tensor_dtype_supported(dtype))
        return mem_printf("a tensor cannot hold dtype %s", dtype_str(dtype));
    if (ndim < 0 || ndim > TENSOR_MAX_NDIM)
        return mem_printf("a tensor has at most %d dims, not %d", TENSOR_MAX_NDIM, ndim);
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return mem_printf("dim %d is negative (%" PRId64 ")", i, shape[i]);
    return mem_printf("a %s tensor of this shape needs more than the limit of %" PRId64
                      " bytes (--max-tensor-bytes)",
                      dtype_str(dtype), tensor_max_bytes());
}

Tensor *tensor_view(void *base, int64_t byte_offset, DataType dtype, int ndim, const int64_t *shape)
{
    if (!tensor_dtype_supported(dtype) || ndim < 0 || ndim > TENSOR_MAX_NDIM)
        return NULL;
    int64_t numel = tensor_shape_numel(dtype, ndim, shape);
    if (numel < 0)
        return NULL;
    Tensor *t = MEM_NEW(Tensor);
    t->dtype = dtype;
    t->ndim = ndim;
    t->shape = mem_alloc_atomic(sizeof(int64_t) * (size_t)(ndim > 0 ? ndim : 1));
    if (ndim > 0)
        memcpy(t->shape, shape, sizeof(int64_t) * (size_t)ndim);
    t->numel = numel;
    t->data = (char *)base + byte_offset;
    t->byte_offset = byte_offset;
    return t;
}

Tensor *tensor_copy(const Tensor *t)
{
    Tensor *c = tensor_new_uninit(t->dtype, t->ndim, t->shape);
    memcpy(c->data, t->data, tensor_nbytes(t));
    return c;
}

Tensor *tensor_from_const(const ConstData *c)
{
    Tensor *t = tensor_new_uninit(c->dtype, c->ndim, c->shape);
    if (t == NULL || t->numel != c->numel)
        return NULL;
    memcpy(t->data, c->data, tensor_nbytes(t));
    if (dtype_is_bool(t->dtype)) { /* keep the 0/1 invariant whatever the constant holds */
        uint8_t *b = t->data;
        for (int64_t i = 0; i < t->numel; i++)
            b[i] = b[i] != 0;
    }
    return t;
}

int64_t tensor_numel(const Tensor *t)
{
    return t->numel;
}

size_t tensor_nbytes(const Tensor *t)
{
    return (size_t)t->numel * dtype_bytes(t->dtype);
}

bool tensor_has_shape(const Tensor *t, int ndim, const int64_t *shape)
{
    if (t->ndim != ndim)
        return false;
    for (int i = 0; i < ndim; i++)
        if (t->shape[i] != shape[i])
            return false;
    return true;
}

bool tensor_shape_equal(const Tensor *a, const Tensor *b)
{
    return tensor_has_shape(a, b->ndim, b->shape);
}

/* ---- scalar conversions ---- */

/* A double as an integer modulo 2^64: truncated toward zero; NaN and infinities give 0. */
static uint64_t f64_to_bits(double v)
{
    if (!isfinite(v))
        return 0;
    double m = fmod(trunc(v), 18446744073709551616.0); /* exact; |m| < 2^64 */
    if (m >= 0)
        return (uint64_t)m;
    return 0u - (uint64_t)(-m);
}

/* An integer beyond 2^53 rounded to `bits` significant bits, ties to even, as a double. */
static double round_big_int(int64_t v, int bits)
{
    uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    int len = 64;
    while (len > 0 && !(u >> (len - 1) & 1u))
        len--;
    int s = len - bits;
    uint64_t keep = u >> s;
    uint64_t rem = u & ((UINT64_C(1) << s) - 1u);
    uint64_t half = UINT64_C(1) << (s - 1);
    if (rem > half || (rem == half && (keep & 1u)))
        keep++;
    double r = ldexp((double)keep, s);
    return v < 0 ? -r : r;
}

static double int_to_small_float_exact(int64_t v, int bits)
{
    const int64_t exact = (int64_t)1 << 53;
    if (v > -exact && v < exact)
        return (double)v;
    return round_big_int(v, bits);
}

/* Integer result of reading a float element: truncated, saturated, NaN as 0. */
static int64_t f64_to_i64_sat(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    if (v < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

static int64_t bits_to_i64(uint64_t u)
{
    int64_t r;
    memcpy(&r, &u, sizeof r);
    return r;
}

#define LOAD(T, p, i) (((const T *)(p))[i])
#define STORE(T, p, i, x) (((T *)(p))[i] = (T)(x))

static double load_f64(ElemKind k, const void *p, int64_t i)
{
    switch (k) {
    case EK_BOOL:
        return LOAD(uint8_t, p, i);
    case EK_I8:
        return LOAD(int8_t, p, i);
    case EK_I16:
        return LOAD(int16_t, p, i);
    case EK_I32:
        return LOAD(int32_t, p, i);
    case EK_I64:
        return (double)LOAD(int64_t, p, i);
    case EK_U8:
        return LOAD(uint8_t, p, i);
    case EK_U16:
        return LOAD(uint16_t, p, i);
    case EK_U32:
        return LOAD(uint32_t, p, i);
    case EK_U64:
        return (double)LOAD(uint64_t, p, i);
    case EK_F16:
        return scalar_half_to_float(LOAD(uint16_t, p, i));
    case EK_BF16:
        return scalar_bfloat_to_float(LOAD(uint16_t, p, i));
    case EK_F32:
        return LOAD(float, p, i);
    case EK_F64:
        return LOAD(double, p, i);
    case EK_NONE:
        return 0.0;
    }
    return 0.0;
}

static uint64_t load_bits(ElemKind k, const void *p, int64_t i)
{
    switch (k) {
    case EK_BOOL:
        return LOAD(uint8_t, p, i);
    case EK_I8:
        return (uint64_t)(int64_t)LOAD(int8_t, p, i);
    case EK_I16:
        return (uint64_t)(int64_t)LOAD(int16_t, p, i);
    case EK_I32:
        return (uint64_t)(int64_t)LOAD(int32_t, p, i);
    case EK_I64:
        return (uint64_t)LOAD(int64_t, p, i);
    case EK_U8:
        return LOAD(uint8_t, p, i);
    case EK_U16:
        return LOAD(uint16_t, p, i);
    case EK_U32:
        return LOAD(uint32_t, p, i);
    case EK_U64:
        return LOAD(uint64_t, p, i);
    case EK_F16:
    case EK_BF16:
    case EK_F32:
    case EK_F64:
    case EK_NONE:
        return (uint64_t)f64_to_i64_sat(load_f64(k, p, i));
    }
    return 0;
}

/* Stores the low bits of an integer: the wrap modulo 2^bits is done on unsigned types, so
 * no conversion here is implementation-defined. */
static void store_bits(ElemKind k, void *p, int64_t i, uint64_t u)
{
    switch (k) {
    case EK_BOOL:
        STORE(uint8_t, p, i, u != 0);
        return;
    case EK_I8:
    case EK_U8:
        STORE(uint8_t, p, i, u & 0xffu);
        return;
    case EK_I16:
    case EK_U16:
        STORE(uint16_t, p, i, u & 0xffffu);
        return;
    case EK_I32:
    case EK_U32:
        STORE(uint32_t, p, i, u & 0xffffffffu);
        return;
    case EK_I64:
    case EK_U64:
        STORE(uint64_t, p, i, u);
        return;
    case EK_F16:
    case EK_BF16:
    case EK_F32:
    case EK_F64:
    case EK_NONE:
        return;
    }
}

static void store_f64(ElemKind k, void *p, int64_t i, double v)
{
    switch (k) {
    case EK_BOOL:
        STORE(uint8_t, p, i, v != 0.0 || isnan(v));
        return;
    case EK_F16:
        STORE(uint16_t, p, i, scalar_double_to_half(v));
        return;
    case EK_BF16:
        STORE(uint16_t, p, i, scalar_double_to_bfloat(v));
        return;
    case EK_F32:
        STORE(float, p, i, v);
        return;
    case EK_F64:
        STORE(double, p, i, v);
        return;
    case EK_I8:
    case EK_I16:
    case EK_I32:
    case EK_I64:
    case EK_U8:
    case EK_U16:
    case EK_U32:
    case EK_U64:
    case EK_NONE:
        store_bits(k, p, i, f64_to_bits(v));
        return;
    }
}

static void store_i64(ElemKind k, void *p, int64_t i, int64_t v)
{
    switch (k) {
    case EK_F16:
        STORE(uint16_t, p, i, scalar_double_to_half(int_to_small_float_exact(v, 11)));
        return;
    case EK_BF16:
        STORE(uint16_t, p, i, scalar_double_to_bfloat(int_to_small_float_exact(v, 8)));
        return;
    case EK_F32:
        STORE(float, p, i, v);
        return; /* int to float conversion rounds once */
    case EK_F64:
        STORE(double, p, i, v);
        return;
    case EK_BOOL:
    case EK_I8:
    case EK_I16:
    case EK_I32:
    case EK_I64:
    case EK_U8:
    case EK_U16:
    case EK_U32:
    case EK_U64:
    case EK_NONE:
        store_bits(k, p, i, (uint64_t)v);
        return;
    }
}

double tensor_get_f64(const Tensor *t, int64_t i)
{
    return load_f64(elem_kind(t->dtype), t->data, i);
}

int64_t tensor_get_i64(const Tensor *t, int64_t i)
{
    return bits_to_i64(load_bits(elem_kind(t->dtype), t->data, i));
}

uint64_t tensor_get_u64(const Tensor *t, int64_t i)
{
    return load_bits(elem_kind(t->dtype), t->data, i);
}

void tensor_set_f64(Tensor *t, int64_t i, double v)
{
    store_f64(elem_kind(t->dtype), t->data, i, v);
}

void tensor_set_i64(Tensor *t, int64_t i, int64_t v)
{
    store_i64(elem_kind(t->dtype), t->data, i, v);
}

/* ---- bulk access: the common dtypes get a straight loop, the rest go element-wise ---- */

#define BULK_READ(T, out)                                                                          \
    do {                                                                                           \
        const T *src_ = (const T *)t->data + start;                                                \
        for (int64_t i_ = 0; i_ < count; i_++)                                                     \
            (out)[i_] = src_[i_];                                                                  \
    } while (0)

/* Cloned for the vector units: a float32 tensor converts many elements an instruction. */
KERNELS_VECTOR_CLONES void tensor_read_f64_range(const Tensor *t, int64_t start, int64_t count,
                                                double *out)
{
    ElemKind k = elem_kind(t->dtype);
    if (k == EK_F32)
        BULK_READ(float, out);
    else if (k == EK_F64)
        memcpy(out, (const double *)t->data + start, sizeof(double) * (size_t)count);
    else
        for (int64_t i = 0; i < count; i++)
            out[i] = load_f64(k, t->data, start + i);
}

KERNELS_VECTOR_CLONES void tensor_write_f64_range(Tensor *t, int64_t start, int64_t count,
                                                 const double *in)
{
    ElemKind k = elem_kind(t->dtype);
    if (k == EK_F64) {
        memcpy((double *)t->data + start, in, sizeof(double) * (size_t)count);
        return;
    }
    if (k == EK_F32) {
        float *dst = (float *)t->data + start;
        for (int64_t i = 0; i < count; i++)
            dst[i] = (float)in[i];
        return;
    }
    for (int64_t i = 0; i < count; i++)
        store_f64(k, t->data, start + i, in[i]);
}

void tensor_read_i64_range(const Tensor *t, int64_t start, int64_t count, int64_t *out)
{
    ElemKind k = elem_kind(t->dtype);
    if (k == EK_I64)
        memcpy(out, (const int64_t *)t->data + start, sizeof(int64_t) * (size_t)count);
    else if (k == EK_I32)
        BULK_READ(int32_t, out);
    else
        for (int64_t i = 0; i < count; i++)
            out[i] = bits_to_i64(load_bits(k, t->data, start + i));
}

void tensor_write_i64_range(Tensor *t, int64_t start, int64_t count, const int64_t *in)
{
    ElemKind k = elem_kind(t->dtype);
    if (k == EK_I64 || k == EK_U64) {
        memcpy((int64_t *)t->data + start, in, sizeof(int64_t) * (size_t)count);
        return;
    }
    for (int64_t i = 0; i < count; i++)
        store_i64(k, t->data, start + i, in[i]);
}

void tensor_read_f64(const Tensor *t, double *out)
{
    tensor_read_f64_range(t, 0, t->numel, out);
}

void tensor_write_f64(Tensor *t, const double *in)
{
    tensor_write_f64_range(t, 0, t->numel, in);
}

void tensor_read_i64(const Tensor *t, int64_t *out)
{
    tensor_read_i64_range(t, 0, t->numel, out);
}

void tensor_write_i64(Tensor *t, const int64_t *in)
{
    tensor_write_i64_range(t, 0, t->numel, in);
}

void tensor_fill_f64(Tensor *t, double v)
{
    ElemKind k = elem_kind(t->dtype);
    if (t->numel == 0)
        return;
    store_f64(k, t->data, 0, v);
    /* Doubling copies of the filled prefix: a few large copies instead of one per element. */
    size_t total = tensor_nbytes(t);
    for (size_t done = dtype_bytes(t->dtype); done < total; done *= 2)
        memcpy((char *)t->data + done, t->data, done < total - done ? done : total - done);
}

void tensor_fill_i64(Tensor *t, int64_t v)
{
    if (t->numel == 0)
        return;
    store_i64(elem_kind(t->dtype), t->data, 0, v);
    size_t total = tensor_nbytes(t);
    for (size_t done = dtype_bytes(t->dtype); done < total; done *= 2)
        memcpy((char *)t->data + done, t->data, done < total - done ? done : total - done);
}

double tensor_round_f64(DataType dtype, double v)
{
    ElemKind k = elem_kind(dtype);
    union {
        double d;
        uint64_t u;
    } slot = {.u = 0};
    store_f64(k, &slot, 0, v);
    return load_f64(k, &slot, 0);
}

int64_t tensor_wrap_i64(DataType dtype, int64_t v)
{
    ElemKind k = elem_kind(dtype);
    union {
        double d;
        uint64_t u;
    } slot = {.u = 0};
    store_i64(k, &slot, 0, v);
    return bits_to_i64(load_bits(k, &slot, 0));
}

int64_t tensor_f64_to_int(DataType dtype, double v)
{
    ElemKind k = elem_kind(dtype);
    if (k == EK_NONE)
        return f64_to_i64_sat(v);
    union {
        double d;
        uint64_t u;
    } slot = {.u = 0};
    store_f64(k, &slot, 0, v);
    return bits_to_i64(load_bits(k, &slot, 0));
}
