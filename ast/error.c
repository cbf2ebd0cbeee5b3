/* error: the one error path; every user-facing error passes through error_raise.
 * SPEC_NOTES: "Error codes" and "Exit codes". */
#include "ast/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"

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
