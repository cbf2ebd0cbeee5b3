/* ops_conv: StructInfo inference and kernels of conv2d, max_pool2d and avg_pool2d (NCHW
 * and OIHW layouts). SPEC_NOTES: "Operators" (OP-nn.conv2d, OP-nn.max_pool2d, ...). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/ops/ops_nn_internal.h"
#include "interp/structinfo/prover.h"
#include "values/kernels/kernels_nn.h"

/* ---- attributes ------------------------------------------------------------------------- */

/* A pair attribute (strides, dilation, pool_size): one int for both dims, or two. */
static bool read_pair(const Expr *call, const char *key, int64_t dflt, int64_t out[2])
{
    int64_t *v;
    int n;
    out[0] = out[1] = dflt;
    if (ops_attr(call, key) == NULL)
        return true;
    if (!ops_attr_int_list(call, key, &v, &n) || n < 1 || n > 2)
        return false;
    out[0] = v[0];
    out[1] = v[n - 1];
    return true;
}

/* padding as TVM completes it: 1 value for all sides, 2 as (top/bottom, left/right), 4 as
 * (top, left, bottom, right). */
static bool read_padding(const Expr *call, int64_t out[4])
{
    int64_t *v;
    int n;
    memset(out, 0, 4 * sizeof(int64_t));
    if (ops_attr(call, "padding") == NULL)
        return true;
    if (!ops_attr_int_list(call, "padding", &v, &n) || (n != 1 && n != 2 && n != 4))
        return false;
    for (int i = 0; i < 4; i++)
        out[i] = n == 4 ? v[i] : v[i % n];
    return true;
}

static bool layout_is(const Expr *call, const char *key, const char *want, bool optional)
{
    const char *s = ops_attr_str(call, key, optional ? want : "");
    return strcmp(s, want) == 0;
}

static bool read_conv(const Expr *call, NnConv2d *p)
{
    p->groups = ops_attr_int(call, "groups", 1);
    return read_pair(call, "strides", 1, p->strides) &&
           read_pair(call, "dilation", 1, p->dilation) && read_padding(call, p->padding) &&
           p->groups > 0 && p->strides[0] > 0 && p->strides[1] > 0 && p->dilation[0] > 0 &&
           p->dilation[1] > 0 && layout_is(call, "data_layout", "NCHW", true) &&
           layout_is(call, "kernel_layout", "OIHW", true) &&
           layout_is(call, "out_layout", "NCHW", true);
}

static bool read_pool(const Expr *call, NnPool2d *p)
{
    p->ceil_mode = ops_attr_bool(call, "ceil_mode", false);
    p->count_include_pad = ops_attr_bool(call, "count_include_pad", false);
    return read_pair(call, "pool_size", 1, p->pool_size) &&
           read_pair(call, "strides", 1, p->strides) &&
           read_pair(call, "dilation", 1, p->dilation) && read_padding(call, p->padding) &&
           p->pool_size[0] > 0 && p->pool_size[1] > 0 && p->strides[0] > 0 && p->strides[1] > 0 &&
           p->dilation[0] > 0 && p->dilation[1] > 0 && layout_is(call, "layout", "NCHW", true) &&
           layout_is(call, "out_layout", "NCHW", true);
}

/* ---- symbolic output dims ---------------------------------------------------------------- */

/* e + c with constants folded, written `e - k` for a negative c as TVM prints it. */
static PrimExpr *add_const(PrimExpr *e, int64_t c, Span sp)
{
    int64_t k;
    if (c == 0)
        return e;
    if (prover_const_int(e, &k))
        return primexpr_int(k + c, dtype_int64(), sp);
    if ((e->kind == PE_ADD || e->kind == PE_SUB) && prover_const_int(e->u.bin.b, &k))
        return add_const(e->u.bin.a, (e->kind == PE_ADD ? k : -k) + c, sp);
    if (c < 0)
        return primexpr_binary(PE_SUB, e, primexpr_int(-c, dtype_int64(), sp), sp);
    return primexpr_binary(PE_ADD, e, primexpr_int(c, dtype_int64(), sp), sp);
}

/* floordiv(in + pads - dilation * (k - 1) - 1, stride) + 1, simplified where constants
 * allow (a unit stride folds the division away). */
static PrimExpr *window_extent(PrimExpr *in, PrimExpr *k, int64_t pads, int64_t stride,
                               int64_t dilation, Span sp)
{
    int64_t kc;
    PrimExpr *num;
    if (prover_const_int(k, &kc)) {
        num = add_const(in, pads - dilation * (kc - 1) - 1, sp);
    } else {
        PrimExpr *dk =
            dilation == 1
                ? k
                : primexpr_binary(PE_MUL, primexpr_int(dilation, dtype_int64(), sp), k, sp);
        num = primexpr_binary(PE_SUB, add_const(in, pads + dilation - 1, sp), dk, sp);
    }
    if (stride == 1)
        return add_const(num, 1, sp);
    int64_t c;
    if (prover_const_int(num, &c)) {
        int64_t q = c / stride - ((c % stride != 0) && (c < 0));
        return primexpr_int(q + 1, dtype_int64(), sp);
    }
    /* (e + c) // s + 1 with c a multiple of s is e // s + (c / s + 1), as TVM's simplifier
     * rewrites it. */
    int64_t off = 0;
    if ((num->kind == PE_ADD || num->kind == PE_SUB) && prover_const_int(num->u.bin.b, &off)) {
        off = num->kind == PE_ADD ? off : -off;
        if (off % stride == 0)
            num = num->u.bin.a;
        else
            off = 0;
    }
    PrimExpr *q = primexpr_binary(PE_FLOORDIV, num, primexpr_int(stride, dtype_int64(), sp), sp);
    return add_const(q, off / stride + 1, sp);
}

/* ---- conv2d ------------------------------------------------------------------------------ */

static bool rank_is_4(OpInferCtx *ctx, const StructInfo *t, const char *what)
{
    if (t->u.tensor.ndim < 0 || t->u.tensor.ndim == 4)
        return true;
    ops_infer_fail(ctx, "OpShapeMismatch", "%s must have rank 4, got %d", what, t->u.tensor.ndim);
    return false;
}

/* The group checks TVM makes where provable: data channels = weight input channels x
 * groups, and output channels divisible by groups. */
static bool check_channels(OpInferCtx *ctx, OpShape d, OpShape w, int64_t groups)
{
    Span sp = ctx->call->span;
    PrimExpr *g = primexpr_int(groups, dtype_int64(), sp), *need = w.dims[1];
    int64_t o, in;
    if (groups != 1)
        need = prover_const_int(w.dims[1], &in) ? primexpr_int(in * groups, dtype_int64(), sp)
                                                : primexpr_binary(PE_MUL, w.dims[1], g, sp);
    if (prover_compare(d.dims[1], need) == PROVE_UNEQUAL) {
        ops_infer_fail(ctx, "OpShapeMismatch",
                       "data channels differ from weight input channels times groups");
        return false;
    }
    if (prover_const_int(w.dims[0], &o) && o % groups != 0) {
        ops_infer_fail(ctx, "OpShapeMismatch", "output channels %lld not divisible by %lld",
                       (long long)o, (long long)groups);
        return false;
    }
    return true;
}

/* OP-nn.conv2d: (N, O, H', W') with H' = (H + pad_h - dilation (KH - 1) - 1) // stride + 1;
 * dtype out_dtype, or the operands' common dtype. */
StructInfo *ops_conv_infer_conv2d(OpInferCtx *ctx)
{
    NnConv2d p;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *w = x ? ops_arg_tensor(ctx, 1) : NULL;
    if (w == NULL || !rank_is_4(ctx, x, "data") || !rank_is_4(ctx, w, "weight"))
        return ops_infer_object(ctx);
    if (!read_conv(ctx->call, &p))
        return ops_infer_fail(ctx, "OpAttr",
                              "unsupported strides, padding, dilation, groups "
                              "or layout");
    DataType dt = ops_attr_dtype(ctx->call, "out_dtype");
    if (dtype_is_void(dt) && !ops_unify_dtype(ctx, x->u.tensor.dtype, w->u.tensor.dtype, &dt))
        return ops_infer_object(ctx);
    VDevice *vd = ops_pick_vdevice(x, w);
    OpShape ds = ops_shape_of(x), ws = ops_shape_of(w);
    OpShape out = {NULL, 4};
    if (ds.dims == NULL || ws.dims == NULL)
        return ops_tensor_result(out, dt, vd, ctx->call->span);
    if (!check_channels(ctx, ds, ws, p.groups))
        return ops_infer_object(ctx);
    Span sp = ctx->call->span;
    out.dims = MEM_ARRAY(PrimExpr *, 4);
    out.dims[0] = ds.dims[0];
    out.dims[1] = ws.dims[0];
    for (int k = 0; k < 2; k++)
        out.dims[2 + k] =
            window_extent(ds.dims[2 + k], ws.dims[2 + k], p.padding[k] + p.padding[k + 2],
                          p.strides[k], p.dilation[k], sp);
    return ops_tensor_result(out, dt, vd, sp);
}

static Tensor *rank4_tensor(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, i);
    if (t->ndim != 4)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "argument %d must have rank 4, got %d", i + 1, t->ndim);
    return t;
}

Value *ops_conv_kernel_conv2d(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = rank4_tensor(in, call, args, nargs, 0);
    Tensor *w = rank4_tensor(in, call, args, nargs, 1);
    NnConv2d p;
    int64_t shape[4];
    if (!read_conv(call, &p) || !kernels_nn_conv2d_shape(x->shape, w->shape, &p, shape))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the shapes and parameters of the convolution do not fit");
    DataType dt = ops_attr_dtype(call, "out_dtype");
    Tensor *out = ops_kernel_new_tensor(in, call, dtype_is_void(dt) ? x->dtype : dt, 4, shape);
    kernels_nn_conv2d(x, w, &p, out);
    return value_tensor(out);
}

/* ---- pooling ----------------------------------------------------------------------------- */

/* OP-nn.max_pool2d, OP-nn.avg_pool2d: (N, C, H', W') in the data's dtype. In ceil mode a
 * symbolic spatial dim gives a result with its rank only. */
StructInfo *ops_conv_infer_pool2d(OpInferCtx *ctx)
{
    NnPool2d p;
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || !rank_is_4(ctx, x, "data"))
        return ops_infer_object(ctx);
    if (!read_pool(ctx->call, &p))
        return ops_infer_fail(ctx, "OpAttr",
                              "unsupported pool_size, strides, padding, "
                              "dilation or layout");
    Span sp = ctx->call->span;
    OpShape ds = ops_shape_of(x), out = {NULL, 4};
    int64_t h, w;
    bool ceil_symbolic = p.ceil_mode && !(ds.dims && prover_const_int(ds.dims[2], &h) &&
                                          prover_const_int(ds.dims[3], &w));
    if (ds.dims == NULL || ceil_symbolic)
        return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
    out.dims = MEM_ARRAY(PrimExpr *, 4);
    out.dims[0] = ds.dims[0];
    out.dims[1] = ds.dims[1];
    for (int k = 0; k < 2; k++) {
        int64_t pad[2] = {p.padding[k], p.padding[k + 2]}, in_dim;
        if (p.ceil_mode && prover_const_int(ds.dims[2 + k], &in_dim))
            out.dims[2 + k] =
                primexpr_int(kernels_nn_pool_extent(in_dim, p.pool_size[k], p.strides[k],
                                                    p.dilation[k], pad, true),
                             dtype_int64(), sp);
        else
            out.dims[2 + k] =
                window_extent(ds.dims[2 + k], primexpr_int(p.pool_size[k], dtype_int64(), sp),
                              pad[0] + pad[1], p.strides[k], p.dilation[k], sp);
    }
    return ops_tensor_result(out, x->u.tensor.dtype, x->u.tensor.vdevice, sp);
}

static Value *pool_kernel(struct Interp *in, const Expr *call, Value **args, int nargs, bool is_max)
{
    Tensor *x = rank4_tensor(in, call, args, nargs, 0);
    NnPool2d p;
    int64_t shape[4];
    if (!read_pool(call, &p) || !kernels_nn_pool2d_shape(x->shape, &p, shape))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the shape and parameters of the pooling do not fit");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, 4, shape);
    if (is_max)
        kernels_nn_max_pool2d(x, &p, out);
    else
        kernels_nn_avg_pool2d(x, &p, out);
    return value_tensor(out);
}

Value *ops_conv_kernel_max_pool2d(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return pool_kernel(in, call, args, nargs, true);
}

Value *ops_conv_kernel_avg_pool2d(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return pool_kernel(in, call, args, nargs, false);
}
