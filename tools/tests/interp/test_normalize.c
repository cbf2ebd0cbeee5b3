/* test_normalize: the normalization procedure on nested calls, If branches, nested
 * SeqExprs, blocks and the call_tir rule; its output is in normal form, well-formed and a
 * fixpoint, and the input is left unchanged. SPEC_NOTES: "Normal form" and the
 * normalization decisions. */
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/normalize/normalize.h"
#include "interp/wellformed/wellformed.h"
#include "tools/tests/unit.h"

static IRModule *load(bool ast, const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        printf("\n%s\n", error_format(&trap.error));
        return NULL;
    }
    return ast ? astform_read_text("t.yaml", src, &trap) : script_parse("t.py", src, &trap);
}

static int count_errors(const IRModule *mod, bool normal_form)
{
    DiagList errors;
    diag_init(&errors);
    if (normal_form)
        wellformed_check_normal_form(mod, &errors);
    else
        wellformed_check(mod, &errors);
    return errors.n;
}

/* Checks an output that must be clean, showing what is wrong when it is not. */
static void expect_clean(const IRModule *mod, bool normal_form)
{
    DiagList errors;
    diag_init(&errors);
    if (normal_form)
        wellformed_check_normal_form(mod, &errors);
    else
        wellformed_check(mod, &errors);
    for (int i = 0; i < errors.n; i++)
        printf("\n%s", error_format(&errors.items[i]));
    CU_ASSERT_EQUAL(errors.n, 0);
}

/* Normalizes, checks the output's properties, and returns its printed text. */
static char *normalize_checked(const IRModule *mod)
{
    char *before = printer_print_module(mod);
    IRModule *norm = normalize_module(mod);
    expect_clean(norm, false);
    expect_clean(norm, true);
    CU_ASSERT_TRUE(equal_module(norm, normalize_module(norm)));
    CU_ASSERT_STRING_EQUAL(printer_print_module(mod), before);
    return printer_print_module(norm);
}

static void expect_text(const char *got, const char *want)
{
    if (strstr(got, want) == NULL)
        printf("\nexpected to contain:\n%s\ngot:\n%s\n", want, got);
    CU_ASSERT_PTR_NOT_NULL(strstr(got, want));
}

static void test_nested_calls(void)
{
    IRModule *m = load(false, "@R.function\n"
                              "def main(x: R.Tensor((2,), \"float32\")):\n"
                              "    with R.dataflow():\n"
                              "        y = R.add(R.multiply(x, x), R.add(x, R.negative(x)))\n"
                              "        R.output(y)\n"
                              "    return R.add(y, (x, R.add(y, y))[1])\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_TRUE(count_errors(m, true) > 0);
    char *text = normalize_checked(m);
    expect_text(text, "    with R.dataflow():\n"
                      "        lv = R.multiply(x, x)\n"
                      "        lv1 = R.negative(x)\n"
                      "        lv2 = R.add(x, lv1)\n"
                      "        y = R.add(lv, lv2)\n"
                      "        R.output(y)\n"
                      "    gv = R.add(y, y)\n"
                      "    gv1 = (x, gv)[1]\n"
                      "    gv2 = R.add(y, gv1)\n"
                      "    return gv2\n");
}

static void test_if_branches(void)
{
    IRModule *m = load(false, "@R.function\n"
                              "def main(x: R.Tensor((2,), \"float32\"), c: R.Prim(\"bool\")):\n"
                              "    if c:\n"
                              "        r = R.add(R.add(x, x), x)\n"
                              "    else:\n"
                              "        r = x\n"
                              "    return r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char *text = normalize_checked(m);
    expect_text(text, "    if c:\n"
                      "        gv = R.add(x, x)\n"
                      "        gv1 = R.add(gv, x)\n"
                      "        r = gv1\n"
                      "    else:\n"
                      "        r = x\n");
}

/* An unwrapped body, bare If branches, a SeqExpr as a binding value and as an argument, and
 * unconsolidated blocks: all end in normal form. */
static void test_ast_shapes(void)
{
    IRModule *m = load(
        true, "Function:\n"
              "  params: [{Var: x}, {Var: c}]\n"
              "  attrs: {global_symbol: main}\n"
              "  body:\n"
              "    SeqExpr:\n"
              "      blocks:\n"
              "      - BindingBlock: []\n"
              "      - BindingBlock: [{VarBinding: {var: {Var: a}, value: {SeqExpr: {blocks: "
              "[{DataflowBlock: [{VarBinding: {var: {DataflowVar: lv}, value: {Var: x}}}, "
              "{VarBinding: {var: {Var: o}, value: {DataflowVar: lv}}}]}], body: {Var: o}}}}}]\n"
              "      - BindingBlock: [{VarBinding: {var: {Var: b}, value: {If: {cond: {Var: c}, "
              "true_branch: {Call: {op: {Op: relax.add}, args: [{Var: a}, {SeqExpr: {body: {Var: "
              "x}}}]}}, false_branch: {Var: x}}}}}]\n"
              "      body: {Call: {op: {Op: relax.add}, args: [{Var: b}, {Var: b}]}}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    expect_clean(m, false);
    CU_ASSERT_TRUE(count_errors(m, true) > 0);
    IRModule *norm = normalize_module(m);
    expect_clean(norm, true);
    const Expr *body = norm->funcs[0]->u.relax->body;
    CU_ASSERT_EQUAL_FATAL(body->kind, EXPR_SEQ);
    /* dataflow (lv, o), then ordinary (a, b, and the bound body) */
    CU_ASSERT_EQUAL_FATAL(body->u.seq.nblocks, 2);
    CU_ASSERT_TRUE(body->u.seq.blocks[0]->is_dataflow);
    CU_ASSERT_EQUAL(body->u.seq.blocks[0]->n, 2);
    CU_ASSERT_EQUAL(body->u.seq.blocks[1]->n, 3);
    CU_ASSERT_EQUAL(body->u.seq.body->kind, EXPR_VAR);
    normalize_checked(m);
}

static void test_call_tir_rule(void)
{
    IRModule *m = load(false, "@I.ir_module\nclass M:\n"
                              "    @T.prim_func\n"
                              "    def f(a: T.handle, b: T.handle, c: T.handle):\n"
                              "        T.evaluate(0)\n\n"
                              "    @R.function\n"
                              "    def main(x: R.Tensor((2,), \"float32\")):\n"
                              "        cls = M\n"
                              "        t = (x, x)\n"
                              "        y = R.call_tir(cls.f, t, out_sinfo=R.Tensor((2,), "
                              "\"float32\"))\n"
                              "        return y\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    /* `t` has no annotation, so the parser wraps it: build the unwrapped form directly. */
    const Expr *seq = m->funcs[1]->u.relax->body;
    BindingBlock *blk = seq->u.seq.blocks[seq->u.seq.nblocks - 1];
    CU_ASSERT_EQUAL_FATAL(blk->n >= 2, true);
    Binding *tb = blk->bindings[blk->n - 2];
    Expr *call = blk->bindings[blk->n - 1]->value;
    CU_ASSERT_EQUAL_FATAL(call->kind, EXPR_CALL);
    call->u.call.args[1] = expr_var(tb->var, call->span);
    CU_ASSERT_TRUE(count_errors(m, false) > 0); /* WF-23 */
    char *text = normalize_checked(m);
    expect_text(text, "        t = (x, x)\n"
                      "        gv = t[0]\n"
                      "        gv1 = t[1]\n"
                      "        y = R.call_tir(cls.f, (gv, gv1), ");
}

/* NF-1 is reported at every nested non-leaf, not only at the outermost: the check goes on
 * inside an expression it has already reported. */
static void test_nested_violations_each_reported(void)
{
    IRModule *m = load(false, "@R.function\n"
                              "def main(x: R.Tensor((2,), \"float32\")):\n"
                              "    y = R.add(R.add(R.add(x, x), x), x)\n"
                              "    return y\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(count_errors(m, false), 0);
    CU_ASSERT_EQUAL(count_errors(m, true), 2);
}

static void test_fresh_names_avoid_existing(void)
{
    IRModule *m = load(false, "@R.function\n"
                              "def main(gv: R.Tensor((2,), \"float32\")):\n"
                              "    lv = R.add(R.add(gv, gv), gv)\n"
                              "    return lv\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char *text = normalize_checked(m);
    expect_text(text, "    gv1 = R.add(gv, gv)\n    lv = R.add(gv1, gv)\n");
    /* names bound inside either branch of an If are in use too */
    m = load(false, "@R.function\n"
                    "def main(x: R.Tensor((2,), \"float32\"), c: R.Prim(\"bool\")):\n"
                    "    if c:\n"
                    "        gv = R.add(x, x)\n"
                    "        r = gv\n"
                    "    else:\n"
                    "        gv1 = R.multiply(x, x)\n"
                    "        r = gv1\n"
                    "    y = R.add(R.add(r, r), r)\n"
                    "    return y\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    text = normalize_checked(m);
    expect_text(text, "    gv2 = R.add(r, r)\n    y = R.add(gv2, r)\n");
}

UNIT_SUITE(normalize)
{
    CU_pSuite s = CU_add_suite("normalize", 0, 0);
    CU_add_test(s, "nested calls in evaluation order", test_nested_calls);
    CU_add_test(s, "If branches normalized in place", test_if_branches);
    CU_add_test(s, "ast: bodies, branches, nested SeqExprs, blocks", test_ast_shapes);
    CU_add_test(s, "call_tir arguments become a literal tuple", test_call_tir_rule);
    CU_add_test(s, "fresh names never clash", test_fresh_names_avoid_existing);
    CU_add_test(s, "nested violations each reported", test_nested_violations_each_reported);
}
