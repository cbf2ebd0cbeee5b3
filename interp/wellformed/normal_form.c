/* normal_form: the normal-form criteria NF-1..NF-5, checked over a module claimed to be
 * normalized. SPEC_NOTES: "Normal form" (NF-*). */
#include <stdbool.h>

#include "ast/rule.h"
#include "interp/normalize/op_normalize.h"
#include "interp/wellformed/wellformed.h"

typedef struct NfCtx {
    DiagList *errors;
} NfCtx;

static void check_expr(NfCtx *ctx, const Expr *e);
static void check_body(NfCtx *ctx, const Expr *e, const char *what);

static void report(NfCtx *ctx, const char *rule, Span span, const char *msg)
{
    diag_add(ctx->errors, PHASE_WELLFORMED, "NotNormalForm", rule, span, "%s", msg);
}

/* NF-1's leaves. ExternFunc and Op are leaves too: they are constants naming a callee. */
bool normal_form_is_atom(const Expr *e)
{
    switch (e->kind) {
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_CONSTANT:
    case EXPR_SHAPE:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return true;
    case EXPR_TUPLE:
    case EXPR_SEQ:
    case EXPR_FUNCTION:
    case EXPR_IF:
    case EXPR_CALL:
    case EXPR_TUPLE_GET_ITEM:
        return false;
    }
    return false; /* not reached: every case of the switch returns */
}

/* A leaf: an atom, or a Tuple whose fields are leaves. */
static bool is_leaf(const Expr *e)
{
    if (e->kind != EXPR_TUPLE)
        return normal_form_is_atom(e);
    for (int i = 0; i < e->u.tuple.n; i++) {
        if (!is_leaf(e->u.tuple.fields[i]))
            return false;
    }
    return true;
}

static void need_leaf(NfCtx *ctx, const Expr *e)
{
    rule_fired("NF-1");
    rule_fired("NF-2");
    if (e->kind == EXPR_SEQ)
        report(ctx, "NF-2", e->span, "a SeqExpr outside a function body or If branch");
    else if (!is_leaf(e))
        report(ctx, "NF-1", e->span, "a nested non-leaf expression must be bound to a variable");
    check_expr(ctx, e);
}

static void check_call(NfCtx *ctx, const Expr *e)
{
    need_leaf(ctx, e->u.call.op);
    for (int i = 0; i < e->u.call.nargs; i++)
        need_leaf(ctx, e->u.call.args[i]);
    if (e->u.call.op->kind == EXPR_OP)
        rule_fired("NF-5");
    if (!op_normalize_conforms(e))
        report(ctx, "NF-5", e->span,
               "the arguments of a call_tir-family call must be a "
               "literal tuple");
}

/* Checks the inside of an expression whose own position is already judged. */
static void check_expr(NfCtx *ctx, const Expr *e)
{
    switch (e->kind) {
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_CONSTANT:
    case EXPR_SHAPE:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            need_leaf(ctx, e->u.tuple.fields[i]);
        return;
    case EXPR_SEQ:
        check_body(ctx, e, "a SeqExpr");
        return;
    case EXPR_FUNCTION:
        check_body(ctx, e->u.func->body, "a function body");
        return;
    case EXPR_IF:
        need_leaf(ctx, e->u.if_.cond);
        check_body(ctx, e->u.if_.then_branch, "an If branch");
        check_body(ctx, e->u.if_.else_branch, "an If branch");
        return;
    case EXPR_CALL:
        check_call(ctx, e);
        return;
    case EXPR_TUPLE_GET_ITEM:
        need_leaf(ctx, e->u.get_item.tuple);
        return;
    }
}

static void check_blocks(NfCtx *ctx, const Expr *seq)
{
    rule_fired("NF-4");
    for (int i = 0; i < seq->u.seq.nblocks; i++) {
        const BindingBlock *blk = seq->u.seq.blocks[i];
        if (blk->n == 0)
            report(ctx, "NF-4", blk->span, "an empty binding block");
        if (i > 0 && seq->u.seq.blocks[i - 1]->is_dataflow == blk->is_dataflow)
            report(ctx, "NF-4", blk->span, "adjacent blocks of one kind are not consolidated");
        for (int j = 0; j < blk->n; j++) {
            const Expr *v = blk->bindings[j]->value;
            /* A binding's value is a leaf or a non-leaf whose subexpressions are leaves. */
            if (v->kind == EXPR_SEQ)
                report(ctx, "NF-2", v->span, "a SeqExpr bound to a variable");
            check_expr(ctx, v);
        }
    }
}

/* A function body or If branch: a SeqExpr with consolidated blocks and a leaf body. */
static void check_body(NfCtx *ctx, const Expr *e, const char *what)
{
    rule_fired("NF-3");
    if (e->kind != EXPR_SEQ) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "NotNormalForm", "NF-3", e->span,
                 "%s must be a SeqExpr", what);
        check_expr(ctx, e);
        return;
    }
    check_blocks(ctx, e);
    need_leaf(ctx, e->u.seq.body);
}

void wellformed_check_normal_form(const IRModule *mod, DiagList *errors)
{
    NfCtx ctx = {errors};
    for (int i = 0; i < mod->nfuncs; i++) {
        if (mod->funcs[i]->kind == MODFUNC_RELAX)
            check_body(&ctx, mod->funcs[i]->u.relax->body, "a function body");
    }
}
