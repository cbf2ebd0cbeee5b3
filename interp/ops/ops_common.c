/* ops_common: helpers every operator family shares (argument checks, broadcasting, axes,
 * attributes). SPEC_NOTES: "Operators" (OP-* rules, Op* codes). */
#include "interp/ops/ops_common.h"

#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/structinfo/prover.h"

/* ---- arguments -------------------------------------------------------------------------- */

StructInfo *ops_infer_object(const OpInferCtx *ctx)
{
    return sinfo_object(ctx->call->span);
}

bool ops_check_arity(OpInferCtx *ctx, int min, int max)
{
    if (ctx->nargs >= min && ctx->nargs <= max)
        return true;
    if (min == max)
        ops_infer_fail(ctx, "OpArity", "takes %d argument(s), got %d", min, ctx->nargs);
    else
        ops_infer_fail(ctx, "OpArity", "takes %d to %d arguments, got %d", min, max, ctx->nargs);
    return false;
}

static const char *kind_text(const StructInfo *s)
{
    if (s == NULL)
        return "nothing";
    switch (s->kind) {
    case SINFO_OBJECT:
        return "an Object";
    case SINFO_PRIM:
        return "a PrimValue";
    case SINFO_SHAPE:
        return "a Shape";
    case SINFO_TENSOR:
        return "a Tensor";
    case SINFO_TUPLE:
        return "a Tuple";
    case SINFO_FUNC:
        return "a function";
    case SINFO_DTENSOR:
        return "a DTensor";
    }
    return "a value";
}

static const StructInfo *arg_of_kind(OpInferCtx *ctx, int i, StructInfoKind kind, const char *want)
{
    const StructInfo *s = i < ctx->nargs ? ctx->arg_sinfo[i] : NULL;
    if (s != NULL && s->kind == kind)
        return s;
    ops_infer_fail(ctx, "OpArgType", "argument %d must be %s, got %s", i + 1, want, kind_text(s));
    return NULL;
}

const StructInfo *ops_arg_tensor(OpInferCtx *ctx, int i)
{
    return arg_of_kind(ctx, i, SINFO_TENSOR, "a Tensor");
}

const StructInfo *ops_arg_prim(OpInferCtx *ctx, int i)
{
    return arg_of_kind(ctx, i, SINFO_PRIM, "a PrimValue");
}

const StructInfo *ops_arg_shape(OpInferCtx *ctx, int i)
{
    return arg_of_kind(ctx, i, SINFO_SHAPE, "a Shape");
}

/* ---- shapes ----------------------------------------------------------------------------- */

OpShape ops_shape_of(const StructInfo *t)
{
    OpShape s = {NULL, t->u.tensor.ndim};
    const Expr *e = t->u.tensor.shape;
    if (e == NULL)
        return s;
    if (e->kind == EXPR_SHAPE) {
        s.dims = e->u.shape.values;
        s.ndim = e->u.shape.n;
        return s;
    }
    const StructInfo *v = e->kind == EXPR_VAR ? e->u.var->annotation : NULL;
    if (v == NULL)
        v = e->sinfo;
    if (v != NULL && v->kind == SINFO_SHAPE && v->u.shape.values != NULL) {
        s.dims = v->u.shape.values;
        s.ndim = v->u.shape.ndim;
    }
    return s;
}

bool ops_dim_is(const PrimExpr *dim, int64_t v)
{
    int64_t k;
    return prover_const_int(dim, &k) && k == v;
}

/* A dim provably different from 1 for every value of its variables. */
static bool dim_not_one(const PrimExpr *dim)
{
    PrimExpr *one = primexpr_int(1, dtype_int64(), dim->span);
    return prover_compare(dim, one) == PROVE_UNEQUAL;
}

/* A shape as TVM prints it: (2, n) or (4,). */
static const char *shape_text(OpShape s)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addc(&sb, '(');
    for (int i = 0; i < s.ndim; i++)
        strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", prover_canonical(s.dims[i]));
    strbuf_addf(&sb, "%s)", s.ndim == 1 ? "," : "");
    return strbuf_str(&sb);
}

/* Result dim of one aligned pair; NULL when undecided. The message names both shapes. */
static PrimExpr *broadcast_dim(OpInferCtx *ctx, OpShape sa, OpShape sb, PrimExpr *a, PrimExpr *b,
                               bool *failed)
{
    if (ops_dim_is(a, 1))
        return b;
    if (ops_dim_is(b, 1))
        return a;
    ProveResult r = prover_compare(a, b);
    if (r == PROVE_EQUAL)
        return a;
    if (r == PROVE_UNEQUAL && dim_not_one(a) && dim_not_one(b)) {
        ops_infer_fail(ctx, "OpShapeMismatch", "dims %s and %s do not broadcast (shapes %s and %s)",
                       prover_canonical(a), prover_canonical(b), shape_text(sa), shape_text(sb));
        *failed = true;
    }
    return NULL;
}

bool ops_broadcast(OpInferCtx *ctx, OpShape a, OpShape b, OpShape *out)
{
    out->dims = NULL;
    out->ndim = (a.ndim < 0 || b.ndim < 0) ? -1 : (a.ndim > b.ndim ? a.ndim : b.ndim);
    if (a.dims == NULL || b.dims == NULL)
        return true;
    int n = out->ndim;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    bool known = true;
    bool failed = false;
    for (int k = 1; k <= n; k++) {
        PrimExpr *da = k <= a.ndim ? a.dims[a.ndim - k] : NULL;
        PrimExpr *db = k <= b.ndim ? b.dims[b.ndim - k] : NULL;
        PrimExpr *d = da == NULL ? db : db == NULL ? da : broadcast_dim(ctx, a, b, da, db, &failed);
        if (failed)
            return false;
        if (d == NULL)
            known = false;
        dims[n - k] = d;
    }
    if (known)
        out->dims = dims;
    return true;
}

bool ops_unify_dtype(OpInferCtx *ctx, DataType a, DataType b, DataType *out)
{
    if (dtype_is_void(a) || dtype_is_void(b)) {
        *out = dtype_void();
        return true;
    }
    if (dtype_equal(a, b)) {
        *out = a;
        return true;
    }
    ops_infer_fail(ctx, "OpDTypeMismatch", "operand dtypes %s and %s differ", dtype_str(a),
                   dtype_str(b));
    return false;
}

/* ---- axes ------------------------------------------------------------------------------- */

bool ops_normalize_axis(OpInferCtx *ctx, int64_t axis, int ndim, int *out)
{
    if (axis < -(int64_t)ndim || axis >= ndim) {
        ops_infer_fail(ctx, "OpAttr", "axis %lld is out of range for rank %d", (long long)axis,
                       ndim);
        return false;
    }
    *out = (int)(axis < 0 ? axis + ndim : axis);
    return true;
}

static bool axes_collect(OpInferCtx *ctx, const AttrValue *axes, int ndim, bool *seen)
{
    int count = axes->kind == ATTR_LIST ? axes->u.list.n : 1;
    for (int i = 0; i < count; i++) {
        const AttrValue *a = axes->kind == ATTR_LIST ? axes->u.list.items[i] : axes;
        if (a->kind != ATTR_INT) {
            ops_infer_fail(ctx, "OpAttr", "an axis must be an integer");
            return false;
        }
        int k;
        if (!ops_normalize_axis(ctx, a->u.i, ndim, &k))
            return false;
        if (seen[k]) {
            ops_infer_fail(ctx, "OpAttr", "axis %d is given twice", k);
            return false;
        }
        seen[k] = true;
    }
    return true;
}

bool ops_normalize_axes(OpInferCtx *ctx, const AttrValue *axes, int ndim, int **out, int *n)
{
    bool *seen = MEM_ARRAY(bool, ndim > 0 ? ndim : 1);
    bool all = axes == NULL || axes->kind == ATTR_NONE;
    if (all) {
        for (int k = 0; k < ndim; k++)
            seen[k] = true;
    } else if (!axes_collect(ctx, axes, ndim, seen)) {
        return false;
    }
    *out = MEM_ARRAY(int, ndim > 0 ? ndim : 1);
    *n = 0;
    for (int k = 0; k < ndim; k++)
        if (seen[k])
            (*out)[(*n)++] = k;
    return true;
}

/* ---- results ---------------------------------------------------------------------------- */

bool ops_dims_fit(OpInferCtx *ctx, OpShape shape)
{
    int64_t c;
    for (int i = 0; shape.dims != NULL && i < shape.ndim; i++) {
        if (shape.dims[i] == NULL) {
            ops_infer_fail(ctx, "OpShapeOverflow", "dim %d of the result overflows int64", i);
            return false;
        }
        if (prover_const_int(shape.dims[i], &c) && c < 0) {
            ops_infer_fail(ctx, "OpShapeMismatch", "dim %d of the result is negative (%lld)", i,
                           (long long)c);
            return false;
        }
    }
    return true;
}

StructInfo *ops_tensor_result(OpShape shape, DataType dtype, VDevice *vdevice, Span span)
{
    if (shape.dims == NULL)
        return sinfo_tensor(NULL, dtype, vdevice, shape.ndim, span);
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, shape.ndim > 0 ? shape.ndim : 1);
    memcpy(dims, shape.dims, sizeof(PrimExpr *) * (size_t)shape.ndim);
    Expr *e = expr_shape(dims, shape.ndim, span);
    e->sinfo = sinfo_shape(dims, shape.ndim, span);
    return sinfo_tensor(e, dtype, vdevice, shape.ndim, span);
}

VDevice *ops_pick_vdevice(const StructInfo *a, const StructInfo *b)
{
    if (a != NULL && a->kind == SINFO_TENSOR && a->u.tensor.vdevice != NULL)
        return a->u.tensor.vdevice;
    if (b != NULL && b->kind == SINFO_TENSOR)
        return b->u.tensor.vdevice;
    return NULL;
}

VDevice *ops_common_vdevice(const StructInfo **ts, int n)
{
    VDevice *v = NULL;
    for (int i = 0; i < n; i++) {
        VDevice *w = ts[i]->u.tensor.vdevice;
        if (w != NULL && v != NULL && w != v)
            return NULL;
        v = w != NULL ? w : v;
    }
    return v;
}

PrimExpr **ops_const_dims(const int64_t *dims, int ndim, Span span)
{
    PrimExpr **out = MEM_ARRAY(PrimExpr *, ndim > 0 ? ndim : 1);
    for (int i = 0; i < ndim; i++)
        out[i] = primexpr_int(dims[i], dtype_int64(), span);
    return out;
}

/* ---- attributes ------------------------------------------------------------------------- */

const AttrValue *ops_attr(const Expr *call, const char *key)
{
    const AttrValue *v = attrs_get(call->u.call.attrs, key);
    return v == NULL || v->kind == ATTR_NONE ? NULL : v;
}

int64_t ops_attr_int(const Expr *call, const char *key, int64_t dflt)
{
    const AttrValue *v = ops_attr(call, key);
    if (v != NULL && v->kind == ATTR_INT)
        return v->u.i;
    if (v != NULL && v->kind == ATTR_BOOL)
        return v->u.b;
    return dflt;
}

double ops_attr_float(const Expr *call, const char *key, double dflt)
{
    const AttrValue *v = ops_attr(call, key);
    if (v != NULL && v->kind == ATTR_FLOAT)
        return v->u.f;
    if (v != NULL && v->kind == ATTR_INT)
        return (double)v->u.i;
    return dflt;
}

bool ops_attr_bool(const Expr *call, const char *key, bool dflt)
{
    const AttrValue *v = ops_attr(call, key);
    if (v != NULL && v->kind == ATTR_BOOL)
        return v->u.b;
    if (v != NULL && v->kind == ATTR_INT)
        return v->u.i != 0;
    return dflt;
}

const char *ops_attr_str(const Expr *call, const char *key, const char *dflt)
{
    const AttrValue *v = ops_attr(call, key);
    return v != NULL && v->kind == ATTR_STR ? v->u.s : dflt;
}

DataType ops_attr_dtype(const Expr *call, const char *key)
{
    const AttrValue *v = ops_attr(call, key);
    DataType t = dtype_void();
    if (v != NULL && v->kind == ATTR_STR && dtype_parse(v->u.s, &t))
        return t;
    if (v != NULL && v->kind == ATTR_EXPR && v->u.expr->kind == EXPR_DTYPE)
        return v->u.expr->u.dtype;
    return dtype_void();
}

bool ops_attr_int_list(const Expr *call, const char *key, int64_t **out, int *n)
{
    const AttrValue *v = ops_attr(call, key);
    if (v == NULL)
        return false;
    if (v->kind == ATTR_INT) {
        *out = MEM_ARRAY(int64_t, 1);
        (*out)[0] = v->u.i;
        *n = 1;
        return true;
    }
    if (v->kind != ATTR_LIST)
        return false;
    *out = MEM_ARRAY(int64_t, v->u.list.n > 0 ? v->u.list.n : 1);
    for (int i = 0; i < v->u.list.n; i++) {
        if (v->u.list.items[i]->kind != ATTR_INT)
            return false;
        (*out)[i] = v->u.list.items[i]->u.i;
    }
    *n = v->u.list.n;
    return true;
}

/* ---- kernel side ------------------------------------------------------------------------ */

const char *ops_rule_of(const char *op_name)
{
    const char *prefix = "relax.";
    size_t k = strlen(prefix);
    const char *shortname = strncmp(op_name, prefix, k) == 0 ? op_name + k : op_name;
    return mem_printf("OP-%s", shortname);
}

const char *ops_call_rule(const Expr *call)
{
    const Expr *op = call->u.call.op;
    return ops_rule_of(op->kind == EXPR_OP ? op->u.op_name : "unknown");
}

static const Value *kernel_arg(struct Interp *in, const Expr *call, Value **args, int nargs, int i,
                               ValueKind kind)
{
    if (i < nargs && args[i]->kind == kind)
        return args[i];
    interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                "argument %d must be a %s, got %s", i + 1, value_kind_name(kind),
                i < nargs ? value_kind_name(args[i]->kind) : "nothing");
}

Tensor *ops_kernel_tensor(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    return kernel_arg(in, call, args, nargs, i, VAL_TENSOR)->u.tensor;
}

const Value *ops_kernel_prim(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    return kernel_arg(in, call, args, nargs, i, VAL_PRIM);
}

const Value *ops_kernel_shape(struct Interp *in, const Expr *call, Value **args, int nargs, int i)
{
    return kernel_arg(in, call, args, nargs, i, VAL_SHAPE);
}

int ops_kernel_axis(struct Interp *in, const Expr *call, int64_t axis, int ndim)
{
    if (axis < -(int64_t)ndim || axis >= ndim)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "axis %lld is out of range for rank %d", (long long)axis, ndim);
    return (int)(axis < 0 ? axis + ndim : axis);
}

static Tensor *new_result(struct Interp *in, const Expr *call, DataType dtype, int ndim,
                          const int64_t *shape, bool zeroed)
{
    /* LIMIT-fuel: a tensor an operator makes is paid for before it is filled, so a result
     * far larger than the operands (resize2d, pad, a one-hot) is refused at once. */
    int64_t count = tensor_shape_numel(dtype, ndim, shape); /* -1: tensor_new refuses it */
    if (count >= 0)
        interp_prepay_result(in, count, call->span);
    Tensor *t = zeroed ? tensor_new(dtype, ndim, shape) : tensor_new_uninit(dtype, ndim, shape);
    if (t == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "cannot make a %s tensor of rank %d of that size", dtype_str(dtype), ndim);
    return t;
}

Tensor *ops_kernel_new_tensor(struct Interp *in, const Expr *call, DataType dtype, int ndim,
                              const int64_t *shape)
{
    return new_result(in, call, dtype, ndim, shape, true);
}

Tensor *ops_kernel_new_tensor_uninit(struct Interp *in, const Expr *call, DataType dtype,
                                     int ndim, const int64_t *shape)
{
    return new_result(in, call, dtype, ndim, shape, false);
}
