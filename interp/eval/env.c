/* env: activation environments keyed by variable identity, and the cached free-variable
 * analysis of Functions. SPEC_NOTES: "Evaluation" (E-2, E-9, E-13). */
#include "interp/eval/env.h"

#include <stdint.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/ptrmap.h"
#include "interp/eval/interp.h"

static void map_init(EnvMap *m, int hint)
{
    /* Room for `hint` keys below the 3/4 load that map_insert grows at. */
    uint32_t cap = 8;
    while (3 * (int64_t)cap < 4 * (int64_t)hint + 4)
        cap *= 2;
    m->slots = MEM_ARRAY(Slot, cap);
    m->cap = cap;
    m->n = 0;
}

static Slot *map_find(const EnvMap *m, const void *key)
{
    if (m->n == 0)
        return NULL;
    for (uint32_t i = ptrmap_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        Slot *s = &m->slots[i];
        if (s->key == key)
            return s;
        if (s->key == NULL)
            return NULL;
    }
}

static Slot *map_insert(EnvMap *m, const void *key);

static void map_grow(EnvMap *m)
{
    Slot *old = m->slots;
    uint32_t oldcap = m->cap;
    m->cap = oldcap ? oldcap * 2 : 8;
    m->slots = MEM_ARRAY(Slot, m->cap);
    m->n = 0;
    for (uint32_t i = 0; i < oldcap; i++) {
        if (old[i].key == NULL)
            continue;
        *map_insert(m, old[i].key) = old[i];
    }
}

/* The slot for key, created empty (key set) when absent. */
static Slot *map_insert(EnvMap *m, const void *key)
{
    if (4 * (m->n + 1) > 3 * m->cap)
        map_grow(m);
    uint32_t i = ptrmap_slot(key, m->cap);
    while (m->slots[i].key != NULL && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    Slot *s = &m->slots[i];
    if (s->key == NULL) {
        s->key = key;
        m->n++;
    }
    return s;
}

static void map_remove(EnvMap *m, const void *key)
{
    Slot *hit = map_find(m, key);
    if (hit == NULL)
        return;
    uint32_t mask = m->cap - 1;
    uint32_t i = (uint32_t)(hit - m->slots);
    uint32_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        Slot *s = &m->slots[j];
        if (s->key == NULL)
            break;
        uint32_t home = ptrmap_slot(s->key, m->cap);
        /* Move s back into the hole unless its home lies cyclically in (i, j]. */
        bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (stays)
            continue;
        m->slots[i] = *s;
        i = j;
    }
    m->slots[i] = (Slot){0};
    m->n--;
}

EnvMap *env_map_new(int capacity_hint)
{
    EnvMap *m = MEM_NEW(EnvMap);
    map_init(m, capacity_hint);
    return m;
}

void env_map_put(EnvMap *m, const void *key, void *val)
{
    map_insert(m, key)->val = val;
}

void *env_map_get(const EnvMap *m, const void *key)
{
    Slot *s = map_find(m, key);
    return s ? s->val : NULL;
}

Env *env_new(int capacity_hint)
{
    return env_new_child(NULL, capacity_hint);
}

Env *env_new_child(const Env *parent, int capacity_hint)
{
    Env *env = MEM_NEW(Env);
    map_init(&env->map, capacity_hint);
    env->parent = parent;
    return env;
}

/* Drops every binding of env's frame (so the frame holds no value alive). A frame of one or
 * two slots (a loop's) is cleared in place; a plain loop compiles to a memset call. */
static void frame_clear(Env *env)
{
    if (env->nframe <= 2) {
        if (env->nframe > 0)
            env->frame[0] = (FrameSlot){0};
        if (env->nframe > 1)
            env->frame[1] = (FrameSlot){0};
    } else {
        memset(env->frame, 0, sizeof(FrameSlot) * (size_t)env->nframe);
    }
    env->nframe = 0;
    env->owner = NULL;
}

void env_use_frame(Env *env, const Function *fn, int nslots)
{
    frame_clear(env);
    if (nslots > env->capframe) {
        env->frame = MEM_ARRAY(FrameSlot, nslots);
        env->capframe = nslots;
    }
    env->owner = fn;
    env->nframe = nslots;
}

void env_reset(Env *env, const Env *parent, int capacity_hint, const Function *fn, int nslots)
{
    if (4 * (int64_t)capacity_hint + 4 > 3 * (int64_t)env->map.cap)
        map_init(&env->map, capacity_hint);
    else if (env->map.n > 0)
        memset(env->map.slots, 0, sizeof(Slot) * env->map.cap);
    env->map.n = 0;
    env_use_frame(env, fn, nslots);
    env->parent = parent;
    env->nlog = 0;
}

/* At most this many spare activations, each of at most this many slots: enough for the
 * calls of a loop or a recursion to find one, without holding large tables. */
#define POOL_SPARES 32
#define POOL_MAX_SLOTS 64

struct EnvPool {
    Env *spare[POOL_SPARES];
    int n;
};

EnvPool *env_pool_new(void)
{
    return MEM_NEW(EnvPool);
}

Env *env_pool_take(EnvPool *pool, const Env *parent, int capacity_hint)
{
    if (pool->n == 0)
        return env_new_child(parent, capacity_hint);
    Env *env = pool->spare[--pool->n];
    pool->spare[pool->n] = NULL;
    if (4 * (int64_t)capacity_hint + 4 > 3 * (int64_t)env->map.cap)
        map_init(&env->map, capacity_hint);
    env->parent = parent;
    return env;
}

void env_pool_give(EnvPool *pool, Env *env)
{
    if (pool->n == POOL_SPARES || env->map.cap > POOL_MAX_SLOTS || env->capframe > POOL_MAX_SLOTS)
        return;
    if (env->map.n > 0)
        memset(env->map.slots, 0, sizeof(Slot) * env->map.cap);
    env->map.n = 0;
    frame_clear(env);
    env->parent = NULL;
    if (env->nlog > 0)
        memset(env->log, 0, sizeof(*env->log) * (size_t)env->nlog);
    env->nlog = 0;
    pool->spare[pool->n++] = env;
}

void env_bind_slow(Env *env, const Var *var, Value *v)
{
    Slot *s = map_insert(&env->map, var);
    s->val = v;
    s->is_shape = false;
}

Value *env_lookup_slow(const Env *env, const Var *var)
{
    for (; env != NULL; env = env->parent) {
        const FrameSlot *f = env_frame_slot(env, var);
        if (f != NULL && f->key == var && f->val != NULL)
            return f->val;
        Slot *s = map_find(&env->map, var);
        if (s != NULL)
            return s->val;
    }
    return NULL;
}

void env_unbind(Env *env, const Var *var)
{
    FrameSlot *f = env_frame_slot(env, var);
    if (f != NULL && f->key == var)
        *f = (FrameSlot){0};
    map_remove(&env->map, var);
}

void env_bind_shape(Env *env, const TirVar *var, int64_t v)
{
    Slot *s = map_insert(&env->map, var);
    s->shape = v;
    s->is_shape = true;
    VEC_PUSH(env->log, env->nlog, env->caplog, var);
}

bool env_lookup_shape(const Env *env, const TirVar *var, int64_t *out)
{
    for (; env != NULL; env = env->parent) {
        Slot *s = map_find(&env->map, var);
        if (s != NULL) {
            *out = s->shape;
            return true;
        }
    }
    return false;
}

void env_unbind_shape(Env *env, const TirVar *var)
{
    map_remove(&env->map, var);
}

void env_shape_pop(Env *env, int mark)
{
    while (env->nlog > mark) {
        env->nlog--;
        map_remove(&env->map, env->log[env->nlog]);
        env->log[env->nlog] = NULL;
    }
}

void env_each_shape(const Env *env, void (*fn)(void *ctx, const TirVar *var, int64_t v), void *ctx)
{
    for (; env != NULL; env = env->parent) {
        for (uint32_t i = 0; i < env->map.cap; i++) {
            const Slot *s = &env->map.slots[i];
            if (s->key != NULL && s->is_shape)
                fn(ctx, s->key, s->shape);
        }
    }
}

/* ---- Free-variable analysis of Functions (E-9) ---- */

typedef struct Walk {
    EnvMap *used;  /* Relax Vars referenced */
    EnvMap *bound; /* Relax Vars bound inside */
    EnvMap *shape_seen;
    const TirVar **shape_vars;
    int nshape;
    int capshape;
    const Var **used_order; /* first-use order, for deterministic captures */
    int nused;
    int capused;
} Walk;

static void walk_expr(Walk *w, const Expr *e);
static void walk_sinfo(Walk *w, const StructInfo *s);

static void walk_prim(Walk *w, const PrimExpr *p)
{
    if (p == NULL)
        return;
    switch (p->kind) {
    case PE_INT:
    case PE_FLOAT:
        return;
    case PE_VAR:
        if (env_map_get(w->shape_seen, p->u.var) == NULL) {
            env_map_put(w->shape_seen, p->u.var, (void *)p->u.var);
            VEC_PUSH(w->shape_vars, w->nshape, w->capshape, p->u.var);
        }
        return;
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
        walk_prim(w, p->u.bin.a);
        walk_prim(w, p->u.bin.b);
        return;
    case PE_NOT:
    case PE_CAST:
        walk_prim(w, p->u.operand);
        return;
    case PE_SELECT:
        walk_prim(w, p->u.select.cond);
        walk_prim(w, p->u.select.then_value);
        walk_prim(w, p->u.select.else_value);
        return;
    case PE_LOAD:
        for (int i = 0; i < p->u.load.nindices; i++)
            walk_prim(w, p->u.load.indices[i]);
        return;
    case PE_CALL:
        for (int i = 0; i < p->u.call.nargs; i++)
            walk_prim(w, p->u.call.args[i]);
        return;
    }
}

static void walk_use(Walk *w, const Var *v)
{
    if (env_map_get(w->used, v) != NULL)
        return;
    env_map_put(w->used, v, (void *)v);
    VEC_PUSH(w->used_order, w->nused, w->capused, v);
}

static void walk_sinfo(Walk *w, const StructInfo *s)
{
    if (s == NULL)
        return;
    switch (s->kind) {
    case SINFO_OBJECT:
        return;
    case SINFO_PRIM:
        walk_prim(w, s->u.prim.value);
        return;
    case SINFO_SHAPE:
        for (int i = 0; s->u.shape.values && i < s->u.shape.ndim; i++)
            walk_prim(w, s->u.shape.values[i]);
        return;
    case SINFO_TENSOR:
        if (s->u.tensor.shape != NULL)
            walk_expr(w, s->u.tensor.shape);
        return;
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++)
            walk_sinfo(w, s->u.tuple.fields[i]);
        return;
    case SINFO_FUNC:
        for (int i = 0; s->u.func.has_params && i < s->u.func.nparams; i++)
            walk_sinfo(w, s->u.func.params[i]);
        walk_sinfo(w, s->u.func.ret);
        return;
    case SINFO_DTENSOR:
        walk_sinfo(w, s->u.dtensor.tensor);
        return;
    }
}

static void walk_attrs(Walk *w, const Attrs *a);

static void walk_attr(Walk *w, const AttrValue *v)
{
    if (v == NULL)
        return;
    if (v->kind == ATTR_EXPR)
        walk_expr(w, v->u.expr);
    else if (v->kind == ATTR_LIST)
        for (int i = 0; i < v->u.list.n; i++)
            walk_attr(w, v->u.list.items[i]);
    else if (v->kind == ATTR_DICT)
        walk_attrs(w, v->u.dict);
}

static void walk_attrs(Walk *w, const Attrs *a)
{
    for (int i = 0; a != NULL && i < a->n; i++)
        walk_attr(w, a->values[i]);
}

static void walk_function(Walk *w, const Function *f)
{
    for (int i = 0; i < f->nparams; i++) {
        env_map_put(w->bound, f->params[i], (void *)f->params[i]);
        walk_sinfo(w, f->params[i]->annotation);
    }
    walk_sinfo(w, f->ret);
    walk_expr(w, f->body);
}

static void walk_seq(Walk *w, const Expr *e)
{
    for (int b = 0; b < e->u.seq.nblocks; b++) {
        const BindingBlock *blk = e->u.seq.blocks[b];
        for (int i = 0; i < blk->n; i++) {
            const Binding *bd = blk->bindings[i];
            walk_expr(w, bd->value);
            walk_sinfo(w, bd->struct_info);
            if (bd->var != NULL)
                env_map_put(w->bound, bd->var, bd->var);
        }
    }
    walk_expr(w, e->u.seq.body);
}

static void walk_expr(Walk *w, const Expr *e)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_GLOBAL_VAR:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return;
    case EXPR_VAR:
        walk_use(w, e->u.var);
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            walk_expr(w, e->u.tuple.fields[i]);
        return;
    case EXPR_SEQ:
        walk_seq(w, e);
        return;
    case EXPR_PRIM_VALUE:
        walk_prim(w, e->u.prim);
        return;
    case EXPR_FUNCTION:
        walk_function(w, e->u.func);
        return;
    case EXPR_IF:
        walk_expr(w, e->u.if_.cond);
        walk_expr(w, e->u.if_.then_branch);
        walk_expr(w, e->u.if_.else_branch);
        return;
    case EXPR_CALL:
        walk_expr(w, e->u.call.op);
        for (int i = 0; i < e->u.call.nargs; i++)
            walk_expr(w, e->u.call.args[i]);
        for (int i = 0; i < e->u.call.nsinfo_args; i++)
            walk_sinfo(w, e->u.call.sinfo_args[i]);
        walk_attrs(w, e->u.call.attrs);
        return;
    case EXPR_SHAPE:
        for (int i = 0; i < e->u.shape.n; i++)
            walk_prim(w, e->u.shape.values[i]);
        return;
    case EXPR_TUPLE_GET_ITEM:
        walk_expr(w, e->u.get_item.tuple);
        return;
    }
}

/* ---- The resolution pass ---- */

/* Gives var the next slot of f's frames, unless a function already holds it (a variable
 * is bound in one function; one shared by two keeps its first slot and goes through the
 * map in the other, which is only slower). */
static void resolve_var(Var *var, const Function *f, int *nslots)
{
    if (var == NULL || var->slot_owner != NULL)
        return;
    var->slot_owner = f;
    var->slot = (*nslots)++;
}

/* Every variable a binding of e binds, nested SeqExprs included; a nested Function's
 * variables are its own frames' (resolved when it is first analyzed). */
static void resolve_expr(const Expr *e, const Function *f, int *nslots)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_FUNCTION:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            resolve_expr(e->u.tuple.fields[i], f, nslots);
        return;
    case EXPR_SEQ:
        for (int b = 0; b < e->u.seq.nblocks; b++) {
            const BindingBlock *blk = e->u.seq.blocks[b];
            for (int i = 0; i < blk->n; i++) {
                resolve_expr(blk->bindings[i]->value, f, nslots);
                resolve_var(blk->bindings[i]->var, f, nslots);
            }
        }
        resolve_expr(e->u.seq.body, f, nslots);
        return;
    case EXPR_IF:
        resolve_expr(e->u.if_.cond, f, nslots);
        resolve_expr(e->u.if_.then_branch, f, nslots);
        resolve_expr(e->u.if_.else_branch, f, nslots);
        return;
    case EXPR_CALL:
        resolve_expr(e->u.call.op, f, nslots);
        for (int i = 0; i < e->u.call.nargs; i++)
            resolve_expr(e->u.call.args[i], f, nslots);
        return;
    case EXPR_TUPLE_GET_ITEM:
        resolve_expr(e->u.get_item.tuple, f, nslots);
        return;
    }
}

/* The number of slots f's frames have. */
static int resolve_function(const Function *f)
{
    int nslots = 0;
    for (int i = 0; i < f->nparams; i++)
        resolve_var(f->params[i], f, &nslots);
    resolve_expr(f->body, f, &nslots);
    return nslots;
}

static FuncInfo *analyze(const Function *f)
{
    Walk w = {0};
    w.used = env_map_new(16);
    w.bound = env_map_new(16);
    w.shape_seen = env_map_new(8);
    walk_function(&w, f);
    FuncInfo *info = MEM_NEW(FuncInfo);
    info->fn = f;
    int cap = 0;
    for (int i = 0; i < w.nused; i++) {
        const Var *v = w.used_order[i];
        /* E-9: DataflowVars are never captured. */
        if (v->is_dataflow || env_map_get(w.bound, v) != NULL)
            continue;
        VEC_PUSH(info->free_vars, info->nfree_vars, cap, v);
    }
    info->shape_vars = w.shape_vars;
    info->nshape_vars = w.nshape;
    info->nlocals = (int)w.bound->n + w.nshape;
    info->nslots = resolve_function(f);
    Walk r = {0};
    r.used = env_map_new(4);
    r.shape_seen = env_map_new(4);
    walk_sinfo(&r, f->ret);
    info->ret_shape_vars = r.shape_vars;
    info->nret_shape_vars = r.nshape;
    return info;
}

struct FuncInfoTable *env_func_table_new(void)
{
    struct FuncInfoTable *t = MEM_NEW(struct FuncInfoTable);
    t->infos = env_map_new(16);
    return t;
}

const FuncInfo *env_func_info_find(struct FuncInfoTable *t, const Function *f)
{
    FuncInfo *info = env_map_get(t->infos, f);
    if (info == NULL) {
        info = analyze(f);
        env_map_put(t->infos, f, info);
    }
    t->last = f;
    t->last_info = info;
    return info;
}
