/* env: the bindings of one activation, keyed by variable identity (never by name), and the
 * per-Function analysis the evaluator caches. SPEC_NOTES: "Evaluation" (E-2, E-9, E-13). */
#ifndef RELAX_INTERP_ENV_H
#define RELAX_INTERP_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/expr.h"
#include "values/value.h"

/* An open-addressing map from Var* (Relax variables) and TirVar* (shape variables) to their
 * values. Removing a key is how a scope ends (E-13.4, DataflowBlock end). */
typedef struct Env Env;

/* The layout is here only for the inline fast paths below; env.c alone reads it otherwise.
 * Open addressing with linear probing; deletion shifts later entries back, so there are no
 * tombstones and a scope that binds and unbinds never degrades the table. */
typedef struct Slot {
    const void *key;
    union {
        void *val;     /* a Relax variable's value, an EnvMap's entry */
        int64_t shape; /* a shape variable's value */
    };
    bool is_shape;
} Slot;

struct EnvMap {
    Slot *slots;
    uint32_t cap; /* a power of two */
    uint32_t n;
};

/* A resolved variable's place in a frame: the variable (a slot may serve another variable
 * only while its own is unbound, so a hit is checked by identity) and its value. */
typedef struct FrameSlot {
    const Var *key;
    Value *val;
} FrameSlot;

struct Env {
    struct EnvMap map;
    const Env *parent;
    const void *owner; /* the Function whose resolved variables `frame` holds, or NULL */
    FrameSlot *frame;
    int nframe; /* the slots of owner's frame */
    int capframe;
    const TirVar **log; /* shape variables in binding order, for scope ends */
    int nlog;
    int caplog;
};

Env *env_new(int capacity_hint);
/* The general paths of env_bind and env_lookup: the map, the parents. */
void env_bind_slow(Env *env, const Var *var, Value *v);
Value *env_lookup_slow(const Env *env, const Var *var);
void env_unbind(Env *env, const Var *var);

/* var's slot in env's frame, or NULL when var was resolved to no slot of it. */
static inline FrameSlot *env_frame_slot(const Env *env, const Var *var)
{
    if (env->owner == NULL || var->slot_owner != env->owner || var->slot >= env->nframe)
        return NULL;
    return &env->frame[var->slot];
}

/* A variable of the running function is bound and found by its slot, inline. */
static inline void env_bind(Env *env, const Var *var, Value *v)
{
    FrameSlot *f = env_frame_slot(env, var);
    if (f != NULL && (f->key == NULL || f->key == var)) {
        f->key = var;
        f->val = v;
        return;
    }
    env_bind_slow(env, var, v);
}

/* NULL when unbound. */
static inline Value *env_lookup(const Env *env, const Var *var)
{
    const FrameSlot *f = env_frame_slot(env, var);
    if (f != NULL && f->key == var && f->val != NULL)
        return f->val;
    return env_lookup_slow(env, var);
}
void env_bind_shape(Env *env, const TirVar *var, int64_t v);
bool env_lookup_shape(const Env *env, const TirVar *var, int64_t *out);
void env_unbind_shape(Env *env, const TirVar *var);
/* Calls fn for every shape variable bound in env (for --trace). */
void env_each_shape(const Env *env, void (*fn)(void *ctx, const TirVar *var, int64_t v), void *ctx);

/* Additions for the evaluator (additive to the interface above). */

/* An activation whose lookups fall back to `parent` (a closure's captured variables). */
Env *env_new_child(const Env *parent, int capacity_hint);
/* Empties env for a new activation of `fn` under `parent`, keeping its memory, and gives it
 * fn's frame (env_use_frame): for a proper tail call, whose caller's activation nothing can
 * reach any more. */
void env_reset(Env *env, const Env *parent, int capacity_hint, const Function *fn, int nslots);
/* Activations whose calls have returned, kept for the next calls to reuse: a call's
 * environment is reachable from nothing once it returns (a closure captures copies), and
 * a fresh one per call was most of the memory a recursive program allocated. */
typedef struct EnvPool EnvPool;
EnvPool *env_pool_new(void);
/* An empty activation under `parent` with room for `capacity_hint` keys. */
Env *env_pool_take(EnvPool *pool, const Env *parent, int capacity_hint);
/* Empties env (it then holds no value alive) and keeps it, or leaves it to the collector. */
void env_pool_give(EnvPool *pool, Env *env);
/* Gives env the frame of `fn`: `nslots` slots, empty, for the variables the resolution
 * pass gave a slot of fn (env_func_info). A variable is then bound, found and unbound by
 * its slot index instead of a search; any other variable still goes through the map. */
void env_use_frame(Env *env, const Function *fn, int nslots);
/* Shape variables are logged as they bind; a scope remembers the log's length at its start
 * and unbinds every shape variable bound since when it ends (E-13.4). */
static inline int env_shape_mark(const Env *env)
{
    return env->nlog;
}
void env_shape_pop(Env *env, int mark);

/* A map from any node pointer to a pointer (GlobalVar to index, Function to analysis). */
typedef struct EnvMap EnvMap;
EnvMap *env_map_new(int capacity_hint);
void env_map_put(EnvMap *m, const void *key, void *val);
void *env_map_get(const EnvMap *m, const void *key); /* NULL when absent */

/* What the evaluator needs to know about a Function, computed once (E-9). */
typedef struct FuncInfo {
    const Function *fn;    /* the function described */
    const Var **free_vars; /* free Relax variables of the body, DataflowVars excluded */
    int nfree_vars;
    const TirVar **shape_vars; /* every shape variable the function mentions */
    int nshape_vars;
    const TirVar **ret_shape_vars; /* the shape variables of the return annotation */
    int nret_shape_vars;
    int nlocals; /* variables the body binds, parameters and shape variables included */
    int nslots;  /* the slots of a frame: the variables the resolution pass gave one */
} FuncInfo;

struct FuncInfoTable {
    struct EnvMap *infos; /* Function* -> FuncInfo* */
    /* The last one asked for: a loop asks for the same function on every call. */
    const Function *last;
    FuncInfo *last_info;
};
struct FuncInfoTable *env_func_table_new(void);
/* env_func_info past the last one asked for: the table, or the analysis. */
const FuncInfo *env_func_info_find(struct FuncInfoTable *t, const Function *f);

static inline const FuncInfo *env_func_info(struct FuncInfoTable *t, const Function *f)
{
    return f == t->last ? t->last_info : env_func_info_find(t, f);
}

#endif
