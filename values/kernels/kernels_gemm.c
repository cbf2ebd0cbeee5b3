/* kernels_gemm: the core of matmul in double, blocked for the cache and the vector unit,
 * with the textbook accumulation order. SPEC_NOTES: "Operators" (OP-matmul).
 *
 * The order guarantee: every result element c[r][j] starts from +0.0 and adds its k
 * products a[r][t] * b[t][j] one at a time for t = 0, 1, ..., k - 1, each product and each
 * sum rounded to double, exactly as the plain triple loop does. The blocking only changes
 * which elements are computed together (a tile of MR rows by NR columns held in registers,
 * NR columns of b copied into a contiguous panel), never the order of one element's sums;
 * the compiler may neither contract nor reassociate (ISO C, -ffp-contract=off), so the
 * vectorized loop computes the same roundings as the scalar one. Where every product is
 * exact in double (both operands' dtypes have at most 53 significand bits together, e.g.
 * float32 by float32), a fused multiply-add rounds once just as the separate multiply and
 * add do, so the fused form is used there. */
#include "values/kernels/kernels_gemm.h"

#include <math.h>
#include <string.h>

#include "ast/mem.h"

/* A tile: MR rows by NR columns of accumulators, one vector of NR doubles per row (a
 * vector of the compiler's, which splits it into what the machine's registers hold). */
enum { MR = 8, NR = 8 };
typedef double VecNR __attribute__((vector_size(NR * sizeof(double))));

/* c[0 .. MR)[0 .. NR) from rows of a (lda apart) and the packed panel (k rows of NR values):
 * per element, +0.0 plus the k products in order. The MR = 8 accumulators are named one by
 * one so that they live in registers (kept in an array, each went through memory on every
 * product: a third of the speed). */
_Static_assert(MR == 8, "ROWS names MR accumulators");
#define ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define ACC_ZERO(i) VecNR acc##i = {0};
#define ACC_ADD(i) acc##i = acc##i + at[(i)*lda] * bv;
#define ACC_STORE(i) memcpy(c + (i)*ldc, &acc##i, sizeof acc##i);
#define TILE()                                                                                     \
    do {                                                                                           \
        ROWS(ACC_ZERO)                                                                             \
        for (int64_t t = 0; t < k; t++) {                                                          \
            VecNR bv;                                                                              \
            memcpy(&bv, panel + t * NR, sizeof bv);                                                \
            const double *at = a + t;                                                              \
            ROWS(ACC_ADD)                                                                          \
        }                                                                                          \
        ROWS(ACC_STORE)                                                                            \
    } while (0)

KERNELS_VECTOR_CLONES
static void tile_separate(const double *a, int64_t lda, const double *panel, int64_t k, double *c,
                          int64_t ldc)
{
    TILE();
}

/* The same where every product is exact: a multiply and an add then round once each, but
 * the multiply's rounding is the identity, so a fused multiply-add (one rounding of the
 * exact a * b + acc) gives the same sum; the compiler may fuse them here. */
KERNELS_VECTOR_CLONES KERNELS_FP_CONTRACT static void
tile_fused(const double *a, int64_t lda, const double *panel, int64_t k, double *c, int64_t ldc)
{
    TILE();
}

/* One element at a time, for the rows and columns past the last whole tile. */
static void edge(const double *a, const double *b, const GemmDims *d, int64_t r, int64_t j,
                 double *c)
{
    double s = 0.0;
    for (int64_t t = 0; t < d->k; t++)
        s += a[r * d->k + t] * b[t * d->m + j];
    c[r * d->m + j] = s;
}

void kernels_gemm_f64(const double *a, const double *b, const GemmDims *d, bool exact_products,
                      double *c)
{
    int64_t n = d->n, k = d->k, m = d->m;
    int64_t mt = m - m % NR, nt = n - n % MR;
    double *panel = tensor_scratch(k * NR + 1, sizeof(double));
    for (int64_t j0 = 0; j0 < mt; j0 += NR) {
        for (int64_t t = 0; t < k; t++)
            memcpy(panel + t * NR, b + t * m + j0, sizeof(double) * NR);
        for (int64_t r0 = 0; r0 < nt; r0 += MR) {
            if (exact_products)
                tile_fused(a + r0 * k, k, panel, k, c + r0 * m + j0, m);
            else
                tile_separate(a + r0 * k, k, panel, k, c + r0 * m + j0, m);
        }
    }
    for (int64_t r = 0; r < n; r++)
        for (int64_t j = r < nt ? mt : 0; j < m; j++)
            edge(a, b, d, r, j, c);
}

void kernels_gemm_u64(const int64_t *a, const int64_t *b, const GemmDims *d, uint64_t *c)
{
    for (int64_t r = 0; r < d->n; r++) {
        uint64_t *row = c + r * d->m;
        for (int64_t j = 0; j < d->m; j++)
            row[j] = 0;
        for (int64_t t = 0; t < d->k; t++) {
            uint64_t x = (uint64_t)a[r * d->k + t];
            const int64_t *brow = b + t * d->m;
            for (int64_t j = 0; j < d->m; j++)
                row[j] += x * (uint64_t)brow[j];
        }
    }
}
