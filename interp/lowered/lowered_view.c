/* lowered_view: views of a tensor's bytes (R.memory.view, R.memory.ensure_zero_offset),
 * R.builtin.stop_lift_params, and the R.inspect.* operators reading a tensor's DLPack
 * fields; the family's table. SPEC_NOTES: "The lowered IR" (LOW-view, LOW-inspect, ...). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/lowered/lowered.h"
#include "interp/lowered/lowered_internal.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/prover.h"

/* ---- R.memory.view ------------------------------------------------------------------------ */

/* What a view call says statically; -1 for a count or offset not known as a constant. */
typedef struct ViewFacts {
    const StructInfo *data;
    const StructInfo *shape; /* NULL: void, the input's shape */
    bool has_dtype;
    DataType dtype;
    bool has_offset;
    int64_t offset; /* -1 when unknown */
} ViewFacts;

/* The product of known constant dims, or -1. */
static int64_t const_count(PrimExpr **dims, int ndim)
{
    if (dims == NULL || ndim < 0)
        return -1;
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        int64_t d;
        if (!prover_const_int(dims[i], &d) || d < 0 || (d != 0 && n > INT64_MAX / 8 / d))
            return -1;
        n *= d;
    }
    return n;
}

/* LOW-view: the argument kinds TVM's inference demands (OpArgType). */
static bool view_facts(OpInferCtx *ctx, ViewFacts *f)
{
    f->data = ops_arg_tensor(ctx, 0);
    if (f->data == NULL)
        return false;
    f->shape = lowered_sinfo_is_void(ctx, 1) ? NULL : ops_arg_shape(ctx, 1);
    if (!lowered_sinfo_is_void(ctx, 1) && f->shape == NULL)
        return false;
    f->has_dtype = !lowered_sinfo_is_void(ctx, 2);
    const Expr *d = ctx->call->u.call.args[2];
    /* A variable bound to an R.dtype: TVM looks through the binding; here the dtype is
     * unknown statically and checked at run time. */
    f->dtype = dtype_void();
    bool dtype_var = d->kind == EXPR_VAR && ctx->arg_sinfo[2]->kind == SINFO_OBJECT;
    if (f->has_dtype && !dtype_var && !lowered_dtype_expr(ctx, 2, &f->dtype)) {
        ops_infer_fail(ctx, "OpArgType", "argument 3 must be an R.dtype or void");
        return false;
    }
    f->has_offset = !lowered_sinfo_is_void(ctx, 3);
    f->offset = -1;
    if (!f->has_offset)
        return true;
    const StructInfo *p = lowered_sinfo_arg(ctx, 3);
    if (p->kind != SINFO_PRIM || !dtype_equal(p->u.prim.dtype, dtype_int64())) {
        ops_infer_fail(ctx, "OpArgType", "argument 4 must be an int64 PrimValue or void");
        return false;
    }
    if (p->u.prim.value == NULL || !prover_const_int(p->u.prim.value, &f->offset))
        f->offset = -1;
    return true;
}

/* LOW-view: a view provably past the end of the array it views is ViewBounds (the checks
 * of TVM's inference, decided here on constants). */
static bool view_in_bounds(OpInferCtx *ctx, const ViewFacts *f, OpShape in, OpShape out,
                           DataType out_dtype)
{
    int64_t in_n = const_count(in.dims, in.ndim), out_n = const_count(out.dims, out.ndim);
    int64_t in_b = (int64_t)dtype_bytes(f->data->u.tensor.dtype);
    int64_t out_b = (int64_t)dtype_bytes(out_dtype);
    bool sizes = in_b > 0 && out_b > 0, counts = in_n >= 0 && out_n >= 0;
    bool bad = false;
    bool over = false;
    if (counts && sizes) /* const_count keeps n * 8 inside int64; the offset may not */
        bad =
            checked_add(out_n * out_b, f->offset > 0 ? f->offset : 0, &over) > in_n * in_b || over;
    else if (sizes && f->shape == NULL)
        bad = out_b > in_b;
    else if (counts && !f->has_dtype)
        bad = out_n > in_n;
    else if (f->shape == NULL && !f->has_dtype)
        bad = f->offset > 0;
    if (bad)
        ops_infer_fail(ctx, "ViewBounds", "the view would pass the end of the array it views");
    return !bad;
}

/* LOW-view: the given shape (or the input's), the given dtype (or the input's). */
static StructInfo *infer_view(OpInferCtx *ctx)
{
    ctx->rule = "LOW-view";
    rule_fired(ctx->rule);
    ViewFacts f;
    if (!ops_check_arity(ctx, 4, 4) || !view_facts(ctx, &f))
        return ops_infer_object(ctx);
    OpShape in = ops_shape_of(f.data);
    OpShape out = in;
    if (f.shape != NULL)
        out = (OpShape){f.shape->u.shape.values, f.shape->u.shape.ndim};
    DataType dtype = f.has_dtype ? f.dtype : f.data->u.tensor.dtype;
    if (!view_in_bounds(ctx, &f, in, out, dtype))
        return ops_infer_object(ctx);
    return ops_tensor_result(out, dtype, f.data->u.tensor.vdevice, ctx->call->span);
}

/* LOW-view: a tensor over the same bytes from the input's own offset plus the relative
 * one; past the end of the input is ViewBounds (TVM's Tensor::CreateView). */
static Value *k_view(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-view";
    rule_fired(rule);
    Tensor *x = lowered_tensor_arg(in, call, args, nargs, 0, rule);
    int ndim = x->ndim;
    const int64_t *dims = x->shape;
    if (!lowered_is_void(args, nargs, 1)) {
        const Value *s = lowered_shape_arg(in, call, args, nargs, 1, rule);
        ndim = s->u.shape.ndim;
        dims = s->u.shape.dims;
    }
    DataType dtype = x->dtype;
    if (!lowered_is_void(args, nargs, 2) && args[2]->kind != VAL_DTYPE)
        lowered_fail(in, call, "OpPrecondition", rule, "argument 3 must be a data type, got a %s",
                     value_kind_name(args[2]->kind));
    if (!lowered_is_void(args, nargs, 2))
        dtype = args[2]->u.dtype;
    int64_t rel =
        lowered_is_void(args, nargs, 3) ? 0 : lowered_int_arg(in, call, args, nargs, 3, rule);
    int64_t numel = tensor_shape_numel(dtype, ndim, dims);
    if (!tensor_dtype_supported(dtype) || numel < 0)
        lowered_fail(in, call, "OpPrecondition", rule, "a %s view of this shape is unsupported",
                     dtype_str(dtype));
    int64_t size = numel * (int64_t)dtype_bytes(dtype);
    int64_t have = (int64_t)tensor_nbytes(x);
    if (rel < 0 || rel > have || size > have - rel)
        lowered_fail(in, call, "ViewBounds", rule,
                     "a view of %lld bytes at offset %lld passes the end of %lld bytes",
                     (long long)size, (long long)rel, (long long)have);
    char *base = (char *)x->data - x->byte_offset;
    return value_tensor(tensor_view(base, x->byte_offset + rel, dtype, ndim, dims));
}

/* The argument's own StructInfo, which must be a tensor's (OpArgType). */
static StructInfo *infer_same_tensor(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *t = ops_arg_tensor(ctx, 0);
    return t != NULL ? (StructInfo *)t : ops_infer_object(ctx);
}

/* LOW-ensure_zero_offset: any argument's own StructInfo (TVM checks it is a tensor only at
 * run time). */
static StructInfo *infer_ensure_zero_offset(OpInferCtx *ctx)
{
    ctx->rule = "LOW-ensure_zero_offset";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    return ctx->arg_sinfo[0];
}

/* LOW-ensure_zero_offset: the tensor itself at offset 0; at an offset that is a multiple of
 * 64 (TVM's kAllocAlignment) a view of the same bytes with offset 0; otherwise a copy. */
static Value *k_ensure_zero_offset(Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = lowered_tensor_arg(in, call, args, nargs, 0, "LOW-ensure_zero_offset");
    if (x->byte_offset == 0)
        return args[0];
    if (x->byte_offset % 64 == 0)
        return value_tensor(tensor_view(x->data, 0, x->dtype, x->ndim, x->shape));
    return value_tensor(tensor_copy(x));
}

/* LOW-stop_lift_params: the argument's StructInfo (a tensor), and the value itself. */
static StructInfo *infer_stop_lift_params(OpInferCtx *ctx)
{
    ctx->rule = "LOW-stop_lift_params";
    rule_fired(ctx->rule);
    return infer_same_tensor(ctx);
}

static Value *k_stop_lift_params(Interp *in, const Expr *call, Value **args, int nargs)
{
    lowered_tensor_arg(in, call, args, nargs, 0, "LOW-stop_lift_params");
    return args[0];
}

/* ---- R.inspect.* -------------------------------------------------------------------------- */

typedef enum InspectField {
    FIELD_CODE,
    FIELD_BITS,
    FIELD_LANES,
    FIELD_NDIM,
    FIELD_SHAPE,
    FIELD_STRIDE,
    FIELD_BYTE_OFFSET,
    FIELD_ELEM_OFFSET,
} InspectField;

typedef struct InspectOp {
    const char *name;
    InspectField field;
} InspectOp;

static const InspectOp INSPECT_OPS[] = {
    {"relax.inspect.tensor_dtype_code", FIELD_CODE},
    {"relax.inspect.tensor_dtype_bits", FIELD_BITS},
    {"relax.inspect.tensor_dtype_lanes", FIELD_LANES},
    {"relax.inspect.tensor_ndim", FIELD_NDIM},
    {"relax.inspect.tensor_shape_i", FIELD_SHAPE},
    {"relax.inspect.tensor_stride_i", FIELD_STRIDE},
    {"relax.inspect.tensor_byte_offset", FIELD_BYTE_OFFSET},
    {"relax.inspect.tensor_elem_offset", FIELD_ELEM_OFFSET},
};

static InspectField field_of(const Expr *call)
{
    const char *name = call->u.call.op->u.op_name;
    for (size_t i = 0; i < sizeof INSPECT_OPS / sizeof INSPECT_OPS[0]; i++)
        if (strcmp(INSPECT_OPS[i].name, name) == 0)
            return INSPECT_OPS[i].field;
    return FIELD_CODE; /* not reached: only INSPECT_OPS reach field_of */
}

/* The DLPack dtype of each field: uint8 code and bits, uint16 lanes, int32 ndim, int64
 * extents and strides, uint64 offsets. */
static DataType field_dtype(InspectField f)
{
    switch (f) {
    case FIELD_CODE:
    case FIELD_BITS:
        return dtype_make(DT_UINT, 8, 1);
    case FIELD_LANES:
        return dtype_make(DT_UINT, 16, 1);
    case FIELD_NDIM:
        return dtype_int32();
    case FIELD_SHAPE:
    case FIELD_STRIDE:
        return dtype_int64();
    case FIELD_BYTE_OFFSET:
    case FIELD_ELEM_OFFSET:
        return dtype_make(DT_UINT, 64, 1);
    }
    return dtype_int64(); /* not reached: every case of the switch returns */
}

static StructInfo *known_prim(OpInferCtx *ctx, DataType dtype, int64_t v)
{
    return sinfo_prim(dtype, primexpr_int(v, dtype, ctx->call->span), ctx->call->span);
}

/* LOW-inspect: a constant axis must be in [0, ndim) when the rank is known (OpAttr). */
static bool inspect_axis(OpInferCtx *ctx, const StructInfo *t, int64_t *axis)
{
    const StructInfo *a = ops_arg_prim(ctx, 1);
    if (a == NULL)
        return false;
    *axis = -1;
    if (a->u.prim.value == NULL || !prover_const_int(a->u.prim.value, axis))
        return true;
    if (*axis < 0 || (t->u.tensor.ndim >= 0 && *axis >= t->u.tensor.ndim)) {
        ops_infer_fail(ctx, "OpAttr", "axis %lld is out of range for a tensor of rank %d",
                       (long long)*axis, t->u.tensor.ndim);
        return false;
    }
    return true;
}

/* a * b folded as TVM's PrimExpr `*` folds it: two constants multiply, a 1 drops out. */
static PrimExpr *fold_mul(PrimExpr *a, PrimExpr *b, Span span)
{
    int64_t x, y;
    bool ca = prover_const_int(a, &x), cb = prover_const_int(b, &y);
    if (ca && cb)
        return primexpr_int(x * y, dtype_int64(), span);
    if (ca && x == 1)
        return b;
    if (cb && y == 1)
        return a;
    return primexpr_binary(PE_MUL, a, b, span);
}

/* LOW-inspect: a dim or stride of a known shape at a constant axis. */
static StructInfo *infer_extent(OpInferCtx *ctx, const StructInfo *t, InspectField f)
{
    int64_t axis;
    if (!ops_check_arity(ctx, 2, 2) || !inspect_axis(ctx, t, &axis))
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(t);
    if (axis < 0 || s.dims == NULL)
        return sinfo_prim(dtype_int64(), NULL, ctx->call->span);
    if (f == FIELD_SHAPE)
        return sinfo_prim(dtype_int64(), s.dims[axis], ctx->call->span);
    PrimExpr *stride = primexpr_int(1, dtype_int64(), ctx->call->span);
    for (int i = (int)axis + 1; i < s.ndim; i++)
        stride = fold_mul(stride, s.dims[i], ctx->call->span);
    return sinfo_prim(dtype_int64(), stride, ctx->call->span);
}

/* LOW-inspect: a PrimValue of the field's dtype, its value known where TVM's inference
 * knows it (the dtype fields of a known dtype, the rank, the extents of a known shape, and
 * offset 0 for any tensor of known shape). */
static StructInfo *infer_inspect(OpInferCtx *ctx)
{
    ctx->rule = "LOW-inspect";
    rule_fired(ctx->rule);
    InspectField f = field_of(ctx->call);
    const StructInfo *t = ops_arg_tensor(ctx, 0);
    if (t == NULL)
        return ops_infer_object(ctx);
    if (f == FIELD_SHAPE || f == FIELD_STRIDE)
        return infer_extent(ctx, t, f);
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    DataType dt = t->u.tensor.dtype, rt = field_dtype(f);
    bool known_dtype = !dtype_is_void(dt);
    if (f == FIELD_CODE && known_dtype)
        return known_prim(ctx, rt, dt.code);
    if (f == FIELD_BITS && known_dtype)
        return known_prim(ctx, rt, dt.bits);
    if (f == FIELD_LANES && known_dtype)
        return known_prim(ctx, rt, dt.lanes);
    if (f == FIELD_NDIM && t->u.tensor.ndim >= 0)
        return known_prim(ctx, rt, t->u.tensor.ndim);
    bool offset = f == FIELD_BYTE_OFFSET || f == FIELD_ELEM_OFFSET;
    if (offset && ops_shape_of(t).dims != NULL)
        return known_prim(ctx, rt, 0);
    return sinfo_prim(rt, NULL, ctx->call->span);
}

/* LOW-inspect: the field of the tensor as DLPack holds it; an axis outside [0, ndim) is
 * OpPrecondition. */
static Value *k_inspect(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-inspect";
    rule_fired(rule);
    Tensor *t = lowered_tensor_arg(in, call, args, nargs, 0, rule);
    InspectField f = field_of(call);
    DataType rt = field_dtype(f);
    int64_t axis = 0;
    if (f == FIELD_SHAPE || f == FIELD_STRIDE) {
        axis = lowered_int_arg(in, call, args, nargs, 1, rule);
        if (axis < 0 || axis >= t->ndim)
            lowered_fail(in, call, "OpPrecondition", rule,
                         "axis %lld is out of range for a tensor of rank %d", (long long)axis,
                         t->ndim);
    }
    int64_t stride = 1;
    switch (f) {
    case FIELD_CODE:
        return value_prim_int(rt, t->dtype.code);
    case FIELD_BITS:
        return value_prim_int(rt, t->dtype.bits);
    case FIELD_LANES:
        return value_prim_int(rt, t->dtype.lanes);
    case FIELD_NDIM:
        return value_prim_int(rt, t->ndim);
    case FIELD_SHAPE:
        return value_prim_int(rt, t->shape[axis]);
    case FIELD_STRIDE: {
        /* An empty tensor's later dims may multiply past int64 (SPEC_NOTES 4.18). */
        bool over = false;
        for (int i = (int)axis + 1; i < t->ndim; i++)
            stride = checked_mul(stride, t->shape[i], &over);
        if (over)
            lowered_fail(in, call, "OpPrecondition", rule, "the stride of axis %lld passes int64",
                         (long long)axis);
        return value_prim_int(rt, stride);
    }
    case FIELD_BYTE_OFFSET:
        return value_prim_int(rt, t->byte_offset);
    case FIELD_ELEM_OFFSET:
        return value_prim_int(rt, t->byte_offset / (int64_t)dtype_bytes(t->dtype));
    }
    return value_unit(); /* not reached: every case of the switch returns */
}

/* ---- the family -------------------------------------------------------------------------- */

static const OpImpl VIEW_OPS[] = {
    {"relax.memory.view", true, infer_view, k_view, "all"},
    {"relax.memory.ensure_zero_offset", true, infer_ensure_zero_offset, k_ensure_zero_offset,
     "all"},
    {"relax.builtin.stop_lift_params", true, infer_stop_lift_params, k_stop_lift_params, "all"},
    {"relax.inspect.tensor_dtype_code", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_dtype_bits", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_dtype_lanes", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_ndim", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_shape_i", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_stride_i", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_byte_offset", true, infer_inspect, k_inspect, "all"},
    {"relax.inspect.tensor_elem_offset", true, infer_inspect, k_inspect, "all"},
};

const OpImpl *ops_lowered_view(int *n)
{
    *n = (int)(sizeof VIEW_OPS / sizeof VIEW_OPS[0]);
    return VIEW_OPS;
}
