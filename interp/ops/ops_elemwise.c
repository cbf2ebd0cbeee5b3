/* ops_elemwise: StructInfo inference and kernels of the elementwise operators (binary
 * broadcasting, unary, clip). SPEC_NOTES: "Operators" (OP-add ... OP-clip). */
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "values/kernels/kernels_elemwise.h"
#include "values/kernels/kernels_manip.h"

/* The operand dtypes an operator accepts (TVM checks only "float" for the unary functions;
 * the others are the reference's reading of what the kernels are defined on). */
typedef enum DTypeClass {
    DC_ANY,
    DC_FLOAT,
    DC_BOOL,
    DC_INT_OR_BOOL,
    DC_INT,
} DTypeClass;

typedef struct BinaryEntry {
    const char *name;
    KernelBinaryOp op;
    DTypeClass dc;
} BinaryEntry;

typedef struct UnaryEntry {
    const char *name;
    KernelUnaryOp op;
    DTypeClass dc;
} UnaryEntry;

#define BINARY_OPS(X)                                                                              \
    X("add", KB_ADD, DC_ANY)                                                                       \
    X("subtract", KB_SUBTRACT, DC_ANY)                                                             \
    X("multiply", KB_MULTIPLY, DC_ANY)                                                             \
    X("divide", KB_DIVIDE, DC_ANY)                                                                 \
    X("floor_divide", KB_FLOOR_DIVIDE, DC_ANY)                                                     \
    X("power", KB_POWER, DC_ANY)                                                                   \
    X("mod", KB_MOD, DC_ANY)                                                                       \
    X("floor_mod", KB_FLOOR_MOD, DC_ANY)                                                           \
    X("log_add_exp", KB_LOG_ADD_EXP, DC_FLOAT)                                                     \
    X("maximum", KB_MAXIMUM, DC_ANY)                                                               \
    X("minimum", KB_MINIMUM, DC_ANY)                                                               \
    X("equal", KB_EQUAL, DC_ANY)                                                                   \
    X("not_equal", KB_NOT_EQUAL, DC_ANY)                                                           \
    X("less", KB_LESS, DC_ANY)                                                                     \
    X("less_equal", KB_LESS_EQUAL, DC_ANY)                                                         \
    X("greater", KB_GREATER, DC_ANY)                                                               \
    X("greater_equal", KB_GREATER_EQUAL, DC_ANY)                                                   \
    X("logical_and", KB_LOGICAL_AND, DC_BOOL)                                                      \
    X("logical_or", KB_LOGICAL_OR, DC_BOOL)                                                        \
    X("logical_xor", KB_LOGICAL_XOR, DC_BOOL)                                                      \
    X("bitwise_and", KB_BITWISE_AND, DC_INT_OR_BOOL)                                               \
    X("bitwise_or", KB_BITWISE_OR, DC_INT_OR_BOOL)                                                 \
    X("bitwise_xor", KB_BITWISE_XOR, DC_INT_OR_BOOL)                                               \
    X("left_shift", KB_LEFT_SHIFT, DC_INT)                                                         \
    X("right_shift", KB_RIGHT_SHIFT, DC_INT)

#define UNARY_OPS(X)                                                                               \
    X("abs", KU_ABS, DC_ANY)                                                                       \
    X("negative", KU_NEGATIVE, DC_ANY)                                                             \
    X("exp", KU_EXP, DC_FLOAT)                                                                     \
    X("log", KU_LOG, DC_FLOAT)                                                                     \
    X("sqrt", KU_SQRT, DC_FLOAT)                                                                   \
    X("rsqrt", KU_RSQRT, DC_FLOAT)                                                                 \
    X("sin", KU_SIN, DC_FLOAT)                                                                     \
    X("cos", KU_COS, DC_FLOAT)                                                                     \
    X("tan", KU_TAN, DC_FLOAT)                                                                     \
    X("sinh", KU_SINH, DC_FLOAT)                                                                   \
    X("cosh", KU_COSH, DC_FLOAT)                                                                   \
    X("tanh", KU_TANH, DC_FLOAT)                                                                   \
    X("asin", KU_ASIN, DC_FLOAT)                                                                   \
    X("acos", KU_ACOS, DC_FLOAT)                                                                   \
    X("atan", KU_ATAN, DC_FLOAT)                                                                   \
    X("asinh", KU_ASINH, DC_FLOAT)                                                                 \
    X("acosh", KU_ACOSH, DC_FLOAT)                                                                 \
    X("atanh", KU_ATANH, DC_FLOAT)                                                                 \
    X("sigmoid", KU_SIGMOID, DC_FLOAT)                                                             \
    X("square", KU_SQUARE, DC_ANY)                                                                 \
    X("floor", KU_FLOOR, DC_ANY)                                                                   \
    X("ceil", KU_CEIL, DC_ANY)                                                                     \
    X("round", KU_ROUND, DC_ANY)                                                                   \
    X("trunc", KU_TRUNC, DC_ANY)                                                                   \
    X("sign", KU_SIGN, DC_ANY)                                                                     \
    X("erf", KU_ERF, DC_FLOAT)                                                                     \
    X("isnan", KU_ISNAN, DC_ANY)                                                                   \
    X("isinf", KU_ISINF, DC_ANY)                                                                   \
    X("isfinite", KU_ISFINITE, DC_ANY)                                                             \
    X("logical_not", KU_LOGICAL_NOT, DC_BOOL)                                                      \
    X("bitwise_not", KU_BITWISE_NOT, DC_INT_OR_BOOL)

#define ENTRY(name, op, dc) {"relax." name, op, dc},
static const BinaryEntry BINARY[] = {BINARY_OPS(ENTRY)};
static const UnaryEntry UNARY[] = {UNARY_OPS(ENTRY)};
#undef ENTRY

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *call_name(const Expr *call)
{
    const Expr *op = call->u.call.op;
    return op->kind == EXPR_OP ? op->u.op_name : "";
}

static const BinaryEntry *binary_entry(const Expr *call)
{
    const char *name = call_name(call);
    for (int i = 0; i < COUNT(BINARY); i++)
        if (strcmp(BINARY[i].name, name) == 0)
            return &BINARY[i];
    return NULL;
}

static const UnaryEntry *unary_entry(const Expr *call)
{
    const char *name = call_name(call);
    for (int i = 0; i < COUNT(UNARY); i++)
        if (strcmp(UNARY[i].name, name) == 0)
            return &UNARY[i];
    return NULL;
}

static bool dtype_in_class(DataType t, DTypeClass dc)
{
    switch (dc) {
    case DC_ANY:
        return true;
    case DC_FLOAT:
        return dtype_is_float(t);
    case DC_BOOL:
        return dtype_is_bool(t);
    case DC_INT_OR_BOOL:
        return dtype_is_int(t) || dtype_is_uint(t);
    case DC_INT:
        return dtype_is_int(t) || (dtype_is_uint(t) && !dtype_is_bool(t));
    }
    return false;
}

static const char *class_text(DTypeClass dc)
{
    switch (dc) {
    case DC_ANY:
        return "any dtype";
    case DC_FLOAT:
        return "a float dtype";
    case DC_BOOL:
        return "bool";
    case DC_INT_OR_BOOL:
        return "an integer or bool dtype";
    case DC_INT:
        return "an integer dtype";
    }
    return "";
}

static bool check_class(OpInferCtx *ctx, DataType t, DTypeClass dc)
{
    if (dtype_is_void(t) || dtype_in_class(t, dc))
        return true;
    ops_infer_fail(ctx, "OpDTypeMismatch", "requires %s, got %s", class_text(dc), dtype_str(t));
    return false;
}

/* ---- inference -------------------------------------------------------------------------- */

/* A binary operand: a Tensor, or a PrimValue standing for a tensor of shape (1,) (as TVM). */
static bool binary_operand(OpInferCtx *ctx, int i, DataType *dtype, OpShape *shape)
{
    const StructInfo *s = ctx->arg_sinfo[i];
    if (s != NULL && s->kind == SINFO_PRIM) {
        *dtype = s->u.prim.dtype;
        shape->dims = MEM_ARRAY(PrimExpr *, 1);
        shape->dims[0] = primexpr_int(1, dtype_int64(), ctx->call->span);
        shape->ndim = 1;
        return true;
    }
    if (s == NULL || s->kind != SINFO_TENSOR) {
        ops_infer_fail(ctx, "OpArgType", "operand %d must be a Tensor or a PrimValue", i + 1);
        return false;
    }
    *dtype = s->u.tensor.dtype;
    *shape = ops_shape_of(s);
    return true;
}

/* Both operands' shape is the same shape variable: the result keeps it. */
static Expr *shared_shape_expr(const StructInfo *a, const StructInfo *b)
{
    if (a->kind != SINFO_TENSOR || b->kind != SINFO_TENSOR)
        return NULL;
    const Expr *x = a->u.tensor.shape, *y = b->u.tensor.shape;
    if (x == NULL || y == NULL || x->kind != EXPR_VAR || y->kind != EXPR_VAR)
        return NULL;
    return x->u.var == y->u.var ? a->u.tensor.shape : NULL;
}

static StructInfo *infer_binary(OpInferCtx *ctx)
{
    const BinaryEntry *e = binary_entry(ctx->call);
    if (e == NULL || !ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    DataType ta, tb, dt;
    OpShape sa, sb, out;
    if (!binary_operand(ctx, 0, &ta, &sa) || !binary_operand(ctx, 1, &tb, &sb))
        return ops_infer_object(ctx);
    /* OP-add and every binary operator: TVM's InferBinaryArithOpOutDtype (op_common.h)
     * accepts a bool operand beside any other dtype and gives the left operand's dtype:
     * float32 + bool is float32. */
    bool bool_mix = !dtype_is_void(ta) && !dtype_is_void(tb) && !dtype_equal(ta, tb) &&
                    (dtype_is_bool(ta) || dtype_is_bool(tb));
    if (bool_mix)
        dt = ta;
    else if (!ops_unify_dtype(ctx, ta, tb, &dt))
        return ops_infer_object(ctx);
    if (!check_class(ctx, dt, e->dc))
        return ops_infer_object(ctx);
    DataType rt = kernels_binary_gives_bool(e->op) ? dtype_bool() : dt;
    const StructInfo *a = ctx->arg_sinfo[0], *b = ctx->arg_sinfo[1];
    if (a->kind == SINFO_PRIM && b->kind == SINFO_PRIM)
        return sinfo_prim(rt, NULL, ctx->call->span);
    if (!ops_broadcast(ctx, sa, sb, &out))
        return ops_infer_object(ctx);
    VDevice *vd = ops_pick_vdevice(a, b);
    Expr *shared = out.dims == NULL ? shared_shape_expr(a, b) : NULL;
    if (shared != NULL)
        return sinfo_tensor(shared, rt, vd, out.ndim, ctx->call->span);
    return ops_tensor_result(out, rt, vd, ctx->call->span);
}

static StructInfo *infer_unary(OpInferCtx *ctx)
{
    const UnaryEntry *e = unary_entry(ctx->call);
    if (e == NULL || !ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || !check_class(ctx, x->u.tensor.dtype, e->dc))
        return ops_infer_object(ctx);
    DataType rt = kernels_unary_gives_bool(e->op) ? dtype_bool() : x->u.tensor.dtype;
    return sinfo_tensor(x->u.tensor.shape, rt, x->u.tensor.vdevice, x->u.tensor.ndim,
                        ctx->call->span);
}

static StructInfo *infer_clip(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 3, 3))
        return ops_infer_object(ctx);
    const StructInfo *x = ops_arg_tensor(ctx, 0);
    if (x == NULL || ops_arg_prim(ctx, 1) == NULL || ops_arg_prim(ctx, 2) == NULL)
        return ops_infer_object(ctx);
    return sinfo_tensor(x->u.tensor.shape, x->u.tensor.dtype, x->u.tensor.vdevice, x->u.tensor.ndim,
                        ctx->call->span);
}

/* ---- kernels ---------------------------------------------------------------------------- */

static Tensor *operand_tensor(Interp *in, const Expr *call, Value *v, int i)
{
    if (v->kind == VAL_TENSOR)
        return v->u.tensor;
    if (v->kind != VAL_PRIM)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "operand %d must be a tensor or a PrimValue, got %s", i + 1,
                    value_kind_name(v->kind));
    int64_t one = 1;
    Tensor *t = ops_kernel_new_tensor(in, call, v->u.prim.dtype, 1, &one);
    if (value_prim_is_float(v))
        tensor_set_f64(t, 0, v->u.prim.f);
    else
        tensor_set_i64(t, 0, v->u.prim.i);
    return t;
}

static Value *prim_of(const Tensor *t)
{
    if (dtype_is_float(t->dtype))
        return value_prim_float(t->dtype, tensor_get_f64(t, 0));
    return value_prim_int(t->dtype, tensor_get_i64(t, 0));
}

static Value *kernel_binary(Interp *in, const Expr *call, Value **args, int nargs)
{
    const BinaryEntry *e = binary_entry(call);
    if (e == NULL || nargs != 2)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "takes 2 operands, got %d", nargs);
    Tensor *a = operand_tensor(in, call, args[0], 0);
    Tensor *b = operand_tensor(in, call, args[1], 1);
    const char *err = NULL;
    /* A bool operand beside another dtype (as infer_binary admits it) is converted to that
     * dtype, as TIR's BinaryOpMatchTypes casts it; the result takes the left operand's dtype
     * (a bool left operand: the computed value converted to bool, RESULT-3 in the cases). */
    DataType result_dt = a->dtype;
    /* The inference's dtype class, checked again: an operand annotated without a dtype
     * reaches the kernel unchecked (the class of the left operand's dtype, as infer_binary's). */
    if (!dtype_in_class(result_dt, e->dc))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "requires %s, got %s",
                    class_text(e->dc), dtype_str(result_dt));
    if (!dtype_equal(a->dtype, b->dtype) && dtype_is_bool(b->dtype))
        b = kernel_astype(b, a->dtype, &err);
    else if (!dtype_equal(a->dtype, b->dtype) && dtype_is_bool(a->dtype))
        a = kernel_astype(a, b->dtype, &err);
    if (a == NULL || b == NULL || !dtype_equal(a->dtype, b->dtype))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "operand dtypes %s and %s differ", dtype_str(a != NULL ? a->dtype : result_dt),
                    dtype_str(b != NULL ? b->dtype : result_dt));
    /* LIMIT-fuel: a broadcast result can hold far more elements than its operands (an
     * (n, 1) beside a (1, m)), so it is paid for before it is made. Operands of one shape
     * (two PrimValues among them, which make a PrimValue) broadcast nothing: their result is
     * paid after, as any operator's. */
    int rank;
    int64_t shape[TENSOR_MAX_NDIM];
    if (!tensor_shape_equal(a, b) && kernels_broadcast_shape(a, b, &rank, shape)) {
        int64_t count = tensor_shape_numel(a->dtype, rank, shape); /* -1: the kernel refuses */
        if (count >= 0)
            interp_prepay_result(in, count, call->span);
    }
    Tensor *r = kernels_binary(e->op, a, b, &err);
    if (r != NULL && !kernels_binary_gives_bool(e->op) && !dtype_equal(r->dtype, result_dt))
        r = kernel_astype(r, result_dt, &err);
    if (r == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", err);
    if (args[0]->kind == VAL_PRIM && args[1]->kind == VAL_PRIM)
        return prim_of(r);
    return value_tensor(r);
}

static Value *kernel_unary(Interp *in, const Expr *call, Value **args, int nargs)
{
    const UnaryEntry *e = unary_entry(call);
    if (e == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "unknown operator");
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    if (!dtype_in_class(x->dtype, e->dc))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "requires %s, got %s",
                    class_text(e->dc), dtype_str(x->dtype));
    const char *err = NULL;
    Tensor *r = kernels_unary(e->op, x, &err);
    if (r == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s", err);
    return value_tensor(r);
}

static Value *kernel_clip(Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    const Value *lo = ops_kernel_prim(in, call, args, nargs, 1);
    const Value *hi = ops_kernel_prim(in, call, args, nargs, 2);
    DataType t = x->dtype;
    double lo_f = tensor_round_f64(t, value_prim_as_f64(lo));
    double hi_f = tensor_round_f64(t, value_prim_as_f64(hi));
    int64_t lo_i = value_prim_is_float(lo) ? tensor_f64_to_int(t, lo->u.prim.f)
                                           : tensor_wrap_i64(t, lo->u.prim.i);
    int64_t hi_i = value_prim_is_float(hi) ? tensor_f64_to_int(t, hi->u.prim.f)
                                           : tensor_wrap_i64(t, hi->u.prim.i);
    Tensor *r = kernels_clip(x, lo_f, hi_f, lo_i, hi_i);
    if (r == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the result is too large");
    return value_tensor(r);
}

/* ---- the table -------------------------------------------------------------------------- */

#define DTYPES_DC_ANY "all"
#define DTYPES_DC_FLOAT "float"
#define DTYPES_DC_BOOL "bool"
#define DTYPES_DC_INT_OR_BOOL "int, bool"
#define DTYPES_DC_INT "int"
#define BINARY_IMPL(name, op, dc) {"relax." name, true, infer_binary, kernel_binary, DTYPES_##dc},
#define UNARY_IMPL(name, op, dc) {"relax." name, true, infer_unary, kernel_unary, DTYPES_##dc},

static const OpImpl ELEMWISE_IMPLS[] = {
    BINARY_OPS(BINARY_IMPL)
        UNARY_OPS(UNARY_IMPL){"relax.clip", true, infer_clip, kernel_clip, "all"},
};

const OpImpl *ops_elemwise(int *n)
{
    *n = COUNT(ELEMWISE_IMPLS);
    return ELEMWISE_IMPLS;
}
