/* compare: matching actual values against expected ones, with a reason for a mismatch.
 * SPEC_NOTES: "Values" (comparison rules of CASE_FORMAT). */
#include "values/compare.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "values/render.h"

Tolerance compare_default_tolerance(void)
{
    Tolerance t = {1e-5, 1e-6, false};
    return t;
}

bool compare_floats(double actual, double expected, const Tolerance *tol)
{
    if (isnan(actual) || isnan(expected))
        return isnan(actual) && isnan(expected);
    if (isinf(actual) || isinf(expected))
        return actual == expected;
    if (tol->exact)
        return memcmp(&actual, &expected, sizeof actual) == 0;
    return fabs(actual - expected) <= tol->atol + tol->rtol * fabs(expected);
}

/* The comparison walk: the tolerance, the path to the current value and the reason. */
typedef struct Cmp {
    const Tolerance *tol;
    StrBuf path;
    char *reason;
} Cmp;

static bool mismatch(Cmp *c, const char *what)
{
    c->reason = c->path.len > 0 ? mem_printf("at %s: %s", c->path.data, what) : mem_strdup(what);
    return false;
}

static void add_dims(StrBuf *sb, const int64_t *dims, int n)
{
    strbuf_addc(sb, '[');
    for (int i = 0; i < n; i++)
        strbuf_addf(sb, "%s%" PRId64, i > 0 ? ", " : "", dims[i]);
    strbuf_addc(sb, ']');
}

static char *dims_str(const int64_t *dims, int n)
{
    StrBuf sb;
    strbuf_init(&sb);
    add_dims(&sb, dims, n);
    return strbuf_str(&sb);
}

/* The row-major multi-index of a flat index, for messages. */
static char *index_str(const Tensor *t, int64_t flat)
{
    int64_t *idx = MEM_ARRAY(int64_t, t->ndim > 0 ? t->ndim : 1);
    for (int i = t->ndim - 1; i >= 0; i--) {
        idx[i] = t->shape[i] > 0 ? flat % t->shape[i] : 0;
        flat = t->shape[i] > 0 ? flat / t->shape[i] : 0;
    }
    return dims_str(idx, t->ndim);
}

static char *element_str(const Tensor *t, int64_t i)
{
    if (dtype_is_float(t->dtype))
        return render_float_repr(tensor_get_f64(t, i), t->dtype);
    if (dtype_is_bool(t->dtype))
        return mem_strdup(tensor_get_i64(t, i) ? "true" : "false");
    if (dtype_is_uint(t->dtype))
        return mem_printf("%" PRIu64, tensor_get_u64(t, i));
    return mem_printf("%" PRId64, tensor_get_i64(t, i));
}

/* Floats in exact mode compare their stored bits, so float16 -0 differs from 0. */
static bool tensor_elem_equal(const Tensor *a, const Tensor *b, int64_t i, const Tolerance *tol)
{
    if (!dtype_is_float(a->dtype))
        return tensor_get_u64(a, i) == tensor_get_u64(b, i);
    return compare_floats(tensor_get_f64(a, i), tensor_get_f64(b, i), tol);
}

static bool compare_tensors(Cmp *c, const Tensor *a, const Tensor *e)
{
    if (!dtype_equal(a->dtype, e->dtype))
        return mismatch(
            c, mem_printf("dtype: got %s, expected %s", dtype_str(a->dtype), dtype_str(e->dtype)));
    if (!tensor_shape_equal(a, e))
        return mismatch(c, mem_printf("shape: got %s, expected %s", dims_str(a->shape, a->ndim),
                                      dims_str(e->shape, e->ndim)));
    for (int64_t i = 0; i < a->numel; i++) {
        if (tensor_elem_equal(a, e, i, c->tol))
            continue;
        return mismatch(c, mem_printf("element %s: got %s, expected %s (%s)", index_str(a, i),
                                      element_str(a, i), element_str(e, i), dtype_str(a->dtype)));
    }
    return true;
}

static bool compare_prims(Cmp *c, const Value *a, const Value *e)
{
    DataType dt = e->u.prim.dtype;
    if (!dtype_equal(a->u.prim.dtype, dt))
        return mismatch(c, mem_printf("prim dtype: got %s, expected %s", dtype_str(a->u.prim.dtype),
                                      dtype_str(dt)));
    bool same = dtype_is_float(dt) ? compare_floats(a->u.prim.f, e->u.prim.f, c->tol)
                                   : a->u.prim.i == e->u.prim.i;
    if (same)
        return true;
    return mismatch(c, mem_printf("prim value: got %s, expected %s", render_value_print(a),
                                  render_value_print(e)));
}

static bool compare_shapes(Cmp *c, const Value *a, const Value *e)
{
    bool same = a->u.shape.ndim == e->u.shape.ndim;
    for (int i = 0; same && i < a->u.shape.ndim; i++)
        same = a->u.shape.dims[i] == e->u.shape.dims[i];
    if (same)
        return true;
    return mismatch(c, mem_printf("shape value: got %s, expected %s",
                                  dims_str(a->u.shape.dims, a->u.shape.ndim),
                                  dims_str(e->u.shape.dims, e->u.shape.ndim)));
}

static bool compare_in(Cmp *c, const Value *a, const Value *e);

static bool compare_tuples(Cmp *c, const Value *a, const Value *e)
{
    if (a->u.tuple.n != e->u.tuple.n)
        return mismatch(
            c, mem_printf("tuple length: got %d, expected %d", a->u.tuple.n, e->u.tuple.n));
    size_t mark = c->path.len;
    for (int i = 0; i < a->u.tuple.n; i++) {
        c->path.len = mark;
        strbuf_addf(&c->path, "[%d]", i);
        if (!compare_in(c, a->u.tuple.fields[i], e->u.tuple.fields[i]))
            return false;
    }
    c->path.len = mark;
    c->path.data[mark] = '\0';
    return true;
}

static bool same_text(Cmp *c, const char *what, const char *a, const char *e)
{
    if (strcmp(a, e) == 0)
        return true;
    return mismatch(c, mem_printf("%s: got \"%s\", expected \"%s\"", what, a, e));
}

static bool kind_mismatch(Cmp *c, const Value *a, const char *expected)
{
    return mismatch(c, mem_printf("kind: got %s, expected %s", value_kind_name(a->kind), expected));
}

/* Expected kinds a run never produces (callable patterns) are matched on kind alone. */
static bool compare_in(Cmp *c, const Value *a, const Value *e)
{
    bool callable = value_is_callable(e) || (e->kind == VAL_OBJECT && e->u.object.callable_pattern);
    if (callable)
        return value_is_callable(a) ? true : kind_mismatch(c, a, "a callable");
    if (a->kind != e->kind)
        return kind_mismatch(c, a, value_kind_name(e->kind));
    switch (e->kind) {
    case VAL_TENSOR:
        return compare_tensors(c, a->u.tensor, e->u.tensor);
    case VAL_TUPLE:
        return compare_tuples(c, a, e);
    case VAL_SHAPE:
        return compare_shapes(c, a, e);
    case VAL_PRIM:
        return compare_prims(c, a, e);
    case VAL_STRING:
        return same_text(c, "string", a->u.str, e->u.str);
    case VAL_DTYPE:
        return same_text(c, "dtype", dtype_str(a->u.dtype), dtype_str(e->u.dtype));
    case VAL_NULL:
        return true;
    case VAL_OBJECT:
        return same_text(c, "object name", a->u.object.name, e->u.object.name);
    case VAL_CLOSURE:
    case VAL_PACKED:
    case VAL_PRIMFUNC:
        return true; /* handled above */
    }
    return true;
}

bool compare_values(const Value *actual, const Value *expected, const Tolerance *tol, char **reason)
{
    Tolerance dflt = compare_default_tolerance();
    Cmp c = {tol != NULL ? tol : &dflt, {0}, NULL};
    strbuf_init(&c.path);
    bool ok = compare_in(&c, actual, expected);
    if (reason != NULL)
        *reason = ok ? NULL : c.reason;
    return ok;
}
