/* test_builtins: the packed-function registry, every spectest function and every builtin
 * operator, directly and through programs. SPEC_NOTES: "Builtins", "Packed functions". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/eval/builtins.h"
#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "interp/eval/packed.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

/* ---- helpers ---------------------------------------------------------------------- */

static DataType dt(const char *name)
{
    DataType t;
    CU_ASSERT_TRUE_FATAL(dtype_parse(name, &t));
    return t;
}

static Value *tensor_of(const char *dtype, int ndim, const int64_t *shape, const double *data)
{
    Tensor *t = tensor_new(dt(dtype), ndim, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    tensor_write_f64(t, data);
    return value_tensor(t);
}

static Value *vec(const char *dtype, int64_t n, const double *data)
{
    return tensor_of(dtype, 1, &n, data);
}

static bool tensor_is(const Value *v, int ndim, const int64_t *shape, const double *data)
{
    if (!v || v->kind != VAL_TENSOR || !tensor_has_shape(v->u.tensor, ndim, shape))
        return false;
    for (int64_t i = 0; i < v->u.tensor->numel; i++) {
        if (tensor_get_f64(v->u.tensor, i) != data[i])
            return false;
    }
    return true;
}

static bool vec_is(const Value *v, int64_t n, const double *data)
{
    return tensor_is(v, 1, &n, data);
}

/* The outcome of running a program's `main` or calling one function. */
typedef struct Outcome {
    Value *result;    /* NULL on error */
    const char *code; /* "" on success */
    const char *rule;
    const char *out; /* printed output */
} Outcome;

static Interp *new_interp(const char *src, ErrorTrap *trap)
{
    Interp *in = MEM_NEW(Interp);
    IRModule *mod = script_parse("t.py", src, trap);
    InterpOptions opt;
    interp_options_default(&opt);
    interp_init(in, mod, &opt, trap);
    return in;
}

static Outcome run_main(const char *src, Value **args, int nargs)
{
    ErrorTrap trap;
    Interp *volatile in = NULL;
    if (setjmp(trap.jmp) != 0) {
        if (strcmp(trap.error.code, "SyntaxError") == 0 || !in)
            fprintf(stderr, "\n%s\n", error_format(&trap.error));
        Outcome o = {NULL, trap.error.code, trap.error.rule ? trap.error.rule : "",
                     in ? strbuf_str(&in->out) : ""};
        return o;
    }
    in = new_interp(src, &trap);
    Value *r = interp_run_entry(in, "main", args, nargs);
    Outcome o = {r, "", "", strbuf_str(&in->out)};
    return o;
}

static void expect_error(Outcome o, const char *code, const char *rule)
{
    if (strcmp(o.code, code) != 0 || strcmp(o.rule, rule) != 0)
        fprintf(stderr, "\nexpected [%s %s], got [%s %s]\n", code, rule, o.code, o.rule);
    CU_ASSERT_STRING_EQUAL(o.code, code);
    CU_ASSERT_STRING_EQUAL(o.rule, rule);
}

static Value *expect_ok(Outcome o)
{
    if (o.code[0])
        fprintf(stderr, "\nunexpected error [%s %s]\n", o.code, o.rule);
    CU_ASSERT_STRING_EQUAL(o.code, "");
    return o.result;
}

static const char *const trivial_program = "@R.function\n"
                                           "def main(x: R.Tensor((2,), \"float32\")):\n"
                                           "    return x\n";

/* Calls a spectest function by name with the interpreter as its context. */
static Outcome call_spectest(const char *name, Value **args, int nargs)
{
    ErrorTrap trap;
    Interp *volatile in = NULL;
    if (setjmp(trap.jmp) != 0) {
        Outcome o = {NULL, trap.error.code, trap.error.rule ? trap.error.rule : "",
                     in ? strbuf_str(&in->out) : ""};
        return o;
    }
    in = new_interp(trivial_program, &trap);
    PackedRegistry *r = packed_registry_new();
    packed_register_spectest(r);
    Value *f = packed_lookup(r, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Value *v = f->u.packed.fn(in, args, nargs);
    Outcome o = {v, "", "", strbuf_str(&in->out)};
    return o;
}

/* Calls builtins_call on a synthesized call of `op` with evaluated arguments. */
static Outcome call_builtin(const char *op, Value **args, int nargs, StructInfo *out_sinfo,
                            Attrs *attrs)
{
    ErrorTrap trap;
    Interp *volatile in = NULL;
    if (setjmp(trap.jmp) != 0) {
        Outcome o = {NULL, trap.error.code, trap.error.rule ? trap.error.rule : "",
                     in ? strbuf_str(&in->out) : ""};
        return o;
    }
    in = new_interp(trivial_program, &trap);
    Expr *call = expr_call(expr_op(op, span_none()), NULL, nargs, span_none());
    if (out_sinfo) {
        call->u.call.sinfo_args = MEM_ARRAY(StructInfo *, 1);
        call->u.call.sinfo_args[0] = out_sinfo;
        call->u.call.nsinfo_args = 1;
    }
    if (attrs)
        call->u.call.attrs = attrs;
    Value *v = builtins_call(in, env_new(4), call, args, nargs);
    Outcome o = {v, "", "", strbuf_str(&in->out)};
    return o;
}

static StructInfo *tensor_sinfo(const char *dtype, int n, const int64_t *dims)
{
    PrimExpr **values = MEM_ARRAY(PrimExpr *, n + 1);
    for (int i = 0; i < n; i++) {
        values[i] = MEM_NEW(PrimExpr);
        values[i]->kind = PE_INT;
        values[i]->dtype = dtype_int64();
        values[i]->u.int_value = dims[i];
    }
    Expr *shape = expr_shape(values, n, span_none());
    return sinfo_tensor(shape, dt(dtype), NULL, n, span_none());
}

static Value *prim_i64(int64_t v)
{
    return value_prim_int(dtype_int64(), v);
}

/* ---- the registry ----------------------------------------------------------------- */

static Value *dummy_fn(void *ctx, Value **args, int nargs)
{
    return value_unit();
}

static Value *other_fn(void *ctx, Value **args, int nargs)
{
    return value_null();
}

static void test_registry(void)
{
    PackedRegistry *r = packed_registry_new();
    CU_ASSERT_PTR_NULL(packed_lookup(r, "spectest.print"));
    packed_register(r, "a.b", true, dummy_fn);
    Value *f = packed_lookup(r, "a.b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->kind, VAL_PACKED);
    CU_ASSERT_STRING_EQUAL(f->u.packed.name, "a.b");
    CU_ASSERT_TRUE(f->u.packed.is_pure);
    CU_ASSERT_PTR_EQUAL(packed_lookup(r, "a.b"), f); /* one value per function */
    packed_register(r, "a.b", false, other_fn);      /* a later registration wins */
    CU_ASSERT_PTR_EQUAL(packed_lookup(r, "a.b")->u.packed.fn, other_fn);
    for (int i = 0; i < 200; i++)
        packed_register(r, mem_printf("f%d", i), false, dummy_fn);
    for (int i = 0; i < 200; i++)
        CU_ASSERT_PTR_NOT_NULL(packed_lookup(r, mem_printf("f%d", i)));
    CU_ASSERT_PTR_NULL(packed_lookup(r, "f200"));
    CU_ASSERT_PTR_EQUAL(packed_lookup(r, "a.b")->u.packed.fn, other_fn);
    CU_ASSERT_PTR_NULL(packed_lookup(NULL, "a.b"));

    packed_register_spectest(r);
    static const char *const names[] = {"print",           "identity", "copy", "add",
                                        "add_one_inplace", "counter",  "fail", "make_object",
                                        "dps_add",         "dps_tile2"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CU_ASSERT_PTR_NOT_NULL(packed_lookup(r, mem_printf("spectest.%s", names[i])));
    CU_ASSERT_FALSE(packed_lookup(r, "spectest.counter")->u.packed.is_pure);
}

/* ---- spectest functions, called directly ------------------------------------------ */

static void test_spectest_print_identity_copy(void)
{
    int64_t two = 2;
    Value *args[3] = {prim_i64(1), value_shape(&two, 1), value_string("hi")};
    Outcome o = call_spectest("spectest.print", args, 3);
    CU_ASSERT_STRING_EQUAL(o.out, "1 (2,) hi\n");
    CU_ASSERT_EQUAL(expect_ok(o)->u.tuple.n, 0);
    o = call_spectest("spectest.print", NULL, 0);
    CU_ASSERT_STRING_EQUAL(o.out, "\n");

    Value *x = vec("float32", 2, (double[]){1, 2});
    o = call_spectest("spectest.identity", &x, 1);
    CU_ASSERT_PTR_EQUAL(expect_ok(o), x);
    expect_error(call_spectest("spectest.identity", NULL, 0), "PackedFuncError",
                 "SPECTEST-identity");

    o = call_spectest("spectest.copy", &x, 1);
    Value *c = expect_ok(o);
    CU_ASSERT_TRUE(vec_is(c, 2, (double[]){1, 2}));
    CU_ASSERT_PTR_NOT_EQUAL(c->u.tensor, x->u.tensor);
    Value *s = value_string("no");
    expect_error(call_spectest("spectest.copy", &s, 1), "PackedFuncError", "SPECTEST-copy");
}

static void test_spectest_add(void)
{
    int64_t s23[2] = {2, 3};
    Value *args[2] = {tensor_of("int32", 2, s23, (double[]){1, 2, 3, 4, 5, 6}),
                      vec("int32", 3, (double[]){10, 20, 30})};
    Value *r = expect_ok(call_spectest("spectest.add", args, 2));
    CU_ASSERT_TRUE(tensor_is(r, 2, s23, (double[]){11, 22, 33, 14, 25, 36}));
    CU_ASSERT_PTR_NOT_EQUAL(r->u.tensor, args[0]->u.tensor);

    int64_t s21[2] = {2, 1};
    Value *col[2] = {tensor_of("float32", 2, s21, (double[]){1, 2}),
                     vec("float32", 3, (double[]){0.5, 1.5, 2.5})};
    r = expect_ok(call_spectest("spectest.add", col, 2));
    CU_ASSERT_TRUE(tensor_is(r, 2, s23, (double[]){1.5, 2.5, 3.5, 2.5, 3.5, 4.5}));

    Value *wrap[2] = {vec("int8", 1, (double[]){127}), vec("int8", 1, (double[]){1})};
    CU_ASSERT_TRUE(vec_is(expect_ok(call_spectest("spectest.add", wrap, 2)), 1, (double[]){-128}));

    Value *mixed[2] = {vec("int32", 1, (double[]){1}), vec("float32", 1, (double[]){1})};
    expect_error(call_spectest("spectest.add", mixed, 2), "PackedFuncError", "SPECTEST-add");
    Value *bad[2] = {vec("int32", 2, (double[]){1, 2}), vec("int32", 3, (double[]){1, 2, 3})};
    expect_error(call_spectest("spectest.add", bad, 2), "PackedFuncError", "SPECTEST-add");
    expect_error(call_spectest("spectest.add", bad, 1), "PackedFuncError", "SPECTEST-add");
}

static void test_spectest_inplace_counter_fail_object(void)
{
    Value *x = vec("float32", 2, (double[]){1, 2.5});
    Value *r = expect_ok(call_spectest("spectest.add_one_inplace", &x, 1));
    CU_ASSERT_EQUAL(r->kind, VAL_TUPLE);
    CU_ASSERT_TRUE(vec_is(x, 2, (double[]){2, 3.5}));
    Value *u = vec("uint8", 1, (double[]){255});
    expect_ok(call_spectest("spectest.add_one_inplace", &u, 1));
    CU_ASSERT_TRUE(vec_is(u, 1, (double[]){0}));

    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("unexpected error");
        return;
    }
    Interp *in = new_interp(trivial_program, &trap);
    Value *counter = packed_lookup(in->packed, "spectest.counter");
    CU_ASSERT_PTR_NOT_NULL_FATAL(counter);
    for (int i = 0; i < 3; i++) {
        Value *c = counter->u.packed.fn(in, NULL, 0);
        CU_ASSERT_EQUAL(c->kind, VAL_PRIM);
        CU_ASSERT_TRUE(dtype_equal(c->u.prim.dtype, dtype_int64()));
        CU_ASSERT_EQUAL(c->u.prim.i, i);
    }

    Value *msg = value_string("boom");
    ErrorTrap t2;
    if (setjmp(t2.jmp) == 0) {
        in->trap = &t2;
        packed_lookup(in->packed, "spectest.fail")->u.packed.fn(in, &msg, 1);
        CU_FAIL("spectest.fail returned");
    } else {
        CU_ASSERT_STRING_EQUAL(t2.error.code, "PackedFuncError");
        CU_ASSERT_STRING_EQUAL(t2.error.rule, "SPECTEST-fail");
        CU_ASSERT_PTR_NOT_NULL(strstr(t2.error.message, "boom"));
    }

    Value *obj = expect_ok(call_spectest("spectest.make_object", NULL, 0));
    CU_ASSERT_EQUAL(obj->kind, VAL_OBJECT);
}

static void test_spectest_dps(void)
{
    Value *a = vec("float32", 2, (double[]){1, 2});
    Value *b = vec("float32", 2, (double[]){10, 20});
    Value *out = vec("float32", 2, (double[]){0, 0});
    Value *args[3] = {a, b, out};
    CU_ASSERT_EQUAL(expect_ok(call_spectest("spectest.dps_add", args, 3))->kind, VAL_TUPLE);
    CU_ASSERT_TRUE(vec_is(out, 2, (double[]){11, 22}));
    args[2] = vec("float32", 3, (double[]){0, 0, 0});
    expect_error(call_spectest("spectest.dps_add", args, 3), "PackedFuncError", "SPECTEST-dps_add");
    args[2] = vec("int32", 2, (double[]){0, 0});
    expect_error(call_spectest("spectest.dps_add", args, 3), "PackedFuncError", "SPECTEST-dps_add");

    int64_t s22[2] = {2, 2}, s24[2] = {2, 4};
    Value *t[2] = {tensor_of("int32", 2, s22, (double[]){1, 2, 3, 4}),
                   tensor_of("int32", 2, s24, (double[]){0, 0, 0, 0, 0, 0, 0, 0})};
    expect_ok(call_spectest("spectest.dps_tile2", t, 2));
    CU_ASSERT_TRUE(tensor_is(t[1], 2, s24, (double[]){1, 2, 1, 2, 3, 4, 3, 4}));
    t[1] = tensor_of("int32", 2, s22, (double[]){0, 0, 0, 0});
    expect_error(call_spectest("spectest.dps_tile2", t, 2), "PackedFuncError",
                 "SPECTEST-dps_tile2");
    t[0] = tensor_of("int32", 0, NULL, (double[]){1});
    expect_error(call_spectest("spectest.dps_tile2", t, 2), "PackedFuncError",
                 "SPECTEST-dps_tile2");
}

/* ---- packed functions through programs: aliasing --------------------------------- */

static void test_packed_aliasing(void)
{
    const char *src = "@R.function(pure=False)\n"
                      "def main(x: R.Tensor((2,), \"float32\")):\n"
                      "    y = R.call_packed(\"spectest.identity\", x, "
                      "sinfo_args=R.Tensor((2,), \"float32\"))\n"
                      "    u = R.call_packed(\"spectest.add_one_inplace\", y, "
                      "sinfo_args=R.Tuple())\n"
                      "    c = R.call_pure_packed(\"spectest.copy\", x, "
                      "sinfo_args=R.Tensor((2,), \"float32\"))\n"
                      "    v = R.call_packed(\"spectest.add_one_inplace\", c, "
                      "sinfo_args=R.Tuple())\n"
                      "    return (x, y, c)\n";
    Value *x = vec("float32", 2, (double[]){1, 2});
    Value *r = expect_ok(run_main(src, &x, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL_FATAL(r->kind, VAL_TUPLE);
    CU_ASSERT_PTR_EQUAL(r->u.tuple.fields[0], x);
    CU_ASSERT_PTR_EQUAL(r->u.tuple.fields[1], x);
    CU_ASSERT_TRUE(vec_is(x, 2, (double[]){2, 3}));
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[2], 2, (double[]){3, 4}));
}

static void test_packed_calls(void)
{
    const char *src =
        "@R.function(pure=False)\n"
        "def main(x: R.Tensor((2,), \"float32\"), y: R.Tensor((2,), \"float32\")):\n"
        "    a = R.call_pure_packed(\"spectest.add\", x, y, sinfo_args=R.Tensor((2,), "
        "\"float32\"))\n"
        "    b = R.call_dps_packed(\"spectest.dps_add\", (a, y), out_sinfo=R.Tensor((2,), "
        "\"float32\"))\n"
        "    c = R.call_dps_packed(\"spectest.dps_tile2\", (b,), out_sinfo=R.Tensor((4,), "
        "\"float32\"))\n"
        "    d = R.call_inplace_packed(\"spectest.identity\", c, inplace_indices=[0], "
        "sinfo_args=R.Tensor((4,), \"float32\"))\n"
        "    n = R.call_packed(\"spectest.counter\", sinfo_args=R.Prim(\"int64\"))\n"
        "    m = R.call_packed(\"spectest.counter\", sinfo_args=R.Prim(\"int64\"))\n"
        "    return (d, c, n, m)\n";
    Value *args[2] = {vec("float32", 2, (double[]){1, 2}), vec("float32", 2, (double[]){10, 20})};
    Value *r = expect_ok(run_main(src, args, 2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[0], 4, (double[]){21, 42, 21, 42}));
    CU_ASSERT_PTR_EQUAL(r->u.tuple.fields[0], r->u.tuple.fields[1]);
    CU_ASSERT_EQUAL(r->u.tuple.fields[2]->u.prim.i, 0);
    CU_ASSERT_EQUAL(r->u.tuple.fields[3]->u.prim.i, 1);

    /* The counter starts again in every run. */
    const char *count =
        "@R.function(pure=False)\n"
        "def main():\n"
        "    n = R.call_packed(\"spectest.counter\", sinfo_args=R.Prim(\"int64\"))\n"
        "    return n\n";
    CU_ASSERT_EQUAL(expect_ok(run_main(count, NULL, 0))->u.prim.i, 0);
    CU_ASSERT_EQUAL(expect_ok(run_main(count, NULL, 0))->u.prim.i, 0);

    const char *fail = "@R.function(pure=False)\n"
                       "def main():\n"
                       "    n = R.call_packed(\"spectest.fail\", R.str(\"stop\"), "
                       "sinfo_args=R.Object)\n"
                       "    return n\n";
    expect_error(run_main(fail, NULL, 0), "PackedFuncError", "SPECTEST-fail");

    const char *mismatch =
        "@R.function(pure=False)\n"
        "def main(x: R.Tensor((2,), \"float32\")):\n"
        "    b = R.call_dps_packed(\"spectest.dps_add\", (x, x), out_sinfo=R.Tensor((3,), "
        "\"float32\"))\n"
        "    return b\n";
    expect_error(run_main(mismatch, args, 1), "PackedFuncError", "SPECTEST-dps_add");

    const char *bad_index =
        "@R.function(pure=False)\n"
        "def main(x: R.Tensor((2,), \"float32\")):\n"
        "    d = R.call_inplace_packed(\"spectest.identity\", x, inplace_indices=[1], "
        "sinfo_args=R.Tensor((2,), \"float32\"))\n"
        "    return d\n";
    expect_error(run_main(bad_index, args, 1), "OpPrecondition", "BI-call_inplace_packed");
}

/* A packed function that breaks the destination-passing contract by reshaping its
 * output. */
static Value *reshape_out(void *ctx, Value **args, int nargs)
{
    Tensor *t = args[nargs - 1]->u.tensor;
    t->shape[0] = 1;
    t->numel = 1;
    return value_unit();
}

static void test_dps_output_mismatch(void)
{
    int64_t two = 2;
    Value *args[2] = {value_packed("test.reshape_out", false, reshape_out), value_tuple(NULL, 0)};
    Outcome o =
        call_builtin("relax.call_dps_packed", args, 2, tensor_sinfo("float32", 1, &two), NULL);
    expect_error(o, "OutputMismatch", "BI-call_dps_packed");

    args[0] = value_string("not a function");
    o = call_builtin("relax.call_dps_packed", args, 2, tensor_sinfo("float32", 1, &two), NULL);
    expect_error(o, "NotCallable", "E-12");
    args[0] = value_packed("test.reshape_out", false, reshape_out);
    args[1] = prim_i64(1);
    o = call_builtin("relax.call_dps_packed", args, 2, tensor_sinfo("float32", 1, &two), NULL);
    expect_error(o, "OpPrecondition", "BI-call_dps_packed");
}

/* ---- closures --------------------------------------------------------------------- */

static void test_make_and_invoke_closure(void)
{
    const char *src =
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        "    def f(a: R.Prim(\"int64\"), c: R.Prim(\"int64\")):\n"
        "        return (a, c)\n"
        "\n"
        "    @R.function(pure=False)\n"
        "    def main(a: R.Prim(\"int64\"), c: R.Prim(\"int64\")):\n"
        "        cls = Module\n"
        "        clo = R.make_closure(cls.f, (c,))\n"
        "        r = R.invoke_closure(clo, (a,), sinfo_args=[R.Tuple(R.Prim(\"int64\"), "
        "R.Prim(\"int64\"))])\n"
        "        s = R.invoke_pure_closure(clo, (c,), sinfo_args=[R.Object])\n"
        "        return (r, s)\n";
    Value *args[2] = {prim_i64(1), prim_i64(2)};
    Value *r = expect_ok(run_main(src, args, 2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    Value *first = r->u.tuple.fields[0], *second = r->u.tuple.fields[1];
    CU_ASSERT_EQUAL_FATAL(first->kind, VAL_TUPLE);
    CU_ASSERT_PTR_EQUAL(first->u.tuple.fields[0], args[0]); /* f(a, c) */
    CU_ASSERT_PTR_EQUAL(first->u.tuple.fields[1], args[1]);
    CU_ASSERT_PTR_EQUAL(second->u.tuple.fields[0], args[1]); /* f(c, c) */

    const char *too_many = "@I.ir_module\n"
                           "class Module:\n"
                           "    @R.function\n"
                           "    def f(a: R.Prim(\"int64\")):\n"
                           "        return a\n"
                           "\n"
                           "    @R.function(pure=False)\n"
                           "    def main(a: R.Prim(\"int64\")):\n"
                           "        cls = Module\n"
                           "        clo = R.make_closure(cls.f, (a, a))\n"
                           "        return clo\n";
    expect_error(run_main(too_many, args, 1), "OpPrecondition", "BI-make_closure");

    const char *arity = "@I.ir_module\n"
                        "class Module:\n"
                        "    @R.function\n"
                        "    def f(a: R.Prim(\"int64\"), c: R.Prim(\"int64\")):\n"
                        "        return a\n"
                        "\n"
                        "    @R.function(pure=False)\n"
                        "    def main(a: R.Prim(\"int64\")):\n"
                        "        cls = Module\n"
                        "        clo = R.make_closure(cls.f, (a,))\n"
                        "        r = R.invoke_closure(clo, (a, a), sinfo_args=[R.Object])\n"
                        "        return r\n";
    expect_error(run_main(arity, args, 1), "Arity", "E-12");
}

/* Closures over one function with different numbers of captured values, made twice. */
static void test_closure_capture_counts(void)
{
    const char *src =
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        "    def f(a: R.Prim(\"int64\"), b: R.Prim(\"int64\"), c: R.Prim(\"int64\")):\n"
        "        return (a, b, c)\n"
        "\n"
        "    @R.function(pure=False)\n"
        "    def main(a: R.Prim(\"int64\"), b: R.Prim(\"int64\"), c: R.Prim(\"int64\")):\n"
        "        cls = Module\n"
        "        one = R.make_closure(cls.f, (c,))\n"
        "        two = R.make_closure(cls.f, (b, c))\n"
        "        other = R.make_closure(cls.f, (a,))\n"
        "        r1 = R.invoke_closure(one, (a, b), sinfo_args=[R.Object])\n"
        "        r2 = R.invoke_closure(two, (a,), sinfo_args=[R.Object])\n"
        "        r3 = R.invoke_closure(other, (c, b), sinfo_args=[R.Object])\n"
        "        return (r1, r2, r3)\n";
    Value *args[3] = {prim_i64(1), prim_i64(2), prim_i64(3)};
    Value *r = expect_ok(run_main(src, args, 3));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    static const int order[3][3] = {{0, 1, 2}, {0, 1, 2}, {2, 1, 0}};
    for (int i = 0; i < 3; i++) {
        Value *t = r->u.tuple.fields[i];
        CU_ASSERT_EQUAL_FATAL(t->kind, VAL_TUPLE);
        for (int j = 0; j < 3; j++)
            CU_ASSERT_PTR_EQUAL(t->u.tuple.fields[j], args[order[i][j]]);
    }
}

/* ---- print, assert_op ------------------------------------------------------------- */

static void test_print(void)
{
    const char *src = "@R.function(pure=False)\n"
                      "def main(x: R.Tensor((2,), \"float32\")):\n"
                      "    a = R.print(x, R.prim_value(1), format=\"\")\n"
                      "    b = R.print(R.shape([1, 1]), format=\"Tuple: {}\")\n"
                      "    c = R.print(R.prim_value(1), R.str(\"s\"), format=\"{1} {0}\")\n"
                      "    return a\n";
    Value *x = vec("float32", 2, (double[]){1, 2.5});
    Outcome o = run_main(src, &x, 1);
    CU_ASSERT_EQUAL(expect_ok(o)->u.tuple.n, 0);
    CU_ASSERT_STRING_EQUAL(o.out, "[1.  2.5] 1\nTuple: (1, 1)\ns 1\n");

    const char *bad = "@R.function(pure=False)\n"
                      "def main():\n"
                      "    a = R.print(R.prim_value(1), format=\"{} {}\")\n"
                      "    return a\n";
    expect_error(run_main(bad, NULL, 0), "OpPrecondition", "BI-print");
}

static void test_assert_op(void)
{
    const char *ok = "@R.function(pure=False)\n"
                     "def main(x: R.Tensor((), \"bool\")):\n"
                     "    a = R.assert_op(x, R.prim_value(5), format=\"never {}\")\n"
                     "    b = R.assert_op(R.prim_value(T.bool(True)))\n"
                     "    return b\n";
    Value *t = tensor_of("bool", 0, NULL, (double[]){1});
    CU_ASSERT_EQUAL(expect_ok(run_main(ok, &t, 1))->u.tuple.n, 0);

    const char *fails = "@R.function(pure=False)\n"
                        "def main(x: R.Tensor((), \"bool\")):\n"
                        "    a = R.assert_op(x, R.prim_value(5), format=\"got {}\")\n"
                        "    return a\n";
    Value *f = tensor_of("bool", 0, NULL, (double[]){0});
    expect_error(run_main(fails, &f, 1), "AssertFailed", "BI-assert_op");

    Value *args[3] = {value_prim_bool(false), value_string(""), prim_i64(5)};
    Value *more[4] = {args[0], args[1], prim_i64(5), prim_i64(5)};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        Interp *in = new_interp(trivial_program, &trap);
        Expr *call = expr_call(expr_op("relax.assert_op", span_none()), NULL, 4, span_none());
        builtins_call(in, env_new(1), call, more, 4);
        CU_FAIL("assert_op passed");
    } else {
        CU_ASSERT_STRING_EQUAL(trap.error.code, "AssertFailed");
        CU_ASSERT_PTR_NOT_NULL(strstr(trap.error.message, "5, 5"));
    }
    Outcome o = call_builtin("relax.assert_op", args, 1, NULL, NULL);
    expect_error(o, "AssertFailed", "BI-assert_op");

    Value *cond = value_prim_float(dtype_float32(), 1.0);
    expect_error(call_builtin("relax.assert_op", &cond, 1, NULL, NULL), "OpPrecondition",
                 "BI-assert_op");
    cond = vec("bool", 1, (double[]){1});
    expect_error(call_builtin("relax.assert_op", &cond, 1, NULL, NULL), "OpPrecondition",
                 "BI-assert_op");
    cond = tensor_of("int32", 0, NULL, (double[]){1});
    expect_error(call_builtin("relax.assert_op", &cond, 1, NULL, NULL), "OpPrecondition",
                 "BI-assert_op");
    cond = prim_i64(3); /* an integer condition is accepted */
    expect_ok(call_builtin("relax.assert_op", &cond, 1, NULL, NULL));
}

/* ---- shapes and devices ----------------------------------------------------------- */

static void test_shape_builtins(void)
{
    const char *src = "@R.function\n"
                      "def main(x: R.Tensor((2, 3), \"float32\")):\n"
                      "    s = R.shape_of(x)\n"
                      "    t = R.shape_to_tensor(s)\n"
                      "    u = R.tensor_to_shape(t)\n"
                      "    n = R.null_value()\n"
                      "    return (s, t, u, n)\n";
    int64_t s23[2] = {2, 3};
    Value *x = tensor_of("float32", 2, s23, (double[]){0, 0, 0, 0, 0, 0});
    Value *r = expect_ok(run_main(src, &x, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    Value *s = r->u.tuple.fields[0];
    CU_ASSERT_EQUAL_FATAL(s->kind, VAL_SHAPE);
    CU_ASSERT_EQUAL(s->u.shape.ndim, 2);
    CU_ASSERT_EQUAL(s->u.shape.dims[1], 3);
    Value *t = r->u.tuple.fields[1];
    CU_ASSERT_TRUE(vec_is(t, 2, (double[]){2, 3}));
    CU_ASSERT_TRUE(dtype_equal(t->u.tensor->dtype, dtype_int64()));
    CU_ASSERT_EQUAL(r->u.tuple.fields[2]->kind, VAL_SHAPE);
    CU_ASSERT_EQUAL(r->u.tuple.fields[2]->u.shape.dims[0], 2);
    CU_ASSERT_EQUAL(r->u.tuple.fields[3]->kind, VAL_NULL);

    Value *bad = prim_i64(1);
    expect_error(call_builtin("relax.shape_of", &bad, 1, NULL, NULL), "OpPrecondition",
                 "BI-shape_of");
    expect_error(call_builtin("relax.shape_to_tensor", &bad, 1, NULL, NULL), "OpPrecondition",
                 "BI-shape_to_tensor");
    Value *m = tensor_of("int64", 2, s23, (double[]){0, 0, 0, 0, 0, 0});
    expect_error(call_builtin("relax.tensor_to_shape", &m, 1, NULL, NULL), "OpPrecondition",
                 "BI-tensor_to_shape");
    Value *f = vec("float32", 1, (double[]){1});
    expect_error(call_builtin("relax.tensor_to_shape", &f, 1, NULL, NULL), "OpPrecondition",
                 "BI-tensor_to_shape");
    Value *neg = vec("int32", 1, (double[]){-1});
    expect_error(call_builtin("relax.tensor_to_shape", &neg, 1, NULL, NULL), "OpPrecondition",
                 "BI-tensor_to_shape");
    expect_error(call_builtin("relax.null_value", &bad, 1, NULL, NULL), "Arity", "BI-null_value");
}

/* The message of the error a builtin call raises, or "" when it raises none. */
static const char *builtin_message(const char *op, Value **args, int nargs)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return trap.error.message;
    Interp *in = new_interp(trivial_program, &trap);
    Expr *call = expr_call(expr_op(op, span_none()), NULL, nargs, span_none());
    builtins_call(in, env_new(4), call, args, nargs);
    return "";
}

static void expect_message(const char *op, Value **args, int nargs, const char *message)
{
    const char *got = builtin_message(op, args, nargs);
    if (strcmp(got, message) != 0)
        fprintf(stderr, "\n%s: got '%s', expected '%s'\n", op, got, message);
    CU_ASSERT_STRING_EQUAL(got, message);
}

/* An Arity error names the count a builtin takes: exactly one number, a range, or a least. */
static void test_arity_messages(void)
{
    Value *x = vec("float32", 1, (double[]){1});
    Value *three[3] = {x, x, x};
    expect_message("relax.null_value", three, 1, "R.null_value: takes 0 arguments, got 1");
    expect_message("relax.shape_of", three, 2, "R.shape_of: takes 1 argument, got 2");
    expect_message("relax.shape_of", three, 0, "R.shape_of: takes 1 argument, got 0");
    expect_message("relax.to_vdevice", three, 3, "R.to_vdevice: takes 1 to 2 arguments, got 3");
    expect_message("relax.device", three, 3, "R.device: takes 0 to 2 arguments, got 3");
    expect_message("relax.print", three, 0, "R.print: takes at least 1 arguments, got 0");
}

static void test_device_builtins(void)
{
    Value *x = vec("float32", 2, (double[]){1, 2});
    Value *fields[2] = {x, prim_i64(7)};
    Value *tup = value_tuple(fields, 2);
    Value *r = expect_ok(call_builtin("relax.to_vdevice", &tup, 1, NULL, NULL));
    CU_ASSERT_EQUAL_FATAL(r->kind, VAL_TUPLE);
    CU_ASSERT_PTR_NOT_EQUAL(r->u.tuple.fields[0], x);
    CU_ASSERT_PTR_NOT_EQUAL(r->u.tuple.fields[0]->u.tensor, x->u.tensor);
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[0], 2, (double[]){1, 2}));
    CU_ASSERT_PTR_EQUAL(r->u.tuple.fields[1], fields[1]);
    CU_ASSERT_PTR_EQUAL(expect_ok(call_builtin("relax.hint_on_device", &x, 1, NULL, NULL)), x);

    const char *src = "@R.function(pure=False)\n"
                      "def main(x: R.Tensor((2,), \"int32\")):\n"
                      "    y = R.hint_on_device(x, R.device(dev_type=1, dev_id=0))\n"
                      "    return y\n";
    Value *xi = vec("int32", 2, (double[]){1, 2});
    CU_ASSERT_PTR_EQUAL(expect_ok(run_main(src, &xi, 1)), xi);
    Value *dev = expect_ok(call_builtin("relax.device", NULL, 0, NULL, NULL));
    CU_ASSERT_EQUAL(dev->kind, VAL_OBJECT);

    CU_ASSERT_TRUE(builtins_has("relax.call_tir"));
    CU_ASSERT_TRUE(builtins_has("relax.invoke_pure_closure"));
    CU_ASSERT_TRUE(builtins_has("relax.hint_on_device"));
    CU_ASSERT_FALSE(builtins_has("relax.add"));
    CU_ASSERT_FALSE(builtins_has("call_tir"));
    CU_ASSERT_FALSE(builtins_has(NULL));
}

/* ---- call_tir --------------------------------------------------------------------- */

static const char *const tir_module =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "        for i in range(4):\n"
    "            with T.block(\"b\"):\n"
    "                vi = T.axis.spatial(4, i)\n"
    "                B[vi] = A[vi] + T.float32(1)\n"
    "\n"
    "    @T.prim_func\n"
    "    def twice(var_x: T.handle, var_y: T.handle, n: T.int64):\n"
    "        X = T.match_buffer(var_x, (n,))\n"
    "        Y = T.match_buffer(var_y, (n * 2,))\n"
    "        for i in range(n):\n"
    "            Y[i] = X[i]\n"
    "            Y[i + n] = X[i] * T.float32(2)\n"
    "\n"
    "    @T.prim_func\n"
    "    def split(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\"),\n"
    "              C: T.Buffer((4,), \"float32\")):\n"
    "        for i in range(4):\n"
    "            B[i] = A[i] + T.float32(1)\n"
    "            C[i] = A[i] + T.float32(2)\n"
    "\n"
    "    @T.prim_func\n"
    "    def inc(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "        for i in range(4):\n"
    "            A[i] = A[i] + T.float32(1)\n"
    "            B[i] = A[i] * T.float32(10)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\",), \"float32\")):\n"
    "        n = T.int64()\n"
    "        cls = Module\n"
    "        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), \"float32\"))\n"
    "        z = R.call_tir(cls.twice, (y,), out_sinfo=R.Tensor((n * 2,), \"float32\"),\n"
    "                       tir_vars=R.shape([n]))\n"
    "        p = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((4,), \"float32\"),\n"
    "                       R.Tensor((4,), \"float32\")])\n"
    "        q = R.call_tir_inplace(cls.inc, (x,), [0, -1], out_sinfo=[R.Tensor((4,), "
    "\"float32\"), R.Tensor((4,), \"float32\")])\n"
    "        return (y, z, p, q)\n";

static void test_call_tir(void)
{
    Value *x = vec("float32", 4, (double[]){0, 1, 2, 3});
    Value *r = expect_ok(run_main(tir_module, &x, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[0], 4, (double[]){1, 2, 3, 4}));
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[1], 8, (double[]){1, 2, 3, 4, 2, 4, 6, 8}));
    Value *p = r->u.tuple.fields[2];
    CU_ASSERT_EQUAL_FATAL(p->kind, VAL_TUPLE);
    CU_ASSERT_EQUAL_FATAL(p->u.tuple.n, 2);
    CU_ASSERT_TRUE(vec_is(p->u.tuple.fields[0], 4, (double[]){1, 2, 3, 4}));
    CU_ASSERT_TRUE(vec_is(p->u.tuple.fields[1], 4, (double[]){2, 3, 4, 5}));
    Value *q = r->u.tuple.fields[3];
    CU_ASSERT_EQUAL_FATAL(q->kind, VAL_TUPLE);
    CU_ASSERT_PTR_EQUAL(q->u.tuple.fields[0], x); /* the in-place output is the argument */
    CU_ASSERT_TRUE(vec_is(x, 4, (double[]){1, 2, 3, 4}));
    CU_ASSERT_TRUE(vec_is(q->u.tuple.fields[1], 4, (double[]){10, 20, 30, 40}));
}

static void test_call_tir_errors(void)
{
    int64_t four = 4;
    Value *x = vec("float32", 4, (double[]){0, 1, 2, 3});
    Value *args[2] = {prim_i64(1), value_tuple(&x, 1)};
    expect_error(call_builtin("relax.call_tir", args, 2, tensor_sinfo("float32", 1, &four), NULL),
                 "OpPrecondition", "BI-call_tir");

    const char *void_dtype =
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        "    def k(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
        "        T.evaluate(0)\n"
        "\n"
        "    @R.function\n"
        "    def main(x: R.Tensor((4,), \"float32\")):\n"
        "        cls = Module\n"
        "        y = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((4,)))\n"
        "        return y\n";
    expect_error(run_main(void_dtype, &x, 1), "OpPrecondition", "BI-call_tir");

    const char *inplace_bad = "@I.ir_module\n"
                              "class Module:\n"
                              "    @T.prim_func\n"
                              "    def k(A: T.Buffer((4,), \"float32\")):\n"
                              "        T.evaluate(0)\n"
                              "\n"
                              "    @R.function\n"
                              "    def main(x: R.Tensor((4,), \"float32\")):\n"
                              "        cls = Module\n"
                              "        y = R.call_tir_inplace(cls.k, (x,), %s, out_sinfo=%s)\n"
                              "        return y\n";
    static const char *const bad[][2] = {
        {"1", "R.Tensor((4,), \"float32\")"},  /* out of range */
        {"-1", "R.Tensor((4,), \"float32\")"}, /* no in-place output */
        {"[0, 0]", "[R.Tensor((4,), \"float32\"), R.Tensor((4,), \"float32\")]"},
        {"[0]", "[R.Tensor((4,), \"float32\"), R.Tensor((4,), \"float32\")]"},
        {"0", "R.Tensor((5,), \"float32\")"}, /* shape differs from the argument */
        {"0", "R.Tensor((4,), \"int32\")"},   /* dtype differs */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *src = mem_printf(inplace_bad, bad[i][0], bad[i][1]);
        expect_error(run_main(src, &x, 1), "OpPrecondition", "BI-call_tir_inplace");
    }
}

/* An out_sinfo shape given by a shape variable, and make_closure over a PrimFunc: the
 * captured output tensor is passed last, and the call mutates it. */
static void test_call_tir_shape_var_and_primfunc_closure(void)
{
    const char *src =
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
        "        for i in range(4):\n"
        "            B[i] = A[i] + T.float32(1)\n"
        "\n"
        "    @R.function(pure=False)\n"
        "    def main(x: R.Tensor((4,), \"float32\"), o: R.Tensor((4,), \"float32\")):\n"
        "        cls = Module\n"
        "        s = R.shape_of(x)\n"
        "        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor(s, \"float32\"))\n"
        "        clo = R.make_closure(cls.add_one, (o,))\n"
        "        u = R.invoke_closure(clo, (y,), sinfo_args=[R.Object])\n"
        "        return (y, u)\n";
    Value *args[2] = {vec("float32", 4, (double[]){1, 2, 3, 4}),
                      vec("float32", 4, (double[]){0, 0, 0, 0})};
    Value *r = expect_ok(run_main(src, args, 2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(vec_is(r->u.tuple.fields[0], 4, (double[]){2, 3, 4, 5}));
    CU_ASSERT_TRUE(vec_is(args[1], 4, (double[]){3, 4, 5, 6}));
    CU_ASSERT_EQUAL(r->u.tuple.fields[1]->u.tuple.n, 0);
}

UNIT_SUITE(builtins)
{
    CU_pSuite s = CU_add_suite("builtins", NULL, NULL);
    CU_add_test(s, "registry", test_registry);
    CU_add_test(s, "spectest print identity copy", test_spectest_print_identity_copy);
    CU_add_test(s, "spectest add", test_spectest_add);
    CU_add_test(s, "spectest inplace counter fail object",
                test_spectest_inplace_counter_fail_object);
    CU_add_test(s, "spectest dps", test_spectest_dps);
    CU_add_test(s, "packed aliasing", test_packed_aliasing);
    CU_add_test(s, "packed calls", test_packed_calls);
    CU_add_test(s, "dps output mismatch", test_dps_output_mismatch);
    CU_add_test(s, "make and invoke closure", test_make_and_invoke_closure);
    CU_add_test(s, "closure capture counts", test_closure_capture_counts);
    CU_add_test(s, "print", test_print);
    CU_add_test(s, "assert_op", test_assert_op);
    CU_add_test(s, "shape builtins", test_shape_builtins);
    CU_add_test(s, "device builtins", test_device_builtins);
    CU_add_test(s, "arity messages", test_arity_messages);
    CU_add_test(s, "call_tir", test_call_tir);
    CU_add_test(s, "call_tir errors", test_call_tir_errors);
    CU_add_test(s, "call_tir shape var, PrimFunc closure",
                test_call_tir_shape_var_and_primfunc_closure);
}
