/* test_prover: three-valued PrimExpr equality: folding, linear forms, monomials,
 * floordiv/floormod by constants, min/max, and the prover's limits.
 * SPEC_NOTES: "StructInfo" (PROVER-1). */
#include "ast/mem.h"
#include "interp/structinfo/prover.h"
#include "tools/tests/unit.h"

#define SP span_none()

static TirVar *n_var, *m_var;

static PrimExpr *c(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static PrimExpr *n(void)
{
    if (n_var == NULL)
        n_var = tirvar_new("n", dtype_int64(), SP);
    return primexpr_var(n_var, SP);
}

static PrimExpr *m(void)
{
    if (m_var == NULL)
        m_var = tirvar_new("m", dtype_int64(), SP);
    return primexpr_var(m_var, SP);
}

static PrimExpr *bin(PrimExprKind k, PrimExpr *a, PrimExpr *b)
{
    return primexpr_binary(k, a, b, SP);
}

static void test_constants(void)
{
    CU_ASSERT_EQUAL(prover_compare(c(4), bin(PE_ADD, c(1), c(3))), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(c(4), c(5)), PROVE_UNEQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, c(-7), c(2)), c(-4)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_DIV, c(-7), c(2)), c(-3)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORMOD, c(-7), c(2)), c(1)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MOD, c(-7), c(2)), c(-1)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MIN, c(3), c(9)), c(3)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MAX, c(3), c(9)), c(9)), PROVE_EQUAL);
    int64_t v = 0;
    CU_ASSERT_TRUE(prover_const_int(bin(PE_MUL, c(6), c(7)), &v));
    CU_ASSERT_EQUAL(v, 42);
    CU_ASSERT_FALSE(prover_const_int(n(), &v));
}

static void test_linear(void)
{
    /* n + n == 2 * n; (n + 1) - 1 == n; n + m == m + n */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_ADD, n(), n()), bin(PE_MUL, c(2), n())), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_SUB, bin(PE_ADD, n(), c(1)), c(1)), n()), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_ADD, n(), m()), bin(PE_ADD, m(), n())), PROVE_EQUAL);
    /* n + 1 != n for every n */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_ADD, n(), c(1)), n()), PROVE_UNEQUAL);
    /* n vs m: unknown; n vs 4: unknown */
    CU_ASSERT_EQUAL(prover_compare(n(), m()), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(n(), c(4)), PROVE_UNKNOWN);
}

static void test_monomials(void)
{
    /* (n + 1) * (n + 1) == n*n + 2*n + 1; n * m == m * n */
    PrimExpr *sq = bin(PE_MUL, bin(PE_ADD, n(), c(1)), bin(PE_ADD, n(), c(1)));
    PrimExpr *ex = bin(PE_ADD, bin(PE_ADD, bin(PE_MUL, n(), n()), bin(PE_MUL, c(2), n())), c(1));
    CU_ASSERT_EQUAL(prover_compare(sq, ex), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MUL, n(), m()), bin(PE_MUL, m(), n())), PROVE_EQUAL);
    /* limit: n * n vs n is unknown (equal at 0 and 1) */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MUL, n(), n()), n()), PROVE_UNKNOWN);
}

static void test_division(void)
{
    /* floordiv(2n + 4, 2) == n + 2; floormod(2n + 5, 2) == 1; floordiv(n, 2) stays opaque */
    PrimExpr *x = bin(PE_ADD, bin(PE_MUL, c(2), n()), c(4));
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, x, c(2)), bin(PE_ADD, n(), c(2))), PROVE_EQUAL);
    PrimExpr *y = bin(PE_ADD, bin(PE_MUL, c(2), n()), c(5));
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORMOD, y, c(2)), c(1)), PROVE_EQUAL);
    /* floordiv(4n + 3, 4) == n + floordiv(3, 4) == n */
    PrimExpr *z = bin(PE_ADD, bin(PE_MUL, c(4), n()), c(3));
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, z, c(4)), n()), PROVE_EQUAL);
    /* floordiv(n + 2, 2) == floordiv(n, 2) + 1 */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, bin(PE_ADD, n(), c(2)), c(2)),
                                   bin(PE_ADD, bin(PE_FLOORDIV, n(), c(2)), c(1))),
                    PROVE_EQUAL);
    /* limit: floordiv(n, 2) * 2 vs n is unknown */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MUL, bin(PE_FLOORDIV, n(), c(2)), c(2)), n()),
                    PROVE_UNKNOWN);
    /* limit: division by a variable is opaque, but equal operands still match */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, n(), m()), bin(PE_FLOORDIV, n(), m())),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_FLOORDIV, n(), m()), c(1)), PROVE_UNKNOWN);
}

static void test_min_max(void)
{
    /* min(n, n + 1) == n; max(n, n + 1) == n + 1; min(n, m) == min(m, n) */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MIN, n(), bin(PE_ADD, n(), c(1))), n()), PROVE_EQUAL);
    CU_ASSERT_EQUAL(
        prover_compare(bin(PE_MAX, n(), bin(PE_ADD, n(), c(1))), bin(PE_ADD, c(1), n())),
        PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MIN, n(), m()), bin(PE_MIN, m(), n())), PROVE_EQUAL);
    /* limit: min(n, m) vs n is unknown */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_MIN, n(), m()), n()), PROVE_UNKNOWN);
    /* min(n, m) + 1 vs min(n, m) is unequal: the atom cancels */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_ADD, bin(PE_MIN, n(), m()), c(1)), bin(PE_MIN, n(), m())),
                    PROVE_UNEQUAL);
}

/* Comparisons and logic fold on constants: each kind at a pair below, equal to and above. */
static void test_compare_folding(void)
{
    static const struct {
        PrimExprKind kind;
        int64_t below, equal, above; /* the value at (2, 3), (3, 3), (3, 2) */
    } table[] = {
        {PE_EQ, 0, 1, 0}, {PE_NE, 1, 0, 1}, {PE_LT, 1, 0, 0},
        {PE_LE, 1, 1, 0}, {PE_GT, 0, 0, 1}, {PE_GE, 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        PrimExprKind k = table[i].kind;
        CU_ASSERT_EQUAL(prover_compare(bin(k, c(2), c(3)), c(table[i].below)), PROVE_EQUAL);
        CU_ASSERT_EQUAL(prover_compare(bin(k, c(3), c(3)), c(table[i].equal)), PROVE_EQUAL);
        CU_ASSERT_EQUAL(prover_compare(bin(k, c(3), c(2)), c(table[i].above)), PROVE_EQUAL);
    }
    /* and/or of constants: any nonzero operand is true */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, c(2), c(5)), c(1)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, c(2), c(0)), c(0)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, c(0), c(2)), c(0)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_OR, c(0), c(0)), c(0)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_OR, c(0), c(5)), c(1)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_OR, c(5), c(0)), c(1)), PROVE_EQUAL);
}

static PrimExpr *unary(PrimExprKind k, DataType t, PrimExpr *x)
{
    PrimExpr *e = primexpr_new(k, t, SP);
    e->u.operand = x;
    return e;
}

static PrimExpr *select3(PrimExpr *cond, PrimExpr *a, PrimExpr *b)
{
    PrimExpr *e = primexpr_new(PE_SELECT, a->dtype, SP);
    e->u.select.cond = cond;
    e->u.select.then_value = a;
    e->u.select.else_value = b;
    return e;
}

static PrimExpr *call1(const char *name, PrimExpr *x)
{
    PrimExpr *e = primexpr_new(PE_CALL, x->dtype, SP);
    e->u.call.name = name;
    e->u.call.args = mem_alloc(sizeof(PrimExpr *));
    e->u.call.args[0] = x;
    e->u.call.nargs = 1;
    return e;
}

/* Atoms (PROVER-1: comparisons, not, select, cast, calls) are over their normalized operands:
 * equal operands match, different ones leave the answer unknown. */
static void test_atoms(void)
{
    /* a comparison is its operands' difference against zero: n + 1 == m is n == m - 1 */
    CU_ASSERT_EQUAL(prover_compare(bin(PE_EQ, bin(PE_ADD, n(), c(1)), m()),
                                   bin(PE_EQ, n(), bin(PE_SUB, m(), c(1)))),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_LT, n(), m()),
                                   bin(PE_LT, bin(PE_ADD, n(), c(1)), bin(PE_ADD, m(), c(1)))),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_LT, n(), m()), bin(PE_LE, n(), m())), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_LT, n(), m()), bin(PE_LT, m(), n())), PROVE_UNKNOWN);
    /* and/or are over both operands, not their difference (which is 0 for x op x) */
    PrimExpr *nlt = bin(PE_LT, n(), c(3)), *mlt = bin(PE_LT, m(), c(3));
    CU_ASSERT_EQUAL(prover_compare(bin(PE_OR, nlt, nlt), bin(PE_OR, mlt, mlt)), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, nlt, nlt), bin(PE_AND, mlt, mlt)), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, nlt, mlt), bin(PE_AND, bin(PE_LT, n(), c(3)), mlt)),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(bin(PE_AND, nlt, mlt), bin(PE_OR, nlt, mlt)), PROVE_UNKNOWN);
    /* not */
    DataType b = dtype_bool();
    CU_ASSERT_EQUAL(prover_compare(unary(PE_NOT, b, nlt), unary(PE_NOT, b, bin(PE_LT, n(), c(3)))),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_NOT, b, nlt), unary(PE_NOT, b, mlt)), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_NOT, b, nlt), nlt), PROVE_UNKNOWN);
    CU_ASSERT_STRING_NOT_EQUAL(prover_canonical(unary(PE_NOT, b, nlt)),
                               prover_canonical(unary(PE_NOT, b, mlt)));
    /* select: the condition and both values count, in order */
    PrimExpr *np1 = bin(PE_ADD, n(), c(1)), *one_n = bin(PE_ADD, c(1), n());
    CU_ASSERT_EQUAL(prover_compare(select3(nlt, np1, m()), select3(nlt, one_n, m())), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(select3(nlt, np1, m()), select3(nlt, m(), np1)), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(select3(nlt, np1, m()), select3(mlt, np1, m())), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(select3(nlt, np1, m()), select3(nlt, np1, n())), PROVE_UNKNOWN);
    /* cast: an int64 cast of a constant folds; any other cast is an atom */
    DataType i64 = dtype_int64(), i32 = dtype_int32();
    CU_ASSERT_EQUAL(prover_compare(unary(PE_CAST, i64, primexpr_int(5, i32, SP)), c(5)),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_CAST, i32, c(5)), c(5)), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_CAST, i32, np1), unary(PE_CAST, i32, one_n)),
                    PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_CAST, i32, n()), unary(PE_CAST, i32, m())),
                    PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(unary(PE_CAST, i64, n()), unary(PE_CAST, i32, n())),
                    PROVE_UNKNOWN);
    /* intrinsic calls: the name and the arguments */
    CU_ASSERT_EQUAL(prover_compare(call1("tir.abs", np1), call1("tir.abs", one_n)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(call1("tir.abs", n()), call1("tir.abs", m())), PROVE_UNKNOWN);
    CU_ASSERT_EQUAL(prover_compare(call1("tir.abs", n()), call1("tir.exp", n())), PROVE_UNKNOWN);
}

static void test_overflow_and_floats(void)
{
    /* An overflowing constant product is given up on, not wrapped. */
    PrimExpr *big = bin(PE_MUL, c(INT64_MAX), c(2));
    CU_ASSERT_EQUAL(prover_compare(big, c(-2)), PROVE_UNKNOWN);
    PrimExpr *f1 = primexpr_float(1.5, dtype_float32(), SP);
    PrimExpr *f2 = primexpr_float(2.5, dtype_float32(), SP);
    CU_ASSERT_EQUAL(prover_compare(f1, f1), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(f1, f2), PROVE_UNEQUAL);
    CU_ASSERT_STRING_EQUAL(prover_canonical(bin(PE_ADD, n(), bin(PE_SUB, c(3), c(3)))),
                           prover_canonical(n()));
}

UNIT_SUITE(prover)
{
    CU_pSuite s = CU_add_suite("prover", 0, 0);
    CU_add_test(s, "constants", test_constants);
    CU_add_test(s, "linear forms", test_linear);
    CU_add_test(s, "monomials", test_monomials);
    CU_add_test(s, "floordiv and floormod", test_division);
    CU_add_test(s, "min and max", test_min_max);
    CU_add_test(s, "overflow and floats", test_overflow_and_floats);
    CU_add_test(s, "comparison folding", test_compare_folding);
    CU_add_test(s, "atoms", test_atoms);
}
