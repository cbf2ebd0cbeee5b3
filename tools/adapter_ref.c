/* adapter_ref: the reference interpreter seen through the runner's Adapter interface.
 * SPEC_NOTES: "Exit codes" and CASE_FORMAT "Phases". */
#include "tools/adapter.h"

#include <string.h>

#include "ast/equal.h"
#include "ast/mem.h"
#include "ast/printer.h"
#include "ast/script.h"

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
    prog->mod = script_parse(src->name, src->text, &trap);
    return prog;
}

static char *ref_print(void *self, AdapterProgram *prog)
{
    return printer_print_module(prog->mod);
}

/* The round-trip property: print, reparse, alpha-equal, and printing is a fixpoint. */
static bool ref_roundtrip(void *self, AdapterProgram *prog, const char **printed,
                          const char **why)
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

void adapter_ref_init(Adapter *ad)
{
    memset(ad, 0, sizeof *ad);
    ad->name = "relax-ref";
    ad->load = ref_load;
    ad->print = ref_print;
    ad->roundtrip = ref_roundtrip;
}
