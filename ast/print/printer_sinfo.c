/* printer_sinfo: StructInfo annotations and PrimExprs in canonical TVMScript form.
 * SPEC_NOTES: "Canonical printing" (TVMSCRIPT.md §3.2, §5, §11). */
#include <math.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/print/literal.h"
#include "ast/print/printer_internal.h"
#include "ast/rule.h"

/* Python precedence levels, loosest first. */
enum {
    PREC_OR = 1,
    PREC_AND,
    PREC_NOT,
    PREC_CMP,
    PREC_ADD,
    PREC_MUL,
    PREC_UNARY,
    PREC_ATOM,
};

bool printer_prim_has_var(const PrimExpr *e)
{
    if (e == NULL)
        return false;
    switch (e->kind) {
    case PE_INT:
    case PE_FLOAT:
        return false;
    case PE_VAR:
        return true;
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
    case PE_OR:
        return printer_prim_has_var(e->u.bin.a) || printer_prim_has_var(e->u.bin.b);
    case PE_NOT:
    case PE_CAST:
        return printer_prim_has_var(e->u.operand);
    case PE_SELECT:
        return printer_prim_has_var(e->u.select.cond) ||
               printer_prim_has_var(e->u.select.then_value) ||
               printer_prim_has_var(e->u.select.else_value);
    case PE_LOAD:
        return true;
    case PE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            if (printer_prim_has_var(e->u.call.args[i]))
                return true;
        return false;
    }
    return false;
}

/* The integer type a bare Python int reads as in this context. */
static bool int_prints_bare(const Printer *p, DataType t)
{
    DataType bare = p->prim_ctx == PRIM_CTX_TIR ? dtype_int32() : dtype_int64();
    return dtype_equal(t, bare);
}

static int prim_prec(const Printer *p, const PrimExpr *e)
{
    switch (e->kind) {
    case PE_INT:
        if (!dtype_is_bool(e->dtype) && int_prints_bare(p, e->dtype) && e->u.int_value < 0)
            return PREC_UNARY;
        return PREC_ATOM;
    case PE_ADD:
    case PE_SUB:
        return PREC_ADD;
    case PE_MUL:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
        return PREC_MUL;
    case PE_DIV:
        return dtype_is_float(e->dtype) ? PREC_MUL : PREC_ATOM;
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
        return PREC_CMP;
    case PE_AND:
        return PREC_AND;
    case PE_OR:
        return PREC_OR;
    case PE_NOT:
        return PREC_NOT;
    case PE_FLOAT:
    case PE_VAR:
    case PE_MOD:
    case PE_MIN:
    case PE_MAX:
    case PE_SELECT:
    case PE_CAST:
    case PE_LOAD:
    case PE_CALL:
        return PREC_ATOM;
    }
    return PREC_ATOM;
}

static const struct {
    PrimExprKind kind;
    const char *text;
} infix_ops[] = {
    {PE_ADD, " + "},       {PE_SUB, " - "},      {PE_MUL, " * "}, {PE_DIV, " / "},
    {PE_FLOORDIV, " // "}, {PE_FLOORMOD, " % "}, {PE_EQ, " == "}, {PE_NE, " != "},
    {PE_LT, " < "},        {PE_LE, " <= "},      {PE_GT, " > "},  {PE_GE, " >= "},
    {PE_AND, " and "},     {PE_OR, " or "},
};

static const char *infix_op(PrimExprKind kind)
{
    for (size_t i = 0; i < sizeof infix_ops / sizeof infix_ops[0]; i++)
        if (infix_ops[i].kind == kind)
            return infix_ops[i].text;
    return " ? ";
}

static void emit_operand(Printer *p, StrBuf *sb, const PrimExpr *e, bool paren)
{
    if (paren)
        strbuf_addc(sb, '(');
    printer_emit_prim(p, sb, e);
    if (paren)
        strbuf_addc(sb, ')');
}

/* Left-associative operators: a right operand of equal precedence needs parentheses so that
 * the tree reads back as written; comparisons never chain. */
static void emit_infix(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    int prec = prim_prec(p, e);
    int la = prim_prec(p, e->u.bin.a);
    int lb = prim_prec(p, e->u.bin.b);
    bool cmp = prec == PREC_CMP;
    emit_operand(p, sb, e->u.bin.a, cmp ? la <= prec : la < prec);
    strbuf_add(sb, infix_op(e->kind));
    emit_operand(p, sb, e->u.bin.b, lb <= prec);
}

/* `ns.name(args)`: ns is "T" for TIR's own calls, "Module" for another PrimFunc. */
static void emit_call_in(Printer *p, StrBuf *sb, const char *ns, const char *name,
                         const PrimExpr *const *args, int n)
{
    strbuf_addf(sb, "%s.%s(", ns, name);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, args[i]);
    }
    strbuf_addc(sb, ')');
}

static void emit_call(Printer *p, StrBuf *sb, const char *name, const PrimExpr *const *args, int n)
{
    emit_call_in(p, sb, "T", name, args, n);
}

static void emit_int(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    if (dtype_is_bool(e->dtype)) {
        strbuf_add(sb, e->u.int_value ? "True" : "False");
        return;
    }
    if (int_prints_bare(p, e->dtype)) {
        strbuf_addf(sb, "%lld", (long long)e->u.int_value);
        return;
    }
    if (dtype_is_uint(e->dtype))
        strbuf_addf(sb, "T.%s(%llu)", dtype_str(e->dtype), (unsigned long long)e->u.int_value);
    else
        strbuf_addf(sb, "T.%s(%lld)", dtype_str(e->dtype), (long long)e->u.int_value);
}

static void emit_load(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    strbuf_add(sb, printer_buffer_name(p, e->u.load.buffer));
    strbuf_addc(sb, '[');
    if (e->u.load.nindices == 0)
        strbuf_add(sb, "()");
    for (int i = 0; i < e->u.load.nindices; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, e->u.load.indices[i]);
    }
    strbuf_addc(sb, ']');
}

static void emit_named_call(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    const char *name = e->u.call.name ? e->u.call.name : "";
    const PrimExpr *const *args = (const PrimExpr *const *)e->u.call.args;
    if (name[0] == '@') { /* TIR-CALL: another PrimFunc of the module */
        emit_call_in(p, sb, "Module", name + 1, args, e->u.call.nargs);
        return;
    }
    if (strncmp(name, "tir.", 4) == 0)
        name += 4;
    emit_call(p, sb, name, args, e->u.call.nargs);
}

/* Integer Div and Mod print as T.truncdiv / T.truncmod: `/` would read back as a float
 * division and `%` as FloorMod. */
static void emit_named_binary(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    const PrimExpr *two[2] = {e->u.bin.a, e->u.bin.b};
    if (e->kind == PE_DIV && dtype_is_float(e->dtype)) {
        emit_infix(p, sb, e);
        return;
    }
    const char *name = e->kind == PE_DIV   ? "truncdiv"
                       : e->kind == PE_MOD ? "truncmod"
                       : e->kind == PE_MIN ? "min"
                                           : "max";
    emit_call(p, sb, name, two, 2);
}

void printer_emit_prim(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    switch (e->kind) {
    case PE_INT:
        emit_int(p, sb, e);
        return;
    case PE_FLOAT:
        strbuf_addf(sb, "T.%s(", dtype_str(e->dtype));
        /* TS-11: non-finite values print as TVM prints them, T.float64("inf"). */
        if (isnan(e->u.float_value))
            strbuf_add(sb, "\"nan\"");
        else if (isinf(e->u.float_value))
            strbuf_add(sb, e->u.float_value > 0 ? "\"inf\"" : "\"-inf\"");
        else /* the literal's own double, read back exactly (a float16 -65504 stays -65504,
              * not the shortest float16 spelling -65500, which reads as another literal) */
            printer_emit_float(sb, e->u.float_value, dtype_float64());
        strbuf_addc(sb, ')');
        return;
    case PE_VAR:
        strbuf_add(sb, printer_tirvar_name(p, e->u.var));
        return;
    case PE_DIV:
    case PE_MOD:
    case PE_MIN:
    case PE_MAX:
        emit_named_binary(p, sb, e);
        return;
    case PE_ADD:
    case PE_SUB:
    case PE_MUL:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR:
        emit_infix(p, sb, e);
        return;
    case PE_NOT:
        strbuf_add(sb, "not ");
        emit_operand(p, sb, e->u.operand, prim_prec(p, e->u.operand) < PREC_NOT);
        return;
    case PE_SELECT: {
        const PrimExpr *three[3] = {e->u.select.cond, e->u.select.then_value,
                                    e->u.select.else_value};
        emit_call(p, sb, "Select", three, 3);
        return;
    }
    case PE_CAST:
        strbuf_addf(sb, "T.Cast(\"%s\", ", dtype_str(e->dtype));
        printer_emit_prim(p, sb, e->u.operand);
        strbuf_addc(sb, ')');
        return;
    case PE_LOAD:
        emit_load(p, sb, e);
        return;
    case PE_CALL:
        emit_named_call(p, sb, e);
        return;
    }
}

void printer_emit_dim(Printer *p, StrBuf *sb, const PrimExpr *e)
{
    if (!p->quote_dims || !printer_prim_has_var(e)) {
        printer_emit_prim(p, sb, e);
        return;
    }
    StrBuf inner;
    strbuf_init(&inner);
    printer_emit_prim(p, &inner, e);
    literal_add_string(sb, strbuf_str(&inner));
}

static bool vdevice_same(const VDevice *a, const VDevice *b)
{
    if (a == b)
        return true;
    const char *sa = a->memory_scope ? a->memory_scope : "global";
    const char *sb = b->memory_scope ? b->memory_scope : "global";
    return strcmp(a->target_kind, b->target_kind) == 0 && a->vdevice_id == b->vdevice_id &&
           strcmp(sa, sb) == 0;
}

/* "kind:i", i counting the module's vdevices of that kind before this one. */
const char *printer_vdevice_str(Printer *p, const VDevice *vd)
{
    const char *kind = vd->target_kind ? vd->target_kind : "";
    if (p->mod == NULL)
        return mem_printf("%s:%d", kind, vd->vdevice_id);
    int index = 0;
    for (int i = 0; i < p->mod->nvdevices; i++) {
        const VDevice *other = p->mod->vdevices[i];
        if (vdevice_same(other, vd))
            return mem_printf("%s:%d", kind, index);
        if (other->target_kind && strcmp(other->target_kind, kind) == 0)
            index++;
    }
    return mem_printf("%s:%d", kind, vd->vdevice_id);
}

static void emit_dims_tuple(Printer *p, StrBuf *sb, PrimExpr *const *dims, int n)
{
    strbuf_addc(sb, '(');
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_dim(p, sb, dims[i]);
    }
    strbuf_add(sb, n == 1 ? ",)" : ")");
}

/* Keyword order: dtype, ndim, vdevice; ndim only when there is no shape. */
static void emit_tensor(Printer *p, StrBuf *sb, const StructInfo *s)
{
    const Expr *shape = s->u.tensor.shape;
    bool has_dtype = !dtype_is_void(s->u.tensor.dtype);
    bool has_ndim = shape == NULL && s->u.tensor.ndim != -1;
    const VDevice *vd = s->u.tensor.vdevice;
    if (shape == NULL && !has_dtype && !has_ndim && vd == NULL) {
        strbuf_add(sb, "R.Tensor");
        return;
    }
    strbuf_add(sb, "R.Tensor(");
    const char *sep = "";
    if (shape != NULL && shape->kind == EXPR_SHAPE)
        emit_dims_tuple(p, sb, shape->u.shape.values, shape->u.shape.n);
    else if (shape != NULL)
        printer_emit_expr(p, sb, shape);
    if (shape != NULL)
        sep = ", ";
    if (has_dtype) {
        strbuf_addf(sb, "%sdtype=\"%s\"", sep, dtype_str(s->u.tensor.dtype));
        sep = ", ";
    }
    if (has_ndim) {
        strbuf_addf(sb, "%sndim=%d", sep, s->u.tensor.ndim);
        sep = ", ";
    }
    if (vd != NULL)
        strbuf_addf(sb, "%svdevice=\"%s\"", sep, printer_vdevice_str(p, vd));
    strbuf_addc(sb, ')');
}

static void emit_shape(Printer *p, StrBuf *sb, const StructInfo *s)
{
    if (s->u.shape.values == NULL) {
        strbuf_addf(sb, "R.Shape(ndim=%d)", s->u.shape.ndim);
        return;
    }
    strbuf_add(sb, "R.Shape([");
    for (int i = 0; i < s->u.shape.ndim; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_dim(p, sb, s->u.shape.values[i]);
    }
    strbuf_add(sb, "])");
}

static void emit_prim_sinfo(Printer *p, StrBuf *sb, const StructInfo *s)
{
    const PrimExpr *value = s->u.prim.value;
    DataType t = s->u.prim.dtype;
    if (value == NULL) {
        strbuf_addf(sb, "R.Prim(\"%s\")", dtype_str(t));
        return;
    }
    if (dtype_is_void(t) || dtype_equal(t, value->dtype))
        strbuf_add(sb, "R.Prim(value=");
    else
        strbuf_addf(sb, "R.Prim(dtype=\"%s\", value=", dtype_str(t));
    printer_emit_dim(p, sb, value);
    strbuf_addc(sb, ')');
}

static void emit_callable(Printer *p, StrBuf *sb, const StructInfo *s)
{
    const StructInfo *ret = s->u.func.ret;
    if (s->u.func.has_params) {
        strbuf_add(sb, "R.Callable((");
        for (int i = 0; i < s->u.func.nparams; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            printer_emit_sinfo(p, sb, s->u.func.params[i]);
        }
        strbuf_add(sb, s->u.func.nparams == 1 ? ",), " : "), ");
        printer_emit_sinfo(p, sb, ret);
        strbuf_add(sb, s->u.func.purity ? ", True)" : ", False)");
        return;
    }
    bool show_ret = ret != NULL && ret->kind != SINFO_OBJECT;
    if (!show_ret && !s->u.func.purity && s->u.func.derive_func == NULL) {
        strbuf_add(sb, "R.Callable");
        return;
    }
    strbuf_add(sb, "R.Callable(");
    const char *sep = "";
    if (show_ret) {
        strbuf_add(sb, "ret=");
        printer_emit_sinfo(p, sb, ret);
        sep = ", ";
    }
    if (s->u.func.purity) {
        strbuf_addf(sb, "%spurity=True", sep);
        sep = ", ";
    }
    if (s->u.func.derive_func != NULL) {
        strbuf_addf(sb, "%sderive_func=", sep);
        literal_add_string(sb, s->u.func.derive_func);
    }
    strbuf_addc(sb, ')');
}

/* DIST-1: TVM's form, R.DTensor(shape, dtype, "mesh[i]", "placement"); once the shape or
 * the dtype is missing, the rest goes by keyword, and ndim only without a shape. */
static void emit_dtensor(Printer *p, StrBuf *sb, const StructInfo *s)
{
    rule_fired("DIST-3");
    const StructInfo *t = s->u.dtensor.tensor;
    const Expr *shape = t->u.tensor.shape;
    bool kw = shape == NULL;
    const char *sep = "";
    strbuf_add(sb, "R.DTensor(");
    if (shape != NULL && shape->kind == EXPR_SHAPE)
        emit_dims_tuple(p, sb, shape->u.shape.values, shape->u.shape.n);
    else if (shape != NULL)
        printer_emit_expr(p, sb, shape);
    if (shape != NULL)
        sep = ", ";
    if (!dtype_is_void(t->u.tensor.dtype)) {
        strbuf_addf(sb, kw ? "%sdtype=\"%s\"" : "%s\"%s\"", sep, dtype_str(t->u.tensor.dtype));
        sep = ", ";
    } else {
        kw = true;
    }
    strbuf_addf(sb, kw ? "%sdevice_mesh=" : "%s", sep);
    literal_add_string(sb, mem_printf("%s[%d]", s->u.dtensor.mesh_name, s->u.dtensor.mesh_index));
    strbuf_add(sb, kw ? ", placement=" : ", ");
    literal_add_string(sb, dist_placement_str(s->u.dtensor.placement));
    if (shape == NULL && t->u.tensor.ndim != -1)
        strbuf_addf(sb, ", ndim=%d", t->u.tensor.ndim);
    strbuf_addc(sb, ')');
}

/* TS-3.2: each StructInfo kind has exactly one canonical printed form. */
void printer_emit_sinfo(Printer *p, StrBuf *sb, const StructInfo *s)
{
    rule_fired("TS-3.2");
    if (s == NULL) {
        strbuf_add(sb, "R.Object");
        return;
    }
    switch (s->kind) {
    case SINFO_OBJECT:
        strbuf_add(sb, "R.Object");
        return;
    case SINFO_PRIM:
        emit_prim_sinfo(p, sb, s);
        return;
    case SINFO_SHAPE:
        emit_shape(p, sb, s);
        return;
    case SINFO_TENSOR:
        emit_tensor(p, sb, s);
        return;
    case SINFO_TUPLE:
        if (s->u.tuple.n == 0) {
            strbuf_add(sb, "R.Tuple");
            return;
        }
        strbuf_add(sb, "R.Tuple(");
        for (int i = 0; i < s->u.tuple.n; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            printer_emit_sinfo(p, sb, s->u.tuple.fields[i]);
        }
        strbuf_addc(sb, ')');
        return;
    case SINFO_FUNC:
        emit_callable(p, sb, s);
        return;
    case SINFO_DTENSOR:
        emit_dtensor(p, sb, s);
        return;
    }
}

char *printer_print_sinfo(const StructInfo *sinfo)
{
    Printer p;
    printer_init(&p, NULL);
    printer_emit_sinfo(&p, &p.out, sinfo);
    return strbuf_str(&p.out);
}

char *printer_print_primexpr(const PrimExpr *e)
{
    Printer p;
    printer_init(&p, NULL);
    printer_emit_prim(&p, &p.out, e);
    return strbuf_str(&p.out);
}
