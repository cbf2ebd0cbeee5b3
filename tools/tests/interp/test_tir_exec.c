/* test_tir_exec: the TIR interpreter on PrimFuncs parsed from TVMScript, called on tensors.
 * SPEC_NOTES: "TIR semantics" (TIR-ARGS, TIR-BOUNDS, TIR-LOOP, TIR-BLOCK, TIR-INIT, ...). */
#include <setjmp.h>
#include <string.h>

#include "ast/script/script.h"
#include "interp/eval/interp.h"
#include "interp/tir/tir_exec.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

/* ---- helpers ------------------------------------------------------------------------ */

typedef struct Outcome {
    Value *result;    /* NULL on error */
    const char *code; /* "" on success */
    const char *rule;
} Outcome;

/* Parses `src` (a module body of PrimFuncs), then calls `name` on the arguments with the
 * given fuel (0: the default). */
static Outcome call_fuel(const char *src, const char *name, Value **args, int nargs, int64_t fuel)
{
    ErrorTrap trap;
    Interp in;
    if (setjmp(trap.jmp) != 0) {
        Outcome bad = {NULL, trap.error.code, trap.error.rule};
        return bad;
    }
    const char *text = mem_printf("@I.ir_module\nclass Module:\n%s", src);
    IRModule *mod = script_parse("t.py", text, &trap);
    ModuleFunc *mf = module_lookup(mod, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_EQUAL_FATAL(mf->kind, MODFUNC_PRIM);
    InterpOptions opt;
    interp_options_default(&opt);
    if (fuel > 0)
        opt.fuel = fuel;
    interp_init(&in, mod, &opt, &trap);
    Outcome ok = {tir_exec_call(&in, mf->u.prim, args, nargs, mf->span), "", NULL};
    return ok;
}

static Outcome call(const char *src, const char *name, Value **args, int nargs)
{
    return call_fuel(src, name, args, nargs, 0);
}

static void expect_ok(Outcome o)
{
    if (o.code[0])
        fprintf(stderr, "unexpected error %s %s\n", o.code, o.rule ? o.rule : "");
    CU_ASSERT_STRING_EQUAL(o.code, "");
}

static void expect_error(Outcome o, const char *code, const char *rule)
{
    CU_ASSERT_STRING_EQUAL(o.code, code);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.rule);
    CU_ASSERT_STRING_EQUAL(o.rule, rule);
}

static DataType dt(const char *name)
{
    DataType t;
    CU_ASSERT_FATAL(dtype_parse(name, &t));
    return t;
}

static Value *tensor_ints(const char *dtype, int ndim, const int64_t *shape, const int64_t *data)
{
    Tensor *t = tensor_new(dt(dtype), ndim, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    if (data)
        tensor_write_i64(t, data);
    return value_tensor(t);
}

static Value *tensor_floats(const char *dtype, int ndim, const int64_t *shape, const double *data)
{
    Tensor *t = tensor_new(dt(dtype), ndim, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    if (data)
        tensor_write_f64(t, data);
    return value_tensor(t);
}

static Value *vec_ints(const char *dtype, int64_t n, const int64_t *data)
{
    return tensor_ints(dtype, 1, &n, data);
}

static Value *vec_floats(const char *dtype, int64_t n, const double *data)
{
    return tensor_floats(dtype, 1, &n, data);
}

static void assert_ints(const Value *v, const int64_t *want, int64_t n)
{
    CU_ASSERT_EQUAL_FATAL(tensor_numel(v->u.tensor), n);
    for (int64_t i = 0; i < n; i++) {
        int64_t got = tensor_get_i64(v->u.tensor, i);
        if (got != want[i])
            fprintf(stderr, "element %ld: got %ld, want %ld\n", (long)i, (long)got, (long)want[i]);
        CU_ASSERT_EQUAL(got, want[i]);
    }
}

static void assert_floats(const Value *v, const double *want, int64_t n)
{
    CU_ASSERT_EQUAL_FATAL(tensor_numel(v->u.tensor), n);
    for (int64_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(tensor_get_f64(v->u.tensor, i), want[i]);
}

static bool is_unit(const Value *v)
{
    return v && v->kind == VAL_TUPLE && v->u.tuple.n == 0;
}

/* ---- elementwise kernels ------------------------------------------------------------ */

static const char *const ADD_ONE =
    "    @T.prim_func\n"
    "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "        T.func_attr({\"tir.noalias\": True})\n"
    "        for i in range(4):\n"
    "            with T.block(\"compute\"):\n"
    "                vi = T.axis.remap(\"S\", [i])\n"
    "                T.reads(A[vi])\n"
    "                T.writes(B[vi])\n"
    "                B[vi] = A[vi] + T.float32(1)\n";

static void test_add_one(void)
{
    double a[] = {1.5, -2, 0, 100};
    Value *args[] = {vec_floats("float32", 4, a), vec_floats("float32", 4, NULL)};
    Outcome o = call(ADD_ONE, "add_one", args, 2);
    expect_ok(o);
    CU_ASSERT(is_unit(o.result));
    double want[] = {2.5, -1, 1, 101};
    assert_floats(args[1], want, 4);
    assert_floats(args[0], a, 4); /* the input is untouched */
}

static void test_arity_and_arg_kinds(void)
{
    double a[] = {1, 2, 3, 4};
    Value *one[] = {vec_floats("float32", 4, a)};
    expect_error(call(ADD_ONE, "add_one", one, 1), "Arity", "E-12");
    Value *wrong_dtype[] = {vec_floats("float32", 4, a), vec_floats("float64", 4, NULL)};
    expect_error(call(ADD_ONE, "add_one", wrong_dtype, 2), "TirArgMismatch", "TIR-ARGS");
    int64_t shape[] = {2, 2};
    Value *wrong_ndim[] = {tensor_floats("float32", 2, shape, a), vec_floats("float32", 4, NULL)};
    expect_error(call(ADD_ONE, "add_one", wrong_ndim, 2), "TirArgMismatch", "TIR-ARGS");
    Value *wrong_dim[] = {vec_floats("float32", 4, a), vec_floats("float32", 5, NULL)};
    expect_error(call(ADD_ONE, "add_one", wrong_dim, 2), "TirArgMismatch", "TIR-ARGS");
    Value *not_tensor[] = {value_prim_float(dtype_float32(), 1), vec_floats("float32", 4, NULL)};
    expect_error(call(ADD_ONE, "add_one", not_tensor, 2), "TirArgMismatch", "TIR-ARGS");
}

/* ---- matmul: grid, remap, init, symbolic shapes --------------------------------------- */

static const char *const MATMUL = "    @T.prim_func\n"
                                  "    def matmul(a: T.handle, b: T.handle, c: T.handle):\n"
                                  "        m = T.int64()\n"
                                  "        n = T.int64()\n"
                                  "        k = T.int64()\n"
                                  "        A = T.match_buffer(a, (m, n), \"int32\")\n"
                                  "        B = T.match_buffer(b, (n, k), \"int32\")\n"
                                  "        C = T.match_buffer(c, (m, k), \"int32\")\n"
                                  "        for i, j, kk in T.grid(m, k, n):\n"
                                  "            with T.block(\"matmul\"):\n"
                                  "                vi, vj, vk = T.axis.remap(\"SSR\", [i, j, kk])\n"
                                  "                with T.init():\n"
                                  "                    C[vi, vj] = 0\n"
                                  "                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]\n";

static void test_matmul_init_once(void)
{
    int64_t sa[] = {2, 3}, sb[] = {3, 2}, sc[] = {2, 2};
    int64_t a[] = {1, 2, 3, 4, 5, 6};
    int64_t b[] = {7, 8, 9, 10, 11, 12};
    int64_t garbage[] = {99, 99, 99, 99};
    Value *args[] = {tensor_ints("int32", 2, sa, a), tensor_ints("int32", 2, sb, b),
                     tensor_ints("int32", 2, sc, garbage)};
    expect_ok(call(MATMUL, "matmul", args, 3));
    /* Init once per element: neither 99 + sum (never) nor the last product only (always). */
    int64_t want[] = {58, 64, 139, 154};
    assert_ints(args[2], want, 4);
}

static void test_matmul_symbolic_mismatch(void)
{
    int64_t sa[] = {2, 3}, sb[] = {4, 2}, sc[] = {2, 2}, sc_bad[] = {3, 2};
    Value *args[] = {tensor_ints("int32", 2, sa, NULL), tensor_ints("int32", 2, sb, NULL),
                     tensor_ints("int32", 2, sc, NULL)};
    expect_error(call(MATMUL, "matmul", args, 3), "TirArgMismatch", "TIR-ARGS");
    int64_t sb_ok[] = {3, 2};
    Value *args2[] = {tensor_ints("int32", 2, sa, NULL), tensor_ints("int32", 2, sb_ok, NULL),
                      tensor_ints("int32", 2, sc_bad, NULL)};
    expect_error(call(MATMUL, "matmul", args2, 3), "TirArgMismatch", "TIR-ARGS");
}

/* A reduction with no reduce-kind init guard: sum of rows, T.axis.spatial/reduce. */
static const char *const ROWSUM =
    "    @T.prim_func\n"
    "    def rowsum(A: T.Buffer((2, 3), \"int64\"), B: T.Buffer((2,), \"int64\")):\n"
    "        for i in range(2):\n"
    "            for k in range(3):\n"
    "                with T.block(\"sum\"):\n"
    "                    vi = T.axis.spatial(2, i)\n"
    "                    vk = T.axis.reduce(3, k)\n"
    "                    with T.init():\n"
    "                        B[vi] = T.int64(1000)\n"
    "                    B[vi] += A[vi, vk]\n";

static void test_rowsum_axes(void)
{
    int64_t sa[] = {2, 3};
    int64_t a[] = {1, 2, 3, 10, 20, 30};
    Value *args[] = {tensor_ints("int64", 2, sa, a), vec_ints("int64", 2, NULL)};
    expect_ok(call(ROWSUM, "rowsum", args, 2));
    int64_t want[] = {1006, 1060};
    assert_ints(args[1], want, 2);
}

/* A variable used twice binds on first sight and must agree after; int32 dims work too. */
static const char *const SQUARE =
    "    @T.prim_func\n"
    "    def trace(a: T.handle, out: T.Buffer((1,), \"int32\"), unused: T.handle):\n"
    "        n = T.int32()\n"
    "        A = T.match_buffer(a, (n, n), \"int32\")\n"
    "        for i in range(n):\n"
    "            out[0] = out[0] + A[i, i]\n";

static void test_repeated_dim_var(void)
{
    int64_t s[] = {3, 3}, bad[] = {3, 2};
    int64_t a[] = {1, 0, 0, 0, 2, 0, 0, 0, 3};
    Value *args[] = {tensor_ints("int32", 2, s, a), vec_ints("int32", 1, NULL),
                     vec_floats("float32", 1, NULL)};
    expect_ok(call(SQUARE, "trace", args, 3));
    int64_t want[] = {6};
    assert_ints(args[1], want, 1);
    Value *args2[] = {tensor_ints("int32", 2, bad, NULL), vec_ints("int32", 1, NULL),
                      vec_floats("float32", 1, NULL)};
    expect_error(call(SQUARE, "trace", args2, 3), "TirArgMismatch", "TIR-ARGS");
    /* A handle without a buffer takes any tensor, and nothing else. */
    Value *args3[] = {tensor_ints("int32", 2, s, a), vec_ints("int32", 1, NULL),
                      value_prim_int(dtype_int32(), 0)};
    expect_error(call(SQUARE, "trace", args3, 3), "TirArgMismatch", "TIR-ARGS");
}

/* ---- trailing scalar parameters --------------------------------------------------------- */

static const char *const COPY = "    @T.prim_func\n"
                                "    def copy(var_x: T.handle, var_y: T.handle, n: T.int64):\n"
                                "        X = T.match_buffer(var_x, (n * 2,), \"int32\")\n"
                                "        Y = T.match_buffer(var_y, (n * 2,), \"int32\")\n"
                                "        for i in range(n * 2):\n"
                                "            Y[i] = X[i] + T.int32(n)\n";

static void test_trailing_scalar(void)
{
    int64_t x[] = {1, 2, 3, 4, 5, 6};
    Value *args[] = {vec_ints("int32", 6, x), vec_ints("int32", 6, NULL),
                     value_prim_int(dtype_int64(), 3)};
    expect_ok(call(COPY, "copy", args, 3));
    int64_t want[] = {4, 5, 6, 7, 8, 9};
    assert_ints(args[1], want, 6);
    Value *bad[] = {vec_ints("int32", 6, x), vec_ints("int32", 6, NULL),
                    value_prim_int(dtype_int64(), 2)};
    expect_error(call(COPY, "copy", bad, 3), "TirArgMismatch", "TIR-ARGS");
    Value *not_prim[] = {vec_ints("int32", 6, x), vec_ints("int32", 6, NULL),
                         vec_ints("int64", 1, NULL)};
    expect_error(call(COPY, "copy", not_prim, 3), "TirArgMismatch", "TIR-ARGS");
    Value *float_arg[] = {vec_ints("int32", 6, x), vec_ints("int32", 6, NULL),
                          value_prim_float(dtype_float32(), 3)};
    expect_error(call(COPY, "copy", float_arg, 3), "TirArgMismatch", "TIR-ARGS");
}

/* ---- bounds ----------------------------------------------------------------------------- */

static const char *const OOB =
    "    @T.prim_func\n"
    "    def load_past(A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")):\n"
    "        for i in range(4):\n"
    "            B[i] = A[i + 1]\n"
    "    @T.prim_func\n"
    "    def store_past(A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")):\n"
    "        for i in range(4):\n"
    "            B[i + 1] = A[i]\n"
    "    @T.prim_func\n"
    "    def store_neg(A: T.Buffer((2, 2), \"int32\")):\n"
    "        A[0, -1] = 7\n";

static void test_out_of_bounds(void)
{
    int64_t a[] = {1, 2, 3, 4};
    Value *args[] = {vec_ints("int32", 4, a), vec_ints("int32", 4, NULL)};
    expect_error(call(OOB, "load_past", args, 2), "TirOutOfBounds", "TIR-BOUNDS");
    int64_t partial[] = {2, 3, 4, 0}; /* stores before the failing load happened */
    assert_ints(args[1], partial, 4);
    Value *args2[] = {vec_ints("int32", 4, a), vec_ints("int32", 4, NULL)};
    expect_error(call(OOB, "store_past", args2, 2), "TirOutOfBounds", "TIR-BOUNDS");
    int64_t partial2[] = {0, 1, 2, 3};
    assert_ints(args2[1], partial2, 4);
    /* A negative index in a later dim is not folded into an in-range flat index. */
    int64_t s[] = {2, 2};
    Value *args3[] = {tensor_ints("int32", 2, s, NULL)};
    expect_error(call(OOB, "store_neg", args3, 1), "TirOutOfBounds", "TIR-BOUNDS");
}

/* ---- dtypes at stores ------------------------------------------------------------------- */

static const char *const DTYPES =
    "    @T.prim_func\n"
    "    def wrap8(A: T.Buffer((3,), \"int8\"), B: T.Buffer((3,), \"int8\")):\n"
    "        for i in range(3):\n"
    "            B[i] = A[i] * T.int8(2)\n"
    "    @T.prim_func\n"
    "    def to_u8(A: T.Buffer((2,), \"int32\"), B: T.Buffer((2,), \"uint8\")):\n"
    "        for i in range(2):\n"
    "            B[i] = T.Cast(\"uint8\", A[i])\n"
    "    @T.prim_func\n"
    "    def half(A: T.Buffer((3,), \"float32\"), B: T.Buffer((3,), \"float16\")):\n"
    "        for i in range(3):\n"
    "            B[i] = T.Cast(\"float16\", A[i])\n"
    "    @T.prim_func\n"
    "    def half_add(A: T.Buffer((1,), \"float16\"), B: T.Buffer((1,), \"float16\")):\n"
    "        B[0] = A[0] + T.float16(1)\n";

static void test_int8_wrap(void)
{
    int64_t a[] = {100, -100, 3};
    Value *args[] = {vec_ints("int8", 3, a), vec_ints("int8", 3, NULL)};
    expect_ok(call(DTYPES, "wrap8", args, 2));
    int64_t want[] = {-56, 56, 6};
    assert_ints(args[1], want, 3);
    int64_t b[] = {300, -1};
    Value *args2[] = {vec_ints("int32", 2, b), vec_ints("uint8", 2, NULL)};
    expect_ok(call(DTYPES, "to_u8", args2, 2));
    int64_t want2[] = {44, 255};
    assert_ints(args2[1], want2, 2);
}

static void test_float16_rounding(void)
{
    double a[] = {1.0001, 65504, 0.1};
    Value *args[] = {vec_floats("float32", 3, a), vec_floats("float16", 3, NULL)};
    expect_ok(call(DTYPES, "half", args, 2));
    double want[] = {1.0, 65504, 0.0999755859375};
    assert_floats(args[1], want, 3);
    /* 2048 + 1 is not a float16: ties to even gives 2048. */
    double h[] = {2048};
    Value *args2[] = {vec_floats("float16", 1, h), vec_floats("float16", 1, NULL)};
    expect_ok(call(DTYPES, "half_add", args2, 2));
    double want2[] = {2048};
    assert_floats(args2[1], want2, 1);
}

/* ---- allocation, if, let, loops, return ------------------------------------------------- */

static const char *const SCRATCH =
    "    @T.prim_func\n"
    "    def scratch(A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")):\n"
    "        T0 = T.alloc_buffer((4,), \"int32\")\n"
    "        for i in range(4):\n"
    "            T0[i] = T0[i] + A[i] * A[i]\n"
    "        for i in range(4):\n"
    "            B[3 - i] = T0[i]\n"
    "    @T.prim_func\n"
    "    def block_scratch(A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")):\n"
    "        with T.block(\"root\"):\n"
    "            T1 = T.alloc_buffer((2,), \"int32\")\n"
    "            for i in range(4):\n"
    "                T1[i % 2] = T1[i % 2] + A[i]\n"
    "            B[0] = T1[0]\n"
    "            B[1] = T1[1]\n";

static void test_alloc_buffer(void)
{
    int64_t a[] = {1, 2, 3, 4};
    Value *args[] = {vec_ints("int32", 4, a), vec_ints("int32", 4, NULL)};
    expect_ok(call(SCRATCH, "scratch", args, 2));
    int64_t want[] = {16, 9, 4, 1};
    assert_ints(args[1], want, 4);
    Value *args2[] = {vec_ints("int32", 4, a), vec_ints("int32", 4, NULL)};
    expect_ok(call(SCRATCH, "block_scratch", args2, 2));
    int64_t want2[] = {4, 6, 0, 0};
    assert_ints(args2[1], want2, 4);
}

static const char *const NEG_ALLOC = "    @T.prim_func\n"
                                     "    def neg_alloc(n: T.int64):\n"
                                     "        T0 = T.alloc_buffer((n - 5,), \"int32\")\n"
                                     "        T0[0] = 1\n";

static void test_alloc_negative(void)
{
    Value *args[] = {value_prim_int(dtype_int64(), 2)};
    expect_error(call(NEG_ALLOC, "neg_alloc", args, 1), "TirAlloc", "TIR-ALLOC");
    Value *args2[] = {value_prim_int(dtype_int64(), 5)}; /* empty: the store is out of bounds */
    expect_error(call(NEG_ALLOC, "neg_alloc", args2, 1), "TirOutOfBounds", "TIR-BOUNDS");
    Value *args3[] = {value_prim_int(dtype_int64(), 6)};
    expect_ok(call(NEG_ALLOC, "neg_alloc", args3, 1));
}

static const char *const CONTROL =
    "    @T.prim_func\n"
    "    def relu_let(A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")):\n"
    "        for i in range(4):\n"
    "            x: T.int32 = A[i] * 2\n"
    "            if x > 0:\n"
    "                B[i] = x + 1\n"
    "            else:\n"
    "                B[i] = 0\n"
    "    @T.prim_func\n"
    "    def offset(B: T.Buffer((6,), \"int32\")):\n"
    "        for i in range(2, 5):\n"
    "            B[i] = i * 10\n"
    "    @T.prim_func\n"
    "    def twice(a: T.int32) -> T.int32:\n"
    "        y = a * 2\n"
    "        if y > 10:\n"
    "            return y\n"
    "        return T.int32(-1)\n"
    "    @T.prim_func\n"
    "    def first_neg(A: T.Buffer((4,), \"int32\")) -> T.int64:\n"
    "        for i in range(4):\n"
    "            if A[i] < 0:\n"
    "                return T.int64(i)\n"
    "        return T.int64(-1)\n";

static void test_if_let(void)
{
    int64_t a[] = {3, -1, 0, 5};
    Value *args[] = {vec_ints("int32", 4, a), vec_ints("int32", 4, NULL)};
    expect_ok(call(CONTROL, "relu_let", args, 2));
    int64_t want[] = {7, 0, 0, 11};
    assert_ints(args[1], want, 4);
}

static void test_loop_nonzero_start(void)
{
    int64_t b[] = {-1, -1, -1, -1, -1, -1};
    Value *args[] = {vec_ints("int32", 6, b)};
    expect_ok(call(CONTROL, "offset", args, 1));
    int64_t want[] = {-1, -1, 20, 30, 40, -1};
    assert_ints(args[0], want, 6);
}

static void test_return_value(void)
{
    Value *big[] = {value_prim_int(dtype_int32(), 7)};
    Outcome o = call(CONTROL, "twice", big, 1);
    expect_ok(o);
    CU_ASSERT_EQUAL_FATAL(o.result->kind, VAL_PRIM);
    CU_ASSERT_STRING_EQUAL(dtype_str(o.result->u.prim.dtype), "int32");
    CU_ASSERT_EQUAL(o.result->u.prim.i, 14);
    Value *small[] = {value_prim_int(dtype_int64(), 2)}; /* converted to int32 */
    o = call(CONTROL, "twice", small, 1);
    expect_ok(o);
    CU_ASSERT_EQUAL(o.result->u.prim.i, -1);
    /* A return inside a loop ends the loop and the function. */
    int64_t a[] = {1, 2, -3, -4};
    Value *args[] = {vec_ints("int32", 4, a)};
    o = call(CONTROL, "first_neg", args, 1);
    expect_ok(o);
    CU_ASSERT_EQUAL_FATAL(o.result->kind, VAL_PRIM);
    CU_ASSERT_STRING_EQUAL(dtype_str(o.result->u.prim.dtype), "int64");
    CU_ASSERT_EQUAL(o.result->u.prim.i, 2);
}

/* ---- blocks: domains, predicates; fuel -------------------------------------------------- */

static const char *const BLOCKS = "    @T.prim_func\n"
                                  "    def outside(B: T.Buffer((5,), \"int32\")):\n"
                                  "        for i in range(5):\n"
                                  "            with T.block(\"b\"):\n"
                                  "                vi = T.axis.spatial(4, i)\n"
                                  "                B[vi] = 1\n"
                                  "    @T.prim_func\n"
                                  "    def split(B: T.Buffer((10,), \"int32\")):\n"
                                  "        for io, ii in T.grid(3, 4):\n"
                                  "            with T.block(\"b\"):\n"
                                  "                vi = T.axis.spatial(10, io * 4 + ii)\n"
                                  "                T.where(io * 4 + ii < 10)\n"
                                  "                B[vi] = B[vi] + 1\n"
                                  "    @T.prim_func\n"
                                  "    def spin(B: T.Buffer((1,), \"int32\")):\n"
                                  "        for i in T.parallel(1000):\n"
                                  "            B[0] = B[0] + 1\n";

static void test_block_domain(void)
{
    Value *args[] = {vec_ints("int32", 5, NULL)};
    expect_error(call(BLOCKS, "outside", args, 1), "TirOutOfBounds", "TIR-BLOCK");
}

static void test_block_predicate(void)
{
    Value *args[] = {vec_ints("int32", 10, NULL)};
    expect_ok(call(BLOCKS, "split", args, 1));
    int64_t want[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_ints(args[0], want, 10);
}

static void test_fuel(void)
{
    Value *args[] = {vec_ints("int32", 1, NULL)};
    expect_error(call_fuel(BLOCKS, "spin", args, 1, 100), "StepLimit", "LIMIT-fuel");
    Value *args2[] = {vec_ints("int32", 1, NULL)};
    expect_ok(call_fuel(BLOCKS, "spin", args2, 1, 5000));
    int64_t want[] = {1000};
    assert_ints(args2[0], want, 1);
}

UNIT_SUITE(tir_exec)
{
    CU_pSuite s = CU_add_suite("tir_exec", 0, 0);
    CU_add_test(s, "add_one", test_add_one);
    CU_add_test(s, "arity and argument kinds", test_arity_and_arg_kinds);
    CU_add_test(s, "matmul init once", test_matmul_init_once);
    CU_add_test(s, "matmul symbolic mismatch", test_matmul_symbolic_mismatch);
    CU_add_test(s, "rowsum spatial/reduce axes", test_rowsum_axes);
    CU_add_test(s, "repeated dim variable", test_repeated_dim_var);
    CU_add_test(s, "trailing scalar params", test_trailing_scalar);
    CU_add_test(s, "out of bounds", test_out_of_bounds);
    CU_add_test(s, "int8 wrap-around", test_int8_wrap);
    CU_add_test(s, "float16 rounding", test_float16_rounding);
    CU_add_test(s, "alloc_buffer", test_alloc_buffer);
    CU_add_test(s, "alloc_buffer negative", test_alloc_negative);
    CU_add_test(s, "if and let", test_if_let);
    CU_add_test(s, "loop with non-zero start", test_loop_nonzero_start);
    CU_add_test(s, "return value", test_return_value);
    CU_add_test(s, "block domain", test_block_domain);
    CU_add_test(s, "block predicate", test_block_predicate);
    CU_add_test(s, "fuel", test_fuel);
}
