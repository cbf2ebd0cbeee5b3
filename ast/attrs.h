/* attrs: attribute dictionaries of functions, calls and modules (Python literal values).
 * SPEC_NOTES: "Attributes". */
#ifndef RELAX_AST_ATTRS_H
#define RELAX_AST_ATTRS_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/error.h"

struct Expr;
struct TirVar;
struct PrimExpr;

typedef enum AttrKind {
    ATTR_NONE,
    ATTR_BOOL,
    ATTR_INT,
    ATTR_FLOAT,
    ATTR_STR,
    ATTR_LIST,      /* u.list; written [a, b] (a Python tuple is read as a list) */
    ATTR_DICT,      /* u.dict */
    ATTR_EXPR,      /* u.expr: a Relax expression given as a keyword argument */
    ATTR_INDEX_MAP, /* u.index_map: TIR's IndexMap, written T.index_map(lambda i, j: (...)) */
    ATTR_VERBATIM,  /* u.s: a TIR attribute kept as its text (a buffer's name, T.target(...)) */
} AttrKind;

typedef struct AttrValue {
    AttrKind kind;
    Span span;
    union {
        bool b;
        int64_t i;
        double f;
        const char *s;
        struct {
            struct AttrValue **items;
            int n;
        } list;
        struct Attrs *dict;
        struct Expr *expr;
        struct {
            struct TirVar **params; /* the initial indices, int64 variables bound here */
            int nparams;
            struct PrimExpr **results; /* the final indices, over the params */
            int nresults;
        } index_map;
    } u;
} AttrValue;

/* Keys in insertion order; printers sort where TVM sorts. */
typedef struct Attrs {
    const char **keys;
    AttrValue **values;
    int n;
    int cap;
} Attrs;

Attrs *attrs_new(void);
void attrs_set(Attrs *attrs, const char *key, AttrValue *value);
AttrValue *attrs_get(const Attrs *attrs, const char *key); /* NULL when absent */
bool attrs_remove(Attrs *attrs, const char *key);
AttrValue *attr_new(AttrKind kind, Span span);
AttrValue *attr_str(const char *s, Span span);
AttrValue *attr_bool(bool b, Span span);
AttrValue *attr_int(int64_t i, Span span);

#endif
