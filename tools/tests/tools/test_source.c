/* test_source: reading program files: a NUL byte is refused where it stands instead of
 * silently ending the text. SPEC_NOTES: "Resource limits", PY-1. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli/source.h"
#include "tools/tests/unit.h"

/* Writes `len` bytes to a fresh temporary file; returns its path. */
static char *temp_file(const char *bytes, size_t len)
{
    static char path[64];
    strcpy(path, "/tmp/relax-source-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, bytes, len) == (ssize_t)len);
    close(fd);
    return path;
}

static void test_nul_byte(void)
{
    static const char text[] = "x = 1\ny =\0garbage(((\n";
    char *path = temp_file(text, sizeof text - 1);
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        source_read_file(path, &trap);
        CU_FAIL("a NUL byte was accepted");
    } else {
        CU_ASSERT_EQUAL(trap.error.phase, PHASE_PARSE);
        CU_ASSERT_STRING_EQUAL(trap.error.code, "BadToken");
        CU_ASSERT_STRING_EQUAL(trap.error.rule, "PY-1");
        CU_ASSERT_EQUAL(trap.error.span.line, 2);
        CU_ASSERT_EQUAL(trap.error.span.col, 4);
    }
    unlink(path);
    /* Without a NUL the text comes back whole. */
    path = temp_file(text, 9);
    if (setjmp(trap.jmp) == 0) {
        CU_ASSERT_STRING_EQUAL(source_read_file(path, &trap), "x = 1\ny =");
    } else {
        CU_FAIL("a plain file was refused");
    }
    unlink(path);
}

UNIT_SUITE(source)
{
    CU_pSuite s = CU_add_suite("source", 0, 0);
    CU_add_test(s, "a NUL byte is a parse error", test_nul_byte);
}
