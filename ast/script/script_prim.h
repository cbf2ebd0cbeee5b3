/* script_prim: Python expressions to PrimExprs, for Relax shape dimensions and TIR bodies.
 * SPEC_NOTES: "TVMScript syntax" (TS-3.1, TS-11). */
#ifndef RELAX_AST_SCRIPT_PRIM_H
#define RELAX_AST_SCRIPT_PRIM_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/primexpr.h"
#include "ast/text/py_ast.h"
#include "ast/tir.h"

/* How names and literals are read. */
typedef struct PrimEnv {
    /* Resolves a bare name to a TIR variable or a buffer (exactly one set); false when the
     * name is unknown, which is an UnknownName parse error. */
    bool (*lookup)(void *ctx, const char *name, TirVar **var, Buffer **buffer);
    /* Optional: the PrimExpr a Python name stands for (a Relax body's `k = T.int64(16)`),
     * or NULL; asked before `lookup`. */
    PrimExpr *(*alias)(void *ctx, const char *name);
    void *ctx;
    /* Optional (TIR-CALL): the return type of `module.fn`, a PrimFunc of the module the
     * PrimFunc is read in; false when `module.fn` names none (or returns nothing). */
    bool (*global_ret)(void *ctx, const char *module, const char *fn, DataType *ret);
    /* Relax dims: a Python int is an int64 IntImm. TIR: int32 unless the other operand
     * gives another integer type; a Python float is float32 likewise. */
    bool tir;
} PrimEnv;

/* Translates `e` (names, literals, arithmetic, comparisons, `and`/`or`/`not`, T.int64(k),
 * T.max/T.min, T.Cast, T.Select, T.if_then_else, T.floordiv/floormod/truncdiv/truncmod,
 * intrinsics, and buffer loads A[i, j] in TIR). */
PrimExpr *script_prim_expr(const PyExpr *e, const PrimEnv *env, ErrorTrap *trap);

/* The binary node for a Python operator with TIR's operand type promotion; raises a
 * parse error when the operand types cannot be combined. */
PrimExpr *script_prim_binary(PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span,
                             ErrorTrap *trap);

/* As script_prim_expr, but a Python number literal (or arithmetic on literals) takes the
 * type `hint` instead of its default: a stored value takes the buffer's dtype, a loop start
 * the extent's. */
PrimExpr *script_prim_expr_typed(const PyExpr *e, DataType hint, const PrimEnv *env,
                                 ErrorTrap *trap);

/* Whether `e` is a Python number that Python itself computes (literals and arithmetic on
 * them), which adapts to the type of the expression it meets. */
bool script_prim_is_literal(const PyExpr *e);

#endif
