/* test_kernels_exp: kernels_exp returns the C library's exp bit for bit: on a sample of the
 * float32 arguments (tools/bench/exp_exhaustive.c checks all 2^32), on the boundaries of its
 * fast range and on arguments that are not float32 values; and its fast path is as accurate
 * as its rounding check needs. SPEC_NOTES: "Operators". */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tools/tests/unit.h"
#include "values/kernels/kernels_exp.h"

/* Every 4099th bit pattern (odd, so every exponent and low mantissa bits are met): about a
 * million arguments. */
static void test_sampled_float32(void)
{
    int64_t differ = 0;
    for (uint64_t bits = 0; bits <= UINT32_MAX; bits += 4099) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        differ += !unit_same_double(kernels_exp(f), exp(f));
    }
    CU_ASSERT_EQUAL(differ, 0);
}

/* The fast path keeps its result only where no rounding boundary lies within 2^-58 of its
 * unrounded value; that is exp's result only if the unrounded value is much closer than that
 * to exp(x). It is measured against the long double exp (64 significant bits, itself within
 * about 2^-63), on the same sample: within 2^-61, a quarter of the window. */
static void test_unrounded_accuracy(void)
{
    if (LDBL_MANT_DIG < 64) {
        CU_PASS("long double is too narrow to measure against");
        return;
    }
    int64_t beyond = 0;
    long double worst = 0;
    for (uint64_t bits = 0; bits <= UINT32_MAX; bits += 4099) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        if (!(fabsf(f) < 700.0f))
            continue;
        double hi, lo;
        int scale;
        kernels_exp_unrounded(f, &hi, &lo, &scale);
        long double want = expl((long double)f);
        long double got = ldexpl((long double)hi + (long double)lo, scale);
        long double err = fabsl(got - want) / want;
        worst = err > worst ? err : worst;
        beyond += err > 0x1p-61L;
    }
    CU_ASSERT_EQUAL(beyond, 0);
    CU_ASSERT_TRUE(worst > 0); /* the comparison ran */
}

static void test_edges(void)
{
    const double xs[] = {0.0,
                         -0.0,
                         1.0,
                         -1.0,
                         699.99993896484375,
                         700.0,
                         -700.0,
                         709.5,
                         -745.0,
                         -746.0,
                         88.0,
                         -103.0,
                         1e-30,
                         -1e-30,
                         0x1p-149,
                         INFINITY,
                         -INFINITY,
                         NAN,
                         0.1,
                         -0.1, /* 0.1: not a float32 */
                         1.0 / 3.0,
                         0x1.62e42fefa39efp-1};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        CU_ASSERT_TRUE(unit_same_double(kernels_exp(xs[i]), exp(xs[i])));
    /* Near multiples of ln2/64, where the reduction's remainder is smallest. */
    for (int k = -6000; k <= 6000; k += 7) {
        float f = (float)(k * 0.010830424696249145);
        for (int d = -2; d <= 2; d++) {
            float g = nextafterf(f, d < 0 ? -INFINITY : INFINITY);
            CU_ASSERT_TRUE(unit_same_double(kernels_exp(d == 0 ? f : g), exp(d == 0 ? f : g)));
        }
    }
}

UNIT_SUITE(kernels_exp)
{
    CU_pSuite s = CU_add_suite("kernels exp", 0, 0);
    CU_add_test(s, "sampled float32 arguments", test_sampled_float32);
    CU_add_test(s, "edges and non-float32 arguments", test_edges);
    CU_add_test(s, "the unrounded fast path is within 2^-61 of exp", test_unrounded_accuracy);
}
