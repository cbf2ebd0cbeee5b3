/* suggest: "did you mean" by edit distance over the names in scope, and the names a program
 * text writes. SPEC_NOTES: "Error codes". */
#include "tools/cli/suggest.h"

#include <ctype.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/ops/ops.h"

void names_add(NameList *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i], name) == 0)
            return;
    VEC_PUSH(l->items, l->n, l->cap, name);
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The dotted identifier at `s` ("R.nn.softmax", "x"); its length. */
static size_t dotted_length(const char *s)
{
    size_t i = 0;
    for (;;) {
        while (ident_char(s[i]))
            i++;
        if (s[i] != '.' || !ident_start(s[i + 1]))
            return i;
        i++;
    }
}

void names_add_identifiers(NameList *l, const char *text, int before_line)
{
    int line = 1;
    for (const char *p = text; *p != '\0';) {
        if (before_line > 0 && line >= before_line)
            return;
        if (*p == '\n') {
            line++;
            p++;
        } else if (*p == '#') {
            p += strcspn(p, "\n");
        } else if (*p == '"' || *p == '\'') {
            const char *end = strchr(p + 1, *p);
            p = end != NULL && end < p + strcspn(p, "\n") ? end + 1 : p + 1;
        } else if (ident_start(*p) && (p == text || !ident_char(p[-1]))) {
            size_t n = dotted_length(p);
            names_add(l, mem_strndup(p, n));
            p += n;
        } else {
            p++;
        }
    }
}

void names_add_defs(NameList *l, const char *text)
{
    for (const char *p = strstr(text, "def "); p != NULL; p = strstr(p + 4, "def ")) {
        if (p != text && ident_char(p[-1]))
            continue;
        const char *name = p + 4 + strspn(p + 4, " ");
        size_t n = 0;
        while (ident_char(name[n]))
            n++;
        if (n > 0)
            names_add(l, mem_strndup(name, n));
    }
}

void names_add_operators(NameList *l)
{
    int n;
    const OpImpl *const *all = ops_all(&n);
    for (int i = 0; i < n; i++) {
        const char *name = all[i]->name;
        names_add(l, name);
        if (strncmp(name, "relax.", 6) == 0)
            names_add(l, mem_printf("R.%s", name + 6));
    }
}

/* Optimal string alignment: a swap of two neighbours ("mian") counts as one edit. */
int suggest_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), w = nb + 1;
    int *d = mem_alloc_atomic(sizeof(int) * (na + 1) * w);
    for (size_t i = 0; i <= na; i++)
        for (size_t j = 0; j <= nb; j++) {
            if (i == 0 || j == 0) {
                d[i * w + j] = (int)(i + j);
                continue;
            }
            int best = d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);
            if (d[(i - 1) * w + j] + 1 < best)
                best = d[(i - 1) * w + j] + 1;
            if (d[i * w + j - 1] + 1 < best)
                best = d[i * w + j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[(i - 2) * w + j - 2] + 1 < best)
                best = d[(i - 2) * w + j - 2] + 1;
            d[i * w + j] = best;
        }
    return d[na * w + nb];
}

const char *suggest_closest(const char *name, const NameList *candidates)
{
    int limit = (int)strlen(name) / 3;
    if (limit < 1)
        limit = 1;
    const char *best = NULL;
    int best_d = limit + 1;
    for (int i = 0; i < candidates->n; i++) {
        int d = suggest_distance(name, candidates->items[i]);
        if (d == 0)
            continue; /* the name itself, as written at the error */
        if (d < best_d) {
            best_d = d;
            best = candidates->items[i];
        }
    }
    return best;
}
