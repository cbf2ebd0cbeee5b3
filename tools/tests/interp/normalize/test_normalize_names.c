/* test_normalize_names: the fresh variables normalization binds take names no variable of
 * the function already has, whether that name belongs to a parameter, a binding before the
 * nested call, a binding after it, one inside an If branch or a dataflow block, so the
 * printed result never shadows a name. The corpus compares normalized programs up to the
 * names of bound variables (alpha-equivalence), so only the printed text shows this.
 * SPEC_NOTES: "Normal form" and the normalization decisions. */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/normalize/normalize.h"
#include "tools/tests/unit.h"

static char *normalized_text(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        printf("\n%s\n", error_format(&trap.error));
        return NULL;
    }
    IRModule *m = script_parse("t.py", src, &trap);
    return printer_print_module(normalize_module(m));
}

static void expect_text(const char *got, const char *want)
{
    if (got == NULL || strstr(got, want) == NULL)
        printf("\nexpected to contain:\n%s\ngot:\n%s\n", want, got ? got : "(nothing)");
    CU_ASSERT_PTR_NOT_NULL(got != NULL ? strstr(got, want) : NULL);
}

/* A binding named gv before the nested call: the fresh variable is gv1. */
static void test_binding_before(void)
{
    char *text = normalized_text("@R.function\n"
                                 "def main(x: R.Tensor((2,), \"float32\")):\n"
                                 "    gv = R.add(x, x)\n"
                                 "    y = R.add(R.multiply(gv, gv), x)\n"
                                 "    return y\n");
    expect_text(text, "    gv = R.add(x, x)\n    gv1 = R.multiply(gv, gv)\n"
                      "    y = R.add(gv1, x)\n");
}

/* Bindings named gv and gv1 after the nested call: the fresh variable is gv2. */
static void test_bindings_after(void)
{
    char *text = normalized_text("@R.function\n"
                                 "def main(x: R.Tensor((2,), \"float32\")):\n"
                                 "    y = R.add(R.multiply(x, x), x)\n"
                                 "    gv = R.add(y, y)\n"
                                 "    gv1 = R.add(gv, y)\n"
                                 "    return gv1\n");
    expect_text(text, "    gv2 = R.multiply(x, x)\n    y = R.add(gv2, x)\n");
}

/* A dataflow block's lv: the fresh dataflow variable is lv1. */
static void test_dataflow_binding(void)
{
    char *text = normalized_text("@R.function\n"
                                 "def main(x: R.Tensor((2,), \"float32\")):\n"
                                 "    with R.dataflow():\n"
                                 "        lv = R.add(x, x)\n"
                                 "        y = R.add(R.multiply(lv, lv), x)\n"
                                 "        R.output(y)\n"
                                 "    return y\n");
    expect_text(text, "        lv = R.add(x, x)\n        lv1 = R.multiply(lv, lv)\n");
}

/* A name bound inside an If branch (the value of the binding r): the fresh variable of a
 * later nested call is gv1, not that branch's gv. */
static void test_binding_in_branch(void)
{
    char *text = normalized_text("@R.function\n"
                                 "def main(x: R.Tensor((2,), \"float32\"), c: R.Prim(\"bool\")):\n"
                                 "    if c:\n"
                                 "        gv = R.add(x, x)\n"
                                 "        r = gv\n"
                                 "    else:\n"
                                 "        r = x\n"
                                 "    y = R.add(R.multiply(x, x), r)\n"
                                 "    return y\n");
    expect_text(text, "    gv1 = R.multiply(x, x)\n    y = R.add(gv1, r)\n");
}

UNIT_SUITE(normalize_names)
{
    CU_pSuite s = CU_add_suite("normalize_names", 0, 0);
    CU_add_test(s, "fresh name after a binding's", test_binding_before);
    CU_add_test(s, "fresh name before bindings'", test_bindings_after);
    CU_add_test(s, "fresh dataflow name after a binding's", test_dataflow_binding);
    CU_add_test(s, "fresh name after a branch binding's", test_binding_in_branch);
}
