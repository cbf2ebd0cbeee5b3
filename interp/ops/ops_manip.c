/* ops_manip: the family table of creation, manipulation, linear algebra and statistical
 * operators, their shared helpers, and the reshaping operators. SPEC_NOTES: "Operators". */
#include "interp/ops/ops_manip_internal.h"

#include <string.h>

#include "ast/arith/simplify.h"
#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- shared helpers ---------------------------------------------------------------------- */

PrimExpr *manip_dim_int(int64_t v)
{
    return primexpr_int(v, dtype_int64(), span_none());
}

/* a kind b, folded when both are constants; NULL when either is NULL or the folded constant
 * overflows int64 (the caller's OpShapeOverflow, through ops_dims_fit). */
static PrimExpr *fold(PrimExprKind kind, PrimExpr *a, PrimExpr *b)
{
    int64_t x, y, r = 0;
    bool over = false;
    if (a == NULL || b == NULL)
        return NULL;
    if (prover_const_int(a, &x) && prover_const_int(b, &y) && (kind != PE_FLOORDIV || y != 0)) {
        if (kind == PE_ADD)
            r = checked_add(x, y, &over);
        else if (kind == PE_SUB)
            r = checked_sub(x, y, &over);
        else if (kind == PE_MUL)
            r = checked_mul(x, y, &over);
        else
            r = checked_floordiv(x, y, &over);
        return over ? NULL : manip_dim_int(r);
    }
    /* ARITH-1: an inferred dimension is written as TVM's analyzer writes it. */
    return arith_simplify(primexpr_binary(kind, a, b, span_none()));
}

PrimExpr *manip_dim_add(PrimExpr *a, PrimExpr *b)
{
    if (a != NULL && ops_dim_is(a, 0))
        return b;
    if (b != NULL && ops_dim_is(b, 0))
        return a;
    return fold(PE_ADD, a, b);
}

PrimExpr *manip_dim_sub(PrimExpr *a, PrimExpr *b)
{
    if (b != NULL && ops_dim_is(b, 0))
        return a;
    return fold(PE_SUB, a, b);
}

PrimExpr *manip_dim_mul(PrimExpr *a, PrimExpr *b)
{
    if (a != NULL && ops_dim_is(a, 1))
        return b;
    if (b != NULL && ops_dim_is(b, 1))
        return a;
    return fold(PE_MUL, a, b);
}

PrimExpr *manip_dim_product(PrimExpr *const *dims, int n)
{
    PrimExpr *p = manip_dim_int(1);
    for (int i = 0; i < n; i++)
        p = manip_dim_mul(p, dims[i]);
    return p;
}

bool manip_attr_is_none(const Expr *call, const char *key)
{
    const AttrValue *v = attrs_get(call->u.call.attrs, key);
    return v != NULL && v->kind == ATTR_NONE;
}

bool manip_arg_tensors(OpInferCtx *ctx, int i, const StructInfo ***out, int *n)
{
    const StructInfo *t = i < ctx->nargs ? ctx->arg_sinfo[i] : NULL;
    if (t == NULL || t->kind != SINFO_TUPLE) {
        ops_infer_fail(ctx, "OpArgType", "argument %d must be a tuple of tensors", i + 1);
        return false;
    }
    *out = MEM_ARRAY(const StructInfo *, t->u.tuple.n > 0 ? t->u.tuple.n : 1);
    for (int k = 0; k < t->u.tuple.n; k++) {
        if (t->u.tuple.fields[k]->kind != SINFO_TENSOR) {
            ops_infer_fail(ctx, "OpArgType", "field %d of argument %d must be a Tensor", k, i + 1);
            return false;
        }
        (*out)[k] = t->u.tuple.fields[k];
    }
    *n = t->u.tuple.n;
    return true;
}

Value *manip_result(struct Interp *in, const Expr *call, Tensor *t, const char *err)
{
    if (t == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s: %s",
                    call->u.call.op->u.op_name, err ? err : "the kernel failed");
    return value_tensor(t);
}

Tensor **manip_kernel_tensors(struct Interp *in, const Expr *call, const Value *v, int *n)
{
    if (v->kind != VAL_TUPLE)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "expected a tuple of tensors");
    Tensor **ts = MEM_ARRAY(Tensor *, v->u.tuple.n > 0 ? v->u.tuple.n : 1);
    for (int i = 0; i < v->u.tuple.n; i++) {
        if (v->u.tuple.fields[i]->kind != VAL_TENSOR)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "field %d is not a tensor", i);
        ts[i] = v->u.tuple.fields[i]->u.tensor;
    }
    *n = v->u.tuple.n;
    return ts;
}

int64_t manip_kernel_int(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    const Value *p = ops_kernel_prim(in, call, args, nargs, i);
    return value_prim_is_float(p) ? (int64_t)value_prim_as_f64(p) : value_prim_as_i64(p);
}

/* The tensor argument 0 with its shape, after the arity check. */
static const StructInfo *unary_input(OpInferCtx *ctx, int max_args, OpShape *shape)
{
    if (!ops_check_arity(ctx, 1, max_args))
        return NULL;
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return NULL;
    *shape = ops_shape_of(x);
    if (shape->ndim > TENSOR_MAX_NDIM) {
        ops_infer_fail(ctx, "OpAttr", "rank %d is above the limit %d", shape->ndim,
                       TENSOR_MAX_NDIM);
        return NULL;
    }
    return x;
}

/* The result, or OpShapeOverflow when a dim's arithmetic overflowed. */
static StructInfo *result_like(OpInferCtx *ctx, const StructInfo *x, OpShape shape, DataType dtype)
{
    if (!ops_dims_fit(ctx, shape))
        return ops_infer_object(ctx);
    return ops_tensor_result(shape, dtype, x->u.tensor.vdevice, ctx->call->span);
}

/* ---- reshape ----------------------------------------------------------------------------- */

/* The target dims with a -1 resolved against the input's element count (when known). */
static bool reshape_dims(OpInferCtx *ctx, OpShape x, PrimExpr **dims, int n, PrimExpr **out)
{
    int infer_at = -1;
    PrimExpr *known = manip_dim_int(1);
    for (int i = 0; i < n; i++) {
        out[i] = dims[i];
        if (!ops_dim_is(dims[i], -1)) {
            known = manip_dim_mul(known, dims[i]);
            continue;
        }
        if (infer_at >= 0) {
            ops_infer_fail(ctx, "OpShapeMismatch", "reshape allows at most one -1");
            return false;
        }
        infer_at = i;
    }
    if (x.dims == NULL)
        return known != NULL || ops_dims_fit(ctx, (OpShape){&known, 1});
    PrimExpr *total = manip_dim_product(x.dims, x.ndim);
    if (known == NULL || total == NULL) {
        ops_infer_fail(ctx, "OpShapeOverflow", "the element count overflows int64");
        return false;
    }
    if (infer_at >= 0) {
        int64_t t, k;
        if (prover_const_int(total, &t) && prover_const_int(known, &k) && (k == 0 || t % k != 0)) {
            ops_infer_fail(ctx, "OpShapeMismatch", "cannot reshape %lld elements with -1",
                           (long long)t);
            return false;
        }
        /* TVM's count over the other dims, simplified as its analyzer does (n * 12 // n is
         * 12); the plain quotient when a product passes int64. */
        out[infer_at] =
            op_schema_reshape_inferred(x.dims, x.ndim, dims, n, infer_at, ctx->call->span);
        if (out[infer_at] == NULL)
            out[infer_at] = ops_dim_is(known, 1) ? total : fold(PE_FLOORDIV, total, known);
        return true;
    }
    if (prover_compare(total, known) == PROVE_UNEQUAL) {
        ops_infer_fail(ctx, "OpShapeMismatch", "reshape changes the element count from %s to %s",
                       prover_canonical(total), prover_canonical(known));
        return false;
    }
    return true;
}

/* OP-reshape: a 0 written in the call's shape literal copies the input's dim at that position
 * (src/relax/op/tensor/manipulate.cc, ConvertNewShapeToExpr, applied by the constructor to a
 * literal shape only). True when position i of the call's shape argument is such a 0. */
static bool copies_input_dim(const Expr *call, int i)
{
    const Expr *s = call->u.call.nargs > 1 ? call->u.call.args[1] : NULL;
    int64_t v;
    return s != NULL && s->kind == EXPR_SHAPE && i < s->u.shape.n &&
           prover_const_int(s->u.shape.values[i], &v) && v == 0;
}

/* The shape argument's dims with each literal 0 replaced by the input's dim; NULL (after an
 * error) when a 0 needs a dim the input does not have. */
static PrimExpr **copy_zero_dims(OpInferCtx *ctx, OpShape x, const StructInfo *s)
{
    int n = s->u.shape.ndim;
    PrimExpr **v = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        v[i] = s->u.shape.values[i];
        if (!copies_input_dim(ctx->call, i))
            continue;
        if (x.dims == NULL || i >= x.ndim) {
            ops_infer_fail(ctx, "OpShapeMismatch",
                           "a 0 in the new shape copies input dim %d, which is not known", i);
            return NULL;
        }
        v[i] = x.dims[i];
    }
    return v;
}

StructInfo *manip_infer_reshape(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 2, &x);
    if (xs == NULL || !ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *s = ops_arg_shape(ctx, 1);
    if (s == NULL)
        return ops_infer_object(ctx);
    if (s->u.shape.values == NULL) {
        OpShape r = {NULL, s->u.shape.ndim};
        return result_like(ctx, xs, r, xs->u.tensor.dtype);
    }
    int n = s->u.shape.ndim;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    PrimExpr **given = copy_zero_dims(ctx, x, s);
    if (given == NULL)
        return ops_infer_object(ctx);
    bool has_minus = false;
    for (int i = 0; i < n; i++)
        has_minus = has_minus || ops_dim_is(given[i], -1);
    if (has_minus && x.dims == NULL) {
        OpShape r = {NULL, n};
        return result_like(ctx, xs, r, xs->u.tensor.dtype);
    }
    if (!reshape_dims(ctx, x, given, n, dims))
        return ops_infer_object(ctx);
    OpShape r = {dims, n};
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_reshape(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *s = ops_kernel_shape(in, call, args, nargs, 1);
    int n = s->u.shape.ndim;
    int64_t *dims = MEM_ARRAY(int64_t, n > 0 ? n : 1);
    int infer_at = -1;
    int64_t known = 1;
    bool over = false;
    for (int i = 0; i < n; i++) {
        dims[i] = s->u.shape.dims[i];
        if (copies_input_dim(call, i) && i < x->ndim)
            dims[i] = x->shape[i];
        if (dims[i] == -1 && infer_at < 0)
            infer_at = i;
        else
            known = checked_mul(known, dims[i], &over);
    }
    /* The shape is a run-time value: its dims may multiply past int64 (2^62 x 4 x -1). */
    if (over && infer_at >= 0)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the dims of the new shape multiply past int64");
    if (infer_at >= 0)
        dims[infer_at] = known > 0 ? x->numel / known : 0;
    const char *err = NULL;
    Tensor *made = kernel_reshape(x, n, dims, &err);
    return manip_result(in, call, made, err);
}

/* ---- permute_dims, expand_dims, squeeze, flatten ----------------------------------------- */

/* The permutation: axes given (each once, in range) or the reversed order. */
static bool permutation(OpInferCtx *ctx, const Expr *call, int ndim, int *perm)
{
    int64_t *axes;
    int n;
    if (!ops_attr_int_list(call, "axes", &axes, &n)) {
        for (int i = 0; i < ndim; i++)
            perm[i] = ndim - 1 - i;
        return true;
    }
    if (n != ndim) {
        ops_infer_fail(ctx, "OpAttr", "axes has %d entries for rank %d", n, ndim);
        return false;
    }
    bool seen[TENSOR_MAX_NDIM] = {false};
    for (int i = 0; i < n; i++) {
        if (!ops_normalize_axis(ctx, axes[i], ndim, &perm[i]))
            return false;
        if (seen[perm[i]]) {
            ops_infer_fail(ctx, "OpAttr", "axis %d appears twice in axes", perm[i]);
            return false;
        }
        seen[perm[i]] = true;
    }
    return true;
}

StructInfo *manip_infer_permute_dims(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    if (xs == NULL)
        return ops_infer_object(ctx);
    int64_t *axes;
    int n;
    if (x.ndim < 0) {
        OpShape r = {NULL, ops_attr_int_list(ctx->call, "axes", &axes, &n) ? n : -1};
        return result_like(ctx, xs, r, xs->u.tensor.dtype);
    }
    if (x.ndim > TENSOR_MAX_NDIM)
        return ops_infer_fail(ctx, "OpAttr", "rank too large");
    int perm[TENSOR_MAX_NDIM];
    if (!permutation(ctx, ctx->call, x.ndim, perm))
        return ops_infer_object(ctx);
    OpShape r = {NULL, x.ndim};
    if (x.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, x.ndim > 0 ? x.ndim : 1);
        for (int i = 0; i < x.ndim; i++)
            r.dims[i] = x.dims[perm[i]];
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_permute_dims(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int perm[TENSOR_MAX_NDIM];
    int64_t *axes;
    int n;
    bool given = ops_attr_int_list(call, "axes", &axes, &n);
    if (given && n != x->ndim)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "axes do not match the rank");
    for (int i = 0; i < x->ndim; i++)
        perm[i] = given ? ops_kernel_axis(in, call, axes[i], x->ndim) : x->ndim - 1 - i;
    const char *err = NULL;
    Tensor *made = kernel_permute(x, perm, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_expand_dims(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    int64_t *axes;
    int n;
    if (xs == NULL)
        return ops_infer_object(ctx);
    if (!ops_attr_int_list(ctx->call, "axis", &axes, &n))
        return ops_infer_fail(ctx, "OpAttr", "axis must be an int or a list of ints");
    if (x.ndim < 0) {
        OpShape r = {NULL, -1};
        return result_like(ctx, xs, r, xs->u.tensor.dtype);
    }
    int out_nd = x.ndim + n;
    bool added[TENSOR_MAX_NDIM + 1] = {false};
    if (out_nd > TENSOR_MAX_NDIM)
        return ops_infer_fail(ctx, "OpAttr", "rank too large");
    for (int i = 0; i < n; i++) {
        int k;
        if (!ops_normalize_axis(ctx, axes[i], out_nd, &k))
            return ops_infer_object(ctx);
        if (added[k])
            return ops_infer_fail(ctx, "OpAttr", "axis %d is given twice", k);
        added[k] = true;
    }
    OpShape r = {NULL, out_nd};
    if (x.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, out_nd > 0 ? out_nd : 1);
        for (int i = 0, j = 0; i < out_nd; i++)
            r.dims[i] = added[i] ? manip_dim_int(1) : x.dims[j++];
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_expand_dims(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t *axes;
    int n = 0;
    ops_attr_int_list(call, "axis", &axes, &n);
    int out_nd = x->ndim + n;
    bool added[TENSOR_MAX_NDIM + 1] = {false};
    for (int i = 0; i < n && out_nd <= TENSOR_MAX_NDIM; i++)
        added[ops_kernel_axis(in, call, axes[i], out_nd)] = true;
    int64_t dims[TENSOR_MAX_NDIM + 1];
    for (int i = 0, j = 0; i < out_nd && out_nd <= TENSOR_MAX_NDIM; i++)
        dims[i] = added[i] ? 1 : x->shape[j++];
    const char *err = NULL;
    Tensor *made = kernel_reshape(x, out_nd, dims, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_squeeze(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    if (xs == NULL)
        return ops_infer_object(ctx);
    const AttrValue *axis = ops_attr(ctx->call, "axis");
    OpShape unknown = {NULL, -1};
    if (x.ndim < 0)
        return result_like(ctx, xs, unknown, xs->u.tensor.dtype);
    int *ax, n;
    if (!ops_normalize_axes(ctx, axis, x.ndim, &ax, &n))
        return ops_infer_object(ctx);
    bool drop[TENSOR_MAX_NDIM] = {false};
    for (int i = 0; i < n; i++) {
        PrimExpr *d = x.dims ? x.dims[ax[i]] : NULL;
        int64_t v;
        bool is_const = d != NULL && prover_const_int(d, &v);
        /* axis=None keeps a dim that is not provably 1; the rank is then unknown. */
        if (axis == NULL && !is_const)
            return result_like(ctx, xs, unknown, xs->u.tensor.dtype);
        if (axis != NULL && is_const && v != 1)
            return ops_infer_fail(ctx, "OpShapeMismatch", "axis %d has dim %lld, not 1", ax[i],
                                  (long long)v);
        drop[ax[i]] = axis != NULL || v == 1;
    }
    OpShape r = {NULL, 0};
    for (int i = 0; i < x.ndim; i++)
        r.ndim += !drop[i];
    if (x.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim > 0 ? r.ndim : 1);
        for (int i = 0, j = 0; i < x.ndim; i++)
            if (!drop[i])
                r.dims[j++] = x.dims[i];
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_squeeze(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t *axes;
    int n = 0;
    bool given = ops_attr_int_list(call, "axis", &axes, &n);
    bool drop[TENSOR_MAX_NDIM] = {false};
    for (int i = 0; i < x->ndim; i++)
        drop[i] = !given && x->shape[i] == 1;
    for (int i = 0; given && i < n; i++) {
        int k = ops_kernel_axis(in, call, axes[i], x->ndim);
        if (x->shape[k] != 1)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "axis %d is not 1",
                        k);
        drop[k] = true;
    }
    int64_t dims[TENSOR_MAX_NDIM];
    int nd = 0;
    for (int i = 0; i < x->ndim; i++)
        if (!drop[i])
            dims[nd++] = x->shape[i];
    const char *err = NULL;
    Tensor *made = kernel_reshape(x, nd, dims, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_flatten(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    if (xs == NULL)
        return ops_infer_object(ctx);
    OpShape r = {NULL, 1};
    PrimExpr *total;
    if (x.dims != NULL) {
        total = manip_dim_product(x.dims, x.ndim);
        r.dims = &total;
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_flatten(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const char *err = NULL;
    Tensor *made = kernel_reshape(x, 1, &x->numel, &err);
    return manip_result(in, call, made, err);
}

/* ---- broadcast_to, tile, repeat, flip ---------------------------------------------------- */

StructInfo *manip_infer_broadcast_to(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 2, &x);
    if (xs == NULL || !ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *s = ops_arg_shape(ctx, 1);
    if (s == NULL)
        return ops_infer_object(ctx);
    OpShape r = {s->u.shape.values, s->u.shape.ndim};
    if (x.ndim >= 0 && r.ndim >= 0 && x.ndim > r.ndim)
        return ops_infer_fail(ctx, "OpShapeMismatch", "cannot broadcast rank %d to rank %d", x.ndim,
                              r.ndim);
    for (int i = 0; x.dims != NULL && r.dims != NULL && i < x.ndim; i++) {
        PrimExpr *d = x.dims[i], *t = r.dims[r.ndim - x.ndim + i];
        if (ops_dim_is(d, 1) || prover_compare(d, t) != PROVE_UNEQUAL)
            continue;
        int64_t v;
        if (prover_const_int(d, &v))
            return ops_infer_fail(ctx, "OpShapeMismatch", "dim %s does not broadcast to %s",
                                  prover_canonical(d), prover_canonical(t));
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

/* LIMIT-fuel: broadcast_to, tile and repeat expand a small input, so they pay for their
 * result before making it, as the creation operators do, and a huge expansion is refused at
 * once. A shape the kernel will refuse (dims that do not broadcast, a count past the byte
 * limit or int64) is left to the kernel's own error. */
static void prepay_expansion(struct Interp *in, const Expr *call, DataType dt, int ndim,
                             const int64_t *dims)
{
    int64_t count = tensor_shape_numel(dt, ndim, dims); /* -1: refused */
    if (count >= 0)
        interp_prepay_result(in, count, call->span);
}

static bool broadcasts_to(const Tensor *x, int ndim, const int64_t *dims)
{
    if (ndim < x->ndim)
        return false;
    for (int i = 0; i < x->ndim; i++) {
        int64_t from = x->shape[i], to = dims[ndim - x->ndim + i];
        if (from != to && from != 1)
            return false;
    }
    return true;
}

Value *manip_eval_broadcast_to(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *s = ops_kernel_shape(in, call, args, nargs, 1);
    if (broadcasts_to(x, s->u.shape.ndim, s->u.shape.dims))
        prepay_expansion(in, call, x->dtype, s->u.shape.ndim, s->u.shape.dims);
    const char *err = NULL;
    Tensor *made = kernel_broadcast_to(x, s->u.shape.ndim, s->u.shape.dims, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_tile(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    int64_t *reps;
    int n;
    if (xs == NULL)
        return ops_infer_object(ctx);
    if (!ops_attr_int_list(ctx->call, "repeats", &reps, &n))
        return ops_infer_fail(ctx, "OpAttr", "repeats must be an int or a list of ints");
    for (int i = 0; i < n; i++)
        if (reps[i] < 0)
            return ops_infer_fail(ctx, "OpAttr", "repeats must be non-negative");
    OpShape r = {NULL, x.ndim < 0 ? -1 : (x.ndim > n ? x.ndim : n)};
    if (x.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, r.ndim > 0 ? r.ndim : 1);
        for (int i = 0; i < r.ndim; i++) {
            int xi = i - (r.ndim - x.ndim), ri = i - (r.ndim - n);
            PrimExpr *d = xi >= 0 ? x.dims[xi] : manip_dim_int(1);
            r.dims[i] = manip_dim_mul(d, manip_dim_int(ri >= 0 ? reps[ri] : 1));
        }
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_tile(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t *reps = NULL;
    int n = 0;
    ops_attr_int_list(call, "repeats", &reps, &n);
    int rank = x->ndim > n ? x->ndim : n;
    int64_t *dims = MEM_ARRAY(int64_t, rank > 0 ? rank : 1);
    bool bad = false;
    for (int i = 0; i < rank; i++) {
        int xi = i - (rank - x->ndim), ri = i - (rank - n);
        int64_t rep = ri >= 0 ? reps[ri] : 1;
        bad = bad || rep < 0;
        dims[i] = checked_mul(xi >= 0 ? x->shape[xi] : 1, rep, &bad);
    }
    if (!bad)
        prepay_expansion(in, call, x->dtype, rank, dims);
    const char *err = NULL;
    Tensor *made = kernel_tile(x, reps, n, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_repeat(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    if (xs == NULL)
        return ops_infer_object(ctx);
    const AttrValue *rv = ops_attr(ctx->call, "repeats");
    if (rv == NULL || rv->kind != ATTR_INT || rv->u.i < 0)
        return ops_infer_fail(ctx, "OpAttr", "repeats must be a non-negative int");
    PrimExpr *reps = manip_dim_int(rv->u.i);
    const AttrValue *axis = ops_attr(ctx->call, "axis");
    if (axis == NULL) {
        PrimExpr *total = x.dims ? manip_dim_mul(manip_dim_product(x.dims, x.ndim), reps) : NULL;
        OpShape r = {x.dims ? &total : NULL, 1};
        return result_like(ctx, xs, r, xs->u.tensor.dtype);
    }
    int k;
    if (x.ndim < 0)
        return result_like(ctx, xs, x, xs->u.tensor.dtype);
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", 0), x.ndim, &k))
        return ops_infer_object(ctx);
    OpShape r = {NULL, x.ndim};
    if (x.dims != NULL) {
        r.dims = MEM_ARRAY(PrimExpr *, x.ndim);
        memcpy(r.dims, x.dims, sizeof(PrimExpr *) * (size_t)x.ndim);
        r.dims[k] = manip_dim_mul(x.dims[k], reps);
    }
    return result_like(ctx, xs, r, xs->u.tensor.dtype);
}

Value *manip_eval_repeat(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const AttrValue *axis = ops_attr(call, "axis");
    int k = axis ? ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim) : -1;
    int64_t reps = ops_attr_int(call, "repeats", 1);
    bool bad = reps < 0;
    int64_t grown = checked_mul(k >= 0 ? x->shape[k] : x->numel, reps, &bad);
    if (!bad) {
        int64_t *dims = MEM_ARRAY(int64_t, x->ndim > 0 ? x->ndim : 1);
        for (int i = 0; i < x->ndim; i++)
            dims[i] = i == k ? grown : x->shape[i];
        if (k >= 0)
            prepay_expansion(in, call, x->dtype, x->ndim, dims);
        else
            prepay_expansion(in, call, x->dtype, 1, &grown);
    }
    const char *err = NULL;
    Tensor *made = kernel_repeat(x, reps, k, &err);
    return manip_result(in, call, made, err);
}

StructInfo *manip_infer_flip(OpInferCtx *ctx)
{
    OpShape x;
    const StructInfo *xs = unary_input(ctx, 1, &x);
    if (xs == NULL)
        return ops_infer_object(ctx);
    const AttrValue *axis = ops_attr(ctx->call, "axis");
    if (axis == NULL || axis->kind != ATTR_INT)
        return ops_infer_fail(ctx, "OpAttr", "axis must be an int");
    int k;
    if (x.ndim >= 0 && !ops_normalize_axis(ctx, axis->u.i, x.ndim, &k))
        return ops_infer_object(ctx);
    return result_like(ctx, xs, x, xs->u.tensor.dtype);
}

Value *manip_eval_flip(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int k = ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    const char *err = NULL;
    Tensor *made = kernel_flip(x, k, &err);
    return manip_result(in, call, made, err);
}

/* ---- the family table -------------------------------------------------------------------- */

/* clang-format off */
#define OP(name, dtypes) {"relax." #name, true, manip_infer_##name, manip_eval_##name, dtypes}
/* clang-format on */

static const OpImpl MANIP_OPS[] = {
    OP(zeros, "all"),
    OP(ones, "all"),
    OP(full, "all"),
    OP(zeros_like, "all"),
    OP(ones_like, "all"),
    OP(full_like, "all"),
    OP(arange, "all"),
    OP(eye, "all"),
    OP(tril, "all"),
    OP(triu, "all"),
    OP(reshape, "all"),
    OP(permute_dims, "all"),
    OP(expand_dims, "all"),
    OP(squeeze, "all"),
    OP(flatten, "all"),
    OP(concat, "all"),
    OP(split, "all"),
    OP(broadcast_to, "all"),
    OP(stack, "all"),
    OP(tile, "all"),
    OP(repeat, "all"),
    OP(flip, "all"),
    OP(take, "all"),
    OP(strided_slice, "all"),
    OP(dynamic_strided_slice, "all"),
    OP(where, "all"),
    OP(astype, "all"),
    OP(matmul, "all"),
    OP(linear, "all"),
    OP(outer, "all"),
    OP(einsum, "all"),
    OP(sum, "all"),
    OP(mean, "all"),
    OP(max, "all"),
    OP(min, "all"),
    OP(prod, "all"),
    OP(std, "all"),
    OP(variance, "all"),
    OP(cumsum, "all"),
    OP(cumprod, "all"),
    OP(argmax, "all"),
    OP(argmin, "all"),
};

const OpImpl *ops_manip(int *n)
{
    *n = (int)(sizeof(MANIP_OPS) / sizeof(MANIP_OPS[0]));
    return MANIP_OPS;
}
