/* test_runner: case-file loading and its schema errors, value comparison, the judgement of
 * outcomes (with a scripted adapter), and the known-failures list.
 * SPEC_NOTES: "Case file errors (phase case)" and "Exit codes". */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/case_value.h"
#include "tools/conform/junit.h"
#include "tools/conform/known_failures.h"
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

/* The error a broken case file raises (phase case), or a zeroed Error if it loads. */
static Error load_err(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return trap.error;
    case_file_parse("t.yaml", text, &trap);
    Error none;
    memset(&none, 0, sizeof none);
    return none;
}

static const char VALID_FILE[] = "format: 1\n"
                                 "spec: [TS-1]\n"
                                 "tags: [syntax]\n"
                                 "cases:\n"
                                 "  - id: a\n"
                                 "    description: A parse error.\n"
                                 "    spec: [PY-1]\n"
                                 "    program: 'x'\n"
                                 "    expect: {error: {phase: parse, code: SyntaxError}}\n"
                                 "  - id: b\n"
                                 "    description: A value.\n"
                                 "    tags: [calls]\n"
                                 "    program: 'y'\n"
                                 "    run: {args: [{prim: {dtype: int64, value: 3}}]}\n"
                                 "    expect: {value: {tuple: []}, stdout: \"hi\\n\"}\n"
                                 "    tolerance: {rtol: 0.5}\n"
                                 "  - id: c\n"
                                 "    description: Two runs.\n"
                                 "    program: 'z'\n"
                                 "    runs:\n"
                                 "      - {entry: f, args: [], expect: {value: {null: true}}}\n"
                                 "      - expect: {error: {phase: runtime, rule: E-3}}\n"
                                 "        args: [{string: s}]\n"
                                 "  - id: d\n"
                                 "    description: Round trip.\n"
                                 "    program: 'w'\n"
                                 "    expect: {roundtrip: true, printed: \"w\\n\"}\n";

static void test_load_valid(void)
{
    CaseFile *cf = load_ok(VALID_FILE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    CU_ASSERT_EQUAL_FATAL(cf->ncases, 4);
    Case *a = cf->cases[0];
    CU_ASSERT_STRING_EQUAL(a->global_id, "t.yaml#a");
    CU_ASSERT_EQUAL(a->nspec, 2); /* the file's TS-1, then PY-1 */
    CU_ASSERT_STRING_EQUAL(a->spec[0], "TS-1");
    CU_ASSERT_TRUE(case_has_tag(a, "syntax"));
    CU_ASSERT_FALSE(a->runs[0].has_call);
    CU_ASSERT_EQUAL(a->runs[0].expect.kind, EXPECT_ERROR);
    CU_ASSERT_EQUAL(a->runs[0].expect.error_phase, PHASE_PARSE);
    CU_ASSERT_STRING_EQUAL(a->runs[0].expect.error_code, "SyntaxError");
    CU_ASSERT_PTR_NULL(a->runs[0].expect.error_rule);
    Case *b = cf->cases[1];
    CU_ASSERT_TRUE(case_has_tag(b, "syntax") && case_has_tag(b, "calls"));
    CU_ASSERT_STRING_EQUAL(b->runs[0].entry, "main");
    CU_ASSERT_EQUAL(b->runs[0].nargs, 1);
    CU_ASSERT_STRING_EQUAL(b->runs[0].expect.stdout_text, "hi\n");
    CU_ASSERT_DOUBLE_EQUAL(b->rtol, 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b->atol, CASE_DEFAULT_ATOL, 1e-15);
    Case *c = case_file_find(cf, "c");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->nruns, 2);
    CU_ASSERT_STRING_EQUAL(c->runs[0].entry, "f");
    CU_ASSERT_EQUAL(c->runs[1].expect.error_phase, PHASE_RUNTIME);
    CU_ASSERT_STRING_EQUAL(c->runs[1].expect.error_rule, "E-3");
    CU_ASSERT_STRING_EQUAL(cf->cases[3]->runs[0].expect.printed, "w\n");
    CU_ASSERT_PTR_NULL(case_file_find(cf, "zz"));
}

typedef struct BadFile {
    const char *text;
    const char *code;
    int line;
} BadFile;

#define HEAD "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [TS-1]\n"

static const BadFile BAD_FILES[] = {
    {"format: 1\ncases: [\n", "YamlSyntax", 3},
    {"", "CaseSchema", 1},
    {"- 1\n", "CaseSchema", 1},
    {"format: 2\ncases: []\n", "CaseVersion", 1},
    {"cases: []\n", "CaseSchema", 1},
    {"format: 1\ncases: []\n", "CaseSchema", 2},
    {"format: 1\nextra: 1\ncases: []\n", "CaseSchema", 2},
    {HEAD "    program: x\n    expect: {valid: true}\n    bogus: 1\n", "CaseSchema", 8},
    {HEAD "    expect: {valid: true}\n", "CaseSchema", 3},
    {HEAD "    program: x\n    ast: {IRModule: {}}\n    expect: {valid: true}\n", "CaseSchema", 3},
    {HEAD "    program: x\n", "CaseSchema", 3},
    {HEAD "    program: x\n    expect: {valid: true, error: {phase: parse}}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {valid: false}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {error: {phase: lexing}}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {error: {code: X}}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {value: {prim: {dtype: int64, value: 1}}}\n", "CaseSchema",
     7},
    {HEAD "    program: x\n    run: {}\n    expect: {valid: true}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {valid: true, printed: x}\n", "CaseSchema", 7},
    {HEAD "    program: x\n    run: {args: [3]}\n    expect: {value: {null: true}}\n", "CaseValue",
     7},
    {HEAD "    program: x\n    run: {}\n    expect: {value: {tensor: {dtype: float32, shape: [2], "
          "data: [1]}}}\n",
     "CaseValue", 8},
    {HEAD "    program: x\n    run: {}\n    expect: {value: {prim: {dtype: int64, value: 1.5}}}\n",
     "CaseValue", 8},
    {HEAD "    program: x\n    run: {}\n    expect: {value: {tensor: {dtype: flot32, shape: [], "
          "data: 1}}}\n",
     "CaseValue", 8},
    {"format: 1\ncases:\n  - id: a\n    description: d\n    program: x\n    expect: {valid: "
     "true}\n",
     "CaseSchema", 3},
    {HEAD "    program: x\n    expect: {valid: true}\n  - id: a\n    description: e\n"
          "    spec: [TS-2]\n    program: y\n    expect: {valid: true}\n",
     "DuplicateCaseId", 8},
    {HEAD "    program: x\n    runs: []\n", "CaseSchema", 7},
    {HEAD "    program: x\n    runs: [{args: []}]\n", "CaseSchema", 7},
    {HEAD "    program: x\n    expect: {valid: true}\n    tolerance: {rtol: -1}\n", "CaseSchema",
     8},
    {HEAD "    program: x\n    expect: {valid: true}\n    spec: [TS-2]\n", "CaseSchema", 8},
};

static void test_schema_errors(void)
{
    for (size_t i = 0; i < sizeof BAD_FILES / sizeof BAD_FILES[0]; i++) {
        Error e = load_err(BAD_FILES[i].text);
        if (e.code == NULL || e.phase != PHASE_CASE || strcmp(e.code, BAD_FILES[i].code) != 0 ||
            e.span.line != BAD_FILES[i].line) {
            printf("\nbad file %zu: got %s\n", i, e.code ? error_format(&e) : "success");
            CU_FAIL("schema error not as expected");
            continue;
        }
        CU_ASSERT_STRING_EQUAL(e.span.file, "t.yaml");
        CU_ASSERT_TRUE(strncmp(error_format(&e), "t.yaml:", 7) == 0);
    }
}

/* ---- values ---- */

static YamlNode *yaml_of(const char *text)
{
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    CU_ASSERT_FATAL(yaml_parser_load(&p, &doc) != 0);
    YamlNode *n = yaml_node_copy(&doc, yaml_document_get_root_node(&doc));
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return n;
}

static bool values_equal(const char *a, const char *b, Tolerance tol)
{
    const char *why = NULL;
    bool eq = case_value_equal(yaml_of(a), yaml_of(b), tol, &why);
    CU_ASSERT(eq || why != NULL);
    return eq;
}

static void test_value_compare(void)
{
    Tolerance def = {1e-5, 1e-6, false}, exact = {0, 0, true};
    const char *t = "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4]]}}";
    CU_ASSERT_TRUE(
        values_equal(t, "{tensor: {dtype: float32, shape: [2, 2], data: [1, 2, 3, 4]}}", def));
    CU_ASSERT_TRUE(values_equal(
        t, "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4.000001]]}}", def));
    CU_ASSERT_FALSE(values_equal(
        t, "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4.1]]}}", def));
    CU_ASSERT_FALSE(values_equal(
        t, "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4.000001]]}}", exact));
    CU_ASSERT_FALSE(
        values_equal(t, "{tensor: {dtype: float64, shape: [2, 2], data: [1, 2, 3, 4]}}", def));
    CU_ASSERT_FALSE(
        values_equal(t, "{tensor: {dtype: float32, shape: [4], data: [1, 2, 3, 4]}}", def));
    CU_ASSERT_TRUE(values_equal("{tensor: {dtype: float32, shape: [], data: nan}}",
                                "{tensor: {dtype: float32, shape: [], data: .nan}}", exact));
    CU_ASSERT_FALSE(values_equal("{tensor: {dtype: float32, shape: [1], data: [inf]}}",
                                 "{tensor: {dtype: float32, shape: [1], data: [-inf]}}", def));
    CU_ASSERT_FALSE(values_equal("{tensor: {dtype: int32, shape: [1], data: [1]}}",
                                 "{tensor: {dtype: int32, shape: [1], data: [2]}}",
                                 (Tolerance){1, 1, false}));
    CU_ASSERT_TRUE(values_equal("{tensor: {dtype: bool, shape: [2], data: [true, false]}}",
                                "{tensor: {dtype: bool, shape: [2], data: [1, 0]}}", def));
    CU_ASSERT_TRUE(values_equal("{tuple: [{shape: [2, 3]}, {string: a}]}",
                                "{tuple: [{shape: [2, 3]}, {string: a}]}", def));
    const char *why;
    CU_ASSERT_FALSE(case_value_equal(
        yaml_of("{tuple: [{null: true}, {prim: {dtype: int64, value: 3}}]}"),
        yaml_of("{tuple: [{null: true}, {prim: {dtype: int64, value: 4}}]}"), def, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "[1]"));
    CU_ASSERT_FALSE(values_equal("{tuple: []}", "{shape: []}", def));
    CU_ASSERT_TRUE(values_equal("{callable: true}", "{callable: true}", def));
    CU_ASSERT_TRUE(values_equal("{object: Foo}", "{object: ''}", def));
    CU_ASSERT_FALSE(values_equal("{object: Foo}", "{object: Bar}", def));
    CU_ASSERT_TRUE(values_equal("{dtype: float32}", "{dtype: \"float32\"}", def));
}

/* ---- pure judgement pieces ---- */

static Expect error_expect(Phase ph, const char *code, const char *rule)
{
    Expect e;
    memset(&e, 0, sizeof e);
    e.kind = EXPECT_ERROR;
    e.error_phase = ph;
    e.error_code = code;
    e.error_rule = rule;
    return e;
}

static Error make_error(Phase ph, const char *code, const char *rule)
{
    Error e = {ph, code, rule, span_make("f", 1, 1), "m"};
    return e;
}

static void test_judge_error(void)
{
    Expect e = error_expect(PHASE_PARSE, "BadToken", NULL);
    Error got = make_error(PHASE_PARSE, "BadToken", "PY-1");
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_PASS);
    got.code = "SyntaxError";
    CaseResult r = runner_judge_error(&e, &got);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "expected parse error [BadToken]"));
    got = make_error(PHASE_STRUCT_INFO, "BadToken", NULL);
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_WRONG_PHASE);
    e = error_expect(PHASE_RUNTIME, NULL, "E-9");
    got = make_error(PHASE_RUNTIME, "ArgCheck", "E-9");
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_PASS);
    got.rule = NULL;
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_FAIL);
}

static void test_text_helpers(void)
{
    CU_ASSERT_PTR_NULL(runner_text_difference("a\nb\n", "a\nb\n"));
    const char *d = runner_text_difference("a\nb\nc\n", "a\nB\nc\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_STRING_EQUAL(d, "line 2: expected 'b', got 'B'");
    d = runner_text_difference("a\n", "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "line 1"));
    d = runner_text_difference("a\nb\n", "a\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_STRING_EQUAL(d, "line 2: expected 'b', got end of text");
    CU_ASSERT_TRUE(runner_same_sinfo_text("R.Tensor((n, 4), dtype=\"float32\")",
                                          "R.Tensor((n,4), dtype='float32')"));
    CU_ASSERT_FALSE(runner_same_sinfo_text("R.Tensor((n, 4))", "R.Tensor((m, 4))"));
    Expect e;
    memset(&e, 0, sizeof e);
    const char *want[] = {"B", "A"};
    e.warnings = want;
    e.nwarnings = 2;
    e.has_warnings = true;
    const char *got[] = {"A", "B"};
    CU_ASSERT_PTR_NULL(runner_judge_warnings(&e, got, 2));
    CU_ASSERT_PTR_NOT_NULL(runner_judge_warnings(&e, got, 1));
    CU_ASSERT_STRING_EQUAL(
        runner_missing_names(RUNNER_NEEDS(PHASE_WELLFORMED) | RUNNER_NEEDS(PHASE_RUNTIME)),
        "wellformed, runtime");
}

/* ---- the pipeline, through a scripted adapter ---- */

/* Program text decides: "P" fails parsing, "W" fails well-formedness, "R" fails at run time;
 * otherwise run returns {prim: {dtype: int64, value: 7}} and prints "out". */
struct AdapterProgram {
    const char *text;
};

static AdapterProgram *fake_load(void *self, const ProgramSource *src, Error *err)
{
    if (strchr(src->text, 'P') != NULL) {
        *err = make_error(PHASE_PARSE, "SyntaxError", "PY-1");
        return NULL;
    }
    AdapterProgram *p = MEM_NEW(AdapterProgram);
    p->text = src->text;
    return p;
}

static bool fake_wf(void *self, AdapterProgram *prog, Error *err)
{
    if (strchr(prog->text, 'W') == NULL)
        return true;
    *err = make_error(PHASE_WELLFORMED, "VarRedefined", "WF-1");
    return false;
}

static bool fake_run(void *self, AdapterProgram *prog, const RunRequest *req, RunResult *out,
                     Error *err)
{
    out->stdout_text = "out\n";
    if (strchr(prog->text, 'R') != NULL) {
        *err = make_error(PHASE_RUNTIME, "AssertFailed", NULL);
        return false;
    }
    out->value = yaml_of("{prim: {dtype: int64, value: 7}}");
    return true;
}

static bool fake_sinfo(void *self, AdapterProgram *prog, StaticReport *report, Error *err)
{
    report->sinfo_texts = MEM_ARRAY(const char *, report->nnames + 1);
    for (int i = 0; i < report->nnames; i++)
        report->sinfo_texts[i] = strcmp(report->names[i], "x") == 0 ? "R.Shape([2])" : NULL;
    return true;
}

static CaseResult run_fake(const Adapter *ad, const char *program, const char *rest)
{
    const char *text = mem_printf("format: 1\ncases:\n  - id: a\n    description: d\n"
                                  "    spec: [TS-1]\n    program: '%s'\n%s",
                                  program, rest);
    CaseFile *cf = load_ok(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    return runner_run_case(ad, cf->cases[0]);
}

static void test_pipeline(void)
{
    Adapter ad;
    memset(&ad, 0, sizeof ad);
    ad.load = fake_load;
    const char *parse_err = "    expect: {error: {phase: parse, code: SyntaxError}}\n";
    CU_ASSERT_EQUAL(run_fake(&ad, "P", parse_err).outcome, OUTCOME_PASS);
    CaseResult r = run_fake(&ad, "ok", parse_err);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "got success"));
    const char *value = "    run: {}\n    expect: {value: {prim: {dtype: int64, value: 7}}, "
                        "stdout: \"out\\n\"}\n";
    r = run_fake(&ad, "ok", value);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_SKIP);
    CU_ASSERT_EQUAL(r.missing, RUNNER_NEEDS(PHASE_WELLFORMED) | RUNNER_NEEDS(PHASE_STRUCT_INFO) |
                                   RUNNER_NEEDS(PHASE_RUNTIME));
    CU_ASSERT_EQUAL(run_fake(&ad, "P", value).outcome, OUTCOME_FAIL);
    const char *wf_err = "    expect: {error: {phase: wellformed}}\n";
    CU_ASSERT_EQUAL(run_fake(&ad, "P", wf_err).outcome, OUTCOME_EARLY);
    CU_ASSERT_EQUAL(run_fake(&ad, "W", wf_err).outcome, OUTCOME_SKIP);
    ad.check_wellformed = fake_wf;
    CU_ASSERT_EQUAL(run_fake(&ad, "W", wf_err).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", wf_err).outcome, OUTCOME_FAIL);
    ad.check_struct_info = fake_sinfo;
    ad.run = fake_run;
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", value).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_fake(&ad, "W", value).outcome, OUTCOME_FAIL);
    r = run_fake(&ad, "ok", "    run: {}\n    expect: {value: {prim: {dtype: int64, value: 8}}}\n");
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    r = run_fake(&ad, "ok",
                 "    run: {}\n    expect: {value: {prim: {dtype: int64, value: 7}}, "
                 "stdout: \"no\\n\"}\n");
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "stdout"));
    r = run_fake(&ad, "R",
                 "    runs:\n      - {expect: {error: {phase: runtime, code: AssertFailed}}}\n"
                 "      - {expect: {error: {phase: runtime, code: Other}}}\n");
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_FAIL);
    CU_ASSERT_TRUE(strncmp(r.reason, "run 2: ", 7) == 0);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", "    expect: {struct_info: {x: 'R.Shape([2])'}}\n").outcome,
                    OUTCOME_PASS);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", "    expect: {struct_info: {y: 'R.Shape([2])'}}\n").outcome,
                    OUTCOME_FAIL);
    CU_ASSERT_EQUAL(run_fake(&ad, "ok", "    expect: {valid: true, warnings: [W1]}\n").outcome,
                    OUTCOME_FAIL);
    r = run_fake(&ad, "ok", "    expect: {roundtrip: true}\n");
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_SKIP);
    CU_ASSERT_EQUAL(r.missing, RUNNER_NEEDS_ROUNDTRIP);
}

/* ---- known failures ---- */

static void test_known_failures(void)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return;
    }
    KnownFailures *kf = known_failures_parse("kf.txt",
                                             "# header\n\n"
                                             "spec-tests/a.yaml#x  the reason here\n"
                                             "  spec-tests/a.yaml#y\n"
                                             "spec-tests/gone.yaml#z old\n",
                                             &trap);
    CU_ASSERT_EQUAL_FATAL(kf->nitems, 3);
    CU_ASSERT_STRING_EQUAL(kf->items[0].reason, "the reason here");
    CU_ASSERT_EQUAL(kf->items[1].line, 4);
    CaseResult fail = {OUTCOME_WRONG_PHASE, "why", 0}, ok = {OUTCOME_PASS, NULL, 0};
    CU_ASSERT_EQUAL(known_failures_apply(kf, "spec-tests/a.yaml#x", fail).outcome, OUTCOME_KNOWN);
    CaseResult fixed = known_failures_apply(kf, "spec-tests/a.yaml#y", ok);
    CU_ASSERT_EQUAL(fixed.outcome, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(fixed.reason, "now passes"));
    CU_ASSERT_EQUAL(known_failures_apply(kf, "spec-tests/a.yaml#other", fail).outcome,
                    OUTCOME_WRONG_PHASE);
    CU_ASSERT_TRUE(kf->items[0].seen && kf->items[1].seen && !kf->items[2].seen);
    CaseFile *cf = load_ok("format: 1\ncases:\n  - {id: x, description: d, spec: [TS-1], "
                           "program: p, expect: {valid: true}}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    cf->path = "spec-tests/a.yaml";
    KnownFailure missing_id = {"spec-tests/a.yaml#nope", "", 9, false};
    CU_ASSERT_PTR_NOT_NULL(known_failures_stale(&missing_id, &cf, 1, true));
    CU_ASSERT_PTR_NULL(known_failures_stale(&kf->items[0], &cf, 1, true));
    CU_ASSERT_PTR_NOT_NULL(known_failures_stale(&kf->items[2], &cf, 1, false));
    CU_ASSERT_PTR_NULL(known_failures_stale(&kf->items[2], &cf, 1, true));
    ErrorTrap t2;
    if (setjmp(t2.jmp) == 0) {
        known_failures_parse("kf.txt", "ok.yaml#a r\nno-hash-here reason\n", &t2);
        CU_FAIL("a line without #id was accepted");
    } else {
        CU_ASSERT_STRING_EQUAL(t2.error.code, "KnownFailures");
        CU_ASSERT_EQUAL(t2.error.span.line, 2);
    }
}

static void test_junit(void)
{
    ReportEntry e[] = {
        {"spec-tests/a.yaml", "x", OUTCOME_PASS, NULL, 0, NULL},
        {"spec-tests/a.yaml", "y", OUTCOME_FAIL, "expected <a> & \"b\"", 0, NULL},
        {"spec-tests/b.yaml", NULL, OUTCOME_FAIL, "broken", 0, NULL},
    };
    char *xml = junit_render(e, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<testsuite name=\"spec-tests/a.yaml\" tests=\"2\" "
                                       "failures=\"1\" errors=\"0\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "expected &lt;a&gt; &amp; &quot;b&quot;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<error type=\"FAIL\" message=\"broken\""));
}

UNIT_SUITE(runner)
{
    CU_pSuite s = CU_add_suite("runner", 0, 0);
    CU_add_test(s, "load a valid case file", test_load_valid);
    CU_add_test(s, "schema errors with their lines", test_schema_errors);
    CU_add_test(s, "value comparison", test_value_compare);
    CU_add_test(s, "judging error expectations", test_judge_error);
    CU_add_test(s, "text, StructInfo and warning helpers", test_text_helpers);
    CU_add_test(s, "phases in order, skips and wrong phases", test_pipeline);
    CU_add_test(s, "known failures", test_known_failures);
    CU_add_test(s, "JUnit report", test_junit);
}
