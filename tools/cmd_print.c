/* cmd_print: `relax print` (canonical TVMScript or the ast: form) and `relax parse` (syntax
 * check only). SPEC_NOTES: "Exit codes". */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ast/astform.h"
#include "ast/printer.h"
#include "tools/cli.h"
#include "tools/source.h"

const char CMD_PRINT_USAGE[] =
    "usage: relax print [--ast] FILE\n"
    "\n"
    "Prints the program in FILE in canonical TVMScript, or with --ast in the ast: form of\n"
    "the conformance cases. FILE is a TVMScript file, '-' for stdin, a YAML file holding an\n"
    "ast: program, or CASEFILE.yaml#case-id for the program of one conformance case.\n"
    "Errors are printed as 'file:line:col: <phase> error [<code> <rule>]: message' and exit\n"
    "with the phase's code (4 parse, 3 i/o or case file).\n";

const char CMD_PARSE_USAGE[] =
    "usage: relax parse FILE\n"
    "\n"
    "Checks that FILE parses (syntax and name resolution only); prints nothing and exits 0\n"
    "when it does, else prints the error and exits 4. FILE as for 'relax print'.\n";

/* Parses `[--ast] FILE`; returns false on a usage error (already reported). */
static bool parse_args(int argc, char **argv, bool allow_ast, bool *ast, const char **file)
{
    *ast = false;
    *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (allow_ast && strcmp(a, "--ast") == 0) {
            *ast = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_usage_error(argv[0], "unknown option '%s'", a);
            return false;
        } else if (*file != NULL) {
            cli_usage_error(argv[0], "expected one FILE");
            return false;
        } else {
            *file = a;
        }
    }
    if (*file == NULL) {
        cli_usage_error(argv[0], "missing FILE");
        return false;
    }
    return true;
}

int cmd_print(int argc, char **argv)
{
    bool ast_arg;
    const char *file_arg;
    if (!parse_args(argc, argv, true, &ast_arg, &file_arg))
        return 2;
    /* Read after the jump: kept out of registers. */
    volatile bool ast = ast_arg;
    const char *volatile file = file_arg;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    IRModule *mod = source_load_program(file, &trap);
    fputs(ast ? astform_write(mod) : printer_print_module(mod), stdout);
    return 0;
}

int cmd_parse(int argc, char **argv)
{
    bool ast;
    const char *file;
    if (!parse_args(argc, argv, false, &ast, &file))
        return 2;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    source_load_program(file, &trap);
    return 0;
}
