/* kernels_elemwise: naive exact kernels of the elementwise operators. Floats compute in
 * double and round once; integers compute in 64 bits with wrap-around through unsigned
 * arithmetic. SPEC_NOTES: "Operators" (OP-add ... OP-clip). */
#include "values/kernels/kernels_elemwise.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "values/kernels/kernels_exp.h"
#include "values/kernels/kernels_native.h"

bool kernels_binary_gives_bool(KernelBinaryOp op)
{
    return op >= KB_EQUAL && op <= KB_LOGICAL_XOR;
}

bool kernels_unary_gives_bool(KernelUnaryOp op)
{
    return op == KU_ISNAN || op == KU_ISINF || op == KU_ISFINITE || op == KU_LOGICAL_NOT;
}

bool kernels_broadcast_shape(const Tensor *a, const Tensor *b, int *ndim, int64_t *shape)
{
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int k = 1; k <= n; k++) {
        int64_t da = k <= a->ndim ? a->shape[a->ndim - k] : 1;
        int64_t db = k <= b->ndim ? b->shape[b->ndim - k] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        shape[n - k] = da == 1 ? db : da;
    }
    *ndim = n;
    return true;
}

/* ---- broadcasting: operands are expanded once to the result's shape --------------------- */

/* The flat source index of every result element (stride 0 along broadcast dims). */
static int64_t *source_index(const Tensor *t, int ndim, const int64_t *shape, int64_t numel)
{
    int64_t stride[TENSOR_MAX_NDIM];
    int64_t s = 1;
    bool over = false; /* only an empty tensor's dims overflow: no element is visited */
    for (int k = ndim - 1; k >= 0; k--) {
        int src = k - (ndim - t->ndim);
        bool real = src >= 0 && t->shape[src] != 1;
        stride[k] = real ? s : 0;
        if (src >= 0)
            s = checked_mul(s, t->shape[src], &over);
    }
    int64_t *out = tensor_scratch(numel, sizeof(int64_t));
    int64_t idx[TENSOR_MAX_NDIM] = {0};
    int64_t at = 0;
    for (int64_t i = 0; i < numel; i++) {
        out[i] = at;
        for (int k = ndim - 1; k >= 0; k--) {
            at += stride[k];
            if (++idx[k] < shape[k])
                break;
            at -= stride[k] * shape[k];
            idx[k] = 0;
        }
    }
    return out;
}

/* Whether an operand's elements reach the result only through the source index: not when
 * it has the result's shape, nor when its single element is repeated. */
static bool needs_index(const Tensor *t, int ndim, const int64_t *shape)
{
    return t->numel != 1 && !tensor_has_shape(t, ndim, shape);
}

/* An operand in the accumulation domain, laid out as the result, in a fresh buffer the
 * caller may overwrite. */
static double *expand_f64(const Tensor *t, int ndim, const int64_t *shape, int64_t numel)
{
    double *out = tensor_scratch(numel, sizeof(double));
    if (tensor_has_shape(t, ndim, shape)) {
        tensor_read_f64(t, out);
        return out;
    }
    double *raw = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, raw);
    if (!needs_index(t, ndim, shape)) {
        for (int64_t i = 0; i < numel; i++)
            out[i] = raw[0];
        return out;
    }
    const int64_t *src = source_index(t, ndim, shape, numel);
    for (int64_t i = 0; i < numel; i++)
        out[i] = raw[src[i]];
    return out;
}

static int64_t *expand_i64(const Tensor *t, int ndim, const int64_t *shape, int64_t numel)
{
    int64_t *out = tensor_scratch(numel, sizeof(int64_t));
    if (tensor_has_shape(t, ndim, shape)) {
        tensor_read_i64(t, out);
        return out;
    }
    int64_t *raw = tensor_scratch(t->numel, sizeof(int64_t));
    tensor_read_i64(t, raw);
    if (!needs_index(t, ndim, shape)) {
        for (int64_t i = 0; i < numel; i++)
            out[i] = raw[0];
        return out;
    }
    const int64_t *src = source_index(t, ndim, shape, numel);
    for (int64_t i = 0; i < numel; i++)
        out[i] = raw[src[i]];
    return out;
}

/* ---- float binary operators ------------------------------------------------------------- */

#define FLOOP(expr)                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        double x = a[i], y = b[i];                                                                 \
        o[i] = (expr);                                                                             \
    }                                                                                              \
    return
#define BLOOP(expr)                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        double x = a[i], y = b[i];                                                                 \
        ob[i] = (expr);                                                                            \
    }                                                                                              \
    return

/* OP-log_add_exp: src/tir/op/op.cc logaddexp, log(exp(x) + exp(y)) with each step rounded to
 * the dtype and no rescaling, so exp's overflow (float32 above about 88.7) gives inf and its
 * underflow 0, as TVM computes it. */
static double log_add_exp(double x, double y, DataType dt)
{
    double ex = tensor_round_f64(dt, kernels_exp(x)), ey = tensor_round_f64(dt, kernels_exp(y));
    return log(tensor_round_f64(dt, ex + ey));
}

/* OP-maximum, OP-minimum: TVM's select(a > b, a, b) and select(a < b, a, b)
 * (include/tvm/topi/broadcast.h, maximum/minimum via tvm::max/min, lowered by LLVM codegen to
 * an ordered compare and a select): a NaN operand gives b, whichever side the NaN is on. */
static double select_max(double x, double y)
{
    return x > y ? x : y;
}

static double select_min(double x, double y)
{
    return x < y ? x : y;
}

/* OP-floor_divide, OP-floor_mod on floats: floor(a / b) with the quotient rounded to the
 * dtype first; floor_mod is a - floor_divide(a, b) * b, each step rounded to the dtype
 * (include/tvm/topi/broadcast.h, floor_divide/floor_mod: tvm::floordiv/floormod, lowered in
 * src/tir/transforms/lower_intrin.cc as floor(a / b) and a - floor(a / b) * b). */
static double floor_div_f(double x, double y, DataType dt)
{
    return floor(tensor_round_f64(dt, x / y));
}

static double floor_mod_f(double x, double y, DataType dt)
{
    double p = tensor_round_f64(dt, floor_div_f(x, y, dt) * y);
    return x - p;
}

/* Arithmetic on doubles into `o`, comparisons into `ob` (0/1). */
static void binary_f64(KernelBinaryOp op, const double *a, const double *b, int64_t n, double *o,
                       int64_t *ob, DataType dt)
{
    switch (op) {
    case KB_ADD:
        FLOOP(x + y);
    case KB_SUBTRACT:
        FLOOP(x - y);
    case KB_MULTIPLY:
        FLOOP(x * y);
    case KB_DIVIDE:
        FLOOP(x / y);
    case KB_FLOOR_DIVIDE:
        FLOOP(floor_div_f(x, y, dt));
    case KB_POWER:
        FLOOP(pow(x, y));
    case KB_MOD:
        FLOOP(fmod(x, y));
    case KB_FLOOR_MOD:
        FLOOP(floor_mod_f(x, y, dt));
    case KB_LOG_ADD_EXP:
        FLOOP(log_add_exp(x, y, dt));
    case KB_MAXIMUM:
        FLOOP(select_max(x, y));
    case KB_MINIMUM:
        FLOOP(select_min(x, y));
    case KB_EQUAL:
        BLOOP(x == y);
    case KB_NOT_EQUAL: /* OP-not_equal: LLVM's ordered `fcmp one`: false when either is NaN */
        BLOOP(x < y || x > y);
    case KB_LESS:
        BLOOP(x < y);
    case KB_LESS_EQUAL:
        BLOOP(x <= y);
    case KB_GREATER:
        BLOOP(x > y);
    case KB_GREATER_EQUAL:
        BLOOP(x >= y);
    case KB_LOGICAL_AND:
        BLOOP(x != 0 && y != 0);
    case KB_LOGICAL_OR:
        BLOOP(x != 0 || y != 0);
    case KB_LOGICAL_XOR:
        BLOOP((x != 0) != (y != 0));
    case KB_BITWISE_AND:
    case KB_BITWISE_OR:
    case KB_BITWISE_XOR:
    case KB_LEFT_SHIFT:
    case KB_RIGHT_SHIFT:
        /* Inference rejects float operands; a float result of 0 keeps the kernel total. */
        FLOOP(0.0 * x * y);
    }
}

/* ---- integer binary operators ----------------------------------------------------------- */

#define ILOOP(expr)                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        int64_t x = a[i], y = b[i];                                                                \
        o[i] = (expr);                                                                             \
    }                                                                                              \
    return NULL

#define U(v) ((uint64_t)(v))
#define S(v) ((int64_t)(v))

static int64_t trunc_div(int64_t x, int64_t y, bool u64)
{
    if (u64)
        return S(U(x) / U(y));
    if (x == INT64_MIN && y == -1)
        return x;
    return x / y;
}

static int64_t trunc_mod(int64_t x, int64_t y, bool u64)
{
    if (u64)
        return S(U(x) % U(y));
    if (y == -1)
        return 0;
    return x % y;
}

static int64_t floor_div(int64_t x, int64_t y, bool u64)
{
    int64_t q = trunc_div(x, y, u64);
    if (!u64 && trunc_mod(x, y, false) != 0 && ((x < 0) != (y < 0)))
        q--;
    return q;
}

static int64_t floor_mod(int64_t x, int64_t y, bool u64)
{
    int64_t r = trunc_mod(x, y, u64);
    if (!u64 && r != 0 && ((r < 0) != (y < 0)))
        r = S(U(r) + U(y));
    return r;
}

static int64_t int_power(int64_t x, int64_t y)
{
    uint64_t r = 1, base = U(x);
    for (uint64_t e = U(y); e != 0; e >>= 1) {
        if (e & 1)
            r *= base;
        base *= base;
    }
    return S(r);
}

static int64_t shift_left(int64_t x, int64_t y, int bits)
{
    return U(y) < (uint64_t)bits ? S(U(x) << y) : 0;
}

static int64_t shift_right(int64_t x, int64_t y, int bits, bool is_signed, bool u64)
{
    if (U(y) >= (uint64_t)bits)
        return is_signed && x < 0 ? -1 : 0;
    if (u64 || !is_signed || x >= 0)
        return S(U(x) >> y);
    return S(~(~U(x) >> y));
}

static bool has_zero(const int64_t *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (b[i] == 0)
            return true;
    return false;
}

static bool has_negative(const int64_t *b, int64_t n, bool is_signed)
{
    for (int64_t i = 0; is_signed && i < n; i++)
        if (b[i] < 0)
            return true;
    return false;
}

/* Division-like operators; NULL or an error message. */
static const char *divide_i64(KernelBinaryOp op, const int64_t *a, const int64_t *b, int64_t n,
                              int64_t *o, bool u64)
{
    if (has_zero(b, n))
        return "integer division by zero";
    switch (op) {
    case KB_DIVIDE:
        ILOOP(trunc_div(x, y, u64));
    case KB_FLOOR_DIVIDE:
        ILOOP(floor_div(x, y, u64));
    case KB_MOD:
        ILOOP(trunc_mod(x, y, u64));
    default:
        ILOOP(floor_mod(x, y, u64));
    }
}

static const char *compare_i64(KernelBinaryOp op, const int64_t *a, const int64_t *b, int64_t n,
                               int64_t *o, bool u64)
{
    switch (op) {
    case KB_EQUAL:
        ILOOP(x == y);
    case KB_NOT_EQUAL:
        ILOOP(x != y);
    case KB_LESS:
        ILOOP(u64 ? U(x) < U(y) : x < y);
    case KB_LESS_EQUAL:
        ILOOP(u64 ? U(x) <= U(y) : x <= y);
    case KB_GREATER:
        ILOOP(u64 ? U(x) > U(y) : x > y);
    case KB_GREATER_EQUAL:
        ILOOP(u64 ? U(x) >= U(y) : x >= y);
    case KB_MAXIMUM:
        ILOOP((u64 ? U(x) > U(y) : x > y) ? x : y);
    default:
        ILOOP((u64 ? U(x) < U(y) : x < y) ? x : y);
    }
}

static const char *binary_i64(KernelBinaryOp op, const int64_t *a, const int64_t *b, int64_t n,
                              int64_t *o, DataType dt)
{
    bool u64 = dtype_is_uint(dt) && dt.bits == 64;
    bool is_signed = dtype_is_int(dt);
    switch (op) {
    case KB_ADD:
        ILOOP(S(U(x) + U(y)));
    case KB_SUBTRACT:
        ILOOP(S(U(x) - U(y)));
    case KB_MULTIPLY:
        ILOOP(S(U(x) * U(y)));
    case KB_DIVIDE:
    case KB_FLOOR_DIVIDE:
    case KB_MOD:
    case KB_FLOOR_MOD:
        return divide_i64(op, a, b, n, o, u64);
    case KB_POWER:
        if (has_negative(b, n, is_signed))
            return "integer power with a negative exponent";
        ILOOP(int_power(x, y));
    case KB_LOG_ADD_EXP:
        ILOOP(S(llround(log_add_exp((double)x, (double)y, (DataType){DT_FLOAT, 64, 1}))));
    case KB_EQUAL:
    case KB_NOT_EQUAL:
    case KB_LESS:
    case KB_LESS_EQUAL:
    case KB_GREATER:
    case KB_GREATER_EQUAL:
    case KB_MAXIMUM:
    case KB_MINIMUM:
        return compare_i64(op, a, b, n, o, u64);
    case KB_LOGICAL_AND:
        ILOOP(x != 0 && y != 0);
    case KB_LOGICAL_OR:
        ILOOP(x != 0 || y != 0);
    case KB_LOGICAL_XOR:
        ILOOP((x != 0) != (y != 0));
    case KB_BITWISE_AND:
        ILOOP(x & y);
    case KB_BITWISE_OR:
        ILOOP(x | y);
    case KB_BITWISE_XOR:
        ILOOP(x ^ y);
    case KB_LEFT_SHIFT:
        ILOOP(shift_left(x, y, dt.bits));
    case KB_RIGHT_SHIFT:
        ILOOP(shift_right(x, y, dt.bits, is_signed, u64));
    }
    return NULL;
}

/* ---- streaming: operands of the result's shape or of a single element ------------------ */

/* Elements per step of a streamed kernel: its buffers stay small whatever the tensor size. */
#define CHUNK 4096

/* Elements [start, start + count) of an operand as laid out in the result: its own elements,
 * or its single element repeated. */
static void chunk_f64(const Tensor *t, int64_t start, int64_t count, double *buf)
{
    if (t->numel != 1) {
        tensor_read_f64_range(t, start, count, buf);
        return;
    }
    tensor_read_f64_range(t, 0, 1, buf);
    for (int64_t i = 1; i < count; i++)
        buf[i] = buf[0];
}

static void chunk_i64(const Tensor *t, int64_t start, int64_t count, int64_t *buf)
{
    if (t->numel != 1) {
        tensor_read_i64_range(t, start, count, buf);
        return;
    }
    tensor_read_i64_range(t, 0, 1, buf);
    for (int64_t i = 1; i < count; i++)
        buf[i] = buf[0];
}

/* The binary kernel chunk by chunk: each element is computed exactly as by the whole-tensor
 * path, without buffers of the result's size. NULL or an error message. */
static const char *binary_streamed(KernelBinaryOp op, const Tensor *ta, const Tensor *tb,
                                   Tensor *out)
{
    /* Buffers no longer than the result: a small tensor's operation allocates little. */
    int64_t chunk = out->numel < CHUNK ? (out->numel > 0 ? out->numel : 1) : CHUNK;
    double *fa = tensor_scratch(2 * chunk, sizeof(double)), *fb = fa + chunk;
    int64_t *ia = tensor_scratch(2 * chunk, sizeof(int64_t)), *ib = ia + chunk;
    bool as_float = dtype_is_float(ta->dtype), gives_bool = kernels_binary_gives_bool(op);
    for (int64_t at = 0; at < out->numel; at += chunk) {
        int64_t n = out->numel - at < chunk ? out->numel - at : chunk;
        if (as_float) {
            chunk_f64(ta, at, n, fa);
            chunk_f64(tb, at, n, fb);
            binary_f64(op, fa, fb, n, fa, ia, ta->dtype);
            if (gives_bool)
                tensor_write_i64_range(out, at, n, ia);
            else
                tensor_write_f64_range(out, at, n, fa);
            continue;
        }
        chunk_i64(ta, at, n, ia);
        chunk_i64(tb, at, n, ib);
        const char *err = binary_i64(op, ia, ib, n, ia, ta->dtype);
        if (err != NULL)
            return err;
        tensor_write_i64_range(out, at, n, ia);
    }
    return NULL;
}

/* "[2, 3]": a tensor's shape for an error message. */
static const char *shape_text(const Tensor *t)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addc(&sb, '[');
    for (int i = 0; i < t->ndim; i++)
        strbuf_addf(&sb, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    strbuf_addc(&sb, ']');
    return strbuf_str(&sb);
}

Tensor *kernels_binary(KernelBinaryOp op, const Tensor *ta, const Tensor *tb, const char **err)
{
    int ndim;
    int64_t shape[TENSOR_MAX_NDIM];
    if (!kernels_broadcast_shape(ta, tb, &ndim, shape)) {
        *err =
            mem_printf("operand shapes %s and %s do not broadcast", shape_text(ta), shape_text(tb));
        return NULL;
    }
    DataType dt = ta->dtype;
    bool gives_bool = kernels_binary_gives_bool(op);
    /* A native loop writes every element of the result. */
    bool native = kernels_native_supports(op, dt) && dtype_equal(dt, tb->dtype);
    DataType odt = gives_bool ? dtype_bool() : dt;
    Tensor *out = native ? tensor_new_uninit(odt, ndim, shape) : tensor_new(odt, ndim, shape);
    if (out == NULL) {
        *err = "the result is too large";
        return NULL;
    }
    if (native && kernels_native_binary(op, ta, tb, out))
        return out;
    if (!needs_index(ta, ndim, shape) && !needs_index(tb, ndim, shape)) {
        *err = binary_streamed(op, ta, tb, out);
        return *err == NULL ? out : NULL;
    }
    int64_t n = out->numel;
    /* Each element is read before it is written, so results overwrite the first operand. */
    if (dtype_is_float(dt)) {
        double *a = expand_f64(ta, ndim, shape, n);
        int64_t *ob = gives_bool ? tensor_scratch(n, sizeof(int64_t)) : NULL;
        binary_f64(op, a, expand_f64(tb, ndim, shape, n), n, a, ob, dt);
        if (gives_bool)
            tensor_write_i64(out, ob);
        else
            tensor_write_f64(out, a);
        return out;
    }
    int64_t *a = expand_i64(ta, ndim, shape, n);
    *err = binary_i64(op, a, expand_i64(tb, ndim, shape, n), n, a, dt);
    if (*err != NULL)
        return NULL;
    tensor_write_i64(out, a);
    return out;
}

/* ---- unary operators -------------------------------------------------------------------- */

#define ULOOP(expr)                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        double x = a[i];                                                                           \
        o[i] = (expr);                                                                             \
    }                                                                                              \
    return

static double sign_f64(double x)
{
    return isnan(x) ? x : (x > 0) - (x < 0);
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + kernels_exp(-x));
}

static void unary_f64(KernelUnaryOp op, const double *a, int64_t n, double *o)
{
    switch (op) {
    case KU_ABS:
        ULOOP(fabs(x));
    case KU_NEGATIVE:
        ULOOP(-x);
    case KU_EXP:
        ULOOP(kernels_exp(x)); /* exp's very result (kernels_exp.c) */
    case KU_LOG:
        ULOOP(log(x));
    case KU_SQRT:
        ULOOP(sqrt(x));
    case KU_RSQRT:
        ULOOP(1.0 / sqrt(x));
    case KU_SIN:
        ULOOP(sin(x));
    case KU_COS:
        ULOOP(cos(x));
    case KU_TAN:
        ULOOP(tan(x));
    case KU_SINH:
        ULOOP(sinh(x));
    case KU_COSH:
        ULOOP(cosh(x));
    case KU_TANH:
        ULOOP(tanh(x));
    case KU_ASIN:
        ULOOP(asin(x));
    case KU_ACOS:
        ULOOP(acos(x));
    case KU_ATAN:
        ULOOP(atan(x));
    case KU_ASINH:
        ULOOP(asinh(x));
    case KU_ACOSH:
        ULOOP(acosh(x));
    case KU_ATANH:
        ULOOP(atanh(x));
    case KU_SIGMOID:
        ULOOP(sigmoid(x));
    case KU_SQUARE:
        ULOOP(x * x);
    case KU_FLOOR:
        ULOOP(floor(x));
    case KU_CEIL:
        ULOOP(ceil(x));
    case KU_ROUND:
        ULOOP(nearbyint(x));
    case KU_TRUNC:
        ULOOP(trunc(x));
    case KU_SIGN:
        ULOOP(sign_f64(x));
    case KU_ERF:
        ULOOP(erf(x));
    case KU_ISNAN:
        ULOOP(isnan(x) ? 1.0 : 0.0);
    case KU_ISINF:
        ULOOP(isinf(x) ? 1.0 : 0.0);
    case KU_ISFINITE:
        ULOOP(isfinite(x) ? 1.0 : 0.0);
    case KU_LOGICAL_NOT:
        ULOOP(x == 0 ? 1.0 : 0.0);
    case KU_BITWISE_NOT:
        ULOOP(0.0 * x);
    }
}

#undef ULOOP
#define ULOOP(expr)                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        int64_t x = a[i];                                                                          \
        o[i] = (expr);                                                                             \
    }                                                                                              \
    return

/* Integer operands: rounding is the identity; float-only functions compute in double and
 * truncate (inference rejects them before a kernel runs). */
static void unary_i64(KernelUnaryOp op, const int64_t *a, int64_t n, int64_t *o, bool is_signed)
{
    switch (op) {
    case KU_ABS:
        ULOOP(is_signed && x < 0 ? S(0 - U(x)) : x);
    case KU_NEGATIVE:
        ULOOP(S(0 - U(x)));
    case KU_SQUARE:
        ULOOP(S(U(x) * U(x)));
    case KU_FLOOR:
    case KU_CEIL:
    case KU_ROUND:
    case KU_TRUNC:
        ULOOP(x);
    case KU_SIGN:
        ULOOP(is_signed ? (x > 0) - (x < 0) : x != 0);
    case KU_ISNAN:
    case KU_ISINF:
        ULOOP(0 * x);
    case KU_ISFINITE:
        ULOOP(1 + 0 * x);
    case KU_LOGICAL_NOT:
        ULOOP(x == 0);
    case KU_BITWISE_NOT:
        ULOOP(~x);
    case KU_EXP:
    case KU_LOG:
    case KU_SQRT:
    case KU_RSQRT:
    case KU_SIN:
    case KU_COS:
    case KU_TAN:
    case KU_SINH:
    case KU_COSH:
    case KU_TANH:
    case KU_ASIN:
    case KU_ACOS:
    case KU_ATAN:
    case KU_ASINH:
    case KU_ACOSH:
    case KU_ATANH:
    case KU_SIGMOID:
    case KU_ERF:
        ULOOP(0 * x);
    }
}

Tensor *kernels_unary(KernelUnaryOp op, const Tensor *x, const char **err)
{
    bool gives_bool = kernels_unary_gives_bool(op);
    Tensor *out = tensor_new(gives_bool ? dtype_bool() : x->dtype, x->ndim, x->shape);
    if (out == NULL) {
        *err = "the result is too large";
        return NULL;
    }
    /* Streamed chunk by chunk, in place in one small buffer: each element is read before
     * it is written. */
    bool as_float = dtype_is_float(x->dtype);
    bool u64 = dtype_is_uint(x->dtype) && x->dtype.bits == 64;
    int64_t chunk = x->numel < CHUNK ? (x->numel > 0 ? x->numel : 1) : CHUNK;
    double *fa = tensor_scratch(chunk, sizeof(double));
    int64_t *ia = tensor_scratch(chunk, sizeof(int64_t));
    for (int64_t at = 0; at < x->numel; at += chunk) {
        int64_t n = x->numel - at < chunk ? x->numel - at : chunk;
        if (as_float) {
            tensor_read_f64_range(x, at, n, fa);
            unary_f64(op, fa, n, fa);
            tensor_write_f64_range(out, at, n, fa);
        } else {
            tensor_read_i64_range(x, at, n, ia);
            unary_i64(op, ia, n, ia, dtype_is_int(x->dtype) && !u64);
            /* OP-bitwise_not: bool is a 1-bit integer, so ~x keeps only the low bit (TVM's
             * xor of an i1 with all ones): a logical not, not a nonzero -1 or -2. */
            if (op == KU_BITWISE_NOT && dtype_is_bool(x->dtype))
                for (int64_t i = 0; i < n; i++)
                    ia[i] &= 1;
            tensor_write_i64_range(out, at, n, ia);
        }
    }
    return out;
}

Tensor *kernels_clip(const Tensor *x, double lo_f, double hi_f, int64_t lo_i, int64_t hi_i)
{
    Tensor *out = tensor_new(x->dtype, x->ndim, x->shape);
    if (out == NULL)
        return NULL;
    int64_t n = x->numel;
    if (dtype_is_float(x->dtype)) {
        double *a = tensor_scratch(n, sizeof(double));
        tensor_read_f64(x, a);
        for (int64_t i = 0; i < n; i++) {
            double v = isnan(a[i]) || a[i] <= hi_f ? a[i] : hi_f;
            a[i] = isnan(v) || v >= lo_f ? v : lo_f;
        }
        tensor_write_f64(out, a);
        return out;
    }
    int64_t *a = tensor_scratch(n, sizeof(int64_t));
    tensor_read_i64(x, a);
    bool u64 = dtype_is_uint(x->dtype) && x->dtype.bits == 64;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (u64 ? U(a[i]) > U(hi_i) : a[i] > hi_i) ? hi_i : a[i];
        a[i] = (u64 ? U(v) < U(lo_i) : v < lo_i) ? lo_i : v;
    }
    tensor_write_i64(out, a);
    return out;
}
