/* builtins_internal: what the builtin files share: one evaluated builtin call and its errors.
 * SPEC_NOTES: "Builtins" (BI-*). */
#ifndef RELAX_INTERP_BUILTINS_INTERNAL_H
#define RELAX_INTERP_BUILTINS_INTERNAL_H

#include <stdnoreturn.h>

#include "ast/expr.h"
#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "values/value.h"

/* A builtin call with its arguments evaluated; `rule` is the builtin's BI-* id. */
typedef struct BuiltinCall {
    Interp *in;
    Env *env;
    const Expr *call;
    Value **args;
    int nargs;
    const char *name; /* without the "relax." prefix */
    const char *rule;
} BuiltinCall;

/* Raises `code` at the call with the builtin's rule id. */
noreturn void builtins_fail(const BuiltinCall *bc, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Arity unless min <= nargs <= max (max < 0: no upper bound). */
void builtins_want_args(const BuiltinCall *bc, int min, int max);
/* args[i] as a tuple, else OpPrecondition naming `what`. */
Value *builtins_tuple_arg(const BuiltinCall *bc, int i, const char *what);

/* builtins_dps.c: destination passing and packed calls (SPEC_REST §10.1). */
Value *builtins_call_tir(const BuiltinCall *bc);
Value *builtins_call_tir_inplace(const BuiltinCall *bc);
Value *builtins_call_dps_packed(const BuiltinCall *bc);
Value *builtins_call_pure_packed(const BuiltinCall *bc);
Value *builtins_call_inplace_packed(const BuiltinCall *bc);

/* builtins_closure.c: closures built and invoked by operators (SPEC_REST §10.2). */
Value *builtins_make_closure(const BuiltinCall *bc);
Value *builtins_invoke_closure(const BuiltinCall *bc);

#endif
