/* kernels_native: the elementwise binary operators in the operands' own machine type for
 * float32, float64 and the integer dtypes, one loop per (dtype, operator), contiguous or
 * broadcast along rows. SPEC_NOTES: "Operators" (OP-add ... OP-greater_equal).
 *
 * Each loop computes exactly what kernels_elemwise's double / int64 path computes:
 * - float32 +, -, *, /: the float32 operation is correctly rounded, and rounding the exact
 *   double result once to float32 gives the same value, because double carries more than
 *   2 * 24 + 2 significand bits (double rounding is innocuous for these four operations);
 *   float64 is the same operation in both paths;
 * - maximum, minimum and the comparisons are exact in either type;
 * - integers: +, -, * modulo 2^64 and then truncated to the dtype's width equal the same
 *   operations modulo 2^width, and the bitwise operators commute with truncation; the
 *   comparisons of sign- or zero-extended values order them as their own type does.
 * The bit-identity guard (tools/tests/values/test_kernels_guard.c) checks the claim. */
#include "values/kernels/kernels_native.h"

#include "values/kernels/kernels_manip.h"

/* One row: n results from a and b, each advancing its element (stride 1) or repeating its
 * first (stride 0). */
typedef void (*RowFn)(KernelBinaryOp op, const void *a, bool sa, const void *b, bool sb, void *o,
                      int64_t n);

/* The four stride cases of one expression, so that each compiles to a straight loop. */
#define ROW(TA, TO, EXPR)                                                                          \
    do {                                                                                           \
        const TA *pa = a, *pb = b;                                                                 \
        TO *po = o;                                                                                \
        if (sa && sb) {                                                                            \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TA x = pa[i], y = pb[i];                                                           \
                po[i] = (TO)(EXPR);                                                                \
            }                                                                                      \
        } else if (sa) {                                                                           \
            TA y = pb[0];                                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TA x = pa[i];                                                                      \
                po[i] = (TO)(EXPR);                                                                \
            }                                                                                      \
        } else if (sb) {                                                                           \
            TA x = pa[0];                                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TA y = pb[i];                                                                      \
                po[i] = (TO)(EXPR);                                                                \
            }                                                                                      \
        } else {                                                                                   \
            TA x = pa[0], y = pb[0];                                                               \
            TO v = (TO)(EXPR);                                                                     \
            for (int64_t i = 0; i < n; i++)                                                        \
                po[i] = v;                                                                         \
        }                                                                                          \
        return;                                                                                    \
    } while (0)

/* The comparisons, with OP-not_equal as LLVM's ordered `fcmp one` on floats (false when
 * either operand is NaN) and maximum / minimum as TVM's selects (kernels_elemwise). */
#define COMPARE_CASES(T)                                                                           \
    case KB_EQUAL:                                                                                 \
        ROW(T, uint8_t, x == y);                                                                   \
    case KB_NOT_EQUAL:                                                                             \
        ROW(T, uint8_t, x<y || x> y);                                                              \
    case KB_LESS:                                                                                  \
        ROW(T, uint8_t, x < y);                                                                    \
    case KB_LESS_EQUAL:                                                                            \
        ROW(T, uint8_t, x <= y);                                                                   \
    case KB_GREATER:                                                                               \
        ROW(T, uint8_t, x > y);                                                                    \
    case KB_GREATER_EQUAL:                                                                         \
        ROW(T, uint8_t, x >= y);                                                                   \
    case KB_MAXIMUM:                                                                               \
        ROW(T, T, x > y ? x : y);                                                                  \
    case KB_MINIMUM:                                                                               \
        ROW(T, T, x < y ? x : y)

#define FLOAT_ROW(NAME, T)                                                                         \
    static void NAME(KernelBinaryOp op, const void *a, bool sa, const void *b, bool sb, void *o,   \
                     int64_t n)                                                                    \
    {                                                                                              \
        switch (op) {                                                                              \
        case KB_ADD:                                                                               \
            ROW(T, T, x + y);                                                                      \
        case KB_SUBTRACT:                                                                          \
            ROW(T, T, x - y);                                                                      \
        case KB_MULTIPLY:                                                                          \
            ROW(T, T, x *y);                                                                       \
        case KB_DIVIDE:                                                                            \
            ROW(T, T, x / y);                                                                      \
            COMPARE_CASES(T);                                                                      \
        default:                                                                                   \
            return;                                                                                \
        }                                                                                          \
    }

/* T compares as the dtype (signed or not); arithmetic runs on the unsigned UT widened to W
 * (never narrower than unsigned int, so no operand promotes to a signed int), which wraps. */
#define INT_ROW(NAME, T, UT, W)                                                                    \
    static void NAME(KernelBinaryOp op, const void *a, bool sa, const void *b, bool sb, void *o,   \
                     int64_t n)                                                                    \
    {                                                                                              \
        switch (op) {                                                                              \
        case KB_ADD:                                                                               \
            ROW(UT, UT, (W)x + (W)y);                                                              \
        case KB_SUBTRACT:                                                                          \
            ROW(UT, UT, (W)x - (W)y);                                                              \
        case KB_MULTIPLY:                                                                          \
            ROW(UT, UT, (W)x *(W)y);                                                               \
        case KB_BITWISE_AND:                                                                       \
            ROW(UT, UT, x &y);                                                                     \
        case KB_BITWISE_OR:                                                                        \
            ROW(UT, UT, x | y);                                                                    \
        case KB_BITWISE_XOR:                                                                       \
            ROW(UT, UT, x ^ y);                                                                    \
            COMPARE_CASES(T);                                                                      \
        default:                                                                                   \
            return;                                                                                \
        }                                                                                          \
    }

FLOAT_ROW(row_f32, float)
FLOAT_ROW(row_f64, double)
INT_ROW(row_i8, int8_t, uint8_t, uint32_t)
INT_ROW(row_i16, int16_t, uint16_t, uint32_t)
INT_ROW(row_i32, int32_t, uint32_t, uint32_t)
INT_ROW(row_i64, int64_t, uint64_t, uint64_t)
INT_ROW(row_u8, uint8_t, uint8_t, uint32_t)
INT_ROW(row_u16, uint16_t, uint16_t, uint32_t)
INT_ROW(row_u32, uint32_t, uint32_t, uint32_t)
INT_ROW(row_u64, uint64_t, uint64_t, uint64_t)

static bool float_op(KernelBinaryOp op)
{
    return op == KB_ADD || op == KB_SUBTRACT || op == KB_MULTIPLY || op == KB_DIVIDE ||
           (op >= KB_MAXIMUM && op <= KB_GREATER_EQUAL);
}

static bool int_op(KernelBinaryOp op)
{
    return op == KB_ADD || op == KB_SUBTRACT || op == KB_MULTIPLY ||
           (op >= KB_MAXIMUM && op <= KB_GREATER_EQUAL) ||
           (op >= KB_BITWISE_AND && op <= KB_BITWISE_XOR);
}

/* The row loop of a dtype and operator, or NULL when they take the general path. */
static RowFn row_fn(DataType dt, KernelBinaryOp op)
{
    if (dt.lanes != 1 || dtype_is_bool(dt))
        return NULL;
    int slot = dt.bits == 8 ? 0 : dt.bits == 16 ? 1 : dt.bits == 32 ? 2 : dt.bits == 64 ? 3 : -1;
    if (slot < 0)
        return NULL;
    static const RowFn ints[] = {row_i8, row_i16, row_i32, row_i64};
    static const RowFn uints[] = {row_u8, row_u16, row_u32, row_u64};
    if (dt.code == DT_FLOAT && (dt.bits == 32 || dt.bits == 64) && float_op(op))
        return dt.bits == 32 ? row_f32 : row_f64;
    if (dt.code == DT_INT && int_op(op))
        return ints[slot];
    if (dt.code == DT_UINT && int_op(op))
        return uints[slot];
    return NULL;
}

bool kernels_native_supports(KernelBinaryOp op, DataType dtype)
{
    return row_fn(dtype, op) != NULL;
}

bool kernels_native_binary(KernelBinaryOp op, const Tensor *ta, const Tensor *tb, Tensor *out)
{
    RowFn row = row_fn(ta->dtype, op);
    if (row == NULL || !dtype_equal(ta->dtype, tb->dtype))
        return false;
    if (out->numel == 0)
        return true;
    bool fa = ta->numel == out->numel, fb = tb->numel == out->numel;
    if ((fa || ta->numel == 1) && (fb || tb->numel == 1)) {
        row(op, ta->data, fa, tb->data, fb, out->data, out->numel);
        return true;
    }
    /* A general broadcast: row by row along the last axis, each operand's row start found
     * by an odometer over the other axes. */
    int nd = out->ndim;
    int64_t sa[TENSOR_MAX_NDIM], sb[TENSOR_MAX_NDIM], idx[TENSOR_MAX_NDIM] = {0};
    kernel_broadcast_strides(ta, nd, out->shape, sa);
    kernel_broadcast_strides(tb, nd, out->shape, sb);
    size_t ein = dtype_bytes(ta->dtype), eout = dtype_bytes(out->dtype);
    int64_t inner = out->shape[nd - 1], at_a = 0, at_b = 0;
    for (int64_t at = 0; at < out->numel; at += inner) {
        row(op, (const char *)ta->data + (size_t)at_a * ein, sa[nd - 1] != 0,
            (const char *)tb->data + (size_t)at_b * ein, sb[nd - 1] != 0,
            (char *)out->data + (size_t)at * eout, inner);
        for (int k = nd - 2; k >= 0; k--) {
            at_a += sa[k];
            at_b += sb[k];
            if (++idx[k] < out->shape[k])
                break;
            at_a -= sa[k] * out->shape[k];
            at_b -= sb[k] * out->shape[k];
            idx[k] = 0;
        }
    }
    return true;
}
