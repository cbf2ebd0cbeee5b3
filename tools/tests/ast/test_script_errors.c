/* test_script_errors: every parse error code of the Relax TVMScript translator, with its rule
 * and line. SPEC_NOTES: "Parse errors". */
#include <stdio.h>
#include <string.h>

#include "ast/script/script.h"
#include "tools/tests/ast/script_fixture.h"
#include "tools/tests/unit.h"

/* ---- parse errors -------------------------------------------------------------------- */

/* A lone function with parameter x; its body starts on line 3. */
#define FN(body) "@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n" body
#define MOD(body) "@I.ir_module\nclass Module:\n" body

static const struct {
    const char *text;
    const char *code;
    const char *rule;
    int line;
} error_cases[] = {
    /* outer structure */
    {"", "BadModule", "TS-1", 1},
    {"import tvm\nx = 1\n", "BadModule", "TS-1", 2},
    {FN("    return x\n") FN("    return x\n"), "BadModule", "TS-1", 5},
    {"class Module:\n    pass\n", "BadModule", "TS-1", 1},
    {MOD("    x = 1\n"), "BadModule", "TS-1", 3},
    {"@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    T.evaluate(0)\n", "BadModule",
     "TS-1", 2},
    {"@R.fn\ndef f(x: R.Object):\n    return x\n", "BadDecorator", "TS-2", 2},
    {"@R.function(pure=1)\ndef f(x: R.Object):\n    return x\n", "BadDecorator", "TS-2", 1},
    {"@R.function(inline=True)\ndef f(x: R.Object):\n    return x\n", "BadDecorator", "TS-2", 1},
    {"@I.module\nclass Module:\n    pass\n", "BadDecorator", "TS-2", 1},
    {MOD("    @R.function\n    def f(x: R.Object):\n        return x\n"
         "    @R.function\n    def f(x: R.Object):\n        return x\n"),
     "DuplicateFunction", "TS-1.1", 7},
    {MOD("    @R.function\n    def f(x: R.Object):\n        return Module.g(x)\n"), "UnknownName",
     "TS-1", 5},
    {MOD("    @R.function\n    def f(x: R.Object):\n        return g(x)\n"), "UnknownName", "TS-1",
     5},
    /* functions */
    {"@R.function\ndef f(x):\n    return x\n", "MissingParamAnnotation", "TS-2", 2},
    {"@R.function\ndef f(x: R.Object, *a):\n    return x\n", "UnsupportedSyntax", "PY-1", 2},
    {FN("    y = x\n"), "MissingReturn", "TS-2", 2},
    {FN("    return x\n    return x\n"), "DuplicateReturn", "TS-2", 4},
    {FN("    return x\n    y = x\n"), "StmtAfterReturn", "TS-2", 4},
    {FN("    with R.dataflow():\n        return x\n    y = x\n"), "StmtAfterReturn", "TS-2", 5},
    {FN("    @T.prim_func\n    def g(A: T.Buffer((4,), \"float32\")):\n        T.evaluate(0)\n    "
        "return x\n"),
     "NestedPrimFunc", "TS-2", 4},
    {FN("    def g(y: R.Object):\n        return y\n    return x\n"), "BadDecorator", "TS-2", 3},
    {"@R.function(private=True)\ndef f(x: R.Object):\n    R.func_attr({\"global_symbol\": "
     "\"f\"})\n    return x\n",
     "PrivateGlobalSymbol", "TS-2", 3},
    {FN("    R.func_attr({\"a\": 1, \"a\": 2})\n    return x\n"), "DuplicateFuncAttr", "TS-2", 3},
    {FN("    R.func_attr({\"a\": 1})\n    R.func_attr({\"b\": 1})\n    return x\n"),
     "DuplicateFuncAttr", "TS-2", 4},
    /* annotations */
    {"@R.function\ndef f(x: R.Tensor(16)):\n    return x\n", "AnnotationShape", "TS-3", 2},
    {"@R.function\ndef f(x: R.Shape(3)):\n    return x\n", "AnnotationShape", "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor((2, 3), ndim=3)):\n    return x\n", "AnnotationNdimConflict",
     "TS-3", 2},
    {"@R.function\ndef f(x: R.Shape([2], ndim=1)):\n    return x\n", "AnnotationNdimConflict",
     "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor(ndim=-2)):\n    return x\n", "AnnotationNdim", "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor(ndim=\"1\")):\n    return x\n", "AnnotationNdim", "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor(shape=(2,), layout=\"NCHW\")):\n    return x\n",
     "UnknownKeyword", "TS-3", 2},
    {"@R.function\ndef f(x: R.Prim()):\n    return x\n", "AnnotationArity", "TS-3", 2},
    {"@R.function\ndef f(x: R.Object(1)):\n    return x\n", "AnnotationArity", "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor((2,), \"float32\", \"llvm\", 1, 2)):\n    return x\n",
     "AnnotationArity", "TS-3", 2},
    {"@R.function\ndef f(x: R.Tensor((2,), \"floot32\")):\n    return x\n", "BadDType", "TS-3.1",
     2},
    {"@R.function\ndef f(x: R.Tensorr):\n    return x\n", "BadAnnotation", "TS-3", 2},
    {"@R.function\ndef f(x: int):\n    return x\n", "BadAnnotation", "TS-3", 2},
    {FN("    y: R.Tensor((\"n\",)) = x\n    return y\n"), "StringDimOutsideSignature", "TS-3", 3},
    {FN("    y = R.match_cast(x, R.Tensor((\"n\",)))\n    return y\n"), "StringDimOutsideSignature",
     "TS-3", 3},
    {FN("    y = R.call_packed(\"f\", x, sinfo_args=R.Tensor((\"n\",)))\n    return y\n"),
     "StringDimOutsideSignature", "TS-3", 3},
    {FN("    return R.shape([\"n\"])\n"), "StringDimOutsideSignature", "TS-3", 3},
    {"@R.function\ndef f(x: R.Tensor((\"m + 1\", \"m * 2\"))):\n    return x\n",
     "UndefinedShapeVar", "TS-5.1", 2},
    {"@R.function\ndef f(x: R.Tensor((\"n\",))) -> R.Tensor((\"k\",)):\n    return x\n",
     "UndefinedShapeVar", "TS-5.1", 2},
    {"@R.function\ndef f(x: R.Tensor((\"n\",))) -> R.Tensor((\"n + k\",)):\n    return x\n",
     "UndefinedShapeVar", "TS-5.1", 2},
    {"@R.function\ndef f(x: R.Tensor((n,))):\n    return x\n", "UnknownName", "TS-1", 2},
    {"@R.function\ndef f(x: R.Tensor((\"n\",))):\n    n = T.int32()\n    return x\n",
     "ShapeVarDType", "TS-4.2", 3},
    {FN("    m = T.int32()\n    y = R.match_cast(x, R.Tensor((m,)))\n    return y\n"),
     "ShapeVarDType", "TS-4.2", 4},
    /* bindings */
    {FN("    a = b = x\n    return a\n"), "ChainedAssign", "TS-4.1", 3},
    {FN("    x[0] = x\n    return x\n"), "BadAssignTarget", "TS-4.1", 3},
    {FN("    a, b = x, x, x\n    return a\n"), "BadAssignTarget", "TS-4.1", 3},
    {FN("    a: R.Tensor((2,), \"float32\") = R.match_cast(x, R.Tensor((3,), \"float32\"))\n    "
        "return a\n"),
     "MatchCastAnnotation", "TS-4.3", 3},
    {FN("    x += x\n    return x\n"), "UnsupportedSyntax", "PY-1", 3},
    {FN("    for i in range(3):\n        pass\n    return x\n"), "UnsupportedSyntax", "PY-1", 3},
    {FN("    return y\n"), "UnknownName", "TS-1", 3},
    {FN("    return T.foo(1)\n"), "UnknownName", "TS-1", 3},
    /* dataflow */
    {FN("    R.output(x)\n    return x\n"), "OutputOutsideDataflow", "TS-4.4", 3},
    {FN("    with R.dataflow():\n        y = x\n        R.output(y)\n        R.output(y)\n    "
        "return y\n"),
     "DuplicateOutput", "TS-4.4", 6},
    {FN("    with R.dataflow():\n        y = x\n        R.output(y)\n        z = y\n    return "
        "y\n"),
     "BindingAfterOutput", "TS-4.4", 6},
    {FN("    with R.dataflow():\n        y = x\n        R.output(x)\n    return y\n"),
     "OutputForeignVar", "TS-4.4", 5},
    {FN("    with R.dataflow():\n        y = x\n        R.output()\n    return y\n"), "UnknownName",
     "TS-1", 6},
    {FN("    with R.dataflow() as d:\n        y = x\n    return x\n"), "BadWith", "TS-4.4", 3},
    {FN("    with T.block():\n        y = x\n    return x\n"), "BadWith", "TS-4.4", 3},
    {FN("    with R.dataflow():\n        with R.dataflow():\n            y = x\n    return x\n"),
     "BadWith", "TS-4.4", 4},
    {FN("    with R.dataflow():\n        if x:\n            y = x\n        else:\n            y = "
        "x\n    return x\n"),
     "IfInDataflow", "WF-7", 4},
    /* if/else */
    {FN("    if x:\n        y = x\n    return x\n"), "MissingElse", "TS-4.5", 3},
    {FN("    if x:\n        y = x\n    else:\n        z = x\n    return x\n"), "IfBranchMismatch",
     "TS-4.5", 6},
    {FN("    if x:\n        y = x\n    else:\n        return x\n    return x\n"),
     "IfBranchMismatch", "TS-4.5", 6},
    {FN("    if x:\n        y: R.Tensor = x\n    else:\n        y: R.Object = x\n    return y\n"),
     "IfBranchMismatch", "TS-4.5", 6},
    {FN("    if x:\n        a = x\n        y = a\n    else:\n        y = x\n    return a\n"),
     "UnknownName", "TS-1", 8},
    /* expressions */
    {FN("    return x % x\n"), "PythonModOperator", "TS-6", 3},
    {FN("    return x + 1\n"), "PythonNumberOperand", "TS-6", 3},
    {FN("    return 2.0 * x\n"), "PythonNumberOperand", "TS-6", 3},
    {FN("    return x == x\n"), "BadExpression", "TS-6", 3},
    {FN("    return x and x\n"), "BadExpression", "TS-6", 3},
    {FN("    return {\"a\": x}\n"), "BadExpression", "TS-6", 3},
    {FN("    return R.Tensor\n"), "BadExpression", "TS-6", 3},
    {FN("    return R.const([[1, 2], [3]])\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(1.5, \"int32\")\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(300, \"int8\")\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(-1, \"uint8\")\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(2, \"bool\")\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(dtype=\"int32\")\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(x)\n"), "BadConst", "TS-6", 3},
    {FN("    return R.const(1, \"int3x\")\n"), "BadDType", "TS-3.1", 3},
    {FN("    return R.dtype(\"nope\")\n"), "BadDType", "TS-3.1", 3},
    {FN("    y = R.match_cast(x)\n    return y\n"), "BadArguments", "TS-7", 3},
    {FN("    return R.match_cast(x, R.Tensor)\n"), "BadArguments", "TS-7", 3},
    {FN("    y = (x, x)\n    return y[-1]\n"), "BadArguments", "TS-7", 4},
    {FN("    y = (x, x)\n    i = 0\n    return y[i]\n"), "BadArguments", "TS-7", 5},
    {FN("    return R.call_tir(x, (x,))\n"), "BadArguments", "TS-7", 3},
    {FN("    return R.call_tir_inplace(x, R.tuple(x, x), 0, R.Tensor((2,), \"float32\"))\n"),
     "BadArguments", "TS-7", 3},
    {FN("    return R.call_tir(x, (x,), R.Tensor, 1, 2)\n"), "BadArguments", "TS-7", 3},
    {FN("    return R.call_tir(x, (x,), R.Tensor, tirvars=(1,))\n"), "UnknownKeyword", "TS-3", 3},
    {FN("    return R.call_pure_packed(\"f\", x, sinfo_args=R.Tensor, foo=1)\n"), "UnknownKeyword",
     "TS-3", 3},
    {FN("    return R.call_inplace_packed(\"f\", x, sinfo_args=R.Tensor)\n"), "BadArguments",
     "TS-7", 3},
    {FN("    return R.shape(4)\n"), "BadArguments", "TS-7", 3},
    {FN("    return R.str(1)\n"), "BadArguments", "TS-7", 3},
    {FN("    return R.make_closure(x)\n"), "BadArguments", "TS-7", 3},
};

static void test_errors(void)
{
    for (volatile size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        ErrorTrap trap;
        if (setjmp(trap.jmp) == 0) {
            script_parse("test.py", error_cases[i].text, &trap);
            fprintf(stderr, "\ncase %zu: expected %s, got success\n", i, error_cases[i].code);
            CU_FAIL("no error");
            continue;
        }
        script_fixture_expect_error(error_cases[i].text, error_cases[i].code, error_cases[i].rule,
                                    error_cases[i].line);
        if (strcmp(trap.error.code, error_cases[i].code) != 0)
            fprintf(stderr, "  (case %zu)\n", i);
    }
}

/* Errors of the Python layer pass through with their own codes. */
static void test_python_errors(void)
{
    script_fixture_expect_error(FN("    return (x\n"), "SyntaxError", "PY-1", 0);
    script_fixture_expect_error(FN("    return x $ x\n"), "BadToken", "PY-1", 0);
}

UNIT_SUITE(script_errors)
{
    CU_pSuite s = CU_add_suite("script errors", 0, 0);
    CU_add_test(s, "parse errors", test_errors);
    CU_add_test(s, "python errors", test_python_errors);
}
