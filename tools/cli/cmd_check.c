/* cmd_check: `relax check`: parse, well-formedness and StructInfo checking of a program, with
 * every error and warning, and optionally every binding's derived StructInfo.
 * SPEC_NOTES: "Exit codes" and "StructInfo". */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "interp/diag.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"

const char CMD_CHECK_USAGE[] =
    "usage: relax check [--sinfo] [--syntax legacy|current|auto] FILE\n"
    "\n"
    "Checks the program in FILE statically: it parses, it is well-formed (WF-*), and its\n"
    "StructInfo derives and checks (SI-*, PURITY-*). The program is checked as written; it\n"
    "need not be normalized. Every error and warning is printed as\n"
    "'file:line:col: <phase> error|warning [<code> <rule>]: message'.\n"
    "With --sinfo, prints every binding's derived StructInfo, one line each:\n"
    "'func.var: <StructInfo>'. FILE and --syntax as for 'relax print'.\n"
    "Exit codes: 0 ok (warnings allowed), 4 parse, 5 wellformed, 6 struct_info error.\n";

static int report_all(const DiagList *errors, const DiagList *warnings, const IRModule *mod)
{
    for (int i = 0; warnings != NULL && i < warnings->n; i++) {
        CliDiag d = {&warnings->items[i], true, NULL, mod};
        cli_print_diag(stderr, &d);
    }
    for (int i = 0; i < errors->n; i++) {
        CliDiag d = {&errors->items[i], false, NULL, mod};
        cli_print_diag(stderr, &d);
    }
    if (errors->n == 0)
        return 0;
    return error_exit_code(diag_first(errors)->phase);
}

static void print_bindings(const SinfoBindings *b)
{
    for (int i = 0; i < b->n; i++)
        printf("%s.%s: %s\n", b->items[i].func, b->items[i].var,
               printer_print_sinfo(b->items[i].sinfo));
}

int cmd_check(int argc, char **argv)
{
    bool show_arg;
    const char *file_arg;
    if (source_take_syntax_option(&argc, argv) != 0)
        return 2;
    int rc = cli_parse_flag_file(argc, argv, "--sinfo", &show_arg, &file_arg);
    if (rc != 0)
        return rc;
    /* Read after the jump: kept out of registers. */
    volatile bool show = show_arg;
    const char *volatile file = file_arg;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    IRModule *mod = source_load_program(file, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    wellformed_check(mod, &errors);
    if (errors.n > 0)
        return report_all(&errors, NULL, mod);
    SinfoBindings bindings = {NULL, 0, 0};
    sinfo_check_module_report(mod, &errors, &warnings, &bindings);
    if (show)
        print_bindings(&bindings);
    return report_all(&errors, &warnings, mod);
}
