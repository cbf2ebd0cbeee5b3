/* ops_common: helpers every operator family shares: argument checks, broadcasting over
 * symbolic dims, axis normalization, result StructInfo, and reading a call's attributes.
 * SPEC_NOTES: "Operators" (OP-* rules, Op* codes). */
#ifndef RELAX_INTERP_OPS_COMMON_H
#define RELAX_INTERP_OPS_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/ops/ops.h"
#include "values/tensor.h"
#include "values/value.h"

struct Interp;

/* A tensor's shape as inference sees it: dims when known (dims != NULL, ndim >= 0), else
 * only the rank (dims == NULL; ndim -1 when the rank is unknown too). */
typedef struct OpShape {
    PrimExpr **dims;
    int ndim;
} OpShape;

/* ---- inference side: each reporting helper reports through ops_infer_fail and returns
 * false/NULL; the caller then returns ops_infer_object(ctx). ---------------------------- */

/* R.Object for the call, after an error was already reported. */
StructInfo *ops_infer_object(const OpInferCtx *ctx);
/* OpArity unless the call has between min and max arguments. */
bool ops_check_arity(OpInferCtx *ctx, int min, int max);
/* Argument i's TensorStructInfo, or OpArgType. */
const StructInfo *ops_arg_tensor(OpInferCtx *ctx, int i);
/* Argument i's PrimStructInfo, or OpArgType. */
const StructInfo *ops_arg_prim(OpInferCtx *ctx, int i);
/* Argument i's ShapeStructInfo, or OpArgType. */
const StructInfo *ops_arg_shape(OpInferCtx *ctx, int i);

/* The shape a TensorStructInfo describes (a ShapeExpr's dims, a shape variable's known
 * dims, or only the rank). */
OpShape ops_shape_of(const StructInfo *tensor);
/* True when a dim folds to the constant `v`. */
bool ops_dim_is(const PrimExpr *dim, int64_t v);

/* Numpy broadcasting of two shapes, dims compared with the prover: a dim provably 1 takes
 * the other; provably equal dims stay; dims provably unequal and both provably not 1 are
 * OpShapeMismatch; anything undecided leaves the result with its rank only. */
bool ops_broadcast(OpInferCtx *ctx, OpShape a, OpShape b, OpShape *out);
/* Equal dtypes, or OpDTypeMismatch; a void (unknown) dtype on either side gives void. */
bool ops_unify_dtype(OpInferCtx *ctx, DataType a, DataType b, DataType *out);

/* `axis` in [-ndim, ndim) made non-negative, or OpAttr. */
bool ops_normalize_axis(OpInferCtx *ctx, int64_t axis, int ndim, int *out);
/* An axis attribute (an int, a list of ints, or None/absent meaning every axis) as sorted,
 * distinct, non-negative axes; out-of-range or repeated axes are OpAttr. */
bool ops_normalize_axes(OpInferCtx *ctx, const AttrValue *axes, int ndim, int **out, int *n);

/* OP-<name>: true when the shape's dims are sizes: none NULL, the mark of an int64 overflow
 * in the dim arithmetic (ast/checked.h; OpShapeOverflow), none a negative constant
 * (OpShapeMismatch). */
bool ops_dims_fit(OpInferCtx *ctx, OpShape shape);
/* A TensorStructInfo with these dims (a fresh ShapeExpr), or with only the rank when
 * shape.dims is NULL. */
StructInfo *ops_tensor_result(OpShape shape, DataType dtype, VDevice *vdevice, Span span);
/* The vdevice two operands share: the first given one. */
VDevice *ops_pick_vdevice(const StructInfo *a, const StructInfo *b);
/* The vdevice n tensors share: the first given one, or none when two given ones differ (TVM's
 * inference of concat, stack, einsum, meshgrid and where). */
VDevice *ops_common_vdevice(const StructInfo **ts, int n);
/* PrimExpr dims of int64 constants. */
PrimExpr **ops_const_dims(const int64_t *dims, int ndim, Span span);

/* ---- attributes of a call (both sides) -------------------------------------------------- */

/* The attribute, or NULL when absent or None. */
const AttrValue *ops_attr(const Expr *call, const char *key);
int64_t ops_attr_int(const Expr *call, const char *key, int64_t dflt);
double ops_attr_float(const Expr *call, const char *key, double dflt);
bool ops_attr_bool(const Expr *call, const char *key, bool dflt);
const char *ops_attr_str(const Expr *call, const char *key, const char *dflt);
/* A dtype attribute (a string or an R.dtype expression); void when absent, None or "void". */
DataType ops_attr_dtype(const Expr *call, const char *key);
/* An int or a list of ints as a list; false when absent, None or not integers. */
bool ops_attr_int_list(const Expr *call, const char *key, int64_t **out, int *n);

/* ---- kernel side: errors are OpPrecondition with the operator's rule ------------------- */

/* "OP-add" for relax.add, "OP-nn.softmax" for relax.nn.softmax. */
const char *ops_rule_of(const char *op_name);
const char *ops_call_rule(const Expr *call);
/* Argument i as a tensor, or OpPrecondition. */
Tensor *ops_kernel_tensor(struct Interp *in, const Expr *call, Value **args, int nargs, int i);
/* Argument i as a PrimValue, or OpPrecondition. */
const Value *ops_kernel_prim(struct Interp *in, const Expr *call, Value **args, int nargs, int i);
/* Argument i as a shape value, or OpPrecondition. */
const Value *ops_kernel_shape(struct Interp *in, const Expr *call, Value **args, int nargs, int i);
/* `axis` normalized against ndim at run time, or OpPrecondition. */
int ops_kernel_axis(struct Interp *in, const Expr *call, int64_t axis, int ndim);
/* A fresh tensor of zeros, or OpPrecondition when the dtype or size is unsupported. */
Tensor *ops_kernel_new_tensor(struct Interp *in, const Expr *call, DataType dtype, int ndim,
                              const int64_t *shape);
/* The same, its elements not yet set: for a kernel that writes every one of them. */
Tensor *ops_kernel_new_tensor_uninit(struct Interp *in, const Expr *call, DataType dtype,
                                     int ndim, const int64_t *shape);

#endif
