/* test_arith: the canonical simplifier against the forms TVM v0.22's arith analyzer prints
 * (tvm.arith.Analyzer().simplify on int64 variables). SPEC_NOTES: "Symbolic dimensions". */
#include <string.h>

#include "ast/arith/simplify.h"
#include "ast/checked.h"
#include "ast/print/printer.h"
#include "tools/tests/unit.h"

static TirVar *N, *M, *K;

static PrimExpr *v(TirVar *x)
{
    return primexpr_var(x, span_none());
}

static PrimExpr *c(int64_t k)
{
    return primexpr_int(k, dtype_int64(), span_none());
}

static PrimExpr *op(PrimExprKind k, PrimExpr *a, PrimExpr *b)
{
    return primexpr_binary(k, a, b, span_none());
}

static void expect(PrimExpr *e, const char *want)
{
    const char *got = printer_print_primexpr(arith_simplify(e));
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n  simplify: expected %s, got %s\n", want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

static void setup(void)
{
    N = tirvar_new("n", dtype_int64(), span_none());
    M = tirvar_new("m", dtype_int64(), span_none());
    K = tirvar_new("k", dtype_int64(), span_none());
}

/* ARITH-1: like terms, constant folding, exact division. */
static void test_collect_and_fold(void)
{
    setup();
    expect(op(PE_ADD, v(N), v(N)), "n * 2");
    expect(op(PE_FLOORDIV, op(PE_MUL, v(N), c(6)), c(3)), "n * 2");
    expect(op(PE_MUL, op(PE_MUL, v(N), c(3)), c(2)), "n * 6");
    expect(op(PE_ADD, op(PE_SUB, v(N), c(1)), c(1)), "n");
    expect(op(PE_SUB, op(PE_MUL, v(N), c(2)), v(N)), "n");
    expect(op(PE_FLOORDIV, op(PE_ADD, op(PE_MUL, v(N), c(4)), c(2)), c(2)), "n * 2 + 1");
    expect(op(PE_FLOORMOD, op(PE_MUL, v(N), c(4)), c(2)), "0");
    expect(op(PE_MUL, c(2), c(3)), "6");
    expect(op(PE_FLOORDIV, c(-7), c(2)), "-4");
}

/* ARITH-1: TVM's term order: coefficient, largest first, then as written; constant last. */
static void test_order(void)
{
    setup();
    expect(op(PE_ADD, c(3), v(N)), "n + 3");
    expect(op(PE_ADD, v(M), v(N)), "m + n");
    expect(op(PE_ADD, v(N), v(M)), "n + m");
    expect(op(PE_ADD, op(PE_ADD, op(PE_MUL, c(2), v(N)), op(PE_MUL, v(M), c(3))), c(1)),
           "m * 3 + n * 2 + 1");
    expect(op(PE_SUB, v(N), v(M)), "n - m");
    expect(op(PE_SUB, c(1), v(N)), "1 - n");
    expect(op(PE_ADD, op(PE_MUL, op(PE_MUL, v(M), v(N)), c(2)), v(K)), "m * n * 2 + k");
    expect(op(PE_ADD, op(PE_MUL, v(N), v(M)), v(N)), "n * m + n");
}

/* ARITH-1: what the analyzer keeps as written. */
static void test_kept(void)
{
    setup();
    PrimExpr *p = op(PE_MUL, op(PE_ADD, v(N), c(1)), op(PE_SUB, v(N), c(1)));
    expect(p, "(n + 1) * (n - 1)");
    expect(op(PE_FLOORDIV, op(PE_MUL, v(N), c(6)), c(4)), "n * 6 // 4");
    expect(op(PE_FLOORMOD, v(N), c(3)), "n % 3");
    expect(op(PE_MUL, v(N), op(PE_ADD, v(M), v(K))), "n * (m + k)");
    expect(op(PE_MUL, op(PE_FLOORDIV, v(N), c(2)), c(2)), "n // 2 * 2");
}

/* The checked helpers: exact results inside int64, a sticky flag (and 0) outside it. */
static void test_checked(void)
{
    bool over = false;
    CU_ASSERT_EQUAL(checked_add(INT64_MAX - 1, 1, &over), INT64_MAX);
    CU_ASSERT_EQUAL(checked_sub(INT64_MIN + 1, 1, &over), INT64_MIN);
    CU_ASSERT_EQUAL(checked_mul((int64_t)1 << 31, (int64_t)1 << 31, &over), (int64_t)1 << 62);
    CU_ASSERT_EQUAL(checked_floordiv(-7, 2, &over), -4);
    CU_ASSERT_EQUAL(checked_ceildiv(7, 2), 4);
    CU_ASSERT_EQUAL(checked_ceildiv(INT64_MAX, 2), ((int64_t)1 << 62));
    CU_ASSERT_EQUAL(checked_ceildiv(-7, 2), -3);
    CU_ASSERT_FALSE(over);
    CU_ASSERT_EQUAL(checked_add(INT64_MAX, 1, &over), 0);
    CU_ASSERT_TRUE(over);
    over = false;
    CU_ASSERT_EQUAL(checked_mul((int64_t)1 << 62, 2, &over), 0);
    CU_ASSERT_TRUE(over);
    over = false;
    checked_neg(INT64_MIN, &over);
    CU_ASSERT_TRUE(over);
    over = false;
    checked_floordiv(INT64_MIN, -1, &over);
    CU_ASSERT_TRUE(over);
    over = false;
    int64_t dims[3] = {(int64_t)1 << 62, 4, 0};
    checked_product(dims, 3, &over); /* 2^64 before the 0: overflow, as the product is formed */
    CU_ASSERT_TRUE(over);
    /* The flag is sticky: a later exact step leaves it set. */
    checked_add(1, 1, &over);
    CU_ASSERT_TRUE(over);
}

/* ARITH-1 over sizes: a folded coefficient or constant past int64 gives NULL, never a
 * wrapped value; one that fits is kept exactly. */
static void test_overflow(void)
{
    setup();
    int64_t big = (int64_t)1 << 62;
    CU_ASSERT_PTR_NULL(arith_simplify(op(PE_MUL, op(PE_MUL, v(N), c(big)), c(2))));
    CU_ASSERT_PTR_NULL(arith_simplify(op(PE_ADD, op(PE_ADD, v(N), c(INT64_MAX)), c(1))));
    CU_ASSERT_PTR_NULL(
        arith_simplify(op(PE_ADD, op(PE_MUL, v(N), c(big)), op(PE_MUL, v(N), c(big)))));
    expect(op(PE_MUL, op(PE_MUL, v(N), c(big)), c(1)), "n * 4611686018427387904");
    expect(op(PE_ADD, op(PE_ADD, v(N), c(INT64_MAX - 1)), c(1)), "n + 9223372036854775807");
}

UNIT_SUITE(arith)
{
    CU_add_test(CU_add_suite("checked", 0, 0), "int64 helpers", test_checked);
    CU_pSuite s = CU_add_suite("arith_simplify", 0, 0);
    CU_add_test(s, "collect and fold", test_collect_and_fold);
    CU_add_test(s, "order", test_order);
    CU_add_test(s, "kept as written", test_kept);
    CU_add_test(s, "overflow", test_overflow);
}
