/* ops_scatter: the table of the indexing and scatter operators (gather, scatter, index_put,
 * one_hot, nonzero, bucketize, meshgrid) and the helpers their files share. SPEC_NOTES: "Operators"
 * (OP-gather_elements and the rows after it). */
#include "interp/ops/scatter/scatter_internal.h"

#include "ast/mem.h"
#include "interp/eval/interp.h"

bool scatter_index_dtype_ok(DataType t, bool allow_uint)
{
    return dtype_is_void(t) || dtype_is_int(t) || (allow_uint && dtype_is_uint(t));
}

StructInfo *scatter_like(OpInferCtx *ctx, const StructInfo *x, DataType dtype)
{
    return ops_tensor_result(ops_shape_of(x), dtype, x->u.tensor.vdevice, ctx->call->span);
}

const StructInfo **scatter_arg_tensors(OpInferCtx *ctx, int i, int *n)
{
    const StructInfo *t = i < ctx->nargs ? ctx->arg_sinfo[i] : NULL;
    if (t == NULL || t->kind != SINFO_TUPLE) {
        ops_infer_fail(ctx, "OpArgType", "argument %d must be a tuple of tensors", i);
        return NULL;
    }
    const StructInfo **fs = MEM_ARRAY(const StructInfo *, t->u.tuple.n + 1);
    for (int k = 0; k < t->u.tuple.n; k++) {
        fs[k] = t->u.tuple.fields[k];
        if (fs[k]->kind != SINFO_TENSOR) {
            ops_infer_fail(ctx, "OpArgType", "field %d of argument %d is not a tensor", k, i);
            return NULL;
        }
    }
    *n = t->u.tuple.n;
    return fs;
}

Value *scatter_result(struct Interp *in, const Expr *call, Tensor *t, const char *err)
{
    if (t == NULL)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span, "%s: %s",
                    call->u.call.op->u.op_name, err ? err : "the kernel failed");
    return value_tensor(t);
}

Tensor **scatter_kernel_tensors(struct Interp *in, const Expr *call, Value **args, int i, bool lone,
                                int *n)
{
    const Value *v = args[i];
    if (lone && v->kind == VAL_TENSOR) {
        Tensor **one = MEM_ARRAY(Tensor *, 1);
        one[0] = v->u.tensor;
        *n = 1;
        return one;
    }
    if (v->kind != VAL_TUPLE)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "argument %d must be a tuple of tensors", i);
    Tensor **ts = MEM_ARRAY(Tensor *, v->u.tuple.n + 1);
    for (int k = 0; k < v->u.tuple.n; k++) {
        if (v->u.tuple.fields[k]->kind != VAL_TENSOR)
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "field %d of argument %d is not a tensor", k, i);
        ts[k] = v->u.tuple.fields[k]->u.tensor;
    }
    *n = v->u.tuple.n;
    return ts;
}

ScatterReduce scatter_kernel_reduce(struct Interp *in, const Expr *call)
{
    ScatterReduce r;
    const char *name = ops_attr_str(call, "reduction", "update");
    if (!kernel_scatter_reduce_of(name, &r))
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "unknown reduction \"%s\"", name);
    return r;
}

static const OpImpl SCATTER_IMPLS[] = {
    {"relax.gather_elements", true, scatter_infer_gather_elements, scatter_eval_gather_elements,
     "all"},
    {"relax.gather_nd", true, scatter_infer_gather_nd, scatter_eval_gather_nd, "all"},
    {"relax.index_tensor", true, scatter_infer_index_tensor, scatter_eval_index_tensor, "all"},
    {"relax.scatter_elements", true, scatter_infer_scatter_elements, scatter_eval_scatter_elements,
     "all"},
    {"relax.scatter_nd", true, scatter_infer_scatter_nd, scatter_eval_scatter_nd, "all"},
    {"relax.index_put", true, scatter_infer_index_put, scatter_eval_index_put, "all"},
    {"relax.slice_scatter", true, scatter_infer_slice_scatter, scatter_eval_slice_scatter, "all"},
    {"relax.one_hot", true, scatter_infer_one_hot, scatter_eval_one_hot, "all"},
    {"relax.nonzero", true, scatter_infer_nonzero, scatter_eval_nonzero, "all"},
    {"relax.bucketize", true, scatter_infer_bucketize, scatter_eval_bucketize, "all"},
    {"relax.meshgrid", true, scatter_infer_meshgrid, scatter_eval_meshgrid, "all"},
};

const OpImpl *ops_scatter(int *n)
{
    *n = (int)(sizeof(SCATTER_IMPLS) / sizeof(SCATTER_IMPLS[0]));
    return SCATTER_IMPLS;
}
