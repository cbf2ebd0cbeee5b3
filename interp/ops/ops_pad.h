/* ops_pad: nn.pad's inference and kernel, listed in the table of ops_act.
 * SPEC_NOTES: "Operators" (OP-nn.pad). */
#ifndef RELAX_INTERP_OPS_PAD_H
#define RELAX_INTERP_OPS_PAD_H

#include "interp/ops/ops.h"

StructInfo *ops_pad_infer(OpInferCtx *ctx);
Value *ops_pad_kernel(struct Interp *in, const Expr *call, Value **args, int nargs);

#endif
