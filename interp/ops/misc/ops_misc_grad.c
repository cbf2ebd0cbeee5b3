/* ops_misc_grad: the gradient operators TVM registers (grad.cc): no_grad and the checkpoint
 * markers (identities), and the backward operators of nll_loss, max/avg_pool2d and take, whose
 * StructInfo is their second argument's and whose values follow legalize_ops/grad.py and
 * topi's pool_grad. SPEC_NOTES: "Operators" (OP-grad.no_grad ... OP-grad.take_backward). */
#include <string.h>

#include "ast/checked.h"
#include "interp/eval/interp.h"
#include "interp/ops/misc/ops_misc_internal.h"
#include "values/kernels/kernels_misc.h"

/* OP-grad.no_grad: the argument's StructInfo, whatever it is. */
StructInfo *misc_infer_no_grad(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    return ctx->arg_sinfo[0];
}

Value *misc_eval_no_grad(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    (void)in;
    (void)call;
    (void)nargs;
    return args[0];
}

/* OP-grad.start_checkpoint, OP-grad.end_checkpoint: the argument must be a variable (TVM's
 * check: OpArgType), its StructInfo. */
StructInfo *misc_infer_checkpoint(OpInferCtx *ctx)
{
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    const Expr *a = ctx->call->u.call.args[0];
    if (a->kind != EXPR_VAR)
        return ops_infer_fail(ctx, "OpArgType", "the argument of a checkpoint must be a Var");
    return ctx->arg_sinfo[0];
}

Value *misc_eval_checkpoint(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    return misc_eval_no_grad(in, call, args, nargs);
}

/* The backward operators' inference: the second argument's StructInfo (TVM checks nothing
 * else statically). */
static StructInfo *infer_like_second(OpInferCtx *ctx, int min, int max)
{
    if (!ops_check_arity(ctx, min, max))
        return ops_infer_object(ctx);
    for (int i = 0; i < ctx->nargs; i++)
        if (ops_arg_tensor(ctx, i) == NULL)
            return ops_infer_object(ctx);
    return ctx->arg_sinfo[1];
}

/* ---- nll_loss_backward ------------------------------------------------------------------- */

/* OP-grad.nll_loss_backward: the predictions' StructInfo. */
StructInfo *misc_infer_nll_loss_backward(OpInferCtx *ctx)
{
    return infer_like_second(ctx, 3, 4);
}

static void check_nll_shapes(struct Interp *in, const Expr *call, Tensor *const *t, bool none)
{
    const Tensor *g = t[0], *pred = t[1], *tg = t[2], *w = t[3];
    bool ok = pred->ndim >= 1 && dtype_is_float(pred->dtype) && dtype_is_int(tg->dtype);
    ok = ok && tg->ndim == (pred->ndim == 1 ? 0 : pred->ndim - 1);
    for (int k = 0; ok && k < tg->ndim; k++)
        ok = tg->shape[k] == pred->shape[k == 0 ? 0 : k + 1];
    int64_t nc = !ok ? 0 : pred->ndim == 1 ? pred->shape[0] : pred->shape[1];
    if (ok && w != NULL)
        ok = w->ndim == 1 && w->shape[0] == nc;
    if (ok)
        ok = none ? tensor_has_shape(g, tg->ndim, tg->shape) : g->ndim == 0;
    if (!ok)
        misc_fail(in, call,
                  "nll_loss_backward needs float predictions (C) or (N, C, d...), int "
                  "targets of their shape without C, weights (C) and an output "
                  "gradient of the loss' shape");
}

Value *misc_eval_nll_loss_backward(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *t[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < nargs && i < 4; i++)
        t[i] = ops_kernel_tensor(in, call, args, nargs, i);
    const char *reduction = ops_attr_str(call, "reduction", "mean");
    bool none = strcmp(reduction, "none") == 0;
    if (!none && strcmp(reduction, "mean") != 0 && strcmp(reduction, "sum") != 0)
        misc_fail(in, call, "unknown reduction `%s`", reduction);
    check_nll_shapes(in, call, t, none);
    Tensor *out = ops_kernel_new_tensor(in, call, t[1]->dtype, t[1]->ndim, t[1]->shape);
    NllTargets nt = {t[2], t[3], reduction, ops_attr_int(call, "ignore_index", -100)};
    if (!kernels_nll_loss_backward(t[0], t[1], &nt, out))
        misc_fail(in, call, "a target is out of the class range");
    return value_tensor(out);
}

/* ---- max_pool2d_backward, avg_pool2d_backward -------------------------------------------- */

/* OP-grad.max_pool2d_backward, OP-grad.avg_pool2d_backward: the data's StructInfo. */
StructInfo *misc_infer_pool2d_backward(OpInferCtx *ctx)
{
    return infer_like_second(ctx, 2, 2);
}

/* Pool2DAttrs as a WindowPool: pairs of one value doubled, padding of 1, 2 or 4 values. */
static WindowPool read_pool(struct Interp *in, const Expr *call)
{
    WindowPool p = {.nsp = 2};
    const char *keys[3] = {"pool_size", "strides", "dilation"};
    int64_t *dst[3] = {p.pool_size, p.strides, p.dilation};
    for (int k = 0; k < 3; k++) {
        int64_t *v;
        int n;
        if (!ops_attr_int_list(call, keys[k], &v, &n) || (n != 1 && n != 2) || v[0] < 1 ||
            v[n - 1] < 1)
            misc_fail(in, call, "%s must be one or two positive ints", keys[k]);
        dst[k][0] = v[0];
        dst[k][1] = v[n - 1];
    }
    int64_t *pad;
    int n;
    if (!ops_attr_int_list(call, "padding", &pad, &n) || (n != 1 && n != 2 && n != 4))
        misc_fail(in, call, "padding must have 1, 2 or 4 values");
    int64_t full[4] = {pad[0], pad[n > 1], pad[n == 4 ? 2 : 0], pad[n == 4 ? 3 : n - 1]};
    for (int k = 0; k < 4; k++)
        if (full[k] < 0)
            misc_fail(in, call, "padding must not be negative");
    p.pad_lo[0] = full[0];
    p.pad_lo[1] = full[1];
    p.pad_hi[0] = full[2];
    p.pad_hi[1] = full[3];
    p.ceil_mode = ops_attr_bool(call, "ceil_mode", false);
    p.count_include_pad = ops_attr_bool(call, "count_include_pad", false);
    return p;
}

static Value *pool_backward(struct Interp *in, const Expr *call, Value **args, int nargs,
                            bool is_max)
{
    Tensor *g = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 1);
    WindowPool p = read_pool(in, call);
    if (strcmp(ops_attr_str(call, "layout", "NCHW"), "NCHW") != 0)
        misc_fail(in, call, "only the NCHW layout is supported");
    int64_t fwd[4];
    if (x->ndim != 4 || !dtype_is_float(x->dtype) ||
        !kernels_window_pool_shape(x->shape, &p, fwd) || !tensor_has_shape(g, 4, fwd))
        misc_fail(in, call, "the output gradient must have the pooled shape of float NCHW data");
    /* LIMIT-fuel: one unit per element a window reads, before the work, as the pooling's */
    const int64_t reads[6] = {fwd[0], fwd[1], fwd[2], fwd[3], p.pool_size[0], p.pool_size[1]};
    interp_charge(in, checked_count(reads, 6), call->span);
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, 4, x->shape);
    kernels_pool2d_backward(g, x, &p, is_max, out);
    return value_tensor(out);
}

Value *misc_eval_pool2d_backward(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    const Expr *op = call->u.call.op;
    bool is_max =
        op->kind == EXPR_OP && strcmp(op->u.op_name, "relax.grad.max_pool2d_backward") == 0;
    return pool_backward(in, call, args, nargs, is_max);
}

/* ---- take_backward ----------------------------------------------------------------------- */

/* OP-grad.take_backward: x's StructInfo. */
StructInfo *misc_infer_take_backward(OpInferCtx *ctx)
{
    return infer_like_second(ctx, 3, 3);
}

/* The legalization's loop: 1-D integer indices; with an axis, grad has x's shape with the
 * axis' length replaced by the index count; without, grad has one element per index and the
 * indices address the flattened x. */
Value *misc_eval_take_backward(struct Interp *in, const Expr *call, Value **args, int nargs)
{
    Tensor *g = ops_kernel_tensor(in, call, args, nargs, 0);
    Tensor *x = ops_kernel_tensor(in, call, args, nargs, 1);
    Tensor *idx = ops_kernel_tensor(in, call, args, nargs, 2);
    const AttrValue *a = ops_attr(call, "axis");
    int axis = a == NULL ? -1 : ops_kernel_axis(in, call, ops_attr_int(call, "axis", 0), x->ndim);
    bool ok = idx->ndim == 1 && (dtype_is_int(idx->dtype) || dtype_is_uint(idx->dtype)) &&
              dtype_equal(g->dtype, x->dtype) && dtype_is_float(x->dtype);
    if (ok && axis < 0)
        ok = g->numel == idx->numel;
    for (int k = 0; ok && axis >= 0 && k < x->ndim; k++)
        ok = g->ndim == x->ndim && g->shape[k] == (k == axis ? idx->shape[0] : x->shape[k]);
    if (!ok)
        misc_fail(in, call,
                  "take_backward needs 1-D integer indices and a float gradient "
                  "shaped as take's result");
    Tensor *out = ops_kernel_new_tensor(in, call, x->dtype, x->ndim, x->shape);
    int64_t bad = kernels_take_backward(g, idx, axis, out);
    if (bad >= 0)
        misc_fail(in, call, "index %lld is out of range", (long long)tensor_get_i64(idx, bad));
    return value_tensor(out);
}
