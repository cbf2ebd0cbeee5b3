/* script_prim_internal: what script_prim.c (operators, names, loads, dispatch) and
 * script_prim_call.c (calls: intrinsics, casts, constructors, PrimFunc calls) share.
 * SPEC_NOTES: "TVMScript syntax" (TS-3.1, TS-11). */
#ifndef RELAX_AST_SCRIPT_PRIM_INTERNAL_H
#define RELAX_AST_SCRIPT_PRIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "ast/script/script_prim.h"

typedef struct Tr {
    const PrimEnv *env;
    ErrorTrap *trap;
} Tr;

/* A number Python computes before TVM sees it: literals and arithmetic on literals. */
typedef struct PyNum {
    bool is_float;
    int64_t i;
    double f;
} PyNum;

PrimExpr *prim_translate(const Tr *t, const PyExpr *e);
noreturn void prim_fail(const Tr *t, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool prim_fold_number(const Tr *t, const PyExpr *e, PyNum *out);
PrimExpr *prim_literal_as(const Tr *t, PyNum n, DataType type, Span span);
PrimExpr *prim_cast_to(PrimExpr *e, DataType type, Span span);
bool prim_promote(PrimExpr **a, PrimExpr **b);
bool prim_is_integer(DataType t);
void prim_translate_pair(const Tr *t, const PyExpr *x, const PyExpr *y, PrimExpr **a, PrimExpr **b);
PrimExpr *prim_binary(const Tr *t, PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span);

/* script_prim_call.c */
PrimExpr *prim_make_call(const char *op, DataType type, PrimExpr **args, int n, Span span);
PrimExpr *prim_bitwise(const Tr *t, const char *op, PrimExpr *a, PrimExpr *b, Span span);
PrimExpr *prim_bitwise_not(const Tr *t, PrimExpr *x, Span span);
const char *prim_bitwise_op(PyOp op);
PrimExpr *prim_translate_call(const Tr *t, const PyExpr *e);

#endif
