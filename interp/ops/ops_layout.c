/* ops_layout: relax.layout_transform, a tensor re-indexed by a TIR index map, with padding.
 * SPEC_NOTES: "Operators" (OP-layout_transform), TS-6.2 (index maps). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"

/* Above this many input elements inference gives the rank only (the bounds of the index
 * map are found by visiting every input index). */
#define MAX_VISIT ((int64_t)1 << 22)

/* ---- the index map over concrete indices ------------------------------------------- */

/* One step of an index expression; false for a division by zero or an overflow. */
static bool eval_bin(PrimExprKind k, int64_t a, int64_t b, int64_t *out)
{
    bool over = false;
    bool by_zero = b == 0 && (k == PE_FLOORDIV || k == PE_FLOORMOD || k == PE_DIV || k == PE_MOD);
    if (by_zero)
        return false;
    switch (k) {
    case PE_ADD: *out = checked_add(a, b, &over); break;
    case PE_SUB: *out = checked_sub(a, b, &over); break;
    case PE_MUL: *out = checked_mul(a, b, &over); break;
    case PE_MIN: *out = a < b ? a : b; break;
    case PE_MAX: *out = a > b ? a : b; break;
    case PE_FLOORDIV: *out = checked_floordiv(a, b, &over); break;
    case PE_FLOORMOD:
        *out = checked_sub(a, checked_mul(checked_floordiv(a, b, &over), b, &over), &over);
        break;
    case PE_DIV: *out = b == -1 ? checked_neg(a, &over) : a / b; break;
    case PE_MOD: *out = b == -1 ? 0 : a % b; break;
    default: return false;
    }
    return !over;
}

/* An integer index expression at concrete parameter values; false when it is not one
 * (a float, a load, an intrinsic) or divides by zero. */
static bool eval_index(const PrimExpr *e, const AttrValue *m, const int64_t *at, int64_t *out)
{
    switch (e->kind) {
    case PE_INT:
        *out = e->u.int_value;
        return true;
    case PE_VAR:
        for (int i = 0; i < m->u.index_map.nparams; i++)
            if (m->u.index_map.params[i] == e->u.var) {
                *out = at[i];
                return true;
            }
        return false;
    case PE_CAST:
        return dtype_is_int(e->dtype) && eval_index(e->u.operand, m, at, out);
    default:
        break;
    }
    int64_t a, b;
    if (!primexpr_is_binary(e->kind) || primexpr_is_compare(e->kind))
        return false;
    return eval_index(e->u.bin.a, m, at, &a) && eval_index(e->u.bin.b, m, at, &b) &&
           eval_bin(e->kind, a, b, out);
}

static bool map_index(const AttrValue *m, const int64_t *at, int64_t *out)
{
    for (int j = 0; j < m->u.index_map.nresults; j++)
        if (!eval_index(m->u.index_map.results[j], m, at, &out[j]))
            return false;
    return true;
}

/* The next index of a row-major walk over `shape`; false after the last. */
static bool next_index(int64_t *at, const int64_t *shape, int ndim)
{
    for (int d = ndim - 1; d >= 0; d--) {
        if (++at[d] < shape[d])
            return true;
        at[d] = 0;
    }
    return false;
}

/* OP-layout_transform: the output shape is, per result of the map, max - min + 1 over every
 * input index (TVM's IndexMap::MapShape on constant shapes); `lo` receives the minima, which
 * TVM requires to be 0. False when the map cannot be evaluated or the input is empty. */
static bool map_shape(const AttrValue *m, const int64_t *shape, int ndim, int64_t *out,
                      int64_t *lo)
{
    int nr = m->u.index_map.nresults;
    int64_t *at = MEM_ARRAY(int64_t, ndim + 1);
    int64_t *r = MEM_ARRAY(int64_t, nr + 1);
    int64_t *hi = MEM_ARRAY(int64_t, nr + 1);
    for (int d = 0; d < ndim; d++)
        if (shape[d] <= 0)
            return false;
    bool first = true;
    do {
        if (!map_index(m, at, r))
            return false;
        for (int j = 0; j < nr; j++) {
            lo[j] = first || r[j] < lo[j] ? r[j] : lo[j];
            hi[j] = first || r[j] > hi[j] ? r[j] : hi[j];
        }
        first = false;
    } while (next_index(at, shape, ndim));
    bool over = false;
    for (int j = 0; j < nr; j++)
        out[j] = checked_add(checked_sub(hi[j], lo[j], &over), 1, &over);
    return !over;
}

/* ---- inference ------------------------------------------------------------------------ */

/* OP-layout_transform: a pad_value must have the input's dtype (a Python number was given
 * the input's dtype by the constructor; an integer input cannot take a float). */
static bool check_pad(OpInferCtx *ctx, const AttrValue *pad, DataType dtype)
{
    if (pad == NULL || dtype_is_void(dtype))
        return true;
    bool ok = true;
    if (pad->kind == ATTR_FLOAT)
        ok = dtype_is_float(dtype);
    else if (pad->kind == ATTR_EXPR)
        ok = dtype_equal(pad->u.expr->u.prim->dtype, dtype);
    if (!ok)
        ops_infer_fail(ctx, "OpDTypeMismatch", "pad_value and the input differ in dtype");
    return ok;
}

static StructInfo *infer_layout_transform(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    const AttrValue *m = ops_attr(ctx->call, "index_map");
    if (x == NULL)
        return ops_infer_object(ctx);
    if (m == NULL || m->kind != ATTR_INDEX_MAP) {
        ops_infer_fail(ctx, "OpAttr", "index_map must be an index map");
        return ops_infer_object(ctx);
    }
    if (!check_pad(ctx, ops_attr(ctx->call, "pad_value"), x->u.tensor.dtype))
        return ops_infer_object(ctx);
    OpShape in = ops_shape_of(x);
    int nr = m->u.index_map.nresults;
    OpShape out = {NULL, nr};
    if (in.ndim >= 0 && in.ndim != m->u.index_map.nparams) {
        ops_infer_fail(ctx, "OpShapeMismatch", "the input has %d dims, the index map takes %d",
                       in.ndim, m->u.index_map.nparams);
        return ops_infer_object(ctx);
    }
    int64_t *shape = MEM_ARRAY(int64_t, in.ndim + 1);
    int64_t numel = 1;
    bool known = in.dims != NULL, over = false;
    for (int d = 0; known && d < in.ndim; d++) {
        known = in.dims[d]->kind == PE_INT;
        shape[d] = known ? in.dims[d]->u.int_value : 0;
        numel = checked_mul(numel, known && shape[d] > 0 ? shape[d] : 1, &over);
    }
    known = known && !over; /* more than MAX_VISIT: the rank only */
    int64_t *dims = MEM_ARRAY(int64_t, nr + 1);
    int64_t *lo = MEM_ARRAY(int64_t, nr + 1);
    if (known && numel <= MAX_VISIT && map_shape(m, shape, in.ndim, dims, lo))
        out.dims = ops_const_dims(dims, nr, ctx->call->span);
    for (int j = 0; out.dims != NULL && j < nr; j++)
        if (lo[j] != 0) {
            ops_infer_fail(ctx, "OpAttr", "result %d of the index map starts at %lld, not 0", j,
                           (long long)lo[j]);
            return ops_infer_object(ctx);
        }
    return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

/* ---- kernel ----------------------------------------------------------------------------- */

static void fill_pad(Tensor *t, const AttrValue *pad)
{
    bool is_float = dtype_is_float(t->dtype);
    double f = 0;
    int64_t i = 0;
    if (pad != NULL && pad->kind == ATTR_INT) {
        i = pad->u.i;
        f = (double)pad->u.i;
    } else if (pad != NULL && pad->kind == ATTR_FLOAT) {
        f = pad->u.f;
    } else if (pad != NULL && pad->kind == ATTR_EXPR) {
        const PrimExpr *v = pad->u.expr->u.prim;
        i = v->kind == PE_INT ? v->u.int_value : 0;
        f = v->kind == PE_FLOAT ? v->u.float_value : (double)i;
    }
    for (int64_t k = 0; k < t->numel; k++) {
        if (is_float)
            tensor_set_f64(t, k, f);
        else
            tensor_set_i64(t, k, i);
    }
}

static int64_t flat(const int64_t *idx, const int64_t *shape, int ndim)
{
    int64_t k = 0;
    for (int d = 0; d < ndim; d++)
        k = k * shape[d] + idx[d];
    return k;
}

/* OP-layout_transform: out[map(i)] = x[i] for every input index i; every other output
 * element is pad_value (0 when None, as TVM's legalization fills it). */
static Value *kernel_layout_transform(Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const AttrValue *m = ops_attr(call, "index_map");
    int nr = m->u.index_map.nresults;
    int64_t *shape = MEM_ARRAY(int64_t, nr + 1);
    int64_t *lo = MEM_ARRAY(int64_t, nr + 1);
    bool ok = x->ndim == m->u.index_map.nparams && map_shape(m, x->shape, x->ndim, shape, lo);
    for (int j = 0; ok && j < nr; j++)
        ok = lo[j] == 0;
    if (!ok)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "relax.layout_transform: the index map does not apply to this input");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, nr, shape);
    fill_pad(out, ops_attr(call, "pad_value"));
    size_t bytes = (size_t)dtype_bytes(x->dtype);
    int64_t *at = MEM_ARRAY(int64_t, x->ndim + 1);
    int64_t *r = MEM_ARRAY(int64_t, nr + 1);
    do {
        map_index(m, at, r);
        memcpy((char *)out->data + (size_t)flat(r, shape, nr) * bytes,
               (const char *)x->data + (size_t)flat(at, x->shape, x->ndim) * bytes, bytes);
    } while (next_index(at, x->shape, x->ndim));
    return value_tensor(out);
}

static const OpImpl LAYOUT_IMPLS[] = {
    {"relax.layout_transform", true, infer_layout_transform, kernel_layout_transform, "all"},
};

const OpImpl *ops_layout(int *n)
{
    *n = (int)(sizeof(LAYOUT_IMPLS) / sizeof(LAYOUT_IMPLS[0]));
    return LAYOUT_IMPLS;
}
