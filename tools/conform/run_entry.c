/* run_entry: calling an entry function in a fresh interpreter, and carrying values between
 * case notation and the evaluator. SPEC_NOTES: "Evaluation", "Runtime errors". */
#include "tools/conform/run_entry.h"

#include <ctype.h>
#include <string.h>
#include <yaml.h>

#include "ast/mem.h"
#include "values/compare.h"
#include "values/render.h"
#include "values/value_yaml.h"

/* ---- the call ---- */

/* LIMIT-time for calls made without options (the conformance runner's): 0, none. */
static double default_timeout;

void run_entry_set_timeout(double seconds)
{
    default_timeout = seconds;
}

static const volatile sig_atomic_t *default_interrupt;

void run_entry_set_interrupt(const volatile sig_atomic_t *flag)
{
    default_interrupt = flag;
}

bool run_entry_call(const RunEntryRequest *req, RunEntryOutput *out, Error *err)
{
    InterpOptions defaults;
    interp_options_default(&defaults);
    defaults.timeout = default_timeout;
    defaults.interrupt = default_interrupt;
    const InterpOptions *opt = req->opt != NULL ? req->opt : &defaults;
    /* On the heap so that what it printed is still there after the jump. */
    Interp *in = MEM_NEW(Interp);
    strbuf_init(&in->out);
    out->result = NULL;
    out->printed = "";
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error;
        out->printed = strbuf_str(&in->out);
        return false;
    }
    interp_init(in, req->mod, opt, &trap);
    out->result = interp_run_entry(in, req->entry, req->args, req->nargs);
    out->printed = strbuf_str(&in->out);
    return true;
}

/* ---- YAML trees to flow text ---- */

static bool plain_key(const char *k)
{
    if (*k == '\0')
        return false;
    for (; *k; k++) {
        if (!isalnum((unsigned char)*k) && *k != '_')
            return false;
    }
    return true;
}

/* A double-quoted YAML scalar: the escapes keep any text intact. */
static void write_quoted(StrBuf *sb, const char *s)
{
    strbuf_addc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            strbuf_addf(sb, "\\%c", *p);
        else if (*p == '\n')
            strbuf_add(sb, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            strbuf_addf(sb, "\\x%02x", *p);
        else
            strbuf_addc(sb, (char)*p);
    }
    strbuf_addc(sb, '"');
}

static void write_node(StrBuf *sb, const YamlNode *n)
{
    switch (n->kind) {
    case YAML_NODE_SCALAR:
        if (n->plain)
            strbuf_add(sb, n->scalar);
        else
            write_quoted(sb, n->scalar);
        return;
    case YAML_NODE_SEQ:
        strbuf_addc(sb, '[');
        for (int i = 0; i < n->nitems; i++) {
            strbuf_add(sb, i > 0 ? ", " : "");
            write_node(sb, n->items[i]);
        }
        strbuf_addc(sb, ']');
        return;
    case YAML_NODE_MAP:
        strbuf_addc(sb, '{');
        for (int i = 0; i < n->nitems; i++) {
            strbuf_add(sb, i > 0 ? ", " : "");
            if (plain_key(n->keys[i]))
                strbuf_add(sb, n->keys[i]);
            else
                write_quoted(sb, n->keys[i]);
            strbuf_add(sb, ": ");
            write_node(sb, n->items[i]);
        }
        strbuf_addc(sb, '}');
        return;
    }
}

char *run_entry_flow_text(const YamlNode *node)
{
    StrBuf sb;
    strbuf_init(&sb);
    write_node(&sb, node);
    return strbuf_str(&sb);
}

/* ---- YAML trees to values: read in place ---- */

static ValueYamlKind tree_kind(const void *node)
{
    switch (((const YamlNode *)node)->kind) {
    case YAML_NODE_SCALAR:
        break;
    case YAML_NODE_SEQ:
        return VALUE_YAML_SEQUENCE;
    case YAML_NODE_MAP:
        return VALUE_YAML_MAPPING;
    }
    return VALUE_YAML_SCALAR;
}

static const char *tree_text(const void *node)
{
    return ((const YamlNode *)node)->scalar;
}

static bool tree_plain(const void *node)
{
    return ((const YamlNode *)node)->plain;
}

static int tree_count(const void *node)
{
    return ((const YamlNode *)node)->nitems;
}

static const void *tree_item(const void *node, int i)
{
    return ((const YamlNode *)node)->items[i];
}

static const char *tree_key(const void *node, int i)
{
    return ((const YamlNode *)node)->keys[i];
}

static const ValueYamlTree yaml_node_tree = {tree_kind,  tree_text, tree_plain,
                                             tree_count, tree_item, tree_key};

/* A plain scalar that the flow text reads back as itself: letters, digits and _ . + - only
 * (never a lone "-"). */
static bool plain_as_itself(const char *s)
{
    if (s[0] == '\0' || (s[0] == '-' && s[1] == '\0'))
        return false;
    for (; *s; s++) {
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '+' && *s != '-')
            return false;
    }
    return true;
}

/* A quoted scalar or key that write_quoted writes and libyaml reads back as itself: printable
 * ASCII and line feeds. */
static bool quoted_as_itself(const char *s)
{
    for (; *s; s++) {
        if ((*s < 0x20 || *s > 0x7e) && *s != '\n')
            return false;
    }
    return true;
}

/* The nodes of the document the flow text of n loads to (each place a shared node appears
 * counted, as the text writes it again), or -1 when some scalar of n might not read back
 * as itself from that text: then n is read through its text, as it always was. */
static long text_nodes(const YamlNode *n)
{
    switch (n->kind) {
    case YAML_NODE_SCALAR:
        return (n->plain ? plain_as_itself(n->scalar) : quoted_as_itself(n->scalar)) ? 1 : -1;
    case YAML_NODE_SEQ:
    case YAML_NODE_MAP: {
        long total = 1;
        for (int i = 0; i < n->nitems; i++) {
            /* libyaml takes a key only within 1024 characters of its ':'. */
            if (n->kind == YAML_NODE_MAP &&
                (!quoted_as_itself(n->keys[i]) || strlen(n->keys[i]) > 256))
                return -1;
            long k = text_nodes(n->items[i]);
            if (k < 0)
                return -1;
            total += k + (n->kind == YAML_NODE_MAP);
        }
        return total;
    }
    }
    return -1;
}

/* The value of a YAML tree: the value its flow text reads to (value_yaml_parse_text), read
 * from the tree in place when every scalar is sure to read back as itself. */
static Value *tree_value(const YamlNode *node, const ValueYamlOptions *opt, ErrorTrap *trap)
{
    long nodes = node->kind == YAML_NODE_SCALAR ? -1 : text_nodes(node);
    if (nodes > 0)
        return value_yaml_parse_tree(&yaml_node_tree, node, nodes, opt, trap);
    return value_yaml_parse_text(run_entry_flow_text(node), opt, trap);
}

Value *run_entry_value_from_yaml(const char *file, const YamlNode *node, ErrorTrap *trap)
{
    /* Positions in the rebuilt text mean nothing in the case file: name the node instead. */
    ErrorTrap inner;
    if (setjmp(inner.jmp) != 0) {
        Error e = inner.error;
        error_raise(trap, e.phase, e.code, e.rule, span_make(file, node->line, node->col), "%s",
                    e.message);
    }
    ValueYamlOptions opt = {file, false};
    return tree_value(node, &opt, &inner);
}

/* ---- values to YAML trees ---- */

/* Whether v nests tuples more than `limit` deep (the walk goes no deeper than that). */
static bool nests_deeper(const Value *v, int limit)
{
    if (v->kind != VAL_TUPLE)
        return false;
    if (limit == 0)
        return true;
    for (int i = 0; i < v->u.tuple.n; i++)
        if (nests_deeper(v->u.tuple.fields[i], limit - 1))
            return true;
    return false;
}

YamlNode *run_entry_value_to_yaml(const Value *v)
{
    char *text = render_value_case(v);
    /* libyaml's scanner takes time quadratic in the nesting of flow collections (100,000
     * nested tuples: minutes), and the tree would be refused past YAML_NODE_MAX_DEPTH anyway:
     * such a value stays its text (SPEC_NOTES 4.18). */
    if (nests_deeper(v, YAML_NODE_MAX_DEPTH - TENSOR_MAX_NDIM - 2))
        return yaml_node_new_scalar(text, false);
    YamlLoadError err;
    YamlNode *node = yaml_node_load(text, strlen(text), &err);
    /* render_value_case always writes valid flow YAML; keep the text if it ever does not. */
    return node != NULL ? node : yaml_node_new_scalar(text, false);
}

/* ---- comparing results ---- */

static Value *read_value(const YamlNode *node, ErrorTrap *trap)
{
    ValueYamlOptions opt = {NULL, true};
    return tree_value(node, &opt, trap);
}

/* A returned value written as {callable: true} reads back as the expectation pattern; for
 * the comparison it stands for some callable, as it did before it was written. */
static Value *as_returned(Value *v)
{
    if (v->kind == VAL_OBJECT && v->u.object.callable_pattern)
        return value_packed("callable", true, NULL);
    if (v->kind != VAL_TUPLE)
        return v;
    Value **fields = MEM_ARRAY(Value *, v->u.tuple.n + 1);
    for (int i = 0; i < v->u.tuple.n; i++)
        fields[i] = as_returned(v->u.tuple.fields[i]);
    return value_tuple(fields, v->u.tuple.n);
}

const char *run_entry_values_differ(const YamlNode *expected, const YamlNode *got,
                                    const RunEntryTolerance *tol, bool *ok_read)
{
    *ok_read = false;
    if (expected == NULL || got == NULL)
        return "nothing to compare";
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return mem_printf("not a value: %s", trap.error.message);
    Value *want = read_value(expected, &trap);
    Value *have = as_returned(read_value(got, &trap));
    *ok_read = true;
    Tolerance t = {tol->rtol, tol->atol, tol->exact};
    char *reason = NULL;
    if (compare_values(have, want, &t, &reason))
        return NULL;
    return reason != NULL ? reason : "the values differ";
}
