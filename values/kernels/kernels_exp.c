/* kernels_exp: exp of a double, bit for bit the C library's `exp`, faster on the arguments
 * that are float32 values (a float32 tensor's elements, their differences in softmax when
 * those are exact). SPEC_NOTES: "Operators" (the float kernels compute in double). */
#include "values/kernels/kernels_exp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "values/kernels/kernels_vector.h"

/* The fast path computes exp(x) as an unevaluated sum hi + lo whose error is far below one
 * part in 2^60, then rounds it to double. The C library's result is its own approximation
 * rounded once, so the two agree wherever no rounding boundary of double lies near exp(x):
 * the fast path keeps its result only when every value within 2^-58 of it (relative, wider
 * than both approximations' errors together) rounds to the same double, and otherwise calls
 * `exp`. That this gives exactly `exp`'s result for every float32 argument is not left to
 * the error analysis: tools/bench/exp_exhaustive.c compares the two on all 2^32 of them.
 * Every other argument goes to `exp` itself.
 *
 * exp(x) = 2^m * 2^(j/64) * exp(r), x = (64 m + j) ln2/64 + r, |r| <= ln2/128. ln2/64 is
 * split in three parts, the first two of 36 significant bits, so that k * part is exact for
 * |k| < 2^17 and x - k * L1 is exact (Sterbenz); 2^(j/64) is a 26-bit head plus a tail, so
 * that head * (a 26- or 27-bit half of r) is exact. The constants were computed with Python's
 * decimal and fractions modules at 80 digits. The file is compiled without contraction of
 * a * b + c into a fused multiply-add (-ffp-contract=off, CMakeLists.txt), which the exact
 * steps rely on. */

#define EXP_L1 0x1.62e42fefa0000p-7
#define EXP_L2 0x1.cf79abc9e0000p-46
#define EXP_L3 0x1.d9cc01f97b57ap-85
#define EXP_INV_L 0x1.71547652b82fep+6 /* 64 / ln2, rounded: k need only be near */
#define EXP_SHIFT 0x1.8p52             /* adding it rounds to an integer */
#define EXP_SPLIT 134217729.0          /* 2^27 + 1: Veltkamp's split into 26 and 27 bits */
/* Below this magnitude both results are normal doubles and |k| < 2^17. */
#define EXP_FAST_LIMIT 700.0

/* 2^(j/64) = head + tail, head with 26 significant bits. */
static const double EXP_TABLE[64][2] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.02c9a40000000p+0, -0x1.887f9f1190835p-28},
    {0x1.059b0d0000000p+0, 0x1.8ac2ba1d73e2ap-27},
    {0x1.0874518000000p+0, 0x1.d66f20230d7c9p-30},
    {0x1.0b55870000000p+0, -0x1.833b784eb3a37p-27},
    {0x1.0e3ec30000000p+0, 0x1.69e8d10103a17p-27},
    {0x1.11301d0000000p+0, 0x1.25b50a4ebbf1bp-32},
    {0x1.1429ab0000000p+0, -0x1.56d2204cbefe7p-28},
    {0x1.172b840000000p+0, -0x1.c15742919041cp-27},
    {0x1.1a35be8000000p+0, 0x1.b7e5ba9e5b4c8p-27},
    {0x1.1d48730000000p+0, 0x1.68b9aa7805b80p-28},
    {0x1.2063b88000000p+0, 0x1.8a3358ee3bac1p-30},
    {0x1.2387a70000000p+0, -0x1.8a9dc7993e052p-28},
    {0x1.26b4568000000p+0, -0x1.0ec1916d42cc6p-27},
    {0x1.29e9df8000000p+0, -0x1.70108f69ed175p-27},
    {0x1.2d285a8000000p+0, -0x1.1bfcf4bff6e2bp-28},
    {0x1.306fe08000000p+0, 0x1.18db8a96f46adp-27},
    {0x1.33c08b0000000p+0, 0x1.320b7fa64e431p-27},
    {0x1.371a738000000p+0, -0x1.8aac6ab1d7560p-29},
    {0x1.3a7db38000000p+0, -0x1.8d30048af21b7p-27},
    {0x1.3dea650000000p+0, -0x1.f6e5eee525f6fp-27},
    {0x1.4160a20000000p+0, 0x1.f72e29f84325cp-28},
    {0x1.44e0860000000p+0, 0x1.8624b40c4dbd0p-30},
    {0x1.486a2b8000000p+0, -0x1.1f6197f61f2e2p-27},
    {0x1.4bfdad8000000p+0, -0x1.64eaec715e343p-27},
    {0x1.4f9b278000000p+0, -0x1.62d35952cc275p-28},
    {0x1.5342b58000000p+0, -0x1.62b07e20f57c4p-28},
    {0x1.56f4738000000p+0, -0x1.4ad8259913500p-28},
    {0x1.5ab07e0000000p+0, -0x1.5bd5eb539b67fp-27},
    {0x1.5e76f18000000p+0, -0x1.296f5bc8b20dap-27},
    {0x1.6247eb0000000p+0, 0x1.d2ac258f87d03p-31},
    {0x1.6623880000000p+0, 0x1.2a91124893ecfp-27},
    {0x1.6a09e68000000p+0, -0x1.80c4336f74d05p-28},
    {0x1.6dfb240000000p+0, -0x1.cd72e886ef8eap-27},
    {0x1.71f75e8000000p+0, 0x1.d8bee7ba46e1ep-29},
    {0x1.75feb58000000p+0, -0x1.bd98374091656p-28},
    {0x1.7a11470000000p+0, 0x1.f580c36bea881p-27},
    {0x1.7e2f338000000p+0, -0x1.30b19defa2fd4p-28},
    {0x1.8258998000000p+0, 0x1.4cce128acf88bp-28},
    {0x1.868d998000000p+0, 0x1.a2497640720edp-27},
    {0x1.8ace540000000p+0, 0x1.15506dadd3e2bp-27},
    {0x1.8f1ae98000000p+0, 0x1.1577362b98274p-28},
    {0x1.93737b0000000p+0, 0x1.9b8bc9e8a0388p-29},
    {0x1.97d82a0000000p+0, -0x1.0d8d83a30b6f8p-31},
    {0x1.9c49180000000p+0, 0x1.51f8480e3e236p-27},
    {0x1.a0c6678000000p+0, 0x1.aef2b2594d6d4p-27},
    {0x1.a5503b0000000p+0, 0x1.1f12ae45a1225p-27},
    {0x1.a9e6b58000000p+0, -0x1.4301205e0a6dep-27},
    {0x1.ae89f98000000p+0, 0x1.5ad3ad5e8734dp-28},
    {0x1.b33a2b8000000p+0, 0x1.3c57ebdaff43ap-30},
    {0x1.b7f76f0000000p+0, 0x1.7daf237553d84p-27},
    {0x1.bcc1e90000000p+0, 0x1.2f074891ee83dp-30},
    {0x1.c199be0000000p+0, -0x1.3d56b1eeef9a7p-27},
    {0x1.c67f130000000p+0, -0x1.a82eb4b5dec80p-28},
    {0x1.cb720e0000000p+0, -0x1.8837cb757e1a1p-27},
    {0x1.d072d48000000p+0, 0x1.03c4bdc687918p-27},
    {0x1.d5818e0000000p+0, -0x1.822dbc6d12fd3p-27},
    {0x1.da9e600000000p+0, 0x1.ed9942b84600dp-27},
    {0x1.dfc9730000000p+0, 0x1.bdcdaf5cb4656p-27},
    {0x1.e502ee8000000p+0, -0x1.d30027630bb40p-30},
    {0x1.ea4afa0000000p+0, 0x1.52486cc2c7b9dp-27},
    {0x1.efa1bf0000000p+0, -0x1.9ea5d888e02dep-28},
    {0x1.f507658000000p+0, 0x1.b722a033a7c26p-27},
    {0x1.fa7c180000000p+0, 0x1.9e90d82e90a7ep-28},
};

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* exp(x) for |x| < EXP_FAST_LIMIT as 2^m (*hi + *lo), |*lo| <= ulp(*hi) / 2, with a relative
 * error far below 2^-60 (test_kernels_exp.c measures it against a long double exp). For
 * other x, garbage without undefined behaviour: a float conversion overflows to infinity
 * (IEC 60559), the integers wrap as unsigned. Straight-line code, without a branch or a
 * call, so that a loop over many arguments compiles to vector instructions doing the very
 * same operations. */
static inline void exp_parts(double x, double *hi, double *lo, int64_t *m)
{
    /* k = round(x 64 / ln2), read from the low bits of the shifted sum. */
    double kd = x * EXP_INV_L + EXP_SHIFT;
    int64_t k = (int64_t)(bits_of(kd) - bits_of(EXP_SHIFT));
    kd -= EXP_SHIFT;
    /* r = x - k ln2/64 as rh + rl: the first step is exact, the second a two-sum. */
    double s = x - kd * EXP_L1;
    double b = -(kd * EXP_L2);
    double rh = s + b;
    double bb = rh - s;
    double rl = (s - (rh - bb)) + (b - bb) - kd * EXP_L3;
    /* exp(r) - 1 - r, to r^7 / 7! (the next term is below 2^-75). */
    double q =
        rh * rh *
        (0.5 + rh * (1.0 / 6 + rh * (1.0 / 24 + rh * (1.0 / 120 + rh * (1.0 / 720 + rh / 5040)))));
    double t = rh * EXP_SPLIT;
    double r1 = t - (t - rh);
    double r2 = rh - r1;
    int64_t j = k & 63;
    double th = EXP_TABLE[j][0], tl = EXP_TABLE[j][1];
    /* T (1 + r + q) = th + th r1 + [th r2 + th rl + th q + tl (1 + r + q)]: the first two
     * summed exactly (a two-sum), the bracket, about 2^-7 of the whole, in double. */
    double p = th * r1;
    double h = th + p;
    double pp = h - th;
    double e = (th - (h - pp)) + (p - pp);
    double l = e + th * r2 + th * rl + th * q + tl * (1.0 + rh + q);
    *hi = h + l;
    *lo = l - (*hi - h);
    *m = (k - j) / 64;
}

/* The fast path for one argument: exp(x), or, when `*bad` comes back non-zero, a value to
 * throw away (x is not a float32 value, lies outside the fast range, or its exp lies near a
 * rounding boundary). The result is kept when every value within 2^-58 of hi + lo (relative,
 * wider than both approximations' errors together) rounds to the same double. */
static inline double exp_fast(double x, int64_t *bad)
{
    int64_t outside = !(fabs(x) < EXP_FAST_LIMIT);
    int64_t not_f32 = (double)(float)x != x;
    double hi, lo;
    int64_t m;
    exp_parts(x, &hi, &lo, &m);
    double w = hi * 0x1p-58;
    double below = hi + (lo - w), above = hi + (lo + w);
    *bad = outside | not_f32 | (below != above);
    /* 2^m: exact, the result being a normal double in this range. */
    return below * from_bits((uint64_t)(1023 + m) << 52);
}

void kernels_exp_unrounded(double x, double *hi, double *lo, int *scale)
{
    int64_t m;
    exp_parts(x, hi, lo, &m);
    *scale = (int)m;
}

double kernels_exp(double x)
{
    /* Only float32 arguments are proven; the rest, and the far ranges, go to exp at once. */
    if (!(fabs(x) < EXP_FAST_LIMIT) || (double)(float)x != x)
        return exp(x);
    int64_t bad;
    double y = exp_fast(x, &bad);
    return bad ? exp(x) : y;
}

/* The fast path in blocks, each a loop without a branch, then `exp` for the arguments the
 * block's fast path left. A block's arguments are copied first: y may be x. */
KERNELS_VECTOR_CLONES void kernels_exp_many(const double *x, double *y, int64_t n)
{
    enum { BLOCK = 256 };
    double xb[BLOCK];
    int64_t bad[BLOCK];
    for (int64_t at = 0; at < n; at += BLOCK) {
        int64_t len = n - at < BLOCK ? n - at : BLOCK, any = 0;
        memcpy(xb, x + at, sizeof(double) * (size_t)len);
        for (int64_t i = 0; i < len; i++) {
            y[at + i] = exp_fast(xb[i], &bad[i]);
            any |= bad[i];
        }
        for (int64_t i = 0; any && i < len; i++)
            if (bad[i])
                y[at + i] = exp(xb[i]);
    }
}
