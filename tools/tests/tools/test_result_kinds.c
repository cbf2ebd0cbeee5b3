/* test_result_kinds: defined, implementation-defined and undefined expected results judged
 * against a deliberately different implementation: the reference with its run answer
 * replaced. SPEC_NOTES: "Rule ids" (RESULT-1..3), "Operator semantics that are TVM's". */
#include <string.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"
#include "tools/tests/unit.h"

/* What the other implementation answers to a run: a value, or (NULL) a runtime error. */
static YamlNode *canned;

static bool other_run(void *self, AdapterProgram *prog, const RunRequest *req, RunResult *out,
                      Error *err)
{
    (void)self, (void)prog, (void)req;
    if (canned == NULL) {
        memset(err, 0, sizeof *err);
        err->phase = PHASE_RUNTIME;
        err->code = "OpPrecondition";
        err->message = "the other implementation traps";
        return false;
    }
    out->value = canned;
    out->stdout_text = "";
    return true;
}

static Adapter other_adapter(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    ad.name = "other";
    ad.run = other_run;
    return ad;
}

static const char PROGRAM[] = "@R.function\\n"
                              "def main(x: R.Tensor((2,), \\\"float32\\\"), "
                              "y: R.Tensor((2,), \\\"float32\\\")):\\n"
                              "    return R.maximum(x, y)\\n";

/* A one-case file: maximum of [nan, 1] and [2, nan] with the given result kind and expected
 * data. */
static Case *load_case(const char *result, const char *data)
{
    const char *text = mem_printf(
        "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [RESULT-1]\n"
        "    result: %s\n    program: \"%s\"\n"
        "    run: {args: [{tensor: {dtype: float32, shape: [2], data: [nan, 1.0]}},"
        " {tensor: {dtype: float32, shape: [2], data: [2.0, nan]}}]}\n"
        "    expect: {value: {tensor: {dtype: float32, shape: [2], data: %s}}}\n",
        result, PROGRAM, data);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return NULL;
    }
    return case_file_parse("t.yaml", text, &trap)->cases[0];
}

/* A value written as case data, read through a case file. */
static YamlNode *value_of(const char *data)
{
    Case *c = load_case("defined", data);
    return c->runs[0].expect.value;
}

static Outcome judge(const Adapter *ad, Case *c)
{
    return runner_run_case(ad, c).outcome;
}

/* RESULT-2: any allowed element passes; --strict asks for the reference's own choice. */
static void test_implementation_defined(void)
{
    Adapter ref, other = other_adapter();
    adapter_ref_init(&ref);
    Case *c = load_case("implementation-defined", "[{one_of: [2.0, nan]}, {one_of: [nan, 1.0]}]");
    CU_ASSERT_EQUAL(judge(&ref, c), OUTCOME_PASS); /* TVM's select: [2, nan] */
    canned = value_of("[nan, 1.0]");               /* numpy's or fmaxf's choices */
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_PASS);
    canned = value_of("[2.0, 1.0]");
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_PASS);
    canned = value_of("[7.0, 1.0]"); /* not allowed */
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_FAIL);
    canned = NULL; /* a trap is not an allowed result */
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_FAIL);
    canned = value_of("[nan, 1.0]");
    runner_set_strict(true);
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_FAIL);
    runner_set_strict(false);
    /* The reference itself is always judged by its own choice. */
    Case *swapped = load_case("implementation-defined", "[{one_of: [nan, 2.0]}, {one_of: [nan, 1.0]}]");
    CU_ASSERT_EQUAL(judge(&ref, swapped), OUTCOME_FAIL);
}

/* RESULT-3: any value or runtime error passes for another implementation, not for the
 * reference nor under --strict. */
static void test_undefined(void)
{
    Adapter ref, other = other_adapter();
    adapter_ref_init(&ref);
    Case *c = load_case("undefined", "[2.0, nan]");
    CU_ASSERT_EQUAL(judge(&ref, c), OUTCOME_PASS);
    canned = value_of("[-5.0, 3.0]");
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_PASS);
    canned = NULL;
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_PASS);
    runner_set_strict(true);
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_FAIL);
    runner_set_strict(false);
    Case *wrong = load_case("undefined", "[3.0, nan]");
    CU_ASSERT_EQUAL(judge(&ref, wrong), OUTCOME_FAIL);
}

/* RESULT-1: a defined result is one value; result: takes only the three kinds. */
static void test_defined_and_schema(void)
{
    Adapter other = other_adapter();
    Case *c = load_case("defined", "[2.0, nan]");
    canned = value_of("[nan, 1.0]");
    CU_ASSERT_EQUAL(judge(&other, c), OUTCOME_FAIL);
    CU_ASSERT_EQUAL(c->result, RESULT_DEFINED);
    ErrorTrap trap;
    volatile bool raised = false;
    if (setjmp(trap.jmp) != 0)
        raised = true;
    else
        case_file_parse("t.yaml",
                        "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [X-1]\n"
                        "    result: sometimes\n    program: 'x'\n    expect: {valid: true}\n",
                        &trap);
    CU_ASSERT(raised);
}

/* TOL-1: defaults follow the expected value's float dtype. */
static void test_dtype_tolerance(void)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return;
    }
    const char *fmt = "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [X-1]\n"
                      "    program: 'x'\n    run: {args: []}\n"
                      "    expect: {value: {tensor: {dtype: %s, shape: [1], data: [1.0]}}}\n";
    Case *h = case_file_parse("t.yaml", mem_printf(fmt, "float16"), &trap)->cases[0];
    Case *f = case_file_parse("t.yaml", mem_printf(fmt, "float32"), &trap)->cases[0];
    Case *d = case_file_parse("t.yaml", mem_printf(fmt, "float64"), &trap)->cases[0];
    CU_ASSERT_DOUBLE_EQUAL(h->rtol, 1e-3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f->rtol, 1e-5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(d->rtol, 1e-12, 1e-18);
}

UNIT_SUITE(result_kinds)
{
    CU_pSuite s = CU_add_suite("result_kinds", 0, 0);
    CU_add_test(s, "implementation-defined", test_implementation_defined);
    CU_add_test(s, "undefined", test_undefined);
    CU_add_test(s, "defined and the result key", test_defined_and_schema);
    CU_add_test(s, "tolerance by dtype", test_dtype_tolerance);
}
