/* reduce: delta debugging over a program's lines, then structure-aware rewrites, repeated
 * until none applies or the budget is spent. SPEC_NOTES 4.17 "Reducing a disagreement". */
#include "tools/reduce/reduce.h"

#include <ctype.h>
#include <string.h>

#include "ast/mem.h"

typedef struct Lines {
    char **items;
    int n;
} Lines;

typedef struct Reducer {
    ReducePredicate pred;
    void *ctx;
    int budget;
    ReduceStats *stats;
    Lines cur;
} Reducer;

static Lines split_lines(const char *text)
{
    Lines l = {NULL, 0};
    int cap = 0;
    const char *p = text;
    while (*p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
        if (l.n == cap) {
            int ncap = cap == 0 ? 64 : cap * 2;
            l.items = mem_grow(l.items, sizeof(char *) * (size_t)cap,
                               sizeof(char *) * (size_t)ncap);
            cap = ncap;
        }
        l.items[l.n++] = mem_strndup(p, len);
        p += len + (nl != NULL);
    }
    return l;
}

static char *join(const Lines *l)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < l->n; i++) {
        strbuf_add(&sb, l->items[i]);
        strbuf_addc(&sb, '\n');
    }
    return strbuf_str(&sb);
}

static Lines copy_lines(const Lines *l)
{
    Lines c = {MEM_ARRAY(char *, l->n + 1), l->n};
    memcpy(c.items, l->items, sizeof(char *) * (size_t)l->n);
    return c;
}

static int indent_of(const char *line)
{
    int i = 0;
    while (line[i] == ' ')
        i++;
    return i;
}

static bool blank(const char *line)
{
    return line[indent_of(line)] == '\0';
}

/* Tries a candidate; on success it becomes the current text. */
static bool attempt(Reducer *r, Lines cand)
{
    if (r->stats->tried >= r->budget)
        return false;
    r->stats->tried++;
    if (!r->pred(r->ctx, join(&cand)))
        return false;
    r->stats->accepted++;
    r->cur = cand;
    return true;
}

/* The lines without [from, to). */
static Lines without(const Lines *l, int from, int to)
{
    Lines c = {MEM_ARRAY(char *, l->n + 1), 0};
    for (int i = 0; i < l->n; i++)
        if (i < from || i >= to)
            c.items[c.n++] = l->items[i];
    return c;
}

/* ddmin's complement step: remove chunks of `size` lines while that keeps the property. */
static bool pass_remove_lines(Reducer *r)
{
    bool changed = false;
    for (int size = r->cur.n / 2; size >= 1; size /= 2) {
        for (int at = 0; at + size <= r->cur.n;) {
            if (attempt(r, without(&r->cur, at, at + size)))
                changed = true;
            else
                at += size;
            if (r->stats->tried >= r->budget)
                return changed;
        }
    }
    return changed;
}

/* The end (exclusive) of the block whose header is line `h`: every following line indented
 * deeper, blank lines inside included. */
static int block_end(const Lines *l, int h)
{
    int base = indent_of(l->items[h]);
    int end = h + 1;
    for (int i = h + 1; i < l->n; i++) {
        if (blank(l->items[i]))
            continue;
        if (indent_of(l->items[i]) <= base)
            break;
        end = i + 1;
    }
    return end;
}

static bool is_header(const char *line)
{
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == ' ')
        n--;
    return n > 0 && line[n - 1] == ':' && !blank(line);
}

static bool starts_with_word(const char *line, const char *word)
{
    const char *s = line + indent_of(line);
    size_t n = strlen(word);
    return strncmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == ':' || s[n] == '(');
}

/* Lines [from, to) of `l` dedented by `by`, dropping `R.output(...)` lines when `drop_output`. */
static void add_dedented(Lines *c, const Lines *l, int from, int to, int by, bool drop_output)
{
    for (int i = from; i < to; i++) {
        const char *line = l->items[i];
        if (drop_output && strncmp(line + indent_of(line), "R.output(", 9) == 0)
            continue;
        int ind = indent_of(line);
        c->items[c->n++] = ind >= by ? mem_strdup(line + by) : mem_strdup(line + ind);
    }
}

/* A block's body put in place of the block (header [h] and body [h+1, end)), and the lines
 * [end, tail_to) removed with it (an `if`'s `else` block). */
static Lines unwrap(const Lines *l, int h, int end, int tail_to, bool drop_output)
{
    Lines c = {MEM_ARRAY(char *, l->n + 1), 0};
    int by = 0;
    for (int i = h + 1; i < end; i++)
        if (!blank(l->items[i])) {
            by = indent_of(l->items[i]) - indent_of(l->items[h]);
            break;
        }
    for (int i = 0; i < h; i++)
        c.items[c.n++] = l->items[i];
    add_dedented(&c, l, h + 1, end, by, drop_output);
    for (int i = tail_to; i < l->n; i++)
        c.items[c.n++] = l->items[i];
    return c;
}

/* Blocks: each removed whole (with its decorators above it and an `if`'s `else`), or
 * replaced by its body (a dataflow block without its R.output, an if by either branch). */
static bool pass_blocks(Reducer *r)
{
    bool changed = false;
    for (int h = 0; h < r->cur.n && r->stats->tried < r->budget; h++) {
        const Lines *l = &r->cur;
        if (!is_header(l->items[h]))
            continue;
        int end = block_end(l, h);
        int tail_to = end; /* the else block's end, for an if */
        bool is_if = starts_with_word(l->items[h], "if");
        if (is_if && end < l->n && starts_with_word(l->items[end], "else") &&
            indent_of(l->items[end]) == indent_of(l->items[h]))
            tail_to = block_end(l, end);
        int from = h;
        while (from > 0 && l->items[from - 1][indent_of(l->items[from - 1])] == '@')
            from--;
        Lines snapshot = copy_lines(l);
        if (attempt(r, without(&snapshot, from, tail_to))) {
            changed = true;
            h = from - 1;
            continue;
        }
        bool dataflow = strstr(snapshot.items[h], "R.dataflow()") != NULL;
        if (starts_with_word(snapshot.items[h], "def"))
            continue; /* a function's body alone is no program */
        if (attempt(r, unwrap(&snapshot, h, end, tail_to, dataflow))) {
            changed = true;
            h--;
            continue;
        }
        if (is_if && tail_to > end) { /* the else branch instead */
            Lines c = unwrap(&snapshot, end, tail_to, tail_to, false);
            Lines d = without(&c, h, end);
            if (attempt(r, d)) {
                changed = true;
                h--;
            }
        }
    }
    return changed;
}

static bool is_name_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* A binding `x = <value>`: its value replaced by each bare name it mentions (an operand, a
 * tuple field's tuple), so a chain of operators collapses to the variable it started from. */
static bool pass_bindings(Reducer *r)
{
    bool changed = false;
    for (int i = 0; i < r->cur.n && r->stats->tried < r->budget; i++) {
        const char *line = r->cur.items[i];
        const char *s = line + indent_of(line);
        const char *eq = strstr(s, " = ");
        if (eq == NULL || !is_name_start(*s))
            continue;
        bool simple_target = true;
        for (const char *p = s; p < eq; p++)
            simple_target = simple_target && is_name_char(*p);
        if (!simple_target)
            continue;
        const char *rhs = eq + 3;
        for (const char *p = rhs; *p != '\0';) {
            if (!is_name_start(*p) || (p > rhs && (is_name_char(p[-1]) || p[-1] == '.' ||
                                                   p[-1] == '"'))) {
                p++;
                continue;
            }
            const char *q = p;
            while (is_name_char(*q))
                q++;
            bool bare = *q != '(' && *q != '.' && *q != '"' && *q != '=';
            size_t len = (size_t)(q - p);
            bool whole = strlen(rhs) == len;
            if (bare && !whole && strncmp(p, "True", len) != 0 && strncmp(p, "False", len) != 0) {
                Lines c = copy_lines(&r->cur);
                c.items[i] = mem_printf("%.*s%.*s", (int)(rhs - line), line, (int)len, p);
                if (attempt(r, c)) {
                    changed = true;
                    break;
                }
            }
            p = q;
        }
    }
    return changed;
}

/* `name` replaced by `by` wherever it stands as a whole word outside string literals. */
static char *rename_word(const char *line, const char *name, const char *by)
{
    StrBuf sb;
    strbuf_init(&sb);
    size_t n = strlen(name);
    bool in_string = false;
    for (const char *p = line; *p != '\0';) {
        if (*p == '"')
            in_string = !in_string;
        if (!in_string && strncmp(p, name, n) == 0 && !is_name_char(p[n]) &&
            (p == line || (!is_name_char(p[-1]) && p[-1] != '.'))) {
            strbuf_add(&sb, by);
            p += n;
        } else {
            strbuf_addc(&sb, *p++);
        }
    }
    return strbuf_str(&sb);
}

/* A copy `x = y` of one variable into another: removed, and x's later uses renamed y. */
static bool pass_copies(Reducer *r)
{
    bool changed = false;
    for (int i = 0; i < r->cur.n && r->stats->tried < r->budget; i++) {
        const char *line = r->cur.items[i];
        const char *s = line + indent_of(line);
        const char *eq = strstr(s, " = ");
        if (eq == NULL || !is_name_start(*s) || !is_name_start(eq[3]))
            continue;
        bool names = true;
        for (const char *p = s; p < eq; p++)
            names = names && is_name_char(*p);
        for (const char *p = eq + 3; *p != '\0'; p++)
            names = names && is_name_char(*p);
        if (!names)
            continue;
        char *target = mem_strndup(s, (size_t)(eq - s));
        const char *source = eq + 3;
        Lines c = {MEM_ARRAY(char *, r->cur.n + 1), 0};
        for (int k = 0; k < r->cur.n; k++)
            if (k != i)
                c.items[c.n++] = k < i ? r->cur.items[k]
                                       : rename_word(r->cur.items[k], target, source);
        if (attempt(r, c)) {
            changed = true;
            i--;
        }
    }
    return changed;
}

char *reduce_text(const char *text, ReducePredicate pred, void *ctx, int budget,
                  ReduceStats *stats)
{
    memset(stats, 0, sizeof *stats);
    Reducer r = {pred, ctx, budget, stats, split_lines(text)};
    stats->lines_before = r.cur.n;
    bool changed = true;
    while (changed && stats->tried < budget) {
        changed = pass_remove_lines(&r);
        changed = pass_blocks(&r) || changed;
        changed = pass_bindings(&r) || changed;
        changed = pass_copies(&r) || changed;
    }
    stats->lines_after = r.cur.n;
    return join(&r.cur);
}
