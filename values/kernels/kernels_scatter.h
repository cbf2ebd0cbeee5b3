/* kernels_scatter: exact kernels of the indexing and scatter operators: gather_elements,
 * gather_nd, index_tensor, scatter_elements, scatter_nd, index_put, slice_scatter, one_hot,
 * nonzero, bucketize and meshgrid. SPEC_NOTES: "Operators" (OP-gather_elements and the rows
 * after it). */
#ifndef RELAX_VALUES_KERNELS_SCATTER_H
#define RELAX_VALUES_KERNELS_SCATTER_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

/* Every kernel returns a fresh tensor (meshgrid: an array of them), or NULL with *err set when
 * an argument breaks the operator's precondition; the caller raises OpPrecondition. Axes are
 * already normalized. Index tensors are of any integer dtype. An index read outside its axis
 * is an error (TVM v0.22 reads or writes out of bounds there: undefined). */

/* How a scatter combines the element in place with an update, in the element's dtype. */
typedef enum ScatterReduce {
    SCATTER_UPDATE,
    SCATTER_ADD,
    SCATTER_MUL,
    SCATTER_MEAN, /* (old + update) / 2; integer division truncates */
    SCATTER_MIN,
    SCATTER_MAX,
} ScatterReduce;

/* The reduction a name denotes ("update", "add", "mul", "mean", "min", "max"). */
bool kernel_scatter_reduce_of(const char *name, ScatterReduce *out);

/* out[p] = data[p with p[axis] replaced by indices[p]]; out has the indices' shape. */
Tensor *kernel_gather_elements(const Tensor *data, const Tensor *indices, int axis,
                               const char **err);
/* indices of shape (B..., Y..., M): out[b, y, r] = data[b, indices[b, y, 0..M-1], r]. */
Tensor *kernel_gather_nd(const Tensor *data, const Tensor *indices, int batch_dims,
                         const char **err);
/* data[I0, ..., Ik-1] with the index tensors broadcast together (numpy advanced indexing). */
Tensor *kernel_index_tensor(const Tensor *data, Tensor *const *indices, int n, const char **err);

/* A copy of data where, for every position p of indices, the element at p with p[axis]
 * replaced by indices[p] (a negative index counted once from the end) is combined with
 * updates[p]; positions in row-major order. */
Tensor *kernel_scatter_elements(const Tensor *data, const Tensor *indices, const Tensor *updates,
                                int axis, ScatterReduce r, const char **err);
/* indices of shape (Y..., M): the slice data[indices[y, 0..M-1]] combined with updates[y]. */
Tensor *kernel_scatter_nd(const Tensor *data, const Tensor *indices, const Tensor *updates,
                          ScatterReduce r, const char **err);
/* n 1-D index tensors of one length L, one per axis of data (negative counted once from the
 * end); the k-th addressed element is set to (or, accumulating, added) values' k-th element in
 * row-major order (values has L elements). */
Tensor *kernel_index_put(const Tensor *data, Tensor *const *indices, int n, const Tensor *values,
                         bool accumulate, const char **err);
/* The positions start, start + step, ... below end of one axis (start and end not counted
 * from the end). */
typedef struct SliceRange {
    int64_t start, end, step;
} SliceRange;
/* out[.., i, ..] along axis = src[.., (i - start) / step, ..] where i is in the range, else
 * data; src's axis has ceil((end - start) / step) elements. */
Tensor *kernel_slice_scatter(const Tensor *data, const Tensor *src, int axis, const SliceRange *r,
                             const char **err);

/* The on and off values of one_hot, held as the result dtype holds them. */
typedef struct OneHotValues {
    DataType dtype;
    bool is_float;
    double f_on, f_off;
    int64_t i_on, i_off;
} OneHotValues;
/* A new axis `axis` of length depth: on where the index equals the position, else off. */
Tensor *kernel_one_hot(const Tensor *indices, const OneHotValues *v, int64_t depth, int axis,
                       const char **err);
/* int64 (max(ndim, 1), count): the coordinates of the non-zero elements in row-major order
 * (a 0-d tensor counts as 1-d). */
Tensor *kernel_nonzero(const Tensor *x, const char **err);
/* For each element, TVM's binary search in the 1-D boundaries: the count of boundaries
 * below it (right: at or below it) when they increase. */
Tensor *kernel_bucketize(const Tensor *x, const Tensor *boundaries, DataType out_dtype, bool right,
                         const char **err);
/* n grids of 1-D inputs; xy swaps the first two axes of every grid. */
Tensor **kernel_meshgrid(Tensor *const *xs, int n, bool xy, const char **err);

#endif
