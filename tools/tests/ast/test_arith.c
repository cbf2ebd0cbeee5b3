/* test_arith: the canonical simplifier against the forms TVM v0.22's arith analyzer prints
 * (tvm.arith.Analyzer().simplify on int64 variables). SPEC_NOTES: "Symbolic dimensions". */
#include <string.h>

#include "ast/arith/simplify.h"
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

UNIT_SUITE(arith)
{
    CU_pSuite s = CU_add_suite("arith_simplify", 0, 0);
    CU_add_test(s, "collect and fold", test_collect_and_fold);
    CU_add_test(s, "order", test_order);
    CU_add_test(s, "kept as written", test_kept);
}
