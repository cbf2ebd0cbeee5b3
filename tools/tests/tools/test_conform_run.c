/* Tests of the conformance run's machinery: protocol 2 sessions (handshake, crash, restart,
 * timeouts), the worker pool's order, the reports' formats. SPEC_NOTES: "The conformance
 * runner"; the protocol is tools/adapters/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/adapter_ext.h"
#include "tools/conform/ext_process.h"
#include "tools/conform/ext_session.h"
#include "tools/conform/pool.h"
#include "tools/conform/print_meaning.h"
#include "tools/conform/report.h"
#include "tools/conform/runner.h"
#include "tools/tests/unit.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A protocol 2 adapter in sh: answers hello, then each request with `body` (shell words run
 * with $n the request's number, 1 for the first after hello). */
static const char *session_adapter(const char *body)
{
    return mem_printf(
        "n=0; while IFS= read -r line; do [ \"$line\" = ... ] || continue; "
        "if [ $n = 0 ]; then printf '%%s\\n' 'protocol: 2' 'ok: true' "
        "'implementation: {name: fake, version: \"7\"}' 'requests: [load, run, future]' ...; "
        "else %s; fi; n=$((n+1)); done",
        body);
}

static const char REQUEST[] = "protocol: 2\nrequest: load\nprogram: x\n";

static void test_session_answers_and_restarts(void)
{
    ExtSession *s =
        ext_session_new(session_adapter("if [ $n = 2 ]; then echo 'backend died' >&2; exit 5; fi; "
                                        "printf '%s\\n' 'protocol: 2' \"ok: true\" \"n: $n\" ..."),
                        10);
    CU_ASSERT_PTR_NULL_FATAL(ext_session_start(s));
    const ExtHello *h = ext_session_hello(s);
    CU_ASSERT_STRING_EQUAL(h->name, "fake");
    CU_ASSERT_STRING_EQUAL(h->version, "7");
    CU_ASSERT_TRUE(h->supports[EXT_REQUEST_LOAD] && h->supports[EXT_REQUEST_RUN]);
    CU_ASSERT_FALSE(h->supports[EXT_REQUEST_WELLFORMED]);
    ExtProcessResult res;
    ext_session_request(s, REQUEST, "load", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_EXITED);
    CU_ASSERT_EQUAL(res.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "n: 1"));
    /* The second request kills it: the reason is its own stderr, and the next request finds a
     * new process (numbering from 1 again). */
    ext_session_request(s, REQUEST, "load", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_EXITED);
    CU_ASSERT_EQUAL(res.status, 5);
    CU_ASSERT_STRING_EQUAL(ext_process_reason_line(res.err), "backend died");
    ext_session_request(s, REQUEST, "load", &res);
    CU_ASSERT_EQUAL(res.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "n: 1"));
    ext_session_stop(s);
}

/* A hanging adapter: one timeout, then the restarted adapter's liveness probe (a quarter of
 * the timeout) goes unanswered and the rest are not sent: well under two timeouts. */
static void test_session_hang_costs_one_timeout(void)
{
    ExtSession *s = ext_session_new(session_adapter("sleep 30"), 2.0);
    double start = now_seconds();
    ExtProcessResult res;
    ext_session_request(s, REQUEST, "run", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_TIMEOUT);
    for (int i = 0; i < 5; i++)
        ext_session_request(s, REQUEST, "run", &res);
    double spent = now_seconds() - start;
    CU_ASSERT_EQUAL(res.end, EXT_END_PROTOCOL);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "did not answer a liveness probe within 0.5 s"));
    CU_ASSERT_TRUE(spent >= 2.5 && spent < 3.5);
}

/* An adapter that hung on one program only answers the probe after its restart, and the run
 * goes on with it. */
static void test_session_probe_answered(void)
{
    ExtSession *s = ext_session_new(
        session_adapter("if [ $n = 1 ] && [ ! -e \"$MARK\" ]; then : > \"$MARK\"; sleep 30; fi; "
                        "printf '%s\\n' 'protocol: 2' 'ok: true' \"n: $n\" ..."),
        1.0);
    const char *dir = getenv("TMPDIR");
    const char *mark = mem_printf("%s/relax-probe-%d", dir ? dir : "/tmp", (int)getpid());
    setenv("MARK", mark, 1);
    remove(mark);
    ExtProcessResult res;
    ext_session_request(s, REQUEST, "run", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_TIMEOUT);
    ext_session_request(s, REQUEST, "run", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_EXITED);
    /* The probe was request 1 of the new process; this one is its second. */
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "n: 2"));
    remove(mark);
    ext_session_stop(s);
}

static void test_session_bad_hello(void)
{
    ExtSession *s = ext_session_new("read x; echo 'not an adapter'; echo ...; sleep 30", 5);
    const char *why = ext_session_start(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "malformed answer to hello"));
    s = ext_session_new("echo 'no such backend' >&2; exit 4", 5);
    why = ext_session_start(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "status 4 before answering hello: no such backend"));
    /* Never asked again: the answer is immediate. */
    ExtProcessResult res;
    ext_session_request(s, REQUEST, "load", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_PROTOCOL);
}

static void test_session_two_responses(void)
{
    ExtSession *s =
        ext_session_new(session_adapter("printf '%s\\n' 'ok: true' ... 'ok: true' ..."), 5);
    ExtProcessResult res;
    ext_session_request(s, REQUEST, "load", &res);
    CU_ASSERT_EQUAL(res.end, EXT_END_PROTOCOL);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "more than one response"));
}

static void test_preflight(void)
{
    Adapter ad;
    AdapterExtOptions two = {session_adapter("printf '%s\\n' 'ok: true' ..."), 5, 2, NULL};
    adapter_ext_init(&ad, &two);
    CU_ASSERT_PTR_NULL(adapter_ext_preflight(&ad));
    /* The hello did not list wellformed: that phase is off before any case. */
    CU_ASSERT_PTR_NULL(ad.check_wellformed);
    CU_ASSERT_PTR_NOT_NULL(ad.run);
    CU_ASSERT_PTR_NOT_NULL(strstr(adapter_ext_describe(&ad), "fake 7 (protocol 2)"));
    adapter_ext_stop(&ad);
    AdapterExtOptions one = {"cat >/dev/null; echo 'Segmentation fault' >&2; exit 139", 5, 1, NULL};
    adapter_ext_init(&ad, &one);
    const char *why = adapter_ext_preflight(&ad);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "died of signal 11"));
    AdapterExtOptions rejects = {"cat >/dev/null; printf 'ok: false\\nmessage: no\\n'", 5, 1, NULL};
    adapter_ext_init(&ad, &rejects);
    CU_ASSERT_PTR_NOT_NULL(adapter_ext_preflight(&ad));
}

/* `reports` in the hello: what the implementation's answers carry in the spec's terms. */
static void test_hello_reports(void)
{
    const char *base = "protocol: 2\nok: true\nimplementation: {name: x, version: \"1\"}\n"
                       "requests: [load]\n";
    ExtHello h;
    const char *why = NULL;
    CU_ASSERT_TRUE_FATAL(ext_protocol_read_hello(base, &h, &why));
    CU_ASSERT_TRUE(h.reports_code && h.reports_rule && h.reports_canonical_print);
    CU_ASSERT_TRUE_FATAL(
        ext_protocol_read_hello(mem_printf("%sreports: [phase, later-thing]\n", base), &h, &why));
    CU_ASSERT_FALSE(h.reports_code || h.reports_rule || h.reports_canonical_print);
    CU_ASSERT_TRUE_FATAL(ext_protocol_read_hello(
        mem_printf("%sreports: [phase, code, canonical-print]\n", base), &h, &why));
    CU_ASSERT_TRUE(h.reports_code && h.reports_canonical_print);
    CU_ASSERT_FALSE(h.reports_rule);
    CU_ASSERT_FALSE(ext_protocol_read_hello(mem_printf("%sreports: phase\n", base), &h, &why));
    /* The preflight hands it to the judgement. */
    Adapter ad;
    AdapterExtOptions opts = {
        "read x; read y; printf '%s\\n' 'protocol: 2' 'ok: true' "
        "'implementation: {name: p, version: \"1\"}' 'requests: [load]' 'reports: [phase]' ...; "
        "cat >/dev/null",
        5, 2, NULL};
    adapter_ext_init(&ad, &opts);
    CU_ASSERT_PTR_NULL(adapter_ext_preflight(&ad));
    CU_ASSERT_EQUAL(ad.omits,
                    ADAPTER_OMITS_CODE | ADAPTER_OMITS_RULE | ADAPTER_OMITS_CANONICAL_PRINT);
    adapter_ext_stop(&ad);
}

/* SPEC_NOTES 4.17: the phase always counts (earlier: REJECTED-EARLY, later: WRONG-PHASE);
 * the code and the rule only for an implementation that reports them. */
static void test_judge_error_as_reported(void)
{
    Expect e;
    memset(&e, 0, sizeof e);
    e.kind = EXPECT_ERROR;
    e.error_phase = PHASE_STRUCT_INFO;
    e.error_code = "OpShapeMismatch";
    e.error_rule = "OP-add";
    Error got = {PHASE_STRUCT_INFO, NULL, NULL, span_make("f", 1, 1), "not broadcastable"};
    unsigned phase_only = ADAPTER_OMITS_CODE | ADAPTER_OMITS_RULE;
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_FAIL);
    CU_ASSERT_EQUAL(runner_judge_error_as(&e, &got, phase_only).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(runner_judge_error_as(&e, &got, ADAPTER_OMITS_RULE).outcome, OUTCOME_FAIL);
    got.code = "OpShapeMismatch";
    CU_ASSERT_EQUAL(runner_judge_error_as(&e, &got, ADAPTER_OMITS_RULE).outcome, OUTCOME_PASS);
    CU_ASSERT_EQUAL(runner_judge_error(&e, &got).outcome, OUTCOME_FAIL);
    got.phase = PHASE_PARSE;
    CaseResult r = runner_judge_error_as(&e, &got, phase_only);
    CU_ASSERT_EQUAL(r.outcome, OUTCOME_EARLY);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "expected struct_info error"));
    CU_ASSERT_STRING_EQUAL(runner_outcome_name(r.outcome), "REJECTED-EARLY");
    got.phase = PHASE_RUNTIME;
    CU_ASSERT_EQUAL(runner_judge_error_as(&e, &got, phase_only).outcome, OUTCOME_WRONG_PHASE);
}

static IRModule *parse_text(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return NULL;
    return script_parse("t", text, &trap);
}

/* A print that writes every binding's derived StructInfo (TVM's) means the canonical text;
 * one that binds a nested call, or changes a parameter's annotation, does not. */
static void test_print_meaning(void)
{
    const char *canonical = "@R.function\n"
                            "def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                            "    y = R.add(x, x)\n"
                            "    z: R.Tensor(ndim=1) = y\n"
                            "    return z\n";
    const char *derived = "@R.function\n"
                          "def main(x: R.Tensor((2,), dtype=\"float32\")) -> "
                          "R.Tensor((2,), dtype=\"float32\"):\n"
                          "    a: R.Tensor((2,), dtype=\"float32\") = R.add(x, x)\n"
                          "    b: R.Tensor((2,), dtype=\"float32\") = a\n"
                          "    return b\n";
    const char *rebound = "@R.function\n"
                          "def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                          "    y = R.add(x, x)\n"
                          "    z = R.add(y, x)\n"
                          "    return z\n";
    const char *other_param = "@R.function\n"
                              "def main(x: R.Tensor((3,), dtype=\"float32\")):\n"
                              "    y = R.add(x, x)\n"
                              "    z = y\n"
                              "    return z\n";
    IRModule *want = parse_text(canonical), *got = parse_text(derived);
    IRModule *bad = parse_text(rebound), *param = parse_text(other_param);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    CU_ASSERT_PTR_NOT_NULL_FATAL(param);
    CU_ASSERT_FALSE(equal_module(want, got));
    print_meaning_drop_derived_annotations(want);
    print_meaning_drop_derived_annotations(got);
    print_meaning_drop_derived_annotations(bad);
    print_meaning_drop_derived_annotations(param);
    CU_ASSERT_TRUE(equal_module(want, got));
    CU_ASSERT_FALSE(equal_module(want, bad));
    CU_ASSERT_FALSE(equal_module(want, param));
}

static void test_reason_line(void)
{
    CU_ASSERT_STRING_EQUAL(ext_process_reason_line("loading\nout of stack\nSegmentation fault\n"),
                           "out of stack");
    CU_ASSERT_STRING_EQUAL(
        ext_process_reason_line("boom\nsh: line 1: 42 Aborted (core dumped) ./impl\n"), "boom");
    CU_ASSERT_STRING_EQUAL(ext_process_reason_line("plain last words\n"), "plain last words");
}

/* ---- the pool ---- */

typedef struct PoolCheck {
    int seen;
    bool in_order;
    int stop_after;   /* 0: never */
    const char *note; /* the judged case's, then the one handed back */
} PoolCheck;

/* The note goes with each result, from the process that judged the case. */
static const char *note_of_case(void *ctx)
{
    return ((PoolCheck *)ctx)->note;
}

static void take_note(void *ctx, int index, const char *note)
{
    (void)index;
    ((PoolCheck *)ctx)->note = note;
}

static CaseResult judge_by_line(void *ctx, const Case *c)
{
    PoolCheck *pc = ctx;
    pc->note = c->line % 2 == 0 ? mem_printf("E-%d WF-3", c->line) : NULL;
    CaseResult r = {c->line % 3 == 0 ? OUTCOME_FAIL : OUTCOME_PASS,
                    c->line % 3 == 0 ? mem_printf("line %d", c->line) : NULL, 0};
    return r;
}

static bool check_order(void *ctx, int index, CaseResult r, double seconds)
{
    PoolCheck *pc = ctx;
    (void)seconds;
    const char *want = index % 3 == 0 ? mem_printf("line %d", index) : NULL;
    const char *fired = index % 2 == 0 ? mem_printf("E-%d WF-3", index) : NULL;
    pc->in_order = pc->in_order && index == pc->seen &&
                   (want ? r.reason && strcmp(r.reason, want) == 0 : r.reason == NULL) &&
                   (fired ? pc->note && strcmp(pc->note, fired) == 0 : pc->note == NULL);
    pc->seen++;
    return pc->stop_after == 0 || pc->seen < pc->stop_after;
}

static void test_pool_order(void)
{
    enum { N = 40 };
    Case *cases = MEM_ARRAY(Case, N);
    const Case **list = MEM_ARRAY(const Case *, N);
    for (int i = 0; i < N; i++) {
        cases[i].line = i;
        list[i] = &cases[i];
    }
    for (int jobs = 1; jobs <= 3; jobs++) {
        PoolCheck pc = {0, true, 0, NULL};
        PoolTask t = {list,        N,    jobs,         &pc,      judge_by_line,
                      check_order, NULL, note_of_case, take_note};
        CU_ASSERT_EQUAL(pool_run(&t), N);
        CU_ASSERT_EQUAL(pc.seen, N);
        CU_ASSERT_TRUE(pc.in_order);
    }
    PoolCheck pc = {0, true, 7, NULL};
    PoolTask t = {list, N, 2, &pc, judge_by_line, check_order, NULL, note_of_case, take_note};
    CU_ASSERT_EQUAL(pool_run(&t), 7);
}

/* ---- reports ---- */

static void test_reports(void)
{
    static const char *const tags[] = {"tvm-bug"};
    Case c;
    memset(&c, 0, sizeof c);
    c.id = "b";
    c.tags = (const char **)tags;
    c.ntags = 1;
    ReportEntry entries[] = {
        {"spec-tests/eval/t.yaml", "a", OUTCOME_PASS, NULL, 0.5, NULL},
        {"spec-tests/eval/t.yaml", "b", OUTCOME_FAIL, "got \"x\"\n| y", 0.25, &c},
        {"spec-tests/ops/u.yaml", "c", OUTCOME_SKIP, "needs run", 0, NULL},
        {"spec-tests/ops/u.yaml", "d", OUTCOME_KNOWN, "float16", 0, NULL},
        {"spec-tests/ops/u.yaml", "e", OUTCOME_EARLY, "expected struct_info error", 0, NULL},
    };
    Report rep = {entries, 5, "impl 1 (protocol 2)", "relax conform x", 0};
    const char *tap = report_tap(&rep);
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "TAP version 14\n1..5\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "not ok 5 - spec-tests/ops/u.yaml\\#e\n  ---\n  outcome: "
                                       "REJECTED-EARLY\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "ok 1 - spec-tests/eval/t.yaml\\#a\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "not ok 2 - spec-tests/eval/t.yaml\\#b\n  ---\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "ok 3 - spec-tests/ops/u.yaml\\#c # SKIP needs run\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(tap, "ok 4 - spec-tests/ops/u.yaml\\#d # TODO known failure"));
    const char *jsonl = report_jsonl(&rep);
    CU_ASSERT_PTR_NOT_NULL(strstr(jsonl, "\"message\":\"got \\\"x\\\"\\n| y\"}\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(jsonl, "\"tags\":[\"tvm-bug\"]"));
    const char *board = report_scoreboard(&rep);
    /* A rejection in an earlier phase is judged, not agreeing, and counted apart. */
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "**1 of 4 judged cases agree with the corpus (25.0%)**: "
                                         "1 passed, 1 failed, 1 rejected earlier"));
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "| eval | 1 | 1 | 0 | 0 | 0 | 50.0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "| ops | 0 | 0 | 1 | 1 | 1 | 0.0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "| tvm-bug | 0 | 1 | 0 | 0 | 0 | 0.0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "| `spec-tests/ops/u.yaml#e` | REJECTED-EARLY |"));
    /* The reason's first line only, its `|` escaped. */
    CU_ASSERT_PTR_NOT_NULL(strstr(board, "| FAIL | tvm-bug | got \"x\" |"));
    const char *summary = report_summary(&rep);
    CU_ASSERT_PTR_NOT_NULL(strstr(summary, "ops"));

    /* A reason longer than 300 characters (a whole tensor printed) is cut there. */
    char *long_reason = mem_alloc(1001);
    memset(long_reason, 'x', 1000);
    ReportEntry one[] = {{"spec-tests/eval/t.yaml", "b", OUTCOME_FAIL, long_reason, 0, &c}};
    Report big = {one, 1, "impl 1 (protocol 2)", "relax conform x", 0};
    const char *cut = report_scoreboard(&big);
    char want[320];
    memset(want, 'x', 300);
    strcpy(want + 300, " ... |");
    CU_ASSERT_PTR_NOT_NULL(strstr(cut, want));
    memset(want, 'x', 301);
    want[301] = '\0';
    CU_ASSERT_PTR_NULL(strstr(cut, want));
}

UNIT_SUITE(conform_run)
{
    CU_pSuite s = CU_add_suite("conform run", 0, 0);
    CU_add_test(s, "protocol 2: answers, crash, restart", test_session_answers_and_restarts);
    CU_add_test(s, "protocol 2: a hang costs one timeout", test_session_hang_costs_one_timeout);
    CU_add_test(s, "protocol 2: a probe answered goes on", test_session_probe_answered);
    CU_add_test(s, "protocol 2: a bad hello fails once", test_session_bad_hello);
    CU_add_test(s, "protocol 2: two responses to one request", test_session_two_responses);
    CU_add_test(s, "preflight", test_preflight);
    CU_add_test(s, "hello: reports", test_hello_reports);
    CU_add_test(s, "errors judged as reported", test_judge_error_as_reported);
    CU_add_test(s, "what a print means", test_print_meaning);
    CU_add_test(s, "the adapter's own last words", test_reason_line);
    CU_add_test(s, "workers hand results back in order", test_pool_order);
    CU_add_test(s, "TAP, JSON Lines, scoreboard", test_reports);
}
