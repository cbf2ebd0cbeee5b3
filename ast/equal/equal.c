/* equal: alpha-equivalence of Relax modules, functions, expressions and StructInfo.
 * SPEC_NOTES: "Structural equality". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/equal/equal_internal.h"
#include "ast/mem.h"

bool eq_fail(EqCtx *c, const char *fmt, ...)
{
    if (c->why == NULL) {
        va_list ap;
        va_start(ap, fmt);
        char buf[512];
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        c->why = mem_strdup(buf);
    }
    return false;
}

bool eq_trail(EqCtx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[256];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *seg = mem_strdup(buf);
    VEC_PUSH(c->trail, c->ntrail, c->captrail, seg);
    return false;
}

bool eq_corr(PtrMap *m, const void *a, const void *b, bool *fresh)
{
    *fresh = false;
    for (int i = 0; i < m->n; i++) {
        if (m->pairs[i].a == a)
            return m->pairs[i].b == b;
        if (m->pairs[i].b == b)
            return false;
    }
    PtrPair pair = {a, b};
    VEC_PUSH(m->pairs, m->n, m->cap, pair);
    *fresh = true;
    return true;
}

bool eq_str_opt(const char *a, const char *b, const char *dflt)
{
    return strcmp(a ? a : dflt, b ? b : dflt) == 0;
}

/* ---- Attributes ---- */

/* A string keyword and an R.str(...) keyword are the same StringImm. */
static bool is_string_attr(const AttrValue *v, const char **s)
{
    if (v->kind == ATTR_STR)
        *s = v->u.s;
    else if (v->kind == ATTR_EXPR && v->u.expr != NULL && v->u.expr->kind == EXPR_STRING)
        *s = v->u.expr->u.str;
    else
        return false;
    return true;
}

/* Index maps are equal up to renaming of their parameters, bound pairwise here. */
static bool eq_index_map(EqCtx *c, const AttrValue *a, const AttrValue *b)
{
    if (a->u.index_map.nparams != b->u.index_map.nparams ||
        a->u.index_map.nresults != b->u.index_map.nresults)
        return eq_fail(c, "index maps of different arity");
    for (int i = 0; i < a->u.index_map.nparams; i++)
        EQ_CHECK(c, eq_tvar(c, a->u.index_map.params[i], b->u.index_map.params[i]),
                 "index_map "
                 "param %d",
                 i);
    for (int i = 0; i < a->u.index_map.nresults; i++)
        EQ_CHECK(c, eq_prim(c, a->u.index_map.results[i], b->u.index_map.results[i]),
                 "index_map result %d", i);
    return true;
}

static bool eq_attr(EqCtx *c, const AttrValue *a, const AttrValue *b)
{
    const char *sa, *sb;
    if (a->kind != b->kind && is_string_attr(a, &sa) && is_string_attr(b, &sb))
        return strcmp(sa, sb) == 0 || eq_fail(c, "string attribute \"%s\" vs \"%s\"", sa, sb);
    if (a->kind != b->kind)
        return eq_fail(c, "attribute kinds differ");
    switch (a->kind) {
    case ATTR_NONE:
        return true;
    case ATTR_BOOL:
        return a->u.b == b->u.b || eq_fail(c, "bool attribute differs");
    case ATTR_INT:
        return a->u.i == b->u.i ||
               eq_fail(c, "int attribute %lld vs %lld", (long long)a->u.i, (long long)b->u.i);
    case ATTR_FLOAT:
        return memcmp(&a->u.f, &b->u.f, sizeof(double)) == 0 ||
               eq_fail(c, "float attribute %g vs %g", a->u.f, b->u.f);
    case ATTR_STR:
        return strcmp(a->u.s, b->u.s) == 0 ||
               eq_fail(c, "string attribute \"%s\" vs \"%s\"", a->u.s, b->u.s);
    case ATTR_LIST:
        if (a->u.list.n != b->u.list.n)
            return eq_fail(c, "list lengths %d vs %d", a->u.list.n, b->u.list.n);
        for (int i = 0; i < a->u.list.n; i++)
            EQ_CHECK(c, eq_attr(c, a->u.list.items[i], b->u.list.items[i]), "[%d]", i);
        return true;
    case ATTR_DICT:
        return eq_attrs(c, a->u.dict, b->u.dict);
    case ATTR_EXPR:
        return eq_expr(c, a->u.expr, b->u.expr);
    case ATTR_INDEX_MAP:
        return eq_index_map(c, a, b);
    case ATTR_VERBATIM:
        return strcmp(a->u.s, b->u.s) == 0 || eq_fail(c, "attribute %s vs %s", a->u.s, b->u.s);
    }
    return false;
}

bool eq_attrs(EqCtx *c, const Attrs *a, const Attrs *b)
{
    int na = a ? a->n : 0, nb = b ? b->n : 0;
    for (int i = 0; i < na; i++) {
        const AttrValue *vb = attrs_get(b, a->keys[i]);
        if (vb == NULL)
            return eq_fail(c, "attribute \"%s\" only on the left", a->keys[i]);
        EQ_CHECK(c, eq_attr(c, a->values[i], vb), "attrs[\"%s\"]", a->keys[i]);
    }
    if (na != nb)
        return eq_fail(c, "attribute counts %d vs %d", na, nb);
    return true;
}

/* ---- StructInfo ---- */

static bool eq_sinfo_c(EqCtx *c, const StructInfo *a, const StructInfo *b);

static bool eq_vdevice(EqCtx *c, const VDevice *a, const VDevice *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "vdevice present on one side only");
    if (!eq_str_opt(a->target_kind, b->target_kind, "") || a->vdevice_id != b->vdevice_id ||
        !eq_str_opt(a->memory_scope, b->memory_scope, "global"))
        return eq_fail(c, "vdevices differ");
    if ((a->target_config == NULL) != (b->target_config == NULL))
        return eq_fail(c, "vdevice target configs differ");
    return a->target_config == NULL || eq_attrs(c, a->target_config, b->target_config);
}

static bool eq_prims(EqCtx *c, PrimExpr *const *a, PrimExpr *const *b, int n)
{
    for (int i = 0; i < n; i++)
        EQ_CHECK(c, eq_prim(c, a[i], b[i]), "values[%d]", i);
    return true;
}

static bool eq_sinfo_list(EqCtx *c, StructInfo *const *a, StructInfo *const *b, int n)
{
    for (int i = 0; i < n; i++)
        EQ_CHECK(c, eq_sinfo_c(c, a[i], b[i]), "fields[%d]", i);
    return true;
}

static bool eq_func_sinfo(EqCtx *c, const StructInfo *a, const StructInfo *b)
{
    if (a->u.func.has_params != b->u.func.has_params || a->u.func.purity != b->u.func.purity)
        return eq_fail(c, "callable params or purity differ");
    if (a->u.func.has_params) {
        if (a->u.func.nparams != b->u.func.nparams)
            return eq_fail(c, "callable arity %d vs %d", a->u.func.nparams, b->u.func.nparams);
        EQ_CHECK(c, eq_sinfo_list(c, a->u.func.params, b->u.func.params, a->u.func.nparams),
                 "params");
    }
    if (!eq_str_opt(a->u.func.derive_func, b->u.func.derive_func, ""))
        return eq_fail(c, "derive_func differs");
    const StructInfo *ra = a->u.func.ret, *rb = b->u.func.ret;
    if (ra == NULL || rb == NULL) /* an absent ret means R.Object */
        return (ra ? ra : rb) == NULL || (ra ? ra : rb)->kind == SINFO_OBJECT ||
               eq_fail(c, "callable ret differs");
    EQ_CHECK(c, eq_sinfo_c(c, ra, rb), "ret");
    return true;
}

static bool eq_sinfo_c(EqCtx *c, const StructInfo *a, const StructInfo *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "StructInfo present on one side only");
    if (a->kind != b->kind)
        return eq_fail(c, "StructInfo kinds differ");
    switch (a->kind) {
    case SINFO_OBJECT:
        return true;
    case SINFO_PRIM:
        if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype))
            return eq_fail(c, "prim dtype %s vs %s", dtype_str(a->u.prim.dtype),
                           dtype_str(b->u.prim.dtype));
        EQ_CHECK(c, eq_prim_opt(c, a->u.prim.value, b->u.prim.value), "value");
        return true;
    case SINFO_SHAPE:
        if (a->u.shape.ndim != b->u.shape.ndim ||
            (a->u.shape.values == NULL) != (b->u.shape.values == NULL))
            return eq_fail(c, "shape ndim or values differ");
        return a->u.shape.values == NULL ||
               eq_prims(c, a->u.shape.values, b->u.shape.values, a->u.shape.ndim);
    case SINFO_TENSOR:
        if (!dtype_equal(a->u.tensor.dtype, b->u.tensor.dtype))
            return eq_fail(c, "tensor dtype %s vs %s", dtype_str(a->u.tensor.dtype),
                           dtype_str(b->u.tensor.dtype));
        if (a->u.tensor.ndim != b->u.tensor.ndim)
            return eq_fail(c, "tensor ndim %d vs %d", a->u.tensor.ndim, b->u.tensor.ndim);
        if ((a->u.tensor.shape == NULL) != (b->u.tensor.shape == NULL))
            return eq_fail(c, "tensor shape present on one side only");
        EQ_CHECK(c, a->u.tensor.shape == NULL || eq_expr(c, a->u.tensor.shape, b->u.tensor.shape),
                 "shape");
        EQ_CHECK(c, eq_vdevice(c, a->u.tensor.vdevice, b->u.tensor.vdevice), "vdevice");
        return true;
    case SINFO_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return eq_fail(c, "tuple sizes %d vs %d", a->u.tuple.n, b->u.tuple.n);
        return eq_sinfo_list(c, a->u.tuple.fields, b->u.tuple.fields, a->u.tuple.n);
    case SINFO_FUNC:
        return eq_func_sinfo(c, a, b);
    case SINFO_DTENSOR:
        if (!dist_mesh_equal(a->u.dtensor.mesh, b->u.dtensor.mesh))
            return eq_fail(c, "device meshes differ");
        if (!dist_placement_equal(a->u.dtensor.placement, b->u.dtensor.placement))
            return eq_fail(c, "placements differ");
        EQ_CHECK(c, eq_sinfo_c(c, a->u.dtensor.tensor, b->u.dtensor.tensor), "tensor_sinfo");
        return true;
    }
    return false;
}

/* ---- Expressions ---- */

static bool eq_var(EqCtx *c, const Var *a, const Var *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "variable present on one side only");
    bool fresh;
    if (!eq_corr(&c->vars, a, b, &fresh))
        return eq_fail(c, "variable %s does not correspond to %s", a->name, b->name);
    if (!fresh)
        return true;
    if (a->is_dataflow != b->is_dataflow)
        return eq_fail(c, "%s: dataflow var vs var", a->name);
    EQ_CHECK(c, eq_sinfo_c(c, a->annotation, b->annotation), "%s:annotation", a->name);
    return true;
}

static bool eq_exprs(EqCtx *c, Expr *const *a, Expr *const *b, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        EQ_CHECK(c, eq_expr(c, a[i], b[i]), "%s[%d]", what, i);
    return true;
}

static bool eq_binding(EqCtx *c, const Binding *a, const Binding *b)
{
    if (a->kind != b->kind)
        return eq_fail(c, "VarBinding vs MatchCast");
    EQ_CHECK(c, eq_var(c, a->var, b->var), "var");
    EQ_CHECK(c, eq_expr(c, a->value, b->value), "value");
    EQ_CHECK(c, eq_sinfo_c(c, a->struct_info, b->struct_info), "struct_info");
    return true;
}

static bool eq_block(EqCtx *c, const BindingBlock *a, const BindingBlock *b)
{
    if (a->is_dataflow != b->is_dataflow)
        return eq_fail(c, "dataflow block vs binding block");
    if (a->n != b->n)
        return eq_fail(c, "binding counts %d vs %d", a->n, b->n);
    for (int i = 0; i < a->n; i++)
        EQ_CHECK(c, eq_binding(c, a->bindings[i], b->bindings[i]), "bindings[%d]", i);
    return true;
}

static bool eq_seq(EqCtx *c, const Expr *a, const Expr *b)
{
    if (a->u.seq.nblocks != b->u.seq.nblocks)
        return eq_fail(c, "block counts %d vs %d", a->u.seq.nblocks, b->u.seq.nblocks);
    for (int i = 0; i < a->u.seq.nblocks; i++)
        EQ_CHECK(c, eq_block(c, a->u.seq.blocks[i], b->u.seq.blocks[i]), "blocks[%d]", i);
    EQ_CHECK(c, eq_expr(c, a->u.seq.body, b->u.seq.body), "body");
    return true;
}

static bool eq_function(EqCtx *c, const Function *a, const Function *b)
{
    if (a->nparams != b->nparams)
        return eq_fail(c, "parameter counts %d vs %d", a->nparams, b->nparams);
    for (int i = 0; i < a->nparams; i++)
        EQ_CHECK(c, eq_var(c, a->params[i], b->params[i]), "params[%d]", i);
    EQ_CHECK(c, eq_sinfo_c(c, a->ret, b->ret), "ret");
    if (a->is_pure != b->is_pure)
        return eq_fail(c, "purity differs");
    EQ_CHECK(c, eq_attrs(c, a->attrs, b->attrs), "attrs");
    EQ_CHECK(c, eq_expr(c, a->body, b->body), "body");
    return true;
}

static bool eq_const(EqCtx *c, const ConstData *a, const ConstData *b)
{
    if (!dtype_equal(a->dtype, b->dtype))
        return eq_fail(c, "constant dtype %s vs %s", dtype_str(a->dtype), dtype_str(b->dtype));
    if (a->ndim != b->ndim || a->numel != b->numel)
        return eq_fail(c, "constant shapes differ");
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return eq_fail(c, "constant shapes differ");
    size_t bytes = (size_t)a->numel * dtype_bytes(a->dtype);
    if (bytes > 0 && memcmp(a->data, b->data, bytes) != 0)
        return eq_fail(c, "constant data differs");
    return true;
}

static bool eq_call(EqCtx *c, const Expr *a, const Expr *b)
{
    EQ_CHECK(c, eq_expr(c, a->u.call.op, b->u.call.op), "op");
    if (a->u.call.nargs != b->u.call.nargs)
        return eq_fail(c, "argument counts %d vs %d", a->u.call.nargs, b->u.call.nargs);
    if (!eq_exprs(c, a->u.call.args, b->u.call.args, a->u.call.nargs, "args"))
        return false;
    if (a->u.call.nsinfo_args != b->u.call.nsinfo_args)
        return eq_fail(c, "sinfo_args counts differ");
    for (int i = 0; i < a->u.call.nsinfo_args; i++)
        EQ_CHECK(c, eq_sinfo_c(c, a->u.call.sinfo_args[i], b->u.call.sinfo_args[i]),
                 "sinfo_args[%d]", i);
    EQ_CHECK(c, eq_attrs(c, a->u.call.attrs, b->u.call.attrs), "attrs");
    return true;
}

/* Leaves that compare by a name or a value (the kinds already agree). */
static bool eq_leaf(EqCtx *c, const Expr *a, const Expr *b)
{
    if (a->kind == EXPR_DTYPE)
        return dtype_equal(a->u.dtype, b->u.dtype) || eq_fail(c, "dtype immediates differ");
    const char *sa = a->kind == EXPR_GLOBAL_VAR    ? a->u.gvar->name
                     : a->kind == EXPR_STRING      ? a->u.str
                     : a->kind == EXPR_EXTERN_FUNC ? a->u.extern_symbol
                                                   : a->u.op_name;
    const char *sb = b->kind == EXPR_GLOBAL_VAR    ? b->u.gvar->name
                     : b->kind == EXPR_STRING      ? b->u.str
                     : b->kind == EXPR_EXTERN_FUNC ? b->u.extern_symbol
                                                   : b->u.op_name;
    return strcmp(sa, sb) == 0 || eq_fail(c, "\"%s\" vs \"%s\"", sa, sb);
}

bool eq_expr(EqCtx *c, const Expr *a, const Expr *b)
{
    if (a == NULL || b == NULL)
        return a == b || eq_fail(c, "expression present on one side only");
    if (a->kind != b->kind)
        return eq_fail(c, "expression kinds differ");
    switch (a->kind) {
    case EXPR_CONSTANT:
        if ((a->extern_sinfo == NULL) != (b->extern_sinfo == NULL))
            return eq_fail(c, "R.dist.const on one side only");
        EQ_CHECK(c, a->extern_sinfo == NULL || eq_sinfo_c(c, a->extern_sinfo, b->extern_sinfo),
                 "struct_info");
        return eq_const(c, a->u.constant, b->u.constant);
    case EXPR_VAR:
        return eq_var(c, a->u.var, b->u.var);
    case EXPR_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return eq_fail(c, "tuple sizes %d vs %d", a->u.tuple.n, b->u.tuple.n);
        return eq_exprs(c, a->u.tuple.fields, b->u.tuple.fields, a->u.tuple.n, "fields");
    case EXPR_SEQ:
        return eq_seq(c, a, b);
    case EXPR_PRIM_VALUE:
        return eq_prim(c, a->u.prim, b->u.prim);
    case EXPR_FUNCTION:
        return eq_function(c, a->u.func, b->u.func);
    case EXPR_IF:
        EQ_CHECK(c, eq_expr(c, a->u.if_.cond, b->u.if_.cond), "cond");
        EQ_CHECK(c, eq_expr(c, a->u.if_.then_branch, b->u.if_.then_branch), "then");
        EQ_CHECK(c, eq_expr(c, a->u.if_.else_branch, b->u.if_.else_branch), "else");
        return true;
    case EXPR_CALL:
        return eq_call(c, a, b);
    case EXPR_SHAPE:
        if (a->u.shape.n != b->u.shape.n)
            return eq_fail(c, "shape lengths %d vs %d", a->u.shape.n, b->u.shape.n);
        return eq_prims(c, a->u.shape.values, b->u.shape.values, a->u.shape.n);
    case EXPR_TUPLE_GET_ITEM:
        if (a->u.get_item.index != b->u.get_item.index)
            return eq_fail(c, "index %d vs %d", a->u.get_item.index, b->u.get_item.index);
        EQ_CHECK(c, eq_expr(c, a->u.get_item.tuple, b->u.get_item.tuple), "tuple");
        return true;
    case EXPR_GLOBAL_VAR:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return eq_leaf(c, a, b);
    }
    return false;
}

/* ---- Modules ---- */

static bool eq_module_func(EqCtx *c, const ModuleFunc *a, const ModuleFunc *b)
{
    if (a->kind != b->kind)
        return eq_fail(c, "function kinds differ");
    switch (a->kind) {
    case MODFUNC_RELAX:
        return eq_function(c, a->u.relax, b->u.relax);
    case MODFUNC_PRIM:
        return eq_primfunc(c, a->u.prim, b->u.prim);
    case MODFUNC_EXTERN:
        return strcmp(a->u.extern_symbol, b->u.extern_symbol) == 0 ||
               eq_fail(c, "extern symbols differ");
    }
    return false;
}

static bool eq_module(EqCtx *c, const IRModule *a, const IRModule *b)
{
    for (int i = 0; i < a->nfuncs; i++) {
        const char *name = a->funcs[i]->gvar->name;
        const ModuleFunc *fb = module_lookup(b, name);
        if (fb == NULL)
            return eq_fail(c, "function %s only on the left", name);
        EqCtx fresh = {0};
        bool ok = eq_module_func(&fresh, a->funcs[i], fb);
        if (!ok) {
            c->why = fresh.why;
            c->trail = fresh.trail;
            c->ntrail = fresh.ntrail;
            c->captrail = fresh.captrail;
            return eq_trail(c, "%s", name);
        }
    }
    if (a->nfuncs != b->nfuncs)
        return eq_fail(c, "function counts %d vs %d", a->nfuncs, b->nfuncs);
    if (a->nvdevices != b->nvdevices)
        return eq_fail(c, "vdevice counts %d vs %d", a->nvdevices, b->nvdevices);
    for (int i = 0; i < a->nvdevices; i++)
        EQ_CHECK(c, eq_vdevice(c, a->vdevices[i], b->vdevices[i]), "global_infos/vdevice[%d]", i);
    EQ_CHECK(c, eq_attrs(c, a->global_infos_other, b->global_infos_other), "global_infos");
    if (a->nmesh_groups != b->nmesh_groups)
        return eq_fail(c, "device mesh lists %d vs %d", a->nmesh_groups, b->nmesh_groups);
    for (int i = 0; i < a->nmesh_groups; i++) {
        const MeshGroup *ga = &a->mesh_groups[i], *gb = &b->mesh_groups[i];
        if (strcmp(ga->name, gb->name) != 0 || ga->n != gb->n)
            return eq_fail(c, "device mesh list %s differs", ga->name);
        for (int j = 0; j < ga->n; j++)
            if (!dist_mesh_equal(ga->meshes[j], gb->meshes[j]))
                return eq_fail(c, "device mesh %s[%d] differs", ga->name, j);
    }
    EQ_CHECK(c, eq_attrs(c, a->attrs, b->attrs), "module_attrs");
    return true;
}

static const char *explain(const EqCtx *c)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = c->ntrail - 1; i >= 0; i--) {
        if (c->trail[i][0] == '\0')
            continue;
        if (sb.len > 0)
            strbuf_addc(&sb, '/');
        strbuf_add(&sb, c->trail[i]);
    }
    strbuf_add(&sb, sb.len > 0 ? ": " : "");
    strbuf_add(&sb, c->why ? c->why : "differs");
    return strbuf_str(&sb);
}

bool equal_module_explain(const IRModule *a, const IRModule *b, const char **why)
{
    EqCtx c = {0};
    bool ok = eq_module(&c, a, b);
    if (why != NULL)
        *why = ok ? NULL : explain(&c);
    return ok;
}

bool equal_module(const IRModule *a, const IRModule *b)
{
    return equal_module_explain(a, b, NULL);
}

bool equal_sinfo(const StructInfo *a, const StructInfo *b)
{
    EqCtx c = {0};
    return eq_sinfo_c(&c, a, b);
}

bool equal_expr(const Expr *a, const Expr *b)
{
    EqCtx c = {0};
    return eq_expr(&c, a, b);
}
