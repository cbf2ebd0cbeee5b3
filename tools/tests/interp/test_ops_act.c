/* test_ops_act: the pad modes' source index at the borders (which TVM reads out of bounds for
 * over-wide reflection) and the softplus threshold switch, checked by hand.
 * SPEC_NOTES: "Operators" (OP-nn.pad, OP-nn.softplus). */
#include "tools/tests/unit.h"
#include "values/kernels/kernels_act.h"
#include "values/kernels/kernels_pad.h"

static void test_pad_source(void)
{
    /* an axis of 3 padded by 2 in front: outputs 0..1 are padding */
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_CONSTANT, 0, 2, 3), -1);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_CONSTANT, 2, 2, 3), 0);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_REFLECT, 0, 2, 3), 2);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_REFLECT, 1, 2, 3), 1);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_REFLECT, 5, 2, 3), 1);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_REPLICATE, 0, 2, 3), 0);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_REPLICATE, 6, 2, 3), 2);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_CIRCULAR, 0, 2, 3), 1);
    CU_ASSERT_EQUAL(kernels_pad_source(PAD_CIRCULAR, 5, 2, 3), 0);
}

static void test_softplus_threshold(void)
{
    ActParams p = {0.01, 2.0, 10.0};
    CU_ASSERT_EQUAL(kernels_act_scalar(ACT_SOFTPLUS, &p, 6.0), 6.0); /* 2 x = 12 > 10 */
    CU_ASSERT_TRUE(kernels_act_scalar(ACT_SOFTPLUS, &p, 5.0) > 5.0); /* 2 x = 10, not above */
    CU_ASSERT_EQUAL(kernels_act_scalar(ACT_LEAKYRELU, &p, -2.0), -0.02);
}

UNIT_SUITE(ops_act)
{
    CU_pSuite s = CU_add_suite("ops_act", 0, 0);
    CU_add_test(s, "pad_source", test_pad_source);
    CU_add_test(s, "softplus_threshold", test_softplus_threshold);
}
