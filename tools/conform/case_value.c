/* case_value: CASE_FORMAT "Values" as YAML trees: the structural check of a value written in
 * a case, and the comparison of an expected value with a returned one. SPEC_NOTES: "Case file
 * errors". */
#include "tools/conform/case_value.h"

#include <math.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/mem.h"
#include "ast/rule.h"

static const char *const VALUE_KINDS[] = {"tensor", "shape", "prim",     "tuple",  "string",
                                          "dtype",  "null",  "callable", "object", NULL};

/* The kind key of a value mapping ({tensor: ...} -> "tensor"), or NULL. */
static const char *value_kind(const YamlNode *v)
{
    if (v == NULL || v->kind != YAML_NODE_MAP || v->nitems != 1)
        return NULL;
    for (const char *const *k = VALUE_KINDS; *k != NULL; k++) {
        if (strcmp(*k, v->keys[0]) == 0)
            return *k;
    }
    return NULL;
}

/* ---- validation ---- */

typedef struct Checker {
    const char *file;
    ErrorTrap *trap;
    const YamlNode *last; /* the innermost value mapping, where a missing field is reported */
} Checker;

static noreturn void bad(const Checker *ck, const YamlNode *at, const char *msg)
{
    if (at == NULL)
        at = ck->last;
    error_raise(ck->trap, PHASE_CASE, "CaseValue", NULL, span_make(ck->file, at->line, at->col),
                "%s", msg);
}

static DataType need_dtype(const Checker *ck, const YamlNode *n)
{
    DataType t;
    if (n == NULL || n->kind != YAML_NODE_SCALAR || !dtype_parse(n->scalar, &t) || dtype_is_void(t))
        bad(ck, n, "expected a data type name such as float32");
    return t;
}

/* An implementation-defined element: {one_of: [a, b, ...]} (RESULT-2). */
static const YamlNode *one_of(const YamlNode *n)
{
    if (n == NULL || n->kind != YAML_NODE_MAP || n->nitems != 1 ||
        strcmp(n->keys[0], "one_of") != 0)
        return NULL;
    return n->items[0];
}

/* A number that fits the dtype's kind: integers for int/uint, true/false or 0/1 for bool; or
 * {one_of: [..]} of such numbers. */
static void need_element(const Checker *ck, const YamlNode *n, DataType t)
{
    const YamlNode *alts = one_of(n);
    if (alts != NULL) {
        if (alts->kind != YAML_NODE_SEQ || alts->nitems == 0)
            bad(ck, n, "one_of takes a non-empty list of numbers");
        for (int i = 0; i < alts->nitems; i++)
            need_element(ck, alts->items[i], t);
        return;
    }
    double d;
    bool is_int, b;
    if (dtype_is_bool(t) && (yaml_node_bool(n, &b) ||
                             (yaml_node_number(n, &d, &is_int) && is_int && (d == 0 || d == 1))))
        return;
    if (!yaml_node_number(n, &d, &is_int))
        bad(ck, n, mem_printf("expected a %s number", dtype_str(t)));
    if ((dtype_is_int(t) || dtype_is_uint(t)) && !is_int)
        bad(ck, n, mem_printf("expected an integer for %s", dtype_str(t)));
}

static int need_shape(const Checker *ck, const YamlNode *n, long long **dims)
{
    if (n == NULL || n->kind != YAML_NODE_SEQ)
        bad(ck, n, "expected a shape: a list of non-negative integers");
    *dims = MEM_ARRAY(long long, n->nitems + 1);
    for (int i = 0; i < n->nitems; i++) {
        if (!yaml_node_int(n->items[i], &(*dims)[i]) || (*dims)[i] < 0)
            bad(ck, n->items[i], "expected a non-negative integer dimension");
    }
    return n->nitems;
}

/* data nested by shape: every level a list of the dimension's length. */
static void check_nested(const Checker *ck, const YamlNode *n, const long long *dims, int ndim,
                         DataType t)
{
    if (ndim == 0) {
        need_element(ck, n, t);
        return;
    }
    if (n->kind != YAML_NODE_SEQ || n->nitems != dims[0])
        bad(ck, n, mem_printf("expected a list of %lld items (data nested by shape)", dims[0]));
    for (int i = 0; i < n->nitems; i++)
        check_nested(ck, n->items[i], dims + 1, ndim - 1, t);
}

static bool is_flat(const YamlNode *data)
{
    for (int i = 0; i < data->nitems; i++) {
        if (data->items[i]->kind != YAML_NODE_SCALAR && one_of(data->items[i]) == NULL)
            return false;
    }
    return true;
}

/* The elements a shape holds: 0 with a dim of 0 (the others may be near 2^63), -1 past
 * int64 (no data list is that long). */
static long long shape_size(const long long *dims, int ndim)
{
    long long size = 1;
    for (int i = 0; i < ndim; i++)
        if (dims[i] == 0)
            return 0;
    for (int i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(size, dims[i], &size))
            return -1;
    return size;
}

static void check_tensor(const Checker *ck, const YamlNode *n)
{
    static const char *const keys[] = {"dtype", "shape", "data"};
    if (n->kind != YAML_NODE_MAP || n->nitems != 3)
        bad(ck, n, "a tensor is {dtype: .., shape: [..], data: ..}");
    for (int i = 0; i < 3; i++) {
        if (yaml_node_get(n, keys[i]) == NULL)
            bad(ck, n, mem_printf("a tensor needs %s", keys[i]));
    }
    DataType t = need_dtype(ck, yaml_node_get(n, "dtype"));
    long long *dims;
    int ndim = need_shape(ck, yaml_node_get(n, "shape"), &dims);
    const YamlNode *data = yaml_node_get(n, "data");
    bool flat = ndim > 1 && data->kind == YAML_NODE_SEQ && is_flat(data);
    if (!flat) {
        check_nested(ck, data, dims, ndim, t);
        return;
    }
    long long size = shape_size(dims, ndim);
    if (data->nitems != size)
        bad(ck, data,
            size < 0
                ? mem_printf("flat data has %d items, the shape holds more than 2^63 - 1",
                             data->nitems)
                : mem_printf("flat data has %d items, the shape holds %lld", data->nitems, size));
    for (int i = 0; i < data->nitems; i++)
        need_element(ck, data->items[i], t);
}

static void check_true(const Checker *ck, const YamlNode *n, const char *what)
{
    bool b;
    if (!yaml_node_bool(n, &b) || !b)
        bad(ck, n, mem_printf("%s must be true", what));
}

static void check_value(Checker *ck, const YamlNode *v)
{
    ck->last = v;
    const char *kind = value_kind(v);
    if (kind == NULL)
        bad(ck, v,
            "expected a value: a mapping with one key of tensor, shape, prim, tuple, "
            "string, dtype, null, callable, object");
    const YamlNode *body = v->items[0];
    if (strcmp(kind, "tensor") == 0) {
        check_tensor(ck, body);
    } else if (strcmp(kind, "shape") == 0) {
        long long *dims;
        need_shape(ck, body, &dims);
    } else if (strcmp(kind, "prim") == 0) {
        if (body->kind != YAML_NODE_MAP || body->nitems != 2 || !yaml_node_get(body, "value"))
            bad(ck, body, "a PrimValue is {dtype: .., value: ..}");
        need_element(ck, yaml_node_get(body, "value"),
                     need_dtype(ck, yaml_node_get(body, "dtype")));
    } else if (strcmp(kind, "tuple") == 0) {
        if (body->kind != YAML_NODE_SEQ)
            bad(ck, body, "a tuple is a list of values");
        for (int i = 0; i < body->nitems; i++)
            check_value(ck, body->items[i]);
    } else if (strcmp(kind, "string") == 0 || strcmp(kind, "object") == 0) {
        if (body->kind != YAML_NODE_SCALAR)
            bad(ck, body, mem_printf("%s takes a string", kind));
    } else if (strcmp(kind, "dtype") == 0) {
        need_dtype(ck, body);
    } else {
        check_true(ck, body, kind);
    }
}

void case_value_validate(const char *file, const YamlNode *value, ErrorTrap *trap)
{
    Checker ck = {file, trap, value};
    check_value(&ck, value);
}

/* ---- comparison ---- */

typedef struct Cmp {
    Tolerance tol;
    StrBuf path; /* where in the value, e.g. "[1].data[3]" */
    const char *why;
} Cmp;

static bool differ(Cmp *c, const char *fmt, const YamlNode *e, const YamlNode *g)
{
    const char *at = c->path.len > 0 ? mem_printf(" at %s", strbuf_str(&c->path)) : "";
    c->why = mem_printf("%s%s: expected %s, got %s", fmt, at, yaml_node_str(e), yaml_node_str(g));
    return false;
}

/* Elements of tensor data in row-major order, nested or flat alike. */
static void flatten(const YamlNode *data, const YamlNode ***out, int *len, int *cap)
{
    if (data->kind != YAML_NODE_SEQ) {
        VEC_PUSH(*out, *len, *cap, data);
        return;
    }
    for (int i = 0; i < data->nitems; i++)
        flatten(data->items[i], out, len, cap);
}

static bool as_number(const YamlNode *n, double *d)
{
    bool is_int, b;
    if (yaml_node_bool(n, &b)) {
        *d = b ? 1 : 0;
        return true;
    }
    return yaml_node_number(n, d, &is_int);
}

static bool number_equal(double e, double g, DataType t, Tolerance tol)
{
    if (!dtype_is_float(t))
        return e == g;
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (tol.exact)
        return memcmp(&e, &g, sizeof e) == 0;
    if (isinf(e) || isinf(g))
        return e == g;
    return fabs(g - e) <= tol.atol + tol.rtol * fabs(e);
}

static bool same_dtype(const YamlNode *e, const YamlNode *g)
{
    DataType te, tg;
    return e != NULL && g != NULL && e->kind == YAML_NODE_SCALAR && g->kind == YAML_NODE_SCALAR &&
           dtype_parse(e->scalar, &te) && dtype_parse(g->scalar, &tg) && dtype_equal(te, tg);
}

static bool same_ints(const YamlNode *e, const YamlNode *g)
{
    if (e == NULL || g == NULL || e->kind != YAML_NODE_SEQ || g->kind != YAML_NODE_SEQ ||
        e->nitems != g->nitems)
        return false;
    for (int i = 0; i < e->nitems; i++) {
        long long a, b;
        if (!yaml_node_int(e->items[i], &a) || !yaml_node_int(g->items[i], &b) || a != b)
            return false;
    }
    return true;
}

static bool tensor_equal(Cmp *c, const YamlNode *e, const YamlNode *g)
{
    if (g->kind != YAML_NODE_MAP ||
        !same_dtype(yaml_node_get(e, "dtype"), yaml_node_get(g, "dtype")))
        return differ(c, "dtype differs", yaml_node_get(e, "dtype"), g);
    if (!same_ints(yaml_node_get(e, "shape"), yaml_node_get(g, "shape")))
        return differ(c, "shape differs", yaml_node_get(e, "shape"), yaml_node_get(g, "shape"));
    DataType t;
    dtype_parse(yaml_node_get(e, "dtype")->scalar, &t);
    const YamlNode **ee = NULL, **gg = NULL;
    int ne = 0, ng = 0, ce = 0, cg = 0;
    flatten(yaml_node_get(e, "data"), &ee, &ne, &ce);
    if (yaml_node_get(g, "data") != NULL)
        flatten(yaml_node_get(g, "data"), &gg, &ng, &cg);
    if (ne != ng)
        return differ(c, "element count differs", yaml_node_get(e, "data"),
                      yaml_node_get(g, "data"));
    for (int i = 0; i < ne; i++) {
        double a, b;
        if (!as_number(ee[i], &a) || !as_number(gg[i], &b) || !number_equal(a, b, t, c->tol)) {
            strbuf_addf(&c->path, ".data[%d]", i);
            return differ(c, "tensor element differs", ee[i], gg[i]);
        }
    }
    return true;
}

static bool value_equal(Cmp *c, const YamlNode *e, const YamlNode *g);

static bool tuple_equal(Cmp *c, const YamlNode *e, const YamlNode *g)
{
    if (g->kind != YAML_NODE_SEQ || g->nitems != e->nitems)
        return differ(c, "tuple length differs", e, g);
    size_t mark = c->path.len;
    for (int i = 0; i < e->nitems; i++) {
        c->path.len = mark;
        strbuf_addf(&c->path, "[%d]", i);
        if (!value_equal(c, e->items[i], g->items[i]))
            return false;
    }
    c->path.len = mark;
    return true;
}

static bool prim_equal(Cmp *c, const YamlNode *e, const YamlNode *g)
{
    if (g->kind != YAML_NODE_MAP ||
        !same_dtype(yaml_node_get(e, "dtype"), yaml_node_get(g, "dtype")))
        return differ(c, "PrimValue dtype differs", e, g);
    DataType t;
    dtype_parse(yaml_node_get(e, "dtype")->scalar, &t);
    double a, b;
    if (!as_number(yaml_node_get(e, "value"), &a) || !as_number(yaml_node_get(g, "value"), &b) ||
        !number_equal(a, b, t, c->tol))
        return differ(c, "PrimValue differs", e, g);
    return true;
}

static bool value_equal(Cmp *c, const YamlNode *e, const YamlNode *g)
{
    const char *kind = value_kind(e);
    const char *gkind = value_kind(g);
    if (kind == NULL || gkind == NULL || strcmp(kind, gkind) != 0)
        return differ(c, "value kind differs", e, g);
    const YamlNode *eb = e->items[0], *gb = g->items[0];
    if (strcmp(kind, "tensor") == 0)
        return tensor_equal(c, eb, gb);
    if (strcmp(kind, "tuple") == 0)
        return tuple_equal(c, eb, gb);
    if (strcmp(kind, "prim") == 0)
        return prim_equal(c, eb, gb);
    if (strcmp(kind, "shape") == 0)
        return same_ints(eb, gb) || differ(c, "shape value differs", e, g);
    if (strcmp(kind, "dtype") == 0)
        return same_dtype(eb, gb) || differ(c, "dtype value differs", e, g);
    if (strcmp(kind, "string") == 0)
        return (gb->kind == YAML_NODE_SCALAR && strcmp(eb->scalar, gb->scalar) == 0) ||
               differ(c, "string differs", e, g);
    /* An opaque object's name counts only where the implementation reports one. */
    if (strcmp(kind, "object") == 0 && gb->kind == YAML_NODE_SCALAR && gb->scalar[0] != '\0' &&
        eb->scalar[0] != '\0' && strcmp(eb->scalar, gb->scalar) != 0)
        return differ(c, "object name differs", e, g);
    return true; /* null, callable, object: only the kind counts */
}

bool case_value_equal(const YamlNode *expected, const YamlNode *got, Tolerance tol,
                      const char **why)
{
    Cmp c = {tol, {0}, NULL};
    strbuf_init(&c.path);
    if (got == NULL) {
        *why = mem_printf("expected %s, got nothing", yaml_node_str(expected));
        return false;
    }
    bool eq = value_equal(&c, expected, got);
    *why = c.why;
    return eq;
}

/* ---- implementation-defined elements (RESULT-2) ---- */

/* The alternative of `alts` that `got` matches, or the first (the reference's choice). */
static YamlNode *pick(const YamlNode *alts, const YamlNode *got, DataType t, Tolerance tol,
                      bool strict)
{
    double g, a;
    if (!strict && got != NULL && as_number(got, &g)) {
        for (int i = 0; i < alts->nitems; i++)
            if (as_number(alts->items[i], &a) && number_equal(a, g, t, tol))
                return alts->items[i];
    }
    return alts->items[0];
}

static YamlNode *resolve_tensor(const YamlNode *e, const YamlNode *g, Tolerance tol,
                                bool strict)
{
    const YamlNode *body = e->items[0];
    DataType t;
    if (!dtype_parse(yaml_node_get(body, "dtype")->scalar, &t))
        return (YamlNode *)e;
    const YamlNode **ee = NULL, **gg = NULL;
    int ne = 0, ng = 0, ce = 0, cg = 0;
    flatten(yaml_node_get(body, "data"), &ee, &ne, &ce);
    const YamlNode *gb = g != NULL && value_kind(g) != NULL ? g->items[0] : NULL;
    if (gb != NULL && gb->kind == YAML_NODE_MAP && yaml_node_get(gb, "data") != NULL)
        flatten(yaml_node_get(gb, "data"), &gg, &ng, &cg);
    YamlNode *data = yaml_node_new_seq();
    for (int i = 0; i < ne; i++) {
        const YamlNode *alts = one_of(ee[i]);
        if (alts != NULL)
            rule_fired("RESULT-2");
        yaml_node_seq_add(data, alts ? pick(alts, i < ng ? gg[i] : NULL, t, tol, strict)
                                     : (YamlNode *)ee[i]);
    }
    const YamlNode *shape = yaml_node_get(body, "shape");
    bool scalar = shape->kind == YAML_NODE_SEQ && shape->nitems == 0 && data->nitems == 1;
    YamlNode *nb = yaml_node_new_map();
    yaml_node_map_add(nb, "dtype", yaml_node_get(body, "dtype"));
    yaml_node_map_add(nb, "shape", (YamlNode *)shape);
    yaml_node_map_add(nb, "data", scalar ? data->items[0] : data); /* a scalar's data is plain */
    YamlNode *v = yaml_node_new_map();
    yaml_node_map_add(v, "tensor", nb);
    return v;
}

YamlNode *case_value_resolve(const YamlNode *expected, const YamlNode *got, Tolerance tol,
                             bool strict)
{
    const char *kind = value_kind(expected);
    if (kind == NULL)
        return (YamlNode *)expected;
    if (strcmp(kind, "tensor") == 0)
        return resolve_tensor(expected, got, tol, strict);
    if (strcmp(kind, "prim") == 0) {
        const YamlNode *body = expected->items[0], *alts = one_of(yaml_node_get(body, "value"));
        DataType t;
        if (alts == NULL || !dtype_parse(yaml_node_get(body, "dtype")->scalar, &t))
            return (YamlNode *)expected;
        rule_fired("RESULT-2");
        const YamlNode *gb = value_kind(got) != NULL ? got->items[0] : NULL;
        const YamlNode *gv = gb != NULL && gb->kind == YAML_NODE_MAP ? yaml_node_get(gb, "value")
                                                                       : NULL;
        YamlNode *nb = yaml_node_new_map(), *v = yaml_node_new_map();
        yaml_node_map_add(nb, "dtype", yaml_node_get(body, "dtype"));
        yaml_node_map_add(nb, "value", pick(alts, gv, t, tol, strict));
        yaml_node_map_add(v, "prim", nb);
        return v;
    }
    if (strcmp(kind, "tuple") != 0)
        return (YamlNode *)expected;
    const YamlNode *items = expected->items[0];
    const YamlNode *gitems =
        got != NULL && value_kind(got) != NULL && strcmp(value_kind(got), "tuple") == 0
            ? got->items[0]
            : NULL;
    YamlNode *seq = yaml_node_new_seq(), *v = yaml_node_new_map();
    for (int i = 0; i < items->nitems; i++) {
        const YamlNode *gi = gitems != NULL && i < gitems->nitems ? gitems->items[i] : NULL;
        yaml_node_seq_add(seq, case_value_resolve(items->items[i], gi, tol, strict));
    }
    yaml_node_map_add(v, "tuple", seq);
    return v;
}
