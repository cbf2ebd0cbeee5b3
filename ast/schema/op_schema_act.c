/* op_schema_act: the Python signatures of the parameterized activations (R.nn.leakyrelu,
 * R.nn.softplus, R.nn.selu, R.nn.prelu) and of R.nn.pad as TVM's op constructors define them.
 * SPEC_NOTES: "Operators" (OP-nn.leakyrelu, OP-nn.softplus, OP-nn.selu, OP-nn.prelu). */
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

static const OpParam leakyrelu_params[] = {ARG("data"), ATTR("alpha", OPA_FLOAT, "0.01")};
static const OpParam softplus_params[] = {
    ARG("data"),
    ATTR("beta", OPA_FLOAT, "1.0"),
    ATTR("threshold", OPA_FLOAT, "20.0"),
};
static const OpParam selu_params[] = {ARG("data")};
static const OpParam prelu_params[] = {ARG("data"), ARG("alpha"), ATTR("axis", OPA_INT, "1")};

static const OpParam pad_params[] = {
    ARG("data"),
    ATTR("pad_width", OPA_INT_LIST, NULL),
    ATTR("pad_mode", OPA_STR, "\"constant\""),
    ATTR("pad_value", OPA_FLOAT, "0.0"),
};

static const OpSchema act_schemas[] = {
    SCHEMA("relax.nn.leakyrelu", leakyrelu_params),
    SCHEMA("relax.nn.softplus", softplus_params),
    SCHEMA("relax.nn.selu", selu_params),
    SCHEMA("relax.nn.prelu", prelu_params),
    SCHEMA("relax.nn.pad", pad_params),
};

const OpSchema *op_schema_act(int *n)
{
    *n = COUNT(act_schemas);
    return act_schemas;
}
