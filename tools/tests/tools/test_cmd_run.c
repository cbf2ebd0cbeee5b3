/* test_cmd_run: `relax run` (its --arg values and its output), the reference adapter's runtime
 * phase, and value/runtime-error/stdout expectations judged through the runner.
 * SPEC_NOTES: "Exit codes", "Runtime errors", "Value notation errors". */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/cli/cli.h"
#include "tools/conform/run_entry.h"
#include "tools/conform/runner.h"
#include "tools/tests/unit.h"
#include "values/render.h"

/* ---- --arg values ---- */

static void test_parse_arg_good(void)
{
    const char *why = NULL;
    Value *v = cmd_run_parse_arg("{tensor: {dtype: float32, shape: [2], data: [1, 2.5]}}", 1, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, VAL_TENSOR);
    CU_ASSERT_STRING_EQUAL(render_value_case(v),
                           "{tensor: {dtype: float32, shape: [2], data: [1, 2.5]}}");
    v = cmd_run_parse_arg("{tuple: [{prim: {dtype: int64, value: 3}}, {shape: [2, 3]}]}", 2, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, VAL_TUPLE);
    CU_ASSERT_EQUAL(v->u.tuple.n, 2);
    v = cmd_run_parse_arg("{string: \"a \\\"quoted\\\" word\"}", 3, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v->u.str, "a \"quoted\" word");
}

static void test_parse_arg_bad(void)
{
    const char *why = NULL;
    /* An unknown kind, at the value's own position. */
    CU_ASSERT_PTR_NULL(cmd_run_parse_arg("{tensr: {dtype: int32, shape: [], data: 1}}", 2, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "--arg value 2 at 1:"));
    /* Data that disagrees with the shape. */
    why = NULL;
    CU_ASSERT_PTR_NULL(
        cmd_run_parse_arg("{tensor: {dtype: int32, shape: [3], data: [1, 2]}}", 1, &why));
    CU_ASSERT_PTR_NOT_NULL(why);
    /* Not YAML at all. */
    why = NULL;
    CU_ASSERT_PTR_NULL(cmd_run_parse_arg("{tensor: [", 1, &why));
    CU_ASSERT_PTR_NOT_NULL(why);
    /* Expectation-only notation is not an argument. */
    why = NULL;
    CU_ASSERT_PTR_NULL(cmd_run_parse_arg("{callable: true}", 1, &why));
    CU_ASSERT_PTR_NOT_NULL(why);
}

/* ---- the command ---- */

static char *read_back(FILE *f)
{
    StrBuf sb;
    strbuf_init(&sb);
    rewind(f);
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_addn(&sb, buf, n);
    return strbuf_str(&sb);
}

/* Runs `relax run` with argv (NULL-terminated); returns its exit code and *text its stdout. */
static int run_cli(const char *const *argv, char **text)
{
    int argc = 0;
    while (argv[argc] != NULL)
        argc++;
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int code = cmd_run_to(argc, (char **)argv, f);
    *text = read_back(f);
    fclose(f);
    return code;
}

static void test_cli_runs_benchmark_program(void)
{
    const char *file = mem_printf("%s/tools/bench/fib.relax.py", unit_source_dir());
    const char *argv[] = {"run", file, "--arg", "{tensor: {dtype: int64, shape: [], data: 10}}",
                          NULL};
    char *out = NULL;
    CU_ASSERT_EQUAL(run_cli(argv, &out), 0);
    CU_ASSERT_STRING_EQUAL(out, "{tensor: {dtype: int64, shape: [], data: 55}}\n");
    const char *main_entry[] = {
        "run", file, "--entry=fib", "--arg", "{tensor: {dtype: int64, shape: [], data: 7}}", NULL};
    CU_ASSERT_EQUAL(run_cli(main_entry, &out), 0);
    CU_ASSERT_STRING_EQUAL(out, "{tensor: {dtype: int64, shape: [], data: 13}}\n");
}

/* A program that does not check statically is refused with its first error, in the phase's
 * exit code, before anything runs; --no-check runs it anyway. */
static void test_cli_checks_before_running(void)
{
    char *path =
        unit_write_temp("@R.function\n"
                        "def main(x: R.Tensor((), \"float32\"), s: R.Tensor((), \"float32\"), "
                        "z: R.Tensor((), \"int8\")):\n"
                        "    y = R.quantize(x, s, z, axis=-1, out_dtype=\"int8\")\n"
                        "    return y\n");
    const char *x = "{tensor: {dtype: float32, shape: [], data: 3.0}}";
    const char *sc = "{tensor: {dtype: float32, shape: [], data: 0.5}}";
    const char *z = "{tensor: {dtype: int8, shape: [], data: 1}}";
    const char *checked[] = {"run", path, "--arg", x, "--arg", sc, "--arg", z, NULL};
    char *out = NULL;
    CU_ASSERT_EQUAL(run_cli(checked, &out), 6); /* OpAttr: axis -1 of a rank-0 tensor */
    CU_ASSERT_STRING_EQUAL(out, "");
    const char *unchecked[] = {"run", path, "--no-check", "--arg", x, "--arg", sc,
                               "--arg", z, NULL};
    CU_ASSERT_EQUAL(run_cli(unchecked, &out), 0);
    CU_ASSERT_STRING_EQUAL(out, "{tensor: {dtype: int8, shape: [], data: 7}}\n");
    remove(path);
}

/* ---- the adapter ---- */

static const char PRINTING[] =
    "@R.function(pure=False)\n"
    "def main(x: R.Tensor((2,), \"float32\"), n: R.Prim(\"int64\")):\n"
    "    R.print(x, format=\"x={}\")\n"
    "    _ = R.call_packed(\"spectest.print\", n, sinfo_args=R.Tuple())\n"
    "    y = R.call_pure_packed(\"spectest.add\", x, x, sinfo_args=R.Tensor((2,), \"float32\"))\n"
    "    return (y, n)\n";

static const char FAILING[] = "@R.function(pure=False)\n"
                              "def main(x: R.Tensor((\"n\",), \"float32\")):\n"
                              "    R.print(x)\n"
                              "    y = R.match_cast(x, R.Tensor((3,), \"float32\"))\n"
                              "    return y\n";

static AdapterProgram *load(const Adapter *ad, const char *text)
{
    ProgramSource src = {"t.py", text, NULL};
    Error err;
    AdapterProgram *p = ad->load(ad->self, &src, &err);
    if (p == NULL)
        CU_FAIL(error_format(&err));
    return p;
}

/* A YAML tree of case notation, as a case file holds its values. */
static YamlNode *yaml_value(const char *text)
{
    Value *v = cmd_run_parse_arg(text, 1, &(const char *){NULL});
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    return run_entry_value_to_yaml(v);
}

static void test_adapter_run_value_and_stdout(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ad.run);
    AdapterProgram *p = load(&ad, PRINTING);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    YamlNode *args[] = {yaml_value("{tensor: {dtype: float32, shape: [2], data: [1, 2.5]}}"),
                        yaml_value("{prim: {dtype: int64, value: 4}}")};
    RunRequest req = {"main", args, 2};
    RunResult out = {NULL, NULL};
    Error err;
    bool ok = ad.run(ad.self, p, &req, &out, &err);
    CU_ASSERT_TRUE_FATAL(ok);
    CU_ASSERT_STRING_EQUAL(out.stdout_text, "x=[1.  2.5]\n4\n");
    CU_ASSERT_STRING_EQUAL(yaml_node_str(out.value),
                           "{tuple: [{tensor: {dtype: float32, shape: [2], data: [2, 5]}}, "
                           "{prim: {dtype: int64, value: 4}}]}");
}

static void test_adapter_run_error(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    AdapterProgram *p = load(&ad, FAILING);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    YamlNode *args[] = {yaml_value("{tensor: {dtype: float32, shape: [2], data: [1, 2]}}")};
    RunRequest req = {"main", args, 1};
    RunResult out = {NULL, NULL};
    Error err;
    memset(&err, 0, sizeof err);
    CU_ASSERT_FALSE_FATAL(ad.run(ad.self, p, &req, &out, &err));
    CU_ASSERT_EQUAL(err.phase, PHASE_RUNTIME);
    CU_ASSERT_STRING_EQUAL(err.code, "MatchCastShape");
    CU_ASSERT_PTR_NOT_NULL_FATAL(err.rule);
    CU_ASSERT_STRING_EQUAL(err.rule, "MC-2");
    /* What was printed before the failure is kept. */
    CU_ASSERT_STRING_EQUAL(out.stdout_text, "[1. 2.]\n");
    /* A missing entry point. */
    req.entry = "nowhere";
    CU_ASSERT_FALSE(ad.run(ad.self, p, &req, &out, &err));
    CU_ASSERT_STRING_EQUAL(err.code, "NoEntry");
}

/* Each run starts from a fresh interpreter: the counter starts over. */
static void test_adapter_fresh_counter(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    AdapterProgram *p =
        load(&ad, "@R.function(pure=False)\n"
                  "def main():\n"
                  "    a = R.call_packed(\"spectest.counter\", sinfo_args=R.Prim(\"int64\"))\n"
                  "    b = R.call_packed(\"spectest.counter\", sinfo_args=R.Prim(\"int64\"))\n"
                  "    return b\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    RunRequest req = {"main", NULL, 0};
    for (int i = 0; i < 2; i++) {
        RunResult out = {NULL, NULL};
        Error err;
        CU_ASSERT_TRUE_FATAL(ad.run(ad.self, p, &req, &out, &err));
        CU_ASSERT_STRING_EQUAL(yaml_node_str(out.value), "{prim: {dtype: int64, value: 1}}");
    }
}

/* ---- comparing results ---- */

static YamlNode *yaml_text(const char *text)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    YamlNode *node = NULL;
    if (yaml_parser_load(&parser, &doc)) {
        node = yaml_node_copy(&doc, yaml_document_get_root_node(&doc));
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    return node;
}

static const char *differ(const char *expected, const char *got, bool exact, bool *read)
{
    RunEntryTolerance tol = {1e-5, 1e-6, exact};
    return run_entry_values_differ(yaml_text(expected), yaml_text(got), &tol, read);
}

static void test_values_differ(void)
{
    bool read = false;
    /* float16 1.0009765625 is written back as its shortest text, 1.001: equal in float16. */
    CU_ASSERT_PTR_NULL(differ("{tensor: {dtype: float16, shape: [1], data: [1.0009765625]}}",
                              "{tensor: {dtype: float16, shape: [1], data: [1.001]}}", true,
                              &read));
    CU_ASSERT_TRUE(read);
    CU_ASSERT_PTR_NULL(differ("{tensor: {dtype: float32, shape: [2], data: [nan, -inf]}}",
                              "{tensor: {dtype: float32, shape: [2], data: [nan, -inf]}}", true,
                              &read));
    CU_ASSERT_PTR_NOT_NULL(differ("{tensor: {dtype: float32, shape: [1], data: [1]}}",
                                  "{tensor: {dtype: float32, shape: [1], data: [1.0000001]}}", true,
                                  &read));
    CU_ASSERT_PTR_NULL(differ("{tensor: {dtype: float32, shape: [1], data: [1]}}",
                              "{tensor: {dtype: float32, shape: [1], data: [1.0000001]}}", false,
                              &read));
    CU_ASSERT_PTR_NOT_NULL(differ("{prim: {dtype: int64, value: 3}}",
                                  "{prim: {dtype: int32, value: 3}}", false, &read));
    /* A returned closure is written as {callable: true}; it matches an expected callable. */
    CU_ASSERT_PTR_NULL(differ("{tuple: [{callable: true}, {shape: [2]}]}",
                              "{tuple: [{callable: true}, {shape: [2]}]}", false, &read));
    CU_ASSERT_PTR_NOT_NULL(differ("{callable: true}", "{shape: [2]}", false, &read));
    CU_ASSERT_TRUE(read);
    CU_ASSERT_PTR_NOT_NULL(differ("{shape: [2]}", "{shape: [x]}", false, &read));
    CU_ASSERT_FALSE(read);
}

/* ---- through the runner ---- */

/* The case (program text and the lines after it) judged by `ad`, or the reference adapter. */
static CaseResult run_case_with(const Adapter *ad, const char *program, const char *rest)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "format: 1\ncases:\n  - id: a\n    description: d\n    spec: [E-1]\n"
                    "    program: |\n");
    for (const char *line = program; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        strbuf_addf(&sb, "      %.*s\n", (int)len, line);
        line += len + (nl ? 1 : 0);
    }
    strbuf_add(&sb, rest);
    CaseResult none = {OUTCOME_FAIL, "the case file did not load", 0};
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return none;
    }
    CaseFile *cf = case_file_parse("t.yaml", strbuf_str(&sb), &trap);
    Adapter ref;
    adapter_ref_init(&ref);
    return runner_run_case(ad != NULL ? ad : &ref, cf->cases[0]);
}

static CaseResult run_case(const char *program, const char *rest)
{
    return run_case_with(NULL, program, rest);
}

static void expect_outcome(CaseResult r, Outcome want)
{
    if (r.outcome != want)
        fprintf(stderr, "\n  got %s: %s\n", runner_outcome_name(r.outcome),
                r.reason ? r.reason : "");
    CU_ASSERT_EQUAL(r.outcome, want);
}

static const char RUN_PRINTING[] =
    "    run:\n"
    "      args: [{tensor: {dtype: float32, shape: [2], data: [1, 2.5]}},\n"
    "             {prim: {dtype: int64, value: 4}}]\n";

static void test_runner_value(void)
{
    const char *ok = "    expect:\n"
                     "      value: {tuple: [{tensor: {dtype: float32, shape: [2], data: [2, 5]}},\n"
                     "                      {prim: {dtype: int64, value: 4}}]}\n"
                     "      stdout: \"x=[1.  2.5]\\n4\\n\"\n";
    expect_outcome(run_case(PRINTING, mem_printf("%s%s", RUN_PRINTING, ok)), OUTCOME_PASS);
    /* Within the default tolerance, and outside it. */
    const char *close = "    expect:\n"
                        "      value: {tuple: [{tensor: {dtype: float32, shape: [2], "
                        "data: [2.000001, 5]}}, {prim: {dtype: int64, value: 4}}]}\n";
    expect_outcome(run_case(PRINTING, mem_printf("%s%s", RUN_PRINTING, close)), OUTCOME_PASS);
    const char *far = "    expect:\n"
                      "      value: {tuple: [{tensor: {dtype: float32, shape: [2], "
                      "data: [2.1, 5]}}, {prim: {dtype: int64, value: 4}}]}\n";
    expect_outcome(run_case(PRINTING, mem_printf("%s%s", RUN_PRINTING, far)), OUTCOME_FAIL);
    const char *exact = mem_printf("%s    exact: true\n", close);
    expect_outcome(run_case(PRINTING, mem_printf("%s%s", RUN_PRINTING, exact)), OUTCOME_FAIL);
}

static void test_runner_stdout(void)
{
    const char *wrong =
        "    expect:\n"
        "      value: {tuple: [{tensor: {dtype: float32, shape: [2], data: [2, 5]}},\n"
        "                      {prim: {dtype: int64, value: 4}}]}\n"
        "      stdout: \"x=[1. 2.5]\\n4\\n\"\n";
    CaseResult r = run_case(PRINTING, mem_printf("%s%s", RUN_PRINTING, wrong));
    expect_outcome(r, OUTCOME_FAIL);
    CU_ASSERT_PTR_NOT_NULL(r.reason != NULL ? strstr(r.reason, "stdout") : NULL);
}

static void test_runner_runtime_error(void)
{
    const char *run = "    run: {args: [{tensor: {dtype: float32, shape: [2], data: [1, 2]}}]}\n";
    const char *right = "    expect:\n"
                        "      error: {phase: runtime, code: MatchCastShape, rule: MC-2}\n"
                        "      stdout: \"[1. 2.]\\n\"\n";
    expect_outcome(run_case(FAILING, mem_printf("%s%s", run, right)), OUTCOME_PASS);
    const char *code = "    expect: {error: {phase: runtime, code: ArgCheck}}\n";
    expect_outcome(run_case(FAILING, mem_printf("%s%s", run, code)), OUTCOME_FAIL);
    /* Success where an error was expected. */
    const char *good =
        "    run: {args: [{tensor: {dtype: float32, shape: [3], data: [1, 2, 3]}}]}\n";
    expect_outcome(
        run_case(FAILING, mem_printf("%s%s", good, "    expect: {error: {phase: runtime}}\n")),
        OUTCOME_FAIL);
    /* Several runs of one program, each judged. */
    const char *runs = "    runs:\n"
                       "      - args: [{tensor: {dtype: float32, shape: [3], data: [1, 2, 3]}}]\n"
                       "        expect: {value: {tensor: {dtype: float32, shape: [3], "
                       "data: [1, 2, 3]}}}\n"
                       "      - args: [{tensor: {dtype: float32, shape: [2], data: [1, 2]}}]\n"
                       "        expect: {error: {phase: runtime, code: MatchCastShape}}\n";
    expect_outcome(run_case(FAILING, runs), OUTCOME_PASS);
}

/* Without the static phases, results are still judged, static expectations wait. */
static void test_runner_without_static_phases(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    ad.check_wellformed = NULL;
    ad.check_struct_info = NULL;
    const char *run =
        "    run: {args: [{tensor: {dtype: float32, shape: [3], data: [1, 2, 3]}}]}\n";
    expect_outcome(run_case_with(&ad, FAILING,
                                 mem_printf("%s    expect: {value: {tensor: {dtype: float32, "
                                            "shape: [3], data: [1, 2, 3]}}}\n",
                                            run)),
                   OUTCOME_PASS);
    expect_outcome(
        run_case_with(&ad, FAILING, mem_printf("%s    expect: {error: {phase: runtime}}\n", run)),
        OUTCOME_FAIL);
    CaseResult r = run_case_with(&ad, FAILING, "    expect: {valid: true}\n");
    expect_outcome(r, OUTCOME_SKIP);
    CU_ASSERT_EQUAL(r.missing, RUNNER_NEEDS(PHASE_WELLFORMED) | RUNNER_NEEDS(PHASE_STRUCT_INFO));
    r = run_case_with(&ad, FAILING, "    expect: {error: {phase: struct_info}}\n");
    expect_outcome(r, OUTCOME_SKIP);
    /* Warnings need the StructInfo phase even on a run. */
    r = run_case_with(&ad, FAILING,
                      mem_printf("%s    expect: {value: {tensor: {dtype: float32, "
                                 "shape: [3], data: [1, 2, 3]}}, warnings: [W]}\n",
                                 run));
    expect_outcome(r, OUTCOME_SKIP);
}

UNIT_SUITE(cmd_run)
{
    CU_pSuite s = CU_add_suite("cmd_run", NULL, NULL);
    CU_add_test(s, "parse --arg values", test_parse_arg_good);
    CU_add_test(s, "reject bad --arg values", test_parse_arg_bad);
    CU_add_test(s, "relax run on a benchmark program", test_cli_runs_benchmark_program);
    CU_add_test(s, "relax run checks before running", test_cli_checks_before_running);
    CU_add_test(s, "adapter run: value and stdout", test_adapter_run_value_and_stdout);
    CU_add_test(s, "adapter run: runtime error", test_adapter_run_error);
    CU_add_test(s, "adapter run: fresh interpreter per run", test_adapter_fresh_counter);
    CU_add_test(s, "compare results as values", test_values_differ);
    CU_add_test(s, "runner: value expectations", test_runner_value);
    CU_add_test(s, "runner: stdout expectations", test_runner_stdout);
    CU_add_test(s, "runner: runtime error expectations", test_runner_runtime_error);
    CU_add_test(s, "runner: without static phases", test_runner_without_static_phases);
}
