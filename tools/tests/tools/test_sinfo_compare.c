/* test_sinfo_compare: StructInfo expectations judged by meaning (the prover), text equality
 * only on request. SPEC_NOTES: "The conformance runner" (SINFO-CMP-1). */
#include <string.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"
#include "tools/conform/sinfo_compare.h"
#include "tools/tests/unit.h"

static bool same(const char *a, const char *b)
{
    return sinfo_texts_same_meaning(a, b, NULL);
}

#define F32(dims) "R.Tensor((" dims "), dtype=\"float32\")"

static void test_equal_by_meaning(void)
{
    CU_ASSERT(same(F32("n * 2, 3"), F32("2 * n, 3")));
    CU_ASSERT(same(F32("n * 2, 3"), F32("n + n, 3")));
    CU_ASSERT(same(F32("\"n * 2\", 3"), F32("n * 2, 3")));
    CU_ASSERT(same(F32("n * 6 // 3, m"), F32("n * 2, m")));
    CU_ASSERT(same("R.Shape([n * 2, 4])", "R.Shape([2 * n, 4])"));
    CU_ASSERT(same("R.Prim(value=\"n + 1\")", "R.Prim(value=\"1 + n\")"));
    CU_ASSERT(same("R.Tuple(" F32("n, 3") ", R.Object)", "R.Tuple(" F32("n, 3") ", R.Object)"));
    CU_ASSERT(same("R.Tensor(dtype=\"int64\", ndim=2)", "R.Tensor(ndim=2, dtype=\"int64\")"));
}

static void test_different(void)
{
    CU_ASSERT_FALSE(same(F32("n, 3"), F32("m, 3")));
    CU_ASSERT_FALSE(same(F32("n, 3"), "R.Tensor((n, 3), dtype=\"float16\")"));
    CU_ASSERT_FALSE(same(F32("n, 3"), F32("n, 3, 1")));
    CU_ASSERT_FALSE(same(F32("n, 3"), "R.Tensor(dtype=\"float32\", ndim=2)"));
    CU_ASSERT_FALSE(same(F32("n + 1, 3"), F32("n, 3")));
    CU_ASSERT_FALSE(same("R.Shape([n])", F32("n,")));
    CU_ASSERT_FALSE(same("R.Tuple(R.Object)", "R.Tuple(R.Object, R.Object)"));
    /* An opaque callable's derive_func is part of its StructInfo. */
    CU_ASSERT_FALSE(
        same("R.Callable(derive_func=\"my.derive\")", "R.Callable(derive_func=\"empty_derive\")"));
    CU_ASSERT_FALSE(same("R.Callable(derive_func=\"my.derive\")", "R.Callable()"));
    CU_ASSERT(
        same("R.Callable(derive_func=\"my.derive\")", "R.Callable(derive_func=\"my.derive\")"));
    const char *why = NULL;
    CU_ASSERT_FALSE(sinfo_texts_same_meaning("R.Tensor((", F32("n,"), &why));
    CU_ASSERT_PTR_NOT_NULL(why);
}

static CaseResult judge(const char *tags, const char *expected)
{
    const char *text = mem_printf(
        "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [SINFO-CMP-1]\n%s"
        "    program: \"@R.function\\ndef main(x: R.Tensor((\\\"n\\\", 3), \\\"float32\\\")):\\n"
        "    y = R.concat((x, x))\\n    return y\\n\"\n"
        "    expect: {struct_info: {y: '%s'}}\n",
        tags, expected);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        CaseResult none = {OUTCOME_FAIL, NULL, 0};
        return none;
    }
    Adapter ad;
    adapter_ref_init(&ad);
    return runner_run_case(&ad, case_file_parse("t.yaml", text, &trap)->cases[0]);
}

/* The runner: by meaning by default, by text under the sinfo-text tag. */
static void test_runner(void)
{
    CU_ASSERT_EQUAL(judge("", F32("2 * n, 3")).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(judge("", F32("n * 2, 3")).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(judge("", F32("n * 3, 3")).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(judge("    tags: [sinfo-text]\n", F32("2 * n, 3")).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(judge("    tags: [sinfo-text]\n", F32("n * 2, 3")).outcome, OUTCOME_PASS);
}

UNIT_SUITE(sinfo_compare)
{
    CU_pSuite s = CU_add_suite("sinfo_compare", 0, 0);
    CU_add_test(s, "equal by meaning", test_equal_by_meaning);
    CU_add_test(s, "different", test_different);
    CU_add_test(s, "the runner", test_runner);
}
