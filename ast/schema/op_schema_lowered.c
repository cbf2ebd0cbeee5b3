/* op_schema_lowered: the Python signatures of the lowered IR's operators (R.memory.*, R.vm.*,
 * R.builtin.*, R.inspect.*), so that keyword arguments and defaults read as TVM's Python
 * builds them. SPEC_NOTES: "The lowered IR" (LOW-*). */
#include "ast/schema/op_schema.h"

#include <stddef.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SCHEMA(name, params)                                                                       \
    {                                                                                              \
        "relax." name, params, COUNT(params), NULL, 0                                              \
    }

static const OpParam P_MEM_ALLOC_STORAGE[] = {{"size", OPP_ARG_SHAPE, OPA_INT, NULL},
                                              {"virtual_device_index", OPP_ARG_PRIM, OPA_INT, NULL},
                                              {"storage_scope", OPP_ARG, OPA_INT, NULL},
                                              {"dtype", OPP_ARG_DTYPE, OPA_INT, NULL}};
static const OpParam P_ALLOC_TENSOR[] = {{"storage", OPP_ARG, OPA_INT, NULL},
                                         {"offset", OPP_ARG_PRIM, OPA_INT, NULL},
                                         {"shape", OPP_ARG_SHAPE, OPA_INT, NULL},
                                         {"dtype", OPP_ARG_DTYPE, OPA_INT, NULL}};
static const OpParam P_VM_ALLOC_STORAGE[] = {
    {"shape", OPP_ARG_SHAPE, OPA_INT, NULL},
    {"runtime_device_index", OPP_ARG_PRIM, OPA_INT, NULL},
    {"dtype", OPP_ARG_DTYPE, OPA_INT, NULL},
    {"storage_scope", OPP_ARG, OPA_INT, "R.str(\"global\")"}};
static const OpParam P_BUILTIN_ALLOC_TENSOR[] = {
    {"shape", OPP_ARG_SHAPE, OPA_INT, NULL},
    {"dtype", OPP_ARG_DTYPE, OPA_INT, NULL},
    {"runtime_device_index", OPP_ARG_PRIM, OPA_INT, NULL},
    {"storage_scope", OPP_ARG, OPA_INT, "R.str(\"global\")"}};
static const OpParam P_STORAGE[] = {{"storage", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_TENSOR[] = {{"tensor", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_OBJ[] = {{"obj", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_DATA[] = {{"data", OPP_ARG, OPA_INT, NULL}};
static const OpParam P_X[] = {{"x", OPP_ARG, OPA_INT, NULL}};
/* An omitted shape, dtype or offset is void, R.tuple(), as TVM's Python passes it. */
static const OpParam P_VIEW[] = {{"data", OPP_ARG, OPA_INT, NULL},
                                 {"shape", OPP_ARG_SHAPE, OPA_INT, "R.tuple()"},
                                 {"dtype", OPP_ARG_DTYPE, OPA_INT, "R.tuple()"},
                                 {"relative_byte_offset", OPP_ARG_PRIM, OPA_INT, "R.tuple()"}};
static const OpParam P_FUNC_ARGS[] = {{"func", OPP_ARG, OPA_INT, NULL},
                                      {"args", OPP_ARG_LIST, OPA_INT, NULL}};
static const OpParam P_TENSOR_AXIS[] = {{"tensor", OPP_ARG, OPA_INT, NULL},
                                        {"axis", OPP_ARG_PRIM, OPA_INT, NULL}};

static const OpSchema LOWERED_SCHEMAS[] = {
    SCHEMA("memory.alloc_storage", P_MEM_ALLOC_STORAGE),
    SCHEMA("memory.alloc_tensor", P_ALLOC_TENSOR),
    SCHEMA("memory.kill_storage", P_STORAGE),
    SCHEMA("memory.kill_tensor", P_TENSOR),
    SCHEMA("memory.view", P_VIEW),
    SCHEMA("memory.ensure_zero_offset", P_DATA),
    SCHEMA("vm.alloc_storage", P_VM_ALLOC_STORAGE),
    SCHEMA("vm.alloc_tensor", P_ALLOC_TENSOR),
    SCHEMA("vm.kill_object", P_OBJ),
    SCHEMA("vm.call_tir_dyn", P_FUNC_ARGS),
    SCHEMA("builtin.alloc_tensor", P_BUILTIN_ALLOC_TENSOR),
    SCHEMA("builtin.stop_lift_params", P_X),
    /* Read by the call_builtin_with_ctx form of the parser; listed for the registry. */
    SCHEMA("call_builtin_with_ctx", P_FUNC_ARGS),
    SCHEMA("inspect.tensor_dtype_code", P_TENSOR),
    SCHEMA("inspect.tensor_dtype_bits", P_TENSOR),
    SCHEMA("inspect.tensor_dtype_lanes", P_TENSOR),
    SCHEMA("inspect.tensor_ndim", P_TENSOR),
    SCHEMA("inspect.tensor_shape_i", P_TENSOR_AXIS),
    SCHEMA("inspect.tensor_stride_i", P_TENSOR_AXIS),
    SCHEMA("inspect.tensor_byte_offset", P_TENSOR),
    SCHEMA("inspect.tensor_elem_offset", P_TENSOR),
};

const OpSchema *op_schema_lowered(int *n)
{
    *n = COUNT(LOWERED_SCHEMAS);
    return LOWERED_SCHEMAS;
}

/* The LOW-* rule whose signature a lowered operator's schema reads, or NULL for an operator
 * that is not of the lowered IR. */
const char *op_schema_lowered_rule(const char *name)
{
    static const struct {
        const char *suffix;
        const char *rule;
    } RULES[] = {
        {"alloc_storage", "LOW-alloc_storage"},
        {"alloc_tensor", "LOW-alloc_tensor"},
        {"kill_storage", "LOW-kill"},
        {"kill_tensor", "LOW-kill"},
        {"kill_object", "LOW-kill"},
        {"memory.view", "LOW-view"},
        {"ensure_zero_offset", "LOW-ensure_zero_offset"},
        {"call_tir_dyn", "LOW-call_tir_dyn"},
        {"stop_lift_params", "LOW-stop_lift_params"},
        {"call_builtin_with_ctx", "LOW-call_builtin_with_ctx"},
        {"inspect.", "LOW-inspect"},
    };
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (strstr(name, RULES[i].suffix) != NULL)
            return RULES[i].rule;
    return NULL;
}
