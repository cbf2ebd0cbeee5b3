/* test_wellformed_module_span: where a module-level well-formedness error points when the
 * module has no function to point at (WF-12 for an empty module: its file, line 1, column 1).
 * SPEC_NOTES: "Well-formedness". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "interp/diag.h"
#include "interp/wellformed/wellformed.h"
#include "tools/tests/unit.h"

static void test_empty_module_points_at_its_start(void)
{
    ErrorTrap trap;
    IRModule *volatile mod = NULL;
    if (setjmp(trap.jmp) == 0)
        mod = astform_read_text("empty.yaml", "IRModule:\n  funcs: {}\n", &trap);
    else
        fprintf(stderr, "\n%s\n", error_format(&trap.error));
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    DiagList errors;
    diag_init(&errors);
    wellformed_check(mod, &errors);
    const Error *e = diag_first(&errors);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->code, "NoEntryPoint");
    CU_ASSERT_STRING_EQUAL(e->rule, "WF-12");
    CU_ASSERT_EQUAL(e->span.line, 1);
    CU_ASSERT_EQUAL(e->span.col, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e->span.file);
    CU_ASSERT_STRING_EQUAL(e->span.file, mod->file);
}

UNIT_SUITE(wellformed_module_span)
{
    CU_pSuite s = CU_add_suite("wellformed module span", 0, 0);
    CU_add_test(s, "an empty module points at its start", test_empty_module_points_at_its_start);
}
