/* kernels_pad: nn.pad's four modes: constant, reflect (numpy's reflect, the edge not
 * repeated), replicate (the edge repeated) and circular (wrapping). SPEC_NOTES: "Operators"
 * (OP-nn.pad). */
#ifndef RELAX_VALUES_KERNELS_PAD_H
#define RELAX_VALUES_KERNELS_PAD_H

#include <stdint.h>

#include "values/tensor.h"

typedef enum PadMode { PAD_CONSTANT, PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR } PadMode;

/* The source index of output index `o` along an axis of length n padded by `before`, or -1
 * for a constant pad position. */
int64_t kernels_pad_source(PadMode mode, int64_t o, int64_t before, int64_t n);
/* out has x's rank with dims n + before + after; constant positions get `value` (converted
 * once to the dtype). */
void kernels_pad(const Tensor *x, PadMode mode, const int64_t *before, double value, Tensor *out);

#endif
