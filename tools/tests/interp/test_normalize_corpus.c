/* test_normalize_corpus: normalization over the whole corpus. Every well-formed program
 * normalizes to a module that is well-formed, in normal form and a fixpoint of normalization;
 * every executable case gives the same outcome (value or error code, and printed output)
 * before and after. SPEC_NOTES: "Normal form" (NF-*) and the normalization decisions. */
#include <stdio.h>
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/normalize/normalize.h"
#include "interp/wellformed/wellformed.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/conform/run_entry.h"
#include "tools/tests/unit.h"
#include "values/compare.h"

typedef struct Tally {
    int programs; /* well-formed programs normalized */
    int runs;     /* calls compared before and after */
    int failures;
} Tally;

static void report(Tally *t, const Case *c, const char *what)
{
    if (t->failures++ < 20)
        printf("\n%s: %s", c->global_id, what);
}

static const Error *first_error(const IRModule *mod, bool normal_form)
{
    DiagList errors;
    diag_init(&errors);
    wellformed_check(mod, &errors);
    if (normal_form)
        wellformed_check_normal_form(mod, &errors);
    return diag_first(&errors);
}

typedef struct Outcome {
    bool ok;
    Value *result;
    Error error;
    const char *printed;
} Outcome;

static bool call(const Case *c, const CaseRun *run, const IRModule *mod, Outcome *out)
{
    memset(out, 0, sizeof *out);
    Value **args = MEM_ARRAY(Value *, run->nargs + 1);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return false; /* arguments that do not read: not this test's concern */
    for (int i = 0; i < run->nargs; i++)
        args[i] = run_entry_value_from_yaml(c->global_id, run->args[i], &trap);
    RunEntryRequest req = {mod, run->entry ? run->entry : "main", args, run->nargs, NULL};
    RunEntryOutput got;
    out->ok = run_entry_call(&req, &got, &out->error);
    out->result = got.result;
    out->printed = got.printed ? got.printed : "";
    return true;
}

static bool step_limited(const Outcome *o)
{
    return !o->ok && o->error.code && strcmp(o->error.code, "StepLimit") == 0;
}

static const char *difference(const Outcome *a, const Outcome *b)
{
    if (a->ok != b->ok)
        return a->ok ? "normalized program fails" : "normalized program succeeds";
    if (!a->ok && strcmp(a->error.code, b->error.code) != 0)
        return mem_printf("error %s became %s", a->error.code, b->error.code);
    if (step_limited(a))
        return NULL; /* bindings added by normalization spend fuel differently */
    Tolerance exact = {0, 0, true};
    char *why = NULL;
    if (a->ok && !compare_values(b->result, a->result, &exact, &why))
        return mem_printf("result differs: %s", why ? why : "?");
    if (strcmp(a->printed, b->printed) != 0)
        return "printed output differs";
    return NULL;
}

static void compare_runs(const Case *c, const IRModule *mod, const IRModule *norm, Tally *t)
{
    for (int i = 0; i < c->nruns; i++) {
        const CaseRun *run = &c->runs[i];
        if (!run->has_call)
            continue;
        Outcome before, after;
        if (!call(c, run, mod, &before) || !call(c, run, norm, &after))
            continue;
        t->runs++;
        const char *diff = difference(&before, &after);
        if (diff != NULL)
            report(t, c, mem_printf("run %d: %s", i + 1, diff));
    }
}

static void check_case(const Case *c, Tally *t)
{
    IRModule *mod = unit_case_module(c);
    if (mod == NULL || first_error(mod, false) != NULL)
        return;
    t->programs++;
    IRModule *norm = normalize_module(mod);
    const Error *e = first_error(norm, true);
    if (e != NULL) {
        report(t, c, mem_printf("normalized program rejected: %s", error_format(e)));
        return;
    }
    const char *why = NULL;
    if (!equal_module_explain(norm, normalize_module(norm), &why))
        report(t, c, mem_printf("normalizing twice differs: %s", why ? why : "?"));
    compare_runs(c, mod, norm, t);
}

static void check_file(const char *path, Tally *t)
{
    CaseFile *cf = unit_case_file(path, NULL);
    if (cf == NULL)
        return; /* a broken case file is the corpus tests' concern */
    for (int i = 0; i < cf->ncases; i++)
        check_case(cf->cases[i], t);
}

static void test_normalize_corpus(void)
{
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    CU_ASSERT_TRUE_FATAL(n > 0);
    Tally t = {0, 0, 0};
    for (int i = 0; i < n; i++)
        check_file(paths[i], &t);
    printf("\nnormalize_corpus: %d programs normalized, %d runs compared, %d failures\n",
           t.programs, t.runs, t.failures);
    CU_ASSERT_EQUAL(t.failures, 0);
    CU_ASSERT_TRUE(t.programs > 0);
    CU_ASSERT_TRUE(t.runs > 0);
}

UNIT_SUITE(normalize_corpus)
{
    CU_pSuite s = CU_add_suite("normalize_corpus", 0, 0);
    CU_add_test(s, "corpus programs keep their outcome when normalized", test_normalize_corpus);
}
