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
#include "ast/script/script_internal.h"

typedef struct Tr {
    const PrimEnv *env;
    ErrorTrap *trap;
} Tr;

/* A number Python computes before TVM sees it: literals and arithmetic on literals. */
typedef struct PyNum {
    bool is_float;
    int64_t i;
    double f;
} PyNum;

static PrimExpr *translate(const Tr *t, const PyExpr *e);

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

static noreturn void fail(const Tr *t, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static noreturn void fail(const Tr *t, const char *code, Span span, const char *fmt, ...)
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

static bool fold_number(const Tr *t, const PyExpr *e, PyNum *out);

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
            fail(t, "BadExpression", span, "integer division by zero");
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
            fail(t, "BadExpression", span, "negative integer exponent");
        overflow = !int_pow(a, b, &r);
        break;
    default:
        fail(t, "BadExpression", span, "operator not supported on integers");
    }
    if (overflow)
        fail(t, "BadExpression", span, "integer literal arithmetic overflows int64");
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
            fail(t, "BadExpression", span, "float division by zero");
        return a / b;
    case PYOP_FLOORDIV:
        if (b == 0)
            fail(t, "BadExpression", span, "float division by zero");
        return floor(a / b);
    case PYOP_MOD:
        if (b == 0)
            fail(t, "BadExpression", span, "float modulo by zero");
        return a - floor(a / b) * b;
    case PYOP_POW:
        return pow(a, b);
    default:
        fail(t, "BadExpression", span, "operator not supported on floats");
    }
}

static bool fold_binop(const Tr *t, const PyExpr *e, PyNum *out)
{
    PyNum a, b;
    PyOp op = e->u.binop.op;
    if (op != PYOP_ADD && op != PYOP_SUB && op != PYOP_MUL && op != PYOP_DIV &&
        op != PYOP_FLOORDIV && op != PYOP_MOD && op != PYOP_POW)
        return false;
    if (!fold_number(t, e->u.binop.left, &a) || !fold_number(t, e->u.binop.right, &b))
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
static bool fold_number(const Tr *t, const PyExpr *e, PyNum *out)
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
        if (!fold_number(t, e->u.unary.operand, out))
            return false;
        if (e->u.unary.op == PYOP_NEG) {
            if (!out->is_float && out->i == INT64_MIN)
                fail(t, "BadExpression", e->span, "integer literal overflows int64");
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

/* A Python number meeting an expression of `type`: ints take an integer type, any number
 * takes a float type; a float meeting an integer stays float32 (promotion casts the other). */
static PrimExpr *literal_as(const Tr *t, PyNum n, DataType type, Span span)
{
    if (type.lanes != 1 || dtype_is_handle(type) || dtype_is_void(type))
        fail(t, "BadExpression", span, "a number cannot combine with a %s value", dtype_str(type));
    if (dtype_is_float(type))
        return primexpr_float(num_as_double(n), type, span);
    if (n.is_float)
        return primexpr_float(n.f, dtype_float32(), span);
    if (!int_fits(n.i, type))
        fail(t, "BadExpression", span, "literal %lld out of range for %s", (long long)n.i,
             dtype_str(type));
    return primexpr_int(n.i, type, span);
}

/* TIR: int32, or int64 when the value needs it; Relax dims: int64. Floats: float32. */
static PrimExpr *literal_default(const Tr *t, PyNum n, Span span)
{
    if (n.is_float)
        return primexpr_float(n.f, dtype_float32(), span);
    if (!t->env->tir || !int_fits(n.i, dtype_int32()))
        return primexpr_int(n.i, dtype_int64(), span);
    return primexpr_int(n.i, dtype_int32(), span);
}

/* ---- casts and operand promotion --------------------------------------------------- */

/* A cast that folds constants and drops a cast to the same type, as TVM's cast() does. */
static PrimExpr *cast_to(PrimExpr *e, DataType type, Span span)
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
static bool promote(PrimExpr **a, PrimExpr **b)
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
            *b = cast_to(*b, ta, (*b)->span);
        else
            *a = cast_to(*a, tb, (*a)->span);
        return true;
    }
    if (ta.bits < tb.bits)
        *a = cast_to(*a, tb, (*a)->span);
    else if (ta.bits > tb.bits)
        *b = cast_to(*b, ta, (*b)->span);
    else if (dtype_is_uint(ta))
        *b = cast_to(*b, ta, (*b)->span);
    else
        *a = cast_to(*a, tb, (*a)->span);
    return true;
}

static bool is_integer(DataType t)
{
    return (dtype_is_int(t) || dtype_is_uint(t)) && t.lanes == 1;
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
    if (!promote(&a, &b))
        fail_trap(trap, rule, span, "cannot combine operand types %s and %s", dtype_str(a->dtype),
                  dtype_str(b->dtype));
    if ((kind == PE_FLOORDIV || kind == PE_FLOORMOD || kind == PE_MOD) && !is_integer(a->dtype))
        fail_trap(trap, rule, span, "integer division needs integer operands, not %s",
                  dtype_str(a->dtype));
    return primexpr_binary(kind, a, b, span);
}

PrimExpr *script_prim_binary(PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span,
                             ErrorTrap *trap)
{
    return combine(trap, "TS-11", kind, a, b, span);
}

static PrimExpr *binary(const Tr *t, PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span)
{
    return combine(t->trap, rule_of(t), kind, a, b, span);
}

/* Translates two operands; a Python number among them takes the other's type. */
static void translate_pair(const Tr *t, const PyExpr *x, const PyExpr *y, PrimExpr **a,
                           PrimExpr **b)
{
    PyNum nx, ny;
    bool lx = fold_number(t, x, &nx), ly = fold_number(t, y, &ny);
    if (lx && !ly) {
        *b = translate(t, y);
        *a = literal_as(t, nx, (*b)->dtype, x->span);
    } else if (!lx && ly) {
        *a = translate(t, x);
        *b = literal_as(t, ny, (*a)->dtype, y->span);
    } else {
        *a = translate(t, x);
        *b = translate(t, y);
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

static PrimExpr *make_call(const char *op, DataType type, PrimExpr **args, int n, Span span);

/* TIR-BITS: bitwise operators and shifts take integers of one dtype (an int literal takes
 * the other operand's), as TVM's tir.bitwise_* and tir.shift_* do. */
static PrimExpr *bitwise(const Tr *t, const char *op, PrimExpr *a, PrimExpr *b, Span span)
{
    if (!is_integer(a->dtype) || !is_integer(b->dtype) || !promote(&a, &b))
        fail(t, "BadExpression", span, "T.%s takes integers of one dtype, not %s and %s",
             op + strlen("tir."), dtype_str(a->dtype), dtype_str(b->dtype));
    return make_call(op, a->dtype, (PrimExpr *[]){a, b}, 2, span);
}

static PrimExpr *bitwise_not(const Tr *t, PrimExpr *x, Span span)
{
    if (!is_integer(x->dtype))
        fail(t, "BadExpression", span, "T.bitwise_not (~) takes an integer, not %s",
             dtype_str(x->dtype));
    return make_call("tir.bitwise_not", x->dtype, &x, 1, span);
}

/* The tir call of a Python bitwise operator between integers, or NULL. */
static const char *bitwise_op(PyOp op)
{
    switch (op) {
    case PYOP_BITAND:
        return "tir.bitwise_and";
    case PYOP_BITOR:
        return "tir.bitwise_or";
    case PYOP_BITXOR:
        return "tir.bitwise_xor";
    case PYOP_LSHIFT:
        return "tir.shift_left";
    case PYOP_RSHIFT:
        return "tir.shift_right";
    default:
        return NULL;
    }
}

/* arith -> expr ('+' | '-' | '*' | '/' | '//' | '%' | '&' | '|' | '^' | '<<' | '>>') expr */
static PrimExpr *translate_binop(const Tr *t, const PyExpr *e)
{
    const char *bit = bitwise_op(e->u.binop.op);
    if (bit != NULL) {
        PrimExpr *x, *y;
        translate_pair(t, e->u.binop.left, e->u.binop.right, &x, &y);
        /* & and | between bools are the logical and / or. */
        bool logical = dtype_is_bool(x->dtype) && dtype_is_bool(y->dtype) &&
                       (e->u.binop.op == PYOP_BITAND || e->u.binop.op == PYOP_BITOR);
        if (!logical)
            return bitwise(t, bit, x, y, e->span);
        return binary(t, e->u.binop.op == PYOP_BITAND ? PE_AND : PE_OR, x, y, e->span);
    }
    bool ok;
    PrimExprKind kind = arith_kind(e->u.binop.op, &ok);
    if (!ok || primexpr_is_compare(kind))
        fail(t, "BadExpression", e->span, "operator not supported in a PrimExpr");
    PrimExpr *a, *b;
    translate_pair(t, e->u.binop.left, e->u.binop.right, &a, &b);
    /* `/` between integers is rejected by TVM as ambiguous; T.Div, T.truncdiv and `//`
     * say which division is meant. */
    if (kind == PE_DIV && is_integer(a->dtype) && is_integer(b->dtype))
        fail(t, "BadExpression", e->span,
             "`/` between integers is ambiguous; use //, T.truncdiv or T.Div");
    if ((kind == PE_AND || kind == PE_OR) && !(dtype_is_bool(a->dtype) && dtype_is_bool(b->dtype)))
        fail(t, "BadExpression", e->span, "bitwise & and | are supported on bools only");
    return binary(t, kind, a, b, e->span);
}

/* unary -> ('-' | '+' | 'not') expr */
static PrimExpr *translate_unary(const Tr *t, const PyExpr *e)
{
    PrimExpr *x = translate(t, e->u.unary.operand);
    switch (e->u.unary.op) {
    case PYOP_POS:
        return x;
    case PYOP_INVERT:
        return bitwise_not(t, x, e->span);
    case PYOP_NOT: {
        if (!dtype_is_bool(x->dtype))
            fail(t, "BadExpression", e->span, "`not` needs a bool operand");
        PrimExpr *n = primexpr_new(PE_NOT, x->dtype, e->span);
        n->u.operand = x;
        return n;
    }
    case PYOP_NEG:
        /* TVM negates by multiplying with -1 of the operand's type. */
        if (dtype_is_float(x->dtype))
            return binary(t, PE_MUL, x, primexpr_float(-1.0, x->dtype, e->span), e->span);
        if (dtype_is_int(x->dtype))
            return binary(t, PE_MUL, x, primexpr_int(-1, x->dtype, e->span), e->span);
        fail(t, "BadExpression", e->span, "cannot negate a %s value", dtype_str(x->dtype));
    default:
        fail(t, "BadExpression", e->span, "operator not supported in a PrimExpr");
    }
}

/* boolop -> expr ('and' | 'or') expr ... */
static PrimExpr *translate_boolop(const Tr *t, const PyExpr *e)
{
    PrimExprKind kind = e->u.boolop.op == PYOP_AND ? PE_AND : PE_OR;
    PrimExpr *acc = translate(t, e->u.boolop.items[0]);
    for (int i = 1; i < e->u.boolop.n; i++)
        acc = binary(t, kind, acc, translate(t, e->u.boolop.items[i]), e->span);
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
            fail(t, "BadExpression", e->span, "comparison not supported in a PrimExpr");
        PrimExpr *a, *b;
        translate_pair(t, left, e->u.compare.rest[i], &a, &b);
        PrimExpr *c = binary(t, kind, a, b, e->span);
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
        fail(t, "UnknownName", e->span, "name `%s` is not defined", e->u.name);
    if (!var)
        fail(t, "BadExpression", e->span, "buffer `%s` used as a value; index it", e->u.name);
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
        fail(t, "BadExpression", e->span, "only a buffer has a shape");
    PyNum k;
    if (!fold_number(t, index, &k) || k.is_float)
        fail(t, "BadExpression", index->span, "a shape index must be an integer literal");
    int64_t i = k.i < 0 ? k.i + buffer->ndim : k.i;
    if (i < 0 || i >= buffer->ndim)
        fail(t, "BadExpression", index->span, "buffer `%s` has %d dimensions", buffer->name,
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
        fail(t, "BadExpression", e->span, "only buffers can be indexed");
    if (!t->env->lookup(t->env->ctx, base->u.name, &var, &buffer))
        fail(t, "UnknownName", base->span, "name `%s` is not defined", base->u.name);
    if (!buffer)
        fail(t, "BadExpression", e->span, "`%s` is not a buffer", base->u.name);
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
            fail(t, "BadExpression", items[i]->span, "a slice is not a value");
        PrimExpr *x = translate(t, items[i]);
        if (!is_integer(x->dtype) || dtype_is_bool(x->dtype))
            fail(t, "BadExpression", items[i]->span, "a buffer index must be an integer");
        load->u.load.indices[i] = x;
    }
    return load;
}

/* ---- calls ------------------------------------------------------------------------ */

typedef enum CallForm {
    CALL_BINARY,    /* u.kind: T.max, T.floordiv, ... */
    CALL_CAST,      /* T.Cast(dtype, e) */
    CALL_CAST_FN,   /* T.cast(e, dtype) */
    CALL_SELECT,    /* T.Select(c, a, b) */
    CALL_IF,        /* T.if_then_else(c, a, b) */
    CALL_MATH,      /* one argument, result of its type */
    CALL_MATH2,     /* two promoted arguments */
    CALL_PREDICATE, /* one argument, bool result */
    CALL_ABS,
    CALL_LIMIT,   /* T.min_value(dtype) / T.max_value(dtype): the constant */
    CALL_BITWISE, /* two integer arguments of one dtype: T.bitwise_and, T.shift_left, ... */
    CALL_BITNOT,  /* T.bitwise_not(x) on an integer */
} CallForm;

typedef struct CallRule {
    const char *name;
    CallForm form;
    PrimExprKind kind;
    const char *op;
} CallRule;

static const CallRule call_rules[] = {
    {"max", CALL_BINARY, PE_MAX, NULL},
    {"min", CALL_BINARY, PE_MIN, NULL},
    {"floordiv", CALL_BINARY, PE_FLOORDIV, NULL},
    {"floormod", CALL_BINARY, PE_FLOORMOD, NULL},
    {"truncdiv", CALL_BINARY, PE_DIV, NULL},
    {"truncmod", CALL_BINARY, PE_MOD, NULL},
    {"Div", CALL_BINARY, PE_DIV, NULL},
    {"Mod", CALL_BINARY, PE_MOD, NULL},
    {"Cast", CALL_CAST, PE_CAST, NULL},
    {"cast", CALL_CAST_FN, PE_CAST, NULL},
    {"Select", CALL_SELECT, PE_SELECT, NULL},
    {"if_then_else", CALL_IF, PE_CALL, "tir.if_then_else"},
    {"exp", CALL_MATH, PE_CALL, "tir.exp"},
    {"exp2", CALL_MATH, PE_CALL, "tir.exp2"},
    {"log", CALL_MATH, PE_CALL, "tir.log"},
    {"log2", CALL_MATH, PE_CALL, "tir.log2"},
    {"sqrt", CALL_MATH, PE_CALL, "tir.sqrt"},
    {"rsqrt", CALL_MATH, PE_CALL, "tir.rsqrt"},
    {"tanh", CALL_MATH, PE_CALL, "tir.tanh"},
    {"sigmoid", CALL_MATH, PE_CALL, "tir.sigmoid"},
    {"sin", CALL_MATH, PE_CALL, "tir.sin"},
    {"cos", CALL_MATH, PE_CALL, "tir.cos"},
    {"tan", CALL_MATH, PE_CALL, "tir.tan"},
    {"fabs", CALL_MATH, PE_CALL, "tir.fabs"},
    {"floor", CALL_MATH, PE_CALL, "tir.floor"},
    {"ceil", CALL_MATH, PE_CALL, "tir.ceil"},
    {"round", CALL_MATH, PE_CALL, "tir.round"},
    {"trunc", CALL_MATH, PE_CALL, "tir.trunc"},
    {"erf", CALL_MATH, PE_CALL, "tir.erf"},
    {"pow", CALL_MATH2, PE_CALL, "tir.pow"},
    {"isnan", CALL_PREDICATE, PE_CALL, "tir.isnan"},
    {"isinf", CALL_PREDICATE, PE_CALL, "tir.isinf"},
    {"isfinite", CALL_PREDICATE, PE_CALL, "tir.isfinite"},
    {"abs", CALL_ABS, PE_CALL, "tir.fabs"},
    {"assume", CALL_PREDICATE, PE_CALL, "tir.assume"},
    {"likely", CALL_PREDICATE, PE_CALL, "tir.likely"},
    {"tvm_thread_invariant", CALL_PREDICATE, PE_CALL, "tir.tvm_thread_invariant"},
    {"min_value", CALL_LIMIT, PE_MIN, NULL},
    {"bitwise_and", CALL_BITWISE, PE_CALL, "tir.bitwise_and"},
    {"bitwise_or", CALL_BITWISE, PE_CALL, "tir.bitwise_or"},
    {"bitwise_xor", CALL_BITWISE, PE_CALL, "tir.bitwise_xor"},
    {"shift_left", CALL_BITWISE, PE_CALL, "tir.shift_left"},
    {"shift_right", CALL_BITWISE, PE_CALL, "tir.shift_right"},
    {"bitwise_not", CALL_BITNOT, PE_CALL, "tir.bitwise_not"},
    {"max_value", CALL_LIMIT, PE_MAX, NULL},
};

static const char *const dtype_ctors[] = {
    "int8",   "int16",   "int32",   "int64",   "uint8",    "uint16", "uint32",
    "uint64", "float16", "float32", "float64", "bfloat16", "bool",
};

static DataType dtype_arg(const Tr *t, const PyExpr *e);

/* TS-11: TVM's intrinsic wrappers take and drop a `dtype=` keyword (T.exp(x, dtype="float32"));
 * the result type is the intrinsic's own. */
static void expect_args(const Tr *t, const PyExpr *e, const char *name, int n)
{
    for (int i = 0; i < e->u.call.nkw; i++) {
        if (strcmp(e->u.call.kw_names[i], "dtype") != 0)
            fail(t, "BadExpression", e->u.call.kw_spans[i],
                 "T.%s takes no keyword argument but dtype", name);
        (void)dtype_arg(t, e->u.call.kw_values[i]);
    }
    if (e->u.call.nargs != n)
        fail(t, "BadExpression", e->span, "T.%s takes %d arguments, %d given", name, n,
             e->u.call.nargs);
}

static PrimExpr *make_call(const char *op, DataType type, PrimExpr **args, int n, Span span)
{
    PrimExpr *c = primexpr_new(PE_CALL, type, span);
    c->u.call.name = op;
    c->u.call.args = MEM_ARRAY(PrimExpr *, n);
    memcpy(c->u.call.args, args, sizeof(PrimExpr *) * (size_t)n);
    c->u.call.nargs = n;
    return c;
}

static DataType dtype_arg(const Tr *t, const PyExpr *e)
{
    DataType type;
    if (e->kind != PY_STR)
        fail(t, "BadExpression", e->span, "a dtype string is expected");
    if (!dtype_parse(e->u.str, &type) || dtype_is_void(type))
        error_raise(t->trap, PHASE_PARSE, "BadDType", "TS-3.1", e->span, "`%s` names no data type",
                    e->u.str);
    return type;
}

static PrimExpr *translate_cond(const Tr *t, const PyExpr *e)
{
    PrimExpr *c = translate(t, e);
    if (!dtype_is_bool(c->dtype))
        fail(t, "BadExpression", e->span, "a condition must be bool, not %s", dtype_str(c->dtype));
    return c;
}

/* select -> T.Select(cond, a, b) | T.if_then_else(cond, a, b) */
static PrimExpr *translate_select(const Tr *t, const PyExpr *e, const CallRule *rule)
{
    expect_args(t, e, rule->name, 3);
    PrimExpr *c = translate_cond(t, e->u.call.args[0]);
    PrimExpr *a, *b;
    translate_pair(t, e->u.call.args[1], e->u.call.args[2], &a, &b);
    if (rule->form == CALL_IF ? !promote(&a, &b) : !dtype_equal(a->dtype, b->dtype))
        fail(t, "BadExpression", e->span, "branches of types %s and %s", dtype_str(a->dtype),
             dtype_str(b->dtype));
    if (rule->form == CALL_IF) {
        PrimExpr *args[3] = {c, a, b};
        return make_call(rule->op, a->dtype, args, 3, e->span);
    }
    PrimExpr *s = primexpr_new(PE_SELECT, a->dtype, e->span);
    s->u.select.cond = c;
    s->u.select.then_value = a;
    s->u.select.else_value = b;
    return s;
}

/* cast -> T.Cast(dtype, e) | T.cast(e, dtype) | T.cast(e, dtype=dtype) */
static PrimExpr *translate_cast(const Tr *t, const PyExpr *e, const CallRule *rule)
{
    if (rule->form == CALL_CAST) {
        expect_args(t, e, rule->name, 2);
        DataType type = dtype_arg(t, e->u.call.args[0]);
        PrimExpr *c = primexpr_new(PE_CAST, type, e->span);
        c->u.operand = translate(t, e->u.call.args[1]);
        return c;
    }
    const PyExpr *type_expr = NULL;
    if (e->u.call.nargs == 2 && e->u.call.nkw == 0)
        type_expr = e->u.call.args[1];
    else if (e->u.call.nargs == 1 && e->u.call.nkw == 1 &&
             strcmp(e->u.call.kw_names[0], "dtype") == 0)
        type_expr = e->u.call.kw_values[0];
    else
        fail(t, "BadExpression", e->span, "T.cast takes a value and a dtype");
    return cast_to(translate(t, e->u.call.args[0]), dtype_arg(t, type_expr), e->span);
}

static PrimExpr *translate_abs(const Tr *t, const PyExpr *e, PrimExpr *x)
{
    if (dtype_is_float(x->dtype))
        return make_call("tir.fabs", x->dtype, &x, 1, e->span);
    if (dtype_is_uint(x->dtype))
        return x;
    if (!dtype_is_int(x->dtype))
        fail(t, "BadExpression", e->span, "T.abs of a %s value", dtype_str(x->dtype));
    /* TVM's abs on integers is a select between x and its negation. */
    PrimExpr *zero = primexpr_int(0, x->dtype, e->span);
    PrimExpr *s = primexpr_new(PE_SELECT, x->dtype, e->span);
    s->u.select.cond = primexpr_binary(PE_GE, x, zero, e->span);
    s->u.select.then_value = x;
    s->u.select.else_value = primexpr_binary(PE_SUB, zero, x, e->span);
    return s;
}

/* TS-11: T.min_value / T.max_value fold to the dtype's limit, as TVM's builders do. */
static PrimExpr *translate_limit(const Tr *t, const PyExpr *e, const CallRule *rule)
{
    expect_args(t, e, rule->name, 1);
    DataType type = dtype_arg(t, e->u.call.args[0]);
    bool max = rule->kind == PE_MAX;
    /* The float limits as their shortest decimal texts read back, so printing round-trips. */
    if (dtype_is_float(type) && type.code != DT_BFLOAT && type.lanes == 1 &&
        (type.bits == 16 || type.bits == 32 || type.bits == 64)) {
        double m = type.bits == 16 ? 65504.0 : type.bits == 32 ? 3.4028235e38 : DBL_MAX;
        return primexpr_float(max ? m : -m, type, e->span);
    }
    bool uint64_max = dtype_is_uint(type) && type.bits == 64 && max; /* beyond an IntImm */
    if ((dtype_is_int(type) || dtype_is_uint(type)) && type.bits <= 64 && type.lanes == 1 &&
        !uint64_max) {
        bool is_signed = dtype_is_int(type);
        int bits = type.bits;
        int64_t v = !is_signed ? (max ? (int64_t)((1ULL << bits) - 1) : 0)
                    : max      ? (bits == 64 ? INT64_MAX : (int64_t)((1ULL << (bits - 1)) - 1))
                               : (bits == 64 ? INT64_MIN : -(int64_t)(1ULL << (bits - 1)));
        return primexpr_int(v, type, e->span);
    }
    fail(t, "BadExpression", e->span, "T.%s of %s", rule->name, dtype_str(type));
}

static PrimExpr *translate_rule(const Tr *t, const PyExpr *e, const CallRule *rule)
{
    PrimExpr *a, *b;
    switch (rule->form) {
    case CALL_LIMIT:
        return translate_limit(t, e, rule);
    case CALL_BINARY:
    case CALL_MATH2:
        expect_args(t, e, rule->name, 2);
        translate_pair(t, e->u.call.args[0], e->u.call.args[1], &a, &b);
        if (rule->form == CALL_BINARY)
            return binary(t, rule->kind, a, b, e->span);
        if (!promote(&a, &b))
            fail(t, "BadExpression", e->span, "cannot combine %s and %s", dtype_str(a->dtype),
                 dtype_str(b->dtype));
        return make_call(rule->op, a->dtype, (PrimExpr *[]){a, b}, 2, e->span);
    case CALL_BITWISE:
        expect_args(t, e, rule->name, 2);
        translate_pair(t, e->u.call.args[0], e->u.call.args[1], &a, &b);
        return bitwise(t, rule->op, a, b, e->span);
    case CALL_BITNOT:
        expect_args(t, e, rule->name, 1);
        return bitwise_not(t, translate(t, e->u.call.args[0]), e->span);
    case CALL_CAST:
    case CALL_CAST_FN:
        return translate_cast(t, e, rule);
    case CALL_SELECT:
    case CALL_IF:
        return translate_select(t, e, rule);
    case CALL_MATH:
    case CALL_PREDICATE:
    case CALL_ABS:
        expect_args(t, e, rule->name, 1);
        a = translate(t, e->u.call.args[0]);
        if (rule->form == CALL_ABS)
            return translate_abs(t, e, a);
        return make_call(rule->op, rule->form == CALL_PREDICATE ? dtype_bool() : a->dtype, &a, 1,
                         e->span);
    }
    fail(t, "BadExpression", e->span, "unsupported call");
}

/* A typed literal or conversion: T.int64(4), T.float32(0), T.bool(True), T.int64(n),
 * T.float32("inf"). */
static PrimExpr *translate_dtype_ctor(const Tr *t, const PyExpr *e, DataType type)
{
    if (e->u.call.nargs == 0)
        fail(t, "BadExpression", e->span,
             "a variable declaration such as T.int64() is a statement, not a value");
    if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
        fail(t, "BadExpression", e->span, "a dtype constructor takes one argument");
    const PyExpr *arg = e->u.call.args[0];
    PyNum n;
    if (arg->kind == PY_STR && dtype_is_float(type)) {
        char *end;
        double v = strtod(arg->u.str, &end);
        if (end == arg->u.str || *end != '\0')
            fail(t, "BadExpression", arg->span, "`%s` is not a number", arg->u.str);
        return primexpr_float(v, type, e->span);
    }
    if (fold_number(t, arg, &n)) {
        if (n.is_float && !dtype_is_float(type))
            return cast_to(primexpr_float(n.f, dtype_float32(), e->span), type, e->span);
        return literal_as(t, n, type, e->span);
    }
    return cast_to(translate(t, arg), type, e->span);
}

/* imm -> T.IntImm '(' STRING ',' number ')' | T.FloatImm '(' STRING ',' number ')' : the
 * immediate of that dtype, as T.<dtype>(number). */
static PrimExpr *translate_imm(const Tr *t, const PyExpr *e, bool is_float)
{
    DataType type;
    if (e->u.call.nargs != 2 || e->u.call.nkw != 0 || e->u.call.args[0]->kind != PY_STR)
        fail(t, "BadExpression", e->span, "T.%s takes a dtype string and a value",
             is_float ? "FloatImm" : "IntImm");
    const PyExpr *d = e->u.call.args[0];
    if (!dtype_parse(d->u.str, &type) || dtype_is_float(type) != is_float ||
        dtype_is_handle(type) || dtype_is_void(type))
        fail(t, "BadExpression", d->span, "`%s` is not %s dtype", d->u.str,
             is_float ? "a float" : "an integer");
    PyNum n;
    if (!fold_number(t, e->u.call.args[1], &n) || (n.is_float && !is_float))
        fail(t, "BadExpression", e->u.call.args[1]->span, "T.%s takes a number",
             is_float ? "FloatImm" : "IntImm");
    return literal_as(t, n, type, e->span);
}

static bool is_namespace(const PyExpr *e)
{
    return e->kind == PY_NAME && (strcmp(e->u.name, "T") == 0 || strcmp(e->u.name, "tir") == 0);
}

/* call -> ('T' | 'tir') '.' NAME '(' args ')' */
static PrimExpr *translate_call(const Tr *t, const PyExpr *e)
{
    const PyExpr *f = e->u.call.func;
    if (f->kind != PY_ATTR || !is_namespace(f->u.attr.value))
        fail(t, "BadExpression", e->span, "only T.* functions can be called in a PrimExpr");
    const char *name = f->u.attr.attr;
    if (strcmp(name, "IntImm") == 0 || strcmp(name, "FloatImm") == 0)
        return translate_imm(t, e, name[0] == 'F');
    for (size_t i = 0; i < sizeof dtype_ctors / sizeof dtype_ctors[0]; i++) {
        DataType type;
        if (strcmp(name, dtype_ctors[i]) == 0 && dtype_parse(name, &type))
            return translate_dtype_ctor(t, e, type);
    }
    for (size_t i = 0; i < sizeof call_rules / sizeof call_rules[0]; i++)
        if (strcmp(name, call_rules[i].name) == 0)
            return translate_rule(t, e, &call_rules[i]);
    const char *why = script_unsupported_reason(NS_TIR, name);
    if (why != NULL) /* SPEC_NOTES §4.10 */
        error_raise(t->trap, PHASE_PARSE, "Unsupported", "TS-1", f->span,
                    "T.%s is not supported: %s", name, why);
    fail(t, "UnknownName", f->span, "unknown function T.%s", name);
}

/* ---- dispatch --------------------------------------------------------------------- */

static PrimExpr *translate(const Tr *t, const PyExpr *e)
{
    PyNum n;
    if (fold_number(t, e, &n))
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
        return translate_call(t, e);
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
    fail(t, "BadExpression", e->span, "not a PrimExpr");
}

PrimExpr *script_prim_expr(const PyExpr *e, const PrimEnv *env, ErrorTrap *trap)
{
    Tr t = {env, trap};
    return translate(&t, e);
}

PrimExpr *script_prim_expr_typed(const PyExpr *e, DataType hint, const PrimEnv *env,
                                 ErrorTrap *trap)
{
    Tr t = {env, trap};
    PyNum n;
    if (fold_number(&t, e, &n))
        return literal_as(&t, n, hint, e->span);
    return translate(&t, e);
}
