/* kernels_window: sliding-window kernels of any spatial rank (1 to 3): convolution, transposed
 * convolution, max/avg pooling and adaptive average pooling, in the canonical layouts
 * (data N C <spatial>, weight O I <spatial>, transposed weight I O <spatial>), and the moves
 * of a tensor between another layout (permuted or packed, as NCHW4c) and the canonical one.
 * SPEC_NOTES: "Operators" (OP-nn.conv1d, OP-nn.conv2d, OP-nn.conv2d_transpose, ...). */
#ifndef RELAX_VALUES_KERNELS_WINDOW_H
#define RELAX_VALUES_KERNELS_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

#define WINDOW_MAX_SPATIAL 3
/* The most axes a layout may have, its sub-axes counted (NCHW4c has 5). */
#define WINDOW_MAX_AXES 16

/* How the axes of a layout make up those of its canonical layout (tir::BijectiveLayout): the
 * canonical index along axis a is the sum, over the layout axes j with canon[j] == a, of
 * index j times weight[j]. A primal axis weighs the product of its sub-axes' factors, a
 * sub-axis the product of the factors of the sub-axes of its letter after it (NCHW2c4c:
 * C = C' 8 + c 4 + c'). A plain permutation has one axis of weight 1 per canonical axis. */
typedef struct WindowAxes {
    int ndim;       /* the layout's axes */
    int canon_ndim; /* the canonical layout's axes */
    int canon[WINDOW_MAX_AXES];
    int64_t weight[WINDOW_MAX_AXES];
} WindowAxes;

/* `t`, shaped by the layout, rewritten in canonical order into `out` (its shape the canonical
 * one the layout's shape implies). Elements are copied bit for bit. */
void kernels_window_to_canonical(const Tensor *t, const WindowAxes *a, Tensor *out);
/* `t`, in canonical order, rewritten into `out` shaped by the layout; positions of `out` past a
 * canonical extent (a factor that does not divide it) are zero, as topi's layout_transform
 * pads. */
void kernels_window_from_canonical(const Tensor *t, const WindowAxes *a, Tensor *out);

/* A convolution's geometry per spatial axis; pad_lo/pad_hi are the front and back padding. */
typedef struct WindowConv {
    int nsp; /* spatial axes, 1 to 3 */
    int64_t strides[WINDOW_MAX_SPATIAL];
    int64_t dilation[WINDOW_MAX_SPATIAL];
    int64_t pad_lo[WINDOW_MAX_SPATIAL];
    int64_t pad_hi[WINDOW_MAX_SPATIAL];
    int64_t out_pad[WINDOW_MAX_SPATIAL]; /* transposed convolution only */
    int64_t groups;
    bool transpose;
} WindowConv;

/* What an extent function returns when a step of its formula overflows int64 (a negative
 * extent, which no shape fits). */
#define WINDOW_EXTENT_OVERFLOW INT64_MIN

/* One output extent of a convolution or pooling window: floor((in + pads - dilation (k - 1)
 * - 1 [+ stride - 1 in ceil mode]) / stride) + 1, for stride > 0. */
int64_t kernels_window_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pads,
                              bool ceil_mode);
/* One output extent of a transposed convolution: (in - 1) stride - pads + dilation (k - 1)
 * + out_pad + 1. */
int64_t kernels_window_transpose_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                                        int64_t pads, int64_t out_pad);

/* The canonical output shape (N, O, spatial...), or false when the shapes or parameters do
 * not fit (channels, groups, non-positive strides or dilation, output padding not below the
 * stride, an empty output). */
bool kernels_window_conv_shape(const int64_t *dshape, const int64_t *wshape, const WindowConv *p,
                               int64_t *out);
/* Sums products in double (floats) or in wrapping 64-bit integers (integer outputs); padded
 * taps contribute zero. */
void kernels_window_conv(const Tensor *data, const Tensor *weight, const WindowConv *p,
                         Tensor *out);

typedef struct WindowPool {
    int nsp;
    int64_t pool_size[WINDOW_MAX_SPATIAL];
    int64_t strides[WINDOW_MAX_SPATIAL];
    int64_t dilation[WINDOW_MAX_SPATIAL];
    int64_t pad_lo[WINDOW_MAX_SPATIAL];
    int64_t pad_hi[WINDOW_MAX_SPATIAL];
    bool ceil_mode;
    bool count_include_pad;
} WindowPool;

/* One pooled extent along spatial axis k; in ceil mode a last window that would start inside
 * the back padding is dropped (as pool2d, TVM's rule after v0.22). */
int64_t kernels_window_pool_extent(int64_t in, const WindowPool *p, int k);
bool kernels_window_pool_shape(const int64_t *dshape, const WindowPool *p, int64_t *out);
/* Max ignores padded taps (a window with no input tap gives -inf); avg divides the sum of
 * the input taps by their count, or with count_include_pad by the taps inside the padded
 * input. Computed in double and rounded once. */
void kernels_window_pool(const Tensor *data, const WindowPool *p, bool is_max, Tensor *out);
/* Adaptive average pooling to out's spatial dims: output index o of an axis averages input
 * [floor(o in / out), ceil((o + 1) in / out)). */
void kernels_window_adaptive_avg(const Tensor *data, Tensor *out);
/* The elements the adaptive pooling of data to out_shape reads (for LIMIT-fuel): per axis the
 * windows' lengths summed, multiplied over the axes and by N and C; -1 on an overflow (the
 * output cannot be made then either); 0 for an empty output. */
int64_t kernels_window_adaptive_reads(const Tensor *data, const int64_t *out_shape);

#endif
