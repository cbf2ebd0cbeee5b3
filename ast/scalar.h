/* scalar: exact conversions for the 16-bit float formats stored in tensors and constants.
 * SPEC_NOTES: "float16 and bfloat16". */
#ifndef RELAX_AST_SCALAR_H
#define RELAX_AST_SCALAR_H

#include <stdint.h>

/* IEEE 754 binary16; the narrowing conversions round to nearest, ties to even. */
float scalar_half_to_float(uint16_t h);
uint16_t scalar_float_to_half(float f);
uint16_t scalar_double_to_half(double d);
/* bfloat16: the top half of a binary32. */
float scalar_bfloat_to_float(uint16_t b);
uint16_t scalar_float_to_bfloat(float f);
/* Rounds straight from the double, so no intermediate float rounding intervenes. */
uint16_t scalar_double_to_bfloat(double d);

#endif
