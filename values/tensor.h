/* tensor: dense, mutable, row-major n-dimensional arrays of every Relax scalar dtype.
 * SPEC_NOTES: "Values" (tensors; float16 and bfloat16; integer wrap-around). */
#ifndef RELAX_VALUES_TENSOR_H
#define RELAX_VALUES_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast/dtype.h"
#include "ast/expr.h"

/* Elements are stored in their dtype's own width: float16 and bfloat16 as 16-bit patterns,
 * bool as one byte holding 0 or 1. The data is atomic GC memory; tensors are mutable, so two
 * values holding the same Tensor observe each other's writes. */
typedef struct Tensor {
    DataType dtype;
    int ndim;
    int64_t *shape; /* ndim dims, each >= 0 */
    int64_t numel;
    void *data; /* numel * dtype_bytes(dtype) bytes */
    /* Where the first element sits in the allocation it views (DLPack's byte_offset): 0 for
     * a tensor of its own; a view of a storage or of another tensor records its offset here,
     * while `data` already points at the first element. */
    int64_t byte_offset;
} Tensor;

/* Largest rank a tensor may have, and the default of the largest size in bytes (2 GiB, well
 * under the memory of an ordinary machine); larger requests fail. SPEC_NOTES: "Resource
 * limits". */
#define TENSOR_MAX_NDIM 64
#define TENSOR_DEFAULT_MAX_BYTES ((int64_t)1 << 31)

/* The size limit in force, and setting it (`--max-tensor-bytes`; at least 1). */
int64_t tensor_max_bytes(void);
void tensor_set_max_bytes(int64_t bytes);

/* A bound on the tensors being made, in elements: while one is in force, a tensor of more
 * elements is refused through `refuse` (which does not return) before its memory is taken.
 * The evaluator sets one around each operator's kernel (LIMIT-fuel: the fuel left when the
 * call began), so no operator makes a result, or anything else, larger than the work the
 * budget still allows. A `refuse` of NULL is no bound. */
typedef struct TensorBudget {
    int64_t elements;
    void (*refuse)(void *ctx, int64_t elements);
    void *ctx;
} TensorBudget;
/* Puts `budget` in force and returns the one it replaces (to be put back). */
TensorBudget tensor_set_budget(TensorBudget budget);

/* A kernel's working memory (index arrays, accumulators, converted copies): `count` elements
 * of `size` bytes, not zeroed, never scanned by the collector. It is charged like a tensor:
 * the product is checked and may not pass tensor_max_bytes(), and the heap's own limit holds;
 * past either the allocation fails through mem_fail (OutOfMemory, SPEC_NOTES 4.18), so a
 * count that comes from dims (an empty tensor's other dims may be near 2^63) ends in a clean
 * error. A count of 0 gives a valid block. Every size a kernel derives from user input goes
 * through here. */
void *tensor_scratch(int64_t count, size_t size);
/* The same for blocks of pointers (scanned, zeroed). */
void *tensor_scratch_ptrs(int64_t count, size_t size);

/* Scalar dtypes a tensor can hold: bool, int8..64, uint8..64, float16/32/64, bfloat16. */
bool tensor_dtype_supported(DataType dtype);

/* The element count of a shape, or -1 when a dim is negative, the product overflows, or the
 * data would pass tensor_max_bytes() for this dtype. */
int64_t tensor_shape_numel(DataType dtype, int ndim, const int64_t *shape);

/* A zeroed tensor; NULL for an unsupported dtype, a bad rank, a negative dim or a size over
 * the limits (the caller raises the error it finds fitting). */
Tensor *tensor_new(DataType dtype, int ndim, const int64_t *shape);
/* The same with the elements left unset, for a kernel that writes every one of them before
 * the tensor is seen (it saves a pass over memory a large result would otherwise take). */
Tensor *tensor_new_uninit(DataType dtype, int ndim, const int64_t *shape);
/* Why tensor_new refuses this dtype and shape, for a message: the dtype, the rank, a
 * negative dim, or the size against the limit (--max-tensor-bytes). */
const char *tensor_new_refusal(DataType dtype, int ndim, const int64_t *shape);
/* A tensor over `numel * dtype_bytes` bytes of someone else's memory at base + byte_offset:
 * writes through it are seen by every other view of those bytes. NULL as tensor_new. */
Tensor *tensor_view(void *base, int64_t byte_offset, DataType dtype, int ndim,
                    const int64_t *shape);
/* A fresh tensor with the same dtype, shape and contents. */
Tensor *tensor_copy(const Tensor *t);
/* A fresh tensor holding a constant's data; the constant itself is never shared. */
Tensor *tensor_from_const(const ConstData *c);

int64_t tensor_numel(const Tensor *t);
size_t tensor_nbytes(const Tensor *t);
bool tensor_shape_equal(const Tensor *a, const Tensor *b);
bool tensor_has_shape(const Tensor *t, int ndim, const int64_t *shape);

/* Element access at a flat row-major index. Reading converts exactly to the result type
 * (uint64 above 2^63 reads as its two's-complement int64; large int64 read as double rounds
 * once). Writing converts once into the dtype:
 *   integers wrap modulo 2^bits; a double is first truncated toward zero (NaN gives 0);
 *   floats round to nearest, ties to even, in the dtype's own format;
 *   bool stores 1 for any non-zero value (NaN included) and 0 otherwise. */
double tensor_get_f64(const Tensor *t, int64_t i);
int64_t tensor_get_i64(const Tensor *t, int64_t i);
uint64_t tensor_get_u64(const Tensor *t, int64_t i);
void tensor_set_f64(Tensor *t, int64_t i, double v);
void tensor_set_i64(Tensor *t, int64_t i, int64_t v);

/* Bulk conversions of every element, one dtype dispatch per call. */
void tensor_read_f64(const Tensor *t, double *out);
void tensor_write_f64(Tensor *t, const double *in);
void tensor_read_i64(const Tensor *t, int64_t *out);
void tensor_write_i64(Tensor *t, const int64_t *in);
void tensor_fill_f64(Tensor *t, double v);
/* Every element set to v as tensor_set_i64 sets one. */
void tensor_fill_i64(Tensor *t, int64_t v);
/* The same for the `count` elements from flat index `start`, so that a kernel can stream a
 * large tensor through a small buffer. */
void tensor_read_f64_range(const Tensor *t, int64_t start, int64_t count, double *out);
void tensor_write_f64_range(Tensor *t, int64_t start, int64_t count, const double *in);
void tensor_read_i64_range(const Tensor *t, int64_t start, int64_t count, int64_t *out);
void tensor_write_i64_range(Tensor *t, int64_t start, int64_t count, const int64_t *in);

/* The same conversions for one scalar, for PrimValues and constants: the value a double or
 * an int64 becomes once stored in `dtype`. */
double tensor_round_f64(DataType dtype, double v);
int64_t tensor_wrap_i64(DataType dtype, int64_t v);
/* The integer a double becomes once stored in an integer or bool dtype. */
int64_t tensor_f64_to_int(DataType dtype, double v);

#endif
