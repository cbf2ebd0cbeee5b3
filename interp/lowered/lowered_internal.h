/* lowered_internal: what the lowered-IR files share: the per-operator tables and the run-time
 * argument readers. SPEC_NOTES: "The lowered IR" (LOW-*). */
#ifndef RELAX_INTERP_LOWERED_INTERNAL_H
#define RELAX_INTERP_LOWERED_INTERNAL_H

#include <stdnoreturn.h>

#include "interp/eval/interp.h"
#include "interp/ops/ops.h"
#include "values/value.h"

/* Raises a runtime error at the call. */
noreturn void lowered_fail(Interp *in, const Expr *call, const char *code, const char *rule,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Argument i as a tensor / integer PrimValue / shape, else OpPrecondition under `rule`. */
Tensor *lowered_tensor_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                           const char *rule);
int64_t lowered_int_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                        const char *rule);
const Value *lowered_shape_arg(Interp *in, const Expr *call, Value **args, int nargs, int i,
                               const char *rule);
/* True when argument i is void: the empty tuple R.tuple() standing for "unchanged". */
bool lowered_is_void(Value **args, int nargs, int i);

/* Inference helpers: argument i's StructInfo, NULL when absent. */
const StructInfo *lowered_sinfo_arg(const OpInferCtx *ctx, int i);
/* True when argument i's StructInfo is the empty tuple (a void argument). */
bool lowered_sinfo_is_void(const OpInferCtx *ctx, int i);
/* The dtype of an R.dtype(...) argument, or false (nothing reported). */
bool lowered_dtype_expr(const OpInferCtx *ctx, int i, DataType *out);

#endif
