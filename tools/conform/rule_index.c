/* rule_index: reads SPEC_NOTES.md's rule tables and counts the corpus cases naming each id,
 * so a test can demand that the two agree. SPEC_NOTES: "Rule ids". */
#include "tools/conform/rule_index.h"

#include <string.h>

#include "ast/mem.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/cli/source.h"

static int find(const RuleIndex *ri, const char *id)
{
    for (int i = 0; i < ri->n; i++)
        if (strcmp(ri->ids[i], id) == 0)
            return i;
    return -1;
}

bool rule_index_has(const RuleIndex *ri, const char *id)
{
    return find(ri, id) >= 0;
}

/* The first cell of a table row, without backticks and padding; NULL for header and
 * separator rows. */
static const char *first_cell(const char *line, size_t len)
{
    if (len < 2 || line[0] != '|')
        return NULL;
    const char *start = line + 1;
    const char *end = memchr(start, '|', len - 1);
    if (end == NULL)
        return NULL;
    while (start < end && (*start == ' ' || *start == '`'))
        start++;
    while (end > start && (end[-1] == ' ' || end[-1] == '`'))
        end--;
    if (end == start || *start == '-' || (end - start == 2 && strncmp(start, "id", 2) == 0))
        return NULL;
    return mem_strndup(start, (size_t)(end - start));
}

static void add_id(RuleIndex *ri, const char *id)
{
    if (find(ri, id) >= 0)
        return;
    int cap = ri->cap;
    VEC_PUSH(ri->ids, ri->n, ri->cap, id);
    ri->n--;
    ri->cap = cap;
    VEC_PUSH(ri->counts, ri->n, ri->cap, 0);
}

RuleIndex *rule_index_load(const char *spec_notes_path, ErrorTrap *trap)
{
    const char *text = source_read_file(spec_notes_path, trap);
    RuleIndex *ri = MEM_NEW(RuleIndex);
    bool in_rules = false;
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (strncmp(line, "## ", 3) == 0)
            in_rules = strncmp(line, "## 1. Rule ids", 14) == 0;
        else if (in_rules) {
            const char *id = first_cell(line, len);
            if (id != NULL)
                add_id(ri, id);
        }
        line += len + (nl ? 1 : 0);
    }
    return ri;
}

static void count_case(RuleIndex *ri, const Case *c)
{
    for (int i = 0; i < c->nspec; i++) {
        int k = find(ri, c->spec[i]);
        if (k >= 0) {
            ri->counts[k]++;
            continue;
        }
        const char *what = mem_printf("%s: %s", c->global_id, c->spec[i]);
        VEC_PUSH(ri->unknown, ri->nunknown, ri->unknown_cap, what);
    }
}

int rule_index_count_corpus(RuleIndex *ri, const char *corpus_dir, ErrorTrap *trap)
{
    const char **paths = NULL;
    int npaths = corpus_find_files(corpus_dir, &paths, 0);
    int ncases = 0;
    for (int i = 0; i < npaths; i++) {
        CaseFile *cf = case_file_load(paths[i], trap);
        for (int j = 0; j < cf->ncases; j++)
            count_case(ri, cf->cases[j]);
        ncases += cf->ncases;
    }
    return ncases;
}
