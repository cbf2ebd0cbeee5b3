/* test_py_parser: the Python-subset lexer and parser: tokens, tree shapes, spans, every parse
 * error code, and robustness on every prefix and deletion of real programs. SPEC_NOTES: PY-1. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/text/py_lexer.h"
#include "ast/text/py_parser.h"
#include "tools/tests/unit.h"

/* ---- dumping tokens and trees as compact text ---- */

static const char *tokens_of(const char *text)
{
    PyTokens toks = py_lex_tokens("t.py", text, span_make("t.py", 1, 1), false);
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < toks.n; i++) {
        const PyToken *t = &toks.items[i];
        if (i > 0)
            strbuf_addc(&sb, ' ');
        switch (t->kind) {
        case PYT_NAME:
            strbuf_add(&sb, t->text);
            break;
        case PYT_INT:
            strbuf_addf(&sb, "#%lld", (long long)t->int_value);
            break;
        case PYT_FLOAT:
            strbuf_addf(&sb, "#%g", t->float_value);
            break;
        case PYT_STRING:
            strbuf_addc(&sb, '"');
            strbuf_addn(&sb, t->text, t->text_len);
            strbuf_addc(&sb, '"');
            break;
        case PYT_NEWLINE:
            strbuf_add(&sb, "NL");
            break;
        case PYT_INDENT:
            strbuf_add(&sb, "IN");
            break;
        case PYT_DEDENT:
            strbuf_add(&sb, "DE");
            break;
        case PYT_END:
            strbuf_add(&sb, "END");
            break;
        case PYT_ERROR:
            strbuf_addf(&sb, "ERR(%s)", t->error_code);
            break;
        default: {
            const char *q = py_lex_kind_name(t->kind);
            strbuf_addn(&sb, q + 1, strlen(q) - 2);
        }
        }
    }
    return strbuf_str(&sb);
}

static const char *const op_names[] = {
    [PYOP_ADD] = "+",         [PYOP_SUB] = "-",     [PYOP_MUL] = "*",         [PYOP_DIV] = "/",
    [PYOP_FLOORDIV] = "//",   [PYOP_MOD] = "%",     [PYOP_POW] = "**",        [PYOP_MATMUL] = "@",
    [PYOP_LSHIFT] = "<<",     [PYOP_RSHIFT] = ">>", [PYOP_BITAND] = "&",      [PYOP_BITOR] = "|",
    [PYOP_BITXOR] = "^",      [PYOP_NEG] = "neg",   [PYOP_POS] = "pos",       [PYOP_INVERT] = "~",
    [PYOP_NOT] = "not",       [PYOP_AND] = "and",   [PYOP_OR] = "or",         [PYOP_EQ] = "==",
    [PYOP_NE] = "!=",         [PYOP_LT] = "<",      [PYOP_LE] = "<=",         [PYOP_GT] = ">",
    [PYOP_GE] = ">=",         [PYOP_IS] = "is",     [PYOP_IS_NOT] = "is-not", [PYOP_IN] = "in",
    [PYOP_NOT_IN] = "not-in",
};

static void dump_expr(StrBuf *sb, const PyExpr *e);

static void dump_list(StrBuf *sb, const char *head, PyExpr **items, int n)
{
    strbuf_addf(sb, "(%s", head);
    for (int i = 0; i < n; i++) {
        strbuf_addc(sb, ' ');
        dump_expr(sb, items[i]);
    }
    strbuf_addc(sb, ')');
}

static void dump_opt(StrBuf *sb, const PyExpr *e)
{
    if (e == NULL)
        strbuf_addc(sb, '_');
    else
        dump_expr(sb, e);
}

static void dump_call(StrBuf *sb, const PyExpr *e)
{
    strbuf_add(sb, "(call ");
    dump_expr(sb, e->u.call.func);
    for (int i = 0; i < e->u.call.nargs; i++) {
        strbuf_addc(sb, ' ');
        dump_expr(sb, e->u.call.args[i]);
    }
    for (int i = 0; i < e->u.call.nkw; i++) {
        strbuf_addf(sb, " %s=", e->u.call.kw_names[i]);
        dump_expr(sb, e->u.call.kw_values[i]);
    }
    strbuf_addc(sb, ')');
}

static void dump_expr(StrBuf *sb, const PyExpr *e)
{
    switch (e->kind) {
    case PY_NAME:
        strbuf_add(sb, e->u.name);
        break;
    case PY_ATTR:
        dump_expr(sb, e->u.attr.value);
        strbuf_addf(sb, ".%s", e->u.attr.attr);
        break;
    case PY_CALL:
        dump_call(sb, e);
        break;
    case PY_SUBSCRIPT:
        strbuf_add(sb, "(sub ");
        dump_expr(sb, e->u.subscript.value);
        strbuf_addc(sb, ' ');
        dump_expr(sb, e->u.subscript.index);
        strbuf_addc(sb, ')');
        break;
    case PY_SLICE:
        strbuf_add(sb, "(slice ");
        dump_opt(sb, e->u.slice.lower);
        strbuf_addc(sb, ' ');
        dump_opt(sb, e->u.slice.upper);
        strbuf_addc(sb, ' ');
        dump_opt(sb, e->u.slice.step);
        strbuf_addc(sb, ')');
        break;
    case PY_TUPLE:
        dump_list(sb, "tuple", e->u.seq.items, e->u.seq.n);
        break;
    case PY_LIST:
        dump_list(sb, "list", e->u.seq.items, e->u.seq.n);
        break;
    case PY_DICT:
        strbuf_add(sb, "(dict");
        for (int i = 0; i < e->u.dict.n; i++) {
            strbuf_addc(sb, ' ');
            dump_expr(sb, e->u.dict.keys[i]);
            strbuf_addc(sb, ':');
            dump_expr(sb, e->u.dict.values[i]);
        }
        strbuf_addc(sb, ')');
        break;
    case PY_INT:
        strbuf_addf(sb, "%lld", (long long)e->u.int_value);
        break;
    case PY_FLOAT:
        strbuf_addf(sb, "%gf", e->u.float_value);
        break;
    case PY_STR:
        strbuf_addf(sb, "'%s'", e->u.str);
        break;
    case PY_BOOL:
        strbuf_add(sb, e->u.bool_value ? "True" : "False");
        break;
    case PY_NONE:
        strbuf_add(sb, "None");
        break;
    case PY_BINOP:
        strbuf_addf(sb, "(%s ", op_names[e->u.binop.op]);
        dump_expr(sb, e->u.binop.left);
        strbuf_addc(sb, ' ');
        dump_expr(sb, e->u.binop.right);
        strbuf_addc(sb, ')');
        break;
    case PY_UNARYOP:
        strbuf_addf(sb, "(%s ", op_names[e->u.unary.op]);
        dump_expr(sb, e->u.unary.operand);
        strbuf_addc(sb, ')');
        break;
    case PY_BOOLOP:
        dump_list(sb, op_names[e->u.boolop.op], e->u.boolop.items, e->u.boolop.n);
        break;
    case PY_COMPARE:
        strbuf_add(sb, "(cmp ");
        dump_expr(sb, e->u.compare.first);
        for (int i = 0; i < e->u.compare.n; i++) {
            strbuf_addf(sb, " %s ", op_names[e->u.compare.ops[i]]);
            dump_expr(sb, e->u.compare.rest[i]);
        }
        strbuf_addc(sb, ')');
        break;
    case PY_IFEXP:
        strbuf_add(sb, "(ifexp ");
        dump_expr(sb, e->u.ifexp.cond);
        strbuf_addc(sb, ' ');
        dump_expr(sb, e->u.ifexp.then_value);
        strbuf_addc(sb, ' ');
        dump_expr(sb, e->u.ifexp.else_value);
        strbuf_addc(sb, ')');
        break;
    case PY_STARRED:
        strbuf_add(sb, "(* ");
        dump_expr(sb, e->u.starred);
        strbuf_addc(sb, ')');
        break;
    case PY_LAMBDA:
        strbuf_add(sb, "(lambda");
        for (int i = 0; i < e->u.lambda.nparams; i++)
            strbuf_addf(sb, " %s", e->u.lambda.params[i]);
        strbuf_add(sb, " : ");
        dump_expr(sb, e->u.lambda.body);
        strbuf_addc(sb, ')');
        break;
    }
}

static void dump_body(StrBuf *sb, PyBody body);

static void dump_def(StrBuf *sb, const PyStmt *s)
{
    strbuf_addf(sb, "(def %s", s->u.def.name);
    for (int i = 0; i < s->u.def.ndecorators; i++) {
        strbuf_add(sb, " @");
        dump_expr(sb, s->u.def.decorators[i]);
    }
    strbuf_add(sb, " (");
    for (int i = 0; i < s->u.def.nparams; i++) {
        const PyParam *prm = &s->u.def.params[i];
        strbuf_addf(sb, "%s%s", i > 0 ? " " : "", prm->name);
        if (prm->annotation != NULL) {
            strbuf_addc(sb, ':');
            dump_expr(sb, prm->annotation);
        }
        if (prm->default_value != NULL) {
            strbuf_addc(sb, '=');
            dump_expr(sb, prm->default_value);
        }
    }
    strbuf_addc(sb, ')');
    if (s->u.def.has_varargs)
        strbuf_add(sb, " varargs");
    if (s->u.def.returns != NULL) {
        strbuf_add(sb, " -> ");
        dump_expr(sb, s->u.def.returns);
    }
    strbuf_addc(sb, ' ');
    dump_body(sb, s->u.def.body);
    strbuf_addc(sb, ')');
}

static void dump_stmt_rest(StrBuf *sb, const PyStmt *s);

static void dump_stmt(StrBuf *sb, const PyStmt *s)
{
    switch (s->kind) {
    case PYS_EXPR:
        dump_expr(sb, s->u.expr);
        break;
    case PYS_ASSIGN:
        strbuf_add(sb, "(=");
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            strbuf_addc(sb, ' ');
            dump_expr(sb, s->u.assign.targets[i]);
        }
        strbuf_addc(sb, ' ');
        dump_expr(sb, s->u.assign.value);
        strbuf_addc(sb, ')');
        break;
    case PYS_ANNASSIGN:
        strbuf_add(sb, "(: ");
        dump_expr(sb, s->u.annassign.target);
        strbuf_addc(sb, ' ');
        dump_expr(sb, s->u.annassign.annotation);
        strbuf_addc(sb, ' ');
        dump_opt(sb, s->u.annassign.value);
        strbuf_addc(sb, ')');
        break;
    case PYS_AUGASSIGN:
        strbuf_addf(sb, "(%s= ", op_names[s->u.augassign.op]);
        dump_expr(sb, s->u.augassign.target);
        strbuf_addc(sb, ' ');
        dump_expr(sb, s->u.augassign.value);
        strbuf_addc(sb, ')');
        break;
    case PYS_RETURN:
        strbuf_add(sb, "(return ");
        dump_opt(sb, s->u.ret);
        strbuf_addc(sb, ')');
        break;
    case PYS_DEF:
        dump_def(sb, s);
        break;
    case PYS_PASS:
        strbuf_add(sb, "pass");
        break;
    case PYS_BREAK:
        strbuf_add(sb, "break");
        break;
    case PYS_CONTINUE:
        strbuf_add(sb, "continue");
        break;
    case PYS_IF:
    case PYS_FOR:
    case PYS_WHILE:
    case PYS_WITH:
    case PYS_CLASS:
    case PYS_IMPORT:
    case PYS_ASSERT:
        dump_stmt_rest(sb, s);
        break;
    }
}

static void dump_stmt_rest(StrBuf *sb, const PyStmt *s)
{
    if (s->kind == PYS_IF) {
        strbuf_add(sb, "(if ");
        dump_expr(sb, s->u.if_.cond);
        strbuf_addc(sb, ' ');
        dump_body(sb, s->u.if_.body);
        if (s->u.if_.has_else) {
            strbuf_add(sb, " else ");
            dump_body(sb, s->u.if_.orelse);
        }
    } else if (s->kind == PYS_FOR || s->kind == PYS_WHILE) {
        strbuf_add(sb, s->kind == PYS_FOR ? "(for " : "(while ");
        if (s->kind == PYS_FOR) {
            dump_expr(sb, s->u.for_.target);
            strbuf_add(sb, " in ");
        }
        dump_expr(sb, s->kind == PYS_FOR ? s->u.for_.iter : s->u.while_.cond);
        strbuf_addc(sb, ' ');
        dump_body(sb, s->kind == PYS_FOR ? s->u.for_.body : s->u.while_.body);
    } else if (s->kind == PYS_WITH) {
        strbuf_add(sb, "(with");
        for (int i = 0; i < s->u.with.n; i++) {
            strbuf_addc(sb, ' ');
            dump_expr(sb, s->u.with.items[i]);
            if (s->u.with.as_targets[i] != NULL) {
                strbuf_add(sb, " as ");
                dump_expr(sb, s->u.with.as_targets[i]);
            }
        }
        strbuf_addc(sb, ' ');
        dump_body(sb, s->u.with.body);
    } else if (s->kind == PYS_CLASS) {
        strbuf_addf(sb, "(class %s", s->u.class_.name);
        for (int i = 0; i < s->u.class_.ndecorators; i++) {
            strbuf_add(sb, " @");
            dump_expr(sb, s->u.class_.decorators[i]);
        }
        strbuf_addc(sb, ' ');
        dump_list(sb, "bases", s->u.class_.bases, s->u.class_.nbases);
        strbuf_addc(sb, ' ');
        dump_body(sb, s->u.class_.body);
    } else if (s->kind == PYS_IMPORT) {
        strbuf_addf(sb, "(import %s:", s->u.import.module ? s->u.import.module : "-");
        for (int i = 0; i < s->u.import.n; i++) {
            strbuf_addf(sb, " %s", s->u.import.names[i]);
            if (s->u.import.asnames[i] != NULL)
                strbuf_addf(sb, " as %s", s->u.import.asnames[i]);
        }
    } else {
        strbuf_add(sb, "(assert ");
        dump_expr(sb, s->u.assert_.cond);
        strbuf_addc(sb, ' ');
        dump_opt(sb, s->u.assert_.msg);
    }
    strbuf_addc(sb, ')');
}

static void dump_body(StrBuf *sb, PyBody body)
{
    strbuf_addc(sb, '[');
    for (int i = 0; i < body.n; i++) {
        if (i > 0)
            strbuf_add(sb, "; ");
        dump_stmt(sb, body.stmts[i]);
    }
    strbuf_addc(sb, ']');
}

/* ---- parsing helpers ---- */

static ErrorTrap last_trap;

/* The dumped tree, or "error <code> <line>:<col>". */
static const char *parse(const char *text)
{
    if (setjmp(last_trap.jmp) == 0) {
        PyBody body = py_parse_file("t.py", text, &last_trap);
        StrBuf sb;
        strbuf_init(&sb);
        dump_body(&sb, body);
        return strbuf_str(&sb);
    }
    return mem_printf("error %s %d:%d", last_trap.error.code, last_trap.error.span.line,
                      last_trap.error.span.col);
}

static PyBody parse_body(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        return py_parse_file("t.py", text, &trap);
    CU_FAIL("unexpected parse error");
    fprintf(stderr, "\n%s\n", error_format(&trap.error));
    return (PyBody){NULL, 0};
}

/* One expression statement, dumped. */
static const char *expr(const char *text)
{
    const char *out = parse(text);
    size_t n = strlen(out);
    if (out[0] != '[' || n < 2)
        return out;
    return mem_strndup(out + 1, n - 2);
}

#define ASSERT_PARSE(text, want)                                                                   \
    do {                                                                                           \
        const char *got_ = parse(text);                                                            \
        if (strcmp(got_, want) != 0)                                                               \
            fprintf(stderr, "\n  parse: %s\n  got:  %s\n  want: %s\n", text, got_, want);          \
        CU_ASSERT_STRING_EQUAL(got_, want);                                                        \
    } while (0)

#define ASSERT_EXPR(text, want)                                                                    \
    do {                                                                                           \
        const char *got_ = expr(text);                                                             \
        if (strcmp(got_, want) != 0)                                                               \
            fprintf(stderr, "\n  expr: %s\n  got:  %s\n  want: %s\n", text, got_, want);           \
        CU_ASSERT_STRING_EQUAL(got_, want);                                                        \
    } while (0)

#define ASSERT_TOKENS(text, want)                                                                  \
    do {                                                                                           \
        const char *got_ = tokens_of(text);                                                        \
        if (strcmp(got_, want) != 0)                                                               \
            fprintf(stderr, "\n  lex:  %s\n  got:  %s\n  want: %s\n", text, got_, want);           \
        CU_ASSERT_STRING_EQUAL(got_, want);                                                        \
    } while (0)

/* Asserts a parse error with this code at line:col. */
#define ASSERT_ERROR(text, code, line, col) ASSERT_PARSE(text, "error " code " " #line ":" #col)

/* ---- lexer ---- */

static void test_lex_indentation(void)
{
    ASSERT_TOKENS("if x:\n    y = 1\n    if z:\n        w\nv\n",
                  "if x : NL IN y = #1 NL if z : NL IN w NL DE DE v NL END");
    ASSERT_TOKENS("# c\n\nx  # t\n   \n  # indented comment\ny\n", "x NL y NL END");
    ASSERT_TOKENS("def f():\n\tpass\n\tpass\n", "def f ( ) : NL IN pass NL pass NL DE END");
    ASSERT_TOKENS("if a:\n  b", "if a : NL IN b NL DE END"); /* no final newline */
    ASSERT_TOKENS("", "END");
    ASSERT_TOKENS("\xEF\xBB\xBFx\n", "x NL END");
    ASSERT_TOKENS("\n\n  \n", "END");
}

static void test_lex_lines(void)
{
    ASSERT_TOKENS("f(a,\n  b)\nc\n", "f ( a , b ) NL c NL END");
    ASSERT_TOKENS("x = [1,\n# comment\n\n      2]\n", "x = [ #1 , #2 ] NL END");
    ASSERT_TOKENS("x = 1 + \\\n    2\n", "x = #1 + #2 NL END");
    ASSERT_TOKENS("if a:\r\n  b\r\nc\r", "if a : NL IN b NL DE c NL END");
    ASSERT_TOKENS("a\rb\r\n", "a NL b NL END");
    PyTokens toks = py_lex_tokens("t.py", "a\r\n  (b,\r\n c)", span_make("t.py", 1, 1), false);
    CU_ASSERT_EQUAL_FATAL(toks.n, 11);
    CU_ASSERT_EQUAL(toks.items[6].span.line, 3); /* c */
    CU_ASSERT_EQUAL(toks.items[6].span.col, 2);
}

static void test_lex_numbers(void)
{
    ASSERT_TOKENS("1_000 0x1F 0o17 0b101 0 00 0_0 0x_f", "#1000 #31 #15 #5 #0 #0 #0 #15 NL END");
    ASSERT_TOKENS("1.5 1. .5 1e5 1E-3 1_0.5 012.5 1e+2",
                  "#1.5 #1 #0.5 #100000 #0.001 #10.5 #12.5 #100 NL END");
    ASSERT_TOKENS("9223372036854775807 inf nan", "#9223372036854775807 inf nan NL END");
    ASSERT_TOKENS("x.y 1 .real", "x . y #1 . real NL END");
    ASSERT_TOKENS("1if x else 2else", "#1 if x else #2 else NL END");
    ASSERT_TOKENS("9223372036854775808", "ERR(BadNumber)");
    ASSERT_TOKENS("012", "ERR(BadNumber)");
    ASSERT_TOKENS("x 1__0", "x ERR(BadNumber)");
}

static void test_lex_strings(void)
{
    ASSERT_TOKENS("s = 'a\\n' \"q\\\"\" '\\x41\\u00e9' '\\q' r'\\n' '''l1\nl2''' 'c\\\nd'\n",
                  "s = \"a\n\" \"q\"\" \"A\xc3\xa9\" \"\\q\" \"\\n\" \"l1\nl2\" \"cd\" NL END");
    ASSERT_TOKENS("'\\t\\r\\\\\\'' R'\\'' u'x' \"\"\"a\"b\"\"\"",
                  "\"\t\r\\'\" \"\\'\" \"x\" \"a\"b\" NL END");
    ASSERT_TOKENS("'''a\r\nb'''", "\"a\nb\" NL END");
    ASSERT_TOKENS("'\\101\\U0001F600'", "\"A\xf0\x9f\x98\x80\" NL END");
    PyTokens toks = py_lex_tokens("t.py", "'a\\0b'", span_make("t.py", 1, 1), false);
    CU_ASSERT_EQUAL_FATAL(toks.items[0].kind, PYT_STRING);
    CU_ASSERT_EQUAL(toks.items[0].text_len, 3);
    CU_ASSERT_EQUAL(toks.items[0].text[1], '\0');
    CU_ASSERT_EQUAL(toks.items[0].span.end_col, 7);
}

static void test_lex_operators(void)
{
    ASSERT_TOKENS("a **= b // c ->d != e <<= f ... := @ >>= //= -= ~ %",
                  "a **= b // c -> d != e <<= f ... := @ >>= //= -= ~ % NL END");
    ASSERT_TOKENS("a<=b>=c==d<e>f", "a <= b >= c == d < e > f NL END");
}

/* ---- expressions ---- */

static void test_precedence(void)
{
    ASSERT_EXPR("-x**2", "(neg (** x 2))");
    ASSERT_EXPR("a + b * c", "(+ a (* b c))");
    ASSERT_EXPR("a < b < c", "(cmp a < b < c)");
    ASSERT_EXPR("not a and b", "(and (not a) b)");
    ASSERT_EXPR("a or b and c or d", "(or a (and b c) d)");
    ASSERT_EXPR("a if c else b", "(ifexp c a b)");
    ASSERT_EXPR("a if c else b if d else e", "(ifexp c a (ifexp d b e))");
    ASSERT_EXPR("2**-1", "(** 2 (neg 1))");
    ASSERT_EXPR("a**b**c", "(** a (** b c))");
    ASSERT_EXPR("a - b - c", "(- (- a b) c)");
    ASSERT_EXPR("x not in y is not z", "(cmp x not-in y is-not z)");
    ASSERT_EXPR("a in b == c != d >= e", "(cmp a in b == c != d >= e)");
    ASSERT_EXPR("a | b ^ c & d << 1 + 2", "(| a (^ b (& c (<< d (+ 1 2)))))");
    ASSERT_EXPR("~a // b % c @ d / e", "(/ (@ (% (// (~ a) b) c) d) e)");
    ASSERT_EXPR("not not a == b", "(not (not (cmp a == b)))");
    ASSERT_EXPR("-(a + b) * +c", "(* (neg (+ a b)) (pos c))");
    /* TS-6.2: lambdas (index maps) bind looser than everything else */
    ASSERT_EXPR("lambda i, j: (i // 4, j % 4)", "(lambda i j : (tuple (// i 4) (% j 4)))");
    ASSERT_EXPR("lambda: 0", "(lambda : 0)");
    ASSERT_EXPR("lambda i,: i if c else j", "(lambda i : (ifexp c i j))");
}

static void test_primaries(void)
{
    ASSERT_EXPR("T.grid(16, n)[0].x", "(sub (call T.grid 16 n) 0).x");
    ASSERT_EXPR("f(a, *b, k=v, j=1,)", "(call f a (* b) k=v j=1)");
    ASSERT_EXPR("f()", "(call f)");
    ASSERT_EXPR("A[i, 0:4]", "(sub A (tuple i (slice 0 4 _)))");
    ASSERT_EXPR("A[::2]", "(sub A (slice _ _ 2))");
    ASSERT_EXPR("A[:]", "(sub A (slice _ _ _))");
    ASSERT_EXPR("A[1:, :n:]", "(sub A (tuple (slice 1 _ _) (slice _ n _)))");
    ASSERT_EXPR("A[i,]", "(sub A (tuple i))");
    ASSERT_EXPR("'a' 'b' \"c\"", "'abc'");
    ASSERT_EXPR("(a)", "a");
    ASSERT_EXPR("()", "(tuple)");
    ASSERT_EXPR("(a,)", "(tuple a)");
    ASSERT_EXPR("(a, b)", "(tuple a b)");
    ASSERT_EXPR("[a, b,]", "(list a b)");
    ASSERT_EXPR("[]", "(list)");
    ASSERT_EXPR("{}", "(dict)");
    ASSERT_EXPR("{'k': 1, 2: v,}", "(dict 'k':1 2:v)");
    ASSERT_EXPR("[*a, b]", "(list (* a) b)");
    ASSERT_EXPR("True, None, False", "(tuple True None False)");
    ASSERT_EXPR("1.5e3", "1500f");
    ASSERT_EXPR("R.const([[1, 2], [3, 4]], \"float32\")",
                "(call R.const (list (list 1 2) (list 3 4)) 'float32')");
}

/* ---- statements ---- */

static void test_def_and_class(void)
{
    ASSERT_PARSE("@R.function(pure=False)\n"
                 "def main(x: R.Tensor((2, 3), \"float32\"), n: R.Prim(\"int64\")) -> R.Tensor:\n"
                 "    return x\n",
                 "[(def main @(call R.function pure=False) (x:(call R.Tensor (tuple 2 3) "
                 "'float32') n:(call R.Prim 'int64')) -> R.Tensor [(return x)])]");
    ASSERT_PARSE("@I.ir_module\nclass Module(Base):\n    pass\n",
                 "[(class Module @I.ir_module (bases Base) [pass])]");
    ASSERT_PARSE("class M:\n    @T.prim_func\n    def f(): pass\n",
                 "[(class M (bases) [(def f @T.prim_func () [pass])])]");
    ASSERT_PARSE("def f(a, b=1, *args, c, **kw): pass\n", "[(def f (a b=1 c) varargs [pass])]");
    ASSERT_PARSE("def f(a, *, b): pass\n", "[(def f (a b) varargs [pass])]");
    ASSERT_PARSE("def f(a,): pass\n", "[(def f (a) [pass])]");
}

static void test_compound(void)
{
    ASSERT_PARSE("with R.dataflow():\n    lv = R.add(x, x)\n    R.output(lv)\n"
                 "with a as b, c:\n    pass\n",
                 "[(with (call R.dataflow) [(= lv (call R.add x x)); (call R.output lv)]); "
                 "(with a as b c [pass])]");
    ASSERT_PARSE("for i, j in T.grid(4, 8):\n    A[i, j] += 1\n",
                 "[(for (tuple i j) in (call T.grid 4 8) [(+= (sub A (tuple i j)) 1)])]");
    ASSERT_PARSE("for (i, *j) in x, y: pass\n", "[(for (tuple i (* j)) in (tuple x y) [pass])]");
    ASSERT_PARSE("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n",
                 "[(if a [(= x 1)] else [(if b [(= x 2)] else [(= x 3)])])]");
    ASSERT_PARSE("if a:\n    x = 1\nelif b:\n    x = 2\n",
                 "[(if a [(= x 1)] else [(if b [(= x 2)])])]");
    ASSERT_PARSE("if a:\n    pass\n", "[(if a [pass])]");
    ASSERT_PARSE("while x:\n    break\n    continue\n", "[(while x [break; continue])]");
    ASSERT_PARSE("if x: a = 1; pass\nb;\n", "[(if x [(= a 1); pass]); b]");
    ASSERT_PARSE("if a:\n  if b:\n    c\n  d\ne\n", "[(if a [(if b [c]); d]); e]");
}

static void test_simple(void)
{
    ASSERT_PARSE("a = b = c\n", "[(= a b c)]");
    ASSERT_PARSE("a, b = e\n(c, d) = f\n[g, h] = i\n",
                 "[(= (tuple a b) e); (= (tuple c d) f); (= (list g h) i)]");
    ASSERT_PARSE("x: R.Tensor = y\nz: int\nA[0]: T = 1\n",
                 "[(: x R.Tensor y); (: z int _); (: (sub A 0) T 1)]");
    ASSERT_PARSE("return a, b\nreturn\nreturn (a)\n",
                 "[(return (tuple a b)); (return _); (return a)]");
    ASSERT_PARSE("from tvm.script import ir as I, relax as R\nimport a.b as c, d\n"
                 "from x import (y, z,)\n",
                 "[(import tvm.script: ir as I relax as R); (import -: a.b as c d); "
                 "(import x: y z)]");
    ASSERT_PARSE("assert x, 'm'\nassert y\n", "[(assert x 'm'); (assert y _)]");
    ASSERT_PARSE("x.y -= 2; z **= 3\n", "[(-= x.y 2); (**= z 3)]");
    ASSERT_PARSE("R.print(x, format='{}')\n", "[(call R.print x format='{}')]");
    ASSERT_PARSE("a = 1,\n", "[(= a (tuple 1))]");
}

/* ---- spans ---- */

static void test_spans(void)
{
    PyBody body = parse_body("@R.function\n"
                             "def main(x: R.Tensor((2, 3), \"float32\")):\n"
                             "    with R.dataflow():\n"
                             "        lv = R.add(x, k=x + 1)\n"
                             "    return lv\n");
    CU_ASSERT_EQUAL_FATAL(body.n, 1);
    const PyStmt *def = body.stmts[0];
    CU_ASSERT_EQUAL(def->span.line, 2);
    CU_ASSERT_EQUAL(def->span.col, 1);
    CU_ASSERT_EQUAL(def->span.end_line, 5);
    CU_ASSERT_EQUAL(def->span.end_col, 14);
    CU_ASSERT_EQUAL(def->u.def.decorators[0]->span.line, 1);
    CU_ASSERT_EQUAL(def->u.def.decorators[0]->span.col, 2);
    const PyParam *x = &def->u.def.params[0];
    CU_ASSERT_EQUAL(x->span.col, 10);
    CU_ASSERT_EQUAL(x->annotation->span.col, 13);
    CU_ASSERT_EQUAL(x->annotation->span.end_col, 40);
    const PyStmt *with = def->u.def.body.stmts[0];
    CU_ASSERT_EQUAL(with->span.line, 3);
    CU_ASSERT_EQUAL(with->span.col, 5);
    CU_ASSERT_EQUAL(with->span.end_line, 4);
    const PyStmt *bind = with->u.with.body.stmts[0];
    CU_ASSERT_EQUAL(bind->span.col, 9);
    CU_ASSERT_EQUAL(bind->span.end_col, 31);
    const PyExpr *call = bind->u.assign.value;
    CU_ASSERT_EQUAL(call->span.line, 4);
    CU_ASSERT_EQUAL(call->span.col, 14);
    CU_ASSERT_EQUAL(call->span.end_col, 31);
    CU_ASSERT_EQUAL_FATAL(call->u.call.nkw, 1);
    CU_ASSERT_EQUAL(call->u.call.kw_spans[0].col, 23);
    CU_ASSERT_EQUAL(call->u.call.kw_spans[0].end_col, 30);
    CU_ASSERT_EQUAL(call->u.call.kw_values[0]->span.col, 25);
    const PyExpr *ret = def->u.def.body.stmts[1]->u.ret;
    CU_ASSERT_EQUAL(ret->span.line, 5);
    CU_ASSERT_EQUAL(ret->span.col, 12);
}

static void test_paren_spans(void)
{
    PyBody body = parse_body("y = (a + b) * (c, d)\n");
    CU_ASSERT_EQUAL_FATAL(body.n, 1);
    const PyExpr *mul = body.stmts[0]->u.assign.value;
    CU_ASSERT_TRUE(mul->u.binop.left->parenthesized);
    CU_ASSERT_EQUAL(mul->u.binop.left->span.col, 6); /* the inner a + b, as Python has it */
    CU_ASSERT_TRUE(mul->u.binop.right->parenthesized);
    CU_ASSERT_EQUAL(mul->u.binop.right->span.col, 15); /* a tuple includes its parentheses */
    CU_ASSERT_EQUAL(mul->u.binop.right->span.end_col, 21);
    CU_ASSERT_EQUAL(mul->span.col, 6);
    CU_ASSERT_FALSE(body.stmts[0]->u.assign.targets[0]->parenthesized);
}

static void test_parse_expr(void)
{
    ErrorTrap trap;
    Span origin = span_make("m.py", 7, 20);
    if (setjmp(trap.jmp) == 0) {
        PyExpr *e = py_parse_expr("m.py", "n * 2", origin, &trap);
        CU_ASSERT_EQUAL(e->kind, PY_BINOP);
        CU_ASSERT_EQUAL(e->span.line, 7);
        CU_ASSERT_EQUAL(e->span.col, 20);
        CU_ASSERT_EQUAL(e->span.end_col, 25);
        CU_ASSERT_EQUAL(e->u.binop.right->span.col, 24);
        CU_ASSERT_STRING_EQUAL(e->span.file, "m.py");
    } else {
        CU_FAIL("n * 2 must parse");
    }
    static const struct {
        const char *text;
        const char *code;
        int col;
    } bad[] = {
        {"n m", "SyntaxError", 22},  {"n *", "SyntaxError", 23}, {"", "SyntaxError", 20},
        {"n, m", "SyntaxError", 21}, {"(n", "SyntaxError", 20},  {"n $", "BadToken", 22},
    };
    for (volatile size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (setjmp(trap.jmp) == 0) {
            py_parse_expr("m.py", bad[i].text, origin, &trap);
            CU_FAIL("must not parse");
        } else {
            CU_ASSERT_EQUAL(trap.error.phase, PHASE_PARSE);
            CU_ASSERT_STRING_EQUAL(trap.error.code, bad[i].code);
            CU_ASSERT_EQUAL(trap.error.span.line, 7);
            CU_ASSERT_EQUAL(trap.error.span.col, bad[i].col);
        }
    }
}

/* ---- errors: every code, with its position ---- */

static void test_lex_errors(void)
{
    ASSERT_ERROR("x = $\n", "BadToken", 1, 5);
    ASSERT_ERROR("x = \xc3\xa9\n", "BadToken", 1, 5);
    ASSERT_ERROR("a = 1\nb ? c\n", "BadToken", 2, 3);
    ASSERT_ERROR("x\xc3\xa9 = 1\n", "BadToken", 1, 2);
    ASSERT_ERROR("x = 'abc\n", "UnterminatedString", 1, 5);
    ASSERT_ERROR("x = 1\ny = \"\"\"abc\n\n", "UnterminatedString", 2, 5);
    ASSERT_ERROR("x = 'abc\\", "UnterminatedString", 1, 5);
    ASSERT_ERROR("x = 012\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 9223372036854775808\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 1_\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 0x\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 1abc\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 1e+\n", "BadNumber", 1, 5);
    ASSERT_ERROR("x = 0b102\n", "BadNumber", 1, 5);
    ASSERT_ERROR("s = '\\x4'\n", "SyntaxError", 1, 6);
}

static void test_indent_errors(void)
{
    ASSERT_ERROR("if a:\n    b\n  c\n", "BadIndent", 3, 1);
    ASSERT_ERROR("a\n  b\n", "BadIndent", 2, 1);
    ASSERT_ERROR("if a:\nb\n", "BadIndent", 2, 1);
    ASSERT_ERROR("if a:\n", "BadIndent", 2, 1);
    ASSERT_ERROR("if a:\n\tb\n        c\n", "BadIndent", 3, 1);
    ASSERT_ERROR("def f():\n    x = 1\n        y = 2\n", "BadIndent", 3, 1);
}

static void test_syntax_errors(void)
{
    ASSERT_ERROR("x = (1,\n2\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("f(a=1, b)\n", "SyntaxError", 1, 8);
    ASSERT_ERROR("f(a=1, a=2)\n", "SyntaxError", 1, 8);
    ASSERT_ERROR("f(a.b=1)\n", "SyntaxError", 1, 3);
    ASSERT_ERROR("x = = 1\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("a + 1 = 2\n", "SyntaxError", 1, 1);
    ASSERT_ERROR("f() = 2\n", "SyntaxError", 1, 1);
    ASSERT_ERROR("a, b: int = 2\n", "SyntaxError", 1, 1);
    ASSERT_ERROR("a, *b, *c = d\n", "SyntaxError", 1, 8);
    ASSERT_ERROR("x = 1\n)\n", "SyntaxError", 2, 1);
    ASSERT_ERROR("(]\n", "SyntaxError", 1, 2);
    ASSERT_ERROR("def f(a=1, b): pass\n", "SyntaxError", 1, 12);
    ASSERT_ERROR("def f(a, a): pass\n", "SyntaxError", 1, 10);
    ASSERT_ERROR("x = 1 \\ y\n", "SyntaxError", 1, 7);
    ASSERT_ERROR("@dec\nx = 1\n", "SyntaxError", 2, 1);
    ASSERT_ERROR("else:\n    pass\n", "SyntaxError", 1, 1);
    ASSERT_ERROR("if a\n    pass\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("x = a if b\n", "SyntaxError", 1, 11);
    ASSERT_ERROR("for 1 in x: pass\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("x = a.if\n", "SyntaxError", 1, 7);
    ASSERT_ERROR("A[]\n", "SyntaxError", 1, 3);
    ASSERT_ERROR("(*a)\n", "SyntaxError", 1, 2);
    ASSERT_ERROR("x = 1 y = 2\n", "SyntaxError", 1, 7);
    /* Which of two errors is reported follows Python: some lexical errors further on win. */
    ASSERT_ERROR("x = = 1\ny = 'abc\n", "UnterminatedString", 2, 5);
    ASSERT_ERROR("if a\n    b\n  c\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("f(a,\nb c)\n", "SyntaxError", 2, 3);
    ASSERT_ERROR("x = (1,\n2 3\n", "SyntaxError", 1, 5);
    ASSERT_ERROR("x = (1 2,\n3\n", "SyntaxError", 1, 8);
}

static void test_unsupported(void)
{
    ASSERT_ERROR("f = lambda x=1: x\n", "UnsupportedSyntax", 1, 13);
    ASSERT_ERROR("f = lambda *x: x\n", "UnsupportedSyntax", 1, 12);
    ASSERT_ERROR("f = lambda x y: x\n", "SyntaxError", 1, 14);
    ASSERT_ERROR("global x\n", "UnsupportedSyntax", 1, 1);
    ASSERT_ERROR("del x\n", "UnsupportedSyntax", 1, 1);
    ASSERT_ERROR("try:\n  pass\n", "UnsupportedSyntax", 1, 1);
    ASSERT_ERROR("async def f(): pass\n", "UnsupportedSyntax", 1, 1);
    ASSERT_ERROR("[x for x in y]\n", "UnsupportedSyntax", 1, 4);
    ASSERT_ERROR("f(x for x in y)\n", "UnsupportedSyntax", 1, 5);
    ASSERT_ERROR("{1, 2}\n", "UnsupportedSyntax", 1, 1);
    ASSERT_ERROR("x = ...\n", "UnsupportedSyntax", 1, 5);
    ASSERT_ERROR("(y := 1)\n", "UnsupportedSyntax", 1, 4);
    ASSERT_ERROR("f(**kw)\n", "UnsupportedSyntax", 1, 3);
    ASSERT_ERROR("s = b'x'\n", "UnsupportedSyntax", 1, 5);
    ASSERT_ERROR("s = f'{x}'\n", "UnsupportedSyntax", 1, 5);
    ASSERT_ERROR("x = 1j\n", "UnsupportedSyntax", 1, 5);
    ASSERT_ERROR("from . import x\n", "UnsupportedSyntax", 1, 6);
    ASSERT_ERROR("from a import *\n", "UnsupportedSyntax", 1, 15);
    ASSERT_ERROR("for i in x:\n    pass\nelse:\n    pass\n", "UnsupportedSyntax", 3, 1);
    ASSERT_ERROR("class A(metaclass=M): pass\n", "UnsupportedSyntax", 1, 9);
    ASSERT_ERROR("def f(a, /): pass\n", "UnsupportedSyntax", 1, 10);
}

static char *repeat(const char *piece, int n, const char *tail)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++)
        strbuf_add(&sb, piece);
    strbuf_add(&sb, tail);
    return strbuf_str(&sb);
}

static void test_too_deep(void)
{
    char *open = repeat("(", 201, "x");
    ASSERT_PARSE(mem_printf("%s%s\n", open, repeat(")", 201, "")), "error TooDeep 1:201");
    ASSERT_PARSE(repeat("(", 150, repeat(")", 150, "\n")), "[(tuple)]");
    ASSERT_PARSE(repeat("-", 300, "x\n"), "error TooDeep 1:201");
    ASSERT_PARSE(repeat("not ", 300, "x\n"), "error TooDeep 1:801");
    CU_ASSERT_STRING_EQUAL(parse(repeat("a if b else ", 300, "c\n")), "error TooDeep 1:2401");
    CU_ASSERT_STRING_EQUAL(parse(repeat("x**", 300, "y\n")), "error TooDeep 1:601");
    CU_ASSERT_STRING_EQUAL(parse(repeat("[", 100, repeat("{1: -", 100, "x"))),
                           "error TooDeep 1:351");
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < 110; i++)
        strbuf_addf(&sb, "%*sif x:\n", i, "");
    strbuf_addf(&sb, "%*spass\n", 110, "");
    CU_ASSERT_STRING_EQUAL(parse(strbuf_str(&sb)), "error TooDeep 102:1");
    char *elifs = repeat("elif x:\n    pass\n", 5000, "");
    const char *chain = parse(mem_printf("if x:\n    pass\n%s", elifs));
    CU_ASSERT_EQUAL(chain[0], '[');
}

/* Operator chains nest as deep as they are long (they print as nested calls), so each
 * operator counts as a level; postfix chains have PY_MAX_CHAIN links. */
static void test_long_chains(void)
{
    CU_ASSERT_STRING_EQUAL(parse(mem_printf("x%s\n", repeat(" + x", 200, ""))),
                           "error TooDeep 1:799");
    CU_ASSERT_EQUAL(parse(mem_printf("x%s\n", repeat(" + x", 199, "")))[0], '[');
    CU_ASSERT_STRING_EQUAL(parse(mem_printf("x%s\n", repeat("[0]", 1001, ""))),
                           "error TooDeep 1:3002");
    CU_ASSERT_EQUAL(parse(mem_printf("x%s\n", repeat("[0]", 1000, "")))[0], '[');
    CU_ASSERT_STRING_EQUAL(parse(mem_printf("x%s\n", repeat("()", 1001, ""))),
                           "error TooDeep 1:2002");
    CU_ASSERT_STRING_EQUAL(parse(mem_printf("x%s\n", repeat(".a", 1001, ""))),
                           "error TooDeep 1:2002");
    /* A chain inside the arguments of a chain adds to it. */
    CU_ASSERT_STRING_EQUAL(parse(mem_printf("x%s(y%s)\n", repeat("[0]", 600, ""),
                                            repeat("[0]", 400, ""))),
                           "error TooDeep 1:3001");
    /* Links end with their chain: many short chains are fine. */
    CU_ASSERT_EQUAL(parse(repeat("x + x\n", 3000, ""))[0], '[');
}

/* ---- robustness: every prefix and every one-byte deletion of real programs ---- */

static const char *const programs[] = {
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), y: R.Tensor((4,), \"float32\"))"
    " -> R.Tensor((\"n\", 4), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        with R.dataflow():\n"
    "            lv0: R.Tensor((n, 4), dtype=\"float32\") = R.add(x, y)\n"
    "            lv1 = R.multiply(lv0, R.const(2.5, \"float32\"))\n"
    "            gv = R.nn.relu(lv1)\n"
    "            R.output(gv)\n"
    "        return gv\n",

    "from tvm.script import ir as I, relax as R, tir as T\n"
    "\n"
    "@R.function(pure=False, private=True)\n"
    "def main(c: R.Tensor((), \"bool\"), x: R.Tensor((2, 3), \"float32\")) -> R.Tensor:\n"
    "    R.func_attr({\"some_attr\": 1, \"relax.force_pure\": True})\n"
    "    if c:\n"
    "        w = R.add(x, x)\n"
    "        y = R.multiply(w, w)\n"
    "    else:\n"
    "        y = R.subtract(x, x)  # comment\n"
    "    t = (y, x)\n"
    "    z = t[0]\n"
    "    s = R.shape([2, 3]); R.print(z, format='{}')\n"
    "    return z\n",

    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def matmul(a: T.handle, b: T.handle, c: T.handle):\n"
    "        T.func_attr({\"tir.noalias\": True})\n"
    "        m = T.int64()\n"
    "        A = T.match_buffer(a, (m, 16))\n"
    "        B = T.match_buffer(b, (16, 8))\n"
    "        C = T.match_buffer(c, (m, 8))\n"
    "        for i, j, kk in T.grid(m, 8, 16):\n"
    "            with T.block(\"matmul\"):\n"
    "                vi, vj, vk = T.axis.remap(\"SSR\", [i, j, kk])\n"
    "                T.reads(A[vi, vk], B[vk, vj])\n"
    "                T.writes(C[vi, vj])\n"
    "                with T.init():\n"
    "                    C[vi, vj] = T.float32(0)\n"
    "                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4, 16), \"float32\"), w: R.Tensor((16, 8), \"float32\")):\n"
    "        cls = Module\n"
    "        out = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((4, 8), \"float32\"))\n"
    "        return out\n",

    "@T.prim_func(private=True)\n"
    "def add_one(A: T.Buffer((16,), \"float32\"), B: T.Buffer(16, \"float32\")):\n"
    "    for i in range(16):\n"
    "        with T.block(\"compute\"):\n"
    "            vi = T.axis.spatial(16, i)\n"
    "            B[vi] = T.if_then_else(A[vi] > T.float32(0), A[vi] + T.float32(1), \\\n"
    "                                   -A[vi] ** 2 // 3 % 4)\n"
    "            B[vi:vi + 1] += T.Cast(\"float32\", T.max(vi, 0) << 1)\n"
    "    x = 'tab\\there\\n' \"\"\"multi\n"
    "line\"\"\"\n"
    "    y = not a and b or c if d is not None else 0x1F\n",
};

/* Parses `text`; fails the test unless it gives a tree or a located parse error. */
static void check_robust(const char *text, int *nerrors)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        py_parse_file("t.py", text, &trap);
        return;
    }
    (*nerrors)++;
    if (trap.error.phase != PHASE_PARSE || trap.error.span.line <= 0 || trap.error.span.col <= 0) {
        CU_FAIL("error without a location");
        fprintf(stderr, "\n%s\n  on: %s\n", error_format(&trap.error), text);
    }
}

static void test_robust(void)
{
    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        const char *prog = programs[k];
        size_t len = strlen(prog);
        CU_ASSERT_EQUAL(parse(prog)[0], '['); /* the whole program parses */
        int nerrors = 0;
        char *buf = mem_alloc_atomic(len + 1);
        for (size_t n = 0; n <= len; n++) {
            memcpy(buf, prog, n);
            buf[n] = '\0';
            check_robust(buf, &nerrors);
        }
        for (size_t i = 0; i < len; i++) {
            memcpy(buf, prog, i);
            memcpy(buf + i, prog + i + 1, len - i);
            check_robust(buf, &nerrors);
        }
        /* Most damaged programs fail; the check is that each failure is a clean one. */
        CU_ASSERT_TRUE(nerrors > (int)len / 2);
    }
}

UNIT_SUITE(py_parser)
{
    CU_pSuite s = CU_add_suite("py_parser", 0, 0);
    CU_add_test(s, "lex indentation", test_lex_indentation);
    CU_add_test(s, "lex lines", test_lex_lines);
    CU_add_test(s, "lex numbers", test_lex_numbers);
    CU_add_test(s, "lex strings", test_lex_strings);
    CU_add_test(s, "lex operators", test_lex_operators);
    CU_add_test(s, "precedence", test_precedence);
    CU_add_test(s, "primaries", test_primaries);
    CU_add_test(s, "def and class", test_def_and_class);
    CU_add_test(s, "compound statements", test_compound);
    CU_add_test(s, "simple statements", test_simple);
    CU_add_test(s, "spans", test_spans);
    CU_add_test(s, "parenthesized spans", test_paren_spans);
    CU_add_test(s, "py_parse_expr", test_parse_expr);
    CU_add_test(s, "lex errors", test_lex_errors);
    CU_add_test(s, "indent errors", test_indent_errors);
    CU_add_test(s, "syntax errors", test_syntax_errors);
    CU_add_test(s, "unsupported syntax", test_unsupported);
    CU_add_test(s, "too deep", test_too_deep);
    CU_add_test(s, "long chains", test_long_chains);
    CU_add_test(s, "robustness", test_robust);
}
