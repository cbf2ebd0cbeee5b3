/* report: the conformance run's results for machines and people besides the outcome lines:
 * TAP 14, JSON Lines, the per-chapter and per-tag summary, the scoreboard (Markdown).
 * SPEC_NOTES: "The conformance runner"; formats in spec-tests/README.md. */
#include "tools/conform/report.h"

#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

static const char *global_id(const ReportEntry *e)
{
    return e->id ? mem_printf("%s#%s", e->file, e->id) : e->file;
}

static bool failed(Outcome o)
{
    return o == OUTCOME_EARLY || o == OUTCOME_FAIL || o == OUTCOME_WRONG_PHASE;
}

static const char *first_line(const char *s)
{
    if (s == NULL)
        return "";
    return mem_strndup(s, strcspn(s, "\n"));
}

/* ---- TAP 14 ---- */

/* A test point's description: `#` and `\` escaped, one line. */
static void add_tap_text(StrBuf *sb, const char *s)
{
    for (; *s && *s != '\n'; s++) {
        if (*s == '#' || *s == '\\')
            strbuf_addc(sb, '\\');
        strbuf_addc(sb, *s);
    }
}

static void add_tap_point(StrBuf *sb, int n, const ReportEntry *e)
{
    bool ok = !failed(e->outcome);
    strbuf_addf(sb, "%s %d - ", ok ? "ok" : "not ok", n);
    add_tap_text(sb, global_id(e));
    if (e->outcome == OUTCOME_SKIP || e->outcome == OUTCOME_KNOWN) {
        strbuf_add(sb, e->outcome == OUTCOME_SKIP ? " # SKIP " : " # TODO known failure: ");
        add_tap_text(sb, e->reason ? e->reason : "");
    }
    strbuf_addc(sb, '\n');
    if (ok)
        return;
    /* The YAML diagnostic block: JSON strings are YAML flow scalars. */
    strbuf_addf(sb, "  ---\n  outcome: %s\n  message: ", runner_outcome_name(e->outcome));
    report_json_string(sb, e->reason ? e->reason : "");
    strbuf_add(sb, "\n  ...\n");
}

char *report_tap(const Report *r)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "TAP version 14\n1..%d\n", r->n);
    for (int i = 0; i < r->n; i++)
        add_tap_point(&sb, i + 1, &r->entries[i]);
    if (r->not_run > 0)
        strbuf_addf(&sb, "# %d selected cases were not run\n", r->not_run);
    return strbuf_str(&sb);
}

/* ---- JSON Lines ---- */

void report_json_string(StrBuf *sb, const char *s)
{
    strbuf_addc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            strbuf_addf(sb, "\\%c", *p);
        else if (*p == '\n')
            strbuf_add(sb, "\\n");
        else if (*p == '\t')
            strbuf_add(sb, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            strbuf_addf(sb, "\\u%04x", *p);
        else
            strbuf_addc(sb, (char)*p);
    }
    strbuf_addc(sb, '"');
}

static void add_json_or_null(StrBuf *sb, const char *s)
{
    if (s == NULL)
        strbuf_add(sb, "null");
    else
        report_json_string(sb, s);
}

static void add_json_list(StrBuf *sb, const char *const *items, int n)
{
    strbuf_addc(sb, '[');
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_addc(sb, ',');
        report_json_string(sb, items[i]);
    }
    strbuf_addc(sb, ']');
}

/* The expectation of the case's first run: kind, and an error's phase and code. */
static void add_json_expect(StrBuf *sb, const Case *c)
{
    const Expect *e = c != NULL && c->nruns > 0 ? &c->runs[0].expect : NULL;
    strbuf_add(sb, ",\"expect\":");
    add_json_or_null(sb, e ? case_expect_kind_name(e->kind) : NULL);
    bool err = e != NULL && e->kind == EXPECT_ERROR;
    strbuf_add(sb, ",\"phase\":");
    add_json_or_null(sb, err ? error_phase_name(e->error_phase) : NULL);
    strbuf_add(sb, ",\"code\":");
    add_json_or_null(sb, err ? e->error_code : NULL);
}

static void add_json_entry(StrBuf *sb, const ReportEntry *e)
{
    strbuf_add(sb, "{\"id\":");
    report_json_string(sb, global_id(e));
    strbuf_add(sb, ",\"file\":");
    report_json_string(sb, e->file);
    strbuf_add(sb, ",\"case\":");
    add_json_or_null(sb, e->id);
    strbuf_add(sb, ",\"outcome\":");
    report_json_string(sb, runner_outcome_name(e->outcome));
    add_json_expect(sb, e->c);
    strbuf_add(sb, ",\"spec\":");
    add_json_list(sb, e->c ? e->c->spec : NULL, e->c ? e->c->nspec : 0);
    strbuf_add(sb, ",\"tags\":");
    add_json_list(sb, e->c ? e->c->tags : NULL, e->c ? e->c->ntags : 0);
    strbuf_addf(sb, ",\"time\":%.6f,\"message\":", e->seconds);
    add_json_or_null(sb, e->reason);
    strbuf_add(sb, "}\n");
}

char *report_jsonl(const Report *r)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < r->n; i++)
        add_json_entry(&sb, &r->entries[i]);
    return strbuf_str(&sb);
}

/* ---- tallies by chapter and by tag ---- */

typedef struct Tally {
    const char *name;
    int pass, fail, skip, known;
    int early; /* of fail: rejected in an earlier phase than the spec's */
} Tally;

typedef struct Tallies {
    Tally *items;
    int n, cap;
} Tallies;

static Tally *tally_of(Tallies *t, const char *name)
{
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->items[i].name, name) == 0)
            return &t->items[i];
    }
    Tally fresh = {name, 0, 0, 0, 0, 0};
    VEC_PUSH(t->items, t->n, t->cap, fresh);
    return &t->items[t->n - 1];
}

static void count(Tally *t, Outcome o)
{
    switch (o) {
    case OUTCOME_PASS:
        t->pass++;
        return;
    case OUTCOME_SKIP:
        t->skip++;
        return;
    case OUTCOME_KNOWN:
        t->known++;
        return;
    case OUTCOME_EARLY:
        t->early++;
        t->fail++;
        return;
    case OUTCOME_FAIL:
    case OUTCOME_WRONG_PHASE:
        t->fail++;
        return;
    }
}

/* "spec-tests/eval/x.yaml" -> "eval"; a file elsewhere is its own chapter. */
static const char *chapter_of(const char *file)
{
    const char *p = strncmp(file, "spec-tests/", 11) == 0 ? file + 11 : file;
    const char *slash = strchr(p, '/');
    return slash ? mem_strndup(p, (size_t)(slash - p)) : p;
}

static int cmp_tally(const void *a, const void *b)
{
    return strcmp(((const Tally *)a)->name, ((const Tally *)b)->name);
}

static void tally(const Report *r, Tallies *chapters, Tallies *tags, Tally *total)
{
    memset(chapters, 0, sizeof *chapters);
    memset(tags, 0, sizeof *tags);
    memset(total, 0, sizeof *total);
    total->name = "total";
    for (int i = 0; i < r->n; i++) {
        const ReportEntry *e = &r->entries[i];
        count(total, e->outcome);
        count(tally_of(chapters, chapter_of(e->file)), e->outcome);
        for (int k = 0; e->c != NULL && k < e->c->ntags; k++)
            count(tally_of(tags, e->c->tags[k]), e->outcome);
    }
    if (chapters->n > 1)
        qsort(chapters->items, (size_t)chapters->n, sizeof(Tally), cmp_tally);
    if (tags->n > 1)
        qsort(tags->items, (size_t)tags->n, sizeof(Tally), cmp_tally);
}

static double percent(const Tally *t)
{
    int judged = t->pass + t->fail + t->known;
    return judged == 0 ? 0.0 : 100.0 * t->pass / judged;
}

static void add_text_table(StrBuf *sb, const char *title, const Tallies *t, const Tally *total)
{
    strbuf_addf(sb, "%-28s %7s %7s %7s %7s %7s %7s\n", title, "passed", "failed", "earlier",
                "known", "skipped", "pass%");
    for (int i = 0; i < t->n; i++) {
        const Tally *x = &t->items[i];
        strbuf_addf(sb, "%-28s %7d %7d %7d %7d %7d %6.1f%%\n", x->name, x->pass, x->fail - x->early,
                    x->early, x->known, x->skip, percent(x));
    }
    if (total != NULL)
        strbuf_addf(sb, "%-28s %7d %7d %7d %7d %7d %6.1f%%\n", "total", total->pass,
                    total->fail - total->early, total->early, total->known, total->skip,
                    percent(total));
}

char *report_summary(const Report *r)
{
    Tallies chapters, tags;
    Tally total;
    tally(r, &chapters, &tags, &total);
    StrBuf sb;
    strbuf_init(&sb);
    add_text_table(&sb, "chapter", &chapters, &total);
    if (tags.n > 0) {
        strbuf_addc(&sb, '\n');
        add_text_table(&sb, "tag", &tags, NULL);
    }
    return strbuf_str(&sb);
}

/* ---- the scoreboard ---- */

/* Markdown table cell text: one line, `|` escaped. */
/* The longest reason a failures table shows: a value printed in full (a whole tensor) would
 * make one row megabytes long; the case's id finds the rest. */
enum { CELL_MAX = 300 };

static void add_cell(StrBuf *sb, const char *s)
{
    int n = 0;
    for (s = first_line(s); *s; s++, n++) {
        /* cut at a character boundary (not inside a UTF-8 sequence) */
        if (n >= CELL_MAX && ((unsigned char)*s & 0xC0) != 0x80) {
            strbuf_add(sb, " ...");
            return;
        }
        if (*s == '|')
            strbuf_addc(sb, '\\');
        strbuf_addc(sb, *s);
    }
}

static void add_md_table(StrBuf *sb, const char *title, const Tallies *t)
{
    strbuf_addf(sb, "| %s | passed | failed | rejected earlier | known | skipped | pass %% |\n",
                title);
    strbuf_add(sb, "|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < t->n; i++) {
        const Tally *x = &t->items[i];
        strbuf_addf(sb, "| %s | %d | %d | %d | %d | %d | %.1f |\n", x->name, x->pass,
                    x->fail - x->early, x->early, x->known, x->skip, percent(x));
    }
}

static const char *tags_text(const Case *c)
{
    if (c == NULL || c->ntags == 0)
        return "";
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < c->ntags; i++)
        strbuf_addf(&sb, "%s%s", i ? ", " : "", c->tags[i]);
    return strbuf_str(&sb);
}

static void add_failures(StrBuf *sb, const Report *r)
{
    strbuf_add(sb, "## Failures\n\n| case | outcome | tags | reason (first line) |\n"
                   "|---|---|---|---|\n");
    for (int i = 0; i < r->n; i++) {
        const ReportEntry *e = &r->entries[i];
        if (!failed(e->outcome) && e->outcome != OUTCOME_KNOWN)
            continue;
        strbuf_add(sb, "| `");
        add_cell(sb, global_id(e));
        strbuf_addf(sb, "` | %s | ", runner_outcome_name(e->outcome));
        add_cell(sb, tags_text(e->c));
        strbuf_add(sb, " | ");
        add_cell(sb, e->reason);
        strbuf_add(sb, " |\n");
    }
}

/* A failing case tagged `tvm-bug` is its own minimal reproducer: its program is shown. */
static void add_reproducers(StrBuf *sb, const Report *r)
{
    bool header = false;
    for (int i = 0; i < r->n; i++) {
        const ReportEntry *e = &r->entries[i];
        if (e->c == NULL || !case_has_tag(e->c, "tvm-bug") || e->c->program == NULL)
            continue;
        if (!header)
            strbuf_add(sb, "\n## Reproducers of `tvm-bug` cases\n");
        header = true;
        strbuf_addf(sb, "\n### `%s` (%s)\n\n%s\n\n```python\n%s```\n", global_id(e),
                    runner_outcome_name(e->outcome), e->c->description ? e->c->description : "",
                    e->c->program);
    }
}

char *report_scoreboard(const Report *r)
{
    Tallies chapters, tags;
    Tally total;
    tally(r, &chapters, &tags, &total);
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "# Conformance scoreboard: %s\n\n", r->implementation);
    if (r->command != NULL)
        strbuf_addf(&sb, "Regenerate with `%s`.\n\n", r->command);
    strbuf_addf(&sb,
                "**%d of %d judged cases agree with the corpus (%.1f%%)**: %d passed, %d failed, "
                "%d rejected earlier (the expected error, found in an earlier phase than the "
                "spec's), %d known failures, %d skipped (the implementation lacks the phase).\n",
                total.pass, total.pass + total.fail + total.known, percent(&total), total.pass,
                total.fail - total.early, total.early, total.known, total.skip);
    if (r->not_run > 0)
        strbuf_addf(&sb, "\n%d selected cases were not run (the run was stopped).\n", r->not_run);
    strbuf_add(&sb, "\n## Per chapter\n\n");
    add_md_table(&sb, "chapter", &chapters);
    strbuf_add(&sb, "\n## Per tag\n\n");
    add_md_table(&sb, "tag", &tags);
    strbuf_addc(&sb, '\n');
    add_failures(&sb, r);
    add_reproducers(&sb, r);
    return strbuf_str(&sb);
}

bool report_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}
