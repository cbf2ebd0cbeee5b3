/* exp_exhaustive: the proof behind kernels_exp's fast path. For every one of the 2^32
 * float32 bit patterns x, kernels_exp((double)x) must be the very double the C library's
 * exp((double)x) returns (every NaN counting as one NaN). Prints the count of differences
 * (0 is the only passing result) and exits non-zero when there is one. Minutes of one core:
 * not run by the tests, which check a sample (tools/tests/values/test_kernels_exp.c).
 * Build: cmake --build build --target exp_exhaustive; run: build/exp_exhaustive. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "values/kernels/kernels_exp.h"

int main(void)
{
    uint64_t differ = 0, checked = 0;
    for (uint64_t bits = 0; bits <= UINT32_MAX; bits++) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        double x = f, fast = kernels_exp(x), want = exp(x);
        checked++;
        if (memcmp(&fast, &want, sizeof fast) == 0 || (isnan(fast) && isnan(want)))
            continue;
        if (differ++ < 20)
            printf("differs: x = %a, kernels_exp %a, exp %a\n", x, fast, want);
    }
    printf("exp_exhaustive: %" PRIu64 " float32 arguments, %" PRIu64 " differences\n", checked,
           differ);
    return differ == 0 ? 0 : 1;
}
