/* test_diagnostics: the long form of diagnostics (source line, caret range, "did you mean")
 * over typical mistakes and over every negative case of the corpus. SPEC_NOTES: "Error codes". */
#include <stdio.h>
#include <string.h>

#include "ast/legacy/legacy.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"
#include "tools/cli/suggest.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/conform/run_entry.h"
#include "tools/tests/unit.h"
#include "values/value_yaml.h"

static void test_distance(void)
{
    CU_ASSERT_EQUAL(suggest_distance("mian", "main"), 1); /* a swap is one edit */
    CU_ASSERT_EQUAL(suggest_distance("chek", "check"), 1);
    CU_ASSERT_EQUAL(suggest_distance("", "abc"), 3);
    CU_ASSERT_EQUAL(suggest_distance("kitten", "sitting"), 3);
    NameList l = {0};
    names_add(&l, "axis");
    names_add(&l, "keepdims");
    CU_ASSERT_STRING_EQUAL(suggest_closest("axes", &l), "axis");
    CU_ASSERT_PTR_NULL(suggest_closest("zzzzzz", &l));
    CU_ASSERT_PTR_NULL(suggest_closest("axis", &l)); /* the name itself is no suggestion */
}

/* The first error of a program, as `relax check` then `relax run` find it: parse,
 * well-formedness, StructInfo, then the call (entry and arguments from `call`, when given). */
static bool first_error(const char *file, const char *text, const RunTarget *call, Error *out,
                        IRModule **mod)
{
    ErrorTrap trap;
    *mod = NULL;
    if (setjmp(trap.jmp) != 0) {
        *out = trap.error;
        return true;
    }
    /* LEG-1: a case in the legacy syntax is read as conform reads it. */
    *mod = call != NULL && call->mod != NULL ? call->mod
                                             : legacy_parse(file, text, SYNTAX_AUTO, NULL, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    wellformed_check(*mod, &errors);
    if (errors.n == 0)
        sinfo_check_module_report(*mod, &errors, &warnings, NULL);
    if (errors.n > 0) {
        *out = *diag_first(&errors);
        return true;
    }
    RunEntryRequest req = {*mod, "main", NULL, 0, NULL};
    if (call != NULL) {
        req.entry = call->entry != NULL ? call->entry : "main";
        req.args = call->args;
        req.nargs = call->nargs;
    }
    RunEntryOutput got;
    return !run_entry_call(&req, &got, out);
}

static char *render_long(const Error *e, const char *source, const IRModule *mod)
{
    cli_set_style(CLI_DIAG_LONG, CLI_COLOR_NEVER);
    CliDiag d = {e, false, source, mod};
    char *text = cli_format_diag(stderr, &d);
    cli_set_style(CLI_DIAG_AUTO, CLI_COLOR_AUTO);
    return text;
}

#define HEAD "from tvm.script import relax as R\n\n@R.function\n"
#define SIG "def main(x: R.Tensor((2, 3), \"float32\")):\n"

/* Ten typical mistakes, each with the suggestion a person would want. */
static const struct {
    const char *program;
    const char *entry;
    const char *hint;
} MISTAKES[] = {
    {HEAD SIG "    y = R.nn.softmx(x, axis=1)\n    return y\n", NULL, "`R.nn.softmax`"},
    {HEAD SIG "    y = R.sum(x, axes=1)\n    return y\n", NULL, "`axis`"},
    {HEAD SIG "    y = R.permute_dims(x, axis=[1, 0])\n    return y\n", NULL, "`axes`"},
    {HEAD SIG "    y = R.add(x, x)\n    z = R.multiply(yy, x)\n    return z\n", NULL, "`y`"},
    {HEAD SIG "    y = R.ad(x, x)\n    return y\n", NULL, "`R.add`"},
    {HEAD SIG "    y = R.multipy(x, x)\n    return y\n", NULL, "`R.multiply`"},
    {HEAD SIG "    y = R.nn.softmax(x, axs=1)\n    return y\n", NULL, "`axis`"},
    {HEAD SIG "    y = R.mean(x, axis=1, keepdim=True)\n    return y\n", NULL, "`keepdims`"},
    {HEAD SIG "    return x\n", "mian", "`main`"},
    {"from tvm.script import ir as I\nfrom tvm.script import relax as R\n\n@I.ir_module\n"
     "class Module:\n    @R.function\n    def foo(x: R.Tensor((2, 3), \"float32\")):\n"
     "        return x\n\n    @R.function\n    " SIG "        y = Module.fooo(x)\n"
     "        return y\n",
     NULL, "`foo`"},
};

static void test_did_you_mean(void)
{
    for (size_t i = 0; i < sizeof MISTAKES / sizeof MISTAKES[0]; i++) {
        RunTarget call = {NULL, MISTAKES[i].entry, NULL, 0};
        Error e;
        IRModule *mod;
        CU_ASSERT_FATAL(first_error("m.py", MISTAKES[i].program, &call, &e, &mod));
        char *text = render_long(&e, MISTAKES[i].program, mod);
        const char *want = mem_printf("= hint: did you mean %s?", MISTAKES[i].hint);
        if (strstr(text, want) == NULL)
            fprintf(stderr, "\nmistake %zu: wanted %s in\n%s\n", i, want, text);
        CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    }
}

/* ENTRY-1: an entry name nothing resembles gets the list of entry points; a private
 * function named as the entry is pointed at. */
static void test_entry_hint(void)
{
    RunTarget call = {NULL, "nowhere", NULL, 0};
    Error e;
    IRModule *mod;
    const char *program = HEAD SIG "    return x\n";
    CU_ASSERT_FATAL(first_error("m.py", program, &call, &e, &mod));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(render_long(&e, program, mod), "= hint: the program's entry function is `main`"));
    static const char private_f[] =
        "from tvm.script import ir as I\nfrom tvm.script import relax as R\n\n@I.ir_module\n"
        "class Module:\n    @R.function(private=True)\n    def f(x: R.Tensor((2,), \"float32\")):\n"
        "        return x\n\n    @R.function\n    def main(x: R.Tensor((2,), \"float32\")):\n"
        "        return x\n";
    RunTarget f = {NULL, "f", NULL, 0};
    CU_ASSERT_FATAL(first_error("m.py", private_f, &f, &e, &mod));
    CU_ASSERT_STRING_EQUAL(e.code, "NoEntry");
    CU_ASSERT_EQUAL(e.span.line, 7);
}

/* The long form of an error with a position shows its source line and a caret under the
 * span's column. */
static bool shows_line_and_caret(const char *text, const Error *e, const char *source)
{
    const char *p = source;
    for (int i = 1; i < e->span.line && p != NULL; i++)
        p = strchr(p, '\n') != NULL ? strchr(p, '\n') + 1 : NULL;
    if (p == NULL)
        return false;
    const char *line = mem_strndup(p, strcspn(p, "\n"));
    const char *excerpt = strstr(text, mem_printf("%d | %s\n", e->span.line, line));
    if (excerpt == NULL)
        return false;
    const char *caret_line = strchr(excerpt, '\n') + 1;
    const char *bar = strstr(caret_line, "| ");
    return bar != NULL && bar[2 + e->span.col - 1] == '^';
}

typedef struct Tally {
    int with_line; /* rendered with source line and caret */
    int no_position;
    int bad;
} Tally;

static void render_case(const Case *c, Tally *t)
{
    const CaseRun *run = c->nruns > 0 ? &c->runs[0] : NULL;
    if (c->program == NULL || run == NULL || run->expect.kind != EXPECT_ERROR ||
        run->expect.error_phase > PHASE_RUNTIME)
        return;
    RunTarget call = {NULL, NULL, NULL, 0};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        cmd_run_load_target(c->global_id, &call, &trap);
    Error e;
    IRModule *mod;
    if (!first_error(c->global_id, c->program, &call, &e, &mod))
        return;
    if (e.span.line <= 0 || e.span.file == NULL) {
        /* DIAG-site: only an entry name that no function of the program has (a name from
         * the command line, not the source) has no place to point at. */
        if (strcmp(e.code, "NoEntry") == 0) {
            t->no_position++;
            return;
        }
        t->bad++;
        fprintf(stderr, "\n%s: %s has no position: %s\n", c->global_id, e.code, e.message);
        return;
    }
    char *text = render_long(&e, c->program, mod);
    if (strcmp(e.span.file, c->global_id) == 0 && shows_line_and_caret(text, &e, c->program)) {
        t->with_line++;
        return;
    }
    t->bad++;
    fprintf(stderr, "\n%s: no source line and caret in\n%s\n", c->global_id, text);
}

static void test_corpus_negative_cases(void)
{
    const char **files = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &files, 0);
    Tally t = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        CaseFile *cf = unit_case_file(files[i], NULL);
        if (cf == NULL)
            continue;
        for (int k = 0; k < cf->ncases; k++)
            render_case(cf->cases[k], &t);
    }
    printf("\n  negative cases: %d shown with source line and caret, %d without a position\n",
           t.with_line, t.no_position);
    CU_ASSERT(t.with_line > 300);
    CU_ASSERT_EQUAL(t.bad, 0);
}

/* FN-2: a failed argument check names the argument's position and parameter, and the callee. */
static void test_argument_named(void)
{
    static const char program[] =
        HEAD "def main(x: R.Tensor((2,), \"float32\"), w: R.Tensor((2,), \"float32\")):\n"
             "    return x\n";
    ErrorTrap trap;
    CU_ASSERT_FATAL(setjmp(trap.jmp) == 0);
    IRModule *mod = script_parse("a.py", program, &trap);
    ValueYamlOptions vo = {"arg", false};
    Value *args[2];
    args[0] =
        value_yaml_parse_text("{tensor: {dtype: float32, shape: [2], data: [1, 2]}}", &vo, &trap);
    args[1] =
        value_yaml_parse_text("{tensor: {dtype: int32, shape: [2], data: [1, 2]}}", &vo, &trap);
    RunEntryRequest req = {mod, "main", args, 2, NULL};
    RunEntryOutput got;
    Error e;
    CU_ASSERT_FATAL(!run_entry_call(&req, &got, &e));
    CU_ASSERT_STRING_EQUAL(e.code, "ArgCheck");
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "argument 2 `w` of `main`"));
}

/* The StructInfo errors of a program, counted. */
static int sinfo_error_count(const char *program, DiagList *errors)
{
    ErrorTrap trap;
    CU_ASSERT_FATAL(setjmp(trap.jmp) == 0);
    IRModule *mod = script_parse("a.py", program, &trap);
    DiagList warnings;
    diag_init(errors);
    diag_init(&warnings);
    wellformed_check(mod, errors);
    CU_ASSERT_EQUAL_FATAL(errors->n, 0);
    sinfo_check_module_report(mod, errors, &warnings, NULL);
    return errors->n;
}

/* DIAG-1: one bad call is reported once, not again at each later use of its result
 * (an operator, a tuple and its item, an annotation, a MatchCast, an If, the return), while
 * a second, independent mistake is still reported. */
static void test_no_cascade(void)
{
    static const char one[] =
        HEAD "def main(x: R.Tensor((2, 3), \"float32\"), y: R.Tensor((4, 5), \"float32\"))"
             " -> R.Tensor((2, 5), \"float32\"):\n"
             "    a = R.matmul(x, y)\n"
             "    b = R.add(a, x)\n"
             "    t = (b, a)\n"
             "    c: R.Tensor((2, 5), \"float32\") = R.multiply(t[0], t[1])\n"
             "    d = R.match_cast(b, R.Shape([2]))\n"
             "    e = R.sum(R.nn.relu(c), axis=[0])\n"
             "    if R.greater(R.sum(a), R.const(0, \"float32\")):\n"
             "        r = c\n"
             "    else:\n"
             "        r = c\n"
             "    return r\n";
    DiagList errors;
    CU_ASSERT_EQUAL(sinfo_error_count(one, &errors), 1);
    CU_ASSERT_STRING_EQUAL(errors.items[0].code, "OpShapeMismatch");
    CU_ASSERT_EQUAL(errors.items[0].span.line, 5);
    static const char two[] =
        HEAD "def main(x: R.Tensor((2, 3), \"float32\"), y: R.Tensor((4, 5), \"float32\")):\n"
             "    a = R.matmul(x, y)\n"
             "    b = R.add(a, x)\n"
             "    c = R.add(x, y)\n"
             "    return (b, c)\n";
    CU_ASSERT_EQUAL(sinfo_error_count(two, &errors), 2);
}

UNIT_SUITE(diagnostics)
{
    CU_pSuite s = CU_add_suite("diagnostics", NULL, NULL);
    CU_add_test(s, "edit distance", test_distance);
    CU_add_test(s, "ten mistakes get a did you mean", test_did_you_mean);
    CU_add_test(s, "every negative case renders with its line", test_corpus_negative_cases);
    CU_add_test(s, "a failed argument check names the argument", test_argument_named);
    CU_add_test(s, "one mistake is reported once", test_no_cascade);
    CU_add_test(s, "an unknown entry lists the entry points", test_entry_hint);
}
