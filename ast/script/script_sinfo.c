/* script_sinfo: StructInfo annotations (R.Object, R.Tensor, R.Shape, R.Prim, R.Tuple,
 * R.Callable), their dims and the shape variables string dims define. SPEC_NOTES: TS-3, TS-3.1,
 * TS-5.1. */
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"
#include "ast/script/script_prim.h"
#include "ast/text/py_parser.h"

/* An annotation head and its arguments: R.Tensor(...) or a bare R.Tensor. */
typedef struct Ann {
    const PyExpr *e;
    const char *kind; /* "Tensor", "Shape", ... */
    const PyExpr *const *args;
    int nargs;
    const char *const *kw_names;
    const PyExpr *const *kw_values;
    const Span *kw_spans;
    int nkw;
} Ann;

static bool read_head(ScriptCtx *ctx, const PyExpr *e, Ann *a)
{
    *a = (Ann){.e = e};
    const PyExpr *head = e->kind == PY_CALL ? e->u.call.func : e;
    ScriptNs ns;
    const char *path = script_dotted(ctx, head, &ns);
    if (!path || ns != NS_RELAX)
        return false;
    a->kind = path;
    if (e->kind == PY_CALL) {
        a->args = (const PyExpr *const *)e->u.call.args;
        a->nargs = e->u.call.nargs;
        a->kw_names = e->u.call.kw_names;
        a->kw_values = (const PyExpr *const *)e->u.call.kw_values;
        a->kw_spans = e->u.call.kw_spans;
        a->nkw = e->u.call.nkw;
    }
    static const char *const kinds[] = {"Object", "Tensor",   "Shape",   "Prim",
                                        "Tuple",  "Callable", "DTensor", "dist.DTensor"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(path, kinds[i]) == 0)
            return true;
    return false;
}

bool script_is_sinfo(ScriptCtx *ctx, const PyExpr *e)
{
    Ann a;
    return read_head(ctx, e, &a);
}

/* Binds an annotation's arguments to its Python parameters (positional, then keywords). */
static void bind(ScriptCtx *ctx, const Ann *a, const char *const *names, int n, const PyExpr **slot)
{
    if (a->nargs > n)
        script_fail(ctx, "AnnotationArity", a->e->span, "too many arguments to R.%s", a->kind);
    for (int i = 0; i < n; i++)
        slot[i] = i < a->nargs ? a->args[i] : NULL;
    for (int k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], a->kw_names[k]) != 0)
            i++;
        if (i == n)
            script_fail(ctx, "UnknownKeyword", a->kw_spans[k], "R.%s takes no keyword `%s`",
                        a->kind, a->kw_names[k]);
        if (slot[i])
            script_fail(ctx, "AnnotationArity", a->kw_spans[k], "`%s` given twice", names[i]);
        slot[i] = a->kw_values[k];
    }
}

/* ---- dims -------------------------------------------------------------------------- */

static PrimExpr *string_dim(ScriptCtx *ctx, const PyExpr *e, SinfoMode mode)
{
    if (mode == SMODE_BODY)
        script_fail(ctx, "StringDimOutsideSignature", e->span,
                    "string dims are only allowed in function parameter and return annotations");
    Span origin = e->span;
    origin.col += 1; /* past the opening quote */
    PyExpr *parsed = py_parse_expr(ctx->file, e->u.str, origin, ctx->trap);
    bool saved = ctx->in_string_dim;
    Span saved_span = ctx->string_span;
    ctx->in_string_dim = true;
    ctx->string_span = e->span;
    PrimExpr *p = script_prim(ctx, parsed);
    ctx->in_string_dim = saved;
    ctx->string_span = saved_span;
    return p;
}

/* dim -> INT | STRING | prim_expr ; Relax dims are int64. */
static PrimExpr *dim(ScriptCtx *ctx, const PyExpr *e, SinfoMode mode)
{
    rule_fired("TS-3.1");
    PrimExpr *p = e->kind == PY_STR ? string_dim(ctx, e, mode) : script_prim(ctx, e);
    if (!dtype_is_int(p->dtype) && !dtype_is_uint(p->dtype))
        script_fail(ctx, "AnnotationShape", e->span, "a dim must be an integer");
    if (!dtype_equal(p->dtype, dtype_int64()))
        script_fail(ctx, "ShapeVarDType", e->span, "a dim must be int64, not %s",
                    dtype_str(p->dtype));
    return p;
}

static PrimExpr **dims(ScriptCtx *ctx, const PyExpr *e, SinfoMode mode, int *n)
{
    *n = e->u.seq.n;
    PrimExpr **v = MEM_ARRAY(PrimExpr *, *n ? *n : 1);
    for (int i = 0; i < *n; i++)
        v[i] = dim(ctx, e->u.seq.items[i], mode);
    return v;
}

static bool is_seq(const PyExpr *e)
{
    return e && (e->kind == PY_TUPLE || e->kind == PY_LIST);
}

static bool is_none(const PyExpr *e)
{
    return !e || e->kind == PY_NONE;
}

static int read_ndim(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNum num;
    if (is_none(e))
        return -1;
    if (!script_number(ctx, e, &num) || num.kind != NUM_INT)
        script_fail(ctx, "AnnotationNdim", e->span, "ndim must be an integer");
    if (num.i < -1 || num.i > INT32_MAX)
        script_fail(ctx, "AnnotationNdim", e->span, "ndim must be -1 or more");
    return (int)num.i;
}

/* An explicit ndim other than the default -1 conflicts with a shape. */
static bool ndim_given(ScriptCtx *ctx, const PyExpr *e)
{
    return !is_none(e) && read_ndim(ctx, e) != -1;
}

static DataType read_dtype(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-3.1");
    DataType t = dtype_void();
    if (is_none(e))
        return t;
    if (e->kind != PY_STR || !dtype_parse(e->u.str, &t))
        script_fail(ctx, "BadDType", e->span, "not a data type");
    return t;
}

/* ---- vdevices ---------------------------------------------------------------------- */

/* "kind" -> the first vdevice of that kind; "kind:i" -> the i-th of that kind;
 * "vdevice:i" -> the i-th overall. Anything else is a fresh VDevice outside the module's
 * global_info, which a later phase rejects. */
static VDevice *read_vdevice(ScriptCtx *ctx, const PyExpr *e)
{
    if (is_none(e))
        return NULL;
    if (e->kind != PY_STR)
        script_fail(ctx, "BadAnnotation", e->span, "vdevice must be a string");
    const char *s = e->u.str;
    const char *colon = strchr(s, ':');
    char *kind = colon ? mem_strndup(s, (size_t)(colon - s)) : mem_strdup(s);
    int index = colon ? atoi(colon + 1) : 0;
    IRModule *m = ctx->mod;
    int seen = 0;
    for (int i = 0; m && i < m->nvdevices; i++) {
        if (strcmp(kind, "vdevice") == 0) {
            if (i == index)
                return m->vdevices[i];
            continue;
        }
        if (strcmp(m->vdevices[i]->target_kind, kind) == 0 && seen++ == index)
            return m->vdevices[i];
    }
    VDevice *v = MEM_NEW(VDevice);
    v->target_kind = kind;
    v->vdevice_id = 0;
    v->memory_scope = "global";
    v->span = e->span;
    return v;
}

/* ---- the annotation kinds ---------------------------------------------------------- */

/* tensor -> R.Tensor [ '(' [shape] [, dtype] [, vdevice] [, ndim=INT] ')' ] */
static StructInfo *tensor_slots(ScriptCtx *ctx, const PyExpr *const *s, SinfoMode mode, Span span);

static StructInfo *tensor(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    static const char *const names[] = {"shape", "dtype", "vdevice", "ndim"};
    const PyExpr *s[4];
    Ann shifted = *a;
    const PyExpr *moved[5] = {NULL};
    /* R.Tensor("float32") moves the string to dtype. */
    if (a->nargs > 0 && a->nargs < 5 && a->args[0]->kind == PY_STR) {
        for (int i = 0; i < a->nargs; i++)
            moved[i + 1] = a->args[i];
        shifted.args = moved;
        shifted.nargs = a->nargs + 1;
    }
    bind(ctx, &shifted, names, 4, s);
    return tensor_slots(ctx, s, mode, a->e->span);
}

/* The tensor of slots shape, dtype, vdevice and ndim (each NULL when not written). */
static StructInfo *tensor_slots(ScriptCtx *ctx, const PyExpr *const *s, SinfoMode mode, Span span)
{
    int ndim = read_ndim(ctx, s[3]);
    DataType t = read_dtype(ctx, s[1]);
    VDevice *vd = read_vdevice(ctx, s[2]);
    Expr *shape = NULL;
    if (is_seq(s[0])) {
        int n;
        PrimExpr **v = dims(ctx, s[0], mode, &n);
        shape = expr_shape(v, n, s[0]->span);
        if (ndim_given(ctx, s[3]))
            script_fail(ctx, "AnnotationNdimConflict", s[3]->span,
                        "ndim cannot be given together with a shape");
        ndim = n;
    } else if (!is_none(s[0])) {
        if (s[0]->kind != PY_NAME && s[0]->kind != PY_CALL && s[0]->kind != PY_ATTR)
            script_fail(ctx, "AnnotationShape", s[0]->span,
                        "a tensor shape must be a tuple, a list, None or a Shape variable");
        shape = script_expr(ctx, s[0]);
        if (shape->kind != EXPR_VAR && shape->kind != EXPR_SHAPE)
            script_fail(ctx, "AnnotationShape", s[0]->span,
                        "a tensor shape must be a tuple, a list, None or a Shape variable");
        if (ndim_given(ctx, s[3]))
            script_fail(ctx, "AnnotationNdimConflict", s[3]->span,
                        "ndim cannot be given together with a shape");
        if (shape->kind == EXPR_SHAPE)
            ndim = shape->u.shape.n;
        else if (shape->u.var->annotation && shape->u.var->annotation->kind == SINFO_SHAPE)
            ndim = shape->u.var->annotation->u.shape.ndim;
    }
    return sinfo_tensor(shape, t, vd, ndim, span);
}

/* dtensor -> R.DTensor '(' [shape] [, dtype] , device_mesh , placement [, ndim=INT] ')'
 * (also R.dist.DTensor); the tensor part reads as R.Tensor's, without a vdevice. */
static StructInfo *dtensor(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    rule_fired("DIST-3");
    static const char *const names[] = {"shape", "dtype", "device_mesh", "placement", "ndim"};
    const PyExpr *s[5];
    bind(ctx, a, names, 5, s);
    /* TVM moves a lone string shape to the dtype. */
    if (s[0] != NULL && s[0]->kind == PY_STR && s[1] == NULL) {
        s[1] = s[0];
        s[0] = NULL;
    }
    if (s[0] != NULL && !is_seq(s[0]) && !is_none(s[0]))
        script_fail(ctx, "AnnotationShape", s[0]->span,
                    "a DTensor shape must be a tuple, a list or None");
    const PyExpr *t[4] = {s[0], s[1], NULL, s[4]};
    StructInfo *tensor = tensor_slots(ctx, t, mode, a->e->span);
    return script_dist_dtensor(ctx, tensor, s[2], s[3], a->e->span);
}

/* shape -> R.Shape [ '(' ( dims [, ndim=INT] | ndim=INT ) ')' ] */
static StructInfo *shape(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    static const char *const names[] = {"values", "ndim"};
    const PyExpr *s[2];
    bind(ctx, a, names, 2, s);
    int ndim = read_ndim(ctx, s[1]);
    if (is_none(s[0]))
        return sinfo_shape(NULL, ndim, a->e->span);
    if (!is_seq(s[0]))
        script_fail(ctx, "AnnotationShape", s[0]->span, "R.Shape values must be a list or a tuple");
    /* An empty list with an ndim reads as ndim only, as TVM reads it. */
    if (s[0]->u.seq.n == 0 && ndim_given(ctx, s[1]))
        return sinfo_shape(NULL, ndim, a->e->span);
    if (ndim_given(ctx, s[1]))
        script_fail(ctx, "AnnotationNdimConflict", s[1]->span,
                    "ndim cannot be given together with values");
    int n;
    PrimExpr **v = dims(ctx, s[0], mode, &n);
    return sinfo_shape(v, n, a->e->span);
}

/* prim -> R.Prim '(' ( dtype | value=dim | dtype=..., value=... ) ')' */
/* R.Prim("int32", value=3): a Python number takes the annotation's dtype, as a literal
 * takes the type of what it meets in TIR. */
static PrimExpr *literal_as(PrimExpr *v, DataType t)
{
    if (v->kind == PE_INT && dtype_is_float(t))
        return primexpr_float((double)v->u.int_value, t, v->span);
    if ((v->kind == PE_INT && !dtype_is_float(t)) || (v->kind == PE_FLOAT && dtype_is_float(t))) {
        PrimExpr *c = MEM_NEW(PrimExpr);
        *c = *v;
        c->dtype = t;
        return c;
    }
    return v;
}

static StructInfo *prim(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    static const char *const names[] = {"dtype", "value"};
    const PyExpr *s[2];
    bind(ctx, a, names, 2, s);
    if (is_none(s[0]) && is_none(s[1]))
        script_fail(ctx, "AnnotationArity", a->e->span, "R.Prim needs a dtype or a value");
    DataType t = read_dtype(ctx, s[0]);
    PrimExpr *v = NULL;
    if (!is_none(s[1])) {
        v = s[1]->kind == PY_STR ? string_dim(ctx, s[1], mode) : script_prim(ctx, s[1]);
        if (is_none(s[0]))
            t = v->dtype;
        else if (s[1]->kind != PY_STR && script_prim_is_literal(s[1]))
            v = literal_as(v, t);
    }
    return sinfo_prim(t, v, a->e->span);
}

static StructInfo **sinfo_list(ScriptCtx *ctx, const PyExpr *const *items, int n, SinfoMode mode)
{
    StructInfo **v = MEM_ARRAY(StructInfo *, n ? n : 1);
    for (int i = 0; i < n; i++)
        v[i] = script_sinfo(ctx, items[i], mode);
    return v;
}

/* tuple -> R.Tuple [ '(' S {',' S} ')' | '(' '[' S {',' S} ']' ')' ] */
static StructInfo *tuple(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    if (a->nkw > 0)
        script_fail(ctx, "UnknownKeyword", a->kw_spans[0], "R.Tuple takes no keywords");
    if (a->nargs == 1 && a->args[0]->kind == PY_LIST) {
        const PyExpr *l = a->args[0];
        int n = l->u.seq.n;
        return sinfo_tuple(sinfo_list(ctx, (const PyExpr *const *)l->u.seq.items, n, mode), n,
                           a->e->span);
    }
    return sinfo_tuple(sinfo_list(ctx, a->args, a->nargs, mode), a->nargs, a->e->span);
}

/* callable -> R.Callable [ '(' params ',' S_ret [',' purity] ')' | '(' ret=S, purity=B ')' ] */
static StructInfo *callable(ScriptCtx *ctx, const Ann *a, SinfoMode mode)
{
    static const char *const names[] = {"params", "ret", "purity", "derive_func"};
    const PyExpr *s[4];
    bind(ctx, a, names, 4, s);
    StructInfo *ret = is_none(s[1]) ? sinfo_object(a->e->span) : script_sinfo(ctx, s[1], mode);
    bool has_params = !is_none(s[0]);
    bool purity = has_params;
    if (!is_none(s[2])) {
        if (s[2]->kind != PY_BOOL)
            script_fail(ctx, "BadAnnotation", s[2]->span, "purity must be True or False");
        purity = s[2]->u.bool_value;
    }
    if (!has_params) {
        const char *derive = NULL;
        if (!is_none(s[3])) {
            if (s[3]->kind != PY_STR)
                script_fail(ctx, "BadAnnotation", s[3]->span, "derive_func must be a string");
            derive = s[3]->u.str;
        }
        return sinfo_func_opaque(ret, purity, derive, a->e->span);
    }
    const PyExpr *p = s[0];
    bool seq = is_seq(p);
    int n = seq ? p->u.seq.n : 1;
    StructInfo **params =
        sinfo_list(ctx, seq ? (const PyExpr *const *)p->u.seq.items : &s[0], n, mode);
    return sinfo_func(params, n, ret, purity, a->e->span);
}

/* TS-3: `x.struct_info` (TVM's Python reads the StructInfo of x) is the annotation of x:
 * a parameter's, or a binding's written one; x without an annotation is BadAnnotation. */
static StructInfo *var_struct_info(ScriptCtx *ctx, const PyExpr *e)
{
    const PyExpr *x = e->u.attr.value;
    Sym *s = x->kind == PY_NAME ? script_lookup(ctx, x->u.name) : NULL;
    if (s == NULL || s->kind != SYM_VAR)
        script_fail(ctx, "BadAnnotation", e->span,
                    "`.struct_info` of something not a Relax variable");
    if (s->var->annotation == NULL)
        script_fail(ctx, "BadAnnotation", e->span,
                    "`%s.struct_info` needs `%s` to be annotated (a parameter or `%s: S = ...`)",
                    x->u.name, x->u.name, x->u.name);
    return s->var->annotation;
}

StructInfo *script_sinfo(ScriptCtx *ctx, const PyExpr *e, SinfoMode mode)
{
    rule_fired("TS-3");
    Ann a;
    if (e->kind == PY_ATTR && strcmp(e->u.attr.attr, "struct_info") == 0)
        return var_struct_info(ctx, e);
    if (!read_head(ctx, e, &a)) {
        script_reject_unsupported(ctx, e);
        script_fail(ctx, "BadAnnotation", e->span, "not a StructInfo annotation");
    }
    if (strcmp(a.kind, "Object") == 0) {
        if (e->kind == PY_CALL && (a.nargs > 0 || a.nkw > 0))
            script_fail(ctx, "AnnotationArity", e->span, "R.Object takes no arguments");
        return sinfo_object(e->span);
    }
    if (strcmp(a.kind, "Tensor") == 0)
        return tensor(ctx, &a, mode);
    if (strcmp(a.kind, "DTensor") == 0 || strcmp(a.kind, "dist.DTensor") == 0)
        return dtensor(ctx, &a, mode);
    if (strcmp(a.kind, "Shape") == 0)
        return shape(ctx, &a, mode);
    if (strcmp(a.kind, "Prim") == 0)
        return prim(ctx, &a, mode);
    if (strcmp(a.kind, "Tuple") == 0)
        return tuple(ctx, &a, mode);
    return callable(ctx, &a, mode);
}

/* ---- shape variables of a signature (TS-5.1) ---------------------------------------- */

static void define_dim(ScriptCtx *ctx, const PyExpr *e, bool typed)
{
    if (!e || e->kind != PY_STR || !script_is_identifier(e->u.str))
        return;
    FuncState *f = ctx->func;
    for (int i = 0; i < f->nsig; i++)
        if (strcmp(f->sig_vars[i]->name, e->u.str) == 0)
            return;
    Span span = e->span;
    span.col += 1;
    /* TS-4.2: a declaration up front types a PrimValue's variable; dims stay int64. */
    DataType t = dtype_int64();
    if (typed)
        script_prelude_dtype(ctx, e->u.str, &t);
    TirVar *v = tirvar_new(e->u.str, t, span);
    VEC_PUSH(f->sig_vars, f->nsig, f->capsig, v);
    script_bind_tirvar(ctx, v->name, v);
}

static void define_dims(ScriptCtx *ctx, const PyExpr *e)
{
    if (!is_seq(e))
        return;
    for (int i = 0; i < e->u.seq.n; i++)
        define_dim(ctx, e->u.seq.items[i], false);
}

static const PyExpr *arg_or_kw(const Ann *a, int pos, const char *kw)
{
    for (int k = 0; k < a->nkw; k++)
        if (strcmp(a->kw_names[k], kw) == 0)
            return a->kw_values[k];
    return pos < a->nargs ? a->args[pos] : NULL;
}

/* Every bare identifier string dim of a parameter annotation defines an int64 shape
 * variable before any annotation is translated, so compound dims may come first. */
void script_sinfo_collect(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-5.1");
    Ann a;
    if (!e || !read_head(ctx, e, &a))
        return;
    if (strcmp(a.kind, "Tensor") == 0 || strcmp(a.kind, "DTensor") == 0 ||
        strcmp(a.kind, "dist.DTensor") == 0) {
        bool dtype_first = a.nargs > 0 && a.args[0]->kind == PY_STR;
        define_dims(ctx, dtype_first ? NULL : arg_or_kw(&a, 0, "shape"));
    } else if (strcmp(a.kind, "Shape") == 0) {
        define_dims(ctx, arg_or_kw(&a, 0, "values"));
    } else if (strcmp(a.kind, "Prim") == 0) {
        define_dim(ctx, arg_or_kw(&a, 1, "value"), true);
    } else if (strcmp(a.kind, "Tuple") == 0) {
        for (int i = 0; i < a.nargs; i++) {
            if (a.args[i]->kind == PY_LIST)
                for (int j = 0; j < a.args[i]->u.seq.n; j++)
                    script_sinfo_collect(ctx, a.args[i]->u.seq.items[j]);
            else
                script_sinfo_collect(ctx, a.args[i]);
        }
    }
}
