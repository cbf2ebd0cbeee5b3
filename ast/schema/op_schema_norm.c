/* op_schema_norm: the Python signatures of the norms, attention, losses and pixel_shuffle of
 * R.nn, as TVM's op constructors define them. SPEC_NOTES: "Operators" (OP-nn.group_norm on). */
#include "ast/schema/op_schema.h"

#include <stddef.h>

#define ARG(n)                                                                                     \
    {                                                                                              \
        n, OPP_ARG, OPA_INT, NULL                                                                  \
    }
#define OPT_ARG(n)                                                                                 \
    {                                                                                              \
        n, OPP_ARG, OPA_INT, "None"                                                                \
    }
#define ATTR(n, t, d)                                                                              \
    {                                                                                              \
        n, OPP_ATTR, t, d                                                                          \
    }
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const OpParam group_norm_params[] = {
    ARG("data"),
    ARG("gamma"),
    ARG("beta"),
    ATTR("num_groups", OPA_INT, NULL),
    ATTR("channel_axis", OPA_INT, NULL),
    ATTR("axes", OPA_INT_OR_LIST, NULL),
    ATTR("epsilon", OPA_FLOAT, "1e-05"),
    ATTR("center", OPA_BOOL, "True"),
    ATTR("scale", OPA_BOOL, "True"),
};

static const OpParam instance_norm_params[] = {
    ARG("data"),
    ARG("gamma"),
    ARG("beta"),
    ATTR("channel_axis", OPA_INT, NULL),
    ATTR("axes", OPA_INT_OR_LIST, NULL),
    ATTR("epsilon", OPA_FLOAT, "1e-05"),
    ATTR("center", OPA_BOOL, "True"),
    ATTR("scale", OPA_BOOL, "True"),
};

static const OpParam rms_norm_params[] = {
    ARG("data"),
    ARG("weight"),
    ATTR("axes", OPA_INT_OR_LIST, "-1"),
    ATTR("epsilon", OPA_FLOAT, "1e-05"),
};

/* R.nn.attention(q, k, v, bias, ...) is relax.nn.attention without a bias and
 * relax.nn.attention_bias with one (TVM's constructor picks the op); attention_bias is also
 * the name TVM prints, so both names read the same signature. */
static const OpParam attention_params[] = {
    ARG("query"),
    ARG("key"),
    ARG("value"),
    OPT_ARG("bias"),
    ATTR("scale", OPA_OPT_PRIM, "None"),
    ATTR("causal_mask", OPA_OPT_STR, "None"),
    ATTR("window_size", OPA_OPT_INT, "None"),
};

/* The Python order (seqstart_q, max_seqlen_q, seqstart_k, max_seqlen_k); the op's arguments
 * are (seqstart_q, seqstart_k, max_seqlen_q, max_seqlen_k), the defaults filled by the
 * constructor (op_sugar). */
static const OpParam attention_var_len_params[] = {
    ARG("queries"),
    ARG("keys"),
    ARG("values"),
    ARG("seqstart_q"),
    ARG("max_seqlen_q"),
    OPT_ARG("seqstart_k"),
    OPT_ARG("max_seqlen_k"),
    ATTR("scale", OPA_OPT_PRIM, "None"),
    ATTR("causal_mask", OPA_OPT_STR, "None"),
    ATTR("window_size", OPA_OPT_INT, "None"),
};

static const OpParam cross_entropy_params[] = {ARG("predictions"), ARG("labels")};

static const OpParam nll_loss_params[] = {
    ARG("predictions"),
    ARG("targets"),
    OPT_ARG("weights"),
    ATTR("reduction", OPA_STR, "\"mean\""),
    ATTR("ignore_index", OPA_INT, "-100"),
};

static const OpParam pixel_shuffle_params[] = {ARG("data"), ATTR("upscale_factor", OPA_INT, NULL)};

#define SCHEMA(name, params)                                                                       \
    {                                                                                              \
        name, params, COUNT(params), NULL, 0                                                       \
    }

static const OpSchema norm_schemas[] = {
    SCHEMA("relax.nn.group_norm", group_norm_params),
    SCHEMA("relax.nn.instance_norm", instance_norm_params),
    SCHEMA("relax.nn.rms_norm", rms_norm_params),
    SCHEMA("relax.nn.attention", attention_params),
    SCHEMA("relax.nn.attention_bias", attention_params),
    SCHEMA("relax.nn.attention_var_len", attention_var_len_params),
    SCHEMA("relax.nn.cross_entropy_with_logits", cross_entropy_params),
    SCHEMA("relax.nn.nll_loss", nll_loss_params),
    SCHEMA("relax.nn.pixel_shuffle", pixel_shuffle_params),
};

const OpSchema *op_schema_norm(int *n)
{
    *n = COUNT(norm_schemas);
    return norm_schemas;
}
