/* astform_leaf: the `ast:` reader for the leaves of the grammar: PrimExprs, StructInfo,
 * VDevices, Constant data and attribute values. SPEC_NOTES: "The ast: form" (rule AST-1). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast/astform/astform_read.h"
#include "ast/mem.h"
#include "ast/scalar.h"
#include "ast/script/script_index_map.h"
#include "ast/text/py_parser.h"

/* ---- PrimExpr ---------------------------------------------------------------------- */

static const struct {
    const char *name;
    PrimExprKind kind;
} binary_ops[] = {
    {"Add", PE_ADD},
    {"Sub", PE_SUB},
    {"Mul", PE_MUL},
    {"Div", PE_DIV},
    {"Mod", PE_MOD},
    {"FloorDiv", PE_FLOORDIV},
    {"FloorMod", PE_FLOORMOD},
    {"Min", PE_MIN},
    {"Max", PE_MAX},
    {"EQ", PE_EQ},
    {"NE", PE_NE},
    {"LT", PE_LT},
    {"LE", PE_LE},
    {"GT", PE_GT},
    {"GE", PE_GE},
    {"And", PE_AND},
    {"Or", PE_OR},
};

static bool int_fits(int64_t v, DataType t)
{
    if (t.bits >= 64)
        return t.code == DT_INT || v >= 0;
    if (t.code == DT_INT)
        return v >= -(INT64_C(1) << (t.bits - 1)) && v < (INT64_C(1) << (t.bits - 1));
    return v >= 0 && v < (INT64_C(1) << t.bits);
}

/* {ShapeVar: n} | {ShapeVar: n, dtype: int32} */
static PrimExpr *read_shape_var(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"dtype", NULL};
    const char *key = ast_scalar(r, value, "a ShapeVar name");
    AstFields f = ast_sibling_fields(r, node, "ShapeVar", allowed);
    yaml_node_t *dt = ast_field(r, &f, "dtype");
    TirVar *v = ast_table_get(&r->shape_vars, key);
    if (v == NULL) {
        v = tirvar_new(ast_name_hint(r, value, key), dt ? ast_dtype(r, dt) : dtype_int64(),
                       ast_span(r, node));
        ast_table_put(&r->shape_vars, key, v);
    } else if (dt != NULL && !dtype_equal(ast_dtype(r, dt), v->dtype)) {
        ast_fail(r, dt, "ShapeVar '%s' was first given dtype %s", key, dtype_str(v->dtype));
    }
    return primexpr_var(v, ast_span(r, node));
}

/* {IntImm: 3} | {IntImm: {value: 3, dtype: int32}} */
static PrimExpr *read_int_imm(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"value", "dtype", NULL};
    DataType t = dtype_int64();
    yaml_node_t *v = value;
    if (value->type == YAML_MAPPING_NODE) {
        AstFields f = ast_fields(r, node, value, "IntImm", allowed);
        v = ast_field_req(r, &f, "value");
        yaml_node_t *dt = ast_field(r, &f, "dtype");
        if (dt != NULL)
            t = ast_dtype(r, dt);
    }
    if (!dtype_is_int(t) && !dtype_is_uint(t))
        ast_fail(r, node, "an IntImm needs an integer or bool dtype, not %s", dtype_str(t));
    int64_t i;
    if (dtype_is_bool(t) && ast_is_scalar(v) &&
        strspn((const char *)v->data.scalar.value, "0123456789-") == 0)
        i = ast_bool(r, v, "a bool IntImm");
    else
        i = ast_int(r, v, "an IntImm value");
    if (!int_fits(i, t))
        ast_fail(r, v, "%lld does not fit %s", (long long)i, dtype_str(t));
    return primexpr_int(i, t, ast_span(r, node));
}

static double read_double(AstReader *r, yaml_node_t *node, const char *what)
{
    const char *s = ast_scalar(r, node, what);
    const char *p = s[0] == '+' || s[0] == '-' ? s + 1 : s;
    double sign = s[0] == '-' ? -1.0 : 1.0;
    if (strcmp(p, "nan") == 0 || strcmp(p, ".nan") == 0 || strcmp(p, "NaN") == 0 ||
        strcmp(p, ".NaN") == 0)
        return NAN;
    if (strcmp(p, "inf") == 0 || strcmp(p, ".inf") == 0 || strcmp(p, "Inf") == 0 ||
        strcmp(p, ".Inf") == 0)
        return sign * INFINITY;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (s[0] == '\0' || *end != '\0' || isnan(d) || isinf(d))
        ast_fail(r, node, "%s must be a number, found '%s'", what, s);
    return d;
}

/* {FloatImm: 1.5} | {FloatImm: {value: 1.5, dtype: float32}} (dtype default float32) */
static PrimExpr *read_float_imm(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"value", "dtype", NULL};
    DataType t = dtype_float32();
    yaml_node_t *v = value;
    if (value->type == YAML_MAPPING_NODE) {
        AstFields f = ast_fields(r, node, value, "FloatImm", allowed);
        v = ast_field_req(r, &f, "value");
        yaml_node_t *dt = ast_field(r, &f, "dtype");
        if (dt != NULL)
            t = ast_dtype(r, dt);
    }
    if (!dtype_is_float(t))
        ast_fail(r, node, "a FloatImm needs a float dtype, not %s", dtype_str(t));
    return primexpr_float(read_double(r, v, "a FloatImm value"), t, ast_span(r, node));
}

/* Operands as a list [a, b, ...] or as the grammar's named fields. */
static void read_operands(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *name,
                          const char *const *fields, PrimExpr **out)
{
    int want = 0;
    while (fields[want] != NULL)
        want++;
    if (value->type == YAML_SEQUENCE_NODE) {
        if (ast_seq_len(value) != want)
            ast_fail(r, value, "%s takes %d operands, found %d", name, want, ast_seq_len(value));
        for (int i = 0; i < want; i++)
            out[i] = ast_read_primexpr(r, ast_seq_item(r, value, i));
        return;
    }
    if (!ast_is_field_form(r, value, fields))
        ast_fail(r, value, "%s takes a list of %d operands", name, want);
    AstFields f = ast_fields(r, node, value, name, fields);
    for (int i = 0; i < want; i++)
        out[i] = ast_read_primexpr(r, ast_field_req(r, &f, fields[i]));
}

static PrimExpr *read_binary(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *name,
                             PrimExprKind kind)
{
    static const char *const fields[] = {"a", "b", NULL};
    PrimExpr *ab[2];
    read_operands(r, node, value, name, fields, ab);
    if (!dtype_equal(ab[0]->dtype, ab[1]->dtype))
        ast_fail(r, node, "the operands of %s have different dtypes, %s and %s", name,
                 dtype_str(ab[0]->dtype), dtype_str(ab[1]->dtype));
    return primexpr_binary(kind, ab[0], ab[1], ast_span(r, node));
}

/* {Not: a} | {Select: [c, a, b]} | {Cast: {dtype: t, value: a}} */
static PrimExpr *read_unary_or_select(AstReader *r, yaml_node_t *node, yaml_node_t *value,
                                      const char *name)
{
    Span sp = ast_span(r, node);
    if (strcmp(name, "Not") == 0) {
        static const char *const fields[] = {"a", NULL};
        PrimExpr *a;
        if (ast_is_field_form(r, value, fields))
            read_operands(r, node, value, name, fields, &a);
        else
            a = ast_read_primexpr(r, value);
        PrimExpr *e = primexpr_new(PE_NOT, dtype_bool(), sp);
        e->u.operand = a;
        return e;
    }
    if (strcmp(name, "Select") == 0) {
        static const char *const fields[] = {"condition", "true_value", "false_value", NULL};
        PrimExpr *ops[3];
        read_operands(r, node, value, name, fields, ops);
        PrimExpr *e = primexpr_new(PE_SELECT, ops[1]->dtype, sp);
        e->u.select.cond = ops[0];
        e->u.select.then_value = ops[1];
        e->u.select.else_value = ops[2];
        return e;
    }
    static const char *const allowed[] = {"dtype", "value", NULL};
    AstFields f = ast_fields(r, node, value, "Cast", allowed);
    PrimExpr *e = primexpr_new(PE_CAST, ast_dtype(r, ast_field_req(r, &f, "dtype")), sp);
    e->u.operand = ast_read_primexpr(r, ast_field_req(r, &f, "value"));
    return e;
}

/* {TirCall: {op: tir.exp, dtype: float32, args: [...]}}: an intrinsic call. */
static PrimExpr *read_tir_call(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"op", "dtype", "args", NULL};
    AstFields f = ast_fields(r, node, value, "TirCall", allowed);
    PrimExpr *e =
        primexpr_new(PE_CALL, ast_dtype(r, ast_field_req(r, &f, "dtype")), ast_span(r, node));
    e->u.call.name = ast_scalar(r, ast_field_req(r, &f, "op"), "an intrinsic name");
    yaml_node_t *args = ast_field(r, &f, "args");
    if (args != NULL)
        e->u.call.args = ast_read_primexprs(r, args, &e->u.call.nargs);
    return e;
}

static PrimExpr *read_primexpr_node(AstReader *r, yaml_node_t *node)
{
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    if (strcmp(name, "ShapeVar") == 0)
        return read_shape_var(r, node, value);
    ast_single(r, node, name);
    if (strcmp(name, "IntImm") == 0)
        return read_int_imm(r, node, value);
    if (strcmp(name, "FloatImm") == 0)
        return read_float_imm(r, node, value);
    if (strcmp(name, "TirCall") == 0)
        return read_tir_call(r, node, value);
    if (strcmp(name, "Not") == 0 || strcmp(name, "Select") == 0 || strcmp(name, "Cast") == 0)
        return read_unary_or_select(r, node, value, name);
    for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
        if (strcmp(name, binary_ops[i].name) == 0)
            return read_binary(r, node, value, name, binary_ops[i].kind);
    if (strcmp(name, "Var") == 0)
        ast_fail(r, node, "a shape variable is written {ShapeVar: %s}",
                 ast_is_scalar(value) ? (const char *)value->data.scalar.value : "name");
    ast_fail(r, node, "expected a PrimExpr, found '%s'", name);
}

/* PrimExpr ::= integer | {ShapeVar} | {IntImm} | {FloatImm} | {Add: [a, b]} | ... */
PrimExpr *ast_read_primexpr(AstReader *r, yaml_node_t *node)
{
    ast_enter(r, node);
    PrimExpr *e;
    if (ast_is_scalar(node)) {
        const char *s = (const char *)node->data.scalar.value;
        if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
            strspn(s, "+-0123456789") != strlen(s))
            ast_fail(r, node,
                     "expected a PrimExpr (an integer or a node such as {ShapeVar: "
                     "n}), found '%s'",
                     s);
        e = primexpr_int(ast_int(r, node, "an integer"), dtype_int64(), ast_span(r, node));
    } else {
        e = read_primexpr_node(r, node);
    }
    ast_leave(r);
    return e;
}

PrimExpr **ast_read_primexprs(AstReader *r, yaml_node_t *node, int *n)
{
    ast_expect_seq(r, node, "a list of PrimExprs");
    *n = ast_seq_len(node);
    PrimExpr **out = MEM_ARRAY(PrimExpr *, *n + 1);
    for (int i = 0; i < *n; i++)
        out[i] = ast_read_primexpr(r, ast_seq_item(r, node, i));
    return out;
}

/* ---- VDevice ----------------------------------------------------------------------- */

static bool vdevice_same(const VDevice *a, const VDevice *b)
{
    return a->target_config == NULL && b->target_config == NULL &&
           strcmp(a->target_kind, b->target_kind) == 0 && a->vdevice_id == b->vdevice_id &&
           strcmp(a->memory_scope, b->memory_scope) == 0;
}

/* {VDevice: {target: llvm | {kind: cuda, ...}, vdevice_id: 0, memory_scope: global}} */
static VDevice *read_vdevice_node(AstReader *r, yaml_node_t *node)
{
    static const char *const allowed[] = {"target", "vdevice_id", "memory_scope", NULL};
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    if (strcmp(name, "VDevice") != 0)
        ast_fail(r, node, "expected a VDevice, found '%s'", name);
    ast_single(r, node, name);
    AstFields f = ast_fields(r, node, value, "VDevice", allowed);
    VDevice *d = MEM_NEW(VDevice);
    d->span = ast_span(r, node);
    yaml_node_t *target = ast_field_req(r, &f, "target");
    if (target->type == YAML_MAPPING_NODE) {
        d->target_config = ast_read_attrs(r, target);
        AttrValue *kind = attrs_get(d->target_config, "kind");
        if (kind == NULL || kind->kind != ATTR_STR)
            ast_fail(r, target, "a target configuration needs a string 'kind'");
        d->target_kind = kind->u.s;
    } else {
        d->target_kind = ast_scalar(r, target, "a target");
    }
    yaml_node_t *id = ast_field(r, &f, "vdevice_id");
    int64_t dev = id ? ast_int(r, id, "vdevice_id") : 0;
    if (dev < 0 || dev > 1000000)
        ast_fail(r, id, "vdevice_id out of range");
    d->vdevice_id = (int)dev;
    yaml_node_t *scope = ast_field(r, &f, "memory_scope");
    d->memory_scope = scope ? ast_scalar(r, scope, "memory_scope") : "global";
    return d;
}

VDevice *ast_read_vdevice(AstReader *r, yaml_node_t *node)
{
    ast_enter(r, node);
    VDevice *d = read_vdevice_node(r, node);
    ast_leave(r);
    return d;
}

/* vdevice: <index into global_info.vdevice> | {VDevice: ...}; an equal global one is shared. */
static VDevice *read_tensor_vdevice(AstReader *r, yaml_node_t *node)
{
    if (ast_is_scalar(node)) {
        int64_t i = ast_int(r, node, "a vdevice index");
        if (i < 0 || i >= r->mod->nvdevices)
            ast_fail(r, node, "vdevice %lld is not in global_info (%d vdevices)", (long long)i,
                     r->mod->nvdevices);
        return r->mod->vdevices[i];
    }
    VDevice *d = ast_read_vdevice(r, node);
    for (int i = 0; i < r->mod->nvdevices; i++)
        if (vdevice_same(d, r->mod->vdevices[i]))
            return r->mod->vdevices[i];
    return d;
}

/* ---- StructInfo -------------------------------------------------------------------- */

/* {PrimStructInfo: int64} | {PrimStructInfo: {dtype: int64, value: <PrimExpr>}} */
static StructInfo *read_prim_sinfo(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"dtype", "value", NULL};
    Span sp = ast_span(r, node);
    if (ast_is_scalar(value))
        return sinfo_prim(ast_dtype(r, value), NULL, sp);
    AstFields f = ast_fields(r, node, value, "PrimStructInfo", allowed);
    yaml_node_t *dt = ast_field(r, &f, "dtype");
    yaml_node_t *v = ast_field(r, &f, "value");
    PrimExpr *pv = v ? ast_read_primexpr(r, v) : NULL;
    if (dt == NULL && pv == NULL)
        ast_fail(r, node, "PrimStructInfo is missing its field 'dtype'");
    /* A value of another dtype is WF-22's business, not the reader's. */
    DataType t = dt ? ast_dtype(r, dt) : pv->dtype;
    return sinfo_prim(t, pv, sp);
}

static int read_ndim(AstReader *r, yaml_node_t *node)
{
    int64_t n = ast_int(r, node, "ndim");
    if (n < -1 || n > 64)
        ast_fail(r, node, "ndim must be -1 (unknown) or 0 to 64, found %lld", (long long)n);
    return (int)n;
}

/* {ShapeStructInfo: [n, 4]} | {ShapeStructInfo: {values: [...]?, ndim: 2?}} */
static StructInfo *read_shape_sinfo(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"values", "ndim", NULL};
    Span sp = ast_span(r, node);
    int n;
    if (value->type == YAML_SEQUENCE_NODE) {
        PrimExpr **vals = ast_read_primexprs(r, value, &n);
        return sinfo_shape(vals, n, sp);
    }
    AstFields f = ast_fields(r, node, value, "ShapeStructInfo", allowed);
    yaml_node_t *vs = ast_field(r, &f, "values");
    yaml_node_t *nd = ast_field(r, &f, "ndim");
    int ndim = nd ? read_ndim(r, nd) : -1;
    if (vs == NULL || ast_is_null(vs))
        return sinfo_shape(NULL, ndim, sp);
    PrimExpr **vals = ast_read_primexprs(r, vs, &n);
    if (nd != NULL && ndim != n)
        ast_fail(r, nd, "ndim %d differs from the %d values", ndim, n);
    return sinfo_shape(vals, n, sp);
}

static Expr *read_tensor_shape(AstReader *r, yaml_node_t *node)
{
    if (node->type == YAML_SEQUENCE_NODE) {
        int n;
        PrimExpr **vals = ast_read_primexprs(r, node, &n);
        return expr_shape(vals, n, ast_span(r, node));
    }
    Expr *e = ast_read_expr(r, node);
    if (e->kind != EXPR_SHAPE && e->kind != EXPR_VAR)
        ast_fail(r, node, "a tensor's shape must be a ShapeExpr or a variable");
    return e;
}

static int shape_ndim(const Expr *shape)
{
    if (shape->kind == EXPR_SHAPE)
        return shape->u.shape.n;
    const StructInfo *s = shape->u.var->annotation;
    return s != NULL && s->kind == SINFO_SHAPE ? s->u.shape.ndim : -1;
}

/* {TensorStructInfo: {shape: <ShapeExpr|Var|[dims]>?, dtype: t?, vdevice: V?, ndim: n?}} */
static StructInfo *read_tensor_sinfo(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"shape", "dtype", "vdevice", "ndim", NULL};
    AstFields f = ast_fields(r, node, value, "TensorStructInfo", allowed);
    yaml_node_t *sh = ast_field(r, &f, "shape");
    yaml_node_t *dt = ast_field(r, &f, "dtype");
    yaml_node_t *vd = ast_field(r, &f, "vdevice");
    yaml_node_t *nd = ast_field(r, &f, "ndim");
    Expr *shape = sh && !ast_is_null(sh) ? read_tensor_shape(r, sh) : NULL;
    int ndim = shape ? shape_ndim(shape) : -1;
    if (nd != NULL) {
        int given = read_ndim(r, nd);
        if (shape != NULL && shape->kind == EXPR_SHAPE && given != ndim)
            ast_fail(r, nd, "ndim %d differs from the shape's %d dims", given, ndim);
        ndim = given;
    }
    DataType t = dt ? ast_dtype(r, dt) : dtype_void();
    VDevice *d = vd && !ast_is_null(vd) ? read_tensor_vdevice(r, vd) : NULL;
    return sinfo_tensor(shape, t, d, ndim, ast_span(r, node));
}

static StructInfo **read_sinfo_list(AstReader *r, yaml_node_t *node, int *n)
{
    ast_expect_seq(r, node, "a list of StructInfo");
    *n = ast_seq_len(node);
    StructInfo **out = MEM_ARRAY(StructInfo *, *n + 1);
    for (int i = 0; i < *n; i++)
        out[i] = ast_read_sinfo(r, ast_seq_item(r, node, i));
    return out;
}

/* {TupleStructInfo: [S, ...]} | {TupleStructInfo: {fields: [S, ...]}} */
static StructInfo *read_tuple_sinfo(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"fields", NULL};
    yaml_node_t *list = value;
    if (value->type != YAML_SEQUENCE_NODE) {
        AstFields f = ast_fields(r, node, value, "TupleStructInfo", allowed);
        list = ast_field_req(r, &f, "fields");
    }
    int n;
    StructInfo **fields = read_sinfo_list(r, list, &n);
    return sinfo_tuple(fields, n, ast_span(r, node));
}

/* {FuncStructInfo: {params: [S]?, ret: S, purity: bool?, derive_func: string?}} */
static StructInfo *read_func_sinfo(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"params", "ret", "purity", "derive_func", NULL};
    AstFields f = ast_fields(r, node, value, "FuncStructInfo", allowed);
    yaml_node_t *ps = ast_field(r, &f, "params");
    yaml_node_t *pur = ast_field(r, &f, "purity");
    yaml_node_t *der = ast_field(r, &f, "derive_func");
    StructInfo *ret = ast_read_sinfo(r, ast_field_req(r, &f, "ret"));
    bool purity = pur ? ast_bool(r, pur, "purity") : true;
    Span sp = ast_span(r, node);
    const char *derive = der ? ast_scalar(r, der, "derive_func") : NULL;
    if (ps != NULL && !ast_is_null(ps)) {
        /* Both params and derive_func is WF-17's business, not the reader's. */
        int n;
        StructInfo **params = read_sinfo_list(r, ps, &n);
        StructInfo *s = sinfo_func(params, n, ret, purity, sp);
        s->u.func.derive_func = derive;
        return s;
    }
    return sinfo_func_opaque(ret, purity, derive, sp);
}

static StructInfo *read_sinfo_node(AstReader *r, yaml_node_t *node)
{
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    ast_single(r, node, name);
    if (strcmp(name, "ObjectStructInfo") == 0) {
        static const char *const none[] = {NULL};
        ast_fields(r, node, value, name, none);
        return sinfo_object(ast_span(r, node));
    }
    if (strcmp(name, "PrimStructInfo") == 0)
        return read_prim_sinfo(r, node, value);
    if (strcmp(name, "ShapeStructInfo") == 0)
        return read_shape_sinfo(r, node, value);
    if (strcmp(name, "TensorStructInfo") == 0)
        return read_tensor_sinfo(r, node, value);
    if (strcmp(name, "TupleStructInfo") == 0)
        return read_tuple_sinfo(r, node, value);
    if (strcmp(name, "FuncStructInfo") == 0)
        return read_func_sinfo(r, node, value);
    ast_fail(r, node, "expected a StructInfo, found '%s'", name);
}

/* StructInfo ::= ObjectStructInfo | PrimStructInfo | ShapeStructInfo | TensorStructInfo
 *              | TupleStructInfo | FuncStructInfo */
StructInfo *ast_read_sinfo(AstReader *r, yaml_node_t *node)
{
    ast_enter(r, node);
    StructInfo *s = read_sinfo_node(r, node);
    ast_leave(r);
    return s;
}

/* ---- Constant data ----------------------------------------------------------------- */

typedef struct Elems {
    yaml_node_t **items;
    int n;
    int cap;
    int64_t dims[64];
    int ndim; /* -1 once the nesting is found ragged */
} Elems;

static void collect_elems(AstReader *r, yaml_node_t *node, Elems *el, int depth)
{
    ast_enter(r, node);
    if (node->type == YAML_SCALAR_NODE) {
        if (el->ndim >= 0 && el->n == 0)
            el->ndim = depth;
        else if (el->ndim != depth)
            el->ndim = -1;
        VEC_PUSH(el->items, el->n, el->cap, node);
    } else {
        ast_expect_seq(r, node, "tensor data");
        int len = ast_seq_len(node);
        if (depth >= 64)
            ast_fail(r, node, "tensor data nested deeper than 64");
        if (el->n == 0 && el->ndim >= 0)
            el->dims[depth] = len;
        else if (el->ndim >= 0 && el->dims[depth] != len)
            el->ndim = -1;
        for (int i = 0; i < len; i++)
            collect_elems(r, ast_seq_item(r, node, i), el, depth + 1);
        if (len == 0 && el->n == 0 && el->ndim >= 0)
            el->ndim = depth + 1;
    }
    ast_leave(r);
}

static uint64_t read_u64(AstReader *r, yaml_node_t *node, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] == '\0' || s[0] == '-' || *end != '\0' || errno != 0)
        ast_fail(r, node, "%s does not fit uint64", s);
    return (uint64_t)v;
}

static void store_elem(AstReader *r, yaml_node_t *node, DataType t, void *data, int64_t i)
{
    if (dtype_is_float(t)) {
        double d = read_double(r, node, "a float element");
        if (t.code == DT_BFLOAT)
            ((uint16_t *)data)[i] = scalar_float_to_bfloat((float)d);
        else if (t.bits == 16)
            ((uint16_t *)data)[i] = scalar_double_to_half(d);
        else if (t.bits == 32)
            ((float *)data)[i] = (float)d;
        else
            ((double *)data)[i] = d;
        return;
    }
    int64_t v;
    const char *s = ast_scalar(r, node, "a tensor element");
    if (dtype_is_bool(t) && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0))
        v = s[0] == 't';
    else if (t.code == DT_UINT && t.bits == 64)
        v = (int64_t)read_u64(r, node, s);
    else
        v = ast_int(r, node, "an integer element");
    if (!(t.code == DT_UINT && t.bits == 64) && !int_fits(v, t))
        ast_fail(r, node, "%s does not fit %s", s, dtype_str(t));
    switch (t.bits) {
    case 1:
    case 8:
        ((uint8_t *)data)[i] = (uint8_t)v;
        break;
    case 16:
        ((uint16_t *)data)[i] = (uint16_t)v;
        break;
    case 32:
        ((uint32_t *)data)[i] = (uint32_t)v;
        break;
    default:
        ((uint64_t *)data)[i] = (uint64_t)v;
        break;
    }
}

static int64_t *read_dims(AstReader *r, yaml_node_t *node, int *ndim, int64_t *numel)
{
    ast_expect_seq(r, node, "a shape");
    *ndim = ast_seq_len(node);
    int64_t *dims = mem_alloc_atomic(sizeof(int64_t) * (size_t)(*ndim + 1));
    *numel = 1;
    for (int i = 0; i < *ndim; i++) {
        yaml_node_t *d = ast_seq_item(r, node, i);
        dims[i] = ast_int(r, d, "a dimension");
        if (dims[i] < 0 || dims[i] > (INT64_C(1) << 31) || *numel * dims[i] > (INT64_C(1) << 31))
            ast_fail(r, d, "dimension %lld out of range", (long long)dims[i]);
        *numel *= dims[i];
    }
    return dims;
}

/* {dtype: t, shape: [dims]?, data: nested or flat numbers} (or that inside {tensor: ...}) */
ConstData *ast_read_const_data(AstReader *r, yaml_node_t *node)
{
    static const char *const allowed[] = {"dtype", "shape", "data", NULL};
    static const char *const wrapped[] = {"tensor", NULL};
    if (ast_is_field_form(r, node, wrapped) &&
        node->data.mapping.pairs.top - node->data.mapping.pairs.start == 1)
        node = ast_node(r, node->data.mapping.pairs.start->value);
    AstFields f = ast_fields(r, node, node, "Constant data", allowed);
    ConstData *c = MEM_NEW(ConstData);
    yaml_node_t *dt = ast_field_req(r, &f, "dtype");
    c->dtype = ast_dtype(r, dt);
    if (c->dtype.lanes != 1 || dtype_bytes(c->dtype) == 0)
        ast_fail(r, dt, "a Constant cannot have dtype %s", dtype_str(c->dtype));
    Elems el = {0};
    yaml_node_t *data = ast_field_req(r, &f, "data");
    collect_elems(r, data, &el, 0);
    yaml_node_t *sh = ast_field(r, &f, "shape");
    if (sh != NULL) {
        c->shape = read_dims(r, sh, &c->ndim, &c->numel);
    } else {
        if (el.ndim < 0)
            ast_fail(r, data, "ragged tensor data (give shape: to use flat data)");
        c->ndim = el.ndim;
        c->shape = mem_alloc_atomic(sizeof(int64_t) * (size_t)(c->ndim + 1));
        c->numel = 1;
        for (int i = 0; i < c->ndim; i++)
            c->numel *= c->shape[i] = el.dims[i];
    }
    if (el.n != c->numel)
        ast_fail(r, data, "%d data elements for %lld in the shape", el.n, (long long)c->numel);
    c->data = mem_alloc_atomic(dtype_bytes(c->dtype) * (size_t)c->numel + 1);
    for (int64_t i = 0; i < c->numel; i++)
        store_elem(r, el.items[i], c->dtype, c->data, i);
    return c;
}

/* ---- Attribute values -------------------------------------------------------------- */

typedef enum PlainKind { PLAIN_NULL, PLAIN_BOOL, PLAIN_INT, PLAIN_FLOAT, PLAIN_STR } PlainKind;

static PlainKind classify_plain(const char *s)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    static const char *const bools[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
    static const char *const floats[] = {".nan",  ".NaN",  ".NAN",  ".inf", ".Inf", ".INF", "-.inf",
                                         "-.Inf", "-.INF", "+.inf", "nan",  "inf",  "-inf", "+inf"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (strcmp(s, nulls[i]) == 0)
            return PLAIN_NULL;
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (strcmp(s, bools[i]) == 0)
            return PLAIN_BOOL;
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        if (strcmp(s, floats[i]) == 0)
            return PLAIN_FLOAT;
    const char *p = s[0] == '+' || s[0] == '-' ? s + 1 : s;
    if (*p != '\0' && strspn(p, "0123456789") == strlen(p))
        return PLAIN_INT;
    char *end;
    strtod(s, &end);
    if (end != s && *end == '\0' && strpbrk(s, "0123456789") != NULL)
        return PLAIN_FLOAT;
    return PLAIN_STR;
}

bool ast_plain_is_special(const char *s)
{
    return classify_plain(s) != PLAIN_STR;
}

static AttrValue *read_attr_scalar(AstReader *r, yaml_node_t *node)
{
    Span sp = ast_span(r, node);
    const char *s = ast_scalar(r, node, "an attribute value");
    if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return attr_str(s, sp);
    switch (classify_plain(s)) {
    case PLAIN_NULL:
        return attr_new(ATTR_NONE, sp);
    case PLAIN_BOOL:
        return attr_bool(ast_bool(r, node, "a bool"), sp);
    case PLAIN_INT:
        return attr_int(ast_int(r, node, "an integer attribute"), sp);
    case PLAIN_FLOAT: {
        AttrValue *v = attr_new(ATTR_FLOAT, sp);
        v->u.f = read_double(r, node, "a float attribute");
        return v;
    }
    case PLAIN_STR:
        return attr_str(s, sp);
    }
    return attr_str(s, sp);
}

AttrValue *ast_read_attr_value(AstReader *r, yaml_node_t *node)
{
    const char *tag = (const char *)node->tag;
    if (tag != NULL && strcmp(tag, "!expr") == 0) {
        AttrValue *v = attr_new(ATTR_EXPR, ast_span(r, node));
        v->u.expr = ast_read_expr(r, node);
        return v;
    }
    /* TS-6.2: !index_map "T.index_map(lambda i: (i // 4, i % 4))" */
    if (tag != NULL && strcmp(tag, "!index_map") == 0) {
        const char *text = ast_scalar(r, node, "an index map's TVMScript text");
        return script_index_map(py_parse_expr(r->file, text, ast_span(r, node), r->trap), r->trap);
    }
    if (node->type == YAML_SCALAR_NODE)
        return read_attr_scalar(r, node);
    if (node->type == YAML_MAPPING_NODE) {
        AttrValue *v = attr_new(ATTR_DICT, ast_span(r, node));
        v->u.dict = ast_read_attrs(r, node);
        return v;
    }
    AttrValue *v = attr_new(ATTR_LIST, ast_span(r, node));
    v->u.list.n = ast_seq_len(node);
    v->u.list.items = MEM_ARRAY(AttrValue *, v->u.list.n + 1);
    ast_enter(r, node);
    for (int i = 0; i < v->u.list.n; i++)
        v->u.list.items[i] = ast_read_attr_value(r, ast_seq_item(r, node, i));
    ast_leave(r);
    return v;
}

/* attrs: {key: value, ...}, values being YAML null, bools, numbers, strings, lists and
 * mappings, or a Relax expression tagged !expr. */
Attrs *ast_read_attrs(AstReader *r, yaml_node_t *node)
{
    Attrs *a = attrs_new();
    if (ast_is_null(node))
        return a;
    if (node->type != YAML_MAPPING_NODE)
        ast_fail(r, node, "attributes must be a mapping");
    ast_enter(r, node);
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = ast_node(r, p->key);
        const char *key = ast_scalar(r, k, "an attribute name");
        if (attrs_get(a, key) != NULL)
            ast_fail(r, k, "attribute '%s' given twice", key);
        attrs_set(a, key, ast_read_attr_value(r, ast_node(r, p->value)));
    }
    ast_leave(r);
    return a;
}
