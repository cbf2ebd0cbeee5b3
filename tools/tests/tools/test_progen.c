/* Unit tests of tools/progen: programs are reproducible and valid, and each differential
 * check (GEN-1..GEN-4) fails where it must. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/progen/differential.h"
#include "tools/progen/progen.h"
#include "tools/tests/unit.h"

static void test_reproducible(void)
{
    GenProgram *a = progen_program(99, 10, GEN_ALL);
    GenProgram *b = progen_program(99, 10, GEN_ALL);
    GenProgram *c = progen_program(100, 10, GEN_ALL);
    CU_ASSERT_STRING_EQUAL(a->text, b->text);
    CU_ASSERT_EQUAL(a->nargs, b->nargs);
    for (int i = 0; i < a->nargs && i < b->nargs; i++)
        CU_ASSERT_STRING_EQUAL(a->args[i], b->args[i]);
    CU_ASSERT(strcmp(a->text, c->text) != 0);
    CU_ASSERT(a->nargs >= 2 && a->nargs <= 3);
}

static void test_features_respected(void)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        GenProgram *p = progen_program(seed, 20, GEN_ALL & ~(GEN_IF | GEN_MATCH_CAST));
        CU_ASSERT_EQUAL(p->n_if, 0);
        CU_ASSERT_EQUAL(p->n_match_cast, 0);
        CU_ASSERT_PTR_NULL(strstr(p->text, "R.match_cast("));
        CU_ASSERT_PTR_NULL(strstr(p->text, "\n        if "));
    }
}

static void test_generated_pass(void)
{
    for (uint64_t seed = 1; seed <= 60; seed++) {
        DiffResult r = differential_check(progen_program(seed, 10, GEN_ALL));
        CU_ASSERT(r.ok);
        if (!r.ok)
            fprintf(stderr, "seed %llu: %s: %s\n", (unsigned long long)seed, r.rule, r.why);
        CU_ASSERT_PTR_NOT_NULL(r.result);
    }
}

static GenProgram *hand_program(const char *text, const char *arg)
{
    GenProgram *p = MEM_NEW(GenProgram);
    p->text = (char *)text;
    p->args = MEM_ARRAY(char *, 1);
    p->args[0] = (char *)arg;
    p->nargs = 1;
    return p;
}

static const char *const ARG = "{tensor: {dtype: float32, shape: [2], data: [1, 2]}}";

static void test_check_failures(void)
{
    /* GEN-1: does not parse, or does not check. */
    DiffResult r = differential_check(hand_program("@R.function\ndef main(x:\n", ARG));
    CU_ASSERT_FALSE(r.ok);
    CU_ASSERT_STRING_EQUAL(r.rule, "GEN-1");
    r = differential_check(hand_program("@R.function\n"
                                        "def main(x: R.Tensor((2,), \"float32\")):\n"
                                        "    y = R.add(x, R.ones((3,), \"float32\"))\n"
                                        "    return y\n",
                                        ARG));
    CU_ASSERT_FALSE(r.ok);
    CU_ASSERT_STRING_EQUAL(r.rule, "GEN-1");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "does not check"));
    /* GEN-2: checks, but the run fails (the argument's shape is not the annotation's). */
    r = differential_check(hand_program("@R.function\n"
                                        "def main(x: R.Tensor((3,), \"float32\")):\n"
                                        "    return x\n",
                                        ARG));
    CU_ASSERT_FALSE(r.ok);
    CU_ASSERT_STRING_EQUAL(r.rule, "GEN-2");
    /* A program with every property. */
    r = differential_check(hand_program("@R.function\n"
                                        "def main(x: R.Tensor((2,), \"float32\")):\n"
                                        "    y = R.add(x, R.multiply(x, x))\n"
                                        "    return y\n",
                                        ARG));
    CU_ASSERT(r.ok);
}

UNIT_SUITE(progen)
{
    CU_pSuite s = CU_add_suite("progen", NULL, NULL);
    CU_add_test(s, "the same seed gives the same program", test_reproducible);
    CU_add_test(s, "left-out constructs do not appear", test_features_respected);
    CU_add_test(s, "generated programs pass GEN-1..GEN-4", test_generated_pass);
    CU_add_test(s, "each check fails where it must", test_check_failures);
}
