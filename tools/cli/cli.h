/* cli: the subcommands of the `relax` program and what they share (usage errors, reporting an
 * Error and its exit code). SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_CLI_H
#define RELAX_TOOLS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ast/error.h"
#include "ast/module.h"
#include "interp/structinfo/sinfo_check.h"

#define RELAX_VERSION "0.1.0"

/* A subcommand: argv[0] is the command's name. Returns the process exit code. */
typedef int (*CliCommandFn)(int argc, char **argv);

typedef struct CliCommand {
    const char *name;
    const char *summary; /* one line for `relax --help` */
    const char *usage;   /* full text for `relax help CMD` */
    CliCommandFn run;
} CliCommand;

int cmd_print(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_normalize(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_repl(int argc, char **argv);
int cmd_adapter_serve(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_reduce(int argc, char **argv);

extern const char CMD_PRINT_USAGE[];
extern const char CMD_PARSE_USAGE[];
extern const char CMD_GEN_USAGE[];
extern const char CMD_REDUCE_USAGE[];
extern const char CMD_CONFORM_USAGE[];
extern const char CMD_CHECK_USAGE[];
extern const char CMD_RUN_USAGE[];
extern const char CMD_NORMALIZE_USAGE[];
extern const char CMD_OPS_USAGE[];
extern const char CMD_REPL_USAGE[];
extern const char CMD_ADAPTER_SERVE_USAGE[];
extern const char CMD_RULES_USAGE[];
extern const char CMD_EXPLAIN_USAGE[];

/* `relax run` writing its output (printed text and result) to `out`; errors go to stderr. */
int cmd_run_to(int argc, char **argv, FILE *out);
/* One --arg value (the n-th, from 1); NULL when malformed, with *why naming the YAML line
 * and column. */
struct Value *cmd_run_parse_arg(const char *text, int n, const char **why);

/* What `relax run` calls: the program, its entry and its arguments. */
typedef struct RunTarget {
    IRModule *mod;
    const char *entry;
    struct Value **args; /* NULL: none given */
    int nargs;
} RunTarget;
/* The program FILE names and, for CASEFILE.yaml#case-id, the entry and arguments of the
 * case's first call (else entry main and no arguments). */
void cmd_run_load_target(const char *arg, RunTarget *t, ErrorTrap *trap);

/* `relax repl`: a whole session reading entries from `in` and writing everything (results,
 * printed output, trace, errors) to `out`; FILE, when not NULL, is loaded first. */
void cmd_repl_session(FILE *in, FILE *out, const char *file);

/* `relax explain` and `:explain`: for each derived binding of a checked module, its line
 * "func.var: <StructInfo>  (rule)" and its position, in derivation order. */
typedef void (*CliExplainFn)(void *ctx, Span span, const char *text);
void cli_explain(const IRModule *mod, const SinfoBindings *bindings, CliExplainFn emit,
                 void *ctx);

/* relax(1) in roff, from the command table and the usage texts of `relax help`. */
void cli_write_man(FILE *out, const CliCommand *cmds, int n);

/* Prints `relax: usage error [Usage]: ...` and a hint; returns exit code 2. */
/* Each line of `text` written with `pad` in front (empty lines stay empty): a YAML block
 * scalar's body, as the case files `relax gen` and `relax reduce` write hold programs. */
void cli_write_indented(FILE *out, const char *text, const char *pad);

int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses `[FLAG] FILE` (FLAG such as "--ast", or NULL for none). Returns 0, or the exit code
 * of a usage error it already reported. */
int cli_parse_flag_file(int argc, char **argv, const char *flag, bool *set, const char **file);
/* Prints the error to stderr (cli_print_diag); returns the phase's exit code. */
int cli_report_error(const Error *e);
/* The same, with the program the error is about (its functions are suggestions). */
int cli_report_error_in(const Error *e, const IRModule *mod);

/* ---- how diagnostics look (--diagnostics, --color, NO_COLOR) ---- */

typedef enum CliDiagForm { CLI_DIAG_AUTO, CLI_DIAG_SHORT, CLI_DIAG_LONG } CliDiagForm;
typedef enum CliColor { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER } CliColor;

/* Takes --diagnostics=short|long and --color=auto|always|never out of argv (anywhere after
 * the command name) and applies them. Returns 0, or the exit code of a usage error. */
int cli_take_style_options(int *argc, char **argv);

/* Takes --max-tensor-bytes N and --max-heap N (bytes, or with K, M, G) out of argv (anywhere
 * after the command name) and applies them. Returns 0, or the exit code of a usage error. */
int cli_take_limit_options(int *argc, char **argv);
void cli_set_style(CliDiagForm form, CliColor color);

/* One diagnostic to print: the error, whether it is a warning, and where its names and
 * source line come from. */
typedef struct CliDiag {
    const Error *error;
    bool warning;
    const char *source;   /* the text the span is in; NULL: read the span's file */
    const IRModule *mod;  /* the program, for suggestions; may be NULL */
} CliDiag;

/* Prints a diagnostic: the one-line form (--diagnostics=short, the default when `out` is not
 * a terminal), or the long form with the source line, a caret range and a hint. */
void cli_print_diag(FILE *out, const CliDiag *d);
/* The long or the short form as text, as cli_print_diag would print it to `out`. */
char *cli_format_diag(FILE *out, const CliDiag *d);
/* "did you mean `X`?" for an error naming an unknown operator, keyword, function or name;
 * NULL when nothing in scope is close. */
const char *cli_hint(const Error *e, const char *source, const IRModule *mod);
/* A usage error for an unknown option, with the closest of `known` (NULL-terminated). */
int cli_unknown_option(const char *cmd, const char *opt, const char *const *known);

#endif
