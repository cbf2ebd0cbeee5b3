/* script_const: R.const(value, dtype) and Python literals bound to variables, read into
 * dense constant data. SPEC_NOTES: TS-6 (constants), "float16 and bfloat16". */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/scalar.h"
#include "ast/script/script_internal.h"

typedef struct ConstReader {
    ScriptCtx *ctx;
    int64_t shape[32];
    int ndim;
    ScriptNum *items;
    const PyExpr **item_exprs;
    int n;
    int cap;
    int nexprs;
    int capexprs;
} ConstReader;

static bool is_seq(const PyExpr *e)
{
    return e->kind == PY_LIST || e->kind == PY_TUPLE;
}

/* The shape is read from the first element at every depth; read_items checks the rest. */
static void read_shape(ConstReader *r, const PyExpr *e)
{
    while (is_seq(e)) {
        if (r->ndim == 32)
            script_fail(r->ctx, "BadConst", e->span, "constant nested too deeply");
        r->shape[r->ndim++] = e->u.seq.n;
        if (e->u.seq.n == 0)
            return;
        e = e->u.seq.items[0];
    }
}

static void read_items(ConstReader *r, const PyExpr *e, int depth)
{
    if (depth == r->ndim) {
        ScriptNum num;
        if (is_seq(e))
            script_fail(r->ctx, "BadConst", e->span, "ragged nested list in a constant");
        if (!script_number(r->ctx, e, &num))
            script_fail(r->ctx, "BadConst", e->span, "a constant element must be a number");
        VEC_PUSH(r->items, r->n, r->cap, num);
        VEC_PUSH(r->item_exprs, r->nexprs, r->capexprs, e);
        return;
    }
    if (!is_seq(e) || e->u.seq.n != r->shape[depth])
        script_fail(r->ctx, "BadConst", e->span, "ragged nested list in a constant");
    for (int i = 0; i < e->u.seq.n; i++)
        read_items(r, e->u.seq.items[i], depth + 1);
}

/* Default dtype as TVM's R.const picks it: any float -> float32, all bools -> bool,
 * otherwise int32. */
static DataType default_dtype(const ConstReader *r)
{
    bool all_bool = r->n > 0;
    for (int64_t i = 0; i < r->n; i++) {
        if (r->items[i].kind == NUM_FLOAT)
            return dtype_float32();
        if (r->items[i].kind != NUM_BOOL)
            all_bool = false;
    }
    return all_bool ? dtype_bool() : (r->n > 0 ? dtype_int32() : dtype_float32());
}

static bool int_in_range(int64_t v, DataType t)
{
    if (dtype_is_bool(t))
        return v == 0 || v == 1;
    if (dtype_is_uint(t))
        return v >= 0 && (t.bits >= 64 || v < ((int64_t)1 << t.bits));
    if (t.bits >= 64)
        return true;
    int64_t half = (int64_t)1 << (t.bits - 1);
    return v >= -half && v < half;
}

static void store_int(void *data, int64_t i, DataType t, int64_t v)
{
    switch (dtype_bytes(t)) {
    case 1:
        ((int8_t *)data)[i] = (int8_t)v;
        break;
    case 2:
        ((int16_t *)data)[i] = (int16_t)v;
        break;
    case 4:
        ((int32_t *)data)[i] = (int32_t)v;
        break;
    default:
        ((int64_t *)data)[i] = v;
        break;
    }
}

static void store_float(void *data, int64_t i, DataType t, double v)
{
    if (t.code == DT_BFLOAT)
        ((uint16_t *)data)[i] = scalar_float_to_bfloat((float)v);
    else if (t.bits == 16)
        ((uint16_t *)data)[i] = scalar_double_to_half(v);
    else if (t.bits == 32)
        ((float *)data)[i] = (float)v;
    else
        ((double *)data)[i] = v;
}

static bool storable(DataType t)
{
    if (t.lanes != 1)
        return false;
    if (t.code == DT_INT || t.code == DT_UINT)
        return t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    if (t.code == DT_FLOAT)
        return t.bits == 16 || t.bits == 32 || t.bits == 64;
    return t.code == DT_BFLOAT && t.bits == 16;
}

static void store_item(ConstReader *r, void *data, int64_t i, DataType t)
{
    ScriptNum num = r->items[i];
    Span span = r->item_exprs[i]->span;
    if (dtype_is_float(t)) {
        store_float(data, i, t, num.kind == NUM_FLOAT ? num.f : (double)num.i);
        return;
    }
    if (num.kind == NUM_FLOAT)
        script_fail(r->ctx, "BadConst", span, "a float value for the integer dtype %s",
                    dtype_str(t));
    if (!int_in_range(num.i, t))
        script_fail(r->ctx, "BadConst", span, "%lld does not fit the dtype %s", (long long)num.i,
                    dtype_str(t));
    store_int(data, i, t, num.i);
}

static Expr *build(ConstReader *r, DataType t, Span span)
{
    if (!storable(t))
        script_fail(r->ctx, "BadConst", span, "a constant cannot have the dtype %s", dtype_str(t));
    ConstData *c = MEM_NEW(ConstData);
    c->dtype = t;
    c->ndim = r->ndim;
    c->shape = MEM_ARRAY(int64_t, r->ndim ? r->ndim : 1);
    memcpy(c->shape, r->shape, sizeof(int64_t) * (size_t)r->ndim);
    c->numel = r->n;
    c->data = mem_alloc_atomic(dtype_bytes(t) * (size_t)(r->n ? r->n : 1));
    for (int64_t i = 0; i < r->n; i++)
        store_item(r, c->data, i, t);
    Expr *e = expr_new(EXPR_CONSTANT, span);
    e->u.constant = c;
    return e;
}

static Expr *read_const(ScriptCtx *ctx, const PyExpr *value, const PyExpr *dtype, Span span)
{
    ConstReader r = {.ctx = ctx};
    read_shape(&r, value);
    read_items(&r, value, 0);
    DataType t = default_dtype(&r);
    if (dtype && dtype->kind != PY_NONE) {
        if (dtype->kind != PY_STR || !dtype_parse(dtype->u.str, &t))
            script_fail(ctx, "BadDType", dtype->span, "not a data type");
        if (dtype_is_void(t))
            script_fail(ctx, "BadConst", dtype->span, "a constant needs a known dtype");
    }
    return build(&r, t, span);
}

/* const -> 'R.const' '(' value [',' dtype] ')' */
Expr *script_const(ScriptCtx *ctx, const PyExpr *call)
{
    const PyExpr *value = NULL;
    const PyExpr *dtype = NULL;
    if (call->u.call.nargs > 2)
        script_fail(ctx, "BadArguments", call->span, "R.const takes a value and a dtype");
    if (call->u.call.nargs > 0)
        value = call->u.call.args[0];
    if (call->u.call.nargs > 1)
        dtype = call->u.call.args[1];
    for (int i = 0; i < call->u.call.nkw; i++) {
        const char *k = call->u.call.kw_names[i];
        const PyExpr **slot = strcmp(k, "value") == 0   ? &value
                              : strcmp(k, "dtype") == 0 ? &dtype
                                                        : NULL;
        if (!slot)
            script_fail(ctx, "UnknownKeyword", call->u.call.kw_spans[i],
                        "R.const takes no keyword `%s`", k);
        if (*slot)
            script_fail(ctx, "BadArguments", call->u.call.kw_spans[i], "`%s` given twice", k);
        *slot = call->u.call.kw_values[i];
    }
    if (!value)
        script_fail(ctx, "BadConst", call->span, "R.const needs a value");
    return read_const(ctx, value, dtype, call->span);
}

Expr *script_const_of(ScriptCtx *ctx, const PyExpr *value, const PyExpr *dtype, Span span)
{
    return read_const(ctx, value, dtype, span);
}

Expr *script_literal_const(ScriptCtx *ctx, const PyExpr *e)
{
    return read_const(ctx, e, NULL, e->span);
}
