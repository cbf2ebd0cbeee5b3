/* ops_window_conv: StructInfo inference and kernels of conv1d, conv2d, conv3d, conv1d_transpose
 * and conv2d_transpose in every data, kernel and output layout TVM converts (permuted, packed).
 * SPEC_NOTES: "Operators" (OP-nn.conv1d, OP-nn.conv2d, OP-nn.conv1d_transpose, ...). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_window_internal.h"
#include "interp/structinfo/prover.h"

typedef struct ConvKind {
    const char *name;
    int nsp;
    bool transpose;
    const char *data; /* canonical data layout */
    const char *kernel;
} ConvKind;

static const ConvKind CONV_KINDS[] = {
    {"relax.nn.conv1d", 1, false, "NCW", "OIW"},
    {"relax.nn.conv2d", 2, false, "NCHW", "OIHW"},
    {"relax.nn.conv3d", 3, false, "NCDHW", "OIDHW"},
    {"relax.nn.conv1d_transpose", 1, true, "NCW", "IOW"},
    {"relax.nn.conv2d_transpose", 2, true, "NCHW", "IOHW"},
};

static const ConvKind *conv_kind(const Expr *call)
{
    const char *name = call->u.call.op->u.op_name;
    for (size_t i = 0; i < sizeof(CONV_KINDS) / sizeof(CONV_KINDS[0]); i++)
        if (strcmp(CONV_KINDS[i].name, name) == 0)
            return &CONV_KINDS[i];
    return &CONV_KINDS[0];
}

typedef struct ConvSetup {
    const ConvKind *kind;
    WindowConv p;
    PackedLayout data, kernel, out;
} ConvSetup;

/* The three layouts, each converting to its canonical one (CheckTensorLayout); out_layout
 * defaults to data_layout. NULL, or what is wrong. */
static const char *read_layouts(const Expr *call, ConvSetup *s)
{
    const ConvKind *k = s->kind;
    const char *dl = ops_attr_str(call, "data_layout", k->data), *why;
    if ((why = ops_window_packed(dl, k->data, &s->data)) != NULL)
        return mem_printf("data layout \"%s\" does not convert to %s: %s", dl, k->data, why);
    const char *kl = ops_attr_str(call, "kernel_layout", k->kernel);
    if ((why = ops_window_packed(kl, k->kernel, &s->kernel)) != NULL)
        return mem_printf("kernel layout \"%s\" does not convert to %s: %s", kl, k->kernel, why);
    const char *ol = ops_attr_str(call, "out_layout", dl);
    if ((why = ops_window_packed(ol, k->data, &s->out)) != NULL)
        return mem_printf("output layout \"%s\" does not convert to %s: %s", ol, k->data, why);
    return NULL;
}

/* The attributes as TVM's constructor and inference accept them: lists of the spatial rank
 * (or one value), positive strides, dilation and groups, output padding below the stride,
 * and layouts TVM converts to the canonical ones. NULL, or what is wrong. */
static const char *read_conv(const Expr *call, ConvSetup *s)
{
    const ConvKind *k = s->kind = conv_kind(call);
    WindowConv *p = &s->p;
    memset(p, 0, sizeof *p);
    p->nsp = k->nsp;
    p->transpose = k->transpose;
    p->groups = ops_attr_int(call, "groups", 1);
    if (!ops_window_read_list(call, "strides", k->nsp, 1, p->strides) ||
        !ops_window_read_list(call, "dilation", k->nsp, 1, p->dilation) ||
        !ops_window_read_padding(call, k->nsp, p->pad_lo, p->pad_hi) ||
        (k->transpose && !ops_window_read_list(call, "output_padding", k->nsp, 0, p->out_pad)))
        return "unsupported strides, padding, output_padding or dilation";
    if (p->groups <= 0)
        return "groups must be positive";
    for (int i = 0; i < k->nsp; i++)
        if (p->strides[i] <= 0 || p->dilation[i] <= 0 || p->out_pad[i] < 0 ||
            (k->transpose && p->out_pad[i] >= p->strides[i]))
            return "strides and dilation must be positive, output_padding below the stride";
    return read_layouts(call, s);
}

static bool rank_fits(OpInferCtx *ctx, const StructInfo *t, int rank, const char *what)
{
    if (t->u.tensor.ndim < 0 || t->u.tensor.ndim == rank)
        return true;
    ops_infer_fail(ctx, "OpShapeMismatch", "%s must have rank %d for its layout, got %d", what,
                   rank, t->u.tensor.ndim);
    return false;
}

/* The channel checks TVM makes where provable. Forward: data channels = weight input
 * channels x groups; output channels divisible by groups. Transposed: data channels = the
 * weight's input channels, which groups divide. */
static bool check_channels(OpInferCtx *ctx, const ConvSetup *s, PrimExpr **d, PrimExpr **w)
{
    Span sp = ctx->call->span;
    int64_t g = s->p.groups, c;
    bool over = false;
    PrimExpr *need = w[s->p.transpose ? 0 : 1];
    if (!s->p.transpose && g != 1)
        need = prover_const_int(need, &c)
                   ? primexpr_int(checked_mul(c, g, &over), dtype_int64(), sp)
                   : primexpr_binary(PE_MUL, need, primexpr_int(g, dtype_int64(), sp), sp);
    if (over) {
        ops_infer_fail(ctx, "OpShapeOverflow", "weight input channels times %lld groups overflow",
                       (long long)g);
        return false;
    }
    if (prover_compare(d[1], need) == PROVE_UNEQUAL) {
        ops_infer_fail(ctx, "OpShapeMismatch",
                       "data channels do not match the weight's input "
                       "channels");
        return false;
    }
    if (prover_const_int(w[0], &c) && c % g != 0) {
        ops_infer_fail(ctx, "OpShapeMismatch", "channels %lld not divisible by %lld groups",
                       (long long)c, (long long)g);
        return false;
    }
    return true;
}

/* (in - 1) stride - pads + dilation (k - 1) + output_padding + 1, folded to in * stride + c
 * (or in + c for a unit stride); NULL when a folded constant overflows. */
static PrimExpr *transpose_extent(PrimExpr *in, PrimExpr *k, const WindowConv *p, int a, Span sp)
{
    bool over = false;
    int64_t s = p->strides[a], d = p->dilation[a], kc, in_c;
    int64_t pads = checked_add(p->pad_lo[a], p->pad_hi[a], &over);
    if (prover_const_int(in, &in_c) && prover_const_int(k, &kc)) {
        int64_t e = kernels_window_transpose_extent(in_c, kc, s, d, pads, p->out_pad[a]);
        return over || e == WINDOW_EXTENT_OVERFLOW ? NULL : primexpr_int(e, dtype_int64(), sp);
    }
    PrimExpr *base =
        s == 1 ? in : primexpr_binary(PE_MUL, in, primexpr_int(s, dtype_int64(), sp), sp);
    int64_t c =
        checked_add(checked_sub(checked_neg(s, &over), pads, &over), p->out_pad[a] + 1, &over);
    if (prover_const_int(k, &kc)) {
        c = checked_add(c, checked_mul(d, checked_sub(kc, 1, &over), &over), &over);
        return over ? NULL : ops_window_add_const(base, c, sp);
    }
    PrimExpr *dk = d == 1 ? k : primexpr_binary(PE_MUL, primexpr_int(d, dtype_int64(), sp), k, sp);
    c = checked_sub(c, d, &over);
    return over ? NULL : ops_window_add_const(primexpr_binary(PE_ADD, base, dk, sp), c, sp);
}

/* The output dims in out_layout, from the canonical data and weight dims; NULL after an
 * error. */
static PrimExpr **conv_out_dims(OpInferCtx *ctx, const ConvSetup *s, PrimExpr **d, PrimExpr **w)
{
    const WindowConv *p = &s->p;
    Span sp = ctx->call->span;
    PrimExpr *canon[WINDOW_MAX_RANK];
    canon[0] = d[0];
    canon[1] = !p->transpose ? w[0]
               : p->groups == 1
                   ? w[1]
                   : primexpr_binary(PE_MUL, w[1], primexpr_int(p->groups, dtype_int64(), sp), sp);
    int64_t c;
    if (p->transpose && prover_const_int(w[1], &c)) {
        bool over = false;
        c = checked_mul(c, p->groups, &over);
        canon[1] = over ? NULL : primexpr_int(c, dtype_int64(), sp);
    }
    for (int a = 0; a < p->nsp; a++) {
        bool over = false;
        int64_t pads = checked_add(p->pad_lo[a], p->pad_hi[a], &over);
        canon[2 + a] = p->transpose ? transpose_extent(d[2 + a], w[2 + a], p, a, sp)
                       : over       ? NULL
                                    : ops_window_extent(d[2 + a], w[2 + a], pads, p->strides[a],
                                                        p->dilation[a], false, sp);
    }
    if (!ops_window_check_extents(ctx, canon, p->nsp + 2))
        return NULL;
    return ops_window_out_dims(ctx, &s->out, canon);
}

/* OP-nn.conv1d, OP-nn.conv2d, OP-nn.conv3d, OP-nn.conv1d_transpose, OP-nn.conv2d_transpose:
 * the output in out_layout; dtype out_dtype or the operands' common dtype. */
StructInfo *ops_window_infer_conv(OpInferCtx *ctx)
{
    ConvSetup s;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *w = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (w == NULL)
        return ops_infer_object(ctx);
    const char *why = read_conv(ctx->call, &s);
    if (why != NULL)
        return ops_infer_fail(ctx, "OpAttr", "%s", why);
    if (!rank_fits(ctx, x, s.data.axes.ndim, "data") ||
        !rank_fits(ctx, w, s.kernel.axes.ndim, "weight"))
        return ops_infer_object(ctx);
    DataType dt = ops_attr_dtype(ctx->call, "out_dtype");
    if (dtype_is_void(dt) && !ops_unify_dtype(ctx, x->u.tensor.dtype, w->u.tensor.dtype, &dt))
        return ops_infer_object(ctx);
    VDevice *vd = ops_pick_vdevice(x, w);
    OpShape ds = ops_shape_of(x), ws = ops_shape_of(w), out = {NULL, s.out.axes.ndim};
    if (ds.dims == NULL || ws.dims == NULL)
        return ops_tensor_result(out, dt, vd, ctx->call->span);
    PrimExpr *d[WINDOW_MAX_RANK], *k[WINDOW_MAX_RANK];
    if (!ops_window_dims_to_canonical(ctx, &s.data, ds.dims, d) ||
        !ops_window_dims_to_canonical(ctx, &s.kernel, ws.dims, k) || !check_channels(ctx, &s, d, k))
        return ops_infer_object(ctx);
    out.dims = conv_out_dims(ctx, &s, d, k);
    if (out.dims == NULL)
        return ops_infer_object(ctx);
    return ops_tensor_result(out, dt, vd, ctx->call->span);
}

/* Computes in the canonical layouts: the operands moved there, the result moved to out_layout. */
Value *ops_window_kernel_conv(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    ConvSetup s;
    int64_t shape[WINDOW_MAX_RANK];
    const char *why = read_conv(call, &s);
    if (why != NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", why);
    int rank = s.p.nsp + 2;
    Tensor *x = ops_window_tensor_to_canonical(in, call, &s.data,
                                               ops_kernel_tensor(in, call, args, nargs, 0));
    Tensor *w = ops_window_tensor_to_canonical(in, call, &s.kernel,
                                               ops_kernel_tensor(in, call, args, nargs, 1));
    if (!kernels_window_conv_shape(x->shape, w->shape, &s.p, shape))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the shapes and parameters of the convolution do not fit");
    /* LIMIT-fuel: one unit per multiply-accumulate, before the work: every output element of
     * a convolution (every input element of a transposed one) meets one weight slice, the
     * weight's elements over its first axis (none when either side is empty, whatever the
     * other dims). */
    int64_t factors[WINDOW_MAX_RANK + 1];
    for (int k = 0; k < rank; k++)
        factors[k] = s.p.transpose ? x->shape[k] : shape[k];
    factors[rank] = w->shape[0] > 0 ? w->numel / w->shape[0] : 0;
    interp_charge(in, checked_count(factors, rank + 1), call->span);
    DataType dt = ops_attr_dtype(call, "out_dtype");
    Tensor *out = ops_kernel_new_tensor(in, call, dtype_is_void(dt) ? x->dtype : dt, rank, shape);
    kernels_window_conv(x, w, &s.p, out);
    return value_tensor(ops_window_tensor_from_canonical(in, call, &s.out, out));
}
