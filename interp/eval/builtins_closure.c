/* builtins_closure: closures made and invoked by operators (make_closure, invoke_closure,
 * invoke_pure_closure). SPEC_NOTES: "Builtins" (BI-make_closure, BI-invoke_closure). */
#include "ast/mem.h"
#include "interp/eval/builtins_internal.h"
#include "interp/eval/eval_internal.h"

/* The number of parameters a callable value declares, or -1 for a packed function, which
 * takes any number. */
static int callee_arity(const Value *f)
{
    if (f->kind == VAL_CLOSURE)
        return f->u.closure.func->nparams;
    if (f->kind == VAL_PRIMFUNC)
        return f->u.primfunc->nparams;
    return -1;
}

/* The function `lambda p1..pn: callee(p1..pn, c1..ck)` with callee and c1..ck free: the
 * captured values become the LAST arguments (TVM's VMClosure::BindLastArgs). The
 * parameters are annotated R.Object, so the callee's own entry checks are the only ones.
 * Each closure binds the free variables in its own environment, so one such function
 * serves every closure over the same callee and count. */
typedef struct BoundFunc {
    Function *func;
    Var *callee;
    Var **captured;
    int ncaptured;
    struct BoundFunc *next; /* other counts for the same callee */
} BoundFunc;

static BoundFunc *bound_new(const Value *callee, int nparams, int ncaptured, Span span)
{
    BoundFunc *b = MEM_NEW(BoundFunc);
    Function *f = function_new(span);
    f->params = MEM_ARRAY(Var *, nparams + 1);
    f->nparams = nparams;
    f->is_pure = callee->kind == VAL_CLOSURE ? callee->u.closure.func->is_pure : false;
    f->name = callee->kind == VAL_CLOSURE ? callee->u.closure.func->name : callee->u.primfunc->name;
    Expr **args = MEM_ARRAY(Expr *, nparams + ncaptured + 1);
    for (int i = 0; i < nparams; i++) {
        f->params[i] = var_new(mem_printf("arg%d", i), false, sinfo_object(span), span);
        args[i] = expr_var(f->params[i], span);
    }
    b->captured = MEM_ARRAY(Var *, ncaptured + 1);
    for (int i = 0; i < ncaptured; i++) {
        b->captured[i] = var_new(mem_printf("captured%d", i), false, NULL, span);
        args[nparams + i] = expr_var(b->captured[i], span);
    }
    b->callee = var_new("callee", false, NULL, span);
    Expr *call = expr_call(expr_var(b->callee, span), args, nparams + ncaptured, span);
    f->body = expr_seq(NULL, 0, call, span);
    b->func = f;
    b->ncaptured = ncaptured;
    return b;
}

/* The callee's function node: what the synthesized function depends on. */
static const void *callee_key(const Value *callee)
{
    if (callee->kind == VAL_CLOSURE)
        return callee->u.closure.func;
    return callee->u.primfunc;
}

static BoundFunc *bound_function(const BuiltinCall *bc, const Value *callee, int arity, int k)
{
    Interp *in = bc->in;
    if (!in->bound_funcs)
        in->bound_funcs = env_map_new(8);
    BoundFunc *first = env_map_get(in->bound_funcs, callee_key(callee));
    for (BoundFunc *b = first; b; b = b->next) {
        if (b->ncaptured == k)
            return b;
    }
    BoundFunc *b = bound_new(callee, arity - k, k, bc->call->span);
    b->next = first;
    env_map_put(in->bound_funcs, callee_key(callee), b);
    return b;
}

/* BI-make_closure: args [function, Tuple(captured)]. The result is an ordinary closure
 * (so MatchCast, rendering and calls treat it as one) over a small synthesized function
 * that calls the original with the captured values appended. */
Value *builtins_make_closure(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, 2);
    Value *callee = bc->args[0];
    Value *captured = builtins_tuple_arg(bc, 1, "the captured values");
    int arity = callee_arity(callee);
    if (arity < 0)
        builtins_fail(bc, "OpPrecondition",
                      "the function must be a Relax function or a PrimFunc, got a %s",
                      value_kind_name(callee->kind));
    int k = captured->u.tuple.n;
    if (k > arity)
        builtins_fail(bc, "OpPrecondition", "%d captured values for a function of %d parameters", k,
                      arity);
    BoundFunc *b = bound_function(bc, callee, arity, k);
    Env *env = env_new(k + 1);
    env_bind(env, b->callee, callee);
    for (int i = 0; i < k; i++)
        env_bind(env, b->captured[i], captured->u.tuple.fields[i]);
    return eval_make_closure(bc->in, env, b->func, NULL);
}

/* BI-invoke_closure (and invoke_pure_closure): args [closure, Tuple(args)]. */
Value *builtins_invoke_closure(const BuiltinCall *bc)
{
    builtins_want_args(bc, 2, 2);
    Value *args = builtins_tuple_arg(bc, 1, "the arguments");
    return interp_call(bc->in, bc->args[0], args->u.tuple.fields, args->u.tuple.n, bc->call->span);
}
