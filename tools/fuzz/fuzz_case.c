/* fuzz_case: the case-file loader (YAML, the case schema, the value notation, the `ast:`
 * form) on arbitrary text: a case file or a clean case-phase error. */
#include "tools/conform/case_file.h"
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
    case_file_parse("fuzz.yaml", text, &trap);
    return 0;
}
