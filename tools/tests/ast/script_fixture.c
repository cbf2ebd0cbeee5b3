/* script_fixture: what the TVMScript translator's tests share: expecting a parse error with
 * its code, rule and line. SPEC_NOTES: "Parse errors". */
#include <stdio.h>
#include <string.h>

#include "ast/script/script.h"
#include "tools/tests/ast/script_fixture.h"
#include "tools/tests/unit.h"

void script_fixture_expect_error(const char *text, const char *code, const char *rule, int line)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        script_parse("test.py", text, &trap);
        fprintf(stderr, "\nexpected %s, got success\n", code);
        CU_FAIL("no error");
        return;
    }
    Error *e = &trap.error;
    if (strcmp(e->code, code) != 0)
        fprintf(stderr, "\nexpected %s, got %s\n", code, error_format(e));
    CU_ASSERT_EQUAL(e->phase, PHASE_PARSE);
    CU_ASSERT_STRING_EQUAL(e->code, code);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e->rule);
    CU_ASSERT_STRING_EQUAL(e->rule, rule);
    CU_ASSERT_TRUE(e->span.line > 0);
    if (line > 0) {
        if (e->span.line != line)
            fprintf(stderr, "\n%s: expected line %d, got %s\n", code, line, error_format(e));
        CU_ASSERT_EQUAL(e->span.line, line);
    }
}
