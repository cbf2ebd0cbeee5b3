/* cmd_print: `relax print` (canonical TVMScript or the ast: form) and `relax parse` (syntax
 * check only). SPEC_NOTES: "Exit codes". */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/print/printer.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"

const char CMD_PRINT_USAGE[] =
    "usage: relax print [--ast] [--syntax legacy|current|auto] FILE\n"
    "\n"
    "Prints the program in FILE in canonical TVMScript, or with --ast in the ast: form of\n"
    "the conformance cases. FILE is a TVMScript file, '-' for stdin, a YAML file holding an\n"
    "ast: program, or CASEFILE.yaml#case-id for the program of one conformance case.\n"
    "Errors are printed as 'file:line:col: <phase> error [<code> <rule>]: message' and exit\n"
    "with the phase's code (4 parse, 3 i/o or case file).\n"
    "\n"
    "  --syntax MODE   how FILE is read: auto (default: today's TVMScript, or the legacy\n"
    "                  2022 syntax of R.match_shape, R.Tensor[(n, m), \"float32\"] and the\n"
    "                  positional call_tir when FILE uses one of its forms, with a one-line\n"
    "                  note on stderr), legacy, or current (today's only). What is printed is\n"
    "                  always today's TVMScript, so 'relax print --syntax legacy OLD.py'\n"
    "                  upgrades a legacy program.\n";

const char CMD_PARSE_USAGE[] =
    "usage: relax parse [--syntax legacy|current|auto] FILE\n"
    "\n"
    "Checks that FILE parses (syntax and name resolution only); prints nothing and exits 0\n"
    "when it does, else prints the error and exits 4. FILE and --syntax as for 'relax print'.\n";

int cmd_print(int argc, char **argv)
{
    bool ast_arg;
    const char *file_arg;
    if (source_take_syntax_option(&argc, argv) != 0)
        return 2;
    int rc = cli_parse_flag_file(argc, argv, "--ast", &ast_arg, &file_arg);
    if (rc != 0)
        return rc;
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
    bool unused;
    const char *file;
    if (source_take_syntax_option(&argc, argv) != 0)
        return 2;
    int rc = cli_parse_flag_file(argc, argv, NULL, &unused, &file);
    if (rc != 0)
        return rc;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    source_load_program(file, &trap);
    return 0;
}
