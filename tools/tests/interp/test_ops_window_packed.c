/* test_ops_window_packed: layouts as tir::Layout reads them (packed sub-axes), their weights,
 * and tensors moved to and from canonical order, checked by hand.
 * SPEC_NOTES: "Operators" (OP-nn.conv2d, OP-nn.max_pool2d). */
#include <string.h>

#include "interp/ops/ops_window_internal.h"
#include "tools/tests/unit.h"

static void test_reads_packed(void)
{
    PackedLayout l;
    memset(&l, 0, sizeof l);
    /* NCHW4c: [n, C', h, w, c] with channel 4 C' + c. */
    CU_ASSERT_PTR_NULL(ops_window_packed("NCHW4c", "NCHW", &l));
    CU_ASSERT_EQUAL(l.axes.ndim, 5);
    CU_ASSERT_EQUAL(l.axes.canon_ndim, 4);
    CU_ASSERT_EQUAL(l.axes.canon[1], 1);
    CU_ASSERT_EQUAL(l.axes.canon[4], 1);
    CU_ASSERT_EQUAL(l.axes.weight[1], 4);
    CU_ASSERT_EQUAL(l.axes.weight[4], 1);
    CU_ASSERT_EQUAL(l.factor[4], 4);
    CU_ASSERT_EQUAL(l.factor[1], 0);
    CU_ASSERT_EQUAL(l.split[1], 4);
    CU_ASSERT_EQUAL(l.split[0], 1);
    /* NCHW2c4c: C = 8 C' + 4 c + c'. */
    CU_ASSERT_PTR_NULL(ops_window_packed("NCHW2c4c", "NCHW", &l));
    CU_ASSERT_EQUAL(l.axes.ndim, 6);
    CU_ASSERT_EQUAL(l.axes.weight[1], 8);
    CU_ASSERT_EQUAL(l.axes.weight[4], 4);
    CU_ASSERT_EQUAL(l.axes.weight[5], 1);
    CU_ASSERT_EQUAL(l.split[1], 8);
    /* A sub-axis before its primal axis, and a permutation: N4cHWC. */
    CU_ASSERT_PTR_NULL(ops_window_packed("N4cHWC", "NCHW", &l));
    CU_ASSERT_EQUAL(l.axes.canon[1], 1);
    CU_ASSERT_EQUAL(l.axes.weight[1], 1);
    CU_ASSERT_EQUAL(l.axes.weight[4], 4);
    /* A plain permutation: weights 1, no split. */
    CU_ASSERT_PTR_NULL(ops_window_packed("NHWC", "NCHW", &l));
    CU_ASSERT_EQUAL(l.axes.ndim, 4);
    for (int j = 0; j < 4; j++)
        CU_ASSERT_EQUAL(l.axes.weight[j], 1);
    CU_ASSERT_EQUAL(l.primal[1], 3); /* C is the layout's last axis */
}

static void test_rejects(void)
{
    PackedLayout l;
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed("NCHH", "NCHW", &l));  /* W missing */
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed("NCHW4d", "NCHW", &l)); /* d splits nothing */
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed("NCW", "NCHW", &l));
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed("NCHW0c", "NCHW", &l)); /* no factor 0 */
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed(NULL, "NCHW", &l));
    CU_ASSERT_PTR_NOT_NULL(ops_window_packed("NC?HW", "NCHW", &l));
}

static Tensor *arange_i32(int ndim, const int64_t *shape)
{
    Tensor *t = tensor_new((DataType){DT_INT, 32, 1}, ndim, shape);
    for (int64_t i = 0; i < t->numel; i++)
        tensor_set_i64(t, i, i);
    return t;
}

static void test_moves(void)
{
    PackedLayout l;
    CU_ASSERT_PTR_NULL_FATAL(ops_window_packed("NCW2c", "NCW", &l));
    /* (1, 2, 3, 2) in NCW2c holds C = 4 channels: element [0, C', w, c] is channel 2 C' + c. */
    int64_t packed_shape[] = {1, 2, 3, 2}, canon_shape[] = {1, 4, 3};
    Tensor *p = arange_i32(4, packed_shape);
    Tensor *c = tensor_new(p->dtype, 3, canon_shape);
    kernels_window_to_canonical(p, &l.axes, c);
    /* canonical [0, ch, w] = packed flat index (ch / 2) 6 + w 2 + ch % 2 */
    for (int ch = 0; ch < 4; ch++)
        for (int w = 0; w < 3; w++)
            CU_ASSERT_EQUAL(tensor_get_i64(c, ch * 3 + w), (ch / 2) * 6 + w * 2 + ch % 2);
    /* And back: the round trip is the identity. */
    Tensor *back = tensor_new(p->dtype, 4, packed_shape);
    kernels_window_from_canonical(c, &l.axes, back);
    for (int64_t i = 0; i < p->numel; i++)
        CU_ASSERT_EQUAL(tensor_get_i64(back, i), i);
    /* 3 channels into NCW2c: 2 blocks, the lane past channel 2 zero. */
    int64_t three[] = {1, 3, 1}, padded[] = {1, 2, 1, 2};
    Tensor *c3 = arange_i32(3, three);
    for (int64_t i = 0; i < 3; i++)
        tensor_set_i64(c3, i, 10 + i);
    Tensor *p3 = tensor_new(c3->dtype, 4, padded);
    kernels_window_from_canonical(c3, &l.axes, p3);
    CU_ASSERT_EQUAL(tensor_get_i64(p3, 0), 10);
    CU_ASSERT_EQUAL(tensor_get_i64(p3, 1), 11);
    CU_ASSERT_EQUAL(tensor_get_i64(p3, 2), 12);
    CU_ASSERT_EQUAL(tensor_get_i64(p3, 3), 0);
}

UNIT_SUITE(ops_window_packed)
{
    CU_pSuite s = CU_add_suite("ops_window_packed", NULL, NULL);
    CU_add_test(s, "packed layouts: axes, weights, splits", test_reads_packed);
    CU_add_test(s, "layouts that do not convert", test_rejects);
    CU_add_test(s, "tensors to canonical order and back", test_moves);
}
