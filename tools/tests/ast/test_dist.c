/* test_dist: the distributed dialect on its internal functions: placements, mesh references
 * and mesh equality (ast/dist), then the StructInfo of the R.dist.* operators and of TVM's
 * generic sharding path (interp/structinfo/sinfo_dist). SPEC_NOTES §4.24 (DIST-1..DIST-5). */
#include <setjmp.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/structinfo/sinfo_check.h"
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

/* ---- StructInfo (DIST-3..DIST-5) ---- */

typedef struct Checked {
    IRModule *mod;
    DiagList errors;
    DiagList warnings;
    SinfoBindings bindings;
} Checked;

#define MESHES                                                                                     \
    "@I.ir_module\n"                                                                               \
    "class M:\n"                                                                                   \
    "    I.module_global_infos({\"mesh\": [R.device_mesh((2,), I.Range(0, 2)), "                   \
    "R.device_mesh((2, 2), I.Range(0, 4))]})\n"                                                    \
    "    @R.function\n"

static Checked check(const char *body)
{
    Checked r;
    memset(&r, 0, sizeof r);
    diag_init(&r.errors);
    diag_init(&r.warnings);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return r;
    }
    r.mod = script_parse("t.py", mem_printf("%s%s", MESHES, body), &trap);
    sinfo_check_module_report(r.mod, &r.errors, &r.warnings, &r.bindings);
    return r;
}

static const char *sinfo_of(const Checked *r, const char *name)
{
    const StructInfo *s = r->mod ? sinfo_bindings_find(&r->bindings, r->mod, name) : NULL;
    return s ? printer_print_sinfo(s) : "(none)";
}

static const char *first_code(const DiagList *d)
{
    const Error *e = diag_first(d);
    return e ? e->code : "";
}

/* A binding `y = <call>` in main(x: <x>, w: <w>), checked; the sinfo of y or the error. */
static const char *derive(const char *x, const char *w, const char *call, const char **code)
{
    Checked r = check(
        mem_printf("    def main(x: %s, w: %s):\n        y = %s\n        return y\n", x, w, call));
    *code = first_code(&r.errors);
    return sinfo_of(&r, "main.y");
}

#define D44(p) "R.DTensor((4, 4), \"float32\", \"mesh[0]\", \"" p "\")"

static void test_dist_ops(void)
{
    const char *code;
    CU_ASSERT_STRING_EQUAL(
        derive(D44("R"), D44("R"), "R.dist.redistribute(x, \"mesh[0]\", \"S[1]\")", &code),
        D44("S[1]"));
    CU_ASSERT_STRING_EQUAL(
        derive(D44("R"), D44("R"), "R.dist.redistribute_replica_to_shard(x, 2, 0)", &code),
        D44("S[0]"));
    derive(D44("R"), D44("R"), "R.dist.redistribute(x, \"mesh[1]\", \"R\")", &code);
    CU_ASSERT_STRING_EQUAL(code, "PlacementRank");
    derive("R.Tensor((4, 4), \"float32\")", D44("R"),
           "R.dist.redistribute_replica_to_shard(x, 3, 0)", &code);
    CU_ASSERT_STRING_EQUAL(code, "DistArgument");
    CU_ASSERT_STRING_EQUAL(derive("R.Tensor((4, 6), \"float32\")", D44("R"),
                                  "R.dist.redistribute_replica_to_shard(x, 3, 1)", &code),
                           "R.Tensor((4, 2), dtype=\"float32\")");
}

static void test_generic_path(void)
{
    const char *code;
    /* elementwise, broadcast from the right, matmul's columns, permutation */
    CU_ASSERT_STRING_EQUAL(derive(D44("S[1]"), D44("R"), "R.exp(x)", &code), D44("S[1]"));
    CU_ASSERT_STRING_EQUAL(derive(D44("R"), "R.DTensor((4,), \"float32\", \"mesh[0]\", \"S[0]\")",
                                  "R.multiply(x, w)", &code),
                           D44("S[1]"));
    CU_ASSERT_STRING_EQUAL(derive(D44("S[1]"), D44("S[0]"), "R.matmul(x, w)", &code), D44("R"));
    CU_ASSERT_STRING_EQUAL(derive(D44("S[0]"), D44("S[1]"), "R.matmul(x, w)", &code), D44("S[1]"));
    CU_ASSERT_STRING_EQUAL(derive(D44("S[0]"), D44("R"), "R.permute_dims(x, [1, 0])", &code),
                           D44("S[1]"));
    /* a reduced axis is replicated; the ones after it move down */
    CU_ASSERT_STRING_EQUAL(derive(D44("S[1]"), D44("R"), "R.sum(x, axis=[0])", &code),
                           "R.DTensor((4,), \"float32\", \"mesh[0]\", \"S[0]\")");
    CU_ASSERT_STRING_EQUAL(derive(D44("S[0]"), D44("R"), "R.sum(x, axis=[0])", &code),
                           "R.DTensor((4,), \"float32\", \"mesh[0]\", \"R\")");
    /* errors */
    derive(D44("S[0]"), "R.Tensor((4, 4), \"float32\")", "R.add(x, w)", &code);
    CU_ASSERT_STRING_EQUAL(code, "DistMixedArguments");
    derive(D44("S[0]"), D44("R"), "R.astype(x, \"float16\")", &code);
    CU_ASSERT_STRING_EQUAL(code, "DistNoInference");
    derive("R.DTensor((4, 4), \"float32\", \"mesh[1]\", \"S[0], R\")",
           "R.DTensor((4, 4), \"float32\", \"mesh[1]\", \"R, S[0]\")", "R.add(x, w)", &code);
    CU_ASSERT_STRING_EQUAL(code, "DistShardingConflict");
    derive(D44("S[0]"), "R.DTensor((4, 4), \"float32\", \"mesh[1]\", \"R, R\")", "R.add(x, w)",
           &code);
    CU_ASSERT_STRING_EQUAL(code, "DistShardingConflict");
}

static void test_relations(void)
{
    const char *code;
    derive(D44("S[0]"), D44("R"), "x\n        z: " D44("R") " = x", &code);
    CU_ASSERT_STRING_EQUAL(code, "Incompatible");
    CU_ASSERT_STRING_EQUAL(derive(D44("S[0]"), D44("R"), "x", &code), D44("S[0]"));
    CU_ASSERT_STRING_EQUAL(code, "");
}

UNIT_SUITE(dist_sinfo)
{
    CU_pSuite s = CU_add_suite("dist_sinfo", 0, 0);
    CU_add_test(s, "R.dist operators", test_dist_ops);
    CU_add_test(s, "the generic sharding path", test_generic_path);
    CU_add_test(s, "DTensor relations", test_relations);
}
