/* print_meaning: a printed program reduced to what every implementation's print keeps, so that
 * a print that writes each binding's derived StructInfo compares with the canonical text, which
 * keeps annotations as written. SPEC_NOTES 4.17. */
#include "tools/conform/print_meaning.h"

#include <stddef.h>

static void drop_in_expr(Expr *e);

static void drop_in_function(Function *f)
{
    f->ret = NULL;
    drop_in_expr(f->body);
}

static void drop_in_block(BindingBlock *b)
{
    for (int i = 0; i < b->n; i++) {
        Binding *binding = b->bindings[i];
        if (binding->var != NULL)
            binding->var->annotation = NULL;
        drop_in_expr(binding->value);
    }
}

static void drop_in_exprs(Expr **items, int n)
{
    for (int i = 0; i < n; i++)
        drop_in_expr(items[i]);
}

static void drop_in_expr(Expr *e)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case EXPR_SEQ:
        for (int i = 0; i < e->u.seq.nblocks; i++)
            drop_in_block(e->u.seq.blocks[i]);
        drop_in_expr(e->u.seq.body);
        return;
    case EXPR_FUNCTION:
        drop_in_function(e->u.func);
        return;
    case EXPR_IF:
        drop_in_expr(e->u.if_.cond);
        drop_in_expr(e->u.if_.then_branch);
        drop_in_expr(e->u.if_.else_branch);
        return;
    case EXPR_CALL:
        drop_in_expr(e->u.call.op);
        drop_in_exprs(e->u.call.args, e->u.call.nargs);
        return;
    case EXPR_TUPLE:
        drop_in_exprs(e->u.tuple.fields, e->u.tuple.n);
        return;
    case EXPR_TUPLE_GET_ITEM:
        drop_in_expr(e->u.get_item.tuple);
        return;
    default:
        return;
    }
}

void print_meaning_drop_derived_annotations(IRModule *mod)
{
    for (int i = 0; i < mod->nfuncs; i++) {
        if (mod->funcs[i]->kind == MODFUNC_RELAX)
            drop_in_function(mod->funcs[i]->u.relax);
    }
}
