/* wf_shapes: StructInfo annotations and shape variables: WF-4 (return annotation), WF-5
 * (shape variables bound before use), WF-6 (signature binding positions), WF-10, WF-14,
 * WF-15 (shapes and ndim), WF-16, WF-22 (PrimStructInfo value), WF-17 (FuncStructInfo),
 * WF-19, WF-20 (data types) and WF-24 (vdevices). SPEC_NOTES: "Well-formedness". */
#include <string.h>

#include "ast/rule.h"
#include "interp/wellformed/wf_internal.h"

static void check_sinfo(WfCtx *ctx, const StructInfo *s, WfSinfoSite site);

/* ---- shape variables ----------------------------------------------------------------- */

static void bind_lone(WfCtx *ctx, const PrimExpr *e)
{
    if (e != NULL && e->kind == PE_VAR && !wf_is_visible_svar(ctx, e->u.var))
        wf_push_svar(ctx, e->u.var);
}

void wf_shapes_bind_positions(WfCtx *ctx, const StructInfo *s)
{
    switch (s->kind) {
    case SINFO_OBJECT:
    case SINFO_FUNC:
        return;
    case SINFO_PRIM:
        bind_lone(ctx, s->u.prim.value);
        return;
    case SINFO_SHAPE:
        for (int i = 0; s->u.shape.values != NULL && i < s->u.shape.ndim; i++)
            bind_lone(ctx, s->u.shape.values[i]);
        return;
    case SINFO_TENSOR: {
        const struct Expr *sh = s->u.tensor.shape;
        for (int i = 0; sh != NULL && sh->kind == EXPR_SHAPE && i < sh->u.shape.n; i++)
            bind_lone(ctx, sh->u.shape.values[i]);
        return;
    }
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++)
            wf_shapes_bind_positions(ctx, s->u.tuple.fields[i]);
        return;
    case SINFO_DTENSOR:
        wf_shapes_bind_positions(ctx, s->u.dtensor.tensor);
        return;
    }
}

/* The code and rule an out-of-scope shape variable breaks, by where it stands. */
static void report_unbound(WfCtx *ctx, const TirVar *v, Span span, WfSinfoSite site,
                           StructInfoKind kind)
{
    switch (site) {
    case WF_SITE_PARAM:
        diag_add(ctx->errors, PHASE_WELLFORMED, "ShapeVarNoBindingPosition", "WF-6", span,
                 "shape variable '%s' of the signature stands alone in no parameter dimension",
                 v->name);
        return;
    case WF_SITE_RET:
        diag_add(ctx->errors, PHASE_WELLFORMED, "ReturnShapeVarScope", "WF-4", span,
                 "the return annotation uses shape variable '%s', which is not in scope", v->name);
        return;
    case WF_SITE_MATCH_CAST:
        diag_add(ctx->errors, PHASE_WELLFORMED, "ShapeVarUnbound", "WF-5", span,
                 "shape variable '%s' is used before it is bound", v->name);
        return;
    case WF_SITE_VAR:
    case WF_SITE_SINFO_ARG: {
        const char *rule = kind == SINFO_PRIM ? "WF-16" : kind == SINFO_SHAPE ? "WF-15" : "WF-14";
        diag_add(ctx->errors, PHASE_WELLFORMED, "ShapeVarUnbound", rule, span,
                 "the annotation uses shape variable '%s', which is not in scope", v->name);
        return;
    }
    }
}

static Span best_span(const PrimExpr *e, Span fallback)
{
    return e->span.line > 0 ? e->span : fallback;
}

/* Calls back on every out-of-scope variable of e. */
typedef void (*UnboundFn)(WfCtx *ctx, const TirVar *v, Span span, void *arg);

static void walk_primexpr(WfCtx *ctx, const PrimExpr *e, Span span, UnboundFn fn, void *arg)
{
    if (e == NULL)
        return;
    if (e->kind == PE_VAR) {
        if (!wf_is_visible_svar(ctx, e->u.var))
            fn(ctx, e->u.var, best_span(e, span), arg);
        return;
    }
    if (primexpr_is_binary(e->kind) || primexpr_is_compare(e->kind) || e->kind == PE_AND ||
        e->kind == PE_OR) {
        walk_primexpr(ctx, e->u.bin.a, span, fn, arg);
        walk_primexpr(ctx, e->u.bin.b, span, fn, arg);
    } else if (e->kind == PE_NOT || e->kind == PE_CAST) {
        walk_primexpr(ctx, e->u.operand, span, fn, arg);
    } else if (e->kind == PE_SELECT) {
        walk_primexpr(ctx, e->u.select.cond, span, fn, arg);
        walk_primexpr(ctx, e->u.select.then_value, span, fn, arg);
        walk_primexpr(ctx, e->u.select.else_value, span, fn, arg);
    } else if (e->kind == PE_CALL) {
        for (int i = 0; i < e->u.call.nargs; i++)
            walk_primexpr(ctx, e->u.call.args[i], span, fn, arg);
    } else if (e->kind == PE_LOAD) {
        for (int i = 0; i < e->u.load.nindices; i++)
            walk_primexpr(ctx, e->u.load.indices[i], span, fn, arg);
    }
}

static void unbound_in_expr(WfCtx *ctx, const TirVar *v, Span span, void *arg)
{
    (void)arg;
    diag_add(ctx->errors, PHASE_WELLFORMED, "ShapeVarUnbound", "WF-5", span,
             "shape variable '%s' is used before it is bound", v->name);
}

void wf_shapes_check_primexpr(WfCtx *ctx, const PrimExpr *e, Span span)
{
    rule_fired("WF-5");
    walk_primexpr(ctx, e, span, unbound_in_expr, NULL);
}

typedef struct SiteInfo {
    WfSinfoSite site;
    StructInfoKind kind;
} SiteInfo;

static void unbound_in_sinfo(WfCtx *ctx, const TirVar *v, Span span, void *arg)
{
    const SiteInfo *si = arg;
    report_unbound(ctx, v, span, si->site, si->kind);
}

/* The rule that puts a shape variable of this site in scope (as report_unbound names it). */
static const char *scope_rule(WfSinfoSite site, StructInfoKind kind)
{
    switch (site) {
    case WF_SITE_PARAM:
        return "WF-6";
    case WF_SITE_RET:
        return "WF-4";
    case WF_SITE_MATCH_CAST:
        return "WF-5";
    case WF_SITE_VAR:
    case WF_SITE_SINFO_ARG:
        break;
    }
    return kind == SINFO_PRIM ? "WF-16" : kind == SINFO_SHAPE ? "WF-15" : "WF-14";
}

static void check_dims(WfCtx *ctx, const PrimExpr *e, Span span, WfSinfoSite site,
                       StructInfoKind kind)
{
    rule_fired(scope_rule(site, kind));
    rule_fired(kind == SINFO_PRIM ? "WF-16" : kind == SINFO_SHAPE ? "WF-15" : "WF-14");
    SiteInfo si = {site, kind};
    walk_primexpr(ctx, e, span, unbound_in_sinfo, &si);
}

/* ---- data types ---------------------------------------------------------------------- */

/* WF-20: lanes 1 for Int, UInt, Float; Void is Handle(bits 0, lanes 0); the spec's bit
 * widths. bfloat is not a data type of the spec. */
static bool dtype_allowed(DataType t)
{
    switch ((DTypeCode)t.code) {
    case DT_INT:
    case DT_UINT:
        return t.lanes == 1 &&
               (t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64);
    case DT_FLOAT:
        return t.lanes == 1 && (t.bits == 16 || t.bits == 32 || t.bits == 64);
    case DT_HANDLE:
        return t.bits == 0 && t.lanes == 0;
    case DT_BFLOAT:
        return false;
    }
    return false; /* not reached: every DTypeCode returns inside the switch */
}

static void check_dtype(WfCtx *ctx, DataType t, Span span)
{
    rule_fired("WF-20");
    if (!dtype_allowed(t))
        diag_add(ctx->errors, PHASE_WELLFORMED, "DTypeAnnotation", "WF-20", span,
                 "data type '%s' is not one an annotation may use", dtype_str(t));
}

/* ---- StructInfo kinds ---------------------------------------------------------------- */

static const char *ndim_rule(WfSinfoSite site, StructInfoKind kind)
{
    if (site == WF_SITE_VAR || site == WF_SITE_PARAM)
        return "WF-10";
    return kind == SINFO_SHAPE ? "WF-15" : "WF-14";
}

static void check_prim(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    DataType t = s->u.prim.dtype;
    bool numeric = t.code == DT_INT || t.code == DT_UINT || t.code == DT_FLOAT;
    rule_fired("WF-19");
    if (!numeric)
        diag_add(ctx->errors, PHASE_WELLFORMED, "PrimSInfoDType", "WF-19", s->span,
                 "R.Prim takes an Int, UInt or Float data type, not '%s'", dtype_str(t));
    else
        check_dtype(ctx, t, s->span);
    const PrimExpr *v = s->u.prim.value;
    if (v == NULL)
        return;
    rule_fired("WF-22");
    if (!dtype_equal(v->dtype, t))
        diag_add(ctx->errors, PHASE_WELLFORMED, "PrimValueDType", "WF-22", s->span,
                 "the value's data type '%s' differs from the annotation's '%s'",
                 dtype_str(v->dtype), dtype_str(t));
    check_dims(ctx, v, s->span, site, SINFO_PRIM);
}

static void check_shape(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    /* The ndim of a ShapeStructInfo with values is their count: it matches by construction
     * (the readers reject a mismatch, SPEC_NOTES 4.11). */
    if (s->u.shape.values != NULL)
        rule_fired(ndim_rule(site, SINFO_SHAPE));
    for (int i = 0; s->u.shape.values != NULL && i < s->u.shape.ndim; i++)
        check_dims(ctx, s->u.shape.values[i], s->span, site, SINFO_SHAPE);
}

static bool same_vdevice(const VDevice *a, const VDevice *b)
{
    return a == b ||
           (strcmp(a->target_kind, b->target_kind) == 0 && a->vdevice_id == b->vdevice_id &&
            strcmp(a->memory_scope, b->memory_scope) == 0);
}

static void check_vdevice(WfCtx *ctx, const VDevice *d, Span span)
{
    rule_fired("WF-24");
    for (int i = 0; i < ctx->mod->nvdevices; i++) {
        if (same_vdevice(ctx->mod->vdevices[i], d))
            return;
    }
    diag_add(ctx->errors, PHASE_WELLFORMED, "UnknownVDevice", "WF-24", span,
             "vdevice '%s:%d' is not listed in the module's global_info", d->target_kind,
             d->vdevice_id);
}

static void check_tensor_var_shape(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    const Var *v = s->u.tensor.shape->u.var;
    wf_vars_use_in_annotation(ctx, v, s->span);
    const StructInfo *a = v->annotation;
    int ndim = s->u.tensor.ndim;
    rule_fired(ndim_rule(site, SINFO_TENSOR));
    if (a != NULL && a->kind == SINFO_SHAPE && a->u.shape.ndim >= 0 && a->u.shape.ndim != ndim)
        diag_add(ctx->errors, PHASE_WELLFORMED, "NdimMismatch", ndim_rule(site, SINFO_TENSOR),
                 s->span, "ndim %d differs from the %d dims of shape '%s'", ndim, a->u.shape.ndim,
                 v->name);
}

static void check_tensor(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    check_dtype(ctx, s->u.tensor.dtype, s->span);
    if (s->u.tensor.vdevice != NULL)
        check_vdevice(ctx, s->u.tensor.vdevice, s->span);
    const struct Expr *sh = s->u.tensor.shape;
    if (sh == NULL)
        return;
    if (sh->kind == EXPR_VAR) {
        check_tensor_var_shape(ctx, s, site);
        return;
    }
    if (sh->kind != EXPR_SHAPE) {
        diag_add(ctx->errors, PHASE_WELLFORMED, "TensorShapeKind", "WF-14", s->span,
                 "a tensor's shape must be a variable or a ShapeExpr");
        return;
    }
    rule_fired(ndim_rule(site, SINFO_TENSOR));
    if (sh->u.shape.n != s->u.tensor.ndim)
        diag_add(ctx->errors, PHASE_WELLFORMED, "NdimMismatch", ndim_rule(site, SINFO_TENSOR),
                 s->span, "ndim %d differs from the shape's %d dims", s->u.tensor.ndim,
                 sh->u.shape.n);
    for (int i = 0; i < sh->u.shape.n; i++)
        check_dims(ctx, sh->u.shape.values[i], s->span, site, SINFO_TENSOR);
}

/* A FuncStructInfo's parameters are a signature of their own: their lone shape variables
 * bind for its parameters and result only. An opaque one without derive_func is TVMScript's
 * bare R.Callable, read as deriving `ret` (SPEC_NOTES 4), so only "both" breaks WF-17. */
static void check_func(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    bool has_derive = s->u.func.derive_func != NULL;
    rule_fired("WF-17");
    if (s->u.func.has_params && has_derive)
        diag_add(ctx->errors, PHASE_WELLFORMED, "FuncSInfoParams", "WF-17", s->span,
                 "a FuncStructInfo defines both params and derive_func");
    int mark = ctx->nsvars;
    for (int i = 0; s->u.func.has_params && i < s->u.func.nparams; i++)
        wf_shapes_bind_positions(ctx, s->u.func.params[i]);
    for (int i = 0; s->u.func.has_params && i < s->u.func.nparams; i++)
        check_sinfo(ctx, s->u.func.params[i], site);
    if (s->u.func.ret != NULL)
        check_sinfo(ctx, s->u.func.ret, site);
    ctx->nsvars = mark;
}

static void check_sinfo(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    switch (s->kind) {
    case SINFO_OBJECT:
        return;
    case SINFO_PRIM:
        check_prim(ctx, s, site);
        return;
    case SINFO_SHAPE:
        check_shape(ctx, s, site);
        return;
    case SINFO_TENSOR:
        check_tensor(ctx, s, site);
        return;
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++)
            check_sinfo(ctx, s->u.tuple.fields[i], site);
        return;
    case SINFO_FUNC:
        check_func(ctx, s, site);
        return;
    case SINFO_DTENSOR:
        wf_dist_check_dtensor(ctx, s);
        check_tensor(ctx, s->u.dtensor.tensor, site);
        return;
    }
}

void wf_shapes_check_sinfo(WfCtx *ctx, const StructInfo *s, WfSinfoSite site)
{
    check_sinfo(ctx, s, site);
}
