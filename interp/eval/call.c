/* call: calls of closures, packed functions, PrimFuncs and Ops, with the signature checks
 * and proper tail calls. SPEC_NOTES: "Evaluation" (E-12, FN-1..FN-3, LIMIT-depth). */
#include <string.h>

#include "ast/rule.h"
#include "interp/eval/builtins.h"
#include "interp/eval/eval_internal.h"
#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "interp/tir/tir_exec.h"

/* A return check owed by a function that left a call in tail position: its annotation and
 * the values its shape variables had (SPEC_REST §1, FN-3). */
typedef struct Pending {
    const Function *fn;
    const FuncInfo *info;
    int64_t *vals;
    bool *bound;
} Pending;

typedef struct PendingList {
    Pending *items;
    int n;
    int cap;
    EnvMap *fixed; /* annotations without shape variables already owed */
} PendingList;

static bool pending_same(const Pending *p, const Function *fn, const int64_t *vals,
                         const bool *bound)
{
    if (p->fn->ret != fn->ret)
        return false;
    for (int i = 0; i < p->info->nret_shape_vars; i++) {
        if (p->bound[i] != bound[i] || (bound[i] && p->vals[i] != vals[i]))
            return false;
    }
    return true;
}

/* Keeps what fn's return check needs once fn's activation is gone. Consecutive identical
 * checks (a self-recursive loop with a fixed annotation) collapse into one, which keeps a
 * tail-recursive loop in bounded memory. */
static void pending_push(PendingList *pl, const Env *env, const Function *fn, const FuncInfo *info)
{
    if (fn->ret == NULL || fn->ret->kind == SINFO_OBJECT)
        return;
    int n = info->nret_shape_vars;
    /* An annotation without shape variables checks the same thing wherever it is owed, so
     * mutual tail recursion keeps one entry per function; only which of two failing checks
     * reports first could differ. */
    if (n == 0) {
        /* The entry just before, a self-recursive loop's, is the common case. */
        if (pl->n > 0 && pl->items[pl->n - 1].fn->ret == fn->ret)
            return;
        if (pl->fixed == NULL)
            pl->fixed = env_map_new(4);
        if (env_map_get(pl->fixed, fn->ret) != NULL)
            return;
        env_map_put(pl->fixed, fn->ret, (void *)fn->ret);
    }
    int64_t small_vals[8];
    bool small_bound[8];
    int64_t *vals = n <= 8 ? small_vals : mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
    bool *bound = n <= 8 ? small_bound : mem_alloc_atomic(sizeof(bool) * (size_t)n);
    for (int i = 0; i < n; i++)
        bound[i] = env_lookup_shape(env, info->ret_shape_vars[i], &vals[i]);
    if (pl->n > 0 && pending_same(&pl->items[pl->n - 1], fn, vals, bound))
        return;
    Pending p = {fn, info, mem_alloc_atomic(sizeof(int64_t) * (size_t)(n + 1)),
                 mem_alloc_atomic(sizeof(bool) * (size_t)(n + 1))};
    memcpy(p.vals, vals, sizeof(int64_t) * (size_t)n);
    memcpy(p.bound, bound, sizeof(bool) * (size_t)n);
    VEC_PUSH(pl->items, pl->n, pl->cap, p);
}

/* Innermost first, as the returns would have happened. */
static void pending_run(Interp *in, const PendingList *pl, Value *result)
{
    for (int k = pl->n - 1; k >= 0; k--) {
        const Pending *p = &pl->items[k];
        Env *env = env_new(p->info->nret_shape_vars);
        for (int i = 0; i < p->info->nret_shape_vars; i++) {
            if (p->bound[i])
                env_bind_shape(env, p->info->ret_shape_vars[i], p->vals[i]);
        }
        match_cast_check(in, env, p->fn->ret, result, MC_MODE_RET, p->fn->span);
    }
}

/* DIAG-site: an argument check of a call from outside the program (the entry's arguments)
 * points at the parameter's annotation. */
static Span param_site(Span call, const StructInfo *ann)
{
    return call.line > 0 ? call : ann->span;
}

/* FN-1 then FN-2: every binding position of every parameter binds first, then each
 * parameter is checked against its annotation left to right and bound. */
static void enter(Interp *in, Env *env, const FuncInfo *info, Value **args, Span span)
{
    rule_fired("FN-1");
    rule_fired("FN-2");
    const Function *fn = info->fn;
    in->arg_fn = fn;
    /* A binding position is a lone shape variable: a function that mentions none has none. */
    bool binds = info->nshape_vars > 0;
    for (int i = 0; binds && i < fn->nparams; i++) {
        const StructInfo *ann = fn->params[i]->annotation;
        in->arg_index = i;
        if (ann != NULL)
            match_cast_bind_params(in, env, ann, args[i], param_site(span, ann));
    }
    for (int i = 0; i < fn->nparams; i++) {
        const StructInfo *ann = fn->params[i]->annotation;
        in->arg_index = i;
        if (ann != NULL && !match_cast_passes_plainly(ann, args[i]))
            match_cast_check(in, env, ann, args[i], MC_MODE_ARG, param_site(span, ann));
        rule_fired("ALIAS-1");
        env_bind(env, fn->params[i], args[i]);
    }
    in->arg_fn = NULL;
}

void interp_check_depth(Interp *in, Span span)
{
    /* LIMIT-depth: a clean error long before the C stack could overflow. */
    rule_fired("LIMIT-depth");
    if (in->depth >= in->opt.max_depth)
        interp_fail(in, "DepthLimit", "LIMIT-depth", span, "call depth limit %d reached",
                    in->opt.max_depth);
    if (interp_stack_exhausted(in))
        interp_fail(in, "DepthLimit", "LIMIT-depth", span,
                    "the interpreter's stack is exhausted at call depth %d", in->depth);
}

static void check_arity(Interp *in, const Function *fn, int nargs, Span span)
{
    if (nargs != fn->nparams)
        interp_fail(in, "Arity", "E-12", span.line > 0 ? span : fn->span,
                    "'%s' takes %d arguments, %d given", fn->name ? fn->name : "function",
                    fn->nparams, nargs);
}

/* E-12.2.1. Calls in tail position of the body loop here instead of nesting, so a
 * tail-recursive loop runs in constant C stack and does not count toward the depth limit. */
static Value *call_closure(Interp *in, Value *callee, Value **args, int nargs, Span span)
{
    interp_check_depth(in, span);
    in->depth++;
    const char *caller = in->func;
    PendingList pending = {0};
    Value *result;
    Env *env = NULL;
    /* A tail call's arguments: free again once enter() has bound them. */
    Value *room[CALL_ROOM];
    for (;;) {
        const Function *fn = callee->u.closure.func;
        in->func = fn->name;
        check_arity(in, fn, nargs, span);
        /* A tail call's caller activation is dead once the call's arguments are evaluated and
         * its return check is owed (pending_push copies what that needs; closures capture
         * copies, eval_make_closure), so the next activation reuses its memory. */
        const FuncInfo *info = env_func_info(in->func_info, fn);
        /* The map holds what has no slot: shape variables, and variables resolved elsewhere. */
        int unslotted = info->nlocals - info->nslots;
        if (env == NULL) {
            env = env_pool_take(in->env_pool, callee->u.closure.env, unslotted);
            env_use_frame(env, fn, info->nslots);
        } else {
            env_reset(env, callee->u.closure.env, unslotted, fn, info->nslots);
        }
        enter(in, env, info, args, span);
        TailCall tc = {.room = room};
        result = eval_tail(in, env, fn->body, &tc);
        if (result != NULL) {
            /* FN-3 */
            rule_fired("FN-3");
            if (fn->ret != NULL)
                match_cast_check(in, env, fn->ret, result, MC_MODE_RET, fn->span);
            break;
        }
        pending_push(&pending, env, fn, info);
        interp_step(in, tc.span);
        callee = tc.callee;
        args = tc.args;
        nargs = tc.nargs;
        span = tc.span;
    }
    pending_run(in, &pending, result);
    env_pool_give(in->env_pool, env);
    in->depth--;
    in->func = caller;
    return result;
}

Value *interp_call(Interp *in, Value *callee, Value **args, int nargs, Span span)
{
    rule_fired("E-12");
    interp_step(in, span);
    switch (callee->kind) {
    case VAL_CLOSURE:
        return call_closure(in, callee, args, nargs, span);
    case VAL_PACKED: {
        rule_fired("ALIAS-1"); /* the packed function gets the values themselves */
        /* E-12.2.2; a module-level ExternFunc naming no packed function fails here. */
        if (callee->u.packed.fn == NULL)
            interp_fail(in, "PackedFuncMissing", "E-11", span, "no packed function named '%s'",
                        callee->u.packed.name);
        Span outer = in->site;
        in->site = span;
        Value *r = callee->u.packed.fn(in, args, nargs);
        in->site = outer;
        return r != NULL ? r : value_unit();
    }
    case VAL_PRIMFUNC: /* E-12.2.3 */
        return tir_exec_call(in, callee->u.primfunc, args, nargs, span);
    case VAL_TENSOR:
    case VAL_TUPLE:
    case VAL_SHAPE:
    case VAL_PRIM:
    case VAL_STRING:
    case VAL_DTYPE:
    case VAL_NULL:
    case VAL_OBJECT:
        break;
    }
    interp_fail(in, "NotCallable", "E-12", span, "a %s is not callable",
                value_kind_name(callee->kind));
}

/* LIMIT-fuel: an operator's tensor operands, also those inside a tuple operand (concat's),
 * cost one unit per element before it runs, and its result's elements after (the tensor
 * size limit bounds what one result can hold). */
static int64_t operand_elements(Value **args, int n)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        const Value *a = args[i];
        if (a->kind == VAL_TENSOR) {
            total += tensor_numel(a->u.tensor);
        } else if (a->kind == VAL_TUPLE) {
            for (int k = 0; k < a->u.tuple.n; k++)
                if (a->u.tuple.fields[k]->kind == VAL_TENSOR)
                    total += tensor_numel(a->u.tuple.fields[k]->u.tensor);
        }
    }
    return total;
}

/* What an Op node names: a builtin or an operator (NULL both when it has no kernel). */
typedef struct OpTarget {
    const BuiltinEntry *builtin;
    const OpImpl *impl;
    bool distributed; /* a relax.dist.* operator */
} OpTarget;

/* Resolved on the node's first call and kept by node, so a call does not search the
 * builtin and operator tables by name. */
static const OpTarget *op_target(Interp *in, const Expr *op)
{
    OpTarget *t = env_map_get(in->op_targets, op);
    if (t != NULL)
        return t;
    t = MEM_NEW(OpTarget);
    t->builtin = builtins_find(op->u.op_name);
    t->impl = t->builtin != NULL ? NULL : ops_lookup(op->u.op_name);
    t->distributed = strncmp(op->u.op_name, "relax.dist.", 11) == 0;
    env_map_put(in->op_targets, op, t);
    return t;
}

/* A call's arguments, in `room` (CALL_ROOM of them, or NULL) when they fit: the array of
 * an operator's or a closure's arguments is dead once the kernel has run or the callee's
 * parameters are bound, so most calls allocate none. */
static inline __attribute__((always_inline)) Value **eval_args(Interp *in, Env *env,
                                                               const Expr *call, Value **room)
{
    int n = call->u.call.nargs;
    Value **args = room != NULL && n <= CALL_ROOM ? room : MEM_ARRAY(Value *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        args[i] = eval_operand(in, env, call->u.call.args[i]);
    return args;
}

Value *call_eval(Interp *in, Env *env, const Expr *call, TailCall *tc)
{
    const Expr *op = call->u.call.op;
    int n = call->u.call.nargs;
    if (op->kind == EXPR_OP) {
        /* E-12.1: an Op's arguments left to right, then the builtin. */
        rule_fired("E-12");
        Value *room[CALL_ROOM];
        Value **args = eval_args(in, env, call, room);
        const OpTarget *target = op_target(in, op);
        if (target->distributed) /* DIST-6: one process */
            interp_fail(in, "Unsupported", "DIST-6", call->span,
                        "%s distributes tensors over a mesh, which a one-process run lacks",
                        op->u.op_name);
        if (target->builtin == NULL) {
            const OpImpl *impl = target->impl;
            if (impl == NULL || impl->kernel == NULL)
                interp_fail(in, "OpNotImplemented", "E-12", call->span, "operator %s has no kernel",
                            op->u.op_name);
            /* LIMIT-fuel: the operands before the work, the result after it (less what
             * the kernel prepaid before making it: interp_prepay_result); and no tensor
             * the kernel makes may pass the fuel left as the call begins (interp_budget). */
            TensorBudget budget = interp_budget(in);
            interp_charge(in, operand_elements(args, n), call->span);
            if (rule_recording)
                rule_fired(ops_call_rule(call)); /* OP-<name>: the operator's kernel */
            in->prepaid = 0;
            /* DIAG-site: OutOfMemory in the kernel's working memory points at the call. */
            Span outer = in->site;
            in->site = call->span;
            TensorBudget outer_budget = tensor_set_budget(budget);
            Value *result = impl->kernel(in, call, args, n);
            tensor_set_budget(outer_budget);
            in->site = outer;
            int64_t made = operand_elements(&result, 1);
            interp_charge(in, made > in->prepaid ? made - in->prepaid : 0, call->span);
            in->prepaid = 0;
            return result;
        }
        /* LIMIT-fuel: a builtin (call_tir's outputs, alloc_tensor) makes no tensor past
         * the fuel left as it is called either. */
        TensorBudget outer_budget = tensor_set_budget(interp_budget(in));
        Value *r = builtins_call_entry(target->builtin, in, env, call, args, n);
        tensor_set_budget(outer_budget);
        return r != NULL ? r : value_unit();
    }
    /* E-12.2: the callee first, then the arguments. */
    rule_fired("E-12");
    Value *callee = eval_operand(in, env, op);
    if (callee->kind != VAL_CLOSURE) /* a packed function may keep its argument array */
        return interp_call(in, callee, eval_args(in, env, call, NULL), n, call->span);
    if (tc != NULL) {
        tc->callee = callee;
        tc->args = eval_args(in, env, call, tc->room);
        tc->nargs = n;
        tc->span = call->span;
        return NULL;
    }
    Value *room[CALL_ROOM];
    return interp_call(in, callee, eval_args(in, env, call, room), n, call->span);
}
