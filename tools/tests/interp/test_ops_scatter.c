/* test_ops_scatter: the indexing and scatter kernels called directly, on values worked out by
 * hand from TVM v0.22's topi formulas. SPEC_NOTES: "Operators" (OP-gather_elements and the
 * rows after it). */
#include <math.h>

#include "tools/tests/unit.h"
#include "values/kernels/kernels_scatter.h"

static Tensor *make(const char *dtype, int ndim, const int64_t *shape, const double *data)
{
    DataType t;
    dtype_parse(dtype, &t);
    Tensor *x = tensor_new(t, ndim, shape);
    if (data != NULL)
        tensor_write_f64(x, data);
    return x;
}

static void expect_data(const Tensor *t, const double *want, int64_t n)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->numel, n);
    for (int64_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(tensor_get_f64(t, i), want[i]);
}

static void test_gather(void)
{
    int64_t s23[2] = {2, 3};
    double x[6] = {1, 2, 3, 4, 5, 6}, ix[6] = {2, 0, 0, 1, 1, 2}, bad[6] = {0, -1, 0, 0, 0, 0};
    const char *err = NULL;
    double want[6] = {3, 1, 1, 5, 5, 6};
    expect_data(
        kernel_gather_elements(make("float32", 2, s23, x), make("int64", 2, s23, ix), 1, &err),
        want, 6);
    /* topi gather uses a negative index as it is: out of range, not counted from the end */
    CU_ASSERT_PTR_NULL(
        kernel_gather_elements(make("float32", 2, s23, x), make("int64", 2, s23, bad), 1, &err));
    /* gather_nd with batch_dims=1: data (2, 2, 2) = 0..7, indices [[1], [0]] */
    int64_t s222[3] = {2, 2, 2}, s21[2] = {2, 1};
    double d[8] = {0, 1, 2, 3, 4, 5, 6, 7}, i21[2] = {1, 0}, w[4] = {2, 3, 4, 5};
    expect_data(kernel_gather_nd(make("int64", 3, s222, d), make("int64", 2, s21, i21), 1, &err), w,
                4);
}

static void test_scatter_reductions(void)
{
    int64_t s3[1] = {3}, s21[2] = {2, 1}, s2[1] = {2};
    double d[3] = {1, 2, 3}, ix[2] = {0, 0}, u[2] = {10, 20};
    const char *err = NULL;
    /* mean halves at each step: (1 + 10) / 2 = 5.5, then (5.5 + 20) / 2 = 12.75 */
    double mean[3] = {12.75, 2, 3};
    expect_data(kernel_scatter_nd(make("float32", 1, s3, d), make("int64", 2, s21, ix),
                                  make("float32", 1, s2, u), SCATTER_MEAN, &err),
                mean, 3);
    /* the integer mean truncates the wrapped sum: (1 - 10) / 2 = -4, (-4 - 20) / 2 = -12 */
    double nu[2] = {-10, -20}, imean[3] = {-12, 2, 3};
    int64_t s12[2] = {1, 2};
    expect_data(kernel_scatter_elements(make("int32", 2, s12, d), make("int64", 2, s12, ix),
                                        make("int32", 2, s12, nu), 1, SCATTER_MEAN, &err),
                imean, 2);
    /* update applies rows in order: the last one wins */
    double last[3] = {20, 2, 3};
    expect_data(kernel_scatter_nd(make("int32", 1, s3, d), make("int64", 2, s21, ix),
                                  make("int32", 1, s2, u), SCATTER_UPDATE, &err),
                last, 3);
    ScatterReduce r;
    CU_ASSERT_TRUE(kernel_scatter_reduce_of("max", &r) && r == SCATTER_MAX);
    CU_ASSERT_FALSE(kernel_scatter_reduce_of("sum", &r));
}

static void test_index_put_and_slice(void)
{
    int64_t s4[1] = {4}, s2[1] = {2};
    double d[4] = {1, 2, 3, 4}, ix[2] = {-1, -1}, v[2] = {5, 6};
    const char *err = NULL;
    Tensor *idx = make("int64", 1, s2, ix);
    double acc[4] = {1, 2, 3, 15};
    expect_data(
        kernel_index_put(make("float32", 1, s4, d), &idx, 1, make("float32", 1, s2, v), true, &err),
        acc, 4);
    /* start -2, end 2, step 2 on an axis of 4: only position 0 is in the slice, and it takes
     * src[(0 + 2) / 2] = src[1] */
    double put[4] = {6, 2, 3, 4};
    SliceRange r = {-2, 2, 2}, whole = {0, 4, 1};
    expect_data(
        kernel_slice_scatter(make("float32", 1, s4, d), make("float32", 1, s2, v), 0, &r, &err),
        put, 4);
    /* the whole axis needs a src of 4 elements */
    CU_ASSERT_PTR_NULL(kernel_slice_scatter(make("float32", 1, s4, d), make("float32", 1, s2, v), 0,
                                            &whole, &err));
}

static void test_coords(void)
{
    int64_t s3[1] = {3}, s0[1] = {0};
    double b[3] = {1, 2, 3}, x[3] = {NAN, 2, 9};
    const char *err = NULL;
    /* TVM's binary search never moves right of a NaN: 0; 2 counts 1 below it, 2 with right */
    double left[3] = {0, 1, 3}, right[3] = {0, 2, 3};
    expect_data(kernel_bucketize(make("float32", 1, s3, x), make("float32", 1, s3, b),
                                 dtype_int64(), false, &err),
                left, 3);
    expect_data(kernel_bucketize(make("float32", 1, s3, x), make("float32", 1, s3, b),
                                 dtype_int64(), true, &err),
                right, 3);
    /* a 0-d tensor counts as 1-d: shape (1, 1) */
    double five = 5;
    Tensor *nz = kernel_nonzero(make("int32", 0, s0, &five), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nz);
    CU_ASSERT_TRUE(nz->ndim == 2 && nz->shape[0] == 1 && nz->shape[1] == 1);
    /* one_hot: -1 and 3 are outside [0, 3): off everywhere */
    double ix[3] = {-1, 1, 3}, oh[9] = {0, 0, 0, 0, 7, 0, 0, 0, 0};
    OneHotValues v = {dtype_int64(), false, 0, 0, 7, 0};
    expect_data(kernel_one_hot(make("int64", 1, s3, ix), &v, 3, 1, &err), oh, 9);
    /* meshgrid "xy": grids of shape (len_1, len_0) */
    int64_t s2[1] = {2};
    Tensor *xs[2] = {make("int32", 1, s2, b), make("int32", 1, s3, b)};
    Tensor **g = kernel_meshgrid(xs, 2, true, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    double g0[6] = {1, 2, 1, 2, 1, 2};
    CU_ASSERT_TRUE(g[0]->shape[0] == 3 && g[0]->shape[1] == 2);
    expect_data(g[0], g0, 6);
}

UNIT_SUITE(ops_scatter)
{
    CU_pSuite s = CU_add_suite("ops_scatter", 0, 0);
    CU_add_test(s, "gather", test_gather);
    CU_add_test(s, "scatter_reductions", test_scatter_reductions);
    CU_add_test(s, "index_put_and_slice", test_index_put_and_slice);
    CU_add_test(s, "coords", test_coords);
}
