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

YamlNode *yaml_node_copy(yaml_document_t *doc, yaml_node_t *node)
{
    YamlNode *n = NULL;
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
        for (yaml_node_item_t *it = node->data.sequence.items.start;
             it < node->data.sequence.items.top; it++)
            yaml_node_seq_add(n, yaml_node_copy(doc, yaml_document_get_node(doc, *it)));
        break;
    case YAML_MAPPING_NODE:
        n = node_new(YAML_NODE_MAP);
        for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
             p++) {
            const char *key = key_text(doc, yaml_document_get_node(doc, p->key));
            yaml_node_map_add(n, key, yaml_node_copy(doc, yaml_document_get_node(doc, p->value)));
        }
        break;
    }
    n->line = (int)node->start_mark.line + 1;
    n->col = (int)node->start_mark.column + 1;
    return n;
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
