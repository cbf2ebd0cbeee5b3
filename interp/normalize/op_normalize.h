/* op_normalize: the operator-specific normalization rules (normal-form criterion 5,
 * normalization step 6, WF-23), shared by the checker and the normalizer.
 * SPEC_NOTES: "Normal form" (NF-5) and "Well-formedness" (WF-23). */
#ifndef RELAX_INTERP_OP_NORMALIZE_H
#define RELAX_INTERP_OP_NORMALIZE_H

#include <stdbool.h>

#include "ast/expr.h"

/* The index of the argument that must be a literal Tuple for calls of this op (the call_tir
 * family: relax.call_tir, relax.call_tir_with_grad, relax.call_tir_inplace), or -1 when the
 * op has no such rule. */
int op_normalize_tuple_arg(const char *op_name);
/* True when the call is a fixed point of its op's rule (always true for ops without one). */
bool op_normalize_conforms(const Expr *call);

#endif
