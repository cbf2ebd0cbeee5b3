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

Env *env_new(int capacity_hint);
void env_bind(Env *env, const Var *var, Value *v);
Value *env_lookup(const Env *env, const Var *var); /* NULL when unbound */
void env_unbind(Env *env, const Var *var);
void env_bind_shape(Env *env, const TirVar *var, int64_t v);
bool env_lookup_shape(const Env *env, const TirVar *var, int64_t *out);
void env_unbind_shape(Env *env, const TirVar *var);
/* Calls fn for every shape variable bound in env (for --trace). */
void env_each_shape(const Env *env, void (*fn)(void *ctx, const TirVar *var, int64_t v),
                    void *ctx);

#endif
