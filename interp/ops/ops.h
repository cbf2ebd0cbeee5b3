/* ops: the operator registry: per operator its StructInfo inference, purity and kernel.
 * SPEC_NOTES: "Operators" (OP-<name> rules, Op* codes). */
#ifndef RELAX_INTERP_OPS_H
#define RELAX_INTERP_OPS_H

#include <stdbool.h>

#include "ast/expr.h"
#include "ast/schema/op_schema.h"
#include "interp/diag.h"
#include "values/value.h"

struct Interp;

/* What an inference function sees: the call (its args' StructInfo already derived in
 * `arg_sinfo`) and where to report errors. */
typedef struct OpInferCtx {
    const Expr *call;
    StructInfo *const *arg_sinfo;
    int nargs;
    DiagList *errors;
    const char *rule; /* "OP-<short name>", e.g. "OP-add" */
} OpInferCtx;

typedef StructInfo *(*OpInferFn)(OpInferCtx *ctx);
/* Evaluates the call on evaluated arguments; errors via interp_fail (OpPrecondition with the
 * operator's rule id). */
typedef Value *(*OpKernelFn)(struct Interp *in, const Expr *call, Value **args, int nargs);

typedef struct OpImpl {
    const char *name; /* "relax.add" */
    bool pure;
    OpInferFn infer;    /* NULL: inference not implemented */
    OpKernelFn kernel;  /* NULL: no kernel */
    const char *dtypes; /* the dtypes the kernel supports, for the status table: "all", "float",
                           "int", ... */
} OpImpl;

/* The implementation of an operator, or NULL. */
const OpImpl *ops_lookup(const char *name);
const OpImpl *const *ops_all(int *n);

/* Runs the operator's inference. Every inference returns a StructInfo: R.Object after it
 * reported an error (ops_infer_object, ops_infer_fail). NULL would be a bug in the
 * inference, which ends the process with a message rather than pass for R.Object. */
StructInfo *ops_infer(const OpImpl *impl, OpInferCtx *ctx);

/* Reports a struct_info error naming the operator and returns R.Object for the call. */
StructInfo *ops_infer_fail(OpInferCtx *ctx, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Family tables (interp/ops_<family>.c). */
const OpImpl *ops_elemwise(int *n);
const OpImpl *ops_manip(int *n);
const OpImpl *ops_nn(int *n);
const OpImpl *ops_window(int *n);  /* the other convolutions and pools */
const OpImpl *ops_act(int *n);     /* leakyrelu, softplus, selu, prelu */
const OpImpl *ops_scatter(int *n); /* gather, scatter, index_put, one_hot, nonzero, ... */
const OpImpl *ops_norm(int *n);    /* group/instance/rms_norm, attention, losses */
const OpImpl *ops_misc(int *n);    /* creation, image, vision, quantization, gradients */
/* The lowered IR's operators (interp/lowered/). */
const OpImpl *ops_lowered_memory(int *n);
const OpImpl *ops_lowered_view(int *n);
const OpImpl *ops_layout(int *n); /* layout_transform */
const OpImpl *ops_ccl(int *n);    /* the collectives on a session of one worker */

#endif
