/* script_expr: Relax expressions of TVMScript (names, literals, tuples, indexing, calls,
 * operator sugar) and PrimExprs over shape variables. SPEC_NOTES: TS-6, TS-6.1. */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"
#include "ast/script/script_prim.h"

Expr *script_var_ref(Var *var, Span span)
{
    return expr_var(var, span);
}

/* ---- Python numbers --------------------------------------------------------------- */

/* float("nan"), float("inf"), float("-inf"), as Python reads them. */
static bool float_call(ScriptCtx *ctx, const PyExpr *e, double *out)
{
    const PyExpr *f = e->u.call.func;
    if (f->kind != PY_NAME || strcmp(f->u.name, "float") != 0 || script_lookup(ctx, "float"))
        return false;
    if (e->u.call.nargs != 1 || e->u.call.nkw != 0 || e->u.call.args[0]->kind != PY_STR)
        return false;
    const char *s = e->u.call.args[0]->u.str;
    if (strcmp(s, "nan") == 0)
        *out = NAN;
    else if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0)
        *out = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *out = -INFINITY;
    else
        return false;
    return true;
}

bool script_number(ScriptCtx *ctx, const PyExpr *e, ScriptNum *out)
{
    switch (e->kind) {
    case PY_INT:
        *out = (ScriptNum){.kind = NUM_INT, .i = e->u.int_value};
        return true;
    case PY_FLOAT:
        *out = (ScriptNum){.kind = NUM_FLOAT, .f = e->u.float_value};
        return true;
    case PY_BOOL:
        *out = (ScriptNum){.kind = NUM_BOOL, .i = e->u.bool_value};
        return true;
    case PY_CALL:
        out->kind = NUM_FLOAT;
        return float_call(ctx, e, &out->f);
    case PY_UNARYOP: {
        PyOp op = e->u.unary.op;
        if ((op != PYOP_NEG && op != PYOP_POS) || !script_number(ctx, e->u.unary.operand, out))
            return false;
        if (out->kind == NUM_BOOL)
            out->kind = NUM_INT;
        if (op == PYOP_NEG && out->kind == NUM_INT) {
            if (out->i == INT64_MIN)
                return false;
            out->i = -out->i;
        } else if (op == PYOP_NEG) {
            out->f = -out->f;
        }
        return true;
    }
    default:
        return false;
    }
}

/* ---- PrimExprs -------------------------------------------------------------------- */

static bool is_tir_call(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNs ns;
    return e->kind == PY_CALL && script_dotted(ctx, e->u.call.func, &ns) && ns == NS_TIR;
}

static PrimClass join(PrimClass a, PrimClass b)
{
    if (a == PCLASS_OTHER || b == PCLASS_OTHER)
        return PCLASS_OTHER;
    return a == PCLASS_PRIM || b == PCLASS_PRIM ? PCLASS_PRIM : PCLASS_LITERAL;
}

PrimClass script_prim_class(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNum num;
    if (script_number(ctx, e, &num))
        return PCLASS_LITERAL;
    switch (e->kind) {
    case PY_NAME: {
        Sym *s = script_lookup(ctx, e->u.name);
        return s && (s->kind == SYM_TIRVAR || s->kind == SYM_PRIM) ? PCLASS_PRIM : PCLASS_OTHER;
    }
    case PY_CALL:
        if (e->u.call.func->kind == PY_ATTR && strcmp(e->u.call.func->u.attr.attr, "astype") == 0)
            return script_prim_class(ctx, e->u.call.func->u.attr.value) == PCLASS_PRIM
                       ? PCLASS_PRIM
                       : PCLASS_OTHER; /* TS-6: a PrimExpr's astype is a cast */
        return is_tir_call(ctx, e) ? PCLASS_PRIM : PCLASS_OTHER;
    case PY_BINOP:
        return join(script_prim_class(ctx, e->u.binop.left),
                    script_prim_class(ctx, e->u.binop.right));
    case PY_UNARYOP:
        return script_prim_class(ctx, e->u.unary.operand);
    case PY_COMPARE: {
        PrimClass c = script_prim_class(ctx, e->u.compare.first);
        for (int i = 0; i < e->u.compare.n; i++)
            c = join(c, script_prim_class(ctx, e->u.compare.rest[i]));
        return c;
    }
    case PY_BOOLOP: {
        PrimClass c = PCLASS_LITERAL;
        for (int i = 0; i < e->u.boolop.n; i++)
            c = join(c, script_prim_class(ctx, e->u.boolop.items[i]));
        return c;
    }
    case PY_IFEXP:
        return join(join(script_prim_class(ctx, e->u.ifexp.cond),
                         script_prim_class(ctx, e->u.ifexp.then_value)),
                    script_prim_class(ctx, e->u.ifexp.else_value));
    case PY_ATTR:
    case PY_SUBSCRIPT:
    case PY_SLICE:
    case PY_TUPLE:
    case PY_LIST:
    case PY_DICT:
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_BOOL:
    case PY_NONE:
    case PY_STARRED:
    case PY_LAMBDA:
        return PCLASS_OTHER;
    }
    return PCLASS_OTHER;
}

static bool prim_lookup(void *vctx, const char *name, TirVar **var, Buffer **buffer)
{
    rule_fired("TS-5.3");
    Sym *s = script_lookup((ScriptCtx *)vctx, name);
    *buffer = NULL;
    if (!s || s->kind != SYM_TIRVAR)
        return false;
    *var = s->tvar;
    return true;
}

static PrimExpr *prim_alias(void *vctx, const char *name)
{
    Sym *s = script_lookup((ScriptCtx *)vctx, name);
    return s && s->kind == SYM_PRIM ? s->prim : NULL;
}

/* Names are checked here, before the PrimExpr translator sees them, so an unknown one is
 * reported with this translator's code (UnknownName, or UndefinedShapeVar in a string dim). */
static void check_names(ScriptCtx *ctx, const PyExpr *e)
{
    switch (e->kind) {
    case PY_NAME: {
        rule_fired("TS-5.3"); /* only a shape variable in scope here may be named */
        Sym *s = script_lookup(ctx, e->u.name);
        if (s && (s->kind == SYM_TIRVAR || s->kind == SYM_PRIM))
            return;
        if (ctx->in_string_dim)
            script_fail(ctx, "UndefinedShapeVar", ctx->string_span,
                        "shape variable `%s` is not defined by a parameter", e->u.name);
        script_fail(ctx, "UnknownName", e->span, "`%s` is not a shape variable", e->u.name);
    }
    case PY_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            if (e->u.call.args[i]->kind != PY_STR)
                check_names(ctx, e->u.call.args[i]);
        for (int i = 0; i < e->u.call.nkw; i++)
            if (e->u.call.kw_values[i]->kind != PY_STR)
                check_names(ctx, e->u.call.kw_values[i]);
        return;
    case PY_BINOP:
        check_names(ctx, e->u.binop.left);
        check_names(ctx, e->u.binop.right);
        return;
    case PY_UNARYOP:
        check_names(ctx, e->u.unary.operand);
        return;
    case PY_COMPARE:
        check_names(ctx, e->u.compare.first);
        for (int i = 0; i < e->u.compare.n; i++)
            check_names(ctx, e->u.compare.rest[i]);
        return;
    case PY_BOOLOP:
        for (int i = 0; i < e->u.boolop.n; i++)
            check_names(ctx, e->u.boolop.items[i]);
        return;
    case PY_IFEXP:
        check_names(ctx, e->u.ifexp.cond);
        check_names(ctx, e->u.ifexp.then_value);
        check_names(ctx, e->u.ifexp.else_value);
        return;
    case PY_ATTR:
    case PY_SUBSCRIPT:
    case PY_SLICE:
    case PY_TUPLE:
    case PY_LIST:
    case PY_DICT:
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_BOOL:
    case PY_NONE:
    case PY_STARRED:
    case PY_LAMBDA:
        return;
    }
}

PrimExpr *script_prim(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->kind == PY_STR)
        script_fail(ctx, "StringDimOutsideSignature", e->span,
                    "string dims are only allowed in function parameter and return annotations");
    check_names(ctx, e);
    PrimEnv env = {.lookup = prim_lookup, .alias = prim_alias, .ctx = ctx, .tir = false};
    ErrorTrap inner;
    if (setjmp(inner.jmp) == 0)
        return script_prim_expr(e, &env, &inner);
    script_reraise(ctx, &inner.error);
}

/* ---- literals and leaves ---------------------------------------------------------- */

/* convert_to_expr: int -> int64, float -> float64 PrimValues; a bool is a Python int there
 * (isinstance(True, int)), so True and False are the int64 PrimValues 1 and 0. */
static Expr *number_value(ScriptNum n, Span span)
{
    rule_fired("TS-6.1");
    switch (n.kind) {
    case NUM_INT:
        return expr_prim_value(primexpr_int(n.i, dtype_int64(), span), span);
    case NUM_FLOAT:
        return expr_prim_value(primexpr_float(n.f, dtype_float64(), span), span);
    case NUM_BOOL:
        return expr_prim_value(primexpr_int(n.i, dtype_int64(), span), span);
    }
    return NULL;
}

static Expr *global_ref(ScriptCtx *ctx, const PyExpr *e)
{
    ModuleFunc *f = ctx->mod ? module_lookup(ctx->mod, e->u.attr.attr) : NULL;
    if (!f)
        script_fail(ctx, "UnknownName", e->span, "the module has no function `%s`", e->u.attr.attr);
    Expr *g = expr_new(EXPR_GLOBAL_VAR, e->span);
    g->u.gvar = f->gvar;
    return g;
}

static bool is_module_name(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->kind != PY_NAME)
        return false;
    Sym *s = script_lookup(ctx, e->u.name);
    return s && s->kind == SYM_MODULE;
}

/* A VDevice as TVMScript passes it to R.to_vdevice: its "kind:i" name. */
static Expr *vdevice_text(const char *ref, Span span)
{
    Expr *x = expr_new(EXPR_STRING, span);
    x->u.str = ref;
    return x;
}

static Expr *name_expr(ScriptCtx *ctx, const PyExpr *e)
{
    Sym *s = script_lookup(ctx, e->u.name);
    if (s && s->kind == SYM_VAR)
        return script_var_ref(s->var, e->span);
    if (s && s->kind == SYM_PRIM) /* convert_to_expr: a PrimExpr is a PrimValue */
        return expr_prim_value(s->prim, e->span);
    if (s && s->kind == SYM_VDEVICE)
        return vdevice_text(s->vdevice, e->span);
    if (s || script_ns_of(ctx, e->u.name) != NS_NONE)
        script_fail(ctx, "BadExpression", e->span, "`%s` is not a Relax expression", e->u.name);
    script_fail(ctx, "UnknownName", e->span, "name `%s` is not defined", e->u.name);
}

/* TS-7.1: a tensor's DLTensor fields read at run time, as TVM's relax.Expr properties
 * write them: x.ndim, x.byte_offset, x.elem_offset, x.dtype.type_code|bits|lanes, and (in
 * subscript_expr) x.shape[i], x.strides[i]. Each is a call of its R.inspect operator. */
static const struct {
    const char *field;
    const char *op;
    bool of_dtype; /* x.dtype.field */
} INSPECT_FIELDS[] = {
    {"ndim", "relax.inspect.tensor_ndim", false},
    {"byte_offset", "relax.inspect.tensor_byte_offset", false},
    {"elem_offset", "relax.inspect.tensor_elem_offset", false},
    {"type_code", "relax.inspect.tensor_dtype_code", true},
    {"bits", "relax.inspect.tensor_dtype_bits", true},
    {"lanes", "relax.inspect.tensor_dtype_lanes", true},
};

static Expr *inspect_call(const char *op, Expr *tensor, Expr *axis, Span span)
{
    Expr **args = MEM_ARRAY(Expr *, 2);
    args[0] = tensor;
    args[1] = axis;
    return expr_call(expr_op(op, span), args, axis != NULL ? 2 : 1, span);
}

/* The R.inspect call an attribute reads, or NULL when it names no DLTensor field. */
static Expr *inspect_field(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-6.3");
    const PyExpr *base = e->u.attr.value;
    for (size_t i = 0; i < sizeof INSPECT_FIELDS / sizeof INSPECT_FIELDS[0]; i++) {
        if (strcmp(e->u.attr.attr, INSPECT_FIELDS[i].field) != 0)
            continue;
        if (INSPECT_FIELDS[i].of_dtype) {
            if (base->kind != PY_ATTR || strcmp(base->u.attr.attr, "dtype") != 0)
                return NULL;
            base = base->u.attr.value;
        }
        if (base->kind == PY_NAME && script_lookup(ctx, base->u.name) == NULL)
            return NULL;
        return inspect_call(INSPECT_FIELDS[i].op, script_expr(ctx, base), NULL, e->span);
    }
    return NULL;
}

/* x.shape[i] and x.strides[i] (TS-7.1): i is an int literal, a PrimExpr or a Relax value. */
static Expr *inspect_axis(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-6.3");
    const PyExpr *v = e->u.subscript.value, *idx = e->u.subscript.index;
    if (v->kind != PY_ATTR)
        return NULL;
    const char *op = strcmp(v->u.attr.attr, "shape") == 0     ? "relax.inspect.tensor_shape_i"
                     : strcmp(v->u.attr.attr, "strides") == 0 ? "relax.inspect.tensor_stride_i"
                                                              : NULL;
    const PyExpr *base = v->u.attr.value;
    if (op == NULL || (base->kind == PY_NAME && script_lookup(ctx, base->u.name) == NULL))
        return NULL;
    Expr *axis =
        idx->kind == PY_INT
            ? expr_prim_value(primexpr_int(idx->u.int_value, dtype_int64(), idx->span), idx->span)
            : script_expr(ctx, idx);
    return inspect_call(op, script_expr(ctx, base), axis, e->span);
}

static Expr *attr_expr(ScriptCtx *ctx, const PyExpr *e)
{
    if (is_module_name(ctx, e->u.attr.value))
        return global_ref(ctx, e);
    const PyExpr *base = e->u.attr.value;
    if (base->kind == PY_NAME && !script_lookup(ctx, base->u.name) &&
        script_ns_of(ctx, base->u.name) == NS_NONE)
        script_fail(ctx, "UnknownName", base->span, "name `%s` is not defined", base->u.name);
    ScriptNs ns;
    const char *path = script_dotted(ctx, e, &ns);
    if (path && ns == NS_RELAX)
        script_fail(ctx, "BadExpression", e->span, "R.%s is not an expression here; call it", path);
    Expr *field = inspect_field(ctx, e);
    if (field != NULL)
        return field;
    script_fail(ctx, "BadExpression", e->span, "attribute `%s` has no Relax meaning",
                e->u.attr.attr);
}

static Expr *seq_expr(ScriptCtx *ctx, const PyExpr *e)
{
    int n = e->u.seq.n;
    Expr **fields = MEM_ARRAY(Expr *, n ? n : 1);
    for (int i = 0; i < n; i++)
        fields[i] = script_expr(ctx, e->u.seq.items[i]);
    return expr_tuple(fields, n, e->span);
}

/* subscript -> expr '[' INT ']' : the index must be a non-negative literal. */
static Expr *subscript_expr(ScriptCtx *ctx, const PyExpr *e)
{
    const PyExpr *idx = e->u.subscript.index;
    Expr *field = inspect_axis(ctx, e);
    if (field != NULL)
        return field;
    if (idx->kind != PY_INT)
        script_fail(ctx, "BadArguments", idx->span,
                    "a tuple index must be a non-negative integer literal");
    Expr *t = script_expr(ctx, e->u.subscript.value);
    Expr *g = expr_new(EXPR_TUPLE_GET_ITEM, e->span);
    g->u.get_item.tuple = t;
    if (idx->u.int_value > INT32_MAX)
        script_fail(ctx, "BadArguments", idx->span, "tuple index out of range");
    g->u.get_item.index = (int)idx->u.int_value;
    return g;
}

/* ---- operator sugar --------------------------------------------------------------- */

static const char *binop_name(PyOp op)
{
    switch (op) {
    case PYOP_ADD:
        return "relax.add";
    case PYOP_SUB:
        return "relax.subtract";
    case PYOP_MUL:
        return "relax.multiply";
    case PYOP_DIV:
        return "relax.divide";
    case PYOP_FLOORDIV:
        return "relax.floor_divide";
    case PYOP_POW:
        return "relax.power";
    case PYOP_LT:
        return "relax.less";
    case PYOP_GT:
        return "relax.greater";
    case PYOP_LE:
        return "relax.less_equal";
    case PYOP_GE:
        return "relax.greater_equal";
    default:
        return NULL;
    }
}

/* An operand of Python operator sugar: a Python number is an error (TVM asks for R.const),
 * a PrimExpr over shape variables becomes a PrimValue. */
static Expr *operand(ScriptCtx *ctx, const PyExpr *e)
{
    PrimClass c = script_prim_class(ctx, e);
    if (c == PCLASS_LITERAL)
        script_fail(ctx, "PythonNumberOperand", e->span,
                    "a Python number cannot be an operand of a Relax operator; use R.const");
    return script_expr(ctx, e);
}

static Expr *op_call2(ScriptCtx *ctx, PyOp op, const PyExpr *l, const PyExpr *r, Span span)
{
    if (op == PYOP_MOD)
        script_fail(ctx, "PythonModOperator", span,
                    "`%%` is not supported on Relax expressions; use R.mod or R.floor_mod");
    const char *name = binop_name(op);
    if (!name)
        script_fail(ctx, "BadExpression", span, "this operator has no Relax meaning");
    Expr **args = MEM_ARRAY(Expr *, 2);
    args[0] = operand(ctx, l);
    args[1] = operand(ctx, r);
    return expr_call(expr_op(name, span), args, 2, span);
}

static Expr *unary_expr(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->u.unary.op != PYOP_NEG)
        script_fail(ctx, "BadExpression", e->span, "this operator has no Relax meaning");
    Expr **args = MEM_ARRAY(Expr *, 1);
    args[0] = script_expr(ctx, e->u.unary.operand);
    return expr_call(expr_op("relax.negative", e->span), args, 1, e->span);
}

static Expr *compare_expr(ScriptCtx *ctx, const PyExpr *e)
{
    if (e->u.compare.n != 1)
        script_fail(ctx, "BadExpression", e->span, "chained comparisons have no Relax meaning");
    PyOp op = e->u.compare.ops[0];
    if (op == PYOP_EQ || op == PYOP_NE)
        script_fail(ctx, "BadExpression", e->span,
                    "`==` and `!=` are not Relax operators; use R.equal or R.not_equal");
    return op_call2(ctx, op, e->u.compare.first, e->u.compare.rest[0], e->span);
}

/* ---- calls ------------------------------------------------------------------------ */

/* x.astype(dtype) -> R.astype(x, dtype=dtype) */
static Expr *astype_expr(ScriptCtx *ctx, const PyExpr *e)
{
    const PyExpr *dt = NULL;
    if (e->u.call.nargs == 1 && e->u.call.nkw == 0)
        dt = e->u.call.args[0];
    else if (e->u.call.nargs == 0 && e->u.call.nkw == 1 &&
             strcmp(e->u.call.kw_names[0], "dtype") == 0)
        dt = e->u.call.kw_values[0];
    if (!dt || dt->kind != PY_STR)
        script_fail(ctx, "BadArguments", e->span, "astype takes one dtype string");
    DataType t;
    if (!dtype_parse(dt->u.str, &t))
        script_fail(ctx, "BadDType", dt->span, "`%s` is not a data type", dt->u.str);
    Expr **args = MEM_ARRAY(Expr *, 1);
    args[0] = script_expr(ctx, e->u.call.func->u.attr.value);
    Expr *c = expr_call(expr_op("relax.astype", e->span), args, 1, e->span);
    attrs_set(c->u.call.attrs, "dtype", attr_str(dt->u.str, dt->span));
    return c;
}

/* call -> callee '(' args ')' where callee is a GlobalVar, a local function or closure. */
static Expr *plain_call(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-7");
    if (e->u.call.nkw > 0)
        script_fail(ctx, "BadArguments", e->u.call.kw_spans[0],
                    "keyword arguments are not accepted in a call of a function");
    Expr *op = script_expr(ctx, e->u.call.func);
    int n = e->u.call.nargs;
    Expr **args = MEM_ARRAY(Expr *, n ? n : 1);
    for (int i = 0; i < n; i++)
        args[i] = script_expr(ctx, e->u.call.args[i]);
    return expr_call(op, args, n, e->span);
}

static Expr *call_expr(ScriptCtx *ctx, const PyExpr *e)
{
    const PyExpr *f = e->u.call.func;
    ScriptNs ns;
    const char *path = script_dotted(ctx, f, &ns);
    if (path)
        script_reject_unsupported(ctx, f);
    if (path && ns == NS_RELAX)
        return script_relax_call(ctx, e, path);
    if (script_is_vdevice_call(ctx, e))
        return vdevice_text(script_vdevice_ref(ctx, e), e->span);
    if (path)
        script_fail(ctx, "UnknownName", f->span, "`%s` is not a Relax function", path);
    if (f->kind == PY_ATTR && strcmp(f->u.attr.attr, "astype") == 0 &&
        !is_module_name(ctx, f->u.attr.value))
        return astype_expr(ctx, e);
    return plain_call(ctx, e);
}

/* ---- dispatch --------------------------------------------------------------------- */

Expr *script_expr(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("TS-6");
    ScriptNum num;
    if (script_number(ctx, e, &num))
        return number_value(num, e->span);
    PrimClass c = script_prim_class(ctx, e);
    if (c != PCLASS_OTHER)
        return expr_prim_value(script_prim(ctx, e), e->span);
    switch (e->kind) {
    case PY_NAME:
        return name_expr(ctx, e);
    case PY_ATTR:
        return attr_expr(ctx, e);
    case PY_CALL:
        return call_expr(ctx, e);
    case PY_SUBSCRIPT:
        return subscript_expr(ctx, e);
    case PY_TUPLE:
    case PY_LIST:
        return seq_expr(ctx, e);
    case PY_STR: {
        Expr *s = expr_new(EXPR_STRING, e->span);
        s->u.str = e->u.str;
        return s;
    }
    case PY_BINOP:
        return op_call2(ctx, e->u.binop.op, e->u.binop.left, e->u.binop.right, e->span);
    case PY_UNARYOP:
        return unary_expr(ctx, e);
    case PY_COMPARE:
        return compare_expr(ctx, e);
    case PY_INT:
    case PY_FLOAT:
    case PY_BOOL:
    case PY_NONE:
    case PY_DICT:
    case PY_SLICE:
    case PY_BOOLOP:
    case PY_IFEXP:
    case PY_STARRED:
    case PY_LAMBDA:
        break;
    }
    script_fail(ctx, "BadExpression", e->span, "this Python expression has no Relax meaning");
}

Expr *script_rhs(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNum num;
    if (script_number(ctx, e, &num))
        return script_literal_const(ctx, e);
    return script_expr(ctx, e);
}

/* ---- attribute values ------------------------------------------------------------- */

static AttrValue *attr_seq(ScriptCtx *ctx, const PyExpr *e, bool allow_expr)
{
    AttrValue *v = attr_new(ATTR_LIST, e->span);
    int n = e->u.seq.n;
    v->u.list.items = MEM_ARRAY(AttrValue *, n ? n : 1);
    v->u.list.n = n;
    for (int i = 0; i < n; i++)
        v->u.list.items[i] = script_attr_value(ctx, e->u.seq.items[i], allow_expr);
    return v;
}

static AttrValue *attr_dict(ScriptCtx *ctx, const PyExpr *e, bool allow_expr)
{
    AttrValue *v = attr_new(ATTR_DICT, e->span);
    v->u.dict = attrs_new();
    for (int i = 0; i < e->u.dict.n; i++) {
        const PyExpr *k = e->u.dict.keys[i];
        if (k->kind != PY_STR)
            script_fail(ctx, "BadExpression", k->span, "attribute keys must be strings");
        attrs_set(v->u.dict, k->u.str, script_attr_value(ctx, e->u.dict.values[i], allow_expr));
    }
    return v;
}

/* TS-6: a typed TIR literal T.int64(65536), T.float32(0.5), T.bool(True) as a function or
 * module attribute is its number (the reference's attributes hold Python literals; TVM keeps
 * the typed immediate, whose type the printed text then drops). */
static AttrValue *typed_literal(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNs ns;
    DataType t;
    ScriptNum num;
    if (e->kind != PY_CALL || e->u.call.nargs != 1 || e->u.call.nkw != 0)
        return NULL;
    const char *path = script_dotted(ctx, e->u.call.func, &ns);
    if (!path || ns != NS_TIR || !dtype_parse(path, &t) || dtype_is_void(t) || dtype_is_handle(t) ||
        !script_number(ctx, e->u.call.args[0], &num))
        return NULL;
    double f = num.kind == NUM_FLOAT ? num.f : (double)num.i;
    if (dtype_is_bool(t))
        return attr_bool(f != 0, e->span);
    if (!dtype_is_float(t))
        return attr_int(num.kind == NUM_FLOAT ? (int64_t)num.f : num.i, e->span);
    AttrValue *v = attr_new(ATTR_FLOAT, e->span);
    v->u.f = f;
    return v;
}

AttrValue *script_attr_value(ScriptCtx *ctx, const PyExpr *e, bool allow_expr)
{
    ScriptNum num;
    if (script_number(ctx, e, &num)) {
        if (num.kind == NUM_BOOL)
            return attr_bool(num.i != 0, e->span);
        if (num.kind == NUM_INT)
            return attr_int(num.i, e->span);
        AttrValue *v = attr_new(ATTR_FLOAT, e->span);
        v->u.f = num.f;
        return v;
    }
    switch (e->kind) {
    case PY_NONE:
        return attr_new(ATTR_NONE, e->span);
    case PY_STR:
        return attr_str(e->u.str, e->span);
    case PY_LIST:
    case PY_TUPLE:
        return attr_seq(ctx, e, allow_expr);
    case PY_DICT:
        return attr_dict(ctx, e, allow_expr);
    default:
        break;
    }
    AttrValue *typed = allow_expr ? NULL : typed_literal(ctx, e);
    if (typed != NULL)
        return typed;
    if (!allow_expr)
        script_fail(ctx, "BadExpression", e->span,
                    "an attribute value must be a literal, a list or a dict");
    AttrValue *v = attr_new(ATTR_EXPR, e->span);
    v->u.expr = script_expr(ctx, e);
    return v;
}
