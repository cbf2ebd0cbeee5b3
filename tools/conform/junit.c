/* junit: the conformance run as JUnit XML; KNOWN and SKIP become <skipped> (type KNOWN with
 * the known-failures.txt reason, or SKIP), FAIL and WRONG-PHASE <failure>, a broken case file
 * or a stale known-failures.txt line an <error>. SPEC_NOTES: "Exit codes". */
#include "tools/conform/junit.h"

#include <stdio.h>
#include <string.h>

#include "ast/mem.h"

static void add_escaped(StrBuf *sb, const char *s)
{
    for (; s != NULL && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '&')
            strbuf_add(sb, "&amp;");
        else if (ch == '<')
            strbuf_add(sb, "&lt;");
        else if (ch == '>')
            strbuf_add(sb, "&gt;");
        else if (ch == '"')
            strbuf_add(sb, "&quot;");
        else if (ch == '\n')
            strbuf_add(sb, "&#10;");
        else if (ch < 0x20 && ch != '\t')
            strbuf_addc(sb, '?'); /* not allowed in XML 1.0 */
        else
            strbuf_addc(sb, (char)ch);
    }
}

static bool is_failure(Outcome o)
{
    return o == OUTCOME_EARLY || o == OUTCOME_FAIL || o == OUTCOME_WRONG_PHASE;
}

static void add_testcase(StrBuf *sb, const ReportEntry *e)
{
    strbuf_add(sb, "    <testcase classname=\"");
    add_escaped(sb, e->file);
    strbuf_add(sb, "\" name=\"");
    add_escaped(sb, e->id ? e->id : "(file)");
    strbuf_addf(sb, "\" time=\"%.3f\"", e->seconds);
    if (e->outcome == OUTCOME_PASS) {
        strbuf_add(sb, "/>\n");
        return;
    }
    const char *tag = e->id == NULL ? "error" : is_failure(e->outcome) ? "failure" : "skipped";
    strbuf_addf(sb, ">\n      <%s type=\"%s\" message=\"", tag, runner_outcome_name(e->outcome));
    /* The known-failure ledger's state is part of the verdict. */
    if (e->outcome == OUTCOME_KNOWN)
        add_escaped(sb, "known failure (known-failures.txt): ");
    add_escaped(sb, e->reason);
    strbuf_add(sb, "\"/>\n    </testcase>\n");
}

/* Entries [from, to) of one file. */
static void add_suite(StrBuf *sb, const ReportEntry *entries, int from, int to)
{
    int failures = 0, skipped = 0, errors = 0;
    for (int i = from; i < to; i++) {
        if (entries[i].id == NULL)
            errors++;
        else if (is_failure(entries[i].outcome))
            failures++;
        else if (entries[i].outcome != OUTCOME_PASS)
            skipped++;
    }
    strbuf_add(sb, "  <testsuite name=\"");
    add_escaped(sb, entries[from].file);
    strbuf_addf(sb, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", to - from,
                failures, errors, skipped);
    for (int i = from; i < to; i++)
        add_testcase(sb, &entries[i]);
    strbuf_add(sb, "  </testsuite>\n");
}

char *junit_render(const ReportEntry *entries, int n)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    strbuf_add(&sb, "<testsuites name=\"relax conformance\">\n");
    int from = 0;
    for (int i = 1; i <= n; i++) {
        if (i == n || strcmp(entries[i].file, entries[from].file) != 0) {
            add_suite(&sb, entries, from, i);
            from = i;
        }
    }
    strbuf_add(&sb, "</testsuites>\n");
    return strbuf_str(&sb);
}

bool junit_write(const char *path, const ReportEntry *entries, int n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    char *xml = junit_render(entries, n);
    bool ok = fputs(xml, f) >= 0;
    return fclose(f) == 0 && ok;
}
