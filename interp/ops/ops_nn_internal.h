/* ops_nn_internal: what the nn family's files share: the inference and kernel functions of
 * sorting, collected into one table by ops_nn (convolution and pooling are the window
 * family's). SPEC_NOTES: "Operators" (OP-nn.*, OP-sort, OP-argsort, OP-topk, OP-unique). */
#ifndef RELAX_INTERP_OPS_NN_INTERNAL_H
#define RELAX_INTERP_OPS_NN_INTERNAL_H

#include "interp/ops/ops.h"

/* interp/ops/ops_nn.c: a norm's axes (its "axes" attribute, batch_norm's "axis"), each
 * made non-negative, in the order given (a parameter's dims follow it); out-of-range or
 * repeated axes are OpAttr, and OpPrecondition at run time. */
int *ops_nn_norm_axes(OpInferCtx *ctx, int ndim, int *naxes);
int *ops_nn_norm_kernel_axes(struct Interp *in, const Expr *call, const Tensor *x, int *naxes);

/* interp/ops/ops_search.c */
StructInfo *ops_search_infer_sort(OpInferCtx *ctx);
Value *ops_search_kernel_sort(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_search_infer_argsort(OpInferCtx *ctx);
Value *ops_search_kernel_argsort(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_search_infer_topk(OpInferCtx *ctx);
Value *ops_search_kernel_topk(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_search_infer_unique(OpInferCtx *ctx);
Value *ops_search_kernel_unique(struct Interp *in, const Expr *call, Value **args, int nargs);

#endif
