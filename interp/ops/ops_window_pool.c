/* ops_window_pool: StructInfo inference and kernels of max/avg pooling and adaptive average
 * pooling over one to three spatial axes, in every layout TVM converts (permuted, packed).
 * SPEC_NOTES: "Operators" (OP-nn.max_pool2d, OP-nn.adaptive_avg_pool2d, ...). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_window_internal.h"
#include "interp/structinfo/prover.h"

/* The canonical layout of a pooling operator, from the spatial rank its name ends in. */
static const char *canonical_layout(const Expr *call)
{
    const char *name = call->u.call.op->u.op_name;
    size_t n = strlen(name);
    char digit = n >= 2 ? name[n - 2] : '2';
    return digit == '1' ? "NCW" : digit == '3' ? "NCDHW" : "NCHW";
}

typedef struct PoolSetup {
    WindowPool p;
    PackedLayout in, out;
    int nsp;
} PoolSetup;

/* layout and out_layout (defaulting to layout), each converting to the canonical layout
 * (CheckTensorLayout). NULL, or what is wrong. */
static const char *read_layouts(const Expr *call, PoolSetup *s)
{
    const char *canon = canonical_layout(call), *why;
    const char *layout = ops_attr_str(call, "layout", canon);
    s->nsp = (int)strlen(canon) - 2;
    if ((why = ops_window_packed(layout, canon, &s->in)) != NULL)
        return mem_printf("layout \"%s\" does not convert to %s: %s", layout, canon, why);
    const char *out = ops_attr_str(call, "out_layout", layout);
    if ((why = ops_window_packed(out, canon, &s->out)) != NULL)
        return mem_printf("output layout \"%s\" does not convert to %s: %s", out, canon, why);
    return NULL;
}

static const char *read_pool(const Expr *call, PoolSetup *s)
{
    WindowPool *p = &s->p;
    memset(p, 0, sizeof *p);
    p->nsp = s->nsp = (int)strlen(canonical_layout(call)) - 2;
    p->ceil_mode = ops_attr_bool(call, "ceil_mode", false);
    p->count_include_pad = ops_attr_bool(call, "count_include_pad", false);
    if (!ops_window_read_list(call, "pool_size", p->nsp, 1, p->pool_size) ||
        !ops_window_read_list(call, "strides", p->nsp, 1, p->strides) ||
        !ops_window_read_list(call, "dilation", p->nsp, 1, p->dilation) ||
        !ops_window_read_padding(call, p->nsp, p->pad_lo, p->pad_hi))
        return "unsupported pool_size, strides, padding or dilation";
    for (int k = 0; k < p->nsp; k++)
        if (p->pool_size[k] <= 0 || p->strides[k] <= 0 || p->dilation[k] <= 0)
            return "pool_size, strides and dilation must be positive";
    return read_layouts(call, s);
}

static bool rank_fits(OpInferCtx *ctx, const StructInfo *t, int rank)
{
    if (t->u.tensor.ndim < 0 || t->u.tensor.ndim == rank)
        return true;
    ops_infer_fail(ctx, "OpShapeMismatch", "data must have rank %d for its layout, got %d", rank,
                   t->u.tensor.ndim);
    return false;
}

/* OP-nn.max_pool1d/2d/3d, OP-nn.avg_pool1d/2d/3d: (N, C, out...) in out_layout with out =
 * floordiv(in + pads - dilation (k - 1) - 1 [+ stride - 1 in ceil mode], stride) + 1, less a last
 * ceil-mode window starting in the back padding (a symbolic extent in ceil mode leaves the rank
 * only); the data's dtype. */
StructInfo *ops_window_infer_pool(OpInferCtx *ctx)
{
    PoolSetup s;
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    const char *why = read_pool(ctx->call, &s);
    if (why != NULL)
        return ops_infer_fail(ctx, "OpAttr", "%s", why);
    if (!rank_fits(ctx, x, s.in.axes.ndim))
        return ops_infer_object(ctx);
    Span sp = ctx->call->span;
    OpShape ds = ops_shape_of(x), out = {NULL, s.out.axes.ndim};
    if (ds.dims == NULL)
        return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
    PrimExpr *canon[WINDOW_MAX_RANK];
    if (!ops_window_dims_to_canonical(ctx, &s.in, ds.dims, canon))
        return ops_infer_object(ctx);
    for (int k = 0; k < s.p.nsp; k++) {
        int64_t in_dim, e;
        bool over = false;
        int64_t pads = checked_add(s.p.pad_lo[k], s.p.pad_hi[k], &over);
        if (over) {
            canon[2 + k] = NULL;
        } else if (!s.p.ceil_mode) {
            canon[2 + k] =
                ops_window_extent(canon[2 + k], primexpr_int(s.p.pool_size[k], dtype_int64(), sp),
                                  pads, s.p.strides[k], s.p.dilation[k], false, sp);
        } else if (prover_const_int(canon[2 + k], &in_dim)) {
            e = kernels_window_pool_extent(in_dim, &s.p, k);
            canon[2 + k] = e == WINDOW_EXTENT_OVERFLOW ? NULL : primexpr_int(e, dtype_int64(), sp);
        } else {
            /* Whether the last window is dropped depends on the symbolic extent. */
            return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
        }
    }
    if (!ops_window_check_extents(ctx, canon, s.in.axes.canon_ndim))
        return ops_infer_object(ctx);
    out.dims = ops_window_out_dims(ctx, &s.out, canon);
    if (out.dims == NULL)
        return ops_infer_object(ctx);
    return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
}

static Value *pool_kernel(struct Interp *in, const Expr *call, Value **args, int nargs, bool is_max)
{
    PoolSetup s;
    int64_t shape[WINDOW_MAX_RANK];
    const char *why = read_pool(call, &s);
    if (why != NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", why);
    Tensor *x = ops_window_tensor_to_canonical(in, call, &s.in,
                                               ops_kernel_tensor(in, call, args, nargs, 0));
    if (!kernels_window_pool_shape(x->shape, &s.p, shape))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the shape and parameters of the pooling do not fit");
    /* LIMIT-fuel: one unit per element a window reads, before the work: the output's
     * elements times the window's (none for an empty output, whatever its other dims). */
    int64_t factors[2 * WINDOW_MAX_RANK];
    int nf = 0;
    for (int k = 0; k < s.p.nsp + 2; k++)
        factors[nf++] = shape[k];
    for (int k = 0; k < s.p.nsp; k++)
        factors[nf++] = s.p.pool_size[k];
    interp_charge(in, checked_count(factors, nf), call->span);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, s.p.nsp + 2, shape);
    kernels_window_pool(x, &s.p, is_max, out);
    return value_tensor(ops_window_tensor_from_canonical(in, call, &s.out, out));
}

Value *ops_window_kernel_max_pool(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return pool_kernel(in, call, args, nargs, true);
}

Value *ops_window_kernel_avg_pool(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return pool_kernel(in, call, args, nargs, false);
}

/* ---- adaptive average pooling ------------------------------------------------------------ */

/* output_size: None (keep the input's spatial dims), one value for every axis, or one per
 * axis; every value positive. */
static bool read_output_size(const Expr *call, int nsp, int64_t *out, bool *given)
{
    *given = ops_attr(call, "output_size") != NULL;
    if (!*given)
        return true;
    if (!ops_window_read_list(call, "output_size", nsp, 1, out))
        return false;
    for (int k = 0; k < nsp; k++)
        if (out[k] <= 0)
            return false;
    return true;
}

/* OP-nn.adaptive_avg_pool1d, OP-nn.adaptive_avg_pool2d, OP-nn.adaptive_avg_pool3d: the data's
 * dims in out_layout with the spatial ones replaced by output_size (kept when None). */
StructInfo *ops_window_infer_adaptive(OpInferCtx *ctx)
{
    PoolSetup s;
    int64_t size[WINDOW_MAX_SPATIAL];
    bool given;
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL)
        return ops_infer_object(ctx);
    const char *why = read_layouts(ctx->call, &s);
    if (why != NULL)
        return ops_infer_fail(ctx, "OpAttr", "%s", why);
    if (!read_output_size(ctx->call, s.nsp, size, &given))
        return ops_infer_fail(ctx, "OpAttr", "unsupported output_size");
    if (!rank_fits(ctx, x, s.in.axes.ndim))
        return ops_infer_object(ctx);
    Span sp = ctx->call->span;
    OpShape ds = ops_shape_of(x), out = {NULL, s.out.axes.ndim};
    if (ds.dims == NULL)
        return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
    PrimExpr *canon[WINDOW_MAX_RANK];
    if (!ops_window_dims_to_canonical(ctx, &s.in, ds.dims, canon))
        return ops_infer_object(ctx);
    for (int k = 0; given && k < s.nsp; k++)
        canon[2 + k] = primexpr_int(size[k], dtype_int64(), sp);
    out.dims = ops_window_out_dims(ctx, &s.out, canon);
    if (out.dims == NULL)
        return ops_infer_object(ctx);
    return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
}

Value *ops_window_kernel_adaptive(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    PoolSetup s;
    int64_t size[WINDOW_MAX_SPATIAL], shape[WINDOW_MAX_RANK];
    bool given;
    if (read_layouts(call, &s) != NULL || !read_output_size(call, s.nsp, size, &given))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "unsupported adaptive pooling attributes");
    Tensor *x = ops_window_tensor_to_canonical(in, call, &s.in,
                                               ops_kernel_tensor(in, call, args, nargs, 0));
    for (int k = 0; k < x->ndim; k++)
        shape[k] = k >= 2 && given ? size[k - 2] : x->shape[k];
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, shape);
    /* LIMIT-fuel: one unit per element a window reads, before the work (windows overlap:
     * 40,000 outputs from a 40,000 x 1 input along the other axis read 1.6e9 elements). */
    interp_charge(in, kernels_window_adaptive_reads(x, shape), call->span);
    kernels_window_adaptive_avg(x, out);
    return value_tensor(ops_window_tensor_from_canonical(in, call, &s.out, out));
}
