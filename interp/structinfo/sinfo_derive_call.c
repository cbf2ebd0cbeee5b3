/* sinfo_derive_call: the Call rule (SI-14): builtin operators' StructInfo, calls through a
 * FuncStructInfo with shape-variable substitution, and purity (PURITY-*).
 * SPEC_NOTES: "StructInfo" (SI-14, PURITY-*) and TVMSCRIPT §7. */
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "ast/schema/op_schema.h"
#include "interp/eval/builtins.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/prover.h"
#include "interp/structinfo/sinfo_call_tir.h"
#include "interp/structinfo/sinfo_derive_internal.h"

/* ---- purity ------------------------------------------------------------------------- */

/* PURITY-7: operators with a visible effect; every other operator is pure. */
static const char *const IMPURE_OPS[] = {
    "relax.print",
    "relax.assert_op",
    "relax.invoke_closure",
    "relax.call_builtin_with_ctx",
    "relax.memory.kill_storage",
    "relax.memory.kill_tensor",
    "relax.vm.kill_object",
    "relax.vm.call_tir_dyn",
};

static bool op_is_impure(const char *name)
{
    for (size_t i = 0; i < sizeof IMPURE_OPS / sizeof IMPURE_OPS[0]; i++)
        if (strcmp(IMPURE_OPS[i], name) == 0)
            return true;
    return false;
}

void si_check_purity(SiCtx *c, const Expr *call, const char *what)
{
    if (c->fn != NULL && c->fn->force_pure)
        rule_fired("PURITY-3");
    if (c->in_dataflow) {
        si_error(c, "ImpureInDataflow", "PURITY-1", call->span,
                 "%s is impure and may not appear in a dataflow block", what);
        return;
    }
    /* PURITY-3: relax.force_pure lifts this check only, never the dataflow one above. */
    rule_fired(c->fn != NULL && c->fn->force_pure ? "PURITY-3" : "PURITY-2");
    if (c->fn != NULL && c->fn->is_pure && !c->fn->force_pure)
        si_error(c, "ImpureInPureFunction", "PURITY-2", call->span,
                 "%s is impure and may not appear in the pure function `%s` "
                 "(declare it pure=False, or add relax.force_pure)",
                 what, c->fn->name);
}

/* PURITY-1, PURITY-2: a call in a dataflow block, or else in a pure function without
 * relax.force_pure, is judged there for an effect (si_check_purity reports an impure one). */
static void purity_context(const SiCtx *c)
{
    if (c->in_dataflow)
        rule_fired("PURITY-1");
    else if (c->fn != NULL && c->fn->is_pure && !c->fn->force_pure)
        rule_fired("PURITY-2");
}

/* ---- builtin operators (SI-14.1, TVMSCRIPT §7) -------------------------------------------- */

/* default_derive: no sinfo_args -> Object, one -> it, several -> a tuple of them. */
static StructInfo *default_derive(const Expr *e)
{
    int n = e->u.call.nsinfo_args;
    if (n == 0)
        return sinfo_object(e->span);
    if (n == 1)
        return e->u.call.sinfo_args[0];
    return sinfo_tuple(e->u.call.sinfo_args, n, e->span);
}

static StructInfo *unit(Span span)
{
    return sinfo_tuple(NULL, 0, span);
}

static StructInfo *arg_sinfo(const Expr *e, int i)
{
    return i < e->u.call.nargs ? e->u.call.args[i]->sinfo : NULL;
}

/* shape_of: the tensor's shape when it is a ShapeExpr, else only its rank (as TVM: a shape
 * that is a Relax variable gives its rank, not the variable's StructInfo). */
static StructInfo *infer_shape_of(SiCtx *c, const Expr *e)
{
    rule_fired("BI-shape_of");
    const StructInfo *t = arg_sinfo(e, 0);
    if (t == NULL || t->kind == SINFO_OBJECT)
        return sinfo_shape(NULL, -1, e->span);
    if (t->kind != SINFO_TENSOR) {
        si_error(c, "OpArgument", "SI-14", e->span, "R.shape_of needs a tensor, got %s",
                 printer_print_sinfo(t));
        return sinfo_shape(NULL, -1, e->span);
    }
    const Expr *sh = t->u.tensor.shape;
    if (sh != NULL && sh->kind == EXPR_SHAPE)
        return sinfo_shape(sh->u.shape.values, sh->u.shape.n, e->span);
    return sinfo_shape(NULL, t->u.tensor.ndim, e->span);
}

static StructInfo *infer_shape_to_tensor(SiCtx *c, const Expr *e)
{
    rule_fired("BI-shape_to_tensor");
    const StructInfo *s = arg_sinfo(e, 0);
    /* BI-shape_to_tensor: TVM's inference requires a Shape (R.Object may still be one). */
    if (s != NULL && s->kind != SINFO_SHAPE && s->kind != SINFO_OBJECT)
        si_error(c, "OpArgument", "SI-14", e->span, "R.shape_to_tensor needs a shape, got %s",
                 printer_print_sinfo(s));
    int ndim = s != NULL && s->kind == SINFO_SHAPE ? s->u.shape.ndim : -1;
    if (ndim < 0)
        return sinfo_tensor(NULL, dtype_int64(), NULL, 1, e->span);
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, 1);
    dims[0] = primexpr_int(ndim, dtype_int64(), e->span);
    return sinfo_tensor(expr_shape(dims, 1, e->span), dtype_int64(), NULL, 1, e->span);
}

static StructInfo *infer_tensor_to_shape(SiCtx *c, const Expr *e)
{
    rule_fired("BI-tensor_to_shape");
    const StructInfo *t = arg_sinfo(e, 0);
    /* BI-tensor_to_shape: TVM's inference requires a tensor of rank 1 (or unknown rank). */
    if (t != NULL && t->kind != SINFO_OBJECT &&
        (t->kind != SINFO_TENSOR || (t->u.tensor.ndim != -1 && t->u.tensor.ndim != 1)))
        si_error(c, "OpArgument", "SI-14", e->span, "R.tensor_to_shape needs a 1-D tensor, got %s",
                 printer_print_sinfo(t));
    int64_t len;
    if (t != NULL && t->kind == SINFO_TENSOR && t->u.tensor.shape != NULL &&
        t->u.tensor.shape->kind == EXPR_SHAPE && t->u.tensor.shape->u.shape.n == 1 &&
        prover_const_int(t->u.tensor.shape->u.shape.values[0], &len) && len >= 0 && len < 1000000)
        return sinfo_shape(NULL, (int)len, e->span);
    return sinfo_shape(NULL, -1, e->span);
}

/* assert_op's condition must be able to be a bool scalar. */
static void check_assert_cond(SiCtx *c, const Expr *e)
{
    const StructInfo *s = arg_sinfo(e, 0);
    if (s == NULL)
        return;
    bool bad = false;
    if (s->kind == SINFO_PRIM)
        bad = !dtype_is_bool(s->u.prim.dtype);
    else if (s->kind == SINFO_TENSOR)
        bad = (!dtype_is_void(s->u.tensor.dtype) && !dtype_is_bool(s->u.tensor.dtype)) ||
              (s->u.tensor.ndim != -1 && s->u.tensor.ndim != 0);
    else
        bad = s->kind != SINFO_OBJECT;
    if (bad)
        si_error(c, "OpArgument", "SI-14", e->u.call.args[0]->span,
                 "R.assert_op's condition must be a bool scalar, got %s", printer_print_sinfo(s));
}

/* The destination of to_vdevice: a "kind", "kind:i" or "vdevice:i" string naming one of the
 * module's vdevices, as an argument or as the dst_vdevice attribute. */
static VDevice *to_vdevice_dst(const SiCtx *c, const Expr *e)
{
    const char *s = NULL;
    if (e->u.call.nargs > 1 && e->u.call.args[1]->kind == EXPR_STRING)
        s = e->u.call.args[1]->u.str;
    const AttrValue *a = attrs_get(e->u.call.attrs, "dst_vdevice");
    if (s == NULL && a != NULL && a->kind == ATTR_STR)
        s = a->u.s;
    if (s == NULL)
        return NULL;
    const char *colon = strchr(s, ':');
    const char *kind = colon ? mem_strndup(s, (size_t)(colon - s)) : s;
    int index = colon ? atoi(colon + 1) : 0;
    int seen = 0;
    for (int i = 0; i < c->mod->nvdevices; i++) {
        VDevice *v = c->mod->vdevices[i];
        if (strcmp(kind, "vdevice") == 0 && i == index)
            return v;
        if (strcmp(v->target_kind, kind) == 0 && seen++ == index)
            return v;
    }
    return NULL;
}

/* VDEV-1: the same tensor, now on the destination vdevice. */
static StructInfo *infer_to_vdevice(const SiCtx *c, const Expr *e)
{
    rule_fired("VDEV-1");
    const StructInfo *t = arg_sinfo(e, 0);
    if (t == NULL || t->kind != SINFO_TENSOR)
        return t ? (StructInfo *)t : sinfo_object(e->span);
    return sinfo_tensor(t->u.tensor.shape, t->u.tensor.dtype, to_vdevice_dst(c, e),
                        t->u.tensor.ndim, e->span);
}

/* FInferStructInfo of the builtins; NULL for an operator without a rule. */
static StructInfo *infer_builtin(SiCtx *c, const Expr *e, const char *op)
{
    static const char *const from_sinfo_args[] = {
        "relax.call_tir",        "relax.call_tir_inplace",    "relax.call_tir_with_grad",
        "relax.call_dps_packed", "relax.call_pure_packed",    "relax.call_inplace_packed",
        "relax.invoke_closure",  "relax.invoke_pure_closure",
    };
    for (size_t i = 0; i < sizeof from_sinfo_args / sizeof from_sinfo_args[0]; i++) {
        if (strcmp(op, from_sinfo_args[i]) == 0) {
            si_check_call_tir(c, e, op);
            return default_derive(e);
        }
    }
    if (strcmp(op, "relax.print") == 0)
        return unit(e->span);
    if (strcmp(op, "relax.assert_op") == 0) {
        check_assert_cond(c, e);
        return unit(e->span);
    }
    if (strcmp(op, "relax.null_value") == 0) {
        rule_fired("BI-null_value"); /* the null object is an R.Object */
        return sinfo_object(e->span);
    }
    if (strcmp(op, "relax.shape_of") == 0)
        return infer_shape_of(c, e);
    if (strcmp(op, "relax.shape_to_tensor") == 0)
        return infer_shape_to_tensor(c, e);
    if (strcmp(op, "relax.tensor_to_shape") == 0)
        return infer_tensor_to_shape(c, e);
    if (strcmp(op, "relax.to_vdevice") == 0)
        return infer_to_vdevice(c, e);
    if (strcmp(op, "relax.hint_on_device") == 0 && c->mod->nvdevices > 0)
        return si_vdev_hint(c, e);
    /* VDEV-1: with no module VDevices a hint keeps its argument's StructInfo. */
    if (strcmp(op, "relax.hint_on_device") == 0)
        rule_fired("VDEV-1");
    if (strcmp(op, "relax.hint_on_device") == 0)
        return arg_sinfo(e, 0) ? arg_sinfo(e, 0) : sinfo_object(e->span);
    return NULL;
}

/* A registered operator's inference, on its arguments' derived StructInfo. */
/* A list whose items are all integers (or, with numbers, integers or floats). */
static bool list_of(const AttrValue *v, bool numbers)
{
    if (v->kind != ATTR_LIST)
        return false;
    for (int i = 0; i < v->u.list.n; i++) {
        AttrKind k = v->u.list.items[i]->kind;
        if (k != ATTR_INT && !(numbers && k == ATTR_FLOAT))
            return false;
    }
    return true;
}

/* Whether an attribute value is of the kind its schema type names (a bool and an int stand
 * for each other, as TVM's attribute conversion reads them, and an int is a float; the
 * optional types also take None; a Relax expression fits only where a PrimValue may be
 * given). */
static bool attr_kind_fits(OpAttrType t, const AttrValue *v)
{
    AttrKind k = v->kind;
    bool number = k == ATTR_INT || k == ATTR_BOOL;
    switch (t) {
    case OPA_INT:
        return number;
    case OPA_OPT_INT:
        return number || k == ATTR_NONE;
    case OPA_FLOAT:
        return number || k == ATTR_FLOAT;
    case OPA_OPT_FLOAT:
        return number || k == ATTR_FLOAT || k == ATTR_NONE;
    case OPA_BOOL:
        return number;
    case OPA_OPT_BOOL:
        return number || k == ATTR_NONE;
    case OPA_STR:
    case OPA_DTYPE:
        return k == ATTR_STR;
    case OPA_OPT_STR:
        return k == ATTR_STR || k == ATTR_NONE;
    case OPA_INT_LIST:
        return list_of(v, false);
    case OPA_OPT_INT_LIST:
        return list_of(v, false) || k == ATTR_NONE;
    case OPA_FLOAT_LIST:
        return list_of(v, true);
    case OPA_INT_OR_LIST:
    case OPA_INT_KEEP_OR_LIST:
        return k == ATTR_INT || list_of(v, false);
    case OPA_OPT_INT_OR_LIST:
        return k == ATTR_INT || list_of(v, false) || k == ATTR_NONE;
    case OPA_INDEX_MAP:
    case OPA_OPT_PRIM:
        return true;
    }
    return true; /* not reached: every case of the switch returns */
}

/* OP-REGISTRY: an attribute the operator's schema types (only the ast: form can write another
 * kind) must be of that type; a float axis is OpAttr, never the default read in its place. */
static bool attrs_fit_schema(SiCtx *c, const Expr *e, const char *op)
{
    const OpSchema *s = op_schema_lookup(op);
    const Attrs *attrs = e->u.call.attrs;
    if (s == NULL || attrs == NULL)
        return true;
    for (int i = 0; i < s->nparams; i++) {
        const OpParam *p = &s->params[i];
        const AttrValue *v = p->kind == OPP_ATTR ? attrs_get(attrs, p->name) : NULL;
        if (v != NULL && !attr_kind_fits(p->attr_type, v)) {
            OpInferCtx ctx = {e, NULL, 0, c->errors, ops_rule_of(op)};
            ops_infer_fail(&ctx, "OpAttr", "attribute %s is not of its type", p->name);
            return false;
        }
    }
    return true;
}

static StructInfo *infer_registered(SiCtx *c, Expr *e, const OpImpl *impl)
{
    int n = e->u.call.nargs;
    StructInfo **args = MEM_ARRAY(StructInfo *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        args[i] = e->u.call.args[i]->sinfo;
    OpInferCtx ctx = {e, args, n, c->errors, ops_rule_of(impl->name)};
    rule_fired(ctx.rule); /* OP-<name>: the operator's inference */
    return ops_infer(impl, &ctx);
}

/* DIAG-1: a call on a value whose error was already reported is not checked again. */
static bool args_poisoned(const Expr *e)
{
    for (int i = 0; i < e->u.call.nargs; i++)
        if (sinfo_has_poison(e->u.call.args[i]->sinfo)) {
            rule_fired("DIAG-1");
            return true;
        }
    return false;
}

/* SI-14.1: an Op callee. Operators without an inference rule derive R.Object. */
static StructInfo *derive_op_call(SiCtx *c, Expr *e)
{
    rule_fired("SI-14");
    rule_fired("PURITY-7");
    const char *op = e->u.call.op->u.op_name;
    e->u.call.op->sinfo = sinfo_object(e->u.call.op->span);
    for (int i = 0; i < e->u.call.nargs; i++)
        si_derive(c, e->u.call.args[i]);
    if (args_poisoned(e))
        return sinfo_poisoned(e->span);
    const OpImpl *impl = ops_lookup(op);
    rule_fired("OP-REGISTRY");
    purity_context(c);
    if (op_is_impure(op) || (impl != NULL && !impl->pure))
        si_check_purity(c, e, mem_printf("the operator %s", op));
    if (!attrs_fit_schema(c, e, op))
        return sinfo_object(e->span);
    StructInfo *d = si_dist_call(c, e, op, impl);
    if (d != NULL)
        return d;
    StructInfo *s = infer_builtin(c, e, op);
    if (s != NULL)
        return si_vdev_op_result(c, e, op, s);
    if (impl != NULL && impl->infer != NULL)
        return si_vdev_op_result(c, e, op, infer_registered(c, e, impl));
    /* OP-REGISTRY: an operator nobody defines has no meaning to check. */
    if (impl == NULL && op_schema_lookup(op) == NULL && !builtins_has(op))
        si_error(c, "UnknownOp", "OP-REGISTRY", e->span, "unknown operator %s", op);
    return sinfo_object(e->span);
}

/* ---- calls through a FuncStructInfo (SI-14.2) ------------------------------------------ */

static const char *callee_text(const Expr *op, const ModuleFunc *mf)
{
    if (mf != NULL && mf->kind == MODFUNC_PRIM)
        return mem_printf("the PrimFunc `%s` (called directly)", mf->gvar->name);
    if (op->kind == EXPR_EXTERN_FUNC)
        return mem_printf("the packed function \"%s\"", op->u.extern_symbol);
    return mem_printf("a call of %s", printer_print_expr(op));
}

/* An opaque callee: derive_func (or sinfo_args), else its declared result. */
static StructInfo *call_opaque(SiCtx *c, Expr *e, const StructInfo *f, const char *what)
{
    /* PURITY-5: only a pure callee without a derive_func is known to have no effect. */
    rule_fired("PURITY-5");
    if (f->u.func.derive_func != NULL || !f->u.func.purity)
        si_check_purity(c, e, what);
    const char *df = f->u.func.derive_func;
    if (df != NULL && strcmp(df, "empty_derive") == 0)
        return sinfo_object(e->span);
    if (df != NULL || e->u.call.nsinfo_args > 0)
        return default_derive(e);
    SinfoScope scope = si_scope(c);
    return sinfo_erase(f->u.func.ret, &scope);
}

/* SI-14.2.4 to 14.2.7: arity, beta-reduction of the callee's shape variables, argument
 * checks, and the erased result. */
static StructInfo *call_with_params(SiCtx *c, Expr *e, const StructInfo *f, const char *what)
{
    /* PURITY-8: the callee's FuncStructInfo is the only purity a call can know. */
    rule_fired("PURITY-8");
    if (!f->u.func.purity)
        si_check_purity(c, e, what);
    SinfoScope scope = si_scope(c);
    int n = e->u.call.nargs;
    if (n != f->u.func.nparams) {
        si_error(c, "ArityMismatch", "SI-14", e->span, "%s takes %d argument(s), got %d", what,
                 f->u.func.nparams, n);
        return sinfo_erase(f->u.func.ret, &scope);
    }
    /* MAP-1: the callee's shape variables take the caller's values before any check. */
    rule_fired("MAP-1");
    ShapeVarMap m = {NULL, NULL, 0, 0};
    for (int i = 0; i < n; i++)
        sinfo_shape_var_mapping(f->u.func.params[i], e->u.call.args[i]->sinfo, &m);
    StructInfo *g = sinfo_substitute(f, &m);
    for (int i = 0; i < n; i++) {
        StructInfo *a = e->u.call.args[i]->sinfo;
        si_judge(c, sinfo_compat(a, g->u.func.params[i]), "ArgIncompatible", "SI-14",
                 e->u.call.args[i]->span, a, g->u.func.params[i],
                 mem_printf("argument %d of %s", i + 1, what));
    }
    /* ERASE-1: the callee's own shape variables mean nothing at the call site. */
    return sinfo_erase(g->u.func.ret, &scope);
}

StructInfo *si_derive_call(SiCtx *c, Expr *e)
{
    rule_fired("SI-14");
    Expr *op = e->u.call.op;
    if (op->kind == EXPR_OP)
        return derive_op_call(c, e);
    const ModuleFunc *mf = NULL;
    StructInfo *f;
    if (op->kind == EXPR_GLOBAL_VAR) {
        f = si_global(c, op->u.gvar->name, &mf);
        op->sinfo = f;
    } else {
        f = si_derive(c, op);
    }
    for (int i = 0; i < e->u.call.nargs; i++)
        si_derive(c, e->u.call.args[i]);
    if (f->poisoned || args_poisoned(e)) {
        rule_fired("DIAG-1");
        return sinfo_poisoned(e->span);
    }
    const char *what = callee_text(op, mf);
    purity_context(c);
    if (mf != NULL && mf->kind == MODFUNC_PRIM)
        rule_fired("PURITY-6");
    if (f->kind != SINFO_FUNC) {
        si_error(c, "NotCallable", "SI-14", op->span, "%s: the callee has StructInfo %s", what,
                 printer_print_sinfo(f));
        return sinfo_object(e->span);
    }
    if (!f->u.func.has_params)
        return call_opaque(c, e, f, what);
    return call_with_params(c, e, f, what);
}
