/* ops_pixel_shuffle: StructInfo inference and kernel of pixel_shuffle. SPEC_NOTES:
 * "Operators" (OP-nn.pixel_shuffle). */
#include "ast/arith/simplify.h"
#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/norm/ops_norm_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_norm.h"

static PrimExpr *dim_op(PrimExprKind kind, PrimExpr *a, int64_t c)
{
    /* ARITH-1: an inferred dimension is written as TVM's analyzer writes it. */
    return arith_simplify(
        primexpr_binary(kind, a, primexpr_int(c, dtype_int64(), span_none()), span_none()));
}

/* OP-nn.pixel_shuffle: (..., C, H, W) to (..., C / r^2, H r, W r) for a positive
 * upscale_factor r and a rank of at least 3; a constant C must be a multiple of r^2. No
 * vdevice, as TVM's InferStructInfoPixelShuffle builds the result (VDEV-2 then gives the
 * operand's). */
StructInfo *ops_norm_infer_pixel_shuffle(OpInferCtx *ctx)
{
    const StructInfo *in[1];
    if (!norm_tensor_args(ctx, 1, 1, in))
        return ops_infer_object(ctx);
    int64_t r = ops_attr_int(ctx->call, "upscale_factor", 0), c;
    const StructInfo *x = in[0];
    if (r <= 0 || r > 65536)
        return ops_infer_fail(ctx, "OpAttr", "upscale_factor must be positive");
    if (x->u.tensor.ndim >= 0 && x->u.tensor.ndim < 3)
        return ops_infer_fail(ctx, "OpShapeMismatch", "pixel_shuffle needs rank 3 or more");
    OpShape s = ops_shape_of(x);
    if (s.dims == NULL)
        return sinfo_tensor(NULL, x->u.tensor.dtype, NULL, x->u.tensor.ndim, ctx->call->span);
    int n = s.ndim;
    if (prover_const_int(s.dims[n - 3], &c) && c % (r * r) != 0)
        return ops_infer_fail(ctx, "OpShapeMismatch", "%lld channels are not a multiple of %lld",
                              (long long)c, (long long)(r * r));
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, n);
    for (int d = 0; d < n - 3; d++)
        dims[d] = s.dims[d];
    dims[n - 3] = dim_op(PE_FLOORDIV, s.dims[n - 3], r * r);
    dims[n - 2] = dim_op(PE_MUL, s.dims[n - 2], r);
    dims[n - 1] = dim_op(PE_MUL, s.dims[n - 1], r);
    OpShape out = {dims, n};
    if (!ops_dims_fit(ctx, out))
        return ops_infer_object(ctx);
    return ops_tensor_result(out, x->u.tensor.dtype, NULL, ctx->call->span);
}

Value *ops_norm_kernel_pixel_shuffle(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t r = ops_attr_int(call, "upscale_factor", 0);
    if (r <= 0 || r > 65536 || x->ndim < 3 || x->shape[x->ndim - 3] % (r * r) != 0)
        norm_kernel_fail(in, call, "the channels are not a multiple of upscale_factor^2");
    int64_t shape[TENSOR_MAX_NDIM];
    int n = x->ndim;
    for (int d = 0; d < n; d++)
        shape[d] = x->shape[d];
    bool over = false;
    shape[n - 3] /= r * r;
    shape[n - 2] = checked_mul(shape[n - 2], r, &over);
    shape[n - 1] = checked_mul(shape[n - 1], r, &over);
    if (over)
        norm_kernel_fail(in, call, "the result's dims overflow int64");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, n, shape);
    kernels_norm_pixel_shuffle(x, r, out);
    return value_tensor(out);
}
