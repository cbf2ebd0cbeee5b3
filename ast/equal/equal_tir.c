/* equal_tir: alpha-equivalence of PrimExprs, buffers, TIR statements and PrimFuncs.
 * SPEC_NOTES: "Structural equality". */
#include <string.h>

#include "ast/equal/equal_internal.h"

bool eq_tvar(EqCtx *c, const TirVar *a, const TirVar *b)
{
    bool fresh;
    if (!eq_corr(&c->tvars, a, b, &fresh))
        return eq_fail(c, "TIR variable %s does not correspond to %s", a->name, b->name);
    if (fresh && (!dtype_equal(a->dtype, b->dtype) || a->is_size_var != b->is_size_var))
        return eq_fail(c, "TIR variable %s: %s vs %s", a->name, dtype_str(a->dtype),
                       dtype_str(b->dtype));
    return true;
}

static bool eq_prims(EqCtx *c, PrimExpr *const *a, PrimExpr *const *b, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        EQ_CHECK(c, eq_prim(c, a[i], b[i]), "%s[%d]", what, i);
    return true;
}

/* Buffers correspond like variables; their declarations compare when first met. */
static bool eq_buffer(EqCtx *c, const Buffer *a, const Buffer *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "buffer present on one side only");
    bool fresh;
    if (!eq_corr(&c->bufs, a, b, &fresh))
        return eq_fail(c, "buffer %s does not correspond to %s", a->name, b->name);
    if (!fresh)
        return true;
    if (!dtype_equal(a->dtype, b->dtype) || a->ndim != b->ndim ||
        !eq_str_opt(a->scope, b->scope, "global"))
        return eq_fail(c, "buffer %s: dtype, rank or scope differ", a->name);
    EQ_CHECK(c, eq_prims(c, a->shape, b->shape, a->ndim, "shape"), "buffer %s", a->name);
    return true;
}

bool eq_prim_opt(EqCtx *c, const PrimExpr *a, const PrimExpr *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "value present on one side only");
    return eq_prim(c, a, b);
}

static bool eq_prim_fields(EqCtx *c, const PrimExpr *a, const PrimExpr *b)
{
    switch (a->kind) {
    case PE_INT:
        return a->u.int_value == b->u.int_value ||
               eq_fail(c, "%lld vs %lld", (long long)a->u.int_value, (long long)b->u.int_value);
    case PE_FLOAT:
        return memcmp(&a->u.float_value, &b->u.float_value, sizeof(double)) == 0 ||
               eq_fail(c, "%g vs %g", a->u.float_value, b->u.float_value);
    case PE_VAR:
        return eq_tvar(c, a->u.var, b->u.var);
    case PE_NOT:
    case PE_CAST:
        return eq_prim(c, a->u.operand, b->u.operand);
    case PE_SELECT:
        return eq_prim(c, a->u.select.cond, b->u.select.cond) &&
               eq_prim(c, a->u.select.then_value, b->u.select.then_value) &&
               eq_prim(c, a->u.select.else_value, b->u.select.else_value);
    case PE_LOAD:
        if (a->u.load.nindices != b->u.load.nindices)
            return eq_fail(c, "index counts differ");
        return eq_buffer(c, a->u.load.buffer, b->u.load.buffer) &&
               eq_prims(c, a->u.load.indices, b->u.load.indices, a->u.load.nindices, "indices");
    case PE_CALL:
        if (!eq_str_opt(a->u.call.name, b->u.call.name, "") || a->u.call.nargs != b->u.call.nargs)
            return eq_fail(c, "calls %s vs %s", a->u.call.name, b->u.call.name);
        return eq_prims(c, a->u.call.args, b->u.call.args, a->u.call.nargs, "args");
    case PE_ADD:
    case PE_SUB:
    case PE_MUL:
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_MIN:
    case PE_MAX:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR:
        EQ_CHECK(c, eq_prim(c, a->u.bin.a, b->u.bin.a), "a");
        EQ_CHECK(c, eq_prim(c, a->u.bin.b, b->u.bin.b), "b");
        return true;
    }
    return false;
}

bool eq_prim(EqCtx *c, const PrimExpr *a, const PrimExpr *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "PrimExpr present on one side only");
    if (a->kind != b->kind)
        return eq_fail(c, "PrimExpr kinds differ");
    if (!dtype_equal(a->dtype, b->dtype))
        return eq_fail(c, "PrimExpr dtype %s vs %s", dtype_str(a->dtype), dtype_str(b->dtype));
    return eq_prim_fields(c, a, b);
}

/* ---- Statements ---- */

static bool eq_stmt(EqCtx *c, const Stmt *a, const Stmt *b);

static bool eq_region(EqCtx *c, const BufferRegion *a, const BufferRegion *b)
{
    if (a->n != b->n)
        return eq_fail(c, "region ranks differ");
    EQ_CHECK(c, eq_buffer(c, a->buffer, b->buffer), "buffer");
    for (int i = 0; i < a->n; i++) {
        EQ_CHECK(c, eq_prim(c, a->mins[i], b->mins[i]), "min[%d]", i);
        EQ_CHECK(c, eq_prim_opt(c, a->extents[i], b->extents[i]), "extent[%d]", i);
    }
    return true;
}

static bool eq_regions(EqCtx *c, BufferRegion *const *a, BufferRegion *const *b, int n,
                       const char *what)
{
    for (int i = 0; i < n; i++)
        EQ_CHECK(c, eq_region(c, a[i], b[i]), "%s[%d]", what, i);
    return true;
}

static bool eq_iter(EqCtx *c, const IterVar *a, const IterVar *b)
{
    if (a->kind != b->kind)
        return eq_fail(c, "iter kinds differ");
    EQ_CHECK(c, eq_tvar(c, a->var, b->var), "var");
    EQ_CHECK(c, eq_prim_opt(c, a->dom_min, b->dom_min), "dom_min");
    EQ_CHECK(c, eq_prim(c, a->extent, b->extent), "extent");
    EQ_CHECK(c, eq_prim_opt(c, a->binding, b->binding), "binding");
    return true;
}

static bool eq_block_head(EqCtx *c, const Stmt *a, const Stmt *b)
{
    if (!eq_str_opt(a->u.block.name, b->u.block.name, ""))
        return eq_fail(c, "block names differ");
    if (a->u.block.niters != b->u.block.niters || a->u.block.nallocs != b->u.block.nallocs)
        return eq_fail(c, "block iter or alloc counts differ");
    for (int i = 0; i < a->u.block.niters; i++)
        EQ_CHECK(c, eq_iter(c, a->u.block.iters[i], b->u.block.iters[i]), "iters[%d]", i);
    for (int i = 0; i < a->u.block.nallocs; i++)
        EQ_CHECK(c, eq_buffer(c, a->u.block.allocs[i], b->u.block.allocs[i]), "allocs[%d]", i);
    EQ_CHECK(c, eq_prim_opt(c, a->u.block.predicate, b->u.block.predicate), "where");
    return true;
}

static bool eq_block(EqCtx *c, const Stmt *a, const Stmt *b)
{
    EQ_CHECK(c, eq_block_head(c, a, b), "block");
    if (a->u.block.has_reads != b->u.block.has_reads || a->u.block.nreads != b->u.block.nreads ||
        a->u.block.has_writes != b->u.block.has_writes || a->u.block.nwrites != b->u.block.nwrites)
        return eq_fail(c, "block reads or writes differ");
    EQ_CHECK(c, eq_regions(c, a->u.block.reads, b->u.block.reads, a->u.block.nreads, "reads"),
             "block");
    EQ_CHECK(c, eq_regions(c, a->u.block.writes, b->u.block.writes, a->u.block.nwrites, "writes"),
             "block");
    EQ_CHECK(c, eq_attrs(c, a->u.block.annotations, b->u.block.annotations), "block_attr");
    if ((a->u.block.init == NULL) != (b->u.block.init == NULL))
        return eq_fail(c, "init present on one side only");
    EQ_CHECK(c, a->u.block.init == NULL || eq_stmt(c, a->u.block.init, b->u.block.init), "init");
    EQ_CHECK(c, eq_stmt(c, a->u.block.body, b->u.block.body), "body");
    return true;
}

static bool eq_stmt_fields(EqCtx *c, const Stmt *a, const Stmt *b)
{
    switch (a->kind) {
    case STMT_SEQ:
        if (a->u.seq.n != b->u.seq.n)
            return eq_fail(c, "statement counts %d vs %d", a->u.seq.n, b->u.seq.n);
        for (int i = 0; i < a->u.seq.n; i++)
            EQ_CHECK(c, eq_stmt(c, a->u.seq.stmts[i], b->u.seq.stmts[i]), "[%d]", i);
        return true;
    case STMT_FOR:
        if (a->u.for_.kind != b->u.for_.kind)
            return eq_fail(c, "loop kinds differ");
        if (a->u.for_.kind == FOR_THREAD_BINDING && strcmp(a->u.for_.thread, b->u.for_.thread) != 0)
            return eq_fail(c, "thread bindings %s vs %s", a->u.for_.thread, b->u.for_.thread);
        EQ_CHECK(c, eq_tvar(c, a->u.for_.var, b->u.for_.var), "for");
        EQ_CHECK(c, eq_prim_opt(c, a->u.for_.min, b->u.for_.min), "for/min");
        EQ_CHECK(c, eq_prim(c, a->u.for_.extent, b->u.for_.extent), "for/extent");
        EQ_CHECK(c, eq_stmt(c, a->u.for_.body, b->u.for_.body), "for/body");
        return true;
    case STMT_BLOCK:
        return eq_block(c, a, b);
    case STMT_STORE:
        if (a->u.store.nindices != b->u.store.nindices)
            return eq_fail(c, "store ranks differ");
        EQ_CHECK(c, eq_buffer(c, a->u.store.buffer, b->u.store.buffer), "store");
        EQ_CHECK(
            c, eq_prims(c, a->u.store.indices, b->u.store.indices, a->u.store.nindices, "indices"),
            "store");
        EQ_CHECK(c, eq_prim(c, a->u.store.value, b->u.store.value), "store/value");
        return true;
    case STMT_LET:
        EQ_CHECK(c, eq_tvar(c, a->u.let.var, b->u.let.var), "let");
        EQ_CHECK(c, eq_prim(c, a->u.let.value, b->u.let.value), "let/value");
        EQ_CHECK(c, eq_stmt(c, a->u.let.body, b->u.let.body), "let/body");
        return true;
    case STMT_IF:
        EQ_CHECK(c, eq_prim(c, a->u.if_.cond, b->u.if_.cond), "if/cond");
        EQ_CHECK(c, eq_stmt(c, a->u.if_.then_stmt, b->u.if_.then_stmt), "if/then");
        EQ_CHECK(c, eq_stmt(c, a->u.if_.else_stmt, b->u.if_.else_stmt), "if/else");
        return true;
    case STMT_WHILE:
        EQ_CHECK(c, eq_prim(c, a->u.while_.cond, b->u.while_.cond), "while/cond");
        EQ_CHECK(c, eq_stmt(c, a->u.while_.body, b->u.while_.body), "while/body");
        return true;
    case STMT_EVALUATE:
        return eq_prim(c, a->u.evaluate, b->u.evaluate);
    case STMT_ALLOC:
        EQ_CHECK(c, eq_buffer(c, a->u.alloc.buffer, b->u.alloc.buffer), "alloc");
        EQ_CHECK(c, eq_stmt(c, a->u.alloc.body, b->u.alloc.body), "alloc/body");
        return true;
    }
    return false;
}

static bool eq_stmt(EqCtx *c, const Stmt *a, const Stmt *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "statement present on one side only");
    if (a->kind != b->kind)
        return eq_fail(c, "statement kinds differ");
    return eq_stmt_fields(c, a, b);
}

bool eq_primfunc(EqCtx *c, const PrimFunc *a, const PrimFunc *b)
{
    if (a->nparams != b->nparams)
        return eq_fail(c, "parameter counts %d vs %d", a->nparams, b->nparams);
    for (int i = 0; i < a->nparams; i++) {
        EQ_CHECK(c, eq_tvar(c, a->params[i], b->params[i]), "params[%d]", i);
        const Buffer *ba = a->param_buffers ? a->param_buffers[i] : NULL;
        const Buffer *bb = b->param_buffers ? b->param_buffers[i] : NULL;
        EQ_CHECK(c, eq_buffer(c, ba, bb), "params[%d]", i);
    }
    if (!dtype_equal(a->ret_dtype, b->ret_dtype) || a->is_private != b->is_private)
        return eq_fail(c, "return type or visibility differ");
    EQ_CHECK(c, eq_attrs(c, a->attrs, b->attrs), "attrs");
    EQ_CHECK(c, eq_stmt(c, a->body, b->body), "body");
    return true;
}
