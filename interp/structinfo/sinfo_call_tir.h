/* sinfo_call_tir: TVM's static checks of the call_tir family (CALLTIR-1 .. CALLTIR-4).
 * SPEC_NOTES: "StructInfo" (call_tir against its PrimFunc). */
#ifndef RELAX_INTERP_SINFO_CALL_TIR_H
#define RELAX_INTERP_SINFO_CALL_TIR_H

#include "interp/structinfo/sinfo_derive_internal.h"

/* For a call of R.call_tir, R.call_tir_with_grad or R.call_tir_inplace (`op` is the
 * operator's name; any other is ignored) whose arguments' StructInfo is derived: reports
 * in-place misuse, and, when the callee is a PrimFunc of the module, arguments and out_sinfo
 * that its signature rules out. */
void si_check_call_tir(SiCtx *c, const Expr *e, const char *op);

#endif
