/* differential: GEN-1..GEN-4 checked on one generated program. SPEC_NOTES: "Generated
 * programs". */
#include "tools/progen/differential.h"

#include <stddef.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/check.h"
#include "interp/normalize/normalize.h"
#include "interp/wellformed/wellformed.h"
#include "tools/conform/run_entry.h"
#include "values/compare.h"
#include "values/value_yaml.h"

static DiffResult fail(const char *rule, const char *why)
{
    DiffResult r = {false, rule, why, NULL};
    return r;
}

Value **differential_args(const GenProgram *p)
{
    Value **args = MEM_ARRAY(Value *, p->nargs > 0 ? p->nargs : 1);
    ValueYamlOptions opt = {"arguments", false};
    for (int i = 0; i < p->nargs; i++) {
        ErrorTrap trap;
        if (setjmp(trap.jmp) != 0)
            return NULL;
        args[i] = value_yaml_parse_text(p->args[i], &opt, &trap);
    }
    return args;
}

/* Parses `text`; NULL with *why on a parse error. */
static IRModule *parse(const char *name, const char *text, const char **why)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *why = error_format(&trap.error);
        return NULL;
    }
    return script_parse(name, text, &trap);
}

/* Well-formedness and StructInfo; NULL when both pass, else the first error. */
static const char *check(IRModule *mod)
{
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    return check_module(mod, &errors, &warnings) ? NULL : error_format(diag_first(&errors));
}

/* The entry's result; NULL with *why when the run raised an error. */
static Value *run(const IRModule *mod, const GenProgram *p, const char **why)
{
    Value **args = differential_args(p);
    if (args == NULL) {
        *why = "the generated arguments do not read as values";
        return NULL;
    }
    RunEntryRequest req = {mod, "main", args, p->nargs, NULL};
    RunEntryOutput out = {NULL, NULL};
    Error err;
    if (!run_entry_call(&req, &out, &err)) {
        *why = error_format(&err);
        return NULL;
    }
    return out.result;
}

/* Bit-for-bit equality: the same program on the same arguments in one implementation. */
static const char *differ(const Value *got, const Value *want)
{
    Tolerance exact = {0.0, 0.0, true};
    char *reason = NULL;
    if (compare_values(got, want, &exact, &reason))
        return NULL;
    return reason != NULL ? reason : "the results differ";
}

DiffResult differential_check(const GenProgram *p)
{
    const char *why = NULL;
    const char *name = mem_printf("gen-%llu", (unsigned long long)p->seed);
    IRModule *mod = parse(name, p->text, &why);
    if (mod == NULL)
        return fail("GEN-1", mem_printf("the program does not parse: %s", why));
    if ((why = check(mod)) != NULL)
        return fail("GEN-1", mem_printf("the program does not check: %s", why));
    Value *want = run(mod, p, &why);
    if (want == NULL)
        return fail("GEN-2", mem_printf("the program does not run: %s", why));

    /* GEN-3: print, parse, print again: the same text, the same result. */
    char *printed = printer_print_module(mod);
    IRModule *again = parse(mem_printf("%s (printed)", name), printed, &why);
    if (again == NULL)
        return fail("GEN-3", mem_printf("the printed program does not parse: %s", why));
    if (strcmp(printer_print_module(again), printed) != 0)
        return fail("GEN-3", "printing the reparsed program gives another text");
    Value *got = run(again, p, &why);
    if (got == NULL)
        return fail("GEN-3", mem_printf("the printed program does not run: %s", why));
    if ((why = differ(got, want)) != NULL)
        return fail("GEN-3", mem_printf("the printed program computes another result: %s", why));

    /* GEN-4: the normal form is in normal form, checks, prints, and computes the same. */
    IRModule *norm = normalize_module(mod);
    DiagList nf;
    diag_init(&nf);
    wellformed_check_normal_form(norm, &nf);
    if (nf.n > 0)
        return fail("GEN-4", mem_printf("the normalized program is not in normal form: %s",
                                        error_format(diag_first(&nf))));
    IRModule *norm_again = parse(mem_printf("%s (normalized)", name),
                                 printer_print_module(norm), &why);
    if (norm_again == NULL)
        return fail("GEN-4", mem_printf("the normalized program does not parse: %s", why));
    if ((why = check(norm_again)) != NULL)
        return fail("GEN-4", mem_printf("the normalized program does not check: %s", why));
    got = run(norm_again, p, &why);
    if (got == NULL)
        return fail("GEN-4", mem_printf("the normalized program does not run: %s", why));
    if ((why = differ(got, want)) != NULL)
        return fail("GEN-4",
                    mem_printf("the normalized program computes another result: %s", why));

    DiffResult ok = {true, NULL, NULL, want};
    return ok;
}
