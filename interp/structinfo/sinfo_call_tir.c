/* sinfo_call_tir: the checks TVM makes on call_tir, call_tir_with_grad and call_tir_inplace
 * when the callee is a PrimFunc of the module: arguments against the PrimFunc's buffers,
 * out_sinfo against the outputs the signature implies, and in-place indices and aliasing.
 * SPEC_NOTES: "StructInfo" (CALLTIR-1 .. CALLTIR-4). */
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "interp/structinfo/prover.h"
#include "interp/structinfo/sinfo_call_tir.h"

/* The call's pieces: the PrimFunc's parameters and the argument tuple's fields. */
typedef struct TirCall {
    const Expr *call;
    const char *op; /* "R.call_tir", ... for messages */
    StructInfo **params;
    int nparams;
    StructInfo **args;
    int nargs;
    int nints; /* trailing int64 parameters fed by the packed ints shape */
} TirCall;

static bool is_const(const PrimExpr *e, int64_t *v)
{
    return e != NULL && e->kind == PE_INT && (*v = e->u.int_value, true);
}

/* CALLTIR-1: a dim fails only where both sides are integer constants that differ; a
 * parameter's shape variable takes its first argument's value, later uses are left to run
 * time (TVM's best-effort L2). */
static bool dims_fail(const Expr *param, const Expr *arg)
{
    if (param == NULL || arg == NULL || param->kind != EXPR_SHAPE || arg->kind != EXPR_SHAPE)
        return false;
    if (param->u.shape.n != arg->u.shape.n)
        return true;
    for (int i = 0; i < param->u.shape.n; i++) {
        int64_t a, b;
        if (is_const(param->u.shape.values[i], &a) && is_const(arg->u.shape.values[i], &b) &&
            a != b)
            return true;
    }
    return false;
}

/* CALLTIR-1: TVM's L0/L1 failures of a parameter against an argument: a different kind (an
 * Object argument too), a different or unknown dtype or rank, constant dims that differ. */
static bool param_fails(const StructInfo *p, const StructInfo *a)
{
    if (p->kind == SINFO_PRIM)
        return a->kind != SINFO_PRIM || !dtype_equal(p->u.prim.dtype, a->u.prim.dtype);
    if (p->kind != SINFO_TENSOR)
        return false;
    if (a->kind != SINFO_TENSOR)
        return true;
    if (!dtype_is_void(p->u.tensor.dtype) && !dtype_equal(p->u.tensor.dtype, a->u.tensor.dtype))
        return true;
    if (p->u.tensor.ndim >= 0 && p->u.tensor.ndim != a->u.tensor.ndim)
        return true;
    return dims_fail(p->u.tensor.shape, a->u.tensor.shape);
}

/* The PrimValue StructInfo each packed int feeds to a trailing parameter. */
static StructInfo *packed_int_sinfo(const StructInfo *shape, int i, Span span)
{
    PrimExpr *v = shape->u.shape.values ? shape->u.shape.values[i] : NULL;
    return sinfo_prim(dtype_int64(), v, span);
}

/* CALLTIR-1: the arity, then each input and packed int against its parameter. */
static bool check_inputs(SiCtx *c, TirCall *t, ShapeVarMap *m)
{
    rule_fired("CALLTIR-1");
    Span span = t->call->span;
    if (t->nargs + t->nints > t->nparams) {
        si_error(c, "CallTirArity", "CALLTIR-1", span,
                 "%s passes %d inputs and %d packed ints to a PrimFunc of %d parameters", t->op,
                 t->nargs, t->nints, t->nparams);
        return false;
    }
    const StructInfo *ints = t->nints ? t->call->u.call.args[2]->sinfo : NULL;
    for (int i = 0; i < t->nargs + t->nints; i++) {
        bool input = i < t->nargs;
        const StructInfo *p = t->params[input ? i : t->nparams - t->nints + (i - t->nargs)];
        const StructInfo *a = input ? t->args[i] : packed_int_sinfo(ints, i - t->nargs, span);
        if (param_fails(p, a)) {
            si_error(c, "CallTirArgument", "CALLTIR-1", span,
                     "%s: %s %d is %s, but the PrimFunc's parameter is %s", t->op,
                     input ? "input" : "packed int", input ? i : i - t->nargs,
                     printer_print_sinfo(a), printer_print_sinfo(p));
            return false;
        }
        sinfo_shape_var_mapping(p, a, m);
    }
    return true;
}

/* call_tir_inplace's indices, or NULL with *n = 0 when absent. */
static int64_t *inplace_indices(const Expr *call, int *n)
{
    const AttrValue *a = attrs_get(call->u.call.attrs, "inplace_indices");
    *n = 0;
    if (a == NULL || (a->kind != ATTR_LIST && a->kind != ATTR_INT))
        return NULL;
    int k = a->kind == ATTR_LIST ? a->u.list.n : 1;
    int64_t *idx = mem_alloc_atomic(sizeof(int64_t) * (size_t)(k + 1));
    for (int i = 0; i < k; i++) {
        const AttrValue *v = a->kind == ATTR_LIST ? a->u.list.items[i] : a;
        if (v->kind != ATTR_INT)
            return NULL;
        idx[i] = v->u.i;
    }
    *n = k;
    return idx;
}

/* The outputs out_sinfo declares: a tuple's fields, or itself. */
static StructInfo **declared_outputs(const Expr *call, int *n)
{
    StructInfo *s = call->u.call.sinfo_args[0];
    if (s->kind == SINFO_TUPLE) {
        *n = s->u.tuple.n;
        return s->u.tuple.fields;
    }
    *n = 1;
    StructInfo **one = MEM_ARRAY(StructInfo *, 1);
    one[0] = s;
    return one;
}

/* CALLTIR-4: an output computed in place is a tensor of known shape and dtype, and the
 * input it aliases has that dtype and provably that shape. */
static bool check_alias(SiCtx *c, const TirCall *t, const StructInfo *out, int i, int64_t in)
{
    rule_fired("CALLTIR-4");
    const StructInfo *a = t->args[in];
    bool bad = out->kind != SINFO_TENSOR || out->u.tensor.shape == NULL ||
               dtype_is_void(out->u.tensor.dtype) || a->kind != SINFO_TENSOR ||
               a->u.tensor.shape == NULL || !dtype_equal(a->u.tensor.dtype, out->u.tensor.dtype) ||
               sinfo_shape_equal(a->u.tensor.shape, out->u.tensor.shape) != REL_YES;
    if (bad)
        si_error(c, "CallTirInplaceAlias", "CALLTIR-4", t->call->span,
                 "R.call_tir_inplace: output %d (%s) is computed in place of input %lld (%s), "
                 "which must be a tensor of the same shape and dtype",
                 i, printer_print_sinfo(out), (long long)in, printer_print_sinfo(a));
    return !bad;
}

/* CALLTIR-3: one index per output, each in [-1, inputs - 1], the others than -1 distinct
 * and at least one of them; then CALLTIR-4 on each aliased output. */
static bool check_inplace(SiCtx *c, const TirCall *t, const int64_t *idx, int n)
{
    rule_fired("CALLTIR-3");
    int nout;
    StructInfo **outs = declared_outputs(t->call, &nout);
    const char *bad = NULL;
    if (idx == NULL || n != nout)
        bad = mem_printf("%d in-place indices for %d outputs", idx ? n : 0, nout);
    bool any = false;
    for (int i = 0; bad == NULL && i < n; i++) {
        if (idx[i] < -1 || idx[i] >= t->nargs)
            bad = mem_printf("in-place index %lld is outside [-1, %d]", (long long)idx[i],
                             t->nargs - 1);
        for (int j = 0; bad == NULL && j < i && idx[i] != -1; j++)
            if (idx[j] == idx[i])
                bad = mem_printf("in-place index %lld appears twice", (long long)idx[i]);
        any = any || idx[i] != -1;
    }
    if (bad == NULL && !any)
        bad = "every in-place index is -1 (use R.call_tir)";
    if (bad != NULL) {
        si_error(c, "CallTirInplaceIndex", "CALLTIR-3", t->call->span, "R.call_tir_inplace: %s",
                 bad);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (idx[i] >= 0 && !check_alias(c, t, outs[i], i, idx[i]))
            return false;
    return true;
}

/* The outputs the PrimFunc's signature implies: the parameters after the inputs and before
 * the packed ints, with each in-place output's input parameter put in its place. */
static StructInfo *implied_outputs(const TirCall *t, const int64_t *idx, int nidx,
                                   const ShapeVarMap *m, const SinfoScope *scope)
{
    int nfresh = t->nparams - t->nargs - t->nints;
    int n = nfresh;
    for (int i = 0; i < nidx; i++)
        n += idx[i] >= 0;
    StructInfo **outs = MEM_ARRAY(StructInfo *, n + 1);
    int fresh = 0;
    for (int i = 0, at = 0; at < n; i++) {
        bool inplace = i < nidx && idx[i] >= 0;
        const StructInfo *p = inplace ? t->params[idx[i]] : t->params[t->nargs + fresh++];
        outs[at++] = sinfo_erase(sinfo_substitute(p, m), scope);
    }
    return n == 1 ? outs[0] : sinfo_tuple(outs, n, t->call->span);
}

/* CALLTIR-2: out_sinfo is provably described by the outputs the signature implies. */
static void check_out_sinfo(SiCtx *c, const TirCall *t, const StructInfo *implied)
{
    rule_fired("CALLTIR-2");
    const StructInfo *declared = t->call->u.call.sinfo_args[0];
    if (sinfo_subtype(declared, implied) == REL_YES)
        return;
    si_error(c, "CallTirOutSinfo", "CALLTIR-2", t->call->span,
             "%s: out_sinfo is %s, but the PrimFunc's signature implies %s", t->op,
             printer_print_sinfo(declared), printer_print_sinfo(implied));
}

static const char *call_tir_name(const char *op)
{
    if (strcmp(op, "relax.call_tir") == 0)
        return "R.call_tir";
    if (strcmp(op, "relax.call_tir_inplace") == 0)
        return "R.call_tir_inplace";
    if (strcmp(op, "relax.call_tir_with_grad") == 0)
        return "R.call_tir_with_grad";
    return NULL;
}

/* The PrimFunc a call_tir-family call names, or NULL. */
static const StructInfo *callee_primfunc(SiCtx *c, const Expr *call)
{
    const Expr *f = call->u.call.args[0];
    if (f->kind != EXPR_GLOBAL_VAR)
        return NULL;
    const ModuleFunc *mf = NULL;
    const StructInfo *s = si_global(c, f->u.gvar->name, &mf);
    if (mf == NULL || mf->kind != MODFUNC_PRIM || s->kind != SINFO_FUNC || !s->u.func.has_params)
        return NULL;
    return s;
}

void si_check_call_tir(SiCtx *c, const Expr *e, const char *op)
{
    const char *name = call_tir_name(op);
    int nargs = e->u.call.nargs;
    if (name == NULL || nargs < 2 || e->u.call.nsinfo_args != 1)
        return;
    const StructInfo *tup = e->u.call.args[1]->sinfo;
    if (tup == NULL || tup->kind != SINFO_TUPLE)
        return;
    TirCall t = {e, name, NULL, 0, tup->u.tuple.fields, tup->u.tuple.n, 0};
    int nidx = 0;
    int64_t *idx = NULL;
    if (strcmp(op, "relax.call_tir_inplace") == 0) {
        idx = inplace_indices(e, &nidx);
        if (!check_inplace(c, &t, idx, nidx))
            return;
    }
    const StructInfo *f = callee_primfunc(c, e);
    const StructInfo *ints = nargs > 2 ? e->u.call.args[2]->sinfo : NULL;
    if (f == NULL || (ints != NULL && (ints->kind != SINFO_SHAPE || ints->u.shape.ndim < 0)))
        return;
    t.params = f->u.func.params;
    t.nparams = f->u.func.nparams;
    t.nints = ints != NULL ? ints->u.shape.ndim : 0;
    ShapeVarMap m = {NULL, NULL, 0, 0};
    if (!check_inputs(c, &t, &m))
        return;
    SinfoScope scope = si_scope(c);
    check_out_sinfo(c, &t, implied_outputs(&t, idx, nidx, &m, &scope));
}
