/* test_value_compare: actual-versus-expected judgement of values, with reasons.
 * SPEC_NOTES: "Values" (comparison rules of CASE_FORMAT). */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/error.h"
#include "tools/tests/unit.h"
#include "values/compare.h"
#include "values/value_yaml.h"

static Value *val(const char *text)
{
    ValueYamlOptions opt = {NULL, true};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        return value_yaml_parse_text(text, &opt, &trap);
    fprintf(stderr, "\nunexpected: %s\n", error_format(&trap.error));
    CU_FAIL_FATAL("value did not parse");
    return NULL;
}

static bool same(const char *actual, const char *expected, const Tolerance *tol)
{
    return compare_values(val(actual), val(expected), tol, NULL);
}

/* The mismatch reason, which must contain `part`. */
static void expect_reason(const char *actual, const char *expected, const char *part)
{
    char *why = NULL;
    CU_ASSERT_FALSE(compare_values(val(actual), val(expected), NULL, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    if (strstr(why, part) == NULL)
        fprintf(stderr, "\nreason \"%s\" lacks \"%s\"\n", why, part);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, part));
}

static void test_floats(void)
{
    Tolerance dflt = compare_default_tolerance();
    CU_ASSERT_EQUAL(dflt.rtol, 1e-5);
    CU_ASSERT_EQUAL(dflt.atol, 1e-6);
    CU_ASSERT_FALSE(dflt.exact);
    Tolerance t = {0.5, 0.25, false}; /* bound for expected 2: 0.25 + 0.5 * 2 = 1.25 */
    CU_ASSERT_TRUE(compare_floats(3.25, 2.0, &t));
    CU_ASSERT_TRUE(compare_floats(0.75, 2.0, &t));
    CU_ASSERT_FALSE(compare_floats(3.25 + ldexp(1, -50), 2.0, &t));
    CU_ASSERT_FALSE(compare_floats(0.75 - ldexp(1, -50), 2.0, &t)); /* exact differences */
    /* The bound scales with the expected value, not the actual one. */
    CU_ASSERT_FALSE(compare_floats(2.0, 0.5, &t));
    CU_ASSERT_TRUE(compare_floats(100.001, 100.0, &dflt));
    CU_ASSERT_FALSE(compare_floats(100.0011, 100.0, &dflt));
    CU_ASSERT_TRUE(compare_floats(1e-6, 0.0, &dflt));
    CU_ASSERT_FALSE(compare_floats(1.1e-6, 0.0, &dflt));
    CU_ASSERT_TRUE(compare_floats(NAN, -NAN, &dflt));
    CU_ASSERT_FALSE(compare_floats(NAN, 1.0, &dflt));
    CU_ASSERT_FALSE(compare_floats(1.0, NAN, &dflt));
    CU_ASSERT_TRUE(compare_floats(INFINITY, INFINITY, &dflt));
    CU_ASSERT_FALSE(compare_floats(INFINITY, -INFINITY, &dflt));
    CU_ASSERT_FALSE(compare_floats(1e308, INFINITY, &dflt));
    CU_ASSERT_FALSE(compare_floats(INFINITY, 1e308, &dflt));
    CU_ASSERT_TRUE(compare_floats(-0.0, 0.0, &dflt));
    Tolerance exact = {0.5, 0.5, true}; /* exact ignores rtol and atol */
    CU_ASSERT_FALSE(compare_floats(-0.0, 0.0, &exact));
    CU_ASSERT_TRUE(compare_floats(0.1, 0.1, &exact));
    CU_ASSERT_FALSE(compare_floats(nextafter(0.1, 1.0), 0.1, &exact));
    CU_ASSERT_TRUE(compare_floats(NAN, NAN, &exact));
}

static void test_tensors(void)
{
    Tolerance exact = {0, 0, true};
    const char *e = "{tensor: {dtype: float32, shape: [3], data: [1, nan, -inf]}}";
    CU_ASSERT_TRUE(
        same("{tensor: {dtype: float32, shape: [3], data: [1.000001, .nan, -.inf]}}", e, NULL));
    CU_ASSERT_FALSE(
        same("{tensor: {dtype: float32, shape: [3], data: [1.000001, nan, -inf]}}", e, &exact));
    CU_ASSERT_TRUE(same("{tensor: {dtype: float32, shape: [3], data: [1, nan, -inf]}}", e, &exact));
    CU_ASSERT_TRUE(same("{tensor: {dtype: float16, shape: [1], data: [-0.0]}}",
                        "{tensor: {dtype: float16, shape: [1], data: [0]}}", NULL));
    CU_ASSERT_FALSE(same("{tensor: {dtype: float16, shape: [1], data: [-0.0]}}",
                         "{tensor: {dtype: float16, shape: [1], data: [0]}}", &exact));
    /* Integer data is exact whatever the tolerance. */
    Tolerance loose = {1.0, 10.0, false};
    CU_ASSERT_FALSE(same("{tensor: {dtype: int32, shape: [1], data: [5]}}",
                         "{tensor: {dtype: int32, shape: [1], data: [6]}}", &loose));
    CU_ASSERT_FALSE(same("{tensor: {dtype: bool, shape: [], data: true}}",
                         "{tensor: {dtype: bool, shape: [], data: false}}", &loose));
    CU_ASSERT_TRUE(same("{tensor: {dtype: uint64, shape: [1], data: [18446744073709551615]}}",
                        "{tensor: {dtype: uint64, shape: [1], data: [18446744073709551615]}}",
                        NULL));
    expect_reason("{tensor: {dtype: float32, shape: [2, 2], data: [1, 2, 3, 4]}}",
                  "{tensor: {dtype: float32, shape: [2, 2], data: [1, 2, 3.5, 4]}}",
                  "element [1, 0]: got 3.0, expected 3.5 (float32)");
    expect_reason("{tensor: {dtype: float32, shape: [2], data: [1, 2]}}",
                  "{tensor: {dtype: float64, shape: [2], data: [1, 2]}}",
                  "dtype: got float32, expected float64");
    expect_reason("{tensor: {dtype: int8, shape: [2, 1], data: [1, 2]}}",
                  "{tensor: {dtype: int8, shape: [1, 2], data: [1, 2]}}",
                  "shape: got [2, 1], expected [1, 2]");
    expect_reason("{tensor: {dtype: int8, shape: [1], data: [1]}}",
                  "{tensor: {dtype: int8, shape: [], data: 1}}", "shape: got [1], expected []");
    /* Elements are named in their dtype: signed, unsigned beyond int64, bool. */
    expect_reason("{tensor: {dtype: int8, shape: [2], data: [1, -3]}}",
                  "{tensor: {dtype: int8, shape: [2], data: [1, -4]}}",
                  "element [1]: got -3, expected -4");
    expect_reason("{tensor: {dtype: uint64, shape: [1], data: [18446744073709551615]}}",
                  "{tensor: {dtype: uint64, shape: [1], data: [0]}}",
                  "got 18446744073709551615, expected 0");
    expect_reason("{tensor: {dtype: bool, shape: [1], data: [true]}}",
                  "{tensor: {dtype: bool, shape: [1], data: [false]}}", "got true, expected false");
}

static void test_structures(void)
{
    CU_ASSERT_TRUE(same("{tuple: [{shape: [1, 2]}, {prim: {dtype: int64, value: 3}}]}",
                        "{tuple: [{shape: [1, 2]}, {prim: {dtype: int64, value: 3}}]}", NULL));
    expect_reason("{tuple: [{shape: [1]}, {tuple: [{string: a}, {string: b}]}]}",
                  "{tuple: [{shape: [1]}, {tuple: [{string: a}, {string: c}]}]}",
                  "at [1][1]: string: got \"b\", expected \"c\"");
    expect_reason("{tuple: []}", "{tuple: [{null: true}]}", "tuple length: got 0, expected 1");
    expect_reason("{shape: [1, 2]}", "{shape: [1, 3]}", "shape value: got [1, 2], expected [1, 3]");
    expect_reason("{prim: {dtype: int32, value: 3}}", "{prim: {dtype: int64, value: 3}}",
                  "prim dtype: got int32, expected int64");
    expect_reason("{prim: {dtype: int64, value: 3}}", "{prim: {dtype: int64, value: 4}}",
                  "prim value: got 3, expected 4");
    CU_ASSERT_TRUE(same("{prim: {dtype: float32, value: 1.0000001}}",
                        "{prim: {dtype: float32, value: 1}}", NULL));
    CU_ASSERT_TRUE(
        same("{prim: {dtype: float64, value: nan}}", "{prim: {dtype: float64, value: nan}}", NULL));
    expect_reason("{shape: [1]}", "{tensor: {dtype: int8, shape: [], data: 1}}",
                  "kind: got shape, expected tensor");
    CU_ASSERT_TRUE(same("{dtype: \"float32\"}", "{dtype: \"float32\"}", NULL));
    expect_reason("{dtype: \"float32\"}", "{dtype: \"int32\"}", "dtype: got \"float32\"");
    CU_ASSERT_TRUE(same("{null: true}", "{null: true}", NULL));
    expect_reason("{tuple: []}", "{null: true}", "kind: got tuple, expected null");
}

static void test_callables_objects(void)
{
    Value *pattern = val("{callable: true}");
    CU_ASSERT_TRUE(
        compare_values(value_packed("spectest.print", false, NULL), pattern, NULL, NULL));
    CU_ASSERT_TRUE(compare_values(value_closure(NULL, NULL), pattern, NULL, NULL));
    CU_ASSERT_TRUE(compare_values(value_primfunc(NULL), pattern, NULL, NULL));
    char *why = NULL;
    CU_ASSERT_FALSE(compare_values(value_null(), pattern, NULL, &why));
    CU_ASSERT_PTR_NOT_NULL(why != NULL ? strstr(why, "expected a callable") : NULL);
    CU_ASSERT_FALSE(compare_values(value_object("x"), pattern, NULL, NULL));
    /* An expected closure is matched on kind alone too. */
    CU_ASSERT_TRUE(
        compare_values(value_packed("f", true, NULL), value_closure(NULL, NULL), NULL, NULL));
    Value *obj = val("{object: \"spectest.Object\"}");
    CU_ASSERT_TRUE(compare_values(value_object("spectest.Object"), obj, NULL, NULL));
    CU_ASSERT_FALSE(compare_values(value_object("other"), obj, NULL, &why));
    CU_ASSERT_PTR_NOT_NULL(why != NULL ? strstr(why, "object name") : NULL);
    CU_ASSERT_FALSE(compare_values(value_null(), obj, NULL, NULL));
    /* The reason slot is cleared on a match. */
    why = (char *)"stale";
    CU_ASSERT_TRUE(compare_values(value_null(), value_null(), NULL, &why));
    CU_ASSERT_PTR_NULL(why);
}

UNIT_SUITE(value_compare)
{
    CU_pSuite s = CU_add_suite("value_compare", NULL, NULL);
    CU_add_test(s, "floats", test_floats);
    CU_add_test(s, "tensors", test_tensors);
    CU_add_test(s, "structures", test_structures);
    CU_add_test(s, "callables_objects", test_callables_objects);
}
