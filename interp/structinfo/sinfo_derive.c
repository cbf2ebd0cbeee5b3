/* sinfo_derive: StructInfo derivation over a module: the module and global rules (SI-1,
 * SI-16), leaves, tuples, If and TupleGetItem. SPEC_NOTES: "StructInfo" (SI-*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "interp/structinfo/sinfo_derive_internal.h"

/* ---- diagnostics --------------------------------------------------------------------- */

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *msg = mem_alloc_atomic((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    return msg;
}

void si_error(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    diag_add(c->errors, PHASE_STRUCT_INFO, code, rule, span, "%s", msg);
}

void si_warn(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    diag_add(c->warnings, PHASE_STRUCT_INFO, code, rule, span, "%s", msg);
}

void si_judge(SiCtx *c, Relation r, const char *code, const char *rule, Span span,
              const StructInfo *got, const StructInfo *want, const char *what)
{
    if (r == REL_YES)
        return;
    /* DIAG-1: the value's own error was reported where it arose. */
    if (sinfo_has_poison(got)) {
        rule_fired("DIAG-1");
        return;
    }
    const char *g = printer_print_sinfo(got), *w = printer_print_sinfo(want);
    if (r == REL_NO)
        si_error(c, code, rule, span, "%s: %s is incompatible with %s", what, g, w);
    else
        si_warn(c, "PossiblyIncompatible", rule, span,
                "%s: %s is only possibly compatible with %s (a MatchCast makes it certain)", what,
                g, w);
}

/* ---- scope ------------------------------------------------------------------------- */

int si_gamma_find(const SiCtx *c, const Var *v)
{
    int64_t at;
    if (ptrmap_get(&c->gamma_at, v, &at) && at < c->ngamma && c->gamma[at].var == v)
        return (int)at;
    /* Stale (its scope was popped): an older binding of the same Var may still be in scope
     * only in ill-formed programs; look the slow way. */
    for (int i = c->ngamma - 1; i >= 0; i--)
        if (c->gamma[i].var == v)
            return i;
    return -1;
}

static bool scope_has_var(const void *ctx, const Var *v)
{
    return si_gamma_find(ctx, v) >= 0;
}

static bool scope_has_shape_var(const void *ctx, const TirVar *v)
{
    const SiCtx *c = ctx;
    return tirvar_list_has(&c->sigma, v);
}

SinfoScope si_scope(const SiCtx *c)
{
    SinfoScope s = {scope_has_var, scope_has_shape_var, c};
    return s;
}

/* ---- leaves (SI-2 .. SI-8) ------------------------------------------------------------ */

/* SI-2: Γ[v]; a variable Γ does not know (only in ill-formed programs) has its annotation. */
static StructInfo *derive_var(SiCtx *c, const Var *v)
{
    rule_fired("SI-2");
    int i = si_gamma_find(c, v);
    if (i >= 0)
        return c->gamma[i].sinfo;
    return v->annotation ? v->annotation : sinfo_object(v->span);
}

/* SI-3: the concrete shape and dtype of the constant. */
static StructInfo *derive_constant(const Expr *e)
{
    rule_fired("SI-3");
    if (e->extern_sinfo != NULL) { /* DIST-4: R.dist.const has the DTensor it was given */
        rule_fired("DIST-4");
        return e->extern_sinfo;
    }
    const ConstData *d = e->u.constant;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, d->ndim + 1);
    for (int i = 0; i < d->ndim; i++)
        dims[i] = primexpr_int(d->shape[i], dtype_int64(), e->span);
    Expr *shape = expr_shape(dims, d->ndim, e->span);
    return sinfo_tensor(shape, d->dtype, NULL, d->ndim, e->span);
}

/* SI-7 */
static StructInfo *derive_tuple(SiCtx *c, Expr *e)
{
    rule_fired("SI-7");
    int n = e->u.tuple.n;
    StructInfo **f = MEM_ARRAY(StructInfo *, n + 1);
    for (int i = 0; i < n; i++)
        f[i] = si_derive(c, e->u.tuple.fields[i]);
    return sinfo_tuple(f, n, e->span);
}

/* SI-12 */
static StructInfo *derive_get_item(SiCtx *c, Expr *e)
{
    rule_fired("SI-12");
    StructInfo *t = si_derive(c, e->u.get_item.tuple);
    int i = e->u.get_item.index;
    if (t->poisoned) {
        rule_fired("DIAG-1");
        return sinfo_poisoned(e->span);
    }
    if (t->kind != SINFO_TUPLE) {
        si_error(c, "NotTuple", "SI-12", e->span,
                 "indexing needs a tuple, got %s (use R.match_cast first)", printer_print_sinfo(t));
        return sinfo_object(e->span);
    }
    if (i < 0 || i >= t->u.tuple.n) {
        si_error(c, "TupleIndex", "SI-12", e->span, "index %d out of range for %s", i,
                 printer_print_sinfo(t));
        return sinfo_object(e->span);
    }
    return t->u.tuple.fields[i];
}

/* Definitely not a bool scalar: a kind, dtype or rank that cannot be one. */
static bool never_bool_scalar(const StructInfo *s)
{
    switch (s->kind) {
    case SINFO_OBJECT:
        return false;
    case SINFO_PRIM:
        return !dtype_is_bool(s->u.prim.dtype);
    case SINFO_TENSOR:
        return (!dtype_is_void(s->u.tensor.dtype) && !dtype_is_bool(s->u.tensor.dtype)) ||
               (s->u.tensor.ndim != -1 && s->u.tensor.ndim != 0);
    case SINFO_DTENSOR:
        return never_bool_scalar(s->u.dtensor.tensor);
    case SINFO_SHAPE:
    case SINFO_TUPLE:
    case SINFO_FUNC:
        return true;
    }
    return true; /* not reached: every case of the switch returns */
}

/* SI-9: the LUB of the branches (each already erased by SI-10). */
static StructInfo *derive_if(SiCtx *c, Expr *e)
{
    rule_fired("SI-9");
    StructInfo *cond = si_derive(c, e->u.if_.cond);
    if (never_bool_scalar(cond) && !cond->poisoned)
        si_error(c, "IfCondition", "SI-9", e->u.if_.cond->span,
                 "the condition must be a bool scalar (rank-0 bool tensor or R.Prim(\"bool\")), "
                 "got %s",
                 printer_print_sinfo(cond));
    /* ERASE-1: shape variables a branch defines must not reach the join. */
    SinfoScope scope = si_scope(c);
    StructInfo *t = sinfo_erase(si_derive(c, e->u.if_.then_branch), &scope);
    StructInfo *f = sinfo_erase(si_derive(c, e->u.if_.else_branch), &scope);
    return sinfo_unify(t, f);
}

static StructInfo *derive_node(SiCtx *c, Expr *e)
{
    switch (e->kind) {
    case EXPR_CONSTANT:
        return derive_constant(e);
    case EXPR_VAR:
        return derive_var(c, e->u.var);
    case EXPR_GLOBAL_VAR:
        rule_fired("SI-2");
        return si_global(c, e->u.gvar->name, NULL);
    case EXPR_TUPLE:
        return derive_tuple(c, e);
    case EXPR_SEQ:
        return si_derive_seq(c, e);
    /* SI-4: R.Prim of the value's dtype, keeping the value itself. */
    case EXPR_PRIM_VALUE:
        rule_fired("SI-4");
        return sinfo_prim(e->u.prim->dtype, e->u.prim, e->span);
    /* SI-5, SI-6: strings and dtypes carry no structure beyond Object. */
    case EXPR_STRING:
        rule_fired("SI-5");
        return sinfo_object(e->span);
    case EXPR_DTYPE:
        rule_fired("SI-6");
        return sinfo_object(e->span);
    case EXPR_FUNCTION:
        return si_derive_function(c, e, e->u.func, e->u.func->name);
    case EXPR_IF:
        return derive_if(c, e);
    case EXPR_EXTERN_FUNC:
        /* SI-13: an opaque, impure callable whose calls derive from sinfo_args, unless
         * R.ExternFunc(name, R.Callable(...)) gave its StructInfo. */
        rule_fired("SI-13");
        if (e->extern_sinfo != NULL)
            return e->extern_sinfo;
        return sinfo_func_opaque(sinfo_object(e->span), false, NULL, e->span);
    case EXPR_CALL:
        return si_derive_call(c, e);
    case EXPR_SHAPE:
        rule_fired("SI-8");
        return sinfo_shape(e->u.shape.values, e->u.shape.n, e->span);
    case EXPR_TUPLE_GET_ITEM:
        return derive_get_item(c, e);
    case EXPR_OP:
        return sinfo_object(e->span);
    }
    return sinfo_object(e->span); /* not reached: every case of the switch returns */
}

StructInfo *si_derive(SiCtx *c, Expr *e)
{
    int errors_before = c->errors->n;
    StructInfo *s = derive_node(c, e);
    /* DIAG-1: an expression whose check failed and left nothing but an Object. */
    if (c->errors->n > errors_before && s->kind == SINFO_OBJECT && !s->poisoned)
        s = sinfo_poisoned(e->span);
    e->sinfo = s;
    return s;
}

/* ---- globals (SI-1, SI-16) -------------------------------------------------------------- */

/* SI-16: buffers become tensors of the buffer's shape, scalars PrimStructInfo; a direct call
 * is impure. A PrimFunc that returns a value (tir.ret) returns a PrimValue of its dtype. */
static PrimExpr *int64_dim(PrimExpr *d)
{
    if (d->kind == PE_INT)
        return primexpr_int(d->u.int_value, dtype_int64(), d->span);
    if (dtype_equal(d->dtype, dtype_int64()))
        return d;
    PrimExpr *c = primexpr_new(PE_CAST, dtype_int64(), d->span);
    c->u.operand = d;
    return c;
}

static StructInfo *primfunc_sinfo(const PrimFunc *pf)
{
    rule_fired("SI-16");
    rule_fired("SI-PRIMFUNC");
    StructInfo **params = MEM_ARRAY(StructInfo *, pf->nparams + 1);
    for (int i = 0; i < pf->nparams; i++) {
        const Buffer *b = pf->param_buffers[i];
        /* SI-PRIMFUNC: a handle without a buffer is an Object, as in TVM's InferStructInfo. */
        if (b == NULL && dtype_is_handle(pf->params[i]->dtype)) {
            params[i] = sinfo_object(pf->span);
            continue;
        }
        if (b == NULL) {
            params[i] = sinfo_prim(pf->params[i]->dtype, NULL, pf->span);
            continue;
        }
        /* Relax dims are int64: constant dims are read as such, other dims of another dtype
         * are cast to int64 (TVM's cast(Int(64), dim)), so they are not lone shape variables. */
        PrimExpr **dims = MEM_ARRAY(PrimExpr *, b->ndim + 1);
        for (int k = 0; k < b->ndim; k++)
            dims[k] = int64_dim(b->shape[k]);
        Expr *shape = expr_shape(dims, b->ndim, b->span);
        params[i] = sinfo_tensor(shape, b->dtype, NULL, b->ndim, b->span);
    }
    StructInfo *ret = dtype_is_void(pf->ret_dtype) ? sinfo_tuple(NULL, 0, pf->span)
                                                   : sinfo_prim(pf->ret_dtype, NULL, pf->span);
    /* PURITY-6: a direct call writes its output buffers in place. */
    return sinfo_func(params, pf->nparams, ret, false, pf->span);
}

static void derive_global(SiCtx *c, int i)
{
    ModuleFunc *mf = c->mod->funcs[i];
    if (c->state[i] != GLOBAL_PENDING || mf->kind != MODFUNC_RELAX)
        return;
    /* A function derives the pending functions it calls first, so a chain of calls nests
     * as deep as it is long: past the stack's room it is an error, not a crash (4.18). */
    char here;
    if (c->stack_floor != 0 && (uintptr_t)&here < c->stack_floor) {
        c->state[i] = GLOBAL_DONE;
        diag_add(c->errors, PHASE_STRUCT_INFO, "TooDeep", "SI-1", mf->span,
                 "'%s' is reached through a chain of calls too long to derive (each function "
                 "without a return annotation derives its callees first)",
                 mf->gvar->name);
        return;
    }
    c->state[i] = GLOBAL_ACTIVE;
    const FnFrame *saved_fn = c->fn;
    bool saved_df = c->in_dataflow;
    c->in_dataflow = false;
    Expr *fe = expr_new(EXPR_FUNCTION, mf->span);
    fe->u.func = mf->u.relax;
    StructInfo *s = si_derive_function(c, fe, mf->u.relax, mf->gvar->name);
    c->fn = saved_fn;
    c->in_dataflow = saved_df;
    c->globals[i] = s;
    c->state[i] = GLOBAL_DONE;
}

StructInfo *si_global(SiCtx *c, const char *name, const ModuleFunc **out)
{
    int i = module_index(c->mod, name);
    if (i >= 0) {
        derive_global(c, i);
        if (out != NULL)
            *out = c->mod->funcs[i];
        return c->globals[i];
    }
    if (out != NULL)
        *out = NULL;
    return sinfo_object(span_none());
}

/* SI-1: every global's StructInfo is declared from its annotations before any body is
 * derived, so mutual recursion sees the signatures. */
static void predeclare(SiCtx *c)
{
    rule_fired("SI-1");
    int n = c->mod->nfuncs;
    c->globals = MEM_ARRAY(StructInfo *, n + 1);
    c->state = MEM_ARRAY(GlobalState, n + 1);
    for (int i = 0; i < n; i++) {
        ModuleFunc *mf = c->mod->funcs[i];
        c->state[i] = GLOBAL_PENDING;
        switch (mf->kind) {
        case MODFUNC_RELAX:
            c->globals[i] = si_signature(mf->u.relax);
            break;
        case MODFUNC_PRIM:
            c->globals[i] = primfunc_sinfo(mf->u.prim);
            break;
        case MODFUNC_EXTERN:
            c->globals[i] = sinfo_func_opaque(sinfo_object(mf->span), false, NULL, mf->span);
            break;
        }
    }
}

static void derive_module(SiCtx *c)
{
    predeclare(c);
    for (int i = 0; i < c->mod->nfuncs; i++)
        derive_global(c, i);
}

/* A module of more functions than this is derived on a large stack, as evaluation runs:
 * its calls between functions may nest as deep as the module is long. A small one (every
 * case of the corpus but a few) is derived on the caller's stack, without a thread. */
#define SMALL_MODULE 64
#define LARGE_STACK_BYTES ((size_t)1 << 30)
#define LARGE_STACK_MARGIN ((size_t)4 << 20)

typedef struct LargeDerive {
    SiCtx *c;
    const char *failure; /* the heap limit's message, raised again on the caller's thread */
    jmp_buf jmp;
} LargeDerive;

static void large_fail(void *ctx, const char *message)
{
    LargeDerive *r = ctx;
    r->failure = message;
    longjmp(r->jmp, 1);
}

static void derive_large(void *p)
{
    LargeDerive *r = p;
    char base;
    r->c->stack_floor = (uintptr_t)&base - (LARGE_STACK_BYTES - LARGE_STACK_MARGIN);
    MemFailHandler outer = mem_set_fail_handler((MemFailHandler){large_fail, r});
    if (setjmp(r->jmp) == 0)
        derive_module(r->c);
    mem_set_fail_handler(outer);
    r->c->stack_floor = 0;
}

static void derive_module_anywhere(SiCtx *c)
{
    if (c->mod->nfuncs <= SMALL_MODULE) {
        derive_module(c);
        return;
    }
    LargeDerive r;
    memset(&r, 0, sizeof r);
    r.c = c;
    if (!mem_run_on_large_stack(LARGE_STACK_BYTES, derive_large, &r)) {
        /* No thread: the caller's stack, with the guard of derive_global set well inside
         * the 8 MiB a process's main stack has by default. */
        char base;
        c->stack_floor = (uintptr_t)&base - ((size_t)6 << 20);
        derive_module(c);
        c->stack_floor = 0;
        return;
    }
    if (r.failure != NULL)
        mem_fail(r.failure);
}

/* SPEC_REST §7 (VDEV-3 .. VDEV-7), for a module whose global_info has VDevices and whose
 * first derivation found no error: the backward pass, the derivation again with the
 * variables' realized vdevices (its warnings replace the first pass's), the final check. */
static void realize_vdevices(SiCtx *c, VdevTable *defs, int warnings_mark, int bindings_mark)
{
    if (!si_vdev_backward(c, defs))
        return;
    c->warnings->n = warnings_mark;
    c->bindings->n = bindings_mark;
    DiagList second;
    diag_init(&second);
    DiagList *warnings = c->warnings;
    int errors = c->errors->n;
    c->warnings = &second;
    c->defs = NULL;
    c->realized = defs;
    derive_module_anywhere(c);
    c->warnings = warnings;
    for (int i = 0; i < second.n; i++)
        VEC_PUSH(warnings->items, warnings->n, warnings->cap, second.items[i]);
    if (c->errors->n == errors)
        si_vdev_final_check(c);
}

void sinfo_check_module_report(IRModule *mod, DiagList *errors, DiagList *warnings,
                               SinfoBindings *bindings)
{
    SinfoBindings scratch = {NULL, 0, 0};
    VdevTable defs = {0};
    SiCtx c;
    memset(&c, 0, sizeof c);
    c.mod = mod;
    c.errors = errors;
    c.warnings = warnings;
    c.bindings = bindings ? bindings : &scratch;
    c.defs = mod->nvdevices > 0 ? &defs : NULL;
    int errors_before = errors->n, warnings_before = warnings->n, bindings_before = c.bindings->n;
    derive_module_anywhere(&c);
    /* VDEV-3 .. VDEV-7 run only with VDevices in global_info and no error so far. */
    rule_fired("VDEV-3");
    rule_fired("VDEV-7");
    if (c.defs == NULL || errors->n > errors_before)
        return;
    realize_vdevices(&c, &defs, warnings_before, bindings_before);
}

void sinfo_check_module(IRModule *mod, DiagList *errors, DiagList *warnings)
{
    sinfo_check_module_report(mod, errors, warnings, NULL);
}

static const char *entry_name(const IRModule *mod)
{
    if (module_lookup(mod, "main") != NULL)
        return "main";
    return mod->nfuncs > 0 ? mod->funcs[0]->gvar->name : "";
}

const StructInfo *sinfo_bindings_find(const SinfoBindings *b, const IRModule *mod, const char *name)
{
    const char *dot = strrchr(name, '.');
    const char *func = dot ? mem_strndup(name, (size_t)(dot - name)) : entry_name(mod);
    const char *var = dot ? dot + 1 : name;
    for (int i = b->n - 1; i >= 0; i--)
        if (strcmp(b->items[i].func, func) == 0 && strcmp(b->items[i].var, var) == 0)
            return b->items[i].sinfo;
    return NULL;
}
