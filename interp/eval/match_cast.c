/* match_cast: the run-time structural check of a value against a StructInfo, binding shape
 * variables; also function entry binding. SPEC_NOTES: "Evaluation" (MC-1..MC-6, FN-1..FN-3). */
#include <stdarg.h>

#include "ast/rule.h"
#include "interp/eval/eval_internal.h"
#include "values/tensor.h"

typedef struct Mc {
    Interp *in;
    Env *env;
    McMode mode;
    Span span;
} Mc;

/* "argument 2 `y` of `main`: " while a call's arguments are checked, else "". */
static const char *arg_named(const Interp *in)
{
    const Function *fn = in->arg_fn;
    if (fn == NULL || in->arg_index < 0 || in->arg_index >= fn->nparams)
        return "";
    return mem_printf("argument %d `%s` of `%s`: ", in->arg_index + 1,
                      fn->params[in->arg_index]->name, fn->name != NULL ? fn->name : "function");
}

/* Inside a signature every failed check is an ArgCheck or ReturnCheck whose message names
 * the MatchCast check that failed. */
static noreturn void mc_fail(const Mc *m, const char *code, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static noreturn void mc_fail(const Mc *m, const char *code, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    switch (m->mode) {
    case MC_MODE_CAST:
        interp_fail(m->in, code, rule, m->span, "%s", buf);
    case MC_MODE_ARG:
        interp_fail(m->in, "ArgCheck", "FN-2", m->span, "argument check failed (%s): %s%s", code,
                    arg_named(m->in), buf);
    case MC_MODE_RET:
        interp_fail(m->in, "ReturnCheck", "FN-3", m->span, "return check failed (%s): %s", code,
                    buf);
    }
    interp_fail(m->in, code, rule, m->span, "%s", buf);
}

static const TirVar *unbound_var(const Env *env, const PrimExpr *p)
{
    if (p == NULL)
        return NULL;
    int64_t x;
    switch (p->kind) {
    case PE_INT:
    case PE_FLOAT:
    case PE_LOAD:
        return NULL;
    case PE_VAR:
        return env_lookup_shape(env, p->u.var, &x) ? NULL : p->u.var;
    case PE_ADD:
    case PE_SUB:
    case PE_MUL:
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_MIN:
    case PE_MAX:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR: {
        const TirVar *a = unbound_var(env, p->u.bin.a);
        return a ? a : unbound_var(env, p->u.bin.b);
    }
    case PE_NOT:
    case PE_CAST:
        return unbound_var(env, p->u.operand);
    case PE_SELECT: {
        const TirVar *a = unbound_var(env, p->u.select.cond);
        a = a ? a : unbound_var(env, p->u.select.then_value);
        return a ? a : unbound_var(env, p->u.select.else_value);
    }
    case PE_CALL:
        for (int i = 0; i < p->u.call.nargs; i++) {
            const TirVar *a = unbound_var(env, p->u.call.args[i]);
            if (a)
                return a;
        }
        return NULL;
    }
    return NULL;
}

/* A lone shape variable with no value yet: the one place a MatchCast binds. */
static bool lone_unbound(const Env *env, const PrimExpr *p)
{
    int64_t x;
    return p != NULL && p->kind == PE_VAR && !env_lookup_shape(env, p->u.var, &x);
}

static Scalar mc_eval(const Mc *m, const PrimExpr *p, const char *rule)
{
    const TirVar *u = unbound_var(m->env, p);
    if (u != NULL)
        mc_fail(m, "UnboundShapeVar", rule, "shape variable '%s' is used before it is bound",
                u->name);
    PrimEvalCtx pc = eval_prim_ctx(m->in, m->env);
    return prim_eval(&pc, p);
}

/* MC-2.2, MC-4: dims from 0 upward; a lone unbound variable binds, anything else is
 * evaluated and compared. */
static void mc_dim(const Mc *m, const PrimExpr *p, int64_t actual, int i, const char *rule)
{
    if (lone_unbound(m->env, p)) {
        env_bind_shape(m->env, p->u.var, actual);
        return;
    }
    /* A dim is a size: its arithmetic is checked as a ShapeExpr's (E-8), so n * 4 with
     * n = 2^62 is an error rather than a wrapped 0 that an empty tensor would match. */
    const TirVar *u = unbound_var(m->env, p);
    if (u != NULL)
        mc_fail(m, "UnboundShapeVar", rule, "shape variable '%s' is used before it is bound",
                u->name);
    PrimEvalCtx pc = eval_prim_ctx(m->in, m->env);
    bool over = false;
    pc.overflow = &over;
    int64_t want = prim_eval(&pc, p).i;
    if (over)
        mc_fail(m, "ShapeOverflow", rule, "dimension %d of the annotation overflows int64", i);
    if (want != actual)
        mc_fail(m, "MatchCastShape", rule, "dimension %d is %lld, expected %lld", i,
                (long long)actual, (long long)want);
}

static void mc_tensor_shape(const Mc *m, const StructInfo *s, const Tensor *t)
{
    const Expr *shape = s->u.tensor.shape;
    if (shape->kind == EXPR_SHAPE) {
        if (shape->u.shape.n != t->ndim)
            mc_fail(m, "MatchCastNdim", "MC-2", "a tensor of rank %d, expected rank %d", t->ndim,
                    shape->u.shape.n);
        for (int i = 0; i < t->ndim; i++)
            mc_dim(m, shape->u.shape.values[i], t->shape[i], i, "MC-2");
        return;
    }
    /* MC-2.1: the shape is a Relax variable (or another expression) holding a shape. */
    Value *sv = interp_eval(m->in, m->env, shape);
    if (sv->kind != VAL_SHAPE)
        mc_fail(m, "MatchCastKind", "MC-2", "the annotated shape is a %s",
                value_kind_name(sv->kind));
    if (sv->u.shape.ndim != t->ndim)
        mc_fail(m, "MatchCastNdim", "MC-2", "a tensor of rank %d, expected rank %d", t->ndim,
                sv->u.shape.ndim);
    for (int i = 0; i < t->ndim; i++) {
        if (sv->u.shape.dims[i] != t->shape[i])
            mc_fail(m, "MatchCastShape", "MC-2", "dimension %d is %lld, expected %lld", i,
                    (long long)t->shape[i], (long long)sv->u.shape.dims[i]);
    }
}

/* MC-2. Tensors carry no device in this implementation (a single host), so an annotated
 * vdevice is not compared. */
static void mc_tensor(const Mc *m, const StructInfo *s, const Value *v)
{
    if (v->kind != VAL_TENSOR)
        mc_fail(m, "MatchCastKind", "MC-2", "a %s, expected a tensor", value_kind_name(v->kind));
    const Tensor *t = v->u.tensor;
    if (s->u.tensor.ndim != -1 && s->u.tensor.ndim != t->ndim)
        mc_fail(m, "MatchCastNdim", "MC-2", "a tensor of rank %d, expected rank %d", t->ndim,
                s->u.tensor.ndim);
    DataType dt = s->u.tensor.dtype;
    if (!dtype_equal(dt, t->dtype) && !dtype_is_void(dt))
        mc_fail(m, "MatchCastDType", "MC-2", "a tensor of dtype %s, expected %s",
                dtype_str(t->dtype), dtype_str(dt));
    if (s->u.tensor.shape != NULL)
        mc_tensor_shape(m, s, t);
}

/* MC-3: a PrimValue of the dtype; its value binds a lone unbound variable or is compared
 * numerically. */
static void mc_prim(const Mc *m, const StructInfo *s, const Value *v)
{
    if (v->kind != VAL_PRIM)
        mc_fail(m, "MatchCastKind", "MC-3", "a %s, expected a PrimValue", value_kind_name(v->kind));
    DataType dt = s->u.prim.dtype;
    if (!dtype_equal(dt, v->u.prim.dtype) && !dtype_is_void(dt))
        mc_fail(m, "MatchCastDType", "MC-3", "a PrimValue of dtype %s, expected %s",
                dtype_str(v->u.prim.dtype), dtype_str(dt));
    const PrimExpr *want = s->u.prim.value;
    if (want == NULL)
        return;
    if (lone_unbound(m->env, want) && !value_prim_is_float(v)) {
        env_bind_shape(m->env, want->u.var, v->u.prim.i);
        return;
    }
    Scalar w = mc_eval(m, want, "MC-3");
    bool fl = value_prim_is_float(v) || dtype_is_float(w.dtype);
    double wf = dtype_is_float(w.dtype) ? w.f : (double)w.i;
    bool same = fl ? value_prim_as_f64(v) == wf : v->u.prim.i == w.i;
    if (!same)
        mc_fail(m, "MatchCastValue", "MC-3", "the PrimValue differs from the annotated value");
}

/* MC-4 */
static void mc_shape(const Mc *m, const StructInfo *s, const Value *v)
{
    if (v->kind != VAL_SHAPE)
        mc_fail(m, "MatchCastKind", "MC-4", "a %s, expected a shape", value_kind_name(v->kind));
    int ndim = v->u.shape.ndim;
    if (s->u.shape.ndim != -1 && s->u.shape.ndim != ndim)
        mc_fail(m, "MatchCastNdim", "MC-4", "a shape of %d dims, expected %d", ndim,
                s->u.shape.ndim);
    if (s->u.shape.values == NULL)
        return;
    for (int i = 0; i < ndim; i++)
        mc_dim(m, s->u.shape.values[i], v->u.shape.dims[i], i, "MC-4");
}

/* MC-6. A closure's run-time structural information is its Function's purity and parameter
 * count; parameter and return annotations are not compared further. A packed function can
 * only be told apart from a closure. */
static void mc_func(const Mc *m, const StructInfo *s, const Value *v)
{
    /* An opaque FuncStructInfo (neither params nor derive_func) asks for nothing. */
    bool opaque = !s->u.func.has_params && s->u.func.derive_func == NULL;
    if (!opaque && !value_is_callable(v))
        mc_fail(m, "MatchCastKind", "MC-6", "a %s, expected a function", value_kind_name(v->kind));
    if (s->u.func.derive_func != NULL && v->kind != VAL_PACKED)
        mc_fail(m, "MatchCastFunc", "MC-6", "a %s, expected a packed function",
                value_kind_name(v->kind));
    if (s->u.func.has_params && v->kind != VAL_CLOSURE)
        mc_fail(m, "MatchCastFunc", "MC-6", "a %s, expected a closure", value_kind_name(v->kind));
    if (v->kind != VAL_CLOSURE)
        return;
    const Function *f = v->u.closure.func;
    if (s->u.func.purity && !f->is_pure)
        mc_fail(m, "MatchCastFunc", "MC-6", "an impure closure, expected a pure function");
    if (s->u.func.has_params && s->u.func.nparams != f->nparams)
        mc_fail(m, "MatchCastFunc", "MC-6", "a closure of %d parameters, expected %d", f->nparams,
                s->u.func.nparams);
}

static void mc_check(const Mc *m, const StructInfo *s, Value *v)
{
    switch (s->kind) {
    case SINFO_OBJECT: /* MC-1: every value is an object */
        rule_fired("MC-1");
        return;
    case SINFO_PRIM:
        rule_fired("MC-3");
        mc_prim(m, s, v);
        return;
    case SINFO_SHAPE:
        rule_fired("MC-4");
        mc_shape(m, s, v);
        return;
    case SINFO_TENSOR:
        rule_fired("MC-2");
        mc_tensor(m, s, v);
        return;
    case SINFO_TUPLE:
        /* MC-5 */
        rule_fired("MC-5");
        if (v->kind != VAL_TUPLE)
            mc_fail(m, "MatchCastKind", "MC-5", "a %s, expected a tuple", value_kind_name(v->kind));
        if (v->u.tuple.n != s->u.tuple.n)
            mc_fail(m, "MatchCastTupleLength", "MC-5", "a tuple of %d fields, expected %d",
                    v->u.tuple.n, s->u.tuple.n);
        for (int i = 0; i < s->u.tuple.n; i++)
            mc_check(m, s->u.tuple.fields[i], v->u.tuple.fields[i]);
        return;
    case SINFO_FUNC:
        rule_fired("MC-6");
        mc_func(m, s, v);
        return;
    case SINFO_DTENSOR:
        /* DIST-6: one process holds no distributed tensor, so nothing can match one. */
        interp_fail(m->in, "Unsupported", "DIST-6", m->span,
                    "%sa distributed tensor (R.DTensor) has no value in a one-process run",
                    arg_named(m->in));
    }
}

/* Out of line, so that a check that passes plainly pays for none of its frame. */
static __attribute__((noinline)) void mc_check_fully(Interp *in, Env *env, const StructInfo *s,
                                                     Value *v, McMode mode, Span span)
{
    Mc m = {in, env, mode, span};
    mc_check(&m, s, v);
}

void match_cast_check(Interp *in, Env *env, const StructInfo *s, Value *v, McMode mode, Span span)
{
    if (!match_cast_passes_plainly(s, v))
        mc_check_fully(in, env, s, v, mode, span);
}

/* ---- FN-1: binding positions of a signature ---- */

static noreturn void bind_fail(const Mc *m, const char *what, const Value *v)
{
    interp_fail(m->in, "ArgCheck", "FN-1", m->span,
                "cannot bind shape variables: expected %s, got a %s", what,
                value_kind_name(v->kind));
}

static bool any_lone_unbound(const Env *env, PrimExpr *const *values, int n)
{
    for (int i = 0; values != NULL && i < n; i++) {
        if (lone_unbound(env, values[i]))
            return true;
    }
    return false;
}

static void bind_dims(const Mc *m, PrimExpr *const *values, const int64_t *dims, int n)
{
    for (int i = 0; i < n; i++) {
        if (lone_unbound(m->env, values[i]))
            env_bind_shape(m->env, values[i]->u.var, dims[i]);
    }
}

static void bind_walk(const Mc *m, const StructInfo *s, const Value *v);

/* Whether s has a binding position whose variable is still unbound. */
static bool binds_any(const Env *env, const StructInfo *s)
{
    switch (s->kind) {
    case SINFO_OBJECT:
    case SINFO_FUNC:
    case SINFO_DTENSOR:
        return false;
    case SINFO_PRIM:
        return lone_unbound(env, s->u.prim.value);
    case SINFO_SHAPE:
        return any_lone_unbound(env, s->u.shape.values, s->u.shape.ndim);
    case SINFO_TENSOR:
        return s->u.tensor.shape != NULL && s->u.tensor.shape->kind == EXPR_SHAPE &&
               any_lone_unbound(env, s->u.tensor.shape->u.shape.values,
                                s->u.tensor.shape->u.shape.n);
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++) {
            if (binds_any(env, s->u.tuple.fields[i]))
                return true;
        }
        return false;
    }
    return false; /* not reached: every case of the switch returns */
}

static void bind_tensor(const Mc *m, const StructInfo *s, const Value *v)
{
    const Expr *shape = s->u.tensor.shape;
    if (shape == NULL || shape->kind != EXPR_SHAPE)
        return;
    int n = shape->u.shape.n;
    if (!any_lone_unbound(m->env, shape->u.shape.values, n))
        return;
    if (v->kind != VAL_TENSOR || v->u.tensor->ndim != n)
        bind_fail(m, mem_printf("a tensor of rank %d", n), v);
    bind_dims(m, shape->u.shape.values, v->u.tensor->shape, n);
}

static void bind_walk(const Mc *m, const StructInfo *s, const Value *v)
{
    switch (s->kind) {
    case SINFO_OBJECT:
    case SINFO_FUNC:
    case SINFO_DTENSOR:
        return;
    case SINFO_PRIM:
        if (!lone_unbound(m->env, s->u.prim.value))
            return;
        if (v->kind != VAL_PRIM || value_prim_is_float(v))
            bind_fail(m, "an integer PrimValue", v);
        env_bind_shape(m->env, s->u.prim.value->u.var, v->u.prim.i);
        return;
    case SINFO_SHAPE:
        if (!any_lone_unbound(m->env, s->u.shape.values, s->u.shape.ndim))
            return;
        if (v->kind != VAL_SHAPE || v->u.shape.ndim != s->u.shape.ndim)
            bind_fail(m, mem_printf("a shape of %d dims", s->u.shape.ndim), v);
        bind_dims(m, s->u.shape.values, v->u.shape.dims, s->u.shape.ndim);
        return;
    case SINFO_TENSOR:
        bind_tensor(m, s, v);
        return;
    case SINFO_TUPLE:
        /* Only a tuple whose fields bind something must be read here. */
        if (v->kind != VAL_TUPLE || v->u.tuple.n != s->u.tuple.n) {
            if (binds_any(m->env, s))
                bind_fail(m, mem_printf("a tuple of %d fields", s->u.tuple.n), v);
            return;
        }
        for (int i = 0; i < s->u.tuple.n; i++)
            bind_walk(m, s->u.tuple.fields[i], v->u.tuple.fields[i]);
        return;
    }
}

void match_cast_bind_params(Interp *in, Env *env, const StructInfo *s, Value *v, Span span)
{
    Mc m = {in, env, MC_MODE_ARG, span};
    bind_walk(&m, s, v);
}
