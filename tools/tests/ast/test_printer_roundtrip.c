/* test_printer_roundtrip: parse -> print -> parse -> print over realistic programs; the
 * printed text is a fixpoint and the reparsed module is alpha-equivalent. SPEC_NOTES:
 * "Canonical printing", "Structural equality". */
#include <stdio.h>
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "tools/tests/unit.h"

static const char prog_dataflow_and_signature_vars[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def add_one(A: T.Buffer((16,), \"float32\"), B: T.Buffer((16,), \"float32\")):\n"
    "        T.func_attr({\"tir.noalias\": True})\n"
    "        for i in range(16):\n"
    "            with T.block(\"compute\"):\n"
    "                vi = T.axis.remap(\"S\", [i])\n"
    "                T.reads(A[vi])\n"
    "                T.writes(B[vi])\n"
    "                B[vi] = A[vi] + T.float32(1)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), s: R.Shape([\"n\", \"m\"]), p: "
    "R.Prim(value=\"k\")) -> R.Tensor((\"n * 2\",), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        cls = Module\n"
    "        with R.dataflow():\n"
    "            lv = R.add(x, x)\n"
    "            lv1 = R.call_tir(cls.add_one, (lv,), out_sinfo=R.Tensor((16,), "
    "dtype=\"float32\"))\n"
    "            gv = R.sum(lv, axis=[1], keepdims=False)\n"
    "            R.output(gv, lv1)\n"
    "        y = R.call_packed(\"f\", gv, sinfo_args=(R.Tensor((n * 2,), \"float32\"),))\n"
    "        return y\n";

static const char prog_tir_and_shadowing[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def matmul(a: T.handle, b: T.handle, c: T.handle):\n"
    "        m = T.int64()\n"
    "        n = T.int64()\n"
    "        k = T.int64()\n"
    "        A = T.match_buffer(a, (m, n))\n"
    "        B = T.match_buffer(b, (n, k))\n"
    "        C = T.match_buffer(c, (m, k))\n"
    "        for i, j, kk in T.grid(m, k, n):\n"
    "            with T.block(\"matmul\"):\n"
    "                vi, vj, vk = T.axis.remap(\"SSR\", [i, j, kk])\n"
    "                with T.init():\n"
    "                    C[vi, vj] = T.float32(0)\n"
    "                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]\n"
    "\n"
    "    @T.prim_func(private=True)\n"
    "    def copy(var_x: T.handle, var_y: T.handle, n: T.int64):\n"
    "        X = T.match_buffer(var_x, (n * 2,), dtype=\"float32\")\n"
    "        Y = T.match_buffer(var_y, (n * 2,), dtype=\"float32\")\n"
    "        for i in range(n * 2):\n"
    "            if i % 2 == 0:\n"
    "                Y[i] = X[i] * T.float32(0.5)\n"
    "            else:\n"
    "                Y[i] = T.max(X[i], T.float32(1e-05))\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", \"m\"), dtype=\"float32\"), y: R.Tensor((\"m\", 4), "
    "dtype=\"float32\")):\n"
    "        n = T.int64()\n"
    "        m = T.int64()\n"
    "        cls = Module\n"
    "        x = R.add(x, x)\n"
    "        x = R.multiply(x, x)\n"
    "        z = R.call_tir(cls.matmul, (x, y), out_sinfo=R.Tensor((n, 4), dtype=\"float32\"))\n"
    "        t = (z, x)\n"
    "        u = t[0]\n"
    "        q = T.int64()\n"
    "        s = R.match_cast(u, R.Tensor((q, 4), \"float32\"))\n"
    "        w: R.Tensor((q, 4), \"float32\") = R.nn.relu(s)\n"
    "        return (u, R.const([[1.5, 2.0], [3.0, 4.0]], \"float32\"), R.const(1e-05, "
    "\"float32\"), R.prim_value(n * 2), R.shape([n, m]), R.str(\"a\\nb\"), R.dtype(\"int8\"))\n";

static const char prog_module_members_and_calls[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    I.module_attrs({\"system_lib_prefix\": \"lib_\", \"n\": 3})\n"
    "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), I.vdevice(\"cuda\", 0), "
    "I.vdevice(\"cuda\", 1, \"global\")]})\n"
    "    ext = R.ExternFunc(\"ext_sym\")\n"
    "\n"
    "    @R.function(private=True)\n"
    "    def helper(x: R.Tensor((2,), \"float16\", vdevice=\"cuda:1\"), f: "
    "R.Callable((R.Tensor((2,), \"float32\"),), R.Tensor((2,), \"float32\"), True)) -> "
    "R.Tuple(R.Tensor((2,), \"float16\"), R.Object):\n"
    "        R.func_attr({\"k\": [1, 2.5, \"s\", None, True], \"d\": {\"b\": 1, \"a\": 2}})\n"
    "        return (x, f)\n"
    "\n"
    "    @R.function(pure=False)\n"
    "    def main(c: R.Tensor((), \"bool\"), x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), "
    "\"float32\"):\n"
    "        cls = Module\n"
    "        @R.function\n"
    "        def inner(a: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "            b = R.add(a, x)\n"
    "            return b\n"
    "        clo = R.make_closure(cls.helper, (x,))\n"
    "        r = R.invoke_closure(clo, (x,), sinfo_args=(R.Object,))\n"
    "        p = R.call_pure_packed(\"my.f\", x, R.const(-3, \"int32\"), R.const(0.1, "
    "\"float16\"), R.const(False, \"bool\"), sinfo_args=(R.Tensor((2,), \"float32\"),))\n"
    "        q = R.call_inplace_packed(\"my.g\", x, inplace_indices=[0], "
    "sinfo_args=(R.Tensor((2,), \"float32\"),))\n"
    "        d = R.call_dps_packed(\"my.h\", (x,), out_sinfo=R.Tensor((2,), \"float32\"))\n"
    "        if c:\n"
    "            y1 = inner(x)\n"
    "            y = R.match_cast(y1, R.Tensor((2,), \"float32\"))\n"
    "        else:\n"
    "            y = R.multiply(x, x)\n"
    "        a, b = (y, y)\n"
    "        e = cls.ext(a)\n"
    "        with R.dataflow():\n"
    "            lv = R.add(a, b)\n"
    "            R.output()\n"
    "        return y\n";

static const char prog_tir_statements[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def f(A: T.Buffer((T.int64(4), T.int64(8)), \"float32\"), B: T.Buffer((T.int64(4),), "
    "\"float32\"), n: T.int32) -> T.int32:\n"
    "        T.func_attr({\"global_symbol\": \"f\", \"tir.noalias\": True})\n"
    "        C = T.alloc_buffer((T.int64(4),), \"float32\", scope=\"shared\")\n"
    "        for i in T.parallel(T.int64(4)):\n"
    "            for j in range(T.int64(2), T.int64(8)):\n"
    "                with T.block(\"red\"):\n"
    "                    vi = T.axis.spatial(T.int64(4), i)\n"
    "                    vj = T.axis.reduce((T.int64(2), T.int64(8)), j)\n"
    "                    T.where(i < T.int64(3))\n"
    "                    T.reads(A[vi, T.int64(0):T.int64(8)])\n"
    "                    T.writes(C[vi])\n"
    "                    T.block_attr({\"meta\": 1})\n"
    "                    with T.init():\n"
    "                        C[vi] = T.float32(0)\n"
    "                    C[vi] = C[vi] + T.exp(A[vi, vj])\n"
    "        for i in T.vectorized(T.int64(4)):\n"
    "            x: T.float32 = C[i] * T.float32(2)\n"
    "            B[i] = T.if_then_else(x > T.float32(0), x, T.Cast(\"float32\", n))\n"
    "        T.evaluate(0)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4, 8), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "        cls = Module\n"
    "        y = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((4,), \"float32\"), "
    "tir_vars=R.shape([3]))\n"
    "        return y\n";

static const char prog_nested_if[] =
    "@R.function\n"
    "def main(c: R.Tensor((), \"bool\"), d: R.Tensor((), \"bool\"), x: R.Tensor((2,), "
    "\"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "    if c:\n"
    "        y = R.add(x, x)\n"
    "    else:\n"
    "        if d:\n"
    "            y = R.multiply(x, x)\n"
    "        else:\n"
    "            y = x\n"
    "    return y\n";

/* Parses `text`, prints it, parses and prints again; asserts the fixpoint and equality. */
static void roundtrip(const char *label, const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "\n%s: %s\n", label, error_format(&trap.error));
        CU_FAIL("parse error");
        return;
    }
    IRModule *m1 = script_parse(label, text, &trap);
    char *p1 = printer_print_module(m1);
    IRModule *m2 = script_parse(label, p1, &trap);
    char *p2 = printer_print_module(m2);
    CU_ASSERT_STRING_EQUAL(p1, p2);
    const char *why = NULL;
    bool same = equal_module_explain(m1, m2, &why);
    CU_ASSERT_TRUE(same);
    if (!same)
        fprintf(stderr, "\n%s: %s\n%s", label, why, p1);
}

static void test_dataflow_and_signature_vars(void)
{
    roundtrip("dataflow_and_signature_vars", prog_dataflow_and_signature_vars);
}

static void test_tir_and_shadowing(void)
{
    roundtrip("tir_and_shadowing", prog_tir_and_shadowing);
}

static void test_module_members_and_calls(void)
{
    roundtrip("module_members_and_calls", prog_module_members_and_calls);
}

static void test_tir_statements(void)
{
    roundtrip("tir_statements", prog_tir_statements);
}

static void test_nested_if(void)
{
    roundtrip("nested_if", prog_nested_if);
}

/* The printed text of a canonical program is the program itself. */
static void test_canonical_is_fixed(void)
{
    static const char text[] =
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tir as T\n"
        "# from tvm.script import relax as R\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> R.Tensor((\"n\", 4), "
        "dtype=\"float32\"):\n"
        "        n = T.int64()\n"
        "        with R.dataflow():\n"
        "            lv = R.add(x, x)\n"
        "            gv: R.Tensor((n, 4), dtype=\"float32\") = R.multiply(lv, lv)\n"
        "            R.output(gv)\n"
        "        return gv\n";
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL(error_format(&trap.error));
        return;
    }
    CU_ASSERT_STRING_EQUAL(printer_print_module(script_parse("t", text, &trap)), text);
}

UNIT_SUITE(printer_roundtrip)
{
    CU_pSuite s = CU_add_suite("printer_roundtrip", 0, 0);
    CU_add_test(s, "dataflow and signature vars", test_dataflow_and_signature_vars);
    CU_add_test(s, "tir and shadowing", test_tir_and_shadowing);
    CU_add_test(s, "module members and calls", test_module_members_and_calls);
    CU_add_test(s, "tir statements", test_tir_statements);
    CU_add_test(s, "nested if", test_nested_if);
    CU_add_test(s, "canonical text is fixed", test_canonical_is_fixed);
}
