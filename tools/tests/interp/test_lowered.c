/* test_lowered: the lowered IR's values (storage, views), operators (allocation, kill, view,
 * inspect) and TVM's call_tir checks, on the internal functions and on small programs.
 * SPEC_NOTES: "The lowered IR" (LOW-*), "StructInfo" (CALLTIR-*). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops.h"
#include "interp/structinfo/sinfo_check.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

/* ---- values ------------------------------------------------------------------------------ */

static void test_tensor_view_aliases(void)
{
    int32_t *bytes = mem_alloc_atomic(16);
    memset(bytes, 0, 16);
    int64_t four = 4, two = 2;
    Tensor *whole = tensor_view(bytes, 0, dtype_int32(), 1, &four);
    Tensor *tail = tensor_view(bytes, 8, dtype_int32(), 1, &two);
    CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tail);
    CU_ASSERT_EQUAL(tail->byte_offset, 8);
    CU_ASSERT_EQUAL(whole->byte_offset, 0);
    tensor_set_i64(tail, 1, 42);
    CU_ASSERT_EQUAL(tensor_get_i64(whole, 3), 42);
    CU_ASSERT_EQUAL(bytes[3], 42);
    /* a fresh tensor and a copy have offset 0 */
    CU_ASSERT_EQUAL(tensor_copy(tail)->byte_offset, 0);
    CU_ASSERT_EQUAL(tensor_get_i64(tensor_copy(tail), 1), 42);
}

static void test_storage_value(void)
{
    Storage *s = MEM_NEW(Storage);
    s->nbytes = 8;
    Value *v = value_storage(s);
    CU_ASSERT_EQUAL(v->kind, VAL_OBJECT);
    CU_ASSERT_STRING_EQUAL(v->u.object.name, "relax.Storage");
    CU_ASSERT_PTR_EQUAL(v->u.object.storage, s);
    CU_ASSERT_FALSE(v->killed);
    CU_ASSERT_PTR_NULL(value_object("x")->u.object.storage);
}

/* ---- the registry ------------------------------------------------------------------------ */

static void test_registry_purity(void)
{
    static const char *const impure[] = {"relax.memory.kill_storage", "relax.memory.kill_tensor",
                                         "relax.vm.kill_object", "relax.vm.call_tir_dyn",
                                         "relax.call_builtin_with_ctx"};
    static const char *const pure[] = {
        "relax.memory.alloc_storage",      "relax.memory.alloc_tensor",
        "relax.vm.alloc_storage",          "relax.vm.alloc_tensor",
        "relax.builtin.alloc_tensor",      "relax.memory.view",
        "relax.memory.ensure_zero_offset", "relax.builtin.stop_lift_params",
        "relax.inspect.tensor_ndim",       "relax.inspect.tensor_elem_offset"};
    for (size_t i = 0; i < sizeof impure / sizeof impure[0]; i++) {
        const OpImpl *op = ops_lookup(impure[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(op);
        CU_ASSERT_FALSE(op->pure);
        CU_ASSERT_PTR_NOT_NULL(op->kernel);
    }
    for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++) {
        const OpImpl *op = ops_lookup(pure[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(op);
        CU_ASSERT_TRUE(op->pure);
        CU_ASSERT_PTR_NOT_NULL(op->infer);
        CU_ASSERT_PTR_NOT_NULL(op->kernel);
    }
}

/* ---- programs ------------------------------------------------------------------------------ */

typedef struct Outcome {
    Value *result;
    const char *code;
    const char *rule;
    const char *message;
} Outcome;

static Outcome run_main(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        Outcome o = {NULL, trap.error.code, trap.error.rule ? trap.error.rule : "",
                     trap.error.message};
        return o;
    }
    Interp *in = MEM_NEW(Interp);
    IRModule *mod = script_parse("t.py", src, &trap);
    InterpOptions opt;
    interp_options_default(&opt);
    interp_init(in, mod, &opt, &trap);
    Outcome o = {interp_run_entry(in, "main", NULL, 0), "", "", ""};
    return o;
}

#define STORAGE16                                                                                  \
    "    s: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str(\"global\"), " \
    "R.dtype(\"uint8\"))\n"

static void test_alloc_tensor_aliasing(void)
{
    Outcome o = run_main("@R.function(pure=False)\n"
                         "def main():\n" STORAGE16
                         "    a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), "
                         "R.dtype(\"int32\"))\n"
                         "    b = R.memory.alloc_tensor(s, R.prim_value(12), R.shape([1]), "
                         "R.dtype(\"int32\"))\n"
                         "    u = R.call_packed(\"spectest.add_one_inplace\", b, "
                         "sinfo_args=R.Tuple)\n"
                         "    return a\n");
    CU_ASSERT_STRING_EQUAL(o.code, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.result);
    CU_ASSERT_EQUAL(o.result->kind, VAL_TENSOR);
    CU_ASSERT_EQUAL(tensor_get_i64(o.result->u.tensor, 0), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(o.result->u.tensor, 3), 1);
}

static void test_kill_errors(void)
{
    Outcome o = run_main("@R.function(pure=False)\n"
                         "def main():\n" STORAGE16 "    R.memory.kill_storage(s)\n"
                         "    a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), "
                         "R.dtype(\"int32\"))\n"
                         "    return a\n");
    CU_ASSERT_STRING_EQUAL(o.code, "UseAfterKill");
    CU_ASSERT_STRING_EQUAL(o.rule, "LOW-kill");
    o = run_main("@R.function(pure=False)\n"
                 "def main():\n" STORAGE16
                 "    a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), "
                 "R.dtype(\"int32\"))\n"
                 "    R.memory.kill_storage(s)\n"
                 "    return a\n");
    CU_ASSERT_STRING_EQUAL(o.code, "");
}

/* A storage argument that turns out not to be one names the argument, counted from 1, and
 * the kind it is. */
static void test_storage_argument_message(void)
{
    Outcome o = run_main("@R.function(pure=False)\n"
                         "def main():\n"
                         "    t = R.zeros(R.shape([4]), R.dtype(\"uint8\"))\n"
                         "    s: R.Object = t\n"
                         "    a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), "
                         "R.dtype(\"int32\"))\n"
                         "    return a\n");
    CU_ASSERT_STRING_EQUAL(o.code, "OpPrecondition");
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.message, "argument 1 must be a storage, got a tensor"));
}

static void test_bounds_errors(void)
{
    Outcome o = run_main("@R.function\n"
                         "def main():\n" STORAGE16
                         "    a = R.memory.alloc_tensor(s, R.prim_value(4), R.shape([4]), "
                         "R.dtype(\"int32\"))\n"
                         "    return a\n");
    CU_ASSERT_STRING_EQUAL(o.code, "StorageBounds");
    o = run_main("@R.function\n"
                 "def main():\n" STORAGE16
                 "    a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), "
                 "R.dtype(\"int32\"))\n"
                 "    v = R.memory.view(a, R.shape([2]), R.dtype(\"int64\"), R.prim_value(8))\n"
                 "    return v\n");
    CU_ASSERT_STRING_EQUAL(o.code, "ViewBounds");
    CU_ASSERT_STRING_EQUAL(o.rule, "LOW-view");
}

static void test_inspect_run_time(void)
{
    Outcome o = run_main("@R.function\n"
                         "def main():\n" STORAGE16
                         "    a = R.memory.alloc_tensor(s, R.prim_value(8), R.shape([2]), "
                         "R.dtype(\"int16\"))\n"
                         "    e = R.inspect.tensor_elem_offset(a)\n"
                         "    return e\n");
    CU_ASSERT_STRING_EQUAL(o.code, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.result);
    CU_ASSERT_EQUAL(o.result->kind, VAL_PRIM);
    CU_ASSERT_EQUAL(o.result->u.prim.i, 4); /* 8 bytes / 2 bytes per int16 */
}

/* The message of the error an operator's kernel raises on nargs arguments (each an empty
 * tuple), or "" when it raises none: for calls only the ast: form can write. */
static const char *kernel_message(const char *op_name, int nargs)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return trap.error.message ? trap.error.message : "";
    IRModule *mod = script_parse("t.py", "@R.function\ndef main():\n    return R.tuple()\n", &trap);
    Interp *in = MEM_NEW(Interp);
    InterpOptions opt;
    interp_options_default(&opt);
    interp_init(in, mod, &opt, &trap);
    Value *args[2] = {value_tuple(NULL, 0), value_tuple(NULL, 0)};
    Expr *call = expr_call(expr_op(op_name, span_none()), MEM_ARRAY(Expr *, 1), 0, span_none());
    ops_lookup(op_name)->kernel(in, call, args, nargs);
    return "";
}

/* LOW-call_builtin_with_ctx has no static arity check (TVMScript always writes the argument
 * tuple), so a short call stops at run time naming the missing argument, counted from 1. */
static void test_builtin_with_ctx_missing_argument(void)
{
    CU_ASSERT_PTR_NOT_NULL(
        strstr(kernel_message("relax.call_builtin_with_ctx", 0), "argument 1 is missing"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(kernel_message("relax.call_builtin_with_ctx", 1), "argument 2 is missing"));
}

/* ---- static checks ------------------------------------------------------------------------- */

static const char *first_error(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return "";
    }
    IRModule *mod = script_parse("t.py", src, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    sinfo_check_module(mod, &errors, &warnings);
    const Error *e = diag_first(&errors);
    return e ? e->code : "";
}

#define COPY_PRIMFUNC                                                                              \
    "@I.ir_module\n"                                                                               \
    "class Module:\n"                                                                              \
    "    @T.prim_func\n"                                                                           \
    "    def copy(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"              \
    "        for i in range(4):\n"                                                                 \
    "            B[i] = A[i]\n"                                                                    \
    "\n"                                                                                           \
    "    @R.function\n"

static void test_call_tir_checks(void)
{
    CU_ASSERT_STRING_EQUAL(first_error(COPY_PRIMFUNC
                                       "    def main(x: R.Tensor((4,), \"float32\")):\n"
                                       "        y = R.call_tir(Module.copy, (x,), "
                                       "out_sinfo=R.Tensor((4,), \"float32\"))\n"
                                       "        return y\n"),
                           "");
    CU_ASSERT_STRING_EQUAL(first_error(COPY_PRIMFUNC "    def main(x: R.Tensor((4,), \"int8\")):\n"
                                                     "        y = R.call_tir(Module.copy, (x,), "
                                                     "out_sinfo=R.Tensor((4,), \"float32\"))\n"
                                                     "        return y\n"),
                           "CallTirArgument");
    CU_ASSERT_STRING_EQUAL(first_error(COPY_PRIMFUNC
                                       "    def main(x: R.Tensor((4,), \"float32\")):\n"
                                       "        y = R.call_tir(Module.copy, (x,), "
                                       "out_sinfo=R.Tensor((5,), \"float32\"))\n"
                                       "        return y\n"),
                           "CallTirOutSinfo");
    CU_ASSERT_STRING_EQUAL(first_error(COPY_PRIMFUNC
                                       "    def main(x: R.Tensor((4,), \"float32\")):\n"
                                       "        y = R.call_tir_inplace(Module.copy, (x,), "
                                       "inplace_indices=[0, 0], out_sinfo=[R.Tensor((4,), "
                                       "\"float32\"), R.Tensor((4,), \"float32\")])\n"
                                       "        return y\n"),
                           "CallTirInplaceIndex");
    CU_ASSERT_STRING_EQUAL(first_error(COPY_PRIMFUNC
                                       "    def main(x: R.Tensor((4,), \"float32\")):\n"
                                       "        y = R.call_tir_inplace(Module.copy, (x,), "
                                       "inplace_indices=[0, -1], out_sinfo=[R.Tensor((4,), "
                                       "\"float16\"), R.Tensor((4,), \"float32\")])\n"
                                       "        return y\n"),
                           "CallTirInplaceAlias");
}

/* SI-PRIMFUNC: int32 buffer dims are casts that bind nothing; a bare handle is an Object. */
static void test_primfunc_signature(void)
{
    CU_ASSERT_STRING_EQUAL(
        first_error("@I.ir_module\n"
                    "class Module:\n"
                    "    @T.prim_func\n"
                    "    def f(a: T.handle, b: T.handle):\n"
                    "        n = T.int32()\n"
                    "        A = T.match_buffer(a, (n,))\n"
                    "        B = T.match_buffer(b, (n,))\n"
                    "        for i in range(n):\n"
                    "            B[i] = A[i]\n"
                    "\n"
                    "    @R.function\n"
                    "    def main(x: R.Tensor((4,), \"float32\"), s: R.Shape([\"m\"])):\n"
                    "        m = T.int64()\n"
                    "        y = R.call_tir(Module.f, (x,), "
                    "out_sinfo=R.Tensor((m,), \"float32\"))\n"
                    "        return y\n"),
        "");
    CU_ASSERT_STRING_EQUAL(first_error("@I.ir_module\n"
                                       "class Module:\n"
                                       "    @T.prim_func\n"
                                       "    def f(a: T.handle):\n"
                                       "        T.evaluate(0)\n"
                                       "\n"
                                       "    @R.function(pure=False)\n"
                                       "    def main(x: R.Tensor((4,), \"float32\")):\n"
                                       "        cls = Module\n"
                                       "        cls.f(x)\n"
                                       "        return x\n"),
                           "");
}

/* A dtype string in a dtype parameter reads as R.dtype (OPP_ARG_DTYPE). */
static void test_dtype_string_argument(void)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return;
    }
    IRModule *mod = script_parse("t.py",
                                 "@R.function\n"
                                 "def main(x: R.Tensor((4,), \"float32\")):\n"
                                 "    v = R.memory.view(x, dtype=\"uint8\")\n"
                                 "    return v\n",
                                 &trap);
    char *text = printer_print_module(mod);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "R.memory.view(x, R.tuple(), R.dtype(\"uint8\"), R.tuple())"));
}

UNIT_SUITE(lowered)
{
    CU_pSuite s = CU_add_suite("lowered", NULL, NULL);
    CU_add_test(s, "tensor views alias", test_tensor_view_aliases);
    CU_add_test(s, "storage value", test_storage_value);
    CU_add_test(s, "registry purity", test_registry_purity);
    CU_add_test(s, "alloc_tensor aliasing", test_alloc_tensor_aliasing);
    CU_add_test(s, "kill errors", test_kill_errors);
    CU_add_test(s, "bounds errors", test_bounds_errors);
    CU_add_test(s, "a storage argument that is none names itself", test_storage_argument_message);
    CU_add_test(s, "inspect at run time", test_inspect_run_time);
    CU_add_test(s, "call_builtin_with_ctx missing argument",
                test_builtin_with_ctx_missing_argument);
    CU_add_test(s, "call_tir checks", test_call_tir_checks);
    CU_add_test(s, "PrimFunc signature", test_primfunc_signature);
    CU_add_test(s, "dtype string argument", test_dtype_string_argument);
}
