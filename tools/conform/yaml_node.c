/* yaml_node: a YAML subtree copied into GC memory, with positions, and scalar readers.
 * SPEC_NOTES: "Case file errors". */
#include "tools/conform/yaml_node.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ast/mem.h"

static YamlNode *node_new(YamlNodeKind kind)
{
    YamlNode *n = MEM_NEW(YamlNode);
    n->kind = kind;
    return n;
}

YamlNode *yaml_node_new_scalar(const char *text, bool plain)
{
    YamlNode *n = node_new(YAML_NODE_SCALAR);
    n->scalar = mem_strdup(text);
    n->plain = plain;
    return n;
}

YamlNode *yaml_node_new_seq(void)
{
    return node_new(YAML_NODE_SEQ);
}

YamlNode *yaml_node_new_map(void)
{
    return node_new(YAML_NODE_MAP);
}

void yaml_node_seq_add(YamlNode *seq, YamlNode *item)
{
    VEC_PUSH(seq->items, seq->nitems, seq->cap, item);
}

void yaml_node_map_add(YamlNode *map, const char *key, YamlNode *value)
{
    /* keys and items grow in lockstep, so the items' length and capacity serve both. */
    int len = map->nitems, cap = map->cap;
    VEC_PUSH(map->keys, len, cap, mem_strdup(key));
    VEC_PUSH(map->items, map->nitems, map->cap, value);
}

static const char *key_text(yaml_document_t *doc, yaml_node_t *key)
{
    if (key == NULL || key->type != YAML_SCALAR_NODE)
        return "?";
    return mem_strndup((const char *)key->data.scalar.value, key->data.scalar.length);
}

/* A copy is bounded: aliases make a document a graph, so a short text can describe a cycle
 * (`cases: &a [*a]`) or an exponential tree ("billion laughs"). Nesting is limited, a node
 * on the path being copied may not be reached again, and aliases may add only so many nodes
 * beyond the document's own. SPEC_NOTES: "Resource limits". */
typedef struct Copier {
    yaml_document_t *doc;
    unsigned char *on_path; /* per document node: being copied now */
    long budget;            /* nodes that may still be made */
    const char *why;
    const yaml_node_t *where; /* the node where a limit was broken */
} Copier;

static YamlNode *copy_node(Copier *c, yaml_node_t *node, int depth);

static YamlNode *copy_child(Copier *c, int index, int depth)
{
    yaml_node_t *child = yaml_document_get_node(c->doc, index);
    if (child == NULL) {
        c->why = "a dangling YAML node";
        return NULL;
    }
    size_t slot = (size_t)(child - c->doc->nodes.start);
    if (c->on_path[slot]) {
        c->why = "a YAML alias refers to a node that contains it (a cycle)";
        c->where = child;
        return NULL;
    }
    c->on_path[slot] = 1;
    YamlNode *n = copy_node(c, child, depth + 1);
    c->on_path[slot] = 0;
    return n;
}

static bool copy_items(Copier *c, yaml_node_t *node, YamlNode *n, int depth)
{
    for (yaml_node_item_t *it = node->data.sequence.items.start;
         it < node->data.sequence.items.top; it++) {
        YamlNode *item = copy_child(c, *it, depth);
        if (item == NULL)
            return false;
        yaml_node_seq_add(n, item);
    }
    return true;
}

static bool copy_pairs(Copier *c, yaml_node_t *node, YamlNode *n, int depth)
{
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
         p++) {
        const char *key = key_text(c->doc, yaml_document_get_node(c->doc, p->key));
        YamlNode *value = copy_child(c, p->value, depth);
        if (value == NULL)
            return false;
        yaml_node_map_add(n, key, value);
    }
    return true;
}

static YamlNode *copy_node(Copier *c, yaml_node_t *node, int depth)
{
    if (depth > YAML_NODE_MAX_DEPTH) {
        c->why = mem_printf("YAML nested deeper than %d levels", YAML_NODE_MAX_DEPTH);
        c->where = node;
        return NULL;
    }
    if (--c->budget < 0) {
        c->why = mem_printf("YAML aliases expand to more than %ld extra nodes",
                            (long)YAML_NODE_MAX_EXPANSION);
        c->where = node;
        return NULL;
    }
    YamlNode *n = NULL;
    bool ok = true;
    switch (node->type) {
    case YAML_NO_NODE:
    case YAML_SCALAR_NODE:
        n = node_new(YAML_NODE_SCALAR);
        if (node->type == YAML_SCALAR_NODE) {
            n->scalar =
                mem_strndup((const char *)node->data.scalar.value, node->data.scalar.length);
            n->plain = node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        } else {
            n->scalar = "";
            n->plain = true;
        }
        break;
    case YAML_SEQUENCE_NODE:
        n = node_new(YAML_NODE_SEQ);
        ok = copy_items(c, node, n, depth);
        break;
    case YAML_MAPPING_NODE:
        n = node_new(YAML_NODE_MAP);
        ok = copy_pairs(c, node, n, depth);
        break;
    }
    if (!ok)
        return NULL;
    n->line = (int)node->start_mark.line + 1;
    n->col = (int)node->start_mark.column + 1;
    return n;
}

YamlNode *yaml_node_copy_checked(yaml_document_t *doc, yaml_node_t *node, const char **why,
                                 const yaml_node_t **where)
{
    size_t nnodes = (size_t)(doc->nodes.top - doc->nodes.start);
    Copier c = {doc, mem_alloc_atomic(nnodes + 1), (long)nnodes + YAML_NODE_MAX_EXPANSION, NULL,
                node};
    memset(c.on_path, 0, nnodes + 1);
    size_t slot = (size_t)(node - doc->nodes.start);
    if (slot < nnodes)
        c.on_path[slot] = 1;
    YamlNode *n = copy_node(&c, node, 0);
    if (n == NULL && why != NULL)
        *why = c.why;
    if (n == NULL && where != NULL)
        *where = c.where;
    return n;
}

YamlNode *yaml_node_copy(yaml_document_t *doc, yaml_node_t *node)
{
    return yaml_node_copy_checked(doc, node, NULL, NULL);
}

YamlNode *yaml_node_get(const YamlNode *map, const char *key)
{
    if (map == NULL || map->kind != YAML_NODE_MAP)
        return NULL;
    for (int i = 0; i < map->nitems; i++) {
        if (strcmp(map->keys[i], key) == 0)
            return map->items[i];
    }
    return NULL;
}

bool yaml_node_is_scalar(const YamlNode *node, const char *text)
{
    return node != NULL && node->kind == YAML_NODE_SCALAR && strcmp(node->scalar, text) == 0;
}

bool yaml_node_bool(const YamlNode *node, bool *out)
{
    if (node == NULL || node->kind != YAML_NODE_SCALAR || !node->plain)
        return false;
    if (strcasecmp(node->scalar, "true") == 0) {
        *out = true;
        return true;
    }
    if (strcasecmp(node->scalar, "false") == 0) {
        *out = false;
        return true;
    }
    return false;
}

/* nan, inf, -inf, +inf, and YAML's .nan/.inf spellings. */
static bool special_float(const char *s, double *out)
{
    double sign = 1.0;
    if (*s == '-' || *s == '+') {
        sign = *s == '-' ? -1.0 : 1.0;
        s++;
    }
    if (*s == '.')
        s++;
    if (strcasecmp(s, "nan") == 0) {
        *out = NAN;
        return true;
    }
    if (strcasecmp(s, "inf") == 0) {
        *out = sign * INFINITY;
        return true;
    }
    return false;
}

static bool is_integer_text(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (*s == '\0')
        return false;
    for (; *s; s++) {
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
            return false;
    }
    return true;
}

bool yaml_node_number(const YamlNode *node, double *out, bool *is_int)
{
    if (node == NULL || node->kind != YAML_NODE_SCALAR || !node->plain || node->scalar[0] == '\0')
        return false;
    const char *s = node->scalar;
    if (special_float(s, out)) {
        *is_int = false;
        return true;
    }
    long long i;
    if (yaml_node_int(node, &i)) {
        *out = (double)i;
        *is_int = true;
        return true;
    }
    if (strpbrk(s, "xXpP") != NULL)
        return false;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (*end != '\0' || end == s)
        return false;
    *out = d;
    /* Digits alone are an integer even beyond int64 (uint64 data); the value layer decides
     * whether it fits the dtype. */
    *is_int =
        strspn(s + (*s == '-' || *s == '+'), "0123456789") == strlen(s + (*s == '-' || *s == '+'));
    return true;
}

bool yaml_node_int(const YamlNode *node, long long *out)
{
    if (node == NULL || node->kind != YAML_NODE_SCALAR || !node->plain)
        return false;
    const char *s = node->scalar;
    bool hex = strstr(s, "0x") != NULL || strstr(s, "0X") != NULL;
    if (!is_integer_text(s) || (!hex && strpbrk(s, "abcdefABCDEF") != NULL))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, hex ? 16 : 10);
    if (*end != '\0' || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

static void node_write(StrBuf *sb, const YamlNode *node)
{
    switch (node->kind) {
    case YAML_NODE_SCALAR:
        if (node->plain)
            strbuf_add(sb, node->scalar);
        else
            strbuf_addf(sb, "\"%s\"", node->scalar);
        break;
    case YAML_NODE_SEQ:
        strbuf_addc(sb, '[');
        for (int i = 0; i < node->nitems; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            node_write(sb, node->items[i]);
        }
        strbuf_addc(sb, ']');
        break;
    case YAML_NODE_MAP:
        strbuf_addc(sb, '{');
        for (int i = 0; i < node->nitems; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            strbuf_addf(sb, "%s: ", node->keys[i]);
            node_write(sb, node->items[i]);
        }
        strbuf_addc(sb, '}');
        break;
    }
}

char *yaml_node_str(const YamlNode *node)
{
    StrBuf sb;
    strbuf_init(&sb);
    node_write(&sb, node);
    return strbuf_str(&sb);
}
