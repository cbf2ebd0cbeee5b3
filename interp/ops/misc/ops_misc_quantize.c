/* ops_misc_quantize: quantize and dequantize: inference as TVM's qdq.cc, values as its
 * legalization (legalize_ops/qdq.py). SPEC_NOTES: "Operators" (OP-quantize, OP-dequantize). */
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_misc.h"

static bool is_float16_or_32(DataType t)
{
    return dtype_is_float(t) && t.code != DT_BFLOAT && (t.bits == 16 || t.bits == 32);
}

static bool is_int_of(DataType t, bool is_signed, int bits)
{
    return (is_signed ? dtype_is_int(t) : dtype_is_uint(t) && !dtype_is_bool(t)) && t.bits == bits;
}

/* quantize's out_dtype: int8, uint8, int16, uint16 (or a float8, which tensors cannot hold). */
static bool quantized_dtype(DataType t)
{
    return is_int_of(t, true, 8) || is_int_of(t, false, 8) || is_int_of(t, true, 16) ||
           is_int_of(t, false, 16) || (dtype_is_float(t) && t.bits == 8);
}

/* A scale or zero point: a scalar tensor, or one whose first dim is provably the data's dim
 * at the axis (TVM's check_param_size). */
static bool check_param(OpInferCtx *ctx, const StructInfo *p, OpShape data, int axis,
                        const char *name)
{
    OpShape s = ops_shape_of(p);
    if (s.dims != NULL && s.ndim == 0)
        return true;
    if (s.dims != NULL && s.ndim > 0 && data.dims != NULL &&
        prover_compare(s.dims[0], data.dims[axis]) == PROVE_EQUAL)
        return true;
    ops_infer_fail(ctx, "OpShapeMismatch", "%s must be a scalar or have the data's dim %d", name,
                   axis);
    return false;
}

/* The shared checks of InferStructInfoQuantize and InferStructInfoDequantize once the data's
 * dtype has passed: scale float16/float32, zero_point int8/float16, axis in range, parameter
 * sizes; the data's StructInfo with out_dtype. */
static StructInfo *infer_qdq(OpInferCtx *ctx, const StructInfo *const *t, DataType out)
{
    if (!is_float16_or_32(t[1]->u.tensor.dtype))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "scale must be float16 or float32, got %s",
                              dtype_str(t[1]->u.tensor.dtype));
    DataType z = t[2]->u.tensor.dtype;
    if (!is_int_of(z, true, 8) && !(dtype_is_float(z) && z.code != DT_BFLOAT && z.bits == 16))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "zero_point must be int8 or float16, got %s",
                              dtype_str(z));
    int ndim = t[0]->u.tensor.ndim, axis;
    if (ndim < 0)
        return ops_infer_fail(ctx, "OpAttr", "the axis needs the data's rank");
    if (!ops_normalize_axis(ctx, ops_attr_int(ctx->call, "axis", -1), ndim, &axis))
        return ops_infer_object(ctx);
    OpShape data = ops_shape_of(t[0]);
    if (!check_param(ctx, t[1], data, axis, "scale") ||
        !check_param(ctx, t[2], data, axis, "zero_point"))
        return ops_infer_object(ctx);
    return sinfo_tensor(t[0]->u.tensor.shape, out, t[0]->u.tensor.vdevice, ndim, ctx->call->span);
}

static bool qdq_args(OpInferCtx *ctx, const StructInfo **t)
{
    if (!ops_check_arity(ctx, 3, 3))
        return false;
    for (int i = 0; i < 3; i++)
        if ((t[i] = ops_arg_tensor(ctx, i)) == NULL)
            return false;
    return true;
}

/* OP-quantize: float16/float32 data, out_dtype as quantized_dtype. */
StructInfo *misc_infer_quantize(OpInferCtx *ctx)
{
    const StructInfo *t[3];
    DataType out = ops_attr_dtype(ctx->call, "out_dtype");
    if (!quantized_dtype(out))
        return ops_infer_fail(ctx, "OpAttr", "quantize cannot produce %s", dtype_str(out));
    if (!qdq_args(ctx, t))
        return ops_infer_object(ctx);
    if (!is_float16_or_32(t[0]->u.tensor.dtype))
        return ops_infer_fail(ctx, "OpDTypeMismatch",
                              "quantize needs float16 or float32 data, "
                              "got %s",
                              dtype_str(t[0]->u.tensor.dtype));
    return infer_qdq(ctx, t, out);
}

/* OP-dequantize: int8, uint8, int16, uint16, int32, float8, float16 or float32 data; out_dtype
 * float16 or float32. */
StructInfo *misc_infer_dequantize(OpInferCtx *ctx)
{
    const StructInfo *t[3];
    DataType out = ops_attr_dtype(ctx->call, "out_dtype");
    if (!is_float16_or_32(out))
        return ops_infer_fail(ctx, "OpAttr", "dequantize cannot produce %s", dtype_str(out));
    if (!qdq_args(ctx, t))
        return ops_infer_object(ctx);
    DataType d = t[0]->u.tensor.dtype;
    if (!quantized_dtype(d) && !is_int_of(d, true, 32) && !is_float16_or_32(d))
        return ops_infer_fail(ctx, "OpDTypeMismatch", "dequantize cannot read %s data",
                              dtype_str(d));
    return infer_qdq(ctx, t, out);
}

/* The run-time form of the checks: a parameter of rank 0, or 1-D of the axis' length. */
static void check_param_run(struct Interp *in, const Expr *call, const Tensor *p, const Tensor *x,
                            int axis, const char *name)
{
    if (p->ndim == 0 || (p->ndim == 1 && x->ndim > 0 && p->shape[0] == x->shape[axis]))
        return;
    misc_fail(in, call, "%s must be a scalar or 1-D of the data's dim %d", name, axis);
}

static Value *run_qdq(struct Interp *in, const Expr *call, Value **args, int nargs, bool quant)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *scale = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *zp = ops_kernel_tensor(in, call, args, nargs, 2);
    int axis =
        x->ndim == 0 ? 0 : ops_kernel_axis(in, call, ops_attr_int(call, "axis", -1), x->ndim);
    check_param_run(in, call, scale, x, axis, "scale");
    check_param_run(in, call, zp, x, axis, "zero_point");
    if (!dtype_is_float(scale->dtype))
        misc_fail(in, call, "scale must be a float tensor, got %s", dtype_str(scale->dtype));
    if (quant && !dtype_is_float(x->dtype))
        misc_fail(in, call, "quantize needs float data, got %s", dtype_str(x->dtype));
    Tensor *out =
        ops_kernel_new_tensor(in, call, ops_attr_dtype(call, "out_dtype"), x->ndim, x->shape);
    QdqParams qp = {scale, zp, axis};
    if (quant)
        kernels_quantize(x, &qp, out);
    else
        kernels_dequantize(x, &qp, out);
    return value_tensor(out);
}

Value *misc_eval_quantize(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return run_qdq(in, call, args, nargs, true);
}

Value *misc_eval_dequantize(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return run_qdq(in, call, args, nargs, false);
}
