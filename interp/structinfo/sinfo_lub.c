/* sinfo_lub: the least upper bound, erase_to_well_defined, get_shape_var_mapping and
 * substitution of shape variables. SPEC_NOTES: "StructInfo" (LUB-*, ERASE-*, MAP-*). */
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/structinfo/prover.h"
#include "interp/structinfo/sinfo_relations.h"

/* ---- shape variables of PrimExprs and StructInfos ------------------------------------- */

bool tirvar_list_has(const TirVarList *l, const TirVar *v)
{
    for (int i = 0; i < l->n; i++)
        if (l->items[i] == v)
            return true;
    return false;
}

void sinfo_collect_prim_vars(const PrimExpr *e, TirVarList *out)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case PE_INT:
    case PE_FLOAT:
        return;
    case PE_VAR:
        if (!tirvar_list_has(out, e->u.var))
            VEC_PUSH(out->items, out->n, out->cap, e->u.var);
        return;
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
    case PE_OR:
        sinfo_collect_prim_vars(e->u.bin.a, out);
        sinfo_collect_prim_vars(e->u.bin.b, out);
        return;
    case PE_NOT:
    case PE_CAST:
        sinfo_collect_prim_vars(e->u.operand, out);
        return;
    case PE_SELECT:
        sinfo_collect_prim_vars(e->u.select.cond, out);
        sinfo_collect_prim_vars(e->u.select.then_value, out);
        sinfo_collect_prim_vars(e->u.select.else_value, out);
        return;
    case PE_LOAD:
        for (int i = 0; i < e->u.load.nindices; i++)
            sinfo_collect_prim_vars(e->u.load.indices[i], out);
        return;
    case PE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            sinfo_collect_prim_vars(e->u.call.args[i], out);
        return;
    }
}

static void collect_values(PrimExpr *const *v, int n, TirVarList *out)
{
    for (int i = 0; v != NULL && i < n; i++)
        sinfo_collect_prim_vars(v[i], out);
}

void sinfo_collect_shape_vars(const StructInfo *s, TirVarList *out)
{
    switch (s->kind) {
    case SINFO_OBJECT:
        return;
    case SINFO_PRIM:
        sinfo_collect_prim_vars(s->u.prim.value, out);
        return;
    case SINFO_SHAPE:
        collect_values(s->u.shape.values, s->u.shape.ndim, out);
        return;
    case SINFO_TENSOR: {
        const Expr *sh = s->u.tensor.shape;
        if (sh != NULL && sh->kind == EXPR_SHAPE)
            collect_values(sh->u.shape.values, sh->u.shape.n, out);
        return;
    }
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++)
            sinfo_collect_shape_vars(s->u.tuple.fields[i], out);
        return;
    case SINFO_FUNC:
        for (int i = 0; s->u.func.has_params && i < s->u.func.nparams; i++)
            sinfo_collect_shape_vars(s->u.func.params[i], out);
        sinfo_collect_shape_vars(s->u.func.ret, out);
        return;
    case SINFO_DTENSOR:
        sinfo_collect_shape_vars(s->u.dtensor.tensor, out);
        return;
    }
}

/* ---- unify_struct_info (SPEC_REST §3.1) ------------------------------------------------ */

static StructInfo *copy_sinfo(const StructInfo *s)
{
    StructInfo *c = MEM_NEW(StructInfo);
    *c = *s;
    return c;
}

/* LUB-3 */
static StructInfo *unify_prim(const StructInfo *a, const StructInfo *b)
{
    rule_fired("LUB-3");
    if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype))
        return sinfo_object(a->span);
    if (a->u.prim.value && b->u.prim.value &&
        prover_compare(a->u.prim.value, b->u.prim.value) == PROVE_EQUAL)
        return copy_sinfo(a);
    return sinfo_prim(a->u.prim.dtype, NULL, a->span);
}

/* LUB-4, with the erratum fixed: an undefined values list on either side wins. */
static StructInfo *unify_shape(const StructInfo *a, const StructInfo *b)
{
    rule_fired("LUB-4");
    if (a->u.shape.ndim == -1)
        return copy_sinfo(a);
    if (b->u.shape.ndim == -1)
        return copy_sinfo(b);
    if (a->u.shape.ndim != b->u.shape.ndim)
        return sinfo_shape(NULL, -1, a->span);
    if (a->u.shape.values == NULL)
        return copy_sinfo(a);
    if (b->u.shape.values == NULL)
        return copy_sinfo(b);
    if (sinfo_subtype(a, b) == REL_YES)
        return copy_sinfo(a);
    return sinfo_shape(NULL, a->u.shape.ndim, a->span);
}

/* LUB-5, errata fixed: the vdevice is kept when both agree, and a provably equal shape keeps
 * the joined dtype and vdevice. */
static StructInfo *unify_tensor(const StructInfo *a, const StructInfo *b)
{
    rule_fired("LUB-5");
    int ndim = a->u.tensor.ndim == b->u.tensor.ndim ? a->u.tensor.ndim : -1;
    DataType dt =
        dtype_equal(a->u.tensor.dtype, b->u.tensor.dtype) ? a->u.tensor.dtype : dtype_void();
    VDevice *vd =
        sinfo_vdevice_equal(a->u.tensor.vdevice, b->u.tensor.vdevice) ? a->u.tensor.vdevice : NULL;
    Expr *sa = a->u.tensor.shape, *sb = b->u.tensor.shape;
    if (ndim == -1 || sa == NULL || sb == NULL || sinfo_shape_equal(sa, sb) != REL_YES)
        return sinfo_tensor(NULL, dt, vd, ndim, a->span);
    return sinfo_tensor(sa, dt, vd, ndim, a->span);
}

/* b's signature with its free shape variables renamed to a's. */
static const StructInfo *align_to(const StructInfo *b, const StructInfo *a)
{
    ShapeVarMap m = {NULL, NULL, 0, 0};
    for (int i = 0; i < b->u.func.nparams; i++)
        sinfo_shape_var_mapping(b->u.func.params[i], a->u.func.params[i], &m);
    return sinfo_substitute(b, &m);
}

/* LUB-7: no greatest lower bound, so parameters must be equal (up to renaming). */
static StructInfo *unify_func(const StructInfo *a, const StructInfo *b)
{
    rule_fired("LUB-7");
    bool pure = a->u.func.purity && b->u.func.purity;
    if (a->u.func.has_params != b->u.func.has_params)
        return sinfo_object(a->span);
    if (!a->u.func.has_params) {
        const char *da = a->u.func.derive_func, *db = b->u.func.derive_func;
        bool same = (da == NULL && db == NULL) || (da && db && strcmp(da, db) == 0);
        if (!same)
            return sinfo_func_opaque(sinfo_object(a->span), pure, "empty_derive", a->span);
        return sinfo_func_opaque(sinfo_unify(a->u.func.ret, b->u.func.ret), pure, da, a->span);
    }
    int n = a->u.func.nparams;
    if (n != b->u.func.nparams)
        return sinfo_object(a->span);
    const StructInfo *bb = align_to(b, a);
    StructInfo **params = MEM_ARRAY(StructInfo *, n + 1);
    for (int i = 0; i < n; i++) {
        StructInfo *u = sinfo_unify(a->u.func.params[i], bb->u.func.params[i]);
        if (sinfo_subtype(u, a->u.func.params[i]) != REL_YES ||
            sinfo_subtype(u, bb->u.func.params[i]) != REL_YES)
            return sinfo_object(a->span);
        params[i] = u;
    }
    return sinfo_func(params, n, sinfo_unify(a->u.func.ret, bb->u.func.ret), pure, a->span);
}

StructInfo *sinfo_unify(const StructInfo *a, const StructInfo *b)
{
    /* LUB-1, LUB-2: Object on either side (erratum fixed), or two kinds, join at Object. */
    rule_fired("LUB-1");
    rule_fired("LUB-2");
    if (a->kind == SINFO_OBJECT || b->kind == SINFO_OBJECT || a->kind != b->kind)
        return sinfo_object(a->span);
    switch (a->kind) {
    case SINFO_OBJECT:
        return sinfo_object(a->span); /* not reached: the test above returns for an Object */
    case SINFO_PRIM:
        return unify_prim(a, b);
    case SINFO_SHAPE:
        return unify_shape(a, b);
    case SINFO_TENSOR:
        return unify_tensor(a, b);
    /* LUB-6: tuples of different lengths have only Object above both. */
    case SINFO_TUPLE: {
        rule_fired("LUB-6");
        if (a->u.tuple.n != b->u.tuple.n)
            return sinfo_object(a->span);
        StructInfo **f = MEM_ARRAY(StructInfo *, a->u.tuple.n + 1);
        for (int i = 0; i < a->u.tuple.n; i++)
            f[i] = sinfo_unify(a->u.tuple.fields[i], b->u.tuple.fields[i]);
        return sinfo_tuple(f, a->u.tuple.n, a->span);
    }
    case SINFO_FUNC:
        return unify_func(a, b);
    /* DIST-3: on one mesh with one placement the tensors join; otherwise only Object is
     * above both (TVM v0.22 has no join of DTensors and stops). */
    case SINFO_DTENSOR:
        rule_fired("DIST-3");
        if (!dist_mesh_equal(a->u.dtensor.mesh, b->u.dtensor.mesh) ||
            !dist_placement_equal(a->u.dtensor.placement, b->u.dtensor.placement))
            return sinfo_object(a->span);
        return sinfo_dtensor(sinfo_unify(a->u.dtensor.tensor, b->u.dtensor.tensor),
                             a->u.dtensor.mesh_name, a->u.dtensor.mesh_index, a->u.dtensor.mesh,
                             a->u.dtensor.placement, a->span);
    }
    return sinfo_object(a->span); /* not reached: every case of the switch returns */
}

/* ---- erase_to_well_defined (SPEC_REST §5.2) --------------------------------------------- */

typedef struct Erase {
    const SinfoScope *scope;
    TirVarList bound; /* shape variables a FuncStructInfo's own parameters bind */
} Erase;

static bool prim_in_scope(const Erase *er, const PrimExpr *e)
{
    TirVarList vars = {NULL, 0, 0};
    sinfo_collect_prim_vars(e, &vars);
    for (int i = 0; i < vars.n; i++)
        if (!tirvar_list_has(&er->bound, vars.items[i]) &&
            !er->scope->has_shape_var(er->scope->ctx, vars.items[i]))
            return false;
    return true;
}

static bool values_in_scope(const Erase *er, PrimExpr *const *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!prim_in_scope(er, v[i]))
            return false;
    return true;
}

static StructInfo *erase_rec(Erase *er, const StructInfo *s);

/* ERASE-6: the parameters bind their own shape variables while they and the result are
 * erased; purity is kept (erratum). */
static StructInfo *erase_func(Erase *er, const StructInfo *s)
{
    rule_fired("ERASE-6");
    if (!s->u.func.has_params) {
        StructInfo *ret = erase_rec(er, s->u.func.ret);
        return sinfo_func_opaque(ret, s->u.func.purity, s->u.func.derive_func, s->span);
    }
    int mark = er->bound.n;
    for (int i = 0; i < s->u.func.nparams; i++)
        sinfo_collect_shape_vars(s->u.func.params[i], &er->bound);
    StructInfo **params = MEM_ARRAY(StructInfo *, s->u.func.nparams + 1);
    for (int i = 0; i < s->u.func.nparams; i++)
        params[i] = erase_rec(er, s->u.func.params[i]);
    StructInfo *ret = erase_rec(er, s->u.func.ret);
    er->bound.n = mark;
    return sinfo_func(params, s->u.func.nparams, ret, s->u.func.purity, s->span);
}

static StructInfo *erase_rec(Erase *er, const StructInfo *s)
{
    switch (s->kind) {
    case SINFO_OBJECT:
        return copy_sinfo(s);
    case SINFO_PRIM:
        /* ERASE-2: a value over an out-of-scope shape variable is dropped (erratum fixed). */
        rule_fired("ERASE-2");
        if (s->u.prim.value && !prim_in_scope(er, s->u.prim.value))
            return sinfo_prim(s->u.prim.dtype, NULL, s->span);
        return copy_sinfo(s);
    case SINFO_SHAPE:
        /* ERASE-4: out-of-scope values go; the ndim stays. */
        rule_fired("ERASE-4");
        if (s->u.shape.values && !values_in_scope(er, s->u.shape.values, s->u.shape.ndim))
            return sinfo_shape(NULL, s->u.shape.ndim, s->span);
        return copy_sinfo(s);
    case SINFO_TENSOR: {
        /* ERASE-3: only the shape goes; ndim, dtype and vdevice stay (erratum fixed). */
        rule_fired("ERASE-3");
        const Expr *sh = s->u.tensor.shape;
        bool gone =
            sh != NULL &&
            ((sh->kind == EXPR_VAR && !er->scope->has_var(er->scope->ctx, sh->u.var)) ||
             (sh->kind == EXPR_SHAPE && !values_in_scope(er, sh->u.shape.values, sh->u.shape.n)));
        if (gone)
            return sinfo_tensor(NULL, s->u.tensor.dtype, s->u.tensor.vdevice, s->u.tensor.ndim,
                                s->span);
        return copy_sinfo(s);
    }
    case SINFO_TUPLE: {
        /* ERASE-5: each field is erased on its own. */
        rule_fired("ERASE-5");
        StructInfo **f = MEM_ARRAY(StructInfo *, s->u.tuple.n + 1);
        for (int i = 0; i < s->u.tuple.n; i++)
            f[i] = erase_rec(er, s->u.tuple.fields[i]);
        return sinfo_tuple(f, s->u.tuple.n, s->span);
    }
    case SINFO_FUNC:
        return erase_func(er, s);
    case SINFO_DTENSOR: {
        /* DIST-3: a DTensor is erased through its tensor, mesh and placement kept. */
        rule_fired("DIST-3");
        StructInfo *c = copy_sinfo(s);
        c->u.dtensor.tensor = erase_rec(er, s->u.dtensor.tensor);
        return c;
    }
    }
    return copy_sinfo(s); /* not reached: every case of the switch returns */
}

StructInfo *sinfo_erase(const StructInfo *s, const SinfoScope *scope)
{
    rule_fired("ERASE-1");
    Erase er = {scope, {NULL, 0, 0}};
    return erase_rec(&er, s);
}

/* ---- get_shape_var_mapping and substitution (SPEC_REST §5.3) ---------------------------- */

PrimExpr *sinfo_map_lookup(const ShapeVarMap *m, const TirVar *v)
{
    for (int i = 0; i < m->n; i++)
        if (m->vars[i] == v)
            return m->values[i];
    return NULL;
}

/* MAP-1: a lone shape variable in the callee maps to the argument's dim; the first wins. */
static void map_dim(ShapeVarMap *m, PrimExpr *param, PrimExpr *arg)
{
    rule_fired("MAP-1");
    if (param == NULL || arg == NULL || param->kind != PE_VAR)
        return;
    if (sinfo_map_lookup(m, param->u.var) != NULL)
        return;
    VEC_PUSH(m->vars, m->n, m->cap, param->u.var);
    int n = m->n - 1;
    m->values =
        mem_grow(m->values, sizeof(PrimExpr *) * (size_t)n, sizeof(PrimExpr *) * (size_t)m->cap);
    m->values[n] = arg;
}

static void map_values(ShapeVarMap *m, PrimExpr **p, int np, PrimExpr **a, int na)
{
    if (p == NULL || a == NULL || np != na)
        return;
    for (int i = 0; i < np; i++)
        map_dim(m, p[i], a[i]);
}

void sinfo_shape_var_mapping(const StructInfo *s1, const StructInfo *s2, ShapeVarMap *m)
{
    if (s1->kind != s2->kind)
        return;
    switch (s1->kind) {
    case SINFO_OBJECT:
        return;
    case SINFO_PRIM:
        map_dim(m, s1->u.prim.value, s2->u.prim.value);
        return;
    case SINFO_SHAPE:
        map_values(m, s1->u.shape.values, s1->u.shape.ndim, s2->u.shape.values, s2->u.shape.ndim);
        return;
    case SINFO_TENSOR: {
        const Expr *a = s1->u.tensor.shape, *b = s2->u.tensor.shape;
        if (a && b && a->kind == EXPR_SHAPE && b->kind == EXPR_SHAPE)
            map_values(m, a->u.shape.values, a->u.shape.n, b->u.shape.values, b->u.shape.n);
        return;
    }
    case SINFO_TUPLE:
        if (s1->u.tuple.n != s2->u.tuple.n)
            return;
        for (int i = 0; i < s1->u.tuple.n; i++)
            sinfo_shape_var_mapping(s1->u.tuple.fields[i], s2->u.tuple.fields[i], m);
        return;
    case SINFO_DTENSOR:
        sinfo_shape_var_mapping(s1->u.dtensor.tensor, s2->u.dtensor.tensor, m);
        return;
    case SINFO_FUNC:
        if (!s1->u.func.has_params || !s2->u.func.has_params ||
            s1->u.func.nparams != s2->u.func.nparams)
            return;
        for (int i = 0; i < s1->u.func.nparams; i++)
            sinfo_shape_var_mapping(s1->u.func.params[i], s2->u.func.params[i], m);
        return;
    }
}

PrimExpr *sinfo_subst_prim(PrimExpr *e, const ShapeVarMap *m)
{
    if (e == NULL || m->n == 0)
        return e;
    PrimExpr *c = MEM_NEW(PrimExpr);
    *c = *e;
    switch (e->kind) {
    case PE_INT:
    case PE_FLOAT:
        return e;
    case PE_VAR: {
        PrimExpr *v = sinfo_map_lookup(m, e->u.var);
        return v ? v : e;
    }
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
    case PE_OR:
        c->u.bin.a = sinfo_subst_prim(e->u.bin.a, m);
        c->u.bin.b = sinfo_subst_prim(e->u.bin.b, m);
        return c;
    case PE_NOT:
    case PE_CAST:
        c->u.operand = sinfo_subst_prim(e->u.operand, m);
        return c;
    case PE_SELECT:
        c->u.select.cond = sinfo_subst_prim(e->u.select.cond, m);
        c->u.select.then_value = sinfo_subst_prim(e->u.select.then_value, m);
        c->u.select.else_value = sinfo_subst_prim(e->u.select.else_value, m);
        return c;
    case PE_LOAD:
        return e;
    case PE_CALL:
        c->u.call.args = MEM_ARRAY(PrimExpr *, e->u.call.nargs + 1);
        for (int i = 0; i < e->u.call.nargs; i++)
            c->u.call.args[i] = sinfo_subst_prim(e->u.call.args[i], m);
        return c;
    }
    return e; /* not reached: every case of the switch returns */
}

/* A substituted value that became an integer constant is folded (`n * 2` with n = 5 is 10). */
static PrimExpr *subst_fold(PrimExpr *e, const ShapeVarMap *m)
{
    if (e == NULL)
        return NULL;
    PrimExpr *s = sinfo_subst_prim(e, m);
    int64_t v;
    if (s != e && s->kind != PE_INT && (dtype_is_int(s->dtype) || dtype_is_uint(s->dtype)) &&
        prover_const_int(s, &v))
        return primexpr_int(v, s->dtype, s->span);
    return s;
}

static PrimExpr **subst_values(PrimExpr **v, int n, const ShapeVarMap *m)
{
    if (v == NULL)
        return NULL;
    PrimExpr **out = MEM_ARRAY(PrimExpr *, n + 1);
    for (int i = 0; i < n; i++)
        out[i] = subst_fold(v[i], m);
    return out;
}

StructInfo *sinfo_substitute(const StructInfo *s, const ShapeVarMap *m)
{
    StructInfo *c = copy_sinfo(s);
    if (m->n == 0)
        return c;
    switch (s->kind) {
    case SINFO_OBJECT:
        return c;
    case SINFO_PRIM:
        c->u.prim.value = subst_fold(s->u.prim.value, m);
        return c;
    case SINFO_SHAPE:
        c->u.shape.values = subst_values(s->u.shape.values, s->u.shape.ndim, m);
        return c;
    case SINFO_TENSOR: {
        Expr *sh = s->u.tensor.shape;
        if (sh != NULL && sh->kind == EXPR_SHAPE)
            c->u.tensor.shape = expr_shape(subst_values(sh->u.shape.values, sh->u.shape.n, m),
                                           sh->u.shape.n, sh->span);
        return c;
    }
    case SINFO_TUPLE:
        c->u.tuple.fields = MEM_ARRAY(StructInfo *, s->u.tuple.n + 1);
        for (int i = 0; i < s->u.tuple.n; i++)
            c->u.tuple.fields[i] = sinfo_substitute(s->u.tuple.fields[i], m);
        return c;
    case SINFO_FUNC:
        if (s->u.func.has_params) {
            c->u.func.params = MEM_ARRAY(StructInfo *, s->u.func.nparams + 1);
            for (int i = 0; i < s->u.func.nparams; i++)
                c->u.func.params[i] = sinfo_substitute(s->u.func.params[i], m);
        }
        c->u.func.ret = sinfo_substitute(s->u.func.ret, m);
        return c;
    case SINFO_DTENSOR:
        c->u.dtensor.tensor = sinfo_substitute(s->u.dtensor.tensor, m);
        return c;
    }
    return c; /* not reached: every case of the switch returns */
}
