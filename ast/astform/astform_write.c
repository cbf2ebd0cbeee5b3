/* astform_write: a module written in the `ast:` form, as block-style YAML that the reader
 * reads back to an alpha-equivalent module. SPEC_NOTES: "The ast: form" (rule AST-1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/astform/astform_read.h"
#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/scalar.h"

/* A YAML tree built first, then emitted through libyaml (which does the quoting). */
typedef enum YKind { Y_SCALAR, Y_SEQ, Y_MAP } YKind;

typedef struct YNode {
    YKind kind;
    const char *text;
    bool quoted;          /* a string that would otherwise read as a number, bool or null */
    const char *tag;      /* "!expr", "!index_map" or NULL */
    struct YNode **items; /* a mapping alternates keys and values */
    int n;
    int cap;
} YNode;

typedef struct Writer {
    AstTable names;     /* "%p" of a Var or TirVar -> the name#k it is written as */
    AstTable counts;    /* "Var:x" -> objects named x so far */
    AstTable annotated; /* "%p" of a Var whose annotation was written */
    const IRModule *mod;
} Writer;

static YNode *y_new(YKind kind)
{
    YNode *n = MEM_NEW(YNode);
    n->kind = kind;
    return n;
}

static YNode *y_plain(const char *text)
{
    YNode *n = y_new(Y_SCALAR);
    n->text = text;
    return n;
}

static YNode *y_str(const char *text)
{
    YNode *n = y_plain(text);
    n->quoted = ast_plain_is_special(text);
    return n;
}

static YNode *y_int(int64_t v)
{
    return y_plain(mem_printf("%lld", (long long)v));
}

static void y_push(YNode *seq, YNode *item)
{
    VEC_PUSH(seq->items, seq->n, seq->cap, item);
}

static void y_put(YNode *map, const char *key, YNode *value)
{
    y_push(map, y_plain(key));
    y_push(map, value);
}

/* {name: value} */
static YNode *y_node(const char *name, YNode *value)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, name, value);
    return m;
}

/* ---- Numbers ----------------------------------------------------------------------- */

static bool ends_numeric(const char *s)
{
    return strpbrk(s, ".eEn") != NULL; /* n: nan, inf */
}

/* The shortest decimal that reads back to `d` through `same`. */
static const char *shortest(double d, bool (*same)(double, double))
{
    if (isnan(d))
        return "nan";
    if (isinf(d))
        return d > 0 ? "inf" : "-inf";
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (same(strtod(buf, NULL), d))
            break;
    }
    return ends_numeric(buf) ? mem_strdup(buf) : mem_printf("%s.0", buf);
}

static bool same_double(double a, double b)
{
    return a == b;
}
static bool same_float(double a, double b)
{
    return (float)a == (float)b;
}
static bool same_half(double a, double b)
{
    return scalar_double_to_half(a) == scalar_double_to_half(b);
}
static bool same_bfloat(double a, double b)
{
    return scalar_float_to_bfloat((float)a) == scalar_float_to_bfloat((float)b);
}

static const char *float_text(double d, DataType t)
{
    if (t.code == DT_BFLOAT)
        return shortest(d, same_bfloat);
    if (t.bits == 16)
        return shortest(d, same_half);
    if (t.bits == 32)
        return shortest(d, same_float);
    return shortest(d, same_double);
}

static YNode *elem_node(const ConstData *c, int64_t i)
{
    DataType t = c->dtype;
    if (t.code == DT_BFLOAT)
        return y_plain(float_text(scalar_bfloat_to_float(((uint16_t *)c->data)[i]), t));
    if (dtype_is_float(t) && t.bits == 16)
        return y_plain(float_text(scalar_half_to_float(((uint16_t *)c->data)[i]), t));
    if (dtype_is_float(t))
        return y_plain(
            float_text(t.bits == 32 ? ((float *)c->data)[i] : ((double *)c->data)[i], t));
    if (dtype_is_bool(t))
        return y_plain(((uint8_t *)c->data)[i] ? "true" : "false");
    bool s = t.code == DT_INT;
    switch (t.bits) {
    case 8:
        return y_int(s ? ((int8_t *)c->data)[i] : ((uint8_t *)c->data)[i]);
    case 16:
        return y_int(s ? ((int16_t *)c->data)[i] : ((uint16_t *)c->data)[i]);
    case 32:
        return y_int(s ? (int64_t)((int32_t *)c->data)[i] : (int64_t)((uint32_t *)c->data)[i]);
    default:
        break;
    }
    if (s)
        return y_int(((int64_t *)c->data)[i]);
    return y_plain(mem_printf("%llu", (unsigned long long)((uint64_t *)c->data)[i]));
}

/* Data nested by shape, from element *next on. */
static YNode *const_rows(const ConstData *c, int axis, int64_t *next)
{
    if (axis == c->ndim)
        return elem_node(c, (*next)++);
    YNode *seq = y_new(Y_SEQ);
    for (int64_t i = 0; i < c->shape[axis]; i++)
        y_push(seq, const_rows(c, axis + 1, next));
    return seq;
}

static YNode *const_data(const ConstData *c)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, "dtype", y_plain(dtype_str(c->dtype)));
    YNode *shape = y_new(Y_SEQ);
    for (int i = 0; i < c->ndim; i++)
        y_push(shape, y_int(c->shape[i]));
    y_put(m, "shape", shape);
    int64_t next = 0;
    y_put(m, "data", const_rows(c, 0, &next));
    return m;
}

/* ---- Names ------------------------------------------------------------------------- */

static bool has_suffix(const char *name)
{
    const char *hash = strrchr(name, '#');
    return hash != NULL && hash[1] != '\0' && strspn(hash + 1, "0123456789") == strlen(hash + 1);
}

/* The first object named x is written x, later ones x#2, x#3 (a name that itself ends in
 * #digits always gets a suffix, so that reading strips only what writing added). */
static const char *object_name(Writer *w, const void *obj, const char *kind, const char *name)
{
    const char *key = mem_printf("%p", obj);
    const char *known = ast_table_get(&w->names, key);
    if (known != NULL)
        return known;
    const char *count_key = mem_printf("%s:%s", kind, name);
    intptr_t count = (intptr_t)ast_table_get(&w->counts, count_key) + 1;
    ast_table_put(&w->counts, count_key, (void *)count);
    const char *written =
        count == 1 && !has_suffix(name) ? name : mem_printf("%s#%ld", name, (long)count);
    ast_table_put(&w->names, key, (void *)written);
    return written;
}

/* ---- PrimExpr, StructInfo, attributes ---------------------------------------------- */

static YNode *w_prim(Writer *w, const PrimExpr *e);

static const char *binary_name(PrimExprKind k)
{
    static const char *const names[] = {
        [PE_ADD] = "Add",
        [PE_SUB] = "Sub",
        [PE_MUL] = "Mul",
        [PE_DIV] = "Div",
        [PE_MOD] = "Mod",
        [PE_FLOORDIV] = "FloorDiv",
        [PE_FLOORMOD] = "FloorMod",
        [PE_MIN] = "Min",
        [PE_MAX] = "Max",
        [PE_EQ] = "EQ",
        [PE_NE] = "NE",
        [PE_LT] = "LT",
        [PE_LE] = "LE",
        [PE_GT] = "GT",
        [PE_GE] = "GE",
        [PE_AND] = "And",
        [PE_OR] = "Or",
    };
    return names[k];
}

static YNode *w_prims(Writer *w, PrimExpr *const *es, int n)
{
    YNode *seq = y_new(Y_SEQ);
    for (int i = 0; i < n; i++)
        y_push(seq, w_prim(w, es[i]));
    return seq;
}

static YNode *w_typed(const char *node, YNode *value, DataType t)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, "value", value);
    y_put(m, "dtype", y_plain(dtype_str(t)));
    return y_node(node, m);
}

static YNode *w_prim_var(Writer *w, const TirVar *v)
{
    YNode *m = y_node("ShapeVar", y_str(object_name(w, v, "ShapeVar", v->name)));
    if (!dtype_equal(v->dtype, dtype_int64()))
        y_put(m, "dtype", y_plain(dtype_str(v->dtype)));
    return m;
}

static YNode *w_prim(Writer *w, const PrimExpr *e)
{
    switch (e->kind) {
    case PE_INT:
        if (dtype_equal(e->dtype, dtype_int64()))
            return y_int(e->u.int_value);
        return w_typed("IntImm", y_int(e->u.int_value), e->dtype);
    case PE_FLOAT:
        /* the literal's own double, as the printer writes it (printer_emit_prim) */
        return w_typed("FloatImm", y_plain(float_text(e->u.float_value, dtype_float64())),
                       e->dtype);
    case PE_VAR:
        return w_prim_var(w, e->u.var);
    case PE_ADD:
    case PE_SUB:
    case PE_MUL:
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_MIN:
    case PE_MAX:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR: {
        PrimExpr *ab[2] = {e->u.bin.a, e->u.bin.b};
        return y_node(binary_name(e->kind), w_prims(w, ab, 2));
    }
    case PE_NOT:
        return y_node("Not", w_prim(w, e->u.operand));
    case PE_SELECT: {
        PrimExpr *ops[3] = {e->u.select.cond, e->u.select.then_value, e->u.select.else_value};
        return y_node("Select", w_prims(w, ops, 3));
    }
    case PE_CAST: {
        YNode *m = y_new(Y_MAP);
        y_put(m, "dtype", y_plain(dtype_str(e->dtype)));
        y_put(m, "value", w_prim(w, e->u.operand));
        return y_node("Cast", m);
    }
    case PE_LOAD: /* only inside PrimFunc bodies, which are written as text */
        return y_node("BufferLoad", y_str(e->u.load.buffer->name));
    case PE_CALL: {
        YNode *m = y_new(Y_MAP);
        y_put(m, "op", y_str(e->u.call.name));
        y_put(m, "dtype", y_plain(dtype_str(e->dtype)));
        y_put(m, "args", w_prims(w, e->u.call.args, e->u.call.nargs));
        return y_node("TirCall", m);
    }
    }
    return y_plain("null");
}

static YNode *w_expr(Writer *w, const Expr *e);
static YNode *w_sinfo(Writer *w, const StructInfo *s);

static YNode *w_attrs(Writer *w, const Attrs *a);

static YNode *w_attr(Writer *w, const AttrValue *v)
{
    switch (v->kind) {
    case ATTR_NONE:
        return y_plain("null");
    case ATTR_BOOL:
        return y_plain(v->u.b ? "true" : "false");
    case ATTR_INT:
        return y_int(v->u.i);
    case ATTR_FLOAT:
        return y_plain(float_text(v->u.f, dtype_float64()));
    case ATTR_STR:
        return y_str(v->u.s);
    case ATTR_LIST: {
        YNode *seq = y_new(Y_SEQ);
        for (int i = 0; i < v->u.list.n; i++)
            y_push(seq, w_attr(w, v->u.list.items[i]));
        return seq;
    }
    case ATTR_DICT:
        return w_attrs(w, v->u.dict);
    case ATTR_EXPR: {
        YNode *n = w_expr(w, v->u.expr);
        n->tag = "!expr";
        return n;
    }
    case ATTR_INDEX_MAP: {
        YNode *n = y_str(printer_print_attr(v));
        n->tag = "!index_map";
        return n;
    }
    case ATTR_VERBATIM: /* only inside PrimFuncs, which the ast: form writes as text */
        return y_str(v->u.s);
    }
    return y_plain("null");
}

static YNode *w_attrs(Writer *w, const Attrs *a)
{
    YNode *m = y_new(Y_MAP);
    for (int i = 0; i < a->n; i++) {
        y_push(m, y_str(a->keys[i]));
        y_push(m, w_attr(w, a->values[i]));
    }
    return m;
}

static YNode *w_vdevice(Writer *w, const VDevice *d)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, "target",
          d->target_config ? w_attrs(w, d->target_config)
                           : y_str(d->target_kind ? d->target_kind : ""));
    y_put(m, "vdevice_id", y_int(d->vdevice_id));
    y_put(m, "memory_scope", y_str(d->memory_scope ? d->memory_scope : "global"));
    return y_node("VDevice", m);
}

static YNode *w_tensor_vdevice(Writer *w, const VDevice *d)
{
    for (int i = 0; i < w->mod->nvdevices; i++)
        if (w->mod->vdevices[i] == d)
            return y_int(i);
    return w_vdevice(w, d);
}

static YNode *w_tensor(Writer *w, const StructInfo *s)
{
    YNode *m = y_new(Y_MAP);
    const Expr *shape = s->u.tensor.shape;
    if (shape != NULL)
        y_put(m, "shape", w_expr(w, shape));
    if (!dtype_is_void(s->u.tensor.dtype))
        y_put(m, "dtype", y_plain(dtype_str(s->u.tensor.dtype)));
    if (s->u.tensor.vdevice != NULL)
        y_put(m, "vdevice", w_tensor_vdevice(w, s->u.tensor.vdevice));
    /* The reader derives ndim from a ShapeExpr; from a variable only sometimes. */
    if (shape == NULL ? s->u.tensor.ndim != -1 : shape->kind != EXPR_SHAPE)
        y_put(m, "ndim", y_int(s->u.tensor.ndim));
    return y_node("TensorStructInfo", m);
}

static YNode *w_sinfos(Writer *w, StructInfo *const *ss, int n)
{
    YNode *seq = y_new(Y_SEQ);
    for (int i = 0; i < n; i++)
        y_push(seq, w_sinfo(w, ss[i]));
    return seq;
}

static YNode *w_func_sinfo(Writer *w, const StructInfo *s)
{
    YNode *m = y_new(Y_MAP);
    if (s->u.func.has_params)
        y_put(m, "params", w_sinfos(w, s->u.func.params, s->u.func.nparams));
    y_put(m, "ret", w_sinfo(w, s->u.func.ret));
    if (!s->u.func.purity)
        y_put(m, "purity", y_plain("false"));
    if (s->u.func.derive_func != NULL)
        y_put(m, "derive_func", y_str(s->u.func.derive_func));
    return y_node("FuncStructInfo", m);
}

static YNode *w_sinfo(Writer *w, const StructInfo *s)
{
    switch (s->kind) {
    case SINFO_OBJECT:
        return y_node("ObjectStructInfo", y_new(Y_MAP));
    case SINFO_PRIM: {
        if (s->u.prim.value == NULL)
            return y_node("PrimStructInfo", y_plain(dtype_str(s->u.prim.dtype)));
        YNode *m = y_new(Y_MAP);
        y_put(m, "dtype", y_plain(dtype_str(s->u.prim.dtype)));
        y_put(m, "value", w_prim(w, s->u.prim.value));
        return y_node("PrimStructInfo", m);
    }
    case SINFO_SHAPE: {
        YNode *m = y_new(Y_MAP);
        if (s->u.shape.values != NULL)
            y_put(m, "values", w_prims(w, s->u.shape.values, s->u.shape.ndim));
        else if (s->u.shape.ndim != -1)
            y_put(m, "ndim", y_int(s->u.shape.ndim));
        return y_node("ShapeStructInfo", m);
    }
    case SINFO_TENSOR:
        return w_tensor(w, s);
    case SINFO_TUPLE:
        return y_node("TupleStructInfo", w_sinfos(w, s->u.tuple.fields, s->u.tuple.n));
    case SINFO_FUNC:
        return w_func_sinfo(w, s);
    case SINFO_DTENSOR: {
        /* Outside the spec's grammar (§4.24): written for reading, not read back. */
        YNode *m = y_new(Y_MAP);
        y_put(m, "tensor_sinfo", w_tensor(w, s->u.dtensor.tensor));
        y_put(m, "device_mesh",
              y_str(mem_printf("%s[%d]", s->u.dtensor.mesh_name, s->u.dtensor.mesh_index)));
        y_put(m, "placement", y_str(dist_placement_str(s->u.dtensor.placement)));
        return y_node("DTensorStructInfo", m);
    }
    }
    return y_plain("null");
}

/* ---- Expressions ------------------------------------------------------------------- */

static YNode *w_var(Writer *w, const Var *v, bool binding_site)
{
    const char *kind = v->is_dataflow ? "DataflowVar" : "Var";
    YNode *m = y_node(kind, y_str(object_name(w, v, kind, v->name)));
    const char *key = mem_printf("%p", (const void *)v);
    if (binding_site && v->annotation != NULL && ast_table_get(&w->annotated, key) == NULL) {
        ast_table_put(&w->annotated, key, (void *)v);
        y_put(m, "struct_info", w_sinfo(w, v->annotation));
    }
    return m;
}

static YNode *w_exprs(Writer *w, Expr *const *es, int n)
{
    YNode *seq = y_new(Y_SEQ);
    for (int i = 0; i < n; i++)
        y_push(seq, w_expr(w, es[i]));
    return seq;
}

static YNode *w_binding(Writer *w, const Binding *b)
{
    YNode *m = y_new(Y_MAP);
    switch (b->kind) {
    case BIND_VAR:
        y_put(m, "var", w_var(w, b->var, true));
        y_put(m, "value", w_expr(w, b->value));
        return y_node("VarBinding", m);
    case BIND_MATCH_CAST:
        if (b->var != NULL)
            y_put(m, "var", w_var(w, b->var, true));
        y_put(m, "struct_info", w_sinfo(w, b->struct_info));
        y_put(m, "value", w_expr(w, b->value));
        return y_node("MatchCast", m);
    }
    return m;
}

static YNode *w_seq(Writer *w, const Expr *e)
{
    YNode *blocks = y_new(Y_SEQ);
    for (int i = 0; i < e->u.seq.nblocks; i++) {
        const BindingBlock *blk = e->u.seq.blocks[i];
        YNode *bs = y_new(Y_SEQ);
        for (int j = 0; j < blk->n; j++)
            y_push(bs, w_binding(w, blk->bindings[j]));
        YNode *fields = y_node("bindings", bs);
        y_push(blocks, y_node(blk->is_dataflow ? "DataflowBlock" : "BindingBlock", fields));
    }
    YNode *m = y_new(Y_MAP);
    y_put(m, "blocks", blocks);
    y_put(m, "body", w_expr(w, e->u.seq.body));
    return y_node("SeqExpr", m);
}

static YNode *w_function(Writer *w, const Function *f)
{
    YNode *m = y_new(Y_MAP);
    YNode *params = y_new(Y_SEQ);
    for (int i = 0; i < f->nparams; i++)
        y_push(params, w_var(w, f->params[i], true));
    y_put(m, "params", params);
    if (f->ret != NULL)
        y_put(m, "ret_struct_info", w_sinfo(w, f->ret));
    if (!f->is_pure)
        y_put(m, "is_pure", y_plain("false"));
    if (f->attrs->n > 0)
        y_put(m, "attrs", w_attrs(w, f->attrs));
    y_put(m, "body", w_expr(w, f->body));
    return y_node("Function", m);
}

static YNode *w_call(Writer *w, const Expr *e)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, "op", w_expr(w, e->u.call.op));
    y_put(m, "args", w_exprs(w, e->u.call.args, e->u.call.nargs));
    if (e->u.call.nsinfo_args > 0)
        y_put(m, "sinfo_args", w_sinfos(w, e->u.call.sinfo_args, e->u.call.nsinfo_args));
    if (e->u.call.attrs != NULL && e->u.call.attrs->n > 0)
        y_put(m, "attrs", w_attrs(w, e->u.call.attrs));
    return y_node("Call", m);
}

static YNode *w_if(Writer *w, const Expr *e)
{
    YNode *m = y_new(Y_MAP);
    y_put(m, "cond", w_expr(w, e->u.if_.cond));
    y_put(m, "true_branch", w_expr(w, e->u.if_.then_branch));
    y_put(m, "false_branch", w_expr(w, e->u.if_.else_branch));
    return y_node("If", m);
}

static YNode *w_expr(Writer *w, const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
        return y_node("Constant", y_node("data", const_data(e->u.constant)));
    case EXPR_VAR:
        return w_var(w, e->u.var, false);
    case EXPR_GLOBAL_VAR:
        return y_node("GlobalVar", y_str(e->u.gvar->name));
    case EXPR_TUPLE:
        return y_node("Tuple", w_exprs(w, e->u.tuple.fields, e->u.tuple.n));
    case EXPR_SEQ:
        return w_seq(w, e);
    case EXPR_PRIM_VALUE:
        return y_node("PrimValue", w_prim(w, e->u.prim));
    case EXPR_STRING:
        return y_node("StringImm", y_str(e->u.str));
    case EXPR_DTYPE:
        return y_node("DataTypeImm", y_plain(dtype_str(e->u.dtype)));
    case EXPR_FUNCTION:
        return w_function(w, e->u.func);
    case EXPR_IF:
        return w_if(w, e);
    case EXPR_EXTERN_FUNC:
        return y_node("ExternFunc", y_str(e->u.extern_symbol));
    case EXPR_CALL:
        return w_call(w, e);
    case EXPR_SHAPE:
        return y_node("ShapeExpr", w_prims(w, e->u.shape.values, e->u.shape.n));
    case EXPR_TUPLE_GET_ITEM: {
        YNode *m = y_new(Y_MAP);
        y_put(m, "tuple_value", w_expr(w, e->u.get_item.tuple));
        y_put(m, "index", y_int(e->u.get_item.index));
        return y_node("TupleGetItem", m);
    }
    case EXPR_OP:
        return y_node("Op", y_str(e->u.op_name));
    }
    return y_plain("null");
}

/* ---- Module ------------------------------------------------------------------------ */

static bool is_identifier(const char *s)
{
    static const char *const keywords[] = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strcmp(s, keywords[i]) == 0)
            return false;
    if (!(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
           strlen(s);
}

/* The @T.prim_func definition as the printer writes it inside a module, dedented. The funcs
 * key names the function when read, so a global name that is no Python identifier is
 * replaced in the def. */
static const char *primfunc_text(const ModuleFunc *f)
{
    IRModule *tmp = module_new(NULL);
    GlobalVar *g = is_identifier(f->gvar->name) ? f->gvar : globalvar_new("prim_func", f->span);
    ModuleFunc *copy = module_add(tmp, g, MODFUNC_PRIM);
    copy->u.prim = f->u.prim;
    const char *all = printer_print_module(tmp);
    const char *start = strstr(all, "@T.prim_func");
    if (start == NULL)
        return all;
    while (start > all && start[-1] == ' ')
        start--;
    size_t indent = 0;
    while (start[indent] == ' ')
        indent++;
    StrBuf sb;
    strbuf_init(&sb);
    for (const char *line = start; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        size_t skip = 0;
        while (skip < indent && skip < len && line[skip] == ' ')
            skip++;
        strbuf_addn(&sb, line + skip, len - skip);
        strbuf_addc(&sb, '\n');
        line = end ? end + 1 : line + len;
    }
    char *text = strbuf_str(&sb);
    size_t len = strlen(text);
    while (len > 1 && text[len - 1] == '\n' && text[len - 2] == '\n')
        text[--len] = '\0';
    return text;
}

static YNode *w_module_func(Writer *w, const ModuleFunc *f)
{
    switch (f->kind) {
    case MODFUNC_RELAX:
        return w_function(w, f->u.relax);
    case MODFUNC_PRIM:
        return y_node("PrimFunc", y_plain(primfunc_text(f)));
    case MODFUNC_EXTERN:
        return y_node("ExternFunc", y_str(f->u.extern_symbol));
    }
    return y_plain("null");
}

static YNode *w_module(Writer *w, const IRModule *mod)
{
    /* The top-level Function form names its function main; any other name needs a module. */
    if (mod->is_lone_function && mod->nfuncs == 1 && mod->funcs[0]->kind == MODFUNC_RELAX &&
        strcmp(mod->funcs[0]->gvar->name, "main") == 0)
        return w_function(w, mod->funcs[0]->u.relax);
    YNode *m = y_new(Y_MAP);
    if (mod->nvdevices > 0 || mod->global_infos_other->n > 0) {
        YNode *gi = w_attrs(w, mod->global_infos_other);
        if (mod->nvdevices > 0) {
            YNode *list = y_new(Y_SEQ);
            for (int i = 0; i < mod->nvdevices; i++)
                y_push(list, w_vdevice(w, mod->vdevices[i]));
            y_put(gi, "vdevice", list);
        }
        y_put(m, "global_info", gi);
    }
    if (mod->attrs->n > 0)
        y_put(m, "attrs", w_attrs(w, mod->attrs));
    YNode *funcs = y_new(Y_MAP);
    for (int i = 0; i < mod->nfuncs; i++) {
        y_push(funcs, y_str(mod->funcs[i]->gvar->name));
        y_push(funcs, w_module_func(w, mod->funcs[i]));
    }
    y_put(m, "funcs", funcs);
    return y_node("IRModule", m);
}

/* ---- Emission ---------------------------------------------------------------------- */

enum { FLOW_WIDTH = 60 };

/* The width of the node written on one line, or a large number when it cannot be. */
static int flow_width(const YNode *n, int budget)
{
    if (n->kind == Y_SCALAR)
        return strchr(n->text, '\n') ? 1000 : (int)strlen(n->text) + (n->quoted ? 2 : 0);
    int width = 2 + (n->tag ? (int)strlen(n->tag) + 1 : 0);
    for (int i = 0; i < n->n && width <= budget; i++)
        width += flow_width(n->items[i], budget - width) + 2;
    return width;
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    strbuf_addn((StrBuf *)data, (const char *)buffer, size);
    return 1;
}

static void emit_event(yaml_emitter_t *em, yaml_event_t *ev)
{
    /* libyaml's emitter fails only on text it cannot write (invalid UTF-8); it then
     * ignores further events and the caller reports the problem. */
    if (em->error == YAML_NO_ERROR)
        yaml_emitter_emit(em, ev);
    else
        yaml_event_delete(ev);
}

static void emit(yaml_emitter_t *em, const YNode *n, bool in_flow)
{
    yaml_event_t ev;
    yaml_char_t *tag = (yaml_char_t *)n->tag;
    if (n->kind == Y_SCALAR) {
        yaml_scalar_style_t style = n->quoted               ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                    : strchr(n->text, '\n') ? YAML_LITERAL_SCALAR_STYLE
                                                            : YAML_ANY_SCALAR_STYLE;
        /* A tagged scalar (!index_map) keeps its tag: neither implicit flag is set. */
        yaml_scalar_event_initialize(&ev, NULL, tag, (yaml_char_t *)n->text, (int)strlen(n->text),
                                     tag == NULL && !n->quoted, tag == NULL, style);
        emit_event(em, &ev);
        return;
    }
    bool flow = in_flow || flow_width(n, FLOW_WIDTH) <= FLOW_WIDTH;
    if (n->kind == Y_SEQ)
        yaml_sequence_start_event_initialize(&ev, NULL, tag, tag == NULL,
                                             flow ? YAML_FLOW_SEQUENCE_STYLE
                                                  : YAML_BLOCK_SEQUENCE_STYLE);
    else
        yaml_mapping_start_event_initialize(
            &ev, NULL, tag, tag == NULL, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
    emit_event(em, &ev);
    for (int i = 0; i < n->n; i++)
        emit(em, n->items[i], flow);
    if (n->kind == Y_SEQ)
        yaml_sequence_end_event_initialize(&ev);
    else
        yaml_mapping_end_event_initialize(&ev);
    emit_event(em, &ev);
}

static char *emit_tree(const YNode *root)
{
    StrBuf out;
    strbuf_init(&out);
    yaml_emitter_t em;
    yaml_event_t ev;
    yaml_emitter_initialize(&em);
    yaml_emitter_set_output(&em, write_handler, &out);
    yaml_emitter_set_width(&em, -1);
    yaml_emitter_set_unicode(&em, 1);
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    emit_event(&em, &ev);
    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
    emit_event(&em, &ev);
    emit(&em, root, false);
    yaml_document_end_event_initialize(&ev, 1);
    emit_event(&em, &ev);
    yaml_stream_end_event_initialize(&ev);
    emit_event(&em, &ev);
    if (em.error != YAML_NO_ERROR)
        strbuf_addf(&out, "\n# error: %s\n", em.problem ? em.problem : "cannot write");
    yaml_emitter_delete(&em);
    return strbuf_str(&out);
}

char *astform_write(const IRModule *mod)
{
    Writer w = {.mod = mod};
    return emit_tree(w_module(&w, mod));
}
