/* value_yaml: the case-file value notation read into Values, with exact numeric checks.
 * SPEC_NOTES: "Value notation errors" (code BadValue, phase case). */
#include "values/value_yaml.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

/* What reading may still spend: aliases make a document a graph, so a short text can be a
 * cycle or an exponential tree. SPEC_NOTES: "Resource limits". */
typedef struct Budget {
    int depth;  /* nesting levels left */
    long nodes; /* node visits left: the document's own nodes plus VALUE_YAML_MAX_EXPANSION */
} Budget;

/* One node as the reader sees it, whichever tree it comes from: a libyaml document's node
 * or a node of a caller's tree (ValueYamlTree). A mapping key of a caller's tree is a
 * scalar of its own. */
typedef struct Node {
    yaml_node_type_t type;
    const char *text; /* a scalar's text */
    bool plain;       /* a scalar written without quotes */
    int n;            /* a sequence's items, a mapping's pairs */
    int line;         /* 1-based; 0 in a caller's tree */
    int col;
    const void *raw; /* the yaml_node_t, or the caller's node */
} Node;

typedef struct Reader {
    yaml_document_t *doc;      /* the document read, or NULL ... */
    const ValueYamlTree *tree; /* ... the caller's tree */
    const ValueYamlOptions *opt;
    ErrorTrap *trap;
    Budget *budget;
} Reader;

static noreturn void bad(const Reader *r, const Node *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static noreturn void bad(const Reader *r, const Node *node, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    Span span = span_make(r->opt->file, node->line, node->col);
    error_raise(r->trap, PHASE_CASE, "BadValue", NULL, span, "%s", msg);
}

static Node doc_node(const yaml_node_t *y)
{
    Node node = {y->type, "", false, 0, (int)y->start_mark.line + 1, (int)y->start_mark.column + 1,
                 y};
    switch (y->type) {
    case YAML_SCALAR_NODE:
        node.text = (const char *)y->data.scalar.value;
        node.plain = y->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        break;
    case YAML_SEQUENCE_NODE:
        node.n = (int)(y->data.sequence.items.top - y->data.sequence.items.start);
        break;
    case YAML_MAPPING_NODE:
        node.n = (int)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
        break;
    default:
        break;
    }
    return node;
}

static Node tree_node(const Reader *r, const void *raw)
{
    Node node = {YAML_NO_NODE, "", false, 0, 0, 0, raw};
    switch (r->tree->kind(raw)) {
    case VALUE_YAML_SCALAR:
        node.type = YAML_SCALAR_NODE;
        node.text = r->tree->text(raw);
        node.plain = r->tree->plain(raw);
        break;
    case VALUE_YAML_SEQUENCE:
        node.type = YAML_SEQUENCE_NODE;
        node.n = r->tree->count(raw);
        break;
    case VALUE_YAML_MAPPING:
        node.type = YAML_MAPPING_NODE;
        node.n = r->tree->count(raw);
        break;
    }
    return node;
}

/* Every visit of a node goes through here, so aliases cannot make reading unbounded. */
static void visit(const Reader *r, const Node *node)
{
    if (--r->budget->nodes < 0)
        bad(r, node, "YAML aliases expand to more than %ld extra nodes", VALUE_YAML_MAX_EXPANSION);
}

static Node node_at(const Reader *r, int index)
{
    Node node = doc_node(yaml_document_get_node(r->doc, index));
    visit(r, &node);
    return node;
}

/* A sequence's item i, a mapping's key i, or a mapping's value i. */
static Node seq_item(const Reader *r, const Node *node, int i)
{
    if (r->doc != NULL)
        return node_at(r, ((const yaml_node_t *)node->raw)->data.sequence.items.start[i]);
    Node item = tree_node(r, r->tree->item(node->raw, i));
    visit(r, &item);
    return item;
}

static Node map_key(const Reader *r, const Node *node, int i)
{
    if (r->doc != NULL)
        return node_at(r, ((const yaml_node_t *)node->raw)->data.mapping.pairs.start[i].key);
    Node key = {YAML_SCALAR_NODE, r->tree->key(node->raw, i), true, 0, 0, 0, NULL};
    visit(r, &key);
    return key;
}

static Node map_value(const Reader *r, const Node *node, int i)
{
    if (r->doc != NULL)
        return node_at(r, ((const yaml_node_t *)node->raw)->data.mapping.pairs.start[i].value);
    return seq_item(r, node, i);
}

/* A scalar's text; a mapping or a sequence (which has none) is named by its brackets, so a
 * message about a node of the wrong kind never reads another kind's fields. */
static const char *scalar_text(const Node *node)
{
    switch (node->type) {
    case YAML_SCALAR_NODE:
        return node->text;
    case YAML_MAPPING_NODE:
        return "{...}";
    case YAML_SEQUENCE_NODE:
        return "[...]";
    default:
        return "";
    }
}

static bool is_plain_scalar(const Node *node)
{
    return node->type == YAML_SCALAR_NODE && node->plain;
}

static const char *node_kind(const Node *node)
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

static void expect_type(const Reader *r, const Node *node, yaml_node_type_t type, const char *what)
{
    if (node->type != type)
        bad(r, node, "%s must be %s, not %s", what,
            type == YAML_SCALAR_NODE     ? "a scalar"
            : type == YAML_SEQUENCE_NODE ? "a sequence"
                                         : "a mapping",
            node_kind(node));
}

static int seq_len(const Node *node)
{
    return node->n;
}

/* ---- scalars ---- */

/* [+-]digits, the whole text. */
static bool int_syntax(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    return *s == '\0';
}

static int64_t read_int64(const Reader *r, const Node *node, const char *what)
{
    const char *s = scalar_text(node);
    if (!is_plain_scalar(node) || !int_syntax(s))
        bad(r, node, "%s must be an integer, not '%s'", what, s);
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE)
        bad(r, node, "%s %s is outside int64", what, s);
    return (int64_t)v;
}

/* The integer as its two's-complement bits, checked against the dtype's range. */
static int64_t read_int_in(const Reader *r, const Node *node, DataType dt)
{
    const char *s = scalar_text(node);
    if (!is_plain_scalar(node) || !int_syntax(s))
        bad(r, node, "a %s element must be an integer, not '%s'", dtype_str(dt), s);
    int bits = dt.bits;
    errno = 0;
    if (dtype_is_uint(dt)) {
        unsigned long long u = strtoull(s, NULL, 10);
        uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
        if (s[0] == '-' || errno == ERANGE || u > max)
            bad(r, node, "%s is out of range for %s", s, dtype_str(dt));
        return (int64_t)(uint64_t)u;
    }
    long long v = strtoll(s, NULL, 10);
    int64_t max = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
    if (errno == ERANGE || v > max || v < -max - 1)
        bad(r, node, "%s is out of range for %s", s, dtype_str(dt));
    return (int64_t)v;
}

static bool read_bool(const Reader *r, const Node *node)
{
    static const char *const trues[] = {"true", "True", "TRUE", "1"};
    static const char *const falses[] = {"false", "False", "FALSE", "0"};
    const char *s = scalar_text(node);
    for (int i = 0; is_plain_scalar(node) && i < 4; i++) {
        if (strcmp(s, trues[i]) == 0)
            return true;
        if (strcmp(s, falses[i]) == 0)
            return false;
    }
    bad(r, node, "a bool element must be true or false, not '%s'", s);
}

/* nan, inf, -inf, and YAML 1.1's .nan, .inf, -.inf in their usual capitalisations. */
static bool special_float(const char *s, double *out)
{
    static const char *const nans[] = {"nan", "NaN", "NAN", ".nan", ".NaN", ".NAN"};
    static const char *const infs[] = {"inf", "Inf", "INF", ".inf", ".Inf", ".INF"};
    double sign = 1.0;
    if (*s == '-' || *s == '+')
        sign = *s++ == '-' ? -1.0 : 1.0;
    for (int i = 0; i < 6; i++) {
        if (strcmp(s, nans[i]) == 0) {
            *out = sign < 0 ? -NAN : NAN;
            return true;
        }
        if (strcmp(s, infs[i]) == 0) {
            *out = sign * INFINITY;
            return true;
        }
    }
    return false;
}

/* A decimal literal: [+-] digits [. digits] [e [+-] digits], at least one digit before e. */
static bool float_syntax(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

/* A float literal rounded once into the dtype (float32 straight from the decimal text). */
static double read_float_in(const Reader *r, const Node *node, DataType dt)
{
    const char *s = scalar_text(node);
    double v;
    if (!is_plain_scalar(node))
        bad(r, node, "a %s element must be a plain number, not '%s'", dtype_str(dt), s);
    if (special_float(s, &v))
        return v;
    if (!float_syntax(s))
        bad(r, node, "a %s element must be a number, not '%s'", dtype_str(dt), s);
    v = dt.code == DT_FLOAT && dt.bits == 32 ? (double)strtof(s, NULL) : strtod(s, NULL);
    v = tensor_round_f64(dt, v);
    if (isinf(v))
        bad(r, node, "%s is out of range for %s", s, dtype_str(dt));
    return v;
}

static DataType read_dtype(const Reader *r, const Node *node, bool scalar_only)
{
    expect_type(r, node, YAML_SCALAR_NODE, "a dtype");
    DataType dt;
    if (!dtype_parse(scalar_text(node), &dt))
        bad(r, node, "'%s' names no data type", scalar_text(node));
    if (scalar_only && !tensor_dtype_supported(dt))
        bad(r, node, "'%s' is not a tensor or PrimValue dtype", scalar_text(node));
    return dt;
}

/* ---- mappings with named fields ---- */

typedef struct Fields {
    const char *const *names;
    int n;
    Node found[4];
    bool given[4];
} Fields;

static void read_fields(const Reader *r, const Node *node, Fields *f, const char *what)
{
    expect_type(r, node, YAML_MAPPING_NODE, what);
    for (int k = 0; k < node->n; k++) {
        Node key = map_key(r, node, k);
        if (key.type != YAML_SCALAR_NODE)
            bad(r, &key, "%s keys must be scalars", what);
        int i = 0;
        while (i < f->n && strcmp(f->names[i], scalar_text(&key)) != 0)
            i++;
        if (i == f->n)
            bad(r, &key, "unknown %s field '%s'", what, scalar_text(&key));
        if (f->given[i])
            bad(r, &key, "%s field '%s' given twice", what, scalar_text(&key));
        f->found[i] = map_value(r, node, k);
        f->given[i] = true;
    }
    for (int i = 0; i < f->n; i++)
        if (!f->given[i])
            bad(r, node, "%s lacks the field '%s'", what, f->names[i]);
}

/* ---- tensors ---- */

static void store_element(const Reader *r, const Node *node, Tensor *t, int64_t i)
{
    if (node->type != YAML_SCALAR_NODE)
        bad(r, node, "a tensor element must be a scalar, not %s", node_kind(node));
    if (dtype_is_bool(t->dtype))
        tensor_set_i64(t, i, read_bool(r, node));
    else if (dtype_is_float(t->dtype))
        tensor_set_f64(t, i, read_float_in(r, node, t->dtype));
    else
        tensor_set_i64(t, i, read_int_in(r, node, t->dtype));
}

/* Data nested by shape: one sequence level per axis. Returns the next flat index. */
static int64_t read_nested(const Reader *r, const Node *node, Tensor *t, int axis, int64_t flat)
{
    if (axis == t->ndim) {
        store_element(r, node, t, flat);
        return flat + 1;
    }
    if (node->type != YAML_SEQUENCE_NODE)
        bad(r, node, "tensor data at axis %d must be a sequence of %" PRId64 " items", axis,
            t->shape[axis]);
    if (seq_len(node) != t->shape[axis])
        bad(r, node, "tensor data has %d items at axis %d, the shape says %" PRId64, seq_len(node),
            axis, t->shape[axis]);
    for (int i = 0; i < seq_len(node); i++) {
        Node item = seq_item(r, node, i);
        flat = read_nested(r, &item, t, axis + 1, flat);
    }
    return flat;
}

static void read_data(const Reader *r, const Node *node, Tensor *t)
{
    if (t->ndim == 0 && node->type == YAML_SCALAR_NODE) {
        store_element(r, node, t, 0);
        return;
    }
    if (node->type != YAML_SEQUENCE_NODE)
        bad(r, node, "tensor data must be a sequence%s", t->ndim == 0 ? " or a number" : "");
    bool flat = t->ndim != 1 && (seq_len(node) == 0 || t->ndim == 0 ||
                                 seq_item(r, node, 0).type == YAML_SCALAR_NODE);
    if (!flat) {
        read_nested(r, node, t, 0, 0);
        return;
    }
    if (seq_len(node) != t->numel)
        bad(r, node, "flat tensor data has %d elements, the shape holds %" PRId64, seq_len(node),
            t->numel);
    for (int i = 0; i < seq_len(node); i++) {
        Node item = seq_item(r, node, i);
        store_element(r, &item, t, i);
    }
}

/* The top-level length of `data` agrees with the shape (flat: all elements; nested: the first
 * axis; deeper axes are checked while reading, which never writes past the tensor). */
static void check_data_length(const Reader *r, const Node *node, int ndim, const int64_t *dims,
                              int64_t numel)
{
    /* Every element is a node visit: more elements than visits left cannot be there. */
    if (numel > r->budget->nodes)
        bad(r, node, "the shape holds %" PRId64 " elements, more than the data can", numel);
    if (node->type != YAML_SEQUENCE_NODE)
        return;
    int64_t n = seq_len(node);
    if (n == numel || (ndim > 0 && n == dims[0]))
        return;
    bad(r, node, "tensor data has %" PRId64 " items, the shape holds %" PRId64, n, numel);
}

static int64_t *read_dims(const Reader *r, const Node *node, int *ndim, bool tensor)
{
    expect_type(r, node, YAML_SEQUENCE_NODE, "a shape");
    int n = seq_len(node);
    if (n > TENSOR_MAX_NDIM)
        bad(r, node, "a shape of rank %d is over the limit of %d", n, TENSOR_MAX_NDIM);
    int64_t *dims = mem_alloc_atomic(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        Node item = seq_item(r, node, i);
        dims[i] = read_int64(r, &item, "a dim");
        if (tensor && dims[i] < 0)
            bad(r, &item, "a tensor dim must not be negative, not %" PRId64, dims[i]);
    }
    *ndim = n;
    return dims;
}

static Value *read_tensor(const Reader *r, const Node *node)
{
    static const char *const names[] = {"dtype", "shape", "data"};
    Fields f = {names, 3, {{0}}, {0}};
    read_fields(r, node, &f, "tensor");
    DataType dt = read_dtype(r, &f.found[0], true);
    int ndim;
    int64_t *dims = read_dims(r, &f.found[1], &ndim, true);
    int64_t numel = tensor_shape_numel(dt, ndim, dims);
    if (numel < 0)
        bad(r, &f.found[1], "%s", tensor_new_refusal(dt, ndim, dims));
    /* The data must be there before the tensor is made: a shape alone allocates nothing. */
    check_data_length(r, &f.found[2], ndim, dims, numel);
    Tensor *t = tensor_new(dt, ndim, dims);
    if (t == NULL)
        bad(r, &f.found[1], "%s", tensor_new_refusal(dt, ndim, dims));
    read_data(r, &f.found[2], t);
    return value_tensor(t);
}

/* ---- the other forms ---- */

static Value *read_prim(const Reader *r, const Node *node)
{
    static const char *const names[] = {"dtype", "value"};
    Fields f = {names, 2, {{0}}, {0}};
    read_fields(r, node, &f, "prim");
    DataType dt = read_dtype(r, &f.found[0], true);
    const Node *v = &f.found[1];
    expect_type(r, v, YAML_SCALAR_NODE, "a prim value");
    if (dtype_is_bool(dt))
        return value_prim_bool(read_bool(r, v));
    if (dtype_is_float(dt))
        return value_prim_float(dt, read_float_in(r, v, dt));
    return value_prim_int(dt, read_int_in(r, v, dt));
}

static Value *read_value(const Reader *r, const Node *node);

static Value *read_tuple(const Reader *r, const Node *node)
{
    expect_type(r, node, YAML_SEQUENCE_NODE, "a tuple");
    int n = seq_len(node);
    Value **fields = MEM_ARRAY(Value *, n > 0 ? n : 1);
    if (--r->budget->depth < 0)
        bad(r, node, "values nested deeper than %d levels", VALUE_YAML_MAX_DEPTH);
    for (int i = 0; i < n; i++) {
        Node item = seq_item(r, node, i);
        fields[i] = read_value(r, &item);
    }
    r->budget->depth++;
    return value_tuple(fields, n);
}

static void expect_true(const Reader *r, const Node *node, const char *key)
{
    if (!is_plain_scalar(node) || strcmp(scalar_text(node), "true") != 0)
        bad(r, node, "{%s: ...} takes only the value true", key);
}

static void expect_pattern_allowed(const Reader *r, const Node *node, const char *key)
{
    if (!r->opt->expectation)
        bad(r, node, "{%s: ...} may only appear in an expected value", key);
}

static Value *read_form(const Reader *r, const char *key, const Node *key_node, const Node *body)
{
    if (strcmp(key, "tensor") == 0)
        return read_tensor(r, body);
    if (strcmp(key, "prim") == 0)
        return read_prim(r, body);
    if (strcmp(key, "tuple") == 0)
        return read_tuple(r, body);
    if (strcmp(key, "shape") == 0) {
        int ndim;
        int64_t *dims = read_dims(r, body, &ndim, false);
        return value_shape(dims, ndim);
    }
    if (strcmp(key, "string") == 0) {
        expect_type(r, body, YAML_SCALAR_NODE, "a string");
        return value_string(scalar_text(body));
    }
    if (strcmp(key, "dtype") == 0)
        return value_dtype(read_dtype(r, body, false));
    if (strcmp(key, "null") == 0) {
        expect_true(r, body, key);
        return value_null();
    }
    if (strcmp(key, "callable") == 0) {
        expect_pattern_allowed(r, key_node, key);
        expect_true(r, body, key);
        return value_callable_pattern();
    }
    if (strcmp(key, "object") == 0) {
        expect_pattern_allowed(r, key_node, key);
        expect_type(r, body, YAML_SCALAR_NODE, "an object name");
        return value_object(scalar_text(body));
    }
    bad(r, key_node, "unknown value kind '%s'", key);
}

/* value -> '{' kind ':' body '}' with exactly one kind */
static Value *read_value(const Reader *r, const Node *node)
{
    if (node->type != YAML_MAPPING_NODE)
        bad(r, node, "a value must be a mapping such as {tensor: ...}, not %s", node_kind(node));
    int n = node->n;
    if (n != 1)
        bad(r, node, "a value must have exactly one key, not %d", n);
    Node key = map_key(r, node, 0);
    if (key.type != YAML_SCALAR_NODE)
        bad(r, &key, "a value's key must be a scalar");
    Node body = map_value(r, node, 0);
    return read_form(r, scalar_text(&key), &key, &body);
}

Value *value_yaml_parse_node(yaml_document_t *doc, yaml_node_t *node, const ValueYamlOptions *opt,
                             ErrorTrap *trap)
{
    Budget budget = {VALUE_YAML_MAX_DEPTH,
                     (long)(doc->nodes.top - doc->nodes.start) + VALUE_YAML_MAX_EXPANSION};
    Reader r = {doc, NULL, opt, trap, &budget};
    Node root = doc_node(node);
    return read_value(&r, &root);
}

Value *value_yaml_parse_tree(const ValueYamlTree *tree, const void *root, long nodes,
                             const ValueYamlOptions *opt, ErrorTrap *trap)
{
    Budget budget = {VALUE_YAML_MAX_DEPTH, nodes + VALUE_YAML_MAX_EXPANSION};
    Reader r = {NULL, tree, opt, trap, &budget};
    Node top = tree_node(&r, root);
    return read_value(&r, &top);
}

static noreturn void raise_yaml_error(yaml_parser_t *parser, const ValueYamlOptions *opt,
                                      ErrorTrap *trap)
{
    char *msg = mem_printf("invalid YAML: %s", parser->problem ? parser->problem : "error");
    Span span = span_make(opt->file, (int)parser->problem_mark.line + 1,
                          (int)parser->problem_mark.column + 1);
    yaml_parser_delete(parser);
    error_raise(trap, PHASE_CASE, "BadValue", NULL, span, "%s", msg);
}

Value *value_yaml_parse_text(const char *text, const ValueYamlOptions *opt, ErrorTrap *trap)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        error_raise(trap, PHASE_CASE, "BadValue", NULL, span_make(opt->file, 0, 0),
                    "cannot start the YAML parser");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc))
        raise_yaml_error(&parser, opt, trap);
    yaml_parser_delete(&parser);
    /* The document is malloc'ed: catch errors here so it is freed on every path. */
    ErrorTrap inner;
    if (setjmp(inner.jmp) == 0) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root == NULL)
            error_raise(&inner, PHASE_CASE, "BadValue", NULL, span_make(opt->file, 1, 1),
                        "no value given");
        Value *v = value_yaml_parse_node(&doc, root, opt, &inner);
        yaml_document_delete(&doc);
        return v;
    }
    yaml_document_delete(&doc);
    trap->error = inner.error;
    longjmp(trap->jmp, 1);
}
