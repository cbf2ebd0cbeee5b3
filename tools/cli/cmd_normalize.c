/* cmd_normalize: `relax normalize FILE`, the program brought to normal form and printed.
 * SPEC_NOTES: "Normal form" and "Exit codes". */
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/print/printer.h"
#include "interp/diag.h"
#include "interp/normalize/normalize.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"

const char CMD_NORMALIZE_USAGE[] =
    "usage: relax normalize [--ast] FILE\n"
    "\n"
    "Checks that the program in FILE is well-formed (a call_tir whose arguments are not a\n"
    "literal tuple, WF-23, is repaired rather than rejected), brings it to normal form (nested\n"
    "expressions bound to fresh variables, bodies and If branches as SeqExprs, blocks\n"
    "consolidated, call_tir arguments as literal tuples) and prints it in canonical\n"
    "TVMScript, or with --ast in the ast: form. FILE as for 'relax print'. Exits 4 on a\n"
    "parse error and 5 on a well-formedness error.\n";

int cmd_normalize(int argc, char **argv)
{
    bool ast_arg;
    const char *file_arg;
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
    const Error *first = wellformed_first_before_normalize(mod);
    if (first != NULL)
        return cli_report_error(first);
    IRModule *norm = normalize_module(mod);
    fputs(ast ? astform_write(norm) : printer_print_module(norm), stdout);
    return 0;
}
