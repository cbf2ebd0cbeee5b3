/* op_schema_layout: the Python signature of relax.layout_transform as TVM's op constructor
 * defines it. SPEC_NOTES: "Operators" (OP-layout_transform), TS-6.2 (index maps). */
#include "ast/schema/op_schema.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* R.layout_transform(x, index_map, pad_value=None, axis_separators=None,
 * input_axis_separators=None); the constructor turns a None separator list into []. */
static const OpParam layout_transform_params[] = {
    {"x", OPP_ARG, OPA_INT, 0},
    {"index_map", OPP_ATTR, OPA_INDEX_MAP, 0},
    {"pad_value", OPP_ATTR, OPA_OPT_PRIM, "None"},
    {"axis_separators", OPP_ATTR, OPA_INT_LIST, "[]"},
    {"input_axis_separators", OPP_ATTR, OPA_INT_LIST, "[]"},
};

static const OpSchema SCHEMAS[] = {
    {"relax.layout_transform", layout_transform_params, COUNT(layout_transform_params), 0, 0},
};

const OpSchema *op_schema_layout(int *n)
{
    *n = COUNT(SCHEMAS);
    return SCHEMAS;
}
