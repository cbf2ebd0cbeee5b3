/* sinfo_derive_func: the scoped rules: SeqExpr (SI-10), bindings and MatchCast (SI-11),
 * functions (SI-15). SPEC_NOTES: "StructInfo" (SI-10, SI-11, SI-15, SI-VOID). */
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "interp/structinfo/sinfo_derive_internal.h"

static void gamma_push(SiCtx *c, const Var *v, StructInfo *s)
{
    GammaEntry g = {v, s};
    VEC_PUSH(c->gamma, c->ngamma, c->capgamma, g);
    ptrmap_put(&c->gamma_at, v, c->ngamma - 1);
}

/* Adds the shape variables of `s` that are not in scope yet (they are bound here). */
static void sigma_add_new(SiCtx *c, const StructInfo *s)
{
    TirVarList vars = {NULL, 0, 0};
    sinfo_collect_shape_vars(s, &vars);
    for (int i = 0; i < vars.n; i++)
        if (!tirvar_list_has(&c->sigma, vars.items[i]))
            VEC_PUSH(c->sigma.items, c->sigma.n, c->sigma.cap, vars.items[i]);
}

static void record(SiCtx *c, const Var *v, StructInfo *s, Span span)
{
    SinfoBinding b = {c->fn ? c->fn->name : "", v->name, s, span};
    VEC_PUSH(c->bindings->items, c->bindings->n, c->bindings->cap, b);
}

static bool has_force_pure(const Function *f)
{
    const AttrValue *a = attrs_get(f->attrs, "relax.force_pure");
    if (a == NULL)
        return false;
    return (a->kind == ATTR_BOOL && a->u.b) || (a->kind == ATTR_INT && a->u.i != 0);
}

StructInfo *si_signature(const Function *f)
{
    StructInfo **params = MEM_ARRAY(StructInfo *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) {
        const Var *p = f->params[i];
        params[i] = p->annotation ? p->annotation : sinfo_object(p->span);
    }
    StructInfo *ret = f->ret ? f->ret : sinfo_object(f->span);
    return sinfo_func(params, f->nparams, ret, f->is_pure, f->span);
}

/* ---- bindings (SI-11) ------------------------------------------------------------------ */

/* SI-11.3: MatchCast. A cast that can never succeed is an error (the spec's warning made
 * certain: only provably disjoint StructInfos); an annotated variable needs S <: S'. */
static void derive_match_cast(SiCtx *c, Binding *b)
{
    rule_fired("SI-11");
    StructInfo *sv = si_derive(c, b->value);
    StructInfo *s = b->struct_info;
    sigma_add_new(c, s);
    if (!sv->poisoned && sinfo_disjoint(sv, s))
        si_error(c, "MatchCastImpossible", "SI-11", b->span, "a value of %s can never match %s",
                 printer_print_sinfo(sv), printer_print_sinfo(s));
    if (b->var == NULL)
        return;
    StructInfo *ann = b->var->annotation;
    if (ann != NULL && ann != s) {
        Relation r = sinfo_subtype(s, ann);
        if (r == REL_NO)
            si_error(c, "MatchCastVarAnnotation", "SI-11", b->span,
                     "the cast's %s is not a subtype of the variable's annotation %s",
                     printer_print_sinfo(s), printer_print_sinfo(ann));
        else if (r == REL_MAYBE)
            si_warn(c, "PossiblyIncompatible", "SI-11", b->span,
                    "the cast's %s is only possibly a subtype of %s", printer_print_sinfo(s),
                    printer_print_sinfo(ann));
        s = ann;
    }
    s = si_vdev_bind(c, b->var, s, b->span);
    gamma_push(c, b->var, s);
    record(c, b->var, s, b->span);
}

/* SI-11.2.1: a function literal sees its own variable (recursion), annotated or, when not,
 * declared by its signature. */
static StructInfo *derive_function_binding(SiCtx *c, Binding *b)
{
    Var *v = b->var;
    StructInfo *declared = v->annotation ? v->annotation : si_signature(b->value->u.func);
    gamma_push(c, v, declared);
    int mark = c->ngamma - 1;
    StructInfo *se = si_derive(c, b->value);
    c->ngamma = mark;
    return se;
}

static void derive_var_binding(SiCtx *c, Binding *b)
{
    Var *v = b->var;
    bool is_func = b->value->kind == EXPR_FUNCTION && v != NULL;
    StructInfo *se = is_func ? derive_function_binding(c, b) : si_derive(c, b->value);
    if (b->from_expr_stmt && se->poisoned)
        rule_fired("DIAG-1");
    if (b->from_expr_stmt && !sinfo_is_void(se) && !se->poisoned)
        si_error(c, "NonVoidExprStmt", "SI-VOID", b->span,
                 "a non-void expression (%s) must be bound to a variable", printer_print_sinfo(se));
    if (b->from_expr_stmt)
        rule_fired("SI-VOID");
    if (v == NULL)
        return;
    rule_fired("SI-11");
    StructInfo *s = se;
    if (v->annotation != NULL) {
        si_judge(c, sinfo_compat(se, v->annotation), "Incompatible", "SI-11", b->span, se,
                 v->annotation, mem_printf("the value bound to `%s`", v->name));
        s = v->annotation;
    }
    s = si_vdev_bind(c, v, s, b->span);
    gamma_push(c, v, s);
    record(c, v, s, b->span);
}

/* ---- SeqExpr (SI-10) ----------------------------------------------------------------- */

/* After a DataflowBlock its DataflowVars leave Γ. */
static void drop_dataflow_vars(SiCtx *c, int mark)
{
    int k = mark;
    for (int i = mark; i < c->ngamma; i++)
        if (!c->gamma[i].var->is_dataflow)
            c->gamma[k++] = c->gamma[i];
    c->ngamma = k;
    for (int i = mark; i < k; i++)
        ptrmap_put(&c->gamma_at, c->gamma[i].var, i);
}

static void derive_block(SiCtx *c, BindingBlock *blk)
{
    bool saved = c->in_dataflow;
    c->in_dataflow = saved || blk->is_dataflow;
    int mark = c->ngamma;
    for (int i = 0; i < blk->n; i++) {
        Binding *b = blk->bindings[i];
        if (b->kind == BIND_MATCH_CAST)
            derive_match_cast(c, b);
        else
            derive_var_binding(c, b);
    }
    c->in_dataflow = saved;
    if (blk->is_dataflow)
        drop_dataflow_vars(c, mark);
}

StructInfo *si_derive_seq(SiCtx *c, Expr *e)
{
    rule_fired("SI-10");
    int gmark = c->ngamma, smark = c->sigma.n;
    for (int i = 0; i < e->u.seq.nblocks; i++)
        derive_block(c, e->u.seq.blocks[i]);
    StructInfo *s = si_derive(c, e->u.seq.body);
    c->ngamma = gmark;
    c->sigma.n = smark;
    /* ERASE-1: the body may mention shape variables its blocks defined. */
    SinfoScope scope = si_scope(c);
    return sinfo_erase(s, &scope);
}

/* ---- functions (SI-15) ------------------------------------------------------------------ */

static Span return_span(const Function *f)
{
    const Expr *body = f->body;
    if (body->kind == EXPR_SEQ)
        return body->u.seq.body->span;
    return body->span;
}

StructInfo *si_derive_function(SiCtx *c, Expr *e, Function *f, const char *name)
{
    (void)e;
    FnFrame frame = {name, f->is_pure, has_force_pure(f)};
    const FnFrame *saved_fn = c->fn;
    bool saved_df = c->in_dataflow;
    /* PURITY-4: calls in the body answer to this function's purity and blocks alone. */
    rule_fired("SI-15");
    rule_fired("PURITY-4");
    c->fn = &frame;
    c->in_dataflow = false;
    int gmark = c->ngamma, smark = c->sigma.n;
    StructInfo **params = MEM_ARRAY(StructInfo *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) {
        Var *p = f->params[i];
        params[i] =
            si_vdev_bind(c, p, p->annotation ? p->annotation : sinfo_object(p->span), p->span);
        sigma_add_new(c, params[i]);
        gamma_push(c, p, params[i]);
        record(c, p, params[i], p->span);
    }
    StructInfo *body = si_derive(c, f->body);
    StructInfo *ret = f->ret;
    if (ret != NULL) {
        si_judge(c, sinfo_compat(body, ret), "ReturnIncompatible", "SI-15", return_span(f), body,
                 ret, mem_printf("the result of `%s`", name));
    } else {
        /* ERASE-1: erased to the scope outside plus the parameters' shape variables. */
        c->ngamma = gmark;
        SinfoScope scope = si_scope(c);
        ret = sinfo_erase(body, &scope);
    }
    c->ngamma = gmark;
    c->sigma.n = smark;
    c->fn = saved_fn;
    c->in_dataflow = saved_df;
    return sinfo_func(params, f->nparams, ret, f->is_pure, f->span);
}
