/* astform_read: the reader state and YAML helpers shared by the files of the `ast:` reader.
 * SPEC_NOTES: "The ast: form" (rule AST-1). */
#ifndef RELAX_AST_ASTFORM_READ_H
#define RELAX_AST_ASTFORM_READ_H

#include <stdbool.h>
#include <yaml.h>

#include "ast/attrs.h"
#include "ast/error.h"
#include "ast/expr.h"
#include "ast/module.h"

/* A string-keyed table (open addressing) for the name-to-object maps of one case. */
typedef struct AstTable {
    const char **keys;
    void **values;
    int n;
    int cap;
} AstTable;

void *ast_table_get(const AstTable *t, const char *key);
void ast_table_put(AstTable *t, const char *key, void *value);

typedef struct AstReader {
    const char *file;
    yaml_document_t *doc;
    ErrorTrap *trap;
    IRModule *mod;
    AstTable vars;       /* "Var:x#2" / "DataflowVar:x" -> Var */
    AstTable shape_vars; /* "n#2" -> TirVar */
    AstTable gvars;      /* name -> GlobalVar */
    int depth;           /* current nesting, bounded so that no YAML exhausts the stack */
    long budget;         /* nodes left to visit, bounded against alias blow-up */
    yaml_node_t *funcs;  /* the module's funcs mapping while its functions are read */
} AstReader;

/* The fields of one node: the pairs of its value mapping, checked against the node's
 * allowed field names when opened. */
typedef struct AstFields {
    const char *node_name;
    yaml_node_t *node; /* the whole node, for spans of missing-field errors */
    yaml_node_pair_t *pairs;
    int n;
} AstFields;

/* A fresh reader with an empty module for `file`. */
void ast_reader_init(AstReader *r, const char *file, yaml_document_t *doc, ErrorTrap *trap);
noreturn void ast_fail(AstReader *r, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
Span ast_span(const AstReader *r, const yaml_node_t *node);
yaml_node_t *ast_node(AstReader *r, int index);
/* Enters one level of nesting (counting against depth and budget); ast_leave undoes it. */
void ast_enter(AstReader *r, const yaml_node_t *node);
void ast_leave(AstReader *r);

bool ast_is_scalar(const yaml_node_t *node);
bool ast_is_null(const yaml_node_t *node); /* ~, null or an empty plain scalar */
const char *ast_scalar(AstReader *r, const yaml_node_t *node, const char *what);
int ast_seq_len(const yaml_node_t *node);
yaml_node_t *ast_seq_item(AstReader *r, const yaml_node_t *seq, int i);
/* Checks `node` is a sequence (what names it in the error). */
void ast_expect_seq(AstReader *r, const yaml_node_t *node, const char *what);
int64_t ast_int(AstReader *r, const yaml_node_t *node, const char *what);
bool ast_bool(AstReader *r, const yaml_node_t *node, const char *what);
DataType ast_dtype(AstReader *r, const yaml_node_t *node);

/* The name hint of a variable written `key`: the key without a trailing #digits suffix
 * (`x#2` is another object named x). */
const char *ast_name_hint(AstReader *r, const yaml_node_t *node, const char *key);
/* The head of a node mapping: its first key (the node name) and that key's value. */
const char *ast_head(AstReader *r, yaml_node_t *node, yaml_node_t **value);
/* Opens `value` as the field mapping of `node_name` (NULL or an empty scalar: no fields). */
AstFields ast_fields(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *node_name,
                     const char *const *allowed);
/* The keys after the head of a variable node ({Var: x, struct_info: S}) as its fields. */
AstFields ast_sibling_fields(AstReader *r, yaml_node_t *node, const char *node_name,
                             const char *const *allowed);
/* Checks the node mapping has no key besides its head. */
void ast_single(AstReader *r, yaml_node_t *node, const char *node_name);
yaml_node_t *ast_field(AstReader *r, const AstFields *f, const char *name);
yaml_node_t *ast_field_req(AstReader *r, const AstFields *f, const char *name);
/* True when `value` is a mapping whose keys are all in `allowed` (the field form rather than
 * a shorthand). */
bool ast_is_field_form(AstReader *r, const yaml_node_t *value, const char *const *allowed);

/* Readers of the leaf layer (astform_leaf.c). */
StructInfo *ast_read_sinfo(AstReader *r, yaml_node_t *node);
PrimExpr *ast_read_primexpr(AstReader *r, yaml_node_t *node);
PrimExpr **ast_read_primexprs(AstReader *r, yaml_node_t *node, int *n);
VDevice *ast_read_vdevice(AstReader *r, yaml_node_t *node);
ConstData *ast_read_const_data(AstReader *r, yaml_node_t *node);
Attrs *ast_read_attrs(AstReader *r, yaml_node_t *node);
AttrValue *ast_read_attr_value(AstReader *r, yaml_node_t *node);
/* Whether a plain scalar would read as something other than a string (null, bool, number):
 * the writer quotes such strings. */
bool ast_plain_is_special(const char *s);

/* Readers of the expression layer (astform.c), used by TensorStructInfo's shape and by
 * attribute values tagged !expr. */
Expr *ast_read_expr(AstReader *r, yaml_node_t *node);

#endif
