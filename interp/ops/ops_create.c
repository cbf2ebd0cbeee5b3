/* ops_create: the creation operators zeros, ones, full, their _like forms, arange, eye, and
 * tril/triu. SPEC_NOTES: "Operators" (OP-zeros ... OP-triu). */
#include "interp/ops/ops_manip_internal.h"

#include <math.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- zeros, ones, full ------------------------------------------------------------------- */

/* The shape argument's dims (or rank) as a result shape. */
static bool shape_arg(OpInferCtx *ctx, int i, OpShape *out)
{
    const StructInfo *s = ops_arg_shape(ctx, i);
    if (s == NULL)
        return false;
    out->dims = s->u.shape.values;
    out->ndim = s->u.shape.ndim;
    return ops_dims_fit(ctx, *out);
}

/* A scalar fill value: a rank-0 tensor (or one of unknown rank). */
static const StructInfo *fill_arg(OpInferCtx *ctx, int i)
{
    const StructInfo *f = ops_arg_tensor(ctx, i);
    if (f != NULL && f->u.tensor.ndim > 0) {
        ops_infer_fail(ctx, "OpShapeMismatch", "fill_value must be a scalar tensor, got rank %d",
                       f->u.tensor.ndim);
        return NULL;
    }
    return f;
}

static StructInfo *infer_const_fill(OpInferCtx *ctx)
{
    OpShape s;
    if (!ops_check_arity(ctx, 1, 1) || !shape_arg(ctx, 0, &s))
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    return ops_tensor_result(s, dt, NULL, ctx->call->span);
}

StructInfo *manip_infer_zeros(OpInferCtx *ctx)
{
    return infer_const_fill(ctx);
}

StructInfo *manip_infer_ones(OpInferCtx *ctx)
{
    return infer_const_fill(ctx);
}

StructInfo *manip_infer_full(OpInferCtx *ctx)
{
    OpShape s;
    if (!ops_check_arity(ctx, 2, 2) || !shape_arg(ctx, 0, &s))
        return ops_infer_object(ctx);
    const StructInfo *f = fill_arg(ctx, 1);
    if (f == NULL)
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt))
        dt = f->u.tensor.dtype;
    return ops_tensor_result(s, dt, f->u.tensor.vdevice, ctx->call->span);
}

static StructInfo *infer_like(OpInferCtx *ctx, int nargs)
{
    if (!ops_check_arity(ctx, nargs, nargs))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || (nargs == 2 && fill_arg(ctx, 1) == NULL))
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt))
        dt = x->u.tensor.dtype;
    return ops_tensor_result(ops_shape_of(x), dt, x->u.tensor.vdevice, ctx->call->span);
}

StructInfo *manip_infer_zeros_like(OpInferCtx *ctx)
{
    return infer_like(ctx, 1);
}

StructInfo *manip_infer_ones_like(OpInferCtx *ctx)
{
    return infer_like(ctx, 1);
}

StructInfo *manip_infer_full_like(OpInferCtx *ctx)
{
    return infer_like(ctx, 2);
}

static Value *fill(struct Interp *in, const Expr *call, DataType dt, int ndim, const int64_t *shape,
                   const Tensor *value, int64_t ivalue)
{
    bool is_float = value != NULL && dtype_is_float(value->dtype);
    double f = is_float ? tensor_get_f64(value, 0) : 0;
    int64_t i = value != NULL && !is_float ? tensor_get_i64(value, 0) : ivalue;
    if (value != NULL && value->numel != 1)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "fill_value must hold one element");
    /* LIMIT-fuel: the result's elements before it is made, so a huge fill is refused at
     * once; a tensor past the byte limit is the kernel's OpPrecondition first. */
    int64_t count = tensor_shape_numel(dt, ndim, shape); /* -1: refused */
    if (count >= 0)
        interp_prepay_result(in, count, call->span);
    const char *err = NULL;
    Tensor *made = kernel_full(dt, ndim, shape, is_float, f, i, &err);
    return manip_result(in, call, made, err);
}

Value *manip_eval_zeros(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    const Value *s = ops_kernel_shape(in, call, args, nargs, 0);
    return fill(in, call, ops_attr_dtype(call, "dtype"), s->u.shape.ndim, s->u.shape.dims, NULL, 0);
}

Value *manip_eval_ones(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    const Value *s = ops_kernel_shape(in, call, args, nargs, 0);
    return fill(in, call, ops_attr_dtype(call, "dtype"), s->u.shape.ndim, s->u.shape.dims, NULL, 1);
}

Value *manip_eval_full(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    const Value *s = ops_kernel_shape(in, call, args, nargs, 0);
    Tensor *v = ops_kernel_tensor(in, call, args, nargs, 1);
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = v->dtype;
    return fill(in, call, dt, s->u.shape.ndim, s->u.shape.dims, v, 0);
}

static Value *eval_like(struct Interp *in, const Expr *call, Value **args, int nargs,
                        int64_t ivalue)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *v = nargs > 1 ? ops_kernel_tensor(in, call, args, nargs, 1) : NULL;
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = x->dtype;
    return fill(in, call, dt, x->ndim, x->shape, v, ivalue);
}

Value *manip_eval_zeros_like(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_like(in, call, args, nargs < 1 ? nargs : 1, 0);
}

Value *manip_eval_ones_like(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_like(in, call, args, nargs < 1 ? nargs : 1, 1);
}

Value *manip_eval_full_like(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_like(in, call, args, nargs, 0);
}

/* ---- arange, eye ------------------------------------------------------------------------- */

/* arange's (start, end, step) PrimValue StructInfos; one argument is the end. */
static bool arange_args(OpInferCtx *ctx, const StructInfo *p[3])
{
    if (!ops_check_arity(ctx, 1, 3))
        return false;
    for (int i = 0; i < ctx->nargs; i++)
        if ((p[i] = ops_arg_prim(ctx, i)) == NULL)
            return false;
    return true;
}

/* A count computed in double as a dim: NULL when it does not fit int64 (NaN is 0). */
static PrimExpr *float_count(double n, bool *overflow)
{
    if (n >= 0x1p63) {
        *overflow = true;
        return NULL;
    }
    return manip_dim_int(n > 0 ? (int64_t)n : 0);
}

/* The element count of an arange, or NULL when not known (*overflow set when it does not
 * fit int64). */
static PrimExpr *arange_length(PrimExpr *start, PrimExpr *end, PrimExpr *step, bool *overflow)
{
    int64_t a, b, c, n;
    if (start && end && step && prover_const_int(start, &a) && prover_const_int(end, &b) &&
        prover_const_int(step, &c) && c != 0) {
        *overflow = !kernel_arange_count(a, b, c, &n);
        return *overflow ? NULL : manip_dim_int(n);
    }
    bool floats = false;
    PrimExpr *v[3] = {start, end, step};
    for (int i = 0; i < 3; i++)
        floats = floats || (v[i] && v[i]->kind == PE_FLOAT);
    if (floats && start && end && step && start->kind != PE_VAR && end->kind != PE_VAR &&
        step->kind != PE_VAR) {
        double fa = start->kind == PE_FLOAT ? start->u.float_value : (double)start->u.int_value;
        double fb = end->kind == PE_FLOAT ? end->u.float_value : (double)end->u.int_value;
        double fc = step->kind == PE_FLOAT ? step->u.float_value : (double)step->u.int_value;
        return float_count(fc != 0 ? ceil((fb - fa) / fc) : 0, overflow);
    }
    if (!start || !end || !step || floats)
        return NULL;
    if (ops_dim_is(step, 1)) {
        PrimExpr *len = manip_dim_sub(end, start);
        *overflow = len == NULL;
        return len;
    }
    PrimExpr *span =
        manip_dim_add(manip_dim_sub(end, start), manip_dim_sub(step, manip_dim_int(1)));
    *overflow = span == NULL;
    return span == NULL ? NULL : primexpr_binary(PE_FLOORDIV, span, step, span_none());
}

StructInfo *manip_infer_arange(OpInferCtx *ctx)
{
    const StructInfo *p[3] = {NULL, NULL, NULL};
    if (!arange_args(ctx, p))
        return ops_infer_object(ctx);
    PrimExpr *zero = manip_dim_int(0), *one = manip_dim_int(1);
    PrimExpr *start = ctx->nargs == 1 ? zero : p[0]->u.prim.value;
    PrimExpr *end = ctx->nargs == 1 ? p[0]->u.prim.value : p[1]->u.prim.value;
    PrimExpr *step = ctx->nargs == 3 ? p[2]->u.prim.value : one;
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt)) {
        bool ints = true;
        for (int i = 0; i < ctx->nargs; i++)
            ints = ints && dtype_is_int(p[i]->u.prim.dtype);
        dt = ints ? dtype_int64() : dtype_float32();
    }
    bool over = false;
    PrimExpr *len = arange_length(start, end, step, &over);
    if (over)
        return ops_infer_fail(ctx, "OpShapeOverflow", "the element count overflows int64");
    OpShape r = {len ? &len : NULL, 1};
    return ops_tensor_result(r, dt, NULL, ctx->call->span);
}

Value *manip_eval_arange(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    const Value *v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < nargs && i < 3; i++)
        v[i] = ops_kernel_prim(in, call, args, nargs, i);
    const Value *start = nargs == 1 ? NULL : v[0], *end = nargs == 1 ? v[0] : v[1];
    const Value *step = nargs == 3 ? v[2] : NULL;
    bool floats = false;
    for (int i = 0; i < nargs && i < 3; i++)
        floats = floats || value_prim_is_float(v[i]);
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = floats ? dtype_float32() : dtype_int64();
    /* LIMIT-fuel: the result's elements before it is made (as fill's); a length the kernel
     * refuses (a zero or NaN step, past int64) is its own error. */
    const char *err = NULL;
    Tensor *t;
    int64_t count;
    if (floats || dtype_is_float(dt)) {
        double fs = start ? value_prim_as_f64(start) : 0, fe = value_prim_as_f64(end);
        double fstep = step ? value_prim_as_f64(step) : 1;
        if (kernel_arange_float_count(fs, fe, fstep, &count))
            interp_prepay_result(in, count, call->span);
        t = kernel_arange(dt, true, fs, fe, fstep, &err);
    } else {
        int64_t is = start ? value_prim_as_i64(start) : 0, ie = value_prim_as_i64(end);
        int64_t istep = step ? value_prim_as_i64(step) : 1;
        if (kernel_arange_count(is, ie, istep, &count))
            interp_prepay_result(in, count, call->span);
        t = kernel_arange_int(dt, is, ie, istep, &err);
    }
    return manip_result(in, call, t, err);
}

StructInfo *manip_infer_eye(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 3))
        return ops_infer_object(ctx);
    const StructInfo *p[3] = {NULL, NULL, NULL};
    for (int i = 0; i < ctx->nargs; i++) {
        if ((p[i] = ops_arg_prim(ctx, i)) == NULL)
            return ops_infer_object(ctx);
        if (!dtype_is_int(p[i]->u.prim.dtype) && !dtype_is_void(p[i]->u.prim.dtype))
            return ops_infer_fail(ctx, "OpArgType", "eye's n, m and k must be integers");
    }
    PrimExpr *dims[2] = {p[0]->u.prim.value,
                         ctx->nargs > 1 ? p[1]->u.prim.value : p[0]->u.prim.value};
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt) && attrs_get(ctx->call->u.call.attrs, "dtype") == NULL)
        dt = dtype_float32();
    OpShape r = {dims[0] && dims[1] ? dims : NULL, 2};
    if (!ops_dims_fit(ctx, r))
        return ops_infer_object(ctx);
    return ops_tensor_result(r, dt, NULL, ctx->call->span);
}

Value *manip_eval_eye(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    int64_t n = manip_kernel_int(in, call, args, nargs, 0);
    int64_t m = nargs > 1 ? manip_kernel_int(in, call, args, nargs, 1) : n;
    int64_t k = nargs > 2 ? manip_kernel_int(in, call, args, nargs, 2) : 0;
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = dtype_float32();
    /* LIMIT-fuel: the result's elements before it is made (as fill's) */
    int64_t count = n >= 0 && m >= 0 ? tensor_shape_numel(dt, 2, (int64_t[2]){n, m}) : -1;
    if (count >= 0)
        interp_prepay_result(in, count, call->span);
    const char *err = NULL;
    Tensor *made = kernel_eye(dt, n, m, k, &err);
    return manip_result(in, call, made, err);
}

/* ---- tril, triu -------------------------------------------------------------------------- */

static StructInfo *infer_trilu(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    if (ctx->nargs > 1) {
        const StructInfo *k = ops_arg_prim(ctx, 1);
        if (k == NULL)
            return ops_infer_object(ctx);
        if (!dtype_is_int(k->u.prim.dtype))
            return ops_infer_fail(ctx, "OpArgType", "k must be an integer PrimValue");
    }
    if (x->u.tensor.ndim >= 0 && x->u.tensor.ndim < 2)
        return ops_infer_fail(ctx, "OpShapeMismatch", "needs at least 2 dims, got %d",
                              x->u.tensor.ndim);
    return ops_tensor_result(ops_shape_of(x), x->u.tensor.dtype, x->u.tensor.vdevice,
                             ctx->call->span);
}

StructInfo *manip_infer_tril(OpInferCtx *ctx)
{
    return infer_trilu(ctx);
}

StructInfo *manip_infer_triu(OpInferCtx *ctx)
{
    return infer_trilu(ctx);
}

static Value *eval_trilu(struct Interp *in, const Expr *call, Value **args, int nargs, bool lower)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t k = nargs > 1 ? manip_kernel_int(in, call, args, nargs, 1) : 0;
    const char *err = NULL;
    Tensor *made = kernel_trilu(x, k, lower, &err);
    return manip_result(in, call, made, err);
}

Value *manip_eval_tril(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_trilu(in, call, args, nargs, true);
}

Value *manip_eval_triu(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return eval_trilu(in, call, args, nargs, false);
}
