/* script_stmt: statements of a Relax function body: bindings, match_cast, shape variable
 * declarations, expression statements, dataflow blocks, nested functions and return.
 * SPEC_NOTES: TS-4.1 to TS-4.7, TS-2 (return, nested functions). */
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"

bool script_is_call_to(ScriptCtx *ctx, const PyExpr *e, ScriptNs ns, const char *path)
{
    ScriptNs got;
    if (e->kind != PY_CALL)
        return false;
    const char *p = script_dotted(ctx, e->u.call.func, &got);
    return p && got == ns && strcmp(p, path) == 0;
}

/* ---- shape variable declarations (TS-4.2) ------------------------------------------- */

/* T.int64() declares a shape variable; so do T.Var("n", "int64") and T.SizeVar(...). */
static bool shape_decl_dtype(ScriptCtx *ctx, const PyExpr *v, DataType *t, bool *size_var)
{
    ScriptNs ns;
    if (v->kind != PY_CALL)
        return false;
    const char *path = script_dotted(ctx, v->u.call.func, &ns);
    if (!path || ns != NS_TIR)
        return false;
    *size_var = strcmp(path, "SizeVar") == 0;
    if (strcmp(path, "Var") == 0 || *size_var) {
        const PyExpr *d = v->u.call.nargs == 2 ? v->u.call.args[1] : NULL;
        if (d && d->kind == PY_STR)
            return dtype_parse(d->u.str, t);
        return d && shape_decl_dtype(ctx, d, t, size_var);
    }
    if (v->u.call.nargs != 0 || !dtype_parse(path, t))
        return false;
    return !dtype_is_void(*t) && !dtype_is_handle(*t);
}

bool script_prelude_dtype(ScriptCtx *ctx, const char *name, DataType *t)
{
    const PyBody *body = ctx->func != NULL ? ctx->func->prelude : NULL;
    bool size_var;
    for (int i = 0; body != NULL && i < body->n; i++) {
        const PyStmt *s = body->stmts[i];
        if (s->kind != PYS_ASSIGN || s->u.assign.ntargets != 1)
            return false;
        const PyExpr *target = s->u.assign.targets[0], *value = s->u.assign.value;
        bool tuple = target->kind == PY_TUPLE && value->kind == PY_TUPLE &&
                     target->u.seq.n == value->u.seq.n;
        for (int k = 0; k < (tuple ? target->u.seq.n : 1); k++) {
            const PyExpr *tk = tuple ? target->u.seq.items[k] : target;
            const PyExpr *vk = tuple ? value->u.seq.items[k] : value;
            DataType d;
            if (!shape_decl_dtype(ctx, vk, &d, &size_var))
                return false;
            if (tk->kind == PY_NAME && strcmp(tk->u.name, name) == 0) {
                *t = d;
                return true;
            }
        }
    }
    return false;
}

bool script_is_decl(ScriptCtx *ctx, const PyExpr *value)
{
    DataType t;
    bool size_var;
    if (shape_decl_dtype(ctx, value, &t, &size_var))
        return true;
    if (value->kind != PY_NAME)
        return false;
    Sym *s = script_lookup(ctx, value->u.name);
    return s && s->kind == SYM_MODULE;
}

/* A signature variable redeclared in the body is the same variable (TVM collects the
 * declarations up front); any other declaration makes a fresh one. */
static void declare(ScriptCtx *ctx, const PyExpr *target, const PyExpr *value)
{
    rule_fired("TS-4.2");
    DataType t;
    bool size_var;
    if (!shape_decl_dtype(ctx, value, &t, &size_var)) {
        script_bind_module(ctx, target->u.name);
        return;
    }
    if (value->u.call.nargs == 2 && value->u.call.args[0]->kind == PY_STR &&
        strcmp(value->u.call.args[0]->u.str, target->u.name) != 0)
        script_fail(ctx, "BadAssignTarget", target->span,
                    "a TIR variable must be assigned to a name equal to its own");
    FuncState *f = ctx->func;
    for (int i = 0; i < f->nsig; i++) {
        if (strcmp(f->sig_vars[i]->name, target->u.name) != 0)
            continue;
        if (!dtype_equal(f->sig_vars[i]->dtype, t))
            script_fail(ctx, "ShapeVarDType", value->span, "`%s` is %s in the signature, not %s",
                        target->u.name, dtype_str(f->sig_vars[i]->dtype), dtype_str(t));
        script_bind_tirvar(ctx, target->u.name, f->sig_vars[i]);
        return;
    }
    TirVar *v = tirvar_new(target->u.name, t, target->span);
    v->is_size_var = size_var;
    script_bind_tirvar(ctx, target->u.name, v);
}

/* TS-4.2: a right-hand side that is a PrimExpr but declares nothing (`k = T.int64(16)`,
 * `m = n * 2`) names that PrimExpr in Python, as TVM's parser keeps any value that is not a
 * Relax expression: no binding, and a use as a Relax value is an R.prim_value. */
static bool is_prim_alias(ScriptCtx *ctx, const PyExpr *value)
{
    rule_fired("TS-4.2");
    if (value->kind == PY_NAME) {
        Sym *s = script_lookup(ctx, value->u.name);
        return s && s->kind == SYM_PRIM;
    }
    return !script_is_decl(ctx, value) && script_prim_class(ctx, value) == PCLASS_PRIM;
}

/* ---- bindings (TS-4.1, TS-4.3) ------------------------------------------------------ */

/* match_cast -> 'R.match_cast' '(' expr ',' S ')' */
Var *script_match_cast(ScriptCtx *ctx, const PyExpr *target, StructInfo *ann, const PyExpr *call,
                       Span span)
{
    rule_fired("TS-4.3");
    if (call->u.call.nargs != 2 || call->u.call.nkw != 0)
        script_fail(ctx, "BadArguments", call->span, "R.match_cast takes a value and a StructInfo");
    Expr *value = script_expr(ctx, call->u.call.args[0]);
    StructInfo *s = script_sinfo(ctx, call->u.call.args[1], SMODE_BODY);
    if (ann && !equal_sinfo(ann, s))
        script_fail(ctx, "MatchCastAnnotation", span,
                    "the annotation differs from the match_cast StructInfo");
    Var *var = script_new_var(ctx, target->u.name, ann, target->span);
    script_emit(ctx, binding_match_cast(var, s, value, span));
    script_bind_var(ctx, target->u.name, var);
    return var;
}

static void bind_name(ScriptCtx *ctx, const PyExpr *target, StructInfo *ann, const PyExpr *value,
                      Span span)
{
    if (script_is_call_to(ctx, value, NS_RELAX, "match_cast")) {
        script_match_cast(ctx, target, ann, value, span);
        return;
    }
    Expr *e = script_rhs(ctx, value);
    Var *var = script_new_var(ctx, target->u.name, ann, target->span);
    script_emit(ctx, binding_var(var, e, span));
    script_bind_var(ctx, target->u.name, var);
}

static void check_names(ScriptCtx *ctx, const PyExpr *t)
{
    for (int i = 0; i < t->u.seq.n; i++)
        if (t->u.seq.items[i]->kind != PY_NAME)
            script_fail(ctx, "BadAssignTarget", t->u.seq.items[i]->span,
                        "an assignment target must be a name or a tuple of names");
}

/* `a, b = x, y`: Python evaluates the whole right side before binding any name; each
 * item is a declaration, a PrimExpr alias or a Relax value on its own. */
static void unpack_literal(ScriptCtx *ctx, const PyExpr *t, const PyExpr *v, Span span)
{
    int n = t->u.seq.n;
    Expr **values = MEM_ARRAY(Expr *, n);
    PrimExpr **prims = MEM_ARRAY(PrimExpr *, n);
    for (int i = 0; i < n; i++) {
        const PyExpr *item = v->u.seq.items[i];
        if (script_is_decl(ctx, item))
            continue;
        if (is_prim_alias(ctx, item))
            prims[i] = script_prim(ctx, item);
        else
            values[i] = script_rhs(ctx, item);
    }
    for (int i = 0; i < n; i++) {
        const PyExpr *name = t->u.seq.items[i];
        if (prims[i] != NULL) {
            script_bind_prim(ctx, name->u.name, prims[i]);
        } else if (values[i] == NULL) {
            declare(ctx, name, v->u.seq.items[i]);
        } else {
            Var *var = script_new_var(ctx, name->u.name, NULL, name->span);
            script_emit(ctx, binding_var(var, values[i], span));
            script_bind_var(ctx, name->u.name, var);
        }
    }
}

/* `a, b = e` binds a = e[0], b = e[1]; an `e` that is not a variable is bound first to a
 * fresh variable, named as TVM's block builder names its own (lv in dataflow, gv outside). */
static void unpack(ScriptCtx *ctx, const PyExpr *t, const PyExpr *v, Span span)
{
    check_names(ctx, t);
    if (v->kind == PY_TUPLE || v->kind == PY_LIST) {
        if (v->u.seq.n != t->u.seq.n)
            script_fail(ctx, "BadAssignTarget", span, "%d names for %d values", t->u.seq.n,
                        v->u.seq.n);
        unpack_literal(ctx, t, v, span);
        return;
    }
    Expr *value = script_expr(ctx, v);
    Var *tuple;
    if (value->kind == EXPR_VAR) {
        tuple = value->u.var;
    } else {
        tuple = script_new_var(ctx, ctx->df ? "lv" : "gv", NULL, v->span);
        script_emit(ctx, binding_var(tuple, value, span));
    }
    for (int i = 0; i < t->u.seq.n; i++) {
        const PyExpr *name = t->u.seq.items[i];
        Expr *g = expr_new(EXPR_TUPLE_GET_ITEM, name->span);
        g->u.get_item.tuple = script_var_ref(tuple, v->span);
        g->u.get_item.index = i;
        Var *var = script_new_var(ctx, name->u.name, NULL, name->span);
        script_emit(ctx, binding_var(var, g, span));
        script_bind_var(ctx, name->u.name, var);
    }
}

/* assign -> target '=' expr ; target -> NAME | NAME {',' NAME} */
static void assign_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.1");
    if (s->u.assign.ntargets > 1)
        script_fail(ctx, "ChainedAssign", s->span, "chained assignment is not supported");
    const PyExpr *t = s->u.assign.targets[0];
    const PyExpr *v = s->u.assign.value;
    if (t->kind == PY_TUPLE || t->kind == PY_LIST) {
        unpack(ctx, t, v, s->span);
        return;
    }
    if (t->kind != PY_NAME)
        script_fail(ctx, "BadAssignTarget", t->span,
                    "an assignment target must be a name or a tuple of names");
    if (script_is_decl(ctx, v)) {
        declare(ctx, t, v);
        return;
    }
    if (script_is_vdevice_call(ctx, v)) { /* a Python name for a VDevice, no binding */
        script_bind_vdevice(ctx, t->u.name, script_vdevice_ref(ctx, v));
        return;
    }
    if (is_prim_alias(ctx, v)) {
        script_bind_prim(ctx, t->u.name, script_prim(ctx, v));
        return;
    }
    bind_name(ctx, t, NULL, v, s->span);
}

/* annassign -> NAME ':' S '=' expr */
static void annassign_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.1");
    const PyExpr *t = s->u.annassign.target;
    if (t->kind != PY_NAME)
        script_fail(ctx, "BadAssignTarget", t->span, "an annotated target must be a name");
    if (!s->u.annassign.value)
        script_fail(ctx, "BadAssignTarget", s->span, "an annotation needs a value");
    if (script_is_decl(ctx, s->u.annassign.value))
        script_fail(ctx, "BadAssignTarget", s->span, "a declaration takes no annotation");
    StructInfo *ann = script_sinfo(ctx, s->u.annassign.annotation, SMODE_BODY);
    bind_name(ctx, t, ann, s->u.annassign.value, s->span);
}

/* ---- dataflow blocks (TS-4.4) ------------------------------------------------------- */

/* output -> 'R.output' '(' {NAME} ')' ; only variables this block bound. */
static void output_stmt(ScriptCtx *ctx, const PyExpr *call)
{
    rule_fired("TS-4.4");
    DataflowState *df = ctx->df;
    if (!df)
        script_fail(ctx, "OutputOutsideDataflow", call->span, "R.output outside a dataflow block");
    if (df->has_output)
        script_fail(ctx, "DuplicateOutput", call->span, "a second R.output in the block");
    if (call->u.call.nkw > 0)
        script_fail(ctx, "BadArguments", call->span, "R.output takes variables only");
    for (int i = 0; i < call->u.call.nargs; i++) {
        const PyExpr *a = call->u.call.args[i];
        Sym *s = a->kind == PY_NAME ? script_lookup(ctx, a->u.name) : NULL;
        bool mine = false;
        for (int j = 0; s && s->kind == SYM_VAR && j < df->nbound; j++)
            mine = mine || df->bound[j] == s->var;
        if (!mine)
            script_fail(ctx, "OutputForeignVar", a->span,
                        "R.output takes variables bound by this dataflow block");
        s->var->is_dataflow = false;
    }
    df->has_output = true;
}

static bool is_output(ScriptCtx *ctx, const PyStmt *s)
{
    return s->kind == PYS_EXPR && script_is_call_to(ctx, s->u.expr, NS_RELAX, "output");
}

static void check_after_return(ScriptCtx *ctx, const PyStmt *s)
{
    if (!ctx->func->ret_expr)
        return;
    if (s->kind == PYS_RETURN)
        script_fail(ctx, "DuplicateReturn", s->span, "a second return");
    script_fail(ctx, "StmtAfterReturn", s->span, "a statement after the return");
}

/* with -> 'with' 'R.dataflow' '(' ')' ':' body */
static void with_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.4");
    if (s->u.with.n != 1 || s->u.with.as_targets[0] ||
        !script_is_call_to(ctx, s->u.with.items[0], NS_RELAX, "dataflow") ||
        s->u.with.items[0]->u.call.nargs + s->u.with.items[0]->u.call.nkw > 0)
        script_fail(ctx, "BadWith", s->span, "only `with R.dataflow():` is supported");
    if (ctx->df)
        script_fail(ctx, "BadWith", s->span, "dataflow blocks do not nest");
    script_close_block(ctx);
    DataflowState df = {.block = block_new(true, s->span)};
    ctx->df = &df;
    int mark = script_scope_mark(ctx);
    for (int i = 0; i < s->u.with.body.n; i++) {
        const PyStmt *st = s->u.with.body.stmts[i];
        check_after_return(ctx, st);
        if (df.has_output && is_output(ctx, st))
            script_fail(ctx, "DuplicateOutput", st->span, "a second R.output in the block");
        if (df.has_output && st->kind != PYS_RETURN)
            script_fail(ctx, "BindingAfterOutput", st->span,
                        "a statement after R.output in the dataflow block");
        script_stmt(ctx, st);
    }
    ctx->df = NULL;
    script_scope_drop_dataflow(ctx, mark);
    if (df.block->n > 0)
        VEC_PUSH(ctx->body->blocks, ctx->body->nblocks, ctx->body->cap, df.block);
}

/* ---- return, expression statements, nested functions ------------------------------- */

/* A return inside a dataflow block makes the dataflow variables it mentions outputs. */
static void expose(Expr *e)
{
    switch (e->kind) {
    case EXPR_VAR:
        e->u.var->is_dataflow = false;
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            expose(e->u.tuple.fields[i]);
        return;
    case EXPR_CALL:
        expose(e->u.call.op);
        for (int i = 0; i < e->u.call.nargs; i++)
            expose(e->u.call.args[i]);
        return;
    case EXPR_TUPLE_GET_ITEM:
        expose(e->u.get_item.tuple);
        return;
    case EXPR_CONSTANT:
    case EXPR_GLOBAL_VAR:
    case EXPR_SEQ:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_FUNCTION:
    case EXPR_IF:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    }
}

/* return -> 'return' expr */
static void return_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.7");
    if (ctx->func->branch_depth > 0)
        script_fail(ctx, "IfBranchMismatch", s->span,
                    "an if branch must end in a binding, not a return");
    if (!s->u.ret)
        script_fail(ctx, "MissingReturn", s->span, "a Relax function must return a value");
    Expr *e = script_expr(ctx, s->u.ret);
    if (ctx->df)
        expose(e);
    ctx->func->ret_expr = e;
}

/* exprstmt -> expr ; binds `_` unless it is R.func_attr or R.output. A bare string is a
 * docstring. Whether the value is void is checked later, with StructInfo. */
static void expr_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    rule_fired("TS-4.6");
    const PyExpr *e = s->u.expr;
    if (script_is_call_to(ctx, e, NS_RELAX, "func_attr")) {
        script_func_attr(ctx, e);
        return;
    }
    if (script_is_call_to(ctx, e, NS_RELAX, "output")) {
        output_stmt(ctx, e);
        return;
    }
    if (e->kind == PY_STR)
        return;
    Expr *value = script_expr(ctx, e);
    /* TS-4.6: marked so that the StructInfo check can insist the value is void. */
    Var *var = script_new_var(ctx, "_", NULL, e->span);
    Binding *b = binding_var(var, value, s->span);
    b->from_expr_stmt = true;
    script_emit(ctx, b);
}

/* A nested @R.function is bound to a local variable of its name, in scope inside its own
 * body so it may call itself. */
static void def_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    for (int i = 0; i < s->u.def.ndecorators; i++)
        if (script_is_prim_decorator(ctx, s->u.def.decorators[i]))
            script_fail(ctx, "NestedPrimFunc", s->span,
                        "a PrimFunc cannot be defined inside a Relax function");
    script_relax_decorator(ctx, s);
    Var *var = script_new_var(ctx, s->u.def.name, NULL, s->span);
    script_bind_var(ctx, s->u.def.name, var);
    Function *f = script_function(ctx, s, false);
    Expr *fe = expr_new(EXPR_FUNCTION, s->span);
    fe->u.func = f;
    script_emit(ctx, binding_var(var, fe, s->span));
}

static noreturn void unsupported(ScriptCtx *ctx, const PyStmt *s, const char *what)
{
    script_fail(ctx, "UnsupportedSyntax", s->span, "%s is not supported in a Relax function", what);
}

void script_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    switch (s->kind) {
    case PYS_EXPR:
        expr_stmt(ctx, s);
        return;
    case PYS_ASSIGN:
        assign_stmt(ctx, s);
        return;
    case PYS_ANNASSIGN:
        annassign_stmt(ctx, s);
        return;
    case PYS_RETURN:
        return_stmt(ctx, s);
        return;
    case PYS_IF:
        script_if(ctx, s);
        return;
    case PYS_WITH:
        with_stmt(ctx, s);
        return;
    case PYS_DEF:
        def_stmt(ctx, s);
        return;
    case PYS_PASS:
        return;
    case PYS_AUGASSIGN:
        unsupported(ctx, s, "augmented assignment");
    case PYS_FOR:
        unsupported(ctx, s, "`for`");
    case PYS_WHILE:
        unsupported(ctx, s, "`while`");
    case PYS_CLASS:
        unsupported(ctx, s, "`class`");
    case PYS_IMPORT:
        unsupported(ctx, s, "`import`");
    case PYS_ASSERT:
        unsupported(ctx, s, "`assert`");
    case PYS_BREAK:
        unsupported(ctx, s, "`break`");
    case PYS_CONTINUE:
        unsupported(ctx, s, "`continue`");
    }
}

void script_body_stmts(ScriptCtx *ctx, const PyBody *body)
{
    for (int i = 0; i < body->n; i++) {
        check_after_return(ctx, body->stmts[i]);
        script_stmt(ctx, body->stmts[i]);
    }
}
