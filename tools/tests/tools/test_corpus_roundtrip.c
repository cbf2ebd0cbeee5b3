/* test_corpus_roundtrip: every program of the corpus that parses round-trips through the
 * printer (reparse alpha-equal, print a fixpoint), and every ast: program through the ast:
 * writer and reader. SPEC_NOTES: "Canonical printing" and "The ast: form". */
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/tests/unit.h"

typedef struct Tally {
    int programs; /* text programs that parsed and were checked */
    int asts;     /* ast: programs checked */
    int failures;
} Tally;

static void report(Tally *t, const Case *c, const char *what)
{
    if (t->failures++ < 20)
        printf("\n%s: %s", c->global_id, what);
}

static void check_text(const Adapter *ad, const Case *c, Tally *t)
{
    ProgramSource src = {c->global_id, c->program, NULL};
    Error err;
    AdapterProgram *prog = ad->load(ad->self, &src, &err);
    if (prog == NULL)
        return; /* a case about a parse error */
    const char *printed = NULL, *why = NULL;
    t->programs++;
    if (!ad->roundtrip(ad->self, prog, &printed, &why))
        report(t, c, why);
}

static void check_ast(const Case *c, Tally *t)
{
    if (c->ast_failed)
        return; /* a case about a malformed ast: form */
    t->asts++;
    char *yaml = astform_write(c->ast);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        report(
            t, c,
            mem_printf("the written ast: form does not read back: %s", error_format(&trap.error)));
        return;
    }
    IRModule *back = astform_read_text(c->global_id, yaml, &trap);
    const char *why = NULL;
    if (!equal_module_explain(c->ast, back, &why))
        report(t, c, mem_printf("ast: write then read differs: %s", why ? why : "?"));
}

static void check_file(const Adapter *ad, const char *path, Tally *t)
{
    const char *error = NULL;
    CaseFile *cf = unit_case_file(path, &error);
    if (cf == NULL) {
        printf("\n%s", error);
        t->failures++;
        return;
    }
    for (int i = 0; i < cf->ncases; i++) {
        const Case *c = cf->cases[i];
        if (c->program != NULL)
            check_text(ad, c, t);
        else
            check_ast(c, t);
    }
}

static void test_corpus_roundtrip(void)
{
    Adapter ad;
    adapter_ref_init(&ad);
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    CU_ASSERT_TRUE_FATAL(n > 0);
    Tally t = {0, 0, 0};
    for (int i = 0; i < n; i++)
        check_file(&ad, paths[i], &t);
    CU_ASSERT_EQUAL(t.failures, 0);
    CU_ASSERT_TRUE(t.programs > 0);
}

UNIT_SUITE(corpus_roundtrip)
{
    CU_pSuite s = CU_add_suite("corpus_roundtrip", 0, 0);
    CU_add_test(s, "every corpus program round-trips", test_corpus_roundtrip);
}
