/* legacy_call: legacy calls and bindings to today's: R.match_shape to R.match_cast (LEG-5),
 * the positional call_tir/call_dps_packed to out_sinfo (LEG-6), call_packed's result type
 * (LEG-7), R.outputs and the renamed or removed operators (LEG-8, LEG-9), a shape literal
 * bound to R.Shape (LEG-4). SPEC_NOTES: "Legacy syntax". */
#include <string.h>

#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/rule.h"

/* LEG-9: legacy operator names and today's. */
static const struct {
    const char *legacy;
    const char *today; /* NULL: no equivalent */
} RENAMED_OPS[] = {
    {"R.dot", "matmul"},
    {"R.outputs", "output"},
    {"R.read_tensor_from_file", NULL},
};

static PyExpr *renamed(LegacyCtx *ctx, PyExpr *call, const char *d)
{
    rule_fired("LEG-9");
    for (size_t i = 0; i < sizeof RENAMED_OPS / sizeof RENAMED_OPS[0]; i++) {
        if (strcmp(d, RENAMED_OPS[i].legacy) != 0)
            continue;
        if (strcmp(d, "R.outputs") == 0)
            rule_fired("LEG-8");
        if (RENAMED_OPS[i].today == NULL)
            legacy_fail(ctx, "LegacyUnsupported", "LEG-9", call->span,
                        "%s is a legacy operator with no equivalent today", d);
        call->u.call.func = lpy_dotted("R", RENAMED_OPS[i].today, call->u.call.func->span);
        return call;
    }
    return NULL;
}

static bool is_dims(const PyExpr *e)
{
    return e->kind == PY_TUPLE || e->kind == PY_LIST;
}

/* The inputs of call_tir: a tuple, a list, or one variable (the seed's `(gv1)`). */
static PyExpr *inputs(LegacyCtx *ctx, PyExpr *e)
{
    if (e->kind == PY_TUPLE)
        return legacy_expr(ctx, e);
    if (e->kind == PY_LIST)
        return legacy_expr(ctx, lpy_seq(PY_TUPLE, e->u.seq.items, e->u.seq.n, e->span));
    PyExpr *one = legacy_expr(ctx, e);
    return lpy_seq(PY_TUPLE, &one, 1, e->span);
}

/* One output: a tuple of dims, or a variable bound to a shape (its literal dims when the
 * function bound it to one, LEG-4). */
static PyExpr *out_tensor(LegacyCtx *ctx, PyExpr *shape, PyExpr *dtype, Span span)
{
    if (dtype == NULL || dtype->kind != PY_STR)
        legacy_fail(ctx, "LegacyCallTir", "LEG-6", span,
                    "the legacy call_tir needs its output dtype as a string (dtype=\"float32\")");
    PyExpr *call = lpy_call(lpy_dotted("R", "Tensor", span), NULL, 0, span);
    if (shape->kind == PY_NAME) {
        LegacyVar *v = legacy_var(ctx, shape->u.name);
        if (v == NULL || v->kind != LKIND_SHAPE)
            legacy_fail(ctx, "LegacyCallTir", "LEG-6", shape->span,
                        "the output shape `%s` is not a shape variable", shape->u.name);
        lpy_add_arg(call, v->dims != NULL ? v->dims : shape);
    } else if (is_dims(shape)) {
        lpy_add_arg(call, legacy_dims(ctx, shape, LANN_BODY));
    } else {
        legacy_fail(ctx, "LegacyCallTir", "LEG-6", shape->span,
                    "the output shape is a tuple of dims or a shape variable");
    }
    lpy_add_arg(call, dtype);
    return call;
}

/* A tuple of shapes with a tuple of dtypes gives several outputs, as a list of R.Tensor. */
static PyExpr *out_sinfo(LegacyCtx *ctx, PyExpr *shape, PyExpr *dtype, Span span)
{
    bool several = is_dims(shape) && shape->u.seq.n > 0 && is_dims(shape->u.seq.items[0]);
    if (!several)
        return out_tensor(ctx, shape, dtype, span);
    if (dtype == NULL || !is_dims(dtype) || dtype->u.seq.n != shape->u.seq.n)
        legacy_fail(ctx, "LegacyCallTir", "LEG-6", span,
                    "several output shapes need as many dtypes");
    int n = shape->u.seq.n;
    PyExpr **items = MEM_ARRAY(PyExpr *, n);
    for (int i = 0; i < n; i++)
        items[i] = out_tensor(ctx, shape->u.seq.items[i], dtype->u.seq.items[i], span);
    return lpy_seq(PY_LIST, items, n, span);
}

/* LEG-6: call_tir(func, args, shape, dtype=d) is call_tir(func, args, out_sinfo=R.Tensor(shape,
 * d)); a func given as a string names a packed function: call_dps_packed. */
static PyExpr *dps_call(LegacyCtx *ctx, PyExpr *e, const char *d)
{
    rule_fired("LEG-6");
    PyExpr *shape = e->u.call.nargs > 2 ? e->u.call.args[2] : lpy_kw(e, "output_shape");
    PyExpr *dtype = e->u.call.nargs > 3 ? e->u.call.args[3] : lpy_kw(e, "dtype");
    if (dtype == NULL)
        dtype = lpy_kw(e, "output_dtype");
    if (e->u.call.nargs < 2 || shape == NULL)
        legacy_fail(ctx, "LegacyCallTir", "LEG-6", e->span,
                    "the legacy %s is (func, args, shape, dtype=...)", d);
    PyExpr *func = e->u.call.args[0];
    bool packed = strcmp(d, "R.call_dps_packed") == 0 || func->kind == PY_STR;
    if (func->kind == PY_NAME)
        func = legacy_global_ref(ctx, func);
    PyExpr *args[2] = {func, inputs(ctx, e->u.call.args[1])};
    PyExpr *call = lpy_call(lpy_dotted("R", packed ? "call_dps_packed" : "call_tir", e->span), args,
                            2, e->span);
    lpy_add_kw(call, "out_sinfo", out_sinfo(ctx, shape, dtype, e->span));
    return call;
}

/* LEG-7: the legacy call_packed's result type is its type_args, else the binding's
 * annotation, else Object; a call_packed is impure (LEG-12). */
static PyExpr *packed_call(LegacyCtx *ctx, PyExpr *e, PyExpr *ann)
{
    rule_fired("LEG-7");
    ctx->impure = true;
    PyExpr *type_args = lpy_kw(e, "type_args");
    if (type_args != NULL) {
        lpy_drop_kw(e, "type_args");
        lpy_add_kw(e, "sinfo_args", legacy_annotation(ctx, type_args, LANN_BODY));
    } else if (lpy_kw(e, "sinfo_args") == NULL) {
        lpy_add_kw(e, "sinfo_args", ann != NULL ? ann : lpy_dotted("R", "Object", e->span));
    }
    for (int i = 1; i < e->u.call.nargs; i++)
        e->u.call.args[i] = legacy_expr(ctx, e->u.call.args[i]);
    return e;
}

static void rewrite_children(LegacyCtx *ctx, PyExpr *e)
{
    switch (e->kind) {
    case PY_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            e->u.call.args[i] = legacy_expr(ctx, e->u.call.args[i]);
        for (int i = 0; i < e->u.call.nkw; i++)
            e->u.call.kw_values[i] = legacy_expr(ctx, e->u.call.kw_values[i]);
        break;
    case PY_TUPLE:
    case PY_LIST:
        for (int i = 0; i < e->u.seq.n; i++)
            e->u.seq.items[i] = legacy_expr(ctx, e->u.seq.items[i]);
        break;
    case PY_SUBSCRIPT:
        e->u.subscript.value = legacy_expr(ctx, e->u.subscript.value);
        break;
    case PY_NAME:
    case PY_ATTR:
    case PY_SLICE:
    case PY_DICT:
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_BOOL:
    case PY_NONE:
    case PY_BINOP:
    case PY_UNARYOP:
    case PY_BOOLOP:
    case PY_COMPARE:
    case PY_IFEXP:
    case PY_STARRED:
    case PY_LAMBDA:
        break;
    }
}

static PyExpr *call_expr(LegacyCtx *ctx, PyExpr *e, PyExpr *ann)
{
    const char *d = legacy_dotted(e->u.call.func);
    if (e->u.call.func->kind == PY_NAME && legacy_is_global(ctx, e->u.call.func->u.name))
        e->u.call.func = legacy_global_ref(ctx, e->u.call.func);
    if (d == NULL) {
        rewrite_children(ctx, e);
        return e;
    }
    if (strcmp(d, "R.match_shape") == 0)
        legacy_fail(ctx, "LegacyMatchShape", "LEG-5", e->span,
                    "R.match_shape is a binding: `v = R.match_shape(value, pattern)`");
    if (strcmp(d, "R.call_tir") == 0 || strcmp(d, "R.call_dps_packed") == 0)
        return legacy_form_of_expr(e) != NULL ? dps_call(ctx, e, d) : (rewrite_children(ctx, e), e);
    if (strcmp(d, "R.call_packed") == 0)
        return packed_call(ctx, e, ann);
    if (strcmp(d, "R.print") == 0)
        ctx->impure = true;
    PyExpr *r = renamed(ctx, e, d);
    rewrite_children(ctx, r != NULL ? r : e);
    return e;
}

PyExpr *legacy_expr(LegacyCtx *ctx, PyExpr *e)
{
    if (e->kind == PY_CALL)
        return call_expr(ctx, e, NULL);
    rewrite_children(ctx, e);
    return e;
}

/* LEG-5: match_shape(value, pattern) is match_cast(value, R.Tensor(pattern, dtype)) when the
 * value is a tensor (its dtype kept), match_cast(value, R.Shape(pattern)) when a shape; the
 * legacy type of the value decides, here its annotation or the form that bound it. */
static PyExpr *match_shape(LegacyCtx *ctx, PyExpr *e, PyExpr *ann)
{
    rule_fired("LEG-5");
    if (e->u.call.nargs != 2 || e->u.call.nkw != 0)
        legacy_fail(ctx, "LegacyMatchShape", "LEG-5", e->span,
                    "R.match_shape takes (value, pattern)");
    PyExpr *value = legacy_expr(ctx, e->u.call.args[0]);
    const char *dtype = NULL;
    LegacyKind kind = legacy_kind_of_rhs(ctx, value, &dtype);
    const char *ann_dtype = NULL;
    if (kind == LKIND_UNKNOWN)
        kind = legacy_kind_of_annotation(ann, &ann_dtype);
    if (dtype == NULL)
        legacy_kind_of_annotation(ann, &dtype);
    if (kind != LKIND_TENSOR && kind != LKIND_SHAPE)
        legacy_fail(ctx, "LegacyMatchShape", "LEG-5", value->span,
                    "match_shape needs a tensor or a shape; the kind of this value is not "
                    "known: annotate it R.Tensor[...] or R.Shape");
    PyExpr *dims = legacy_dims(ctx, e->u.call.args[1], LANN_BODY);
    Span sp = e->span;
    PyExpr *sinfo;
    if (kind == LKIND_TENSOR) {
        sinfo = lpy_call(lpy_dotted("R", "Tensor", sp), &dims, 1, sp);
        if (dtype != NULL)
            lpy_add_arg(sinfo, lpy_str(dtype, sp));
    } else {
        PyExpr *list = lpy_seq(PY_LIST, dims->u.seq.items, dims->u.seq.n, sp);
        sinfo = lpy_call(lpy_dotted("R", "Shape", sp), &list, 1, sp);
    }
    PyExpr *args[2] = {value, sinfo};
    return lpy_call(lpy_dotted("R", "match_cast", sp), args, 2, sp);
}

PyExpr *legacy_rhs(LegacyCtx *ctx, PyExpr *value, PyExpr *ann)
{
    const char *dtype;
    /* LEG-4: a tuple of dims bound to an R.Shape is a shape literal. */
    if (value->kind == PY_TUPLE && legacy_kind_of_annotation(ann, &dtype) == LKIND_SHAPE) {
        rule_fired("LEG-4");
        PyExpr *dims = legacy_dims(ctx, value, LANN_BODY);
        PyExpr *list = lpy_seq(PY_LIST, dims->u.seq.items, dims->u.seq.n, value->span);
        return lpy_call(lpy_dotted("R", "shape", value->span), &list, 1, value->span);
    }
    if (value->kind == PY_CALL && legacy_is(value->u.call.func, "R.match_shape"))
        return match_shape(ctx, value, ann);
    if (value->kind == PY_CALL)
        return call_expr(ctx, value, ann);
    return legacy_expr(ctx, value);
}

static const char *dtype_kw(const PyExpr *call, int nth)
{
    const PyExpr *d = call->u.call.nargs > nth ? call->u.call.args[nth] : lpy_kw(call, "dtype");
    return d != NULL && d->kind == PY_STR ? d->u.str : NULL;
}

LegacyKind legacy_kind_of_rhs(LegacyCtx *ctx, const PyExpr *value, const char **dtype)
{
    *dtype = NULL;
    if (value->kind == PY_NAME) {
        LegacyVar *v = legacy_var(ctx, value->u.name);
        if (v == NULL)
            return LKIND_UNKNOWN;
        *dtype = v->dtype;
        return v->kind;
    }
    if (value->kind == PY_TUPLE)
        return LKIND_OTHER;
    if (value->kind != PY_CALL)
        return LKIND_UNKNOWN;
    const char *d = legacy_dotted(value->u.call.func);
    if (d == NULL || strncmp(d, "R.", 2) != 0)
        return LKIND_UNKNOWN;
    if (strcmp(d, "R.shape") == 0 || strcmp(d, "R.shape_of") == 0)
        return LKIND_SHAPE;
    if (strcmp(d, "R.call_packed") == 0 || strcmp(d, "R.call_pure_packed") == 0) {
        const PyExpr *s = lpy_kw(value, "sinfo_args");
        return s != NULL ? legacy_kind_of_annotation(s, dtype) : LKIND_UNKNOWN;
    }
    if (strcmp(d, "R.call_tir") == 0 || strcmp(d, "R.call_dps_packed") == 0) {
        const PyExpr *s = lpy_kw(value, "out_sinfo");
        return s != NULL ? legacy_kind_of_annotation(s, dtype) : LKIND_UNKNOWN;
    }
    if (strcmp(d, "R.match_cast") == 0 && value->u.call.nargs == 2)
        return legacy_kind_of_annotation(value->u.call.args[1], dtype);
    if (strcmp(d, "R.const") == 0) {
        *dtype = dtype_kw(value, 1);
        return LKIND_TENSOR;
    }
    /* Every other operator of the seed programs returns a tensor. */
    return LKIND_TENSOR;
}
