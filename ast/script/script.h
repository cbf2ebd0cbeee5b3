/* script: TVMScript text to a Relax IRModule (the parser proper).
 * SPEC_NOTES: "TVMScript syntax" and "Parse error codes". */
#ifndef RELAX_AST_SCRIPT_H
#define RELAX_AST_SCRIPT_H

#include "ast/error.h"
#include "ast/module.h"
#include "ast/text/py_ast.h"

/* Parses a module (@I.ir_module class) or a lone @R.function. Every error is a parse error
 * raised through `trap` with file:line:col and a stable code. */
IRModule *script_parse(const char *file, const char *text, ErrorTrap *trap);

/* The same, from a file already turned into a Python tree (the legacy reader rewrites the
 * tree first). */
IRModule *script_parse_body(const char *file, PyBody top, ErrorTrap *trap);

#endif
