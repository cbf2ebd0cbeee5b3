/* fuzz_common: what every libFuzzer harness shares: the collector started once, and the
 * input as a NUL-terminated string (a NUL inside it is input too: the lexer must reject it). */
#ifndef RELAX_TOOLS_FUZZ_COMMON_H
#define RELAX_TOOLS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ast/mem.h"

/* Inputs past this size are skipped: the limits under test are about shape, not bulk, and
 * the long and deep inputs of tools/fuzz/seeds.py stay below it. */
#define FUZZ_MAX_INPUT (1 << 20)

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    static int started;
    if (!started) {
        mem_init();
        started = 1;
    }
    char *text = mem_alloc_atomic(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#endif
