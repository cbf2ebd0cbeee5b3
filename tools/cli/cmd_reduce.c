/* cmd_reduce: `relax reduce`, a program shrunk while a predicate holds (the reference
 * reports an error code, or an adapter disagrees with the reference), written out as a case
 * file. SPEC_NOTES 4.17 "Reducing a disagreement". */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/check.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"
#include "tools/conform/case_file.h"
#include "tools/conform/run_entry.h"
#include "tools/reduce/reduce.h"
#include "values/compare.h"
#include "values/render.h"

const char CMD_REDUCE_USAGE[] =
    "usage: relax reduce FILE (--error CODE | --adapter CMD) [--arg VALUE ...]\n"
    "                    [--entry NAME] [--adapter-protocol N] [--adapter-timeout S]\n"
    "                    [--budget N] [--out FILE]\n"
    "\n"
    "Shrinks the program in FILE while a predicate holds, and writes the result as a case\n"
    "file (CASE_FORMAT version 1) ready to review and commit. FILE is a program, or\n"
    "CASEFILE.yaml#case-id (its program, and the arguments and entry of its first call).\n"
    "The program is called (entry main unless --entry) when arguments are given or the case\n"
    "has a call; otherwise it is judged statically.\n"
    "\n"
    "  --error CODE        the predicate: the reference reports an error with this code\n"
    "                      (any phase: parse, wellformed, struct_info, runtime)\n"
    "  --adapter CMD       the predicate: the implementation behind the adapter command CMD\n"
    "                      (relax conform --adapter) disagrees with the reference on the\n"
    "                      program, and the reference's outcome keeps its kind (a value, or\n"
    "                      an error of the first code)\n"
    "  --adapter-protocol N, --adapter-timeout S   passed to relax conform\n"
    "  --arg VALUE         one argument, as for relax run\n"
    "  --budget N          at most N candidate programs tried (default 2000)\n"
    "  --out FILE          write the case file to FILE (default standard output)\n"
    "\n"
    "Reduction removes lines and blocks (delta debugging), unwraps dataflow blocks and if\n"
    "branches, removes functions, and replaces a binding's value by one of the variables it\n"
    "uses. The case's expectation is the reference's outcome on the reduced program: check\n"
    "it against the spec before committing it. A summary goes to standard error.\n"
    "Exit codes: 0 reduced, 1 the predicate does not hold for FILE, 2 usage, 3 i/o.\n";

typedef struct ReduceArgs {
    const char *file;
    const char *error_code;
    const char *adapter;
    const char *protocol;
    const char *timeout;
    const char *entry;
    const char **args;
    int nargs;
    int budget;
    const char *out;
} ReduceArgs;

/* The reference's outcome on a candidate: a value, valid, or an error. */
typedef struct Outcome {
    bool error;
    Error err;
    Value *value; /* a call's result; NULL for a static judgement */
} Outcome;

typedef struct Subject {
    const ReduceArgs *opt;
    const char *entry;
    Value **args;
    int nargs;
    bool call;
    const char **spec; /* of the case FILE named, if any */
    int nspec;
    Outcome first; /* the reference's outcome on FILE */
    const char *self;
    const char *tmp;
} Subject;

static Outcome reference_outcome(const Subject *s, const char *text)
{
    Outcome o = {false, {0}, NULL};
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        o.error = true;
        o.err = trap.error;
        return o;
    }
    IRModule *mod = script_parse("reduced", text, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    if (!check_module(mod, &errors, &warnings)) {
        o.error = true;
        o.err = *diag_first(&errors);
        return o;
    }
    if (!s->call)
        return o;
    RunEntryRequest req = {mod, s->entry, s->args, s->nargs, NULL};
    RunEntryOutput out = {NULL, NULL};
    if (!run_entry_call(&req, &out, &o.err))
        o.error = true;
    o.value = out.result;
    return o;
}

/* The case file of `text` with the reference's outcome `o` as its expectation. */
static void write_case(FILE *out, const Subject *s, const char *text, const Outcome *o,
                       const char *why)
{
    fprintf(out, "format: 1\ncases:\n  - id: reduced\n");
    char *quoted = mem_strdup(why); /* inside a double-quoted YAML scalar */
    for (char *q = quoted; *q != '\0'; q++)
        if (*q == '"' || *q == '\\')
            *q = '\'';
    fprintf(out,
            "    description: \"Reduced by relax reduce (%s); the expectation is the "
            "reference's outcome: check it against the spec before committing.\"\n",
            quoted);
    fprintf(out, "    spec: [");
    if (s->nspec > 0)
        for (int i = 0; i < s->nspec; i++) {
            bool seen = false;
            for (int k = 0; k < i; k++)
                seen = seen || strcmp(s->spec[k], s->spec[i]) == 0;
            if (!seen)
                fprintf(out, "%s%s", i > 0 ? ", " : "", s->spec[i]);
        }
    else if (o->error && o->err.rule != NULL)
        fprintf(out, "%s", o->err.rule);
    else
        fprintf(out, "%s", s->call ? "E-1" : "WF-1");
    fprintf(out, "]\n    program: |\n");
    cli_write_indented(out, text, "      ");
    if (s->call) {
        fprintf(out, "    run:\n");
        if (strcmp(s->entry, "main") != 0)
            fprintf(out, "      entry: %s\n", s->entry);
        fprintf(out, "      args:%s\n", s->nargs == 0 ? " []" : "");
        for (int i = 0; i < s->nargs; i++)
            fprintf(out, "        - %s\n", render_value_case(s->args[i]));
    }
    fprintf(out, "    expect:\n");
    if (o->error) {
        fprintf(out, "      error: {phase: %s, code: %s", error_phase_name(o->err.phase),
                o->err.code);
        if (o->err.rule != NULL)
            fprintf(out, ", rule: %s", o->err.rule);
        fprintf(out, "}\n");
    } else if (o->value != NULL) {
        fprintf(out, "      value: %s\n", render_value_case(o->value));
    } else {
        fprintf(out, "      valid: true\n");
    }
}

static bool same_kind(const Outcome *a, const Outcome *b)
{
    if (a->error != b->error)
        return false;
    return !a->error || (a->err.phase == b->err.phase && strcmp(a->err.code, b->err.code) == 0);
}

static char *shell_quote(const char *s)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addc(&sb, '\'');
    for (; *s != '\0'; s++)
        if (*s == '\'')
            strbuf_add(&sb, "'\\''");
        else
            strbuf_addc(&sb, *s);
    strbuf_addc(&sb, '\'');
    return strbuf_str(&sb);
}

/* The adapter judges the candidate case (expectation: the reference's outcome) and fails it. */
static bool adapter_disagrees(Subject *s, const char *text, const Outcome *o)
{
    FILE *f = fopen(s->tmp, "w");
    if (f == NULL)
        return false;
    write_case(f, s, text, o, "candidate");
    if (fclose(f) != 0)
        return false;
    StrBuf cmd;
    strbuf_init(&cmd);
    strbuf_addf(&cmd, "%s conform --adapter %s", shell_quote(s->self),
                shell_quote(s->opt->adapter));
    if (s->opt->protocol != NULL)
        strbuf_addf(&cmd, " --adapter-protocol %s", shell_quote(s->opt->protocol));
    if (s->opt->timeout != NULL)
        strbuf_addf(&cmd, " --adapter-timeout %s", shell_quote(s->opt->timeout));
    strbuf_addf(&cmd, " %s 2>/dev/null", shell_quote(s->tmp));
    FILE *p = popen(strbuf_str(&cmd), "r");
    if (p == NULL)
        return false;
    bool failed = false;
    char line[4096];
    while (fgets(line, sizeof line, p) != NULL)
        failed = failed || strncmp(line, "FAIL ", 5) == 0;
    pclose(p);
    return failed;
}

static bool holds(void *ctx, const char *text)
{
    Subject *s = ctx;
    Outcome o = reference_outcome(s, text);
    if (s->opt->error_code != NULL)
        return o.error && strcmp(o.err.code, s->opt->error_code) == 0;
    return same_kind(&o, &s->first) && adapter_disagrees(s, text, &o);
}

static int parse_args(int argc, char **argv, ReduceArgs *a)
{
    memset(a, 0, sizeof *a);
    a->budget = 2000;
    a->args = MEM_ARRAY(const char *, argc + 1);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = NULL;
        if (strcmp(opt, "--error") == 0)
            slot = &a->error_code;
        else if (strcmp(opt, "--adapter") == 0)
            slot = &a->adapter;
        else if (strcmp(opt, "--adapter-protocol") == 0)
            slot = &a->protocol;
        else if (strcmp(opt, "--adapter-timeout") == 0)
            slot = &a->timeout;
        else if (strcmp(opt, "--entry") == 0)
            slot = &a->entry;
        else if (strcmp(opt, "--out") == 0)
            slot = &a->out;
        else if (strcmp(opt, "--arg") == 0)
            slot = &a->args[a->nargs++];
        if (slot != NULL) {
            if (val == NULL)
                return cli_usage_error("reduce", "%s needs a value", opt);
            *slot = val;
            i++;
        } else if (strcmp(opt, "--budget") == 0) {
            char *end = NULL;
            long n = val != NULL ? strtol(val, &end, 10) : 0;
            if (val == NULL || *end != '\0' || n < 1 || n > 1000000)
                return cli_usage_error("reduce", "--budget needs an integer from 1 to 1000000");
            a->budget = (int)n;
            i++;
        } else if (opt[0] == '-' && opt[1] != '\0') {
            return cli_usage_error("reduce", "unknown option '%s'", opt);
        } else if (a->file == NULL) {
            a->file = opt;
        } else {
            return cli_usage_error("reduce", "one FILE only");
        }
    }
    if (a->file == NULL)
        return cli_usage_error("reduce", "no FILE given");
    if ((a->error_code == NULL) == (a->adapter == NULL))
        return cli_usage_error("reduce", "give exactly one of --error CODE and --adapter CMD");
    return 0;
}

/* FILE's program text, and from a case its spec, entry and first call's arguments. */
static const char *load_subject(const ReduceArgs *a, Subject *s, ErrorTrap *trap)
{
    s->entry = a->entry != NULL ? a->entry : "main";
    s->args = MEM_ARRAY(Value *, a->nargs + 1);
    for (int i = 0; i < a->nargs; i++) {
        const char *why = NULL;
        s->args[i] = cmd_run_parse_arg(a->args[i], i + 1, &why);
        if (s->args[i] == NULL)
            error_raise(trap, PHASE_USAGE, "Usage", NULL, span_make(a->file, 0, 0), "%s", why);
    }
    s->nargs = a->nargs;
    s->call = a->nargs > 0;
    const char *hash = strchr(a->file, '#');
    if (hash == NULL || !source_has_suffix(mem_strndup(a->file, (size_t)(hash - a->file)), ".yaml"))
        return source_read_file(a->file, trap);
    char *path = mem_strndup(a->file, (size_t)(hash - a->file));
    CaseFile *cf = case_file_load(path, trap);
    Case *c = case_file_find(cf, hash + 1);
    if (c == NULL || c->program == NULL)
        error_raise(trap, PHASE_USAGE, "UnknownCase", NULL, span_make(path, 0, 0),
                    c == NULL ? "no case with id '%s'" : "case '%s' has no program text", hash + 1);
    s->spec = c->spec;
    s->nspec = c->nspec;
    if (a->nargs == 0 && c->nruns > 0 && c->runs[0].has_call) {
        const CaseRun *r = &c->runs[0];
        if (a->entry == NULL)
            s->entry = r->entry;
        s->args = MEM_ARRAY(Value *, r->nargs + 1);
        s->nargs = r->nargs;
        s->call = true;
        for (int i = 0; i < r->nargs; i++)
            s->args[i] = run_entry_value_from_yaml(c->global_id, r->args[i], trap);
    }
    return c->program;
}

static void cleanup(const ReduceArgs *a, const char *dir, const char *file)
{
    if (a->adapter == NULL)
        return;
    unlink(file);
    rmdir(dir);
}

int cmd_reduce(int argc, char **argv)
{
    ReduceArgs a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    Subject *s = MEM_NEW(Subject);
    s->opt = &a;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    const char *text = load_subject(&a, s, &trap);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    s->self = n > 0 ? mem_strndup(self, (size_t)n) : argv[0];
    const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    char *tmpdir = mem_printf("%s/relax-reduce-XXXXXX", dir);
    if (a.adapter != NULL && mkdtemp(tmpdir) == NULL) {
        fprintf(stderr, "relax reduce: cannot create a temporary directory: %s\n", strerror(errno));
        return 3;
    }
    char *tmp = mem_printf("%s/candidate.yaml", tmpdir);
    s->tmp = tmp;
    s->first = reference_outcome(s, text);
    if (!holds(s, text)) {
        fprintf(stderr, "relax reduce: the predicate does not hold for %s\n", a.file);
        cleanup(&a, tmpdir, tmp);
        return 1;
    }
    ReduceStats st;
    char *small = reduce_text(text, holds, s, a.budget, &st);
    cleanup(&a, tmpdir, tmp);
    Outcome o = reference_outcome(s, small);
    FILE *out = a.out != NULL ? fopen(a.out, "w") : stdout;
    if (out == NULL) {
        fprintf(stderr, "relax reduce: cannot write %s: %s\n", a.out, strerror(errno));
        return 3;
    }
    const char *why = a.error_code != NULL
                          ? mem_printf("the reference reports %s", a.error_code)
                          : mem_printf("the adapter %s disagrees with the reference", a.adapter);
    write_case(out, s, small, &o, why);
    if (out != stdout && fclose(out) != 0)
        return 3;
    fprintf(stderr, "relax reduce: %d lines to %d, %d candidates tried, %d kept the property%s\n",
            st.lines_before, st.lines_after, st.tried, st.accepted,
            st.tried >= a.budget ? " (budget spent)" : "");
    return 0;
}
