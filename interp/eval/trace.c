/* trace: the --trace output, one line per binding as it is evaluated, with value identity
 * (#id, so aliasing shows) and the shape variables in scope. SPEC_NOTES: "Evaluation" (ALIAS-1). */
#include <stdlib.h>

#include "ast/tir.h"
#include "interp/eval/eval_internal.h"
#include "values/tensor.h"

#define TRACE_ELEMS 4

static void tensor_summary(StrBuf *sb, const Tensor *t)
{
    strbuf_addf(sb, "tensor %s [", dtype_str(t->dtype));
    for (int i = 0; i < t->ndim; i++)
        strbuf_addf(sb, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    strbuf_add(sb, "] {");
    int64_t n = t->numel < TRACE_ELEMS ? t->numel : TRACE_ELEMS;
    for (int64_t i = 0; i < n; i++) {
        if (i)
            strbuf_add(sb, ", ");
        if (dtype_is_float(t->dtype))
            strbuf_addf(sb, "%.6g", tensor_get_f64(t, i));
        else if (dtype_is_uint(t->dtype) && t->dtype.bits == 64)
            strbuf_addf(sb, "%llu", (unsigned long long)tensor_get_u64(t, i));
        else
            strbuf_addf(sb, "%lld", (long long)tensor_get_i64(t, i));
    }
    strbuf_add(sb, t->numel > n ? ", ...}" : "}");
}

static void prim_summary(StrBuf *sb, const Value *v)
{
    DataType dt = v->u.prim.dtype;
    if (value_prim_is_float(v))
        strbuf_addf(sb, "prim %s %.9g", dtype_str(dt), v->u.prim.f);
    else if (dtype_is_uint(dt) && dt.bits == 64)
        strbuf_addf(sb, "prim %s %llu", dtype_str(dt), (unsigned long long)v->u.prim.i);
    else
        strbuf_addf(sb, "prim %s %lld", dtype_str(dt), (long long)v->u.prim.i);
}

static void shape_summary(StrBuf *sb, const Value *v)
{
    strbuf_add(sb, "shape (");
    for (int i = 0; i < v->u.shape.ndim; i++)
        strbuf_addf(sb, "%s%lld", i ? ", " : "", (long long)v->u.shape.dims[i]);
    strbuf_add(sb, ")");
}

static void tuple_summary(StrBuf *sb, const Value *v)
{
    strbuf_addf(sb, "tuple(%d) (", v->u.tuple.n);
    for (int i = 0; i < v->u.tuple.n; i++)
        strbuf_addf(sb, "%s#%d", i ? ", " : "", v->u.tuple.fields[i]->id);
    strbuf_add(sb, ")");
}

void trace_value_summary(StrBuf *sb, const Value *v)
{
    switch (v->kind) {
    case VAL_TENSOR:
        tensor_summary(sb, v->u.tensor);
        break;
    case VAL_TUPLE:
        tuple_summary(sb, v);
        break;
    case VAL_SHAPE:
        shape_summary(sb, v);
        break;
    case VAL_PRIM:
        prim_summary(sb, v);
        break;
    case VAL_STRING:
        strbuf_addf(sb, "string \"%s\"", v->u.str);
        break;
    case VAL_DTYPE:
        strbuf_addf(sb, "dtype %s", dtype_str(v->u.dtype));
        break;
    case VAL_CLOSURE: {
        const char *name = v->u.closure.func->name;
        strbuf_addf(sb, "closure %s", name ? name : "<lambda>");
        break;
    }
    case VAL_PACKED:
        strbuf_addf(sb, "packed %s", v->u.packed.name);
        break;
    case VAL_PRIMFUNC:
        strbuf_addf(sb, "prim_func %s", v->u.primfunc->name);
        break;
    case VAL_NULL:
        strbuf_add(sb, "null");
        break;
    case VAL_OBJECT:
        strbuf_addf(sb, "object %s", v->u.object.name);
        break;
    }
    strbuf_addf(sb, " #%d", v->id);
}

typedef struct ShapeList {
    const TirVar **vars;
    int64_t *vals;
    int n;
    int cap;
    int capv;
} ShapeList;

static void collect(void *ctx, const TirVar *var, int64_t v)
{
    ShapeList *sl = ctx;
    int n = sl->n;
    VEC_PUSH(sl->vars, sl->n, sl->cap, var);
    VEC_PUSH(sl->vals, n, sl->capv, v);
}

static int by_id(const void *a, const void *b)
{
    const TirVar *x = *(const TirVar *const *)a;
    const TirVar *y = *(const TirVar *const *)b;
    return (x->id > y->id) - (x->id < y->id);
}

static void shape_vars(StrBuf *sb, const Env *env)
{
    ShapeList sl = {0};
    env_each_shape(env, collect, &sl);
    if (sl.n == 0)
        return;
    /* Sorted by declaration, so the line does not depend on hash order. */
    const TirVar **sorted = MEM_ARRAY(const TirVar *, sl.n);
    for (int i = 0; i < sl.n; i++)
        sorted[i] = sl.vars[i];
    qsort(sorted, (size_t)sl.n, sizeof *sorted, by_id);
    strbuf_add(sb, "  [");
    for (int i = 0; i < sl.n; i++) {
        int64_t x = 0;
        env_lookup_shape(env, sorted[i], &x);
        strbuf_addf(sb, "%s%s=%lld", i ? ", " : "", sorted[i]->name, (long long)x);
    }
    strbuf_add(sb, "]");
}

void trace_binding(Interp *in, const Env *env, const Binding *b, const Value *v)
{
    if (in->opt.trace == NULL)
        return;
    StrBuf sb;
    strbuf_init(&sb);
    const char *name = b->var ? b->var->name : "_";
    if (b->span.line > 0)
        strbuf_addf(&sb, "%d:%d: ", b->span.line, b->span.col);
    strbuf_addf(&sb, "%s%s = ", b->kind == BIND_MATCH_CAST ? "match_cast " : "", name);
    if (v == NULL)
        strbuf_add(&sb, "<tail call>");
    else
        trace_value_summary(&sb, v);
    shape_vars(&sb, env);
    strbuf_addc(&sb, '\n');
    fputs(sb.data, in->opt.trace);
}

/* The value of a SeqExpr's body (a function's result, an If branch's value) when the body is
 * an expression rather than a variable whose binding was already traced. */
void trace_body(Interp *in, const Env *env, const Expr *body, const Value *v)
{
    if (in->opt.trace == NULL || body->kind == EXPR_VAR)
        return;
    StrBuf sb;
    strbuf_init(&sb);
    if (body->span.line > 0)
        strbuf_addf(&sb, "%d:%d: ", body->span.line, body->span.col);
    strbuf_add(&sb, "=> ");
    trace_value_summary(&sb, v);
    shape_vars(&sb, env);
    strbuf_addc(&sb, '\n');
    fputs(sb.data, in->opt.trace);
}
