/* eval: evaluating Relax expressions, SeqExpr scopes and bindings (SPEC_REST §9.3).
 * SPEC_NOTES: "Evaluation" (E-1..E-11, E-13, ALIAS-1). */
#include <string.h>

#include "ast/rule.h"
#include "interp/eval/eval_internal.h"
#include "interp/eval/packed.h"
#include "values/tensor.h"

/* Small arrays of evaluated fields live on the C stack (the collector scans it); only the
 * value itself is allocated. */
#define EVAL_SMALL 8

static bool lookup_shape(void *ctx, const TirVar *var, Scalar *out)
{
    int64_t v;
    if (!env_lookup_shape(ctx, var, &v))
        return false;
    *out = prim_scalar_int(var->dtype, v);
    return true;
}

PrimEvalCtx eval_prim_ctx(Interp *in, const Env *env)
{
    PrimEvalCtx pc = {in, lookup_shape, NULL, (void *)env, NULL};
    return pc;
}

Value *eval_scalar_value(Scalar s)
{
    if (dtype_is_float(s.dtype))
        return value_prim_float(s.dtype, s.f);
    return value_prim_int(s.dtype, s.i);
}

bool eval_condition(Interp *in, const Value *v, Span span)
{
    /* E-10: a bool PrimValue or a rank-0 bool tensor. */
    rule_fired("E-10");
    if (v->kind == VAL_PRIM && dtype_is_bool(v->u.prim.dtype))
        return v->u.prim.i != 0;
    if (v->kind == VAL_TENSOR && v->u.tensor->ndim == 0 && dtype_is_bool(v->u.tensor->dtype))
        return tensor_get_i64(v->u.tensor, 0) != 0;
    interp_fail(in, "IfCondition", "E-10", span, "the condition is a %s, not a bool scalar",
                value_kind_name(v->kind));
}

static Value *eval_var(Interp *in, const Env *env, const Expr *e)
{
    /* E-2 */
    rule_fired("E-2");
    Value *v = env_lookup(env, e->u.var);
    if (v == NULL)
        interp_fail(in, "UnboundVariable", "E-2", e->span, "variable '%s' has no value",
                    e->u.var->name);
    /* LOW-kill: a value whose lifetime a kill operator ended is never used again. */
    if (v->killed)
        interp_fail(in, "UseAfterKill", "LOW-kill", e->span,
                    "variable '%s' is used after its value was killed", e->u.var->name);
    return v;
}

static Value *eval_tuple(Interp *in, Env *env, const Expr *e)
{
    /* E-3: strictly left to right. */
    rule_fired("E-3");
    int n = e->u.tuple.n;
    Value *small[EVAL_SMALL];
    Value **fields = n <= EVAL_SMALL ? small : MEM_ARRAY(Value *, n);
    for (int i = 0; i < n; i++)
        fields[i] = eval_operand(in, env, e->u.tuple.fields[i]);
    return value_tuple(fields, n);
}

static Value *eval_shape(Interp *in, Env *env, const Expr *e)
{
    /* E-8: dims in order, in the shape-variable context. */
    rule_fired("E-8");
    int n = e->u.shape.n;
    int64_t small[EVAL_SMALL];
    int64_t *dims = n <= EVAL_SMALL ? small : mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
    PrimEvalCtx pc = eval_prim_ctx(in, env);
    bool over = false;
    pc.overflow = &over;
    for (int i = 0; i < n; i++) {
        dims[i] = prim_eval_int(&pc, e->u.shape.values[i]);
        /* E-8: a dim is a size; one whose arithmetic passes int64 is an error, not wrapped. */
        if (over)
            interp_fail(in, "ShapeOverflow", "E-8", e->span, "dim %d of the shape overflows int64",
                        i);
    }
    return value_shape(dims, n);
}

static Value *eval_get_item(Interp *in, Env *env, const Expr *e)
{
    /* E-7: the field itself, an alias. */
    rule_fired("E-7");
    Value *t = eval_operand(in, env, e->u.get_item.tuple);
    int i = e->u.get_item.index;
    if (t->kind != VAL_TUPLE)
        interp_fail(in, "TupleIndex", "E-7", e->span, "indexing a %s, not a tuple",
                    value_kind_name(t->kind));
    if (i < 0 || i >= t->u.tuple.n)
        interp_fail(in, "TupleIndex", "E-7", e->span,
                    "index %d out of range for a tuple of %d fields", i, t->u.tuple.n);
    return t->u.tuple.fields[i];
}

/* E-11: a packed function by name, or a module PrimFunc with that global_symbol. */
static Value *eval_extern(Interp *in, const Expr *e)
{
    rule_fired("E-11");
    const char *name = e->u.extern_symbol;
    Value *v = in->packed ? packed_lookup(in->packed, name) : NULL;
    if (v != NULL)
        return v;
    for (int i = 0; i < in->mod->nfuncs; i++) {
        const ModuleFunc *mf = in->mod->funcs[i];
        if (mf->kind != MODFUNC_PRIM)
            continue;
        AttrValue *gs = attrs_get(mf->u.prim->attrs, "global_symbol");
        if (gs != NULL && gs->kind == ATTR_STR && strcmp(gs->u.s, name) == 0)
            return in->globals[i];
    }
    interp_fail(in, "PackedFuncMissing", "E-11", e->span, "no packed function named '%s'", name);
}

Value *eval_make_closure(Interp *in, Env *env, const Function *f, const Var *self)
{
    /* E-9: free Relax and shape variables, captured as they are now (values by reference). */
    rule_fired("E-9");
    const FuncInfo *info = env_func_info(in->func_info, f);
    Env *captured = env_new(info->nfree_vars + info->nshape_vars + 1);
    for (int i = 0; i < info->nfree_vars; i++) {
        const Var *v = info->free_vars[i];
        Value *val = v == self ? NULL : env_lookup(env, v);
        if (val != NULL)
            env_bind(captured, v, val);
    }
    for (int i = 0; i < info->nshape_vars; i++) {
        int64_t x;
        if (env_lookup_shape(env, info->shape_vars[i], &x))
            env_bind_shape(captured, info->shape_vars[i], x);
    }
    Value *clo = value_closure(f, captured);
    if (self != NULL)
        env_bind(captured, self, clo);
    return clo;
}

static void eval_binding(Interp *in, Env *env, const Binding *b)
{
    interp_step(in, b->span);
    Value *v;
    if (b->kind == BIND_VAR && b->value->kind == EXPR_FUNCTION) {
        v = eval_make_closure(in, env, b->value->u.func, b->var);
    } else {
        v = interp_eval(in, env, b->value);
    }
    /* E-13.2.1: MatchCast checks and binds shape variables; either binding aliases. */
    rule_fired("E-13");
    rule_fired("ALIAS-1");
    if (b->kind == BIND_MATCH_CAST)
        match_cast_check(in, env, b->struct_info, v, MC_MODE_CAST, b->span);
    if (b->var != NULL)
        env_bind(env, b->var, v);
    if (in->opt.trace != NULL)
        trace_binding(in, env, b, v);
}

/* The binding whose value is the SeqExpr's value (`y = call(...); return y`): its value is in
 * tail position when the SeqExpr is. */
static const Binding *tail_binding(const Expr *seq)
{
    const Expr *body = seq->u.seq.body;
    if (body->kind != EXPR_VAR || seq->u.seq.nblocks == 0)
        return NULL;
    const BindingBlock *last = seq->u.seq.blocks[seq->u.seq.nblocks - 1];
    if (last->n == 0)
        return NULL;
    const Binding *b = last->bindings[last->n - 1];
    if (b->kind != BIND_VAR || b->var != body->u.var || b->var->is_dataflow)
        return NULL;
    ExprKind k = b->value->kind;
    return k == EXPR_CALL || k == EXPR_IF || k == EXPR_SEQ ? b : NULL;
}

/* E-13.2: every binding but `skip`; a DataflowBlock's DataflowVars leave at its end. */
static void seq_run(Interp *in, Env *env, const Expr *seq, const Binding *skip)
{
    for (int k = 0; k < seq->u.seq.nblocks; k++) {
        const BindingBlock *blk = seq->u.seq.blocks[k];
        for (int i = 0; i < blk->n; i++) {
            if (blk->bindings[i] != skip)
                eval_binding(in, env, blk->bindings[i]);
        }
        /* The skipped tail binding still belongs to the last block: its DataflowVars stay
         * until the tail expression has used them (the activation then ends anyway). */
        bool holds_skip = skip != NULL && k == seq->u.seq.nblocks - 1;
        if (!blk->is_dataflow || holds_skip)
            continue;
        for (int i = 0; i < blk->n; i++) {
            const Var *v = blk->bindings[i]->var;
            if (v != NULL && v->is_dataflow)
                env_unbind(env, v);
        }
    }
}

/* E-13.4: the scope ends; its Relax and shape variables leave. */
static void seq_end(Env *env, const Expr *seq, int shape_mark)
{
    for (int k = 0; k < seq->u.seq.nblocks; k++) {
        const BindingBlock *blk = seq->u.seq.blocks[k];
        for (int i = 0; i < blk->n; i++) {
            if (blk->bindings[i]->var != NULL)
                env_unbind(env, blk->bindings[i]->var);
        }
    }
    env_shape_pop(env, shape_mark);
}

static Value *eval_seq(Interp *in, Env *env, const Expr *e)
{
    rule_fired("E-13");
    int mark = env_shape_mark(env);
    seq_run(in, env, e, NULL);
    Value *v = eval_operand(in, env, e->u.seq.body);
    trace_body(in, env, e->u.seq.body, v);
    seq_end(env, e, mark);
    return v;
}

static Value *eval_if(Interp *in, Env *env, const Expr *e)
{
    /* E-10: only the chosen branch runs; each branch is its own SeqExpr scope. */
    Value *c = eval_operand(in, env, e->u.if_.cond);
    bool t = eval_condition(in, c, e->u.if_.cond->span);
    return interp_eval(in, env, t ? e->u.if_.then_branch : e->u.if_.else_branch);
}

static Value *tail_seq(Interp *in, Env *env, const Expr *e, TailCall *tc)
{
    rule_fired("E-13");
    int mark = env_shape_mark(env);
    if (e != in->tail_seq) {
        in->tail_seq = e;
        in->tail_seq_binding = tail_binding(e);
    }
    const Binding *tb = in->tail_seq_binding;
    /* A loop's body is often its tail call alone: then nothing else runs. */
    if (tb == NULL || e->u.seq.nblocks > 1 || e->u.seq.blocks[0]->n > 1)
        seq_run(in, env, e, tb);
    Value *v;
    if (tb != NULL) {
        interp_step(in, tb->span);
        v = eval_tail(in, env, tb->value, tc);
        if (v == NULL) {
            if (in->opt.trace != NULL)
                trace_binding(in, env, tb, NULL);
            return NULL;
        }
        env_bind(env, tb->var, v);
        if (in->opt.trace != NULL)
            trace_binding(in, env, tb, v);
    } else {
        v = eval_tail(in, env, e->u.seq.body, tc);
        if (v == NULL)
            return NULL;
        trace_body(in, env, e->u.seq.body, v);
    }
    seq_end(env, e, mark);
    return v;
}

/* A call left in tail position abandons the activation whole: no scope needs ending, since
 * the caller drops the environment before entering the callee. */
Value *eval_tail(Interp *in, Env *env, const Expr *e, TailCall *tc)
{
    if (e->kind == EXPR_CALL)
        return call_eval(in, env, e, tc);
    if (e->kind == EXPR_SEQ)
        return tail_seq(in, env, e, tc);
    if (e->kind != EXPR_IF)
        return interp_eval(in, env, e);
    Value *c = eval_operand(in, env, e->u.if_.cond);
    bool t = eval_condition(in, c, e->u.if_.cond->span);
    return eval_tail(in, env, t ? e->u.if_.then_branch : e->u.if_.else_branch, tc);
}

static Value *eval_prim_value(Interp *in, Env *env, const Expr *e)
{
    /* E-4 */
    rule_fired("E-4");
    PrimEvalCtx pc = eval_prim_ctx(in, env);
    return eval_scalar_value(prim_eval(&pc, e->u.prim));
}

Value *interp_eval(Interp *in, Env *env, const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT: /* E-1: a new tensor every time */
        rule_fired("E-1");
        if (e->extern_sinfo != NULL) /* DIST-6: R.dist.const is a distributed tensor */
            interp_fail(in, "Unsupported", "DIST-6", e->span,
                        "R.dist.const is a distributed tensor, which a one-process run lacks");
        return value_tensor(tensor_from_const(e->u.constant));
    case EXPR_VAR:
        return eval_var(in, env, e);
    case EXPR_GLOBAL_VAR:
        return interp_global(in, e->u.gvar, e->span);
    case EXPR_TUPLE:
        return eval_tuple(in, env, e);
    case EXPR_SEQ:
        return eval_seq(in, env, e);
    case EXPR_PRIM_VALUE:
        return eval_prim_value(in, env, e);
    case EXPR_STRING: /* E-5 */
        rule_fired("E-5");
        return value_string(e->u.str);
    case EXPR_DTYPE: /* E-6 */
        rule_fired("E-6");
        return value_dtype(e->u.dtype);
    case EXPR_FUNCTION:
        return eval_make_closure(in, env, e->u.func, NULL);
    case EXPR_IF:
        return eval_if(in, env, e);
    case EXPR_EXTERN_FUNC:
        return eval_extern(in, e);
    case EXPR_CALL:
        return call_eval(in, env, e, NULL);
    case EXPR_SHAPE:
        return eval_shape(in, env, e);
    case EXPR_TUPLE_GET_ITEM:
        return eval_get_item(in, env, e);
    case EXPR_OP: /* an Op used as a value: an opaque object named by the Op */
        return value_object(e->u.op_name);
    }
    interp_fail(in, "OpNotImplemented", NULL, e->span, "unknown expression kind");
}
