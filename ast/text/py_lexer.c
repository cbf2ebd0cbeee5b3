/* py_lexer: turns TVMScript text into Python tokens, with indentation tracked as Python does.
 * SPEC_NOTES: "TVMScript syntax", rule PY-1 (codes BadToken, BadNumber, UnterminatedString). */
#include "ast/text/py_lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

typedef struct Lexer {
    const char *file;
    Span origin;
    bool expr_mode;
    const char *p;
    const char *line_start;
    int line;
    bool done;
    int indents[PY_MAX_INDENT + 1];     /* columns with tabs to multiples of 8 */
    int alt_indents[PY_MAX_INDENT + 1]; /* the same with tabs as one column, to catch mixes */
    int nindent;
    char open_ch[PY_MAX_BRACKETS];
    Span open_span[PY_MAX_BRACKETS];
    int depth;
    PyToken *toks;
    int n;
    int cap;
} Lexer;

typedef struct OpSpelling {
    const char *text;
    PyTokKind kind;
} OpSpelling;

/* Longest spellings first, so the first match is the longest. */
static const OpSpelling op_table[] = {
    {"**=", PYT_DOUBLESTAREQUAL},
    {"//=", PYT_DOUBLESLASHEQUAL},
    {">>=", PYT_RSHIFTEQUAL},
    {"<<=", PYT_LSHIFTEQUAL},
    {"...", PYT_ELLIPSIS},
    {"->", PYT_RARROW},
    {":=", PYT_COLONEQUAL},
    {"**", PYT_DOUBLESTAR},
    {"//", PYT_DOUBLESLASH},
    {"<<", PYT_LSHIFT},
    {">>", PYT_RSHIFT},
    {"<=", PYT_LESSEQUAL},
    {">=", PYT_GREATEREQUAL},
    {"==", PYT_EQEQUAL},
    {"!=", PYT_NOTEQUAL},
    {"+=", PYT_PLUSEQUAL},
    {"-=", PYT_MINEQUAL},
    {"*=", PYT_STAREQUAL},
    {"/=", PYT_SLASHEQUAL},
    {"%=", PYT_PERCENTEQUAL},
    {"@=", PYT_ATEQUAL},
    {"&=", PYT_AMPEREQUAL},
    {"|=", PYT_VBAREQUAL},
    {"^=", PYT_CIRCUMFLEXEQUAL},
    {"(", PYT_LPAR},
    {")", PYT_RPAR},
    {"[", PYT_LSQB},
    {"]", PYT_RSQB},
    {"{", PYT_LBRACE},
    {"}", PYT_RBRACE},
    {":", PYT_COLON},
    {",", PYT_COMMA},
    {";", PYT_SEMI},
    {".", PYT_DOT},
    {"=", PYT_EQUAL},
    {"+", PYT_PLUS},
    {"-", PYT_MINUS},
    {"*", PYT_STAR},
    {"/", PYT_SLASH},
    {"%", PYT_PERCENT},
    {"@", PYT_AT},
    {"&", PYT_AMPER},
    {"|", PYT_VBAR},
    {"^", PYT_CIRCUMFLEX},
    {"~", PYT_TILDE},
    {"<", PYT_LESS},
    {">", PYT_GREATER},
};

static const char *const keyword_names[] = {
    [PYKW_FALSE_] = "False",
    [PYKW_NONE_] = "None",
    [PYKW_TRUE_] = "True",
    [PYKW_AND] = "and",
    [PYKW_AS] = "as",
    [PYKW_ASSERT] = "assert",
    [PYKW_ASYNC] = "async",
    [PYKW_AWAIT] = "await",
    [PYKW_BREAK] = "break",
    [PYKW_CLASS] = "class",
    [PYKW_CONTINUE] = "continue",
    [PYKW_DEF] = "def",
    [PYKW_DEL] = "del",
    [PYKW_ELIF] = "elif",
    [PYKW_ELSE] = "else",
    [PYKW_EXCEPT] = "except",
    [PYKW_FINALLY] = "finally",
    [PYKW_FOR] = "for",
    [PYKW_FROM] = "from",
    [PYKW_GLOBAL] = "global",
    [PYKW_IF] = "if",
    [PYKW_IMPORT] = "import",
    [PYKW_IN] = "in",
    [PYKW_IS] = "is",
    [PYKW_LAMBDA] = "lambda",
    [PYKW_NONLOCAL] = "nonlocal",
    [PYKW_NOT] = "not",
    [PYKW_OR] = "or",
    [PYKW_PASS] = "pass",
    [PYKW_RAISE] = "raise",
    [PYKW_RETURN] = "return",
    [PYKW_TRY] = "try",
    [PYKW_WHILE] = "while",
    [PYKW_WITH] = "with",
    [PYKW_YIELD] = "yield",
};

PyKeyword py_lex_keyword(const char *name, size_t len)
{
    for (int k = PYKW_FALSE_; k <= PYKW_YIELD; k++) {
        const char *kw = keyword_names[k];
        if (kw[0] == name[0] && strlen(kw) == len && memcmp(kw, name, len) == 0)
            return (PyKeyword)k;
    }
    return PYKW_NONE;
}

static const char *const kind_names[] = {
    [PYT_END] = "end of file", [PYT_NEWLINE] = "newline", [PYT_INDENT] = "indent",
    [PYT_DEDENT] = "dedent",   [PYT_NAME] = "name",       [PYT_INT] = "integer",
    [PYT_FLOAT] = "float",     [PYT_STRING] = "string",   [PYT_ERROR] = "error",
};

const char *py_lex_kind_name(PyTokKind kind)
{
    if ((size_t)kind < sizeof kind_names / sizeof kind_names[0] && kind_names[kind] != NULL)
        return kind_names[kind];
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++) {
        if (op_table[i].kind == kind)
            return mem_printf("'%s'", op_table[i].text);
    }
    return "token";
}

/* ---- positions and token output ---- */

static int col_of(const Lexer *lx, const char *ptr)
{
    return (int)(ptr - lx->line_start) + 1;
}

/* Shifts a text-relative position so that line 1, column 1 lands on the origin. */
static void place(const Lexer *lx, int line, int col, int *out_line, int *out_col)
{
    *out_line = lx->origin.line + line - 1;
    *out_col = line == 1 ? lx->origin.col + col - 1 : col;
}

static Span span_at(const Lexer *lx, int line, int col, int end_line, int end_col)
{
    Span s;
    s.file = lx->file;
    place(lx, line, col, &s.line, &s.col);
    place(lx, end_line, end_col, &s.end_line, &s.end_col);
    return s;
}

/* A span from (line, col) to the current position. */
static Span span_to_here(const Lexer *lx, int line, int col)
{
    return span_at(lx, line, col, lx->line, col_of(lx, lx->p));
}

static PyToken *emit(Lexer *lx, PyTokKind kind, Span span)
{
    PyToken tok;
    memset(&tok, 0, sizeof tok);
    tok.kind = kind;
    tok.span = span;
    VEC_PUSH(lx->toks, lx->n, lx->cap, tok);
    return &lx->toks[lx->n - 1];
}

/* Records a lexical error as the final token; lexing stops. */
static void fail(Lexer *lx, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(Lexer *lx, const char *code, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[256];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    PyToken *tok = emit(lx, PYT_ERROR, span);
    tok->text = mem_strdup(buf);
    tok->error_code = code;
    tok->int_value = PYLEX_ERR_OVERRIDES;
    lx->done = true;
}

static void rank_last_error(Lexer *lx, PyLexErrorRank rank)
{
    if (lx->n > 0 && lx->toks[lx->n - 1].kind == PYT_ERROR)
        lx->toks[lx->n - 1].int_value = rank;
}

static void fail_here(Lexer *lx, const char *code, const char *fmt, const char *arg)
{
    int col = col_of(lx, lx->p);
    fail(lx, code, span_at(lx, lx->line, col, lx->line, col + 1), fmt, arg);
}

static bool is_newline_char(char c)
{
    return c == '\n' || c == '\r';
}

/* Consumes one line ending (\n, \r\n or \r) and starts the next line. */
static void next_line(Lexer *lx)
{
    if (lx->p[0] == '\r' && lx->p[1] == '\n')
        lx->p++;
    lx->p++;
    lx->line++;
    lx->line_start = lx->p;
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit_in(char c, int base)
{
    if (base == 16)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return c >= '0' && c < '0' + base;
}

/* ---- numbers ---- */

/* digits -> digit (['_'] digit)*; false (and the error recorded) on a misplaced '_'. */
static bool scan_digits(Lexer *lx, int base, int line, int col)
{
    while (true) {
        if (is_digit_in(*lx->p, base)) {
            lx->p++;
        } else if (*lx->p == '_' && is_digit_in(lx->p[1], base)) {
            lx->p += 2;
        } else if (*lx->p == '_') {
            lx->p++;
            fail(lx, "BadNumber", span_to_here(lx, line, col), "invalid number literal");
            return false;
        } else {
            return true;
        }
    }
}

/* Accumulates the digits of [start, end), skipping '_'; false when beyond int64. */
static bool int_value_of(const char *start, const char *end, int base, int64_t *out)
{
    uint64_t v = 0;
    for (const char *q = start; q < end; q++) {
        if (*q == '_')
            continue;
        int d = *q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = (int64_t)v;
    return true;
}

/* Python lets a number run straight into these keywords (`1if x else 2`). */
static bool keyword_follows(const char *q)
{
    static const char *const words[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strncmp(q, words[i], strlen(words[i])) == 0)
            return true;
    }
    return false;
}

/* A number must not run straight into a name: `1abc`, `0x1g`. */
static bool check_number_end(Lexer *lx, int line, int col)
{
    char c = *lx->p;
    if (keyword_follows(lx->p))
        return true;
    if (c == 'j' || c == 'J') {
        lx->p++;
        fail(lx, "UnsupportedSyntax", span_to_here(lx, line, col),
             "complex literals are not supported");
        return false;
    }
    if (is_ident_char(c) || (unsigned char)c >= 0x80) {
        lx->p++;
        fail(lx, "BadNumber", span_to_here(lx, line, col), "invalid number literal");
        return false;
    }
    return true;
}

static void emit_int(Lexer *lx, const char *start, const char *digits, int base, int col)
{
    int64_t v;
    Span span = span_to_here(lx, lx->line, col);
    if (!int_value_of(digits, lx->p, base, &v)) {
        fail(lx, "BadNumber", span, "integer literal does not fit in int64");
        return;
    }
    PyToken *tok = emit(lx, PYT_INT, span);
    tok->int_value = v;
    tok->text = mem_strndup(start, (size_t)(lx->p - start));
}

/* hexinteger | octinteger | bininteger: '0' ('x'|'o'|'b') ['_'] digit (['_'] digit)* */
static void lex_prefixed_int(Lexer *lx, const char *start, int col)
{
    char b = (char)(start[1] | 0x20);
    int base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
    lx->p = start + 2;
    if (*lx->p == '_')
        lx->p++;
    const char *digits = lx->p;
    if (!is_digit_in(*lx->p, base)) {
        fail(lx, "BadNumber", span_to_here(lx, lx->line, col), "invalid number literal");
        return;
    }
    if (!scan_digits(lx, base, lx->line, col) || !check_number_end(lx, lx->line, col))
        return;
    emit_int(lx, start, digits, base, col);
}

static void emit_float(Lexer *lx, const char *start, int col)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (const char *q = start; q < lx->p; q++) {
        if (*q != '_')
            strbuf_addc(&sb, *q);
    }
    PyToken *tok = emit(lx, PYT_FLOAT, span_to_here(lx, lx->line, col));
    tok->float_value = strtod(strbuf_str(&sb), NULL);
    tok->text = mem_strndup(start, (size_t)(lx->p - start));
}

/* number -> decinteger | floatnumber | prefixed integer; floatnumber -> digits '.' [digits]
 * [exponent] | '.' digits [exponent] | digits exponent */
static void lex_number(Lexer *lx)
{
    const char *start = lx->p;
    int col = col_of(lx, start);
    if (start[0] == '0' && strchr("xXoObB", start[1]) != NULL && start[1] != '\0') {
        lex_prefixed_int(lx, start, col);
        return;
    }
    bool is_float = false;
    if (*lx->p != '.' && !scan_digits(lx, 10, lx->line, col))
        return;
    if (*lx->p == '.') {
        lx->p++;
        is_float = true;
        if (is_digit_in(*lx->p, 10) && !scan_digits(lx, 10, lx->line, col))
            return;
    }
    if ((*lx->p == 'e' || *lx->p == 'E') && !keyword_follows(lx->p)) {
        const char *q = lx->p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (!is_digit_in(*q, 10)) {
            lx->p = q;
            fail(lx, "BadNumber", span_to_here(lx, lx->line, col), "invalid number literal");
            return;
        }
        lx->p = q;
        is_float = true;
        if (!scan_digits(lx, 10, lx->line, col))
            return;
    }
    if (!check_number_end(lx, lx->line, col))
        return;
    if (is_float) {
        emit_float(lx, start, col);
        return;
    }
    for (const char *q = start; q < lx->p && start[0] == '0'; q++) {
        if (*q != '0' && *q != '_') {
            fail(lx, "BadNumber", span_to_here(lx, lx->line, col),
                 "leading zeros in decimal integer literals are not permitted");
            return;
        }
    }
    emit_int(lx, start, start, 10, col);
}

/* ---- strings ---- */

static void add_utf8(StrBuf *sb, uint32_t cp)
{
    if (cp < 0x80) {
        strbuf_addc(sb, (char)cp);
    } else if (cp < 0x800) {
        strbuf_addc(sb, (char)(0xC0 | (cp >> 6)));
        strbuf_addc(sb, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        strbuf_addc(sb, (char)(0xE0 | (cp >> 12)));
        strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_addc(sb, (char)(0x80 | (cp & 0x3F)));
    } else {
        strbuf_addc(sb, (char)(0xF0 | (cp >> 18)));
        strbuf_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
        strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_addc(sb, (char)(0x80 | (cp & 0x3F)));
    }
}

/* Reads exactly `n` hex digits after an escape letter; false (error recorded) when short. */
static bool hex_escape(Lexer *lx, int n, uint32_t *out)
{
    const char *esc = lx->p - 1; /* the backslash */
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        char c = lx->p[1 + i];
        if (!is_digit_in(c, 16)) {
            lx->p = esc;
            fail_here(lx, "SyntaxError", "truncated \\%s escape", n == 2 ? "xXX" : "uXXXX");
            return false;
        }
        v = v * 16 + (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    lx->p += 1 + n;
    if (v > 0x10FFFF) {
        lx->p = esc;
        fail_here(lx, "SyntaxError", "illegal unicode character in \\%s escape", "U");
        return false;
    }
    *out = v;
    return true;
}

/* One escape sequence; lx->p is on the character after the backslash. Unknown escapes keep
 * their backslash, as Python keeps them. */
static bool lex_escape(Lexer *lx, StrBuf *sb)
{
    static const char simple_from[] = "\\'\"abfnrtv";
    static const char simple_to[] = "\\'\"\a\b\f\n\r\t\v";
    char c = *lx->p;
    const char *hit = c != '\0' ? strchr(simple_from, c) : NULL;
    uint32_t cp = 0;
    if (is_newline_char(c)) {
        next_line(lx);
        return true;
    }
    if (hit != NULL) {
        strbuf_addc(sb, simple_to[hit - simple_from]);
        lx->p++;
        return true;
    }
    if (c >= '0' && c <= '7') {
        for (int i = 0; i < 3 && *lx->p >= '0' && *lx->p <= '7'; i++)
            cp = cp * 8 + (uint32_t)(*lx->p++ - '0');
        add_utf8(sb, cp);
        return true;
    }
    if (c == 'x' || c == 'u' || c == 'U') {
        if (!hex_escape(lx, c == 'x' ? 2 : c == 'u' ? 4 : 8, &cp))
            return false;
        add_utf8(sb, cp);
        return true;
    }
    if (c == 'N') {
        lx->p--;
        fail_here(lx, "UnsupportedSyntax", "%s escapes are not supported", "\\N{...}");
        return false;
    }
    strbuf_addc(sb, '\\');
    return true;
}

typedef struct StringStart {
    int line;
    int col;
    char quote;
    bool triple;
    bool raw;
} StringStart;

static void unterminated(Lexer *lx, const StringStart *st)
{
    fail(lx, "UnterminatedString", span_at(lx, st->line, st->col, st->line, st->col + 1),
         st->triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
}

/* The body of a string after its opening quote(s); false when it does not close. */
static bool scan_string_body(Lexer *lx, const StringStart *st, StrBuf *sb)
{
    while (true) {
        char c = *lx->p;
        if (c == '\0' || (is_newline_char(c) && !st->triple)) {
            unterminated(lx, st);
            return false;
        }
        if (is_newline_char(c)) {
            strbuf_addc(sb, '\n');
            next_line(lx);
        } else if (c == st->quote && (!st->triple || (lx->p[1] == c && lx->p[2] == c))) {
            lx->p += st->triple ? 3 : 1;
            return true;
        } else if (c == '\\' && st->raw) {
            strbuf_addc(sb, '\\');
            lx->p++;
            if (is_newline_char(*lx->p)) {
                strbuf_addc(sb, '\n');
                next_line(lx);
            } else if (*lx->p == st->quote || *lx->p == '\\') {
                strbuf_addc(sb, *lx->p++);
            }
        } else if (c == '\\') {
            lx->p++;
            if (*lx->p == '\0') {
                unterminated(lx, st);
                return false;
            }
            if (!lex_escape(lx, sb))
                return false;
        } else {
            strbuf_addc(sb, c);
            lx->p++;
        }
    }
}

/* string -> [prefix] (shortstring | longstring); prefix is r, u (bytes and f-strings are
 * outside TVMScript). `start` is the first prefix letter or the quote. */
static void lex_string(Lexer *lx, const char *start)
{
    StringStart st;
    memset(&st, 0, sizeof st);
    st.line = lx->line;
    st.col = col_of(lx, start);
    for (const char *q = start; q < lx->p; q++) {
        char c = (char)(*q | 0x20);
        if (c == 'b' || c == 'f') {
            fail(lx, "UnsupportedSyntax", span_at(lx, st.line, st.col, st.line, st.col + 1),
                 c == 'b' ? "bytes literals are not supported" : "f-strings are not supported");
            rank_last_error(lx, PYLEX_ERR_DEFERRED);
            return;
        }
        st.raw = st.raw || c == 'r';
    }
    st.quote = *lx->p;
    st.triple = lx->p[1] == st.quote && lx->p[2] == st.quote;
    lx->p += st.triple ? 3 : 1;
    StrBuf sb;
    strbuf_init(&sb);
    if (!scan_string_body(lx, &st, &sb))
        return;
    PyToken *tok = emit(lx, PYT_STRING, span_to_here(lx, st.line, st.col));
    tok->text = sb.len > 0 ? strbuf_str(&sb) : "";
    tok->text_len = sb.len;
}

/* A name, or a string prefix when a quote follows directly. */
static bool is_string_prefix(const char *s, size_t len)
{
    static const char *const prefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
    if (len > 2)
        return false;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (strlen(prefixes[i]) != len)
            continue;
        size_t k = 0;
        while (k < len && (s[k] | 0x20) == prefixes[i][k])
            k++;
        if (k == len)
            return true;
    }
    return false;
}

static void lex_name(Lexer *lx)
{
    const char *start = lx->p;
    while (is_ident_char(*lx->p))
        lx->p++;
    size_t len = (size_t)(lx->p - start);
    if ((*lx->p == '\'' || *lx->p == '"') && is_string_prefix(start, len)) {
        lex_string(lx, start);
        return;
    }
    if ((unsigned char)*lx->p >= 0x80) {
        fail_here(lx, "BadToken", "%s", "non-ascii character in identifier");
        return;
    }
    PyToken *tok = emit(lx, PYT_NAME, span_to_here(lx, lx->line, col_of(lx, start)));
    tok->text = mem_strndup(start, len);
    tok->kw = py_lex_keyword(start, len);
}

/* ---- operators and brackets ---- */

static void open_bracket(Lexer *lx, char ch, Span span)
{
    if (lx->depth == PY_MAX_BRACKETS) {
        fail(lx, "TooDeep", span, "too many nested parentheses");
        return;
    }
    lx->open_ch[lx->depth] = ch;
    lx->open_span[lx->depth] = span;
    lx->depth++;
}

static void close_bracket(Lexer *lx, char ch, Span span)
{
    static const char opens[] = "([{";
    static const char closes[] = ")]}";
    if (lx->depth == 0) {
        fail(lx, "SyntaxError", span, "unmatched '%c'", ch);
        return;
    }
    char open = lx->open_ch[lx->depth - 1];
    if (strchr(closes, ch) - closes != strchr(opens, open) - opens) {
        fail(lx, "SyntaxError", span,
             "closing parenthesis '%c' does not match opening parenthesis '%c'", ch, open);
        return;
    }
    lx->depth--;
}

static void lex_operator(Lexer *lx)
{
    const char *start = lx->p;
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++) {
        /* The first character rules out most of the table before any string call. */
        if (op_table[i].text[0] != *start)
            continue;
        size_t len = strlen(op_table[i].text);
        if (strncmp(start, op_table[i].text, len) != 0)
            continue;
        lx->p += len;
        Span span = span_to_here(lx, lx->line, col_of(lx, start));
        if (len == 1 && strchr("([{", *start) != NULL)
            open_bracket(lx, *start, span);
        if (len == 1 && strchr(")]}", *start) != NULL)
            close_bracket(lx, *start, span);
        if (!lx->done)
            emit(lx, op_table[i].kind, span);
        return;
    }
    unsigned char c = (unsigned char)*start;
    if (c >= 0x80)
        fail_here(lx, "BadToken", "%s", "non-ascii character outside a string or comment");
    else if (c >= 0x20 && c < 0x7f)
        fail(lx, "BadToken", span_to_here(lx, lx->line, col_of(lx, start)),
             "invalid character '%c'", c);
    else
        fail(lx, "BadToken", span_to_here(lx, lx->line, col_of(lx, start)),
             "invalid character (byte 0x%02x)", c);
}

/* ---- lines and indentation ---- */

static void indent_to(Lexer *lx, int col, int alt, Span span)
{
    int top = lx->indents[lx->nindent - 1];
    int alt_top = lx->alt_indents[lx->nindent - 1];
    if (col > top) {
        if (alt <= alt_top) {
            fail(lx, "BadIndent", span, "inconsistent use of tabs and spaces in indentation");
            return;
        }
        if (lx->nindent > PY_MAX_INDENT) {
            fail(lx, "TooDeep", span, "too many levels of indentation");
            return;
        }
        lx->indents[lx->nindent] = col;
        lx->alt_indents[lx->nindent] = alt;
        lx->nindent++;
        emit(lx, PYT_INDENT, span);
        return;
    }
    while (lx->nindent > 1 && col < lx->indents[lx->nindent - 1]) {
        lx->nindent--;
        emit(lx, PYT_DEDENT, span);
    }
    if (col != lx->indents[lx->nindent - 1]) {
        fail(lx, "BadIndent", span, "unindent does not match any outer indentation level");
        return;
    }
    if (alt != lx->alt_indents[lx->nindent - 1])
        fail(lx, "BadIndent", span, "inconsistent use of tabs and spaces in indentation");
}

/* At the start of a physical line outside brackets: measures the indentation, skips blank
 * and comment-only lines, and emits INDENT/DEDENT. */
static void lex_line_start(Lexer *lx)
{
    while (!lx->done) {
        int col = 0;
        int alt = 0;
        for (;; lx->p++) {
            if (*lx->p == ' ') {
                col++;
                alt++;
            } else if (*lx->p == '\t') {
                col = (col / 8 + 1) * 8;
                alt++;
            } else if (*lx->p == '\f') {
                col = alt = 0;
            } else {
                break;
            }
        }
        if (*lx->p == '#') {
            while (*lx->p != '\0' && !is_newline_char(*lx->p))
                lx->p++;
        }
        if (*lx->p == '\0')
            return;
        if (is_newline_char(*lx->p)) {
            next_line(lx);
            continue;
        }
        int c = col_of(lx, lx->p);
        indent_to(lx, col, alt, span_at(lx, lx->line, 1, lx->line, c));
        rank_last_error(lx, PYLEX_ERR_DEFERRED);
        return;
    }
}

static void lex_end(Lexer *lx)
{
    int col = col_of(lx, lx->p);
    Span here = span_at(lx, lx->line, col, lx->line, col);
    if (lx->depth > 0) {
        char ch = lx->open_ch[lx->depth - 1];
        fail(lx, "SyntaxError", lx->open_span[lx->depth - 1], "'%c' was never closed", ch);
        rank_last_error(lx, PYLEX_ERR_UNCLOSED);
        return;
    }
    if (!lx->expr_mode && lx->n > 0 && lx->toks[lx->n - 1].kind != PYT_NEWLINE)
        emit(lx, PYT_NEWLINE, here);
    for (; lx->nindent > 1; lx->nindent--)
        emit(lx, PYT_DEDENT, here);
    emit(lx, PYT_END, here);
    lx->done = true;
}

static void lex_backslash(Lexer *lx)
{
    if (is_newline_char(lx->p[1])) {
        lx->p++;
        next_line(lx);
        return;
    }
    fail_here(lx, "SyntaxError", "%s",
              lx->p[1] == '\0' ? "unexpected end of file after line continuation"
                               : "unexpected character after line continuation character");
    rank_last_error(lx, PYLEX_ERR_DEFERRED);
}

/* Lexes one token (or skips whitespace, a comment or a line break); returns true when a
 * new logical line starts. */
static bool lex_step(Lexer *lx)
{
    char c = *lx->p;
    if (c == ' ' || c == '\t' || c == '\f') {
        lx->p++;
    } else if (c == '#') {
        while (*lx->p != '\0' && !is_newline_char(*lx->p))
            lx->p++;
    } else if (is_newline_char(c)) {
        if (lx->depth > 0 || lx->expr_mode) {
            next_line(lx);
            return false;
        }
        int col = col_of(lx, lx->p);
        emit(lx, PYT_NEWLINE, span_at(lx, lx->line, col, lx->line, col + 1));
        next_line(lx);
        return true;
    } else if (c == '\\') {
        lex_backslash(lx);
    } else if (c == '\0') {
        lex_end(lx);
    } else if (is_ident_start(c)) {
        lex_name(lx);
    } else if (is_digit_in(c, 10) || (c == '.' && is_digit_in(lx->p[1], 10))) {
        lex_number(lx);
    } else if (c == '\'' || c == '"') {
        lex_string(lx, lx->p);
    } else {
        lex_operator(lx);
    }
    return false;
}

PyTokens py_lex_tokens(const char *file, const char *text, Span origin, bool expr_mode)
{
    Lexer *lx = MEM_NEW(Lexer);
    lx->file = file;
    lx->origin = origin;
    if (lx->origin.line <= 0) {
        lx->origin.line = 1;
        lx->origin.col = 1;
    }
    lx->expr_mode = expr_mode;
    lx->p = text;
    if (strncmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark, as Python skips */
        lx->p += 3;
    lx->line_start = lx->p;
    lx->line = 1;
    lx->nindent = 1;
    bool at_line_start = !expr_mode;
    while (!lx->done) {
        if (at_line_start)
            lex_line_start(lx);
        at_line_start = false;
        if (!lx->done)
            at_line_start = lex_step(lx);
    }
    PyTokens out = {lx->toks, lx->n};
    return out;
}
