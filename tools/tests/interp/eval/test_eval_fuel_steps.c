/* test_eval_fuel_steps: LIMIT-fuel spent by steps alone (calls and bindings, no operator
 * charge), to the last unit: the step that finds the budget empty fails, the one that
 * empties it does not. SPEC_NOTES: "Limits" (LIMIT-fuel). */
#include "interp/eval/interp.h"
#include "tools/tests/interp/eval/eval_run.h"
#include "tools/tests/unit.h"
#include "values/value.h"

/* Calling main is one step, each binding one more: three steps, no operator. */
static const char STEPS[] = "@R.function\n"
                            "def main(x: R.Prim(\"int64\")):\n"
                            "    y = x\n"
                            "    z = y\n"
                            "    return z\n";

static void test_fuel_steps_exact(void)
{
    InterpOptions opt;
    interp_options_default(&opt);
    Value *args[1] = {value_prim_int(dtype_int64(), 7)};
    opt.fuel = 3;
    Run r = run_opt(STEPS, args, 1, &opt);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 7);
    CU_ASSERT_EQUAL(r.in->fuel, 0);
    /* One unit short: the last binding finds the budget at 0. */
    opt.fuel = 2;
    CU_ASSERT_TRUE(fails(run_opt(STEPS, args, 1, &opt), "StepLimit", "LIMIT-fuel"));
    /* No unit at all: calling main fails. */
    opt.fuel = 0;
    CU_ASSERT_TRUE(fails(run_opt(STEPS, args, 1, &opt), "StepLimit", "LIMIT-fuel"));
}

UNIT_SUITE(eval_fuel_steps)
{
    CU_pSuite s = CU_add_suite("eval fuel steps", 0, 0);
    CU_add_test(s, "LIMIT-fuel by steps to the last unit", test_fuel_steps_exact);
}
