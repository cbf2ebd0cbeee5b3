/* kernels_native: loops in a tensor's own machine type for the elementwise kernels' common
 * cases, exactly equal to the double / int64 path they shortcut. SPEC_NOTES: "Operators". */
#ifndef RELAX_VALUES_KERNELS_NATIVE_H
#define RELAX_VALUES_KERNELS_NATIVE_H

#include <stdbool.h>

#include "values/kernels/kernels_elemwise.h"
#include "values/tensor.h"

/* A hot loop compiled for each vector unit of x86-64 (AVX-512, AVX2, the baseline), the one
 * the machine has chosen when the program loads. The results are the same on every one: the
 * loops' arithmetic is fixed by the C source (ISO C: no contraction, no reassociation). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define KERNELS_VECTOR_CLONES                                                                      \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KERNELS_VECTOR_CLONES
#endif

/* Lets GCC fuse a multiply and an add in a function where that cannot change a result (see
 * its comment); other compilers, which lack the attribute, keep them apart. */
#if defined(__GNUC__) && !defined(__clang__)
#define KERNELS_FP_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define KERNELS_FP_CONTRACT
#endif

/* Whether kernels_native_binary computes op on operands of this dtype. */
bool kernels_native_supports(KernelBinaryOp op, DataType dtype);

/* a op b into `out` (already of the broadcast shape and the result dtype) when the operands'
 * dtype and the operator have a native loop; false, with `out` untouched, when they have
 * not. Never fails otherwise: the operators it takes raise no error. */
bool kernels_native_binary(KernelBinaryOp op, const Tensor *a, const Tensor *b, Tensor *out);

#endif
