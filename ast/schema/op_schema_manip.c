/* op_schema_manip: the Python signatures of the creation, manipulation, linear algebra and
 * statistical operators (argument/attribute split, defaults). SPEC_NOTES: "Operators". */
#include "ast/schema/op_schema.h"

#include <stddef.h>

/* clang-format off */
#define ARG(n) {n, OPP_ARG, OPA_INT, NULL}
#define ARG_OPT(n) {n, OPP_ARG, OPA_INT, "None"}
#define ARG_LIST(n) {n, OPP_ARG_LIST, OPA_INT, NULL}
#define ARG_SHAPE(n) {n, OPP_ARG_SHAPE, OPA_INT, NULL}
#define ARG_PRIM(n, d) {n, OPP_ARG_PRIM, OPA_INT, d}
#define ARG_PRIM_TUPLE(n, d) {n, OPP_ARG_PRIM_TUPLE, OPA_INT, d}
#define ATTR(n, t, d) {n, OPP_ATTR, t, d}
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SCHEMA(name, params) {name, params, COUNT(params), NULL, 0}
/* clang-format on */

/* Creation (InitAttrs holds only dtype; tril/triu take k as a PrimValue argument). */
static const OpParam P_ZEROS[] = {ARG_SHAPE("shape"), ATTR("dtype", OPA_DTYPE, NULL)};
static const OpParam P_FULL[] = {ARG_SHAPE("shape"), ARG("fill_value"),
                                 ATTR("dtype", OPA_DTYPE, "None")};
static const OpParam P_LIKE[] = {ARG("x"), ATTR("dtype", OPA_DTYPE, "None")};
static const OpParam P_FULL_LIKE[] = {ARG("x"), ARG("fill_value"),
                                      ATTR("dtype", OPA_DTYPE, "None")};
static const OpParam P_ARANGE[] = {ARG_PRIM("start", NULL), ARG_PRIM("end", "None"),
                                   ARG_PRIM("step", "1"), ATTR("dtype", OPA_DTYPE, "None")};
static const OpParam P_EYE[] = {ARG_PRIM("n", NULL), ARG_PRIM("m", "None"), ARG_PRIM("k", "0"),
                                ATTR("dtype", OPA_DTYPE, "\"float32\"")};
static const OpParam P_TRIL[] = {ARG("x"), ARG_PRIM("k", "0")};

/* Manipulation. */
static const OpParam P_RESHAPE[] = {ARG("x"), ARG_SHAPE("shape")};
static const OpParam P_PERMUTE[] = {ARG("x"), ATTR("axes", OPA_OPT_INT_LIST, "None")};
static const OpParam P_EXPAND[] = {ARG("x"), ATTR("axis", OPA_INT_OR_LIST, NULL)};
static const OpParam P_SQUEEZE[] = {ARG("x"), ATTR("axis", OPA_OPT_INT_OR_LIST, "None")};
static const OpParam P_FLATTEN[] = {ARG("x")};
static const OpParam P_CONCAT[] = {ARG_LIST("tensors"), ATTR("axis", OPA_OPT_INT, "0")};
static const OpParam P_SPLIT[] = {ARG("x"), ATTR("indices_or_sections", OPA_INT_KEEP_OR_LIST, NULL),
                                  ATTR("axis", OPA_INT, "0")};
static const OpParam P_BROADCAST[] = {ARG("x"), ARG_SHAPE("shape")};
static const OpParam P_STACK[] = {ARG_LIST("tensors"), ATTR("axis", OPA_OPT_INT, "0")};
static const OpParam P_TILE[] = {ARG("data"), ATTR("repeats", OPA_INT_OR_LIST, NULL)};
static const OpParam P_REPEAT[] = {ARG("data"), ATTR("repeats", OPA_INT, NULL),
                                   ATTR("axis", OPA_OPT_INT, "None")};
static const OpParam P_FLIP[] = {ARG("data"), ATTR("axis", OPA_INT, NULL)};
static const OpParam P_TAKE[] = {ARG("x"), ARG("indices"), ATTR("axis", OPA_OPT_INT, "None"),
                                 ATTR("mode", OPA_STR, "\"fast\"")};
/* v0.22: axes, begin, end and strides are Relax arguments, tuples of PrimValues (index.cc,
 * strided_slice); strides omitted when None. */
static const OpParam P_SLICE[] = {ARG("x"),
                                  ARG_PRIM_TUPLE("axes", NULL),
                                  ARG_PRIM_TUPLE("begin", NULL),
                                  ARG_PRIM_TUPLE("end", NULL),
                                  ARG_PRIM_TUPLE("strides", "None"),
                                  ATTR("assume_inbound", OPA_BOOL, "False")};
static const OpParam P_DYN_SLICE[] = {ARG("x"), ARG("begin"), ARG("end"), ARG("strides")};
static const OpParam P_WHERE[] = {ARG("condition"), ARG("x1"), ARG("x2")};
static const OpParam P_ASTYPE[] = {ARG("x"), ATTR("dtype", OPA_DTYPE, NULL)};

/* Linear algebra. */
static const OpParam P_MATMUL[] = {ARG("x1"), ARG("x2"), ATTR("out_dtype", OPA_DTYPE, "None")};
static const OpParam P_LINEAR[] = {ARG("data"), ARG("weight"), ARG_OPT("bias"),
                                   ATTR("out_dtype", OPA_DTYPE, "None")};
static const OpParam P_OUTER[] = {ARG("x1"), ARG("x2")};
static const OpParam P_EINSUM[] = {ARG_LIST("operands"), ATTR("subscripts", OPA_STR, NULL)};

/* Statistical. */
static const OpParam P_REDUCE[] = {ARG("x"), ATTR("axis", OPA_OPT_INT_OR_LIST, "None"),
                                   ATTR("keepdims", OPA_BOOL, "False")};
static const OpParam P_SCAN[] = {ARG("data"), ATTR("axis", OPA_OPT_INT, "None"),
                                 ATTR("dtype", OPA_DTYPE, "None"),
                                 ATTR("exclusive", OPA_OPT_BOOL, "False")};
static const OpParam P_ARG_REDUCE[] = {ARG("x"), ATTR("axis", OPA_OPT_INT, "None"),
                                       ATTR("keepdims", OPA_BOOL, "False")};

static const OpSchema MANIP_SCHEMAS[] = {
    SCHEMA("relax.zeros", P_ZEROS),
    SCHEMA("relax.ones", P_ZEROS),
    SCHEMA("relax.full", P_FULL),
    SCHEMA("relax.zeros_like", P_LIKE),
    SCHEMA("relax.ones_like", P_LIKE),
    SCHEMA("relax.full_like", P_FULL_LIKE),
    SCHEMA("relax.arange", P_ARANGE),
    SCHEMA("relax.eye", P_EYE),
    SCHEMA("relax.tril", P_TRIL),
    SCHEMA("relax.triu", P_TRIL),
    SCHEMA("relax.reshape", P_RESHAPE),
    SCHEMA("relax.permute_dims", P_PERMUTE),
    SCHEMA("relax.expand_dims", P_EXPAND),
    SCHEMA("relax.squeeze", P_SQUEEZE),
    SCHEMA("relax.flatten", P_FLATTEN),
    SCHEMA("relax.concat", P_CONCAT),
    SCHEMA("relax.split", P_SPLIT),
    SCHEMA("relax.broadcast_to", P_BROADCAST),
    SCHEMA("relax.stack", P_STACK),
    SCHEMA("relax.tile", P_TILE),
    SCHEMA("relax.repeat", P_REPEAT),
    SCHEMA("relax.flip", P_FLIP),
    SCHEMA("relax.take", P_TAKE),
    SCHEMA("relax.strided_slice", P_SLICE),
    SCHEMA("relax.dynamic_strided_slice", P_DYN_SLICE),
    SCHEMA("relax.where", P_WHERE),
    SCHEMA("relax.astype", P_ASTYPE),
    SCHEMA("relax.matmul", P_MATMUL),
    SCHEMA("relax.linear", P_LINEAR),
    SCHEMA("relax.outer", P_OUTER),
    SCHEMA("relax.einsum", P_EINSUM),
    SCHEMA("relax.sum", P_REDUCE),
    SCHEMA("relax.mean", P_REDUCE),
    SCHEMA("relax.max", P_REDUCE),
    SCHEMA("relax.min", P_REDUCE),
    SCHEMA("relax.prod", P_REDUCE),
    SCHEMA("relax.std", P_REDUCE),
    SCHEMA("relax.variance", P_REDUCE),
    SCHEMA("relax.cumsum", P_SCAN),
    SCHEMA("relax.cumprod", P_SCAN),
    SCHEMA("relax.argmax", P_ARG_REDUCE),
    SCHEMA("relax.argmin", P_ARG_REDUCE),
};

const OpSchema *op_schema_manip(int *n)
{
    *n = COUNT(MANIP_SCHEMAS);
    return MANIP_SCHEMAS;
}
