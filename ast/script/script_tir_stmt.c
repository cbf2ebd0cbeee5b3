/* script_tir_stmt: the statements of a PrimFunc body (loops, stores, lets, if, evaluate,
 * declarations, buffer allocation, return). SPEC_NOTES: "TIR subset" (TS-11). */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script_tir_internal.h"

typedef struct StmtList {
    Stmt **items;
    int n;
    int cap;
} StmtList;

static Stmt *seq_of(StmtList *list, Span span)
{
    if (list->n == 1)
        return list->items[0];
    Stmt *s = stmt_new(STMT_SEQ, span);
    s->u.seq.stmts = list->items;
    s->u.seq.n = list->n;
    return s;
}

/* A nested body in its own scope. */
static Stmt *nested_body(TirCtx *c, const PyBody *body, Stmt *block)
{
    int mark = c->nsyms;
    bool top = c->top_level;
    c->top_level = false;
    Stmt *s = script_tir_body(c, body, 0, block);
    c->top_level = top;
    c->nsyms = mark;
    return s;
}

static Stmt *rest_of(TirCtx *c, const PyBody *body, int next)
{
    int mark = c->nsyms;
    Stmt *s = script_tir_body(c, body, next, c->body_block);
    c->nsyms = mark;
    return s;
}

/* ---- stores ------------------------------------------------------------------------ */

static Buffer *store_buffer(TirCtx *c, const PyExpr *target)
{
    const PyExpr *base = target->u.subscript.value;
    TirSym *sym = base->kind == PY_NAME ? script_tir_find(c, base->u.name) : NULL;
    if (base->kind == PY_NAME && !sym)
        error_raise(c->trap, PHASE_PARSE, "UnknownName", "TS-11", base->span,
                    "name `%s` is not defined", base->u.name);
    if (!sym || !sym->buffer)
        script_tir_fail(c, target->span, "only buffers can be stored to");
    return sym->buffer;
}

/* TS-11: a stored value of another scalar type is cast to the buffer's dtype, as TVM's
 * BufferStore builder does (an immediate folds to the buffer's type); handles do not mix. */
static PrimExpr *store_cast(TirCtx *c, PrimExpr *v, const Buffer *b, Span span)
{
    DataType t = b->dtype;
    if (dtype_equal(v->dtype, t))
        return v;
    if (dtype_is_handle(v->dtype) || dtype_is_handle(t) || v->dtype.lanes != t.lanes)
        script_tir_fail(c, span, "storing a %s value into %s buffer `%s`", dtype_str(v->dtype),
                        dtype_str(t), b->name);
    bool int_like = (dtype_is_int(t) || dtype_is_uint(t)) && !dtype_is_bool(t);
    if (v->kind == PE_INT && int_like)
        return primexpr_int(v->u.int_value, t, span);
    if (v->kind == PE_FLOAT && int_like)
        return primexpr_int((int64_t)v->u.float_value, t, span);
    if ((v->kind == PE_FLOAT || v->kind == PE_INT) && dtype_is_float(t))
        return primexpr_float(v->kind == PE_FLOAT ? v->u.float_value : (double)v->u.int_value, t,
                              span);
    PrimExpr *cast = primexpr_new(PE_CAST, t, span);
    cast->u.operand = v;
    return cast;
}

/* store -> BUFFER '[' expr (',' expr)* ']' '=' expr */
static Stmt *translate_store(TirCtx *c, const PyExpr *target, const PyExpr *value, Span span)
{
    Buffer *b = store_buffer(c, target);
    const PyExpr *index = target->u.subscript.index;
    const PyExpr *const *items = &index;
    int n = 1;
    if (index->kind == PY_TUPLE) {
        items = (const PyExpr *const *)index->u.seq.items;
        n = index->u.seq.n;
    }
    if (n != b->ndim)
        script_tir_fail(c, target->span, "buffer `%s` has %d dimensions but %d indices are given",
                        b->name, b->ndim, n);
    Stmt *s = stmt_new(STMT_STORE, span);
    s->u.store.buffer = b;
    s->u.store.nindices = n;
    s->u.store.indices = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        if (items[i]->kind == PY_SLICE)
            script_tir_fail(c, items[i]->span, "vector stores are not supported");
        PrimExpr *x = script_tir_expr(c, items[i]);
        if (!dtype_is_int(x->dtype) && !(dtype_is_uint(x->dtype) && !dtype_is_bool(x->dtype)))
            script_tir_fail(c, items[i]->span, "a buffer index must be an integer");
        s->u.store.indices[i] = x;
    }
    s->u.store.value = store_cast(c, script_tir_expr_typed(c, value, b->dtype), b, value->span);
    return s;
}

/* augstore -> BUFFER '[' ... ']' op'=' expr, read as BUFFER[...] = BUFFER[...] op expr */
static Stmt *translate_augassign(TirCtx *c, const PyStmt *s)
{
    const PyExpr *target = s->u.augassign.target;
    if (target->kind != PY_SUBSCRIPT)
        script_tir_fail(c, s->span, "only buffer elements can be updated in place");
    PyExpr *sum = MEM_NEW(PyExpr);
    sum->kind = PY_BINOP;
    sum->span = s->span;
    sum->u.binop.op = s->u.augassign.op;
    sum->u.binop.left = (PyExpr *)target;
    sum->u.binop.right = s->u.augassign.value;
    return translate_store(c, target, sum, s->span);
}

/* ---- declarations and lets ------------------------------------------------------------ */

/* decl -> NAME '=' T.<dtype>([is_size_var=BOOL]) | NAME '=' T.SizeVar(STR, STR) */
static bool translate_decl(TirCtx *c, const char *name, const PyExpr *value)
{
    DataType t;
    const char *callee = script_tir_callee(value);
    if (callee && strcmp(callee, "SizeVar") == 0) {
        const PyExpr *const *a = (const PyExpr *const *)value->u.call.args;
        if (value->u.call.nargs != 2 || a[0]->kind != PY_STR || a[1]->kind != PY_STR ||
            !dtype_parse(a[1]->u.str, &t) || !dtype_is_int(t))
            script_tir_fail(c, value->span, "T.SizeVar takes a name and an integer dtype");
        TirVar *v = tirvar_new(a[0]->u.str, t, value->span);
        v->is_size_var = true;
        script_tir_bind(c, name, v, NULL);
        return true;
    }
    if (!callee || value->u.call.nargs != 0 || !script_tir_scalar_type(value->u.call.func, &t))
        return false;
    TirVar *v = tirvar_new(name, t, value->span);
    for (int i = 0; i < value->u.call.nkw; i++) {
        const PyExpr *kv = value->u.call.kw_values[i];
        if (strcmp(value->u.call.kw_names[i], "is_size_var") != 0 || kv->kind != PY_BOOL)
            script_tir_fail(c, value->u.call.kw_spans[i], "unsupported declaration keyword");
        v->is_size_var = kv->u.bool_value;
    }
    script_tir_bind(c, name, v, NULL);
    return true;
}

/* match -> NAME '=' T.match_buffer(HANDLE, shape [, dtype]) */
static void translate_match_buffer(TirCtx *c, const char *name, const PyExpr *call)
{
    if (!c->top_level)
        script_tir_fail(c, call->span, "T.match_buffer belongs at the top of the function");
    if (call->u.call.nargs < 1 || call->u.call.args[0]->kind != PY_NAME)
        script_tir_fail(c, call->span, "T.match_buffer binds a handle parameter");
    const PyExpr *h = call->u.call.args[0];
    TirSym *sym = script_tir_find(c, h->u.name);
    if (!sym)
        error_raise(c->trap, PHASE_PARSE, "UnknownName", "TS-11", h->span,
                    "name `%s` is not defined", h->u.name);
    int param = sym->param;
    if (param < 0 || !dtype_is_handle(sym->var->dtype))
        script_tir_fail(c, h->span, "`%s` is not a handle parameter", h->u.name);
    if (c->func->param_buffers[param])
        script_tir_fail(c, h->span, "handle `%s` already has a buffer", h->u.name);
    Buffer *b = script_tir_buffer_args(c, name, call, 1);
    c->func->param_buffers[param] = b;
    script_tir_bind(c, name, NULL, b);
}

/* let -> NAME [':' TYPE] '=' expr, in scope for the rest of the body */
static Stmt *translate_let(TirCtx *c, const PyStmt *s, const PyExpr *target, const PyExpr *value,
                           const PyBody *body, int i)
{
    DataType t;
    PrimExpr *v;
    if (s->kind == PYS_ANNASSIGN) {
        if (!script_tir_scalar_type(s->u.annassign.annotation, &t))
            script_tir_fail(c, s->u.annassign.annotation->span, "expected a scalar type");
        v = script_tir_expr_typed(c, value, t);
        if (!dtype_equal(v->dtype, t))
            script_tir_fail(c, value->span, "a %s value bound to a %s variable",
                            dtype_str(v->dtype), dtype_str(t));
    } else {
        v = script_tir_expr(c, value);
    }
    Stmt *let = stmt_new(STMT_LET, s->span);
    let->u.let.var = tirvar_new(target->u.name, v->dtype, target->span);
    let->u.let.value = v;
    int mark = c->nsyms;
    script_tir_bind(c, target->u.name, let->u.let.var, NULL);
    let->u.let.body = rest_of(c, body, i + 1);
    c->nsyms = mark;
    return let;
}

/* alloc -> NAME '=' (T.alloc_buffer | T.decl_buffer)(shape [, dtype]), live for the rest */
static Stmt *translate_alloc(TirCtx *c, const PyStmt *s, const char *name, const PyExpr *call,
                             const PyBody *body, int i)
{
    Stmt *a = stmt_new(STMT_ALLOC, s->span);
    a->u.alloc.buffer = script_tir_buffer_args(c, name, call, 0);
    int mark = c->nsyms;
    script_tir_bind(c, name, NULL, a->u.alloc.buffer);
    a->u.alloc.body = rest_of(c, body, i + 1);
    c->nsyms = mark;
    return a;
}

static bool is_pairwise(const PyExpr *target, const PyExpr *value)
{
    return target->kind == PY_TUPLE && value->kind == PY_TUPLE && target->u.seq.n == value->u.seq.n;
}

/* TS-11: `a, b = T.int64(), 16` binds pairwise, as Python evaluates the right-hand tuple
 * first and TVM then binds each element: the statement reads as `a = T.int64()` followed
 * by `b = 16`, and the rest of the body follows them. */
static Stmt *translate_pairwise(TirCtx *c, const PyBody *body, int i)
{
    const PyStmt *s = body->stmts[i];
    const PyExpr *target = s->u.assign.targets[0], *value = s->u.assign.value;
    int k = target->u.seq.n, rest = body->n - i - 1;
    PyBody nb = {MEM_ARRAY(PyStmt *, k + rest + 1), k + rest};
    for (int j = 0; j < k; j++) {
        PyStmt *one = MEM_NEW(PyStmt);
        *one = *s;
        one->u.assign.targets = MEM_ARRAY(PyExpr *, 1);
        one->u.assign.targets[0] = target->u.seq.items[j];
        one->u.assign.value = value->u.seq.items[j];
        nb.stmts[j] = one;
    }
    for (int j = 0; j < rest; j++)
        nb.stmts[k + j] = body->stmts[i + 1 + j];
    return rest_of(c, &nb, 0);
}

/* Assignments; *rest is set when the statement takes the rest of the body as its scope. */
static Stmt *translate_assign(TirCtx *c, const PyBody *body, int i, bool *rest)
{
    const PyStmt *s = body->stmts[i];
    if (s->u.assign.ntargets != 1)
        script_tir_fail(c, s->span, "chained assignment is not supported");
    const PyExpr *target = s->u.assign.targets[0];
    const PyExpr *value = s->u.assign.value;
    if (is_pairwise(target, value)) {
        *rest = true;
        return translate_pairwise(c, body, i);
    }
    if (target->kind == PY_SUBSCRIPT)
        return translate_store(c, target, value, s->span);
    if (target->kind != PY_NAME)
        script_tir_fail(c, target->span, "unsupported assignment target");
    const char *callee = script_tir_callee(value);
    if (translate_decl(c, target->u.name, value))
        return NULL;
    if (callee && strcmp(callee, "match_buffer") == 0) {
        translate_match_buffer(c, target->u.name, value);
        return NULL;
    }
    *rest = true;
    if (callee && (strcmp(callee, "alloc_buffer") == 0 || strcmp(callee, "decl_buffer") == 0))
        return translate_alloc(c, s, target->u.name, value, body, i);
    if (callee && strcmp(callee, "Buffer") == 0)
        script_tir_fail(c, value->span, "buffer declarations in the body are not supported");
    return translate_let(c, s, target, value, body, i);
}

static Stmt *translate_annassign(TirCtx *c, const PyBody *body, int i, bool *rest)
{
    const PyStmt *s = body->stmts[i];
    const PyExpr *target = s->u.annassign.target;
    if (target->kind != PY_NAME || !s->u.annassign.value)
        script_tir_fail(c, s->span, "an annotated binding is `name: T.<dtype> = value`");
    *rest = true;
    return translate_let(c, s, target, s->u.annassign.value, body, i);
}

/* ---- loops --------------------------------------------------------------------------- */

static ForKind loop_kind(TirCtx *c, const PyExpr *iter, bool *grid)
{
    const char *callee = script_tir_callee(iter);
    *grid = false;
    if (iter->kind == PY_CALL && iter->u.call.func->kind == PY_NAME &&
        strcmp(iter->u.call.func->u.name, "range") == 0)
        return FOR_SERIAL;
    if (callee && strcmp(callee, "serial") == 0)
        return FOR_SERIAL;
    if (callee && strcmp(callee, "parallel") == 0)
        return FOR_PARALLEL;
    if (callee && strcmp(callee, "vectorized") == 0)
        return FOR_VECTORIZED;
    if (callee && strcmp(callee, "unroll") == 0)
        return FOR_UNROLLED;
    if (callee && strcmp(callee, "thread_binding") == 0)
        return FOR_THREAD_BINDING;
    if (callee && strcmp(callee, "grid") == 0) {
        *grid = true;
        return FOR_SERIAL;
    }
    script_tir_fail(c, iter->span,
                    "a loop runs over range, T.serial, T.parallel, "
                    "T.vectorized, T.unroll, T.thread_binding or T.grid");
}

static Stmt *loop_new(TirCtx *c, const char *name, PrimExpr *min, PrimExpr *extent, ForKind kind,
                      Span span)
{
    if (!dtype_is_int(extent->dtype) || !dtype_equal(min->dtype, extent->dtype))
        script_tir_fail(c, span, "loop bounds must be integers of one type");
    Stmt *f = stmt_new(STMT_FOR, span);
    f->u.for_.var = tirvar_new(name, extent->dtype, span);
    f->u.for_.min = min;
    f->u.for_.extent = extent;
    f->u.for_.kind = kind;
    TirSym *sym = script_tir_bind(c, name, f->u.for_.var, NULL);
    sym->loop_min = min;
    sym->loop_extent = extent;
    return f;
}

/* The thread of T.thread_binding(start, stop, thread="...") or (stop, "thread"); *nargs
 * receives the number of range arguments before it. */
static const char *thread_of(TirCtx *c, const PyExpr *iter, int *nargs)
{
    const PyExpr *t = NULL;
    *nargs = iter->u.call.nargs;
    for (int i = 0; i < iter->u.call.nkw; i++) {
        if (strcmp(iter->u.call.kw_names[i], "thread") != 0)
            script_tir_fail(c, iter->u.call.kw_spans[i], "T.thread_binding takes thread=");
        t = iter->u.call.kw_values[i];
    }
    if (t == NULL && *nargs >= 2 && iter->u.call.args[*nargs - 1]->kind == PY_STR)
        t = iter->u.call.args[--*nargs];
    if (t == NULL || t->kind != PY_STR)
        script_tir_fail(c, iter->span, "T.thread_binding needs a thread name string");
    return t->u.str;
}

/* range -> (range | T.serial | ...) '(' [start ','] stop ')'
 *        | T.thread_binding '(' [start ','] stop ',' ['thread' '='] STRING ')' */
static Stmt *range_loop(TirCtx *c, const PyExpr *target, const PyExpr *iter, ForKind kind)
{
    if (target->kind != PY_NAME)
        script_tir_fail(c, target->span, "a loop binds one variable");
    int nargs = iter->u.call.nargs;
    const char *thread = kind == FOR_THREAD_BINDING ? thread_of(c, iter, &nargs) : NULL;
    if ((thread == NULL && iter->u.call.nkw) || nargs < 1 || nargs > 2)
        script_tir_fail(c, iter->span, "a loop range takes a stop or a start and a stop");
    PrimExpr *min, *stop;
    if (nargs == 1) {
        stop = script_tir_expr(c, iter->u.call.args[0]);
        min = primexpr_int(0, stop->dtype, iter->span);
    } else {
        script_tir_expr_pair(c, iter->u.call.args[0], iter->u.call.args[1], &min, &stop);
    }
    if (!dtype_is_int(stop->dtype) || !dtype_equal(min->dtype, stop->dtype))
        script_tir_fail(c, iter->span, "loop bounds must be integers of one type");
    Stmt *f = loop_new(c, target->u.name, min, script_tir_extent(c, min, stop, iter->span), kind,
                       iter->span);
    f->u.for_.thread = thread;
    return f;
}

/* T.grid's extents: expressions, or `*B.shape` for a buffer's dims (TVM's tests write it). */
static PrimExpr **grid_extents(TirCtx *c, const PyExpr *iter, int *n)
{
    PrimExpr **out = NULL;
    int cap = 0;
    if (iter->u.call.nkw)
        script_tir_fail(c, iter->span, "T.grid takes extents only");
    for (int k = 0; k < iter->u.call.nargs; k++) {
        const PyExpr *a = iter->u.call.args[k];
        if (a->kind != PY_STARRED) {
            VEC_PUSH(out, *n, cap, script_tir_expr(c, a));
            continue;
        }
        const PyExpr *v = a->u.starred;
        TirSym *b = v->kind == PY_ATTR && strcmp(v->u.attr.attr, "shape") == 0 &&
                            v->u.attr.value->kind == PY_NAME
                        ? script_tir_find(c, v->u.attr.value->u.name)
                        : NULL;
        if (b == NULL || b->buffer == NULL)
            script_tir_fail(c, a->span, "T.grid unpacks only a buffer's shape, *B.shape");
        for (int d = 0; d < b->buffer->ndim; d++)
            VEC_PUSH(out, *n, cap, b->buffer->shape[d]);
    }
    if (*n == 0)
        script_tir_fail(c, iter->span, "T.grid needs at least one extent");
    return out;
}

/* The loop variables' names: one name per extent, or one name for all of them, which TVM
 * spells name_0, name_1, ... and which T.axis.remap then takes as the list. */
static const char **grid_names(TirCtx *c, const PyExpr *target, int n, Span span)
{
    const char **names = MEM_ARRAY(const char *, n);
    if (target->kind == PY_NAME && n > 1) {
        for (int k = 0; k < n; k++) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s_%d", target->u.name, k);
            names[k] = mem_strdup(buf);
        }
        TirSym *sym = script_tir_bind(c, target->u.name, NULL, NULL);
        sym->grid_names = names;
        sym->ngrid = n;
        return names;
    }
    const PyExpr *const *items = &target;
    int m = 1;
    if (target->kind == PY_TUPLE) {
        items = (const PyExpr *const *)target->u.seq.items;
        m = target->u.seq.n;
    }
    if (m != n)
        script_tir_fail(c, span, "T.grid binds one variable per extent");
    for (int k = 0; k < n; k++) {
        if (items[k]->kind != PY_NAME)
            script_tir_fail(c, items[k]->span, "a loop variable must be a name");
        names[k] = items[k]->u.name;
    }
    return names;
}

/* for -> 'for' NAME 'in' range ':' body | 'for' NAME (',' NAME)* 'in' T.grid(e, ...) ':' body */
static Stmt *translate_for(TirCtx *c, const PyStmt *s)
{
    const PyExpr *iter = s->u.for_.iter, *target = s->u.for_.target;
    bool grid;
    ForKind kind = loop_kind(c, iter, &grid);
    int mark = c->nsyms;
    Stmt *outer;
    if (!grid) {
        outer = range_loop(c, target, iter, kind);
        outer->u.for_.body = nested_body(c, &s->u.for_.body, NULL);
        c->nsyms = mark;
        return outer;
    }
    int n = 0;
    PrimExpr **extents = grid_extents(c, iter, &n);
    const char **names = grid_names(c, target, n, s->span);
    Stmt **loops = MEM_ARRAY(Stmt *, n);
    for (int k = 0; k < n; k++) {
        PrimExpr *extent = extents[k];
        loops[k] = loop_new(c, names[k], primexpr_int(0, extent->dtype, iter->span), extent,
                            FOR_SERIAL, s->span);
        if (k > 0)
            loops[k - 1]->u.for_.body = loops[k];
    }
    loops[n - 1]->u.for_.body = nested_body(c, &s->u.for_.body, NULL);
    c->nsyms = mark;
    return loops[0];
}

/* ---- other statements ------------------------------------------------------------------ */

/* if -> 'if' expr ':' body ['else' ':' body] */
static Stmt *translate_if(TirCtx *c, const PyStmt *s)
{
    PrimExpr *cond = script_tir_expr(c, s->u.if_.cond);
    if (!dtype_is_bool(cond->dtype))
        script_tir_fail(c, s->u.if_.cond->span, "an if condition must be bool");
    Stmt *st = stmt_new(STMT_IF, s->span);
    st->u.if_.cond = cond;
    st->u.if_.then_stmt = nested_body(c, &s->u.if_.body, NULL);
    if (s->u.if_.has_else)
        st->u.if_.else_stmt = nested_body(c, &s->u.if_.orelse, NULL);
    return st;
}

/* while -> 'while' expr ':' body (TIR-WHILE) */
static Stmt *translate_while(TirCtx *c, const PyStmt *s)
{
    PrimExpr *cond = script_tir_expr(c, s->u.while_.cond);
    if (!dtype_is_bool(cond->dtype))
        script_tir_fail(c, s->u.while_.cond->span, "a while condition must be bool");
    Stmt *st = stmt_new(STMT_WHILE, s->span);
    st->u.while_.cond = cond;
    st->u.while_.body = nested_body(c, &s->u.while_.body, NULL);
    return st;
}

/* The statement `return value` or `T.ret(value)`: an Evaluate of the tir.ret builtin. */
static Stmt *ret_stmt(TirCtx *c, const PyExpr *value, const PyStmt *s)
{
    PrimFunc *f = c->func;
    PrimExpr *v = dtype_is_void(f->ret_dtype) ? script_tir_expr(c, value)
                                              : script_tir_expr_typed(c, value, f->ret_dtype);
    if (dtype_is_void(f->ret_dtype))
        f->ret_dtype = v->dtype;
    if (!dtype_equal(v->dtype, f->ret_dtype))
        script_tir_fail(c, value->span, "returning %s from a function returning %s",
                        dtype_str(v->dtype), dtype_str(f->ret_dtype));
    PrimExpr *call = primexpr_new(PE_CALL, v->dtype, s->span);
    call->u.call.name = "tir.ret";
    call->u.call.args = MEM_ARRAY(PrimExpr *, 1);
    call->u.call.args[0] = v;
    call->u.call.nargs = 1;
    Stmt *st = stmt_new(STMT_EVALUATE, s->span);
    st->u.evaluate = call;
    return st;
}

/* return -> 'return' expr, a call of the tir.ret builtin */
static Stmt *translate_return(TirCtx *c, const PyStmt *s)
{
    if (!s->u.ret)
        script_tir_fail(c, s->span, "a PrimFunc returns a value or nothing at all");
    return ret_stmt(c, s->u.ret, s);
}

/* exprstmt -> T.func_attr(dict) | T.evaluate(expr) | expr | STR (a docstring) */
static Stmt *translate_expr_stmt(TirCtx *c, const PyStmt *s)
{
    const PyExpr *e = s->u.expr;
    const char *callee = script_tir_callee(e);
    if (e->kind == PY_STR)
        return NULL;
    if (callee && strcmp(callee, "func_attr") == 0) {
        if (!c->top_level || e->u.call.nargs != 1 || e->u.call.nkw)
            script_tir_fail(c, e->span, "T.func_attr takes one dict, at the function's top");
        Attrs *a = script_tir_attrs(c, e->u.call.args[0]);
        for (int i = 0; i < a->n; i++)
            attrs_set(c->func->attrs, a->keys[i], a->values[i]);
        return NULL;
    }
    if (callee && strcmp(callee, "evaluate") == 0) {
        if (e->u.call.nargs != 1 || e->u.call.nkw)
            script_tir_fail(c, e->span, "T.evaluate takes one expression");
        e = e->u.call.args[0];
        callee = script_tir_callee(e);
    }
    /* TS-11: an explicit `T.ret(v)` (TVM's printed form of `return v`) */
    if (callee && strcmp(callee, "ret") == 0) {
        if (e->u.call.nargs != 1 || e->u.call.nkw)
            script_tir_fail(c, e->span, "T.ret takes one value");
        return ret_stmt(c, e->u.call.args[0], s);
    }
    if (callee && (strcmp(callee, "reads") == 0 || strcmp(callee, "writes") == 0 ||
                   strcmp(callee, "where") == 0 || strcmp(callee, "block_attr") == 0))
        script_tir_fail(c, e->span, "T.%s belongs directly inside a block", callee);
    Stmt *st = stmt_new(STMT_EVALUATE, s->span);
    st->u.evaluate = script_tir_expr(c, e);
    return st;
}

static Stmt *translate_with(TirCtx *c, const PyStmt *s)
{
    const char *callee = s->u.with.n == 1 ? script_tir_callee(s->u.with.items[0]) : NULL;
    if (callee && strcmp(callee, "block") == 0) {
        bool top = c->top_level;
        c->top_level = false;
        Stmt *b = script_tir_block(c, s);
        c->top_level = top;
        return b;
    }
    if (callee && strcmp(callee, "init") == 0)
        script_tir_fail(c, s->span, "T.init belongs directly inside a block");
    script_tir_fail(c, s->span, "only `with T.block(...)` is supported in a PrimFunc");
}

static Stmt *translate_stmt(TirCtx *c, const PyBody *body, int i, bool *rest)
{
    const PyStmt *s = body->stmts[i];
    switch (s->kind) {
    case PYS_EXPR:
        return translate_expr_stmt(c, s);
    case PYS_ASSIGN:
        return translate_assign(c, body, i, rest);
    case PYS_ANNASSIGN:
        return translate_annassign(c, body, i, rest);
    case PYS_AUGASSIGN:
        return translate_augassign(c, s);
    case PYS_RETURN:
        return translate_return(c, s);
    case PYS_IF:
        return translate_if(c, s);
    case PYS_FOR:
        return translate_for(c, s);
    case PYS_WITH:
        return translate_with(c, s);
    case PYS_PASS:
        return NULL;
    case PYS_WHILE:
        return translate_while(c, s);
    case PYS_DEF:
    case PYS_CLASS:
    case PYS_IMPORT:
    case PYS_ASSERT:
    case PYS_BREAK:
    case PYS_CONTINUE:
        break;
    }
    script_tir_fail(c, s->span, "statement not supported in a PrimFunc");
}

Stmt *script_tir_body(TirCtx *c, const PyBody *body, int start, Stmt *block)
{
    StmtList list = {NULL, 0, 0};
    Stmt *outer_block = c->body_block;
    c->body_block = block;
    Span span = start < body->n ? body->stmts[start]->span : span_none();
    for (int i = start; i < body->n; i++) {
        if (block && script_tir_block_stmt(c, body->stmts[i], block))
            continue;
        bool rest = false;
        Stmt *s = translate_stmt(c, body, i, &rest);
        if (s)
            VEC_PUSH(list.items, list.n, list.cap, s);
        if (rest)
            break;
    }
    c->body_block = outer_block;
    return seq_of(&list, span);
}
