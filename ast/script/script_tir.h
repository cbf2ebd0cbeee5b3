/* script_tir: a @T.prim_func definition to a PrimFunc.
 * SPEC_NOTES: "TIR subset" (TS-11). */
#ifndef RELAX_AST_SCRIPT_TIR_H
#define RELAX_AST_SCRIPT_TIR_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/text/py_ast.h"
#include "ast/tir.h"

/* Translates the def (whose decorator is @T.prim_func or @T.prim_func(private=True)). */
PrimFunc *script_tir_primfunc(const char *file, const PyStmt *def, ErrorTrap *trap);

#endif
