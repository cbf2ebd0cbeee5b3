/* equal: structural equality modulo renaming of bound variables (alpha-equivalence).
 * SPEC_NOTES: "Structural equality". */
#ifndef RELAX_AST_EQUAL_H
#define RELAX_AST_EQUAL_H

#include <stdbool.h>

#include "ast/module.h"

/* Relax and TIR variables correspond by a bijection built at their binding sites; GlobalVars
 * correspond by name; everything else compares field by field (spans ignored). */
bool equal_module(const IRModule *a, const IRModule *b);
bool equal_sinfo(const StructInfo *a, const StructInfo *b);
bool equal_expr(const Expr *a, const Expr *b);
/* When not equal: a short description of the first difference found, for test output. */
bool equal_module_explain(const IRModule *a, const IRModule *b, const char **why);

#endif
