/* tir_stmt: executing TIR statements (loops, blocks with init, stores, lets, if, evaluate,
 * allocation). SPEC_NOTES: "TIR semantics" (TIR-LOOP, TIR-BLOCK, TIR-INIT, TIR-LET, ...). */
#include <inttypes.h>
#include <string.h>

#include "interp/tir/tir_internal.h"

static void exec_seq(TirFrame *fr, const Stmt *s)
{
    for (int i = 0; i < s->u.seq.n && !fr->returned; i++)
        tir_stmt_exec(fr, s->u.seq.stmts[i]);
}

/* TIR-LOOP: min and extent are evaluated once; the variable takes min, min+1, ... in the
 * extent's dtype; every kind (parallel, vectorized, unrolled) runs serially in order; each
 * iteration spends one step of fuel. */
static void exec_for(TirFrame *fr, const Stmt *s)
{
    const TirVar *var = s->u.for_.var;
    Scalar min = tir_eval(fr, s->u.for_.min);
    Scalar extent = tir_eval(fr, s->u.for_.extent);
    int mark = fr->nvars;
    int slot = tir_bind_var(fr, var, prim_scalar_int(var->dtype, min.i));
    for (int64_t k = 0; k < extent.i && !fr->returned; k++) {
        interp_step(fr->in, s->span);
        /* Unsigned addition: a loop near the top of its range wraps like its dtype. */
        int64_t x = (int64_t)((uint64_t)min.i + (uint64_t)k);
        fr->vars[slot].value = prim_scalar_int(var->dtype, x);
        tir_stmt_exec(fr, s->u.for_.body);
        fr->nvars = mark + 1;
    }
    fr->nvars = mark;
}

/* TIR-BLOCK: each iteration variable takes its binding, which must lie in
 * [dom_min, dom_min + extent). Bindings are evaluated in order with the earlier iteration
 * variables already bound, as the text scopes them. Returns whether every reduce variable
 * sits at its dom_min (TIR-INIT). */
static bool bind_iters(TirFrame *fr, const Stmt *s)
{
    bool first = true;
    for (int i = 0; i < s->u.block.niters; i++) {
        const IterVar *iv = s->u.block.iters[i];
        Scalar v = tir_eval(fr, iv->binding);
        Scalar lo = tir_eval(fr, iv->dom_min);
        Scalar ext = tir_eval(fr, iv->extent);
        bool inside = v.i >= lo.i && ext.i > 0 && (uint64_t)v.i - (uint64_t)lo.i < (uint64_t)ext.i;
        if (!inside)
            interp_fail(fr->in, "TirOutOfBounds", "TIR-BLOCK", s->span,
                        "block `%s`: iteration variable `%s` = %" PRId64
                        " is outside its domain [%" PRId64 ", %" PRId64 " + %" PRId64 ")",
                        s->u.block.name ? s->u.block.name : "", iv->var->name, v.i, lo.i, lo.i,
                        ext.i);
        if (iv->kind == ITER_REDUCE && v.i != lo.i)
            first = false;
        if (!dtype_equal(v.dtype, iv->var->dtype))
            v = prim_cast(iv->var->dtype, v);
        tir_bind_var(fr, iv->var, v);
    }
    return first;
}

/* TIR-BLOCK: a false predicate (T.where) skips the block, domains unchecked; allocations
 * live for the block. T.reads and T.writes are not checked. TIR-INIT: the init statement
 * runs first when the reduction is at its first iteration (always, with no reduce
 * variables). */
static void exec_block(TirFrame *fr, const Stmt *s)
{
    if (s->u.block.predicate && !prim_scalar_truth(tir_eval(fr, s->u.block.predicate)))
        return;
    int vmark = fr->nvars, bmark = fr->nbuffers;
    bool first = bind_iters(fr, s);
    for (int i = 0; i < s->u.block.nallocs; i++)
        tir_buffer_alloc(fr, s->u.block.allocs[i], s->span);
    if (s->u.block.init && first)
        tir_stmt_exec(fr, s->u.block.init);
    if (!fr->returned)
        tir_stmt_exec(fr, s->u.block.body);
    fr->nvars = vmark;
    fr->nbuffers = bmark;
}

/* TIR-STORE: the value first, then the indices left to right (Python's assignment order),
 * then the bounds check and the conversion to the buffer's dtype. */
static void exec_store(TirFrame *fr, const Stmt *s)
{
    Scalar idx[TENSOR_MAX_NDIM];
    int n = s->u.store.nindices;
    const Buffer *b = s->u.store.buffer;
    if (n > TENSOR_MAX_NDIM)
        interp_fail(fr->in, "TirOutOfBounds", "TIR-BOUNDS", s->span,
                    "buffer `%s` is indexed with %d indices", b->name, n);
    Scalar v = tir_eval(fr, s->u.store.value);
    for (int d = 0; d < n; d++)
        idx[d] = tir_eval(fr, s->u.store.indices[d]);
    tir_buffer_store(fr, b, idx, n, v, s->span);
}

/* TIR-LET: the value is evaluated once and bound for the body only. */
static void exec_let(TirFrame *fr, const Stmt *s)
{
    const TirVar *var = s->u.let.var;
    Scalar v = tir_eval(fr, s->u.let.value);
    if (!dtype_equal(v.dtype, var->dtype))
        v = prim_cast(var->dtype, v);
    int mark = fr->nvars;
    tir_bind_var(fr, var, v);
    tir_stmt_exec(fr, s->u.let.body);
    fr->nvars = mark;
}

static void exec_if(TirFrame *fr, const Stmt *s)
{
    if (prim_scalar_truth(tir_eval(fr, s->u.if_.cond)))
        tir_stmt_exec(fr, s->u.if_.then_stmt);
    else if (s->u.if_.else_stmt)
        tir_stmt_exec(fr, s->u.if_.else_stmt);
}

/* TIR-WHILE: the condition is evaluated before each iteration; every iteration is a step,
 * so a loop that never ends runs out of fuel. */
static void exec_while(TirFrame *fr, const Stmt *s)
{
    while (!fr->returned && prim_scalar_truth(tir_eval(fr, s->u.while_.cond))) {
        interp_step(fr->in, s->span);
        tir_stmt_exec(fr, s->u.while_.body);
    }
}

/* The value is computed and dropped; `tir.ret(v)` ends the function with v. */
static void exec_evaluate(TirFrame *fr, const Stmt *s)
{
    const PrimExpr *e = s->u.evaluate;
    if (e->kind == PE_CALL && strcmp(e->u.call.name, "tir.ret") == 0 && e->u.call.nargs == 1) {
        fr->ret = tir_eval(fr, e->u.call.args[0]);
        fr->returned = true;
        return;
    }
    (void)tir_eval(fr, e);
}

/* TIR-ALLOC: a fresh zero-filled buffer, live in the body only. */
static void exec_alloc(TirFrame *fr, const Stmt *s)
{
    int bmark = fr->nbuffers;
    tir_buffer_alloc(fr, s->u.alloc.buffer, s->span);
    tir_stmt_exec(fr, s->u.alloc.body);
    fr->nbuffers = bmark;
}

void tir_stmt_exec(TirFrame *fr, const Stmt *s)
{
    if (fr->returned)
        return;
    switch (s->kind) {
    case STMT_SEQ:
        exec_seq(fr, s);
        return;
    case STMT_FOR:
        exec_for(fr, s);
        return;
    case STMT_BLOCK:
        exec_block(fr, s);
        return;
    case STMT_STORE:
        exec_store(fr, s);
        return;
    case STMT_LET:
        exec_let(fr, s);
        return;
    case STMT_IF:
        exec_if(fr, s);
        return;
    case STMT_WHILE:
        exec_while(fr, s);
        return;
    case STMT_EVALUATE:
        exec_evaluate(fr, s);
        return;
    case STMT_ALLOC:
        exec_alloc(fr, s);
        return;
    }
}
