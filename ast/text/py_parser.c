/* py_parser: recursive-descent parser for the statements of the Python subset TVMScript is
 * written in, and the token helpers. SPEC_NOTES: "TVMScript syntax", rule PY-1. */
#include "ast/text/py_parser.h"
#include "ast/rule.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/text/py_parser_internal.h"

/* ---- tokens ---- */

void py_parser_init(PyParser *p, const char *file, PyTokens toks, ErrorTrap *trap)
{
    memset(p, 0, sizeof *p);
    p->file = file;
    p->trap = trap;
    p->toks = toks.items;
    p->ntoks = toks.n;
}

noreturn void py_parser_fail(PyParser *p, const char *code, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[300];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* As Python does, a syntax error yields to some lexical errors further on (a bad
     * character, an unclosed bracket), which usually name the real cause. */
    const PyToken *last = &p->toks[p->ntoks - 1];
    if (last->kind == PYT_ERROR &&
        (last->int_value == PYLEX_ERR_OVERRIDES ||
         (last->int_value == PYLEX_ERR_UNCLOSED && last->span.line < span.line)))
        error_raise(p->trap, PHASE_PARSE, last->error_code, "PY-1", last->span, "%s", last->text);
    error_raise(p->trap, PHASE_PARSE, code, "PY-1", span, "%s", buf);
}

const PyToken *py_parser_peek_at(PyParser *p, int k)
{
    int i = p->pos + k;
    if (i >= p->ntoks)
        i = p->ntoks - 1;
    /* Tokens up to the lexer's error are good; reaching it raises the error Python would
     * report at this point of the text. */
    for (int j = p->pos; j <= i; j++) {
        const PyToken *t = &p->toks[j];
        if (t->kind == PYT_ERROR)
            py_parser_fail(p, t->error_code, t->span, "%s", t->text);
        if (t->kind == PYT_END)
            return t;
    }
    return &p->toks[i];
}

const PyToken *py_parser_peek(PyParser *p)
{
    return py_parser_peek_at(p, 0);
}

const PyToken *py_parser_next(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind != PYT_END)
        p->pos++;
    return t;
}

bool py_parser_check(PyParser *p, PyTokKind kind)
{
    return py_parser_peek(p)->kind == kind;
}

bool py_parser_check_kw(PyParser *p, PyKeyword kw)
{
    const PyToken *t = py_parser_peek(p);
    return t->kind == PYT_NAME && t->kw == kw;
}

bool py_parser_accept(PyParser *p, PyTokKind kind)
{
    if (!py_parser_check(p, kind))
        return false;
    py_parser_next(p);
    return true;
}

bool py_parser_accept_kw(PyParser *p, PyKeyword kw)
{
    if (!py_parser_check_kw(p, kw))
        return false;
    py_parser_next(p);
    return true;
}

const PyToken *py_parser_expect(PyParser *p, PyTokKind kind)
{
    if (!py_parser_check(p, kind))
        py_parser_unexpected(p, py_lex_kind_name(kind));
    return py_parser_next(p);
}

const PyToken *py_parser_expect_kw(PyParser *p, PyKeyword kw)
{
    if (!py_parser_check_kw(p, kw)) {
        static const char *const names[] = {
            [PYKW_ELSE] = "'else'", [PYKW_IN] = "'in'", [PYKW_IMPORT] = "'import'"};
        const char *name = (size_t)kw < sizeof names / sizeof names[0] ? names[kw] : NULL;
        py_parser_unexpected(p, name != NULL ? name : "a keyword");
    }
    return py_parser_next(p);
}

Span py_parser_prev_span(PyParser *p)
{
    return p->toks[p->pos > 0 ? p->pos - 1 : 0].span;
}

static const char *describe(const PyToken *t)
{
    switch (t->kind) {
    case PYT_NAME:
        return mem_printf("'%s'", t->text);
    case PYT_INT:
    case PYT_FLOAT:
        return "number";
    default:
        return py_lex_kind_name(t->kind);
    }
}

noreturn void py_parser_unexpected(PyParser *p, const char *expected)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind == PYT_INDENT) /* Python reports this one before any lexical error */
        error_raise(p->trap, PHASE_PARSE, "BadIndent", "PY-1", t->span, "unexpected indent");
    if (t->kind == PYT_COLONEQUAL)
        py_parser_fail(p, "UnsupportedSyntax", t->span, "assignment expressions are not supported");
    if (t->kind == PYT_ELLIPSIS)
        py_parser_fail(p, "UnsupportedSyntax", t->span, "'...' is not supported");
    if (t->kind == PYT_NAME &&
        (t->kw == PYKW_LAMBDA || t->kw == PYKW_YIELD || t->kw == PYKW_AWAIT || t->kw == PYKW_ASYNC))
        py_parser_fail(p, "UnsupportedSyntax", t->span, "'%s' is not supported", t->text);
    py_parser_fail(p, "SyntaxError", t->span, "expected %s, found %s", expected, describe(t));
}

Span py_parser_join(Span from, Span to)
{
    Span s = from;
    s.end_line = to.end_line;
    s.end_col = to.end_col;
    return s;
}

PyExpr *py_parser_new_expr(PyExprKind kind, Span span)
{
    PyExpr *e = MEM_NEW(PyExpr);
    e->kind = kind;
    e->span = span;
    return e;
}

bool py_parser_starts_expr(const PyToken *t)
{
    switch (t->kind) {
    case PYT_NAME:
        return t->kw == PYKW_NONE || t->kw == PYKW_TRUE_ || t->kw == PYKW_FALSE_ ||
               t->kw == PYKW_NONE_ || t->kw == PYKW_NOT || t->kw == PYKW_LAMBDA ||
               t->kw == PYKW_AWAIT || t->kw == PYKW_YIELD;
    case PYT_INT:
    case PYT_FLOAT:
    case PYT_STRING:
    case PYT_LPAR:
    case PYT_LSQB:
    case PYT_LBRACE:
    case PYT_MINUS:
    case PYT_PLUS:
    case PYT_TILDE:
    case PYT_STAR:
    case PYT_ELLIPSIS:
        return true;
    default:
        return false;
    }
}

/* ---- statements ---- */

typedef struct BodyBuilder {
    PyStmt **stmts;
    int n;
    int cap;
} BodyBuilder;

static void statement(PyParser *p, BodyBuilder *b);
static PyBody block(PyParser *p);

static PyStmt *new_stmt(PyStmtKind kind, Span span)
{
    PyStmt *s = MEM_NEW(PyStmt);
    s->kind = kind;
    s->span = span;
    return s;
}

/* The span from `start` to the last consumed token. */
static Span span_from(PyParser *p, Span start)
{
    return py_parser_join(start, py_parser_prev_span(p));
}

static Span body_end(Span start, PyBody body)
{
    return body.n > 0 ? py_parser_join(start, body.stmts[body.n - 1]->span) : start;
}

static const char *expr_description(const PyExpr *e)
{
    switch (e->kind) {
    case PY_CALL:
        return "function call";
    case PY_INT:
    case PY_FLOAT:
    case PY_STR:
        return "literal";
    case PY_BOOL:
        return e->u.bool_value ? "True" : "False";
    case PY_NONE:
        return "None";
    case PY_DICT:
        return "dict literal";
    case PY_COMPARE:
        return "comparison";
    case PY_IFEXP:
        return "conditional expression";
    case PY_STARRED:
        return "starred";
    case PY_LAMBDA:
        return "lambda";
    case PY_SLICE:
        return "slice";
    case PY_NAME:
    case PY_ATTR:
    case PY_SUBSCRIPT:
    case PY_TUPLE:
    case PY_LIST:
    case PY_BINOP:
    case PY_UNARYOP:
    case PY_BOOLOP:
        return "expression";
    }
    return "expression";
}

/* star_targets: names, attributes, subscripts, and tuples or lists of them with at most one
 * starred item; `single` allows only the first three (annotations, augmented assignment). */
static void check_target(PyParser *p, const PyExpr *e, bool single)
{
    if (e->kind == PY_NAME || e->kind == PY_ATTR || e->kind == PY_SUBSCRIPT)
        return;
    if ((e->kind == PY_TUPLE || e->kind == PY_LIST) && !single) {
        int nstar = 0;
        for (int i = 0; i < e->u.seq.n; i++) {
            const PyExpr *item = e->u.seq.items[i];
            if (item->kind == PY_STARRED) {
                if (++nstar > 1)
                    py_parser_fail(p, "SyntaxError", item->span,
                                   "multiple starred expressions in assignment");
                item = item->u.starred;
            }
            check_target(p, item, false);
        }
        return;
    }
    if (e->kind == PY_STARRED && !single)
        py_parser_fail(p, "SyntaxError", e->span,
                       "starred assignment target must be in a list or tuple");
    if (single && (e->kind == PY_TUPLE || e->kind == PY_LIST))
        py_parser_fail(p, "SyntaxError", e->span, "only a single target can be assigned here");
    py_parser_fail(p, "SyntaxError", e->span, "cannot assign to %s", expr_description(e));
}

static bool aug_op(PyTokKind kind, PyOp *op)
{
    static const struct {
        PyTokKind tok;
        PyOp op;
    } table[] = {
        {PYT_PLUSEQUAL, PYOP_ADD},
        {PYT_MINEQUAL, PYOP_SUB},
        {PYT_STAREQUAL, PYOP_MUL},
        {PYT_SLASHEQUAL, PYOP_DIV},
        {PYT_DOUBLESLASHEQUAL, PYOP_FLOORDIV},
        {PYT_PERCENTEQUAL, PYOP_MOD},
        {PYT_DOUBLESTAREQUAL, PYOP_POW},
        {PYT_ATEQUAL, PYOP_MATMUL},
        {PYT_LSHIFTEQUAL, PYOP_LSHIFT},
        {PYT_RSHIFTEQUAL, PYOP_RSHIFT},
        {PYT_AMPEREQUAL, PYOP_BITAND},
        {PYT_VBAREQUAL, PYOP_BITOR},
        {PYT_CIRCUMFLEXEQUAL, PYOP_BITXOR},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].tok == kind) {
            *op = table[i].op;
            return true;
        }
    }
    return false;
}

/* annotated -> single_target ':' expression ['=' star_expressions] */
static PyStmt *annotated_assign(PyParser *p, PyExpr *target)
{
    if (target->kind == PY_TUPLE && !target->parenthesized)
        py_parser_fail(p, "SyntaxError", target->span,
                       "only single target (not tuple) can be annotated");
    if (target->kind != PY_NAME && target->kind != PY_ATTR && target->kind != PY_SUBSCRIPT)
        py_parser_fail(p, "SyntaxError", target->span, "illegal target for annotation");
    py_parser_next(p);
    PyStmt *s = new_stmt(PYS_ANNASSIGN, target->span);
    s->u.annassign.target = target;
    s->u.annassign.annotation = py_parser_expression(p);
    if (py_parser_accept(p, PYT_EQUAL))
        s->u.annassign.value = py_parser_star_expressions(p);
    s->span = span_from(p, target->span);
    return s;
}

/* assign -> (star_targets '=')+ star_expressions */
static PyStmt *plain_assign(PyParser *p, PyExpr *first)
{
    PyExpr **targets = NULL;
    int n = 0;
    int cap = 0;
    PyExpr *value = first;
    while (py_parser_accept(p, PYT_EQUAL)) {
        check_target(p, value, false);
        VEC_PUSH(targets, n, cap, value);
        value = py_parser_star_expressions(p);
    }
    PyStmt *s = new_stmt(PYS_ASSIGN, span_from(p, first->span));
    s->u.assign.targets = targets;
    s->u.assign.ntargets = n;
    s->u.assign.value = value;
    return s;
}

/* assignment -> annotated | assign | single_target augassign star_expressions
 * expr_stmt -> star_expressions */
static PyStmt *assignment_or_expr(PyParser *p)
{
    PyExpr *first = py_parser_star_expressions(p);
    PyOp op;
    if (py_parser_check(p, PYT_COLON))
        return annotated_assign(p, first);
    if (py_parser_check(p, PYT_EQUAL))
        return plain_assign(p, first);
    if (aug_op(py_parser_peek(p)->kind, &op)) {
        check_target(p, first, true);
        py_parser_next(p);
        PyStmt *s = new_stmt(PYS_AUGASSIGN, first->span);
        s->u.augassign.target = first;
        s->u.augassign.op = op;
        s->u.augassign.value = py_parser_star_expressions(p);
        s->span = span_from(p, first->span);
        return s;
    }
    PyStmt *s = new_stmt(PYS_EXPR, first->span);
    s->u.expr = first;
    return s;
}

/* dotted_name -> NAME ('.' NAME)* */
static const char *dotted_name(PyParser *p)
{
    StrBuf sb;
    strbuf_init(&sb);
    do {
        const PyToken *t = py_parser_peek(p);
        if (t->kind != PYT_NAME || t->kw != PYKW_NONE)
            py_parser_unexpected(p, "a module name");
        py_parser_next(p);
        if (sb.len > 0)
            strbuf_addc(&sb, '.');
        strbuf_add(&sb, t->text);
    } while (py_parser_accept(p, PYT_DOT));
    return strbuf_str(&sb);
}

static const char *plain_name(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind != PYT_NAME || t->kw != PYKW_NONE)
        py_parser_unexpected(p, "a name");
    return py_parser_next(p)->text;
}

/* import_name -> 'import' dotted_name ['as' NAME] (',' ...)*
 * import_from -> 'from' dotted_name 'import' ('(' as_names [','] ')' | as_names) */
static PyStmt *import_stmt(PyParser *p)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s = new_stmt(PYS_IMPORT, kw->span);
    bool from = kw->kw == PYKW_FROM;
    if (from && (py_parser_check(p, PYT_DOT) || py_parser_check(p, PYT_ELLIPSIS)))
        py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                       "relative imports are not supported");
    if (from) {
        s->u.import.module = dotted_name(p);
        py_parser_expect_kw(p, PYKW_IMPORT);
        if (py_parser_check(p, PYT_STAR))
            py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                           "'import *' is not supported");
    }
    bool paren = from && py_parser_accept(p, PYT_LPAR);
    int ncap = 0;
    int acap = 0;
    do {
        if (paren && s->u.import.n > 0 && py_parser_check(p, PYT_RPAR))
            break;
        int n = s->u.import.n;
        VEC_PUSH(s->u.import.names, n, ncap, from ? plain_name(p) : dotted_name(p));
        const char *as = py_parser_accept_kw(p, PYKW_AS) ? plain_name(p) : NULL;
        VEC_PUSH(s->u.import.asnames, s->u.import.n, acap, as);
    } while (py_parser_accept(p, PYT_COMMA));
    if (paren)
        py_parser_expect(p, PYT_RPAR);
    s->span = span_from(p, kw->span);
    return s;
}

/* return_stmt -> 'return' [star_expressions]; assert_stmt -> 'assert' expression [',' expression]
 */
static PyStmt *return_or_assert(PyParser *p)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s;
    if (kw->kw == PYKW_RETURN) {
        s = new_stmt(PYS_RETURN, kw->span);
        if (py_parser_starts_expr(py_parser_peek(p)))
            s->u.ret = py_parser_star_expressions(p);
    } else {
        s = new_stmt(PYS_ASSERT, kw->span);
        s->u.assert_.cond = py_parser_expression(p);
        if (py_parser_accept(p, PYT_COMMA))
            s->u.assert_.msg = py_parser_expression(p);
    }
    s->span = span_from(p, kw->span);
    return s;
}

/* simple_stmt -> assignment | star_expressions | return_stmt | import_stmt | assert_stmt
 *              | 'pass' | 'break' | 'continue' */
static PyStmt *simple_stmt(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind != PYT_NAME)
        return assignment_or_expr(p);
    switch (t->kw) {
    case PYKW_PASS:
        return new_stmt(PYS_PASS, py_parser_next(p)->span);
    case PYKW_BREAK:
        return new_stmt(PYS_BREAK, py_parser_next(p)->span);
    case PYKW_CONTINUE:
        return new_stmt(PYS_CONTINUE, py_parser_next(p)->span);
    case PYKW_RETURN:
    case PYKW_ASSERT:
        return return_or_assert(p);
    case PYKW_IMPORT:
    case PYKW_FROM:
        return import_stmt(p);
    case PYKW_GLOBAL:
    case PYKW_NONLOCAL:
    case PYKW_DEL:
    case PYKW_RAISE:
    case PYKW_YIELD:
        py_parser_fail(p, "UnsupportedSyntax", t->span, "'%s' statements are not supported",
                       t->text);
    default:
        return assignment_or_expr(p);
    }
}

/* simple_stmts -> simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(PyParser *p, BodyBuilder *b)
{
    do {
        if (py_parser_check(p, PYT_NEWLINE) && b->n > 0)
            break;
        VEC_PUSH(b->stmts, b->n, b->cap, simple_stmt(p));
    } while (py_parser_accept(p, PYT_SEMI));
    py_parser_expect(p, PYT_NEWLINE);
}

/* block -> NEWLINE INDENT statement+ DEDENT | simple_stmts */
static PyBody block(PyParser *p)
{
    BodyBuilder b = {NULL, 0, 0};
    py_parser_expect(p, PYT_COLON);
    if (!py_parser_accept(p, PYT_NEWLINE)) {
        simple_stmts(p, &b);
        return (PyBody){b.stmts, b.n};
    }
    const PyToken *t = py_parser_peek(p);
    if (t->kind != PYT_INDENT)
        py_parser_fail(p, "BadIndent", t->span, "expected an indented block");
    if (++p->block_depth > PY_MAX_BLOCK_DEPTH)
        py_parser_fail(p, "TooDeep", t->span, "blocks nested deeper than %d levels",
                       PY_MAX_BLOCK_DEPTH);
    py_parser_next(p);
    while (!py_parser_check(p, PYT_DEDENT) && !py_parser_check(p, PYT_END))
        statement(p, &b);
    py_parser_expect(p, PYT_DEDENT);
    p->block_depth--;
    return (PyBody){b.stmts, b.n};
}

/* if_stmt -> 'if' expression ':' block ('elif' expression ':' block)* ['else' ':' block] */
static PyStmt *if_stmt(PyParser *p)
{
    PyStmt *first = NULL;
    PyStmt *cur = NULL;
    do {
        PyStmt *s = new_stmt(PYS_IF, py_parser_next(p)->span);
        s->u.if_.cond = py_parser_expression(p);
        s->u.if_.body = block(p);
        s->span = body_end(s->span, s->u.if_.body);
        if (cur != NULL) {
            cur->u.if_.orelse.stmts = MEM_ARRAY(PyStmt *, 1);
            cur->u.if_.orelse.stmts[0] = s;
            cur->u.if_.orelse.n = 1;
            cur->u.if_.has_else = true;
        }
        first = first != NULL ? first : s;
        cur = s;
    } while (py_parser_check_kw(p, PYKW_ELIF));
    if (py_parser_accept_kw(p, PYKW_ELSE)) {
        cur->u.if_.orelse = block(p);
        cur->u.if_.has_else = true;
        cur->span = body_end(cur->span, cur->u.if_.orelse);
    }
    /* Every link of an elif chain ends where the chain ends. */
    for (PyStmt *s = first; s != cur; s = s->u.if_.orelse.stmts[0])
        s->span = py_parser_join(s->span, cur->span);
    return first;
}

static void reject_loop_else(PyParser *p)
{
    if (py_parser_check_kw(p, PYKW_ELSE))
        py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                       "'else' on a loop is not supported");
}

/* for_stmt -> 'for' star_targets 'in' star_expressions ':' block
 * while_stmt -> 'while' expression ':' block */
static PyStmt *loop_stmt(PyParser *p)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s;
    if (kw->kw == PYKW_WHILE) {
        s = new_stmt(PYS_WHILE, kw->span);
        s->u.while_.cond = py_parser_expression(p);
        s->u.while_.body = block(p);
        s->span = body_end(kw->span, s->u.while_.body);
    } else {
        s = new_stmt(PYS_FOR, kw->span);
        s->u.for_.target = py_parser_star_targets(p);
        check_target(p, s->u.for_.target, false);
        py_parser_expect_kw(p, PYKW_IN);
        s->u.for_.iter = py_parser_star_expressions(p);
        s->u.for_.body = block(p);
        s->span = body_end(kw->span, s->u.for_.body);
    }
    reject_loop_else(p);
    return s;
}

/* with_stmt -> 'with' with_item (',' with_item)* ':' block
 * with_item -> expression ['as' star_target] */
static PyStmt *with_stmt(PyParser *p)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s = new_stmt(PYS_WITH, kw->span);
    int icap = 0;
    int tcap = 0;
    do {
        int n = s->u.with.n;
        VEC_PUSH(s->u.with.items, n, icap, py_parser_expression(p));
        PyExpr *target = NULL;
        if (py_parser_accept_kw(p, PYKW_AS)) {
            target = py_parser_star_target(p);
            check_target(p, target, false);
        }
        VEC_PUSH(s->u.with.as_targets, s->u.with.n, tcap, target);
    } while (py_parser_accept(p, PYT_COMMA));
    s->u.with.body = block(p);
    s->span = body_end(kw->span, s->u.with.body);
    return s;
}

typedef struct ParamState {
    int cap;
    bool seen_default;
    bool seen_star;
    bool seen_kwargs;
} ParamState;

/* star_param -> '*' [NAME [':' expression]] | '**' NAME [':' expression] */
static void star_param(PyParser *p, PyStmt *s, ParamState *st)
{
    const PyToken *star = py_parser_next(p);
    bool dbl = star->kind == PYT_DOUBLESTAR;
    if (!dbl && st->seen_star)
        py_parser_fail(p, "SyntaxError", star->span, "* argument may appear only once");
    s->u.def.has_varargs = true;
    if (!dbl && py_parser_check(p, PYT_RPAR))
        py_parser_fail(p, "SyntaxError", star->span, "named arguments must follow bare *");
    if (dbl || !py_parser_check(p, PYT_COMMA)) {
        plain_name(p);
        if (py_parser_accept(p, PYT_COLON))
            py_parser_expression(p);
    }
    st->seen_star = st->seen_star || !dbl;
    st->seen_kwargs = dbl;
}

/* param -> NAME [':' expression] ['=' expression] */
static void named_param(PyParser *p, PyStmt *s, ParamState *st)
{
    PyParam prm;
    memset(&prm, 0, sizeof prm);
    const PyToken *name = py_parser_peek(p);
    prm.name = plain_name(p);
    if (py_parser_accept(p, PYT_COLON))
        prm.annotation = py_parser_expression(p);
    prm.span = span_from(p, name->span);
    if (py_parser_accept(p, PYT_EQUAL)) {
        prm.default_value = py_parser_expression(p);
        st->seen_default = true;
    } else if (st->seen_default && !st->seen_star) {
        py_parser_fail(p, "SyntaxError", name->span,
                       "non-default argument follows default argument");
    }
    for (int i = 0; i < s->u.def.nparams; i++) {
        if (strcmp(s->u.def.params[i].name, prm.name) == 0)
            py_parser_fail(p, "SyntaxError", name->span,
                           "duplicate argument '%s' in function definition", prm.name);
    }
    VEC_PUSH(s->u.def.params, s->u.def.nparams, st->cap, prm);
}

/* params -> (param | star_param) (',' (param | star_param))* [','] */
static void def_params(PyParser *p, PyStmt *s)
{
    ParamState st = {0, false, false, false};
    while (!py_parser_check(p, PYT_RPAR)) {
        const PyToken *t = py_parser_peek(p);
        if (st.seen_kwargs)
            py_parser_fail(p, "SyntaxError", t->span,
                           "arguments cannot follow var-keyword argument");
        if (t->kind == PYT_SLASH)
            py_parser_fail(p, "UnsupportedSyntax", t->span,
                           "positional-only parameters are not supported");
        if (t->kind == PYT_STAR || t->kind == PYT_DOUBLESTAR)
            star_param(p, s, &st);
        else
            named_param(p, s, &st);
        if (!py_parser_accept(p, PYT_COMMA))
            break;
    }
    py_parser_expect(p, PYT_RPAR);
}

/* function_def -> 'def' NAME '(' [params] ')' ['->' expression] ':' block */
static PyStmt *def_stmt(PyParser *p, PyExpr **decorators, int ndecorators)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s = new_stmt(PYS_DEF, kw->span);
    s->u.def.decorators = decorators;
    s->u.def.ndecorators = ndecorators;
    s->u.def.name = plain_name(p);
    py_parser_expect(p, PYT_LPAR);
    def_params(p, s);
    if (py_parser_accept(p, PYT_RARROW))
        s->u.def.returns = py_parser_expression(p);
    s->u.def.body = block(p);
    s->span = body_end(kw->span, s->u.def.body);
    return s;
}

/* class_def -> 'class' NAME ['(' [arguments] ')'] ':' block */
static PyStmt *class_stmt(PyParser *p, PyExpr **decorators, int ndecorators)
{
    const PyToken *kw = py_parser_next(p);
    PyStmt *s = new_stmt(PYS_CLASS, kw->span);
    s->u.class_.decorators = decorators;
    s->u.class_.ndecorators = ndecorators;
    s->u.class_.name = plain_name(p);
    if (py_parser_accept(p, PYT_LPAR)) {
        PyExpr *call = py_parser_new_expr(PY_CALL, kw->span);
        py_parser_call_args(p, call);
        if (call->u.call.nkw > 0)
            py_parser_fail(p, "UnsupportedSyntax", call->u.call.kw_spans[0],
                           "class keywords are not supported");
        for (int i = 0; i < call->u.call.nargs; i++) {
            if (call->u.call.args[i]->kind == PY_STARRED)
                py_parser_fail(p, "UnsupportedSyntax", call->u.call.args[i]->span,
                               "starred base classes are not supported");
        }
        s->u.class_.bases = call->u.call.args;
        s->u.class_.nbases = call->u.call.nargs;
    }
    s->u.class_.body = block(p);
    s->span = body_end(kw->span, s->u.class_.body);
    return s;
}

/* decorated -> ('@' expression NEWLINE)+ (function_def | class_def) */
static PyStmt *decorated(PyParser *p)
{
    PyExpr **decorators = NULL;
    int n = 0;
    int cap = 0;
    while (py_parser_accept(p, PYT_AT)) {
        VEC_PUSH(decorators, n, cap, py_parser_expression(p));
        py_parser_expect(p, PYT_NEWLINE);
    }
    if (py_parser_check_kw(p, PYKW_DEF))
        return def_stmt(p, decorators, n);
    if (py_parser_check_kw(p, PYKW_CLASS))
        return class_stmt(p, decorators, n);
    py_parser_unexpected(p, "'def' or 'class' after decorators");
}

/* compound_stmt -> function_def | class_def | decorated | if_stmt | for_stmt | while_stmt
 *                | with_stmt */
static PyStmt *compound_stmt(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind == PYT_AT)
        return decorated(p);
    switch (t->kw) {
    case PYKW_DEF:
        return def_stmt(p, NULL, 0);
    case PYKW_CLASS:
        return class_stmt(p, NULL, 0);
    case PYKW_IF:
        return if_stmt(p);
    case PYKW_FOR:
    case PYKW_WHILE:
        return loop_stmt(p);
    case PYKW_WITH:
        return with_stmt(p);
    case PYKW_TRY:
    case PYKW_ASYNC:
        py_parser_fail(p, "UnsupportedSyntax", t->span, "'%s' statements are not supported",
                       t->text);
    default:
        return NULL;
    }
}

/* statement -> compound_stmt | simple_stmts */
static void statement(PyParser *p, BodyBuilder *b)
{
    const PyToken *t = py_parser_peek(p);
    if (t->kind == PYT_AT || t->kind == PYT_NAME) {
        PyStmt *s = compound_stmt(p);
        if (s != NULL) {
            VEC_PUSH(b->stmts, b->n, b->cap, s);
            return;
        }
    }
    simple_stmts(p, b);
}

PyBody py_parse_file(const char *file, const char *text, ErrorTrap *trap)
{
    rule_fired("PY-1");
    PyParser p;
    py_parser_init(&p, file, py_lex_tokens(file, text, span_make(file, 1, 1), false), trap);
    BodyBuilder b = {NULL, 0, 0};
    while (!py_parser_check(&p, PYT_END))
        statement(&p, &b);
    return (PyBody){b.stmts, b.n};
}

PyExpr *py_parse_expr(const char *file, const char *text, Span origin, ErrorTrap *trap)
{
    rule_fired("PY-1");
    PyParser p;
    py_parser_init(&p, file, py_lex_tokens(file, text, origin, true), trap);
    PyExpr *e = py_parser_expression(&p);
    if (!py_parser_check(&p, PYT_END)) {
        const PyToken *t = py_parser_peek(&p);
        py_parser_fail(&p, "SyntaxError", t->span, "unexpected %s after the expression",
                       describe(t));
    }
    return e;
}
