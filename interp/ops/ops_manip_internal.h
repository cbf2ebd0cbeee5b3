/* ops_manip_internal: what the files of the creation, manipulation, linear algebra and
 * statistical families share: symbolic dim arithmetic, result helpers, and each operator's
 * inference and kernel, gathered into one table by ops_manip. SPEC_NOTES: "Operators". */
#ifndef RELAX_INTERP_OPS_MANIP_INTERNAL_H
#define RELAX_INTERP_OPS_MANIP_INTERNAL_H

#include "interp/ops/ops_common.h"
#include "values/kernels/kernels_manip.h"

/* Dim arithmetic that folds constants (and the identities 0 + x, 1 * x), checked: NULL when
 * a folded constant overflows int64 or an operand is NULL (ops_dims_fit reports it). */
PrimExpr *manip_dim_add(PrimExpr *a, PrimExpr *b);
PrimExpr *manip_dim_sub(PrimExpr *a, PrimExpr *b);
PrimExpr *manip_dim_mul(PrimExpr *a, PrimExpr *b);
PrimExpr *manip_dim_int(int64_t v);
PrimExpr *manip_dim_product(PrimExpr *const *dims, int n);
/* The attribute is written and is None (absent attributes take their default instead). */
bool manip_attr_is_none(const Expr *call, const char *key);
/* The tensors of a Tuple argument (OPP_ARG_LIST), or OpArgType. */
bool manip_arg_tensors(OpInferCtx *ctx, int i, const StructInfo ***out, int *n);
/* A kernel's result as a value; a NULL tensor raises OpPrecondition with `err`. */
Value *manip_result(struct Interp *in, const Expr *call, Tensor *t, const char *err);
/* The tensors of a tuple value, or OpPrecondition. */
Tensor **manip_kernel_tensors(struct Interp *in, const Expr *call, const Value *v, int *n);
/* A PrimValue argument as int64 (a float truncates), or OpPrecondition. */
int64_t manip_kernel_int(struct Interp *in, const Expr *call, Value **args, int nargs, int i);

#define MANIP_DECLARE(op)                                                                          \
    StructInfo *manip_infer_##op(OpInferCtx *ctx);                                                 \
    Value *manip_eval_##op(struct Interp *in, const Expr *call, Value **args, int nargs);

/* ops_create.c */
MANIP_DECLARE(zeros)
MANIP_DECLARE(ones)
MANIP_DECLARE(full)
MANIP_DECLARE(zeros_like)
MANIP_DECLARE(ones_like)
MANIP_DECLARE(full_like)
MANIP_DECLARE(arange)
MANIP_DECLARE(eye)
MANIP_DECLARE(tril)
MANIP_DECLARE(triu)
/* ops_manip.c */
MANIP_DECLARE(reshape)
MANIP_DECLARE(permute_dims)
MANIP_DECLARE(expand_dims)
MANIP_DECLARE(squeeze)
MANIP_DECLARE(flatten)
MANIP_DECLARE(broadcast_to)
MANIP_DECLARE(tile)
MANIP_DECLARE(repeat)
MANIP_DECLARE(flip)
/* ops_join.c */
MANIP_DECLARE(concat)
MANIP_DECLARE(split)
MANIP_DECLARE(stack)
/* ops_index.c */
MANIP_DECLARE(take)
MANIP_DECLARE(strided_slice)
MANIP_DECLARE(dynamic_strided_slice)
MANIP_DECLARE(where)
MANIP_DECLARE(astype)
/* ops_linalg.c */
MANIP_DECLARE(matmul)
MANIP_DECLARE(linear)
MANIP_DECLARE(outer)
MANIP_DECLARE(einsum)
/* ops_stat.c */
MANIP_DECLARE(sum)
MANIP_DECLARE(mean)
MANIP_DECLARE(max)
MANIP_DECLARE(min)
MANIP_DECLARE(prod)
MANIP_DECLARE(std)
MANIP_DECLARE(variance)
MANIP_DECLARE(cumsum)
MANIP_DECLARE(cumprod)
MANIP_DECLARE(argmax)
MANIP_DECLARE(argmin)

#endif
