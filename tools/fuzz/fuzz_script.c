/* fuzz_script: the TVMScript reader, the static checks and the printer on arbitrary text.
 * Any outcome but a crash, a sanitizer report or a hang is fine; a program that checks must
 * also print and reparse. */
#include <stdlib.h>

#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/check.h"
#include "tools/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char *text = fuzz_text(data, size);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return 0;
    IRModule *mod = script_parse("fuzz", text, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    if (!check_module(mod, &errors, &warnings))
        return 0;
    /* A checked program prints, and its print parses (TS round trip). */
    ErrorTrap again;
    if (setjmp(again.jmp) != 0)
        abort();
    script_parse("fuzz (printed)", printer_print_module(mod), &again);
    return 0;
}
