/* runner: one conformance case against one implementation. The phases run in the order an
 * implementation meets them (CASE_FORMAT "Phases"), each at most once per case, and each run
 * of the case is judged against its expectation. SPEC_NOTES: "Exit codes"; CASE_FORMAT. */
#include "tools/conform/runner.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/wellformed/wellformed.h"
#include "tools/conform/case_value.h"
#include "tools/conform/print_meaning.h"
#include "tools/conform/run_entry.h"
#include "tools/conform/sinfo_compare.h"

typedef enum StageState {
    STAGE_NOT_RUN,
    STAGE_OK,
    STAGE_FAILED,
} StageState;

#define NSTATIC (PHASE_STRUCT_INFO + 1)

/* The state of one case: the loaded program and what each static phase said. */
typedef struct Pipeline {
    const Adapter *ad;
    const Case *c;
    AdapterProgram *prog;
    StageState state[NSTATIC];
    Error error[NSTATIC];
    StaticReport report;
} Pipeline;

static CaseResult result(Outcome o, const char *reason)
{
    CaseResult r = {o, reason, 0};
    return r;
}

static CaseResult pass(void)
{
    return result(OUTCOME_PASS, NULL);
}

/* The last phase an expectation needs, in CASE_FORMAT order. */
static Phase needed_depth(const Expect *e)
{
    Phase depth = PHASE_PARSE;
    switch (e->kind) {
    case EXPECT_VALUE:
        depth = PHASE_RUNTIME;
        break;
    case EXPECT_VALID:
    case EXPECT_STRUCT_INFO:
        depth = PHASE_STRUCT_INFO;
        break;
    case EXPECT_ERROR:
        depth = e->error_phase;
        break;
    case EXPECT_ROUNDTRIP:
        depth = PHASE_PARSE;
        break;
    case EXPECT_NORMAL_FORM:
    case EXPECT_NORMALIZES_TO:
        depth = PHASE_WELLFORMED;
        break;
    }
    if (e->has_warnings && depth < PHASE_STRUCT_INFO)
        depth = PHASE_STRUCT_INFO;
    return depth;
}

static bool has_phase(const Adapter *ad, Phase ph)
{
    if (ph == PHASE_PARSE)
        return ad->load != NULL;
    if (ph == PHASE_WELLFORMED)
        return ad->check_wellformed != NULL;
    if (ph == PHASE_STRUCT_INFO)
        return ad->check_struct_info != NULL;
    return ad->run != NULL;
}

/* A run judged by its result needs no static checker to be meaningful: an adapter that can
 * run but not check still runs `value:` and runtime-error cases (not those with warnings). */
static bool can_bypass(const Adapter *ad, Phase ph, Phase depth, const Expect *e)
{
    return (ph == PHASE_WELLFORMED || ph == PHASE_STRUCT_INFO) && depth == PHASE_RUNTIME &&
           ad->run != NULL && !e->has_warnings;
}

/* Every phase from `from` through `depth` that the adapter lacks. */
static unsigned missing_from(const Adapter *ad, Phase from, Phase depth, const Expect *e)
{
    unsigned m = 0;
    for (int ph = from; ph <= (int)depth; ph++) {
        if (!has_phase(ad, (Phase)ph) && !can_bypass(ad, (Phase)ph, depth, e))
            m |= RUNNER_NEEDS(ph);
    }
    if (e->kind == EXPECT_ROUNDTRIP && ad->roundtrip == NULL)
        m |= RUNNER_NEEDS_ROUNDTRIP;
    if (e->kind == EXPECT_NORMAL_FORM && ad->check_normal_form == NULL)
        m |= RUNNER_NEEDS_NORMAL_FORM;
    if (e->kind == EXPECT_NORMALIZES_TO && ad->normalize == NULL)
        m |= RUNNER_NEEDS_NORMALIZE;
    return m;
}

static bool stage_load(Pipeline *p, Error *err)
{
    const Case *c = p->c;
    if (c->ast_failed) {
        *err = c->ast_error;
        return false;
    }
    ProgramSource src = {c->global_id, c->program, c->ast};
    p->prog = p->ad->load(p->ad->self, &src, err);
    return p->prog != NULL;
}

static void run_stage(Pipeline *p, Phase ph)
{
    Error err;
    memset(&err, 0, sizeof err);
    bool ok;
    const Adapter *ad = p->ad;
    if (ph == PHASE_PARSE)
        ok = stage_load(p, &err);
    else if (ph == PHASE_WELLFORMED)
        ok = ad->check_wellformed(ad->self, p->prog, &err);
    else
        ok = ad->check_struct_info(ad->self, p->prog, &p->report, &err);
    p->state[ph] = ok ? STAGE_OK : STAGE_FAILED;
    p->error[ph] = err;
}

/* WF-23 is the fixed-point test of NF-5's operator rule: for the normal-form expectations it
 * does not stop the case. The normal-form check reports the call under NF-5, and
 * normalization step 6 repairs it (as `relax normalize` does). */
static bool blocks_case(const Expect *e, Phase ph, const Error *err)
{
    bool about_normal_form = e->kind == EXPECT_NORMAL_FORM || e->kind == EXPECT_NORMALIZES_TO;
    return !(about_normal_form && ph == PHASE_WELLFORMED && err->rule != NULL &&
             strcmp(err->rule, "WF-23") == 0);
}

/* Runs the static phases through `depth`. Returns the error of the phase that rejected the
 * program, or NULL; *missing gets the phases that could not run. */
static const Error *advance(Pipeline *p, const Expect *e, Phase depth, unsigned *missing)
{
    *missing = 0;
    for (int ph = PHASE_PARSE; ph <= (int)depth && ph < NSTATIC; ph++) {
        if (!has_phase(p->ad, (Phase)ph) && can_bypass(p->ad, (Phase)ph, depth, e))
            continue;
        if (!has_phase(p->ad, (Phase)ph)) {
            *missing = missing_from(p->ad, (Phase)ph, depth, e);
            return NULL;
        }
        if (p->state[ph] == STAGE_NOT_RUN)
            run_stage(p, (Phase)ph);
        if (p->state[ph] == STAGE_FAILED && blocks_case(e, (Phase)ph, &p->error[ph]))
            return &p->error[ph];
    }
    *missing = missing_from(p->ad, PHASE_PARSE, depth, e);
    return NULL;
}

static const char *expected_success(ExpectKind kind)
{
    switch (kind) {
    case EXPECT_VALUE:
        return "a value";
    case EXPECT_VALID:
        return "a valid program";
    case EXPECT_STRUCT_INFO:
        return "StructInfo to check";
    case EXPECT_ROUNDTRIP:
        return "a round trip";
    case EXPECT_ERROR:
        return "an error";
    case EXPECT_NORMAL_FORM:
        return "a normal-form verdict";
    case EXPECT_NORMALIZES_TO:
        return "a program to normalize";
    }
    return "?";
}

static CaseResult fail_unexpected_error(const Adapter *ad, const Expect *e, const Error *err)
{
    if (e->kind == EXPECT_ERROR)
        return runner_judge_error_as(e, err, ad->omits);
    return result(OUTCOME_FAIL,
                  mem_printf("expected %s, got %s", expected_success(e->kind), error_format(err)));
}

/* A text read by the reference's reader, or NULL with *why. */
static IRModule *read_printed(const char *name, const char *text, const char **why)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *why = error_format(&trap.error);
        return NULL;
    }
    return script_parse(name, text, &trap);
}

/* SPEC_NOTES 4.17: an implementation whose print is TVMScript of its own (not the canonical
 * text of SPEC_NOTES 4.5) is judged by what its print means: the case's text and its print,
 * both read, must be structurally equal once the annotations such a print derives (bindings',
 * returns') are set aside on both sides. */
static const char *print_meaning_differs(const Case *c, const char *expected, const char *got)
{
    const char *why = NULL;
    IRModule *want = read_printed(mem_printf("%s (printed)", c->global_id), expected, &why);
    if (want == NULL)
        return mem_printf("the case's printed text does not read: %s", why);
    IRModule *have = read_printed(mem_printf("%s (its print)", c->global_id), got, &why);
    if (have == NULL)
        return mem_printf("its print does not read as TVMScript: %s", why);
    print_meaning_drop_derived_annotations(want);
    print_meaning_drop_derived_annotations(have);
    if (!equal_module_explain(want, have, &why))
        return mem_printf("its print means another program: %s", why ? why : "(no detail)");
    return NULL;
}

static CaseResult judge_roundtrip(Pipeline *p, const Expect *e)
{
    const char *printed = NULL, *why = NULL;
    if (!p->ad->roundtrip(p->ad->self, p->prog, &printed, &why))
        return result(OUTCOME_FAIL, mem_printf("round trip: %s", why ? why : "failed"));
    if (e->printed != NULL && (p->ad->omits & ADAPTER_OMITS_CANONICAL_PRINT)) {
        const char *differs = print_meaning_differs(p->c, e->printed, printed);
        return differs ? result(OUTCOME_FAIL, differs) : pass();
    }
    const char *diff = e->printed ? runner_text_difference(e->printed, printed) : NULL;
    if (diff != NULL)
        return result(OUTCOME_FAIL, mem_printf("printed text differs: %s", diff));
    return pass();
}

static CaseResult judge_normal_form(Pipeline *p, const Expect *e)
{
    Error err;
    memset(&err, 0, sizeof err);
    bool in_nf = p->ad->check_normal_form(p->ad->self, p->prog, &err);
    return runner_judge_normal_form(e, in_nf, &err);
}

static CaseResult judge_normalizes_to(Pipeline *p, const Expect *e)
{
    const char *why = NULL;
    IRModule *want =
        runner_expected_normal_form(e, mem_printf("%s (normalizes_to)", p->c->global_id), &why);
    if (want == NULL)
        return result(OUTCOME_FAIL, why);
    Error err;
    memset(&err, 0, sizeof err);
    IRModule *got = p->ad->normalize(p->ad->self, p->prog, &err);
    if (got == NULL)
        return result(OUTCOME_FAIL,
                      mem_printf("expected a normalized program, got %s", error_format(&err)));
    if (p->ad->omits & ADAPTER_OMITS_CANONICAL_PRINT) { /* SPEC_NOTES 4.17 */
        print_meaning_drop_derived_annotations(want);
        print_meaning_drop_derived_annotations(got);
    }
    const char *diff = NULL;
    if (!equal_module_explain(want, got, &diff))
        return result(OUTCOME_FAIL, mem_printf("the normalized program differs: %s",
                                               diff ? diff : "(no detail)"));
    return pass();
}

static int report_index(const StaticReport *r, const char *name)
{
    for (int i = 0; i < r->nnames; i++) {
        if (strcmp(r->names[i], name) == 0)
            return i;
    }
    return -1;
}

static CaseResult judge_sinfo(Pipeline *p, const Expect *e)
{
    const StaticReport *r = &p->report;
    for (int i = 0; i < e->nsinfos; i++) {
        const SInfoExpect *s = &e->sinfos[i];
        int k = report_index(r, s->var);
        const char *got = k >= 0 && r->sinfo_texts != NULL ? r->sinfo_texts[k] : NULL;
        if (got == NULL)
            return result(OUTCOME_FAIL, mem_printf("no binding '%s' reported", s->var));
        bool same = p->ad->same_sinfo ? p->ad->same_sinfo(p->ad->self, s->text, got)
                                      : runner_same_sinfo_text(s->text, got);
        /* SINFO-CMP-1: by meaning, unless the case asks for the text (tag sinfo-text). */
        rule_fired("SINFO-CMP-1");
        if (!same && !case_has_tag(p->c, "sinfo-text"))
            same = sinfo_texts_same_meaning(s->text, got, NULL);
        if (!same)
            return result(OUTCOME_FAIL, mem_printf("StructInfo of '%s': expected %s, got %s",
                                                   s->var, s->text, got));
    }
    return pass();
}

/* --strict: implementation-defined and undefined results judged by the reference's own
 * choice (RESULT-2, RESULT-3). The reference itself is always judged so: its choice is the
 * documented one, and the corpus pins it. */
static bool strict_results;

void runner_set_strict(bool on)
{
    strict_results = on;
}

static bool judged_strictly(const Adapter *ad)
{
    return strict_results || (ad->name != NULL && strcmp(ad->name, "relax-ref") == 0);
}

/* Values compare as values of their dtypes (values/compare.h); where either side is not a
 * value at all, the YAML trees are compared as written. */
static CaseResult judge_value(const Case *c, const YamlNode *expected, const YamlNode *got,
                              bool strict)
{
    if (!c->exact)
        rule_fired("TOL-1"); /* the case's tolerance, or its dtype's default */
    Tolerance allowed = {c->rtol, c->atol, c->exact};
    expected = case_value_resolve(expected, got, allowed, strict); /* RESULT-2 */
    RunEntryTolerance rt = {c->rtol, c->atol, c->exact};
    bool read = false;
    const char *why = run_entry_values_differ(expected, got, &rt, &read);
    if (read)
        return why ? result(OUTCOME_FAIL, why) : pass();
    Tolerance tol = {c->rtol, c->atol, c->exact};
    return case_value_equal(expected, got, tol, &why) ? pass() : result(OUTCOME_FAIL, why);
}

static CaseResult judge_call(Pipeline *p, const CaseRun *r)
{
    const Expect *e = &r->expect;
    RunRequest req = {r->entry, r->args, r->nargs};
    RunResult out = {NULL, NULL};
    Error err;
    memset(&err, 0, sizeof err);
    CaseResult res = pass();
    bool ran = p->ad->run(p->ad->self, p->prog, &req, &out, &err);
    /* RESULT-3: an undefined result: any value or runtime error passes, unless --strict. */
    bool strict = judged_strictly(p->ad);
    rule_fired("RESULT-1");
    if (p->c->result == RESULT_UNDEFINED)
        rule_fired("RESULT-3");
    bool about_run =
        e->kind == EXPECT_VALUE || (e->kind == EXPECT_ERROR && e->error_phase == PHASE_RUNTIME);
    if (p->c->result == RESULT_UNDEFINED && !strict && about_run &&
        (ran || err.phase == PHASE_RUNTIME))
        return res;
    if (!ran) {
        res = fail_unexpected_error(p->ad, e, &err);
    } else if (e->kind == EXPECT_ERROR) {
        res = result(OUTCOME_FAIL, mem_printf("%s, got %s", runner_describe_expected_error(e),
                                              out.value ? yaml_node_str(out.value) : "a result"));
    } else {
        res = judge_value(p->c, e->value, out.value, strict);
    }
    if (res.outcome != OUTCOME_PASS || e->stdout_text == NULL)
        return res;
    const char *diff =
        runner_text_difference(e->stdout_text, out.stdout_text ? out.stdout_text : "");
    return diff ? result(OUTCOME_FAIL, mem_printf("stdout differs: %s", diff)) : res;
}

/* Every static phase the expectation needs has passed: judge what is left. */
static CaseResult judge_after_static(Pipeline *p, const CaseRun *r)
{
    const Expect *e = &r->expect;
    switch (e->kind) {
    case EXPECT_ROUNDTRIP:
        return judge_roundtrip(p, e);
    case EXPECT_NORMAL_FORM:
        return judge_normal_form(p, e);
    case EXPECT_NORMALIZES_TO:
        return judge_normalizes_to(p, e);
    case EXPECT_VALID:
        return pass();
    case EXPECT_STRUCT_INFO:
        return judge_sinfo(p, e);
    case EXPECT_ERROR:
        if (e->error_phase != PHASE_RUNTIME)
            return result(OUTCOME_FAIL,
                          mem_printf("%s, got success", runner_describe_expected_error(e)));
        return judge_call(p, r);
    case EXPECT_VALUE:
        return judge_call(p, r);
    }
    return pass();
}

static CaseResult judge_run(Pipeline *p, const CaseRun *r)
{
    const Expect *e = &r->expect;
    Phase depth = needed_depth(e);
    unsigned missing;
    const Error *err = advance(p, e, depth, &missing);
    if (err != NULL) {
        CaseResult res = fail_unexpected_error(p->ad, e, err);
        /* `errors:` is judged where the implementation reports every error it found. */
        if (res.outcome != OUTCOME_PASS || !e->has_errors || p->report.nerrors == 0)
            return res;
        const char *why = runner_judge_errors(e, p->report.errors, p->report.nerrors);
        return why ? result(OUTCOME_FAIL, why) : res;
    }
    if (missing != 0) {
        CaseResult skip =
            result(OUTCOME_SKIP, mem_printf("needs %s", runner_missing_names(missing)));
        skip.missing = missing;
        return skip;
    }
    CaseResult res = judge_after_static(p, r);
    if (res.outcome != OUTCOME_PASS || !e->has_warnings)
        return res;
    const char *w = runner_judge_warnings(e, p->report.warnings, p->report.nwarnings);
    return w ? result(OUTCOME_FAIL, w) : res;
}

/* The bindings every struct_info expectation of the case asks about, asked once. */
static void collect_sinfo_names(Pipeline *p)
{
    const char **names = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < p->c->nruns; i++) {
        const Expect *e = &p->c->runs[i].expect;
        for (int k = 0; k < e->nsinfos; k++)
            VEC_PUSH(names, n, cap, e->sinfos[k].var);
    }
    p->report.names = names;
    p->report.nnames = n;
}

CaseResult runner_run_case(const Adapter *ad, const Case *c)
{
    Pipeline p;
    memset(&p, 0, sizeof p);
    p.ad = ad;
    p.c = c;
    collect_sinfo_names(&p);
    CaseResult worst = pass();
    for (int i = 0; i < c->nruns; i++) {
        CaseResult r = judge_run(&p, &c->runs[i]);
        worst.missing |= r.missing;
        if (r.outcome <= worst.outcome)
            continue;
        worst.outcome = r.outcome;
        worst.reason = c->nruns > 1 ? mem_printf("run %d: %s", i + 1, r.reason) : r.reason;
    }
    return worst;
}

/* ---- the pure pieces of the judgement ---- */

char *runner_describe_expected_error(const Expect *e)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "expected %s error", error_phase_name(e->error_phase));
    if (e->error_code != NULL || e->error_rule != NULL) {
        strbuf_addf(&sb, " [%s", e->error_code ? e->error_code : "*");
        if (e->error_rule != NULL)
            strbuf_addf(&sb, " %s", e->error_rule);
        strbuf_addc(&sb, ']');
    }
    return strbuf_str(&sb);
}

CaseResult runner_judge_error(const Expect *e, const Error *got)
{
    return runner_judge_error_as(e, got, 0);
}

static bool differs(const char *want, const char *got)
{
    return want != NULL && (got == NULL || strcmp(want, got) != 0);
}

/* SPEC_NOTES 4.17: the phase always counts; a rejection in an earlier phase than the spec's is
 * its own outcome (an implementation that checks while parsing, SPEC_NOTES 4.1), a later one is
 * WRONG-PHASE; the code and the rule count unless the implementation does not report them. */
CaseResult runner_judge_error_as(const Expect *e, const Error *got, unsigned omits)
{
    const char *why =
        mem_printf("%s, got %s", runner_describe_expected_error(e), error_format(got));
    if (got->phase < e->error_phase)
        return result(OUTCOME_EARLY, why);
    if (got->phase != e->error_phase)
        return result(OUTCOME_WRONG_PHASE, why);
    if (!(omits & ADAPTER_OMITS_CODE) && differs(e->error_code, got->code))
        return result(OUTCOME_FAIL, why);
    if (!(omits & ADAPTER_OMITS_RULE) && differs(e->error_rule, got->rule))
        return result(OUTCOME_FAIL, why);
    return pass();
}

CaseResult runner_judge_normal_form(const Expect *e, bool in_normal_form, const Error *got)
{
    if (e->nf_rule == NULL)
        return in_normal_form ? pass()
                              : result(OUTCOME_FAIL, mem_printf("expected a program in normal "
                                                                "form, got %s",
                                                                error_format(got)));
    const char *want =
        mem_printf("expected a program not in normal form [NotNormalForm %s]", e->nf_rule);
    if (in_normal_form)
        return result(OUTCOME_FAIL, mem_printf("%s, got one in normal form", want));
    bool same = got->phase == PHASE_WELLFORMED && got->code != NULL &&
                strcmp(got->code, "NotNormalForm") == 0 && got->rule != NULL &&
                strcmp(got->rule, e->nf_rule) == 0;
    return same ? pass() : result(OUTCOME_FAIL, mem_printf("%s, got %s", want, error_format(got)));
}

/* Reads the expectation's program: the TVMScript text, or the ast: form read with the file. */
static IRModule *read_expected(const Expect *e, const char *name, const char **why)
{
    if (e->normalized_text == NULL) {
        if (e->normalized_ast_failed)
            *why = mem_printf("normalizes_to_ast does not read: %s",
                              error_format(&e->normalized_ast_error));
        return e->normalized_ast;
    }
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *why = mem_printf("normalizes_to does not parse: %s", error_format(&trap.error));
        return NULL;
    }
    return script_parse(name, e->normalized_text, &trap);
}

IRModule *runner_expected_normal_form(const Expect *e, const char *name, const char **why)
{
    IRModule *mod = read_expected(e, name, why);
    if (mod == NULL)
        return NULL;
    DiagList errors;
    diag_init(&errors);
    wellformed_check(mod, &errors);
    wellformed_check_normal_form(mod, &errors);
    const Error *first = diag_first(&errors);
    if (first != NULL) {
        *why = mem_printf("the expected program is not a well-formed program in normal form: %s",
                          error_format(first));
        return NULL;
    }
    return mod;
}

/* One line of text for a message: at most 100 characters, or "end of text". */
static const char *quote_line(const char *line, size_t len, bool present)
{
    if (!present)
        return "end of text";
    if (len > 100)
        return mem_printf("'%.*s...'", 100, line);
    return mem_printf("'%.*s'", (int)len, line);
}

const char *runner_text_difference(const char *expected, const char *got)
{
    if (strcmp(expected, got) == 0)
        return NULL;
    const char *a = expected, *b = got;
    for (int line = 1;; line++) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t la = ea ? (size_t)(ea - a) : strlen(a);
        size_t lb = eb ? (size_t)(eb - b) : strlen(b);
        bool differ = la != lb || memcmp(a, b, la) != 0 || (ea == NULL) != (eb == NULL);
        if (differ) {
            bool a_more = ea != NULL || la > 0, b_more = eb != NULL || lb > 0;
            if (la == lb && memcmp(a, b, la) == 0)
                return mem_printf("line %d: %s", line,
                                  ea ? "expected a newline, got end of text"
                                     : "expected end of text, got a newline");
            return mem_printf("line %d: expected %s, got %s", line, quote_line(a, la, a_more),
                              quote_line(b, lb, b_more));
        }
        a = ea + 1;
        b = eb + 1;
    }
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static char *sorted_list(const char *const *items, int n)
{
    const char **copy = MEM_ARRAY(const char *, n + 1);
    for (int i = 0; i < n; i++)
        copy[i] = items[i];
    if (n > 1)
        qsort(copy, (size_t)n, sizeof *copy, cmp_str);
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addc(&sb, '[');
    for (int i = 0; i < n; i++)
        strbuf_addf(&sb, "%s%s", i ? ", " : "", copy[i]);
    strbuf_addc(&sb, ']');
    return strbuf_str(&sb);
}

/* DIAG-1: the errors, in source order, exactly as listed; a cascade from an error already
 * reported shows up as more codes. */
const char *runner_judge_errors(const Expect *e, const char *const *got, int ngot)
{
    StrBuf want, have;
    strbuf_init(&want);
    strbuf_init(&have);
    for (int i = 0; i < e->nerrors; i++)
        strbuf_addf(&want, "%s%s", i ? ", " : "", e->errors[i]);
    for (int i = 0; i < ngot; i++)
        strbuf_addf(&have, "%s%s", i ? ", " : "", got[i]);
    if (strcmp(strbuf_str(&want), strbuf_str(&have)) == 0)
        return NULL;
    return mem_printf("expected the errors [%s], got [%s]", strbuf_str(&want), strbuf_str(&have));
}

const char *runner_judge_warnings(const Expect *e, const char *const *got, int ngot)
{
    char *want = sorted_list(e->warnings, e->nwarnings);
    char *have = sorted_list(got, ngot);
    if (strcmp(want, have) == 0)
        return NULL;
    return mem_printf("expected warnings %s, got %s", want, have);
}

bool runner_same_sinfo_text(const char *expected, const char *got)
{
    const char *a = expected, *b = got;
    for (;;) {
        while (isspace((unsigned char)*a))
            a++;
        while (isspace((unsigned char)*b))
            b++;
        if (*a == '\0' || *b == '\0')
            return *a == *b;
        char ca = *a == '\'' ? '"' : *a, cb = *b == '\'' ? '"' : *b;
        if (ca != cb)
            return false;
        a++;
        b++;
    }
}

char *runner_missing_names(unsigned missing)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int ph = PHASE_PARSE; ph <= PHASE_RUNTIME; ph++) {
        if (missing & RUNNER_NEEDS(ph))
            strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", error_phase_name((Phase)ph));
    }
    if (missing & RUNNER_NEEDS_ROUNDTRIP)
        strbuf_addf(&sb, "%sprint round trip", sb.len ? ", " : "");
    if (missing & RUNNER_NEEDS_NORMAL_FORM)
        strbuf_addf(&sb, "%snormal-form check", sb.len ? ", " : "");
    if (missing & RUNNER_NEEDS_NORMALIZE)
        strbuf_addf(&sb, "%snormalization", sb.len ? ", " : "");
    return strbuf_str(&sb);
}

const char *runner_outcome_name(Outcome o)
{
    switch (o) {
    case OUTCOME_PASS:
        return "PASS";
    case OUTCOME_SKIP:
        return "SKIP";
    case OUTCOME_KNOWN:
        return "KNOWN";
    case OUTCOME_EARLY:
        return "REJECTED-EARLY";
    case OUTCOME_FAIL:
        return "FAIL";
    case OUTCOME_WRONG_PHASE:
        return "WRONG-PHASE";
    }
    return "?";
}
