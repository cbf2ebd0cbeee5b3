/* py_parser_internal: the parser state and helpers shared by the statement and expression
 * halves of the Python-subset parser. SPEC_NOTES: "TVMScript syntax", rule PY-1. */
#ifndef RELAX_AST_PY_PARSER_INTERNAL_H
#define RELAX_AST_PY_PARSER_INTERNAL_H

#include <stdbool.h>
#include <stdnoreturn.h>

#include "ast/text/py_ast.h"
#include "ast/text/py_lexer.h"

/* Nesting limits, so that no input can exhaust the C stack. */
#define PY_MAX_EXPR_DEPTH 200
/* Postfix chains (`x[0][0]...`, `f()()...`, `x.a.b...`) parse in a loop but make trees as
 * deep as they are long, which every later pass walks recursively: they are limited too.
 * (Operator chains count as nesting, PY_MAX_EXPR_DEPTH.) SPEC_NOTES: "Resource limits". */
#define PY_MAX_CHAIN 1000
#define PY_MAX_BLOCK_DEPTH 100

typedef struct PyParser {
    const char *file;
    ErrorTrap *trap;
    PyToken *toks;
    int ntoks;
    int pos;
    int depth;       /* open expression levels */
    int chain;       /* links of the postfix chains open around the parser */
    int block_depth; /* open indented blocks */
} PyParser;

void py_parser_init(PyParser *p, const char *file, PyTokens toks, ErrorTrap *trap);

/* The token `k` places ahead; reaching the lexer's error token raises that error. */
const PyToken *py_parser_peek_at(PyParser *p, int k);
const PyToken *py_parser_peek(PyParser *p);
const PyToken *py_parser_next(PyParser *p);
bool py_parser_check(PyParser *p, PyTokKind kind);
bool py_parser_check_kw(PyParser *p, PyKeyword kw);
bool py_parser_accept(PyParser *p, PyTokKind kind);
bool py_parser_accept_kw(PyParser *p, PyKeyword kw);
const PyToken *py_parser_expect(PyParser *p, PyTokKind kind);
const PyToken *py_parser_expect_kw(PyParser *p, PyKeyword kw);
/* The end of the last consumed token. */
Span py_parser_prev_span(PyParser *p);

/* Reports the current token as out of place; `expected` names what the grammar wanted. */
noreturn void py_parser_unexpected(PyParser *p, const char *expected);
noreturn void py_parser_fail(PyParser *p, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

Span py_parser_join(Span from, Span to);
PyExpr *py_parser_new_expr(PyExprKind kind, Span span);
/* True when `tok` can begin an expression. */
bool py_parser_starts_expr(const PyToken *tok);

/* expression -> disjunction ['if' disjunction 'else' expression] */
PyExpr *py_parser_expression(PyParser *p);
/* star_expressions -> star_expression (',' star_expression)* [','] */
PyExpr *py_parser_star_expressions(PyParser *p);
/* star_targets -> star_target (',' star_target)* [','], each at the bitwise_or level, so a
 * `for` target stops before `in`. */
PyExpr *py_parser_star_targets(PyParser *p);
/* star_target -> ['*'] bitwise_or */
PyExpr *py_parser_star_target(PyParser *p);
/* Fills call.args/kw_* of `call` from the tokens after '(' up to and including ')'. */
void py_parser_call_args(PyParser *p, PyExpr *call);

#endif
