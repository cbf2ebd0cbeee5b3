/* error: the one error path; every user-facing error passes through error_raise.
 * SPEC_NOTES: "Error codes" and "Exit codes". */
#include "ast/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"

static const char *const phase_names[] = {
    [PHASE_PARSE] = "parse",
    [PHASE_WELLFORMED] = "wellformed",
    [PHASE_STRUCT_INFO] = "struct_info",
    [PHASE_RUNTIME] = "runtime",
    [PHASE_USAGE] = "usage",
    [PHASE_IO] = "io",
    [PHASE_CASE] = "case",
};

static const int phase_exit_codes[] = {
    [PHASE_PARSE] = 4, [PHASE_WELLFORMED] = 5, [PHASE_STRUCT_INFO] = 6, [PHASE_RUNTIME] = 7,
    [PHASE_USAGE] = 2, [PHASE_IO] = 3,         [PHASE_CASE] = 3,
};

noreturn void error_raise(ErrorTrap *trap, Phase phase, const char *code, const char *rule,
                          Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *msg = mem_alloc_atomic((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    rule_fired(rule); /* an error names the rule it enforces */
    trap->error.phase = phase;
    trap->error.code = code;
    trap->error.rule = rule;
    trap->error.span = span;
    trap->error.message = msg;
    longjmp(trap->jmp, 1);
}

static char *format_as(const Error *e, const char *kind)
{
    StrBuf sb;
    strbuf_init(&sb);
    if (e->span.file != NULL) {
        strbuf_add(&sb, e->span.file);
        if (e->span.line > 0)
            strbuf_addf(&sb, ":%d:%d", e->span.line, e->span.col);
        strbuf_add(&sb, ": ");
    }
    strbuf_addf(&sb, "%s %s [%s", error_phase_name(e->phase), kind, e->code ? e->code : "Error");
    if (e->rule != NULL)
        strbuf_addf(&sb, " %s", e->rule);
    strbuf_addf(&sb, "]: %s", e->message ? e->message : "");
    return strbuf_str(&sb);
}

char *error_format(const Error *e)
{
    return format_as(e, "error");
}

char *error_format_warning(const Error *w)
{
    return format_as(w, "warning");
}

/* ---- the long form ---- */

#define SGR_RESET "\033[0m"
#define SGR_ERROR "\033[1;31m"
#define SGR_WARNING "\033[1;33m"
#define SGR_GUTTER "\033[1;34m"
#define SGR_HINT "\033[1;36m"

/* Line `line` (1-based) of `text` and its length, or NULL when the text is shorter. */
static const char *nth_line(const char *text, int line, size_t *len)
{
    const char *p = text;
    for (int i = 1; i < line; i++) {
        p = strchr(p, '\n');
        if (p == NULL)
            return NULL;
        p++;
    }
    if (*p == '\0')
        return NULL;
    *len = strcspn(p, "\n");
    if (*len > 0 && p[*len - 1] == '\r')
        (*len)--;
    return p;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* The columns the caret range covers: the span's own extent when it has one on this line,
 * else the (dotted) word that starts at the span, else one column. */
static size_t caret_width(const Span *sp, const char *line, size_t len)
{
    size_t at = (size_t)sp->col - 1;
    if (sp->end_line == sp->line && sp->end_col > sp->col)
        return (size_t)(sp->end_col - sp->col);
    size_t n = 0;
    while (at + n < len && word_char(line[at + n]))
        n++;
    return n > 0 ? n : 1;
}

/* `  12 | source line` and `     |    ^~~~` (tabs kept, so the caret lines up). */
static void add_excerpt(StrBuf *sb, const Span *sp, const char *line, size_t len,
                        const ErrorRender *how)
{
    bool color = how->color;
    const char *g = color ? SGR_GUTTER : "", *r = color ? SGR_RESET : "";
    int width = snprintf(NULL, 0, "%d", sp->line);
    strbuf_addf(sb, "\n%s%*s |%s\n%s%d |%s ", g, width, "", r, g, sp->line, r);
    strbuf_addn(sb, line, len);
    strbuf_addf(sb, "\n%s%*s |%s ", g, width, "", r);
    size_t at = (size_t)sp->col - 1;
    for (size_t i = 0; i < at && i < len; i++)
        strbuf_addc(sb, line[i] == '\t' ? '\t' : ' ');
    size_t n = caret_width(sp, line, len);
    if (at + n > len && len > at)
        n = len - at;
    strbuf_add(sb, !color ? "" : how->warning ? SGR_WARNING : SGR_ERROR);
    strbuf_addc(sb, '^');
    for (size_t i = 1; i < n; i++)
        strbuf_addc(sb, '~');
    strbuf_add(sb, r);
}

char *error_render(const Error *e, const ErrorRender *how)
{
    StrBuf sb;
    strbuf_init(&sb);
    const char *kind = how->warning ? "warning" : "error";
    if (how->color) {
        const char *c = how->warning ? SGR_WARNING : SGR_ERROR;
        strbuf_add(&sb, format_as(e, mem_printf("%s%s%s", c, kind, SGR_RESET)));
    } else {
        strbuf_add(&sb, format_as(e, kind));
    }
    size_t len = 0;
    const char *line = how->source != NULL && e->span.line > 0
                           ? nth_line(how->source, e->span.line, &len)
                           : NULL;
    if (line != NULL && e->span.col >= 1 && (size_t)e->span.col <= len + 1)
        add_excerpt(&sb, &e->span, line, len, how);
    if (how->hint != NULL)
        strbuf_addf(&sb, "\n%s= hint:%s %s", how->color ? SGR_HINT : "",
                    how->color ? SGR_RESET : "", how->hint);
    return strbuf_str(&sb);
}

const char *error_phase_name(Phase phase)
{
    return phase_names[phase];
}

int error_phase_parse(const char *name, Phase *out)
{
    for (int i = 0; i < (int)(sizeof phase_names / sizeof phase_names[0]); i++) {
        if (strcmp(phase_names[i], name) == 0) {
            *out = (Phase)i;
            return 0;
        }
    }
    return -1;
}

int error_exit_code(Phase phase)
{
    return phase_exit_codes[phase];
}

Span span_make(const char *file, int line, int col)
{
    Span s = {file, line, col, line, col};
    return s;
}

Span span_none(void)
{
    Span s = {NULL, 0, 0, 0, 0};
    return s;
}
