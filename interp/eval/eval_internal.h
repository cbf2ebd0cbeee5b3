/* eval_internal: what the evaluator's files (eval, call, match_cast, trace) share.
 * SPEC_NOTES: "Evaluation" (E-*, MC-*, FN-*). */
#ifndef RELAX_INTERP_EVAL_INTERNAL_H
#define RELAX_INTERP_EVAL_INTERNAL_H

#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "interp/tir/prim_eval.h"
#include "values/tensor.h"

/* Which error a failed structural check raises: a MatchCast binding's own codes, or the
 * function entry and exit codes of SPEC_REST §1. */
typedef enum McMode {
    MC_MODE_CAST, /* MatchCast* codes, rules MC-1..MC-6 */
    MC_MODE_ARG,  /* ArgCheck, FN-2 */
    MC_MODE_RET,  /* ReturnCheck, FN-3 */
} McMode;

/* The same dtype, or an annotation without one. */
static inline bool mc_dtype_matches(DataType want, DataType have)
{
    return (want.code == have.code && want.bits == have.bits && want.lanes == have.lanes) ||
           dtype_is_void(want);
}

/* A dim the annotation writes as an int64 literal equal to the tensor's. */
static inline bool mc_literal_dim(const PrimExpr *p, int64_t actual)
{
    return p->kind == PE_INT && p->dtype.code == DT_INT && p->dtype.bits == 64 &&
           p->dtype.lanes == 1 && p->u.int_value == actual;
}

/* The checks most signatures ask for on every call, which pass without binding anything:
 * an Object, a PrimValue of the dtype with no value annotated, a tensor whose rank, dtype
 * and literal dims agree. Everything else, every failure, and any check while the rules
 * that fire are recorded, take the full check (match_cast_check), so the result is the
 * same; inline, so that a call's parameters are checked without a call each. */
static inline bool match_cast_passes_plainly(const StructInfo *s, const Value *v)
{
    if (rule_recording)
        return false;
    switch (s->kind) {
    case SINFO_OBJECT:
        return true;
    case SINFO_PRIM:
        return v->kind == VAL_PRIM && s->u.prim.value == NULL &&
               mc_dtype_matches(s->u.prim.dtype, v->u.prim.dtype);
    case SINFO_TENSOR: {
        if (v->kind != VAL_TENSOR)
            return false;
        const Tensor *t = v->u.tensor;
        if ((s->u.tensor.ndim != -1 && s->u.tensor.ndim != t->ndim) ||
            !mc_dtype_matches(s->u.tensor.dtype, t->dtype))
            return false;
        const Expr *shape = s->u.tensor.shape;
        if (shape == NULL)
            return true;
        if (shape->kind != EXPR_SHAPE || shape->u.shape.n != t->ndim)
            return false;
        for (int i = 0; i < t->ndim; i++)
            if (!mc_literal_dim(shape->u.shape.values[i], t->shape[i]))
                return false;
        return true;
    }
    default:
        return false;
    }
}

/* MC-1..MC-6: checks `v` against `s`, binding lone unbound shape variables in `env`. */
void match_cast_check(Interp *in, Env *env, const StructInfo *s, Value *v, McMode mode, Span span);
/* FN-1: binds every unbound shape variable in a binding position of `s` from `v`; raises
 * ArgCheck (FN-1) when the value lacks the component a binding position reads. */
void match_cast_bind_params(Interp *in, Env *env, const StructInfo *s, Value *v, Span span);

/* A PrimExpr context whose variables are the shape variables of `env`. */
PrimEvalCtx eval_prim_ctx(Interp *in, const Env *env);
/* Scalar to PrimValue. */
Value *eval_scalar_value(Scalar s);

/* interp_eval with a variable's and a global's common case inline: a call's operands and
 * callee are mostly these (E-2; errors and every other kind through interp_eval). */
static inline Value *eval_operand(Interp *in, Env *env, const Expr *e)
{
    if (e->kind == EXPR_VAR) {
        rule_fired("E-2");
        Value *v = env_lookup(env, e->u.var);
        if (v != NULL && !v->killed)
            return v;
    } else if (e->kind == EXPR_GLOBAL_VAR) {
        return interp_global(in, e->u.gvar, e->span);
    }
    return interp_eval(in, env, e);
}

/* Calls of at most this many arguments keep them on the C stack. */
#define CALL_ROOM 8

/* A call in tail position, evaluated but not yet entered (callee is a closure). */
typedef struct TailCall {
    Value *callee;
    Value **args; /* in `room` when they fit */
    int nargs;
    Span span;
    Value **room; /* CALL_ROOM slots the caller provides, or NULL */
} TailCall;

/* Evaluates `e` in tail position of a function body: returns its value, or NULL after
 * filling *tc when `e` ends in a call of a closure, left for the caller to enter. */
Value *eval_tail(Interp *in, Env *env, const Expr *e, TailCall *tc);
/* E-9: a closure over the free variables of `f`; `self` (when not NULL) is bound to the
 * closure itself inside it. */
Value *eval_make_closure(Interp *in, Env *env, const Function *f, const Var *self);
/* Evaluates a Call's callee and arguments (E-12 order); for Ops calls the builtin. Returns
 * the result, or NULL with *tc filled when tc is not NULL and the callee is a closure. */
Value *call_eval(Interp *in, Env *env, const Expr *call, TailCall *tc);
/* E-10: the truth of an If condition value. */
bool eval_condition(Interp *in, const Value *v, Span span);

/* --trace: one line for a binding just evaluated (v NULL: a call left in tail position). */
void trace_binding(Interp *in, const Env *env, const Binding *b, const Value *v);
/* --trace: the value of a SeqExpr body that is not a variable ("=> summary"). */
void trace_body(Interp *in, const Env *env, const Expr *body, const Value *v);
/* A one-line summary of a value: kind, dtype, shape, a few elements and #id. */
void trace_value_summary(StrBuf *sb, const Value *v);

/* True when the C stack has come close to the end of the large interpreter stack. */
bool interp_stack_exhausted(const Interp *in);
/* LIMIT-depth: DepthLimit before a call past --max-depth or near the end of the C stack. */
void interp_check_depth(Interp *in, Span span);

#endif
