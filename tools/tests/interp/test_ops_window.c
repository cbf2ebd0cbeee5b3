/* test_ops_window: layouts as permutations, output extents, and the one kernel path TVM cannot
 * run (a dilated transposed convolution), checked by hand.
 * SPEC_NOTES: "Operators" (OP-nn.conv1d_transpose, OP-nn.max_pool1d, OP-nn.conv1d). */
#include "interp/ops/ops_window_internal.h"
#include "tools/tests/unit.h"

static void test_layouts(void)
{
    WindowLayout l;
    CU_ASSERT_TRUE(ops_window_layout("NHWC", "NCHW", &l));
    CU_ASSERT_EQUAL(l.ndim, 4);
    CU_ASSERT_EQUAL(l.perm[0], 0);
    CU_ASSERT_EQUAL(l.perm[1], 3);
    CU_ASSERT_EQUAL(l.perm[2], 1);
    CU_ASSERT_EQUAL(l.perm[3], 2);
    CU_ASSERT_TRUE(ops_window_layout("DHWIO", "OIDHW", &l));
    CU_ASSERT_EQUAL(l.perm[0], 4); /* O is last */
    CU_ASSERT_FALSE(ops_window_layout("NCHW4c", "NCHW", &l));
    CU_ASSERT_FALSE(ops_window_layout("NCHH", "NCHW", &l));
    CU_ASSERT_FALSE(ops_window_layout("NCW", "NCHW", &l));
}

static void test_extents(void)
{
    /* (4 - 1) 2 - 2 + 1 (3 - 1) + 1 + 1 = 8 */
    CU_ASSERT_EQUAL(kernels_window_transpose_extent(4, 3, 2, 1, 2, 1), 8);
    /* floor((8 - 2 (2 - 1) - 1 [+ 1]) / 2) + 1: 4 in ceil mode, 3 without */
    CU_ASSERT_EQUAL(kernels_window_extent(8, 2, 2, 2, 0, true), 4);
    CU_ASSERT_EQUAL(kernels_window_extent(8, 2, 2, 2, 0, false), 3);
    /* a window larger than the padded input: a negative numerator floors */
    CU_ASSERT_EQUAL(kernels_window_extent(2, 4, 2, 1, 0, false), 0);
}

/* x = [1, 2], w = [1, 10], dilation 2: out[i + 2 k] += x[i] w[k] over width 4. */
static void test_dilated_transpose(void)
{
    int64_t xs[3] = {1, 1, 2}, ws[3] = {1, 1, 2}, os[3];
    Tensor *x = tensor_new(dtype_float32(), 3, xs), *w = tensor_new(dtype_float32(), 3, ws);
    const double xd[] = {1, 2}, wd[] = {1, 10};
    tensor_write_f64(x, xd);
    tensor_write_f64(w, wd);
    WindowConv p = {1, {1}, {2}, {0}, {0}, {0}, 1, true};
    CU_ASSERT_TRUE_FATAL(kernels_window_conv_shape(xs, ws, &p, os));
    CU_ASSERT_EQUAL(os[2], 4);
    Tensor *out = tensor_new(dtype_float32(), 3, os);
    kernels_window_conv(x, w, &p, out);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 0), 1.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 1), 2.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 2), 10.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 3), 20.0);
    p.out_pad[0] = 1; /* not below the stride */
    CU_ASSERT_FALSE(kernels_window_conv_shape(xs, ws, &p, os));
}

/* Adaptive windows: [floor(o n / m), ceil((o + 1) n / m)); their reads (LIMIT-fuel); an input
 * dim of 2^62 beside an empty one neither overflows nor loops over it. */
static void test_adaptive(void)
{
    int64_t xs[4] = {1, 1, 5, 1}, os[4] = {1, 1, 3, 1};
    Tensor *x = tensor_new(dtype_float32(), 4, xs);
    const double xd[] = {1, 2, 3, 4, 5};
    tensor_write_f64(x, xd);
    /* windows [0, 2), [1, 4), [3, 5): 7 reads, means 1.5, 3, 4.5 */
    CU_ASSERT_EQUAL(kernels_window_adaptive_reads(x, os), 7);
    Tensor *out = tensor_new(dtype_float32(), 4, os);
    kernels_window_adaptive_avg(x, out);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 0), 1.5);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 1), 3.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 2), 4.5);
    int64_t ls[4] = {1, 1, 40000, 1}, lo[4] = {1, 1, 1, 40000};
    Tensor *lx = tensor_new(dtype_float32(), 4, ls);
    CU_ASSERT_EQUAL(kernels_window_adaptive_reads(lx, lo), INT64_C(1600000000));
    int64_t es[4] = {1, 1, INT64_C(1) << 62, 0}, eo[4] = {1, 1, 4, 4};
    Tensor *ex = tensor_new(dtype_float32(), 4, es);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ex);
    CU_ASSERT_EQUAL(kernels_window_adaptive_reads(ex, eo), 0);
    Tensor *eout = tensor_new(dtype_float32(), 4, eo);
    kernels_window_adaptive_avg(ex, eout);
    CU_ASSERT_EQUAL(tensor_get_f64(eout, 15), 0.0);
}

UNIT_SUITE(ops_window)
{
    CU_pSuite s = CU_add_suite("ops_window", 0, 0);
    CU_add_test(s, "layouts", test_layouts);
    CU_add_test(s, "extents", test_extents);
    CU_add_test(s, "dilated_transpose", test_dilated_transpose);
    CU_add_test(s, "adaptive", test_adaptive);
}
