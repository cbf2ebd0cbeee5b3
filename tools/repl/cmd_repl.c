/* cmd_repl: `relax repl`, an interactive session that builds a program from typed or pasted
 * definitions and runs, checks, prints and normalizes it on command. SPEC_NOTES: "Exit codes". */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "interp/diag.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"
#include "tools/conform/adapter.h"
#include "tools/conform/run_entry.h"
#include "tools/repl/repl.h"
#include "values/render.h"
#include "values/value_yaml.h"

const char CMD_REPL_USAGE[] =
    "usage: relax repl [FILE]\n"
    "\n"
    "An interactive session. Type or paste TVMScript definitions: an @R.function adds or\n"
    "replaces that function, an @I.ir_module class replaces the whole program. A definition\n"
    "ends at a blank line or at a line back at column 0. Functions entered one by one form\n"
    "one module and call each other as Module.f (or cls.f after cls = Module). Commands\n"
    "start with ':' (':help' lists them). With FILE (as for 'relax print'), it is loaded\n"
    "first. Errors are printed as 'file:line:col: <phase> error [<code> <rule>]: message',\n"
    "'<repl>' and the line within the entry for what was typed, and the session goes on.\n"
    "Prompts are shown only when standard input is a terminal. Exits 0 at :quit or end of\n"
    "input.\n";

/* The file named in errors about what was typed. */
static const char REPL_FILE[] = "<repl>";

typedef struct Repl {
    ReplProgram prog;
    ReplInput input;
    FILE *out;
    bool trace;
    InterpOptions opt; /* fuel and depth limits */
    const char *last_load;
    const char *entry_text; /* the entry being entered, for the source lines of its errors */
    RunTarget case_call;    /* the call of the case last loaded (entry NULL: none) */
    DiagList shown;         /* the static problems already reported (one-line forms) */
    bool quit;
} Repl;

/* Set by Ctrl-C (SIGINT) during an evaluation, which then stops at its next step. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* ---- reporting ---- */

/* In the long form (on a terminal), the source line comes from the entry being entered or
 * from the file loaded. */
static void report_as(Repl *r, Error e, bool warning)
{
    repl_program_map(&r->prog, &e.span);
    const char *source = NULL;
    if (e.span.file != NULL && strcmp(e.span.file, REPL_FILE) == 0)
        source = r->entry_text != NULL ? r->entry_text : "";
    CliDiag d = {&e, warning, source, r->prog.mod};
    cli_print_diag(r->out, &d);
}

static void report(Repl *r, Error e)
{
    report_as(r, e, false);
}

static void report_warning(Repl *r, Error w)
{
    report_as(r, w, true);
}

/* A usage error about a command line, at column `col` of that line. */
__attribute__((format(printf, 3, 4))) static void usage(Repl *r, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    Error e = {PHASE_USAGE, "Usage", NULL, span_make(REPL_FILE, 1, col), mem_strdup(buf)};
    fprintf(r->out, "%s\n", error_format(&e));
    (void)r;
}

static bool need_program(Repl *r)
{
    if (r->prog.mod != NULL)
        return true;
    usage(r, 1, "no program yet: enter an @R.function or an @I.ir_module, or :load FILE");
    return false;
}

/* ---- command arguments ---- */

/* A command's argument text: the line after the command name, and its column. */
typedef struct Args {
    const char *text;
    int col;
} Args;

static const char *skip_space(const char *s)
{
    return s + strspn(s, " \t");
}

/* The length of the word at `s`: up to whitespace outside brackets and quotes, so that a
 * flow-style value such as {tensor: {dtype: int32, shape: [2], data: [1, 2]}} is one word. */
static size_t word_length(const char *s)
{
    int depth = 0;
    char quote = 0;
    size_t i = 0;
    for (; s[i] != '\0'; i++) {
        char c = s[i];
        if (quote != 0) {
            if (c == '\\' && quote == '"' && s[i + 1] != '\0')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        } else if ((c == ' ' || c == '\t') && depth <= 0) {
            break;
        }
    }
    return i;
}

/* The next word of `a` (NULL when none), advancing past it; *col is its column. */
static char *next_word(Args *a, int *col)
{
    const char *s = skip_space(a->text);
    if (*s == '\0')
        return NULL;
    size_t n = word_length(s);
    *col = a->col + (int)(s - a->text);
    a->col = *col + (int)n;
    a->text = s + n;
    return mem_strndup(s, n);
}

static bool identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (s++; *s != '\0'; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* A positive count for :fuel and :depth; false (reported) when the word is not one. */
static bool read_count(Repl *r, const char *word, int col, int64_t max, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(word, &end, 10);
    if (end == word || *end != '\0' || errno == ERANGE || v <= 0 || v > max) {
        usage(r, col, "expected a positive integer, got '%s'", word);
        return false;
    }
    *out = v;
    return true;
}

/* One argument value in case notation; NULL with *err (positions on the command line). */
static Value *read_value(const char *word, int col, Error *err)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error;
        if (err->span.line <= 1)
            err->span.col += col - 1;
        err->span.line = 1;
        err->span.file = REPL_FILE;
        return NULL;
    }
    ValueYamlOptions opt = {REPL_FILE, false};
    return value_yaml_parse_text(word, &opt, &trap);
}

/* ---- running ---- */

/* A trace line starts with the line and column of its binding in the assembled program;
 * they are rewritten to the entry or file the binding was written in. */
static void copy_trace(Repl *r, FILE *tmp)
{
    rewind(tmp);
    char *line;
    while ((line = repl_input_read_line(tmp)) != NULL) {
        char *end;
        long ln = strtol(line, &end, 10);
        long col = *end == ':' ? strtol(end + 1, &end, 10) : 0;
        if (ln <= 0 || col <= 0 || strncmp(end, ": ", 2) != 0) {
            fprintf(r->out, "%s\n", line);
            continue;
        }
        Span at = span_make(REPL_ASSEMBLED, (int)ln, (int)col);
        repl_program_map(&r->prog, &at);
        fprintf(r->out, "%s:%d:%d: %s\n", at.file, at.line, at.col, end + 2);
    }
}

/* Printed output appears as it is produced; with the trace on, both go through a temporary
 * file first, so that trace positions can be rewritten, in the order they were written. */
static void run_call(Repl *r, const char *entry, Value **vals, int n)
{
    InterpOptions opt = r->opt;
    FILE *tmp = r->trace ? tmpfile() : NULL;
    opt.echo = tmp != NULL ? tmp : r->out;
    opt.trace = tmp != NULL ? tmp : (r->trace ? r->out : NULL);
    interrupted = 0;
    opt.interrupt = &interrupted;
    RunEntryRequest req = {r->prog.mod, entry, vals, n, &opt};
    RunEntryOutput got;
    Error err;
    bool ok = run_entry_call(&req, &got, &err);
    if (tmp != NULL) {
        copy_trace(r, tmp);
        fclose(tmp);
    }
    if (got.printed[0] != '\0' && got.printed[strlen(got.printed) - 1] != '\n')
        fputc('\n', r->out);
    if (ok) {
        fprintf(r->out, "%s\n", render_value_case(got.result));
        return;
    }
    /* An error about the call itself (its arguments, its entry) is the command line's. */
    if (err.span.file == NULL)
        err.span = span_make(REPL_FILE, 1, 1);
    report(r, err);
}

/* :run [ENTRY] [VALUE ...] */
static void do_run(Repl *r, Args a)
{
    if (!need_program(r))
        return;
    const char *entry = "main";
    bool named = false;
    Value **vals = NULL;
    int n = 0, cap = 0, col;
    char *word;
    for (int i = 0; (word = next_word(&a, &col)) != NULL; i++) {
        if (i == 0 && identifier(word)) {
            entry = word;
            named = true;
            continue;
        }
        Error err;
        Value *v = read_value(word, col, &err);
        if (v == NULL) {
            report(r, err);
            return;
        }
        VEC_PUSH(vals, n, cap, v);
    }
    /* After :load CASEFILE#id, a bare :run makes the case's call. */
    if (n == 0 && !named && r->case_call.entry != NULL) {
        entry = r->case_call.entry;
        vals = r->case_call.args;
        n = r->case_call.nargs;
    }
    run_call(r, entry, vals, n);
}

/* ---- static checks ---- */

static int report_all(Repl *r, const DiagList *errors, const DiagList *warnings)
{
    for (int i = 0; warnings != NULL && i < warnings->n; i++)
        report_warning(r, warnings->items[i]);
    for (int i = 0; i < errors->n; i++)
        report(r, errors->items[i]);
    return errors->n;
}

/* Well-formedness, then StructInfo (which expects a well-formed program). */
static int check_program(Repl *r, IRModule *mod, DiagList *warnings, SinfoBindings *bindings)
{
    DiagList errors;
    diag_init(&errors);
    wellformed_check(mod, &errors);
    if (errors.n > 0)
        return report_all(r, &errors, NULL);
    sinfo_check_module_report(mod, &errors, warnings, bindings);
    return report_all(r, &errors, warnings);
}

/* :check */
static void do_check(Repl *r, Args a)
{
    (void)a;
    if (!need_program(r))
        return;
    DiagList warnings;
    diag_init(&warnings);
    SinfoBindings bindings = {NULL, 0, 0};
    int nerrors = check_program(r, repl_program_fresh(&r->prog), &warnings, &bindings);
    if (nerrors == 0)
        fprintf(r->out, "ok%s\n",
                warnings.n == 0
                    ? ""
                    : mem_printf(" (%d warning%s)", warnings.n, warnings.n == 1 ? "" : "s"));
}

static void print_binding(Repl *r, const SinfoBinding *b)
{
    fprintf(r->out, "%s.%s: %s\n", b->func, b->var, printer_print_sinfo(b->sinfo));
}

/* :sinfo [NAME]: every binding, a function's bindings, or one binding (func.var or var). */
static void do_sinfo(Repl *r, Args a)
{
    if (!need_program(r))
        return;
    int col;
    const char *name = next_word(&a, &col);
    IRModule *mod = repl_program_fresh(&r->prog);
    DiagList warnings;
    diag_init(&warnings);
    SinfoBindings b = {NULL, 0, 0};
    check_program(r, mod, &warnings, &b);
    bool any = false;
    for (int i = 0; i < b.n; i++) {
        if (name != NULL && strcmp(b.items[i].func, name) != 0)
            continue;
        print_binding(r, &b.items[i]);
        any = true;
    }
    if (name == NULL || any)
        return;
    const StructInfo *s = sinfo_bindings_find(&b, mod, name);
    if (s == NULL)
        usage(r, col, "no binding or function named '%s'", name);
    else
        fprintf(r->out, "%s: %s\n", name, printer_print_sinfo(s));
}

static void print_explained(void *ctx, Span span, const char *text)
{
    Repl *r = ctx;
    if (span.line > 0) {
        span.file = REPL_ASSEMBLED;
        repl_program_map(&r->prog, &span);
        fprintf(r->out, "%s:%d:%d: ", span.file, span.line, span.col);
    }
    fprintf(r->out, "%s\n", text);
}

/* :explain: every binding's derived StructInfo and the rule that derived it. */
static void do_explain(Repl *r, Args a)
{
    (void)a;
    if (!need_program(r))
        return;
    IRModule *mod = repl_program_fresh(&r->prog);
    DiagList warnings;
    diag_init(&warnings);
    SinfoBindings b = {NULL, 0, 0};
    check_program(r, mod, &warnings, &b);
    cli_explain(mod, &b, print_explained, r);
}

/* ---- printing ---- */

static void do_print(Repl *r, Args a)
{
    (void)a;
    if (need_program(r))
        fputs(printer_print_module(r->prog.mod), r->out);
}

static void do_ast(Repl *r, Args a)
{
    (void)a;
    if (need_program(r))
        fputs(astform_write(r->prog.mod), r->out);
}

/* :normalize, as `relax normalize` does it (through the reference adapter). */
static void do_normalize(Repl *r, Args a)
{
    (void)a;
    if (!need_program(r))
        return;
    Adapter ad;
    adapter_ref_init(&ad);
    ProgramSource src = {REPL_ASSEMBLED, NULL, repl_program_fresh(&r->prog)};
    Error err;
    AdapterProgram *prog = ad.load(ad.self, &src, &err);
    IRModule *norm = prog != NULL ? ad.normalize(ad.self, prog, &err) : NULL;
    if (norm == NULL)
        report(r, err);
    else
        fputs(printer_print_module(norm), r->out);
}

/* ---- the program ---- */

static bool shown_before(const Repl *r, const char *line)
{
    for (int i = 0; i < r->shown.n; i++)
        if (strcmp(r->shown.items[i].message, line) == 0)
            return true;
    return false;
}

/* A definition is checked as soon as it is entered: the errors and warnings it brings (those
 * not reported before) are reported at once. */
static void check_entered(Repl *r)
{
    DiagList errors, warnings, now;
    diag_init(&errors);
    diag_init(&warnings);
    diag_init(&now);
    /* The program just parsed, checked in place: no second parse of a big entry (the checks'
     * annotations are those every later check would make). */
    IRModule *mod = r->prog.mod;
    wellformed_check(mod, &errors);
    if (errors.n == 0)
        sinfo_check_module_report(mod, &errors, &warnings, NULL);
    for (int w = 0; w < 2; w++) {
        const DiagList *l = w == 0 ? &warnings : &errors;
        for (int i = 0; i < l->n; i++) {
            Error e = l->items[i];
            repl_program_map(&r->prog, &e.span);
            const char *line = w == 0 ? error_format_warning(&e) : error_format(&e);
            diag_add(&now, e.phase, e.code, e.rule, e.span, "%s", line);
            if (!shown_before(r, line))
                report_as(r, l->items[i], w == 0);
        }
    }
    r->shown = now;
}

static void enter(Repl *r, const char *origin, const char *text)
{
    Error err;
    r->entry_text = strcmp(origin, REPL_FILE) == 0 ? text : NULL;
    const char *summary = repl_program_enter(&r->prog, origin, text, &err);
    if (summary == NULL) {
        report(r, err);
    } else {
        fprintf(r->out, "%s\n", summary);
        check_entered(r);
    }
    r->entry_text = NULL;
}

/* A TVMScript file is entered as written; another program source (a YAML ast: file or a
 * case) as its canonical text, whose lines its errors then name. */
static void load(Repl *r, const char *file)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        report(r, trap.error);
        return;
    }
    bool text = !source_has_suffix(file, ".yaml") && !source_has_suffix(file, ".yml") &&
                (strchr(file, '#') == NULL || source_exists(file));
    r->case_call.entry = NULL;
    if (text) {
        enter(r, file, source_read_file(file, &trap));
        return;
    }
    RunTarget t;
    cmd_run_load_target(file, &t, &trap);
    r->case_call = t.args != NULL ? t : (RunTarget){NULL, NULL, NULL, 0};
    enter(r, mem_printf("%s (printed)", file), printer_print_module(t.mod));
}

/* :load [FILE]: without FILE, the last file loaded again. */
static void do_load(Repl *r, Args a)
{
    int col;
    const char *file = next_word(&a, &col);
    if (file == NULL)
        file = r->last_load;
    if (file == NULL) {
        usage(r, a.col, ":load needs a FILE");
        return;
    }
    r->last_load = file;
    load(r, file);
}

static void do_reset(Repl *r, Args a)
{
    (void)a;
    repl_program_init(&r->prog);
    r->case_call.entry = NULL;
    diag_init(&r->shown);
    fprintf(r->out, "program cleared\n");
}

/* ---- settings ---- */

static void do_trace(Repl *r, Args a)
{
    int col;
    const char *w = next_word(&a, &col);
    if (w != NULL && strcmp(w, "on") == 0)
        r->trace = true;
    else if (w != NULL && strcmp(w, "off") == 0)
        r->trace = false;
    else if (w != NULL) {
        usage(r, col, ":trace takes on or off, got '%s'", w);
        return;
    }
    fprintf(r->out, "trace %s\n", r->trace ? "on" : "off");
}

static void do_fuel(Repl *r, Args a)
{
    int col;
    int64_t n;
    const char *w = next_word(&a, &col);
    if (w != NULL && !read_count(r, w, col, INT64_MAX, &n))
        return;
    if (w != NULL)
        r->opt.fuel = n;
    fprintf(r->out, "fuel %lld\n", (long long)r->opt.fuel);
}

static void do_depth(Repl *r, Args a)
{
    int col;
    int64_t n;
    const char *w = next_word(&a, &col);
    if (w != NULL && !read_count(r, w, col, 1000000000, &n))
        return;
    if (w != NULL)
        r->opt.max_depth = (int)n;
    fprintf(r->out, "depth %d\n", r->opt.max_depth);
}

static void do_help(Repl *r, Args a);

static void do_quit(Repl *r, Args a)
{
    (void)a;
    r->quit = true;
}

/* ---- the command table ---- */

typedef struct ReplCommand {
    const char *name;
    const char *args;
    const char *help;
    void (*run)(Repl *r, Args a);
} ReplCommand;

static const ReplCommand COMMANDS[] = {
    {"run", "[ENTRY] [VALUE ...]",
     "call ENTRY (default main) with values in case notation, e.g.\n"
     "                            {tensor: {dtype: float32, shape: [2], data: [1, 2]}}",
     do_run},
    {"trace", "on|off", "show each binding as it is evaluated", do_trace},
    {"check", "", "well-formedness and StructInfo: every error and warning", do_check},
    {"sinfo", "[NAME]", "derived StructInfo of every binding, a function's, or one (f.x)",
     do_sinfo},
    {"explain", "", "each binding's StructInfo and the rule that derived it", do_explain},
    {"print", "", "the program in canonical TVMScript", do_print},
    {"normalize", "", "the program in normal form", do_normalize},
    {"ast", "", "the program in the ast: form of the conformance cases", do_ast},
    {"load", "[FILE]", "load FILE (again the last one when omitted)", do_load},
    {"reset", "", "forget the program (settings stay)", do_reset},
    {"fuel", "[N]", "the evaluation step budget", do_fuel},
    {"depth", "[N]", "the Relax call depth limit", do_depth},
    {"help", "", "this list", do_help},
    {"quit", "", "leave (so does end of input)", do_quit},
};

#define NCOMMANDS ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static void do_help(Repl *r, Args a)
{
    (void)a;
    fprintf(r->out, "Enter an @R.function (adds or replaces it) or an @I.ir_module class\n"
                    "(replaces the program); a blank line ends it. Commands:\n");
    for (int i = 0; i < NCOMMANDS; i++) {
        const char *head = mem_printf(":%s %s", COMMANDS[i].name, COMMANDS[i].args);
        fprintf(r->out, "  %-26s%s\n", head, COMMANDS[i].help);
    }
}

/* A command line: ':' NAME [ARGS]. A unique prefix of a name is enough (":q", ":n"). */
static void command(Repl *r, const char *line)
{
    const char *name = line + 1;
    size_t n = strcspn(name, " \t");
    const ReplCommand *found = NULL;
    int matches = 0;
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strlen(COMMANDS[i].name) == n && strncmp(COMMANDS[i].name, name, n) == 0) {
            found = &COMMANDS[i];
            matches = 1;
            break;
        }
        if (n > 0 && strncmp(COMMANDS[i].name, name, n) == 0) {
            found = &COMMANDS[i];
            matches++;
        }
    }
    if (matches != 1) {
        usage(r, 1, "%s command ':%.*s' (':help' lists them)",
              matches == 0 ? "unknown" : "ambiguous", (int)n, name);
        return;
    }
    Args a = {name + n, 2 + (int)n};
    found->run(r, a);
}

/* What Tab completes to: the commands, or the operators and the names the program writes. */
static void complete_words(void *ctx, bool command, NameList *out)
{
    Repl *r = ctx;
    if (command) {
        for (int i = 0; i < NCOMMANDS; i++)
            names_add(out, mem_printf(":%s", COMMANDS[i].name));
        return;
    }
    names_add_identifiers(out, r->prog.text, 0);
    names_add_operators(out);
}

/* Ctrl-C stops an evaluation (and drops a line being typed) rather than the session. */
static void catch_interrupts(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old);
}

void cmd_repl_session(FILE *in, FILE *out, const char *file)
{
    Repl *r = MEM_NEW(Repl);
    repl_program_init(&r->prog);
    repl_input_init(&r->input, in, out);
    r->out = out;
    interp_options_default(&r->opt);
    diag_init(&r->shown);
    struct sigaction old_sigint;
    repl_input_edit(&r->input, complete_words, r);
    if (r->input.interactive)
        catch_interrupts(&old_sigint);
    if (file != NULL) {
        r->last_load = file;
        load(r, file);
    }
    ReplEntry e;
    while (!r->quit && repl_input_entry(&r->input, &e)) {
        if (e.command)
            command(r, e.text);
        else
            enter(r, REPL_FILE, e.text);
        fflush(out);
    }
    if (r->input.interactive && !r->quit)
        fputc('\n', out);
    fflush(out);
    repl_edit_close(r->input.edit);
    if (r->input.interactive)
        sigaction(SIGINT, &old_sigint, NULL);
}

int cmd_repl(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        if (file != NULL)
            return cli_usage_error(argv[0], "expected at most one FILE");
        file = argv[i];
    }
    cmd_repl_session(stdin, stdout, file);
    return 0;
}
