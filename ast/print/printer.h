/* printer: the canonical TVMScript text of a module, function, StructInfo or expression.
 * SPEC_NOTES: "Canonical printing". */
#ifndef RELAX_AST_PRINTER_H
#define RELAX_AST_PRINTER_H

#include "ast/module.h"

/* The whole module (or lone function) with header comments, as TVM prints it, with
 * constants written inline. */
char *printer_print_module(const IRModule *mod);
/* A StructInfo in canonical annotation form: R.Tensor((n, 4), dtype="float32"). */
char *printer_print_sinfo(const StructInfo *sinfo);
char *printer_print_primexpr(const PrimExpr *e);
/* An expression on one line (bindings' right-hand sides, leaves). */
char *printer_print_expr(const Expr *e);
/* An attribute value on one line, variables by their own names (T.index_map(lambda ...)). */
char *printer_print_attr(const AttrValue *v);

#endif
