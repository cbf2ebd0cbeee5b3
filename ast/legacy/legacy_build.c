/* legacy_build: constructors of Python-tree nodes for the rewrites of the legacy reader, and
 * the unparsing of a dim into a signature string. SPEC_NOTES: "Legacy syntax". */
#include <string.h>

#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"

static PyExpr *node(PyExprKind kind, Span span)
{
    PyExpr *e = MEM_NEW(PyExpr);
    e->kind = kind;
    e->span = span;
    return e;
}

PyExpr *lpy_name(const char *name, Span span)
{
    PyExpr *e = node(PY_NAME, span);
    e->u.name = name;
    return e;
}

PyExpr *lpy_dotted(const char *prefix, const char *attr, Span span)
{
    PyExpr *e = node(PY_ATTR, span);
    e->u.attr.value = lpy_name(prefix, span);
    e->u.attr.attr = attr;
    return e;
}

PyExpr *lpy_str(const char *s, Span span)
{
    PyExpr *e = node(PY_STR, span);
    e->u.str = s;
    return e;
}

PyExpr *lpy_int(long long v, Span span)
{
    PyExpr *e = node(PY_INT, span);
    e->u.int_value = v;
    return e;
}

PyExpr *lpy_bool(bool v, Span span)
{
    PyExpr *e = node(PY_BOOL, span);
    e->u.bool_value = v;
    return e;
}

PyExpr *lpy_seq(PyExprKind kind, PyExpr **items, int n, Span span)
{
    PyExpr *e = node(kind, span);
    e->u.seq.items = MEM_ARRAY(PyExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        e->u.seq.items[i] = items[i];
    e->u.seq.n = n;
    return e;
}

PyExpr *lpy_call(PyExpr *func, PyExpr **args, int nargs, Span span)
{
    PyExpr *e = node(PY_CALL, span);
    e->u.call.func = func;
    e->u.call.args = MEM_ARRAY(PyExpr *, nargs > 0 ? nargs : 1);
    for (int i = 0; i < nargs; i++)
        e->u.call.args[i] = args[i];
    e->u.call.nargs = nargs;
    return e;
}

void lpy_add_arg(PyExpr *call, PyExpr *arg)
{
    int n = call->u.call.nargs;
    PyExpr **args = MEM_ARRAY(PyExpr *, n + 1);
    for (int i = 0; i < n; i++)
        args[i] = call->u.call.args[i];
    args[n] = arg;
    call->u.call.args = args;
    call->u.call.nargs = n + 1;
}

void lpy_add_kw(PyExpr *call, const char *name, PyExpr *value)
{
    int n = call->u.call.nkw;
    const char **names = MEM_ARRAY(const char *, n + 1);
    PyExpr **values = MEM_ARRAY(PyExpr *, n + 1);
    Span *spans = MEM_ARRAY(Span, n + 1);
    for (int i = 0; i < n; i++) {
        names[i] = call->u.call.kw_names[i];
        values[i] = call->u.call.kw_values[i];
        spans[i] = call->u.call.kw_spans[i];
    }
    names[n] = name;
    values[n] = value;
    spans[n] = value->span;
    call->u.call.kw_names = names;
    call->u.call.kw_values = values;
    call->u.call.kw_spans = spans;
    call->u.call.nkw = n + 1;
}

PyExpr *lpy_kw(const PyExpr *call, const char *name)
{
    for (int i = 0; i < call->u.call.nkw; i++)
        if (strcmp(call->u.call.kw_names[i], name) == 0)
            return call->u.call.kw_values[i];
    return NULL;
}

void lpy_drop_kw(PyExpr *call, const char *name)
{
    int k = 0;
    for (int i = 0; i < call->u.call.nkw; i++) {
        if (strcmp(call->u.call.kw_names[i], name) == 0)
            continue;
        call->u.call.kw_names[k] = call->u.call.kw_names[i];
        call->u.call.kw_values[k] = call->u.call.kw_values[i];
        call->u.call.kw_spans[k] = call->u.call.kw_spans[i];
        k++;
    }
    call->u.call.nkw = k;
}

PyStmt *lpy_assign(PyExpr *target, PyExpr *value, Span span)
{
    PyStmt *s = MEM_NEW(PyStmt);
    s->kind = PYS_ASSIGN;
    s->span = span;
    s->u.assign.targets = MEM_ARRAY(PyExpr *, 1);
    s->u.assign.targets[0] = target;
    s->u.assign.ntargets = 1;
    s->u.assign.value = value;
    return s;
}

/* ---- dims as signature strings ---------------------------------------------------------- */

static const struct {
    PyOp op;
    const char *text;
} DIM_OPS[] = {{PYOP_ADD, " + "},
               {PYOP_SUB, " - "},
               {PYOP_MUL, " * "},
               {PYOP_FLOORDIV, " // "},
               {PYOP_MOD, " % "}};

static const char *binop_text(PyOp op)
{
    for (size_t i = 0; i < sizeof DIM_OPS / sizeof DIM_OPS[0]; i++)
        if (DIM_OPS[i].op == op)
            return DIM_OPS[i].text;
    return NULL;
}

/* dim -> NAME | INT | '-' dim | dim op dim, op in + - * // % */
static bool unparse(StrBuf *sb, const PyExpr *e)
{
    if (e->kind == PY_NAME) {
        strbuf_add(sb, e->u.name);
        return true;
    }
    if (e->kind == PY_INT) {
        strbuf_addf(sb, "%lld", (long long)e->u.int_value);
        return true;
    }
    if (e->kind == PY_UNARYOP && e->u.unary.op == PYOP_NEG) {
        strbuf_add(sb, "-");
        return unparse(sb, e->u.unary.operand);
    }
    if (e->kind != PY_BINOP || binop_text(e->u.binop.op) == NULL)
        return false;
    if (e->parenthesized)
        strbuf_addc(sb, '(');
    bool ok = unparse(sb, e->u.binop.left);
    strbuf_add(sb, binop_text(e->u.binop.op));
    ok = ok && unparse(sb, e->u.binop.right);
    if (e->parenthesized)
        strbuf_addc(sb, ')');
    return ok;
}

const char *lpy_unparse_dim(const PyExpr *e)
{
    StrBuf sb;
    strbuf_init(&sb);
    return unparse(&sb, e) ? strbuf_str(&sb) : NULL;
}
