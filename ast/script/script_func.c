/* script_func: Relax function definitions: decorators, signatures, attributes, bodies.
 * SPEC_NOTES: TS-2, TS-5.1 (shape variables of a signature). */
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"

static const char *decorator_path(ScriptCtx *ctx, const PyExpr *d, ScriptNs *ns)
{
    const PyExpr *head = d->kind == PY_CALL ? d->u.call.func : d;
    return script_dotted(ctx, head, ns);
}

bool script_is_relax_decorator(ScriptCtx *ctx, const PyExpr *d)
{
    ScriptNs ns;
    const char *path = decorator_path(ctx, d, &ns);
    return path && ns == NS_RELAX && strcmp(path, "function") == 0;
}

bool script_is_prim_decorator(ScriptCtx *ctx, const PyExpr *d)
{
    ScriptNs ns;
    const char *path = decorator_path(ctx, d, &ns);
    return path && ns == NS_TIR && strcmp(path, "prim_func") == 0;
}

/* decorator -> '@' 'R.function' [ '(' {kw '=' (True | False)} ')' ]
 * The keywords are read from the text, as TVM reads them, so they must be literals. */
DecoratorFlags script_relax_decorator(ScriptCtx *ctx, const PyStmt *def)
{
    DecoratorFlags flags = {.pure = true, .private_ = false};
    for (int i = 0; i < def->u.def.ndecorators; i++) /* @R.macro, @R.rewriter, ... */
        script_reject_unsupported(ctx, def->u.def.decorators[i]);
    if (def->u.def.ndecorators != 1 || !script_is_relax_decorator(ctx, def->u.def.decorators[0]))
        script_fail(ctx, "BadDecorator", def->span, "expected the decorator @R.function");
    const PyExpr *d = def->u.def.decorators[0];
    if (d->kind != PY_CALL)
        return flags;
    if (d->u.call.nargs > 0)
        script_fail(ctx, "BadDecorator", d->span, "R.function takes keyword arguments only");
    for (int i = 0; i < d->u.call.nkw; i++) {
        const char *k = d->u.call.kw_names[i];
        const PyExpr *v = d->u.call.kw_values[i];
        bool known = strcmp(k, "pure") == 0 || strcmp(k, "private") == 0 ||
                     strcmp(k, "check_well_formed") == 0;
        if (!known)
            script_fail(ctx, "BadDecorator", d->u.call.kw_spans[i],
                        "R.function takes no keyword `%s`", k);
        if (v->kind != PY_BOOL)
            script_fail(ctx, "BadDecorator", v->span, "`%s` must be True or False", k);
        if (strcmp(k, "pure") == 0)
            flags.pure = v->u.bool_value;
        else if (strcmp(k, "private") == 0)
            flags.private_ = v->u.bool_value;
    }
    return flags;
}

Var *script_new_var(ScriptCtx *ctx, const char *name, StructInfo *ann, Span span)
{
    return var_new(name, ctx->df != NULL, ann, span);
}

void script_emit(ScriptCtx *ctx, Binding *b)
{
    DataflowState *df = ctx->df;
    if (df) {
        block_add(df->block, b);
        if (b->var)
            VEC_PUSH(df->bound, df->nbound, df->cap, b->var);
        return;
    }
    BodyBuilder *bb = ctx->body;
    if (!bb->open) {
        bb->open = block_new(false, b->span);
        VEC_PUSH(bb->blocks, bb->nblocks, bb->cap, bb->open);
    }
    block_add(bb->open, b);
}

void script_close_block(ScriptCtx *ctx)
{
    ctx->body->open = NULL;
}

/* func_attr -> 'R.func_attr' '(' '{' STRING ':' value {',' STRING ':' value} '}' ')' */
void script_func_attr(ScriptCtx *ctx, const PyExpr *call)
{
    FuncState *f = ctx->func;
    if (call->u.call.nargs != 1 || call->u.call.nkw != 0 || call->u.call.args[0]->kind != PY_DICT)
        script_fail(ctx, "BadArguments", call->span, "R.func_attr takes one dict");
    if (f->has_func_attr)
        script_fail(ctx, "DuplicateFuncAttr", call->span, "a second R.func_attr");
    f->has_func_attr = true;
    f->attr_span = call->span;
    const PyExpr *d = call->u.call.args[0];
    for (int i = 0; i < d->u.dict.n; i++) {
        const PyExpr *k = d->u.dict.keys[i];
        if (k->kind != PY_STR)
            script_fail(ctx, "BadExpression", k->span, "attribute keys must be strings");
        if (attrs_get(f->attrs, k->u.str))
            script_fail(ctx, "DuplicateFuncAttr", k->span, "attribute `%s` given twice", k->u.str);
        attrs_set(f->attrs, k->u.str, script_attr_value(ctx, d->u.dict.values[i], false));
    }
}

/* params -> '(' NAME ':' S {',' NAME ':' S} ')' ; every bare string dim of every parameter
 * is defined before the first annotation is read (TS-5.1). */
static void read_params(ScriptCtx *ctx, const PyStmt *def, Function *f)
{
    int n = def->u.def.nparams;
    if (def->u.def.has_varargs)
        script_fail(ctx, "UnsupportedSyntax", def->span,
                    "star parameters are not supported in a Relax function");
    for (int i = 0; i < n; i++) {
        const PyParam *p = &def->u.def.params[i];
        if (p->default_value)
            script_fail(ctx, "UnsupportedSyntax", p->default_value->span,
                        "parameters cannot have default values");
        if (!p->annotation)
            script_fail(ctx, "MissingParamAnnotation", p->span,
                        "parameter `%s` needs a StructInfo annotation", p->name);
    }
    for (int i = 0; i < n; i++)
        script_sinfo_collect(ctx, def->u.def.params[i].annotation);
    f->params = MEM_ARRAY(Var *, n ? n : 1);
    f->nparams = n;
    for (int i = 0; i < n; i++) {
        const PyParam *p = &def->u.def.params[i];
        StructInfo *ann = script_sinfo(ctx, p->annotation, SMODE_PARAM);
        f->params[i] = var_new(p->name, false, ann, p->span);
        script_bind_var(ctx, p->name, f->params[i]);
    }
}

/* ret -> [ '->' ( S | 'None' ) ] ; None is the empty tuple. */
static StructInfo *read_ret(ScriptCtx *ctx, const PyStmt *def)
{
    const PyExpr *r = def->u.def.returns;
    if (!r)
        return NULL;
    if (r->kind == PY_NONE)
        return sinfo_tuple(NULL, 0, r->span);
    return script_sinfo(ctx, r, SMODE_RET);
}

static Expr *read_body(ScriptCtx *ctx, const PyStmt *def)
{
    BodyBuilder bb = {0};
    ctx->body = &bb;
    script_body_stmts(ctx, &def->u.def.body);
    if (!ctx->func->ret_expr)
        script_fail(ctx, "MissingReturn", def->span, "function `%s` has no return",
                    def->u.def.name);
    return expr_seq(bb.blocks, bb.nblocks, ctx->func->ret_expr, def->span);
}

/* global_symbol: a public top-level function is exported under its name (TS-2). */
static void finish_attrs(ScriptCtx *ctx, Function *f, const FuncState *fs, bool top_level,
                         DecoratorFlags flags)
{
    if (flags.private_ && attrs_get(f->attrs, "global_symbol"))
        script_fail(ctx, "PrivateGlobalSymbol", fs->attr_span,
                    "a private function may not have the global_symbol attribute");
    if (top_level && !flags.private_ && !attrs_get(f->attrs, "global_symbol"))
        attrs_set(f->attrs, "global_symbol", attr_str(f->name, f->span));
}

/* funcdef -> decorator 'def' NAME params ret ':' body */
Function *script_function(ScriptCtx *ctx, const PyStmt *def, bool top_level)
{
    rule_fired("TS-2");
    DecoratorFlags flags = script_relax_decorator(ctx, def);
    Function *f = function_new(def->span);
    f->name = def->u.def.name;
    f->is_pure = flags.pure;
    FuncState fs = {.attrs = f->attrs, .prelude = &def->u.def.body};
    FuncState *saved_func = ctx->func;
    DataflowState *saved_df = ctx->df;
    BodyBuilder *saved_body = ctx->body;
    ctx->func = &fs;
    ctx->df = NULL;
    int mark = script_scope_mark(ctx);
    read_params(ctx, def, f);
    f->ret = read_ret(ctx, def);
    f->body = read_body(ctx, def);
    script_scope_pop(ctx, mark);
    ctx->func = saved_func;
    ctx->df = saved_df;
    ctx->body = saved_body;
    finish_attrs(ctx, f, &fs, top_level, flags);
    return f;
}
