/* cmd_normalize: `relax normalize FILE`, the program brought to normal form and printed.
 * SPEC_NOTES: "Normal form" and "Exit codes". */
#include <stdio.h>
#include <string.h>

#include "ast/astform.h"
#include "ast/printer.h"
#include "interp/diag.h"
#include "interp/normalize.h"
#include "interp/wellformed.h"
#include "tools/cli.h"
#include "tools/source.h"

const char CMD_NORMALIZE_USAGE[] =
    "usage: relax normalize [--ast] FILE\n"
    "\n"
    "Checks that the program in FILE is well-formed (a call_tir whose arguments are not a\n"
    "literal tuple, WF-23, is repaired rather than rejected), brings it to normal form (nested\n"
    "expressions bound to fresh variables, bodies and If branches as SeqExprs, blocks\n"
    "consolidated, call_tir arguments as literal tuples) and prints it in canonical\n"
    "TVMScript, or with --ast in the ast: form. FILE as for 'relax print'. Exits 4 on a\n"
    "parse error and 5 on a well-formedness error.\n";

/* The first well-formedness error, leaving out WF-23: an operator call that is not yet a
 * fixed point of its rule is what normalization step 6 repairs. */
static const Error *blocking_error(const IRModule *mod)
{
    DiagList all, kept;
    diag_init(&all);
    diag_init(&kept);
    wellformed_check(mod, &all);
    for (int i = 0; i < all.n; i++) {
        const Error *e = &all.items[i];
        if (e->rule == NULL || strcmp(e->rule, "WF-23") != 0)
            diag_add(&kept, e->phase, e->code, e->rule, e->span, "%s", e->message);
    }
    return diag_first(&kept);
}

int cmd_normalize(int argc, char **argv)
{
    volatile bool ast = false;
    const char *volatile file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ast") == 0)
            ast = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (file != NULL)
            return cli_usage_error(argv[0], "expected one FILE");
        else
            file = argv[i];
    }
    if (file == NULL)
        return cli_usage_error(argv[0], "missing FILE");
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    IRModule *mod = source_load_program(file, &trap);
    const Error *first = blocking_error(mod);
    if (first != NULL)
        return cli_report_error(first);
    IRModule *norm = normalize_module(mod);
    fputs(ast ? astform_write(norm) : printer_print_module(norm), stdout);
    return 0;
}
