/* scatter_internal: what the files of the indexing and scatter family share: their inference
 * and kernel entry points, and small helpers over ops_common. SPEC_NOTES: "Operators"
 * (OP-gather_elements and the rows after it). */
#ifndef RELAX_INTERP_OPS_SCATTER_INTERNAL_H
#define RELAX_INTERP_OPS_SCATTER_INTERNAL_H

#include "interp/ops/ops_common.h"
#include "values/kernels/kernels_scatter.h"

struct Interp;

/* ---- helpers (ops_scatter.c) --------------------------------------------------------------- */

/* An index dtype TVM accepts: a signed integer, or (allow_uint) an unsigned one or bool; void
 * (unknown) passes. */
bool scatter_index_dtype_ok(DataType t, bool allow_uint);
/* A tensor StructInfo with x's shape (its dims when known, else its rank), `dtype` and x's
 * vdevice. */
StructInfo *scatter_like(OpInferCtx *ctx, const StructInfo *x, DataType dtype);
/* The fields of a tuple StructInfo argument that must all be tensors, or OpArgType. */
const StructInfo **scatter_arg_tensors(OpInferCtx *ctx, int i, int *n);
/* The kernel's tensor, or OpPrecondition naming the operator and `err`. */
Value *scatter_result(struct Interp *in, const Expr *call, Tensor *t, const char *err);
/* Argument i as a tuple of tensors (a lone tensor counts as a tuple of one when `lone`). */
Tensor **scatter_kernel_tensors(struct Interp *in, const Expr *call, Value **args, int i, bool lone,
                                int *n);
/* The reduction attribute, or OpPrecondition. */
ScatterReduce scatter_kernel_reduce(struct Interp *in, const Expr *call);

/* ---- gathers (ops_gather.c) ---------------------------------------------------------------- */
StructInfo *scatter_infer_gather_elements(OpInferCtx *ctx);
Value *scatter_eval_gather_elements(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_gather_nd(OpInferCtx *ctx);
Value *scatter_eval_gather_nd(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_index_tensor(OpInferCtx *ctx);
Value *scatter_eval_index_tensor(struct Interp *in, const Expr *call, Value **args, int nargs);

/* ---- scatters (ops_scatter_write.c) -------------------------------------------------------- */
StructInfo *scatter_infer_scatter_elements(OpInferCtx *ctx);
Value *scatter_eval_scatter_elements(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_scatter_nd(OpInferCtx *ctx);
Value *scatter_eval_scatter_nd(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_index_put(OpInferCtx *ctx);
Value *scatter_eval_index_put(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_slice_scatter(OpInferCtx *ctx);
Value *scatter_eval_slice_scatter(struct Interp *in, const Expr *call, Value **args, int nargs);

/* ---- index and coordinate tensors (ops_coords.c) ------------------------------------------- */
StructInfo *scatter_infer_one_hot(OpInferCtx *ctx);
Value *scatter_eval_one_hot(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_nonzero(OpInferCtx *ctx);
Value *scatter_eval_nonzero(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_bucketize(OpInferCtx *ctx);
Value *scatter_eval_bucketize(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *scatter_infer_meshgrid(OpInferCtx *ctx);
Value *scatter_eval_meshgrid(struct Interp *in, const Expr *call, Value **args, int nargs);

#endif
