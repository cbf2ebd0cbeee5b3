/* ops_misc_create: eye_like, hamming_window, multinomial_from_uniform, ewise_fma and wrap_param:
 * inference as TVM's create.cc, sampling.cc, ternary.cc and datatype.cc, kernels in
 * values/kernels. SPEC_NOTES: "Operators" (OP-eye_like,
 * OP-hamming_window, OP-multinomial_from_uniform, OP-ewise_fma, OP-wrap_param). */
#include <stdarg.h>
#include <stdio.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_manip.h"
#include "values/kernels/kernels_misc.h"

_Noreturn void misc_fail(struct Interp *in, const Expr *call, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", msg);
}

int64_t misc_kernel_int(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    const Value *v = ops_kernel_prim(in, call, args, nargs, i);
    if (value_prim_is_float(v))
        misc_fail(in, call, "argument %d must be an integer PrimValue", i + 1);
    return value_prim_as_i64(v);
}

static Value *tensor_result(struct Interp *in, const Expr *call, Tensor *t, const char *err)
{
    if (t == NULL)
        misc_fail(in, call, "%s", err ? err : "cannot make the result");
    return value_tensor(t);
}

/* ---- eye_like ---------------------------------------------------------------------------- */

/* OP-eye_like: x a Tensor of rank 2 (or unknown rank), k a PrimValue; x's shape, the dtype
 * attribute or x's dtype (InferStructInfoEyeLike). */
StructInfo *misc_infer_eye_like(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || ops_arg_prim(ctx, 1) == NULL)
        return ops_infer_object(ctx);
    if (x->u.tensor.ndim != 2 && x->u.tensor.ndim != -1)
        return ops_infer_fail(ctx, "OpShapeMismatch", "eye_like needs a 2-D tensor, got rank %d",
                              x->u.tensor.ndim);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_void(dt))
        dt = x->u.tensor.dtype;
    return ops_tensor_result(ops_shape_of(x), dt, x->u.tensor.vdevice, ctx->call->span);
}

Value *misc_eval_eye_like(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t k = misc_kernel_int(in, call, args, nargs, 1);
    if (x->ndim != 2)
        misc_fail(in, call, "eye_like needs a 2-D tensor, got rank %d", x->ndim);
    DataType dt = ops_attr_dtype(call, "dtype");
    if (dtype_is_void(dt))
        dt = x->dtype;
    const char *err = NULL;
    return tensor_result(in, call, kernel_eye(dt, x->shape[0], x->shape[1], k, &err), err);
}

/* ---- hamming_window ---------------------------------------------------------------------- */

/* OP-hamming_window: four PrimValues, a float dtype (TVM rejects int, uint and bool); the
 * window size an integer not provably below 1; shape (window_size,). */
StructInfo *misc_infer_hamming_window(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 4, 4))
        return ops_infer_object(ctx);
    for (int i = 0; i < 4; i++)
        if (ops_arg_prim(ctx, i) == NULL)
            return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    if (dtype_is_int(dt) || dtype_is_uint(dt))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "hamming_window needs a float dtype, got %s",
                              dtype_str(dt));
    const StructInfo *n = ctx->arg_sinfo[0];
    if (!dtype_is_void(n->u.prim.dtype) && !dtype_is_int(n->u.prim.dtype))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "window_size must be an integer, got %s",
                              dtype_str(n->u.prim.dtype));
    int64_t v;
    if (n->u.prim.value != NULL && prover_const_int(n->u.prim.value, &v) && v < 1)
        return ops_infer_fail(ctx, "OpAttr", "window_size must be positive, got %lld",
                              (long long)v);
    OpShape s = {NULL, 1};
    if (n->u.prim.value != NULL) {
        s.dims = MEM_ARRAY(PrimExpr *, 1);
        s.dims[0] = n->u.prim.value;
    }
    return ops_tensor_result(s, dt, NULL, ctx->call->span);
}

Value *misc_eval_hamming_window(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    int64_t n = misc_kernel_int(in, call, args, nargs, 0);
    const Value *periodic = ops_kernel_prim(in, call, args, nargs, 1);
    double alpha = value_prim_as_f64(ops_kernel_prim(in, call, args, nargs, 2));
    double beta = value_prim_as_f64(ops_kernel_prim(in, call, args, nargs, 3));
    if (n < 1)
        misc_fail(in, call, "window_size must be positive, got %lld", (long long)n);
    DataType dt = ops_attr_dtype(call, "dtype");
    if (!dtype_is_float(dt))
        misc_fail(in, call, "hamming_window needs a float dtype, got %s", dtype_str(dt));
    Tensor *out = ops_kernel_new_tensor(in, call, dt, 1, &n);
    kernels_hamming(value_prim_as_f64(periodic) != 0, alpha, beta, out);
    return value_tensor(out);
}

/* ---- multinomial_from_uniform ------------------------------------------------------------ */

static bool multinomial_dtypes(OpInferCtx *ctx, const StructInfo *const *t)
{
    const char *what[3] = {"prob", "uniform_sample", "sample_indices"};
    for (int i = 0; i < 3; i++) {
        DataType d = t[i]->u.tensor.dtype;
        if (i < 2 ? !dtype_is_float(d) : !dtype_is_int(d)) {
            ops_infer_fail(ctx, "OpDTypeMismatch", "%s must have %s dtype, got %s", what[i],
                           i < 2 ? "a float" : "an int", dtype_str(d));
            return false;
        }
    }
    return true;
}

/* OP-multinomial_from_uniform: prob float (batch, vocab), uniform_sample float (n, 1),
 * sample_indices int (n, 1); result (n, 1) of the dtype attribute
 * (InferStructInfoMultinomialFromUniform). */
StructInfo *misc_infer_multinomial_from_uniform(OpInferCtx *ctx)
{
    const StructInfo *t[3];
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    for (int i = 0; i < 3; i++)
        if ((t[i] = ops_arg_tensor(ctx, i)) == NULL)
            return ops_infer_object(ctx);
    if (!multinomial_dtypes(ctx, t))
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "dtype");
    VDevice *vd = t[0]->u.tensor.vdevice;
    OpShape s[3];
    for (int i = 0; i < 3; i++) {
        if (t[i]->u.tensor.ndim == -1)
            return sinfo_tensor(NULL, dt, vd, -1, ctx->call->span);
        if (t[i]->u.tensor.ndim != 2)
            return ops_infer_fail(ctx, "OpShapeMismatch", "argument %d must be 2-D, got rank %d",
                                  i + 1, t[i]->u.tensor.ndim);
        s[i] = ops_shape_of(t[i]);
    }
    if (s[0].dims == NULL || s[1].dims == NULL || s[2].dims == NULL)
        return sinfo_tensor(NULL, dt, vd, 2, ctx->call->span);
    if (prover_compare(s[1].dims[0], s[2].dims[0]) != PROVE_EQUAL)
        return ops_infer_fail(ctx, "OpShapeMismatch",
                              "uniform_sample and sample_indices need the same batch size");
    if (!ops_dim_is(s[1].dims[1], 1) || !ops_dim_is(s[2].dims[1], 1))
        return ops_infer_fail(ctx, "OpShapeMismatch",
                              "uniform_sample and sample_indices must be (n, 1)");
    OpShape out = {MEM_ARRAY(PrimExpr *, 2), 2};
    out.dims[0] = s[1].dims[0];
    out.dims[1] = s[1].dims[1];
    return ops_tensor_result(out, dt, vd, ctx->call->span);
}

Value *misc_eval_multinomial_from_uniform(struct Interp *in, const Expr *call, Value **args,
                                          int nargs)
{
    Tensor *prob = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *u = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *rows = ops_kernel_tensor(in, call, args, nargs, 2);
    if (prob->ndim != 2 || u->ndim != 2 || rows->ndim != 2 || u->shape[1] != 1 ||
        rows->shape[1] != 1 || u->shape[0] != rows->shape[0] || prob->shape[1] < 1)
        misc_fail(in, call, "needs prob (batch, vocab >= 1) and two (n, 1) tensors");
    int64_t shape[2] = {u->shape[0], 1};
    Tensor *out = ops_kernel_new_tensor(in, call, ops_attr_dtype(call, "dtype"), 2, shape);
    int64_t bad = kernels_multinomial(prob, u, rows, out);
    if (bad >= 0)
        misc_fail(in, call, "sample index %lld is out of range for %lld distributions",
                  (long long)tensor_get_i64(rows, bad), (long long)prob->shape[0]);
    return value_tensor(out);
}

/* ---- ewise_fma --------------------------------------------------------------------------- */

/* OP-ewise_fma: three tensors of one rank and dtype whose dims are provably equal (an
 * undecided dim is an error, as InferStructInfoEwiseFMA). */
StructInfo *misc_infer_ewise_fma(OpInferCtx *ctx)
{
    const StructInfo *t[3];
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    for (int i = 0; i < 3; i++)
        if ((t[i] = ops_arg_tensor(ctx, i)) == NULL)
            return ops_infer_object(ctx);
    int ndim = -1;
    DataType dt = t[0]->u.tensor.dtype;
    VDevice *vd = NULL;
    for (int i = 0; i < 3; i++) {
        int d = t[i]->u.tensor.ndim;
        if (d != -1 && ndim != -1 && d != ndim)
            return ops_infer_fail(ctx, "OpShapeMismatch", "the operands need one rank");
        ndim = d != -1 ? d : ndim;
        if (dtype_is_void(t[i]->u.tensor.dtype))
            dt = t[i]->u.tensor.dtype;
        if (vd == NULL)
            vd = t[i]->u.tensor.vdevice;
    }
    for (int i = 1; i < 3 && !dtype_is_void(dt); i++)
        if (!dtype_is_void(t[i]->u.tensor.dtype) && !dtype_equal(t[i]->u.tensor.dtype, dt))
            return ops_infer_fail(ctx, "OpDTypeMismatch", "the operands need one dtype");
    OpShape s[3] = {ops_shape_of(t[0]), ops_shape_of(t[1]), ops_shape_of(t[2])};
    if (s[0].dims == NULL || s[1].dims == NULL || s[2].dims == NULL)
        return sinfo_tensor(NULL, dt, vd, ndim, ctx->call->span);
    for (int k = 0; k < ndim; k++)
        if (prover_compare(s[0].dims[k], s[1].dims[k]) != PROVE_EQUAL ||
            prover_compare(s[1].dims[k], s[2].dims[k]) != PROVE_EQUAL)
            return ops_infer_fail(ctx, "OpShapeMismatch", "the operands need one shape");
    return ops_tensor_result(s[0], dt, vd, ctx->call->span);
}

Value *misc_eval_ewise_fma(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *t[3];
    for (int i = 0; i < 3; i++)
        t[i] = ops_kernel_tensor(in, call, args, nargs, i);
    for (int i = 1; i < 3; i++)
        if (!tensor_shape_equal(t[0], t[i]) || !dtype_equal(t[0]->dtype, t[i]->dtype))
            misc_fail(in, call, "the operands need one shape and dtype");
    Tensor *out = ops_kernel_new_tensor(in, call, t[0]->dtype, t[0]->ndim, t[0]->shape);
    kernels_fma(t[0], t[1], t[2], out);
    return value_tensor(out);
}

/* ---- wrap_param -------------------------------------------------------------------------- */

/* OP-wrap_param: the data's StructInfo with the dtype attribute. */
StructInfo *misc_infer_wrap_param(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    return sinfo_tensor(x->u.tensor.shape, ops_attr_dtype(ctx->call, "dtype"), x->u.tensor.vdevice,
                        x->u.tensor.ndim, ctx->call->span);
}

/* TVM has no lowering for wrap_param (ToMixedPrecision removes it); the reference converts
 * as astype does. */
Value *misc_eval_wrap_param(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const char *err = NULL;
    return tensor_result(in, call, kernel_astype(x, ops_attr_dtype(call, "dtype"), &err), err);
}
