/* diag: collected errors and warnings of the static checks.
 * SPEC_NOTES: "Error codes". */
#include "interp/diag.h"

#include <stdio.h>

#include "ast/mem.h"
#include "ast/rule.h"

void diag_init(DiagList *d)
{
    d->items = NULL;
    d->n = 0;
    d->cap = 0;
}

void diag_add(DiagList *d, Phase phase, const char *code, const char *rule, Span span,
              const char *fmt, ...)
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
    rule_fired(rule); /* an error or warning names the rule it enforces */
    Error e = {phase, code, rule, span, msg};
    VEC_PUSH(d->items, d->n, d->cap, e);
}

static int before(const Span *a, const Span *b)
{
    if (a->line != b->line)
        return a->line < b->line;
    return a->col < b->col;
}

const Error *diag_first(const DiagList *d)
{
    const Error *best = NULL;
    for (int i = 0; i < d->n; i++)
        if (best == NULL || before(&d->items[i].span, &best->span))
            best = &d->items[i];
    return best;
}
