/* test_ops_misc: the misc family's kernels on values worked out by hand: quantize's ties and
 * clipping, dequantize's float16 subtraction, resize2d's integer-division path and rounding,
 * collapse_sum and take_backward's accumulation. SPEC_NOTES: "Operators" (OP-quantize,
 * OP-dequantize, OP-image.resize2d, OP-collapse_sum_to, OP-grad.take_backward). */
#include "tools/tests/unit.h"
#include "values/kernels/kernels_image.h"
#include "values/kernels/kernels_misc.h"

static Tensor *vec(DataType t, int64_t n, const double *v)
{
    Tensor *x = tensor_new(t, 1, &n);
    for (int64_t i = 0; i < n; i++)
        tensor_set_f64(x, i, v[i]);
    return x;
}

static Tensor *scalar(DataType t, double v)
{
    Tensor *x = tensor_new(t, 0, NULL);
    tensor_set_f64(x, 0, v);
    return x;
}

static void test_quantize_ties_and_clip(void)
{
    const double in[6] = {2.5, -2.5, 0.5, 1000.0, -1000.0, 0.49};
    Tensor *x = vec(dtype_float32(), 6, in);
    Tensor *out = tensor_new(dtype_make(DT_INT, 8, 1), 1, x->shape);
    QdqParams p = {scalar(dtype_float32(), 1.0), scalar(dtype_make(DT_INT, 8, 1), 1), 0};
    kernels_quantize(x, &p, out);
    /* halves away from zero, then + 1, then clipped to [-128, 127] */
    const int64_t want[6] = {4, -2, 2, 127, -128, 1};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(tensor_get_i64(out, i), want[i]);
}

static void test_dequantize_float16_zero_point(void)
{
    const double in[2] = {2049, 3};
    Tensor *x = vec(dtype_int32(), 2, in);
    Tensor *out = tensor_new(dtype_float32(), 1, x->shape);
    QdqParams p = {scalar(dtype_float32(), 1.0), scalar(dtype_make(DT_FLOAT, 16, 1), 0.5), 0};
    kernels_dequantize(x, &p, out);
    /* float16(2049) = 2048; 2048 - 0.5 rounds back to 2048 in float16 */
    CU_ASSERT_EQUAL(tensor_get_f64(out, 0), 2048.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 1), 2.5);
}

static void test_resize_nearest_asymmetric(void)
{
    int64_t ishape[4] = {1, 1, 1, 2}, oshape[4] = {1, 1, 1, 4};
    Tensor *x = tensor_new(dtype_float32(), 4, ishape),
           *out = tensor_new(dtype_float32(), 4, oshape);
    tensor_set_f64(x, 0, 10);
    tensor_set_f64(x, 1, 20);
    ResizeParams p = {
        2, 3, RESIZE_NEAREST, RESIZE_ASYMMETRIC, RESIZE_ROUND, {0, 0, 0, 0}, -0.75, false, 0};
    kernels_resize2d(x, &p, out);
    /* 2 to 4 is an integral upscale: x / 2, whatever the rounding method */
    const double want[4] = {10, 10, 20, 20};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(tensor_get_f64(out, i), want[i]);
}

/* NCHW2c: H and W at axes 2 and 3, the packed channel axis 4 indexes its own image. */
static void test_resize_packed(void)
{
    int64_t ishape[5] = {1, 1, 1, 2, 2}, oshape[5] = {1, 1, 1, 4, 2};
    Tensor *x = tensor_new(dtype_float32(), 5, ishape),
           *out = tensor_new(dtype_float32(), 5, oshape);
    const double in[4] = {10, 1, 20, 2}; /* (w, c): (0, 0) (0, 1) (1, 0) (1, 1) */
    for (int i = 0; i < 4; i++)
        tensor_set_f64(x, i, in[i]);
    ResizeParams p = {
        2, 3, RESIZE_NEAREST, RESIZE_ASYMMETRIC, RESIZE_ROUND, {0, 0, 0, 0}, -0.75, false, 0};
    kernels_resize2d(x, &p, out);
    const double want[8] = {10, 1, 10, 1, 20, 2, 20, 2};
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(tensor_get_f64(out, i), want[i]);
}

static void test_resize_rounding_names(void)
{
    ResizeRounding r;
    ResizeCoord c;
    ResizeMethod m;
    CU_ASSERT_TRUE(kernels_resize_rounding("", &r) && r == RESIZE_DEFAULT);
    CU_ASSERT_TRUE(kernels_resize_coord("tf_crop_and_resize", &c));
    CU_ASSERT_FALSE(kernels_resize_method("bilinear", &m));
}

static void test_collapse_and_take_backward(void)
{
    int64_t xs[2] = {2, 3}, os[2] = {1, 3};
    Tensor *x = tensor_new(dtype_float32(), 2, xs), *out = tensor_new(dtype_float32(), 2, os);
    for (int i = 0; i < 6; i++)
        tensor_set_f64(x, i, i);
    kernels_collapse_sum(x, out);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 0), 3.0);
    CU_ASSERT_EQUAL(tensor_get_f64(out, 2), 7.0);
    const double g[3] = {1, 2, 4}, idx[3] = {1, 1, 0};
    int64_t n3 = 3;
    Tensor *dst = tensor_new(dtype_float32(), 1, &n3);
    CU_ASSERT_EQUAL(
        kernels_take_backward(vec(dtype_float32(), 3, g), vec(dtype_int64(), 3, idx), 0, dst), -1);
    CU_ASSERT_EQUAL(tensor_get_f64(dst, 0), 4.0);
    CU_ASSERT_EQUAL(tensor_get_f64(dst, 1), 3.0);
    CU_ASSERT_EQUAL(tensor_get_f64(dst, 2), 0.0);
    const double bad[1] = {3};
    CU_ASSERT_EQUAL(
        kernels_take_backward(vec(dtype_float32(), 1, g), vec(dtype_int64(), 1, bad), 0, dst), 0);
}

static void test_nms_suppression(void)
{
    /* one class of three boxes: box 1 overlaps box 0 by IoU 0.8 / 1.2, box 2 is apart */
    int64_t bs[3] = {1, 3, 4}, ss[3] = {1, 1, 3};
    Tensor *boxes = tensor_new(dtype_float32(), 3, bs),
           *scores = tensor_new(dtype_float32(), 3, ss);
    const double b[12] = {0, 0, 1, 1, 0, 0.2, 1, 1.2, 0, 5, 1, 6}, s[3] = {0.7, 0.9, 0.8};
    for (int i = 0; i < 12; i++)
        tensor_set_f64(boxes, i, b[i]);
    for (int i = 0; i < 3; i++)
        tensor_set_f64(scores, i, s[i]);
    int64_t sel[3], count[1];
    NmsParams p = {3, 0.5, 0.0, INT64_MAX};
    NmsSelection chosen = {sel, count, 0};
    kernels_nms(boxes, scores, &p, &chosen);
    CU_ASSERT_EQUAL(count[0], 2); /* box 1 (0.9), then box 2 (0.8); box 0 suppressed */
    CU_ASSERT_EQUAL(sel[0], 1);
    CU_ASSERT_EQUAL(sel[1], 2);
    CU_ASSERT_EQUAL(chosen.work, 3); /* box 1 meets the two after it, box 2 the one after */
    p.budget = 2;                    /* enough for box 1's comparisons, not for box 2's */
    kernels_nms(boxes, scores, &p, &chosen);
    CU_ASSERT(chosen.work > p.budget);
    p.budget = 3;
    kernels_nms(boxes, scores, &p, &chosen);
    CU_ASSERT_EQUAL(chosen.work, 3);
    CU_ASSERT_EQUAL(count[0], 2);
    p.iou_threshold = 0.0;
    kernels_nms(boxes, scores, &p, &chosen);
    CU_ASSERT_EQUAL(count[0], 0); /* iou_threshold 0 selects nothing, as topi's loop */
}

UNIT_SUITE(ops_misc)
{
    CU_pSuite s = CU_add_suite("ops_misc", 0, 0);
    CU_add_test(s, "quantize_ties_and_clip", test_quantize_ties_and_clip);
    CU_add_test(s, "dequantize_float16_zero_point", test_dequantize_float16_zero_point);
    CU_add_test(s, "resize_nearest_asymmetric", test_resize_nearest_asymmetric);
    CU_add_test(s, "resize_packed", test_resize_packed);
    CU_add_test(s, "resize_rounding_names", test_resize_rounding_names);
    CU_add_test(s, "collapse_and_take_backward", test_collapse_and_take_backward);
    CU_add_test(s, "nms_suppression", test_nms_suppression);
}
