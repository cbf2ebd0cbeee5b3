/* test_runner_nf: the normal_form and normalizes_to expectations (extensions to format 1): their
 * schema, their judgement with a scripted adapter and with the reference interpreter.
 * SPEC_NOTES: "Normal form" (NF-*), "The conformance runner" and the normalization decisions. */
#include <string.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"
#include "tools/tests/unit.h"

static CaseFile *load_ok(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return NULL;
    }
    return case_file_parse("t.yaml", text, &trap);
}

/* The code of the error a broken case file raises, or "" when it loads. */
static const char *load_err_code(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return trap.error.code;
    case_file_parse("t.yaml", text, &trap);
    return "";
}

/* One case with the given program lines (a YAML block, indented 6) and the rest of the case
 * (`expect:` and so on, indented 4). */
static char *case_text(const char *program, const char *rest)
{
    return mem_printf("format: 1\ncases:\n  - id: a\n    description: d\n    spec: [NF-1]\n"
                      "    program: |\n%s%s",
                      program, rest);
}

static const char PROG_NESTED[] =
    "      @R.function\n"
    "      def main(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "          y = R.add(R.multiply(x, x), x)\n"
    "          return y\n";

static const char PROG_FLAT[] =
    "      @R.function\n"
    "      def main(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "          gv = R.multiply(x, x)\n"
    "          y = R.add(gv, x)\n"
    "          return y\n";

/* PROG_FLAT with other names, as a normalizes_to text (indented 8). */
static const char TARGET_RENAMED[] =
    "    expect:\n"
    "      normalizes_to: |\n"
    "        @R.function\n"
    "        def main(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "            tmp = R.multiply(x, x)\n"
    "            out = R.add(tmp, x)\n"
    "            return out\n";

/* ---- the schema ---- */

static void test_load_kinds(void)
{
    CaseFile *cf = load_ok(case_text(PROG_FLAT, "    expect: {normal_form: true}\n"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    Expect *e = &cf->cases[0]->runs[0].expect;
    CU_ASSERT_EQUAL(e->kind, EXPECT_NORMAL_FORM);
    CU_ASSERT_PTR_NULL(e->nf_rule);
    CU_ASSERT_FALSE(cf->cases[0]->runs[0].has_call);

    cf = load_ok(case_text(PROG_NESTED, "    expect: {normal_form: {rule: NF-1}}\n"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    CU_ASSERT_STRING_EQUAL(cf->cases[0]->runs[0].expect.nf_rule, "NF-1");

    cf = load_ok(case_text(PROG_NESTED, TARGET_RENAMED));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    e = &cf->cases[0]->runs[0].expect;
    CU_ASSERT_EQUAL(e->kind, EXPECT_NORMALIZES_TO);
    CU_ASSERT_PTR_NOT_NULL(strstr(e->normalized_text, "tmp = R.multiply(x, x)"));
    CU_ASSERT_PTR_NULL(e->normalized_ast);
    CU_ASSERT_STRING_EQUAL(case_expect_kind_name(EXPECT_NORMAL_FORM), "normal_form");
    CU_ASSERT_STRING_EQUAL(case_expect_kind_name(EXPECT_NORMALIZES_TO), "normalizes_to");
}

static void test_load_ast_target(void)
{
    const char *rest = "    expect:\n"
                       "      normalizes_to_ast:\n"
                       "        Function:\n"
                       "          params: [{Var: x}]\n"
                       "          body: {SeqExpr: {body: {Var: x}}}\n";
    CaseFile *cf = load_ok(case_text(PROG_FLAT, rest));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    Expect *e = &cf->cases[0]->runs[0].expect;
    CU_ASSERT_EQUAL(e->kind, EXPECT_NORMALIZES_TO);
    CU_ASSERT_PTR_NULL(e->normalized_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e->normalized_ast);
    CU_ASSERT_EQUAL(e->normalized_ast->nfuncs, 1);
    CU_ASSERT_FALSE(e->normalized_ast_failed);

    /* A broken ast: form is the case's error, not the file's. */
    cf = load_ok(case_text(PROG_FLAT, "    expect:\n      normalizes_to_ast: {Nonsense: {}}\n"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    e = &cf->cases[0]->runs[0].expect;
    CU_ASSERT_TRUE(e->normalized_ast_failed);
    CU_ASSERT_STRING_EQUAL(e->normalized_ast_error.code, "BadAst");
}

static void test_schema_errors(void)
{
    const char *bad[] = {
        "    expect: {normal_form: false}\n",
        "    expect: {normal_form: {}}\n",
        "    expect: {normal_form: {rule: WF-3}}\n",
        "    expect: {normal_form: {rule: NF-1, code: NotNormalForm}}\n",
        "    expect: {normal_form: [NF-1]}\n",
        "    expect: {normal_form: true, valid: true}\n",
        "    expect: {normal_form: true, printed: x}\n",
        "    expect: {normal_form: true, warnings: []}\n",
        "    run: {}\n    expect: {normal_form: true}\n",
        "    expect: {normalizes_to: 'x', normalizes_to_ast: {Function: {body: {Var: x}}}}\n",
        "    expect: {normalizes_to: {a: 1}}\n",
        "    expect: {normalizes_to_ast: x}\n",
        "    expect: {normalizes_to: 'x', stdout: 'y'}\n",
        "    run: {}\n    expect: {normalizes_to: 'x'}\n",
        "    runs:\n      - {args: [], expect: {normalizes_to_ast: {Function: {body: {Var: "
        "x}}}}}\n",
        "    expect: {normalized_to: 'x'}\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *code = load_err_code(case_text(PROG_FLAT, bad[i]));
        if (strcmp(code, "CaseSchema") != 0)
            printf("\naccepted or misreported (%s): %s", code, bad[i]);
        CU_ASSERT_STRING_EQUAL(code, "CaseSchema");
    }
}

/* ---- the pure judgement ---- */

static Error nf_error(const char *code, const char *rule)
{
    Error e;
    memset(&e, 0, sizeof e);
    e.phase = PHASE_WELLFORMED;
    e.code = code;
    e.rule = rule;
    e.message = "m";
    return e;
}

static void test_judge_normal_form(void)
{
    Expect pos, neg;
    memset(&pos, 0, sizeof pos);
    memset(&neg, 0, sizeof neg);
    pos.kind = neg.kind = EXPECT_NORMAL_FORM;
    neg.nf_rule = "NF-2";
    Error nf2 = nf_error("NotNormalForm", "NF-2");
    Error nf1 = nf_error("NotNormalForm", "NF-1");
    Error wf = nf_error("VarOutOfScope", "WF-3");
    Error other_code = nf_error("OpNotNormalized", "NF-2");
    CU_ASSERT_EQUAL(runner_judge_normal_form(&pos, true, NULL).outcome, OUTCOME_PASS);
    CaseResult r = runner_judge_normal_form(&pos, false, &nf1);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "NF-1"));
    CU_ASSERT_EQUAL(runner_judge_normal_form(&neg, false, &nf2).outcome, OUTCOME_PASS);
    r = runner_judge_normal_form(&neg, true, NULL);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "got one in normal form"));
    CU_ASSERT_EQUAL(runner_judge_normal_form(&neg, false, &nf1).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(runner_judge_normal_form(&neg, false, &wf).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(runner_judge_normal_form(&neg, false, &other_code).outcome, OUTCOME_FAIL);
    Error parse = nf2;
    parse.phase = PHASE_PARSE;
    CU_ASSERT_EQUAL(runner_judge_normal_form(&neg, false, &parse).outcome, OUTCOME_FAIL);
}

static void test_expected_program_checked(void)
{
    Expect e;
    memset(&e, 0, sizeof e);
    e.kind = EXPECT_NORMALIZES_TO;
    const char *why = NULL;
    e.normalized_text = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                        "    gv = R.multiply(x, x)\n    y = R.add(gv, x)\n    return y\n";
    CU_ASSERT_PTR_NOT_NULL(runner_expected_normal_form(&e, "t", &why));
    e.normalized_text = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                        "    y = R.add(R.multiply(x, x), x)\n    return y\n";
    CU_ASSERT_PTR_NULL(runner_expected_normal_form(&e, "t", &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "NF-1"));
    e.normalized_text = "@R.function\ndef main(:\n";
    why = NULL;
    CU_ASSERT_PTR_NULL(runner_expected_normal_form(&e, "t", &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not parse"));
    /* Ill-formed (a variable used before its binding) is refused as well. */
    e.normalized_text = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                        "    y = R.add(z, x)\n    z = R.add(x, x)\n    return y\n";
    why = NULL;
    CU_ASSERT_PTR_NULL(runner_expected_normal_form(&e, "t", &why));
    CU_ASSERT_PTR_NOT_NULL(why);
}

/* ---- the pipeline, through a scripted adapter ---- */

/* The program text decides: "WF23" fails well-formedness under WF-23, "WF3" under WF-3;
 * "NF" fails the normal-form check under NF-5. */
struct AdapterProgram {
    const char *text;
    int nf_calls;
};

static AdapterProgram *fake_load(void *self, const ProgramSource *src, Error *err)
{
    AdapterProgram *p = MEM_NEW(AdapterProgram);
    p->text = src->text;
    return p;
}

static bool fake_wf(void *self, AdapterProgram *prog, Error *err)
{
    if (strstr(prog->text, "WF23") != NULL) {
        *err = nf_error("OpNotNormalized", "WF-23");
        return false;
    }
    if (strstr(prog->text, "WF3") != NULL) {
        *err = nf_error("VarOutOfScope", "WF-3");
        return false;
    }
    return true;
}

static bool fake_nf(void *self, AdapterProgram *prog, Error *err)
{
    prog->nf_calls++;
    if (strstr(prog->text, "NF") == NULL)
        return true;
    *err = nf_error("NotNormalForm", "NF-5");
    return false;
}

static CaseResult run_fake(const Adapter *ad, const char *program, const char *expect)
{
    const char *text = mem_printf("format: 1\ncases:\n  - id: a\n    description: d\n"
                                  "    spec: [NF-5]\n    program: '%s'\n    expect: %s\n",
                                  program, expect);
    CaseFile *cf = load_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    return runner_run_case(ad, cf->cases[0]);
}

static void test_pipeline_scripted(void)
{
    Adapter ad;
    memset(&ad, 0, sizeof ad);
    ad.load = fake_load;
    ad.check_wellformed = fake_wf;
    const char *neg = "{normal_form: {rule: NF-5}}";
    CaseResult r = run_fake(&ad, "NF", neg);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_SKIP);
    CU_ASSERT_EQUAL(r.missing, RUNNER_NEEDS_NORMAL_FORM);
    CU_ASSERT_STRING_EQUAL(r.reason, "needs normal-form check");
    r = run_fake(&ad, "ok", "{normalizes_to: 'x'}");
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_SKIP);
    CU_ASSERT_EQUAL(r.missing, RUNNER_NEEDS_NORMALIZE);
    CU_ASSERT_STRING_EQUAL(r.reason, "needs normalization");

    ad.check_normal_form = fake_nf;
    CU_ASSERT_EQUAL(run_fake(&ad, "NF", neg).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", "{normal_form: true}").outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", neg).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(run_fake(&ad, "NF", "{normal_form: true}").outcome, OUTCOME_FAIL);
    /* WF-23 is NF-5's fixed-point test: it does not stop a normal-form case ... */
    CU_ASSERT_EQUAL(run_fake(&ad, "WF23 NF", neg).outcome, OUTCOME_PASS);
    /* ... but any other well-formedness error does, and neither kind of case skips it. */
    r = run_fake(&ad, "WF3 NF", neg);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "WF-3"));
    /* WF-23 still fails an ordinary error expectation and a valid: case. */
    CU_ASSERT_EQUAL(run_fake(&ad, "WF23", "{valid: true}").outcome, OUTCOME_FAIL);
}

/* ---- the pipeline, with the reference interpreter ---- */

static CaseResult run_ref(const char *program, const char *rest)
{
    Adapter ad;
    adapter_ref_init(&ad);
    CaseFile *cf = load_ok(case_text(program, rest));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    return runner_run_case(&ad, cf->cases[0]);
}

static void test_reference_normal_form(void)
{
    CU_ASSERT_EQUAL(run_ref(PROG_FLAT, "    expect: {normal_form: true}\n").outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_ref(PROG_NESTED, "    expect: {normal_form: {rule: NF-1}}\n").outcome,
                    OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_ref(PROG_NESTED, "    expect: {normal_form: {rule: NF-2}}\n").outcome,
                    OUTCOME_FAIL);
    CU_ASSERT_EQUAL(run_ref(PROG_NESTED, "    expect: {normal_form: true}\n").outcome,
                    OUTCOME_FAIL);
    CU_ASSERT_EQUAL(run_ref(PROG_FLAT, "    expect: {normal_form: {rule: NF-1}}\n").outcome,
                    OUTCOME_FAIL);
}

static void test_reference_normalizes_to(void)
{
    CU_ASSERT_EQUAL(run_ref(PROG_NESTED, TARGET_RENAMED).outcome, OUTCOME_PASS);
    /* Normalizing a normal-form program changes nothing. */
    CU_ASSERT_EQUAL(run_ref(PROG_FLAT, TARGET_RENAMED).outcome, OUTCOME_PASS);
    /* Arguments in the other order: a different program. */
    const char *swapped = "    expect:\n"
                          "      normalizes_to: |\n"
                          "        @R.function\n"
                          "        def main(x: R.Tensor((2,), \"float32\")) -> "
                          "R.Tensor((2,), \"float32\"):\n"
                          "            gv = R.multiply(x, x)\n"
                          "            y = R.add(x, gv)\n"
                          "            return y\n";
    CaseResult r = run_ref(PROG_NESTED, swapped);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "differs"));
    /* The expected program must itself be in normal form. */
    const char *nested_target = "    expect:\n      normalizes_to: |\n"
                                "        @R.function\n"
                                "        def main(x: R.Tensor((2,), \"float32\")) -> "
                                "R.Tensor((2,), \"float32\"):\n"
                                "            y = R.add(R.multiply(x, x), x)\n"
                                "            return y\n";
    r = run_ref(PROG_NESTED, nested_target);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "not a well-formed program in normal form"));
    /* The ast: spelling: a lone Function without attributes, so the source is one too. */
    const char *ast_target = "    expect:\n"
                             "      normalizes_to_ast:\n"
                             "        Function:\n"
                             "          params: [{Var: x, struct_info: {TensorStructInfo: "
                             "{shape: [2], dtype: float32}}}]\n"
                             "          ret_struct_info: {TensorStructInfo: {shape: [2], "
                             "dtype: float32}}\n"
                             "          attrs: {global_symbol: main}\n"
                             "          body:\n"
                             "            SeqExpr:\n"
                             "              blocks:\n"
                             "              - BindingBlock:\n"
                             "                - VarBinding: {var: {Var: a}, value: {Call: {op: "
                             "{Op: relax.multiply}, args: [{Var: x}, {Var: x}]}}}\n"
                             "                - VarBinding: {var: {Var: b}, value: {Call: {op: "
                             "{Op: relax.add}, args: [{Var: a}, {Var: x}]}}}\n"
                             "              body: {Var: b}\n";
    CU_ASSERT_EQUAL(run_ref(PROG_NESTED, ast_target).outcome, OUTCOME_PASS);
}

/* A program whose only well-formedness error is WF-23: its normal-form verdict is NF-5 and
 * normalization repairs it. */
static void test_reference_wf23(void)
{
    const char *prog =
        "      @I.ir_module\n"
        "      class Module:\n"
        "          @T.prim_func\n"
        "          def copy(a: T.handle, b: T.handle):\n"
        "              A = T.match_buffer(a, (2,), \"float32\")\n"
        "              B = T.match_buffer(b, (2,), \"float32\")\n"
        "              for i in range(2):\n"
        "                  B[i] = A[i]\n"
        "\n"
        "          @R.function\n"
        "          def main(t: R.Tuple(R.Tensor((2,), \"float32\"))) -> R.Tensor((2,), "
        "\"float32\"):\n"
        "              cls = Module\n"
        "              y = R.call_tir(cls.copy, t, out_sinfo=R.Tensor((2,), \"float32\"))\n"
        "              return y\n";
    CU_ASSERT_EQUAL(run_ref(prog, "    expect: {normal_form: {rule: NF-5}}\n").outcome,
                    OUTCOME_PASS);
    CU_ASSERT_EQUAL(
        run_ref(prog, "    expect: {error: {phase: wellformed, rule: WF-23}}\n").outcome,
        OUTCOME_PASS);
    const char *target =
        "    expect:\n      normalizes_to: |\n"
        "        @I.ir_module\n"
        "        class Module:\n"
        "            @T.prim_func\n"
        "            def copy(a: T.handle, b: T.handle):\n"
        "                A = T.match_buffer(a, (2,), \"float32\")\n"
        "                B = T.match_buffer(b, (2,), \"float32\")\n"
        "                for i in range(2):\n"
        "                    B[i] = A[i]\n"
        "\n"
        "            @R.function\n"
        "            def main(t: R.Tuple(R.Tensor((2,), \"float32\"))) -> R.Tensor((2,), "
        "\"float32\"):\n"
        "                cls = Module\n"
        "                item = t[0]\n"
        "                y = R.call_tir(cls.copy, (item,), out_sinfo=R.Tensor((2,), "
        "\"float32\"))\n"
        "                return y\n";
    CU_ASSERT_EQUAL(run_ref(prog, target).outcome, OUTCOME_PASS);
}

/* Any other well-formedness error stops both expectations. */
static void test_reference_ill_formed(void)
{
    const char *prog = "      @R.function\n"
                       "      def main(x: R.Tensor((2,), \"float32\")):\n"
                       "          y = R.add(x, x)\n"
                       "          return R.add(R.multiply(y, x), x)\n";
    CU_ASSERT_EQUAL(run_ref(prog, "    expect: {normal_form: {rule: NF-1}}\n").outcome,
                    OUTCOME_PASS);
    const char *ill = "    ast:\n      Function:\n        params: [{Var: x}]\n"
                      "        body: {SeqExpr: {body: {Var: ghost}}}\n";
    const char *text = mem_printf("format: 1\ncases:\n  - id: a\n    description: d\n"
                                  "    spec: [NF-1]\n%s    expect: {normal_form: true}\n",
                                  ill);
    CaseFile *cf = load_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    Adapter ad;
    adapter_ref_init(&ad);
    CaseResult r = runner_run_case(&ad, cf->cases[0]);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "wellformed error"));
}

UNIT_SUITE(runner_nf)
{
    CU_pSuite s = CU_add_suite("runner_nf", 0, 0);
    CU_add_test(s, "normal_form and normalizes_to load", test_load_kinds);
    CU_add_test(s, "normalizes_to_ast is read with the file", test_load_ast_target);
    CU_add_test(s, "schema errors of the new kinds", test_schema_errors);
    CU_add_test(s, "judging a normal-form verdict", test_judge_normal_form);
    CU_add_test(s, "the expected program is checked", test_expected_program_checked);
    CU_add_test(s, "scripted adapter: skips, WF-23 and other WF errors", test_pipeline_scripted);
    CU_add_test(s, "reference: normal_form", test_reference_normal_form);
    CU_add_test(s, "reference: normalizes_to", test_reference_normalizes_to);
    CU_add_test(s, "reference: WF-23 programs", test_reference_wf23);
    CU_add_test(s, "reference: ill-formed programs", test_reference_ill_formed);
}
