/* value_yaml: reads the case-file value notation (CASE_FORMAT "Values") into Values.
 * SPEC_NOTES: "Value notation errors" (code BadValue, phase case). */
#ifndef RELAX_VALUES_VALUE_YAML_H
#define RELAX_VALUES_VALUE_YAML_H

#include <stdbool.h>
#include <yaml.h>

#include "ast/error.h"
#include "values/value.h"

/* Limits of reading a value (SPEC_NOTES "Resource limits"): nesting of tuples, and the node
 * visits aliases may add beyond the document's own nodes. */
#define VALUE_YAML_MAX_DEPTH 256
#define VALUE_YAML_MAX_EXPANSION 1000000L

typedef struct ValueYamlOptions {
    const char *file; /* named in error spans; may be NULL */
    /* Expected results may use {callable: true} and {object: "name"}; arguments may not. */
    bool expectation;
} ValueYamlOptions;

/* Reads one value from a node of a loaded document. Everything is copied out of libyaml's
 * memory. A malformed value raises BadValue (phase case) at the node's line and column. */
Value *value_yaml_parse_node(yaml_document_t *doc, yaml_node_t *node, const ValueYamlOptions *opt,
                             ErrorTrap *trap);

/* A YAML tree held elsewhere (the conformance runner's, read from a case file), seen through
 * these accessors: a node's kind; a scalar's text and whether it was written without
 * quotes; the items of a sequence or the pairs of a mapping, the i-th item or value, and
 * the i-th key's text (keys are scalars). */
typedef enum ValueYamlKind {
    VALUE_YAML_SCALAR,
    VALUE_YAML_SEQUENCE,
    VALUE_YAML_MAPPING,
} ValueYamlKind;

typedef struct ValueYamlTree {
    ValueYamlKind (*kind)(const void *node);
    const char *(*text)(const void *node);
    bool (*plain)(const void *node);
    int (*count)(const void *node);
    const void *(*item)(const void *node, int i);
    const char *(*key)(const void *node, int i);
} ValueYamlTree;

/* Reads one value from such a tree, as value_yaml_parse_node reads it from a document of
 * `nodes` nodes holding the same tree (each place a shared node appears counted): the same
 * value, or the same BadValue message; the error's position is line 0, which the caller
 * replaces with the tree's own. */
Value *value_yaml_parse_tree(const ValueYamlTree *tree, const void *root, long nodes,
                             const ValueYamlOptions *opt, ErrorTrap *trap);

/* Reads one value from YAML text, e.g. "{tensor: {dtype: int32, shape: [2], data: [1, 2]}}"
 * (the form `relax run --arg` takes). YAML syntax errors are BadValue too. */
Value *value_yaml_parse_text(const char *text, const ValueYamlOptions *opt, ErrorTrap *trap);

#endif
