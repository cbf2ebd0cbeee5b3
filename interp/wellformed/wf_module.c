/* wf_module: the module-level and per-node rules: WF-7 (no recursion and no If in a
 * DataflowBlock, with the call graph among globals), WF-8 (recursive functions are
 * annotated), WF-9 (Op position), WF-12, WF-13 (entry points, global symbols), WF-18
 * (PrimValue), WF-21 (force_pure) and WF-23 (operator normalization rules).
 * SPEC_NOTES: "Well-formedness". */
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/normalize/op_normalize.h"
#include "interp/wellformed/wf_internal.h"

/* ---- the call graph ------------------------------------------------------------------ */

static int graph_index(const WfCallGraph *g, const char *name)
{
    int64_t i;
    return strmap_get(&g->index, name, &i) ? (int)i : -1;
}

/* The references found so far, as (from, to) pairs. */
typedef struct EdgeScan {
    WfCallGraph *g;
    int from;
    int *pairs;
    int n;
    int cap;
} EdgeScan;

/* Any reference to a global counts: a function passed as a value may be called. */
static void scan_refs(const Expr *e, void *arg)
{
    EdgeScan *s = arg;
    if (e->kind == EXPR_GLOBAL_VAR) {
        int to = graph_index(s->g, e->u.gvar->name);
        if (to >= 0) {
            VEC_PUSH(s->pairs, s->n, s->cap, s->from);
            VEC_PUSH(s->pairs, s->n, s->cap, to);
        }
    }
    wf_each_child(e, scan_refs, s);
}

/* The references as adjacency lists (counted, then placed). */
static void place_edges(WfCallGraph *g, const EdgeScan *s)
{
    int m = s->n / 2;
    g->succ_start = MEM_ARRAY(int, g->n + 1);
    g->succ = MEM_ARRAY(int, m + 1);
    for (int k = 0; k < m; k++)
        g->succ_start[s->pairs[2 * k] + 1]++;
    for (int i = 0; i < g->n; i++)
        g->succ_start[i + 1] += g->succ_start[i];
    int *fill = MEM_ARRAY(int, g->n + 1);
    memcpy(fill, g->succ_start, sizeof(int) * (size_t)g->n);
    for (int k = 0; k < m; k++)
        g->succ[fill[s->pairs[2 * k]]++] = s->pairs[2 * k + 1];
}

/* Tarjan's strongly connected components, with a stack of its own rather than recursion (a
 * chain of 100,000 functions is legal): each frame is a function and the next of its
 * references to visit. A function is on a cycle when its component has another member or
 * it references itself. */
static void find_components(WfCallGraph *g)
{
    int n = g->n;
    int *order = MEM_ARRAY(int, n + 1); /* discovery index + 1; 0: not yet visited */
    int *low = MEM_ARRAY(int, n + 1);
    int *next = MEM_ARRAY(int, n + 1); /* the frame's next reference */
    int *frames = MEM_ARRAY(int, n + 1);
    int *stack = MEM_ARRAY(int, n + 1); /* Tarjan's stack of open functions */
    bool *open = MEM_ARRAY(bool, n + 1);
    g->component = MEM_ARRAY(int, n + 1);
    g->on_cycle = MEM_ARRAY(bool, n + 1);
    int counter = 0, ncomponents = 0, nstack = 0;
    for (int root = 0; root < n; root++) {
        if (order[root] != 0)
            continue;
        int nframes = 0;
        frames[nframes++] = root;
        order[root] = low[root] = ++counter;
        next[root] = g->succ_start[root];
        stack[nstack++] = root;
        open[root] = true;
        while (nframes > 0) {
            int v = frames[nframes - 1];
            if (next[v] < g->succ_start[v + 1]) {
                int w = g->succ[next[v]++];
                if (w == v)
                    g->on_cycle[v] = true;
                if (order[w] == 0) {
                    order[w] = low[w] = ++counter;
                    next[w] = g->succ_start[w];
                    stack[nstack++] = w;
                    open[w] = true;
                    frames[nframes++] = w;
                } else if (open[w] && order[w] < low[v]) {
                    low[v] = order[w];
                }
                continue;
            }
            nframes--;
            if (nframes > 0 && low[v] < low[frames[nframes - 1]])
                low[frames[nframes - 1]] = low[v];
            if (low[v] != order[v])
                continue;
            int size = 0, w;
            do {
                w = stack[--nstack];
                open[w] = false;
                g->component[w] = ncomponents;
                size++;
            } while (w != v);
            if (size > 1) {
                for (int k = nstack; k < nstack + size; k++)
                    g->on_cycle[stack[k]] = true;
            }
            ncomponents++;
        }
    }
}

void wf_module_build_graph(WfCtx *ctx)
{
    WfCallGraph *g = &ctx->graph;
    g->funcs = MEM_ARRAY(const ModuleFunc *, ctx->mod->nfuncs + 1);
    for (int i = 0; i < ctx->mod->nfuncs; i++) {
        if (ctx->mod->funcs[i]->kind == MODFUNC_RELAX) {
            strmap_put_first(&g->index, ctx->mod->funcs[i]->gvar->name, g->n);
            g->funcs[g->n++] = ctx->mod->funcs[i];
        }
    }
    EdgeScan s = {g, 0, NULL, 0, 0};
    for (int i = 0; i < g->n; i++) {
        s.from = i;
        scan_refs(g->funcs[i]->u.relax->body, &s);
    }
    place_edges(g, &s);
    find_components(g);
}

/* Whether the function reaches itself by one or more references. */
static bool recursive(const WfCallGraph *g, int i)
{
    return g->on_cycle[i];
}

/* Whether two functions reach each other (the same strongly connected component). */
static bool mutually_reachable(const WfCallGraph *g, int a, int b)
{
    return g->component[a] == g->component[b];
}

/* ---- module-level rules -------------------------------------------------------------- */

static Span module_span(const IRModule *mod)
{
    if (mod->nfuncs > 0)
        return mod->funcs[0]->span;
    return span_make(mod->file, 1, 1);
}

static const Attrs *func_attrs(const ModuleFunc *mf)
{
    if (mf->kind == MODFUNC_RELAX)
        return mf->u.relax->attrs;
    if (mf->kind == MODFUNC_PRIM)
        return mf->u.prim->attrs;
    return NULL;
}

static void check_symbol(WfCtx *ctx, const ModuleFunc *mf)
{
    const Attrs *attrs = func_attrs(mf);
    AttrValue *v = attrs ? attrs_get(attrs, "global_symbol") : NULL;
    if (v == NULL)
        return;
    rule_fired("WF-13");
    if (v->kind != ATTR_STR || strcmp(v->u.s, mf->gvar->name) != 0)
        diag_add(ctx->errors, PHASE_WELLFORMED, "GlobalSymbolMismatch", "WF-13", mf->span,
                 "the global_symbol of '%s' is not its name", mf->gvar->name);
}

static void check_recursion_annotated(WfCtx *ctx, int i)
{
    const ModuleFunc *mf = ctx->graph.funcs[i];
    rule_fired("WF-8");
    if (mf->u.relax->ret == NULL && recursive(&ctx->graph, i))
        diag_add(ctx->errors, PHASE_WELLFORMED, "RecursionNeedsReturnAnnotation", "WF-8", mf->span,
                 "recursive function '%s' has no return annotation", mf->gvar->name);
}

/* A PrimFunc written without private=True is exported as TVM exports it. */
static bool externally_linked(const ModuleFunc *mf)
{
    if (mf->kind == MODFUNC_RELAX)
        return wf_symbol(mf->u.relax->attrs) != NULL;
    if (mf->kind == MODFUNC_PRIM)
        return wf_symbol(mf->u.prim->attrs) != NULL || !mf->u.prim->is_private;
    return false;
}

/* A lone function is checked as a function, not as a module (SPEC_NOTES §4.11, WF-12):
 * it has no module to link into, so the module rules WF-12 and WF-13 do not apply. */
static bool is_lone_function(const IRModule *mod)
{
    return mod->is_lone_function && mod->nfuncs == 1 && mod->funcs[0]->kind == MODFUNC_RELAX;
}

void wf_module_check_globals(WfCtx *ctx)
{
    /* WF-12, WF-13: decided here for a module, and here found not to apply to a lone one. */
    rule_fired("WF-12");
    rule_fired("WF-13");
    bool has_entry = is_lone_function(ctx->mod);
    for (int i = 0; i < ctx->mod->nfuncs && !has_entry; i++) {
        if (externally_linked(ctx->mod->funcs[i]))
            has_entry = true;
    }
    for (int i = 0; i < ctx->mod->nfuncs && !is_lone_function(ctx->mod); i++)
        check_symbol(ctx, ctx->mod->funcs[i]);
    if (!has_entry)
        diag_add(ctx->errors, PHASE_WELLFORMED, "NoEntryPoint", "WF-12", module_span(ctx->mod),
                 "no function of the module is externally linked (has a global_symbol)");
    for (int i = 0; i < ctx->graph.n; i++)
        check_recursion_annotated(ctx, i);
}

/* ---- per-function and per-node rules ------------------------------------------------- */

static bool uses_var(const Expr *e, const Var *v);

typedef struct VarSearch {
    const Var *v;
    bool found;
} VarSearch;

static void search_var(const Expr *e, void *arg)
{
    VarSearch *s = arg;
    if (s->found)
        return;
    if (e->kind == EXPR_VAR && e->u.var == s->v) {
        s->found = true;
        return;
    }
    wf_each_child(e, search_var, s);
}

static bool uses_var(const Expr *e, const Var *v)
{
    VarSearch s = {v, false};
    search_var(e, &s);
    return s.found;
}

static bool attr_true(const AttrValue *v)
{
    if (v == NULL)
        return false;
    return (v->kind == ATTR_BOOL && v->u.b) || (v->kind == ATTR_INT && v->u.i != 0);
}

void wf_module_check_function(WfCtx *ctx, const Function *f, const Var *self)
{
    rule_fired("WF-21");
    if (self != NULL)
        rule_fired("WF-8");
    if (attr_true(attrs_get(f->attrs, "relax.force_pure")) && !f->is_pure)
        diag_add(ctx->errors, PHASE_WELLFORMED, "ForcePureNotPure", "WF-21", f->span,
                 "a function with relax.force_pure must be pure");
    if (self != NULL && f->ret == NULL && uses_var(f->body, self))
        diag_add(ctx->errors, PHASE_WELLFORMED, "RecursionNeedsReturnAnnotation", "WF-8", f->span,
                 "recursive local function '%s' has no return annotation", self->name);
}

static bool recursive_callee(const WfCtx *ctx, const Expr *op)
{
    if (op->kind == EXPR_VAR)
        return ctx->local_self != NULL && op->u.var == ctx->local_self;
    if (op->kind != EXPR_GLOBAL_VAR || ctx->global_index < 0)
        return false;
    int callee = graph_index(&ctx->graph, op->u.gvar->name);
    if (callee < 0)
        return false;
    int self = ctx->global_index;
    return callee == self || mutually_reachable(&ctx->graph, self, callee);
}

void wf_module_check_call(WfCtx *ctx, const Expr *call)
{
    const Expr *op = call->u.call.op;
    if (ctx->in_dataflow)
        rule_fired("WF-7");
    if (op->kind == EXPR_OP)
        rule_fired("WF-23");
    if (ctx->in_dataflow && recursive_callee(ctx, op))
        diag_add(ctx->errors, PHASE_WELLFORMED, "DataflowRecursion", "WF-7", call->span,
                 "a dataflow block calls a function recursive with the current one");
    if (!op_normalize_conforms(call))
        diag_add(ctx->errors, PHASE_WELLFORMED, "OpNotNormalized", "WF-23", call->span,
                 "the arguments of %s must be a literal tuple", op->u.op_name);
}

void wf_module_check_if(WfCtx *ctx, const Expr *e)
{
    rule_fired("WF-7");
    if (ctx->in_dataflow)
        diag_add(ctx->errors, PHASE_WELLFORMED, "IfInDataflow", "WF-7", e->span,
                 "an If inside a dataflow block");
}

/* WF-18, read as: a scalar (lanes 1) Int, UInt or Float PrimExpr (see SPEC_NOTES 4). */
void wf_module_check_prim_value(WfCtx *ctx, const Expr *e)
{
    rule_fired("WF-18");
    DataType t = e->u.prim->dtype;
    bool numeric = t.code == DT_INT || t.code == DT_UINT || t.code == DT_FLOAT;
    if (!numeric || t.lanes != 1)
        diag_add(ctx->errors, PHASE_WELLFORMED, "PrimValueForm", "WF-18", e->span,
                 "a PrimValue holds a scalar Int, UInt or Float value, not '%s'", dtype_str(t));
}

void wf_module_check_op_position(WfCtx *ctx, const Expr *e)
{
    diag_add(ctx->errors, PHASE_WELLFORMED, "OpPosition", "WF-9", e->span,
             "operator '%s' used as a value; an Op may only be called", e->u.op_name);
}
