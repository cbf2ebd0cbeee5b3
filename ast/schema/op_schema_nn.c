/* op_schema_nn: the Python signatures of the nn operators (R.nn.*) and of sorting, topk and
 * unique, as TVM's op constructors define them. SPEC_NOTES: "Operators" (OP-nn.*, OP-sort). */
#include "ast/schema/op_schema.h"

#include <stddef.h>
#include <string.h>

#include "ast/attrs.h"
#include "ast/mem.h"

#define ARG(n)                                                                                     \
    {                                                                                              \
        n, OPP_ARG, OPA_INT, NULL                                                                  \
    }
#define ATTR(n, t, d)                                                                              \
    {                                                                                              \
        n, OPP_ATTR, t, d                                                                          \
    }
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const OpParam unary_params[] = {ARG("data")};

static const OpParam softmax_params[] = {ARG("data"), ATTR("axis", OPA_INT, "-1")};

static const OpParam conv2d_params[] = {
    ARG("data"),
    ARG("weight"),
    ATTR("strides", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("padding", OPA_INT_OR_LIST, "[0, 0]"),
    ATTR("dilation", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("groups", OPA_INT, "1"),
    ATTR("data_layout", OPA_STR, "\"NCHW\""),
    ATTR("kernel_layout", OPA_STR, "\"OIHW\""),
    ATTR("out_layout", OPA_OPT_STR, "None"),
    ATTR("out_dtype", OPA_DTYPE, "None"),
};

/* max_pool2d and avg_pool2d share the signature; only count_include_pad's meaning differs. */
static const OpParam pool2d_params[] = {
    ARG("data"),
    ATTR("pool_size", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("strides", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("padding", OPA_INT_OR_LIST, "[0, 0]"),
    ATTR("dilation", OPA_INT_OR_LIST, "[1, 1]"),
    ATTR("ceil_mode", OPA_BOOL, "False"),
    ATTR("count_include_pad", OPA_BOOL, "False"),
    ATTR("layout", OPA_STR, "\"NCHW\""),
    ATTR("out_layout", OPA_OPT_STR, "None"),
};

/* Pool2DAttrs declares dilation before padding. */
static const char *const pool2d_print[] = {
    "pool_size", "strides",           "dilation", "padding",
    "ceil_mode", "count_include_pad", "layout",   "out_layout",
};

static const OpParam layer_norm_params[] = {
    ARG("data"),
    ARG("gamma"),
    ARG("beta"),
    ATTR("axes", OPA_INT_OR_LIST, NULL),
    ATTR("epsilon", OPA_FLOAT, "1e-05"),
    ATTR("center", OPA_BOOL, "True"),
    ATTR("scale", OPA_BOOL, "True"),
};

static const OpParam batch_norm_params[] = {
    ARG("data"),
    ARG("gamma"),
    ARG("beta"),
    ARG("moving_mean"),
    ARG("moving_var"),
    ATTR("axis", OPA_INT, NULL),
    ATTR("epsilon", OPA_FLOAT, "1e-05"),
    ATTR("center", OPA_BOOL, "True"),
    ATTR("scale", OPA_BOOL, "True"),
    ATTR("momentum", OPA_FLOAT, "0.1"),
    ATTR("training", OPA_BOOL, "True"),
};

static const OpParam dropout_params[] = {ARG("data"), ATTR("rate", OPA_FLOAT, "0.5")};

static const OpParam sort_params[] = {
    ARG("x"),
    ATTR("axis", OPA_INT, "-1"),
    ATTR("descending", OPA_BOOL, "False"),
};

static const OpParam argsort_params[] = {
    ARG("data"),
    ATTR("axis", OPA_INT, "-1"),
    ATTR("descending", OPA_BOOL, "False"),
    ATTR("dtype", OPA_DTYPE, "\"int32\""),
};

static const OpParam topk_params[] = {
    ARG("data"),
    ATTR("k", OPA_INT, "1"),
    ATTR("axis", OPA_INT, "-1"),
    ATTR("ret_type", OPA_STR, "\"both\""),
    ATTR("largest", OPA_BOOL, "True"),
    ATTR("dtype", OPA_DTYPE, "\"int32\""),
};

/* unique takes its flags as PrimValue arguments, not attributes; axis is omitted when None. */
static const OpParam unique_params[] = {
    ARG("x"),
    {"sorted", OPP_ARG_PRIM, OPA_BOOL, "True"},
    {"return_index", OPP_ARG_PRIM, OPA_BOOL, "False"},
    {"return_inverse", OPP_ARG_PRIM, OPA_BOOL, "False"},
    {"return_counts", OPP_ARG_PRIM, OPA_BOOL, "False"},
    {"axis", OPP_ARG_PRIM, OPA_OPT_INT, "None"},
};

#define SCHEMA(name, params)                                                                       \
    {                                                                                              \
        name, params, COUNT(params), NULL, 0                                                       \
    }

static const OpSchema nn_schemas[] = {
    SCHEMA("relax.nn.relu", unary_params),
    SCHEMA("relax.nn.relu6", unary_params),
    SCHEMA("relax.nn.gelu", unary_params),
    SCHEMA("relax.nn.gelu_tanh", unary_params),
    SCHEMA("relax.nn.silu", unary_params),
    SCHEMA("relax.nn.softmax", softmax_params),
    SCHEMA("relax.nn.log_softmax", softmax_params),
    SCHEMA("relax.nn.conv2d", conv2d_params),
    {"relax.nn.max_pool2d", pool2d_params, COUNT(pool2d_params), pool2d_print, COUNT(pool2d_print)},
    {"relax.nn.avg_pool2d", pool2d_params, COUNT(pool2d_params), pool2d_print, COUNT(pool2d_print)},
    SCHEMA("relax.nn.layer_norm", layer_norm_params),
    SCHEMA("relax.nn.batch_norm", batch_norm_params),
    SCHEMA("relax.nn.dropout", dropout_params),
    SCHEMA("relax.sort", sort_params),
    SCHEMA("relax.argsort", argsort_params),
    SCHEMA("relax.topk", topk_params),
    SCHEMA("relax.unique", unique_params),
};

const OpSchema *op_schema_nn(int *n)
{
    *n = COUNT(nn_schemas);
    return nn_schemas;
}

/* ---- canonical attributes ---------------------------------------------------------------- */

static AttrValue *int_list(const int64_t *v, int n, Span span)
{
    AttrValue *l = attr_new(ATTR_LIST, span);
    l->u.list.items = MEM_ARRAY(AttrValue *, n);
    l->u.list.n = n;
    for (int i = 0; i < n; i++)
        l->u.list.items[i] = attr_int(v[i], span);
    return l;
}

/* The most ints a window attribute holds: padding of three spatial axes. */
#define MAX_LIST 6

/* The ints of a list attribute, or 0 when it is not a short list of ints (left as it is). */
static int list_ints(const AttrValue *v, int64_t out[MAX_LIST])
{
    if (v == NULL || v->kind != ATTR_LIST || v->u.list.n > MAX_LIST)
        return 0;
    for (int i = 0; i < v->u.list.n; i++) {
        if (v->u.list.items[i]->kind != ATTR_INT)
            return 0;
        out[i] = v->u.list.items[i]->u.i;
    }
    return v->u.list.n;
}

/* One value repeated for every spatial axis, as the constructors turn an int into a tuple. */
static void complete_list(Attrs *attrs, const char *key, int nsp)
{
    int64_t v[MAX_LIST];
    AttrValue *a = attrs_get(attrs, key);
    if (list_ints(a, v) != 1 || nsp == 1)
        return;
    for (int k = 1; k < nsp; k++)
        v[k] = v[0];
    attrs_set(attrs, key, int_list(v, nsp, a->span));
}

/* GetCompletePadding1D/2D/3D: one value for every side, or one per axis for both of its
 * sides, become the fronts of all axes then their backs. */
static void complete_padding(Attrs *attrs, int nsp)
{
    int64_t v[MAX_LIST], full[MAX_LIST];
    AttrValue *a = attrs_get(attrs, "padding");
    int n = list_ints(a, v);
    if (n != 1 && n != nsp)
        return;
    for (int k = 0; k < 2 * nsp; k++)
        full[k] = v[n == 1 ? 0 : k % nsp];
    attrs_set(attrs, "padding", int_list(full, 2 * nsp, a->span));
}

static void default_out_layout(Attrs *attrs, const char *from)
{
    AttrValue *out = attrs_get(attrs, "out_layout"), *in = attrs_get(attrs, from);
    if (out != NULL && out->kind == ATTR_NONE && in != NULL && in->kind == ATTR_STR)
        attrs_set(attrs, "out_layout", attr_str(in->u.s, out->span));
}

/* The convolutions and pools whose constructors complete their attributes, with their
 * spatial rank and the attribute out_layout defaults to. */
static const struct {
    const char *name;
    int nsp;
    const char *layout;
} WINDOW_OPS[] = {
    {"relax.nn.conv1d", 1, "data_layout"},
    {"relax.nn.conv2d", 2, "data_layout"},
    {"relax.nn.conv3d", 3, "data_layout"},
    {"relax.nn.conv1d_transpose", 1, "data_layout"},
    {"relax.nn.conv2d_transpose", 2, "data_layout"},
    {"relax.nn.max_pool1d", 1, "layout"},
    {"relax.nn.max_pool2d", 2, "layout"},
    {"relax.nn.max_pool3d", 3, "layout"},
    {"relax.nn.avg_pool1d", 1, "layout"},
    {"relax.nn.avg_pool2d", 2, "layout"},
    {"relax.nn.avg_pool3d", 3, "layout"},
    {"relax.nn.adaptive_avg_pool1d", 1, "layout"},
    {"relax.nn.adaptive_avg_pool2d", 2, "layout"},
    {"relax.nn.adaptive_avg_pool3d", 3, "layout"},
};

/* OP-SUGAR: what the Python constructors of python/tvm/relax/op/nn/nn.py and their C++
 * makers (convolution.cc, pooling.cc) store: an int (or a one-value list) for strides,
 * dilation, pool_size, output_padding and output_size repeated per spatial axis, padding
 * completed to both sides of every axis, out_layout None made the input's layout. */
void op_schema_nn_canonicalize(const char *name, struct Attrs *attrs)
{
    static const char *const LISTS[] = {"strides", "dilation", "pool_size", "output_padding",
                                        "output_size"};
    for (size_t i = 0; i < sizeof WINDOW_OPS / sizeof WINDOW_OPS[0]; i++) {
        if (strcmp(name, WINDOW_OPS[i].name) != 0)
            continue;
        for (size_t k = 0; k < sizeof LISTS / sizeof LISTS[0]; k++)
            complete_list(attrs, LISTS[k], WINDOW_OPS[i].nsp);
        if (attrs_get(attrs, "padding") != NULL)
            complete_padding(attrs, WINDOW_OPS[i].nsp);
        default_out_layout(attrs, WINDOW_OPS[i].layout);
        return;
    }
}
