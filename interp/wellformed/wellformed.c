/* wellformed: the well-formedness check of a module (WF-1..WF-24): the context, the scope
 * stacks and the walk over direct subexpressions. SPEC_NOTES: "Well-formedness". */
#include "interp/wellformed/wellformed.h"

#include <string.h>

#include "ast/mem.h"
#include "interp/wellformed/wf_internal.h"

bool wf_is_visible_svar(const WfCtx *ctx, const TirVar *v)
{
    for (int i = ctx->nsvars - 1; i >= 0; i--) {
        if (ctx->svars[i] == v)
            return true;
    }
    return false;
}

void wf_push_svar(WfCtx *ctx, const TirVar *v)
{
    VEC_PUSH(ctx->svars, ctx->nsvars, ctx->capsvars, v);
}

const char *wf_symbol(const Attrs *attrs)
{
    AttrValue *v = attrs ? attrs_get(attrs, "global_symbol") : NULL;
    return v != NULL && v->kind == ATTR_STR ? v->u.s : NULL;
}

static void each_binding_child(const Binding *b, void (*fn)(const Expr *, void *), void *arg)
{
    fn(b->value, arg);
}

static void each_attr_child(const Attrs *attrs, void (*fn)(const Expr *, void *), void *arg)
{
    for (int i = 0; attrs != NULL && i < attrs->n; i++) {
        if (attrs->values[i]->kind == ATTR_EXPR)
            fn(attrs->values[i]->u.expr, arg);
    }
}

void wf_each_child(const Expr *e, void (*fn)(const Expr *child, void *arg), void *arg)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            fn(e->u.tuple.fields[i], arg);
        return;
    case EXPR_SEQ:
        for (int i = 0; i < e->u.seq.nblocks; i++) {
            const BindingBlock *blk = e->u.seq.blocks[i];
            for (int j = 0; j < blk->n; j++)
                each_binding_child(blk->bindings[j], fn, arg);
        }
        fn(e->u.seq.body, arg);
        return;
    case EXPR_FUNCTION:
        fn(e->u.func->body, arg);
        return;
    case EXPR_IF:
        fn(e->u.if_.cond, arg);
        fn(e->u.if_.then_branch, arg);
        fn(e->u.if_.else_branch, arg);
        return;
    case EXPR_CALL:
        fn(e->u.call.op, arg);
        for (int i = 0; i < e->u.call.nargs; i++)
            fn(e->u.call.args[i], arg);
        each_attr_child(e->u.call.attrs, fn, arg);
        return;
    case EXPR_TUPLE_GET_ITEM:
        fn(e->u.get_item.tuple, arg);
        return;
    }
}

static void check_globals_bodies(WfCtx *ctx)
{
    int relax_index = 0; /* the call graph holds the Relax functions in module order */
    for (int i = 0; i < ctx->mod->nfuncs; i++) {
        const ModuleFunc *mf = ctx->mod->funcs[i];
        if (mf->kind != MODFUNC_RELAX)
            continue;
        ctx->global_index = relax_index++;
        /* Every global starts with empty scopes: nothing is visible across functions. */
        ctx->nvis = 0;
        ctx->nsvars = 0;
        ctx->fn_depth = 0;
        ctx->in_dataflow = false;
        ctx->defining = NULL;
        wf_vars_check_function(ctx, mf->u.relax, NULL);
    }
}

void wellformed_check(const IRModule *mod, DiagList *errors)
{
    WfCtx ctx = {0};
    ctx.mod = mod;
    ctx.errors = errors;
    ctx.global_index = -1;
    wf_vars_collect_sites(&ctx);
    wf_module_build_graph(&ctx);
    wf_module_check_globals(&ctx);
    check_globals_bodies(&ctx);
}

const Error *wellformed_first_before_normalize(const IRModule *mod)
{
    DiagList all, kept;
    diag_init(&all);
    diag_init(&kept);
    wellformed_check(mod, &all);
    for (int i = 0; i < all.n; i++) {
        const Error *e = &all.items[i];
        if (e->rule == NULL || strcmp(e->rule, "WF-23") != 0)
            VEC_PUSH(kept.items, kept.n, kept.cap, *e);
    }
    return diag_first(&kept);
}
