/* unit: how test files register CUnit suites without touching the test main.
 * SPEC_NOTES: none (test harness). */
#ifndef RELAX_TOOLS_TESTS_UNIT_H
#define RELAX_TOOLS_TESTS_UNIT_H

#include <CUnit/Basic.h>
#include <stdint.h>

#include "ast/module.h"
#include "tools/conform/case_file.h"

typedef void (*UnitRegisterFn)(void);

/* Called from a constructor; the main calls every registered function after
 * CU_initialize_registry. */
void unit_add(UnitRegisterFn fn);

/* In a test file:  UNIT_SUITE(lexer) { CU_pSuite s = CU_add_suite("lexer", 0, 0); ... } */
#define UNIT_SUITE(name)                                                                           \
    static void unit_register_##name(void);                                                        \
    __attribute__((constructor)) static void unit_ctor_##name(void)                                \
    {                                                                                              \
        unit_add(unit_register_##name);                                                            \
    }                                                                                              \
    static void unit_register_##name(void)

/* The source tree's root, for tests that read spec-tests/. */
const char *unit_source_dir(void);

/* The case file at `path`, or NULL, its load error then in *error (when error is not NULL). */
CaseFile *unit_case_file(const char *path, const char **error);

/* Whether two doubles are the same bits, every NaN counting as one NaN. */
bool unit_same_double(double a, double b);

/* The next number of the xorshift64* generator whose state (not 0) is *state: the tests'
 * deterministic pseudo-random inputs. */
uint64_t unit_rng_next(uint64_t *state);

/* A new file (in $TMPDIR, else the working directory) holding `text`; its path. */
char *unit_write_temp(const char *text);

/* A corpus case's program: its TVMScript parsed, or its ast: form; NULL when it does not
 * parse (or its ast: form failed). */
IRModule *unit_case_module(const Case *c);

#endif
