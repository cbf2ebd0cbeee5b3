/* ops_loss: StructInfo inference and kernels of cross_entropy_with_logits and nll_loss.
 * SPEC_NOTES: "Operators" (OP-nn.cross_entropy_with_logits, OP-nn.nll_loss). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/norm/ops_norm_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_norm.h"

static StructInfo *scalar_result(OpInferCtx *ctx, DataType dtype, VDevice *vdevice)
{
    PrimExpr *none[1] = {NULL};
    OpShape scalar = {none, 0};
    return ops_tensor_result(scalar, dtype, vdevice, ctx->call->span);
}

/* ---- cross_entropy_with_logits ---------------------------------------------------------- */

/* OP-nn.cross_entropy_with_logits: a scalar of the operands' common dtype; equal ranks and
 * no provably unequal dims. */
StructInfo *ops_norm_infer_cross_entropy(OpInferCtx *ctx)
{
    const StructInfo *in[2];
    DataType dtype;
    if (!norm_tensor_args(ctx, 2, 2, in) ||
        !ops_unify_dtype(ctx, in[0]->u.tensor.dtype, in[1]->u.tensor.dtype, &dtype))
        return ops_infer_object(ctx);
    int a = in[0]->u.tensor.ndim, b = in[1]->u.tensor.ndim;
    if (a >= 0 && b >= 0 && a != b)
        return ops_infer_fail(ctx, "OpShapeMismatch", "ranks %d and %d differ", a, b);
    OpShape x = ops_shape_of(in[0]), y = ops_shape_of(in[1]);
    for (int d = 0; x.dims != NULL && y.dims != NULL && d < x.ndim; d++)
        if (!norm_dims_agree(ctx, x.dims[d], y.dims[d], "the predictions' and labels' dims", NULL))
            return ops_infer_object(ctx);
    return scalar_result(ctx, dtype, ops_pick_vdevice(in[0], in[1]));
}

Value *ops_norm_kernel_cross_entropy(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *y = ops_kernel_tensor(in, call, args, nargs, 1);
    if (!dtype_equal(x->dtype, y->dtype) || !tensor_shape_equal(x, y))
        norm_kernel_fail(in, call, "the predictions and labels differ in dtype or shape");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, 0, NULL);
    if (!kernels_norm_cross_entropy(x, y, out))
        norm_kernel_fail(in, call, "an integer mean over an empty batch");
    return value_tensor(out);
}

/* ---- nll_loss --------------------------------------------------------------------------- */

static bool reduction_of(const Expr *call, NllReduction *out)
{
    const char *r = ops_attr_str(call, "reduction", "mean");
    *out = strcmp(r, "none") == 0 ? NLL_NONE : strcmp(r, "sum") == 0 ? NLL_SUM : NLL_MEAN;
    return strcmp(r, "none") == 0 || strcmp(r, "sum") == 0 || strcmp(r, "mean") == 0;
}

/* TVM's rank checks: predictions of rank >= 1, K = rank - 2 (0 up to rank 2) extra dims,
 * targets with as many (rank - 1, 0 up to rank 1), integer targets, weights of rank 1. */
static bool nll_ranks(OpInferCtx *ctx, const StructInfo *p, const StructInfo *t,
                      const StructInfo *w)
{
    DataType tt = t->u.tensor.dtype;
    if (!dtype_is_void(tt) && !dtype_is_int(tt) && !dtype_is_uint(tt)) {
        ops_infer_fail(ctx, "OpDTypeMismatch", "targets must be integers, got %s", dtype_str(tt));
        return false;
    }
    int pn = p->u.tensor.ndim, tn = t->u.tensor.ndim;
    if (pn >= 0 && pn < 1) {
        ops_infer_fail(ctx, "OpShapeMismatch", "predictions need rank 1 or more");
        return false;
    }
    if (pn >= 0 && tn >= 0 && (pn <= 2 ? 0 : pn - 2) != (tn <= 1 ? 0 : tn - 1)) {
        ops_infer_fail(ctx, "OpShapeMismatch", "predictions of rank %d and targets of rank %d", pn,
                       tn);
        return false;
    }
    if (w != NULL && w->u.tensor.ndim >= 0 && w->u.tensor.ndim != 1) {
        ops_infer_fail(ctx, "OpShapeMismatch", "weights must have rank 1");
        return false;
    }
    return true;
}

/* The shapes: predictions (C,) with a scalar target, or (N, C, d...) with targets
 * (N, d...); weights (C,). */
static bool nll_shapes(OpInferCtx *ctx, OpShape p, OpShape t, const StructInfo *w)
{
    const PrimExpr *classes = p.dims == NULL ? NULL : p.dims[p.ndim == 1 ? 0 : 1];
    bool batched = p.dims != NULL && p.ndim >= 2;
    if (t.dims != NULL && t.ndim == 0 && batched) {
        ops_infer_fail(ctx, "OpShapeMismatch", "predictions (N, C, ...) with a scalar target");
        return false;
    }
    if (t.dims != NULL && t.ndim > 0) {
        if (p.dims != NULL && !batched) {
            ops_infer_fail(ctx, "OpShapeMismatch", "predictions (C,) with targets not a scalar");
            return false;
        }
        for (int d = 0; batched && d < t.ndim && d + 1 < p.ndim; d++)
            if (!norm_dims_agree(ctx, p.dims[d == 0 ? 0 : d + 1], t.dims[d],
                                 "the predictions' and targets' dims", NULL))
                return false;
    }
    OpShape ws = w != NULL ? ops_shape_of(w) : (OpShape){NULL, -1};
    if (ws.dims != NULL && ws.ndim == 1 && classes != NULL &&
        !norm_dims_agree(ctx, classes, ws.dims[0], "the class counts", NULL))
        return false;
    return true;
}

/* OP-nn.nll_loss: predictions, targets and optional weights (of the predictions' dtype);
 * "none" gives (N, d...) (a scalar for predictions (C,)), "sum" and "mean" a scalar. */
StructInfo *ops_norm_infer_nll_loss(OpInferCtx *ctx)
{
    const StructInfo *in[3];
    NllReduction red;
    DataType dtype;
    if (!norm_tensor_args(ctx, 2, 3, in))
        return ops_infer_object(ctx);
    const StructInfo *p = in[0], *t = in[1], *w = ctx->nargs == 3 ? in[2] : NULL;
    if (!reduction_of(ctx->call, &red))
        return ops_infer_fail(ctx, "OpAttr", "reduction must be \"none\", \"sum\" or \"mean\"");
    dtype = p->u.tensor.dtype;
    if (w != NULL && !ops_unify_dtype(ctx, p->u.tensor.dtype, w->u.tensor.dtype, &dtype))
        return ops_infer_object(ctx);
    OpShape ps = ops_shape_of(p);
    if (!nll_ranks(ctx, p, t, w) || !nll_shapes(ctx, ps, ops_shape_of(t), w))
        return ops_infer_object(ctx);
    VDevice *vd = w != NULL ? ops_pick_vdevice(p, w) : p->u.tensor.vdevice;
    if (red != NLL_NONE || (ps.dims != NULL && ps.ndim == 1))
        return scalar_result(ctx, dtype, vd);
    if (ps.dims == NULL)
        return sinfo_tensor(NULL, dtype, vd, ps.ndim < 0 ? -1 : ps.ndim - 1, ctx->call->span);
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, ps.ndim);
    dims[0] = ps.dims[0];
    for (int d = 2; d < ps.ndim; d++)
        dims[d - 1] = ps.dims[d];
    OpShape out = {dims, ps.ndim - 1};
    return ops_tensor_result(out, dtype, vd, ctx->call->span);
}

static void nll_check(struct Interp *in, const Expr *call, const Tensor *p, const Tensor *t,
                      const Tensor *w)
{
    bool ok = p->ndim >= 1 && (dtype_is_int(t->dtype) || dtype_is_uint(t->dtype));
    if (ok && p->ndim == 1)
        ok = t->ndim == 0;
    else if (ok)
        ok = t->ndim == p->ndim - 1 && t->shape[0] == p->shape[0];
    for (int d = 1; ok && p->ndim > 1 && d < t->ndim; d++)
        ok = t->shape[d] == p->shape[d + 1];
    int64_t classes = p->ndim == 1 ? p->shape[0] : p->ndim > 1 ? p->shape[1] : 0;
    if (ok && w != NULL)
        ok = w->ndim == 1 && w->shape[0] == classes;
    if (!ok)
        norm_kernel_fail(in, call, "the predictions, targets and weights do not fit together");
}

Value *ops_norm_kernel_nll_loss(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *p = norm_float_arg(in, call, args, nargs, 0);
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *w = nargs == 3 ? norm_float_arg(in, call, args, nargs, 2) : NULL;
    NllReduction red;
    if (!reduction_of(call, &red))
        norm_kernel_fail(in, call, "reduction must be \"none\", \"sum\" or \"mean\"");
    nll_check(in, call, p, t, w);
    bool per_target = red == NLL_NONE && p->ndim > 1;
    Tensor *out = ops_kernel_new_tensor(in, call, p->dtype, per_target ? t->ndim : 0,
                                        per_target ? t->shape : NULL);
    int64_t bad =
        kernels_norm_nll_loss(p, t, w, red, ops_attr_int(call, "ignore_index", -100), out);
    if (bad >= 0)
        norm_kernel_fail(in, call, "target %lld names no class", (long long)bad);
    return value_tensor(out);
}
