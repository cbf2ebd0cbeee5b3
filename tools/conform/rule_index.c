/* rule_index: reads SPEC_NOTES.md's rule tables and counts the corpus cases naming each id,
 * so a test can demand that the two agree; writes and reads the rules fired per case
 * (`relax conform --rules-fired`) and counts them per rule. SPEC_NOTES: "Rule ids". */
#include "tools/conform/rule_index.h"

#include <string.h>
#include <yaml.h>

#include "ast/mem.h"
#include "tools/cli/source.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/conform/report.h"
#include "tools/conform/yaml_node.h"

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

/* ---- the rules fired per case ---- */

bool rule_index_list_has(const char *const *list, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], id) == 0)
            return true;
    return false;
}

static void add_unique(const char ***list, int *n, int *cap, const char *id)
{
    if (!rule_index_list_has(*list, *n, id))
        VEC_PUSH(*list, *n, *cap, id);
}

/* The rule an expectation demands the error (or the normal-form verdict) of, or NULL. */
static const char *expected_error_rule(const Expect *e)
{
    if (e->kind == EXPECT_ERROR)
        return e->error_rule;
    if (e->kind == EXPECT_NORMAL_FORM)
        return e->nf_rule;
    return NULL;
}

static bool expects_error(const Expect *e)
{
    return e->kind == EXPECT_ERROR || (e->kind == EXPECT_NORMAL_FORM && e->nf_rule != NULL);
}

static void add_json_list(StrBuf *sb, const char *key, const char *const *items, int n)
{
    strbuf_addf(sb, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_addc(sb, ',');
        report_json_string(sb, items[i]);
    }
    strbuf_addc(sb, ']');
}

/* "E-1 E-2" -> ["E-1", "E-2"] */
static const char **split_ids(const char *text, int *n)
{
    const char **out = NULL;
    int cap = 0;
    *n = 0;
    while (text != NULL && *text != '\0') {
        const char *end = strchr(text, ' ');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        if (len > 0)
            VEC_PUSH(out, *n, cap, mem_strndup(text, len));
        text += len + (end ? 1 : 0);
    }
    return out;
}

char *rule_index_fired_line(const Case *c, const char *outcome, const char *fired)
{
    const char **named = NULL, **errors = NULL;
    int nnamed = 0, named_cap = 0, nerrors = 0, errors_cap = 0;
    bool success = false, rejects = false;
    for (int i = 0; i < c->nspec; i++)
        add_unique(&named, &nnamed, &named_cap, c->spec[i]);
    for (int i = 0; i < c->nruns; i++) {
        const Expect *e = &c->runs[i].expect;
        const char *rule = expected_error_rule(e);
        success = success || !expects_error(e);
        rejects = rejects || expects_error(e);
        if (rule == NULL)
            continue;
        add_unique(&named, &nnamed, &named_cap, rule);
        add_unique(&errors, &nerrors, &errors_cap, rule);
    }
    int nfired = 0;
    const char **ids = split_ids(fired, &nfired);
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "{\"id\":");
    report_json_string(&sb, c->global_id);
    strbuf_add(&sb, ",\"outcome\":");
    report_json_string(&sb, outcome);
    strbuf_addf(&sb, ",\"success\":%s", success ? "true" : "false");
    strbuf_addf(&sb, ",\"rejects\":%s", rejects ? "true" : "false");
    add_json_list(&sb, "named", named, nnamed);
    add_json_list(&sb, "errors", errors, nerrors);
    add_json_list(&sb, "fired", ids, nfired);
    strbuf_add(&sb, "}\n");
    return strbuf_str(&sb);
}

static const char **scalar_list(const YamlNode *seq, int *n)
{
    *n = 0;
    if (seq == NULL || seq->kind != YAML_NODE_SEQ)
        return NULL;
    const char **out = MEM_ARRAY(const char *, seq->nitems + 1);
    for (int i = 0; i < seq->nitems; i++) {
        if (seq->items[i]->kind != YAML_NODE_SCALAR)
            return NULL;
        out[(*n)++] = seq->items[i]->scalar;
    }
    return out;
}

/* One line read as a record; false when it is not one. */
static bool read_record(const char *line, FiredCase *fc)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)line, strlen(line));
    YamlNode *root = NULL;
    if (yaml_parser_load(&parser, &doc)) {
        yaml_node_t *r = yaml_document_get_root_node(&doc);
        root = r ? yaml_node_copy(&doc, r) : NULL;
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (root == NULL || root->kind != YAML_NODE_MAP)
        return false;
    const YamlNode *id = yaml_node_get(root, "id"), *outcome = yaml_node_get(root, "outcome");
    const YamlNode *named = yaml_node_get(root, "named"), *errors = yaml_node_get(root, "errors");
    const YamlNode *fired = yaml_node_get(root, "fired");
    if (id == NULL || id->kind != YAML_NODE_SCALAR || outcome == NULL ||
        outcome->kind != YAML_NODE_SCALAR ||
        !yaml_node_bool(yaml_node_get(root, "success"), &fc->success))
        return false;
    fc->id = id->scalar;
    fc->outcome = outcome->scalar;
    fc->named = scalar_list(named, &fc->nnamed);
    fc->errors = scalar_list(errors, &fc->nerrors);
    /* Records written before `rejects` existed: a case that expects an error names it. */
    if (!yaml_node_bool(yaml_node_get(root, "rejects"), &fc->rejects))
        fc->rejects = fc->nerrors > 0;
    fc->fired = scalar_list(fired, &fc->nfired);
    return fc->named != NULL && fc->errors != NULL && fc->fired != NULL;
}

FiredCase *rule_index_read_fired(const char *path, int *n, ErrorTrap *trap)
{
    const char *text = source_read_file(path, trap);
    FiredCase *out = NULL;
    int cap = 0, lineno = 0;
    *n = 0;
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        lineno++;
        FiredCase fc;
        memset(&fc, 0, sizeof fc);
        if (len > 0 && !read_record(mem_strndup(line, len), &fc))
            error_raise(trap, PHASE_CASE, "CaseSchema", NULL, span_make(path, lineno, 1),
                        "not a --rules-fired record (keys id, outcome, success, named, errors, "
                        "fired)");
        if (len > 0)
            VEC_PUSH(out, *n, cap, fc);
        line += len + (nl ? 1 : 0);
    }
    return out;
}

void rule_index_add_fired(RuleIndex *ri, const FiredCase *cases, int n)
{
    if (ri->fired == NULL) {
        ri->fired = MEM_ARRAY(int, ri->n + 1);
        ri->positive = MEM_ARRAY(int, ri->n + 1);
        ri->negative = MEM_ARRAY(int, ri->n + 1);
        ri->own = MEM_ARRAY(int, ri->n + 1);
    }
    for (int i = 0; i < n; i++) {
        const FiredCase *fc = &cases[i];
        for (int k = 0; k < fc->nfired; k++) {
            int at = find(ri, fc->fired[k]);
            if (at < 0)
                continue;
            ri->fired[at]++;
            if (strcmp(fc->outcome, "PASS") != 0)
                continue; /* a case that fails is no evidence either way */
            ri->positive[at] += fc->success;
            ri->negative[at] += fc->rejects;
            ri->own[at] += rule_index_list_has(fc->errors, fc->nerrors, fc->fired[k]);
        }
    }
}
