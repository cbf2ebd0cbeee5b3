/* scalar: binary16 and bfloat16 conversions, exact and rounding once (ties to even).
 * SPEC_NOTES: "float16 and bfloat16". */
#include "ast/scalar.h"

#include <math.h>
#include <string.h>

float scalar_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    float f;
    if (exp == 0) {
        f = ldexpf((float)mant, -24); /* zero or subnormal: exact */
        uint32_t bits;
        memcpy(&bits, &f, 4);
        bits |= sign;
        memcpy(&f, &bits, 4);
        return f;
    }
    uint32_t bits;
    if (exp == 31)
        bits = sign | 0x7f800000u | (mant << 13); /* inf or nan, payload kept */
    else
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    memcpy(&f, &bits, 4);
    return f;
}

/* Rounds |d| (finite, non-negative) to the nearest binary16 magnitude, ties to even. */
static uint16_t half_magnitude(double a)
{
    if (a >= 65520.0) /* halfway between 65504 and 2^16 rounds to infinity */
        return 0x7c00u;
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    if (a == 0.0)
        return 0;
    /* Quantum: 2^(e-11) for normals (11 significant bits), 2^-24 for subnormals. */
    int q = e - 11 < -24 ? -24 : e - 11;
    double scaled = ldexp(a, -q); /* exact: a power-of-two scale */
    double r = nearbyint(scaled); /* default rounding mode: ties to even */
    (void)m;
    double v = ldexp(r, q);
    if (v >= 65520.0)
        return 0x7c00u;
    if (v < ldexp(1.0, -14)) /* subnormal (or rounded up to the smallest normal below) */
        return (uint16_t)ldexp(v, 24);
    int ve;
    double vm = frexp(v, &ve);
    uint32_t mant = (uint32_t)ldexp(vm, 11) - 1024u; /* drop the implicit bit */
    return (uint16_t)(((uint32_t)(ve - 1 + 15) << 10) | mant);
}

uint16_t scalar_double_to_half(double d)
{
    uint16_t sign = signbit(d) ? 0x8000u : 0;
    if (isnan(d))
        return (uint16_t)(sign | 0x7e00u);
    if (isinf(d))
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | half_magnitude(fabs(d)));
}

uint16_t scalar_float_to_half(float f)
{
    return scalar_double_to_half((double)f);
}

float scalar_bfloat_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t scalar_float_to_bfloat(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    if (isnan(f))
        return (uint16_t)((bits >> 16) | 0x0040u); /* quiet, sign kept */
    uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
    return (uint16_t)((bits + rounding) >> 16);
}

uint16_t scalar_double_to_bfloat(double d)
{
    if (isnan(d))
        return (uint16_t)((signbit(d) ? 0x8000u : 0) | 0x7fc0u);
    double a = fabs(d);
    double r = a;
    if (isfinite(a) && a != 0.0) {
        int e;
        frexp(a, &e);
        int q = e - 8 < -133 ? -133 : e - 8; /* 8 significant bits; subnormals at 2^-133 */
        r = ldexp(nearbyint(ldexp(a, -q)), q);
    }
    float f = r >= ldexp(1.0, 128) ? INFINITY : (float)r; /* exact: r has at most 8 bits */
    return scalar_float_to_bfloat(signbit(d) ? -f : f);
}
