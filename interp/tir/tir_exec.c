/* tir_exec: calling a PrimFunc (argument checking, match_buffer shape binding, the result)
 * and the variable bindings of its activation. SPEC_NOTES: "TIR semantics" (TIR-ARGS). */
#include "interp/tir/tir_exec.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/tir/tir_internal.h"

/* ---- the activation ---------------------------------------------------------------- */

int tir_bind_var(TirFrame *fr, const TirVar *var, Scalar value)
{
    TirVarSlot slot = {var, value};
    VEC_PUSH(fr->vars, fr->nvars, fr->capvars, slot);
    return fr->nvars - 1;
}

int tir_find_var(const TirFrame *fr, const TirVar *var)
{
    for (int i = fr->nvars - 1; i >= 0; i--)
        if (fr->vars[i].var == var)
            return i;
    return -1;
}

static bool lookup_cb(void *ctx, const TirVar *var, Scalar *out)
{
    const TirFrame *fr = ctx;
    int i = tir_find_var(fr, var);
    if (i < 0)
        return false;
    *out = fr->vars[i].value;
    return true;
}

void tir_frame_init(TirFrame *fr, Interp *in, const PrimFunc *f)
{
    memset(fr, 0, offsetof(TirFrame, vars_room)); /* the rooms need no zeroing */
    fr->in = in;
    fr->func = f;
    fr->pc.interp = in;
    fr->pc.lookup = lookup_cb;
    fr->pc.load = tir_buffer_load_cb;
    fr->pc.ctx = fr;
    fr->vars = fr->vars_room;
    fr->capvars = TIR_FRAME_ROOM;
    fr->buffers = fr->buffers_room;
    fr->capbuffers = TIR_FRAME_ROOM;
}

Scalar tir_eval(TirFrame *fr, const PrimExpr *e)
{
    return prim_eval(&fr->pc, e);
}

/* ---- arguments --------------------------------------------------------------------- */

/* A scalar parameter takes a PrimValue converted to its dtype with Cast semantics. A float
 * cannot become an integer or bool parameter: the host calling convention refuses it. */
static Scalar scalar_arg(TirFrame *fr, const TirVar *p, const Value *arg, Span span)
{
    if (arg->kind != VAL_PRIM)
        interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                    "parameter `%s` of `%s` takes a %s PrimValue, not a %s", p->name,
                    fr->func->name, dtype_str(p->dtype), value_kind_name(arg->kind));
    DataType from = arg->u.prim.dtype;
    if (dtype_is_float(from) && !dtype_is_float(p->dtype))
        interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                    "parameter `%s` of `%s` is %s but the argument is %s", p->name, fr->func->name,
                    dtype_str(p->dtype), dtype_str(from));
    Scalar v = {from, arg->u.prim.i, arg->u.prim.f};
    return dtype_equal(from, p->dtype) ? v : prim_cast(p->dtype, v);
}

static void check_buffer_arg(TirFrame *fr, const Buffer *b, const Value *arg, Span span)
{
    const char *fn = fr->func->name;
    if (arg->kind != VAL_TENSOR)
        interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                    "buffer `%s` of `%s` takes a tensor, not a %s", b->name, fn,
                    value_kind_name(arg->kind));
    const Tensor *t = arg->u.tensor;
    if (!dtype_equal(t->dtype, b->dtype))
        interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                    "buffer `%s` of `%s` is %s but the tensor is %s", b->name, fn,
                    dtype_str(b->dtype), dtype_str(t->dtype));
    if (t->ndim != b->ndim)
        interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                    "buffer `%s` of `%s` has %d dimensions but the tensor has %d", b->name, fn,
                    b->ndim, t->ndim);
}

/* TIR-ARGS, step 1, in parameter order: kinds, dtypes and ranks; buffers view their
 * tensors; scalar parameters bind. */
static void bind_param(TirFrame *fr, int i, Value *arg, Span span)
{
    const TirVar *p = fr->func->params[i];
    const Buffer *b = fr->func->param_buffers[i];
    if (b) {
        check_buffer_arg(fr, b, arg, span);
        tir_buffer_bind(fr, b, arg->u.tensor);
        return;
    }
    if (dtype_is_handle(p->dtype)) {
        if (arg->kind != VAL_TENSOR)
            interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                        "handle `%s` of `%s` takes a tensor, not a %s", p->name, fr->func->name,
                        value_kind_name(arg->kind));
        return;
    }
    tir_bind_var(fr, p, scalar_arg(fr, p, arg, span));
}

/* TIR-ARGS, step 2: a dim that is a lone variable with no value yet binds to the tensor's
 * dim (first sight, buffers left to right). */
static void bind_lone_dims(TirFrame *fr, const Buffer *b, const Tensor *t)
{
    for (int d = 0; d < b->ndim; d++) {
        const PrimExpr *e = b->shape[d];
        if (e->kind == PE_VAR && tir_find_var(fr, e->u.var) < 0)
            tir_bind_var(fr, e->u.var, prim_scalar_int(e->u.var->dtype, t->shape[d]));
    }
}

/* TIR-ARGS, step 3: every dim, evaluated, equals the tensor's. */
static void check_dims(TirFrame *fr, const Buffer *b, const Tensor *t, Span span)
{
    for (int d = 0; d < b->ndim; d++) {
        Scalar s = tir_eval(fr, b->shape[d]);
        if (s.i != t->shape[d])
            interp_fail(fr->in, "TirArgMismatch", "TIR-ARGS", span,
                        "dimension %d of buffer `%s` of `%s` is %" PRId64
                        " but the tensor's is %" PRId64,
                        d, b->name, fr->func->name, s.i, t->shape[d]);
    }
}

static void bind_args(TirFrame *fr, Value **args, Span span)
{
    const PrimFunc *f = fr->func;
    for (int i = 0; i < f->nparams; i++)
        bind_param(fr, i, args[i], span);
    for (int i = 0; i < f->nparams; i++)
        if (f->param_buffers[i])
            bind_lone_dims(fr, f->param_buffers[i], args[i]->u.tensor);
    for (int i = 0; i < f->nparams; i++)
        if (f->param_buffers[i])
            check_dims(fr, f->param_buffers[i], args[i]->u.tensor, span);
}

/* ---- the call ---------------------------------------------------------------------- */

static Value *result_value(const TirFrame *fr)
{
    if (!fr->returned)
        return value_unit();
    DataType t = fr->func->ret_dtype;
    Scalar v = fr->ret;
    if (dtype_is_void(t))
        t = v.dtype;
    else if (!dtype_equal(t, v.dtype))
        v = prim_cast(t, v);
    return dtype_is_float(t) ? value_prim_float(t, v.f) : value_prim_int(t, v.i);
}

/* TIR-ARGS, then the body, in `fr`. */
static void exec_in(TirFrame *fr, struct Interp *in, const PrimFunc *f, Value **args, int nargs,
                    Span span)
{
    rule_fired("TIR-ARGS");
    if (nargs != f->nparams)
        interp_fail(in, "Arity", "E-12", span, "`%s` takes %d arguments but %d were given", f->name,
                    f->nparams, nargs);
    tir_frame_init(fr, in, f);
    bind_args(fr, args, span);
    if (f->body)
        tir_stmt_exec(fr, f->body);
}

Value *tir_exec_call(struct Interp *in, const PrimFunc *f, Value **args, int nargs, Span span)
{
    TirFrame fr;
    exec_in(&fr, in, f, args, nargs, span);
    return result_value(&fr);
}

void tir_exec_run(struct Interp *in, const PrimFunc *f, Value **args, int nargs, Span span)
{
    TirFrame fr;
    exec_in(&fr, in, f, args, nargs, span);
}
