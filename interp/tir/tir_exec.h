/* tir_exec: the TIR interpreter for PrimFuncs reached by call_tir and direct calls.
 * SPEC_NOTES: "TIR semantics" (TIR-*). */
#ifndef RELAX_INTERP_TIR_EXEC_H
#define RELAX_INTERP_TIR_EXEC_H

#include "ast/error.h"
#include "ast/tir.h"
#include "values/value.h"

struct Interp;

/* Runs `f` on `args` (tensors for buffer parameters, PrimValues or shape dims for scalar
 * parameters). Binds match_buffer shapes (symbolic dims bind on first sight, then must agree)
 * and checks dtypes and ndims (TirArgMismatch); loads and stores are bounds-checked
 * (TirOutOfBounds). Returns the PrimFunc's return value as a PrimValue, or unit. */
Value *tir_exec_call(struct Interp *in, const PrimFunc *f, Value **args, int nargs, Span span);
/* The same call for its effect on the buffers alone (call_tir's), making no result value. */
void tir_exec_run(struct Interp *in, const PrimFunc *f, Value **args, int nargs, Span span);

#endif
