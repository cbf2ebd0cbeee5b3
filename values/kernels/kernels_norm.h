/* kernels_norm: exact kernels of group_norm, instance_norm, rms_norm, the losses
 * (cross_entropy_with_logits, nll_loss) and pixel_shuffle. SPEC_NOTES: "Operators"
 * (OP-nn.group_norm and the rows after it). */
#ifndef RELAX_VALUES_KERNELS_NORM_H
#define RELAX_VALUES_KERNELS_NORM_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

/* Every kernel writes into an output tensor the caller made with the right dtype and shape;
 * floats are computed in double and rounded into the output's dtype where the kernel says. */

typedef struct NormAffine {
    double epsilon;
    bool center; /* add beta */
    bool scale;  /* multiply by gamma */
} NormAffine;

/* group_norm: the channel axis split into num_groups groups, each group normalized over its
 * channels and the given axes (distinct, non-negative, not the channel axis) with the biased
 * variance; gamma and beta are indexed by channel. The caller checked that num_groups
 * divides the channel count. float16 rounds where TVM's lowering does (see the .c). */
void kernels_norm_group(const Tensor *x, const Tensor *gamma, const Tensor *beta, int channel_axis,
                        int64_t num_groups, const int *axes, int naxes, const NormAffine *opt,
                        Tensor *out);

/* instance_norm: normalized over the given axes, gamma and beta indexed by channel. */
void kernels_norm_instance(const Tensor *x, const Tensor *gamma, const Tensor *beta,
                           int channel_axis, const int *axes, int naxes, const NormAffine *opt,
                           Tensor *out);

/* rms_norm: x / sqrt(mean(x^2 over the axes) + epsilon) * weight, the weight indexed by the
 * coordinates on the axes in their given order. */
void kernels_norm_rms(const Tensor *x, const Tensor *weight, const int *axes, int naxes,
                      double epsilon, Tensor *out);

/* cross_entropy_with_logits: -sum(x y), divided by the first dim when the rank is above 1.
 * Integers sum in wrapping int64 and divide truncating; false when that divisor is 0. */
bool kernels_norm_cross_entropy(const Tensor *x, const Tensor *y, Tensor *out);

typedef enum NllReduction { NLL_NONE, NLL_SUM, NLL_MEAN } NllReduction;

/* nll_loss as TVM's topi: per target t (not ignore_index) -predictions[n, t, ...] * w[t];
 * none keeps them (0 where ignored), sum adds them, mean divides that sum by the sum of the
 * weights of the targets not ignored. weights may be NULL (all ones). The shapes were
 * checked by the caller. Returns -1, or the flat index of a target outside [0, C). */
int64_t kernels_norm_nll_loss(const Tensor *pred, const Tensor *targets, const Tensor *weights,
                              NllReduction reduction, int64_t ignore_index, Tensor *out);

/* pixel_shuffle: out[..., c, h, w] = x[..., c r^2 + (h mod r) r + (w mod r), h / r, w / r]
 * over the last three axes; any dtype, elements copied. */
void kernels_norm_pixel_shuffle(const Tensor *x, int64_t r, Tensor *out);

#endif
