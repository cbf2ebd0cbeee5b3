/* test_legacy: the legacy reader: which forms switch `--syntax auto`, each rewrite against
 * the same program written in today's syntax (alpha-equal modules), and every Legacy* error
 * code. SPEC_NOTES: "Legacy syntax" (LEG-*). */
#include <setjmp.h>
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/legacy/legacy.h"
#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "ast/text/py_parser.h"
#include "tools/tests/unit.h"

/* The first legacy form of `text`, or "" when none. */
static const char *detected(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return "<parse error>";
    PyBody top = py_parse_file("t.py", text, &trap);
    LegacyForm f;
    return legacy_detect(&top, &f) ? mem_printf("%s@%d:%d", f.name, f.span.line, f.span.col) : "";
}

static void test_detect(void)
{
    CU_ASSERT_STRING_EQUAL(
        detected("@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n    return x\n"), "");
    CU_ASSERT_STRING_EQUAL(
        detected("@R.function\ndef f(x: R.Tensor[(2,), \"float32\"]):\n    return x\n"),
        "R.Tensor[...]@2:10");
    CU_ASSERT_STRING_EQUAL(detected("@R.function\ndef f(x: Tensor):\n    return x\n"),
                           "Tensor@2:10");
    CU_ASSERT_STRING_EQUAL(
        detected("@R.function\ndef f(x):\n    y = R.match_shape(x, (n,))\n    return y\n"),
        "R.match_shape@3:9");
    CU_ASSERT_STRING_EQUAL(
        detected("@R.function\ndef f(x):\n    y = R.call_tir(g, (x,), (2,), dtype=\"f\")\n"),
        "R.call_tir(func, args, shape, dtype=...)@3:9");
    CU_ASSERT_STRING_EQUAL(
        detected("@R.function\ndef f(x):\n    y = R.call_tir(g, (x,), out_sinfo=R.Tensor((2,)))\n"),
        "");
    /* @R.func alone stays today's reader's typo. */
    CU_ASSERT_STRING_EQUAL(detected("@R.func\ndef f(x):\n    return x\n"), "");
    CU_ASSERT_STRING_EQUAL(
        detected("@I.ir_module\nclass M:\n    @T.prim_func\n    def g(a: T.handle):\n"
                 "        n = T.var(\"int64\")\n"),
        "T.var@5:13");
}

static void test_modes(void)
{
    SyntaxMode m;
    CU_ASSERT_TRUE(legacy_syntax_mode_parse("legacy", &m) && m == SYNTAX_LEGACY);
    CU_ASSERT_TRUE(legacy_syntax_mode_parse("current", &m) && m == SYNTAX_CURRENT);
    CU_ASSERT_TRUE(legacy_syntax_mode_parse("auto", &m) && m == SYNTAX_AUTO);
    CU_ASSERT_FALSE(legacy_syntax_mode_parse("old", &m));
}

static void test_unparse_dim(void)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("parse error");
        return;
    }
    PyExpr *e = py_parse_expr("t.py", "n * (m + 1) // 2 - -k", span_make("t.py", 1, 1), &trap);
    CU_ASSERT_STRING_EQUAL(lpy_unparse_dim(e), "n * (m + 1) // 2 - -k");
    CU_ASSERT_PTR_NULL(
        lpy_unparse_dim(py_parse_expr("t.py", "n ** 2", span_make("t.py", 1, 1), &trap)));
}

/* The legacy text read in `mode` is alpha-equal to `today` read by today's reader. */
static void assert_same(const char *legacy, SyntaxMode mode, const char *today)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return;
    }
    IRModule *a = legacy_parse("legacy.py", legacy, mode, NULL, &trap);
    IRModule *b = script_parse("today.py", today, &trap);
    const char *why = NULL;
    bool same = equal_module_explain(a, b, &why);
    if (!same)
        CU_FAIL(why != NULL ? why : "modules differ");
}

static void test_annotations_and_match(void)
{
    assert_same("@R.function\n"
                "def f(x: R.Tensor[(n, 2), \"float32\"], w: R.Tensor[_, _], s: R.Shape):\n"
                "    y: R.Tensor[(n * 2,), \"float32\"] = R.reshape(x, (n * 2,))\n"
                "    z = R.match_shape(w, (n, m))\n"
                "    t: R.Shape = R.match_shape(s, (m,))\n"
                "    return y\n",
                SYNTAX_AUTO,
                "@R.function\n"
                "def f(x: R.Tensor((\"n\", 2), \"float32\"), w: R.Tensor, s: R.Shape):\n"
                "    n = T.int64()\n"
                "    m = T.int64()\n"
                "    y: R.Tensor((n * 2,), \"float32\") = R.reshape(x, (n * 2,))\n"
                "    z = R.match_cast(w, R.Tensor((n, m)))\n"
                "    t = R.match_cast(s, R.Shape([m]))\n"
                "    return y\n");
}

static void test_calls(void)
{
    assert_same("@I.ir_module\nclass M:\n"
                "    @T.prim_func\n"
                "    def g(a: T.handle, b: T.handle):\n"
                "        n, k = T.var(\"int64\"), T.var(\"int32\")\n"
                "        A = T.match_buffer(a, (n,))\n"
                "        B = T.match_buffer(b, (n,))\n"
                "        for i in range(n):\n"
                "            B[i] = A[i]\n"
                "    @R.func\n"
                "    def f(x: R.Tensor[(n,), \"float32\"]):\n"
                "        with R.dataflow():\n"
                "            s: R.Shape = (n,)\n"
                "            y = R.call_tir(g, [x], s, dtype=\"float32\")\n"
                "            z = R.dot(y, y)\n"
                "            R.outputs(y, z)\n"
                "        R.call_packed(\"p\", y)\n"
                "        u = R.call_packed(\"q\", y, type_args=R.Tensor[_, \"int8\"])\n"
                "        return z\n",
                SYNTAX_LEGACY,
                "@I.ir_module\nclass M:\n"
                "    @T.prim_func\n"
                "    def g(a: T.handle, b: T.handle):\n"
                "        n = T.int64()\n"
                "        k = T.int32()\n"
                "        A = T.match_buffer(a, (n,))\n"
                "        B = T.match_buffer(b, (n,))\n"
                "        for i in range(n):\n"
                "            B[i] = A[i]\n"
                "    @R.function(pure=False)\n"
                "    def f(x: R.Tensor((\"n\",), \"float32\")):\n"
                "        n = T.int64()\n"
                "        with R.dataflow():\n"
                "            s: R.Shape = R.shape([n])\n"
                "            y = R.call_tir(M.g, (x,), out_sinfo=R.Tensor((n,), \"float32\"))\n"
                "            z = R.matmul(y, y)\n"
                "            R.output(y, z)\n"
                "        R.call_packed(\"p\", y, sinfo_args=R.Tuple)\n"
                "        u = R.call_packed(\"q\", y, sinfo_args=R.Tensor(dtype=\"int8\"))\n"
                "        return z\n");
}

static void assert_legacy_error(const char *text, const char *code, const char *rule)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        legacy_parse("t.py", text, SYNTAX_LEGACY, NULL, &trap);
        CU_FAIL(mem_printf("no error, expected %s", code));
        return;
    }
    CU_ASSERT_EQUAL(trap.error.phase, PHASE_PARSE);
    CU_ASSERT_STRING_EQUAL(trap.error.code, code);
    CU_ASSERT_STRING_EQUAL(trap.error.rule, rule);
}

#define FN "@R.function\ndef f(x: R.Tensor[_, \"float32\"]):\n"

static void test_errors(void)
{
    assert_legacy_error("@R.function\ndef f(x: R.Tensor[(2,), float32]):\n    return x\n",
                        "LegacyTensorType", "LEG-2");
    assert_legacy_error("@R.function\ndef f(x: R.Tensor[(n ** 2,), \"f\"]):\n    return x\n",
                        "LegacyShape", "LEG-3");
    assert_legacy_error(FN "    y = R.call_packed(\"p\", x)\n    z = R.match_shape(y, (n,))\n",
                        "LegacyMatchShape", "LEG-5");
    assert_legacy_error(FN "    y = R.add(R.match_shape(x, (n,)), x)\n", "LegacyMatchShape",
                        "LEG-5");
    assert_legacy_error(FN "    y = R.call_tir(\"g\", (x,), (2,))\n", "LegacyCallTir", "LEG-6");
    assert_legacy_error(FN "    y = R.call_tir(\"g\", (x,), x, dtype=\"f\")\n", "LegacyCallTir",
                        "LEG-6");
    assert_legacy_error(FN "    y = R.read_tensor_from_file(\"t.txt\")\n", "LegacyUnsupported",
                        "LEG-9");
    assert_legacy_error("@I.ir_module\nclass M:\n    @T.prim_func\n    def g(a: T.handle):\n"
                        "        n = T.var(\"n\")\n",
                        "LegacyTVar", "LEG-13");
    /* --syntax current leaves legacy forms to today's reader. */
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        legacy_parse("t.py", FN "    y = R.match_shape(x, (n,))\n    return y\n", SYNTAX_CURRENT,
                     NULL, &trap);
        CU_FAIL("R.match_shape read by today's reader");
    } else {
        CU_ASSERT_EQUAL(trap.error.phase, PHASE_PARSE);
    }
}

UNIT_SUITE(legacy)
{
    CU_pSuite s = CU_add_suite("legacy", NULL, NULL);
    CU_add_test(s, "legacy forms detected", test_detect);
    CU_add_test(s, "syntax modes", test_modes);
    CU_add_test(s, "dims unparsed for signatures", test_unparse_dim);
    CU_add_test(s, "annotations and match_shape", test_annotations_and_match);
    CU_add_test(s, "call_tir, call_packed, dot, outputs, T.var", test_calls);
    CU_add_test(s, "Legacy* errors", test_errors);
}
