/* kernels_exp: exp of a double, bit for bit the C library's `exp`, faster on float32
 * arguments. SPEC_NOTES: "Operators" (the float kernels compute in double). */
#ifndef RELAX_VALUES_KERNELS_EXP_H
#define RELAX_VALUES_KERNELS_EXP_H

#include <stdint.h>

/* exp(x), the same double as the C library's `exp(x)` for every x: computed by a table and
 * a polynomial when x is a float32 value and the result lies clear of a rounding boundary
 * (all 2^32 float32 arguments checked by tools/bench/exp_exhaustive.c), else by `exp`. */
double kernels_exp(double x);

/* y[i] = kernels_exp(x[i]) for i < n, the same doubles, several arguments at a time (x and y
 * may be the same array). */
void kernels_exp_many(const double *x, double *y, int64_t n);

/* The fast path's exp(x) before its rounding to double, 2^scale (hi + lo), for x a float32
 * value with |x| < 700: for the tests of the accuracy its rounding check relies on. */
void kernels_exp_unrounded(double x, double *hi, double *lo, int *scale);

#endif
