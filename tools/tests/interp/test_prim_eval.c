/* test_prim_eval: PrimExpr evaluation with TIR semantics: wrap-around, division, casts,
 * intrinsics and errors. SPEC_NOTES: "Evaluation" (TIR-INT, TIR-CAST, TIR-INTRIN). */
#include <math.h>
#include <setjmp.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/tir/prim_eval.h"
#include "tools/tests/unit.h"

static Span S;

static PrimExpr *i64(int64_t v)
{
    return primexpr_int(v, dtype_int64(), S);
}
static PrimExpr *ity(int64_t v, DataType t)
{
    return primexpr_int(v, t, S);
}
static PrimExpr *f32(double v)
{
    return primexpr_float(v, dtype_float32(), S);
}
static PrimExpr *bin(PrimExprKind k, PrimExpr *a, PrimExpr *b)
{
    return primexpr_binary(k, a, b, S);
}

static DataType dt(const char *s)
{
    DataType t;
    dtype_parse(s, &t);
    return t;
}

static PrimExpr *cast_to(DataType t, PrimExpr *a)
{
    PrimExpr *c = primexpr_new(PE_CAST, t, S);
    c->u.operand = a;
    return c;
}

static PrimExpr *call(const char *name, DataType t, PrimExpr *a, PrimExpr *b, PrimExpr *c)
{
    PrimExpr *e = primexpr_new(PE_CALL, t, S);
    e->u.call.name = name;
    e->u.call.args = MEM_ARRAY(PrimExpr *, 3);
    e->u.call.args[0] = a;
    e->u.call.args[1] = b;
    e->u.call.args[2] = c;
    e->u.call.nargs = c ? 3 : b ? 2 : 1;
    return e;
}

typedef struct Out {
    Scalar s;
    const char *code; /* NULL on success */
} Out;

static Out eval(PrimExpr *e)
{
    Interp *in = MEM_NEW(Interp);
    ErrorTrap trap;
    in->trap = &trap;
    PrimEvalCtx pc = {in, NULL, NULL, NULL, NULL};
    Out o = {0};
    if (setjmp(trap.jmp) == 0)
        o.s = prim_eval(&pc, e);
    else
        o.code = trap.error.code;
    return o;
}

static int64_t ival(PrimExpr *e)
{
    Out o = eval(e);
    CU_ASSERT_PTR_NULL(o.code);
    return o.s.i;
}

static double fval(PrimExpr *e)
{
    Out o = eval(e);
    CU_ASSERT_PTR_NULL(o.code);
    return o.s.f;
}

static void test_wrap(void)
{
    DataType i8 = dt("int8"), u8 = dt("uint8"), i32 = dtype_int32();
    CU_ASSERT_EQUAL(ival(bin(PE_ADD, ity(127, i8), ity(1, i8))), -128);
    CU_ASSERT_EQUAL(ival(bin(PE_SUB, ity(0, u8), ity(1, u8))), 255);
    CU_ASSERT_EQUAL(ival(bin(PE_MUL, ity(65536, i32), ity(65536, i32))), 0);
    CU_ASSERT_EQUAL(ival(bin(PE_ADD, i64(INT64_MAX), i64(1))), INT64_MIN);
    CU_ASSERT_EQUAL(ival(bin(PE_MUL, i64(INT64_MIN), i64(-1))), INT64_MIN);
    CU_ASSERT_EQUAL(ival(bin(PE_DIV, i64(INT64_MIN), i64(-1))), INT64_MIN);
    CU_ASSERT_EQUAL(ival(bin(PE_MOD, i64(INT64_MIN), i64(-1))), 0);
    CU_ASSERT_EQUAL(ival(bin(PE_DIV, ity(-128, i8), ity(-1, i8))), -128);
    /* uint64 compares unsigned */
    DataType u64 = dt("uint64");
    CU_ASSERT_EQUAL(ival(bin(PE_LT, ity(1, u64), ity(-1, u64))), 1);
    CU_ASSERT_EQUAL(ival(bin(PE_MAX, ity(1, u64), ity(-1, u64))), -1);
}

static void test_division(void)
{
    CU_ASSERT_EQUAL(ival(bin(PE_DIV, i64(-7), i64(2))), -3);
    CU_ASSERT_EQUAL(ival(bin(PE_MOD, i64(-7), i64(2))), -1);
    CU_ASSERT_EQUAL(ival(bin(PE_FLOORDIV, i64(-7), i64(2))), -4);
    CU_ASSERT_EQUAL(ival(bin(PE_FLOORMOD, i64(-7), i64(2))), 1);
    CU_ASSERT_EQUAL(ival(bin(PE_FLOORMOD, i64(7), i64(-2))), -1);
    CU_ASSERT_EQUAL(ival(bin(PE_FLOORDIV, i64(6), i64(3))), 2);
    CU_ASSERT_STRING_EQUAL(eval(bin(PE_DIV, i64(1), i64(0))).code, "DivByZero");
    CU_ASSERT_STRING_EQUAL(eval(bin(PE_FLOORMOD, i64(1), i64(0))).code, "DivByZero");
    CU_ASSERT_TRUE(isinf(fval(bin(PE_DIV, f32(1), f32(0)))));
    CU_ASSERT_DOUBLE_EQUAL(fval(bin(PE_FLOORMOD, f32(-7), f32(2))), 1.0, 0);
}

static void test_compare_logic(void)
{
    CU_ASSERT_EQUAL(ival(bin(PE_LE, i64(-1), i64(0))), 1);
    CU_ASSERT_EQUAL(ival(bin(PE_GT, i64(-1), i64(0))), 0);
    CU_ASSERT_EQUAL(ival(bin(PE_MIN, i64(-5), i64(3))), -5);
    /* && short-circuits: the division by zero is never evaluated */
    PrimExpr *bad = bin(PE_EQ, bin(PE_DIV, i64(1), i64(0)), i64(0));
    CU_ASSERT_EQUAL(ival(bin(PE_AND, bin(PE_LT, i64(1), i64(0)), bad)), 0);
    CU_ASSERT_EQUAL(ival(bin(PE_OR, bin(PE_LT, i64(0), i64(1)), bad)), 1);
    PrimExpr *sel = primexpr_new(PE_SELECT, dtype_int64(), S);
    sel->u.select.cond = bin(PE_LT, i64(0), i64(1));
    sel->u.select.then_value = i64(10);
    sel->u.select.else_value = i64(20);
    CU_ASSERT_EQUAL(ival(sel), 10);
    PrimExpr *ite = call("tir.if_then_else", dtype_int64(), bin(PE_LT, i64(1), i64(0)),
                         bin(PE_DIV, i64(1), i64(0)), i64(5));
    CU_ASSERT_EQUAL(ival(ite), 5); /* lazy */
}

static void test_cast(void)
{
    DataType i8 = dt("int8"), u8 = dt("uint8");
    CU_ASSERT_EQUAL(ival(cast_to(dtype_int32(), f32(-2.75))), -2);
    CU_ASSERT_EQUAL(ival(cast_to(i8, f32(1000))), 127);
    CU_ASSERT_EQUAL(ival(cast_to(i8, f32(-1000))), -128);
    CU_ASSERT_EQUAL(ival(cast_to(u8, f32(-3))), 0);
    CU_ASSERT_EQUAL(ival(cast_to(dtype_int64(), primexpr_float(1e300, dtype_float64(), S))),
                    INT64_MAX);
    CU_ASSERT_EQUAL(ival(cast_to(dtype_int32(), primexpr_float(NAN, dtype_float64(), S))), 0);
    CU_ASSERT_EQUAL(ival(cast_to(i8, i64(300))), 44);
    CU_ASSERT_EQUAL(ival(cast_to(dtype_bool(), f32(0.5))), 1);
    /* float32 rounding of a float64 value */
    double d = fval(cast_to(dtype_float32(), primexpr_float(0.1, dtype_float64(), S)));
    CU_ASSERT_DOUBLE_EQUAL(d, (double)0.1f, 0);
    double h = fval(cast_to(dt("float16"), primexpr_float(65520.0, dtype_float64(), S)));
    CU_ASSERT_TRUE(isinf(h));
}

static void test_intrinsics(void)
{
    DataType f = dtype_float32();
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.exp", f, f32(0), NULL, NULL)), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.sqrt", f, f32(4), NULL, NULL)), 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.sigmoid", f, f32(0), NULL, NULL)), 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.round", f, f32(2.5), NULL, NULL)), 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.pow", f, f32(2), f32(10), NULL)), 1024.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(fval(call("tir.exp", f, f32(1), NULL, NULL)), (double)expf(1), 0);
    CU_ASSERT_EQUAL(
        ival(call("tir.isnan", dtype_bool(), call("tir.log", f, f32(-1), NULL, NULL), NULL, NULL)),
        1);
    CU_ASSERT_EQUAL(ival(call("tir.isfinite", dtype_bool(), i64(3), NULL, NULL)), 1);
    CU_ASSERT_STRING_EQUAL(eval(call("tir.nonesuch", f, f32(1), NULL, NULL)).code,
                           "OpNotImplemented");
    PrimExpr *v = primexpr_var(tirvar_new("n", dtype_int64(), S), S);
    CU_ASSERT_STRING_EQUAL(eval(bin(PE_ADD, v, i64(1))).code, "UnboundShapeVar");
}

UNIT_SUITE(prim_eval)
{
    CU_pSuite s = CU_add_suite("prim_eval", 0, 0);
    CU_add_test(s, "TIR-INT wrap-around", test_wrap);
    CU_add_test(s, "TIR-INT division", test_division);
    CU_add_test(s, "comparisons and logic", test_compare_logic);
    CU_add_test(s, "TIR-CAST", test_cast);
    CU_add_test(s, "TIR-INTRIN", test_intrinsics);
}
