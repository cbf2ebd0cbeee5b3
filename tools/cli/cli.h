/* cli: the subcommands of the `relax` program and what they share (usage errors, reporting an
 * Error and its exit code). SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_CLI_H
#define RELAX_TOOLS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ast/error.h"

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

extern const char CMD_PRINT_USAGE[];
extern const char CMD_PARSE_USAGE[];
extern const char CMD_CONFORM_USAGE[];
extern const char CMD_CHECK_USAGE[];
extern const char CMD_RUN_USAGE[];
extern const char CMD_NORMALIZE_USAGE[];
extern const char CMD_OPS_USAGE[];
extern const char CMD_REPL_USAGE[];
extern const char CMD_ADAPTER_SERVE_USAGE[];
extern const char CMD_RULES_USAGE[];

/* `relax run` writing its output (printed text and result) to `out`; errors go to stderr. */
int cmd_run_to(int argc, char **argv, FILE *out);
/* One --arg value (the n-th, from 1); NULL when malformed, with *why naming the YAML line
 * and column. */
struct Value *cmd_run_parse_arg(const char *text, int n, const char **why);

/* `relax repl`: a whole session reading entries from `in` and writing everything (results,
 * printed output, trace, errors) to `out`; FILE, when not NULL, is loaded first. */
void cmd_repl_session(FILE *in, FILE *out, const char *file);

/* Prints `relax: usage error [Usage]: ...` and a hint; returns exit code 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses `[FLAG] FILE` (FLAG such as "--ast", or NULL for none). Returns 0, or the exit code
 * of a usage error it already reported. */
int cli_parse_flag_file(int argc, char **argv, const char *flag, bool *set, const char **file);
/* Prints the one-line error to stderr; returns the phase's exit code. */
int cli_report_error(const Error *e);

#endif
