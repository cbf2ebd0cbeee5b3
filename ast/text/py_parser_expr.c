/* py_parser_expr: Python expressions with Python's precedence, from ternaries down to atoms.
 * SPEC_NOTES: "TVMScript syntax", rule PY-1 (codes SyntaxError, UnsupportedSyntax, TooDeep). */
#include <string.h>

#include "ast/mem.h"
#include "ast/text/py_parser_internal.h"

static PyExpr *disjunction(PyParser *p);
static PyExpr *bitwise_or(PyParser *p);
static PyExpr *factor(PyParser *p);

static void enter(PyParser *p)
{
    if (++p->depth > PY_MAX_EXPR_DEPTH)
        py_parser_fail(p, "TooDeep", py_parser_peek(p)->span,
                       "expression nested deeper than %d levels", PY_MAX_EXPR_DEPTH);
}

static void leave(PyParser *p)
{
    p->depth--;
}

/* One more link of a chain; the tree gets one level deeper. */
static void chain_link(PyParser *p)
{
    if (++p->chain > PY_MAX_CHAIN)
        py_parser_fail(p, "TooDeep", py_parser_peek(p)->span,
                       "an expression chained longer than %d operations", PY_MAX_CHAIN);
}

static PyExpr *new_binop(PyOp op, PyExpr *left, PyExpr *right)
{
    PyExpr *e = py_parser_new_expr(PY_BINOP, py_parser_join(left->span, right->span));
    e->u.binop.op = op;
    e->u.binop.left = left;
    e->u.binop.right = right;
    return e;
}

static PyExpr *new_unary(PyOp op, Span op_span, PyExpr *operand)
{
    PyExpr *e = py_parser_new_expr(PY_UNARYOP, py_parser_join(op_span, operand->span));
    e->u.unary.op = op;
    e->u.unary.operand = operand;
    return e;
}

/* Comprehensions and generator expressions are outside TVMScript. */
static void reject_comprehension(PyParser *p)
{
    if (py_parser_check_kw(p, PYKW_FOR) || py_parser_check_kw(p, PYKW_ASYNC))
        py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                       "comprehensions are not supported");
}

/* star_expression -> '*' bitwise_or | expression */
static PyExpr *star_expression(PyParser *p)
{
    if (!py_parser_check(p, PYT_STAR))
        return py_parser_expression(p);
    Span star = py_parser_next(p)->span;
    PyExpr *value = bitwise_or(p);
    PyExpr *e = py_parser_new_expr(PY_STARRED, py_parser_join(star, value->span));
    e->u.starred = value;
    return e;
}

/* Items after the first of a comma-separated display, up to (not including) `close`. */
static void more_items(PyParser *p, PyTokKind close, PyExpr ***items, int *n, int *cap)
{
    while (py_parser_accept(p, PYT_COMMA)) {
        if (py_parser_check(p, close))
            return;
        VEC_PUSH(*items, *n, *cap, star_expression(p));
    }
}

/* group_or_tuple -> '(' [star_expression (',' star_expression)* [',']] ')' */
static PyExpr *paren_atom(PyParser *p)
{
    Span open = py_parser_next(p)->span;
    if (py_parser_check(p, PYT_RPAR)) {
        PyExpr *e = py_parser_new_expr(PY_TUPLE, py_parser_join(open, py_parser_next(p)->span));
        e->parenthesized = true;
        return e;
    }
    if (py_parser_check_kw(p, PYKW_YIELD))
        py_parser_unexpected(p, "an expression");
    PyExpr *first = star_expression(p);
    reject_comprehension(p);
    if (!py_parser_check(p, PYT_COMMA)) {
        py_parser_expect(p, PYT_RPAR);
        if (first->kind == PY_STARRED)
            py_parser_fail(p, "SyntaxError", first->span, "cannot use starred expression here");
        first->parenthesized = true;
        return first;
    }
    PyExpr **items = NULL;
    int n = 0;
    int cap = 0;
    VEC_PUSH(items, n, cap, first);
    more_items(p, PYT_RPAR, &items, &n, &cap);
    Span close = py_parser_expect(p, PYT_RPAR)->span;
    PyExpr *e = py_parser_new_expr(PY_TUPLE, py_parser_join(open, close));
    e->parenthesized = true;
    e->u.seq.items = items;
    e->u.seq.n = n;
    return e;
}

/* list -> '[' [star_expression (',' star_expression)* [',']] ']' */
static PyExpr *list_atom(PyParser *p)
{
    Span open = py_parser_next(p)->span;
    PyExpr **items = NULL;
    int n = 0;
    int cap = 0;
    if (!py_parser_check(p, PYT_RSQB)) {
        VEC_PUSH(items, n, cap, star_expression(p));
        reject_comprehension(p);
        more_items(p, PYT_RSQB, &items, &n, &cap);
    }
    Span close = py_parser_expect(p, PYT_RSQB)->span;
    PyExpr *e = py_parser_new_expr(PY_LIST, py_parser_join(open, close));
    e->u.seq.items = items;
    e->u.seq.n = n;
    return e;
}

/* dict -> '{' [expression ':' expression (',' expression ':' expression)* [',']] '}' */
static PyExpr *dict_atom(PyParser *p)
{
    Span open = py_parser_next(p)->span;
    PyExpr **keys = NULL;
    PyExpr **values = NULL;
    int n = 0;
    int kcap = 0;
    int vcap = 0;
    while (!py_parser_check(p, PYT_RBRACE)) {
        if (py_parser_check(p, PYT_DOUBLESTAR) || py_parser_check(p, PYT_STAR))
            py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                           "unpacking in a dict or set display is not supported");
        PyExpr *key = py_parser_expression(p);
        reject_comprehension(p);
        if (!py_parser_check(p, PYT_COLON)) {
            if (n == 0 && (py_parser_check(p, PYT_COMMA) || py_parser_check(p, PYT_RBRACE)))
                py_parser_fail(p, "UnsupportedSyntax", open, "set literals are not supported");
            py_parser_unexpected(p, "':'");
        }
        py_parser_next(p);
        int vn = n;
        VEC_PUSH(keys, n, kcap, key);
        VEC_PUSH(values, vn, vcap, py_parser_expression(p));
        reject_comprehension(p);
        if (!py_parser_accept(p, PYT_COMMA))
            break;
    }
    Span close = py_parser_expect(p, PYT_RBRACE)->span;
    PyExpr *e = py_parser_new_expr(PY_DICT, py_parser_join(open, close));
    e->u.dict.keys = keys;
    e->u.dict.values = values;
    e->u.dict.n = n;
    return e;
}

/* strings -> STRING+ (adjacent literals concatenate) */
static PyExpr *string_atom(PyParser *p)
{
    const PyToken *first = py_parser_next(p);
    Span span = first->span;
    if (!py_parser_check(p, PYT_STRING)) {
        PyExpr *e = py_parser_new_expr(PY_STR, span);
        e->u.str = first->text;
        return e;
    }
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addn(&sb, first->text, first->text_len);
    while (py_parser_check(p, PYT_STRING)) {
        const PyToken *t = py_parser_next(p);
        strbuf_addn(&sb, t->text, t->text_len);
        span = py_parser_join(span, t->span);
    }
    PyExpr *e = py_parser_new_expr(PY_STR, span);
    e->u.str = strbuf_str(&sb);
    return e;
}

static PyExpr *name_atom(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    PyExpr *e = NULL;
    switch (t->kw) {
    case PYKW_NONE:
        e = py_parser_new_expr(PY_NAME, t->span);
        e->u.name = t->text;
        break;
    case PYKW_TRUE_:
    case PYKW_FALSE_:
        e = py_parser_new_expr(PY_BOOL, t->span);
        e->u.bool_value = t->kw == PYKW_TRUE_;
        break;
    case PYKW_NONE_:
        e = py_parser_new_expr(PY_NONE, t->span);
        break;
    default:
        py_parser_unexpected(p, "an expression");
    }
    py_parser_next(p);
    return e;
}

/* atom -> NAME | 'True' | 'False' | 'None' | strings | NUMBER | group_or_tuple | list | dict */
static PyExpr *atom(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    PyExpr *e;
    switch (t->kind) {
    case PYT_NAME:
        return name_atom(p);
    case PYT_INT:
        e = py_parser_new_expr(PY_INT, py_parser_next(p)->span);
        e->u.int_value = t->int_value;
        return e;
    case PYT_FLOAT:
        e = py_parser_new_expr(PY_FLOAT, py_parser_next(p)->span);
        e->u.float_value = t->float_value;
        return e;
    case PYT_STRING:
        return string_atom(p);
    case PYT_LPAR:
        return paren_atom(p);
    case PYT_LSQB:
        return list_atom(p);
    case PYT_LBRACE:
        return dict_atom(p);
    default:
        py_parser_unexpected(p, "an expression");
    }
}

/* slice -> [expression] ':' [expression] [':' [expression]] | star_expression */
static PyExpr *slice_item(PyParser *p)
{
    Span start = py_parser_peek(p)->span;
    PyExpr *lower = NULL;
    if (!py_parser_check(p, PYT_COLON)) {
        lower = star_expression(p);
        if (!py_parser_check(p, PYT_COLON))
            return lower;
    }
    PyExpr *e = py_parser_new_expr(PY_SLICE, start);
    e->u.slice.lower = lower;
    py_parser_next(p);
    if (py_parser_starts_expr(py_parser_peek(p)))
        e->u.slice.upper = py_parser_expression(p);
    if (py_parser_accept(p, PYT_COLON) && py_parser_starts_expr(py_parser_peek(p)))
        e->u.slice.step = py_parser_expression(p);
    e->span = py_parser_join(start, py_parser_prev_span(p));
    return e;
}

/* slices -> slice !',' | slice (',' slice)* [','] */
static PyExpr *slices(PyParser *p)
{
    PyExpr *first = slice_item(p);
    if (!py_parser_check(p, PYT_COMMA))
        return first;
    PyExpr **items = NULL;
    int n = 0;
    int cap = 0;
    VEC_PUSH(items, n, cap, first);
    while (py_parser_accept(p, PYT_COMMA) && !py_parser_check(p, PYT_RSQB))
        VEC_PUSH(items, n, cap, slice_item(p));
    PyExpr *e = py_parser_new_expr(PY_TUPLE, py_parser_join(first->span, items[n - 1]->span));
    e->u.seq.items = items;
    e->u.seq.n = n;
    return e;
}

/* primary -> primary '.' NAME | primary '(' [args] ')' | primary '[' slices ']' | atom */
static PyExpr *primary(PyParser *p)
{
    PyExpr *e = atom(p);
    int links = 0;
    for (;; links++) {
        PyTokKind next = py_parser_peek(p)->kind;
        if (next == PYT_DOT || next == PYT_LPAR || next == PYT_LSQB)
            chain_link(p);
        if (py_parser_accept(p, PYT_DOT)) {
            const PyToken *name = py_parser_peek(p);
            if (name->kind != PYT_NAME || name->kw != PYKW_NONE)
                py_parser_unexpected(p, "an attribute name");
            py_parser_next(p);
            PyExpr *a = py_parser_new_expr(PY_ATTR, py_parser_join(e->span, name->span));
            a->u.attr.value = e;
            a->u.attr.attr = name->text;
            e = a;
        } else if (py_parser_accept(p, PYT_LPAR)) {
            PyExpr *c = py_parser_new_expr(PY_CALL, e->span);
            c->u.call.func = e;
            py_parser_call_args(p, c);
            c->span = py_parser_join(e->span, py_parser_prev_span(p));
            e = c;
        } else if (py_parser_accept(p, PYT_LSQB)) {
            PyExpr *s = py_parser_new_expr(PY_SUBSCRIPT, e->span);
            s->u.subscript.value = e;
            s->u.subscript.index = slices(p);
            s->span = py_parser_join(e->span, py_parser_expect(p, PYT_RSQB)->span);
            e = s;
        } else {
            p->chain -= links;
            return e;
        }
    }
}

/* power -> primary ['**' factor] */
static PyExpr *power(PyParser *p)
{
    PyExpr *base = primary(p);
    if (!py_parser_accept(p, PYT_DOUBLESTAR))
        return base;
    enter(p);
    PyExpr *exponent = factor(p);
    leave(p);
    return new_binop(PYOP_POW, base, exponent);
}

/* factor -> ('+' | '-' | '~') factor | power */
static PyExpr *factor(PyParser *p)
{
    const PyToken *t = py_parser_peek(p);
    PyOp op;
    if (t->kind == PYT_MINUS)
        op = PYOP_NEG;
    else if (t->kind == PYT_PLUS)
        op = PYOP_POS;
    else if (t->kind == PYT_TILDE)
        op = PYOP_INVERT;
    else
        return power(p);
    py_parser_next(p);
    enter(p);
    PyExpr *operand = factor(p);
    leave(p);
    return new_unary(op, t->span, operand);
}

typedef struct BinSpelling {
    PyTokKind tok;
    PyOp op;
} BinSpelling;

/* One row per binary precedence level, loosest first; each is left-associative. */
static const BinSpelling bin_levels[6][5] = {
    {{PYT_VBAR, PYOP_BITOR}},
    {{PYT_CIRCUMFLEX, PYOP_BITXOR}},
    {{PYT_AMPER, PYOP_BITAND}},
    {{PYT_LSHIFT, PYOP_LSHIFT}, {PYT_RSHIFT, PYOP_RSHIFT}},
    {{PYT_PLUS, PYOP_ADD}, {PYT_MINUS, PYOP_SUB}},
    {{PYT_STAR, PYOP_MUL},
     {PYT_SLASH, PYOP_DIV},
     {PYT_DOUBLESLASH, PYOP_FLOORDIV},
     {PYT_PERCENT, PYOP_MOD},
     {PYT_AT, PYOP_MATMUL}},
};

static bool bin_op_at(PyParser *p, int level, PyOp *op)
{
    PyTokKind kind = py_parser_peek(p)->kind;
    for (int i = 0; i < 5; i++) {
        const BinSpelling *s = &bin_levels[level][i];
        if (s->tok == kind && s->tok != PYT_END) {
            *op = s->op;
            return true;
        }
    }
    return false;
}

/* bitwise_or -> bitwise_xor ('|' bitwise_xor)*; bitwise_xor -> bitwise_and ('^' ...)*;
 * bitwise_and -> shift_expr ('&' ...)*; shift_expr -> sum (('<<'|'>>') sum)*;
 * sum -> term (('+'|'-') term)*; term -> factor (('*'|'/'|'//'|'%'|'@') factor)* */
static PyExpr *binary_level(PyParser *p, int level)
{
    if (level == 6)
        return factor(p);
    PyExpr *left = binary_level(p, level + 1);
    PyOp op;
    /* Each operator nests the tree one level deeper, as the call it prints as
     * (`R.add(R.add(a, b), c)`) nests brackets: it counts as a level of nesting. */
    int links = 0;
    while (bin_op_at(p, level, &op)) {
        enter(p);
        links++;
        py_parser_next(p);
        left = new_binop(op, left, binary_level(p, level + 1));
    }
    p->depth -= links;
    return left;
}

static PyExpr *bitwise_or(PyParser *p)
{
    return binary_level(p, 0);
}

/* comp_op -> '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' ['not'] */
static bool comp_op(PyParser *p, PyOp *op)
{
    const PyToken *t = py_parser_peek(p);
    static const BinSpelling plain[] = {
        {PYT_LESS, PYOP_LT},         {PYT_GREATER, PYOP_GT},   {PYT_EQEQUAL, PYOP_EQ},
        {PYT_GREATEREQUAL, PYOP_GE}, {PYT_LESSEQUAL, PYOP_LE}, {PYT_NOTEQUAL, PYOP_NE},
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        if (plain[i].tok == t->kind) {
            *op = plain[i].op;
            py_parser_next(p);
            return true;
        }
    }
    if (t->kind != PYT_NAME)
        return false;
    if (t->kw == PYKW_IN) {
        *op = PYOP_IN;
    } else if (t->kw == PYKW_IS) {
        py_parser_next(p);
        *op = py_parser_accept_kw(p, PYKW_NOT) ? PYOP_IS_NOT : PYOP_IS;
        return true;
    } else if (t->kw == PYKW_NOT && py_parser_peek_at(p, 1)->kw == PYKW_IN &&
               py_parser_peek_at(p, 1)->kind == PYT_NAME) {
        py_parser_next(p);
        *op = PYOP_NOT_IN;
    } else {
        return false;
    }
    py_parser_next(p);
    return true;
}

/* comparison -> bitwise_or (comp_op bitwise_or)* */
static PyExpr *comparison(PyParser *p)
{
    PyExpr *first = bitwise_or(p);
    PyOp op;
    if (!comp_op(p, &op))
        return first;
    PyOp *ops = NULL;
    PyExpr **rest = NULL;
    int n = 0;
    int ocap = 0;
    int rcap = 0;
    do {
        int on = n;
        VEC_PUSH(ops, on, ocap, op);
        VEC_PUSH(rest, n, rcap, bitwise_or(p));
    } while (comp_op(p, &op));
    PyExpr *e = py_parser_new_expr(PY_COMPARE, py_parser_join(first->span, rest[n - 1]->span));
    e->u.compare.first = first;
    e->u.compare.ops = ops;
    e->u.compare.rest = rest;
    e->u.compare.n = n;
    return e;
}

/* inversion -> 'not' inversion | comparison */
static PyExpr *inversion(PyParser *p)
{
    if (!py_parser_check_kw(p, PYKW_NOT))
        return comparison(p);
    Span not_span = py_parser_next(p)->span;
    enter(p);
    PyExpr *operand = inversion(p);
    leave(p);
    return new_unary(PYOP_NOT, not_span, operand);
}

/* conjunction -> inversion ('and' inversion)*; disjunction -> conjunction ('or' ...)* */
static PyExpr *bool_chain(PyParser *p, bool is_or)
{
    PyKeyword kw = is_or ? PYKW_OR : PYKW_AND;
    PyExpr *first = is_or ? bool_chain(p, false) : inversion(p);
    if (!py_parser_check_kw(p, kw))
        return first;
    PyExpr **items = NULL;
    int n = 0;
    int cap = 0;
    VEC_PUSH(items, n, cap, first);
    while (py_parser_accept_kw(p, kw))
        VEC_PUSH(items, n, cap, is_or ? bool_chain(p, false) : inversion(p));
    PyExpr *e = py_parser_new_expr(PY_BOOLOP, py_parser_join(first->span, items[n - 1]->span));
    e->u.boolop.op = is_or ? PYOP_OR : PYOP_AND;
    e->u.boolop.items = items;
    e->u.boolop.n = n;
    return e;
}

static PyExpr *disjunction(PyParser *p)
{
    return bool_chain(p, true);
}

/* lambdef -> 'lambda' [NAME {',' NAME} [',']] ':' expression
 * Parameters are plain names: defaults, star parameters and annotations are not Python a
 * TVMScript index map uses. */
static PyExpr *lambdef(PyParser *p, Span kw_span)
{
    PyExpr *e = py_parser_new_expr(PY_LAMBDA, kw_span);
    int cap = 0;
    int nspans = 0;
    int span_cap = 0;
    while (!py_parser_check(p, PYT_COLON)) {
        const PyToken *t = py_parser_peek(p);
        if (t->kind == PYT_STAR || t->kind == PYT_DOUBLESTAR || t->kind == PYT_SLASH)
            py_parser_fail(p, "UnsupportedSyntax", t->span,
                           "star or positional-only parameters of a lambda are not supported");
        if (t->kind != PYT_NAME || t->kw != PYKW_NONE)
            py_parser_unexpected(p, "a lambda parameter name");
        VEC_PUSH(e->u.lambda.params, e->u.lambda.nparams, cap, t->text);
        VEC_PUSH(e->u.lambda.param_spans, nspans, span_cap, t->span);
        py_parser_next(p);
        if (py_parser_check(p, PYT_EQUAL))
            py_parser_fail(p, "UnsupportedSyntax", py_parser_peek(p)->span,
                           "default values of lambda parameters are not supported");
        if (!py_parser_accept(p, PYT_COMMA))
            break;
    }
    py_parser_expect(p, PYT_COLON);
    e->u.lambda.body = py_parser_expression(p);
    e->span = py_parser_join(kw_span, e->u.lambda.body->span);
    return e;
}

/* expression -> disjunction ['if' disjunction 'else' expression] | lambdef */
PyExpr *py_parser_expression(PyParser *p)
{
    enter(p);
    const PyToken *t = py_parser_peek(p);
    if (t->kind == PYT_NAME && t->kw == PYKW_LAMBDA) {
        Span kw_span = py_parser_next(p)->span;
        PyExpr *lambda = lambdef(p, kw_span);
        leave(p);
        return lambda;
    }
    PyExpr *body = disjunction(p);
    if (!py_parser_accept_kw(p, PYKW_IF)) {
        leave(p);
        return body;
    }
    PyExpr *cond = disjunction(p);
    py_parser_expect_kw(p, PYKW_ELSE);
    PyExpr *orelse = py_parser_expression(p);
    PyExpr *e = py_parser_new_expr(PY_IFEXP, py_parser_join(body->span, orelse->span));
    e->u.ifexp.cond = cond;
    e->u.ifexp.then_value = body;
    e->u.ifexp.else_value = orelse;
    leave(p);
    return e;
}

/* A comma list of `item`s that becomes a bare PY_TUPLE when a comma was written. */
static PyExpr *comma_list(PyParser *p, PyExpr *(*item)(PyParser *))
{
    PyExpr *first = item(p);
    if (!py_parser_check(p, PYT_COMMA))
        return first;
    PyExpr **items = NULL;
    int n = 0;
    int cap = 0;
    VEC_PUSH(items, n, cap, first);
    while (py_parser_accept(p, PYT_COMMA) && py_parser_starts_expr(py_parser_peek(p)))
        VEC_PUSH(items, n, cap, item(p));
    PyExpr *e = py_parser_new_expr(PY_TUPLE, py_parser_join(first->span, items[n - 1]->span));
    e->u.seq.items = items;
    e->u.seq.n = n;
    return e;
}

PyExpr *py_parser_star_expressions(PyParser *p)
{
    return comma_list(p, star_expression);
}

PyExpr *py_parser_star_target(PyParser *p)
{
    if (!py_parser_check(p, PYT_STAR))
        return bitwise_or(p);
    Span star = py_parser_next(p)->span;
    PyExpr *value = bitwise_or(p);
    PyExpr *e = py_parser_new_expr(PY_STARRED, py_parser_join(star, value->span));
    e->u.starred = value;
    return e;
}

PyExpr *py_parser_star_targets(PyParser *p)
{
    return comma_list(p, py_parser_star_target);
}

typedef struct CallArgs {
    PyExpr **args;
    int nargs;
    int args_cap;
    const char **kw_names;
    PyExpr **kw_values;
    Span *kw_spans;
    int nkw;
    int names_cap;
    int values_cap;
    int spans_cap;
} CallArgs;

/* kwarg -> NAME '=' expression */
static void keyword_arg(PyParser *p, CallArgs *a)
{
    const PyToken *name = py_parser_next(p);
    py_parser_next(p);
    PyExpr *value = py_parser_expression(p);
    for (int i = 0; i < a->nkw; i++) {
        if (strcmp(a->kw_names[i], name->text) == 0)
            py_parser_fail(p, "SyntaxError", name->span, "keyword argument repeated: %s",
                           name->text);
    }
    int n1 = a->nkw;
    int n2 = a->nkw;
    VEC_PUSH(a->kw_names, n1, a->names_cap, name->text);
    VEC_PUSH(a->kw_values, n2, a->values_cap, value);
    VEC_PUSH(a->kw_spans, a->nkw, a->spans_cap, py_parser_join(name->span, value->span));
}

/* arg -> '*' expression | expression */
static void positional_arg(PyParser *p, CallArgs *a)
{
    PyExpr *arg;
    if (py_parser_check(p, PYT_STAR)) {
        Span star = py_parser_next(p)->span;
        PyExpr *value = py_parser_expression(p);
        arg = py_parser_new_expr(PY_STARRED, py_parser_join(star, value->span));
        arg->u.starred = value;
    } else {
        arg = py_parser_expression(p);
    }
    if (py_parser_check(p, PYT_EQUAL))
        py_parser_fail(p, "SyntaxError", arg->span,
                       "expression cannot contain assignment, perhaps you meant \"==\"?");
    reject_comprehension(p);
    if (a->nkw > 0 && arg->kind != PY_STARRED)
        py_parser_fail(p, "SyntaxError", arg->span, "positional argument follows keyword argument");
    VEC_PUSH(a->args, a->nargs, a->args_cap, arg);
}

/* arguments -> arg (',' arg)* [','] ')' ; '**' arguments are outside TVMScript */
void py_parser_call_args(PyParser *p, PyExpr *call)
{
    CallArgs a;
    memset(&a, 0, sizeof a);
    while (!py_parser_check(p, PYT_RPAR)) {
        const PyToken *t = py_parser_peek(p);
        if (t->kind == PYT_DOUBLESTAR)
            py_parser_fail(p, "UnsupportedSyntax", t->span, "'**' arguments are not supported");
        if (t->kind == PYT_NAME && t->kw == PYKW_NONE && py_parser_peek_at(p, 1)->kind == PYT_EQUAL)
            keyword_arg(p, &a);
        else
            positional_arg(p, &a);
        if (!py_parser_accept(p, PYT_COMMA))
            break;
    }
    py_parser_expect(p, PYT_RPAR);
    call->u.call.args = a.args;
    call->u.call.nargs = a.nargs;
    call->u.call.kw_names = a.kw_names;
    call->u.call.kw_values = a.kw_values;
    call->u.call.kw_spans = a.kw_spans;
    call->u.call.nkw = a.nkw;
}
