/* kernels_gemm: the core of matmul, one (n x k) by (k x m) product in a fixed accumulation
 * order. SPEC_NOTES: "Operators" (OP-matmul). */
#ifndef RELAX_VALUES_KERNELS_GEMM_H
#define RELAX_VALUES_KERNELS_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "values/kernels/kernels_native.h"

typedef struct GemmDims {
    int64_t n, k, m;
} GemmDims;

/* c = a b, all row-major doubles: each element sums its k products in order from +0.0,
 * every step rounded to double (kernels_gemm.c states the guarantee). `exact_products`: the
 * caller knows every product a[r][t] * b[t][j] is exact in double. */
void kernels_gemm_f64(const double *a, const double *b, const GemmDims *d, bool exact_products,
                      double *c);
/* The same with wrap-around in uint64. */
void kernels_gemm_u64(const int64_t *a, const int64_t *b, const GemmDims *d, uint64_t *c);

#endif
