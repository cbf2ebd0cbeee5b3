/* lowered_memory: storage and the tensors allocated in it (R.memory.*, R.vm.*,
 * R.builtin.alloc_tensor), the kill operators that end a lifetime, R.vm.call_tir_dyn and
 * R.call_builtin_with_ctx. SPEC_NOTES: "The lowered IR" (LOW-*). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/lowered/lowered.h"
#include "interp/lowered/lowered_internal.h"
#include "interp/ops/ops_common.h"

/* ---- run-time argument readers ------------------------------------------------------ */

noreturn void lowered_fail(Interp *in, const Expr *call, const char *code, const char *rule,
                           const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const Expr *op = call->u.call.op;
    interp_fail(in, code, rule, call->span, "%s: %s",
                op->kind == EXPR_OP ? op->u.op_name : "operator", buf);
}

static Value *arg_or_fail(Interp *in, const Expr *call, Value **args, int nargs, int i,
                          const char *rule)
{
    rule_fired(rule); /* the operator's rule, whose argument this is */
    if (i < nargs)
        return args[i];
    lowered_fail(in, call, "OpPrecondition", rule, "argument %d is missing", i + 1);
}

Tensor *lowered_tensor_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                           const char *rule)
{
    Value *v = arg_or_fail(in, call, args, nargs, i, rule);
    if (v->kind != VAL_TENSOR)
        lowered_fail(in, call, "OpPrecondition", rule, "argument %d must be a tensor, got a %s",
                     i + 1, value_kind_name(v->kind));
    return v->u.tensor;
}

int64_t lowered_int_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                        const char *rule)
{
    Value *v = arg_or_fail(in, call, args, nargs, i, rule);
    if (v->kind != VAL_PRIM || value_prim_is_float(v))
        lowered_fail(in, call, "OpPrecondition", rule,
                     "argument %d must be an integer PrimValue, got a %s", i + 1,
                     value_kind_name(v->kind));
    return v->u.prim.i;
}

const Value *lowered_shape_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                               const char *rule)
{
    Value *v = arg_or_fail(in, call, args, nargs, i, rule);
    if (v->kind != VAL_SHAPE)
        lowered_fail(in, call, "OpPrecondition", rule, "argument %d must be a shape, got a %s",
                     i + 1, value_kind_name(v->kind));
    return v;
}

bool lowered_is_void(Value **args, int nargs, int i)
{
    return i >= nargs || (args[i]->kind == VAL_TUPLE && args[i]->u.tuple.n == 0);
}

static DataType dtype_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                          const char *rule)
{
    Value *v = arg_or_fail(in, call, args, nargs, i, rule);
    if (v->kind == VAL_DTYPE)
        return v->u.dtype;
    DataType t;
    if (v->kind == VAL_STRING && dtype_parse(v->u.str, &t))
        return t;
    lowered_fail(in, call, "OpPrecondition", rule, "argument %d must be a data type, got a %s",
                 i + 1, value_kind_name(v->kind));
}

static Storage *storage_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                            const char *rule)
{
    Value *v = arg_or_fail(in, call, args, nargs, i, rule);
    if (v->kind != VAL_OBJECT || v->u.object.storage == NULL)
        lowered_fail(in, call, "OpPrecondition", rule, "argument %d must be a storage, got a %s",
                     i + 1, value_kind_name(v->kind));
    return v->u.object.storage;
}

/* ---- inference helpers ---------------------------------------------------------------- */

const StructInfo *lowered_sinfo_arg(const OpInferCtx *ctx, int i)
{
    return i < ctx->nargs ? ctx->arg_sinfo[i] : NULL;
}

bool lowered_sinfo_is_void(const OpInferCtx *ctx, int i)
{
    const StructInfo *s = lowered_sinfo_arg(ctx, i);
    return s == NULL || (s->kind == SINFO_TUPLE && s->u.tuple.n == 0);
}

bool lowered_dtype_expr(const OpInferCtx *ctx, int i, DataType *out)
{
    if (i >= ctx->call->u.call.nargs)
        return false;
    const Expr *e = ctx->call->u.call.args[i];
    if (e->kind != EXPR_DTYPE)
        return false;
    *out = e->u.dtype;
    return true;
}

/* ---- storage ------------------------------------------------------------------------------ */

/* LOW-alloc_storage: R.Object, whatever the arguments (TVM checks them only at run time). */
static StructInfo *infer_alloc_storage(OpInferCtx *ctx)
{
    ctx->rule = "LOW-alloc_storage";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 4, 4))
        return ops_infer_object(ctx);
    return sinfo_object(ctx->call->span);
}

static Value *new_storage(Interp *in, const Expr *call, int64_t nbytes, DataType hint,
                          const char *scope)
{
    DataType byte = dtype_make(DT_UINT, 8, 1);
    if (nbytes < 0 || tensor_shape_numel(byte, 1, &nbytes) < 0)
        lowered_fail(in, call, "OpPrecondition", "LOW-alloc_storage",
                     "a storage of %lld bytes cannot be allocated", (long long)nbytes);
    Storage *s = MEM_NEW(Storage);
    s->data = mem_alloc_atomic((size_t)(nbytes > 0 ? nbytes : 1));
    memset(s->data, 0, (size_t)(nbytes > 0 ? nbytes : 1));
    s->nbytes = nbytes;
    s->dtype_hint = hint;
    s->scope = scope;
    return value_storage(s);
}

/* The product of a size shape's dims, or -1 on overflow. */
static int64_t size_product(const Value *shape)
{
    bool over = false;
    for (int i = 0; i < shape->u.shape.ndim; i++)
        over = over || shape->u.shape.dims[i] < 0;
    int64_t n = checked_product(shape->u.shape.dims, shape->u.shape.ndim, &over);
    return over ? -1 : n;
}

/* LOW-alloc_storage: R.memory.alloc_storage(total_space, virtual_device_index,
 * storage_scope, dtype): total_space counts bytes; the dtype is a hint only (TVM's
 * VMBuiltinLower turns it into uint8). */
static Value *k_memory_alloc_storage(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-alloc_storage";
    rule_fired(rule);
    int64_t nbytes = size_product(lowered_shape_arg(in, call, args, nargs, 0, rule));
    lowered_int_arg(in, call, args, nargs, 1, rule);
    DataType hint = dtype_arg(in, call, args, nargs, 3, rule);
    const char *scope = args[2]->kind == VAL_STRING ? args[2]->u.str : "global";
    return new_storage(in, call, nbytes, hint, scope);
}

/* LOW-alloc_storage: R.vm.alloc_storage(size, runtime_device_index, dtype, storage_scope):
 * prod(size) elements of dtype, as TVM's allocator sizes a buffer. */
static Value *k_vm_alloc_storage(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-alloc_storage";
    rule_fired(rule);
    int64_t n = size_product(lowered_shape_arg(in, call, args, nargs, 0, rule));
    lowered_int_arg(in, call, args, nargs, 1, rule);
    DataType dtype = dtype_arg(in, call, args, nargs, 2, rule);
    bool over = n < 0;
    int64_t nbytes = checked_mul(n, (int64_t)dtype_bytes(dtype), &over);
    nbytes = over ? -1 : nbytes;
    const char *scope = nargs > 3 && args[3]->kind == VAL_STRING ? args[3]->u.str : "global";
    return new_storage(in, call, nbytes, dtype, scope);
}

/* ---- tensors in a storage ------------------------------------------------------------- */

/* LOW-alloc_tensor: R.memory.alloc_tensor(storage, offset, shape, dtype) is a tensor of that
 * shape (the ShapeExpr or the shape variable's StructInfo) and dtype. */
static StructInfo *infer_memory_alloc_tensor(OpInferCtx *ctx)
{
    ctx->rule = "LOW-alloc_tensor";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 4, 4) || ops_arg_shape(ctx, 2) == NULL)
        return ops_infer_object(ctx);
    DataType dtype = dtype_void();
    lowered_dtype_expr(ctx, 3, &dtype);
    const Expr *shape = ctx->call->u.call.args[2];
    const StructInfo *ss = ctx->arg_sinfo[2];
    if (shape->kind == EXPR_SHAPE || shape->kind == EXPR_VAR)
        return sinfo_tensor((Expr *)shape, dtype, NULL, ss->u.shape.ndim, ctx->call->span);
    OpShape os = {ss->u.shape.values, ss->u.shape.ndim};
    return ops_tensor_result(os, dtype, NULL, ctx->call->span);
}

/* LOW-alloc_tensor: R.vm.alloc_tensor is as lenient as TVM's: a size that is not a shape
 * leaves the rank unknown, and a shape that is not a literal gives its StructInfo's dims (or
 * rank), not the expression itself as R.memory.alloc_tensor does. */
static StructInfo *infer_vm_alloc_tensor(OpInferCtx *ctx)
{
    if (ctx->nargs != 4)
        return infer_memory_alloc_tensor(ctx); /* its arity error */
    ctx->rule = "LOW-alloc_tensor";
    rule_fired(ctx->rule);
    DataType dtype = dtype_void();
    lowered_dtype_expr(ctx, 3, &dtype);
    const StructInfo *s = ctx->arg_sinfo[2];
    if (s->kind == SINFO_SHAPE) {
        OpShape os = {s->u.shape.values, s->u.shape.ndim};
        return ops_tensor_result(os, dtype, NULL, ctx->call->span);
    }
    return sinfo_tensor(NULL, dtype, NULL, -1, ctx->call->span);
}

/* LOW-alloc_tensor: R.builtin.alloc_tensor(shape, dtype, runtime_device_index,
 * storage_scope) needs a literal shape and a literal dtype, as TVM's inference does. */
static StructInfo *infer_builtin_alloc_tensor(OpInferCtx *ctx)
{
    ctx->rule = "LOW-alloc_tensor";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 3, 4))
        return ops_infer_object(ctx);
    const Expr *shape = ctx->call->u.call.args[0];
    DataType dtype;
    if (shape->kind != EXPR_SHAPE)
        return ops_infer_fail(ctx, "OpArgType", "argument 1 must be a literal shape");
    if (!lowered_dtype_expr(ctx, 1, &dtype))
        return ops_infer_fail(ctx, "OpArgType", "argument 2 must be a literal R.dtype");
    return sinfo_tensor((Expr *)shape, dtype, NULL, shape->u.shape.n, ctx->call->span);
}

/* A tensor of `shape` and `dtype` viewing `st` from byte `offset`; the view must lie inside
 * the storage (StorageBounds), as TVM's StorageObj::AllocTensor checks. */
static Value *view_storage(Interp *in, const Expr *call, Storage *st, int64_t offset,
                           const Value *shape, DataType dtype)
{
    const char *rule = "LOW-alloc_tensor";
    rule_fired(rule);
    int ndim = shape->u.shape.ndim;
    const int64_t *dims = shape->u.shape.dims;
    int64_t numel = tensor_shape_numel(dtype, ndim, dims);
    if (!tensor_dtype_supported(dtype) || numel < 0)
        lowered_fail(in, call, "OpPrecondition", rule, "a %s tensor of this shape is unsupported",
                     dtype_str(dtype));
    int64_t need = numel * (int64_t)dtype_bytes(dtype);
    if (offset < 0 || offset > st->nbytes || need > st->nbytes - offset)
        lowered_fail(in, call, "StorageBounds", rule,
                     "%lld bytes at offset %lld do not fit a storage of %lld bytes",
                     (long long)need, (long long)offset, (long long)st->nbytes);
    return value_tensor(tensor_view(st->data, offset, dtype, ndim, dims));
}

/* LOW-alloc_tensor: R.memory.alloc_tensor and R.vm.alloc_tensor, a view of the storage:
 * writes through one tensor of a storage are seen by every tensor sharing those bytes. */
static Value *k_alloc_tensor(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-alloc_tensor";
    rule_fired(rule);
    Storage *st = storage_arg(in, call, args, nargs, 0, rule);
    int64_t offset = lowered_int_arg(in, call, args, nargs, 1, rule);
    const Value *shape = lowered_shape_arg(in, call, args, nargs, 2, rule);
    DataType dtype = dtype_arg(in, call, args, nargs, 3, rule);
    return view_storage(in, call, st, offset, shape, dtype);
}

/* LOW-alloc_tensor: R.builtin.alloc_tensor, a fresh zeroed tensor. */
static Value *k_builtin_alloc_tensor(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-alloc_tensor";
    rule_fired(rule);
    const Value *shape = lowered_shape_arg(in, call, args, nargs, 0, rule);
    DataType dtype = dtype_arg(in, call, args, nargs, 1, rule);
    lowered_int_arg(in, call, args, nargs, 2, rule);
    Tensor *t = tensor_new(dtype, shape->u.shape.ndim, shape->u.shape.dims);
    if (t == NULL)
        lowered_fail(in, call, "OpPrecondition", rule, "a %s tensor of this shape is unsupported",
                     dtype_str(dtype));
    return value_tensor(t);
}

/* ---- kill ----------------------------------------------------------------------------------- */

static StructInfo *unit_sinfo(OpInferCtx *ctx)
{
    return sinfo_tuple(NULL, 0, ctx->call->span);
}

/* LOW-kill: the kill operators take one argument and return unit; the argument's kind is
 * checked at run time only, as in TVM. */
static StructInfo *infer_kill(OpInferCtx *ctx)
{
    ctx->rule = "LOW-kill";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 1, 1))
        return ops_infer_object(ctx);
    return unit_sinfo(ctx);
}

/* LOW-kill: the value's lifetime ends; any later use of it (through any variable bound to
 * it) is UseAfterKill. Tensors already allocated in a killed storage stay alive. */
static Value *end_lifetime(Value *v)
{
    v->killed = true;
    return value_unit();
}

static Value *k_kill_storage(Interp *in, const Expr *call, Value **args, int nargs)
{
    storage_arg(in, call, args, nargs, 0, "LOW-kill");
    return end_lifetime(args[0]);
}

static Value *k_kill_tensor(Interp *in, const Expr *call, Value **args, int nargs)
{
    lowered_tensor_arg(in, call, args, nargs, 0, "LOW-kill");
    return end_lifetime(args[0]);
}

static Value *k_kill_object(Interp *in, const Expr *call, Value **args, int nargs)
{
    arg_or_fail(in, call, args, nargs, 0, "LOW-kill");
    return end_lifetime(args[0]);
}

/* ---- calls ------------------------------------------------------------------------------- */

/* LOW-call_tir_dyn: (func, (args..., shape)) returns unit; the tuple's form is checked at
 * run time only, as in TVM. */
static StructInfo *infer_call_tir_dyn(OpInferCtx *ctx)
{
    ctx->rule = "LOW-call_tir_dyn";
    rule_fired(ctx->rule);
    if (!ops_check_arity(ctx, 2, 2))
        return ops_infer_object(ctx);
    return unit_sinfo(ctx);
}

/* LOW-call_tir_dyn: calls func with the tuple's fields but the last, then the last (a
 * shape) unpacked into int64 arguments, as vm.builtin.call_tir_dyn does. */
static Value *k_call_tir_dyn(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-call_tir_dyn";
    rule_fired(rule);
    Value *f = arg_or_fail(in, call, args, nargs, 0, rule);
    Value *t = arg_or_fail(in, call, args, nargs, 1, rule);
    if (t->kind != VAL_TUPLE || t->u.tuple.n == 0 ||
        t->u.tuple.fields[t->u.tuple.n - 1]->kind != VAL_SHAPE)
        lowered_fail(in, call, "OpPrecondition", rule,
                     "argument 2 must be a tuple ending in a shape");
    int k = t->u.tuple.n - 1;
    const Value *shape = t->u.tuple.fields[k];
    int n = k + shape->u.shape.ndim;
    Value **callee_args = MEM_ARRAY(Value *, n > 0 ? n : 1);
    for (int i = 0; i < k; i++)
        callee_args[i] = t->u.tuple.fields[i];
    for (int i = 0; i < shape->u.shape.ndim; i++)
        callee_args[k + i] = value_prim_int(dtype_int64(), shape->u.shape.dims[i]);
    interp_call(in, f, callee_args, n, call->span);
    return value_unit();
}

/* LOW-call_builtin_with_ctx: the result is what its sinfo_args say (TVM's
 * InferStructInfoReturnsSinfoArgs), the unit tuple without them. */
static StructInfo *infer_call_builtin_with_ctx(OpInferCtx *ctx)
{
    ctx->rule = "LOW-call_builtin_with_ctx";
    rule_fired(ctx->rule);
    if (ctx->call->u.call.nsinfo_args > 0)
        return ctx->call->u.call.sinfo_args[0];
    return unit_sinfo(ctx);
}

/* LOW-call_builtin_with_ctx: calls the packed function with the tuple's fields; the VM
 * context TVM passes first is implicit in the reference. */
static Value *k_call_builtin_with_ctx(Interp *in, const Expr *call, Value **args, int nargs)
{
    const char *rule = "LOW-call_builtin_with_ctx";
    rule_fired(rule);
    Value *f = arg_or_fail(in, call, args, nargs, 0, rule);
    Value *t = arg_or_fail(in, call, args, nargs, 1, rule);
    if (t->kind != VAL_TUPLE)
        lowered_fail(in, call, "OpPrecondition", rule, "argument 2 must be a tuple, got a %s",
                     value_kind_name(t->kind));
    return interp_call(in, f, t->u.tuple.fields, t->u.tuple.n, call->span);
}

/* ---- the table ------------------------------------------------------------------------------ */

static const OpImpl MEMORY_OPS[] = {
    {"relax.memory.alloc_storage", true, infer_alloc_storage, k_memory_alloc_storage, "all"},
    {"relax.vm.alloc_storage", true, infer_alloc_storage, k_vm_alloc_storage, "all"},
    {"relax.memory.alloc_tensor", true, infer_memory_alloc_tensor, k_alloc_tensor, "all"},
    {"relax.vm.alloc_tensor", true, infer_vm_alloc_tensor, k_alloc_tensor, "all"},
    {"relax.builtin.alloc_tensor", true, infer_builtin_alloc_tensor, k_builtin_alloc_tensor, "all"},
    {"relax.memory.kill_storage", false, infer_kill, k_kill_storage, "all"},
    {"relax.memory.kill_tensor", false, infer_kill, k_kill_tensor, "all"},
    {"relax.vm.kill_object", false, infer_kill, k_kill_object, "all"},
    {"relax.vm.call_tir_dyn", false, infer_call_tir_dyn, k_call_tir_dyn, "all"},
    {"relax.call_builtin_with_ctx", false, infer_call_builtin_with_ctx, k_call_builtin_with_ctx,
     "all"},
};

const OpImpl *ops_lowered_memory(int *n)
{
    *n = (int)(sizeof MEMORY_OPS / sizeof MEMORY_OPS[0]);
    return MEMORY_OPS;
}
