/* op_schema_window: the Python signatures of the sliding-window nn operators beyond conv2d and
 * pool2d (conv1d, conv3d, the transposed convolutions, 1-D and 3-D pooling, adaptive average
 * pooling), as TVM's op constructors define them. SPEC_NOTES: "Operators" (OP-nn.conv1d, ...). */
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

#define CONV_PARAMS(name, ones, zeros, dl, kl)                                                     \
    static const OpParam name[] = {                                                                \
        ARG("data"),                                                                               \
        ARG("weight"),                                                                             \
        ATTR("strides", OPA_INT_OR_LIST, ones),                                                    \
        ATTR("padding", OPA_INT_OR_LIST, zeros),                                                   \
        ATTR("dilation", OPA_INT_OR_LIST, ones),                                                   \
        ATTR("groups", OPA_INT, "1"),                                                              \
        ATTR("data_layout", OPA_STR, dl),                                                          \
        ATTR("kernel_layout", OPA_STR, kl),                                                        \
        ATTR("out_layout", OPA_OPT_STR, "None"),                                                   \
        ATTR("out_dtype", OPA_DTYPE, "None"),                                                      \
    }

CONV_PARAMS(conv1d_params, "[1]", "[0]", "\"NCW\"", "\"OIW\"");
CONV_PARAMS(conv3d_params, "[1, 1, 1]", "[0, 0, 0]", "\"NCDHW\"", "\"OIDHW\"");

#define CONV_T_PARAMS(name, ones, zeros, dl, kl)                                                   \
    static const OpParam name[] = {                                                                \
        ARG("data"),                                                                               \
        ARG("weight"),                                                                             \
        ATTR("strides", OPA_INT_OR_LIST, ones),                                                    \
        ATTR("padding", OPA_INT_OR_LIST, zeros),                                                   \
        ATTR("output_padding", OPA_INT_OR_LIST, zeros),                                            \
        ATTR("dilation", OPA_INT_OR_LIST, ones),                                                   \
        ATTR("groups", OPA_INT, "1"),                                                              \
        ATTR("data_layout", OPA_STR, dl),                                                          \
        ATTR("kernel_layout", OPA_STR, kl),                                                        \
        ATTR("out_layout", OPA_OPT_STR, "None"),                                                   \
        ATTR("out_dtype", OPA_DTYPE, "None"),                                                      \
    }

CONV_T_PARAMS(conv1d_t_params, "[1]", "[0]", "\"NCW\"", "\"IOW\"");
CONV_T_PARAMS(conv2d_t_params, "[1, 1]", "[0, 0]", "\"NCHW\"", "\"IOHW\"");

/* avg pooling counts padding by default, max pooling does not (the 1-D and 3-D constructors'
 * defaults differ from each other, not only from pool2d's). */
#define POOL_PARAMS(name, ones, zeros, count_pad, layout)                                          \
    static const OpParam name[] = {                                                                \
        ARG("data"),                                                                               \
        ATTR("pool_size", OPA_INT_OR_LIST, ones),                                                  \
        ATTR("strides", OPA_INT_OR_LIST, ones),                                                    \
        ATTR("padding", OPA_INT_OR_LIST, zeros),                                                   \
        ATTR("dilation", OPA_INT_OR_LIST, ones),                                                   \
        ATTR("ceil_mode", OPA_BOOL, "False"),                                                      \
        ATTR("count_include_pad", OPA_BOOL, count_pad),                                            \
        ATTR("layout", OPA_STR, layout),                                                           \
        ATTR("out_layout", OPA_OPT_STR, "None"),                                                   \
    }

POOL_PARAMS(max_pool1d_params, "[1]", "[0, 0]", "False", "\"NCW\"");
POOL_PARAMS(avg_pool1d_params, "[1]", "[0, 0]", "True", "\"NCW\"");
POOL_PARAMS(max_pool3d_params, "[1, 1, 1]", "[0, 0, 0]", "False", "\"NCDHW\"");
POOL_PARAMS(avg_pool3d_params, "[1, 1, 1]", "[0, 0, 0]", "True", "\"NCDHW\"");

/* Pool1DAttrs and Pool3DAttrs declare dilation before padding, as Pool2DAttrs. */
static const char *const pool_print[] = {
    "pool_size", "strides",           "dilation", "padding",
    "ceil_mode", "count_include_pad", "layout",   "out_layout",
};

#define ADAPTIVE_PARAMS(name, layout)                                                              \
    static const OpParam name[] = {                                                                \
        ARG("data"),                                                                               \
        ATTR("output_size", OPA_OPT_INT_OR_LIST, "None"),                                          \
        ATTR("layout", OPA_STR, layout),                                                           \
        ATTR("out_layout", OPA_OPT_STR, "None"),                                                   \
    }

ADAPTIVE_PARAMS(adaptive1d_params, "\"NCW\"");
ADAPTIVE_PARAMS(adaptive2d_params, "\"NCHW\"");
ADAPTIVE_PARAMS(adaptive3d_params, "\"NCDHW\"");

#define SCHEMA(name, params)                                                                       \
    {                                                                                              \
        name, params, COUNT(params), NULL, 0                                                       \
    }
#define POOL_SCHEMA(name, params)                                                                  \
    {                                                                                              \
        name, params, COUNT(params), pool_print, COUNT(pool_print)                                 \
    }

static const OpSchema window_schemas[] = {
    SCHEMA("relax.nn.conv1d", conv1d_params),
    SCHEMA("relax.nn.conv3d", conv3d_params),
    SCHEMA("relax.nn.conv1d_transpose", conv1d_t_params),
    SCHEMA("relax.nn.conv2d_transpose", conv2d_t_params),
    POOL_SCHEMA("relax.nn.max_pool1d", max_pool1d_params),
    POOL_SCHEMA("relax.nn.avg_pool1d", avg_pool1d_params),
    POOL_SCHEMA("relax.nn.max_pool3d", max_pool3d_params),
    POOL_SCHEMA("relax.nn.avg_pool3d", avg_pool3d_params),
    SCHEMA("relax.nn.adaptive_avg_pool1d", adaptive1d_params),
    SCHEMA("relax.nn.adaptive_avg_pool2d", adaptive2d_params),
    SCHEMA("relax.nn.adaptive_avg_pool3d", adaptive3d_params),
};

const OpSchema *op_schema_window(int *n)
{
    *n = COUNT(window_schemas);
    return window_schemas;
}
