/* op_normalize: the operator-specific normalization rules (NF-5, WF-23). The one rule the
 * spec names: the call_tir family takes its PrimFunc arguments as a literal Tuple.
 * SPEC_NOTES: "Normal form" (NF-5) and "Well-formedness" (WF-23). */
#include "interp/normalize/op_normalize.h"

#include <string.h>

static const char *const TUPLE_ARG_OPS[] = {
    "relax.call_tir",
    "relax.call_tir_with_grad",
    "relax.call_tir_inplace",
};

int op_normalize_tuple_arg(const char *op_name)
{
    int n = (int)(sizeof TUPLE_ARG_OPS / sizeof TUPLE_ARG_OPS[0]);
    for (int i = 0; i < n; i++) {
        if (strcmp(op_name, TUPLE_ARG_OPS[i]) == 0)
            return 1;
    }
    return -1;
}

bool op_normalize_conforms(const Expr *call)
{
    if (call->kind != EXPR_CALL || call->u.call.op->kind != EXPR_OP)
        return true;
    int k = op_normalize_tuple_arg(call->u.call.op->u.op_name);
    if (k < 0 || call->u.call.nargs <= k)
        return true;
    return call->u.call.args[k]->kind == EXPR_TUPLE;
}
