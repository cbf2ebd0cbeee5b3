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
    "  --syntax MODE   auto (default): FILE is read as today's TVMScript, or as the legacy\n"
    "                  2022 syntax of R.match_shape, R.Tensor[(n, m), \"float32\"] and the\n"
    "                  positional call_tir when it uses one of its forms (with a one-line\n"
    "                  note on stderr); legacy: FILE is read as the legacy syntax. What is\n"
    "                  printed is always today's TVMScript, so for print 'current' names\n"
    "                  the output: 'relax print --syntax current OLD.py' reads FILE as auto\n"
    "                  does and upgrades a legacy program (for parse, current means today's\n"
    "                  syntax only).\n";

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
    /* print writes today's syntax whatever it reads: --syntax current asks for that output,
     * the upgrade of a legacy program (LEG table, SPEC_NOTES 1.8). */
    if (source_get_syntax() == SYNTAX_CURRENT)
        source_set_syntax(SYNTAX_AUTO);
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
