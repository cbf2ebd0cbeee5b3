/* prim_eval: evaluating PrimExprs with TIR semantics, for shape dimensions, PrimValues and
 * the TIR interpreter. SPEC_NOTES: "TIR semantics" (TIR-INT, TIR-CAST, TIR-INTRIN). */
#ifndef RELAX_INTERP_PRIM_EVAL_H
#define RELAX_INTERP_PRIM_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/primexpr.h"

struct Interp;

/* A TIR scalar: integers (and bool) as int64 bits wrapped to their dtype, floats as double
 * already rounded to their dtype. */
typedef struct Scalar {
    DataType dtype;
    int64_t i;
    double f;
} Scalar;

typedef struct PrimEvalCtx {
    struct Interp *interp; /* for errors */
    /* The value of a TIR variable; false when it has none (an unbound shape variable). */
    bool (*lookup)(void *ctx, const TirVar *var, Scalar *out);
    /* A BufferLoad (TIR only); NULL outside TIR. Raises on out-of-bounds. */
    Scalar (*load)(void *ctx, const PrimExpr *load, const Scalar *indices);
    void *ctx;
    /* NULL: TIR's wrapping integer arithmetic. Set (a shape's dims, which are sizes): a
     * signed 64-bit add, subtract or multiply that overflows sets *overflow (ast/checked.h). */
    bool *overflow;
} PrimEvalCtx;

/* Evaluates `e`. An unbound variable is a runtime error UnboundShapeVar; integer division
 * or modulo by zero is a runtime error DivByZero. */
Scalar prim_eval(const PrimEvalCtx *pc, const PrimExpr *e);
/* Evaluates an int64-valued PrimExpr (a shape dimension). */
int64_t prim_eval_int(const PrimEvalCtx *pc, const PrimExpr *e);
Scalar prim_scalar_int(DataType dtype, int64_t v);  /* wraps to dtype */
Scalar prim_scalar_float(DataType dtype, double v); /* rounds to dtype */
/* Converts with TIR Cast semantics (float to int truncates toward zero; out of range
 * saturates as documented; int to narrower int wraps). */
Scalar prim_cast(DataType to, Scalar v);
bool prim_scalar_truth(Scalar v);

#endif
