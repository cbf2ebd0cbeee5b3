/* cmd_ops: `relax ops`, the operator registry listed, and `relax ops --table`, its status
 * table in markdown (inference, kernel, dtypes, conformance cases per operator).
 * SPEC_NOTES: "Operators" (OP-REGISTRY). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/schema/op_schema.h"
#include "interp/eval/builtins.h"
#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "tools/cli/cli.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"

const char CMD_OPS_USAGE[] =
    "usage: relax ops [--table] [--corpus DIR] | relax ops --signatures\n"
    "\n"
    "Lists the operators the registry knows, one TVM name a line. With --table prints the\n"
    "status table in markdown: per operator whether it has StructInfo inference and a\n"
    "kernel, the dtypes the kernel takes, how many conformance cases under DIR/ops,\n"
    "DIR/models and DIR/lowered (DIR defaults to spec-tests) name its OP- rule (an operator\n"
    "of the lowered IR: its LOW- rule, in a case that calls it by name), the TVM source its\n"
    "meaning\n"
    "follows (from DIR/../SPEC_NOTES.md), its implementation-defined, undefined and tvm-bug\n"
    "cases, and what is missing; then TVM v0.22's registry (DIR/ops/tvm-registry.txt), each\n"
    "operator with where the reference implements it. With --signatures prints each\n"
    "operator's constructor as TVMScript calls it, `relax.sum(x, axis=None, keepdims=False)`\n"
    "(the parameters in order, defaults as Python literals), for tools/lint/op_signatures.py.\n";

/* The least number of cases an operator needs to count as covered. */
#define OPS_MIN_CASES 3

typedef struct OpRow {
    const char *name;
    const OpSchema *schema;
    const OpImpl *impl;
    int ncases;
    int nimpl_defined, nundefined, ntvm_bug; /* RESULT-1 kinds and tvm-bug tags */
    const char *source;                      /* the TVM source column of its SPEC_NOTES row */
} OpRow;

static int row_cmp(const void *a, const void *b)
{
    return strcmp(((const OpRow *)a)->name, ((const OpRow *)b)->name);
}

/* Every operator with a schema or an implementation, sorted by name. */
static OpRow *collect_rows(int *n)
{
    int ns = 0, ni = 0;
    const OpSchema *const *schemas = op_schema_all(&ns);
    const OpImpl *const *impls = ops_all(&ni);
    OpRow *rows = MEM_ARRAY(OpRow, ns + ni + 1);
    int count = 0;
    for (int i = 0; i < ns; i++)
        rows[count++] =
            (OpRow){schemas[i]->name, schemas[i], ops_lookup(schemas[i]->name), 0, 0, 0, 0, NULL};
    for (int i = 0; i < ni; i++)
        if (op_schema_lookup(impls[i]->name) == NULL)
            rows[count++] = (OpRow){impls[i]->name, NULL, impls[i], 0, 0, 0, 0, NULL};
    qsort(rows, (size_t)count, sizeof rows[0], row_cmp);
    *n = count;
    return rows;
}

/* The rule an operator's cases name: OP-<name>, or for an operator of the lowered IR its
 * LOW-* rule, which several operators share (LOW-inspect). */
static const char *row_rule(const char *name)
{
    const char *low = op_schema_lowered_rule(name);
    return low != NULL ? low : ops_rule_of(name);
}

/* A case counts for an operator when it names the operator's rule; under a shared LOW-* rule
 * its program must also call the operator by name (R.memory.view(...)). */
static bool case_names(const Case *c, const char *name, const char *rule)
{
    bool named = false;
    for (int i = 0; i < c->nspec && !named; i++)
        named = strcmp(c->spec[i], rule) == 0;
    if (!named || op_schema_lowered_rule(name) == NULL)
        return named;
    const char *shortname = strncmp(name, "relax.", 6) == 0 ? name + 6 : name;
    return c->program != NULL && strstr(c->program, mem_printf("R.%s(", shortname)) != NULL;
}

/* Adds, per operator, the cases of one file naming its rule; false when the file fails. */
static bool count_file(const char *path, OpRow *rows, int n)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "%s\n", error_format(&trap.error));
        return false;
    }
    CaseFile *cf = case_file_load(path, &trap);
    for (int r = 0; r < n; r++) {
        const char *rule = row_rule(rows[r].name);
        for (int i = 0; i < cf->ncases; i++) {
            const Case *c = cf->cases[i];
            if (!case_names(c, rows[r].name, rule))
                continue;
            rows[r].ncases++;
            rows[r].nimpl_defined += c->result == RESULT_IMPL_DEFINED;
            rows[r].nundefined += c->result == RESULT_UNDEFINED;
            rows[r].ntvm_bug += case_has_tag(c, "tvm-bug");
        }
    }
    return true;
}

static bool count_cases(const char *corpus, OpRow *rows, int n)
{
    const char **paths = NULL;
    int np = corpus_find_files(mem_printf("%s/ops", corpus), &paths, 0);
    np = corpus_find_files(mem_printf("%s/models", corpus), &paths, np);
    np = corpus_find_files(mem_printf("%s/lowered", corpus), &paths, np);
    bool ok = true;
    for (int i = 0; i < np; i++)
        ok = count_file(paths[i], rows, n) && ok;
    return ok;
}

/* The last cell of the operator's row in SPEC_NOTES.md ("| OP-x | rule | source |"): the TVM
 * source its meaning follows. Empty when the file or the row is absent. */
static void read_sources(const char *spec_notes, OpRow *rows, int n)
{
    FILE *f = fopen(spec_notes, "r");
    if (f == NULL)
        return;
    char line[8192];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "| OP-", 5) != 0 && strncmp(line, "| LOW-", 6) != 0)
            continue;
        char *end = strrchr(line, '|');
        char *cut = end;
        while (cut > line && cut[-1] != '|')
            cut--;
        if (end == NULL || cut <= line)
            continue;
        while (cut < end && *cut == ' ')
            cut++;
        while (end > cut && end[-1] == ' ')
            end--;
        char *source = mem_strndup(cut, (size_t)(end - cut));
        for (int r = 0; r < n; r++) {
            const char *rule = row_rule(rows[r].name);
            if (strncmp(line + 2, rule, strlen(rule)) == 0 && line[2 + strlen(rule)] == ' ')
                rows[r].source = source;
        }
    }
    fclose(f);
}

/* The operator's corners: how many of its cases are implementation-defined or undefined
 * (RESULT-1), and how many follow a TVM fix made after v0.22 (tvm-bug). */
static const char *corners_text(const OpRow *r)
{
    StrBuf sb;
    strbuf_init(&sb);
    if (r->nimpl_defined > 0)
        strbuf_addf(&sb, "impl-defined %d, ", r->nimpl_defined);
    if (r->nundefined > 0)
        strbuf_addf(&sb, "undefined %d, ", r->nundefined);
    if (r->ntvm_bug > 0)
        strbuf_addf(&sb, "tvm-bug %d, ", r->ntvm_bug);
    if (sb.len == 0)
        return "";
    sb.data[sb.len - 2] = '\0';
    return strbuf_str(&sb);
}

static const char *missing_text(const OpRow *r)
{
    StrBuf sb;
    strbuf_init(&sb);
    if (r->schema == NULL)
        strbuf_add(&sb, "schema, ");
    if (r->impl == NULL || r->impl->infer == NULL)
        strbuf_add(&sb, "inference, ");
    if (r->impl == NULL || r->impl->kernel == NULL)
        strbuf_add(&sb, "kernel, ");
    if (r->ncases < OPS_MIN_CASES)
        strbuf_addf(&sb, "cases (%d of %d), ", r->ncases, OPS_MIN_CASES);
    if (sb.len == 0)
        return "";
    sb.data[sb.len - 2] = '\0';
    return strbuf_str(&sb);
}

static bool row_complete(const OpRow *r)
{
    return r->impl != NULL && r->impl->infer != NULL && r->impl->kernel != NULL &&
           r->ncases >= OPS_MIN_CASES;
}

static void print_table(const OpRow *rows, int n)
{
    int complete = 0, inferred = 0, kernels = 0;
    for (int i = 0; i < n; i++) {
        complete += row_complete(&rows[i]);
        inferred += rows[i].impl != NULL && rows[i].impl->infer != NULL;
        kernels += rows[i].impl != NULL && rows[i].impl->kernel != NULL;
    }
    printf("# Operator status\n\n");
    printf("Generated by `relax ops --table`; do not edit. An operator is complete with\n"
           "StructInfo inference, a kernel and at least %d conformance cases naming its rule.\n\n",
           OPS_MIN_CASES);
    printf("%d operators: %d with inference, %d with a kernel, %d complete.\n\n", n, inferred,
           kernels, complete);
    printf("TVM source: where the operator's meaning is read (SPEC_NOTES \"Operators\"; the\n"
           "python/tvm/relax/op, src/relax/op, legalize_ops and topi files of TVM v0.22.0).\n"
           "Corners: its cases whose result is implementation-defined or undefined, and those\n"
           "following a TVM fix made after v0.22 (SPEC_NOTES 4.19).\n\n");
    printf("| operator | inference | kernel | dtypes | cases | TVM source | corners | missing |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const OpRow *r = &rows[i];
        bool inf = r->impl != NULL && r->impl->infer != NULL;
        bool ker = r->impl != NULL && r->impl->kernel != NULL;
        const char *dtypes = r->impl != NULL && r->impl->dtypes != NULL ? r->impl->dtypes : "";
        printf("| `%s` | %s | %s | %s | %d | %s | %s | %s |\n", r->name + strlen("relax."),
               inf ? "yes" : "no", ker ? "yes" : "no", dtypes, r->ncases,
               r->source != NULL ? r->source : "", corners_text(r), missing_text(r));
    }
}

/* TVM's registry beside the reference's (OP-REGISTRY): each name of DIR/ops/tvm-registry.txt
 * as an operator of the table, a builtin of the evaluator, or missing. */
static void print_registry(const char *corpus)
{
    const char *path = mem_printf("%s/ops/tvm-registry.txt", corpus);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    const char **names = NULL;
    int n = 0, cap = 0, in_table = 0, builtin = 0;
    char line[256];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        VEC_PUSH(names, n, cap, mem_strdup(line));
    }
    fclose(f);
    const char **where = MEM_ARRAY(const char *, n + 1);
    StrBuf missing;
    strbuf_init(&missing);
    for (int i = 0; i < n; i++) {
        if (ops_lookup(names[i]) != NULL || op_schema_lookup(names[i]) != NULL) {
            where[i] = "operator table";
            in_table++;
        } else if (builtins_has(names[i])) {
            where[i] = "builtin of the evaluator";
            builtin++;
        } else {
            where[i] = "missing";
            strbuf_addf(&missing, "%s`%s`", strbuf_str(&missing)[0] != '\0' ? ", " : "",
                        names[i] + strlen("relax."));
        }
    }
    printf("\n## TVM v0.22's registry\n\n");
    printf("TVM v0.22.0 registers %d single-device operators (`spec-tests/ops/tvm-registry.txt`):\n"
           "%d are in the table above, %d are builtins of the evaluator (calls, closures,\n"
           "shapes, printing), and %d missing%s%s (SPEC_NOTES 4.10 says why).\n\n",
           n, in_table, builtin, n - in_table - builtin, n - in_table - builtin > 0 ? ": " : "",
           strbuf_str(&missing));
    printf("| TVM operator | in the reference |\n|---|---|\n");
    for (int i = 0; i < n; i++)
        printf("| `%s` | %s |\n", names[i] + strlen("relax."), where[i]);
}

/* --signatures: each operator's constructor as TVMScript calls it, one line each:
 * `relax.sum(x, axis=None, keepdims=False)`, required parameters bare, the others with their
 * default as Python literal text; arguments before attributes as the schema orders them. */
static void print_signatures(void)
{
    int n;
    const OpSchema *const *all = op_schema_all(&n);
    for (int i = 0; i < n; i++) {
        const OpSchema *s = all[i];
        printf("%s(", s->name);
        for (int k = 0; k < s->nparams; k++) {
            const OpParam *p = &s->params[k];
            printf("%s%s", k > 0 ? ", " : "", p->name);
            if (p->default_text != NULL)
                printf("=%s", p->default_text);
        }
        printf(")\n");
    }
}

int cmd_ops(int argc, char **argv)
{
    bool table = false, signatures = false;
    const char *corpus = "spec-tests";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--table") == 0)
            table = true;
        else if (strcmp(argv[i], "--signatures") == 0)
            signatures = true;
        else if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
            corpus = argv[++i];
        else
            return cli_usage_error(argv[0], "unknown argument '%s'", argv[i]);
    }
    if (signatures) {
        print_signatures();
        return 0;
    }
    int n;
    OpRow *rows = collect_rows(&n);
    if (!table) {
        for (int i = 0; i < n; i++)
            printf("%s\n", rows[i].name);
        return 0;
    }
    if (!count_cases(corpus, rows, n))
        return error_exit_code(PHASE_CASE);
    read_sources(mem_printf("%s/../SPEC_NOTES.md", corpus), rows, n);
    print_table(rows, n);
    print_registry(corpus);
    return 0;
}
