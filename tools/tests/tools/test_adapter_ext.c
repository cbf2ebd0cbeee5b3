/* test_adapter_ext: the external adapter protocol: requests and responses written and read
 * back, malformed responses, the subprocess under a deadline, and whole cases judged through
 * printf-based fake implementations (ok, error, unsupported, malformed, exit status, timeout).
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ast/mem.h"
#include "tools/conform/adapter_ext.h"
#include "tools/conform/case_file.h"
#include "tools/conform/ext_process.h"
#include "tools/conform/ext_protocol.h"
#include "tools/conform/runner.h"
#include "tools/tests/unit.h"

static YamlNode *prim(const char *value)
{
    YamlNode *inner = yaml_node_new_map();
    yaml_node_map_add(inner, "dtype", yaml_node_new_scalar("int64", true));
    yaml_node_map_add(inner, "value", yaml_node_new_scalar(value, true));
    YamlNode *outer = yaml_node_new_map();
    yaml_node_map_add(outer, "prim", inner);
    return outer;
}

static void test_request_roundtrip(void)
{
    static const char *const texts[] = {
        "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n    return x\n",
        "no newline at the end",
        "two\n\n",
        "  leading blanks\n\ttab\n",
        "trailing blank \n",
        "quote \" backslash \\ bell \a\n",
        "\n",
    };
    YamlNode *args[] = {prim("3"), yaml_node_new_scalar("a string: with # marks", false)};
    const char *bindings[] = {"x", "f.y"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        ExtRequest req = {EXT_REQUEST_RUN, "t.yaml#a", texts[i], NULL, "f", args, 2, NULL, 0, 1};
        ExtRequest back;
        const char *why = NULL;
        CU_ASSERT_TRUE_FATAL(
            ext_protocol_read_request(ext_protocol_write_request(&req), &back, &why));
        CU_ASSERT_EQUAL(back.kind, EXT_REQUEST_RUN);
        CU_ASSERT_STRING_EQUAL(back.program, texts[i]);
        CU_ASSERT_PTR_NULL(back.ast);
        CU_ASSERT_STRING_EQUAL(back.name, "t.yaml#a");
        CU_ASSERT_STRING_EQUAL(back.entry, "f");
        CU_ASSERT_EQUAL_FATAL(back.nargs, 2);
        CU_ASSERT_STRING_EQUAL(yaml_node_str(back.args[0]), yaml_node_str(args[0]));
        CU_ASSERT_FALSE(back.args[1]->plain);
        CU_ASSERT_STRING_EQUAL(back.args[1]->scalar, "a string: with # marks");
    }
    ExtRequest si = {
        EXT_REQUEST_STRUCT_INFO, NULL, NULL, "IRModule: {funcs: {}}\n", NULL, NULL, 0, bindings, 2, 1};
    ExtRequest back;
    const char *why = NULL;
    const char *text = ext_protocol_write_request(&si);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "protocol: 1\nrequest: struct_info\n"));
    CU_ASSERT_TRUE_FATAL(ext_protocol_read_request(text, &back, &why));
    CU_ASSERT_STRING_EQUAL(back.ast, "IRModule: {funcs: {}}\n");
    CU_ASSERT_EQUAL_FATAL(back.nbindings, 2);
    CU_ASSERT_STRING_EQUAL(back.bindings[1], "f.y");
    CU_ASSERT_FALSE(
        ext_protocol_read_request("protocol: 1\nrequest: fly\nprogram: x\n", &back, &why));
    CU_ASSERT_FALSE(ext_protocol_read_request("protocol: 1\nrequest: load\n", &back, &why));
    CU_ASSERT_FALSE(
        ext_protocol_read_request("protocol: 3\nrequest: load\nprogram: x\n", &back, &why));
}

static ExtResponse read_ok(const char *text, ExtRequestKind kind)
{
    ExtResponse res;
    const char *why = NULL;
    bool ok = ext_protocol_read_response(text, kind, &res, &why);
    if (!ok)
        CU_FAIL(why);
    return res;
}

static void test_response_roundtrip(void)
{
    ExtResponse run;
    memset(&run, 0, sizeof run);
    run.kind = EXT_RESPONSE_OK;
    run.value = prim("-7");
    run.stdout_text = "x = 1\n";
    ExtResponse back = read_ok(ext_protocol_write_response(&run), EXT_REQUEST_RUN);
    CU_ASSERT_EQUAL(back.kind, EXT_RESPONSE_OK);
    CU_ASSERT_STRING_EQUAL(yaml_node_str(back.value), yaml_node_str(run.value));
    CU_ASSERT_STRING_EQUAL(back.stdout_text, "x = 1\n");

    ExtResponse err;
    memset(&err, 0, sizeof err);
    err.kind = EXT_RESPONSE_ERROR;
    err.error.phase = PHASE_STRUCT_INFO;
    err.error.code = "ArgCheck";
    err.error.rule = "E-3";
    err.error.span = span_make("f", 4, 9);
    err.error.message = "a \"quoted\" message";
    const char *names[] = {"x"}, *texts[] = {"R.Tensor((2,), dtype=\"float32\")"}, *warn[] = {"W"};
    err.sinfo_names = names;
    err.sinfo_texts = texts;
    err.nsinfo = 1;
    err.warnings = warn;
    err.nwarnings = 1;
    back = read_ok(ext_protocol_write_response(&err), EXT_REQUEST_STRUCT_INFO);
    CU_ASSERT_EQUAL(back.kind, EXT_RESPONSE_ERROR);
    CU_ASSERT_EQUAL(back.error.phase, PHASE_STRUCT_INFO);
    CU_ASSERT_STRING_EQUAL(back.error.code, "ArgCheck");
    CU_ASSERT_STRING_EQUAL(back.error.rule, "E-3");
    CU_ASSERT_STRING_EQUAL(back.error.message, "a \"quoted\" message");
    CU_ASSERT_EQUAL(back.error.span.line, 4);
    CU_ASSERT_EQUAL(back.error.span.col, 9);
    CU_ASSERT_EQUAL_FATAL(back.nsinfo, 1);
    CU_ASSERT_STRING_EQUAL(back.sinfo_texts[0], texts[0]);
    CU_ASSERT_EQUAL_FATAL(back.nwarnings, 1);
    CU_ASSERT_STRING_EQUAL(back.warnings[0], "W");

    /* Hand-written forms: flow style, the default phase, unsupported. */
    back = read_ok("{ok: false, code: NotWellFormed}", EXT_REQUEST_WELLFORMED);
    CU_ASSERT_EQUAL(back.error.phase, PHASE_WELLFORMED);
    CU_ASSERT_PTR_NULL(back.error.rule);
    back = read_ok("unsupported: true\n", EXT_REQUEST_RUN);
    CU_ASSERT_EQUAL(back.kind, EXT_RESPONSE_UNSUPPORTED);
    back = read_ok("ok: true\nfuture_field: [1, 2]\n", EXT_REQUEST_LOAD);
    CU_ASSERT_EQUAL(back.kind, EXT_RESPONSE_OK);
}

/* A malformed response is rejected with a reason containing `part`. */
static void check_malformed(const char *text, ExtRequestKind kind, const char *part)
{
    ExtResponse res;
    const char *why = NULL;
    CU_ASSERT_FALSE(ext_protocol_read_response(text, kind, &res, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    if (strstr(why, part) == NULL)
        CU_FAIL(mem_printf("'%s' does not mention '%s'", why, part));
}

static void test_malformed(void)
{
    check_malformed("", EXT_REQUEST_LOAD, "empty");
    check_malformed("ok: [true\n", EXT_REQUEST_LOAD, "not YAML");
    check_malformed("- ok\n", EXT_REQUEST_LOAD, "mapping");
    check_malformed("value: 3\n", EXT_REQUEST_LOAD, "ok: true");
    check_malformed("ok: maybe\n", EXT_REQUEST_LOAD, "ok: true");
    check_malformed("ok: true\n", EXT_REQUEST_RUN, "needs 'value'");
    check_malformed("ok: true\nvalue: {tensor: 3}\n", EXT_REQUEST_RUN, "CASE_FORMAT value");
    check_malformed("ok: true\n", EXT_REQUEST_ROUNDTRIP, "needs 'printed'");
    check_malformed("ok: false\nphase: lunch\n", EXT_REQUEST_LOAD, "unknown phase");
    check_malformed("ok: false\nphase: case\n", EXT_REQUEST_LOAD, "unknown phase");
    check_malformed("ok: false\nline: ten\n", EXT_REQUEST_LOAD, "line");
    check_malformed("ok: false\ncode: [A]\n", EXT_REQUEST_LOAD, "'code' must be a string");
    check_malformed("ok: true\nwarnings: W\n", EXT_REQUEST_STRUCT_INFO, "list of strings");
    check_malformed("ok: true\nstruct_info: [x]\n", EXT_REQUEST_STRUCT_INFO, "StructInfo");
    check_malformed("protocol: 2\nok: true\n", EXT_REQUEST_LOAD, "protocol 2");
    check_malformed("ok: true\n---\nok: true\n", EXT_REQUEST_LOAD, "more than one");
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_process(void)
{
    ExtProcessResult r;
    ext_process_run("tr a-z A-Z", "hello\n", 10, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_EXITED);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "HELLO\n");

    ext_process_run("echo one >&2; echo 'last words' >&2; echo >&2; exit 3", "", 10, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_EXITED);
    CU_ASSERT_EQUAL(r.status, 3);
    CU_ASSERT_STRING_EQUAL(ext_process_last_line(r.err), "last words");

    /* A command that never reads a large input: no SIGPIPE for the runner. */
    StrBuf big;
    strbuf_init(&big);
    for (int i = 0; i < 20000; i++)
        strbuf_add(&big, "0123456789abcdef\n");
    ext_process_run("exit 0", strbuf_str(&big), 10, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_EXITED);

    double start = now_seconds();
    ext_process_run("sleep 30", "", 0.3, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_TIMEOUT);
    CU_ASSERT_TRUE(now_seconds() - start < 3);

    /* The command has answered and exited; a background child holding stdout open does not
     * keep the request waiting (and is killed with the group). */
    start = now_seconds();
    ext_process_run("sleep 30 & echo answered", "", 10, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_EXITED);
    CU_ASSERT_STRING_EQUAL(r.out, "answered\n");
    CU_ASSERT_TRUE(now_seconds() - start < 3);

    ext_process_run("kill -9 $$", "", 10, &r);
    CU_ASSERT_EQUAL(r.end, EXT_END_SIGNALED);
    CU_ASSERT_EQUAL(r.status, 9);
}

/* ---- whole cases through fake implementations ---- */

static const char CASES[] =
    "format: 1\n"
    "spec: [E-1]\n"
    "cases:\n"
    "  - id: value\n"
    "    description: A value and what was printed.\n"
    "    program: 'p'\n"
    "    run: {args: [{prim: {dtype: int64, value: 3}}]}\n"
    "    expect: {value: {prim: {dtype: int64, value: 3}}, stdout: \"hi\\n\"}\n"
    "  - id: trap\n"
    "    description: A runtime error.\n"
    "    program: 'p'\n"
    "    run: {args: []}\n"
    "    expect: {error: {phase: runtime, code: AssertFailed}}\n"
    "  - id: valid\n"
    "    description: A valid program.\n"
    "    program: 'p'\n"
    "    expect: {valid: true}\n"
    "  - id: not-wf\n"
    "    description: A well-formedness error.\n"
    "    program: 'notwf'\n"
    "    expect: {error: {phase: wellformed, code: NotWellFormed}}\n"
    "  - id: sinfo\n"
    "    description: StructInfo and warnings.\n"
    "    program: 'p'\n"
    "    expect:\n"
    "      struct_info: {x: 'R.Tensor((2,), dtype=\"float32\")'}\n"
    "      warnings: [W]\n"
    "  - id: tree\n"
    "    description: An ast program.\n"
    "    ast: {Function: {body: {SeqExpr: {body: {Tuple: []}}}}}\n"
    "    expect: {valid: true}\n"
    "  - id: not-nf\n"
    "    description: Not in normal form.\n"
    "    program: 'p'\n"
    "    expect: {normal_form: {rule: NF-2}}\n"
    "  - id: norm\n"
    "    description: A normalized program.\n"
    "    program: 'p'\n"
    "    expect:\n"
    "      normalizes_to: |\n"
    "        @R.function\n"
    "        def main(x: R.Tensor((2,), \"float32\")):\n"
    "            return x\n";

/* A fake implementation: `cases` is a list of shell case arms on the request text. */
static const char *fake(const char *arms)
{
    return mem_printf("req=$(cat); case \"$req\" in %s *) printf '%%s\\n' 'ok: true';; esac", arms);
}

static const char RUN_OK[] = "*'request: run'*) printf '%s\\n' 'ok: true' "
                             "'value: {prim: {dtype: int64, value: 3}}' 'stdout: \"hi\\n\"';; ";
static const char RUN_TRAP[] = "*'request: run'*) printf '%s\\n' 'ok: false' 'phase: runtime' "
                               "'code: AssertFailed' 'message: no';; ";
static const char SINFO_OK[] = "*'request: struct_info'*) printf '%s\\n' 'ok: true' "
                               "'warnings: [W]' "
                               "'struct_info: {x: \"R.Tensor((2,), dtype=\\\"float32\\\")\"}';; ";

static CaseResult judge(Adapter *ad, const char *id)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL_FATAL(error_format(&trap.error));
    }
    CaseFile *cf = case_file_parse("t.yaml", CASES, &trap);
    return adapter_ext_run_case(ad, case_file_find(cf, id));
}

static void expect_outcome(Adapter *ad, const char *id, Outcome want, const char *part)
{
    CaseResult r = judge(ad, id);
    /* CUnit shows the expression, not the message: the reason goes to stderr. */
    if (r.outcome != want)
        fprintf(stderr, "\n%s: %s: %s\n", id, runner_outcome_name(r.outcome),
                r.reason ? r.reason : "");
    if (r.outcome != want)
        CU_FAIL(
            mem_printf("%s: %s: %s", id, runner_outcome_name(r.outcome), r.reason ? r.reason : ""));
    if (part != NULL && (r.reason == NULL || strstr(r.reason, part) == NULL))
        CU_FAIL(mem_printf("%s: reason '%s' lacks '%s'", id, r.reason ? r.reason : "", part));
}

static void init_fake(Adapter *ad, const char *command, double timeout)
{
    AdapterExtOptions opts = {command, timeout, 1, NULL};
    adapter_ext_init(ad, &opts);
}

static void test_cases_ok_and_error(void)
{
    Adapter ad;
    init_fake(&ad, fake(mem_printf("%s%s", RUN_OK, SINFO_OK)), 10);
    expect_outcome(&ad, "value", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "valid", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "sinfo", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "tree", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "trap", OUTCOME_FAIL, "expected runtime error");
    expect_outcome(&ad, "not-wf", OUTCOME_FAIL, "got success");

    Adapter bad;
    init_fake(&bad,
              fake(mem_printf("%s%s", RUN_TRAP,
                              "*'request: wellformed'*notwf*) printf '%s\\n' 'ok: false' "
                              "'code: NotWellFormed' 'line: 1' 'col: 1';; ")),
              10);
    expect_outcome(&bad, "trap", OUTCOME_PASS, NULL);
    expect_outcome(&bad, "not-wf", OUTCOME_PASS, NULL);
    expect_outcome(&bad, "valid", OUTCOME_PASS, NULL);
    expect_outcome(&bad, "value", OUTCOME_FAIL, "expected a value");

    Adapter parse;
    init_fake(&parse,
              fake("*'request: load'*) printf '%s\\n' 'ok: false' 'phase: parse' "
                   "'code: SyntaxError';; "),
              10);
    expect_outcome(&parse, "not-wf", OUTCOME_EARLY, "got t.yaml#not-wf: parse error");
}

static void test_cases_unsupported(void)
{
    Adapter ad;
    init_fake(&ad,
              fake(mem_printf("%s%s", RUN_OK,
                              "*'request: wellformed'*|*'request: struct_info'*|*'ast: '*) "
                              "printf '%s\\n' 'unsupported: true';; ")),
              10);
    /* The first case meets `unsupported`, is judged again without the phases, and skips. */
    expect_outcome(&ad, "valid", OUTCOME_SKIP, "wellformed");
    CU_ASSERT_PTR_NULL(ad.check_wellformed);
    CU_ASSERT_PTR_NOT_NULL(ad.run);
    /* A run judged by its value needs no static checker. */
    expect_outcome(&ad, "value", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "sinfo", OUTCOME_SKIP, "struct_info");
    expect_outcome(&ad, "tree", OUTCOME_SKIP, "ast: form");
    CU_ASSERT_PTR_NOT_NULL(ad.load);
    expect_outcome(&ad, "tree", OUTCOME_SKIP, "ast: form");
}

static void test_cases_broken(void)
{
    Adapter ad;
    init_fake(&ad, "cat >/dev/null; printf 'ok: maybe\\n'", 10);
    expect_outcome(&ad, "value", OUTCOME_FAIL, "malformed response to the load request");
    init_fake(&ad, "echo starting >&2; echo 'backend crashed' >&2; exit 3", 10);
    expect_outcome(&ad, "trap", OUTCOME_FAIL, "status 3 on the load request: backend crashed");
    init_fake(&ad, fake("*'request: run'*) printf 'ok: true\\nvalue: [\\n';; "), 10);
    expect_outcome(&ad, "value", OUTCOME_FAIL, "malformed response to the run request: not YAML");
    init_fake(&ad, fake("*'request: wellformed'*) sleep 30;; "), 1);
    double start = now_seconds();
    /* An expected error must not turn a timeout into a pass or a wrong phase. */
    expect_outcome(&ad, "not-wf", OUTCOME_FAIL, "timeout");
    CU_ASSERT_TRUE(now_seconds() - start < 5);
    init_fake(&ad, "/nonexistent/implementation", 10);
    expect_outcome(&ad, "value", OUTCOME_FAIL, "status 127");
}

/* A writable argv of `n` words (and the NULL after them). */
static char **words(int n, const char *const *w)
{
    char **argv = MEM_ARRAY(char *, n + 1);
    for (int i = 0; i < n; i++)
        argv[i] = mem_strdup(w[i]);
    return argv;
}

static void test_cases_normal_form(void)
{
    Adapter ad;
    init_fake(&ad,
              fake("*'request: normal_form'*) printf '%s\\n' 'ok: false' 'code: NotNormalForm' "
                   "'rule: NF-2';; "
                   "*'request: normalize'*) printf '%s\\n' 'ok: true' 'normalized: |2' "
                   "'  @R.function' '  def main(x: R.Tensor((2,), \"float32\")):' "
                   "'      return x';; "),
              10);
    expect_outcome(&ad, "not-nf", OUTCOME_PASS, NULL);
    expect_outcome(&ad, "norm", OUTCOME_PASS, NULL);
    init_fake(&ad,
              fake("*'request: normalize'*) printf '%s\\n' 'ok: true' 'normalized: \"def (\"';; "),
              10);
    expect_outcome(&ad, "norm", OUTCOME_FAIL, "the normalized program does not parse");
    expect_outcome(&ad, "not-nf", OUTCOME_FAIL, NULL);
    init_fake(&ad, fake("*'request: normal'*) printf '%s\\n' 'unsupported: true';; "), 10);
    expect_outcome(&ad, "norm", OUTCOME_SKIP, "normalization");
    expect_outcome(&ad, "not-nf", OUTCOME_SKIP, "normal-form");
}

static void test_options(void)
{
    static const char *const full[] = {"conform",  "-v",  "--adapter-timeout", "2.5", "--adapter",
                                       "impl --x", "spec"};
    char **argv = words(7, full);
    int argc = 7;
    const AdapterExtOptions *o = NULL;
    CU_ASSERT_EQUAL(adapter_ext_take_options(&argc, argv, &o), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_STRING_EQUAL(o->command, "impl --x");
    CU_ASSERT_DOUBLE_EQUAL(o->timeout, 2.5, 1e-9);
    CU_ASSERT_EQUAL(argc, 3);
    CU_ASSERT_STRING_EQUAL(argv[1], "-v");
    CU_ASSERT_STRING_EQUAL(argv[2], "spec");
    CU_ASSERT_PTR_NULL(argv[3]);
    static const char *const none[] = {"conform", "spec"};
    argc = 2;
    CU_ASSERT_EQUAL(adapter_ext_take_options(&argc, words(2, none), &o), 0);
    CU_ASSERT_PTR_NULL(o);
    static const char *const bad[] = {"conform", "--adapter", "x", "--adapter-timeout", "-1"};
    argc = 5;
    CU_ASSERT_EQUAL(adapter_ext_take_options(&argc, words(5, bad), &o), 2);
    static const char *const missing[] = {"conform", "--adapter"};
    argc = 2;
    CU_ASSERT_EQUAL(adapter_ext_take_options(&argc, words(2, missing), &o), 2);
    static const char *const lone[] = {"conform", "--adapter-timeout", "5"};
    argc = 3;
    CU_ASSERT_EQUAL(adapter_ext_take_options(&argc, words(3, lone), &o), 2);
}

UNIT_SUITE(adapter_ext)
{
    CU_pSuite s = CU_add_suite("adapter_ext", 0, 0);
    CU_add_test(s, "requests written and read back", test_request_roundtrip);
    CU_add_test(s, "responses written and read back", test_response_roundtrip);
    CU_add_test(s, "malformed responses", test_malformed);
    CU_add_test(s, "the subprocess under a deadline", test_process);
    CU_add_test(s, "cases through ok and error answers", test_cases_ok_and_error);
    CU_add_test(s, "unsupported phases skip", test_cases_unsupported);
    CU_add_test(s, "malformed, exit status, timeout", test_cases_broken);
    CU_add_test(s, "normal-form check and normalization", test_cases_normal_form);
    CU_add_test(s, "--adapter options", test_options);
}
