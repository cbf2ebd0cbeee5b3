/* ops_misc_image: image.resize2d in every layout TVM reads (NCHW, NHWC, packed NCHW16c, ...):
 * inference as TVM's image/resize.cc, values as topi's image/resize.py (kernels_image). SPEC_NOTES:
 * "Operators" (OP-image.resize2d). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "interp/ops/ops_window_internal.h"
#include "values/kernels/kernels_image.h"

/* OP-image.resize2d: the layout as TVM's CheckTensorLayout reads it against NCHW (any
 * permutation of N, C, H, W with packed sub-axes such as NCHW16c); NULL or why not. */
static const char *read_layout(const Expr *call, PackedLayout *l)
{
    return ops_window_packed(ops_attr_str(call, "layout", "NCHW"), "NCHW", l);
}

static bool check_names(OpInferCtx *ctx)
{
    ResizeMethod m;
    ResizeCoord c;
    ResizeRounding r;
    const char *method = ops_attr_str(ctx->call, "method", "linear");
    const char *coord = ops_attr_str(ctx->call, "coordinate_transformation_mode", "half_pixel");
    const char *rounding = ops_attr_str(ctx->call, "rounding_method", "round");
    const char *bad = !kernels_resize_method(method, &m)       ? method
                      : !kernels_resize_coord(coord, &c)       ? coord
                      : !kernels_resize_rounding(rounding, &r) ? rounding
                                                               : NULL;
    if (bad == NULL)
        return true;
    ops_infer_fail(ctx, "OpAttr", "resize2d does not know `%s`", bad);
    return false;
}

/* The result's dims: the data's converted to NCHW (ForwardShape), H and W replaced by the
 * size, converted back (BackwardShape), as TVM's InferStructInfoResize2D. */
static PrimExpr **resized_dims(OpInferCtx *ctx, const PackedLayout *l, OpShape in, const Expr *size)
{
    PrimExpr *canon[WINDOW_MAX_RANK];
    if (!ops_window_dims_to_canonical(ctx, l, in.dims, canon))
        return NULL;
    canon[2] = size->u.shape.values[0];
    canon[3] = size->u.shape.values[1];
    return ops_window_dims_from_canonical(l, canon, ctx->call->span);
}

/* OP-image.resize2d: data a tensor of the layout's rank (a layout that does not convert to
 * NCHW is OpAttr; another rank OpShapeMismatch), size a 2-dim Shape (OpArgType,
 * OpShapeMismatch); the data's dims with H and W from the size when both are known, else the
 * rank only; out_dtype or the data's. The method, coordinate transformation and rounding
 * names are topi's (OpAttr; TVM finds an unknown name only when legalizing). */
StructInfo *misc_infer_resize2d(OpInferCtx *ctx)
{
    PackedLayout l;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *s = x ? ops_arg_shape(ctx, 1) : NULL;
    if (s == NULL)
        return ops_infer_object(ctx);
    if (s->u.shape.ndim != 2)
        return ops_infer_fail(ctx, "OpShapeMismatch", "size must have 2 dims, got %d",
                              s->u.shape.ndim);
    const char *layout = ops_attr_str(ctx->call, "layout", "NCHW"),
               *why = read_layout(ctx->call, &l);
    if (why != NULL)
        return ops_infer_fail(ctx, "OpAttr", "resize2d does not read layout %s: %s", layout, why);
    if (!check_names(ctx))
        return ops_infer_object(ctx);
    int rank = l.axes.ndim;
    if (x->u.tensor.ndim != rank && x->u.tensor.ndim != -1)
        return ops_infer_fail(ctx, "OpShapeMismatch", "data must be %d-D for %s, got rank %d", rank,
                              layout, x->u.tensor.ndim);
    DataType dt = ops_attr_dtype(ctx->call, "out_dtype");
    if (dtype_is_void(dt))
        dt = x->u.tensor.dtype;
    OpShape in = ops_shape_of(x);
    const Expr *size = ctx->call->u.call.args[1];
    if (in.dims == NULL || size->kind != EXPR_SHAPE)
        return sinfo_tensor(NULL, dt, x->u.tensor.vdevice, rank, ctx->call->span);
    OpShape out = {resized_dims(ctx, &l, in, size), rank};
    if (out.dims == NULL)
        return ops_infer_object(ctx);
    return ops_tensor_result(out, dt, x->u.tensor.vdevice, ctx->call->span);
}

/* roi's four numbers, integers or floats. */
static void read_roi(const Expr *call, double *roi)
{
    const AttrValue *v = ops_attr(call, "roi");
    for (int i = 0; i < 4; i++)
        roi[i] = 0;
    if (v == NULL || v->kind != ATTR_LIST)
        return;
    for (int i = 0; i < 4 && i < v->u.list.n; i++) {
        const AttrValue *it = v->u.list.items[i];
        roi[i] = it->kind == ATTR_FLOAT ? it->u.f : it->kind == ATTR_INT ? (double)it->u.i : 0;
    }
}

/* The data's H and W axes; a layout that splits H or W (NCHW2h) is refused at run time:
 * topi's resize2d reads NCHW, NHWC, NCHWxc and NCHWinic only, and no layout splits them. */
static void spatial_axes(struct Interp *in, const Expr *call, ResizeParams *p)
{
    PackedLayout l;
    if (read_layout(call, &l) != NULL)
        misc_fail(in, call, "resize2d's layout does not convert to NCHW");
    if (l.split[2] != 1 || l.split[3] != 1)
        misc_fail(in, call, "resize2d cannot resize a layout that splits H or W");
    p->h_axis = l.primal[2];
    p->w_axis = l.primal[3];
}

static ResizeParams read_params(struct Interp *in, const Expr *call)
{
    ResizeParams p;
    spatial_axes(in, call, &p);
    bool ok = kernels_resize_method(ops_attr_str(call, "method", "linear"), &p.method) &&
              kernels_resize_coord(
                  ops_attr_str(call, "coordinate_transformation_mode", "half_pixel"), &p.coord) &&
              kernels_resize_rounding(ops_attr_str(call, "rounding_method", "round"), &p.rounding);
    if (!ok)
        misc_fail(in, call,
                  "resize2d's method, coordinate transformation or rounding is not one topi knows");
    read_roi(call, p.roi);
    p.cubic_alpha = ops_attr_float(call, "cubic_alpha", -0.75);
    p.cubic_exclude = ops_attr_int(call, "cubic_exclude", 0) != 0;
    p.extrapolation_value = ops_attr_float(call, "extrapolation_value", 0.0);
    return p;
}

/* The data's shape with H and W from the size; a packed sub-axis keeps its dim. */
Value *misc_eval_resize2d(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *size = ops_kernel_shape(in, call, args, nargs, 1);
    ResizeParams p = read_params(in, call);
    PackedLayout l;
    read_layout(call, &l);
    if (x->ndim != l.axes.ndim || size->u.shape.ndim != 2)
        misc_fail(in, call, "resize2d needs data of the layout's rank and a 2-dim size");
    for (int j = 0; j < x->ndim; j++)
        if (l.factor[j] != 0 && x->shape[j] != l.factor[j])
            misc_fail(in, call, "axis %d is a sub-axis of factor %lld, but its dim is %lld", j,
                      (long long)l.factor[j], (long long)x->shape[j]);
    int64_t shape[TENSOR_MAX_NDIM];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[p.h_axis] = size->u.shape.dims[0];
    shape[p.w_axis] = size->u.shape.dims[1];
    DataType dt = ops_attr_dtype(call, "out_dtype");
    Tensor *out =
        ops_kernel_new_tensor(in, call, dtype_is_void(dt) ? x->dtype : dt, x->ndim, shape);
    if (out->numel > 0 && (x->shape[p.h_axis] == 0 || x->shape[p.w_axis] == 0))
        misc_fail(in, call, "resize2d cannot sample an empty image");
    kernels_resize2d(x, &p, out);
    return value_tensor(out);
}
