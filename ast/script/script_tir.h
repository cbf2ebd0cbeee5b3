/* script_tir: a @T.prim_func definition to a PrimFunc.
 * SPEC_NOTES: "TIR subset" (TS-11). */
#ifndef RELAX_AST_SCRIPT_TIR_H
#define RELAX_AST_SCRIPT_TIR_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/text/py_ast.h"
#include "ast/tir.h"

/* The module a PrimFunc is read in, for calls of its other PrimFuncs (TIR-CALL): the class
 * name that `Module.f(...)` writes, and the class body whose defs give each callee's return
 * type (a callee may come later in the class). */
typedef struct TirModule {
    const char *name;
    /* The def of the module's PrimFunc `fn`, or NULL when it has none by that name. */
    const PyStmt *(*find_def)(const struct TirModule *m, const char *fn);
    const void *ctx;
} TirModule;

/* Translates the def (whose decorator is @T.prim_func or @T.prim_func(private=True)); `module`
 * is NULL outside a module. */
PrimFunc *script_tir_primfunc(const PyStmt *def, const TirModule *module, ErrorTrap *trap);

#endif
