/* ops_misc_image: image.resize2d: inference as TVM's image/resize.cc, values as topi's
 * image/resize.py (kernels_image). SPEC_NOTES: "Operators" (OP-image.resize2d). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "values/kernels/kernels_image.h"

/* The layouts topi's resize2d reads without packing. */
static bool layout_nhwc(const char *layout, bool *nhwc)
{
    *nhwc = strcmp(layout, "NHWC") == 0;
    return *nhwc || strcmp(layout, "NCHW") == 0;
}

/* The spatial axes of a 4-D layout: H and W at 2, 3 (NCHW) or 1, 2 (NHWC). */
static void spatial_axes(bool nhwc, int *h, int *w)
{
    *h = nhwc ? 1 : 2;
    *w = nhwc ? 2 : 3;
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

/* OP-image.resize2d: data a 4-D tensor in the layout (NCHW or NHWC, others OpAttr; another
 * rank OpShapeMismatch), size a 2-dim Shape (OpArgType, OpShapeMismatch); the data's dims
 * with H and W replaced by the size when both are known, else the rank only; out_dtype or
 * the data's. The method, coordinate transformation and rounding names are topi's (OpAttr;
 * TVM finds an unknown name only when legalizing). */
StructInfo *misc_infer_resize2d(OpInferCtx *ctx)
{
    bool nhwc;
    int h, w;
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0), *s = x ? ops_arg_shape(ctx, 1) : NULL;
    if (s == NULL)
        return ops_infer_object(ctx);
    if (s->u.shape.ndim != 2)
        return ops_infer_fail(ctx, "OpShapeMismatch", "size must have 2 dims, got %d",
                              s->u.shape.ndim);
    const char *layout = ops_attr_str(ctx->call, "layout", "NCHW");
    if (!layout_nhwc(layout, &nhwc))
        return ops_infer_fail(ctx, "OpAttr", "resize2d does not read layout %s", layout);
    if (!check_names(ctx))
        return ops_infer_object(ctx);
    if (x->u.tensor.ndim != 4 && x->u.tensor.ndim != -1)
        return ops_infer_fail(ctx, "OpShapeMismatch", "data must be 4-D for %s, got rank %d",
                              layout, x->u.tensor.ndim);
    DataType dt = ops_attr_dtype(ctx->call, "out_dtype");
    if (dtype_is_void(dt))
        dt = x->u.tensor.dtype;
    OpShape in = ops_shape_of(x);
    const Expr *size = ctx->call->u.call.args[1];
    if (in.dims == NULL || size->kind != EXPR_SHAPE)
        return sinfo_tensor(NULL, dt, x->u.tensor.vdevice, 4, ctx->call->span);
    spatial_axes(nhwc, &h, &w);
    OpShape out = {MEM_ARRAY(PrimExpr *, 4), 4};
    for (int k = 0; k < 4; k++)
        out.dims[k] = in.dims[k];
    out.dims[h] = size->u.shape.values[0];
    out.dims[w] = size->u.shape.values[1];
    if (!ops_dims_fit(ctx, out))
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

static ResizeParams read_params(struct Interp *in, const Expr *call)
{
    ResizeParams p;
    const char *layout = ops_attr_str(call, "layout", "NCHW");
    bool ok = layout_nhwc(layout, &p.nhwc) &&
              kernels_resize_method(ops_attr_str(call, "method", "linear"), &p.method) &&
              kernels_resize_coord(
                  ops_attr_str(call, "coordinate_transformation_mode", "half_pixel"), &p.coord) &&
              kernels_resize_rounding(ops_attr_str(call, "rounding_method", "round"), &p.rounding);
    if (!ok)
        misc_fail(in, call,
                  "resize2d's layout, method, coordinate transformation or rounding "
                  "is not one topi knows");
    read_roi(call, p.roi);
    p.cubic_alpha = ops_attr_float(call, "cubic_alpha", -0.75);
    p.cubic_exclude = ops_attr_int(call, "cubic_exclude", 0) != 0;
    p.extrapolation_value = ops_attr_float(call, "extrapolation_value", 0.0);
    return p;
}

Value *misc_eval_resize2d(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    int h, w;
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *size = ops_kernel_shape(in, call, args, nargs, 1);
    ResizeParams p = read_params(in, call);
    if (x->ndim != 4 || size->u.shape.ndim != 2)
        misc_fail(in, call, "resize2d needs 4-D data and a 2-dim size");
    spatial_axes(p.nhwc, &h, &w);
    int64_t shape[4];
    memcpy(shape, x->shape, sizeof shape);
    shape[h] = size->u.shape.dims[0];
    shape[w] = size->u.shape.dims[1];
    DataType dt = ops_attr_dtype(call, "out_dtype");
    Tensor *out = ops_kernel_new_tensor(in, call, dtype_is_void(dt) ? x->dtype : dt, 4, shape);
    if (out->numel > 0 && (x->shape[h] == 0 || x->shape[w] == 0))
        misc_fail(in, call, "resize2d cannot sample an empty image");
    kernels_resize2d(x, &p, out);
    return value_tensor(out);
}
