/* exp_exhaustive: the proof behind kernels_exp's fast path. For every one of the 2^32
 * float32 bit patterns x, kernels_exp((double)x), and kernels_exp_many over x in batches,
 * must be the very double the C library's exp((double)x) returns (every NaN counting as one
 * NaN). Prints the count of differences (0 is the only passing result) and exits non-zero
 * when there is one. Minutes of one core: not run by the tests, which check a sample
 * (tools/tests/values/test_kernels_exp.c).
 * Build: cmake --build build --target exp_exhaustive; run: build/exp_exhaustive. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "values/kernels/kernels_exp.h"

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

int main(void)
{
    enum { BATCH = 4096 };
    static double xs[BATCH], many[BATCH];
    uint64_t differ = 0, checked = 0;
    for (uint64_t base = 0; base <= UINT32_MAX; base += BATCH) {
        for (int i = 0; i < BATCH; i++) {
            uint32_t b = (uint32_t)(base + (uint64_t)i);
            float f;
            memcpy(&f, &b, sizeof f);
            xs[i] = f;
        }
        kernels_exp_many(xs, many, BATCH);
        for (int i = 0; i < BATCH; i++) {
            double x = xs[i], fast = kernels_exp(x), want = exp(x);
            checked++;
            if (same(fast, want) && same(many[i], want))
                continue;
            if (differ++ < 20)
                printf("differs: x = %a, kernels_exp %a, kernels_exp_many %a, exp %a\n", x, fast,
                       many[i], want);
        }
    }
    printf("exp_exhaustive: %" PRIu64 " float32 arguments, %" PRIu64 " differences\n", checked,
           differ);
    return differ == 0 ? 0 : 1;
}
