/* script_tir_block: `with T.block(...)` and what configures a block (iteration variables,
 * read and write regions, predicate, annotations, init, allocations). SPEC_NOTES: TS-11. */
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script_tir_internal.h"

/* Structural equality of the index expressions a slice bound holds (loads of the same
 * buffer element too, as TVM's GPU kernels index by a loaded counter; no calls). */
static bool same_prim(const PrimExpr *a, const PrimExpr *b)
{
    if (a->kind != b->kind || !dtype_equal(a->dtype, b->dtype))
        return false;
    if (a->kind == PE_INT)
        return a->u.int_value == b->u.int_value;
    if (a->kind == PE_VAR)
        return a->u.var == b->u.var;
    if (a->kind == PE_LOAD) {
        if (a->u.load.buffer != b->u.load.buffer || a->u.load.nindices != b->u.load.nindices)
            return false;
        for (int i = 0; i < a->u.load.nindices; i++)
            if (!same_prim(a->u.load.indices[i], b->u.load.indices[i]))
                return false;
        return true;
    }
    if (a->kind == PE_CAST || a->kind == PE_NOT)
        return same_prim(a->u.operand, b->u.operand);
    return primexpr_is_binary(a->kind) && same_prim(a->u.bin.a, b->u.bin.a) &&
           same_prim(a->u.bin.b, b->u.bin.b);
}

/* The extent of [min, end): end - min, with `min + e` ending at min giving e itself, so a
 * printed slice `A[m:m + e]` reads back as the region it came from (print is a fixpoint). */
PrimExpr *script_tir_extent(TirCtx *c, PrimExpr *min, PrimExpr *end, Span span)
{
    if (end->kind == PE_ADD && same_prim(end->u.bin.a, min) && dtype_equal(end->dtype, min->dtype))
        return end->u.bin.b;
    if (min->kind == PE_INT && min->u.int_value == 0 && dtype_equal(min->dtype, end->dtype))
        return end;
    if (min->kind == PE_INT && end->kind == PE_INT && dtype_equal(min->dtype, end->dtype))
        return primexpr_int(end->u.int_value - min->u.int_value, end->dtype, span);
    return script_prim_binary(PE_SUB, end, min, span, c->trap);
}

void script_tir_expr_pair(TirCtx *c, const PyExpr *x, const PyExpr *y, PrimExpr **a, PrimExpr **b)
{
    bool lx = script_prim_is_literal(x), ly = script_prim_is_literal(y);
    if (lx && !ly) {
        *b = script_tir_expr(c, y);
        *a = script_tir_expr_typed(c, x, (*b)->dtype);
    } else if (ly && !lx) {
        *a = script_tir_expr(c, x);
        *b = script_tir_expr_typed(c, y, (*a)->dtype);
    } else {
        *a = script_tir_expr(c, x);
        *b = script_tir_expr(c, y);
    }
}

/* ---- iteration variables --------------------------------------------------------- */

static void add_iter(TirCtx *c, Stmt *block, IterVar *iv)
{
    int cap = block->u.block.niters; /* exact-size growth: blocks have few iterators */
    IterVar **items = MEM_ARRAY(IterVar *, cap + 1);
    if (cap)
        memcpy(items, block->u.block.iters, sizeof(IterVar *) * (size_t)cap);
    items[cap] = iv;
    block->u.block.iters = items;
    block->u.block.niters = cap + 1;
    script_tir_bind(c, iv->var->name, iv->var, NULL);
}

static const char *target_name(TirCtx *c, const PyExpr *target)
{
    if (target->kind != PY_NAME)
        script_tir_fail(c, target->span, "expected a variable name");
    return target->u.name;
}

/* axis -> T.axis.(spatial | S | reduce | R)(dom, binding) ; dom -> extent | (min, end) */
static void translate_axis(TirCtx *c, const PyExpr *target, const PyExpr *call, IterKind kind,
                           Stmt *block)
{
    if (call->u.call.nargs != 2)
        script_tir_fail(c, call->span, "T.axis takes a domain and a binding");
    for (int i = 0; i < call->u.call.nkw; i++)
        if (strcmp(call->u.call.kw_names[i], "dtype") != 0)
            script_tir_fail(c, call->u.call.kw_spans[i], "unknown T.axis keyword");
    const char *name = target_name(c, target);
    IterVar *iv = MEM_NEW(IterVar);
    iv->kind = kind;
    iv->binding = script_tir_expr(c, call->u.call.args[1]);
    DataType t = iv->binding->dtype;
    if (!dtype_is_int(t) && !dtype_is_uint(t))
        script_tir_fail(c, call->u.call.args[1]->span, "a block binding must be an integer");
    const PyExpr *dom = call->u.call.args[0];
    if (dom->kind == PY_TUPLE && dom->u.seq.n == 2) {
        PrimExpr *end;
        script_tir_expr_pair(c, dom->u.seq.items[0], dom->u.seq.items[1], &iv->dom_min, &end);
        iv->extent = script_tir_extent(c, iv->dom_min, end, dom->span);
    } else {
        iv->extent = script_tir_expr_typed(c, dom, t);
        iv->dom_min = primexpr_int(0, iv->extent->dtype, dom->span);
    }
    if (!dtype_equal(iv->extent->dtype, t) || !dtype_equal(iv->dom_min->dtype, t))
        script_tir_fail(c, dom->span, "the domain's type %s differs from the binding's %s",
                        dtype_str(iv->extent->dtype), dtype_str(t));
    iv->var = tirvar_new(name, t, target->span);
    add_iter(c, block, iv);
}

/* The name of `for iters in T.grid(...)` stands for the list [iters_0, iters_1, ...]. */
static const PyExpr *grid_list(TirCtx *c, const PyExpr *e)
{
    TirSym *sym = e->kind == PY_NAME ? script_tir_find(c, e->u.name) : NULL;
    if (sym == NULL || sym->grid_names == NULL)
        return e;
    PyExpr *list = MEM_NEW(PyExpr);
    list->kind = PY_LIST;
    list->span = e->span;
    list->u.seq.n = sym->ngrid;
    list->u.seq.items = MEM_ARRAY(PyExpr *, sym->ngrid);
    for (int i = 0; i < sym->ngrid; i++) {
        PyExpr *name = MEM_NEW(PyExpr);
        name->kind = PY_NAME;
        name->span = e->span;
        name->u.name = sym->grid_names[i];
        list->u.seq.items[i] = name;
    }
    return list;
}

/* remap -> T.axis.remap(KINDS, [loopvar, ...]) ; one target per kind letter */
static void translate_remap(TirCtx *c, const PyExpr *target, const PyExpr *call, Stmt *block)
{
    if (call->u.call.nargs != 2 || call->u.call.nkw != 0 || call->u.call.args[0]->kind != PY_STR)
        script_tir_fail(c, call->span, "T.axis.remap takes a kinds string and a list");
    const char *kinds = call->u.call.args[0]->u.str;
    const PyExpr *list = grid_list(c, call->u.call.args[1]);
    if (list->kind != PY_LIST && list->kind != PY_TUPLE)
        script_tir_fail(c, list->span, "T.axis.remap binds a list of loop variables");
    const PyExpr *const *targets = &target;
    int ntargets = 1;
    if (target->kind == PY_TUPLE) {
        targets = (const PyExpr *const *)target->u.seq.items;
        ntargets = target->u.seq.n;
    }
    int n = (int)strlen(kinds);
    if (n != list->u.seq.n || n != ntargets)
        script_tir_fail(c, call->span, "T.axis.remap: %d kinds, %d variables, %d targets", n,
                        list->u.seq.n, ntargets);
    for (int i = 0; i < n; i++) {
        if (kinds[i] != 'S' && kinds[i] != 'R')
            script_tir_fail(c, call->u.call.args[0]->span, "remap kind `%c` is not S or R",
                            kinds[i]);
        const PyExpr *b = list->u.seq.items[i];
        TirSym *loop = b->kind == PY_NAME ? script_tir_find(c, b->u.name) : NULL;
        if (!loop || !loop->loop_extent)
            script_tir_fail(c, b->span, "T.axis.remap binds loop variables only");
        IterVar *iv = MEM_NEW(IterVar);
        iv->kind = kinds[i] == 'S' ? ITER_SPATIAL : ITER_REDUCE;
        iv->dom_min = loop->loop_min;
        iv->extent = loop->loop_extent;
        iv->binding = primexpr_var(loop->var, b->span);
        iv->var = tirvar_new(target_name(c, targets[i]), loop->var->dtype, targets[i]->span);
        add_iter(c, block, iv);
    }
}

/* ---- regions ----------------------------------------------------------------------- */

static BufferRegion *region_new(Buffer *buffer, int n)
{
    BufferRegion *r = MEM_NEW(BufferRegion);
    r->buffer = buffer;
    r->n = n;
    r->mins = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    r->extents = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    return r;
}

static Buffer *buffer_named(TirCtx *c, const PyExpr *e)
{
    TirSym *sym = e->kind == PY_NAME ? script_tir_find(c, e->u.name) : NULL;
    if (e->kind == PY_NAME && !sym)
        error_raise(c->trap, PHASE_PARSE, "UnknownName", "TS-11", e->span,
                    "name `%s` is not defined", e->u.name);
    if (!sym || !sym->buffer)
        script_tir_fail(c, e->span, "a buffer is expected");
    return sym->buffer;
}

/* One dimension: a point `i` (extent 1) or a slice `lo:hi` (defaults 0 and the dim). */
static void region_dim(TirCtx *c, BufferRegion *r, int d, const PyExpr *e)
{
    if (e->kind != PY_SLICE) {
        r->mins[d] = script_tir_expr(c, e);
        r->extents[d] = primexpr_int(1, r->mins[d]->dtype, e->span);
        return;
    }
    if (e->u.slice.step)
        script_tir_fail(c, e->span, "a region slice takes no step");
    PrimExpr *lo, *hi;
    PrimExpr *dim = r->buffer->shape[d];
    if (e->u.slice.lower && e->u.slice.upper) {
        script_tir_expr_pair(c, e->u.slice.lower, e->u.slice.upper, &lo, &hi);
    } else if (e->u.slice.lower) {
        lo = script_tir_expr_typed(c, e->u.slice.lower, dim->dtype);
        hi = dim;
    } else {
        hi = e->u.slice.upper ? script_tir_expr(c, e->u.slice.upper) : dim;
        lo = primexpr_int(0, hi->dtype, e->span);
    }
    r->mins[d] = lo;
    r->extents[d] = script_tir_extent(c, lo, hi, e->span);
}

/* region -> BUFFER | BUFFER '[' (expr | slice) (',' (expr | slice))* ']' */
static BufferRegion *translate_region(TirCtx *c, const PyExpr *e)
{
    if (e->kind == PY_NAME) {
        Buffer *b = buffer_named(c, e);
        BufferRegion *r = region_new(b, b->ndim);
        for (int d = 0; d < b->ndim; d++) {
            r->mins[d] = primexpr_int(0, b->shape[d]->dtype, e->span);
            r->extents[d] = b->shape[d];
        }
        return r;
    }
    if (e->kind != PY_SUBSCRIPT)
        script_tir_fail(c, e->span, "a buffer region is expected");
    Buffer *b = buffer_named(c, e->u.subscript.value);
    const PyExpr *index = e->u.subscript.index;
    const PyExpr *const *items = &index;
    int n = 1;
    if (index->kind == PY_TUPLE) {
        items = (const PyExpr *const *)index->u.seq.items;
        n = index->u.seq.n;
    }
    if (n != b->ndim)
        script_tir_fail(c, e->span, "buffer `%s` has %d dimensions but %d are given", b->name,
                        b->ndim, n);
    BufferRegion *r = region_new(b, n);
    for (int d = 0; d < n; d++)
        region_dim(c, r, d, items[d]);
    return r;
}

/* reads -> T.reads(region, ...) | T.reads([region, ...]) ; T.writes likewise */
static void translate_regions(TirCtx *c, const PyExpr *call, BufferRegion ***out, int *n)
{
    BufferRegion **items = NULL;
    int len = 0, cap = 0;
    if (call->u.call.nkw)
        script_tir_fail(c, call->span, "T.reads and T.writes take no keywords");
    for (int i = 0; i < call->u.call.nargs; i++) {
        const PyExpr *a = call->u.call.args[i];
        if (a->kind == PY_LIST || a->kind == PY_TUPLE) {
            for (int j = 0; j < a->u.seq.n; j++)
                VEC_PUSH(items, len, cap, translate_region(c, a->u.seq.items[j]));
        } else {
            VEC_PUSH(items, len, cap, translate_region(c, a));
        }
    }
    *out = items;
    *n = len;
}

/* ---- block statements -------------------------------------------------------------- */

static void add_alloc(Stmt *block, Buffer *b)
{
    int n = block->u.block.nallocs;
    Buffer **items = MEM_ARRAY(Buffer *, n + 1);
    if (n)
        memcpy(items, block->u.block.allocs, sizeof(Buffer *) * (size_t)n);
    items[n] = b;
    block->u.block.allocs = items;
    block->u.block.nallocs = n + 1;
}

static void once(TirCtx *c, bool already, Span span, const char *what)
{
    if (already)
        script_tir_fail(c, span, "%s is given twice in one block", what);
}

static bool block_expr_stmt(TirCtx *c, const PyExpr *e, Stmt *block)
{
    const char *callee = script_tir_callee(e);
    if (!callee)
        return false;
    if (strcmp(callee, "reads") == 0) {
        once(c, block->u.block.has_reads, e->span, "T.reads");
        translate_regions(c, e, &block->u.block.reads, &block->u.block.nreads);
        block->u.block.has_reads = true;
    } else if (strcmp(callee, "writes") == 0) {
        once(c, block->u.block.has_writes, e->span, "T.writes");
        translate_regions(c, e, &block->u.block.writes, &block->u.block.nwrites);
        block->u.block.has_writes = true;
    } else if (strcmp(callee, "where") == 0) {
        once(c, block->u.block.predicate != NULL, e->span, "T.where");
        if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
            script_tir_fail(c, e->span, "T.where takes one condition");
        PrimExpr *p = script_tir_expr(c, e->u.call.args[0]);
        if (!dtype_is_bool(p->dtype))
            script_tir_fail(c, e->span, "T.where needs a bool condition");
        block->u.block.predicate = p;
    } else if (strcmp(callee, "block_attr") == 0) {
        if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
            script_tir_fail(c, e->span, "T.block_attr takes one dict");
        Attrs *a = script_tir_attrs(c, e->u.call.args[0]);
        for (int i = 0; i < a->n; i++)
            attrs_set(block->u.block.annotations, a->keys[i], a->values[i]);
    } else {
        return false;
    }
    return true;
}

static bool block_assign(TirCtx *c, const PyStmt *s, Stmt *block)
{
    if (s->u.assign.ntargets != 1)
        return false;
    const PyExpr *target = s->u.assign.targets[0];
    const PyExpr *value = s->u.assign.value;
    const char *callee = script_tir_callee(value);
    if (!callee)
        return false;
    if (strcmp(callee, "axis.spatial") == 0 || strcmp(callee, "axis.S") == 0)
        translate_axis(c, target, value, ITER_SPATIAL, block);
    else if (strcmp(callee, "axis.reduce") == 0 || strcmp(callee, "axis.R") == 0)
        translate_axis(c, target, value, ITER_REDUCE, block);
    else if (strcmp(callee, "axis.remap") == 0)
        translate_remap(c, target, value, block);
    else if (strcmp(callee, "alloc_buffer") == 0) {
        const char *name = target_name(c, target);
        Buffer *b = script_tir_buffer_args(c, name, value, 0);
        add_alloc(block, b);
        script_tir_bind(c, name, NULL, b);
    } else if (strncmp(callee, "axis.", 5) == 0)
        script_tir_fail(c, value->span, "T.%s is not supported", callee);
    else
        return false;
    return true;
}

/* init -> 'with' T.init() ':' body */
static bool block_with(TirCtx *c, const PyStmt *s, Stmt *block)
{
    const char *callee = s->u.with.n == 1 ? script_tir_callee(s->u.with.items[0]) : NULL;
    if (!callee || strcmp(callee, "init") != 0)
        return false;
    const PyExpr *call = s->u.with.items[0];
    if (call->u.call.nargs || call->u.call.nkw || (s->u.with.as_targets && s->u.with.as_targets[0]))
        script_tir_fail(c, call->span, "T.init takes no arguments");
    once(c, block->u.block.init != NULL, s->span, "T.init");
    int mark = c->nsyms;
    block->u.block.init = script_tir_body(c, &s->u.with.body, 0, NULL);
    c->nsyms = mark;
    return true;
}

bool script_tir_block_stmt(TirCtx *c, const PyStmt *s, Stmt *block)
{
    if (s->kind == PYS_EXPR)
        return block_expr_stmt(c, s->u.expr, block);
    if (s->kind == PYS_ASSIGN)
        return block_assign(c, s, block);
    if (s->kind == PYS_WITH)
        return block_with(c, s, block);
    return false;
}

/* block -> 'with' T.block(['name']) ':' body */
Stmt *script_tir_block(TirCtx *c, const PyStmt *with)
{
    const PyExpr *call = with->u.with.items[0];
    const char *name = "";
    if (call->u.call.nargs > 1 || (call->u.call.nargs == 1 && call->u.call.args[0]->kind != PY_STR))
        script_tir_fail(c, call->span, "T.block takes an optional name string");
    if (call->u.call.nargs == 1)
        name = call->u.call.args[0]->u.str;
    for (int i = 0; i < call->u.call.nkw; i++) {
        const PyExpr *v = call->u.call.kw_values[i];
        if (strcmp(call->u.call.kw_names[i], "name_hint") != 0 || v->kind != PY_STR)
            script_tir_fail(c, call->u.call.kw_spans[i], "unsupported T.block keyword");
        name = v->u.str;
    }
    if (with->u.with.as_targets && with->u.with.as_targets[0])
        script_tir_fail(c, with->u.with.as_targets[0]->span, "T.block takes no `as` target");
    Stmt *block = stmt_new(STMT_BLOCK, with->span);
    block->u.block.name = name;
    int mark = c->nsyms;
    block->u.block.body = script_tir_body(c, &with->u.with.body, 0, block);
    c->nsyms = mark;
    return block;
}
