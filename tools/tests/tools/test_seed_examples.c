/* test_seed_examples: every seed example program run by `relax run --trace`, its trace, output
 * and result checked against its case. SPEC_NOTES: "Evaluation" (E-13, ENTRY-1), "Exit codes". */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/case_file.h"
#include "tools/cli/cli.h"
#include "tools/conform/run_entry.h"
#include "tools/tests/unit.h"

#define SEED_FILE "spec-tests/eval/seed_examples.yaml"
#define MIN_PROGRAMS 20

/* A failed check names the case and run, so one test can cover the whole file. */
static void check(bool ok, const char *where, const char *what)
{
    if (!ok)
        fprintf(stderr, "\n  %s: %s\n", where, what);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, __LINE__, mem_printf("%s: %s", where, what),
                            __FILE__, "", CU_FALSE);
}

/* ---- the bindings of a program, by source position ---- */

typedef struct BindingSite {
    int line;
    int col;
    const char *name;
    bool top_level; /* a binding of the entry function's own body */
    int seen;       /* how many trace lines named it */
} BindingSite;

typedef struct SiteList {
    BindingSite *items;
    int n;
    int cap;
} SiteList;

static void collect_expr(SiteList *sl, const Expr *e, bool top_level);

static void collect_seq(SiteList *sl, const Expr *seq, bool top_level)
{
    for (int k = 0; k < seq->u.seq.nblocks; k++) {
        const BindingBlock *blk = seq->u.seq.blocks[k];
        for (int i = 0; i < blk->n; i++) {
            const Binding *b = blk->bindings[i];
            BindingSite site = {b->span.line, b->span.col, b->var ? b->var->name : "_", top_level,
                                0};
            VEC_PUSH(sl->items, sl->n, sl->cap, site);
            collect_expr(sl, b->value, false);
        }
    }
    collect_expr(sl, seq->u.seq.body, false);
}

/* Every binding inside `e` (nested SeqExprs, branches, local functions). */
static void collect_expr(SiteList *sl, const Expr *e, bool top_level)
{
    switch (e->kind) {
    case EXPR_SEQ:
        collect_seq(sl, e, top_level);
        break;
    case EXPR_FUNCTION:
        collect_expr(sl, e->u.func->body, false);
        break;
    case EXPR_IF:
        collect_expr(sl, e->u.if_.cond, false);
        collect_expr(sl, e->u.if_.then_branch, false);
        collect_expr(sl, e->u.if_.else_branch, false);
        break;
    case EXPR_CALL:
        collect_expr(sl, e->u.call.op, false);
        for (int i = 0; i < e->u.call.nargs; i++)
            collect_expr(sl, e->u.call.args[i], false);
        break;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            collect_expr(sl, e->u.tuple.fields[i], false);
        break;
    case EXPR_TUPLE_GET_ITEM:
        collect_expr(sl, e->u.get_item.tuple, false);
        break;
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        break;
    }
}

/* The binding sites of every Relax function; the entry's own body bindings are top level. */
static SiteList program_sites(const IRModule *mod, const char *entry)
{
    SiteList sl = {NULL, 0, 0};
    for (int i = 0; i < mod->nfuncs; i++) {
        const ModuleFunc *mf = mod->funcs[i];
        if (mf->kind != MODFUNC_RELAX)
            continue;
        const Expr *body = mf->u.relax->body;
        bool is_entry = strcmp(mf->gvar->name, entry) == 0;
        if (body->kind == EXPR_SEQ)
            collect_seq(&sl, body, is_entry);
        else
            collect_expr(&sl, body, false);
    }
    return sl;
}

/* ---- one `relax run --trace`, its stdout and stderr captured ---- */

typedef struct RunCapture {
    int code;
    char *out;   /* printed output, then the result line */
    char *trace; /* stderr: the trace lines, then an error line on failure */
} RunCapture;

static char *read_back(FILE *f)
{
    StrBuf sb;
    strbuf_init(&sb);
    fflush(f);
    rewind(f);
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_addn(&sb, buf, n);
    return strbuf_str(&sb);
}

/* Runs the command with standard error redirected to a temporary file for the call. */
static bool run_captured(int argc, char **argv, RunCapture *rc)
{
    FILE *out = tmpfile();
    FILE *err = tmpfile();
    if (out == NULL || err == NULL)
        return false;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(err), STDERR_FILENO) < 0)
        return false;
    rc->code = cmd_run_to(argc, argv, out);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rc->out = read_back(out);
    rc->trace = read_back(err);
    fclose(out);
    fclose(err);
    return true;
}

/* argv for one run: FILE#id --trace --entry NAME --arg V ... */
static int run_argv(const char *path, const Case *c, const CaseRun *r, char ***argv_out)
{
    int cap = 6 + 2 * r->nargs;
    char **argv = MEM_ARRAY(char *, cap + 1);
    int argc = 0;
    argv[argc++] = mem_strdup("run");
    argv[argc++] = mem_printf("%s#%s", path, c->id);
    argv[argc++] = mem_strdup("--trace");
    argv[argc++] = mem_strdup("--entry");
    argv[argc++] = mem_strdup(r->entry != NULL ? r->entry : "main");
    for (int i = 0; i < r->nargs; i++) {
        argv[argc++] = mem_strdup("--arg");
        argv[argc++] = yaml_node_str(r->args[i]);
    }
    argv[argc] = NULL;
    *argv_out = argv;
    return argc;
}

/* ---- judging the trace ---- */

static BindingSite *find_site(SiteList *sl, int line, int col, const char *name)
{
    for (int i = 0; i < sl->n; i++) {
        BindingSite *s = &sl->items[i];
        if (s->line == line && s->col == col && strcmp(s->name, name) == 0)
            return s;
    }
    return NULL;
}

/* One trace line, `L:C: [match_cast ]NAME = SUMMARY`; returns the site it names or NULL. */
static BindingSite *trace_line_site(SiteList *sl, const char *line)
{
    int l = 0, col = 0, used = 0;
    if (sscanf(line, "%d:%d: %n", &l, &col, &used) != 2 || used == 0)
        return NULL;
    const char *name = line + used;
    if (strncmp(name, "match_cast ", 11) == 0)
        name += 11;
    const char *eq = strstr(name, " = ");
    if (eq == NULL || eq[3] == '\0')
        return NULL;
    return find_site(sl, l, col, mem_strndup(name, (size_t)(eq - name)));
}

/* Every trace line names a binding of the program, and on success every binding of the entry's
 * body was traced exactly once. Returns the number of trace lines. */
static int check_trace(const char *where, const char *trace, SiteList *sl, bool succeeded)
{
    int lines = 0;
    for (const char *p = trace; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
        char *line = mem_strndup(p, len);
        p += len + (nl != NULL ? 1 : 0);
        /* A failed run's error line follows its trace; it starts with the file, not L:C. */
        bool is_trace = line[0] >= '0' && line[0] <= '9';
        if (!is_trace && !succeeded && strstr(line, " error [") != NULL)
            continue;
        lines++;
        /* "L:C: => value" shows a body expression's value, not a binding. */
        int used = 0;
        int l, col;
        if (sscanf(line, "%d:%d: => %n", &l, &col, &used) == 2 && used > 0)
            continue;
        BindingSite *site = trace_line_site(sl, line);
        check(site != NULL, where, mem_printf("trace line names no binding: '%s'", line));
        if (site != NULL)
            site->seen++;
    }
    if (!succeeded)
        return lines;
    check(lines >= 1, where, "the trace is empty");
    for (int i = 0; i < sl->n; i++) {
        const BindingSite *s = &sl->items[i];
        if (s->top_level)
            check(s->seen == 1, where,
                  mem_printf("binding %s at %d:%d traced %d times", s->name, s->line, s->col,
                             s->seen));
    }
    return lines;
}

/* ---- judging the output ---- */

static YamlNode *yaml_from_text(const char *text)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    YamlNode *node = NULL;
    if (yaml_parser_load(&parser, &doc)) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root != NULL)
            node = yaml_node_copy(&doc, root);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return node;
}

/* The output is the printed text, then the result on its own last line. */
static void check_output(const char *where, const Case *c, const Expect *ex, const char *out)
{
    size_t len = strlen(out);
    check(len > 0 && out[len - 1] == '\n', where, "the output does not end in a result line");
    if (len == 0 || out[len - 1] != '\n')
        return;
    size_t start = len - 1;
    while (start > 0 && out[start - 1] != '\n')
        start--;
    const char *printed = mem_strndup(out, start);
    const char *result = mem_strndup(out + start, len - 1 - start);
    if (ex->stdout_text != NULL)
        check(strcmp(printed, ex->stdout_text) == 0, where,
              mem_printf("printed '%s', expected '%s'", printed, ex->stdout_text));
    YamlNode *got = yaml_from_text(result);
    check(got != NULL, where, mem_printf("the result line is not YAML: '%s'", result));
    if (got == NULL)
        return;
    RunEntryTolerance tol = {c->rtol, c->atol, c->exact};
    bool ok_read = false;
    const char *why = run_entry_values_differ(ex->value, got, &tol, &ok_read);
    check(ok_read, where, mem_printf("the result '%s' cannot be read as a value", result));
    check(why == NULL, where, mem_printf("result '%s' differs: %s", result, why ? why : ""));
}

/* ---- the cases ---- */

/* One run of a case; returns whether it ran to a value as expected. */
static bool check_run(const char *path, const Case *c, const CaseRun *r, int k, SiteList *sl)
{
    const char *where = mem_printf("%s run %d", c->global_id, k + 1);
    char **argv = NULL;
    int argc = run_argv(path, c, r, &argv);
    RunCapture rc;
    bool captured = run_captured(argc, argv, &rc);
    check(captured, where, "could not capture the output");
    if (!captured)
        return false;
    for (int i = 0; i < sl->n; i++)
        sl->items[i].seen = 0;
    if (r->expect.kind == EXPECT_ERROR) {
        check(rc.code == 7, where, mem_printf("exit %d, expected a runtime error (7)", rc.code));
        if (r->expect.error_code != NULL)
            check(strstr(rc.trace, mem_printf("[%s ", r->expect.error_code)) != NULL, where,
                  mem_printf("no %s error in '%s'", r->expect.error_code, rc.trace));
        check_trace(where, rc.trace, sl, false);
        return false;
    }
    check(rc.code == 0, where, mem_printf("exit %d: %s", rc.code, rc.trace));
    if (rc.code != 0)
        return false;
    check_trace(where, rc.trace, sl, true);
    check_output(where, c, &r->expect, rc.out);
    return true;
}

/* The case's program as `relax run` parses it, so that spans agree; NULL on a parse error. */
static const IRModule *parse_program(const Case *c)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        check(false, c->global_id, error_format(&trap.error));
        return NULL;
    }
    return script_parse(c->global_id, c->program, &trap);
}

/* Returns whether at least one run of the case produced its value. */
static bool check_case(const char *path, const Case *c)
{
    check(c->program != NULL, c->global_id, "a seed example is written in TVMScript");
    check(case_has_tag(c, "seed-example"), c->global_id, "the case lacks the seed-example tag");
    check(c->nruns > 0 && c->runs[0].has_call, c->global_id, "the case has no run");
    if (c->program == NULL || c->nruns == 0 || !c->runs[0].has_call)
        return false;
    const IRModule *mod = parse_program(c);
    if (mod == NULL)
        return false;
    bool ran = false;
    for (int k = 0; k < c->nruns; k++) {
        const CaseRun *r = &c->runs[k];
        /* `relax run FILE#id` with no --arg takes the first run's arguments. */
        if (k > 0 && r->nargs == 0 && c->runs[0].nargs > 0) {
            check(false, c->global_id, "a later run without arguments cannot be written");
            continue;
        }
        SiteList sl = program_sites(mod, r->entry != NULL ? r->entry : "main");
        if (check_run(path, c, r, k, &sl))
            ran = true;
    }
    return ran;
}

static CaseFile *load_cases(const char *path)
{
    const char *error = NULL;
    CaseFile *cf = unit_case_file(path, &error);
    if (cf == NULL)
        check(false, SEED_FILE, error);
    return cf;
}

static void test_every_seed_example_runs_with_trace(void)
{
    const char *path = mem_printf("%s/%s", unit_source_dir(), SEED_FILE);
    CaseFile *cf = load_cases(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
    int programs = 0;
    for (int i = 0; i < cf->ncases; i++) {
        if (check_case(path, cf->cases[i]))
            programs++;
    }
    check(programs >= MIN_PROGRAMS, SEED_FILE,
          mem_printf("only %d programs ran, expected at least %d", programs, MIN_PROGRAMS));
}

/* The judge itself: a wrong expected value, a missing trace and a foreign trace line fail. */
static void test_trace_judge(void)
{
    BindingSite items[] = {{3, 5, "y", true, 0}, {4, 9, "z", false, 0}};
    SiteList sl = {items, 2, 2};
    CU_ASSERT_PTR_EQUAL(trace_line_site(&sl, "3:5: y = tensor float32 [2] {1, 2} #4"), &items[0]);
    CU_ASSERT_PTR_EQUAL(trace_line_site(&sl, "4:9: match_cast z = shape (2) #7  [n=2]"), &items[1]);
    CU_ASSERT_PTR_NULL(trace_line_site(&sl, "4:9: y = tensor float32 [2] {1, 2} #4"));
    CU_ASSERT_PTR_NULL(trace_line_site(&sl, "3:6: y = tensor float32 [2] {1, 2} #4"));
    CU_ASSERT_PTR_NULL(trace_line_site(&sl, "y = tensor"));
    CU_ASSERT_PTR_NULL(trace_line_site(&sl, "3:5: y ="));
    YamlNode *v = yaml_from_text("{shape: [2, 3]}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    RunEntryTolerance tol = {CASE_DEFAULT_RTOL, CASE_DEFAULT_ATOL, false};
    bool ok_read = false;
    CU_ASSERT_PTR_NOT_NULL(
        run_entry_values_differ(v, yaml_from_text("{shape: [2, 4]}"), &tol, &ok_read));
    CU_ASSERT_PTR_NULL(
        run_entry_values_differ(v, yaml_from_text("{shape: [2, 3]}"), &tol, &ok_read));
    CU_ASSERT_TRUE(ok_read);
}

UNIT_SUITE(seed_examples)
{
    CU_pSuite s = CU_add_suite("seed_examples", NULL, NULL);
    CU_add_test(s, "trace and result judge", test_trace_judge);
    CU_add_test(s, "every seed example runs with --trace", test_every_seed_example_runs_with_trace);
}
