/* known_failures: the list of cases expected to fail, kept as data with one reason a line;
 * a listed case that starts passing fails the run until its line goes. SPEC_NOTES: "Exit codes". */
#include "tools/conform/known_failures.h"

#include <ctype.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/source.h"

KnownFailures *known_failures_new(const char *path)
{
    KnownFailures *kf = MEM_NEW(KnownFailures);
    kf->path = path;
    return kf;
}

/* One non-comment line: `path#id reason...`. */
static void parse_line(KnownFailures *kf, const char *line, int lineno, ErrorTrap *trap)
{
    size_t idlen = strcspn(line, " \t");
    char *gid = mem_strndup(line, idlen);
    const char *hash = strchr(gid, '#');
    if (hash == NULL || hash == gid || hash[1] == '\0')
        error_raise(trap, PHASE_CASE, "KnownFailures", NULL, span_make(kf->path, lineno, 1),
                    "expected 'path#id reason', got '%s'", gid);
    if (known_failures_find(kf, gid) != NULL)
        error_raise(trap, PHASE_CASE, "KnownFailures", NULL, span_make(kf->path, lineno, 1),
                    "'%s' listed twice", gid);
    const char *reason = line + idlen;
    while (*reason == ' ' || *reason == '\t')
        reason++;
    KnownFailure k = {gid, mem_strdup(reason), lineno, false};
    VEC_PUSH(kf->items, kf->nitems, kf->cap, k);
}

KnownFailures *known_failures_parse(const char *path, const char *text, ErrorTrap *trap)
{
    KnownFailures *kf = known_failures_new(path);
    const char *p = text;
    for (int lineno = 1; *p != '\0'; lineno++) {
        size_t len = strcspn(p, "\n");
        char *line = mem_strndup(p, len);
        while (len > 0 && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        const char *start = line;
        while (*start == ' ' || *start == '\t')
            start++;
        if (*start != '\0' && *start != '#')
            parse_line(kf, start, lineno, trap);
        p += strcspn(p, "\n");
        if (*p == '\n')
            p++;
    }
    return kf;
}

KnownFailures *known_failures_load(const char *path, ErrorTrap *trap)
{
    return known_failures_parse(path, source_read_file(path, trap), trap);
}

KnownFailure *known_failures_find(const KnownFailures *kf, const char *global_id)
{
    for (int i = 0; i < kf->nitems; i++) {
        if (strcmp(kf->items[i].global_id, global_id) == 0)
            return &kf->items[i];
    }
    return NULL;
}

CaseResult known_failures_apply(KnownFailures *kf, const char *global_id, CaseResult r)
{
    KnownFailure *k = known_failures_find(kf, global_id);
    if (k == NULL)
        return r;
    k->seen = true;
    switch (r.outcome) {
    case OUTCOME_EARLY:
    case OUTCOME_FAIL:
    case OUTCOME_WRONG_PHASE:
        r.outcome = OUTCOME_KNOWN;
        break;
    case OUTCOME_PASS:
        r.outcome = OUTCOME_FAIL;
        r.reason = mem_printf("now passes: remove it from known-failures.txt (line %d)", k->line);
        break;
    case OUTCOME_SKIP:
    case OUTCOME_KNOWN:
        break;
    }
    return r;
}

char *known_failures_file_of(const KnownFailure *k)
{
    return mem_strndup(k->global_id, (size_t)(strrchr(k->global_id, '#') - k->global_id));
}

const char *known_failures_stale(const KnownFailure *k, CaseFile *const *files, int nfiles,
                                 bool file_exists)
{
    char *file = known_failures_file_of(k);
    const char *id = strrchr(k->global_id, '#') + 1;
    for (int i = 0; i < nfiles; i++) {
        if (strcmp(files[i]->path, file) != 0)
            continue;
        if (case_file_find(files[i], id) == NULL)
            return mem_printf("%s has no case '%s'", file, id);
        return NULL;
    }
    if (!file_exists)
        return mem_printf("no file %s", file);
    return NULL;
}
