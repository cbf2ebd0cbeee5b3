/* test_ops_kind_messages: an operator inference's OpArgType error names the kind of StructInfo
 * it got, for the kinds no case shows it with (the corpus compares error codes, not messages):
 * an Object, a function, a DTensor, and no StructInfo at all. SPEC_NOTES: "Operators". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "ast/sinfo.h"
#include "interp/diag.h"
#include "interp/ops/ops.h"
#include "tools/tests/unit.h"

/* The OpArgType message relax.abs's inference reports for one argument of StructInfo `arg`. */
static const char *abs_message(StructInfo *arg)
{
    static const char ABS[] = "@R.function\n"
                              "def main(x: R.Tensor((2,), \"float32\")):\n"
                              "    y = R.abs(x)\n"
                              "    return y\n";
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return "";
    }
    IRModule *mod = script_parse("t.py", ABS, &trap);
    const Expr *call = mod->funcs[0]->u.relax->body->u.seq.blocks[0]->bindings[0]->value;
    StructInfo **args = MEM_ARRAY(StructInfo *, 1);
    args[0] = arg;
    DiagList errors;
    diag_init(&errors);
    OpInferCtx ctx = {call, args, 1, &errors, "OP-test"};
    const OpImpl *impl = ops_lookup("relax.abs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(impl);
    impl->infer(&ctx);
    const Error *e = diag_first(&errors);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->code, "OpArgType");
    return e->message;
}

static void expect_in(const char *message, const char *part)
{
    if (strstr(message, part) == NULL)
        fprintf(stderr, "\ngot '%s', expected it to hold '%s'\n", message, part);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, part));
}

static void test_kind_messages(void)
{
    Span sp = span_none();
    expect_in(abs_message(sinfo_object(sp)), "argument 1 must be a Tensor, got an Object");
    StructInfo *t = sinfo_tensor(NULL, dtype_float32(), NULL, 1, sp);
    expect_in(abs_message(sinfo_func(&t, 1, t, true, sp)),
              "argument 1 must be a Tensor, got a function");
    expect_in(abs_message(sinfo_dtensor(t, "mesh", 0, NULL, NULL, sp)),
              "argument 1 must be a Tensor, got a DTensor");
    expect_in(abs_message(NULL), "argument 1 must be a Tensor, got nothing");
}

UNIT_SUITE(ops_kind_messages)
{
    CU_pSuite s = CU_add_suite("ops_kind_messages", NULL, NULL);
    CU_add_test(s, "kind_messages", test_kind_messages);
}
