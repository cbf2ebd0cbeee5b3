/* normalize: brings a module to normal form (spec "Normal Form", steps 1-6): bodies and If
 * branches wrapped in SeqExprs, nested non-leaves bound to fresh variables in evaluation
 * order, nested SeqExprs flattened, blocks consolidated, operator rules applied.
 * SPEC_NOTES: "Normal form" (NF-*) and the normalization decisions. */
#include "interp/normalize/normalize.h"
#include "interp/wellformed/wellformed.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/ptrmap.h"
#include "ast/rule.h"
#include "interp/normalize/op_normalize.h"

/* The blocks of the SeqExpr being built; bindings go to the last block when it has the
 * right kind, so adjacent blocks of one kind are always consolidated and none is empty. */
typedef struct Builder {
    BindingBlock **blocks;
    int n, cap;
} Builder;

/* Every name in use, so fresh names never shadow: open addressing over the strings, so a
 * program of 100,000 bindings is normalized in linear time. */
typedef struct NameSet {
    const char **slots; /* NULL: empty */
    uint32_t cap;       /* 0 or a power of two */
    uint32_t n;
} NameSet;

typedef struct NormCtx {
    NameSet names;
    int64_t next_suffix[2]; /* per fresh prefix ("lv", "gv"), where its search resumes */
    PtrMap tuples;          /* a variable bound to a literal Tuple -> the tuple's length */
} NormCtx;

static Expr *to_leaf(NormCtx *ctx, Builder *b, const Expr *e, bool df);
static Expr *norm_rhs(NormCtx *ctx, Builder *b, const Expr *e, bool df);
static Expr *norm_body(NormCtx *ctx, const Expr *e);

/* ---- names --------------------------------------------------------------------------- */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static const char **name_slot(const char **slots, uint32_t cap, const char *name)
{
    for (uint32_t i = name_hash(name) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (slots[i] == NULL || strcmp(slots[i], name) == 0)
            return &slots[i];
}

static bool name_used(const NormCtx *ctx, const char *name)
{
    return ctx->names.cap > 0 && *name_slot(ctx->names.slots, ctx->names.cap, name) != NULL;
}

static void use_name(NormCtx *ctx, const char *name)
{
    NameSet *set = &ctx->names;
    if (name == NULL || name_used(ctx, name))
        return;
    if ((set->n + 1) * 2 > set->cap) {
        uint32_t cap = set->cap ? set->cap * 2 : 64;
        const char **slots = MEM_ARRAY(const char *, cap);
        for (uint32_t i = 0; i < set->cap; i++)
            if (set->slots[i] != NULL)
                *name_slot(slots, cap, set->slots[i]) = set->slots[i];
        set->slots = slots;
        set->cap = cap;
    }
    *name_slot(set->slots, set->cap, name) = name;
    set->n++;
}

/* The first of prefix, prefix1, prefix2, ... not in use. Names are never released, so the
 * search resumes where the last one for this prefix ended (the same name as a search from
 * the start, without rescanning every earlier suffix). */
static const char *fresh_name(NormCtx *ctx, const char *prefix)
{
    int64_t *k = &ctx->next_suffix[strcmp(prefix, "lv") == 0 ? 0 : 1];
    const char *name = *k == 0 ? prefix : mem_printf("%s%lld", prefix, (long long)*k);
    while (name_used(ctx, name))
        name = mem_printf("%s%lld", prefix, (long long)++*k);
    use_name(ctx, name);
    return name;
}

static void collect_names(NormCtx *ctx, const Expr *e);

static void collect_function_names(NormCtx *ctx, const Function *f)
{
    for (int i = 0; i < f->nparams; i++)
        use_name(ctx, f->params[i]->name);
    collect_names(ctx, f->body);
}

static void collect_names(NormCtx *ctx, const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            collect_names(ctx, e->u.tuple.fields[i]);
        return;
    case EXPR_SEQ:
        for (int i = 0; i < e->u.seq.nblocks; i++) {
            const BindingBlock *blk = e->u.seq.blocks[i];
            for (int j = 0; j < blk->n; j++) {
                if (blk->bindings[j]->var != NULL)
                    use_name(ctx, blk->bindings[j]->var->name);
                collect_names(ctx, blk->bindings[j]->value);
            }
        }
        collect_names(ctx, e->u.seq.body);
        return;
    case EXPR_FUNCTION:
        collect_function_names(ctx, e->u.func);
        return;
    case EXPR_IF:
        collect_names(ctx, e->u.if_.cond);
        collect_names(ctx, e->u.if_.then_branch);
        collect_names(ctx, e->u.if_.else_branch);
        return;
    case EXPR_CALL:
        collect_names(ctx, e->u.call.op);
        for (int i = 0; i < e->u.call.nargs; i++)
            collect_names(ctx, e->u.call.args[i]);
        return;
    case EXPR_TUPLE_GET_ITEM:
        collect_names(ctx, e->u.get_item.tuple);
        return;
    }
}

/* ---- building blocks ----------------------------------------------------------------- */

static void emit(Builder *b, Binding *binding, bool df)
{
    rule_fired("NF-4");
    if (b->n == 0 || b->blocks[b->n - 1]->is_dataflow != df)
        VEC_PUSH(b->blocks, b->n, b->cap, block_new(df, binding->span));
    block_add(b->blocks[b->n - 1], binding);
}

static void note_tuple(NormCtx *ctx, const Var *v, const Expr *value)
{
    if (v == NULL || value->kind != EXPR_TUPLE)
        return;
    ptrmap_put(&ctx->tuples, v, value->u.tuple.n);
}

static Expr *copy_node(const Expr *e)
{
    Expr *c = MEM_NEW(Expr);
    *c = *e;
    return c;
}

static Expr *bind_fresh(NormCtx *ctx, Builder *b, Expr *value, bool df, Span span)
{
    Var *v = var_new(fresh_name(ctx, df ? "lv" : "gv"), df, NULL, span);
    emit(b, binding_var(v, value, span), df);
    return expr_var(v, span);
}

/* Step 5: a nested SeqExpr's bindings join the current scope. Inside a DataflowBlock every
 * binding stays in a DataflowBlock (an ordinary block there is a malformed program). */
static void flatten_blocks(NormCtx *ctx, Builder *b, const Expr *seq, bool df);

/* ---- the operator rule (step 6) ------------------------------------------------------ */

static int tuple_length(const NormCtx *ctx, const Expr *e)
{
    if (e->sinfo != NULL && e->sinfo->kind == SINFO_TUPLE)
        return e->sinfo->u.tuple.n;
    if (e->kind != EXPR_VAR)
        return -1;
    int64_t len;
    if (ptrmap_get(&ctx->tuples, e->u.var, &len))
        return (int)len;
    const StructInfo *a = e->u.var->annotation;
    return a != NULL && a->kind == SINFO_TUPLE ? a->u.tuple.n : -1;
}

/* A call_tir-family argument that is not a literal Tuple becomes (v[0], v[1], ...), each
 * item bound to a variable (NF-1: a TupleGetItem is not a leaf). */
static void apply_op_rule(NormCtx *ctx, Builder *b, Expr *call, bool df)
{
    rule_fired("NF-5");
    if (call->u.call.op->kind != EXPR_OP)
        return;
    int k = op_normalize_tuple_arg(call->u.call.op->u.op_name);
    if (k < 0 || call->u.call.nargs <= k || call->u.call.args[k]->kind == EXPR_TUPLE)
        return;
    Expr *arg = call->u.call.args[k];
    int n = tuple_length(ctx, arg);
    if (n < 0)
        return;
    Expr **fields = MEM_ARRAY(Expr *, n + 1);
    for (int i = 0; i < n; i++) {
        Expr *item = expr_new(EXPR_TUPLE_GET_ITEM, arg->span);
        item->u.get_item.tuple = arg;
        item->u.get_item.index = i;
        fields[i] = bind_fresh(ctx, b, item, df, arg->span);
    }
    call->u.call.args[k] = expr_tuple(fields, n, arg->span);
}

/* ---- expressions --------------------------------------------------------------------- */

static Expr *norm_tuple(NormCtx *ctx, Builder *b, const Expr *e, bool df)
{
    Expr *t = copy_node(e);
    t->u.tuple.fields = MEM_ARRAY(Expr *, e->u.tuple.n + 1);
    for (int i = 0; i < e->u.tuple.n; i++)
        t->u.tuple.fields[i] = to_leaf(ctx, b, e->u.tuple.fields[i], df);
    return t;
}

/* E-12: the callee first (an Op's is a constant), then the arguments left to right. */
static Expr *norm_call(NormCtx *ctx, Builder *b, const Expr *e, bool df)
{
    Expr *c = copy_node(e);
    c->u.call.op = to_leaf(ctx, b, e->u.call.op, df);
    c->u.call.args = MEM_ARRAY(Expr *, e->u.call.nargs + 1);
    for (int i = 0; i < e->u.call.nargs; i++)
        c->u.call.args[i] = to_leaf(ctx, b, e->u.call.args[i], df);
    apply_op_rule(ctx, b, c, df);
    return c;
}

static Function *norm_function(NormCtx *ctx, const Function *f)
{
    Function *nf = MEM_NEW(Function);
    *nf = *f;
    nf->body = norm_body(ctx, f->body);
    return nf;
}

/* A binding's right-hand side: a leaf, or a non-leaf whose subexpressions are leaves. */
static Expr *norm_rhs(NormCtx *ctx, Builder *b, const Expr *e, bool df)
{
    Expr *r;
    switch (e->kind) {
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_CONSTANT:
    case EXPR_SHAPE:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return copy_node(e);
    case EXPR_TUPLE:
        return norm_tuple(ctx, b, e, df);
    case EXPR_SEQ:
        flatten_blocks(ctx, b, e, df);
        return norm_rhs(ctx, b, e->u.seq.body, df);
    case EXPR_FUNCTION:
        r = copy_node(e);
        r->u.func = norm_function(ctx, e->u.func);
        return r;
    case EXPR_IF:
        r = copy_node(e);
        r->u.if_.cond = to_leaf(ctx, b, e->u.if_.cond, df);
        r->u.if_.then_branch = norm_body(ctx, e->u.if_.then_branch);
        r->u.if_.else_branch = norm_body(ctx, e->u.if_.else_branch);
        return r;
    case EXPR_CALL:
        return norm_call(ctx, b, e, df);
    case EXPR_TUPLE_GET_ITEM:
        r = copy_node(e);
        r->u.get_item.tuple = to_leaf(ctx, b, e->u.get_item.tuple, df);
        return r;
    }
    return copy_node(e); /* not reached: every case of the switch returns */
}

/* Step 3: a nested non-leaf is bound to a fresh variable, depth first, left to right. */
static Expr *to_leaf(NormCtx *ctx, Builder *b, const Expr *e, bool df)
{
    rule_fired("NF-1");
    if (normal_form_is_atom(e))
        return copy_node(e);
    if (e->kind == EXPR_TUPLE)
        return norm_tuple(ctx, b, e, df);
    if (e->kind == EXPR_SEQ) {
        flatten_blocks(ctx, b, e, df);
        return to_leaf(ctx, b, e->u.seq.body, df);
    }
    Expr *value = norm_rhs(ctx, b, e, df);
    return bind_fresh(ctx, b, value, df, e->span);
}

static void norm_binding(NormCtx *ctx, Builder *b, const Binding *binding, bool df)
{
    Binding *nb = MEM_NEW(Binding);
    *nb = *binding;
    nb->value = norm_rhs(ctx, b, binding->value, df);
    if (binding->kind == BIND_VAR)
        note_tuple(ctx, binding->var, nb->value);
    emit(b, nb, df);
}

static void flatten_blocks(NormCtx *ctx, Builder *b, const Expr *seq, bool df)
{
    rule_fired("NF-2");
    for (int i = 0; i < seq->u.seq.nblocks; i++) {
        const BindingBlock *blk = seq->u.seq.blocks[i];
        for (int j = 0; j < blk->n; j++)
            norm_binding(ctx, b, blk->bindings[j], df || blk->is_dataflow);
    }
}

/* Steps 1, 2 and 4: a function body or If branch becomes a SeqExpr whose body is a leaf;
 * a non-leaf body is bound in an ordinary block, after every block of the SeqExpr. */
static Expr *norm_body(NormCtx *ctx, const Expr *e)
{
    rule_fired("NF-3");
    Builder b = {0};
    const Expr *body = e;
    if (e->kind == EXPR_SEQ) {
        flatten_blocks(ctx, &b, e, false);
        body = e->u.seq.body;
    }
    Expr *leaf = to_leaf(ctx, &b, body, false);
    return expr_seq(b.blocks, b.n, leaf, e->span);
}

IRModule *normalize_module(const IRModule *mod)
{
    NormCtx ctx = {0};
    for (int i = 0; i < mod->nfuncs; i++) {
        use_name(&ctx, mod->funcs[i]->gvar->name);
        if (mod->funcs[i]->kind == MODFUNC_RELAX)
            collect_function_names(&ctx, mod->funcs[i]->u.relax);
    }
    IRModule *out = MEM_NEW(IRModule);
    *out = *mod;
    out->funcs = MEM_ARRAY(ModuleFunc *, mod->nfuncs + 1);
    out->cap = mod->nfuncs + 1;
    for (int i = 0; i < mod->nfuncs; i++) {
        ModuleFunc *mf = MEM_NEW(ModuleFunc);
        *mf = *mod->funcs[i];
        if (mf->kind == MODFUNC_RELAX)
            mf->u.relax = norm_function(&ctx, mf->u.relax);
        out->funcs[i] = mf;
    }
    return out;
}
