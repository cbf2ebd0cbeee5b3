/* ops_nn_internal: what the nn family's files share: the inference and kernel functions of
 * sorting, collected into one table by ops_nn (convolution and pooling are the window
 * family's). SPEC_NOTES: "Operators" (OP-nn.*, OP-sort, OP-argsort, OP-topk, OP-unique). */
#ifndef RELAX_INTERP_OPS_NN_INTERNAL_H
#define RELAX_INTERP_OPS_NN_INTERNAL_H

#include "interp/ops/ops.h"

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
