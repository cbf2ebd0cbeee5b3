/* ops_pad: StructInfo inference and the kernel of nn.pad (constant, reflect, replicate,
 * circular). SPEC_NOTES: "Operators" (OP-nn.pad). */
#include "interp/ops/ops_pad.h"

#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_pad.h"

/* TVM's legalization: "reflect", "replicate" and "circular" by name, anything else is the
 * constant mode. */
static PadMode pad_mode(const Expr *call)
{
    const char *m = ops_attr_str(call, "pad_mode", "constant");
    if (strcmp(m, "reflect") == 0)
        return PAD_REFLECT;
    if (strcmp(m, "replicate") == 0)
        return PAD_REPLICATE;
    if (strcmp(m, "circular") == 0)
        return PAD_CIRCULAR;
    return PAD_CONSTANT;
}

/* OP-nn.pad: pad_width holds (before, after) per axis, 2 ndim non-negative values (else
 * OpAttr); each dim grows by its two widths; without a known shape only rank and dtype stay.
 * No vdevice, as TVM's InferStructInfoPad builds the result (VDEV-2 then gives the
 * operand's). */
StructInfo *ops_pad_infer(OpInferCtx *ctx)
{
    int64_t *w;
    int n = 0;
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    int ndim = x->u.tensor.ndim;
    if (!ops_attr_int_list(ctx->call, "pad_width", &w, &n) || (ndim >= 0 && n != 2 * ndim))
        return ops_infer_fail(ctx, "OpAttr", "pad_width must hold 2 values per axis");
    for (int i = 0; i < n; i++)
        if (w[i] < 0)
            return ops_infer_fail(ctx, "OpAttr", "pad_width must not be negative");
    OpShape s = ops_shape_of(x), out = {NULL, ndim};
    Span sp = ctx->call->span;
    if (s.dims == NULL)
        return ops_tensor_result(out, x->u.tensor.dtype, NULL, sp);
    out.dims = MEM_ARRAY(PrimExpr *, ndim > 0 ? ndim : 1);
    for (int i = 0; i < ndim; i++) {
        bool over = false;
        int64_t add = checked_add(w[2 * i], w[2 * i + 1], &over), c;
        bool folds = prover_const_int(s.dims[i], &c);
        c = folds ? checked_add(c, add, &over) : 0;
        if (over)
            return ops_infer_fail(ctx, "OpShapeOverflow", "dim %d padded overflows int64", i);
        out.dims[i] = folds      ? primexpr_int(c, dtype_int64(), sp)
                      : add == 0 ? s.dims[i]
                                 : primexpr_binary(PE_ADD, s.dims[i],
                                                   primexpr_int(add, dtype_int64(), sp), sp);
    }
    return ops_tensor_result(out, x->u.tensor.dtype, NULL, sp);
}

Value *ops_pad_kernel(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    int64_t *w, before[TENSOR_MAX_NDIM], shape[TENSOR_MAX_NDIM];
    int n = 0;
    PadMode mode = pad_mode(call);
    if (!ops_attr_int_list(call, "pad_width", &w, &n) || n != 2 * x->ndim)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "pad_width must hold 2 values per axis");
    for (int a = 0; a < x->ndim; a++) {
        int64_t len = x->shape[a], lo = w[2 * a], hi = w[2 * a + 1];
        bool over = false;
        shape[a] = checked_add(checked_add(len, lo, &over), hi, &over);
        bool fits = lo >= 0 && hi >= 0 && !over &&
                    (mode == PAD_CONSTANT ||
                     (len > 0 && (lo + hi == 0 || mode != PAD_REFLECT || (lo < len && hi < len))));
        if (!fits)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "axis %d of length %lld cannot be padded by (%lld, %lld) in this mode", a,
                        (long long)len, (long long)lo, (long long)hi);
        before[a] = lo;
    }
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, shape);
    kernels_pad(x, mode, before, ops_attr_float(call, "pad_value", 0.0), out);
    return value_tensor(out);
}
