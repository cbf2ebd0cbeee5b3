/* op_schema_ccl: the Python signatures of the collective communication operators
 * (R.ccl.allreduce, allgather, broadcast_from_worker0, scatter_from_worker0) as TVM's
 * relax/op/ccl constructors define them. SPEC_NOTES: "Operators" (OP-ccl.*), 4.23 (CCL-*). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

#define ARG(n)                                                                                     \
    {                                                                                              \
        n, OPP_ARG, OPA_INT, NULL                                                                  \
    }
#define ATTR(n, t, d)                                                                              \
    {                                                                                              \
        n, OPP_ATTR, t, d                                                                          \
    }
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SCHEMA(name, params)                                                                       \
    {                                                                                              \
        name, params, COUNT(params), NULL, 0                                                       \
    }

static const OpParam allreduce_params[] = {
    ARG("x"),
    ATTR("op_type", OPA_STR, "\"sum\""),
    ATTR("in_group", OPA_BOOL, "True"),
};
static const OpParam allgather_params[] = {
    ARG("x"),
    ATTR("num_workers", OPA_INT, NULL),
    ATTR("in_group", OPA_BOOL, "True"),
};
static const OpParam broadcast_params[] = {ARG("x")};
static const OpParam scatter_params[] = {
    ARG("x"),
    ATTR("num_workers", OPA_INT, NULL),
    ATTR("axis", OPA_INT, "0"),
};

static const OpSchema ccl_schemas[] = {
    SCHEMA("relax.ccl.allreduce", allreduce_params),
    SCHEMA("relax.ccl.allgather", allgather_params),
    SCHEMA("relax.ccl.broadcast_from_worker0", broadcast_params),
    SCHEMA("relax.ccl.scatter_from_worker0", scatter_params),
};

const OpSchema *op_schema_ccl(int *n)
{
    *n = COUNT(ccl_schemas);
    return ccl_schemas;
}
