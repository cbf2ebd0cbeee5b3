/* test_kernels_guard: a regression guard of bit-identity for the hot kernels (elementwise,
 * reductions, softmax, matmul, conv2d, full). SPEC_NOTES: "Operators".
 *
 * This is NOT a semantic oracle. Every case runs a kernel on fixed pseudo-random inputs of
 * every dtype it takes (NaN, infinities, -0.0, subnormals, extreme integers, odd sizes,
 * scalar and general broadcasting) and compares a 64-bit FNV-1a hash of the result's dtype,
 * shape and bytes (or of the error message; every NaN counts as one NaN) with the hash
 * recorded in kernels_guard.expected from the kernels as they were before their fast paths
 * were written. What the results should be is pinned by the spec through the conformance corpus;
 * this test only proves that a faster kernel computes exactly what the slower one did.
 *
 * To record the hashes again (only when a kernel's meaning changes on purpose, in the same
 * commit as the corpus cases that pin the new meaning):
 *   RELAX_KERNELS_GUARD_RECORD=path/to/kernels_guard.expected build/relax_unit */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/mem.h"
#include "tools/tests/unit.h"
#include "values/kernels/kernels_elemwise.h"
#include "values/kernels/kernels_manip.h"
#include "values/kernels/kernels_nn.h"
#include "values/tensor.h"

static const char *const DTYPES[] = {"bool",     "int8",    "int16",  "int32",  "int64",
                                     "uint8",    "uint16",  "uint32", "uint64", "float16",
                                     "bfloat16", "float32", "float64"};
#define NDTYPES ((int)(sizeof DTYPES / sizeof DTYPES[0]))
static const char *const FLOATS[] = {"float16", "bfloat16", "float32", "float64"};

/* ---- inputs ------------------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    return unit_rng_next(&rng_state);
}

static DataType dt(const char *name)
{
    DataType t;
    CU_ASSERT_TRUE_FATAL(dtype_parse(name, &t));
    return t;
}

static const double SPECIAL_F[] = {NAN,   -NAN,    INFINITY, -INFINITY, -0.0,  0.0,
                                   1e-40, -3e-310, 1e30,     -65504.0,  0.5,   1.0,
                                   -1.0,  2.5,     3.0,      88.0,      -100.0};
static const int64_t SPECIAL_I[] = {0,    1,   -1,    2,         7,  INT64_MIN, INT64_MAX, 127,
                                    -128, 255, 65535, INT32_MIN, 63, 64,        200};

/* A tensor of the dtype and shape with deterministic contents drawn from `seed`: about one
 * element in six a special value, the rest random (floats in [-8, 8) with full fractions,
 * integers of every bit pattern). */
static Tensor *input(const char *dtype, int ndim, const int64_t *shape, uint64_t seed)
{
    DataType d = dt(dtype);
    Tensor *t = tensor_new(d, ndim, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    rng_state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    for (int64_t i = 0; i < t->numel; i++) {
        uint64_t r = next_u64();
        bool special = r % 6 == 0;
        if (dtype_is_float(d)) {
            double v = special ? SPECIAL_F[(r >> 8) % (sizeof SPECIAL_F / sizeof SPECIAL_F[0])]
                               : ldexp((double)(int64_t)(r >> 11) - ldexp(1, 52), -50);
            tensor_set_f64(t, i, v);
        } else {
            int64_t v = special ? SPECIAL_I[(r >> 8) % (sizeof SPECIAL_I / sizeof SPECIAL_I[0])]
                                : (int64_t)next_u64();
            tensor_set_i64(t, i, v);
        }
    }
    return t;
}

/* ---- hashes ------------------------------------------------------------------------------ */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

static uint64_t hash_result(const Tensor *t, const char *err)
{
    uint64_t h = UINT64_C(14695981039346656037);
    if (t == NULL)
        return fnv(h, err ? err : "(null)", strlen(err ? err : "(null)"));
    int code = t->dtype.code, bits = t->dtype.bits;
    h = fnv(h, &code, sizeof code);
    h = fnv(h, &bits, sizeof bits);
    h = fnv(h, &t->ndim, sizeof t->ndim);
    h = fnv(h, t->shape, sizeof(int64_t) * (size_t)t->ndim);
    if (!dtype_is_float(t->dtype))
        return fnv(h, t->data, tensor_nbytes(t));
    /* Every NaN hashes as one: IEEE 754 leaves open which operand's NaN (sign and payload) a
     * NaN op NaN returns, and the kernels before the fast paths returned whichever operand
     * the compiler's vectorized loop happened to put first. */
    for (int64_t i = 0; i < t->numel; i++) {
        double v = tensor_get_f64(t, i);
        size_t w = dtype_bytes(t->dtype);
        h = isnan(v) ? fnv(h, "NaN", 3) : fnv(h, (const char *)t->data + (size_t)i * w, w);
    }
    return h;
}

/* The recorded hashes (name -> hash), or the file being recorded. */
typedef struct Guard {
    char **names;
    uint64_t *hashes;
    int n;
    FILE *record;
    int checked, missing, differ;
} Guard;

static Guard guard;

static void guard_load(void)
{
    memset(&guard, 0, sizeof guard);
    const char *rec = getenv("RELAX_KERNELS_GUARD_RECORD");
    if (rec != NULL && rec[0] != '\0') {
        guard.record = fopen(rec, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(guard.record);
        fprintf(guard.record, "# Recorded by test_kernels_guard.c: a regression guard of "
                              "bit-identity, not a semantic oracle.\n");
        return;
    }
    const char *path =
        mem_printf("%s/tools/tests/values/kernels_guard.expected", unit_source_dir());
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[256];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        char name[200];
        unsigned long long h;
        if (line[0] == '#' || sscanf(line, "%199s %llx", name, &h) != 2)
            continue;
        if (guard.n == cap) {
            cap = cap ? cap * 2 : 1024;
            char **nn = mem_alloc(sizeof(char *) * (size_t)cap);
            uint64_t *hh = mem_alloc_atomic(sizeof(uint64_t) * (size_t)cap);
            if (guard.n) {
                memcpy(nn, guard.names, sizeof(char *) * (size_t)guard.n);
                memcpy(hh, guard.hashes, sizeof(uint64_t) * (size_t)guard.n);
            }
            guard.names = nn;
            guard.hashes = hh;
        }
        guard.names[guard.n] = mem_strdup(name);
        guard.hashes[guard.n++] = (uint64_t)h;
    }
    fclose(f);
}

/* Records or checks one result; prints the first few mismatches by name. */
static void guard_case(const char *name, const Tensor *t, const char *err)
{
    uint64_t h = hash_result(t, err);
    if (guard.record) {
        fprintf(guard.record, "%s %016llx\n", name, (unsigned long long)h);
        return;
    }
    guard.checked++;
    for (int i = 0; i < guard.n; i++) {
        if (strcmp(guard.names[i], name) != 0)
            continue;
        if (guard.hashes[i] != h && guard.differ++ < 10)
            fprintf(stderr, "\nkernels guard: %s differs from the recorded result\n", name);
        return;
    }
    if (guard.missing++ < 10)
        fprintf(stderr, "\nkernels guard: %s has no recorded result\n", name);
}

/* ---- cases ------------------------------------------------------------------------------- */

typedef struct Layout {
    const char *name;
    int na, nb;
    int64_t a[4], b[4];
} Layout;

/* Same shapes (odd, and past the streamed kernels' 4,096-element chunks), a scalar on either
 * side, and a general two-sided broadcast. */
static const Layout BINARY_LAYOUTS[] = {
    {"same37", 1, 1, {37}, {37}},      {"same5000", 2, 2, {5, 1000}, {5, 1000}},
    {"scalar_rhs", 2, 0, {5, 7}, {0}}, {"scalar_lhs", 0, 2, {0}, {5, 7}},
    {"one_rhs", 2, 1, {5, 7}, {1}},    {"bcast", 3, 2, {3, 1, 5}, {4, 1}},
    {"bcast_row", 2, 1, {6, 9}, {9}},
};

static void cases_binary(void)
{
    for (int op = KB_ADD; op <= KB_RIGHT_SHIFT; op++)
        for (int d = 0; d < NDTYPES; d++)
            for (size_t l = 0; l < sizeof BINARY_LAYOUTS / sizeof BINARY_LAYOUTS[0]; l++) {
                const Layout *lay = &BINARY_LAYOUTS[l];
                Tensor *a = input(DTYPES[d], lay->na, lay->a, 11 + (uint64_t)l);
                Tensor *b = input(DTYPES[d], lay->nb, lay->b, 101 + (uint64_t)l);
                const char *err = NULL;
                Tensor *r = kernels_binary((KernelBinaryOp)op, a, b, &err);
                guard_case(mem_printf("binary.%d.%s.%s", op, DTYPES[d], lay->name), r, err);
            }
}

static void cases_unary(void)
{
    const int64_t small[1] = {37}, large[2] = {3, 1500};
    for (int op = KU_ABS; op <= KU_BITWISE_NOT; op++)
        for (int d = 0; d < NDTYPES; d++) {
            const char *err = NULL;
            Tensor *r = kernels_unary((KernelUnaryOp)op, input(DTYPES[d], 1, small, 7), &err);
            guard_case(mem_printf("unary.%d.%s.small", op, DTYPES[d]), r, err);
            r = kernels_unary((KernelUnaryOp)op, input(DTYPES[d], 2, large, 8), &err);
            guard_case(mem_printf("unary.%d.%s.large", op, DTYPES[d]), r, err);
        }
    for (int d = 0; d < NDTYPES; d++) {
        DataType t = dt(DTYPES[d]);
        Tensor *r =
            kernels_clip(input(DTYPES[d], 1, small, 9), -2.5, 3.0, dtype_is_uint(t) ? 2 : -3, 100);
        guard_case(mem_printf("clip.%s", DTYPES[d]), r, NULL);
    }
}

static void cases_reduce(void)
{
    const int64_t cube[3] = {3, 4, 5}, flat[1] = {4101};
    static const bool axes[][3] = {{true, true, true},
                                   {false, true, false},
                                   {true, false, true},
                                   {false, false, true},
                                   {true, false, false}};
    for (int kind = REDUCE_SUM; kind <= REDUCE_VARIANCE; kind++)
        for (int d = 0; d < NDTYPES; d++) {
            for (size_t ax = 0; ax < sizeof axes / sizeof axes[0]; ax++) {
                const char *err = NULL;
                Tensor *r = kernel_reduce(input(DTYPES[d], 3, cube, 21 + ax), (ReduceKind)kind,
                                          axes[ax], ax % 2 == 0, &err);
                guard_case(mem_printf("reduce.%d.%s.axes%zu", kind, DTYPES[d], ax), r, err);
            }
            /* Small values for the long reduction: an overflow everywhere would hide a
             * change of order. */
            Tensor *x = input(DTYPES[d], 1, flat, 31);
            if (dtype_is_float(x->dtype))
                for (int64_t i = 0; i < x->numel; i++)
                    tensor_set_f64(x, i, (double)((i * 37) % 101) * 0.0625 - 3.0 + 1e-3 * i);
            const char *err = NULL;
            bool all[1] = {true};
            Tensor *r = kernel_reduce(x, (ReduceKind)kind, all, false, &err);
            guard_case(mem_printf("reduce.%d.%s.flat", kind, DTYPES[d]), r, err);
            r = kernel_reduce(input(DTYPES[d], 1, flat, 32), (ReduceKind)kind, all, false, &err);
            guard_case(mem_printf("reduce.%d.%s.flatraw", kind, DTYPES[d]), r, err);
        }
}

static void cases_softmax(void)
{
    const int64_t shape[3] = {3, 4, 5}, wide[2] = {7, 1000};
    for (size_t d = 0; d < sizeof FLOATS / sizeof FLOATS[0]; d++)
        for (int log_form = 0; log_form < 2; log_form++) {
            for (int axis = 0; axis < 3; axis++) {
                Tensor *x = input(FLOATS[d], 3, shape, 41 + (uint64_t)axis);
                Tensor *out = tensor_new(x->dtype, 3, shape);
                kernels_nn_softmax(x, axis, log_form, out);
                guard_case(mem_printf("softmax.%s.%d.axis%d", FLOATS[d], log_form, axis), out,
                           NULL);
            }
            /* Finite inputs: one NaN or infinity would make every row's result NaN. */
            Tensor *x = input(FLOATS[d], 2, wide, 45);
            for (int64_t i = 0; i < x->numel; i++)
                tensor_set_f64(x, i, sin((double)i) * 12.0);
            Tensor *out = tensor_new(x->dtype, 2, wide);
            kernels_nn_softmax(x, 1, log_form, out);
            guard_case(mem_printf("softmax.%s.%d.wide", FLOATS[d], log_form), out, NULL);
            /* Quarters (every difference from the row's maximum a float32 value), then random
             * values of every magnitude up to 2^7 (most differences not), with -0.0 and a
             * row whose maximum is infinite. */
            const int64_t rows[2] = {64, 257};
            x = tensor_new(x->dtype, 2, rows);
            for (int64_t i = 0; i < x->numel; i++)
                tensor_set_f64(x, i, (double)(i % 17) * -0.25);
            out = tensor_new(x->dtype, 2, rows);
            kernels_nn_softmax(x, 1, log_form, out);
            guard_case(mem_printf("softmax.%s.%d.quarters", FLOATS[d], log_form), out, NULL);
            rng_state = 77;
            for (int64_t i = 0; i < x->numel; i++) {
                uint64_t r = next_u64();
                tensor_set_f64(
                    x, i,
                    ldexp((double)(int64_t)(r >> 11) - ldexp(1, 52), -52 + (int)(r % 60) - 50));
            }
            tensor_set_f64(x, 3, -0.0);
            tensor_set_f64(x, 300, INFINITY);
            kernels_nn_softmax(x, 1, log_form, out);
            guard_case(mem_printf("softmax.%s.%d.magnitudes", FLOATS[d], log_form), out, NULL);
        }
}

static const Layout MATMUL_LAYOUTS[] = {
    {"2x2", 2, 2, {5, 7}, {7, 3}},     {"odd", 2, 2, {33, 65}, {65, 31}},
    {"big", 2, 2, {64, 70}, {70, 67}}, {"batch", 4, 3, {2, 1, 5, 7}, {3, 7, 4}},
    {"vec_mat", 1, 2, {7}, {7, 3}},    {"mat_vec", 2, 1, {5, 7}, {7}},
    {"vec_vec", 1, 1, {9}, {9}},
};

static void cases_matmul(void)
{
    for (int d = 0; d < NDTYPES; d++)
        for (size_t l = 0; l < sizeof MATMUL_LAYOUTS / sizeof MATMUL_LAYOUTS[0]; l++) {
            const Layout *lay = &MATMUL_LAYOUTS[l];
            Tensor *a = input(DTYPES[d], lay->na, lay->a, 51 + (uint64_t)l);
            Tensor *b = input(DTYPES[d], lay->nb, lay->b, 61 + (uint64_t)l);
            const char *err = NULL;
            Tensor *r = kernel_matmul(a, b, a->dtype, &err);
            guard_case(mem_printf("matmul.%s.%s", DTYPES[d], lay->name), r, err);
        }
    /* Mixed: int8 operands into int32, float16 into float32, int32 into float32. */
    static const char *const mixed[][2] = {
        {"int8", "int32"}, {"float16", "float32"}, {"int32", "float32"}, {"float32", "float64"}};
    for (size_t m = 0; m < sizeof mixed / sizeof mixed[0]; m++) {
        Tensor *a = input(mixed[m][0], 2, MATMUL_LAYOUTS[1].a, 71);
        Tensor *b = input(mixed[m][0], 2, MATMUL_LAYOUTS[1].b, 72);
        const char *err = NULL;
        Tensor *r = kernel_matmul(a, b, dt(mixed[m][1]), &err);
        guard_case(mem_printf("matmul.%s_to_%s", mixed[m][0], mixed[m][1]), r, err);
    }
}

static void cases_conv2d(void)
{
    static const NnConv2d params[] = {
        {{1, 1}, {0, 0, 0, 0}, {1, 1}, 1},
        {{2, 1}, {1, 2, 0, 1}, {1, 2}, 1},
        {{1, 2}, {1, 1, 1, 1}, {2, 1}, 2},
    };
    const int64_t dshape[4] = {2, 4, 9, 8};
    for (int d = 0; d < NDTYPES; d++)
        for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
            int64_t wshape[4] = {6, 4 / params[p].groups, 3, 3}, oshape[4];
            Tensor *data = input(DTYPES[d], 4, dshape, 81 + (uint64_t)p);
            Tensor *weight = input(DTYPES[d], 4, wshape, 91 + (uint64_t)p);
            CU_ASSERT_TRUE_FATAL(kernels_nn_conv2d_shape(dshape, wshape, &params[p], oshape));
            Tensor *out = tensor_new(data->dtype, 4, oshape);
            kernels_nn_conv2d(data, weight, &params[p], out);
            guard_case(mem_printf("conv2d.%s.%zu", DTYPES[d], p), out, NULL);
        }
}

/* Creation: full (ones, zeros, full) from an integer or a float fill value, into every
 * dtype, including values the dtype wraps or rounds. */
static void cases_full(void)
{
    static const int64_t ints[] = {0, 1, -1, 300, INT64_MIN};
    static const double floats[] = {0.5, -0.0, 1e40, 3.0, -7.25};
    static const int64_t sizes[] = {0, 1, 37, 5000};
    for (int d = 0; d < NDTYPES; d++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int v = 0; v < 5; v++) {
                const char *err = NULL;
                Tensor *ti = kernel_full(dt(DTYPES[d]), 1, &sizes[s], false, 0.0, ints[v], &err);
                guard_case(mem_printf("full.int.%s.%lld.%d", DTYPES[d], (long long)sizes[s], v), ti,
                           err);
                err = NULL;
                Tensor *tf = kernel_full(dt(DTYPES[d]), 1, &sizes[s], true, floats[v], 0, &err);
                guard_case(mem_printf("full.float.%s.%lld.%d", DTYPES[d], (long long)sizes[s], v),
                           tf, err);
            }
}

static void test_bit_identity(void)
{
    guard_load();
    cases_binary();
    cases_unary();
    cases_reduce();
    cases_softmax();
    cases_matmul();
    cases_conv2d();
    cases_full();
    if (guard.record) {
        fclose(guard.record);
        guard.record = NULL;
        return;
    }
    CU_ASSERT_TRUE(guard.checked > 1000);
    CU_ASSERT_EQUAL(guard.checked, guard.n);
    CU_ASSERT_EQUAL(guard.missing, 0);
    CU_ASSERT_EQUAL(guard.differ, 0);
}

UNIT_SUITE(kernels_guard)
{
    CU_pSuite s = CU_add_suite("kernels_guard", 0, 0);
    CU_add_test(s, "kernels' results are bit-identical to the recorded ones", test_bit_identity);
}
