/* astform_yaml: the YAML side of the `ast:` reader: spans, BadAst errors, scalars, node heads
 * and field mappings. SPEC_NOTES: "The ast: form" (rule AST-1). */
#include "ast/astform/astform_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

/* Deep enough for any real program, shallow enough for the C stack. */
enum { MAX_DEPTH = 400 };
/* Aliases may share nodes; this bounds the work a small YAML text can cause. */
enum { MAX_NODES = 4000000 };

static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void *ast_table_get(const AstTable *t, const char *key)
{
    if (t->cap == 0)
        return NULL;
    for (unsigned i = hash_str(key) & (unsigned)(t->cap - 1);;
         i = (i + 1) & (unsigned)(t->cap - 1)) {
        if (t->keys[i] == NULL)
            return NULL;
        if (strcmp(t->keys[i], key) == 0)
            return t->values[i];
    }
}

static void table_grow(AstTable *t)
{
    AstTable bigger = {0};
    bigger.cap = t->cap ? 2 * t->cap : 16;
    bigger.keys = MEM_ARRAY(const char *, bigger.cap);
    bigger.values = MEM_ARRAY(void *, bigger.cap);
    for (int i = 0; i < t->cap; i++)
        if (t->keys[i] != NULL)
            ast_table_put(&bigger, t->keys[i], t->values[i]);
    *t = bigger;
}

void ast_table_put(AstTable *t, const char *key, void *value)
{
    if (2 * (t->n + 1) > t->cap)
        table_grow(t);
    unsigned mask = (unsigned)(t->cap - 1);
    unsigned i = hash_str(key) & mask;
    while (t->keys[i] != NULL && strcmp(t->keys[i], key) != 0)
        i = (i + 1) & mask;
    if (t->keys[i] == NULL) {
        t->keys[i] = mem_strdup(key);
        t->n++;
    }
    t->values[i] = value;
}

void ast_reader_init(AstReader *r, const char *file, yaml_document_t *doc, ErrorTrap *trap)
{
    *r = (AstReader){0};
    r->file = file;
    r->doc = doc;
    r->trap = trap;
    r->budget = MAX_NODES;
    r->mod = module_new(file);
}

Span ast_span(const AstReader *r, const yaml_node_t *node)
{
    /* libyaml marks are 0-based. */
    Span s = span_make(r->file, (int)node->start_mark.line + 1, (int)node->start_mark.column + 1);
    s.end_line = (int)node->end_mark.line + 1;
    s.end_col = (int)node->end_mark.column + 1;
    return s;
}

noreturn void ast_fail(AstReader *r, const yaml_node_t *node, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error_raise(r->trap, PHASE_PARSE, "BadAst", "AST-1", ast_span(r, node), "%s", msg);
}

yaml_node_t *ast_node(AstReader *r, int index)
{
    yaml_node_t *n = yaml_document_get_node(r->doc, index);
    if (n == NULL)
        error_raise(r->trap, PHASE_PARSE, "BadAst", "AST-1", span_make(r->file, 0, 0),
                    "dangling YAML node reference");
    return n;
}

void ast_enter(AstReader *r, const yaml_node_t *node)
{
    if (++r->depth > MAX_DEPTH)
        ast_fail(r, node, "nesting deeper than %d", MAX_DEPTH);
    if (--r->budget < 0)
        ast_fail(r, node, "more than %d nodes (recursive or exploding aliases?)", MAX_NODES);
}

void ast_leave(AstReader *r)
{
    r->depth--;
}

bool ast_is_scalar(const yaml_node_t *node)
{
    return node->type == YAML_SCALAR_NODE;
}

bool ast_is_null(const yaml_node_t *node)
{
    if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *s = (const char *)node->data.scalar.value;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
           strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

static const char *kind_name(const yaml_node_t *node)
{
    switch (node->type) {
    case YAML_SCALAR_NODE:
        return "a scalar";
    case YAML_SEQUENCE_NODE:
        return "a sequence";
    case YAML_MAPPING_NODE:
        return "a mapping";
    case YAML_NO_NODE:
        return "nothing";
    }
    return "nothing";
}

const char *ast_scalar(AstReader *r, const yaml_node_t *node, const char *what)
{
    if (node->type != YAML_SCALAR_NODE)
        ast_fail(r, node, "%s must be a scalar, found %s", what, kind_name(node));
    return mem_strndup((const char *)node->data.scalar.value, node->data.scalar.length);
}

int ast_seq_len(const yaml_node_t *node)
{
    return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}

void ast_expect_seq(AstReader *r, const yaml_node_t *node, const char *what)
{
    if (node->type != YAML_SEQUENCE_NODE)
        ast_fail(r, node, "%s must be a sequence, found %s", what, kind_name(node));
}

yaml_node_t *ast_seq_item(AstReader *r, const yaml_node_t *seq, int i)
{
    return ast_node(r, seq->data.sequence.items.start[i]);
}

int64_t ast_int(AstReader *r, const yaml_node_t *node, const char *what)
{
    const char *s = ast_scalar(r, node, what);
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0)
        ast_fail(r, node, "%s must be an integer, found '%s'", what, s);
    return (int64_t)v;
}

bool ast_bool(AstReader *r, const yaml_node_t *node, const char *what)
{
    const char *s = ast_scalar(r, node, what);
    if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0)
        return true;
    if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0)
        return false;
    ast_fail(r, node, "%s must be true or false, found '%s'", what, s);
}

DataType ast_dtype(AstReader *r, const yaml_node_t *node)
{
    const char *s = ast_scalar(r, node, "a dtype");
    DataType t;
    if (!dtype_parse(s, &t))
        ast_fail(r, node, "'%s' names no data type", s);
    return t;
}

const char *ast_head(AstReader *r, yaml_node_t *node, yaml_node_t **value)
{
    if (node->type != YAML_MAPPING_NODE)
        ast_fail(r, node, "expected a node {Name: ...}, found %s", kind_name(node));
    yaml_node_pair_t *p = node->data.mapping.pairs.start;
    if (p == node->data.mapping.pairs.top)
        ast_fail(r, node, "expected a node {Name: ...}, found an empty mapping");
    *value = ast_node(r, p->value);
    return ast_scalar(r, ast_node(r, p->key), "a node name");
}

static bool in_list(const char *s, const char *const *list)
{
    for (; *list != NULL; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static const char *key_of(AstReader *r, const yaml_node_pair_t *p)
{
    return ast_scalar(r, ast_node(r, p->key), "a field name");
}

static void check_fields(AstReader *r, const AstFields *f, const char *const *allowed)
{
    for (int i = 0; i < f->n; i++) {
        const char *k = key_of(r, &f->pairs[i]);
        if (!in_list(k, allowed))
            ast_fail(r, ast_node(r, f->pairs[i].key), "%s has no field '%s'", f->node_name, k);
        for (int j = 0; j < i; j++)
            if (strcmp(k, key_of(r, &f->pairs[j])) == 0)
                ast_fail(r, ast_node(r, f->pairs[i].key), "field '%s' given twice", k);
    }
}

AstFields ast_fields(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *node_name,
                     const char *const *allowed)
{
    AstFields f = {node_name, node, NULL, 0};
    if (ast_is_null(value))
        return f;
    if (value->type != YAML_MAPPING_NODE)
        ast_fail(r, value, "the fields of %s must be a mapping, found %s", node_name,
                 kind_name(value));
    f.pairs = value->data.mapping.pairs.start;
    f.n = (int)(value->data.mapping.pairs.top - f.pairs);
    check_fields(r, &f, allowed);
    return f;
}

AstFields ast_sibling_fields(AstReader *r, yaml_node_t *node, const char *node_name,
                             const char *const *allowed)
{
    AstFields f = {node_name, node, node->data.mapping.pairs.start + 1, 0};
    f.n = (int)(node->data.mapping.pairs.top - f.pairs);
    check_fields(r, &f, allowed);
    for (int i = 0; i < f.n; i++)
        if (strcmp(key_of(r, &f.pairs[i]), node_name) == 0)
            ast_fail(r, ast_node(r, f.pairs[i].key), "field '%s' given twice", node_name);
    return f;
}

void ast_single(AstReader *r, yaml_node_t *node, const char *node_name)
{
    yaml_node_pair_t *p = node->data.mapping.pairs.start;
    if (node->data.mapping.pairs.top - p > 1)
        ast_fail(r, ast_node(r, p[1].key),
                 "unexpected key '%s' beside %s (a node is a mapping with one key)",
                 key_of(r, &p[1]), node_name);
}

yaml_node_t *ast_field(AstReader *r, const AstFields *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(key_of(r, &f->pairs[i]), name) == 0)
            return ast_node(r, f->pairs[i].value);
    return NULL;
}

yaml_node_t *ast_field_req(AstReader *r, const AstFields *f, const char *name)
{
    yaml_node_t *v = ast_field(r, f, name);
    if (v == NULL)
        ast_fail(r, f->node, "%s is missing its field '%s'", f->node_name, name);
    return v;
}

bool ast_is_field_form(AstReader *r, const yaml_node_t *value, const char *const *allowed)
{
    if (value->type != YAML_MAPPING_NODE)
        return false;
    for (yaml_node_pair_t *p = value->data.mapping.pairs.start; p < value->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = ast_node(r, p->key);
        if (k->type != YAML_SCALAR_NODE || !in_list((const char *)k->data.scalar.value, allowed))
            return false;
    }
    return true;
}

const char *ast_name_hint(AstReader *r, const yaml_node_t *node, const char *key)
{
    const char *hash = strrchr(key, '#');
    size_t len = strlen(key);
    if (hash != NULL && hash[1] != '\0' && strspn(hash + 1, "0123456789") == strlen(hash + 1))
        len = (size_t)(hash - key);
    if (len == 0)
        ast_fail(r, node, "a variable needs a name");
    return mem_strndup(key, len);
}
