/* op_schema_scatter: the Python signatures of the indexing and scatter operators (gather, scatter,
 * index_put, one_hot, nonzero, bucketize, meshgrid) as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-gather_elements and the rows after it). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

/* clang-format off */
#define ARG(n) {n, OPP_ARG, OPA_INT, NULL}
#define ARG_LIST(n) {n, OPP_ARG_LIST, OPA_INT, NULL}
#define ARG_PRIM(n) {n, OPP_ARG_PRIM, OPA_INT, NULL}
#define ATTR(n, t, d) {n, OPP_ATTR, t, d}
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SCHEMA(name, params) {name, params, COUNT(params), NULL, 0}
/* clang-format on */

/* python/tvm/relax/op/manipulate.py */
static const OpParam P_GATHER_ELEMENTS[] = {ARG("data"), ARG("indices"),
                                            ATTR("axis", OPA_INT, "0")};
static const OpParam P_GATHER_ND[] = {ARG("data"), ARG("indices"),
                                      ATTR("batch_dims", OPA_INT, "0")};
/* A list or tuple of tensors becomes one Tuple argument; a tuple-valued expression passes. */
static const OpParam P_INDEX_TENSOR[] = {ARG("data"), ARG_LIST("indices")};
static const OpParam P_INDEX_PUT[] = {ARG("data"), ARG_LIST("indices"), ARG("values"),
                                      ATTR("accumulate", OPA_BOOL, "False")};
static const OpParam P_MESHGRID[] = {ARG_LIST("tensors"), ATTR("indexing", OPA_OPT_STR, "\"ij\"")};
static const OpParam P_SCATTER_ELEMENTS[] = {ARG("data"), ARG("indices"), ARG("updates"),
                                             ATTR("axis", OPA_INT, "0"),
                                             ATTR("reduction", OPA_STR, "\"update\"")};
static const OpParam P_SCATTER_ND[] = {ARG("data"), ARG("indices"), ARG("updates"),
                                       ATTR("reduction", OPA_STR, "\"update\"")};
/* start, end and step become PrimValue arguments, printed before the axis attribute. */
static const OpParam P_SLICE_SCATTER[] = {ARG("input_tensor"), ARG("src"),
                                          ARG_PRIM("start"),   ARG_PRIM("end"),
                                          ARG_PRIM("step"),    ATTR("axis", OPA_INT, "0")};
static const OpParam P_ONE_HOT[] = {ARG("indices"), ARG_PRIM("on_value"), ARG_PRIM("off_value"),
                                    ATTR("depth", OPA_INT, NULL), ATTR("axis", OPA_INT, "-1")};
/* python/tvm/relax/op/set.py (TVMScript v0.22 does not export R.nonzero; the printer writes it) */
static const OpParam P_NONZERO[] = {ARG("x")};
/* python/tvm/relax/op/search.py */
static const OpParam P_BUCKETIZE[] = {ARG("input_tensor"), ARG("boundaries"),
                                      ATTR("out_int32", OPA_BOOL, "False"),
                                      ATTR("right", OPA_BOOL, "False")};

static const OpSchema SCATTER_SCHEMAS[] = {
    SCHEMA("relax.gather_elements", P_GATHER_ELEMENTS),
    SCHEMA("relax.gather_nd", P_GATHER_ND),
    SCHEMA("relax.index_tensor", P_INDEX_TENSOR),
    SCHEMA("relax.scatter_elements", P_SCATTER_ELEMENTS),
    SCHEMA("relax.scatter_nd", P_SCATTER_ND),
    SCHEMA("relax.index_put", P_INDEX_PUT),
    SCHEMA("relax.slice_scatter", P_SLICE_SCATTER),
    SCHEMA("relax.one_hot", P_ONE_HOT),
    SCHEMA("relax.nonzero", P_NONZERO),
    SCHEMA("relax.bucketize", P_BUCKETIZE),
    SCHEMA("relax.meshgrid", P_MESHGRID),
};

const OpSchema *op_schema_scatter(int *n)
{
    *n = COUNT(SCATTER_SCHEMAS);
    return SCATTER_SCHEMAS;
}
