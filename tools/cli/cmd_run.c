/* cmd_run: `relax run`, one call of a program's entry function, its printed output and its
 * result in case notation. SPEC_NOTES: "Exit codes", "Runtime errors", "Value notation errors". */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/check.h"
#include "interp/diag.h"
#include "tools/conform/case_file.h"
#include "tools/cli/cli.h"
#include "tools/conform/run_entry.h"
#include "tools/cli/source.h"
#include "values/render.h"
#include "values/value_yaml.h"

const char CMD_RUN_USAGE[] =
    "usage: relax run FILE [--entry NAME] [--arg VALUE ...] [--trace] [--max-depth N]\n"
    "                 [--fuel N] [--timeout S] [--quiet] [--no-check]\n"
    "                 [--syntax legacy|current|auto]\n"
    "\n"
    "Checks the program in FILE as 'relax check' does, stopping at the first error (a\n"
    "program that is not well-formed or whose StructInfo does not check has no meaning to\n"
    "run), then calls its entry function (default main) and prints the result in the value\n"
    "notation of the conformance cases, on its own line. What R.print and spectest.print\n"
    "write is printed as it is produced. FILE as for 'relax print'; for CASEFILE.yaml#case-id\n"
    "the arguments (and entry) of the case's first run are used when\n"
    "no --arg (--entry) is given.\n"
    "\n"
    "  --entry NAME    the function to call: one with a global_symbol\n"
    "  --arg VALUE     one argument in YAML flow style, in order, e.g.\n"
    "                  --arg '{tensor: {dtype: float32, shape: [2], data: [1, 2]}}'\n"
    "                  --arg '{prim: {dtype: int64, value: 3}}'\n"
    "  --trace[=json]  write each binding as it is evaluated to stderr: its position, name,\n"
    "                  value (and #identity), the shape variables in scope, then the\n"
    "                  function, the call depth and the spec rule applied (E-n); with\n"
    "                  =json one JSON object a line (line, col, func, depth, rule, kind,\n"
    "                  var, value, id, shape_vars)\n"
    "  --max-depth N   the Relax call depth limit (default 10000)\n"
    "  --fuel N        the evaluation budget (default 10000000): a step per binding,\n"
    "                  call and TIR loop iteration, and per element of an operator's\n"
    "                  operands and result (per multiply-accumulate for matmul)\n"
    "  --timeout S     stop with a Timeout error after S seconds of wall-clock time\n"
    "  --quiet         do not print what the program prints; only the result\n"
    "  --no-check      run without the static checks first (an ill-formed program may then\n"
    "                  run to an answer it does not have, or fail at run time)\n"
    "  --syntax MODE   how FILE is read: auto (default: today's TVMScript, or the legacy\n"
    "                  2022 syntax when FILE uses a legacy form such as R.match_shape or\n"
    "                  R.Tensor[...], with a one-line note on stderr), legacy, or current\n"
    "\n"
    "Errors are printed as 'file:line:col: <phase> error [<code> <rule>]: message' and exit\n"
    "with the phase's code (7 runtime, 6 struct_info, 5 wellformed, 4 parse, 3 i/o or case\n"
    "file, 2 usage).\n";

typedef struct RunArgs {
    const char *file;
    const char *entry; /* NULL: main, or the case's */
    const char **args; /* --arg texts */
    int nargs;
    int cap;
    bool trace;
    bool quiet;
    bool no_check;
    InterpOptions opt;
} RunArgs;

/* The value of `--name VALUE` or `--name=VALUE` at argv[*i], or NULL when argv[*i] is not
 * that option. A missing value is reported and sets *bad. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *bad)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        cli_usage_error(argv[0], "%s needs a value", name);
        *bad = true;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

static bool parse_count(const char *cmd, const char *name, const char *text, int64_t max,
                        int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v <= 0 || v > max) {
        cli_usage_error(cmd, "%s expects a positive integer, got '%s'", name, text);
        return false;
    }
    *out = v;
    return true;
}

/* One option with a value; returns 1 when it was one, 0 when not, -1 on a usage error. */
static int parse_valued(int argc, char **argv, int *i, RunArgs *ra)
{
    bool bad = false;
    const char *v;
    int64_t n;
    if ((v = option_value(argc, argv, i, "--entry", &bad)) != NULL) {
        ra->entry = v;
        return 1;
    }
    if ((v = option_value(argc, argv, i, "--arg", &bad)) != NULL) {
        VEC_PUSH(ra->args, ra->nargs, ra->cap, v);
        return 1;
    }
    if ((v = option_value(argc, argv, i, "--max-depth", &bad)) != NULL) {
        if (!parse_count(argv[0], "--max-depth", v, 1000000000, &n))
            return -1;
        ra->opt.max_depth = (int)n;
        return 1;
    }
    if ((v = option_value(argc, argv, i, "--fuel", &bad)) != NULL) {
        if (!parse_count(argv[0], "--fuel", v, INT64_MAX, &n))
            return -1;
        ra->opt.fuel = n;
        return 1;
    }
    if ((v = option_value(argc, argv, i, "--timeout", &bad)) != NULL) {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (end == v || *end != '\0' || errno == ERANGE || !(t > 0) || t > 1e9) {
            cli_usage_error(argv[0], "--timeout expects a positive number of seconds, got '%s'",
                            v);
            return -1;
        }
        ra->opt.timeout = t;
        return 1;
    }
    return bad ? -1 : 0;
}

static const char *const RUN_OPTIONS[] = {"--entry", "--arg",   "--trace",    "--max-depth",
                                          "--fuel",  "--timeout", "--quiet", "--no-check",
                                          "--syntax", NULL};

/* Reads the command line; returns false on a usage error (already reported). */
static bool parse_args(int argc, char **argv, RunArgs *ra)
{
    memset(ra, 0, sizeof *ra);
    interp_options_default(&ra->opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int got = parse_valued(argc, argv, &i, ra);
        if (got < 0)
            return false;
        if (got > 0)
            continue;
        if (strcmp(a, "--trace") == 0 || strcmp(a, "--trace=text") == 0) {
            ra->trace = true;
        } else if (strcmp(a, "--trace=json") == 0) {
            ra->trace = true;
            ra->opt.trace_json = true;
        } else if (strcmp(a, "--quiet") == 0) {
            ra->quiet = true;
        } else if (strcmp(a, "--no-check") == 0) {
            ra->no_check = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_unknown_option(argv[0], a, RUN_OPTIONS);
            return false;
        } else if (ra->file != NULL) {
            cli_usage_error(argv[0], "expected one FILE");
            return false;
        } else {
            ra->file = a;
        }
    }
    if (ra->file == NULL) {
        cli_usage_error(argv[0], "missing FILE");
        return false;
    }
    return true;
}

Value *cmd_run_parse_arg(const char *text, int n, const char **why)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        const Error *e = &trap.error;
        *why =
            mem_printf("bad --arg value %d at %d:%d: %s", n, e->span.line, e->span.col, e->message);
        return NULL;
    }
    ValueYamlOptions opt = {mem_printf("--arg %d", n), false};
    return value_yaml_parse_text(text, &opt, &trap);
}

/* The --arg values; a malformed one is a usage error that names its YAML position. */
static bool read_arg_values(const RunArgs *ra, Value **vals)
{
    for (int i = 0; i < ra->nargs; i++) {
        const char *why = NULL;
        vals[i] = cmd_run_parse_arg(ra->args[i], i + 1, &why);
        if (vals[i] == NULL) {
            cli_usage_error("run", "%s", why);
            return false;
        }
    }
    return true;
}

/* CASEFILE.yaml#case-id: the case's program, and its first call when it has one. */
static void load_case(const char *arg, const char *hash, RunTarget *t, ErrorTrap *trap)
{
    char *path = mem_strndup(arg, (size_t)(hash - arg));
    CaseFile *cf = case_file_load(path, trap);
    Case *c = case_file_find(cf, hash + 1);
    if (c == NULL)
        error_raise(trap, PHASE_USAGE, "UnknownCase", NULL, span_make(path, 0, 0),
                    "no case with id '%s'", hash + 1);
    if (c->ast_failed) {
        Error e = c->ast_error;
        error_raise(trap, e.phase, e.code, e.rule, e.span, "%s", e.message);
    }
    t->mod = c->program != NULL ? source_parse_text(c->global_id, c->program, trap) : c->ast;
    if (c->nruns == 0 || !c->runs[0].has_call)
        return;
    const CaseRun *r = &c->runs[0];
    t->entry = r->entry;
    t->args = MEM_ARRAY(Value *, r->nargs + 1);
    t->nargs = r->nargs;
    for (int i = 0; i < r->nargs; i++)
        t->args[i] = run_entry_value_from_yaml(c->global_id, r->args[i], trap);
}

void cmd_run_load_target(const char *arg, RunTarget *t, ErrorTrap *trap)
{
    memset(t, 0, sizeof *t);
    t->entry = "main";
    const char *hash = strrchr(arg, '#');
    if (hash != NULL && hash > arg && !source_exists(arg))
        load_case(arg, hash, t, trap);
    else
        t->mod = source_load_program(arg, trap);
}

/* The static phases before a run: well-formedness, then StructInfo. The first error is
 * printed, on one line as every error of 'relax run' is ('relax check' lists them all);
 * returns the exit code of its phase, or 0. */
static int check_statically(IRModule *mod)
{
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    if (check_module(mod, &errors, &warnings))
        return 0;
    CliDiag d = {diag_first(&errors), false, NULL, mod};
    cli_print_diag(stderr, &d);
    return error_exit_code(d.error->phase);
}

static int run_target(const RunArgs *ra, const RunTarget *t, FILE *out)
{
    if (!ra->no_check) {
        int rc = check_statically(t->mod);
        if (rc != 0)
            return rc;
    }
    InterpOptions opt = ra->opt;
    opt.echo = ra->quiet ? NULL : out;
    opt.trace = ra->trace ? stderr : NULL;
    RunEntryRequest req = {t->mod, t->entry, t->args, t->nargs, &opt};
    RunEntryOutput got;
    Error err;
    bool ok = run_entry_call(&req, &got, &err);
    fflush(out);
    if (!ok)
        return cli_report_error_in(&err, t->mod);
    fprintf(out, "%s\n", render_value_case(got.result));
    return 0;
}

int cmd_run_to(int argc, char **argv, FILE *out)
{
    RunArgs ra;
    if (source_take_syntax_option(&argc, argv) != 0)
        return 2;
    if (!parse_args(argc, argv, &ra))
        return 2;
    Value **vals = MEM_ARRAY(Value *, ra.nargs + 1);
    if (!read_arg_values(&ra, vals))
        return 2;
    RunTarget t;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    cmd_run_load_target(ra.file, &t, &trap);
    if (ra.nargs > 0 || t.args == NULL) {
        t.args = vals;
        t.nargs = ra.nargs;
    }
    if (ra.entry != NULL)
        t.entry = ra.entry;
    return run_target(&ra, &t, out);
}

int cmd_run(int argc, char **argv)
{
    return cmd_run_to(argc, argv, stdout);
}
