/* expr: constructors for Relax expressions, variables, bindings and functions.
 * SPEC_NOTES: "Grammar" (Expr). */
#include "ast/expr.h"

#include "ast/mem.h"

static int next_var_id = 1; /* debug identity only; never affects meaning */

Var *var_new(const char *name, bool is_dataflow, StructInfo *annotation, Span span)
{
    Var *v = MEM_NEW(Var);
    v->name = name;
    v->is_dataflow = is_dataflow;
    v->annotation = annotation;
    v->id = next_var_id++;
    v->span = span;
    return v;
}

Expr *expr_new(ExprKind kind, Span span)
{
    Expr *e = MEM_NEW(Expr);
    e->kind = kind;
    e->span = span;
    if (kind == EXPR_CALL)
        e->u.call.attrs = attrs_new();
    return e;
}

Expr *expr_var(Var *var, Span span)
{
    Expr *e = expr_new(EXPR_VAR, span);
    e->u.var = var;
    return e;
}

Expr *expr_tuple(Expr **fields, int n, Span span)
{
    Expr *e = expr_new(EXPR_TUPLE, span);
    e->u.tuple.fields = fields;
    e->u.tuple.n = n;
    return e;
}

Expr *expr_call(Expr *op, Expr **args, int nargs, Span span)
{
    Expr *e = expr_new(EXPR_CALL, span);
    e->u.call.op = op;
    e->u.call.args = args;
    e->u.call.nargs = nargs;
    return e;
}

Expr *expr_op(const char *op_name, Span span)
{
    Expr *e = expr_new(EXPR_OP, span);
    e->u.op_name = op_name;
    return e;
}

Expr *expr_prim_value(PrimExpr *value, Span span)
{
    Expr *e = expr_new(EXPR_PRIM_VALUE, span);
    e->u.prim = value;
    return e;
}

Expr *expr_shape(PrimExpr **values, int n, Span span)
{
    Expr *e = expr_new(EXPR_SHAPE, span);
    e->u.shape.values = values;
    e->u.shape.n = n;
    return e;
}

Expr *expr_seq(BindingBlock **blocks, int nblocks, Expr *body, Span span)
{
    Expr *e = expr_new(EXPR_SEQ, span);
    e->u.seq.blocks = blocks;
    e->u.seq.nblocks = nblocks;
    e->u.seq.body = body;
    return e;
}

Binding *binding_var(Var *var, Expr *value, Span span)
{
    Binding *b = MEM_NEW(Binding);
    b->kind = BIND_VAR;
    b->var = var;
    b->value = value;
    b->span = span;
    return b;
}

Binding *binding_match_cast(Var *var, StructInfo *target, Expr *value, Span span)
{
    Binding *b = binding_var(var, value, span);
    b->kind = BIND_MATCH_CAST;
    b->struct_info = target;
    return b;
}

BindingBlock *block_new(bool is_dataflow, Span span)
{
    BindingBlock *b = MEM_NEW(BindingBlock);
    b->is_dataflow = is_dataflow;
    b->span = span;
    return b;
}

void block_add(BindingBlock *block, Binding *binding)
{
    VEC_PUSH(block->bindings, block->n, block->cap, binding);
}

Function *function_new(Span span)
{
    Function *f = MEM_NEW(Function);
    f->is_pure = true;
    f->attrs = attrs_new();
    f->span = span;
    return f;
}

const char *function_global_symbol(const Function *f)
{
    AttrValue *v = attrs_get(f->attrs, "global_symbol");
    return v != NULL && v->kind == ATTR_STR ? v->u.s : NULL;
}
