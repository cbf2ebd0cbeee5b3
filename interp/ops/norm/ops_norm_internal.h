/* ops_norm_internal: what the norm family's files share: the helpers of both sides and the
 * inference and kernel functions of attention, the losses and pixel_shuffle, collected into
 * one table by ops_norm. SPEC_NOTES: "Operators" (OP-nn.group_norm and the rows after it). */
#ifndef RELAX_INTERP_OPS_NORM_INTERNAL_H
#define RELAX_INTERP_OPS_NORM_INTERNAL_H

#include <stdnoreturn.h>

#include "interp/ops/ops_common.h"

/* The arguments as tensors: exactly n (or between min and max), each a TensorStructInfo;
 * false after an error. */
bool norm_tensor_args(OpInferCtx *ctx, int min, int max, const StructInfo **out);
/* A float (or bfloat) dtype, or an unknown one; else OpDTypeMismatch. */
bool norm_require_float(OpInferCtx *ctx, const StructInfo *x);
/* The same dtype as the data when both are known; else OpDTypeMismatch naming argument i. */
/* A dtype for messages: its name, or "of unknown dtype". */
const char *norm_dtype_name(DataType t);
bool norm_same_dtype(OpInferCtx *ctx, const StructInfo *data, const StructInfo *arg, int i);
/* OpShapeMismatch when the two dims are provably unequal; *undecided set when unknown. */
bool norm_dims_agree(OpInferCtx *ctx, const PrimExpr *a, const PrimExpr *b, const char *what,
                     bool *undecided);
/* The operator's name ("relax.nn.attention"), or "". */
const char *norm_op_name(const Expr *call);
/* Kernel side: a float tensor argument, or OpPrecondition. */
Tensor *norm_float_arg(struct Interp *in, const Expr *call, Value **args, int nargs, int i);
/* Kernel side: OpPrecondition with the operator's rule. */
noreturn void norm_kernel_fail(struct Interp *in, const Expr *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* interp/ops/norm/ops_attention.c */
StructInfo *ops_norm_infer_attention(OpInferCtx *ctx);
Value *ops_norm_kernel_attention(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_norm_infer_attention_var_len(OpInferCtx *ctx);
Value *ops_norm_kernel_attention_var_len(struct Interp *in, const Expr *call, Value **args,
                                         int nargs);

/* interp/ops/norm/ops_loss.c */
StructInfo *ops_norm_infer_cross_entropy(OpInferCtx *ctx);
Value *ops_norm_kernel_cross_entropy(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_norm_infer_nll_loss(OpInferCtx *ctx);
Value *ops_norm_kernel_nll_loss(struct Interp *in, const Expr *call, Value **args, int nargs);

/* interp/ops/norm/ops_pixel_shuffle.c */
StructInfo *ops_norm_infer_pixel_shuffle(OpInferCtx *ctx);
Value *ops_norm_kernel_pixel_shuffle(struct Interp *in, const Expr *call, Value **args, int nargs);

#endif
