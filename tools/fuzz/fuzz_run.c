/* fuzz_run: arbitrary text parsed, checked and, when it checks, its `main` called without
 * arguments under small limits (fuel, depth, time): every outcome must be a value or a clean
 * runtime error. */
#include "ast/script/script.h"
#include "interp/check.h"
#include "interp/eval/interp.h"
#include "tools/conform/run_entry.h"
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
    InterpOptions opt;
    interp_options_default(&opt);
    opt.fuel = 200000;
    opt.max_depth = 200;
    opt.timeout = 2.0;
    RunEntryRequest req = {mod, "main", NULL, 0, &opt};
    RunEntryOutput out;
    Error err;
    run_entry_call(&req, &out, &err);
    return 0;
}
