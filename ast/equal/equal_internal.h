/* equal_internal: the comparison context shared by the Relax and TIR halves of equality.
 * SPEC_NOTES: "Structural equality". */
#ifndef RELAX_AST_EQUAL_INTERNAL_H
#define RELAX_AST_EQUAL_INTERNAL_H

#include <stdbool.h>

#include "ast/equal/equal.h"

/* A bijection between the objects of two programs, built as they are met. */
typedef struct PtrPair {
    const void *a;
    const void *b;
} PtrPair;

typedef struct PtrMap {
    PtrPair *pairs;
    int n;
    int cap;
} PtrMap;

typedef struct EqCtx {
    PtrMap vars;        /* Relax Var / DataflowVar */
    PtrMap tvars;       /* TIR variables */
    PtrMap bufs;        /* TIR buffers */
    const char *why;    /* the first difference, at the leaf */
    const char **trail; /* path segments, innermost first */
    int ntrail;
    int captrail;
} EqCtx;

/* Records a leaf difference; returns false. */
bool eq_fail(EqCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds a path segment while unwinding a failure; returns false. */
bool eq_trail(EqCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether a and b correspond, mapping them if neither is mapped yet; *fresh says so. */
bool eq_corr(PtrMap *m, const void *a, const void *b, bool *fresh);

#define EQ_CHECK(c, cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            return eq_trail((c), __VA_ARGS__);                                                     \
    } while (0)

bool eq_attrs(EqCtx *c, const Attrs *a, const Attrs *b);
bool eq_expr(EqCtx *c, const Expr *a, const Expr *b);
bool eq_prim(EqCtx *c, const PrimExpr *a, const PrimExpr *b);
bool eq_prim_opt(EqCtx *c, const PrimExpr *a, const PrimExpr *b);
bool eq_tvar(EqCtx *c, const TirVar *a, const TirVar *b);
bool eq_primfunc(EqCtx *c, const PrimFunc *a, const PrimFunc *b);
bool eq_str_opt(const char *a, const char *b, const char *dflt);

#endif
