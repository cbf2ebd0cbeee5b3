/* test_kernels_exact: the fast paths of the float32 sum, exp and softmax compute exactly what
 * their definitions do, compared bit for bit with the definitions written out here one
 * element at a time (the float32 sum as a chain of float adds, softmax through the C
 * library's exp), on inputs chosen to take each fast path and each of its ways out.
 * SPEC_NOTES: "Operators" (OP-sum, OP-nn.softmax). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/tests/unit.h"
#include "values/kernels/kernels_exp.h"
#include "values/kernels/kernels_manip.h"
#include "values/kernels/kernels_nn.h"
#include "values/tensor.h"

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    return unit_rng_next(&rng_state);
}

/* Uniform in [0, 1). */
static double unit_real(void)
{
    return (double)(next_u64() >> 11) * 0x1p-53;
}

static Tensor *f32_vector(int64_t n)
{
    DataType f32 = {DT_FLOAT, 32, 1};
    return tensor_new(f32, 1, &n);
}

/* ---- the float32 sum --------------------------------------------------------------------- */

/* OP-sum of float32 by its definition: the running sum rounded to float32 after each add. */
static float chain_sum(const float *x, int64_t n)
{
    float acc = 0.0f;
    for (int64_t k = 0; k < n; k++)
        acc = (float)((double)acc + (double)x[k]);
    return acc;
}

/* The kernel's full sum (and mean) of x against the chain; returns whether they agree. */
static bool sum_agrees(const Tensor *x, const char *what)
{
    bool reduced[1] = {true};
    const char *err = NULL;
    Tensor *s = kernel_reduce(x, REDUCE_SUM, reduced, false, &err);
    Tensor *m = kernel_reduce(x, REDUCE_MEAN, reduced, false, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    float want = chain_sum(x->data, x->numel);
    float want_mean = (float)((double)want / (double)(float)x->numel);
    float got = ((const float *)s->data)[0], got_mean = ((const float *)m->data)[0];
    bool ok = unit_same_double(got, want) && (x->numel == 0 || unit_same_double(got_mean, want_mean));
    if (!ok)
        printf("\nkernels exact: sum of %s (%lld elements): %a, by definition %a\n", what,
               (long long)x->numel, (double)got, (double)want);
    return ok;
}

/* Data of many shapes: each kind fills x[0..n), some taking the block path throughout, some
 * never, most both. */
static void fill_sum_data(float *x, int64_t n, int kind)
{
    for (int64_t i = 0; i < n; i++) {
        double u = unit_real();
        switch (kind) {
        case 0: /* 0, 1, 2, ...: the partial sums leave float32's integers; ties at times */
            x[i] = (float)i;
            break;
        case 1: /* positive reals */
            x[i] = (float)(u * 10.0);
            break;
        case 2: /* mixed signs around zero: the sum wanders across binades */
            x[i] = (float)(u - 0.5);
            break;
        case 3: /* a large start, then small terms: binade after binade, block by block */
            x[i] = i == 0 ? 3.0e7f : (float)(u * 3.0);
            break;
        case 4: /* halves and quarters: exact ties in the units of a large sum */
            x[i] = i == 0 ? 16777216.0f : (float)((double)(next_u64() % 9) * 0.5);
            break;
        case 5: /* every magnitude, both signs */
            x[i] = (float)ldexp(u - 0.5, (int)(next_u64() % 80) - 40);
            break;
        case 6: /* near float32's largest: the sum overflows to infinity */
            x[i] = (float)(u * 1.0e37);
            break;
        case 7: /* a large negative start, then terms of both signs */
            x[i] = i == 0 ? -5.0e9f : (float)((u - 0.3) * 100.0);
            break;
        case 8: /* subnormals and a normal sum made of them */
            x[i] = (float)(u * 0x1p-130);
            break;
        case 9: /* ones, then a sum that stops growing at 2^24 */
            x[i] = 1.0f;
            break;
        case 10: /* down from above 2^24 through 2^24 and 2^23, a few units a term */
            x[i] = i == 0 ? 16785408.0f : (float)-(0.1 + u * 4.9);
            break;
        case 11: /* up from below 2^24 through 2^24 and 2^25 */
            x[i] = i == 0 ? 16769024.0f : (float)(0.1 + u * 4.9);
            break;
        case 12: /* a subnormal sum growing by a few of the smallest subnormals */
            x[i] = i == 0 ? 0x1p-130f : 0x1p-149f * (float)(1 + next_u64() % 3);
            break;
        }
    }
}

static void test_sum_matches_chain(void)
{
    const int64_t sizes[] = {0, 1, 7, 255, 256, 257, 1000, 4099, 70000, 300000};
    rng_state = 2026;
    int bad = 0;
    for (int kind = 0; kind < 13; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            Tensor *x = f32_vector(sizes[s]);
            fill_sum_data(x->data, x->numel, kind);
            bad += !sum_agrees(x, mem_printf("kind %d", kind));
        }
    /* A block that would end exactly on its binade's lower edge, 2^23 + 256 units minus 256
     * terms of 1.4 units: its last exact sum, 2^23 - 0.4, lies below the binade and rounds
     * to 2^23 - 0.5 there. */
    Tensor *edge = f32_vector(512);
    float *e = edge->data;
    e[0] = 8388864.0f;
    for (int64_t i = 256; i < 512; i++)
        e[i] = -1.4f;
    bad += !sum_agrees(edge, "a block ending on its binade's lower edge");
    /* One unit below 2^24, then 1.4 and 1.4 units: the second sum, 2^24 + 1.4, lies in the
     * next binade and rounds to 2^24 + 2 there. */
    Tensor *over = f32_vector(258);
    float *o = over->data;
    o[0] = 16777215.0f;
    o[256] = o[257] = 1.4f;
    bad += !sum_agrees(over, "a block past its binade's upper edge");
    /* A block of infinities and one of NaNs after a large sum. */
    Tensor *inf = f32_vector(768);
    float *f = inf->data;
    f[0] = 3.0e7f;
    for (int64_t i = 256; i < 768; i++)
        f[i] = i < 512 ? INFINITY : NAN;
    bad += !sum_agrees(inf, "blocks of infinities and NaNs");
    /* Up to float32's largest and past it, by terms of 1.4 and 0.3 units (of 2^104). */
    Tensor *top = f32_vector(1024);
    float *t = top->data;
    t[0] = 0x1.fffe00p+127f;
    for (int64_t i = 256; i < 1024; i++)
        t[i] = (float)ldexp(i % 3 ? 0.3 : 1.4, 104);
    bad += !sum_agrees(top, "up to float32's largest");
    /* 2^24 + 1 ones: the chain sticks at 2^24. */
    Tensor *ones = f32_vector((1 << 24) + 1);
    fill_sum_data(ones->data, ones->numel, 9);
    bad += !sum_agrees(ones, "2^24 + 1 ones");
    CU_ASSERT_EQUAL(bad, 0);
}

/* Special values placed in data that otherwise takes the block path. */
static void test_sum_specials(void)
{
    const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0x1p-149f, 3.0e38f, -3.0e38f,
                              2.5f, 0.5f, 1.5f};
    int bad = 0;
    for (size_t v = 0; v < sizeof specials / sizeof specials[0]; v++)
        for (int64_t at = 0; at < 1200; at += 299) {
            rng_state = 99 + (uint64_t)at;
            Tensor *x = f32_vector(1200);
            fill_sum_data(x->data, x->numel, 3);
            ((float *)x->data)[at] = specials[v];
            bad += !sum_agrees(x, mem_printf("special %a at %lld", (double)specials[v],
                                             (long long)at));
        }
    CU_ASSERT_EQUAL(bad, 0);
}

/* ---- exp --------------------------------------------------------------------------------- */

/* kernels_exp_many against the C library's exp on arguments that take the fast path, leave
 * it near rounding boundaries, lie outside its range, or are not float32 values, in lengths
 * around its block size and in place. */
static void test_exp_many_matches_exp(void)
{
    enum { N = 70001 };
    double *x = mem_alloc_atomic(sizeof(double) * N), *y = mem_alloc_atomic(sizeof(double) * N);
    rng_state = 7;
    for (int64_t i = 0; i < N; i++) {
        uint64_t r = next_u64();
        switch (r % 4) {
        case 0: {
            uint32_t b = (uint32_t)(r >> 32);
            float f;
            memcpy(&f, &b, sizeof f);
            x[i] = f; /* any float32 bit pattern */
            break;
        }
        case 1:
            x[i] = (float)((unit_real() - 0.5) * 200.0);
            break;
        case 2:
            x[i] = (unit_real() - 0.5) * 1500.0; /* not float32, and past the fast range */
            break;
        default:
            x[i] = -(double)(r % 64) * 0.25;
        }
    }
    x[5] = NAN;
    x[6] = INFINITY;
    x[7] = -INFINITY;
    x[8] = -0.0;
    const int64_t lengths[] = {0, 1, 3, 255, 256, 257, 513, N};
    int differ = 0;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        kernels_exp_many(x, y, lengths[l]);
        for (int64_t i = 0; i < lengths[l]; i++)
            differ += !unit_same_double(y[i], exp(x[i]));
    }
    memcpy(y, x, sizeof(double) * N);
    kernels_exp_many(y, y, N);
    for (int64_t i = 0; i < N; i++)
        differ += !unit_same_double(y[i], exp(x[i]));
    CU_ASSERT_EQUAL(differ, 0);
}

/* ---- softmax ----------------------------------------------------------------------------- */

/* OP-nn.softmax and log_softmax of one lane by the definition (as the kernel's comment gives
 * it): the maximum in element order (a NaN wins), each exp(x - max) by the C library, their
 * sum in element order, then each quotient or (x - max) - log(sum), rounded to the dtype. */
static void softmax_by_definition(const Tensor *x, int64_t outer, int64_t len, int64_t inner,
                                  bool log_form, Tensor *out)
{
    double *e = mem_alloc_atomic(sizeof(double) * (size_t)(len ? len : 1));
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in;
            double mx = -INFINITY, sum = 0.0;
            for (int64_t k = 0; k < len; k++) {
                double v = tensor_get_f64(x, base + k * inner);
                mx = v > mx || isnan(v) ? v : mx;
            }
            for (int64_t k = 0; k < len; k++) {
                e[k] = exp(tensor_get_f64(x, base + k * inner) - mx);
                sum += e[k];
            }
            for (int64_t k = 0; k < len; k++) {
                double v = tensor_get_f64(x, base + k * inner);
                tensor_set_f64(out, base + k * inner,
                               log_form ? (v - mx) - log(sum) : e[k] / sum);
            }
        }
}

static int softmax_differs(const Tensor *x, int axis, const char *what)
{
    int64_t outer = 1, inner = 1, len = x->shape[axis];
    for (int d = 0; d < axis; d++)
        outer *= x->shape[d];
    for (int d = axis + 1; d < x->ndim; d++)
        inner *= x->shape[d];
    int differ = 0;
    for (int log_form = 0; log_form < 2; log_form++) {
        Tensor *got = tensor_new(x->dtype, x->ndim, x->shape),
               *want = tensor_new(x->dtype, x->ndim, x->shape);
        kernels_nn_softmax(x, axis, log_form, got);
        softmax_by_definition(x, outer, len, inner, log_form, want);
        for (int64_t i = 0; i < x->numel; i++)
            if (!unit_same_double(tensor_get_f64(got, i), tensor_get_f64(want, i))) {
                if (differ++ == 0)
                    printf("\nkernels exact: %s of %s differs at %lld: %a, by definition %a\n",
                           log_form ? "log_softmax" : "softmax", what, (long long)i,
                           tensor_get_f64(got, i), tensor_get_f64(want, i));
            }
    }
    return differ;
}

static void test_softmax_matches_definition(void)
{
    const char *dtypes[] = {"float32", "float64", "float16"};
    const int64_t shapes[][2] = {{1, 1}, {3, 5}, {4, 8}, {5, 1000}, {9, 17}, {64, 257}, {2, 3}};
    int differ = 0;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        DataType t;
        CU_ASSERT_TRUE_FATAL(dtype_parse(dtypes[d], &t));
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int kind = 0; kind < 5; kind++) {
                Tensor *x = tensor_new(t, 2, shapes[s]);
                rng_state = 31 + (uint64_t)kind * 7 + s;
                for (int64_t i = 0; i < x->numel; i++) {
                    double u = unit_real();
                    double v = kind == 0   ? (double)(i % 17) * -0.25 /* differences float32 */
                               : kind == 1 ? (u - 0.5) * 24.0
                               : kind == 2 ? ldexp(u - 0.5, (int)(next_u64() % 40) - 20)
                               : kind == 3 ? (double)(next_u64() % 3) * 0.0 * (u < 0.5 ? -1 : 1)
                                           : sin((double)i) * 12.0;
                    tensor_set_f64(x, i, v);
                }
                if (kind == 2 && x->numel > 6) {
                    tensor_set_f64(x, 1, NAN);
                    tensor_set_f64(x, x->numel - 2, INFINITY);
                    tensor_set_f64(x, x->numel / 2, -INFINITY);
                }
                const char *what = mem_printf("%s %lldx%lld kind %d", dtypes[d],
                                              (long long)shapes[s][0], (long long)shapes[s][1],
                                              kind);
                differ += softmax_differs(x, 1, what);
                differ += softmax_differs(x, 0, what);
            }
    }
    CU_ASSERT_EQUAL(differ, 0);
}

UNIT_SUITE(kernels_exact)
{
    CU_pSuite s = CU_add_suite("kernels exact", 0, 0);
    CU_add_test(s, "the float32 sum is the chain of float32 adds", test_sum_matches_chain);
    CU_add_test(s, "the float32 sum with special values", test_sum_specials);
    CU_add_test(s, "exp many at a time is the C library's exp", test_exp_many_matches_exp);
    CU_add_test(s, "softmax is its definition", test_softmax_matches_definition);
}
