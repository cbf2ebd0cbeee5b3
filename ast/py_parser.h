/* py_parser: lexer and recursive-descent parser for the Python subset of TVMScript.
 * SPEC_NOTES: "TVMScript syntax" (codes SyntaxError, BadIndent, BadToken, ...). */
#ifndef RELAX_AST_PY_PARSER_H
#define RELAX_AST_PY_PARSER_H

#include "ast/error.h"
#include "ast/py_ast.h"

/* Parses a whole file. Raises parse errors through `trap`, with file, line and column. */
PyBody py_parse_file(const char *file, const char *text, ErrorTrap *trap);

#endif
