/* script_index_map: TIR index maps written as Python lambdas, read into attributes.
 * SPEC_NOTES: TS-6.2. */
#ifndef RELAX_AST_SCRIPT_INDEX_MAP_H
#define RELAX_AST_SCRIPT_INDEX_MAP_H

#include <stdbool.h>

#include "ast/attrs.h"
#include "ast/error.h"
#include "ast/text/py_ast.h"

/* `T.index_map(lambda i, j: (e1, e2))` or `lambda i, j: (e1, e2)` as an ATTR_INDEX_MAP with
 * fresh int64 parameters; anything else is a BadArguments parse error. */
AttrValue *script_index_map(const PyExpr *e, ErrorTrap *trap);
/* Whether `e` is written as an index map (a lambda, or a T.index_map call). */
bool script_is_index_map(const PyExpr *e);

#endif
