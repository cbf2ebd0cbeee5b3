/* kernels_manip: naive exact kernels of the creation, manipulation, linear algebra and
 * statistical operators, on tensors only. SPEC_NOTES: "Operators" (OP-* rules). */
#ifndef RELAX_VALUES_KERNELS_MANIP_H
#define RELAX_VALUES_KERNELS_MANIP_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

/* Every kernel returns a fresh tensor, or NULL with *err set to a message when an argument
 * breaks the operator's precondition (the caller raises OpPrecondition). Axes are already
 * normalized (non-negative, in range) unless stated otherwise. */

/* ---- layout helpers shared by the kernel files ---------------------------------------- */

/* Row-major strides (in elements) of a shape. */
void kernel_strides(int ndim, const int64_t *shape, int64_t *strides);
/* The source flat index of every element of a `shape`-shaped view whose axis i advances
 * `strides[i]` source elements, starting at `base`; numel entries in row-major order. NULL
 * when the element count overflows int64 (or its bytes size_t). */
int64_t *kernel_view_index(int ndim, const int64_t *shape, const int64_t *strides, int64_t base);
/* A fresh tensor of src's dtype with out[i] = src[idx[i]]. */
Tensor *kernel_gather(const Tensor *src, int ndim, const int64_t *shape, const int64_t *idx,
                      const char **err);
/* The strides that read `t` broadcast to the trailing dims of an `ndim`-dim shape (0 on
 * broadcast axes). `shape` is the target shape; t's dims must be 1 or equal. */
void kernel_broadcast_strides(const Tensor *t, int ndim, const int64_t *shape, int64_t *strides);

/* ---- creation ------------------------------------------------------------------------- */
Tensor *kernel_full(DataType dtype, int ndim, const int64_t *shape, bool is_float, double f,
                    int64_t i, const char **err);
/* numpy arange: ceil((end - start) / step) elements start + k * step. */
Tensor *kernel_arange(DataType dtype, bool is_float, double fstart, double fend, double fstep,
                      const char **err);
/* A float arange's element count, max(ceil((end - start) / step), 0); false for a zero or
 * NaN step or bound, or a count of 9e15 or more. */
bool kernel_arange_float_count(double start, double end, double step, int64_t *n);
/* An integer arange's element count, max(ceil((end - start) / step), 0), computed exactly;
 * false for a zero step or a count above INT64_MAX. */
bool kernel_arange_count(int64_t start, int64_t end, int64_t step, int64_t *n);
Tensor *kernel_arange_int(DataType dtype, int64_t start, int64_t end, int64_t step,
                          const char **err);
Tensor *kernel_eye(DataType dtype, int64_t n, int64_t m, int64_t k, const char **err);
/* Keeps the elements on and below (lower) / on and above (!lower) diagonal k of the last two
 * axes; zeroes the rest. */
Tensor *kernel_trilu(const Tensor *x, int64_t k, bool lower, const char **err);

/* ---- manipulation ---------------------------------------------------------------------- */
Tensor *kernel_reshape(const Tensor *x, int ndim, const int64_t *shape, const char **err);
Tensor *kernel_permute(const Tensor *x, const int *axes, const char **err);
Tensor *kernel_broadcast_to(const Tensor *x, int ndim, const int64_t *shape, const char **err);
Tensor *kernel_concat(Tensor *const *xs, int n, int axis, const char **err);
/* Pieces split at the (clamped) indices along axis: nidx + 1 tensors. */
Tensor **kernel_split(const Tensor *x, const int64_t *indices, int nidx, int axis,
                      const char **err);
Tensor *kernel_tile(const Tensor *x, const int64_t *reps, int nreps, const char **err);
/* axis < 0: repeat the flattened tensor. */
Tensor *kernel_repeat(const Tensor *x, int64_t repeats, int axis, const char **err);
Tensor *kernel_flip(const Tensor *x, int axis, const char **err);
/* numpy take; axis < 0: over the flattened tensor. mode "fast" rejects an out-of-range
 * index (after adding the axis length to a negative one), "clip" clamps, "wrap" wraps. */
Tensor *kernel_take(const Tensor *x, const Tensor *indices, int axis, const char *mode,
                    const char **err);
/* Python slicing per axis (begin/end clamped, negative strides allowed); `full_*` give one
 * entry per axis of x. */
/* The length of the clamped slice [b, e) by step s != 0 (Python's slice.indices): without
 * forming e - b + s - 1, which overflows for a step near 2^63. */
int64_t kernel_slice_count(int64_t b, int64_t e, int64_t s);
Tensor *kernel_strided_slice(const Tensor *x, const int64_t *begin, const int64_t *end,
                             const int64_t *strides, const char **err);
Tensor *kernel_where(const Tensor *cond, const Tensor *a, const Tensor *b, const char **err);
Tensor *kernel_astype(const Tensor *x, DataType dtype, const char **err);

/* ---- linear algebra -------------------------------------------------------------------- */
/* numpy matmul (1-D operands promoted and the added axis removed; batch dims broadcast). */
Tensor *kernel_matmul(const Tensor *a, const Tensor *b, DataType out_dtype, const char **err);
Tensor *kernel_outer(const Tensor *a, const Tensor *b, DataType out_dtype, const char **err);

/* ---- statistical ----------------------------------------------------------------------- */
typedef enum ReduceKind {
    REDUCE_SUM,
    REDUCE_MEAN,
    REDUCE_MAX,
    REDUCE_MIN,
    REDUCE_PROD,
    REDUCE_STD,
    REDUCE_VARIANCE,
} ReduceKind;

/* `reduced[i]`: axis i is reduced. The result keeps x's dtype. */
Tensor *kernel_reduce(const Tensor *x, ReduceKind kind, const bool *reduced, bool keepdims,
                      const char **err);
/* axis < 0: over the flattened tensor. */
Tensor *kernel_scan(const Tensor *x, int axis, bool product, bool exclusive, DataType dtype,
                    const char **err);
/* int64 indices of the first maximum (minimum); NaN counts as the extreme, as in numpy.
 * axis < 0: over the flattened tensor (keepdims gives all-ones dims). */
Tensor *kernel_arg_extreme(const Tensor *x, int axis, bool keepdims, bool is_max, const char **err);

#endif
