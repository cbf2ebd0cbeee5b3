/* py_lexer: tokens of the Python subset TVMScript is written in (names, numbers, strings,
 * operators, NEWLINE/INDENT/DEDENT). SPEC_NOTES: "TVMScript syntax", rule PY-1. */
#ifndef RELAX_AST_PY_LEXER_H
#define RELAX_AST_PY_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast/error.h"

/* CPython's own limits: 100 indentation levels, 200 open brackets. */
#define PY_MAX_INDENT 100
#define PY_MAX_BRACKETS 200

typedef enum PyTokKind {
    PYT_END,
    PYT_NEWLINE,
    PYT_INDENT,
    PYT_DEDENT,
    PYT_NAME,
    PYT_INT,
    PYT_FLOAT,
    PYT_STRING,
    PYT_ERROR, /* the lexer stopped here; the parser raises the recorded error on reaching it */
    PYT_LPAR,
    PYT_RPAR,
    PYT_LSQB,
    PYT_RSQB,
    PYT_LBRACE,
    PYT_RBRACE,
    PYT_COLON,
    PYT_COMMA,
    PYT_SEMI,
    PYT_DOT,
    PYT_ELLIPSIS,
    PYT_RARROW,
    PYT_COLONEQUAL,
    PYT_EQUAL,
    PYT_PLUS,
    PYT_MINUS,
    PYT_STAR,
    PYT_SLASH,
    PYT_DOUBLESLASH,
    PYT_PERCENT,
    PYT_DOUBLESTAR,
    PYT_AT,
    PYT_LSHIFT,
    PYT_RSHIFT,
    PYT_AMPER,
    PYT_VBAR,
    PYT_CIRCUMFLEX,
    PYT_TILDE,
    PYT_LESS,
    PYT_GREATER,
    PYT_LESSEQUAL,
    PYT_GREATEREQUAL,
    PYT_EQEQUAL,
    PYT_NOTEQUAL,
    PYT_PLUSEQUAL,
    PYT_MINEQUAL,
    PYT_STAREQUAL,
    PYT_SLASHEQUAL,
    PYT_DOUBLESLASHEQUAL,
    PYT_PERCENTEQUAL,
    PYT_DOUBLESTAREQUAL,
    PYT_ATEQUAL,
    PYT_LSHIFTEQUAL,
    PYT_RSHIFTEQUAL,
    PYT_AMPEREQUAL,
    PYT_VBAREQUAL,
    PYT_CIRCUMFLEXEQUAL,
} PyTokKind;

/* Python's reserved words; a PYT_NAME carries PYKW_NONE when it is an ordinary name. */
typedef enum PyKeyword {
    PYKW_NONE,
    PYKW_FALSE_,
    PYKW_NONE_,
    PYKW_TRUE_,
    PYKW_AND,
    PYKW_AS,
    PYKW_ASSERT,
    PYKW_ASYNC,
    PYKW_AWAIT,
    PYKW_BREAK,
    PYKW_CLASS,
    PYKW_CONTINUE,
    PYKW_DEF,
    PYKW_DEL,
    PYKW_ELIF,
    PYKW_ELSE,
    PYKW_EXCEPT,
    PYKW_FINALLY,
    PYKW_FOR,
    PYKW_FROM,
    PYKW_GLOBAL,
    PYKW_IF,
    PYKW_IMPORT,
    PYKW_IN,
    PYKW_IS,
    PYKW_LAMBDA,
    PYKW_NONLOCAL,
    PYKW_NOT,
    PYKW_OR,
    PYKW_PASS,
    PYKW_RAISE,
    PYKW_RETURN,
    PYKW_TRY,
    PYKW_WHILE,
    PYKW_WITH,
    PYKW_YIELD,
} PyKeyword;

/* Whether Python reports a lexical error in preference to a syntax error met earlier in the
 * text: it does for bad characters, numbers and strings, not for indentation, and for an
 * unclosed bracket only when the bracket opened on an earlier line. */
typedef enum PyLexErrorRank {
    PYLEX_ERR_DEFERRED,
    PYLEX_ERR_OVERRIDES,
    PYLEX_ERR_UNCLOSED,
} PyLexErrorRank;

/* Spans are 1-based; end_col is one past the last byte of the token. */
typedef struct PyToken {
    PyTokKind kind;
    PyKeyword kw;
    Span span;
    const char *text;   /* NAME: the identifier; STRING: the decoded bytes; ERROR: the message */
    size_t text_len;    /* STRING: length of the decoded bytes, which may hold NUL */
    int64_t int_value;  /* INT; ERROR: a PyLexErrorRank */
    double float_value; /* FLOAT */
    const char *error_code; /* ERROR: a parse error code of SPEC_NOTES */
} PyToken;

typedef struct PyTokens {
    PyToken *items;
    int n; /* the last token is PYT_END or PYT_ERROR */
} PyTokens;

/* Tokenizes `text`. Never raises: a lexical error becomes a final PYT_ERROR token, so that
 * an earlier syntax error is still reported first, as Python reports it. Positions are
 * shifted so that line 1, column 1 of `text` is `origin`. In `expr_mode` the text is one
 * expression: line breaks and indentation carry no meaning and no NEWLINE, INDENT or DEDENT
 * is produced. */
PyTokens py_lex_tokens(const char *file, const char *text, Span origin, bool expr_mode);

/* The spelling of a token kind for messages ("'('", "newline", "name"). */
const char *py_lex_kind_name(PyTokKind kind);

/* The keyword a reserved word spells, or PYKW_NONE. */
PyKeyword py_lex_keyword(const char *name, size_t len);

#endif
