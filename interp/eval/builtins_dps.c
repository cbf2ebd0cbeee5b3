/* builtins_dps: destination passing (call_tir, call_tir_inplace, call_dps_packed) and the
 * packed-call wrappers (call_pure_packed, call_inplace_packed). SPEC_NOTES: "Builtins". */
#include "ast/mem.h"
#include "interp/eval/builtins_internal.h"
#include "interp/tir/prim_eval.h"
#include "interp/tir/tir_exec.h"
#include "values/tensor.h"

/* The outputs a destination-passing call produces, as out_sinfo describes them. */
typedef struct Outputs {
    StructInfo **sinfo;
    int n;
    bool is_tuple; /* the result is a tuple of the outputs, not the single tensor */
    Value **values;
} Outputs;

/* ---- out_sinfo -------------------------------------------------------------------- */

/* One TensorStructInfo gives the tensor; a TupleStructInfo, or zero or several sinfo_args,
 * give a tuple (SPEC_REST §10.1: TVM stores one entry, already a tuple for several). */
static Outputs output_sinfo(const BuiltinCall *bc)
{
    const Expr *call = bc->call;
    Outputs o = {.sinfo = call->u.call.sinfo_args, .n = call->u.call.nsinfo_args, .is_tuple = true};
    if (o.n == 1 && o.sinfo[0]->kind == SINFO_TUPLE) {
        o.n = o.sinfo[0]->u.tuple.n;
        o.sinfo = o.sinfo[0]->u.tuple.fields;
    } else if (o.n == 1) {
        o.is_tuple = false;
    }
    return o;
}

/* Room for the outputs: `room` (OUTPUTS_ROOM of them) when they fit, else a new array. */
#define OUTPUTS_ROOM 8
static void output_room(Outputs *o, Value **room)
{
    o->values = o->n <= OUTPUTS_ROOM ? room : MEM_ARRAY(Value *, o->n ? o->n : 1);
}

static bool lookup_shape_var(void *ctx, const TirVar *var, Scalar *out)
{
    int64_t v;
    if (!ctx || !env_lookup_shape(ctx, var, &v))
        return false;
    *out = prim_scalar_int(dtype_int64(), v);
    return true;
}

/* The dims of an output's shape, evaluated with the caller's shape variables; a literal
 * shape's dims go to `room` (TENSOR_MAX_NDIM of them) when they fit. */
static int64_t *eval_dims(const BuiltinCall *bc, const Expr *shape, int *ndim, int64_t *room)
{
    if (shape->kind == EXPR_SHAPE) {
        PrimEvalCtx pc = {.interp = bc->in, .lookup = lookup_shape_var, .ctx = bc->env};
        int64_t *dims = shape->u.shape.n <= TENSOR_MAX_NDIM
                            ? room
                            : mem_alloc_atomic(sizeof(int64_t) * (size_t)(shape->u.shape.n + 1));
        bool over = false; /* the dims are sizes, checked as a ShapeExpr's (E-8) */
        pc.overflow = &over;
        for (int i = 0; i < shape->u.shape.n; i++) {
            dims[i] = prim_eval_int(&pc, shape->u.shape.values[i]);
            if (over)
                builtins_fail(bc, "ShapeOverflow", "dim %d of an output shape overflows int64", i);
        }
        *ndim = shape->u.shape.n;
        return dims;
    }
    Value *v = interp_eval(bc->in, bc->env, shape);
    if (v->kind != VAL_SHAPE)
        builtins_fail(bc, "OpPrecondition", "an output shape evaluated to a %s",
                      value_kind_name(v->kind));
    *ndim = v->u.shape.ndim;
    return v->u.shape.dims;
}

/* The dtype and dims out_sinfo gives output `s`: a tensor with a known shape and a
 * non-void dtype. */
static int64_t *output_layout(const BuiltinCall *bc, const StructInfo *s, int *ndim, int64_t *room)
{
    if (s->kind != SINFO_TENSOR)
        builtins_fail(bc, "OpPrecondition", "every output must be a tensor StructInfo");
    if (dtype_is_void(s->u.tensor.dtype))
        builtins_fail(bc, "OpPrecondition", "an output has no dtype");
    if (!s->u.tensor.shape)
        builtins_fail(bc, "OpPrecondition", "an output has no shape");
    return eval_dims(bc, s->u.tensor.shape, ndim, room);
}

static Value *alloc_output(const BuiltinCall *bc, const StructInfo *s)
{
    int ndim;
    int64_t room[TENSOR_MAX_NDIM];
    int64_t *dims = output_layout(bc, s, &ndim, room);
    Tensor *t = tensor_new(s->u.tensor.dtype, ndim, dims);
    if (!t)
        builtins_fail(bc, "OpPrecondition",
                      "cannot allocate an output of dtype %s (a negative dim, an unsupported "
                      "dtype or too large)",
                      dtype_str(s->u.tensor.dtype));
    return value_tensor(t);
}

static Value *outputs_result(const Outputs *o)
{
    return o->is_tuple ? value_tuple(o->values, o->n) : o->values[0];
}

/* ---- arguments -------------------------------------------------------------------- */

static const PrimFunc *primfunc_arg(const BuiltinCall *bc)
{
    if (bc->args[0]->kind != VAL_PRIMFUNC)
        builtins_fail(bc, "OpPrecondition", "the callee must be a PrimFunc, got a %s",
                      value_kind_name(bc->args[0]->kind));
    return bc->args[0]->u.primfunc;
}

/* The argument tuple of the call_tir family: tensors (and PrimValues, which TIR takes as
 * scalar parameters). */
static Value *tir_inputs(const BuiltinCall *bc)
{
    Value *t = builtins_tuple_arg(bc, 1, "the arguments");
    for (int i = 0; i < t->u.tuple.n; i++) {
        ValueKind k = t->u.tuple.fields[i]->kind;
        if (k != VAL_TENSOR && k != VAL_PRIM)
            builtins_fail(bc, "OpPrecondition", "argument %d must be a tensor, got a %s", i,
                          value_kind_name(k));
    }
    return t;
}

/* The optional packed_ints (tir_vars) shape, as int64 PrimValues. */
static Value **packed_ints(const BuiltinCall *bc, int *n)
{
    *n = 0;
    if (bc->nargs < 3)
        return NULL;
    Value *s = bc->args[2];
    if (s->kind != VAL_SHAPE)
        builtins_fail(bc, "OpPrecondition", "tir_vars must be a shape, got a %s",
                      value_kind_name(s->kind));
    Value **ints = MEM_ARRAY(Value *, s->u.shape.ndim + 1);
    for (int i = 0; i < s->u.shape.ndim; i++)
        ints[i] = value_prim_int(dtype_int64(), s->u.shape.dims[i]);
    *n = s->u.shape.ndim;
    return ints;
}

/* Concatenates three argument lists into `all`, which has room for them. */
static Value **join_args(Value **all, Value **a, int na, Value **b, int nb, Value **c, int nc)
{
    for (int i = 0; i < na; i++)
        all[i] = a[i];
    for (int i = 0; i < nb; i++)
        all[na + i] = b[i];
    for (int i = 0; i < nc; i++)
        all[na + nb + i] = c[i];
    return all;
}

/* ---- call_tir --------------------------------------------------------------------- */

/* BI-call_tir: fresh outputs, then f(inputs..., outputs..., packed ints...). The spec's
 * text orders the packed ints before the outputs; TVM (whose TVMScript the cases are
 * written in) passes them last, and so does this implementation. */
Value *builtins_call_tir(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, 3);
    const PrimFunc *f = primfunc_arg(bc);
    Value *inputs = tir_inputs(bc);
    int nints;
    Value **ints = packed_ints(bc, &nints);
    Outputs o = output_sinfo(bc);
    Value *out_room[OUTPUTS_ROOM];
    output_room(&o, out_room);
    for (int i = 0; i < o.n; i++)
        o.values[i] = alloc_output(bc, o.sinfo[i]);
    int nall = inputs->u.tuple.n + o.n + nints;
    /* The PrimFunc's activation keeps no pointer to its argument list. */
    Value *small[8];
    Value **all = nall <= 8 ? small : MEM_ARRAY(Value *, nall);
    join_args(all, inputs->u.tuple.fields, inputs->u.tuple.n, o.values, o.n, ints, nints);
    tir_exec_run(bc->in, f, all, nall, bc->call->span);
    return outputs_result(&o);
}

/* The inplace_indices attribute as integers; *n is their count. */
static int64_t *inplace_indices(const BuiltinCall *bc, int *n)
{
    AttrValue *a = attrs_get(bc->call->u.call.attrs, "inplace_indices");
    if (!a || (a->kind != ATTR_LIST && a->kind != ATTR_INT))
        builtins_fail(bc, "OpPrecondition", "inplace_indices is missing");
    AttrValue **items = a->kind == ATTR_LIST ? a->u.list.items : &a;
    *n = a->kind == ATTR_LIST ? a->u.list.n : 1;
    int64_t *idx = mem_alloc_atomic(sizeof(int64_t) * (size_t)(*n + 1));
    for (int i = 0; i < *n; i++) {
        if (items[i]->kind != ATTR_INT)
            builtins_fail(bc, "OpPrecondition", "inplace_indices must be integers");
        idx[i] = items[i]->u.i;
    }
    return idx;
}

/* SPEC_REST §10.1 [IMPL]: each index in [-1, nargs-1], the non-(-1) ones unique, at least
 * one of them. */
static void check_inplace_indices(const BuiltinCall *bc, const int64_t *idx, int n, int nargs)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (idx[i] < -1 || idx[i] >= nargs)
            builtins_fail(bc, "OpPrecondition", "inplace index %lld is outside [-1, %d]",
                          (long long)idx[i], nargs - 1);
        if (idx[i] == -1)
            continue;
        any = true;
        for (int j = 0; j < i; j++) {
            if (idx[j] == idx[i])
                builtins_fail(bc, "OpPrecondition", "inplace index %lld is repeated",
                              (long long)idx[i]);
        }
    }
    if (!any)
        builtins_fail(bc, "OpPrecondition", "no inplace index other than -1");
}

/* An in-place output is the argument itself, which must have the output's shape and
 * dtype (TVM proves this statically; here it is checked on the values). */
static Value *inplace_output(const BuiltinCall *bc, Value *arg, const StructInfo *s, int out)
{
    int ndim;
    int64_t room[TENSOR_MAX_NDIM];
    int64_t *dims = output_layout(bc, s, &ndim, room);
    if (arg->kind != VAL_TENSOR)
        builtins_fail(bc, "OpPrecondition", "in-place output %d is not a tensor", out);
    Tensor *t = arg->u.tensor;
    if (!dtype_equal(t->dtype, s->u.tensor.dtype) || !tensor_has_shape(t, ndim, dims))
        builtins_fail(bc, "OpPrecondition",
                      "in-place output %d: the argument's shape or dtype differs from out_sinfo",
                      out);
    return arg;
}

/* BI-call_tir_inplace: output i is args[inplace_indices[i]] mutated in place, or a fresh
 * tensor passed after the inputs when the index is -1. */
Value *builtins_call_tir_inplace(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, 3);
    const PrimFunc *f = primfunc_arg(bc);
    Value *inputs = tir_inputs(bc);
    int nints, nidx;
    Value **ints = packed_ints(bc, &nints);
    int64_t *idx = inplace_indices(bc, &nidx);
    Outputs o = output_sinfo(bc);
    Value *out_room[OUTPUTS_ROOM];
    output_room(&o, out_room);
    if (nidx != o.n)
        builtins_fail(bc, "OpPrecondition", "%d inplace indices for %d outputs", nidx, o.n);
    check_inplace_indices(bc, idx, nidx, inputs->u.tuple.n);
    Value **fresh = MEM_ARRAY(Value *, o.n + 1);
    int nfresh = 0;
    for (int i = 0; i < o.n; i++) {
        if (idx[i] == -1) {
            o.values[i] = alloc_output(bc, o.sinfo[i]);
            fresh[nfresh++] = o.values[i];
        } else {
            o.values[i] = inplace_output(bc, inputs->u.tuple.fields[idx[i]], o.sinfo[i], i);
        }
    }
    Value **all = join_args(MEM_ARRAY(Value *, inputs->u.tuple.n + nfresh + nints + 1),
                            inputs->u.tuple.fields, inputs->u.tuple.n, fresh, nfresh, ints, nints);
    tir_exec_run(bc->in, f, all, inputs->u.tuple.n + nfresh + nints, bc->call->span);
    return outputs_result(&o);
}

/* ---- packed functions ------------------------------------------------------------- */

/* BI-call_dps_packed: fresh outputs, f(args..., outputs...), then every output must still
 * match its out_sinfo (evaluated again: the callee cannot change shape variables). */
Value *builtins_call_dps_packed(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, 2);
    Value *inputs = builtins_tuple_arg(bc, 1, "the arguments");
    Outputs o = output_sinfo(bc);
    Value *out_room[OUTPUTS_ROOM];
    output_room(&o, out_room);
    for (int i = 0; i < o.n; i++)
        o.values[i] = alloc_output(bc, o.sinfo[i]);
    Value **all = join_args(MEM_ARRAY(Value *, inputs->u.tuple.n + o.n + 1), inputs->u.tuple.fields,
                            inputs->u.tuple.n, o.values, o.n, NULL, 0);
    interp_call(bc->in, bc->args[0], all, inputs->u.tuple.n + o.n, bc->call->span);
    for (int i = 0; i < o.n; i++) {
        int ndim;
        int64_t room[TENSOR_MAX_NDIM];
        int64_t *dims = output_layout(bc, o.sinfo[i], &ndim, room);
        const Tensor *t = o.values[i]->u.tensor;
        if (!dtype_equal(t->dtype, o.sinfo[i]->u.tensor.dtype) || !tensor_has_shape(t, ndim, dims))
            interp_fail(bc->in, "OutputMismatch", bc->rule, bc->call->span,
                        "R.call_dps_packed: output %d no longer matches out_sinfo", i);
    }
    return outputs_result(&o);
}

/* BI-call_pure_packed: args [callee, args...]; purity is a promise the callee keeps or
 * not, so the call is an ordinary call. */
Value *builtins_call_pure_packed(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, -1);
    return interp_call(bc->in, bc->args[0], bc->args + 1, bc->nargs - 1, bc->call->span);
}

/* BI-call_inplace_packed: args [callee, args...]; the indices count from the first
 * argument after the callee (SPEC_REST §10.1 [IMPL]). */
Value *builtins_call_inplace_packed(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, -1);
    int nidx;
    int64_t *idx = inplace_indices(bc, &nidx);
    check_inplace_indices(bc, idx, nidx, bc->nargs - 1);
    return interp_call(bc->in, bc->args[0], bc->args + 1, bc->nargs - 1, bc->call->span);
}
