/* trace: --trace, one line per binding evaluated: value identity (#id, so aliasing shows),
 * shape variables in scope, call depth and the rule applied. SPEC_NOTES: "Evaluation" (E-*). */
#include <stdlib.h>
#include <string.h>

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

/* The evaluation rule (SPEC_NOTES 1.2) a binding's value follows. A GlobalVar is looked up
 * as a variable of the module's scope (§9.1), an Op is only ever a callee (E-12). */
static const char *value_rule(const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
        return "E-1";
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
        return "E-2";
    case EXPR_TUPLE:
        return "E-3";
    case EXPR_PRIM_VALUE:
        return "E-4";
    case EXPR_STRING:
        return "E-5";
    case EXPR_DTYPE:
        return "E-6";
    case EXPR_TUPLE_GET_ITEM:
        return "E-7";
    case EXPR_SHAPE:
        return "E-8";
    case EXPR_FUNCTION:
        return "E-9";
    case EXPR_IF:
        return "E-10";
    case EXPR_EXTERN_FUNC:
        return "E-11";
    case EXPR_CALL:
    case EXPR_OP:
        return "E-12";
    case EXPR_SEQ:
        return "E-13";
    }
    return "E-13"; /* not reached: every case of the switch returns */
}

/* One step of the trace, written as text or (--trace=json) as one JSON object a line. */
typedef struct TraceStep {
    Span span;
    const char *kind; /* "binding", "match_cast", "result" */
    const char *var;  /* NULL for a result */
    const Value *v;   /* NULL: a call left in tail position */
    const char *rule;
} TraceStep;

/* `L:C: [match_cast ]NAME = SUMMARY  [shape vars]  (FUNC, depth D, RULE)` */
static void step_text(StrBuf *sb, const Interp *in, const Env *env, const TraceStep *st)
{
    if (st->span.line > 0)
        strbuf_addf(sb, "%d:%d: ", st->span.line, st->span.col);
    if (st->var == NULL)
        strbuf_add(sb, "=> ");
    else
        strbuf_addf(sb, "%s%s = ", strcmp(st->kind, "match_cast") == 0 ? "match_cast " : "",
                    st->var);
    if (st->v == NULL)
        strbuf_add(sb, "<tail call>");
    else
        trace_value_summary(sb, st->v);
    shape_vars(sb, env);
    strbuf_addf(sb, "  (%s, depth %d, %s)\n", in->func != NULL ? in->func : "<lambda>",
                in->depth, st->rule);
}

static void json_string(StrBuf *sb, const char *s)
{
    strbuf_addc(sb, '"');
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            strbuf_addf(sb, "\\%c", c);
        else if (c < 0x20)
            strbuf_addf(sb, "\\u%04x", c);
        else
            strbuf_addc(sb, (char)c);
    }
    strbuf_addc(sb, '"');
}

static void json_field(StrBuf *sb, const char *key, const char *value)
{
    strbuf_addf(sb, ", \"%s\": ", key);
    if (value == NULL)
        strbuf_add(sb, "null");
    else
        json_string(sb, value);
}

/* {"line": L, "col": C, "func": F, "depth": D, "rule": R, "kind": K, "var": V,
 *  "value": SUMMARY, "id": N, "shape_vars": "[n=2]"} */
static void step_json(StrBuf *sb, const Interp *in, const Env *env, const TraceStep *st)
{
    strbuf_addf(sb, "{\"line\": %d, \"col\": %d", st->span.line, st->span.col);
    json_field(sb, "func", in->func);
    strbuf_addf(sb, ", \"depth\": %d", in->depth);
    json_field(sb, "rule", st->rule);
    json_field(sb, "kind", st->kind);
    json_field(sb, "var", st->var);
    StrBuf value, shapes;
    strbuf_init(&value);
    strbuf_init(&shapes);
    if (st->v != NULL)
        trace_value_summary(&value, st->v);
    json_field(sb, "value", st->v != NULL ? value.data : NULL);
    if (st->v != NULL)
        strbuf_addf(sb, ", \"id\": %d", st->v->id);
    shape_vars(&shapes, env);
    json_field(sb, "shape_vars", shapes.len > 0 ? shapes.data + 2 : "");
    strbuf_add(sb, "}\n");
}

static void write_step(Interp *in, const Env *env, const TraceStep *st)
{
    StrBuf sb;
    strbuf_init(&sb);
    if (in->opt.trace_json)
        step_json(&sb, in, env, st);
    else
        step_text(&sb, in, env, st);
    fputs(sb.data, in->opt.trace);
}

void trace_binding(Interp *in, const Env *env, const Binding *b, const Value *v)
{
    if (in->opt.trace == NULL)
        return;
    bool mc = b->kind == BIND_MATCH_CAST;
    /* A MatchCast binding checks and binds (E-13) after its value's own rule. */
    const char *rule = value_rule(b->value);
    TraceStep st = {b->span, mc ? "match_cast" : "binding", b->var ? b->var->name : "_", v,
                    mc ? mem_printf("%s, E-13", rule) : rule};
    write_step(in, env, &st);
}

/* The value of a SeqExpr's body (a function's result, an If branch's value) when the body is
 * an expression rather than a variable whose binding was already traced. */
void trace_body(Interp *in, const Env *env, const Expr *body, const Value *v)
{
    if (in->opt.trace == NULL || body->kind == EXPR_VAR)
        return;
    TraceStep st = {body->span, "result", NULL, v, value_rule(body)};
    write_step(in, env, &st);
}
