/* primexpr: constructors for TIR scalar expressions and variables.
 * SPEC_NOTES: "Grammar" (PrimExpr). */
#include "ast/primexpr.h"

#include "ast/mem.h"

static int next_tirvar_id = 1; /* debug identity only; never affects meaning */

TirVar *tirvar_new(const char *name, DataType dtype, Span span)
{
    TirVar *v = MEM_NEW(TirVar);
    v->name = name;
    v->dtype = dtype;
    v->id = next_tirvar_id++;
    v->span = span;
    return v;
}

PrimExpr *primexpr_new(PrimExprKind kind, DataType dtype, Span span)
{
    PrimExpr *e = MEM_NEW(PrimExpr);
    e->kind = kind;
    e->dtype = dtype;
    e->span = span;
    return e;
}

PrimExpr *primexpr_int(int64_t value, DataType dtype, Span span)
{
    PrimExpr *e = primexpr_new(PE_INT, dtype, span);
    e->u.int_value = value;
    return e;
}

PrimExpr *primexpr_float(double value, DataType dtype, Span span)
{
    PrimExpr *e = primexpr_new(PE_FLOAT, dtype, span);
    e->u.float_value = value;
    return e;
}

PrimExpr *primexpr_var(TirVar *var, Span span)
{
    PrimExpr *e = primexpr_new(PE_VAR, var->dtype, span);
    e->u.var = var;
    return e;
}

bool primexpr_is_compare(PrimExprKind kind)
{
    return kind == PE_EQ || kind == PE_NE || kind == PE_LT || kind == PE_LE || kind == PE_GT ||
           kind == PE_GE;
}

bool primexpr_is_binary(PrimExprKind kind)
{
    return (kind >= PE_ADD && kind <= PE_OR);
}

/* The result dtype: bool for comparisons and logic, the left operand's otherwise. */
PrimExpr *primexpr_binary(PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span)
{
    DataType t = a->dtype;
    if (primexpr_is_compare(kind) || kind == PE_AND || kind == PE_OR)
        t = dtype_bool();
    PrimExpr *e = primexpr_new(kind, t, span);
    e->u.bin.a = a;
    e->u.bin.b = b;
    return e;
}
