/* test_dist: placements, mesh references and mesh equality of the distributed dialect, on the
 * internal functions. SPEC_NOTES §4.24 (DIST-1, DIST-2). */
#include <string.h>

#include "ast/dist.h"
#include "tools/tests/unit.h"

static void test_placement_text(void)
{
    Placement p;
    CU_ASSERT_PTR_NULL(dist_placement_parse("S[0], R", &p));
    CU_ASSERT_EQUAL(p.n, 2);
    CU_ASSERT_EQUAL(p.axes[0], 0);
    CU_ASSERT_EQUAL(p.axes[1], -1);
    CU_ASSERT_STRING_EQUAL(dist_placement_str(&p), "S[0], R");
    /* commas and blanks both separate; none are needed between specs */
    CU_ASSERT_PTR_NULL(dist_placement_parse("RS[12] R", &p));
    CU_ASSERT_EQUAL(p.n, 3);
    CU_ASSERT_EQUAL(p.axes[1], 12);
    CU_ASSERT_STRING_EQUAL(dist_placement_str(&p), "R, S[12], R");
    CU_ASSERT_PTR_NULL(dist_placement_parse("", &p));
    CU_ASSERT_EQUAL(p.n, 0);
    CU_ASSERT_PTR_NOT_NULL(dist_placement_parse("X", &p));
    CU_ASSERT_PTR_NOT_NULL(dist_placement_parse("S0", &p));
    CU_ASSERT_PTR_NOT_NULL(dist_placement_parse("S[-1]", &p));
    CU_ASSERT_PTR_NOT_NULL(dist_placement_parse("S[0", &p));
    CU_ASSERT_PTR_NOT_NULL(dist_placement_parse("S[]", &p));
    Placement q;
    dist_placement_parse("S[0],R", &p);
    dist_placement_parse("S[0] R", &q);
    CU_ASSERT_TRUE(dist_placement_equal(&p, &q));
    dist_placement_parse("S[0]", &q);
    CU_ASSERT_FALSE(dist_placement_equal(&p, &q));
    CU_ASSERT_STRING_EQUAL(dist_placement_str(dist_placement_replicated(2)), "R, R");
}

static void test_mesh_refs(void)
{
    const char *name;
    int index;
    CU_ASSERT_TRUE(dist_mesh_ref_parse("mesh[1]", &name, &index));
    CU_ASSERT_STRING_EQUAL(name, "mesh");
    CU_ASSERT_EQUAL(index, 1);
    CU_ASSERT_FALSE(dist_mesh_ref_parse("mesh", &name, &index));
    CU_ASSERT_FALSE(dist_mesh_ref_parse("[0]", &name, &index));
    CU_ASSERT_FALSE(dist_mesh_ref_parse("mesh[a]", &name, &index));
    CU_ASSERT_FALSE(dist_mesh_ref_parse("mesh[0]x", &name, &index));
    int64_t shape[] = {2};
    int64_t ids_a[] = {0, 1};
    int64_t ids_b[] = {2, 3};
    DeviceMesh a = {.shape = shape, .ndim = 1, .device_ids = ids_a, .ndevices = 2};
    DeviceMesh b = a;
    CU_ASSERT_TRUE(dist_mesh_equal(&a, &b));
    b.device_ids = ids_b;
    CU_ASSERT_FALSE(dist_mesh_equal(&a, &b));
    b = a;
    b.has_range = true;
    CU_ASSERT_FALSE(dist_mesh_equal(&a, &b)); /* TVM keeps the range it came from */
}

UNIT_SUITE(dist)
{
    CU_pSuite s = CU_add_suite("dist", 0, 0);
    CU_add_test(s, "placement text", test_placement_text);
    CU_add_test(s, "mesh references and equality", test_mesh_refs);
}
