/* unit_main: runs every registered CUnit suite; exits non-zero on any failure.
 * SPEC_NOTES: none (test harness). */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/tests/unit.h"

#define MAX_SUITES 128

static UnitRegisterFn registered[MAX_SUITES];
static int nregistered;

void unit_add(UnitRegisterFn fn)
{
    if (nregistered < MAX_SUITES)
        registered[nregistered++] = fn;
}

const char *unit_source_dir(void)
{
    const char *env = getenv("RELAX_SOURCE_DIR");
    return env != NULL ? env : RELAX_SOURCE_DIR;
}

char *unit_write_temp(const char *text)
{
    const char *dir = getenv("TMPDIR");
    char *path = mem_printf("%s/relax_unit_XXXXXX", dir != NULL ? dir : ".");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

IRModule *unit_case_module(const Case *c)
{
    if (c->program == NULL)
        return c->ast_failed ? NULL : c->ast;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return NULL;
    return script_parse(c->global_id, c->program, &trap);
}

CaseFile *unit_case_file(const char *path, const char **error)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        if (error != NULL)
            *error = error_format(&trap.error);
        return NULL;
    }
    return case_file_load(path, &trap);
}

bool unit_same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

uint64_t unit_rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

int main(int argc, char **argv)
{
    mem_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    for (int i = 0; i < nregistered; i++)
        registered[i]();
    CU_basic_set_mode(argc > 1 && strcmp(argv[1], "-v") == 0 ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
    CU_basic_run_tests();
    /* Read the results before CU_cleanup_registry wipes them. */
    unsigned failures = CU_get_number_of_failures();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (ran == 0) {
        fprintf(stderr, "relax_unit: no test ran\n");
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
