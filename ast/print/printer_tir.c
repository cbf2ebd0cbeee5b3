/* printer_tir: PrimFuncs in the canonical TIR form (buffers, loops, blocks, stores).
 * SPEC_NOTES: "Canonical printing" (TVMSCRIPT.md §11). */
#include <string.h>

#include "ast/print/literal.h"
#include "ast/print/printer_internal.h"

static bool is_return(const PrimExpr *e)
{
    return e->kind == PE_CALL && strcmp(e->u.call.name, "tir.ret") == 0 && e->u.call.nargs == 1;
}

static void print_stmt(Printer *p, const Stmt *s);

static bool prim_uses_var(const PrimExpr *e, const TirVar *v)
{
    if (e == NULL)
        return false;
    switch (e->kind) {
    case PE_INT:
    case PE_FLOAT:
        return false;
    case PE_VAR:
        return e->u.var == v;
    case PE_NOT:
    case PE_CAST:
        return prim_uses_var(e->u.operand, v);
    case PE_SELECT:
        return prim_uses_var(e->u.select.cond, v) || prim_uses_var(e->u.select.then_value, v) ||
               prim_uses_var(e->u.select.else_value, v);
    case PE_LOAD:
        for (int i = 0; i < e->u.load.nindices; i++)
            if (prim_uses_var(e->u.load.indices[i], v))
                return true;
        return false;
    case PE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            if (prim_uses_var(e->u.call.args[i], v))
                return true;
        return false;
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
        return prim_uses_var(e->u.bin.a, v) || prim_uses_var(e->u.bin.b, v);
    }
    return false;
}

static const char *prim_str(Printer *p, const PrimExpr *e)
{
    StrBuf sb;
    strbuf_init(&sb);
    printer_emit_prim(p, &sb, e);
    return strbuf_str(&sb);
}

static bool is_zero(const PrimExpr *e)
{
    return e == NULL || (e->kind == PE_INT && e->u.int_value == 0);
}

/* min + extent, folded when both are literals. */
static PrimExpr *range_end(const PrimExpr *min, const PrimExpr *extent)
{
    if (min->kind == PE_INT && extent->kind == PE_INT)
        return primexpr_int(min->u.int_value + extent->u.int_value, min->dtype, span_none());
    return primexpr_binary(PE_ADD, (PrimExpr *)min, (PrimExpr *)extent, span_none());
}

static void emit_range_args(Printer *p, StrBuf *sb, const PrimExpr *min, const PrimExpr *extent)
{
    if (!is_zero(min)) {
        printer_emit_prim(p, sb, min);
        strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, range_end(min, extent));
        return;
    }
    printer_emit_prim(p, sb, extent);
}

static void emit_shape(Printer *p, StrBuf *sb, PrimExpr *const *dims, int n)
{
    strbuf_addc(sb, '(');
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, dims[i]);
    }
    strbuf_add(sb, n == 1 ? ",)" : ")");
}

/* `(shape), "dtype"[, scope="..."][, axis_separators=[...]]`: the arguments of T.Buffer,
 * match_buffer, alloc_buffer, in TVM's keyword order. */
static void emit_buffer_args(Printer *p, StrBuf *sb, const Buffer *b)
{
    emit_shape(p, sb, b->shape, b->ndim);
    strbuf_addf(sb, ", \"%s\"", dtype_str(b->dtype));
    if (b->scope != NULL && strcmp(b->scope, "global") != 0) {
        strbuf_add(sb, ", scope=");
        literal_add_string(sb, b->scope);
    }
    if (b->naxis_separators == 0)
        return;
    strbuf_add(sb, ", axis_separators=[");
    for (int i = 0; i < b->naxis_separators; i++)
        strbuf_addf(sb, i > 0 ? ", %lld" : "%lld", (long long)b->axis_separators[i]);
    strbuf_addc(sb, ']');
}

static void push_loop(Printer *p, const TirVar *var, const PrimExpr *extent)
{
    LoopFrame f = {var, extent};
    VEC_PUSH(p->loops, p->nloops, p->caploops, f);
}

/* A run of serial loops from 0, each directly nesting the next, prints as one T.grid. */
static int grid_depth(const Stmt *s)
{
    int depth = 0;
    const Stmt *cur = s;
    while (cur->kind == STMT_FOR && cur->u.for_.kind == FOR_SERIAL && is_zero(cur->u.for_.min)) {
        for (const Stmt *outer = s; outer != cur; outer = outer->u.for_.body)
            if (prim_uses_var(cur->u.for_.extent, outer->u.for_.var))
                return depth;
        depth++;
        cur = cur->u.for_.body;
    }
    return depth;
}

static const char *loop_kind_fn(ForKind kind)
{
    switch (kind) {
    case FOR_SERIAL:
        return "range";
    case FOR_PARALLEL:
        return "T.parallel";
    case FOR_VECTORIZED:
        return "T.vectorized";
    case FOR_UNROLLED:
        return "T.unroll";
    case FOR_THREAD_BINDING:
        return "T.thread_binding";
    }
    return "range";
}

static void print_for(Printer *p, const Stmt *s)
{
    int depth = grid_depth(s);
    int saved = p->nloops;
    printer_line_start(p);
    if (depth >= 2) {
        StrBuf vars, exts;
        strbuf_init(&vars);
        strbuf_init(&exts);
        for (int i = 0; i < depth; i++, s = s->u.for_.body) {
            const char *sep = i > 0 ? ", " : "";
            strbuf_addf(&vars, "%s%s", sep, printer_tirvar_name(p, s->u.for_.var));
            strbuf_add(&exts, sep);
            printer_emit_prim(p, &exts, s->u.for_.extent);
            push_loop(p, s->u.for_.var, s->u.for_.extent);
        }
        strbuf_addf(&p->out, "for %s in T.grid(%s):\n", strbuf_str(&vars), strbuf_str(&exts));
    } else {
        strbuf_addf(&p->out, "for %s in %s(", printer_tirvar_name(p, s->u.for_.var),
                    loop_kind_fn(s->u.for_.kind));
        emit_range_args(p, &p->out, s->u.for_.min, s->u.for_.extent);
        if (s->u.for_.kind == FOR_THREAD_BINDING) {
            strbuf_add(&p->out, ", thread=");
            literal_add_string(&p->out, s->u.for_.thread);
        }
        strbuf_add(&p->out, "):\n");
        if (is_zero(s->u.for_.min))
            push_loop(p, s->u.for_.var, s->u.for_.extent);
        s = s->u.for_.body;
    }
    p->indent++;
    print_stmt(p, s);
    p->indent--;
    p->nloops = saved;
}

static const PrimExpr *loop_extent(const Printer *p, const TirVar *v)
{
    for (int i = p->nloops - 1; i >= 0; i--)
        if (p->loops[i].var == v)
            return p->loops[i].extent;
    return NULL;
}

/* T.axis.remap applies when every iter is bound to a distinct enclosing loop variable over
 * that loop's whole range. */
static bool iters_remappable(Printer *p, IterVar *const *iters, int n)
{
    for (int i = 0; i < n; i++) {
        const IterVar *it = iters[i];
        if (it->binding == NULL || it->binding->kind != PE_VAR || !is_zero(it->dom_min))
            return false;
        const PrimExpr *ext = loop_extent(p, it->binding->u.var);
        if (ext == NULL || strcmp(prim_str(p, ext), prim_str(p, it->extent)) != 0)
            return false;
        for (int j = 0; j < i; j++)
            if (iters[j]->binding->u.var == it->binding->u.var)
                return false;
    }
    return n > 0;
}

static void print_iters(Printer *p, IterVar *const *iters, int n)
{
    if (iters_remappable(p, iters, n)) {
        StrBuf lhs, kinds, rhs;
        strbuf_init(&lhs);
        strbuf_init(&kinds);
        strbuf_init(&rhs);
        for (int i = 0; i < n; i++) {
            const char *sep = i > 0 ? ", " : "";
            strbuf_addf(&lhs, "%s%s", sep, printer_tirvar_name(p, iters[i]->var));
            strbuf_addc(&kinds, iters[i]->kind == ITER_SPATIAL ? 'S' : 'R');
            strbuf_addf(&rhs, "%s%s", sep, printer_tirvar_name(p, iters[i]->binding->u.var));
        }
        printer_line_start(p);
        strbuf_addf(&p->out, "%s = T.axis.remap(\"%s\", [%s])\n", strbuf_str(&lhs),
                    strbuf_str(&kinds), strbuf_str(&rhs));
        return;
    }
    for (int i = 0; i < n; i++) {
        const IterVar *it = iters[i];
        printer_line_start(p);
        strbuf_addf(&p->out, "%s = T.axis.%s(", printer_tirvar_name(p, it->var),
                    it->kind == ITER_SPATIAL ? "spatial" : "reduce");
        if (is_zero(it->dom_min)) {
            printer_emit_prim(p, &p->out, it->extent);
        } else {
            strbuf_addc(&p->out, '(');
            emit_range_args(p, &p->out, it->dom_min, it->extent);
            strbuf_addc(&p->out, ')');
        }
        if (it->binding != NULL) {
            strbuf_add(&p->out, ", ");
            printer_emit_prim(p, &p->out, it->binding);
        }
        strbuf_add(&p->out, ")\n");
    }
}

static void emit_region(Printer *p, StrBuf *sb, const BufferRegion *r)
{
    strbuf_addf(sb, "%s[", printer_buffer_name(p, r->buffer));
    if (r->n == 0) /* a 0-d buffer's region: B[()], as TVM writes it */
        strbuf_add(sb, "()");
    for (int i = 0; i < r->n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        const PrimExpr *ext = r->extents[i];
        printer_emit_prim(p, sb, r->mins[i]);
        if (ext != NULL && !(ext->kind == PE_INT && ext->u.int_value == 1)) {
            strbuf_addc(sb, ':');
            printer_emit_prim(p, sb, range_end(r->mins[i], ext));
        }
    }
    strbuf_addc(sb, ']');
}

static void print_regions(Printer *p, const char *fn, BufferRegion *const *rs, int n)
{
    printer_line_start(p);
    strbuf_addf(&p->out, "T.%s(", fn);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(&p->out, ", ");
        emit_region(p, &p->out, rs[i]);
    }
    strbuf_add(&p->out, ")\n");
}

static void print_alloc_line(Printer *p, const Buffer *b)
{
    printer_line_start(p);
    strbuf_addf(&p->out, "%s = T.alloc_buffer(", printer_buffer_name(p, b));
    emit_buffer_args(p, &p->out, b);
    strbuf_add(&p->out, ")\n");
}

static void print_block(Printer *p, const Stmt *s)
{
    printer_line_start(p);
    const char *name = s->u.block.name;
    strbuf_add(&p->out, "with T.block(");
    if (name != NULL && name[0] != '\0')
        literal_add_string(&p->out, name);
    strbuf_add(&p->out, "):\n");
    p->indent++;
    print_iters(p, s->u.block.iters, s->u.block.niters);
    if (s->u.block.predicate != NULL) {
        printer_line_start(p);
        strbuf_add(&p->out, "T.where(");
        printer_emit_prim(p, &p->out, s->u.block.predicate);
        strbuf_add(&p->out, ")\n");
    }
    if (s->u.block.has_reads)
        print_regions(p, "reads", s->u.block.reads, s->u.block.nreads);
    if (s->u.block.has_writes)
        print_regions(p, "writes", s->u.block.writes, s->u.block.nwrites);
    if (s->u.block.annotations->n > 0) {
        printer_line_start(p);
        strbuf_add(&p->out, "T.block_attr(");
        printer_emit_dict(p, &p->out, s->u.block.annotations, true);
        strbuf_add(&p->out, ")\n");
    }
    for (int i = 0; i < s->u.block.nallocs; i++)
        print_alloc_line(p, s->u.block.allocs[i]);
    if (s->u.block.init != NULL) {
        printer_line(p, "with T.init():");
        p->indent++;
        print_stmt(p, s->u.block.init);
        p->indent--;
    }
    print_stmt(p, s->u.block.body);
    p->indent--;
}

static void print_store(Printer *p, const Stmt *s)
{
    printer_line_start(p);
    strbuf_addf(&p->out, "%s[", printer_buffer_name(p, s->u.store.buffer));
    if (s->u.store.nindices == 0)
        strbuf_add(&p->out, "()");
    for (int i = 0; i < s->u.store.nindices; i++) {
        if (i > 0)
            strbuf_add(&p->out, ", ");
        printer_emit_prim(p, &p->out, s->u.store.indices[i]);
    }
    strbuf_add(&p->out, "] = ");
    printer_emit_prim(p, &p->out, s->u.store.value);
    strbuf_addc(&p->out, '\n');
}

static void print_if(Printer *p, const Stmt *s)
{
    printer_line_start(p);
    strbuf_add(&p->out, "if ");
    printer_emit_prim(p, &p->out, s->u.if_.cond);
    strbuf_add(&p->out, ":\n");
    p->indent++;
    print_stmt(p, s->u.if_.then_stmt);
    p->indent--;
    if (s->u.if_.else_stmt == NULL)
        return;
    printer_line(p, "else:");
    p->indent++;
    print_stmt(p, s->u.if_.else_stmt);
    p->indent--;
}

static void print_stmt_in(Printer *p, const Stmt *s);
static void print_stmt(Printer *p, const Stmt *s);

static void print_while(Printer *p, const Stmt *s)
{
    printer_line_start(p);
    strbuf_add(&p->out, "while ");
    printer_emit_prim(p, &p->out, s->u.while_.cond);
    strbuf_add(&p->out, ":\n");
    p->indent++;
    print_stmt(p, s->u.while_.body);
    p->indent--;
}

/* Variables and buffers a statement defines are out of scope after it, so siblings may
 * reuse their names. */
static void print_stmt(Printer *p, const Stmt *s)
{
    NameMark mark = names_mark(p->names);
    print_stmt_in(p, s);
    if (s != NULL && s->kind != STMT_SEQ && s->kind != STMT_LET && s->kind != STMT_ALLOC)
        names_release(p->names, mark);
}

static void print_stmt_in(Printer *p, const Stmt *s)
{
    if (s == NULL) {
        printer_line(p, "T.evaluate(0)");
        return;
    }
    switch (s->kind) {
    case STMT_SEQ:
        for (int i = 0; i < s->u.seq.n; i++)
            print_stmt(p, s->u.seq.stmts[i]);
        if (s->u.seq.n == 0)
            printer_line(p, "T.evaluate(0)");
        return;
    case STMT_FOR:
        print_for(p, s);
        return;
    case STMT_BLOCK:
        print_block(p, s);
        return;
    case STMT_STORE:
        print_store(p, s);
        return;
    case STMT_LET:
        printer_line_start(p);
        strbuf_addf(&p->out, "%s: T.%s = ", printer_tirvar_name(p, s->u.let.var),
                    dtype_str(s->u.let.var->dtype));
        printer_emit_prim(p, &p->out, s->u.let.value);
        strbuf_addc(&p->out, '\n');
        print_stmt(p, s->u.let.body);
        return;
    case STMT_IF:
        print_if(p, s);
        return;
    case STMT_WHILE:
        print_while(p, s);
        return;
    case STMT_EVALUATE:
        printer_line_start(p);
        if (is_return(s->u.evaluate)) {
            /* The parser reads `return e` as an Evaluate of the tir.ret intrinsic. */
            strbuf_add(&p->out, "return ");
            printer_emit_prim(p, &p->out, s->u.evaluate->u.call.args[0]);
            strbuf_addc(&p->out, '\n');
            return;
        }
        strbuf_add(&p->out, "T.evaluate(");
        printer_emit_prim(p, &p->out, s->u.evaluate);
        strbuf_add(&p->out, ")\n");
        return;
    case STMT_ALLOC:
        print_alloc_line(p, s->u.alloc.buffer);
        print_stmt(p, s->u.alloc.body);
        return;
    }
}

/* ---- Signature ---- */

/* A buffer param prints inline as `A: T.Buffer(...)` when its shape is static; otherwise
 * as a handle with a T.match_buffer in the body. */
static bool buffer_inline(const Buffer *b)
{
    for (int i = 0; i < b->ndim; i++)
        if (printer_prim_has_var(b->shape[i]))
            return false;
    return true;
}

static void print_params(Printer *p, const PrimFunc *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const Buffer *b = f->param_buffers ? f->param_buffers[i] : NULL;
        const TirVar *v = f->params[i];
        const char *sep = i > 0 ? ", " : "";
        if (b != NULL && buffer_inline(b)) {
            const char *name = printer_buffer_name(p, b);
            strbuf_addf(&p->out, "%s%s: T.Buffer(", sep, name);
            emit_buffer_args(p, &p->out, b);
            strbuf_addc(&p->out, ')');
        } else {
            const char *ty = b != NULL ? "handle" : dtype_str(v->dtype);
            strbuf_addf(&p->out, "%s%s: T.%s", sep, printer_tirvar_name(p, v), ty);
        }
    }
}

static bool is_param(const PrimFunc *f, const TirVar *v)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i] == v)
            return true;
    return false;
}

static void collect_shape_vars(const PrimExpr *e, const TirVar ***vars, int *n, int *cap)
{
    if (e == NULL)
        return;
    if (e->kind == PE_VAR) {
        for (int i = 0; i < *n; i++)
            if ((*vars)[i] == e->u.var)
                return;
        VEC_PUSH(*vars, *n, *cap, e->u.var);
    } else if (primexpr_is_binary(e->kind)) {
        collect_shape_vars(e->u.bin.a, vars, n, cap);
        collect_shape_vars(e->u.bin.b, vars, n, cap);
    } else if (e->kind == PE_CAST || e->kind == PE_NOT) {
        collect_shape_vars(e->u.operand, vars, n, cap);
    } else if (e->kind == PE_CALL) {
        for (int i = 0; i < e->u.call.nargs; i++)
            collect_shape_vars(e->u.call.args[i], vars, n, cap);
    }
}

/* `m = T.int64()` for the match_buffer shapes' variables, then the match_buffers. */
static void print_match_buffers(Printer *p, const PrimFunc *f)
{
    const TirVar **vars = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < f->nparams; i++) {
        const Buffer *b = f->param_buffers ? f->param_buffers[i] : NULL;
        for (int d = 0; b != NULL && !buffer_inline(b) && d < b->ndim; d++)
            collect_shape_vars(b->shape[d], &vars, &n, &cap);
    }
    for (int i = 0; i < n; i++) {
        if (is_param(f, vars[i]))
            continue;
        printer_line_start(p);
        strbuf_addf(&p->out, "%s = T.%s()\n", printer_tirvar_name(p, vars[i]),
                    dtype_str(vars[i]->dtype));
    }
    for (int i = 0; i < f->nparams; i++) {
        const Buffer *b = f->param_buffers ? f->param_buffers[i] : NULL;
        if (b == NULL || buffer_inline(b))
            continue;
        printer_line_start(p);
        strbuf_addf(&p->out, "%s = T.match_buffer(%s, ", printer_buffer_name(p, b),
                    printer_tirvar_name(p, f->params[i]));
        emit_buffer_args(p, &p->out, b);
        strbuf_add(&p->out, ")\n");
    }
}

/* Every attribute prints, global_symbol included: the TIR reader adds none by itself. */
static void print_prim_attrs(Printer *p, const PrimFunc *f)
{
    if (f->attrs->n == 0)
        return;
    printer_line_start(p);
    strbuf_add(&p->out, "T.func_attr(");
    printer_emit_dict(p, &p->out, f->attrs, true);
    strbuf_add(&p->out, ")\n");
}

void printer_emit_primfunc(Printer *p, const PrimFunc *f, const char *name)
{
    p->names = names_new();
    p->prim_ctx = PRIM_CTX_TIR;
    p->nloops = 0;
    printer_line(p, f->is_private ? "@T.prim_func(private=True)" : "@T.prim_func");
    printer_line_start(p);
    strbuf_addf(&p->out, "def %s(", name);
    print_params(p, f);
    strbuf_addc(&p->out, ')');
    if (!dtype_is_void(f->ret_dtype))
        strbuf_addf(&p->out, " -> T.%s", dtype_str(f->ret_dtype));
    strbuf_add(&p->out, ":\n");
    p->indent++;
    print_prim_attrs(p, f);
    print_match_buffers(p, f);
    print_stmt(p, f->body);
    p->indent--;
    p->prim_ctx = PRIM_CTX_RELAX;
    p->names = NULL;
}
