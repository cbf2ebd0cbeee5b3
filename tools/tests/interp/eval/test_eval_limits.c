/* test_eval_limits: the evaluator's limits on small programs: depth, fuel to the last unit,
 * time counted on operator charges, tail loops in bounded memory. SPEC_NOTES: "Limits". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "tools/tests/interp/eval/eval_run.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"

/* ---- limits and tail calls ----------------------------------------------------------- */

static const char *const DOWN =
    MOD_HEAD "    @R.function\n"
             "    def down(k: R.Prim(value=\"n\")) -> R.Prim(\"int64\"):\n"
             "        n = T.int64()\n"
             "        m = T.int64()\n"
             "        if n == 0:\n"
             "            r = R.prim_value(0)\n"
             "        else:\n"
             "            s = Module.down(R.prim_value(n - 1))\n"
             "            t = R.match_cast(s, R.Prim(value=m))\n"
             "            r = R.prim_value(m + 1)\n"
             "        return r\n"
             "    @R.function\n"
             "    def main(k: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
             "        r = Module.down(k)\n"
             "        return r\n";

static void test_depth_limit(void)
{
    InterpOptions opt;
    interp_options_default(&opt);
    opt.max_depth = 50;
    /* main's call is in tail position, so down(k) runs k + 1 activations deep. */
    Value *args[1] = {value_prim_int(dtype_int64(), 49)};
    Run r = run_opt(DOWN, args, 1, &opt);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 49);
    args[0] = value_prim_int(dtype_int64(), 50);
    CU_ASSERT_TRUE(fails(run_opt(DOWN, args, 1, &opt), "DepthLimit", "LIMIT-depth"));
}

static void test_deep_non_tail_recursion(void)
{
    /* 10000 nested activations: exactly the default depth limit. */
    Value *args[1] = {value_prim_int(dtype_int64(), 9999)};
    Run r = run(DOWN, args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 9999);
    args[0] = value_prim_int(dtype_int64(), 10000);
    CU_ASSERT_TRUE(fails(run(DOWN, args, 1), "DepthLimit", "LIMIT-depth"));
    InterpOptions opt;
    interp_options_default(&opt);
    opt.max_depth = 100000;
    args[0] = value_prim_int(dtype_int64(), 99990);
    r = run_opt(DOWN, args, 1, &opt);
    CU_ASSERT_TRUE(r.failed ? fails(r, "DepthLimit", "LIMIT-depth") : prim_int(r.v) == 99990);
}

/* LIMIT-time: the clock is read on every 1024th step or charge, and an operator's charges
 * count as much as binding steps. 400 bindings of an operator are 400 steps and 800 charges,
 * so the 1024th look falls on the 342nd binding: long after a 50 ms deadline, since each
 * binding adds 300,000 elements. (Counting the steps alone, the clock would be read only
 * at the first step and the run would end with its value.) */
static void test_timeout_counts_charges(void)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "@R.function\n"
                    "def main(x: R.Tensor((300000,), \"float32\")):\n"
                    "    y0 = R.add(x, x)\n");
    for (int i = 1; i < 400; i++)
        strbuf_addf(&sb, "    y%d = R.add(y%d, x)\n", i, i - 1);
    strbuf_add(&sb, "    return y399\n");
    InterpOptions opt;
    interp_options_default(&opt);
    opt.fuel = INT64_MAX / 2;
    opt.timeout = 0.05;
    Value *args[1] = {vec(300000)};
    CU_ASSERT_TRUE(fails(run_opt(strbuf_str(&sb), args, 1, &opt), "Timeout", "LIMIT-time"));
}

/* LIMIT-fuel spent to the last unit: calling main (1), the binding (1), add's operands
 * (4 + 4) and its result (4) are 14 units, so a budget of 14 runs to the end with nothing
 * left, and 13 runs out on the result's 4 units with 3 left. */
static void test_fuel_exact(void)
{
    static const char SRC[] = "@R.function\n"
                              "def main(x: R.Tensor((4,), \"float32\")):\n"
                              "    y = R.add(x, x)\n"
                              "    return y\n";
    InterpOptions opt;
    interp_options_default(&opt);
    Value *args[1] = {vec(4)};
    opt.fuel = 14;
    Run r = run_opt(SRC, args, 1, &opt);
    CU_ASSERT_TRUE(ok(r));
    CU_ASSERT_EQUAL(r.in->fuel, 0);
    opt.fuel = 13;
    CU_ASSERT_TRUE(fails(run_opt(SRC, args, 1, &opt), "StepLimit", "LIMIT-fuel"));
}

static void test_fuel(void)
{
    InterpOptions opt;
    interp_options_default(&opt);
    opt.fuel = 1000;
    Value *args[1] = {value_prim_int(dtype_int64(), 100000)};
    CU_ASSERT_TRUE(fails(run_opt(MUTUAL, args, 1, &opt), "StepLimit", "LIMIT-fuel"));
}

/* A tail-recursive loop that allocates a 1000-element tensor on every iteration. */
static char *loop_program(void)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb,
               MOD_HEAD "    @R.function\n"
                        "    def loop(k: R.Prim(value=\"n\"), acc: R.Tensor((1000,), \"float32\")) "
                        "-> R.Tensor((1000,), \"float32\"):\n"
                        "        n = T.int64()\n"
                        "        if n == 0:\n"
                        "            r = acc\n"
                        "        else:\n"
                        "            c = R.const([");
    for (int i = 0; i < 1000; i++)
        strbuf_addf(&sb, "%s%d", i ? ", " : "", i);
    strbuf_add(&sb, "], \"float32\")\n"
                    "            r = Module.loop(R.prim_value(n - 1), c)\n"
                    "        return r\n"
                    "    @R.function\n"
                    "    def main(k: R.Prim(\"int64\")) -> R.Tensor((1000,), \"float32\"):\n"
                    "        z = R.const([");
    for (int i = 0; i < 1000; i++)
        strbuf_addf(&sb, "%s0", i ? ", " : "");
    strbuf_add(&sb, "], \"float32\")\n"
                    "        r = Module.loop(k, z)\n"
                    "        return r\n");
    return strbuf_str(&sb);
}

static void test_tail_loop_bounded_memory(void)
{
    Value *args[1] = {value_prim_int(dtype_int64(), 100000)};
    char *src = loop_program();
    mem_collect();
    size_t before = mem_heap_size();
    Run r = run(src, args, 1);
    size_t after = mem_heap_size();
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(r.v->u.tensor, 999), 999.0, 0);
    /* 10^5 tensors of 4000 bytes would be 400 MB if any stayed reachable; the heap is
     * measured around the run since earlier tests may have grown it. */
    CU_ASSERT(after < before + ((size_t)64 << 20));
}

/* A tail-recursive loop whose return annotation has a shape variable: every iteration owes
 * the same return check (m = 2), and consecutive equal checks collapse into one, so the
 * loop's memory stays bounded (FN-3; a list of 10^6 owed checks would take tens of MB). */
static void test_tail_loop_owed_checks_collapse(void)
{
    static const char SRC[] =
        MOD_HEAD "    @R.function\n"
                 "    def loop(k: R.Prim(value=\"n\"), acc: R.Tensor((\"m\",), \"float32\")) "
                 "-> R.Tensor((\"m\",), \"float32\"):\n"
                 "        n = T.int64()\n"
                 "        m = T.int64()\n"
                 "        if n == 0:\n"
                 "            r = acc\n"
                 "        else:\n"
                 "            r = Module.loop(R.prim_value(n - 1), acc)\n"
                 "        return r\n"
                 "    @R.function\n"
                 "    def main(k: R.Prim(\"int64\")) -> R.Tensor((2,), \"float32\"):\n"
                 "        z = R.const([1, 2], \"float32\")\n"
                 "        r = Module.loop(k, z)\n"
                 "        return r\n";
    Value *args[1] = {value_prim_int(dtype_int64(), 1000000)};
    mem_collect();
    size_t before = mem_heap_size();
    Run r = run(SRC, args, 1);
    size_t after = mem_heap_size();
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(r.v->u.tensor, 1), 2.0, 0);
    CU_ASSERT(after < before + ((size_t)24 << 20));
}

UNIT_SUITE(eval_limits)
{
    CU_pSuite s = CU_add_suite("eval limits", 0, 0);
    CU_add_test(s, "LIMIT-depth", test_depth_limit);
    CU_add_test(s, "deep non-tail recursion", test_deep_non_tail_recursion);
    CU_add_test(s, "LIMIT-fuel", test_fuel);
    CU_add_test(s, "LIMIT-fuel to the last unit", test_fuel_exact);
    CU_add_test(s, "LIMIT-time counts charges", test_timeout_counts_charges);
    CU_add_test(s, "tail loop bounded memory", test_tail_loop_bounded_memory);
    CU_add_test(s, "tail loop: owed return checks collapse", test_tail_loop_owed_checks_collapse);
}
