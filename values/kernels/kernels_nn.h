/* kernels_nn: naive exact kernels of the neural-network operators: activations, softmax,
 * normalizations, conv2d and pooling. SPEC_NOTES: "Operators" (OP-nn.*). */
#ifndef RELAX_VALUES_KERNELS_NN_H
#define RELAX_VALUES_KERNELS_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

/* Every kernel writes into an output tensor the caller made with the right dtype and shape;
 * floats are computed in double and rounded once into the output's dtype. */

typedef enum NnActivation {
    NN_ACT_RELU,      /* max(x, 0) */
    NN_ACT_RELU6,     /* min(max(x, 0), 6) */
    NN_ACT_GELU,      /* 0.5 x (1 + erf(x / sqrt 2)) */
    NN_ACT_GELU_TANH, /* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
    NN_ACT_SILU,      /* x sigmoid(x) */
} NnActivation;

/* relu and relu6 keep integer inputs integral (no rounding through double). */
void kernels_nn_activation(NnActivation act, const Tensor *x, Tensor *out);

/* softmax (or log_softmax) along `axis` (non-negative), max-subtracted, in double; every
 * element of `out` is written, so it may come uninitialized. */
void kernels_nn_softmax(const Tensor *x, int axis, bool log_form, Tensor *out);

typedef struct NnNormOptions {
    double epsilon;
    bool center; /* add beta */
    bool scale;  /* multiply by gamma */
    double momentum;
    bool training; /* batch_norm: statistics of this batch rather than the moving ones */
} NnNormOptions;

/* layer_norm over the distinct, non-negative axes; gamma and beta have the dims of those
 * axes in the order given. The variance is the biased one. */
void kernels_nn_layer_norm(const Tensor *x, const Tensor *gamma, const Tensor *beta,
                           const int *axes, int naxes, const NnNormOptions *opt, Tensor *out);

/* batch_norm along the channel `axis`; params are gamma, beta, moving_mean, moving_var (each
 * 1-D of the channel count). Writes the normalized tensor and the new moving statistics:
 * unchanged in inference mode, (1 - momentum) * moving + momentum * batch in training. */
void kernels_nn_batch_norm(const Tensor *x, const Tensor *const params[4], int axis,
                           const NnNormOptions *opt, Tensor *const outs[3]);

/* conv2d in NCHW/OIHW; padding is (top, left, bottom, right). */
typedef struct NnConv2d {
    int64_t strides[2];
    int64_t padding[4];
    int64_t dilation[2];
    int64_t groups;
} NnConv2d;

/* The output dims (N, O, H', W'), or false when the shapes or parameters do not fit (channel
 * mismatch, a non-positive stride, dilation or group count, an empty output). */
bool kernels_nn_conv2d_shape(const int64_t dshape[4], const int64_t wshape[4], const NnConv2d *p,
                             int64_t out[4]);
void kernels_nn_conv2d(const Tensor *data, const Tensor *weight, const NnConv2d *p, Tensor *out);

/* 2-D pooling in NCHW; padding is (top, left, bottom, right). */
typedef struct NnPool2d {
    int64_t pool_size[2];
    int64_t strides[2];
    int64_t dilation[2];
    int64_t padding[4];
    bool ceil_mode;
    bool count_include_pad;
} NnPool2d;

/* One spatial output extent: floor (or ceil) of (in + pads - dilation (k - 1) - 1) / stride
 * plus 1; in ceil mode a last window starting inside the bottom/right padding is dropped. */
int64_t kernels_nn_pool_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                               const int64_t pad[2], bool ceil_mode);
bool kernels_nn_pool2d_shape(const int64_t dshape[4], const NnPool2d *p, int64_t out[4]);
/* Max ignores padded positions; avg divides by the taps inside the input (or inside the
 * padded input with count_include_pad). */
void kernels_nn_max_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out);
void kernels_nn_avg_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out);

#endif
