/* ops_misc_vision: vision.all_class_non_max_suppression: inference as TVM's vision/nms.cc,
 * selection as topi's vision/nms.py (kernels_nms), laid out in the shapes the inference gives.
 * SPEC_NOTES: "Operators" (OP-vision.all_class_non_max_suppression). */
#include <string.h>

#include "ast/arith/simplify.h"
#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "values/kernels/kernels_misc.h"

/* a * b simplified; NULL when either is NULL or a folded constant overflows. */
static PrimExpr *mul(PrimExpr *a, PrimExpr *b)
{
    if (a == NULL || b == NULL)
        return NULL;
    return arith_simplify(primexpr_binary(PE_MUL, a, b, span_none()));
}

static StructInfo *int64_tensor(PrimExpr **dims, int ndim, DataType dt, VDevice *vd, Span span)
{
    OpShape s = {dims, ndim};
    return ops_tensor_result(s, dt, vd, span);
}

/* The result: onnx (B C N, 3) int64 indices and (1,) int64 count; tensorflow (B, C N, 2)
 * int64 indices, (B, C N) float32 scores and (B,) int64 counts. Without known shapes the
 * same tuple with ranks only. */
static StructInfo *nms_result(OpInferCtx *ctx, bool onnx, PrimExpr *b, PrimExpr *c, PrimExpr *n,
                              VDevice *vd)
{
    Span sp = ctx->call->span;
    DataType i64 = dtype_int64();
    PrimExpr *cn = b != NULL ? mul(c, n) : NULL;
    StructInfo **f = MEM_ARRAY(StructInfo *, 3);
    PrimExpr **d0 = MEM_ARRAY(PrimExpr *, 3), **d1 = MEM_ARRAY(PrimExpr *, 2);
    PrimExpr **d2 = MEM_ARRAY(PrimExpr *, 1);
    if (b != NULL && (cn == NULL || (onnx && mul(b, cn) == NULL)))
        return ops_infer_fail(ctx, "OpShapeOverflow",
                              "the number of selected boxes overflows int64");
    if (onnx) {
        d0[0] = b != NULL ? mul(b, cn) : NULL;
        d0[1] = primexpr_int(3, i64, sp);
        d1[0] = primexpr_int(1, i64, sp);
        f[0] = int64_tensor(b != NULL ? d0 : NULL, 2, i64, vd, sp);
        f[1] = int64_tensor(d1, 1, i64, vd, sp);
        return sinfo_tuple(f, 2, sp);
    }
    d0[0] = b;
    d0[1] = cn;
    d0[2] = primexpr_int(2, i64, sp);
    d1[0] = b;
    d1[1] = cn;
    d2[0] = b;
    f[0] = int64_tensor(b != NULL ? d0 : NULL, 3, i64, vd, sp);
    f[1] = int64_tensor(b != NULL ? d1 : NULL, 2, dtype_float32(), vd, sp);
    f[2] = int64_tensor(b != NULL ? d2 : NULL, 1, i64, vd, sp);
    return sinfo_tuple(f, 3, sp);
}

/* OP-vision.all_class_non_max_suppression: five tensors (OpArgType); boxes and scores of
 * rank 3 (OpShapeMismatch; TVM's inference stops on an unknown rank too); output_format
 * "onnx" or "tensorflow" (OpAttr); the batch from boxes, classes from scores, boxes from
 * boxes' second dim. */
StructInfo *misc_infer_nms(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 5, 5))
        return ops_infer_object(ctx);
    for (int i = 0; i < 5; i++)
        if (ops_arg_tensor(ctx, i) == NULL)
            return ops_infer_object(ctx);
    const StructInfo *boxes = ctx->arg_sinfo[0], *scores = ctx->arg_sinfo[1];
    if (boxes->u.tensor.ndim != 3 || scores->u.tensor.ndim != 3)
        return ops_infer_fail(ctx, "OpShapeMismatch", "boxes and scores must be 3-D");
    const char *format = ops_attr_str(ctx->call, "output_format", "onnx");
    bool onnx = strcmp(format, "onnx") == 0;
    if (!onnx && strcmp(format, "tensorflow") != 0)
        return ops_infer_fail(ctx, "OpAttr", "output_format must be onnx or tensorflow, got %s",
                              format);
    OpShape bs = ops_shape_of(boxes), ss = ops_shape_of(scores);
    VDevice *vd = boxes->u.tensor.vdevice;
    if (bs.dims == NULL || ss.dims == NULL)
        return nms_result(ctx, onnx, NULL, NULL, NULL, vd);
    return nms_result(ctx, onnx, bs.dims[0], ss.dims[1], bs.dims[1], vd);
}

/* A scalar parameter: a tensor of one element (rank 0 or (1,)). */
static double scalar_param(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    Tensor *t = ops_kernel_tensor(in, call, args, nargs, i);
    if (t->numel != 1 || t->ndim > 1)
        misc_fail(in, call, "argument %d must hold one value", i + 1);
    return tensor_get_f64(t, 0);
}

static Value *onnx_result(struct Interp *in, const Expr *call, const int64_t *dims,
                          const int64_t *sel, const int64_t *count)
{
    bool over = false;
    int64_t nb = dims[0], nc = dims[1], n = dims[2], one = 1;
    int64_t rows[2] = {checked_mul(checked_mul(nb, nc, &over), n, &over), 3};
    if (over)
        misc_fail(in, call, "too many boxes");
    Tensor *idx = ops_kernel_new_tensor(in, call, dtype_int64(), 2, rows);
    Tensor *total = ops_kernel_new_tensor(in, call, dtype_int64(), 1, &one);
    int64_t r = 0;
    for (int64_t bc = 0; bc < nb * nc; bc++)
        for (int64_t j = 0; j < count[bc]; j++, r++) {
            tensor_set_i64(idx, r * 3, bc / nc);
            tensor_set_i64(idx, r * 3 + 1, bc % nc);
            tensor_set_i64(idx, r * 3 + 2, sel[bc * n + j]);
        }
    tensor_set_i64(total, 0, r);
    Value *f[2] = {value_tensor(idx), value_tensor(total)};
    return value_tuple(f, 2);
}

static Value *tf_result(struct Interp *in, const Expr *call, const int64_t *dims,
                        const int64_t *sel, const int64_t *count, const Tensor *scores)
{
    int64_t nb = dims[0], nc = dims[1], n = dims[2];
    bool over = false; /* with no batch, nc n was never bounded by the boxes' count */
    int64_t per_batch = checked_mul(nc, n, &over);
    if (over)
        misc_fail(in, call, "too many boxes");
    int64_t s0[3] = {nb, per_batch, 2}, s1[2] = {nb, per_batch};
    Tensor *idx = ops_kernel_new_tensor(in, call, dtype_int64(), 3, s0);
    Tensor *sc = ops_kernel_new_tensor(in, call, dtype_float32(), 2, s1);
    Tensor *total = ops_kernel_new_tensor(in, call, dtype_int64(), 1, &nb);
    for (int64_t b = 0; b < nb; b++) {
        int64_t r = 0;
        for (int64_t c = 0; c < nc; c++)
            for (int64_t j = 0; j < count[b * nc + c]; j++, r++) {
                int64_t box = sel[(b * nc + c) * n + j];
                tensor_set_i64(idx, (b * nc * n + r) * 2, c);
                tensor_set_i64(idx, (b * nc * n + r) * 2 + 1, box);
                tensor_set_f64(sc, b * nc * n + r, tensor_get_f64(scores, (b * nc + c) * n + box));
            }
        tensor_set_i64(total, b, r);
    }
    Value *f[3] = {value_tensor(idx), value_tensor(sc), value_tensor(total)};
    return value_tuple(f, 3);
}

Value *misc_eval_nms(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *boxes = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *scores = ops_kernel_tensor(in, call, args, nargs, 1);
    double max_boxes = scalar_param(in, call, args, nargs, 2);
    double iou = scalar_param(in, call, args, nargs, 3);
    double score = scalar_param(in, call, args, nargs, 4);
    if (boxes->ndim != 3 || scores->ndim != 3 || boxes->shape[2] != 4 ||
        boxes->shape[0] != scores->shape[0] || boxes->shape[1] != scores->shape[2] ||
        !dtype_is_float(boxes->dtype) || !dtype_is_float(scores->dtype))
        misc_fail(in, call, "needs float boxes (B, N, 4) and scores (B, C, N)");
    int64_t dims[3] = {scores->shape[0], scores->shape[1], scores->shape[2]};
    bool over = false;
    int64_t rows = checked_mul(dims[0], dims[1], &over);
    if (over ||
        tensor_shape_numel(dtype_int64(), 2, (int64_t[]){rows, dims[2] > 0 ? dims[2] : 1}) < 0)
        misc_fail(in, call, "too many boxes");
    int64_t *sel = tensor_scratch(rows * dims[2] + 1, sizeof(int64_t));
    int64_t *count = tensor_scratch(rows + 1, sizeof(int64_t));
    memset(sel, 0, sizeof(int64_t) * (size_t)(rows * dims[2] + 1));
    memset(count, 0, sizeof(int64_t) * (size_t)(rows + 1));
    /* LIMIT-fuel: one unit per comparison of two boxes, counted as the kernel makes them
     * (a row of N boxes may take N x N), which stops once they pass the fuel left. */
    NmsParams np = {max_boxes > 0 ? (int64_t)(max_boxes < 1e18 ? max_boxes : 1e18) : 0, iou, score,
                    in->fuel};
    NmsSelection chosen = {sel, count, 0};
    kernels_nms(boxes, scores, &np, &chosen);
    interp_charge(in, chosen.work, call->span);
    if (strcmp(ops_attr_str(call, "output_format", "onnx"), "onnx") == 0)
        return onnx_result(in, call, dims, sel, count);
    return tf_result(in, call, dims, sel, count, scores);
}
