/* legacy_sinfo: legacy annotations to today's StructInfo annotations: DynTensorType with
 * a shape_ of ShapeExpr, RuntimeDepShape (`_`) or omitted, to R.Tensor (LEG-2); the legacy
 * Tuple; shape dims in signatures and bodies (LEG-3). SPEC_NOTES: "Legacy syntax". */
#include <string.h>

#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/rule.h"

static bool is_underscore(const PyExpr *e)
{
    return e != NULL && e->kind == PY_NAME && strcmp(e->u.name, "_") == 0;
}

static bool is_unknown(const PyExpr *e)
{
    return e == NULL || is_underscore(e) || e->kind == PY_NONE;
}

static void collect_names(LegacyCtx *ctx, const PyExpr *e)
{
    if (e->kind == PY_NAME) {
        legacy_add_shape_var(ctx, e->u.name);
    } else if (e->kind == PY_BINOP) {
        collect_names(ctx, e->u.binop.left);
        collect_names(ctx, e->u.binop.right);
    } else if (e->kind == PY_UNARYOP) {
        collect_names(ctx, e->u.unary.operand);
    }
}

/* LEG-3: a dim is an integer or an arithmetic expression over shape variables. In a
 * signature it becomes the string today's syntax writes there ("n * m"); in a body it stays
 * an expression over shape variables the function declares (n = T.int64()). */
PyExpr *legacy_dims(LegacyCtx *ctx, PyExpr *dims, LegacyAnnMode mode)
{
    rule_fired("LEG-3");
    if (dims->kind != PY_TUPLE && dims->kind != PY_LIST)
        legacy_fail(ctx, "LegacyShape", "LEG-3", dims->span,
                    "a legacy shape is a tuple of dims, such as (n, 4) or (n,)");
    int n = dims->u.seq.n;
    PyExpr **items = MEM_ARRAY(PyExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        PyExpr *d = dims->u.seq.items[i];
        items[i] = d;
        if (d->kind == PY_INT || d->kind == PY_STR)
            continue;
        const char *text = lpy_unparse_dim(d);
        if (text == NULL)
            legacy_fail(ctx, "LegacyShape", "LEG-3", d->span,
                        "a dim is an integer or +, -, *, //, %% of shape variables");
        if (mode == LANN_SIGNATURE)
            items[i] = lpy_str(text, d->span);
        else
            collect_names(ctx, d);
    }
    PyExpr *t = lpy_seq(PY_TUPLE, items, n, dims->span);
    t->parenthesized = true;
    return t;
}

/* R.Tensor(shape, dtype) from the legacy parts; `_` (RuntimeDepShape) or an omitted shape
 * gives no shape, so ndim is unknown unless a keyword says it; `_` dtype is Void. */
static PyExpr *tensor(LegacyCtx *ctx, PyExpr *shape, PyExpr *dtype, LegacyAnnMode mode, Span span)
{
    rule_fired("LEG-2");
    PyExpr *call = lpy_call(lpy_dotted("R", "Tensor", span), NULL, 0, span);
    if (!is_unknown(shape)) {
        if (shape->kind == PY_NAME && mode == LANN_BODY)
            lpy_add_arg(call, shape); /* a Relax variable holding the shape */
        else
            lpy_add_arg(call, legacy_dims(ctx, shape, mode));
    }
    if (!is_unknown(dtype)) {
        if (dtype->kind != PY_STR)
            legacy_fail(ctx, "LegacyTensorType", "LEG-2", dtype->span,
                        "a legacy tensor dtype is a string or _");
        lpy_add_kw(call, "dtype", dtype);
    }
    return call;
}

/* R.Tensor[(n, m), "float32"], R.Tensor[_, _], R.Tensor[(n, m)]: the index is (shape,
 * dtype) when its last item is a string or `_`, else the shape alone. */
static PyExpr *tensor_subscript(LegacyCtx *ctx, const PyExpr *e, LegacyAnnMode mode)
{
    PyExpr *index = e->u.subscript.index;
    if (index->kind == PY_TUPLE && !index->parenthesized && index->u.seq.n == 2) {
        PyExpr *first = index->u.seq.items[0];
        PyExpr *last = index->u.seq.items[1];
        if (last->kind == PY_STR || is_underscore(last) || is_underscore(first) ||
            first->kind == PY_TUPLE)
            return tensor(ctx, first, last, mode, e->span);
    }
    return tensor(ctx, index, NULL, mode, e->span);
}

static PyExpr *tuple_of(LegacyCtx *ctx, PyExpr **items, int n, LegacyAnnMode mode, Span span)
{
    rule_fired("LEG-14");
    PyExpr *call = lpy_call(lpy_dotted("R", "Tuple", span), NULL, 0, span);
    for (int i = 0; i < n; i++)
        lpy_add_arg(call, legacy_annotation(ctx, items[i], mode));
    return call;
}

static PyExpr *tensor_call(LegacyCtx *ctx, PyExpr *e, LegacyAnnMode mode)
{
    int n = e->u.call.nargs;
    /* Today's forms inside a legacy program: dtype first, or no positional argument. */
    if (n == 0 || e->u.call.args[0]->kind == PY_STR) {
        e->u.call.func = lpy_dotted("R", "Tensor", e->u.call.func->span);
        return e;
    }
    if (n > 2)
        legacy_fail(ctx, "LegacyTensorType", "LEG-2", e->span,
                    "a legacy tensor annotation is Tensor(shape, dtype)");
    PyExpr *call = tensor(ctx, n > 0 ? e->u.call.args[0] : NULL, n > 1 ? e->u.call.args[1] : NULL,
                          mode, e->span);
    for (int i = 0; i < e->u.call.nkw; i++)
        lpy_add_kw(call, e->u.call.kw_names[i], e->u.call.kw_values[i]);
    return call;
}

PyExpr *legacy_annotation(LegacyCtx *ctx, PyExpr *ann, LegacyAnnMode mode)
{
    if (ann == NULL)
        return NULL;
    if (ann->kind == PY_NAME && strcmp(ann->u.name, "Tensor") == 0)
        rule_fired("LEG-2");
    if (ann->kind == PY_NAME && strcmp(ann->u.name, "Tensor") == 0)
        return lpy_dotted("R", "Tensor", ann->span);
    if (ann->kind == PY_NAME && strcmp(ann->u.name, "Tuple") == 0)
        return lpy_dotted("R", "Tuple", ann->span);
    if (ann->kind == PY_SUBSCRIPT) {
        PyExpr *head = ann->u.subscript.value;
        if (legacy_is(head, "R.Tensor") || legacy_is(head, "Tensor"))
            return tensor_subscript(ctx, ann, mode);
        if (legacy_is(head, "R.Tuple") || legacy_is(head, "Tuple")) {
            PyExpr *index = ann->u.subscript.index;
            if (index->kind == PY_TUPLE && !index->parenthesized)
                return tuple_of(ctx, index->u.seq.items, index->u.seq.n, mode, ann->span);
            return tuple_of(ctx, &ann->u.subscript.index, 1, mode, ann->span);
        }
        return ann;
    }
    if (ann->kind != PY_CALL)
        return ann;
    PyExpr *head = ann->u.call.func;
    if (legacy_is(head, "R.Tensor") || legacy_is(head, "Tensor"))
        return tensor_call(ctx, ann, mode);
    if (legacy_is(head, "R.Tuple") || legacy_is(head, "Tuple"))
        return tuple_of(ctx, ann->u.call.args, ann->u.call.nargs, mode, ann->span);
    return ann;
}

static const char *dtype_of_tensor_call(const PyExpr *call)
{
    const PyExpr *kw = lpy_kw(call, "dtype");
    if (kw != NULL && kw->kind == PY_STR)
        return kw->u.str;
    for (int i = 0; i < call->u.call.nargs; i++)
        if (call->u.call.args[i]->kind == PY_STR)
            return call->u.call.args[i]->u.str;
    return NULL;
}

LegacyKind legacy_kind_of_annotation(const PyExpr *ann, const char **dtype)
{
    *dtype = NULL;
    if (ann == NULL)
        return LKIND_UNKNOWN;
    const PyExpr *head = ann->kind == PY_CALL ? ann->u.call.func : ann;
    if (legacy_is(head, "R.Tensor")) {
        if (ann->kind == PY_CALL)
            *dtype = dtype_of_tensor_call(ann);
        return LKIND_TENSOR;
    }
    if (legacy_is(head, "R.Shape"))
        return LKIND_SHAPE;
    return LKIND_OTHER;
}
