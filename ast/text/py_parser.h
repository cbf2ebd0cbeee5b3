/* py_parser: lexer and recursive-descent parser for the Python subset of TVMScript.
 * SPEC_NOTES: "TVMScript syntax" (codes SyntaxError, BadIndent, BadToken, ...). */
#ifndef RELAX_AST_PY_PARSER_H
#define RELAX_AST_PY_PARSER_H

#include "ast/error.h"
#include "ast/text/py_ast.h"

/* Parses a whole file. Raises parse errors through `trap`, with file, line and column. */
PyBody py_parse_file(const char *file, const char *text, ErrorTrap *trap);

/* Parses one expression held in a string literal (a string dim such as "n * 2"). Spans are
 * reported relative to `origin`, the position of the string's first character. */
PyExpr *py_parse_expr(const char *file, const char *text, Span origin, ErrorTrap *trap);

#endif
