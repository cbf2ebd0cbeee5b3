/* legacy_detect: which forms are legacy-only, and finding the first one in a program, so
 * that `--syntax auto` picks the reader. SPEC_NOTES: "Legacy syntax", LEG-1. */
#include <string.h>

#include "ast/legacy/legacy.h"
#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/rule.h"

/* R and relax, T and tir, are the prefixes the seed programs import. */
static const char *canonical_prefix(const char *name)
{
    if (strcmp(name, "R") == 0 || strcmp(name, "relax") == 0)
        return "R";
    if (strcmp(name, "T") == 0 || strcmp(name, "tir") == 0)
        return "T";
    return name;
}

const char *legacy_dotted(const PyExpr *e)
{
    if (e->kind == PY_NAME)
        return canonical_prefix(e->u.name);
    if (e->kind != PY_ATTR)
        return NULL;
    const char *head = legacy_dotted(e->u.attr.value);
    return head ? mem_printf("%s.%s", head, e->u.attr.attr) : NULL;
}

bool legacy_is(const PyExpr *e, const char *dotted)
{
    const char *d = e != NULL ? legacy_dotted(e) : NULL;
    return d != NULL && strcmp(d, dotted) == 0;
}

static bool is_underscore(const PyExpr *e)
{
    return e->kind == PY_NAME && strcmp(e->u.name, "_") == 0;
}

/* Today's out_sinfo is an R.Tensor(...)/R.Tuple(...) call or a list of them; the legacy
 * positional shape is a tuple of dims or a shape variable. */
static bool is_legacy_dps_call(const PyExpr *e)
{
    if (lpy_kw(e, "dtype") || lpy_kw(e, "output_shape") || lpy_kw(e, "output_dtype") ||
        lpy_kw(e, "type_args"))
        return true;
    if (e->u.call.nargs < 3)
        return false;
    const PyExpr *shape = e->u.call.args[2];
    return shape->kind == PY_TUPLE || shape->kind == PY_NAME;
}

static bool tensor_call_has_underscore(const PyExpr *e)
{
    for (int i = 0; i < e->u.call.nargs; i++)
        if (is_underscore(e->u.call.args[i]))
            return true;
    return false;
}

static const char *const LEGACY_CALLS[] = {"R.match_shape",           "R.outputs", "R.dot", "T.var",
                                           "R.read_tensor_from_file", NULL};

const char *legacy_form_of_expr(const PyExpr *e)
{
    if (e->kind == PY_SUBSCRIPT) {
        const char *d = legacy_dotted(e->u.subscript.value);
        if (d && (strcmp(d, "R.Tensor") == 0 || strcmp(d, "R.Tuple") == 0 ||
                  strcmp(d, "Tensor") == 0 || strcmp(d, "Tuple") == 0))
            return mem_printf("%s[...]", d);
        return NULL;
    }
    if (e->kind != PY_CALL)
        return NULL;
    const char *d = legacy_dotted(e->u.call.func);
    if (d == NULL)
        return NULL;
    for (int i = 0; LEGACY_CALLS[i] != NULL; i++)
        if (strcmp(d, LEGACY_CALLS[i]) == 0)
            return d;
    if ((strcmp(d, "R.call_tir") == 0 || strcmp(d, "R.call_dps_packed") == 0) &&
        is_legacy_dps_call(e))
        return mem_printf("%s(func, args, shape, dtype=...)", d);
    if (strcmp(d, "R.call_packed") == 0 && lpy_kw(e, "type_args"))
        return "R.call_packed(..., type_args=...)";
    if ((strcmp(d, "R.Tensor") == 0 || strcmp(d, "Tensor") == 0) && tensor_call_has_underscore(e))
        return mem_printf("%s(_, ...)", d);
    if (strcmp(d, "Tensor") == 0 || strcmp(d, "Tuple") == 0)
        return d;
    return NULL;
}

/* ---- the walk -------------------------------------------------------------------------- */

typedef struct Finder {
    LegacyForm *first;
    bool found;
} Finder;

static void found(Finder *f, const char *name, Span span)
{
    if (f->found)
        return;
    f->found = true;
    f->first->name = name;
    f->first->span = span;
}

static void walk_expr(Finder *f, const PyExpr *e);

static void walk_list(Finder *f, PyExpr *const *items, int n)
{
    for (int i = 0; i < n && !f->found; i++)
        if (items[i] != NULL)
            walk_expr(f, items[i]);
}

static void walk_expr(Finder *f, const PyExpr *e)
{
    const char *form = legacy_form_of_expr(e);
    if (form != NULL) {
        found(f, form, e->span);
        return;
    }
    switch (e->kind) {
    case PY_ATTR:
        walk_expr(f, e->u.attr.value);
        break;
    case PY_CALL:
        walk_expr(f, e->u.call.func);
        walk_list(f, e->u.call.args, e->u.call.nargs);
        walk_list(f, e->u.call.kw_values, e->u.call.nkw);
        break;
    case PY_SUBSCRIPT:
        walk_expr(f, e->u.subscript.value);
        walk_expr(f, e->u.subscript.index);
        break;
    case PY_TUPLE:
    case PY_LIST:
        walk_list(f, e->u.seq.items, e->u.seq.n);
        break;
    case PY_BINOP:
        walk_expr(f, e->u.binop.left);
        walk_expr(f, e->u.binop.right);
        break;
    case PY_UNARYOP:
        walk_expr(f, e->u.unary.operand);
        break;
    case PY_IFEXP:
        walk_expr(f, e->u.ifexp.cond);
        walk_expr(f, e->u.ifexp.then_value);
        walk_expr(f, e->u.ifexp.else_value);
        break;
    case PY_DICT:
    case PY_NAME:
    case PY_SLICE:
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
    case PY_BOOL:
    case PY_NONE:
    case PY_BOOLOP:
    case PY_COMPARE:
    case PY_STARRED:
    case PY_LAMBDA:
        break;
    }
}

/* A bare `Tensor` or `Tuple` annotation, as the seed spec's pseudocode writes them. */
static void walk_annotation(Finder *f, const PyExpr *ann)
{
    if (ann == NULL)
        return;
    if (ann->kind == PY_NAME &&
        (strcmp(ann->u.name, "Tensor") == 0 || strcmp(ann->u.name, "Tuple") == 0)) {
        found(f, ann->u.name, ann->span);
        return;
    }
    walk_expr(f, ann);
}

static void walk_body(Finder *f, const PyBody *b);

/* The legacy @R.func decorator is not a sign by itself: today's reader calls it a bad
 * decorator, a likely typo of @R.function. The legacy reader accepts it (LEG-11). */
static void walk_def(Finder *f, const PyStmt *s)
{
    for (int i = 0; i < s->u.def.nparams; i++)
        walk_annotation(f, s->u.def.params[i].annotation);
    walk_annotation(f, s->u.def.returns);
    walk_body(f, &s->u.def.body);
}

static void walk_stmt(Finder *f, const PyStmt *s)
{
    switch (s->kind) {
    case PYS_EXPR:
        walk_expr(f, s->u.expr);
        break;
    case PYS_ASSIGN:
        walk_expr(f, s->u.assign.value);
        break;
    case PYS_ANNASSIGN:
        walk_annotation(f, s->u.annassign.annotation);
        if (s->u.annassign.value)
            walk_expr(f, s->u.annassign.value);
        break;
    case PYS_AUGASSIGN:
        walk_expr(f, s->u.augassign.value);
        break;
    case PYS_RETURN:
        if (s->u.ret)
            walk_expr(f, s->u.ret);
        break;
    case PYS_IF:
        walk_expr(f, s->u.if_.cond);
        walk_body(f, &s->u.if_.body);
        walk_body(f, &s->u.if_.orelse);
        break;
    case PYS_FOR:
        walk_expr(f, s->u.for_.iter);
        walk_body(f, &s->u.for_.body);
        break;
    case PYS_WHILE:
        walk_body(f, &s->u.while_.body);
        break;
    case PYS_WITH:
        walk_list(f, s->u.with.items, s->u.with.n);
        walk_body(f, &s->u.with.body);
        break;
    case PYS_DEF:
        walk_def(f, s);
        break;
    case PYS_CLASS:
        walk_body(f, &s->u.class_.body);
        break;
    case PYS_PASS:
    case PYS_IMPORT:
    case PYS_ASSERT:
    case PYS_BREAK:
    case PYS_CONTINUE:
        break;
    }
}

static void walk_body(Finder *f, const PyBody *b)
{
    for (int i = 0; i < b->n && !f->found; i++)
        walk_stmt(f, b->stmts[i]);
}

/* LEG-1: a program is read as legacy when it holds a form today's syntax does not have. */
bool legacy_detect(const PyBody *top, LegacyForm *first)
{
    rule_fired("LEG-1");
    LegacyForm ignored;
    Finder f = {first != NULL ? first : &ignored, false};
    walk_body(&f, top);
    return f.found;
}
