/* kernels_native: loops in a tensor's own machine type for the elementwise kernels' common
 * cases, exactly equal to the double / int64 path they shortcut. SPEC_NOTES: "Operators". */
#ifndef RELAX_VALUES_KERNELS_NATIVE_H
#define RELAX_VALUES_KERNELS_NATIVE_H

#include <stdbool.h>

#include "values/kernels/kernels_elemwise.h"
#include "values/kernels/kernels_vector.h"
#include "values/tensor.h"

/* Whether kernels_native_binary computes op on operands of this dtype. */
bool kernels_native_supports(KernelBinaryOp op, DataType dtype);

/* a op b into `out` (already of the broadcast shape and the result dtype) when the operands'
 * dtype and the operator have a native loop; false, with `out` untouched, when they have
 * not. Never fails otherwise: the operators it takes raise no error. */
bool kernels_native_binary(KernelBinaryOp op, const Tensor *a, const Tensor *b, Tensor *out);

#endif
