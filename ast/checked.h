/* checked: int64 arithmetic on sizes (dims, extents, strides, offsets, paddings, element
 * counts) that notes an overflow instead of wrapping. SPEC_NOTES: "Resource limits" (4.18).
 *
 * Every helper takes a sticky flag: on overflow it sets *overflow and returns 0, otherwise it
 * leaves the flag alone, so a whole formula is computed first and the flag tested once:
 *
 *     bool over = false;
 *     int64_t n = checked_add(checked_mul(d, k - 1, &over), pads, &over);
 *     if (over) ... report the operator's error ...
 *
 * A subexpression that overflowed is 0, so the rest of the formula stays defined. */
#ifndef RELAX_AST_CHECKED_H
#define RELAX_AST_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

static inline int64_t checked_add(int64_t a, int64_t b, bool *overflow)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *overflow = true;
        return 0;
    }
    return r;
}

static inline int64_t checked_sub(int64_t a, int64_t b, bool *overflow)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) {
        *overflow = true;
        return 0;
    }
    return r;
}

static inline int64_t checked_mul(int64_t a, int64_t b, bool *overflow)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *overflow = true;
        return 0;
    }
    return r;
}

static inline int64_t checked_neg(int64_t a, bool *overflow)
{
    return checked_sub(0, a, overflow);
}

/* floor(a / b) for b != 0 (INT64_MIN / -1 overflows). */
static inline int64_t checked_floordiv(int64_t a, int64_t b, bool *overflow)
{
    if (b == -1)
        return checked_neg(a, overflow);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* ceil(a / b) for b > 0, without forming a + b - 1. */
static inline int64_t checked_ceildiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a > 0) ? q + 1 : q;
}

/* The product of n values (an element count), 1 for none. */
static inline int64_t checked_product(const int64_t *v, int n, bool *overflow)
{
    int64_t r = 1;
    for (int i = 0; i < n; i++)
        r = checked_mul(r, v[i], overflow);
    return r;
}

/* The number of elements, or of steps, that n non-negative counts multiply to: 0 when any of
 * them is 0, however large the others (an empty tensor, a window over nothing: nothing is
 * touched), else their product, or -1 when it passes int64 (more than any budget). */
static inline int64_t checked_count(const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i] == 0)
            return 0;
    bool overflow = false;
    int64_t r = checked_product(v, n, &overflow);
    return overflow ? -1 : r;
}

#endif
