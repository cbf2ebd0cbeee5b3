/* op_schema: each Relax operator's Python signature as TVMScript writes it: which parameters
 * are Relax arguments and which are attributes, with attribute types and defaults. The parser
 * uses it to build calls exactly as TVM's op constructors do. SPEC_NOTES: "Operators" (OP-*). */
#ifndef RELAX_AST_OP_SCHEMA_H
#define RELAX_AST_OP_SCHEMA_H

#include <stdbool.h>

#include "ast/primexpr.h"

typedef enum OpParamKind {
    OPP_ARG,       /* a Relax expression argument (tensor, tuple, PrimValue, ...) */
    OPP_ARG_LIST,  /* a list/tuple of expressions packed into one Tuple argument (concat) */
    OPP_ARG_SHAPE, /* a shape: tuple/list of dims → ShapeExpr argument, or an expression */
    OPP_ARG_PRIM, /* a scalar: Python number or PrimExpr → PrimValue argument, or an expression */
    OPP_ARG_DTYPE, /* a data type: a string → R.dtype argument (DataTypeImm), or an expression */
    OPP_ARG_PRIM_TUPLE, /* a list/tuple of scalars → a Tuple of PrimValues (strided_slice's
                         * axes, begin, end, strides), or an expression; "None" omits it */
    OPP_ATTR,           /* an attribute */
} OpParamKind;

typedef enum OpAttrType {
    OPA_INT,
    OPA_FLOAT,
    OPA_BOOL,
    OPA_OPT_BOOL, /* a bool, or None read as false */
    OPA_STR,
    OPA_DTYPE,       /* a dtype string; "void" when unknown */
    OPA_INT_LIST,    /* list of ints */
    OPA_FLOAT_LIST,  /* list of numbers (T.float32(0.5) too), each kept as a float */
    OPA_INT_OR_LIST, /* an int or a list of ints (axis=1 or axis=[1, 2]); an int becomes [int] */
    OPA_INT_KEEP_OR_LIST, /* an int kept as an int, or a list of ints (split's sections) */
    OPA_OPT_INT,          /* an int or None */
    OPA_OPT_INT_LIST,     /* a list of ints or None */
    OPA_OPT_INT_OR_LIST,
    OPA_OPT_FLOAT,
    OPA_OPT_STR,
    OPA_INDEX_MAP, /* T.index_map(lambda ...) or a bare lambda (TS-6.2) */
    OPA_OPT_PRIM,  /* None, a Python number, or an R.prim_value(...) expression */
} OpAttrType;

typedef struct OpParam {
    const char *name;
    OpParamKind kind;
    OpAttrType attr_type; /* OPP_ATTR only */
    /* The default as Python literal text ("None", "False", "-1", "[1, 1]", "\"NCHW\""), or
     * NULL when the parameter is required. Argument defaults may be "None" (omitted). */
    const char *default_text;
} OpParam;

typedef struct OpSchema {
    const char *name; /* "relax.add", "relax.nn.conv2d" */
    const OpParam *params;
    int nparams;
    /* Attribute order as TVM prints them (the attrs node's field order); NULL: the order of
     * the OPP_ATTR params. */
    const char *const *print_order;
    int nprint_order;
} OpSchema;

/* The schema of an operator, or NULL when the registry does not know it. */
const OpSchema *op_schema_lookup(const char *name);
/* Every schema, in registry order (for the status table). */
const OpSchema *const *op_schema_all(int *n);

/* Family tables, one file each (ast/op_schema_<family>.c). */
const OpSchema *op_schema_elemwise(int *n); /* binary, unary */
const OpSchema *op_schema_manip(int *n);   /* creation, manipulation, linear algebra, statistical */
const OpSchema *op_schema_nn(int *n);      /* nn, search and sort */
const OpSchema *op_schema_window(int *n);  /* the other convolutions and pools */
const OpSchema *op_schema_act(int *n);     /* leakyrelu, softplus, selu, prelu */
const OpSchema *op_schema_scatter(int *n); /* gather, scatter, index_put, one_hot, ... */
const OpSchema *op_schema_norm(int *n);    /* group/instance/rms_norm, attention, losses */
const OpSchema *op_schema_misc(int *n);    /* creation, image, vision, quantization, grad */
const OpSchema *op_schema_lowered(int *n); /* the lowered IR: memory, vm, builtin, inspect */
/* The LOW-* rule of a lowered operator ("relax.memory.view": "LOW-view"), else NULL. */
const char *op_schema_lowered_rule(const char *name);
const OpSchema *op_schema_layout(int *n); /* layout_transform */
const OpSchema *op_schema_ccl(int *n);    /* ccl.allreduce, allgather, ... (one worker) */

struct Attrs;
/* What TVM's nn op constructors do to attributes after defaults are filled, so that calls
 * print canonically: conv2d and pooling pairs (strides, dilation, pool_size) of one value
 * doubled, padding of 1 or 2 values completed to (top, left, bottom, right), a None
 * out_layout set to the input layout. A no-op for other operators. */
void op_schema_nn_canonicalize(const char *name, struct Attrs *attrs);

/* reshape's -1 dim as TVM's ConvertNewShapeToExpr computes it: the element count of `in`
 * floor-divided by the product of dims other than `at` (constants at most 0 left out), a
 * product divided exactly where its factors allow (n * 12 // n is 12), simplified; NULL when
 * a constant product passes int64. */
PrimExpr *op_schema_reshape_inferred(PrimExpr *const *in, int nin, PrimExpr *const *dims, int n,
                                     int at, Span sp);

struct Expr;
/* What TVM's Python op constructors do beyond binding (OP-SUGAR): R.arange(end) starts at 0
 * and its dtype follows its arguments, R.eye(n) is n x n, R.nn.relu6 is R.clip(x, 0, 6),
 * R.linear is matmul + permute_dims (+ add). Returns the call to use in place of `call`. */
struct Expr *op_schema_sugar(struct Expr *call);

#endif
