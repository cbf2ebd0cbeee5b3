/* fuzz_value: the value notation (`relax run --arg`) on arbitrary text, and the rendering of
 * what it reads back into the same notation, which must read again. */
#include <stdlib.h>

#include "tools/fuzz/fuzz_common.h"
#include "values/render.h"
#include "values/value_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char *text = fuzz_text(data, size);
    ValueYamlOptions opt = {"fuzz", false};
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return 0;
    Value *v = value_yaml_parse_text(text, &opt, &trap);
    ErrorTrap again;
    if (setjmp(again.jmp) != 0)
        abort();
    value_yaml_parse_text(render_value_case(v), &opt, &again);
    return 0;
}
