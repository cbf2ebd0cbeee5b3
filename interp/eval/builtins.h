/* builtins: the spec's notable operators and TVM's builtins, evaluated at run time
 * (SPEC_REST §10). SPEC_NOTES: "Builtins" (BI-*). */
#ifndef RELAX_INTERP_BUILTINS_H
#define RELAX_INTERP_BUILTINS_H

#include <stdbool.h>

#include "ast/expr.h"
#include "values/value.h"

struct Interp;
struct Env;

/* Whether `op_name` ("relax.call_tir", ...) is a builtin this module evaluates. */
bool builtins_has(const char *op_name);
/* The builtin `op_name` names, or NULL: for an evaluator that resolves each Op once. */
typedef struct BuiltinEntry BuiltinEntry;
const BuiltinEntry *builtins_find(const char *op_name);
/* builtins_call with the builtin already found. */
Value *builtins_call_entry(const BuiltinEntry *b, struct Interp *in, struct Env *env,
                           const Expr *call, Value **args, int nargs);
/* Evaluates a call to a builtin Op. The arguments are already evaluated left to right
 * (E-12.1); `env` gives the shape variables in scope (for out_sinfo shapes). */
Value *builtins_call(struct Interp *in, struct Env *env, const Expr *call, Value **args, int nargs);

#endif
