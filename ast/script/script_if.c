/* script_if: if/else statements, bound as `y = If(cond, then_seq, else_seq)`.
 * SPEC_NOTES: TS-4.5, WF-7 (no if in a dataflow block). */
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"

/* What one branch yields: the name its last statement binds and the branch SeqExpr. */
typedef struct Branch {
    const char *name;
    Span name_span;
    StructInfo *ann;
    Expr *seq;
    bool from_expr_stmt;
    const char *suffix; /* "then" or "else" */
} Branch;

static noreturn void mismatch(ScriptCtx *ctx, Span span, const char *why)
{
    script_fail(ctx, "IfBranchMismatch", span, "%s", why);
}

/* A branch ending in `with R.dataflow(): ... R.output(y)` yields its last binding, which must
 * be an output; TVM names that variable y_then / y_else and binds y to it, so it prints
 * the same way. */
static Expr *last_dataflow(ScriptCtx *ctx, const PyStmt *s, Branch *b)
{
    script_stmt(ctx, s);
    BodyBuilder *bb = ctx->body;
    BindingBlock *last = bb->nblocks > 0 ? bb->blocks[bb->nblocks - 1] : NULL;
    Binding *lb = last != NULL && last->is_dataflow && last->n > 0 ? last->bindings[last->n - 1]
                                                                  : NULL;
    if (lb == NULL || lb->var == NULL || lb->var->is_dataflow)
        mismatch(ctx, s->span, "a branch ending in a dataflow block must end it in an output");
    b->name = lb->var->name;
    b->name_span = lb->var->span;
    b->ann = NULL;
    lb->var->name = mem_printf("%s_%s", b->name, b->suffix);
    return script_var_ref(lb->var, s->span);
}

/* last -> NAME [':' S] '=' expr | exprstmt | if | with_dataflow ; yields the branch's
 * body value. */
static Expr *last_stmt(ScriptCtx *ctx, const PyStmt *s, Branch *b)
{
    const char *no_binding = "both branches must end in a binding of the same name";
    if (s->kind == PYS_WITH)
        return last_dataflow(ctx, s, b);
    if (s->kind == PYS_IF) {
        Var *v = script_if(ctx, s);
        b->name = v->name;
        b->name_span = v->span;
        b->ann = v->annotation;
        return script_var_ref(v, s->span);
    }
    if (s->kind == PYS_EXPR) {
        const PyExpr *e = s->u.expr;
        if (script_is_call_to(ctx, e, NS_RELAX, "func_attr") ||
            script_is_call_to(ctx, e, NS_RELAX, "output") || e->kind == PY_STR)
            mismatch(ctx, s->span, no_binding);
        rule_fired("TS-4.6");
        b->name = "_";
        b->name_span = s->span;
        b->from_expr_stmt = true;
        return script_expr(ctx, e);
    }
    const PyExpr *target = NULL;
    const PyExpr *value = NULL;
    if (s->kind == PYS_ASSIGN && s->u.assign.ntargets == 1) {
        target = s->u.assign.targets[0];
        value = s->u.assign.value;
    } else if (s->kind == PYS_ANNASSIGN) {
        target = s->u.annassign.target;
        value = s->u.annassign.value;
    }
    if (!target || !value || target->kind != PY_NAME || script_is_decl(ctx, value)) {
        script_stmt(ctx, s); /* reports what is wrong with the statement itself, if anything */
        mismatch(ctx, s->span, no_binding);
    }
    rule_fired("TS-4.1");
    b->name = target->u.name;
    b->name_span = target->span;
    if (s->kind == PYS_ANNASSIGN)
        b->ann = script_sinfo(ctx, s->u.annassign.annotation, SMODE_BODY);
    if (script_is_call_to(ctx, value, NS_RELAX, "match_cast"))
        return script_var_ref(script_match_cast(ctx, target, b->ann, value, s->span), target->span);
    return script_rhs(ctx, value);
}

/* TS-5.3: a branch is its own scope: names bound in it, Relax or shape variables, vanish after. */
static Branch branch(ScriptCtx *ctx, const PyBody *body, Span span, const char *suffix)
{
    Branch b = {.suffix = suffix};
    if (body->n == 0)
        mismatch(ctx, span, "an empty branch");
    BodyBuilder bb = {0};
    BodyBuilder *saved = ctx->body;
    ctx->body = &bb;
    int mark = script_scope_mark(ctx);
    ctx->func->branch_depth++;
    for (int i = 0; i < body->n - 1; i++)
        script_stmt(ctx, body->stmts[i]);
    const PyStmt *last = body->stmts[body->n - 1];
    Expr *value = last_stmt(ctx, last, &b);
    b.seq = expr_seq(bb.blocks, bb.nblocks, value, span);
    ctx->func->branch_depth--;
    script_scope_pop(ctx, mark);
    ctx->body = saved;
    return b;
}

/* if -> 'if' cond ':' body ('else' ':' body | elif) ; cond is a Relax expression, a
 * PrimExpr over shape variables (read as a PrimValue) or R.prim_value(...). */
Var *script_if(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.5");
    /* WF-7: no If inside a DataflowBlock; the text cannot even express it. */
    if (ctx->df)
        script_fail(ctx, "IfInDataflow", s->span, "an if inside a dataflow block");
    if (!s->u.if_.has_else)
        script_fail(ctx, "MissingElse", s->span, "an if needs an else branch");
    Expr *cond = script_expr(ctx, s->u.if_.cond);
    Branch t = branch(ctx, &s->u.if_.body, s->span, "then");
    Branch e = branch(ctx, &s->u.if_.orelse, s->span, "else");
    if (strcmp(t.name, e.name) != 0)
        mismatch(ctx, e.name_span, "the branches end in bindings of different names");
    if (t.ann && e.ann && !equal_sinfo(t.ann, e.ann))
        mismatch(ctx, e.name_span, "the branches annotate the result differently");
    Expr *ife = expr_new(EXPR_IF, s->span);
    ife->u.if_.cond = cond;
    ife->u.if_.then_branch = t.seq;
    ife->u.if_.else_branch = e.seq;
    Var *var = script_new_var(ctx, t.name, t.ann ? t.ann : e.ann, t.name_span);
    Binding *b = binding_var(var, ife, s->span);
    b->from_expr_stmt = t.from_expr_stmt && e.from_expr_stmt;
    script_emit(ctx, b);
    if (!b->from_expr_stmt)
        script_bind_var(ctx, t.name, var);
    return var;
}
