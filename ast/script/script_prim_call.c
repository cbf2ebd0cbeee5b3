/* script_prim_call: calls in PrimExprs: TVM's intrinsics (T.exp, T.Select, T.if_then_else,
 * T.bitwise_*, ...), casts, typed immediates (T.int64(4), tvm.tir.const), T.min_value, and
 * calls of another PrimFunc of the module (TIR-CALL). SPEC_NOTES: "TVMScript syntax"
 * (TS-11), TIR-BITS, TIR-CALL. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"
#include "ast/script/script_prim_internal.h"

/* TIR-BITS: bitwise operators and shifts take integers of one dtype (an int literal takes
 * the other operand's), as TVM's tir.bitwise_* and tir.shift_* do. */
PrimExpr *prim_bitwise(const Tr *t, const char *op, PrimExpr *a, PrimExpr *b, Span span)
{
    rule_fired("TIR-BITS");
    if (!prim_is_integer(a->dtype) || !prim_is_integer(b->dtype) || !prim_promote(&a, &b))
        prim_fail(t, "BadExpression", span, "T.%s takes integers of one dtype, not %s and %s",
                  op + strlen("tir."), dtype_str(a->dtype), dtype_str(b->dtype));
    return prim_make_call(op, a->dtype, (PrimExpr *[]){a, b}, 2, span);
}

PrimExpr *prim_bitwise_not(const Tr *t, PrimExpr *x, Span span)
{
    rule_fired("TIR-BITS");
    if (!prim_is_integer(x->dtype))
        prim_fail(t, "BadExpression", span, "T.bitwise_not (~) takes an integer, not %s",
                  dtype_str(x->dtype));
    return prim_make_call("tir.bitwise_not", x->dtype, &x, 1, span);
}

/* The tir call of a Python bitwise operator between integers, or NULL. */
const char *prim_bitwise_op(PyOp op)
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
    {"max_value", CALL_LIMIT, PE_MAX, NULL},
    {"bitwise_and", CALL_BITWISE, PE_CALL, "tir.bitwise_and"},
    {"bitwise_or", CALL_BITWISE, PE_CALL, "tir.bitwise_or"},
    {"bitwise_xor", CALL_BITWISE, PE_CALL, "tir.bitwise_xor"},
    {"shift_left", CALL_BITWISE, PE_CALL, "tir.shift_left"},
    {"shift_right", CALL_BITWISE, PE_CALL, "tir.shift_right"},
    {"bitwise_not", CALL_BITNOT, PE_CALL, "tir.bitwise_not"},
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
            prim_fail(t, "BadExpression", e->u.call.kw_spans[i],
                      "T.%s takes no keyword argument but dtype", name);
        (void)dtype_arg(t, e->u.call.kw_values[i]);
    }
    if (e->u.call.nargs != n)
        prim_fail(t, "BadExpression", e->span, "T.%s takes %d arguments, %d given", name, n,
                  e->u.call.nargs);
}

PrimExpr *prim_make_call(const char *op, DataType type, PrimExpr **args, int n, Span span)
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
        prim_fail(t, "BadExpression", e->span, "a dtype string is expected");
    if (!dtype_parse(e->u.str, &type) || dtype_is_void(type))
        error_raise(t->trap, PHASE_PARSE, "BadDType", "TS-3.1", e->span, "`%s` names no data type",
                    e->u.str);
    return type;
}

static PrimExpr *translate_cond(const Tr *t, const PyExpr *e)
{
    PrimExpr *c = prim_translate(t, e);
    if (!dtype_is_bool(c->dtype))
        prim_fail(t, "BadExpression", e->span, "a condition must be bool, not %s",
                  dtype_str(c->dtype));
    return c;
}

/* select -> T.Select(cond, a, b) | T.if_then_else(cond, a, b) */
static PrimExpr *translate_select(const Tr *t, const PyExpr *e, const CallRule *rule)
{
    expect_args(t, e, rule->name, 3);
    PrimExpr *c = translate_cond(t, e->u.call.args[0]);
    PrimExpr *a, *b;
    prim_translate_pair(t, e->u.call.args[1], e->u.call.args[2], &a, &b);
    if (rule->form == CALL_IF ? !prim_promote(&a, &b) : !dtype_equal(a->dtype, b->dtype))
        prim_fail(t, "BadExpression", e->span, "branches of types %s and %s", dtype_str(a->dtype),
                  dtype_str(b->dtype));
    if (rule->form == CALL_IF) {
        PrimExpr *args[3] = {c, a, b};
        return prim_make_call(rule->op, a->dtype, args, 3, e->span);
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
        c->u.operand = prim_translate(t, e->u.call.args[1]);
        return c;
    }
    const PyExpr *type_expr = NULL;
    if (e->u.call.nargs == 2 && e->u.call.nkw == 0)
        type_expr = e->u.call.args[1];
    else if (e->u.call.nargs == 1 && e->u.call.nkw == 1 &&
             strcmp(e->u.call.kw_names[0], "dtype") == 0)
        type_expr = e->u.call.kw_values[0];
    else
        prim_fail(t, "BadExpression", e->span, "T.cast takes a value and a dtype");
    return prim_cast_to(prim_translate(t, e->u.call.args[0]), dtype_arg(t, type_expr), e->span);
}

static PrimExpr *translate_abs(const Tr *t, const PyExpr *e, PrimExpr *x)
{
    if (dtype_is_float(x->dtype))
        return prim_make_call("tir.fabs", x->dtype, &x, 1, e->span);
    if (dtype_is_uint(x->dtype))
        return x;
    if (!dtype_is_int(x->dtype))
        prim_fail(t, "BadExpression", e->span, "T.abs of a %s value", dtype_str(x->dtype));
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
    /* The float limits exactly (a float literal prints as the double it holds). */
    if (dtype_is_float(type) && type.code != DT_BFLOAT && type.lanes == 1 &&
        (type.bits == 16 || type.bits == 32 || type.bits == 64)) {
        double m = type.bits == 16 ? 65504.0 : type.bits == 32 ? (double)FLT_MAX : DBL_MAX;
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
    prim_fail(t, "BadExpression", e->span, "T.%s of %s", rule->name, dtype_str(type));
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
        prim_translate_pair(t, e->u.call.args[0], e->u.call.args[1], &a, &b);
        if (rule->form == CALL_BINARY)
            return prim_binary(t, rule->kind, a, b, e->span);
        if (!prim_promote(&a, &b))
            prim_fail(t, "BadExpression", e->span, "cannot combine %s and %s", dtype_str(a->dtype),
                      dtype_str(b->dtype));
        return prim_make_call(rule->op, a->dtype, (PrimExpr *[]){a, b}, 2, e->span);
    case CALL_BITWISE:
        expect_args(t, e, rule->name, 2);
        prim_translate_pair(t, e->u.call.args[0], e->u.call.args[1], &a, &b);
        return prim_bitwise(t, rule->op, a, b, e->span);
    case CALL_BITNOT:
        expect_args(t, e, rule->name, 1);
        return prim_bitwise_not(t, prim_translate(t, e->u.call.args[0]), e->span);
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
        a = prim_translate(t, e->u.call.args[0]);
        if (rule->form == CALL_ABS)
            return translate_abs(t, e, a);
        return prim_make_call(rule->op, rule->form == CALL_PREDICATE ? dtype_bool() : a->dtype, &a,
                              1, e->span);
    }
    prim_fail(t, "BadExpression", e->span, "unsupported call");
}

/* A typed literal or conversion: T.int64(4), T.float32(0), T.bool(True), T.int64(n),
 * T.float32("inf"). */
static PrimExpr *translate_dtype_ctor(const Tr *t, const PyExpr *e, DataType type)
{
    if (e->u.call.nargs == 0)
        prim_fail(t, "BadExpression", e->span,
                  "a variable declaration such as T.int64() is a statement, not a value");
    if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
        prim_fail(t, "BadExpression", e->span, "a dtype constructor takes one argument");
    const PyExpr *arg = e->u.call.args[0];
    PyNum n;
    if (arg->kind == PY_STR && dtype_is_float(type)) {
        char *end;
        double v = strtod(arg->u.str, &end);
        if (end == arg->u.str || *end != '\0')
            prim_fail(t, "BadExpression", arg->span, "`%s` is not a number", arg->u.str);
        return primexpr_float(v, type, e->span);
    }
    if (prim_fold_number(t, arg, &n)) {
        if (n.is_float && !dtype_is_float(type))
            return prim_cast_to(primexpr_float(n.f, dtype_float32(), e->span), type, e->span);
        return prim_literal_as(t, n, type, e->span);
    }
    return prim_cast_to(prim_translate(t, arg), type, e->span);
}

/* imm -> T.IntImm '(' STRING ',' number ')' | T.FloatImm '(' STRING ',' number ')' : the
 * immediate of that dtype, as T.<dtype>(number). */
static PrimExpr *translate_imm(const Tr *t, const PyExpr *e, bool is_float)
{
    DataType type;
    if (e->u.call.nargs != 2 || e->u.call.nkw != 0 || e->u.call.args[0]->kind != PY_STR)
        prim_fail(t, "BadExpression", e->span, "T.%s takes a dtype string and a value",
                  is_float ? "FloatImm" : "IntImm");
    const PyExpr *d = e->u.call.args[0];
    if (!dtype_parse(d->u.str, &type) || dtype_is_float(type) != is_float ||
        dtype_is_handle(type) || dtype_is_void(type))
        prim_fail(t, "BadExpression", d->span, "`%s` is not %s dtype", d->u.str,
                  is_float ? "a float" : "an integer");
    PyNum n;
    if (!prim_fold_number(t, e->u.call.args[1], &n) || (n.is_float && !is_float))
        prim_fail(t, "BadExpression", e->u.call.args[1]->span, "T.%s takes a number",
                  is_float ? "FloatImm" : "IntImm");
    return prim_literal_as(t, n, type, e->span);
}

/* T, tir, or tvm.tir (TS-11: the TIR namespace as the text may name it). */
static bool is_namespace(const PyExpr *e)
{
    if (e->kind == PY_ATTR && strcmp(e->u.attr.attr, "tir") == 0)
        return e->u.attr.value->kind == PY_NAME && strcmp(e->u.attr.value->u.name, "tvm") == 0;
    return e->kind == PY_NAME && (strcmp(e->u.name, "T") == 0 || strcmp(e->u.name, "tir") == 0);
}

/* const -> tvm.tir.const '(' value [',' [dtype=] STRING] ')' : the immediate of that dtype; without
 * one, TVM's tir.const picks bool for a bool, int32 for an int and float32 for a float. */
static PrimExpr *translate_const(const Tr *t, const PyExpr *e)
{
    const PyExpr *type_expr = NULL;
    if (e->u.call.nargs == 2 && e->u.call.nkw == 0)
        type_expr = e->u.call.args[1];
    else if (e->u.call.nargs == 1 && e->u.call.nkw == 1 &&
             strcmp(e->u.call.kw_names[0], "dtype") == 0)
        type_expr = e->u.call.kw_values[0];
    else if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
        prim_fail(t, "BadExpression", e->span, "tvm.tir.const takes a value and a dtype");
    const PyExpr *v = e->u.call.args[0];
    DataType type = type_expr != NULL     ? dtype_arg(t, type_expr)
                    : v->kind == PY_BOOL  ? dtype_bool()
                    : v->kind == PY_FLOAT ? dtype_float32()
                                          : dtype_int32();
    PyExpr one = *e;
    one.u.call.nargs = 1;
    one.u.call.nkw = 0;
    return translate_dtype_ctor(t, &one, type);
}

/* call -> ('T' | 'tir') '.' NAME '(' args ')' */
/* TIR-CALL: `Module.f(a, b)` calls the module's PrimFunc f for its T.ret value; the call's
 * name is "@f" (a global, as TVM's IR text writes it). */
static PrimExpr *translate_global_call(const Tr *t, const PyExpr *e, DataType ret)
{
    rule_fired("TIR-CALL");
    const PyExpr *f = e->u.call.func;
    if (e->u.call.nkw > 0)
        prim_fail(t, "BadExpression", e->span, "a PrimFunc call takes no keyword arguments");
    int n = e->u.call.nargs;
    PrimExpr **args = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        args[i] = prim_translate(t, e->u.call.args[i]);
    return prim_make_call(mem_printf("@%s", f->u.attr.attr), ret, args, n, e->span);
}

PrimExpr *prim_translate_call(const Tr *t, const PyExpr *e)
{
    const PyExpr *f = e->u.call.func;
    DataType ret;
    if (f->kind == PY_ATTR && f->u.attr.value->kind == PY_NAME && t->env->global_ret != NULL &&
        t->env->global_ret(t->env->ctx, f->u.attr.value->u.name, f->u.attr.attr, &ret))
        return translate_global_call(t, e, ret);
    /* TS-6: e.astype(dtype), TVM's PrimExpr method, is a cast. */
    if (f->kind == PY_ATTR && strcmp(f->u.attr.attr, "astype") == 0 &&
        !is_namespace(f->u.attr.value)) {
        if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
            prim_fail(t, "BadExpression", e->span, "astype takes a dtype");
        return prim_cast_to(prim_translate(t, f->u.attr.value), dtype_arg(t, e->u.call.args[0]),
                            e->span);
    }
    if (f->kind != PY_ATTR || !is_namespace(f->u.attr.value))
        prim_fail(t, "BadExpression", e->span, "only T.* functions can be called in a PrimExpr");
    const char *name = f->u.attr.attr;
    if (strcmp(name, "IntImm") == 0 || strcmp(name, "FloatImm") == 0)
        return translate_imm(t, e, name[0] == 'F');
    if (strcmp(name, "const") == 0 && f->u.attr.value->kind == PY_ATTR) /* tvm.tir.const */
        return translate_const(t, e);
    for (size_t i = 0; i < sizeof dtype_ctors / sizeof dtype_ctors[0]; i++) {
        DataType type;
        if (strcmp(name, dtype_ctors[i]) == 0 && dtype_parse(name, &type))
            return translate_dtype_ctor(t, e, type);
    }
    /* TS-11: a constant of any other scalar dtype a buffer may hold (T.int31(5), T.uint4(3)),
     * as TVM's printer writes one; TVM's own parser knows only the names above. */
    DataType other;
    if (strcmp(name, "handle") != 0 && dtype_parse(name, &other) && !dtype_is_void(other) &&
        other.lanes == 1)
        return translate_dtype_ctor(t, e, other);
    for (size_t i = 0; i < sizeof call_rules / sizeof call_rules[0]; i++)
        if (strcmp(name, call_rules[i].name) == 0)
            return translate_rule(t, e, &call_rules[i]);
    const char *why = script_unsupported_reason(NS_TIR, name);
    if (why != NULL) /* SPEC_NOTES §4.10 */
        error_raise(t->trap, PHASE_PARSE, "Unsupported", "TS-1", f->span,
                    "T.%s is not supported: %s", name, why);
    prim_fail(t, "UnknownName", f->span, "unknown function T.%s", name);
}
