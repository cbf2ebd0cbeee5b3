/* ops_ccl: the collective communication operators (ccl.allreduce, allgather,
 * broadcast_from_worker0, scatter_from_worker0): StructInfo inference as TVM's ccl/ccl.cc,
 * and their values on the reference's disco session of one worker. SPEC_NOTES: "Operators"
 * (OP-ccl.*), 4.23 (CCL-1 ... CCL-4). */
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/prover.h"

/* The reference's session: one worker (CCL-1). */
#define CCL_WORKERS 1

static const char *const REDUCTIONS[] = {"sum", "prod", "min", "max", "avg"};

/* num_workers of allgather and scatter_from_worker0: at least one (CCL-2). TVM v0.22 accepts
 * zero and negative counts for allgather (a dim of 0 or below) and divides by zero for
 * scatter; the reference refuses them when reading the call. */
static bool workers_ok(OpInferCtx *ctx, int64_t *workers)
{
    *workers = ops_attr_int(ctx->call, "num_workers", 0);
    rule_fired("CCL-4");
    if (*workers >= 1)
        return true;
    ops_infer_fail(ctx, "OpAttr", "num_workers must be at least 1, got %lld", (long long)*workers);
    return false;
}

/* The input's StructInfo, after the arity and tensor checks every collective makes. */
static const StructInfo *tensor_input(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return NULL;
    return ops_arg_tensor(ctx, 0);
}

/* OP-ccl.allreduce: the input's StructInfo; CCL-2: op_type one of TVM's five reductions (its
 * constructor asserts it, `OpAttr`). */
static StructInfo *infer_allreduce(OpInferCtx *ctx)
{
    const StructInfo *x = tensor_input(ctx);
    if (x == NULL)
        return ops_infer_object(ctx);
    const char *op = ops_attr_str(ctx->call, "op_type", "sum");
    rule_fired("CCL-2");
    for (size_t i = 0; i < sizeof REDUCTIONS / sizeof REDUCTIONS[0]; i++)
        if (strcmp(op, REDUCTIONS[i]) == 0)
            return (StructInfo *)x;
    return ops_infer_fail(ctx, "OpAttr", "op_type must be sum, prod, min, max or avg, got %s", op);
}

/* dim * k, folded for a constant dim. */
static PrimExpr *times(PrimExpr *dim, int64_t k, Span sp)
{
    int64_t c, prod;
    if (k == 1)
        return dim;
    if (prover_const_int(dim, &c) && !__builtin_mul_overflow(c, k, &prod))
        return primexpr_int(prod, dtype_int64(), sp);
    return primexpr_binary(PE_MUL, dim, primexpr_int(k, dtype_int64(), sp), sp);
}

/* OP-ccl.allgather: dim 0 times num_workers; the input's StructInfo when its shape is not
 * known; a rank-0 input has no dim 0 (`OpShapeMismatch`, as TVM's inference fails). */
static StructInfo *infer_allgather(OpInferCtx *ctx)
{
    int64_t workers;
    const StructInfo *x = tensor_input(ctx);
    if (x == NULL || !workers_ok(ctx, &workers))
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    if (s.ndim == 0)
        return ops_infer_fail(ctx, "OpShapeMismatch", "a rank-0 tensor has no dim 0 to gather");
    if (s.dims == NULL)
        return (StructInfo *)x;
    OpShape r = {MEM_ARRAY(PrimExpr *, s.ndim), s.ndim};
    for (int i = 0; i < s.ndim; i++)
        r.dims[i] = s.dims[i];
    r.dims[0] = times(s.dims[0], workers, ctx->call->span);
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

/* OP-ccl.broadcast_from_worker0: the input's StructInfo. */
static StructInfo *infer_broadcast(OpInferCtx *ctx)
{
    const StructInfo *x = tensor_input(ctx);
    return x != NULL ? (StructInfo *)x : ops_infer_object(ctx);
}

/* dim / k (TIR's truncating Div, as TVM's div), folded for a constant dim. */
static PrimExpr *divided(PrimExpr *dim, int64_t k, Span sp)
{
    int64_t c;
    if (k == 1)
        return dim;
    if (prover_const_int(dim, &c))
        return primexpr_int(c / k, dtype_int64(), sp);
    return primexpr_binary(PE_DIV, dim, primexpr_int(k, dtype_int64(), sp), sp);
}

/* OP-ccl.scatter_from_worker0: the input's shape must be known (`OpShapeMismatch`); axis in
 * [0, rank) with no negative form (TVM indexes the shape with it, `OpAttr`); a constant dim
 * that num_workers does not divide is `OpShapeMismatch`; the axis' dim divided by
 * num_workers. */
static StructInfo *infer_scatter(OpInferCtx *ctx)
{
    int64_t workers, c;
    const StructInfo *x = tensor_input(ctx);
    if (x == NULL || !workers_ok(ctx, &workers))
        return ops_infer_object(ctx);
    OpShape s = ops_shape_of(x);
    if (s.dims == NULL)
        return ops_infer_fail(ctx, "OpShapeMismatch", "the input's shape must be known");
    int64_t axis = ops_attr_int(ctx->call, "axis", 0);
    if (axis < 0 || axis >= s.ndim)
        return ops_infer_fail(ctx, "OpAttr", "axis %lld is outside [0, %d)", (long long)axis,
                              s.ndim);
    if (prover_const_int(s.dims[axis], &c) && c % workers != 0)
        return ops_infer_fail(ctx, "OpShapeMismatch",
                              "dim %lld of axis %lld is not divisible by num_workers %lld",
                              (long long)c, (long long)axis, (long long)workers);
    OpShape r = {MEM_ARRAY(PrimExpr *, s.ndim), s.ndim};
    for (int i = 0; i < s.ndim; i++)
        r.dims[i] = s.dims[i];
    r.dims[axis] = divided(s.dims[axis], workers, ctx->call->span);
    return ops_tensor_result(r, x->u.tensor.dtype, x->u.tensor.vdevice, ctx->call->span);
}

/* ---- values on one worker ---------------------------------------------------------------- */

/* CCL-3: a collective over num_workers workers needs that many in the session. */
static void require_workers(struct Interp *in, const Expr *call)
{
    int64_t workers = ops_attr_int(call, "num_workers", 0);
    rule_fired("CCL-1");
    rule_fired("CCL-3");
    if (workers != CCL_WORKERS)
        interp_fail(in, "CclWorkers", "CCL-3", call->span,
                    "%s needs a session of %lld workers; the reference runs one",
                    call->u.call.op->u.op_name, (long long)workers);
}

/* CCL-2: allreduce and broadcast_from_worker0 over the session's one worker give each worker
 * its own input; every reduction (sum, prod, min, max, avg) of one value is that value. The
 * result is a fresh tensor, as a collective's output buffer is, so an in-place operator on
 * it leaves the input alone. */
static Value *kernel_identity(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    rule_fired("CCL-1");
    rule_fired("CCL-2");
    return value_tensor(tensor_copy(ops_kernel_tensor(in, call, args, nargs, 0)));
}

/* CCL-3: allgather and scatter_from_worker0 with num_workers 1 are the identity. */
static Value *kernel_sized(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 0);
    require_workers(in, call);
    return value_tensor(tensor_copy(x));
}

static const OpImpl CCL_OPS[] = {
    {"relax.ccl.allreduce", true, infer_allreduce, kernel_identity, "all"},
    {"relax.ccl.allgather", true, infer_allgather, kernel_sized, "all"},
    {"relax.ccl.broadcast_from_worker0", true, infer_broadcast, kernel_identity, "all"},
    {"relax.ccl.scatter_from_worker0", true, infer_scatter, kernel_sized, "all"},
};

const OpImpl *ops_ccl(int *n)
{
    *n = (int)(sizeof CCL_OPS / sizeof CCL_OPS[0]);
    return CCL_OPS;
}
