/* kernels_elemwise: naive exact kernels of the elementwise operators: broadcasting binary
 * operators, unary operators, clip. SPEC_NOTES: "Operators" (OP-add ... OP-clip). */
#ifndef RELAX_VALUES_KERNELS_ELEMWISE_H
#define RELAX_VALUES_KERNELS_ELEMWISE_H

#include <stdbool.h>

#include "values/tensor.h"

typedef enum KernelBinaryOp {
    KB_ADD,
    KB_SUBTRACT,
    KB_MULTIPLY,
    KB_DIVIDE,       /* floats: IEEE; integers: truncating (TIR Div) */
    KB_FLOOR_DIVIDE, /* floats: floor(a / b); integers: floor division */
    KB_POWER,
    KB_MOD,       /* floats: fmod; integers: truncating remainder (sign of a) */
    KB_FLOOR_MOD, /* floats: a - floor(a / b) * b; integers: sign of b */
    KB_LOG_ADD_EXP,
    KB_MAXIMUM, /* NaN propagates */
    KB_MINIMUM,
    KB_EQUAL, /* comparisons give bool */
    KB_NOT_EQUAL,
    KB_LESS,
    KB_LESS_EQUAL,
    KB_GREATER,
    KB_GREATER_EQUAL,
    KB_LOGICAL_AND, /* bool operands */
    KB_LOGICAL_OR,
    KB_LOGICAL_XOR,
    KB_BITWISE_AND, /* integer or bool operands */
    KB_BITWISE_OR,
    KB_BITWISE_XOR,
    KB_LEFT_SHIFT,  /* integer operands; a count outside [0, bits) gives 0 */
    KB_RIGHT_SHIFT, /* arithmetic for signed; a count outside [0, bits) gives 0 or -1 */
} KernelBinaryOp;

typedef enum KernelUnaryOp {
    KU_ABS,
    KU_NEGATIVE,
    KU_EXP,
    KU_LOG,
    KU_SQRT,
    KU_RSQRT,
    KU_SIN,
    KU_COS,
    KU_TAN,
    KU_SINH,
    KU_COSH,
    KU_TANH,
    KU_ASIN,
    KU_ACOS,
    KU_ATAN,
    KU_ASINH,
    KU_ACOSH,
    KU_ATANH,
    KU_SIGMOID,
    KU_SQUARE,
    KU_FLOOR,
    KU_CEIL,
    KU_ROUND, /* half to even */
    KU_TRUNC,
    KU_SIGN,
    KU_ERF,
    KU_ISNAN, /* checks give bool */
    KU_ISINF,
    KU_ISFINITE,
    KU_LOGICAL_NOT,
    KU_BITWISE_NOT,
} KernelUnaryOp;

/* True for the comparison and check operators, whose result is bool. */
bool kernels_binary_gives_bool(KernelBinaryOp op);
bool kernels_unary_gives_bool(KernelUnaryOp op);

/* The numpy broadcast of two shapes into `shape` (room for TENSOR_MAX_NDIM dims); false when
 * they do not broadcast. */
bool kernels_broadcast_shape(const Tensor *a, const Tensor *b, int *ndim, int64_t *shape);

/* a op b with broadcasting; both operands must have the same dtype. NULL with *err set (a
 * static message) on a shape mismatch or an integer division by zero. */
Tensor *kernels_binary(KernelBinaryOp op, const Tensor *a, const Tensor *b, const char **err);
Tensor *kernels_unary(KernelUnaryOp op, const Tensor *x, const char **err);
/* max(min(x, hi), lo) elementwise (lo wins when lo > hi), lo and hi already converted to
 * x's dtype (as doubles for float dtypes, as int64 for the others); NaN propagates. */
Tensor *kernels_clip(const Tensor *x, double lo_f, double hi_f, int64_t lo_i, int64_t hi_i);

#endif
