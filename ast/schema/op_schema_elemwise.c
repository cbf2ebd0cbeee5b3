/* op_schema_elemwise: the Python signatures of the elementwise operators (binary, unary,
 * checks, clip). SPEC_NOTES: "Operators" (OP-<name>). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const OpParam P_BINARY[] = {{"x1", OPP_ARG, OPA_INT, NULL}, {"x2", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_UNARY[] = {{"x", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_CLIP[] = {{"x", OPP_ARG, OPA_INT, NULL},
                                 {"min", OPP_ARG_PRIM, OPA_INT, NULL},
                                 {"max", OPP_ARG_PRIM, OPA_INT, NULL}};

#define BINARY(name)                                                                               \
    {                                                                                              \
        "relax." name, P_BINARY, COUNT(P_BINARY), NULL, 0                                          \
    }
#define UNARY(name)                                                                                \
    {                                                                                              \
        "relax." name, P_UNARY, COUNT(P_UNARY), NULL, 0                                            \
    }

static const OpSchema ELEMWISE_SCHEMAS[] = {
    /* Binary arithmetic, comparison, min/max, logical, bitwise (broadcasting). */
    BINARY("add"),
    BINARY("subtract"),
    BINARY("multiply"),
    BINARY("divide"),
    BINARY("floor_divide"),
    BINARY("power"),
    BINARY("mod"),
    BINARY("floor_mod"),
    BINARY("log_add_exp"),
    BINARY("maximum"),
    BINARY("minimum"),
    BINARY("equal"),
    BINARY("not_equal"),
    BINARY("less"),
    BINARY("less_equal"),
    BINARY("greater"),
    BINARY("greater_equal"),
    BINARY("logical_and"),
    BINARY("logical_or"),
    BINARY("logical_xor"),
    BINARY("bitwise_and"),
    BINARY("bitwise_or"),
    BINARY("bitwise_xor"),
    BINARY("left_shift"),
    BINARY("right_shift"),
    /* Unary arithmetic and checks. */
    UNARY("abs"),
    UNARY("negative"),
    UNARY("exp"),
    UNARY("log"),
    UNARY("sqrt"),
    UNARY("rsqrt"),
    UNARY("sin"),
    UNARY("cos"),
    UNARY("tan"),
    UNARY("sinh"),
    UNARY("cosh"),
    UNARY("tanh"),
    UNARY("asin"),
    UNARY("acos"),
    UNARY("atan"),
    UNARY("asinh"),
    UNARY("acosh"),
    UNARY("atanh"),
    UNARY("sigmoid"),
    UNARY("square"),
    UNARY("floor"),
    UNARY("ceil"),
    UNARY("round"),
    UNARY("trunc"),
    UNARY("sign"),
    UNARY("erf"),
    UNARY("isnan"),
    UNARY("isinf"),
    UNARY("isfinite"),
    UNARY("logical_not"),
    UNARY("bitwise_not"),
    {"relax.clip", P_CLIP, COUNT(P_CLIP), NULL, 0},
};

const OpSchema *op_schema_elemwise(int *n)
{
    *n = COUNT(ELEMWISE_SCHEMAS);
    return ELEMWISE_SCHEMAS;
}
