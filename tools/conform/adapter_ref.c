/* adapter_ref: the reference interpreter seen through the runner's Adapter interface.
 * SPEC_NOTES: "Exit codes" and CASE_FORMAT "Phases". */
#include "tools/conform/adapter.h"

#include <string.h>

#include "ast/equal/equal.h"
#include "ast/legacy/legacy.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/normalize/normalize.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/wellformed/wellformed.h"
#include "tools/conform/run_entry.h"

struct AdapterProgram {
    IRModule *mod;
    const char *name;
};

static AdapterProgram *ref_load(void *self, const ProgramSource *src, Error *err)
{
    AdapterProgram *prog = MEM_NEW(AdapterProgram);
    prog->name = src->name;
    if (src->ast != NULL) {
        prog->mod = (IRModule *)src->ast;
        return prog;
    }
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error;
        return NULL;
    }
    /* LEG-1: a case program in the legacy syntax is read by the legacy reader. */
    prog->mod = legacy_parse(src->name, src->text, SYNTAX_AUTO, NULL, &trap);
    return prog;
}

static char *ref_print(void *self, AdapterProgram *prog)
{
    return printer_print_module(prog->mod);
}

/* The round-trip property: print, reparse, alpha-equal, and printing is a fixpoint. */
static bool ref_roundtrip(void *self, AdapterProgram *prog, const char **printed, const char **why)
{
    char *first = printer_print_module(prog->mod);
    *printed = first;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *why = mem_printf("the printed text does not parse: %s", error_format(&trap.error));
        return false;
    }
    IRModule *again = script_parse(mem_printf("%s (printed)", prog->name), first, &trap);
    const char *diff = NULL;
    if (!equal_module_explain(prog->mod, again, &diff)) {
        *why = mem_printf("the reparsed program differs: %s", diff ? diff : "(no detail)");
        return false;
    }
    char *second = printer_print_module(again);
    if (strcmp(first, second) != 0) {
        *why = "printing the reparsed program gives different text";
        return false;
    }
    return true;
}

/* The runtime phase: a fresh interpreter per call, arguments and result in case notation. */
static bool ref_run(void *self, AdapterProgram *prog, const RunRequest *req, RunResult *out,
                    Error *err)
{
    out->value = NULL;
    out->stdout_text = NULL;
    Value **args = MEM_ARRAY(Value *, req->nargs + 1);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error;
        return false;
    }
    for (int i = 0; i < req->nargs; i++)
        args[i] = run_entry_value_from_yaml(prog->name, req->args[i], &trap);
    RunEntryRequest call = {prog->mod, req->entry ? req->entry : "main", args, req->nargs, NULL};
    RunEntryOutput got;
    bool ok = run_entry_call(&call, &got, err);
    out->stdout_text = got.printed;
    if (ok)
        out->value = run_entry_value_to_yaml(got.result);
    return ok;
}

/* The well-formedness phase: every rule is checked; the first error in source order is the
 * phase's result. */
static bool ref_check_wellformed(void *self, AdapterProgram *prog, Error *err)
{
    DiagList errors;
    diag_init(&errors);
    wellformed_check(prog->mod, &errors);
    const Error *first = diag_first(&errors);
    if (first == NULL)
        return true;
    *err = *first;
    return false;
}

/* The StructInfo phase: derivation and checking of the program as written. The first error
 * in source order is the phase's result; warnings and the asked-for bindings' StructInfo
 * (printed canonically) go to the report. */
static bool ref_check_struct_info(void *self, AdapterProgram *prog, StaticReport *report,
                                  Error *err)
{
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    SinfoBindings bindings = {NULL, 0, 0};
    sinfo_check_module_report(prog->mod, &errors, &warnings, &bindings);
    report->warnings = MEM_ARRAY(const char *, warnings.n + 1);
    report->nwarnings = warnings.n;
    for (int i = 0; i < warnings.n; i++)
        report->warnings[i] = warnings.items[i].code;
    report->errors = MEM_ARRAY(const char *, errors.n + 1);
    report->nerrors = errors.n;
    for (int i = 0; i < errors.n; i++)
        report->errors[i] = errors.items[i].code;
    report->sinfo_texts = MEM_ARRAY(const char *, report->nnames + 1);
    for (int i = 0; i < report->nnames; i++) {
        const StructInfo *s = sinfo_bindings_find(&bindings, prog->mod, report->names[i]);
        report->sinfo_texts[i] = s ? printer_print_sinfo(s) : NULL;
    }
    const Error *first = diag_first(&errors);
    if (first == NULL)
        return true;
    *err = *first;
    return false;
}

/* The normal-form phase: NF-1..NF-5 over the program as written; the first violation in
 * source order is the result. */
static bool ref_check_normal_form(void *self, AdapterProgram *prog, Error *err)
{
    const Error *first = wellformed_first_before_normalize(prog->mod);
    if (first == NULL) {
        DiagList errors;
        diag_init(&errors);
        wellformed_check_normal_form(prog->mod, &errors);
        first = diag_first(&errors);
    }
    if (first == NULL)
        return true;
    *err = *first;
    return false;
}

/* Normalization of a well-formed program (WF-23 aside), as `relax normalize` does it. */
static IRModule *ref_normalize(void *self, AdapterProgram *prog, Error *err)
{
    const Error *first = wellformed_first_before_normalize(prog->mod);
    if (first != NULL) {
        *err = *first;
        return NULL;
    }
    return normalize_module(prog->mod);
}

void adapter_ref_init(Adapter *ad)
{
    memset(ad, 0, sizeof *ad);
    ad->name = "relax-ref";
    ad->load = ref_load;
    ad->check_wellformed = ref_check_wellformed;
    ad->check_struct_info = ref_check_struct_info;
    ad->print = ref_print;
    ad->roundtrip = ref_roundtrip;
    ad->check_normal_form = ref_check_normal_form;
    ad->normalize = ref_normalize;
    ad->run = ref_run;
}
