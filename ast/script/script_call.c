/* script_call: calls in the R namespace: leaf constructors (R.shape, R.str, ...), the
 * builtin call forms (R.call_tir, R.call_packed, ...) and operator calls. SPEC_NOTES: TS-6, TS-7,
 * TS-8. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/schema/op_schema.h"
#include "ast/script/script_index_map.h"
#include "ast/script/script_internal.h"
#include "ast/text/py_parser.h"

/* The arguments of a call bound to named parameters, Python style. */
typedef struct Args {
    const PyExpr *call;
    const char *fname;
    const PyExpr *slot[6];
} Args;

/* Binds positional then keyword arguments to `names`; a keyword that is not a parameter is
 * UnknownKeyword unless `rest_kw` accepts it (call_packed's **attrs). */
static void bind_args(ScriptCtx *ctx, Args *a, const char *const *names, int n, bool rest_kw)
{
    const PyExpr *c = a->call;
    if (c->u.call.nargs > n)
        script_fail(ctx, "BadArguments", c->span, "R.%s takes at most %d arguments", a->fname, n);
    for (int i = 0; i < c->u.call.nargs; i++) {
        if (c->u.call.args[i]->kind == PY_STARRED)
            script_fail(ctx, "BadArguments", c->u.call.args[i]->span,
                        "star arguments are not supported");
        a->slot[i] = c->u.call.args[i];
    }
    for (int k = 0; k < c->u.call.nkw; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], c->u.call.kw_names[k]) != 0)
            i++;
        if (i == n && rest_kw)
            continue;
        if (i == n)
            script_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[k], "R.%s takes no keyword `%s`",
                        a->fname, c->u.call.kw_names[k]);
        if (a->slot[i])
            script_fail(ctx, "BadArguments", c->u.call.kw_spans[k], "`%s` given twice", names[i]);
        a->slot[i] = c->u.call.kw_values[k];
    }
}

static void require(ScriptCtx *ctx, const Args *a, int i, const char *what)
{
    if (!a->slot[i] || a->slot[i]->kind == PY_NONE)
        script_fail(ctx, "BadArguments", a->call->span, "R.%s needs %s", a->fname, what);
}

static Expr *extern_func(const char *sym, Span span)
{
    Expr *e = expr_new(EXPR_EXTERN_FUNC, span);
    e->u.extern_symbol = sym;
    return e;
}

/* A packed function: a symbol string, or an expression such as R.ExternFunc("sym"). */
static Expr *packed_func(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->kind == PY_STR)
        return extern_func(e->u.str, e->span);
    return script_expr(ctx, e);
}

static bool is_tuple_var(const Expr *e)
{
    return e->kind == EXPR_VAR && e->u.var->annotation && e->u.var->annotation->kind == SINFO_TUPLE;
}

/* The argument tuple of call_tir and friends: a tuple or list literal, or one expression,
 * wrapped in a 1-tuple unless it is a tuple or a variable annotated as one. */
static Expr *tuple_arg(ScriptCtx *ctx, const PyExpr *e, bool inline_only)
{
    if (e->kind == PY_TUPLE || e->kind == PY_LIST)
        return script_expr(ctx, e);
    Expr *x = script_expr(ctx, e);
    if (inline_only && (x->kind == EXPR_TUPLE || is_tuple_var(x)))
        script_fail(ctx, "BadArguments", e->span,
                    "the arguments of call_tir_inplace must be an in-line tuple");
    if (x->kind == EXPR_TUPLE || is_tuple_var(x))
        return x;
    Expr **fields = MEM_ARRAY(Expr *, 1);
    fields[0] = x;
    return expr_tuple(fields, 1, e->span);
}

/* out_sinfo: one StructInfo, or a list of them (one -> itself, several -> a Tuple). */
static StructInfo *out_sinfo(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->kind != PY_LIST && e->kind != PY_TUPLE)
        return script_sinfo(ctx, e, SMODE_BODY);
    int n = e->u.seq.n;
    if (n == 1)
        return script_sinfo(ctx, e->u.seq.items[0], SMODE_BODY);
    StructInfo **fields = MEM_ARRAY(StructInfo *, n ? n : 1);
    for (int i = 0; i < n; i++)
        fields[i] = script_sinfo(ctx, e->u.seq.items[i], SMODE_BODY);
    return sinfo_tuple(fields, n, e->span);
}

static void set_sinfo_args(ScriptCtx *ctx, Expr *call, const PyExpr *e)
{
    if (!e || e->kind == PY_NONE)
        return;
    bool seq = e->kind == PY_LIST || e->kind == PY_TUPLE;
    int n = seq ? e->u.seq.n : 1;
    StructInfo **s = MEM_ARRAY(StructInfo *, n ? n : 1);
    for (int i = 0; i < n; i++)
        s[i] = script_sinfo(ctx, seq ? e->u.seq.items[i] : e, SMODE_BODY);
    call->u.call.sinfo_args = s;
    call->u.call.nsinfo_args = n;
}

/* One dim of a ShapeExpr. TS-4.2: a ShapeExpr's dims are int64 (TVM's ShapeExpr casts
 * integer literals and rejects every other dtype), so an int32 shape variable or a float
 * is no dim. */
static PrimExpr *shape_dim(ScriptCtx *ctx, const PyExpr *e)
{
    PrimExpr *d = script_prim(ctx, e);
    if (d->kind != PE_INT && !dtype_equal(d->dtype, dtype_int64()))
        script_fail(ctx, "ShapeVarDType", e->span, "a dim must be int64, not %s",
                    dtype_str(d->dtype));
    return d;
}

/* A list or tuple where a ShapeExpr goes (an operator's shape argument, call_tir's
 * tir_vars): the ShapeExpr of its dims, as TVM's Python wraps it. */
static Expr *tir_vars(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->kind != PY_LIST && e->kind != PY_TUPLE)
        return script_expr(ctx, e);
    int n = e->u.seq.n;
    PrimExpr **v = MEM_ARRAY(PrimExpr *, n ? n : 1);
    for (int i = 0; i < n; i++)
        v[i] = shape_dim(ctx, e->u.seq.items[i]);
    return expr_shape(v, n, e->span);
}

static AttrValue *int_list(ScriptCtx *ctx, const PyExpr *e)
{
    AttrValue *v = script_attr_value(ctx, e, false);
    if (v->kind == ATTR_INT) {
        AttrValue *l = attr_new(ATTR_LIST, e->span);
        l->u.list.items = MEM_ARRAY(AttrValue *, 1);
        l->u.list.items[0] = v;
        l->u.list.n = 1;
        return l;
    }
    if (v->kind != ATTR_LIST)
        script_fail(ctx, "BadArguments", e->span, "inplace_indices must be integers");
    for (int i = 0; i < v->u.list.n; i++)
        if (v->u.list.items[i]->kind != ATTR_INT)
            script_fail(ctx, "BadArguments", e->span, "inplace_indices must be integers");
    return v;
}

static Expr *make_call(const char *op, Expr **args, int n, Span span)
{
    return expr_call(expr_op(op, span), args, n, span);
}

/* ---- the call_tir family ---------------------------------------------------------- */

/* call_tir -> R.call_tir(gv, args, out_sinfo [, tir_vars]) ; _inplace adds inplace_indices
 * before out_sinfo; _with_grad adds te_grad_name and te_grad_kwargs. */
static Expr *call_tir_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    static const char *const plain[] = {"gvar", "args", "out_sinfo", "tir_vars"};
    static const char *const inplace[] = {"gvar", "args", "inplace_indices", "out_sinfo",
                                          "tir_vars"};
    static const char *const grad[] = {"gvar",         "args",           "out_sinfo",
                                       "te_grad_name", "te_grad_kwargs", "tir_vars"};
    bool is_inplace = strcmp(fname, "call_tir_inplace") == 0;
    bool is_grad = strcmp(fname, "call_tir_with_grad") == 0;
    const char *const *names = is_inplace ? inplace : is_grad ? grad : plain;
    int n = is_inplace ? 5 : is_grad ? 6 : 4;
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, n, false);
    int out = is_inplace ? 3 : 2;
    require(ctx, &a, 0, "a PrimFunc");
    require(ctx, &a, 1, "an argument tuple");
    require(ctx, &a, out, "out_sinfo");
    Expr **args = MEM_ARRAY(Expr *, 3);
    args[0] = script_expr(ctx, a.slot[0]);
    args[1] = tuple_arg(ctx, a.slot[1], is_inplace);
    int nargs = 2;
    const PyExpr *tv = a.slot[n - 1];
    if (tv && tv->kind != PY_NONE)
        args[nargs++] = tir_vars(ctx, tv);
    /* DIST-4: R.dist.call_tir is call_tir with DTensor outputs, as in TVM. */
    const char *op = strcmp(fname, "dist.call_tir") == 0 ? "call_tir" : fname;
    Expr *call = make_call(mem_printf("relax.%s", op), args, nargs, c->span);
    StructInfo **s = MEM_ARRAY(StructInfo *, 1);
    s[0] = out_sinfo(ctx, a.slot[out]);
    call->u.call.sinfo_args = s;
    call->u.call.nsinfo_args = 1;
    if (is_inplace) {
        require(ctx, &a, 2, "inplace_indices");
        attrs_set(call->u.call.attrs, "inplace_indices", int_list(ctx, a.slot[2]));
    }
    if (is_grad) {
        require(ctx, &a, 3, "te_grad_name");
        attrs_set(call->u.call.attrs, "te_grad_name", script_attr_value(ctx, a.slot[3], false));
        if (a.slot[4])
            attrs_set(call->u.call.attrs, "te_grad_kwargs",
                      script_attr_value(ctx, a.slot[4], false));
    }
    return call;
}

/* call_dps_packed -> R.call_dps_packed(func, args, out_sinfo) */
static Expr *call_dps_packed(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    static const char *const names[] = {"func", "args", "out_sinfo"};
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, 3, false);
    require(ctx, &a, 0, "a packed function");
    require(ctx, &a, 1, "an argument tuple");
    require(ctx, &a, 2, "out_sinfo");
    Expr **args = MEM_ARRAY(Expr *, 2);
    args[0] = packed_func(ctx, a.slot[0]);
    args[1] = tuple_arg(ctx, a.slot[1], false);
    Expr *call = make_call("relax.call_dps_packed", args, 2, c->span);
    StructInfo **s = MEM_ARRAY(StructInfo *, 1);
    s[0] = out_sinfo(ctx, a.slot[2]);
    call->u.call.sinfo_args = s;
    call->u.call.nsinfo_args = 1;
    return call;
}

/* ---- packed calls ----------------------------------------------------------------- */

static Expr **convert_args(ScriptCtx *ctx, const PyExpr *c, int from, int lead, int *n)
{
    rule_fired("TS-6.1");
    int count = c->u.call.nargs - from;
    Expr **args = MEM_ARRAY(Expr *, count + lead + 1);
    for (int i = 0; i < count; i++) {
        const PyExpr *x = c->u.call.args[from + i];
        if (x->kind == PY_STARRED)
            script_fail(ctx, "BadArguments", x->span, "star arguments are not supported");
        args[lead + i] = script_expr(ctx, x);
    }
    *n = count + lead;
    return args;
}

static const PyExpr *keyword(const PyExpr *c, const char *name)
{
    for (int i = 0; i < c->u.call.nkw; i++)
        if (strcmp(c->u.call.kw_names[i], name) == 0)
            return c->u.call.kw_values[i];
    return NULL;
}

/* Keywords of a packed call: sinfo_args, inplace_indices where taken, and (call_packed
 * only) any other keyword as a call attribute. */
static void packed_keywords(ScriptCtx *ctx, Expr *call, const PyExpr *c, bool inplace,
                            bool free_attrs)
{
    for (int i = 0; i < c->u.call.nkw; i++) {
        const char *k = c->u.call.kw_names[i];
        const PyExpr *v = c->u.call.kw_values[i];
        if (strcmp(k, "sinfo_args") == 0)
            set_sinfo_args(ctx, call, v);
        else if (inplace && strcmp(k, "inplace_indices") == 0)
            attrs_set(call->u.call.attrs, k, int_list(ctx, v));
        else if (free_attrs)
            attrs_set(call->u.call.attrs, k, script_attr_value(ctx, v, true));
        else
            script_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[i],
                        "this call form takes no keyword `%s`", k);
    }
}

/* call_packed -> R.call_packed(sym, *args, sinfo_args=..., **attrs): the op is the
 * ExternFunc itself. The other packed forms pass ExternFunc(sym) as their first argument. */
static Expr *call_packed_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    if (c->u.call.nargs < 1)
        script_fail(ctx, "BadArguments", c->span, "R.%s needs a function", fname);
    Expr *func = packed_func(ctx, c->u.call.args[0]);
    bool plain = strcmp(fname, "call_packed") == 0;
    int n;
    Expr **args = convert_args(ctx, c, 1, plain ? 0 : 1, &n);
    Expr *call;
    if (plain) {
        call = expr_call(func, args, n, c->span);
    } else {
        args[0] = func;
        call = make_call(mem_printf("relax.%s", fname), args, n, c->span);
    }
    packed_keywords(ctx, call, c, strcmp(fname, "call_inplace_packed") == 0, plain);
    if (strcmp(fname, "call_inplace_packed") == 0 && !keyword(c, "inplace_indices"))
        script_fail(ctx, "BadArguments", c->span, "R.call_inplace_packed needs inplace_indices");
    return call;
}

/* builtin_with_ctx -> R.call_builtin_with_ctx(sym, args, sinfo_args=...);
 * invoke_closure -> R.invoke_closure(closure, args, sinfo_args=...);
 * make_closure -> R.make_closure(func, args) */
static Expr *func_and_tuple(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    static const char *const names[] = {"func", "args", "sinfo_args"};
    bool closure = strcmp(fname, "make_closure") == 0;
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, closure ? 2 : 3, false);
    require(ctx, &a, 0, "a function");
    require(ctx, &a, 1, "an argument tuple");
    Expr **args = MEM_ARRAY(Expr *, 2);
    args[0] = strcmp(fname, "call_builtin_with_ctx") == 0 ? packed_func(ctx, a.slot[0])
                                                          : script_expr(ctx, a.slot[0]);
    args[1] = tuple_arg(ctx, a.slot[1], false);
    Expr *call = make_call(mem_printf("relax.%s", fname), args, 2, c->span);
    if (!closure)
        set_sinfo_args(ctx, call, a.slot[2]);
    return call;
}

/* ---- leaves ----------------------------------------------------------------------- */

static const PyExpr *one_arg(ScriptCtx *ctx, const PyExpr *c, const char *fname, const char *kw)
{
    const char *const names[] = {kw};
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, 1, false);
    if (!a.slot[0])
        script_fail(ctx, "BadArguments", c->span, "R.%s takes one argument", fname);
    return a.slot[0];
}

static const PyExpr *string_arg(ScriptCtx *ctx, const PyExpr *c, const char *fname, const char *kw)
{
    const PyExpr *s = one_arg(ctx, c, fname, kw);
    if (s->kind != PY_STR)
        script_fail(ctx, "BadArguments", s->span, "R.%s takes a string", fname);
    return s;
}

static Expr *str_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    Expr *e = expr_new(EXPR_STRING, c->span);
    e->u.str = string_arg(ctx, c, fname, "value")->u.str;
    return e;
}

static Expr *dtype_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    const PyExpr *s = string_arg(ctx, c, fname, "value");
    Expr *e = expr_new(EXPR_DTYPE, c->span);
    if (!dtype_parse(s->u.str, &e->u.dtype))
        script_fail(ctx, "BadDType", s->span, "`%s` is not a data type", s->u.str);
    return e;
}

/* A dtype string literal as R.dtype(...) (an operator's OPP_ARG_DTYPE parameter). */
static Expr *dtype_expr(ScriptCtx *ctx, const PyExpr *s)
{
    Expr *e = expr_new(EXPR_DTYPE, s->span);
    if (!dtype_parse(s->u.str, &e->u.dtype))
        script_fail(ctx, "BadDType", s->span, "`%s` is not a data type", s->u.str);
    return e;
}

/* The format of R.print / R.assert_op: a string literal or R.str(...). */
static Expr *format_arg(ScriptCtx *ctx, const PyExpr *v)
{
    Expr *f = expr_new(EXPR_STRING, v->span);
    if (v->kind == PY_STR) {
        f->u.str = v->u.str;
        return f;
    }
    Expr *e = script_expr(ctx, v);
    if (e->kind != EXPR_STRING)
        script_fail(ctx, "BadArguments", v->span, "the format must be a string");
    return e;
}

/* print -> R.print(*values, format=""); assert_op -> R.assert_op(cond, *values, format="").
 * TVM keeps the format as a StringImm argument: first for print, after the condition for
 * assert_op. */
static Expr *format_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    int lead = strcmp(fname, "assert_op") == 0 ? 1 : 0;
    if (c->u.call.nargs < lead)
        script_fail(ctx, "BadArguments", c->span, "R.assert_op needs a condition");
    Expr *fmt = expr_new(EXPR_STRING, c->span);
    fmt->u.str = "";
    int nextra = 0;
    Expr **extra = NULL;
    for (int k = 0; k < c->u.call.nkw; k++) {
        const char *name = c->u.call.kw_names[k];
        const PyExpr *v = c->u.call.kw_values[k];
        if (strcmp(name, "format") == 0) {
            fmt = format_arg(ctx, v);
        } else if (lead == 1 && strcmp(name, "format_args") == 0) {
            Expr *a = script_expr(ctx, v);
            extra = a->kind == EXPR_TUPLE ? a->u.tuple.fields : MEM_ARRAY(Expr *, 1);
            nextra = a->kind == EXPR_TUPLE ? a->u.tuple.n : 1;
            if (a->kind != EXPR_TUPLE)
                extra[0] = a;
        } else {
            script_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[k], "R.%s takes no keyword `%s`",
                        fname, name);
        }
    }
    int n;
    Expr **vals = convert_args(ctx, c, 0, 0, &n);
    /* assert_op(cond, format_args): a list or tuple of format arguments is flattened. */
    const PyExpr *second = c->u.call.nargs == 2 ? c->u.call.args[1] : NULL;
    if (lead == 1 && second != NULL && (second->kind == PY_LIST || second->kind == PY_TUPLE)) {
        extra = vals[1]->u.tuple.fields;
        nextra = vals[1]->u.tuple.n;
        n = 1;
    }
    Expr **args = MEM_ARRAY(Expr *, n + nextra + 2);
    int m = 0;
    if (lead == 1)
        args[m++] = vals[0];
    args[m++] = fmt;
    for (int i = lead; i < n; i++)
        args[m++] = vals[i];
    for (int i = 0; i < nextra; i++)
        args[m++] = extra[i];
    return make_call(mem_printf("relax.%s", fname), args, m, c->span);
}

/* extern -> R.ExternFunc(global_symbol [, struct_info]) ; the struct_info is a
 * FuncStructInfo (R.Callable(...)) that replaces the default opaque impure one (SI-13). */
static Expr *extern_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    static const char *const names[] = {"global_symbol", "struct_info"};
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, 2, false);
    require(ctx, &a, 0, "a global symbol");
    if (a.slot[0]->kind != PY_STR)
        script_fail(ctx, "BadArguments", a.slot[0]->span, "R.%s takes a string", fname);
    Expr *e = extern_func(a.slot[0]->u.str, c->span);
    if (a.slot[1] == NULL || a.slot[1]->kind == PY_NONE)
        return e;
    StructInfo *s = script_sinfo(ctx, a.slot[1], SMODE_BODY);
    if (s->kind != SINFO_FUNC)
        script_fail(ctx, "BadArguments", a.slot[1]->span,
                    "the StructInfo of R.ExternFunc must be an R.Callable");
    e->extern_sinfo = s;
    return e;
}

/* shape -> R.shape('[' dim {',' dim} ']') */
static Expr *shape_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    const PyExpr *v = one_arg(ctx, c, fname, "value");
    if (v->kind != PY_LIST && v->kind != PY_TUPLE)
        script_fail(ctx, "BadArguments", v->span, "R.shape takes a list of dims");
    int n = v->u.seq.n;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, n ? n : 1);
    for (int i = 0; i < n; i++)
        dims[i] = shape_dim(ctx, v->u.seq.items[i]);
    return expr_shape(dims, n, c->span);
}

/* prim_value -> R.prim_value(int | float | bool | prim_expr) */
static Expr *prim_value_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    const PyExpr *v = one_arg(ctx, c, fname, "value");
    ScriptNum num;
    /* TS-6: R.prim_value(x) is relax.PrimValue(x), whose Python float becomes a TIR
     * constant of TVM's default float dtype, float32 (T.float32(x), as TVM prints it back);
     * a bare float elsewhere in a Relax expression is float64 (convert_to_expr). An integer
     * or bool is the same either way. */
    if (script_number(ctx, v, &num) && num.kind != NUM_FLOAT) {
        Expr *e = script_expr(ctx, v);
        e->span = c->span;
        return e;
    }
    return expr_prim_value(script_prim(ctx, v), c->span);
}

static Expr *tuple_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    if (c->u.call.nkw > 0)
        script_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[0], "R.tuple takes no keywords");
    int n;
    Expr **fields = convert_args(ctx, c, 0, 0, &n);
    return expr_tuple(fields, n, c->span);
}

/* get_item -> R.TupleGetItem(tuple, INT) */
static Expr *get_item_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    static const char *const names[] = {"tuple_value", "index"};
    Args a = {.call = c, .fname = fname};
    bind_args(ctx, &a, names, 2, false);
    require(ctx, &a, 0, "a tuple");
    require(ctx, &a, 1, "an index");
    if (a.slot[1]->kind != PY_INT || a.slot[1]->u.int_value > INT32_MAX)
        script_fail(ctx, "BadArguments", a.slot[1]->span,
                    "a tuple index must be a non-negative integer literal");
    Expr *g = expr_new(EXPR_TUPLE_GET_ITEM, c->span);
    g->u.get_item.tuple = script_expr(ctx, a.slot[0]);
    g->u.get_item.index = (int)a.slot[1]->u.int_value;
    return g;
}

static Expr *const_form(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    return script_const(ctx, c);
}

static Expr *misplaced(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    if (strcmp(fname, "match_cast") == 0)
        script_fail(ctx, "BadArguments", c->span,
                    "R.match_cast is only allowed as the right-hand side of an assignment");
    script_fail(ctx, "BadExpression", c->span, "R.%s is not an expression", fname);
}

/* ---- operator calls --------------------------------------------------------------- */

/* Errors in a registered operator's call pin TS-8 (the operator's signature), whatever
 * rule the same code carries elsewhere. */
static noreturn void op_fail(ScriptCtx *ctx, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static noreturn void op_fail(ScriptCtx *ctx, const char *code, Span span, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (span.file == NULL)
        span.file = ctx->file;
    error_raise(ctx->trap, PHASE_PARSE, code, "TS-8", span, "%s", msg);
}

static bool attr_is_int_list(const AttrValue *v)
{
    if (v->kind != ATTR_LIST)
        return false;
    for (int i = 0; i < v->u.list.n; i++)
        if (v->u.list.items[i]->kind != ATTR_INT)
            return false;
    return true;
}

/* A list of numbers as floats: ints converted, constant float PrimValues (T.float32(0.1), as
 * TVM prints a FloatImm array) taken as their value; NULL when an item is no number. */
static AttrValue *float_list(const AttrValue *v)
{
    if (v->kind != ATTR_LIST)
        return NULL;
    AttrValue *l = attr_new(ATTR_LIST, v->span);
    l->u.list.items = MEM_ARRAY(AttrValue *, v->u.list.n + 1);
    l->u.list.n = v->u.list.n;
    for (int i = 0; i < v->u.list.n; i++) {
        const AttrValue *it = v->u.list.items[i];
        const PrimExpr *imm = it->kind == ATTR_EXPR && it->u.expr->kind == EXPR_PRIM_VALUE
                                  ? it->u.expr->u.prim
                                  : NULL;
        AttrValue *f = attr_new(ATTR_FLOAT, it->span);
        if (it->kind == ATTR_FLOAT)
            f->u.f = it->u.f;
        else if (it->kind == ATTR_INT)
            f->u.f = (double)it->u.i;
        else if (imm != NULL && imm->kind == PE_FLOAT)
            f->u.f = imm->u.float_value;
        else if (imm != NULL && imm->kind == PE_INT)
            f->u.f = (double)imm->u.int_value;
        else
            return NULL;
        l->u.list.items[i] = f;
    }
    return l;
}

static AttrValue *one_item_list(AttrValue *v)
{
    AttrValue *l = attr_new(ATTR_LIST, v->span);
    l->u.list.items = MEM_ARRAY(AttrValue *, 1);
    l->u.list.items[0] = v;
    l->u.list.n = 1;
    return l;
}

/* A dtype attribute: a dtype string or R.dtype(...); None is "void" (TVM's unknown dtype). */
static AttrValue *dtype_attr(ScriptCtx *ctx, AttrValue *v, const PyExpr *e)
{
    if (v->kind == ATTR_NONE)
        return attr_str("void", v->span);
    if (v->kind == ATTR_EXPR && v->u.expr->kind == EXPR_DTYPE)
        return attr_str(dtype_str(v->u.expr->u.dtype), v->span);
    DataType t;
    if (v->kind != ATTR_STR)
        return NULL;
    if (!dtype_parse(v->u.s, &t))
        script_fail(ctx, "BadDType", e->span, "`%s` names no data type", v->u.s);
    return attr_str(dtype_str(t), v->span);
}

/* The attribute value of an OPP_ATTR parameter typed per its OpAttrType; NULL when the
 * value is of the wrong type. */
static AttrValue *typed_attr(ScriptCtx *ctx, OpAttrType type, AttrValue *v, const PyExpr *e)
{
    /* A constant PrimValue (T.IntImm("int32", 8), T.float32(0.1), an alias of one) is its
     * number, as TVM's attribute conversion takes the immediate's value. */
    const PrimExpr *imm =
        v->kind == ATTR_EXPR && v->u.expr->kind == EXPR_PRIM_VALUE ? v->u.expr->u.prim : NULL;
    if (imm != NULL && imm->kind == PE_INT && type != OPA_OPT_PRIM)
        v = dtype_is_bool(imm->dtype) ? attr_bool(imm->u.int_value != 0, v->span)
                                      : attr_int(imm->u.int_value, v->span);
    if (imm != NULL && imm->kind == PE_FLOAT && type != OPA_OPT_PRIM) {
        AttrValue *f = attr_new(ATTR_FLOAT, v->span);
        f->u.f = imm->u.float_value;
        v = f;
    }
    bool none = v->kind == ATTR_NONE;
    switch (type) {
    case OPA_INT:
        return v->kind == ATTR_INT ? v : NULL;
    case OPA_OPT_INT:
        return v->kind == ATTR_INT || none ? v : NULL;
    case OPA_FLOAT:
    case OPA_OPT_FLOAT:
        if (v->kind == ATTR_INT) {
            AttrValue *f = attr_new(ATTR_FLOAT, v->span);
            f->u.f = (double)v->u.i;
            return f;
        }
        return v->kind == ATTR_FLOAT || (none && type == OPA_OPT_FLOAT) ? v : NULL;
    case OPA_OPT_BOOL: /* None is false: cumsum's exclusive, an Optional<Bool> in TVM */
        if (none)
            return attr_bool(false, v->span);
        /* fall through */
    case OPA_BOOL: /* TVM's FFI converts an int to a bool parameter (cumsum's exclusive=0) */
        if (v->kind == ATTR_INT)
            return attr_bool(v->u.i != 0, v->span);
        return v->kind == ATTR_BOOL ? v : NULL;
    case OPA_STR:
        return v->kind == ATTR_STR ? v : NULL;
    case OPA_OPT_STR:
        return v->kind == ATTR_STR || none ? v : NULL;
    case OPA_INDEX_MAP: /* read by op_attr before any conversion */
        return NULL;
    case OPA_OPT_PRIM:
        return none || v->kind == ATTR_INT || v->kind == ATTR_FLOAT ||
                       (v->kind == ATTR_EXPR && v->u.expr->kind == EXPR_PRIM_VALUE)
                   ? v
                   : NULL;
    case OPA_DTYPE:
        return dtype_attr(ctx, v, e);
    case OPA_INT_LIST:
        return attr_is_int_list(v) ? v : NULL;
    case OPA_FLOAT_LIST:
        return float_list(v);
    case OPA_OPT_INT_LIST:
        return attr_is_int_list(v) || none ? v : NULL;
    case OPA_INT_KEEP_OR_LIST:
        return v->kind == ATTR_INT || attr_is_int_list(v) ? v : NULL;
    case OPA_INT_OR_LIST:
    case OPA_OPT_INT_OR_LIST:
        if (v->kind == ATTR_INT)
            return one_item_list(v);
        return attr_is_int_list(v) || (none && type == OPA_OPT_INT_OR_LIST) ? v : NULL;
    }
    return NULL;
}

static AttrValue *op_attr(ScriptCtx *ctx, const OpSchema *s, const OpParam *p, const PyExpr *e)
{
    if (p->attr_type == OPA_INDEX_MAP)
        return script_index_map(e, ctx->trap);
    AttrValue *v = typed_attr(ctx, p->attr_type, script_attr_value(ctx, e, true), e);
    if (v == NULL)
        op_fail(ctx, "BadArguments", e->span, "R.%s: attribute `%s` has the wrong type",
                s->name + strlen("relax."), p->name);
    return v;
}

/* A parameter's default, read from its Python literal text. */
static const PyExpr *default_value(ScriptCtx *ctx, const OpParam *p, Span span)
{
    return py_parse_expr(ctx->file, p->default_text, span, ctx->trap);
}

static Expr **convert_seq(ScriptCtx *ctx, const PyExpr *e)
{
    Expr **items = MEM_ARRAY(Expr *, e->u.seq.n + 1);
    for (int i = 0; i < e->u.seq.n; i++)
        items[i] = script_expr(ctx, e->u.seq.items[i]);
    return items;
}

/* [1, n, 2] -> (R.prim_value(1), R.prim_value(n), R.prim_value(2)): numbers and PrimExprs
 * become PrimValues, other items stay Relax expressions. */
static Expr *prim_tuple(ScriptCtx *ctx, const PyExpr *e)
{
    Expr **items = MEM_ARRAY(Expr *, e->u.seq.n + 1);
    for (int i = 0; i < e->u.seq.n; i++) {
        const PyExpr *it = e->u.seq.items[i];
        items[i] = script_prim_class(ctx, it) == PCLASS_PRIM
                       ? expr_prim_value(script_prim(ctx, it), it->span)
                       : script_expr(ctx, it);
    }
    return expr_tuple(items, e->u.seq.n, e->span);
}

/* One Relax argument of a registered operator, converted per its parameter kind. */
static Expr *op_arg(ScriptCtx *ctx, const OpParam *p, const PyExpr *e)
{
    bool seq = e->kind == PY_LIST || e->kind == PY_TUPLE;
    switch (p->kind) {
    case OPP_ARG_LIST:
        if (seq)
            return expr_tuple(convert_seq(ctx, e), e->u.seq.n, e->span);
        return script_expr(ctx, e);
    case OPP_ARG_SHAPE:
        return seq ? tir_vars(ctx, e) : script_expr(ctx, e);
    case OPP_ARG_PRIM:
        if (script_prim_class(ctx, e) == PCLASS_PRIM)
            return expr_prim_value(script_prim(ctx, e), e->span);
        return script_expr(ctx, e);
    case OPP_ARG_PRIM_TUPLE:
        if (seq)
            return prim_tuple(ctx, e);
        return script_expr(ctx, e);
    case OPP_ARG_DTYPE: /* LOW-*: TVM's Python turns a dtype string into R.dtype(...) */
        if (e->kind == PY_STR)
            return dtype_expr(ctx, e);
        return script_expr(ctx, e);
    case OPP_ARG:
    case OPP_ATTR:
        break;
    }
    return script_expr(ctx, e);
}

/* Python-style binding of positional and keyword arguments to the schema's parameters. */
static void bind_op_params(ScriptCtx *ctx, const PyExpr *c, const OpSchema *s, const PyExpr **slot,
                           Expr *call)
{
    const char *fname = s->name + strlen("relax.");
    if (c->u.call.nargs > s->nparams)
        op_fail(ctx, "BadArguments", c->span, "R.%s takes at most %d arguments", fname, s->nparams);
    for (int i = 0; i < c->u.call.nargs; i++) {
        if (c->u.call.args[i]->kind == PY_STARRED)
            op_fail(ctx, "BadArguments", c->u.call.args[i]->span,
                    "star arguments are not supported");
        slot[i] = c->u.call.args[i];
    }
    for (int k = 0; k < c->u.call.nkw; k++) {
        const char *kw = c->u.call.kw_names[k];
        if (strcmp(kw, "sinfo_args") == 0) {
            set_sinfo_args(ctx, call, c->u.call.kw_values[k]);
            continue;
        }
        int i = 0;
        while (i < s->nparams && strcmp(s->params[i].name, kw) != 0)
            i++;
        if (i == s->nparams)
            op_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[k], "R.%s takes no keyword `%s`",
                    fname, kw);
        if (slot[i] != NULL)
            op_fail(ctx, "BadArguments", c->u.call.kw_spans[k], "`%s` given twice", kw);
        slot[i] = c->u.call.kw_values[k];
    }
}

static void op_args(ScriptCtx *ctx, const PyExpr *c, const OpSchema *s, const PyExpr **slot,
                    Expr *call)
{
    Expr **args = MEM_ARRAY(Expr *, s->nparams + 1);
    int n = 0;
    for (int i = 0; i < s->nparams; i++) {
        const OpParam *p = &s->params[i];
        if (p->kind == OPP_ATTR)
            continue;
        const PyExpr *e = slot[i];
        bool omitted = e == NULL || e->kind == PY_NONE;
        if (omitted && p->default_text == NULL)
            op_fail(ctx, "BadArguments", c->span, "R.%s needs the argument `%s`",
                    s->name + strlen("relax."), p->name);
        if (omitted && strcmp(p->default_text, "None") == 0)
            continue;
        args[n++] = op_arg(ctx, p, omitted ? default_value(ctx, p, c->span) : e);
    }
    call->u.call.args = args;
    call->u.call.nargs = n;
}

static int param_index(const OpSchema *s, const char *name)
{
    for (int i = 0; i < s->nparams; i++)
        if (s->params[i].kind == OPP_ATTR && strcmp(s->params[i].name, name) == 0)
            return i;
    return -1;
}

/* Every attribute, given or defaulted, in the order TVM prints them. */
static void op_attrs(ScriptCtx *ctx, const PyExpr *c, const OpSchema *s, const PyExpr **slot,
                     Expr *call)
{
    int count = s->print_order != NULL ? s->nprint_order : s->nparams;
    for (int k = 0; k < count; k++) {
        int i = s->print_order != NULL ? param_index(s, s->print_order[k]) : k;
        if (i < 0 || s->params[i].kind != OPP_ATTR)
            continue;
        const OpParam *p = &s->params[i];
        if (slot[i] == NULL && p->default_text == NULL)
            op_fail(ctx, "BadArguments", c->span, "R.%s needs the attribute `%s`",
                    s->name + strlen("relax."), p->name);
        const PyExpr *e = slot[i] != NULL ? slot[i] : default_value(ctx, p, c->span);
        attrs_set(call->u.call.attrs, p->name, op_attr(ctx, s, p, e));
    }
}

/* op_call -> R.<name>(args, attr=value, ..., sinfo_args=...) bound to the operator's
 * schema: Relax arguments in parameter order, every attribute (defaults filled in). */
static Expr *schema_call(ScriptCtx *ctx, const PyExpr *c, const OpSchema *s)
{
    /* OP-REGISTRY: the registry's signature (the operator's own rule's) binds the arguments. */
    rule_fired("OP-REGISTRY");
    rule_fired(op_schema_lowered_rule(s->name));
    if (rule_recording && strncmp(s->name, "relax.", 6) == 0)
        rule_fired(mem_printf("OP-%s", s->name + 6));
    Expr *call = make_call(s->name, NULL, 0, c->span);
    const PyExpr **slot = MEM_ARRAY(const PyExpr *, s->nparams + 1);
    bind_op_params(ctx, c, s, slot, call);
    op_args(ctx, c, s, slot, call);
    op_attrs(ctx, c, s, slot, call);
    /* conv2d and pooling attributes are completed as TVM's constructors do. */
    op_schema_nn_canonicalize(s->name, call->u.call.attrs);
    return op_schema_sugar(call);
}

/* op_call -> R.<name>(args, attr=value, ..., sinfo_args=...) ; an operator the registry
 * does not know keeps positional arguments as arguments and keywords as attributes. */
static Expr *op_call(ScriptCtx *ctx, const PyExpr *c, const char *path)
{
    /* TS-7: the builtins TVMScript writes as operator calls; TS-8: every operator call. */
    static const char BUILTINS[] =
        " shape_of null_value shape_to_tensor tensor_to_shape to_vdevice ";
    if (rule_recording && strstr(BUILTINS, mem_printf(" %s ", path)) != NULL)
        rule_fired("TS-7");
    rule_fired("TS-8");
    const char *name = mem_printf("relax.%s", path);
    const OpSchema *s = op_schema_lookup(name);
    if (s != NULL)
        return schema_call(ctx, c, s);
    int n;
    Expr **args = convert_args(ctx, c, 0, 0, &n);
    Expr *call = make_call(name, args, n, c->span);
    for (int i = 0; i < c->u.call.nkw; i++) {
        const char *k = c->u.call.kw_names[i];
        if (strcmp(k, "sinfo_args") == 0)
            set_sinfo_args(ctx, call, c->u.call.kw_values[i]);
        else
            attrs_set(call->u.call.attrs, k, script_attr_value(ctx, c->u.call.kw_values[i], true));
    }
    return call;
}

typedef Expr *(*FormFn)(ScriptCtx *ctx, const PyExpr *c, const char *fname);

static const struct {
    const char *name;
    FormFn fn;
} forms[] = {
    {"const", const_form},
    {"prim_value", prim_value_form},
    {"str", str_form},
    {"dtype", dtype_form},
    {"shape", shape_form},
    {"ShapeExpr", shape_form}, /* TS-7: the node's own name, as TVM's parser also reads it */
    {"tuple", tuple_form},
    {"TupleGetItem", get_item_form},
    {"ExternFunc", extern_form},
    {"call_tir", call_tir_form},
    {"call_tir_inplace", call_tir_form},
    {"call_tir_with_grad", call_tir_form},
    {"dist.call_tir", call_tir_form},
    {"dist.call_tir_local_view", call_tir_form},
    {"call_dps_packed", call_dps_packed},
    {"call_packed", call_packed_form},
    {"call_pure_packed", call_packed_form},
    {"call_inplace_packed", call_packed_form},
    {"call_builtin_with_ctx", func_and_tuple},
    {"invoke_closure", func_and_tuple},
    {"invoke_pure_closure", func_and_tuple},
    {"make_closure", func_and_tuple},
    {"print", format_form},
    {"hint_on_device", script_hint_on_device},
    {"assert_op", format_form},
    {"match_cast", misplaced},
    {"output", misplaced},
    {"func_attr", misplaced},
    {"dataflow", misplaced},
    {"function", misplaced},
    {"Tensor", misplaced},
    {"Shape", misplaced},
    {"Prim", misplaced},
    {"Tuple", misplaced},
    {"Object", misplaced},
    {"Callable", misplaced},
};

Expr *script_relax_call(ScriptCtx *ctx, const PyExpr *call, const char *path)
{
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (strcmp(forms[i].name, path) != 0)
            continue;
        rule_fired("TS-7"); /* a builtin call form */
        return forms[i].fn(ctx, call, forms[i].name);
    }
    if (strncmp(path, "dist.", 5) == 0)
        return script_dist_call(ctx, call, path + 5);
    return op_call(ctx, call, path);
}
