/* script_prim: Python expressions to PrimExprs, for Relax shape dimensions and TIR bodies.
 * SPEC_NOTES: "TVMScript syntax" (TS-3.1, TS-11). */
#include "ast/script/script_prim.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"
#include "ast/script/script_prim_internal.h"

static const char *rule_of(const Tr *t)
{
    return t->env->tir ? "TS-11" : "TS-3.1";
}

static noreturn void fail_rule(ErrorTrap *trap, const char *code, const char *rule, Span span,
                               const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    error_raise(trap, PHASE_PARSE, code, rule, span, "%s", msg);
}

noreturn void prim_fail(const Tr *t, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
noreturn void prim_fail(const Tr *t, const char *code, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_rule(t->trap, code, rule_of(t), span, fmt, ap);
}

static noreturn void fail_trap(ErrorTrap *trap, const char *rule, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static noreturn void fail_trap(ErrorTrap *trap, const char *rule, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_rule(trap, "BadExpression", rule, span, fmt, ap);
}

/* ---- Python numbers ---------------------------------------------------------------- */

static double num_as_double(PyNum n)
{
    return n.is_float ? n.f : (double)n.i;
}

bool prim_fold_number(const Tr *t, const PyExpr *e, PyNum *out);

/* a ** b for b >= 0; false on overflow. Bases 0, 1 and -1 are the only ones that survive
 * more than 63 multiplications, so they are answered directly. */
static bool int_pow(int64_t a, int64_t b, int64_t *out)
{
    if (a == 0 || a == 1) {
        *out = b == 0 ? 1 : a;
        return true;
    }
    if (a == -1) {
        *out = (b & 1) ? -1 : 1;
        return true;
    }
    int64_t r = 1;
    for (int64_t k = 0; k < b; k++)
        if (__builtin_mul_overflow(r, a, &r))
            return false;
    *out = r;
    return true;
}

/* Python's integer arithmetic, within int64 (beyond it is an error, not a bignum). */
static int64_t fold_int(const Tr *t, PyOp op, int64_t a, int64_t b, Span span)
{
    int64_t r = 0;
    bool overflow = false;
    switch (op) {
    case PYOP_ADD:
        overflow = __builtin_add_overflow(a, b, &r);
        break;
    case PYOP_SUB:
        overflow = __builtin_sub_overflow(a, b, &r);
        break;
    case PYOP_MUL:
        overflow = __builtin_mul_overflow(a, b, &r);
        break;
    case PYOP_FLOORDIV:
    case PYOP_MOD:
        if (b == 0)
            prim_fail(t, "BadExpression", span, "integer division by zero");
        if (a == INT64_MIN && b == -1) {
            overflow = op == PYOP_FLOORDIV;
            break;
        }
        r = op == PYOP_FLOORDIV ? a / b : a % b;
        if ((a % b != 0) && ((a < 0) != (b < 0)))
            r = op == PYOP_FLOORDIV ? r - 1 : r + b;
        break;
    case PYOP_POW:
        if (b < 0)
            prim_fail(t, "BadExpression", span, "negative integer exponent");
        overflow = !int_pow(a, b, &r);
        break;
    default:
        prim_fail(t, "BadExpression", span, "operator not supported on integers");
    }
    if (overflow)
        prim_fail(t, "BadExpression", span, "integer literal arithmetic overflows int64");
    return r;
}

static double fold_float(const Tr *t, PyOp op, double a, double b, Span span)
{
    switch (op) {
    case PYOP_ADD:
        return a + b;
    case PYOP_SUB:
        return a - b;
    case PYOP_MUL:
        return a * b;
    case PYOP_DIV:
        if (b == 0)
            prim_fail(t, "BadExpression", span, "float division by zero");
        return a / b;
    case PYOP_FLOORDIV:
        if (b == 0)
            prim_fail(t, "BadExpression", span, "float division by zero");
        return floor(a / b);
    case PYOP_MOD:
        if (b == 0)
            prim_fail(t, "BadExpression", span, "float modulo by zero");
        return a - floor(a / b) * b;
    case PYOP_POW:
        return pow(a, b);
    default:
        prim_fail(t, "BadExpression", span, "operator not supported on floats");
    }
}

static bool fold_binop(const Tr *t, const PyExpr *e, PyNum *out)
{
    PyNum a, b;
    PyOp op = e->u.binop.op;
    if (op != PYOP_ADD && op != PYOP_SUB && op != PYOP_MUL && op != PYOP_DIV &&
        op != PYOP_FLOORDIV && op != PYOP_MOD && op != PYOP_POW)
        return false;
    if (!prim_fold_number(t, e->u.binop.left, &a) || !prim_fold_number(t, e->u.binop.right, &b))
        return false;
    if (a.is_float || b.is_float || op == PYOP_DIV) {
        out->is_float = true;
        out->f = fold_float(t, op, num_as_double(a), num_as_double(b), e->span);
        return true;
    }
    out->is_float = false;
    out->i = fold_int(t, op, a.i, b.i, e->span);
    return true;
}

/* literal -> INT | FLOAT | ('-' | '+') literal | literal binop literal */
bool prim_fold_number(const Tr *t, const PyExpr *e, PyNum *out)
{
    switch (e->kind) {
    case PY_INT:
        out->is_float = false;
        out->i = e->u.int_value;
        return true;
    case PY_FLOAT:
        out->is_float = true;
        out->f = e->u.float_value;
        return true;
    case PY_UNARYOP:
        if (e->u.unary.op != PYOP_NEG && e->u.unary.op != PYOP_POS)
            return false;
        if (!prim_fold_number(t, e->u.unary.operand, out))
            return false;
        if (e->u.unary.op == PYOP_NEG) {
            if (!out->is_float && out->i == INT64_MIN)
                prim_fail(t, "BadExpression", e->span, "integer literal overflows int64");
            out->i = -out->i;
            out->f = -out->f;
        }
        return true;
    case PY_BINOP:
        return fold_binop(t, e, out);
    default:
        return false;
    }
}

bool script_prim_is_literal(const PyExpr *e)
{
    switch (e->kind) {
    case PY_INT:
    case PY_FLOAT:
        return true;
    case PY_UNARYOP:
        return (e->u.unary.op == PYOP_NEG || e->u.unary.op == PYOP_POS) &&
               script_prim_is_literal(e->u.unary.operand);
    case PY_BINOP: {
        PyOp op = e->u.binop.op;
        bool arith = op == PYOP_ADD || op == PYOP_SUB || op == PYOP_MUL || op == PYOP_DIV ||
                     op == PYOP_FLOORDIV || op == PYOP_MOD || op == PYOP_POW;
        return arith && script_prim_is_literal(e->u.binop.left) &&
               script_prim_is_literal(e->u.binop.right);
    }
    default:
        return false;
    }
}

static bool int_fits(int64_t v, DataType type)
{
    if (dtype_is_bool(type))
        return v == 0 || v == 1;
    if (type.bits >= 64)
        return dtype_is_int(type) || v >= 0;
    if (dtype_is_uint(type))
        return v >= 0 && v < ((int64_t)1 << type.bits);
    int64_t half = (int64_t)1 << (type.bits - 1);
    return v >= -half && v < half;
}

/* TS-6: a float literal must fit its dtype, as TVM's FloatImm checks: a finite value beyond
 * the largest finite float32, float16 or bfloat16 is an error (infinities and NaN pass). */
static bool float_fits(double v, DataType type)
{
    double max = type.code == DT_BFLOAT ? 3.3895313892515355e38
                 : type.bits == 32      ? FLT_MAX
                 : type.bits == 16      ? 65504.0
                                        : INFINITY;
    return !isfinite(v) || fabs(v) <= max;
}

static PrimExpr *float_literal(const Tr *t, double v, DataType type, Span span)
{
    if (!float_fits(v, type))
        prim_fail(t, "BadExpression", span, "literal %g out of range for %s", v,
                  dtype_str(type));
    return primexpr_float(v, type, span);
}

/* A Python number meeting an expression of `type`: ints take an integer type, any number
 * takes a float type; a float meeting an integer stays float32 (promotion casts the other). */
PrimExpr *prim_literal_as(const Tr *t, PyNum n, DataType type, Span span)
{
    if (type.lanes != 1 || dtype_is_handle(type) || dtype_is_void(type))
        prim_fail(t, "BadExpression", span, "a number cannot combine with a %s value",
                  dtype_str(type));
    if (dtype_is_float(type))
        return float_literal(t, num_as_double(n), type, span);
    if (n.is_float)
        return float_literal(t, n.f, dtype_float32(), span);
    if (!int_fits(n.i, type))
        prim_fail(t, "BadExpression", span, "literal %lld out of range for %s", (long long)n.i,
                  dtype_str(type));
    return primexpr_int(n.i, type, span);
}

/* TIR: int32, or int64 when the value needs it; Relax dims: int64. Floats: float32. */
static PrimExpr *literal_default(const Tr *t, PyNum n, Span span)
{
    if (n.is_float)
        return float_literal(t, n.f, dtype_float32(), span);
    if (!t->env->tir || !int_fits(n.i, dtype_int32()))
        return primexpr_int(n.i, dtype_int64(), span);
    return primexpr_int(n.i, dtype_int32(), span);
}

/* ---- casts and operand promotion --------------------------------------------------- */

/* A cast that folds constants and drops a cast to the same type, as TVM's cast() does. */
PrimExpr *prim_cast_to(PrimExpr *e, DataType type, Span span)
{
    if (dtype_equal(e->dtype, type))
        return e;
    if (e->kind == PE_INT && dtype_is_float(type))
        return primexpr_float((double)e->u.int_value, type, span);
    if (e->kind == PE_INT && !dtype_is_float(type) && !dtype_is_handle(type))
        return primexpr_int(dtype_is_bool(type) ? e->u.int_value != 0 : e->u.int_value, type, span);
    if (e->kind == PE_FLOAT && dtype_is_float(type))
        return primexpr_float(e->u.float_value, type, span);
    if (e->kind == PE_FLOAT && isfinite(e->u.float_value) && fabs(e->u.float_value) < 9.2e18 &&
        (dtype_is_int(type) || dtype_is_uint(type)))
        return primexpr_int(dtype_is_bool(type) ? e->u.float_value != 0 : (int64_t)e->u.float_value,
                            type, span);
    PrimExpr *c = primexpr_new(PE_CAST, type, span);
    c->u.operand = e;
    return c;
}

/* TVM's BinaryOpMatchTypes: int meets float -> float; narrower meets wider -> wider; equal
 * widths of int and uint -> uint. */
bool prim_promote(PrimExpr **a, PrimExpr **b)
{
    DataType ta = (*a)->dtype, tb = (*b)->dtype;
    if (dtype_equal(ta, tb))
        return true;
    if (ta.lanes != tb.lanes || dtype_is_handle(ta) || dtype_is_handle(tb) || dtype_is_void(ta) ||
        dtype_is_void(tb))
        return false;
    bool fa = dtype_is_float(ta), fb = dtype_is_float(tb);
    if (fa && fb && ta.code != tb.code)
        return false;
    if (fa != fb) {
        if (fa)
            *b = prim_cast_to(*b, ta, (*b)->span);
        else
            *a = prim_cast_to(*a, tb, (*a)->span);
        return true;
    }
    if (ta.bits < tb.bits)
        *a = prim_cast_to(*a, tb, (*a)->span);
    else if (ta.bits > tb.bits)
        *b = prim_cast_to(*b, ta, (*b)->span);
    else if (dtype_is_uint(ta))
        *b = prim_cast_to(*b, ta, (*b)->span);
    else
        *a = prim_cast_to(*a, tb, (*a)->span);
    return true;
}

bool prim_is_integer(DataType t)
{
    return (dtype_is_int(t) || dtype_is_uint(t)) && t.lanes == 1;
}

/* TS-11: TVM's arithmetic builders fold two integer immediates (TryConstFold), so
 * T.int32(7) + T.int32(2) is the immediate 9, as TVM prints it. Folded only when the result
 * is a value of the dtype and the operation is defined (no division by zero). */
static bool fold_ints(PrimExprKind kind, int64_t x, int64_t y, int64_t *r)
{
    switch (kind) {
    case PE_ADD:
        return !__builtin_add_overflow(x, y, r);
    case PE_SUB:
        return !__builtin_sub_overflow(x, y, r);
    case PE_MUL:
        return !__builtin_mul_overflow(x, y, r);
    case PE_FLOORDIV:
    case PE_FLOORMOD: {
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) {
            q -= 1;
            m += y;
        }
        *r = kind == PE_FLOORDIV ? q : m;
        return true;
    }
    case PE_MIN:
        *r = x < y ? x : y;
        return true;
    case PE_MAX:
        *r = x > y ? x : y;
        return true;
    default:
        return false;
    }
}

static PrimExpr *combine(ErrorTrap *trap, const char *rule, PrimExprKind kind, PrimExpr *a,
                         PrimExpr *b, Span span)
{
    /* Comparisons and logic build the node directly, which needs equal types. */
    if (primexpr_is_compare(kind) || kind == PE_AND || kind == PE_OR) {
        if (!dtype_equal(a->dtype, b->dtype))
            fail_trap(trap, rule, span, "mismatched operand types %s and %s", dtype_str(a->dtype),
                      dtype_str(b->dtype));
        if ((kind == PE_AND || kind == PE_OR) && !dtype_is_bool(a->dtype))
            fail_trap(trap, rule, span, "and/or need bool operands, not %s", dtype_str(a->dtype));
        return primexpr_binary(kind, a, b, span);
    }
    if (!prim_promote(&a, &b))
        fail_trap(trap, rule, span, "cannot combine operand types %s and %s", dtype_str(a->dtype),
                  dtype_str(b->dtype));
    if ((kind == PE_FLOORDIV || kind == PE_FLOORMOD || kind == PE_MOD) &&
        !prim_is_integer(a->dtype))
        fail_trap(trap, rule, span, "integer division needs integer operands, not %s",
                  dtype_str(a->dtype));
    int64_t r;
    if (a->kind == PE_INT && b->kind == PE_INT && prim_is_integer(a->dtype) &&
        fold_ints(kind, a->u.int_value, b->u.int_value, &r) && int_fits(r, a->dtype))
        return primexpr_int(r, a->dtype, span);
    return primexpr_binary(kind, a, b, span);
}

PrimExpr *script_prim_binary(PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span,
                             ErrorTrap *trap)
{
    return combine(trap, "TS-11", kind, a, b, span);
}

PrimExpr *prim_binary(const Tr *t, PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span)
{
    return combine(t->trap, rule_of(t), kind, a, b, span);
}

/* Translates two operands; a Python number among them takes the other's type. */
void prim_translate_pair(const Tr *t, const PyExpr *x, const PyExpr *y, PrimExpr **a, PrimExpr **b)
{
    PyNum nx, ny;
    bool lx = prim_fold_number(t, x, &nx), ly = prim_fold_number(t, y, &ny);
    if (lx && !ly) {
        *b = prim_translate(t, y);
        *a = prim_literal_as(t, nx, (*b)->dtype, x->span);
    } else if (!lx && ly) {
        *a = prim_translate(t, x);
        *b = prim_literal_as(t, ny, (*a)->dtype, y->span);
    } else {
        *a = prim_translate(t, x);
        *b = prim_translate(t, y);
    }
}

/* ---- operators ------------------------------------------------------------------- */

static PrimExprKind arith_kind(PyOp op, bool *ok)
{
    *ok = true;
    switch (op) {
    case PYOP_ADD:
        return PE_ADD;
    case PYOP_SUB:
        return PE_SUB;
    case PYOP_MUL:
        return PE_MUL;
    case PYOP_DIV:
        return PE_DIV;
    case PYOP_FLOORDIV:
        return PE_FLOORDIV;
    case PYOP_MOD:
        return PE_FLOORMOD;
    case PYOP_BITAND:
        return PE_AND;
    case PYOP_BITOR:
        return PE_OR;
    case PYOP_EQ:
        return PE_EQ;
    case PYOP_NE:
        return PE_NE;
    case PYOP_LT:
        return PE_LT;
    case PYOP_LE:
        return PE_LE;
    case PYOP_GT:
        return PE_GT;
    case PYOP_GE:
        return PE_GE;
    default:
        *ok = false;
        return PE_ADD;
    }
}

/* arith -> expr ('+' | '-' | '*' | '/' | '//' | '%' | '&' | '|' | '^' | '<<' | '>>') expr */
static PrimExpr *translate_binop(const Tr *t, const PyExpr *e)
{
    const char *bit = prim_bitwise_op(e->u.binop.op);
    if (bit != NULL) {
        PrimExpr *x, *y;
        prim_translate_pair(t, e->u.binop.left, e->u.binop.right, &x, &y);
        /* & and | between bools are the logical and / or. */
        bool logical = dtype_is_bool(x->dtype) && dtype_is_bool(y->dtype) &&
                       (e->u.binop.op == PYOP_BITAND || e->u.binop.op == PYOP_BITOR);
        if (!logical)
            return prim_bitwise(t, bit, x, y, e->span);
        return prim_binary(t, e->u.binop.op == PYOP_BITAND ? PE_AND : PE_OR, x, y, e->span);
    }
    bool ok;
    PrimExprKind kind = arith_kind(e->u.binop.op, &ok);
    if (!ok || primexpr_is_compare(kind))
        prim_fail(t, "BadExpression", e->span, "operator not supported in a PrimExpr");
    PrimExpr *a, *b;
    prim_translate_pair(t, e->u.binop.left, e->u.binop.right, &a, &b);
    /* `/` between integers is rejected by TVM as ambiguous; T.Div, T.truncdiv and `//`
     * say which division is meant. */
    if (kind == PE_DIV && prim_is_integer(a->dtype) && prim_is_integer(b->dtype))
        prim_fail(t, "BadExpression", e->span,
                  "`/` between integers is ambiguous; use //, T.truncdiv or T.Div");
    if ((kind == PE_AND || kind == PE_OR) && !(dtype_is_bool(a->dtype) && dtype_is_bool(b->dtype)))
        prim_fail(t, "BadExpression", e->span, "bitwise & and | are supported on bools only");
    return prim_binary(t, kind, a, b, e->span);
}

/* unary -> ('-' | '+' | 'not') expr */
static PrimExpr *translate_unary(const Tr *t, const PyExpr *e)
{
    PrimExpr *x = prim_translate(t, e->u.unary.operand);
    switch (e->u.unary.op) {
    case PYOP_POS:
        return x;
    case PYOP_INVERT:
        return prim_bitwise_not(t, x, e->span);
    case PYOP_NOT: {
        if (!dtype_is_bool(x->dtype))
            prim_fail(t, "BadExpression", e->span, "`not` needs a bool operand");
        PrimExpr *n = primexpr_new(PE_NOT, x->dtype, e->span);
        n->u.operand = x;
        return n;
    }
    case PYOP_NEG:
        /* TVM negates by multiplying with -1 of the operand's type. */
        if (dtype_is_float(x->dtype))
            return prim_binary(t, PE_MUL, x, primexpr_float(-1.0, x->dtype, e->span), e->span);
        if (dtype_is_int(x->dtype))
            return prim_binary(t, PE_MUL, x, primexpr_int(-1, x->dtype, e->span), e->span);
        prim_fail(t, "BadExpression", e->span, "cannot negate a %s value", dtype_str(x->dtype));
    default:
        prim_fail(t, "BadExpression", e->span, "operator not supported in a PrimExpr");
    }
}

/* boolop -> expr ('and' | 'or') expr ... */
static PrimExpr *translate_boolop(const Tr *t, const PyExpr *e)
{
    PrimExprKind kind = e->u.boolop.op == PYOP_AND ? PE_AND : PE_OR;
    PrimExpr *acc = prim_translate(t, e->u.boolop.items[0]);
    for (int i = 1; i < e->u.boolop.n; i++)
        acc = prim_binary(t, kind, acc, prim_translate(t, e->u.boolop.items[i]), e->span);
    return acc;
}

/* compare -> expr (cmpop expr)+ ; a < b < c is (a < b) and (b < c) */
static PrimExpr *translate_compare(const Tr *t, const PyExpr *e)
{
    PrimExpr *acc = NULL;
    const PyExpr *left = e->u.compare.first;
    for (int i = 0; i < e->u.compare.n; i++) {
        bool ok;
        PrimExprKind kind = arith_kind(e->u.compare.ops[i], &ok);
        if (!ok || !primexpr_is_compare(kind))
            prim_fail(t, "BadExpression", e->span, "comparison not supported in a PrimExpr");
        PrimExpr *a, *b;
        prim_translate_pair(t, left, e->u.compare.rest[i], &a, &b);
        PrimExpr *c = prim_binary(t, kind, a, b, e->span);
        acc = acc ? primexpr_binary(PE_AND, acc, c, e->span) : c;
        left = e->u.compare.rest[i];
    }
    return acc;
}

/* ---- names and loads ------------------------------------------------------------- */

static PrimExpr *translate_name(const Tr *t, const PyExpr *e)
{
    TirVar *var = NULL;
    Buffer *buffer = NULL;
    PrimExpr *alias = t->env->alias ? t->env->alias(t->env->ctx, e->u.name) : NULL;
    if (alias != NULL)
        return alias;
    if (!t->env->lookup(t->env->ctx, e->u.name, &var, &buffer))
        prim_fail(t, "UnknownName", e->span, "name `%s` is not defined", e->u.name);
    if (!var)
        prim_fail(t, "BadExpression", e->span, "buffer `%s` used as a value; index it", e->u.name);
    return primexpr_var(var, e->span);
}

/* dim -> NAME '.shape' '[' INT ']' : a buffer's dimension (negative counts from the end). */
static PrimExpr *translate_shape_dim(const Tr *t, const PyExpr *e)
{
    const PyExpr *base = e->u.subscript.value->u.attr.value;
    const PyExpr *index = e->u.subscript.index;
    TirVar *var = NULL;
    Buffer *buffer = NULL;
    if (base->kind != PY_NAME || !t->env->lookup(t->env->ctx, base->u.name, &var, &buffer) ||
        buffer == NULL)
        prim_fail(t, "BadExpression", e->span, "only a buffer has a shape");
    PyNum k;
    if (!prim_fold_number(t, index, &k) || k.is_float)
        prim_fail(t, "BadExpression", index->span, "a shape index must be an integer literal");
    int64_t i = k.i < 0 ? k.i + buffer->ndim : k.i;
    if (i < 0 || i >= buffer->ndim)
        prim_fail(t, "BadExpression", index->span, "buffer `%s` has %d dimensions", buffer->name,
                  buffer->ndim);
    return buffer->shape[i];
}

/* load -> NAME '[' expr (',' expr)* ']' */
static PrimExpr *translate_load(const Tr *t, const PyExpr *e)
{
    const PyExpr *base = e->u.subscript.value;
    TirVar *var = NULL;
    Buffer *buffer = NULL;
    if (base->kind == PY_ATTR && strcmp(base->u.attr.attr, "shape") == 0)
        return translate_shape_dim(t, e);
    if (base->kind != PY_NAME)
        prim_fail(t, "BadExpression", e->span, "only buffers can be indexed");
    if (!t->env->lookup(t->env->ctx, base->u.name, &var, &buffer))
        prim_fail(t, "UnknownName", base->span, "name `%s` is not defined", base->u.name);
    if (!buffer)
        prim_fail(t, "BadExpression", e->span, "`%s` is not a buffer", base->u.name);
    const PyExpr *index = e->u.subscript.index;
    const PyExpr *const *items = &index;
    int n = 1;
    if (index->kind == PY_TUPLE) {
        items = (const PyExpr *const *)index->u.seq.items;
        n = index->u.seq.n;
    }
    if (n != buffer->ndim)
        error_raise(t->trap, PHASE_PARSE, "TirSyntax", "TS-11", e->span,
                    "buffer `%s` has %d dimensions but %d indices are given", buffer->name,
                    buffer->ndim, n);
    PrimExpr *load = primexpr_new(PE_LOAD, buffer->dtype, e->span);
    load->u.load.buffer = buffer;
    load->u.load.indices = MEM_ARRAY(PrimExpr *, n);
    load->u.load.nindices = n;
    for (int i = 0; i < n; i++) {
        if (items[i]->kind == PY_SLICE)
            prim_fail(t, "BadExpression", items[i]->span, "a slice is not a value");
        PrimExpr *x = prim_translate(t, items[i]);
        if (!prim_is_integer(x->dtype) || dtype_is_bool(x->dtype))
            prim_fail(t, "BadExpression", items[i]->span, "a buffer index must be an integer");
        load->u.load.indices[i] = x;
    }
    return load;
}

/* ---- dispatch --------------------------------------------------------------------- */

PrimExpr *prim_translate(const Tr *t, const PyExpr *e)
{
    PyNum n;
    if (prim_fold_number(t, e, &n))
        return literal_default(t, n, e->span);
    switch (e->kind) {
    case PY_NAME:
        return translate_name(t, e);
    case PY_BOOL:
        return primexpr_int(e->u.bool_value, dtype_bool(), e->span);
    case PY_BINOP:
        return translate_binop(t, e);
    case PY_UNARYOP:
        return translate_unary(t, e);
    case PY_BOOLOP:
        return translate_boolop(t, e);
    case PY_COMPARE:
        return translate_compare(t, e);
    case PY_CALL:
        return prim_translate_call(t, e);
    case PY_SUBSCRIPT:
        return translate_load(t, e);
    case PY_ATTR:
    case PY_SLICE:
    case PY_TUPLE:
    case PY_LIST:
    case PY_DICT:
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_NONE:
    case PY_IFEXP:
    case PY_STARRED:
    case PY_LAMBDA:
        break;
    }
    prim_fail(t, "BadExpression", e->span, "not a PrimExpr");
}

PrimExpr *script_prim_expr(const PyExpr *e, const PrimEnv *env, ErrorTrap *trap)
{
    Tr t = {env, trap};
    return prim_translate(&t, e);
}

PrimExpr *script_prim_expr_typed(const PyExpr *e, DataType hint, const PrimEnv *env,
                                 ErrorTrap *trap)
{
    Tr t = {env, trap};
    PyNum n;
    if (prim_fold_number(&t, e, &n))
        return prim_literal_as(&t, n, hint, e->span);
    return prim_translate(&t, e);
}
