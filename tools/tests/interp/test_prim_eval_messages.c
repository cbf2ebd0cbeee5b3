/* test_prim_eval_messages: what the run-time errors of PrimExpr evaluation say, where a case
 * can pin only the code: a shift by a count outside [0, bits) names the operation without its
 * "tir." prefix, the count and the dtype. SPEC_NOTES: "Evaluation" (TIR-BITS). */
#include <setjmp.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/tir/prim_eval.h"
#include "tools/tests/unit.h"

static Span S;

static PrimExpr *shift(const char *name, int64_t value, int64_t count)
{
    PrimExpr *e = primexpr_new(PE_CALL, dtype_int32(), S);
    e->u.call.name = name;
    e->u.call.args = MEM_ARRAY(PrimExpr *, 2);
    e->u.call.args[0] = primexpr_int(value, dtype_int32(), S);
    e->u.call.args[1] = primexpr_int(count, dtype_int32(), S);
    e->u.call.nargs = 2;
    return e;
}

/* The error of evaluating e, or a zeroed Error when it succeeds. */
static Error eval_error(PrimExpr *e)
{
    Interp *in = MEM_NEW(Interp);
    ErrorTrap trap;
    in->trap = &trap;
    PrimEvalCtx pc = {in, NULL, NULL, NULL, NULL};
    Error none = {0};
    if (setjmp(trap.jmp) == 0) {
        prim_eval(&pc, e);
        return none;
    }
    return trap.error;
}

static void test_shift_range_message(void)
{
    Error e = eval_error(shift("tir.shift_left", 1, 40));
    CU_ASSERT_STRING_EQUAL(e.code, "ShiftRange");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "shift_left by 40 of a int32 value"));
    CU_ASSERT_PTR_NULL(strstr(e.message, "tir."));
    e = eval_error(shift("tir.shift_right", 8, -1));
    CU_ASSERT_STRING_EQUAL(e.code, "ShiftRange");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "shift_right by -1 of a int32 value"));
}

UNIT_SUITE(prim_eval_messages)
{
    CU_pSuite s = CU_add_suite("prim_eval_messages", 0, 0);
    CU_add_test(s, "TIR-BITS shift count message", test_shift_range_message);
}
