/* test_ops_arity_messages: an operator inference's OpArity error names the count the operator
 * takes: one number when it takes exactly that many, a range when it takes from one count to
 * another (only the ast: form can write another count, so the message is read here). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/ops/ops.h"
#include "tools/tests/unit.h"

/* The message of the first error the inference of `op` reports for the call in `src` (main's
 * first binding) seen with `nargs` arguments, all of the call's first argument's StructInfo. */
static const char *arity_message(const char *src, const char *op, int nargs)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return "";
    }
    IRModule *mod = script_parse("t.py", src, &trap);
    const Expr *body = mod->funcs[0]->u.relax->body;
    const Expr *call = body->u.seq.blocks[0]->bindings[0]->value;
    StructInfo *x = mod->funcs[0]->u.relax->params[0]->annotation;
    StructInfo **args = MEM_ARRAY(StructInfo *, nargs > 0 ? nargs : 1);
    for (int i = 0; i < nargs; i++)
        args[i] = x;
    DiagList errors;
    diag_init(&errors);
    OpInferCtx ctx = {call, args, nargs, &errors, "OP-test"};
    const OpImpl *impl = ops_lookup(op);
    CU_ASSERT_PTR_NOT_NULL_FATAL(impl);
    impl->infer(&ctx);
    const Error *e = diag_first(&errors);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->code, "OpArity");
    return e->message;
}

static void expect_in(const char *message, const char *part)
{
    if (strstr(message, part) == NULL)
        fprintf(stderr, "\ngot '%s', expected it to hold '%s'\n", message, part);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, part));
}

static void test_arity_messages(void)
{
    static const char ABS[] = "@R.function\n"
                              "def main(x: R.Tensor((2,), \"float32\")):\n"
                              "    y = R.abs(x)\n"
                              "    return y\n";
    static const char MATMUL[] = "@R.function\n"
                                 "def main(x: R.Tensor((2, 2), \"float32\")):\n"
                                 "    y = R.matmul(x, x)\n"
                                 "    return y\n";
    expect_in(arity_message(ABS, "relax.abs", 2), "takes 1 argument(s), got 2");
    expect_in(arity_message(ABS, "relax.abs", 0), "takes 1 argument(s), got 0");
    expect_in(arity_message(MATMUL, "relax.linear", 1), "takes 2 to 3 arguments, got 1");
    expect_in(arity_message(MATMUL, "relax.linear", 4), "takes 2 to 3 arguments, got 4");
}

UNIT_SUITE(ops_arity_messages)
{
    CU_pSuite s = CU_add_suite("ops arity messages", 0, 0);
    CU_add_test(s, "OpArity names one count or a range", test_arity_messages);
}
