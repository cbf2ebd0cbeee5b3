/* yaml_node: YAML trees in GC memory (scalars, sequences, mappings with their source
 * positions), read from a text or copied from libyaml's document. SPEC_NOTES: "Case file errors".
 */
#ifndef RELAX_TOOLS_YAML_NODE_H
#define RELAX_TOOLS_YAML_NODE_H

#include <stdbool.h>
#include <yaml.h>

typedef enum YamlNodeKind {
    YAML_NODE_SCALAR,
    YAML_NODE_SEQ,
    YAML_NODE_MAP,
} YamlNodeKind;

typedef struct YamlNode {
    YamlNodeKind kind;
    const char *scalar;      /* YAML_NODE_SCALAR: the text */
    bool plain;              /* an unquoted scalar: `nan` is a number, `"nan"` a string */
    struct YamlNode **items; /* sequence items, or mapping values */
    const char **keys;       /* mapping keys, parallel to items */
    int nitems;
    int cap;
    int line; /* 1-based */
    int col;
    int id; /* its number among the nodes of the text it was read from (yaml_node_load), or 0 */
} YamlNode;

/* Limits of a copy (SPEC_NOTES "Resource limits"): nesting depth, and the nodes aliases may
 * add beyond the document's own. A cycle through an alias is always refused. */
#define YAML_NODE_MAX_DEPTH 256
#define YAML_NODE_MAX_EXPANSION 1000000L

/* Copies a node of a libyaml document (and everything under it). Mapping keys must be
 * scalars; a non-scalar key is kept as "?". Returns NULL when the copy would break a limit
 * above, with the reason in `*why` and the node where it broke in `*where` (each optional). */
YamlNode *yaml_node_copy_checked(yaml_document_t *doc, yaml_node_t *node, const char **why,
                                 const yaml_node_t **where);
/* yaml_node_copy_checked without the reason. */
YamlNode *yaml_node_copy(yaml_document_t *doc, yaml_node_t *node);

/* Why yaml_node_load read no tree, and where (1-based; 0 for an empty stream). */
typedef struct YamlLoadError {
    bool syntax;         /* libyaml refused the text; otherwise a limit above was broken */
    const char *message; /* NULL: the stream holds no document */
    int line;
    int col;
} YamlLoadError;

/* The first document of `text` read straight from libyaml's events, without building
 * libyaml's document: the tree yaml_node_copy_checked makes of what yaml_parser_load reads,
 * with the same syntax errors (libyaml's problem and context, at the problem's mark) and the
 * same limits, broken at the same node. A node an alias names is shared by every place that
 * names it, so trees are read-only. Returns NULL with *err on failure or an empty stream. */
YamlNode *yaml_node_load(const char *text, size_t len, YamlLoadError *err);

YamlNode *yaml_node_new_scalar(const char *text, bool plain);
YamlNode *yaml_node_new_seq(void);
YamlNode *yaml_node_new_map(void);
void yaml_node_seq_add(YamlNode *seq, YamlNode *item);
void yaml_node_map_add(YamlNode *map, const char *key, YamlNode *value);

/* The value under `key` in a mapping, or NULL. */
YamlNode *yaml_node_get(const YamlNode *map, const char *key);
bool yaml_node_is_scalar(const YamlNode *node, const char *text);

/* YAML 1.1/1.2 core booleans: true/false (any case). Returns false when not a bool. */
bool yaml_node_bool(const YamlNode *node, bool *out);
/* A plain scalar that is a number: decimal or hex integers, decimals, exponents, and
 * nan/inf/-inf (also .nan/.inf). `is_int` says whether it was written as an integer. */
bool yaml_node_number(const YamlNode *node, double *out, bool *is_int);
bool yaml_node_int(const YamlNode *node, long long *out);

/* Flow-style YAML text of the node, on one line (for messages and reports). */
char *yaml_node_str(const YamlNode *node);

#endif
