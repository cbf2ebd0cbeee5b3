/* script_tir: a @T.prim_func definition to a PrimFunc (signature, symbol table, buffers).
 * SPEC_NOTES: "TIR subset" (TS-11). Statements are in script_tir_stmt.c. */
#include "ast/script/script_tir.h"
#include "ast/rule.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script_tir_internal.h"

noreturn void script_tir_fail(const TirCtx *c, Span span, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error_raise(c->trap, PHASE_PARSE, "TirSyntax", "TS-11", span, "%s", msg);
}

/* ---- symbol table ---------------------------------------------------------------- */

TirSym *script_tir_bind(TirCtx *c, const char *name, TirVar *var, Buffer *buffer)
{
    TirSym sym = {name, var, buffer, NULL, NULL, -1, NULL, 0};
    VEC_PUSH(c->syms, c->nsyms, c->cap, sym);
    return &c->syms[c->nsyms - 1];
}

TirSym *script_tir_find(const TirCtx *c, const char *name)
{
    for (int i = c->nsyms - 1; i >= 0; i--)
        if (strcmp(c->syms[i].name, name) == 0)
            return &c->syms[i];
    return NULL;
}

static bool lookup(void *ctx, const char *name, TirVar **var, Buffer **buffer)
{
    TirSym *sym = script_tir_find(ctx, name);
    if (!sym || (!sym->var && !sym->buffer)) /* a grid's name list is no value */
        return false;
    *var = sym->var;
    *buffer = sym->buffer;
    return true;
}

PrimExpr *script_tir_expr(TirCtx *c, const PyExpr *e)
{
    return script_prim_expr(e, &c->env, c->trap);
}

PrimExpr *script_tir_expr_typed(TirCtx *c, const PyExpr *e, DataType hint)
{
    return script_prim_expr_typed(e, hint, &c->env, c->trap);
}

static bool is_namespace(const PyExpr *e)
{
    return e->kind == PY_NAME && (strcmp(e->u.name, "T") == 0 || strcmp(e->u.name, "tir") == 0);
}

/* T.name or T.axis.name, as "name" or "axis.name"; NULL otherwise. */
static const char *t_attr_name(const PyExpr *f)
{
    if (f->kind != PY_ATTR)
        return NULL;
    if (is_namespace(f->u.attr.value))
        return f->u.attr.attr;
    const PyExpr *inner = f->u.attr.value;
    if (inner->kind == PY_ATTR && is_namespace(inner->u.attr.value))
        return mem_printf("%s.%s", inner->u.attr.attr, f->u.attr.attr);
    return NULL;
}

const char *script_tir_callee(const PyExpr *e)
{
    return e->kind == PY_CALL ? t_attr_name(e->u.call.func) : NULL;
}

/* ---- attributes ------------------------------------------------------------------ */

static AttrValue *attr_value(TirCtx *c, const PyExpr *e);

static AttrValue *attr_seq(TirCtx *c, const PyExpr *e)
{
    AttrValue *v = attr_new(ATTR_LIST, e->span);
    v->u.list.n = e->u.seq.n;
    v->u.list.items = MEM_ARRAY(AttrValue *, e->u.seq.n);
    for (int i = 0; i < e->u.seq.n; i++)
        v->u.list.items[i] = attr_value(c, e->u.seq.items[i]);
    return v;
}

/* TS-11: the attribute values TVM's TIR tests write that are objects, not literals: a buffer
 * of the function (T.block_attr({"layout_free_placeholders": [B]})) and a target
 * (T.target("llvm"), T.target({...})). The reference does not interpret them: they are kept
 * as their text and printed back. */
static AttrValue *attr_object(TirCtx *c, const PyExpr *e)
{
    if (e->kind == PY_NAME) {
        TirSym *s = script_tir_find(c, e->u.name);
        if (s == NULL || s->buffer == NULL)
            script_tir_fail(c, e->span, "an attribute value names no buffer of the function");
        AttrValue *v = attr_new(ATTR_VERBATIM, e->span);
        v->u.s = e->u.name;
        return v;
    }
    const char *callee = script_tir_callee(e);
    if (callee != NULL && strcmp(callee, "target") == 0 && e->u.call.nargs == 1 &&
        e->u.call.nkw == 0) {
        AttrValue *v = attr_new(ATTR_VERBATIM, e->span);
        v->u.s = mem_printf("T.target(%s)", printer_print_attr(attr_value(c, e->u.call.args[0])));
        return v;
    }
    script_tir_fail(c, e->span,
                    "an attribute value must be a Python literal, a buffer or T.target(...)");
}

static AttrValue *attr_value(TirCtx *c, const PyExpr *e)
{
    const PyExpr *neg = NULL;
    if (e->kind == PY_UNARYOP && e->u.unary.op == PYOP_NEG)
        neg = e->u.unary.operand;
    if (neg && neg->kind == PY_INT)
        return attr_int(-neg->u.int_value, e->span);
    if (neg && neg->kind == PY_FLOAT) {
        AttrValue *v = attr_new(ATTR_FLOAT, e->span);
        v->u.f = -neg->u.float_value;
        return v;
    }
    switch (e->kind) {
    case PY_BOOL:
        return attr_bool(e->u.bool_value, e->span);
    case PY_INT:
        return attr_int(e->u.int_value, e->span);
    case PY_STR:
        return attr_str(e->u.str, e->span);
    case PY_NONE:
        return attr_new(ATTR_NONE, e->span);
    case PY_FLOAT: {
        AttrValue *v = attr_new(ATTR_FLOAT, e->span);
        v->u.f = e->u.float_value;
        return v;
    }
    case PY_LIST:
    case PY_TUPLE:
        return attr_seq(c, e);
    case PY_DICT: {
        AttrValue *v = attr_new(ATTR_DICT, e->span);
        v->u.dict = script_tir_attrs(c, e);
        return v;
    }
    default:
        return attr_object(c, e);
    }
}

Attrs *script_tir_attrs(TirCtx *c, const PyExpr *dict)
{
    if (dict->kind != PY_DICT)
        script_tir_fail(c, dict->span, "attributes are written as a dict literal");
    Attrs *attrs = attrs_new();
    for (int i = 0; i < dict->u.dict.n; i++) {
        const PyExpr *key = dict->u.dict.keys[i];
        if (!key || key->kind != PY_STR)
            script_tir_fail(c, key ? key->span : dict->span, "attribute keys are strings");
        attrs_set(attrs, key->u.str, attr_value(c, dict->u.dict.values[i]));
    }
    return attrs;
}

/* ---- buffers --------------------------------------------------------------------- */

/* shape -> expr | '(' expr, ... ')' | '[' expr, ... ']' */
static PrimExpr **buffer_shape(TirCtx *c, const PyExpr *e, int *ndim)
{
    /* B.shape: another buffer's dims (TVM's tests write T.alloc_buffer(X.shape, ...)). */
    TirSym *other = e->kind == PY_ATTR && strcmp(e->u.attr.attr, "shape") == 0 &&
                            e->u.attr.value->kind == PY_NAME
                        ? script_tir_find(c, e->u.attr.value->u.name)
                        : NULL;
    if (other != NULL && other->buffer != NULL) {
        *ndim = other->buffer->ndim;
        return other->buffer->shape;
    }
    const PyExpr *const *items = &e;
    int n = 1;
    if (e->kind == PY_TUPLE || e->kind == PY_LIST) {
        items = (const PyExpr *const *)e->u.seq.items;
        n = e->u.seq.n;
    }
    PrimExpr **shape = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        PrimExpr *d = script_tir_expr(c, items[i]);
        if (!dtype_is_int(d->dtype) && !dtype_is_uint(d->dtype))
            script_tir_fail(c, items[i]->span, "a buffer dimension must be an integer");
        shape[i] = d;
    }
    *ndim = n;
    return shape;
}

static DataType dtype_of_str(TirCtx *c, const PyExpr *e)
{
    DataType t;
    if (e->kind != PY_STR)
        script_tir_fail(c, e->span, "a dtype string is expected");
    if (!dtype_parse(e->u.str, &t) || dtype_is_void(t))
        error_raise(c->trap, PHASE_PARSE, "BadDType", "TS-3.1", e->span, "`%s` names no data type",
                    e->u.str);
    return t;
}

/* Keywords that change nothing the reference computes. */
static bool ignored_keyword(const char *k)
{
    return strcmp(k, "align") == 0 || strcmp(k, "offset_factor") == 0 ||
           strcmp(k, "buffer_type") == 0;
}

/* axis_separators=[k, ...]: ascending axis positions in 0..ndim (TVM's Buffer check). */
static void read_axis_separators(TirCtx *c, Buffer *b, const PyExpr *e)
{
    if (e->kind != PY_LIST && e->kind != PY_TUPLE)
        script_tir_fail(c, e->span, "axis_separators is a list of integers");
    int n = e->u.seq.n;
    b->axis_separators = MEM_ARRAY(int64_t, n ? n : 1);
    b->naxis_separators = n;
    for (int i = 0; i < n; i++) {
        const PyExpr *it = e->u.seq.items[i];
        if (it->kind != PY_INT || it->u.int_value > b->ndim ||
            (i > 0 && it->u.int_value < b->axis_separators[i - 1]))
            script_tir_fail(c, it->span,
                            "axis_separators must be ascending axis positions in 0..%d", b->ndim);
        b->axis_separators[i] = it->u.int_value;
    }
}

Buffer *script_tir_buffer_args(TirCtx *c, const char *name, const PyExpr *call, int first)
{
    const PyExpr *shape = NULL, *dtype = NULL, *scope = NULL, *separators = NULL;
    int npos = call->u.call.nargs - first;
    if (npos > 2)
        script_tir_fail(c, call->span, "buffer data, strides and offsets are not supported");
    if (npos >= 1)
        shape = call->u.call.args[first];
    if (npos >= 2)
        dtype = call->u.call.args[first + 1];
    for (int i = 0; i < call->u.call.nkw; i++) {
        const char *k = call->u.call.kw_names[i];
        const PyExpr *v = call->u.call.kw_values[i];
        if (strcmp(k, "shape") == 0 && !shape)
            shape = v;
        else if (strcmp(k, "dtype") == 0 && !dtype)
            dtype = v;
        else if (strcmp(k, "scope") == 0)
            scope = v;
        else if (strcmp(k, "axis_separators") == 0)
            separators = v;
        else if (!ignored_keyword(k))
            script_tir_fail(c, call->u.call.kw_spans[i], "buffer keyword `%s` not supported", k);
    }
    if (!shape)
        script_tir_fail(c, call->span, "a buffer needs a shape");
    int ndim;
    PrimExpr **dims = buffer_shape(c, shape, &ndim);
    DataType t = dtype ? dtype_of_str(c, dtype) : dtype_float32();
    Buffer *b = buffer_new(name, t, dims, ndim, call->span);
    if (scope && scope->kind != PY_STR)
        script_tir_fail(c, scope->span, "a buffer scope is a string");
    if (scope)
        b->scope = scope->u.str;
    if (separators && separators->kind != PY_NONE)
        read_axis_separators(c, b, separators);
    return b;
}

/* ---- signature ------------------------------------------------------------------- */

/* T.int64 / T.float32 / ... as a scalar type annotation (also called: T.int64()). */
bool script_tir_scalar_type(const PyExpr *e, DataType *out)
{
    if (e->kind == PY_CALL && e->u.call.nargs == 0 && e->u.call.nkw == 0)
        e = e->u.call.func;
    const char *name = t_attr_name(e);
    static const char *const names[] = {"int8",    "int16",    "int32",  "int64",   "uint8",
                                        "uint16",  "uint32",   "uint64", "float16", "float32",
                                        "float64", "bfloat16", "bool",   "handle"};
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return dtype_parse(name, out);
    return false;
}

/* param -> NAME ':' (T.Buffer(shape, dtype) | T.handle | T.<dtype>) */
static void add_param(TirCtx *c, const PyParam *p, TirVar **var, Buffer **buffer)
{
    DataType t;
    *buffer = NULL;
    if (!p->annotation)
        error_raise(c->trap, PHASE_PARSE, "MissingParamAnnotation", "TS-2", p->span,
                    "parameter `%s` has no annotation", p->name);
    if (p->default_value)
        script_tir_fail(c, p->default_value->span, "PrimFunc parameters take no defaults");
    const PyExpr *ann = p->annotation;
    const char *callee = script_tir_callee(ann);
    /* T.buffer is TVMScript's other spelling of T.Buffer. */
    if (callee && (strcmp(callee, "Buffer") == 0 || strcmp(callee, "buffer") == 0)) {
        *buffer = script_tir_buffer_args(c, p->name, ann, 0);
        *var = tirvar_new(p->name, dtype_handle(), p->span);
        script_tir_bind(c, p->name, NULL, *buffer);
        return;
    }
    if (!script_tir_scalar_type(ann, &t))
        script_tir_fail(c, ann->span, "unsupported PrimFunc parameter annotation");
    *var = tirvar_new(p->name, t, p->span);
    script_tir_bind(c, p->name, *var, NULL)->param = c->func->nparams;
}

static void translate_params(TirCtx *c, const PyStmt *def)
{
    PrimFunc *f = c->func;
    int n = def->u.def.nparams;
    if (def->u.def.has_varargs)
        script_tir_fail(c, def->span, "a PrimFunc takes no *args or **kwargs");
    f->params = MEM_ARRAY(TirVar *, n > 0 ? n : 1);
    f->param_buffers = MEM_ARRAY(Buffer *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        f->nparams = i;
        add_param(c, &def->u.def.params[i], &f->params[i], &f->param_buffers[i]);
    }
    f->nparams = n;
}

static void translate_returns(TirCtx *c, const PyStmt *def)
{
    const PyExpr *r = def->u.def.returns;
    if (!r || r->kind == PY_NONE)
        return;
    DataType t;
    if (!script_tir_scalar_type(r, &t))
        script_tir_fail(c, r->span, "a PrimFunc returns a scalar type such as T.int32");
    c->func->ret_dtype = t;
}

/* decorator -> '@' T.prim_func | '@' T.prim_func '(' [private=BOOL] [check_well_formed=BOOL] ')' */
static void translate_decorator(TirCtx *c, const PyStmt *def)
{
    if (def->u.def.ndecorators != 1)
        error_raise(c->trap, PHASE_PARSE, "BadDecorator", "TS-2", def->span,
                    "a PrimFunc takes exactly one decorator, @T.prim_func");
    const PyExpr *d = def->u.def.decorators[0];
    const PyExpr *f = d->kind == PY_CALL ? d->u.call.func : d;
    const char *name = t_attr_name(f);
    if (!name || strcmp(name, "prim_func") != 0 || (d->kind == PY_CALL && d->u.call.nargs))
        error_raise(c->trap, PHASE_PARSE, "BadDecorator", "TS-2", d->span, "expected @T.prim_func");
    for (int i = 0; d->kind == PY_CALL && i < d->u.call.nkw; i++) {
        const char *k = d->u.call.kw_names[i];
        const PyExpr *v = d->u.call.kw_values[i];
        bool known = strcmp(k, "private") == 0 || strcmp(k, "check_well_formed") == 0;
        if (!known || v->kind != PY_BOOL)
            error_raise(c->trap, PHASE_PARSE, "BadDecorator", "TS-2", d->u.call.kw_spans[i],
                        "bad decorator keyword `%s`", k);
        if (strcmp(k, "private") == 0)
            c->func->is_private = v->u.bool_value;
    }
}

/* TIR-CALL: a PrimFunc of the module by its class name, typed by its return annotation. */
static bool global_ret(void *p, const char *module, const char *fn, DataType *ret)
{
    TirCtx *c = p;
    if (c->module == NULL || strcmp(module, c->module->name) != 0)
        return false;
    const PyStmt *s = c->module->find_def(c->module, fn);
    if (s == NULL)
        return false;
    rule_fired("TIR-CALL");
    const PyExpr *r = s->u.def.returns;
    if (r == NULL || !script_tir_scalar_type(r, ret))
        script_tir_fail(c, s->span, "`%s` is called in an expression but returns no scalar type",
                        fn);
    return true;
}

PrimFunc *script_tir_primfunc(const PyStmt *def, const TirModule *module, ErrorTrap *trap)
{
    rule_fired("TS-11");
    TirCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.trap = trap;
    ctx.module = module;
    ctx.env.lookup = lookup;
    ctx.env.global_ret = global_ret;
    ctx.env.ctx = &ctx;
    ctx.env.tir = true;
    ctx.top_level = true;
    if (def->kind != PYS_DEF)
        script_tir_fail(&ctx, def->span, "a PrimFunc is a def");
    ctx.func = primfunc_new(def->u.def.name, def->span);
    translate_decorator(&ctx, def);
    translate_params(&ctx, def);
    translate_returns(&ctx, def);
    ctx.func->body = script_tir_body(&ctx, &def->u.def.body, 0, NULL);
    return ctx.func;
}
