/* yaml_node: YAML trees in GC memory, with positions, read from a text's events or copied
 * from libyaml's document, and scalar readers. SPEC_NOTES: "Case file errors". */
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

/* The reasons a tree is refused (SPEC_NOTES "Resource limits"), the same for a copy and a
 * read. */
#define CYCLE_WHY "a YAML alias refers to a node that contains it (a cycle)"

static const char *depth_why(void)
{
    return mem_printf("YAML nested deeper than %d levels", YAML_NODE_MAX_DEPTH);
}

static const char *expansion_why(void)
{
    return mem_printf("YAML aliases expand to more than %ld extra nodes",
                      (long)YAML_NODE_MAX_EXPANSION);
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
        c->why = CYCLE_WHY;
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
    for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top;
         it++) {
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
        c->why = depth_why();
        c->where = node;
        return NULL;
    }
    if (--c->budget < 0) {
        c->why = expansion_why();
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

/* ---- reading a text from libyaml's events ----
 * libyaml's document API builds its own tree, which a copy then turns into GC nodes: reading
 * the events makes the GC nodes at once. It keeps what the document API does: the same
 * events are read (the stream start, one document and its end), an anchor is defined once
 * and before an alias names it (libyaml's composer errors, worded as it words them), and the
 * limits of a copy are checked after the whole document has been read, so a syntax error
 * anywhere in it comes first. */

/* A sequence or mapping being filled, or where a node read goes. */
typedef struct Slot {
    YamlNode *node;
    const char *key; /* a mapping's key, read and waiting for its value; NULL: a key is next */
    bool in_key;     /* the node is (inside) a mapping key, where a copy does not look */
    int depth;
} Slot;

typedef struct Anchor {
    const char *name;
    YamlNode *node;
} Anchor;

typedef struct Reader {
    yaml_parser_t parser;
    Slot *open;
    int nopen, open_cap;
    Anchor *anchors;
    int nanchors, anchor_cap;
    long nnodes;   /* the nodes libyaml's document would hold (mapping keys too) */
    bool aliased;  /* an alias was read: the limits walk the tree */
    int max_depth; /* the deepest node outside keys */
    YamlNode *root;
    YamlLoadError *err;
} Reader;

static bool fail_read(Reader *r, bool syntax, const char *message, int line, int col)
{
    r->err->syntax = syntax;
    r->err->message = message;
    r->err->line = line;
    r->err->col = col;
    return false;
}

static bool composer_error(Reader *r, const char *message, yaml_mark_t mark)
{
    return fail_read(r, true, message, (int)mark.line + 1, (int)mark.column + 1);
}

/* libyaml's problem, then its context, at the problem's mark. */
static bool next_event(Reader *r, yaml_event_t *ev)
{
    if (yaml_parser_parse(&r->parser, ev))
        return true;
    const yaml_parser_t *p = &r->parser;
    const char *problem = p->problem != NULL ? p->problem : "cannot read YAML";
    const char *msg = p->context != NULL ? mem_printf("%s %s", problem, p->context) : problem;
    return composer_error(r, msg, p->problem_mark);
}

static YamlNode *node_read(Reader *r, YamlNodeKind kind, yaml_mark_t mark)
{
    YamlNode *n = node_new(kind);
    n->id = (int)++r->nnodes;
    n->line = (int)mark.line + 1;
    n->col = (int)mark.column + 1;
    return n;
}

static bool anchor_define(Reader *r, const yaml_char_t *name, YamlNode *n, yaml_mark_t mark)
{
    if (name == NULL)
        return true;
    for (int i = 0; i < r->nanchors; i++) {
        if (strcmp(r->anchors[i].name, (const char *)name) == 0)
            return composer_error(r, "second occurrence found duplicate anchor; first occurrence",
                                  mark);
    }
    Anchor a = {mem_strdup((const char *)name), n};
    VEC_PUSH(r->anchors, r->nanchors, r->anchor_cap, a);
    return true;
}

/* Puts a node where the innermost open collection expects one; says where it went. */
static Slot place(Reader *r, YamlNode *n)
{
    Slot at = {n, NULL, false, 0};
    if (r->nopen == 0) {
        r->root = n;
        return at;
    }
    Slot *o = &r->open[r->nopen - 1];
    at.in_key = o->in_key;
    at.depth = o->depth + 1;
    if (o->node->kind == YAML_NODE_SEQ) {
        VEC_PUSH(o->node->items, o->node->nitems, o->node->cap, n);
    } else if (o->key == NULL) {
        o->key = n->kind == YAML_NODE_SCALAR ? n->scalar : "?";
        at.in_key = true;
    } else {
        /* keys and items grow in lockstep, so the items' length and capacity serve both. */
        int len = o->node->nitems, cap = o->node->cap;
        VEC_PUSH(o->node->keys, len, cap, o->key);
        VEC_PUSH(o->node->items, o->node->nitems, o->node->cap, n);
        o->key = NULL;
    }
    if (!at.in_key && at.depth > r->max_depth)
        r->max_depth = at.depth;
    return at;
}

static bool read_scalar(Reader *r, const yaml_event_t *ev)
{
    const char *text = mem_strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
    Slot *o = r->nopen > 0 ? &r->open[r->nopen - 1] : NULL;
    /* A plain key, the most common scalar, needs no node of its own. */
    if (o != NULL && o->node->kind == YAML_NODE_MAP && o->key == NULL &&
        ev->data.scalar.anchor == NULL) {
        r->nnodes++;
        o->key = text;
        return true;
    }
    YamlNode *n = node_read(r, YAML_NODE_SCALAR, ev->start_mark);
    n->scalar = text;
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (!anchor_define(r, ev->data.scalar.anchor, n, ev->start_mark))
        return false;
    place(r, n);
    return true;
}

static bool read_start(Reader *r, YamlNodeKind kind, const yaml_char_t *anchor, yaml_mark_t mark)
{
    YamlNode *n = node_read(r, kind, mark);
    if (!anchor_define(r, anchor, n, mark))
        return false;
    Slot at = place(r, n);
    VEC_PUSH(r->open, r->nopen, r->open_cap, at);
    return true;
}

static bool read_alias(Reader *r, const yaml_event_t *ev)
{
    for (int i = r->nanchors - 1; i >= 0; i--) {
        if (strcmp(r->anchors[i].name, (const char *)ev->data.alias.anchor) == 0) {
            r->aliased = true;
            place(r, r->anchors[i].node);
            return true;
        }
    }
    return composer_error(r, "found undefined alias", ev->start_mark);
}

static bool read_event(Reader *r, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        return read_scalar(r, ev);
    case YAML_SEQUENCE_START_EVENT:
        return read_start(r, YAML_NODE_SEQ, ev->data.sequence_start.anchor, ev->start_mark);
    case YAML_MAPPING_START_EVENT:
        return read_start(r, YAML_NODE_MAP, ev->data.mapping_start.anchor, ev->start_mark);
    case YAML_ALIAS_EVENT:
        return read_alias(r, ev);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        r->nopen--;
        return true;
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        break;
    }
    return fail_read(r, true, "cannot read YAML", 1, 1); /* libyaml never sends these here */
}

/* The events yaml_parser_load reads: the stream's start, then a document (its start, one
 * node, its end) or the stream's end. */
static bool read_stream(Reader *r)
{
    yaml_event_t ev;
    for (int k = 0; k < 2; k++) {
        if (!next_event(r, &ev))
            return false;
        bool end = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
        if (end)
            return true;
    }
    do {
        if (!next_event(r, &ev))
            return false;
        bool ok = read_event(r, &ev);
        yaml_event_delete(&ev);
        if (!ok)
            return false;
    } while (r->nopen > 0);
    if (!next_event(r, &ev))
        return false;
    yaml_event_delete(&ev);
    return true;
}

/* The limits of a copy, on the tree read: a walk in the copy's order (depth first, the
 * document's order), through every alias, meeting each broken limit where the copy would. */
typedef struct Walk {
    unsigned char *on_path; /* by node id */
    long budget;
    const char *why;
    const YamlNode *where;
} Walk;

static bool walk(Walk *w, const YamlNode *n, int depth)
{
    if (depth > YAML_NODE_MAX_DEPTH) {
        w->why = depth_why();
        w->where = n;
        return false;
    }
    if (--w->budget < 0) {
        w->why = expansion_why();
        w->where = n;
        return false;
    }
    if (n->kind == YAML_NODE_SCALAR)
        return true;
    for (int i = 0; i < n->nitems; i++) {
        const YamlNode *child = n->items[i];
        if (w->on_path[child->id]) {
            w->why = CYCLE_WHY;
            w->where = child;
            return false;
        }
        w->on_path[child->id] = 1;
        bool ok = walk(w, child, depth + 1);
        w->on_path[child->id] = 0;
        if (!ok)
            return false;
    }
    return true;
}

static bool limits_hold(Reader *r)
{
    /* Without aliases the read is a tree: only its depth can break a limit. */
    if (!r->aliased && r->max_depth <= YAML_NODE_MAX_DEPTH)
        return true;
    Walk w = {mem_alloc_atomic((size_t)r->nnodes + 1), r->nnodes + YAML_NODE_MAX_EXPANSION, NULL,
              NULL};
    memset(w.on_path, 0, (size_t)r->nnodes + 1);
    w.on_path[r->root->id] = 1;
    if (walk(&w, r->root, 0))
        return true;
    return fail_read(r, false, w.why, w.where->line, w.where->col);
}

YamlNode *yaml_node_load(const char *text, size_t len, YamlLoadError *err)
{
    Reader r = {0};
    r.err = err;
    *err = (YamlLoadError){0};
    yaml_parser_initialize(&r.parser);
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    bool ok = read_stream(&r);
    yaml_parser_delete(&r.parser);
    if (!ok || r.root == NULL || !limits_hold(&r))
        return NULL;
    return r.root;
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
