/* legacy_rewrite: the legacy reader's driver: modules, Relax functions and their statements
 * rewritten into today's forms, then parsed by the TVMScript reader.
 * SPEC_NOTES: "Legacy syntax" (LEG-1, LEG-10 to LEG-12). */
#include "ast/legacy/legacy.h"
#include "ast/rule.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "ast/text/py_parser.h"

noreturn void legacy_fail(LegacyCtx *ctx, const char *code, const char *rule, Span span,
                          const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    error_raise(ctx->trap, PHASE_PARSE, code, rule, span, "legacy syntax: %s", buf);
}

/* ---- variables of one function -------------------------------------------------------- */

LegacyVar *legacy_var(LegacyCtx *ctx, const char *name)
{
    for (int i = ctx->nvars - 1; i >= 0; i--)
        if (strcmp(ctx->vars[i].name, name) == 0)
            return &ctx->vars[i];
    return NULL;
}

void legacy_set_var(LegacyCtx *ctx, const char *name, LegacyKind kind, const char *dtype)
{
    LegacyVar v = {name, kind, dtype, NULL};
    VEC_PUSH(ctx->vars, ctx->nvars, ctx->capvars, v);
}

void legacy_add_shape_var(LegacyCtx *ctx, const char *name)
{
    if (strcmp(name, "_") == 0)
        return;
    for (int i = 0; i < ctx->nshape_vars; i++)
        if (strcmp(ctx->shape_vars[i], name) == 0)
            return;
    VEC_PUSH(ctx->shape_vars, ctx->nshape_vars, ctx->capshape_vars, name);
}

bool legacy_is_global(const LegacyCtx *ctx, const char *name)
{
    for (int i = 0; i < ctx->nglobals; i++)
        if (strcmp(ctx->globals[i], name) == 0)
            return true;
    return false;
}

PyExpr *legacy_global_ref(LegacyCtx *ctx, PyExpr *name)
{
    if (ctx->module_name == NULL || !legacy_is_global(ctx, name->u.name) ||
        legacy_var(ctx, name->u.name) != NULL)
        return name;
    return lpy_dotted(ctx->module_name, name->u.name, name->span);
}

/* ---- statements ------------------------------------------------------------------------- */

static void body(LegacyCtx *ctx, PyBody *b);
static void relax_function(LegacyCtx *ctx, PyStmt *def);

static void bind_target(LegacyCtx *ctx, PyExpr *target, PyExpr *ann, PyExpr *value)
{
    if (target->kind != PY_NAME)
        return;
    const char *dtype = NULL;
    LegacyKind kind = legacy_kind_of_annotation(ann, &dtype);
    if (kind == LKIND_UNKNOWN)
        kind = legacy_kind_of_rhs(ctx, value, &dtype);
    legacy_set_var(ctx, target->u.name, kind, dtype);
    /* LEG-4: a shape bound to literal dims keeps them, for call_tir's output shape. */
    if (value->kind == PY_CALL && legacy_is(value->u.call.func, "R.shape"))
        ctx->vars[ctx->nvars - 1].dims = value->u.call.args[0];
}

/* A legacy expression statement: R.match_shape without a variable binds `_`; a call_packed
 * whose result is dropped returns nothing (LEG-7). */
static PyStmt *expr_stmt(LegacyCtx *ctx, PyStmt *s)
{
    PyExpr *e = s->u.expr;
    if (e->kind == PY_CALL && legacy_is(e->u.call.func, "R.match_shape"))
        return lpy_assign(lpy_name("_", e->span), legacy_rhs(ctx, e, NULL), s->span);
    if (e->kind == PY_CALL && legacy_is(e->u.call.func, "R.call_packed") &&
        lpy_kw(e, "type_args") == NULL)
        s->u.expr = legacy_rhs(ctx, e, lpy_dotted("R", "Tuple", e->span));
    else
        s->u.expr = legacy_expr(ctx, e);
    return s;
}

/* if True: the seed spec's pseudocode condition is a bool scalar constant. */
static PyExpr *condition(LegacyCtx *ctx, PyExpr *cond)
{
    if (cond->kind != PY_BOOL)
        return legacy_expr(ctx, cond);
    return lpy_call(lpy_dotted("R", "const", cond->span), &cond, 1, cond->span);
}

/* An annotation without dims on a match_shape binding (`lv: R.Shape = R.match_shape(...)`)
 * is the legacy supertype of what the match gives; today's match_cast takes an annotation
 * only when it is the same StructInfo, so it is left out (LEG-5). */
static bool is_shapeless(const PyExpr *ann)
{
    return ann->kind != PY_CALL || ann->u.call.nargs == 0 ||
           (ann->u.call.nargs == 1 && ann->u.call.args[0]->kind == PY_STR);
}

static PyStmt *annotated(LegacyCtx *ctx, PyStmt *s)
{
    PyExpr *ann = legacy_annotation(ctx, s->u.annassign.annotation, LANN_BODY);
    s->u.annassign.annotation = ann;
    PyExpr *value = s->u.annassign.value;
    if (value == NULL)
        return s;
    bool match = value->kind == PY_CALL && legacy_is(value->u.call.func, "R.match_shape");
    s->u.annassign.value = legacy_rhs(ctx, value, ann);
    bind_target(ctx, s->u.annassign.target, ann, s->u.annassign.value);
    if (match && is_shapeless(ann))
        return lpy_assign(s->u.annassign.target, s->u.annassign.value, s->span);
    return s;
}

static PyStmt *stmt(LegacyCtx *ctx, PyStmt *s)
{
    switch (s->kind) {
    case PYS_EXPR:
        return expr_stmt(ctx, s);
    case PYS_ASSIGN:
        s->u.assign.value = legacy_rhs(ctx, s->u.assign.value, NULL);
        for (int i = 0; i < s->u.assign.ntargets; i++)
            bind_target(ctx, s->u.assign.targets[i], NULL, s->u.assign.value);
        return s;
    case PYS_ANNASSIGN:
        return annotated(ctx, s);
    case PYS_RETURN:
        if (s->u.ret != NULL)
            s->u.ret = legacy_expr(ctx, s->u.ret);
        return s;
    case PYS_IF:
        s->u.if_.cond = condition(ctx, s->u.if_.cond);
        body(ctx, &s->u.if_.body);
        body(ctx, &s->u.if_.orelse);
        return s;
    case PYS_WITH: /* with R.dataflow(): its bindings are rewritten as any others (LEG-10) */
        rule_fired("LEG-10");
        body(ctx, &s->u.with.body);
        return s;
    case PYS_DEF:
        relax_function(ctx, s);
        return s;
    case PYS_AUGASSIGN:
    case PYS_FOR:
    case PYS_WHILE:
    case PYS_CLASS:
    case PYS_PASS:
    case PYS_IMPORT:
    case PYS_ASSERT:
    case PYS_BREAK:
    case PYS_CONTINUE:
        return s;
    }
    return s;
}

static void body(LegacyCtx *ctx, PyBody *b)
{
    for (int i = 0; i < b->n; i++)
        b->stmts[i] = stmt(ctx, b->stmts[i]);
}

/* ---- functions -------------------------------------------------------------------------- */

/* LEG-10: shape variables are implicit in the legacy syntax; today a function declares
 * those its body names (n = T.int64()), ahead of its statements. */
static void declare_shape_vars(LegacyCtx *ctx, PyStmt *def, int from)
{
    PyBody *b = &def->u.def.body;
    int n = 0;
    PyStmt **decls = MEM_ARRAY(PyStmt *, ctx->nshape_vars - from + b->n + 1);
    for (int i = from; i < ctx->nshape_vars; i++) {
        const char *name = ctx->shape_vars[i];
        if (legacy_var(ctx, name) != NULL)
            continue;
        PyExpr *int64 = lpy_call(lpy_dotted("T", "int64", def->span), NULL, 0, def->span);
        decls[n++] = lpy_assign(lpy_name(name, def->span), int64, def->span);
    }
    for (int i = 0; i < b->n; i++)
        decls[n++] = b->stmts[i];
    b->stmts = decls;
    b->n = n;
}

/* LEG-11, LEG-12: @R.func is @R.function; a legacy function has no purity annotation, its
 * purity is inferred (the old spec's rule), so one calling call_packed or R.print is
 * pure=False. */
static void decorate(LegacyCtx *ctx, PyStmt *def)
{
    rule_fired("LEG-11");
    rule_fired("LEG-12");
    for (int i = 0; i < def->u.def.ndecorators; i++) {
        PyExpr *d = def->u.def.decorators[i];
        PyExpr *head = d->kind == PY_CALL ? d->u.call.func : d;
        if (!legacy_is(head, "R.func") && !legacy_is(head, "R.function"))
            continue;
        PyExpr *call = d->kind == PY_CALL ? d : lpy_call(head, NULL, 0, d->span);
        call->u.call.func = lpy_dotted("R", "function", head->span);
        if (ctx->impure && lpy_kw(call, "pure") == NULL)
            lpy_add_kw(call, "pure", lpy_bool(false, d->span));
        def->u.def.decorators[i] =
            call->u.call.nargs == 0 && call->u.call.nkw == 0 ? call->u.call.func : call;
    }
}

static void relax_function(LegacyCtx *ctx, PyStmt *def)
{
    int vars_mark = ctx->nvars, shape_mark = ctx->nshape_vars;
    bool impure = ctx->impure;
    ctx->impure = false;
    for (int i = 0; i < def->u.def.nparams; i++) {
        PyParam *p = &def->u.def.params[i];
        p->annotation = legacy_annotation(ctx, p->annotation, LANN_SIGNATURE);
        const char *dtype;
        LegacyKind kind = legacy_kind_of_annotation(p->annotation, &dtype);
        legacy_set_var(ctx, p->name, kind, dtype);
    }
    def->u.def.returns = legacy_annotation(ctx, def->u.def.returns, LANN_SIGNATURE);
    body(ctx, &def->u.def.body);
    declare_shape_vars(ctx, def, shape_mark);
    decorate(ctx, def);
    ctx->nvars = vars_mark;
    ctx->nshape_vars = shape_mark;
    ctx->impure = impure;
}

static bool is_prim(const PyStmt *def)
{
    for (int i = 0; i < def->u.def.ndecorators; i++) {
        const PyExpr *d = def->u.def.decorators[i];
        if (legacy_is(d->kind == PY_CALL ? d->u.call.func : d, "T.prim_func"))
            return true;
    }
    return false;
}

static void module_def(LegacyCtx *ctx, PyStmt *def)
{
    if (is_prim(def))
        legacy_primfunc(ctx, def);
    else
        relax_function(ctx, def);
}

static void module_class(LegacyCtx *ctx, PyStmt *cls)
{
    PyBody *b = &cls->u.class_.body;
    ctx->module_name = cls->u.class_.name;
    ctx->globals = MEM_ARRAY(const char *, b->n + 1);
    for (int i = 0; i < b->n; i++)
        if (b->stmts[i]->kind == PYS_DEF)
            ctx->globals[ctx->nglobals++] = b->stmts[i]->u.def.name;
    for (int i = 0; i < b->n; i++)
        if (b->stmts[i]->kind == PYS_DEF)
            module_def(ctx, b->stmts[i]);
}

void legacy_rewrite(const char *file, PyBody *top, ErrorTrap *trap)
{
    rule_fired("LEG-1");
    LegacyCtx ctx = {.file = file, .trap = trap};
    for (int i = 0; i < top->n; i++) {
        PyStmt *s = top->stmts[i];
        if (s->kind == PYS_CLASS)
            module_class(&ctx, s);
        else if (s->kind == PYS_DEF)
            module_def(&ctx, s);
    }
}

bool legacy_syntax_mode_parse(const char *text, SyntaxMode *out)
{
    static const struct {
        const char *name;
        SyntaxMode mode;
    } modes[] = {{"auto", SYNTAX_AUTO}, {"current", SYNTAX_CURRENT}, {"legacy", SYNTAX_LEGACY}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(text, modes[i].name) == 0) {
            *out = modes[i].mode;
            return true;
        }
    return false;
}

IRModule *legacy_parse(const char *file, const char *text, SyntaxMode mode, LegacyForm *detected,
                       ErrorTrap *trap)
{
    PyBody top = py_parse_file(file, text, trap);
    if (detected != NULL)
        detected->name = NULL;
    if (mode == SYNTAX_AUTO && legacy_detect(&top, detected))
        mode = SYNTAX_LEGACY;
    if (mode == SYNTAX_LEGACY)
        legacy_rewrite(file, &top, trap);
    return script_parse_body(file, top, trap);
}
