/* wf_vars: the walk over every function body, with the variable and scope rules: WF-1
 * (dataflow variables), WF-2 (bound exactly once), WF-3 (no use before the binding) and
 * WF-11 (no dataflow variable captured by a local function). SPEC_NOTES: "Well-formedness". */
#include <stdbool.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/wellformed/wf_internal.h"

static void check_expr(WfCtx *ctx, const Expr *e);

static bool in_set(const PtrMap *set, const Var *v)
{
    int64_t unused;
    return ptrmap_get(set, v, &unused);
}

/* ---- the prepass: every binding site of the module --------------------------------- */

static void add_site(WfCtx *ctx, const Var *v)
{
    if (v != NULL) {
        VEC_PUSH(ctx->sites, ctx->nsites, ctx->capsites, v);
        ptrmap_put(&ctx->site_set, v, 1);
    }
}

static void collect(const Expr *e, void *arg)
{
    WfCtx *ctx = arg;
    if (e->kind == EXPR_SEQ) {
        for (int i = 0; i < e->u.seq.nblocks; i++) {
            const BindingBlock *blk = e->u.seq.blocks[i];
            for (int j = 0; j < blk->n; j++)
                add_site(ctx, blk->bindings[j]->var);
        }
    } else if (e->kind == EXPR_FUNCTION) {
        for (int i = 0; i < e->u.func->nparams; i++)
            add_site(ctx, e->u.func->params[i]);
    }
    wf_each_child(e, collect, ctx);
}

void wf_vars_collect_sites(WfCtx *ctx)
{
    for (int i = 0; i < ctx->mod->nfuncs; i++) {
        const ModuleFunc *mf = ctx->mod->funcs[i];
        if (mf->kind != MODFUNC_RELAX)
            continue;
        const Function *f = mf->u.relax;
        for (int k = 0; k < f->nparams; k++)
            add_site(ctx, f->params[k]);
        collect(f->body, ctx);
    }
}

/* ---- binding and using variables ---------------------------------------------------- */

static void bind_var(WfCtx *ctx, const Var *v, bool is_param)
{
    rule_fired("WF-2");
    if (v->is_dataflow)
        rule_fired("WF-1");
    if (in_set(&ctx->seen_set, v)) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "VarBoundTwice", "WF-2", v->span,
                 "variable '%s' is bound more than once", v->name);
    } else {
        VEC_PUSH(ctx->seen, ctx->nseen, ctx->capseen, v);
        ptrmap_put(&ctx->seen_set, v, 1);
    }
    if (v->is_dataflow && (is_param || !ctx->in_dataflow))
        diag_add(ctx->errors, PHASE_WELLFORMED, "DataflowVarOutsideBlock", "WF-1", v->span,
                 "dataflow variable '%s' is bound outside a dataflow block", v->name);
    WfVisible w = {v, ctx->fn_depth};
    VEC_PUSH(ctx->vis, ctx->nvis, ctx->capvis, w);
    ptrmap_put(&ctx->vis_at, v, ctx->nvis - 1);
}

static const WfVisible *find_visible(const WfCtx *ctx, const Var *v)
{
    int64_t at;
    if (ptrmap_get(&ctx->vis_at, v, &at) && at < ctx->nvis && ctx->vis[at].var == v)
        return &ctx->vis[at];
    /* Stale (its scope ended): only a Var bound twice can still be visible; look slowly. */
    for (int i = ctx->nvis - 1; i >= 0; i--) {
        if (ctx->vis[i].var == v)
            return &ctx->vis[i];
    }
    return NULL;
}

/* A variable that is not visible: the rule it breaks depends on where it is bound. */
static void report_invisible(WfCtx *ctx, const Var *v, Span span)
{
    if (v == ctx->defining) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "RecursiveNonFunction", "WF-2", span,
                 "'%s' is used in its own binding, which does not define a function", v->name);
    } else if (in_set(&ctx->seen_set, v) && v->is_dataflow) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "DataflowVarScope", "WF-1", span,
                 "dataflow variable '%s' is used outside the dataflow block that binds it",
                 v->name);
    } else if (in_set(&ctx->seen_set, v)) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "VarOutOfScope", "WF-3", span,
                 "variable '%s' is used outside the scope of its binding", v->name);
    } else if (in_set(&ctx->site_set, v)) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "UseBeforeDef", "WF-3", span,
                 "variable '%s' is used before it is bound", v->name);
    } else {
        diag_add(ctx->errors, PHASE_WELLFORMED, "UnboundVar", "WF-2", span,
                 "variable '%s' is neither a parameter nor bound by any binding", v->name);
    }
}

static void use_var(WfCtx *ctx, const Var *v, Span span)
{
    rule_fired("WF-3");
    if (v->is_dataflow)
        rule_fired("WF-1");
    if (v->is_dataflow && ctx->fn_depth > 1)
        rule_fired("WF-11");
    const WfVisible *w = find_visible(ctx, v);
    if (w == NULL) {
        report_invisible(ctx, v, span);
        return;
    }
    if (v->is_dataflow && w->fn_depth < ctx->fn_depth)
        diag_add(ctx->errors, PHASE_WELLFORMED, "DataflowCapture", "WF-11", span,
                 "a local function uses dataflow variable '%s' of the enclosing scope", v->name);
}

/* Tensor shapes in annotations may name a Relax variable: it must be in scope (WF-14). */
void wf_vars_use_in_annotation(WfCtx *ctx, const Var *v, Span span)
{
    rule_fired("WF-14");
    if (find_visible(ctx, v) == NULL)
        diag_add(ctx->errors, PHASE_WELLFORMED, "AnnotationVarScope", "WF-14", span,
                 "the shape variable '%s' of an annotation is not in scope", v->name);
}

/* ---- blocks and bindings ------------------------------------------------------------ */

/* DataflowVars leave scope when their block ends; ordinary Vars of the block stay. */
static void end_dataflow_block(WfCtx *ctx, int mark)
{
    int k = mark;
    for (int i = mark; i < ctx->nvis; i++) {
        if (!ctx->vis[i].var->is_dataflow)
            ctx->vis[k++] = ctx->vis[i];
    }
    ctx->nvis = k;
    for (int i = mark; i < k; i++)
        ptrmap_put(&ctx->vis_at, ctx->vis[i].var, i);
}

static void check_annotation(WfCtx *ctx, const Var *v, const StructInfo *skip)
{
    if (v != NULL && v->annotation != NULL && v->annotation != skip)
        wf_shapes_check_sinfo(ctx, v->annotation, WF_SITE_VAR);
}

static void check_binding(WfCtx *ctx, const Binding *b)
{
    if (b->kind == BIND_VAR && b->value->kind == EXPR_FUNCTION) {
        /* A local function may call itself: its variable is in scope in its body. */
        bind_var(ctx, b->var, false);
        check_annotation(ctx, b->var, NULL);
        wf_vars_check_function(ctx, b->value->u.func, b->var);
        return;
    }
    const Var *saved = ctx->defining;
    ctx->defining = b->var;
    check_expr(ctx, b->value);
    ctx->defining = saved;
    if (b->kind == BIND_MATCH_CAST) {
        wf_shapes_bind_positions(ctx, b->struct_info);
        wf_shapes_check_sinfo(ctx, b->struct_info, WF_SITE_MATCH_CAST);
    }
    if (b->var != NULL) {
        bind_var(ctx, b->var, false);
        check_annotation(ctx, b->var, b->struct_info);
    }
}

static void check_seq(WfCtx *ctx, const Expr *e)
{
    int vmark = ctx->nvis, smark = ctx->nsvars;
    bool outer_df = ctx->in_dataflow;
    for (int i = 0; i < e->u.seq.nblocks; i++) {
        const BindingBlock *blk = e->u.seq.blocks[i];
        int bmark = ctx->nvis;
        /* A block nested in a dataflow binding is still inside that DataflowBlock. */
        ctx->in_dataflow = outer_df || blk->is_dataflow;
        for (int j = 0; j < blk->n; j++)
            check_binding(ctx, blk->bindings[j]);
        if (blk->is_dataflow)
            end_dataflow_block(ctx, bmark);
    }
    ctx->in_dataflow = outer_df;
    check_expr(ctx, e->u.seq.body);
    ctx->nvis = vmark;
    ctx->nsvars = smark;
}

/* ---- functions and expressions ------------------------------------------------------- */

void wf_vars_check_function(WfCtx *ctx, const Function *f, const Var *self)
{
    if (ctx->in_dataflow)
        rule_fired("WF-11");
    wf_module_check_function(ctx, f, self);
    int vmark = ctx->nvis, smark = ctx->nsvars;
    bool outer_df = ctx->in_dataflow;
    const Var *outer_self = ctx->local_self, *outer_defining = ctx->defining;
    ctx->fn_depth++;
    ctx->in_dataflow = false;
    ctx->local_self = self;
    ctx->defining = NULL;
    for (int i = 0; i < f->nparams; i++)
        bind_var(ctx, f->params[i], true);
    /* Signature variables bind wherever they stand alone, in any parameter (WF-6). */
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i]->annotation != NULL)
            wf_shapes_bind_positions(ctx, f->params[i]->annotation);
    }
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i]->annotation != NULL)
            wf_shapes_check_sinfo(ctx, f->params[i]->annotation, WF_SITE_PARAM);
    }
    if (f->ret != NULL)
        wf_shapes_check_sinfo(ctx, f->ret, WF_SITE_RET);
    check_expr(ctx, f->body);
    ctx->fn_depth--;
    ctx->nvis = vmark;
    ctx->nsvars = smark;
    ctx->in_dataflow = outer_df;
    ctx->local_self = outer_self;
    ctx->defining = outer_defining;
}

static void check_call(WfCtx *ctx, const Expr *e)
{
    wf_module_check_call(ctx, e);
    if (e->u.call.op->kind == EXPR_OP)
        rule_fired("WF-9");
    else
        check_expr(ctx, e->u.call.op);
    for (int i = 0; i < e->u.call.nargs; i++)
        check_expr(ctx, e->u.call.args[i]);
    for (int i = 0; i < e->u.call.nsinfo_args; i++)
        wf_shapes_check_sinfo(ctx, e->u.call.sinfo_args[i], WF_SITE_SINFO_ARG);
    const Attrs *attrs = e->u.call.attrs;
    for (int i = 0; attrs != NULL && i < attrs->n; i++) {
        if (attrs->values[i]->kind == ATTR_EXPR)
            check_expr(ctx, attrs->values[i]->u.expr);
    }
}

static void check_global_ref(WfCtx *ctx, const Expr *e)
{
    rule_fired("WF-2");
    if (module_lookup(ctx->mod, e->u.gvar->name) == NULL)
        diag_add(ctx->errors, PHASE_WELLFORMED, "UnboundGlobalVar", "WF-2", e->span,
                 "no function of the module is named '%s'", e->u.gvar->name);
}

static void check_expr(WfCtx *ctx, const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
        return;
    case EXPR_VAR:
        use_var(ctx, e->u.var, e->span);
        return;
    case EXPR_GLOBAL_VAR:
        check_global_ref(ctx, e);
        return;
    case EXPR_OP:
        wf_module_check_op_position(ctx, e);
        return;
    case EXPR_SHAPE:
        for (int i = 0; i < e->u.shape.n; i++)
            wf_shapes_check_primexpr(ctx, e->u.shape.values[i], e->span);
        return;
    case EXPR_PRIM_VALUE:
        wf_module_check_prim_value(ctx, e);
        wf_shapes_check_primexpr(ctx, e->u.prim, e->span);
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            check_expr(ctx, e->u.tuple.fields[i]);
        return;
    case EXPR_SEQ:
        check_seq(ctx, e);
        return;
    case EXPR_FUNCTION:
        wf_vars_check_function(ctx, e->u.func, NULL);
        return;
    case EXPR_IF:
        wf_module_check_if(ctx, e);
        check_expr(ctx, e->u.if_.cond);
        check_expr(ctx, e->u.if_.then_branch);
        check_expr(ctx, e->u.if_.else_branch);
        return;
    case EXPR_CALL:
        check_call(ctx, e);
        return;
    case EXPR_TUPLE_GET_ITEM:
        check_expr(ctx, e->u.get_item.tuple);
        return;
    }
}
