/* printer_expr: Relax expressions, constants, literals and call forms on one line.
 * SPEC_NOTES: "Canonical printing" (TVMSCRIPT.md §6, §7; SPEC_NOTES §4.2). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/print/literal.h"
#include "ast/print/printer_internal.h"
#include "ast/scalar.h"

void printer_emit_float(StrBuf *sb, double v, DataType dtype)
{
    if (isnan(v)) {
        strbuf_add(sb, "float(\"nan\")");
        return;
    }
    if (isinf(v)) {
        strbuf_add(sb, v > 0 ? "float(\"inf\")" : "float(\"-inf\")");
        return;
    }
    literal_add_float(sb, v, dtype, false);
}

static int key_cmp(const void *a, const void *b, const Attrs *attrs)
{
    return strcmp(attrs->keys[*(const int *)a], attrs->keys[*(const int *)b]);
}

int *printer_sorted_keys(const Attrs *attrs)
{
    int *order = MEM_ARRAY(int, attrs->n + 1);
    for (int i = 0; i < attrs->n; i++)
        order[i] = i;
    /* Insertion sort: attribute dictionaries are small and qsort has no context argument. */
    for (int i = 1; i < attrs->n; i++)
        for (int j = i; j > 0 && key_cmp(&order[j - 1], &order[j], attrs) > 0; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return order;
}

void printer_emit_dict(Printer *p, StrBuf *sb, const Attrs *attrs, bool sorted)
{
    int *order = sorted ? printer_sorted_keys(attrs) : NULL;
    strbuf_addc(sb, '{');
    for (int i = 0; i < attrs->n; i++) {
        int k = order ? order[i] : i;
        if (i > 0)
            strbuf_add(sb, ", ");
        literal_add_string(sb, attrs->keys[k]);
        strbuf_add(sb, ": ");
        printer_emit_attr(p, sb, attrs->values[k]);
    }
    strbuf_addc(sb, '}');
}

/* TS-6.2: an index map prints as TVM prints it, `T.index_map(lambda i, j: (e1, e2))`, the
 * results always a tuple; the lambda's parameters are named in the enclosing scope. An int32
 * map keeps `index_dtype="int32"` (TVM drops it, so its text reads back as int64). */
static void emit_index_map(Printer *p, StrBuf *sb, const AttrValue *v)
{
    PrimContext saved = p->prim_ctx;
    NameMark mark = p->names != NULL ? names_mark(p->names) : (NameMark){0, 0};
    bool int32 = v->u.index_map.nparams > 0 && v->u.index_map.params[0]->dtype.bits == 32;
    p->prim_ctx = int32 ? PRIM_CTX_TIR : PRIM_CTX_RELAX;
    strbuf_add(sb, "T.index_map(lambda ");
    for (int i = 0; i < v->u.index_map.nparams; i++)
        strbuf_addf(sb, "%s%s", i > 0 ? ", " : "",
                    printer_tirvar_name(p, v->u.index_map.params[i]));
    strbuf_add(sb, ": (");
    for (int i = 0; i < v->u.index_map.nresults; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, v->u.index_map.results[i]);
    }
    strbuf_add(sb, v->u.index_map.nresults == 1 ? ",)" : ")");
    strbuf_add(sb, int32 ? ", index_dtype=\"int32\")" : ")");
    p->prim_ctx = saved;
    if (p->names != NULL)
        names_release(p->names, mark);
}

void printer_emit_attr(Printer *p, StrBuf *sb, const AttrValue *v)
{
    switch (v->kind) {
    case ATTR_NONE:
        strbuf_add(sb, "None");
        return;
    case ATTR_BOOL:
        strbuf_add(sb, v->u.b ? "True" : "False");
        return;
    case ATTR_INT:
        strbuf_addf(sb, "%lld", (long long)v->u.i);
        return;
    case ATTR_FLOAT:
        printer_emit_float(sb, v->u.f, dtype_float64());
        return;
    case ATTR_STR:
        literal_add_string(sb, v->u.s);
        return;
    case ATTR_LIST:
        strbuf_addc(sb, '[');
        for (int i = 0; i < v->u.list.n; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            printer_emit_attr(p, sb, v->u.list.items[i]);
        }
        strbuf_addc(sb, ']');
        return;
    case ATTR_DICT:
        printer_emit_dict(p, sb, v->u.dict, true);
        return;
    case ATTR_EXPR:
        printer_emit_expr(p, sb, v->u.expr);
        return;
    case ATTR_INDEX_MAP:
        emit_index_map(p, sb, v);
        return;
    case ATTR_VERBATIM:
        strbuf_add(sb, v->u.s);
        return;
    }
}

char *printer_print_attr(const AttrValue *v)
{
    Printer p;
    printer_init(&p, NULL);
    printer_emit_attr(&p, &p.out, v);
    return strbuf_str(&p.out);
}

/* One element of constant data, as a Python literal. */
static void emit_element(StrBuf *sb, const ConstData *c, int64_t i)
{
    DataType t = c->dtype;
    const unsigned char *base = (const unsigned char *)c->data + (size_t)i * dtype_bytes(t);
    if (dtype_is_bool(t)) {
        strbuf_add(sb, *base ? "True" : "False");
        return;
    }
    if (t.code == DT_FLOAT || t.code == DT_BFLOAT) {
        double v = 0;
        uint16_t h;
        float f;
        if (t.bits == 16) {
            memcpy(&h, base, 2);
            v = t.code == DT_BFLOAT ? scalar_bfloat_to_float(h) : scalar_half_to_float(h);
        } else if (t.bits == 32) {
            memcpy(&f, base, 4);
            v = f;
        } else {
            memcpy(&v, base, 8);
        }
        printer_emit_float(sb, v, t);
        return;
    }
    int64_t s = 0;
    uint64_t u = 0;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    bool is_signed = t.code == DT_INT;
    switch (t.bits) {
    case 8:
        memcpy(&i8, base, 1);
        s = i8;
        u = *base;
        break;
    case 16:
        memcpy(&i16, base, 2);
        s = i16;
        u = (uint16_t)i16;
        break;
    case 32:
        memcpy(&i32, base, 4);
        s = i32;
        u = (uint32_t)i32;
        break;
    default:
        memcpy(&s, base, 8);
        u = (uint64_t)s;
        break;
    }
    if (is_signed)
        strbuf_addf(sb, "%lld", (long long)s);
    else
        strbuf_addf(sb, "%llu", (unsigned long long)u);
}

static void emit_nested(StrBuf *sb, const ConstData *c, int level, int64_t offset)
{
    if (level == c->ndim) {
        emit_element(sb, c, offset);
        return;
    }
    strbuf_addc(sb, '[');
    for (int64_t i = 0; i < c->shape[level]; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        emit_nested(sb, c, level + 1, offset * c->shape[level] + i);
    }
    strbuf_addc(sb, ']');
}

/* DIST-4: R.dist.const(value, R.DTensor(...)) for a constant of DTensor StructInfo. */
static void emit_dist_constant(Printer *p, StrBuf *sb, const Expr *e)
{
    strbuf_add(sb, "R.dist.const(");
    emit_nested(sb, e->u.constant, 0, 0);
    strbuf_add(sb, ", ");
    printer_emit_sinfo(p, sb, e->extern_sinfo);
    strbuf_addc(sb, ')');
}

static void emit_constant(StrBuf *sb, const ConstData *c)
{
    strbuf_add(sb, "R.const(");
    emit_nested(sb, c, 0, 0);
    strbuf_addf(sb, ", \"%s\")", dtype_str(c->dtype));
}

static void emit_list(Printer *p, StrBuf *sb, Expr *const *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_expr(p, sb, items[i]);
    }
}

static void emit_tuple(Printer *p, StrBuf *sb, const Expr *e)
{
    if (e->u.tuple.n == 0) {
        strbuf_add(sb, "R.tuple()");
        return;
    }
    strbuf_addc(sb, '(');
    emit_list(p, sb, e->u.tuple.fields, e->u.tuple.n);
    strbuf_add(sb, e->u.tuple.n == 1 ? ",)" : ")");
}

static void emit_shape_expr(Printer *p, StrBuf *sb, const Expr *e)
{
    PrimContext saved = p->prim_ctx;
    p->prim_ctx = PRIM_CTX_RELAX;
    strbuf_add(sb, "R.shape([");
    for (int i = 0; i < e->u.shape.n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_prim(p, sb, e->u.shape.values[i]);
    }
    strbuf_add(sb, "])");
    p->prim_ctx = saved;
}

static void emit_op_name(StrBuf *sb, const char *name)
{
    if (strncmp(name, "relax.", 6) == 0)
        strbuf_addf(sb, "R.%s", name + 6);
    else
        strbuf_add(sb, name);
}

/* Shown readably; these forms only occur in ASTs that are not in normal form. */
static void emit_unusual(Printer *p, StrBuf *sb, const Expr *e)
{
    if (e->kind == EXPR_IF) {
        strbuf_add(sb, "R.If(");
        printer_emit_expr(p, sb, e->u.if_.cond);
        strbuf_add(sb, ", ");
        printer_emit_expr(p, sb, e->u.if_.then_branch);
        strbuf_add(sb, ", ");
        printer_emit_expr(p, sb, e->u.if_.else_branch);
        strbuf_addc(sb, ')');
    } else if (e->kind == EXPR_SEQ) {
        strbuf_addf(sb, "R.SeqExpr(blocks=%d, body=", e->u.seq.nblocks);
        printer_emit_expr(p, sb, e->u.seq.body);
        strbuf_addc(sb, ')');
    } else {
        const Function *f = e->u.func;
        strbuf_add(sb, "R.Function(");
        for (int i = 0; i < f->nparams; i++) {
            strbuf_add(sb, printer_var_name(p, f->params[i]));
            strbuf_add(sb, ", ");
        }
        strbuf_add(sb, "body=");
        printer_emit_expr(p, sb, f->body);
        strbuf_addc(sb, ')');
    }
}

static void emit_call_expr(Printer *p, StrBuf *sb, const Expr *e);

void printer_emit_expr(Printer *p, StrBuf *sb, const Expr *e)
{
    if (e == NULL) {
        strbuf_add(sb, "None");
        return;
    }
    switch (e->kind) {
    case EXPR_CONSTANT:
        if (e->extern_sinfo != NULL)
            emit_dist_constant(p, sb, e);
        else
            emit_constant(sb, e->u.constant);
        return;
    case EXPR_VAR:
        strbuf_add(sb, printer_var_name(p, e->u.var));
        return;
    case EXPR_GLOBAL_VAR:
        strbuf_addf(sb, "cls.%s", e->u.gvar->name);
        return;
    case EXPR_TUPLE:
        emit_tuple(p, sb, e);
        return;
    case EXPR_PRIM_VALUE: {
        PrimContext saved = p->prim_ctx;
        p->prim_ctx = PRIM_CTX_RELAX;
        strbuf_add(sb, "R.prim_value(");
        /* TS-6: a bare True there is the int64 1 (relax.PrimValue takes a bool as a Python
         * int), so a bool literal prints in a form that reads back as itself, where TVM v0.22
         * prints R.prim_value(True) and so reads its own print back as an int64. */
        if (e->u.prim->kind == PE_INT && dtype_is_bool(e->u.prim->dtype))
            strbuf_add(sb, e->u.prim->u.int_value ? "T.bool(True)" : "T.bool(False)");
        else
            printer_emit_prim(p, sb, e->u.prim);
        strbuf_addc(sb, ')');
        p->prim_ctx = saved;
        return;
    }
    case EXPR_STRING:
        strbuf_add(sb, "R.str(");
        literal_add_string(sb, e->u.str);
        strbuf_addc(sb, ')');
        return;
    case EXPR_DTYPE:
        strbuf_addf(sb, "R.dtype(\"%s\")", dtype_str(e->u.dtype));
        return;
    case EXPR_EXTERN_FUNC:
        /* TVM's printer drops a written StructInfo; printing it keeps the program's meaning
         * (its purity and result) through a second reading (SPEC_NOTES §4.5). */
        strbuf_add(sb, "R.ExternFunc(");
        literal_add_string(sb, e->u.extern_symbol);
        if (e->extern_sinfo != NULL) {
            strbuf_add(sb, ", ");
            printer_emit_sinfo(p, sb, e->extern_sinfo);
        }
        strbuf_addc(sb, ')');
        return;
    case EXPR_CALL:
        emit_call_expr(p, sb, e);
        return;
    case EXPR_SHAPE:
        emit_shape_expr(p, sb, e);
        return;
    case EXPR_TUPLE_GET_ITEM:
        printer_emit_expr(p, sb, e->u.get_item.tuple);
        strbuf_addf(sb, "[%d]", e->u.get_item.index);
        return;
    case EXPR_OP:
        emit_op_name(sb, e->u.op_name);
        return;
    case EXPR_SEQ:
    case EXPR_FUNCTION:
    case EXPR_IF:
        emit_unusual(p, sb, e);
        return;
    }
}

char *printer_print_expr(const Expr *e)
{
    Printer p;
    printer_init(&p, NULL);
    printer_emit_expr(&p, &p.out, e);
    return strbuf_str(&p.out);
}

/* ---- Calls ---- */

/* Keyword arguments accumulate as ", key=value". */
static void emit_kw_attr(Printer *p, StrBuf *sb, const char *key, const AttrValue *v)
{
    strbuf_addf(sb, ", %s=", key);
    printer_emit_attr(p, sb, v);
}

static void emit_sinfo_args(Printer *p, StrBuf *sb, const Expr *e)
{
    int n = e->u.call.nsinfo_args;
    if (n == 0)
        return;
    strbuf_add(sb, ", sinfo_args=(");
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        printer_emit_sinfo(p, sb, e->u.call.sinfo_args[i]);
    }
    strbuf_add(sb, n == 1 ? ",)" : ")");
}

/* The callee argument of the packed and DPS forms prints as its symbol string. */
static void emit_callee_arg(Printer *p, StrBuf *sb, const Expr *arg)
{
    if (arg->kind == EXPR_EXTERN_FUNC && arg->extern_sinfo == NULL)
        literal_add_string(sb, arg->u.extern_symbol);
    else
        printer_emit_expr(p, sb, arg);
}

/* The arguments with the leading comma already written, or not, for the first one. */
static void emit_args(Printer *p, StrBuf *sb, const Expr *e, int from, bool first_is_callee)
{
    for (int i = from; i < e->u.call.nargs; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        if (i == 0 && first_is_callee)
            emit_callee_arg(p, sb, e->u.call.args[0]);
        else
            printer_emit_expr(p, sb, e->u.call.args[i]);
    }
}

/* R.call_tir(f, (args,), out_sinfo=S[, inplace_indices=[..]][, tir_vars=shape]) */
static void emit_call_dps(Printer *p, StrBuf *sb, const Expr *e, const char *name)
{
    const StructInfo *out = e->u.call.sinfo_args[0];
    const Attrs *attrs = e->u.call.attrs;
    strbuf_addf(sb, "R.%s(", name);
    emit_callee_arg(p, sb, e->u.call.args[0]);
    strbuf_add(sb, ", ");
    printer_emit_expr(p, sb, e->u.call.args[1]);
    strbuf_add(sb, ", out_sinfo=");
    if (out->kind == SINFO_TUPLE) {
        strbuf_addc(sb, '[');
        for (int i = 0; i < out->u.tuple.n; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            printer_emit_sinfo(p, sb, out->u.tuple.fields[i]);
        }
        strbuf_addc(sb, ']');
    } else {
        printer_emit_sinfo(p, sb, out);
    }
    const AttrValue *inplace = attrs_get(attrs, "inplace_indices");
    if (inplace != NULL)
        emit_kw_attr(p, sb, "inplace_indices", inplace);
    for (int i = 0; i < attrs->n; i++)
        if (strcmp(attrs->keys[i], "inplace_indices") != 0)
            emit_kw_attr(p, sb, attrs->keys[i], attrs->values[i]);
    if (e->u.call.nargs == 3) {
        strbuf_add(sb, ", tir_vars=");
        printer_emit_expr(p, sb, e->u.call.args[2]);
    }
    strbuf_addc(sb, ')');
}

/* DIST-4: call_tir with a DTensor output prints as R.dist.call_tir, as TVM prints it. */
static bool has_dtensor(const StructInfo *s)
{
    if (s->kind == SINFO_TUPLE)
        for (int i = 0; i < s->u.tuple.n; i++)
            if (s->u.tuple.fields[i]->kind == SINFO_DTENSOR)
                return true;
    return s->kind == SINFO_DTENSOR;
}

static bool is_dps_form(const char *name)
{
    return strcmp(name, "relax.call_tir") == 0 || strcmp(name, "relax.call_tir_inplace") == 0 ||
           strcmp(name, "relax.dist.call_tir_local_view") == 0 ||
           strcmp(name, "relax.call_dps_packed") == 0 ||
           strcmp(name, "relax.call_tir_with_grad") == 0;
}

/* R.print / R.assert_op keep their format string as an argument; it prints as `format=`. */
static bool emit_format_call(Printer *p, StrBuf *sb, const Expr *e, const char *name)
{
    int fmt = strcmp(name, "relax.print") == 0 ? 0 : strcmp(name, "relax.assert_op") == 0 ? 1 : -1;
    if (fmt < 0 || e->u.call.nargs <= fmt || e->u.call.args[fmt]->kind != EXPR_STRING ||
        e->u.call.attrs->n > 0)
        return false;
    emit_op_name(sb, name);
    strbuf_addc(sb, '(');
    bool first = true;
    for (int i = 0; i < e->u.call.nargs; i++) {
        if (i == fmt)
            continue;
        if (!first)
            strbuf_add(sb, ", ");
        printer_emit_expr(p, sb, e->u.call.args[i]);
        first = false;
    }
    strbuf_add(sb, first ? "format=" : ", format=");
    printer_emit_expr(p, sb, e->u.call.args[fmt]);
    strbuf_addc(sb, ')');
    return true;
}

/* TVM v0.22's form: R.hint_on_device(x, R.device(device_type=1, index=0)[, "scope"]). */
static bool emit_hint_on_device(Printer *p, StrBuf *sb, const Expr *e, const char *name)
{
    const Attrs *a = e->u.call.attrs;
    const AttrValue *t = attrs_get(a, "dev_type");
    const AttrValue *i = attrs_get(a, "dev_id");
    const AttrValue *scope = attrs_get(a, "memory_scope");
    int expected = 2 + (scope != NULL);
    if (strcmp(name, "relax.hint_on_device") != 0 || e->u.call.nargs != 1 || t == NULL ||
        i == NULL || t->kind != ATTR_INT || i->kind != ATTR_INT || a->n != expected ||
        (scope != NULL && scope->kind != ATTR_STR))
        return false;
    strbuf_add(sb, "R.hint_on_device(");
    printer_emit_expr(p, sb, e->u.call.args[0]);
    strbuf_addf(sb, ", R.device(device_type=%lld, index=%lld)", (long long)t->u.i,
                (long long)i->u.i);
    if (scope != NULL) {
        strbuf_add(sb, ", ");
        literal_add_string(sb, scope->u.s);
    }
    strbuf_addc(sb, ')');
    return true;
}

static void emit_op_call(Printer *p, StrBuf *sb, const Expr *e)
{
    const char *name = e->u.call.op->u.op_name;
    if (is_dps_form(name) && (e->u.call.nargs == 2 || e->u.call.nargs == 3) &&
        e->u.call.nsinfo_args == 1) {
        bool dist = strcmp(name, "relax.call_tir") == 0 && has_dtensor(e->u.call.sinfo_args[0]);
        emit_call_dps(p, sb, e, dist ? "dist.call_tir" : name + 6);
        return;
    }
    if (emit_format_call(p, sb, e, name))
        return;
    if (emit_hint_on_device(p, sb, e, name))
        return;
    emit_op_name(sb, name);
    strbuf_addc(sb, '(');
    emit_args(p, sb, e, 0, true);
    const Attrs *attrs = e->u.call.attrs;
    bool has_format = strcmp(name, "relax.print") == 0 || strcmp(name, "relax.assert_op") == 0;
    StrBuf kw;
    strbuf_init(&kw);
    for (int i = 0; i < attrs->n; i++) {
        const AttrValue *v = attrs->values[i];
        if (has_format && strcmp(attrs->keys[i], "format") == 0 && v->kind == ATTR_STR) {
            /* TVM keeps the format as a StringImm argument and prints it so. */
            strbuf_add(&kw, ", format=R.str(");
            literal_add_string(&kw, v->u.s);
            strbuf_addc(&kw, ')');
            continue;
        }
        emit_kw_attr(p, &kw, attrs->keys[i], v);
    }
    emit_sinfo_args(p, &kw, e);
    const char *rest = strbuf_str(&kw);
    /* With no positional arguments the first keyword has no comma before it. */
    strbuf_add(sb, e->u.call.nargs == 0 && rest[0] ? rest + 2 : rest);
    strbuf_addc(sb, ')');
}

static void emit_call_expr(Printer *p, StrBuf *sb, const Expr *e)
{
    const Expr *op = e->u.call.op;
    if (op->kind == EXPR_OP) {
        emit_op_call(p, sb, e);
        return;
    }
    const Attrs *attrs = e->u.call.attrs;
    int *order = printer_sorted_keys(attrs);
    if (op->kind == EXPR_EXTERN_FUNC && op->extern_sinfo == NULL) {
        strbuf_add(sb, "R.call_packed(");
        literal_add_string(sb, op->u.extern_symbol);
        if (e->u.call.nargs > 0)
            strbuf_add(sb, ", ");
    } else {
        bool paren =
            op->kind != EXPR_VAR && op->kind != EXPR_GLOBAL_VAR && op->kind != EXPR_EXTERN_FUNC;
        if (paren)
            strbuf_addc(sb, '(');
        printer_emit_expr(p, sb, op);
        strbuf_add(sb, paren ? ")(" : "(");
    }
    emit_args(p, sb, e, 0, false);
    StrBuf kw;
    strbuf_init(&kw);
    for (int i = 0; i < attrs->n; i++)
        emit_kw_attr(p, &kw, attrs->keys[order[i]], attrs->values[order[i]]);
    emit_sinfo_args(p, &kw, e);
    const char *rest = strbuf_str(&kw);
    bool bare = e->u.call.nargs == 0 && !(op->kind == EXPR_EXTERN_FUNC && op->extern_sinfo == NULL);
    strbuf_add(sb, bare && rest[0] ? rest + 2 : rest);
    strbuf_addc(sb, ')');
}
