/* sinfo_relations: subtyping (three outcomes), check_compatibility and disjointness.
 * SPEC_NOTES: "StructInfo" (SUB-*, COMPAT-*, SI-11 MatchCast) and §4 decisions. */
#include "interp/structinfo/sinfo_relations.h"
#include "ast/dist.h"
#include "ast/rule.h"

#include <string.h>

#include "interp/structinfo/prover.h"

Relation relation_meet(Relation a, Relation b)
{
    return a > b ? a : b;
}

static Relation from_prove(ProveResult r)
{
    switch (r) {
    case PROVE_EQUAL:
        return REL_YES;
    case PROVE_UNEQUAL:
        return REL_NO;
    case PROVE_UNKNOWN:
        return REL_MAYBE;
    }
    return REL_MAYBE; /* not reached: every case of the switch returns */
}

static bool str_eq(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

bool sinfo_vdevice_equal(const VDevice *a, const VDevice *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    const char *sa = a->memory_scope ? a->memory_scope : "global";
    const char *sb = b->memory_scope ? b->memory_scope : "global";
    return str_eq(a->target_kind, b->target_kind) && a->vdevice_id == b->vdevice_id &&
           strcmp(sa, sb) == 0;
}

/* Pairwise equality of two value lists of one length. */
static Relation values_equal(PrimExpr *const *a, PrimExpr *const *b, int n)
{
    Relation r = REL_YES;
    for (int i = 0; i < n; i++)
        r = relation_meet(r, from_prove(prover_compare(a[i], b[i])));
    return r;
}

/* The dims a tensor shape stands for: a ShapeExpr's values, or the values of a shape Var's
 * annotation; NULL when unknown. */
static PrimExpr **shape_values(const Expr *e, int *n)
{
    if (e->kind == EXPR_SHAPE) {
        *n = e->u.shape.n;
        return e->u.shape.values;
    }
    const StructInfo *s = e->kind == EXPR_VAR ? e->u.var->annotation : e->sinfo;
    if (s == NULL && e->kind == EXPR_VAR)
        s = e->sinfo;
    if (s == NULL || s->kind != SINFO_SHAPE || s->u.shape.values == NULL)
        return NULL;
    *n = s->u.shape.ndim;
    return s->u.shape.values;
}

Relation sinfo_shape_equal(const Expr *a, const Expr *b)
{
    /* SUB-1: a shape Var equals itself even when its values are unknown. */
    rule_fired("SUB-1");
    if (a->kind == EXPR_VAR && b->kind == EXPR_VAR && a->u.var == b->u.var)
        return REL_YES;
    int na = 0, nb = 0;
    PrimExpr **va = shape_values(a, &na);
    PrimExpr **vb = shape_values(b, &nb);
    if (va == NULL || vb == NULL)
        return REL_MAYBE;
    if (na != nb)
        return REL_NO;
    return values_equal(va, vb, na);
}

/* ---- subtyping (SPEC_REST §3) ---------------------------------------------------------- */

/* SUB-4: each field of the supertype is either forgotten or equal. */
static Relation subtype_tensor(const StructInfo *a, const StructInfo *b)
{
    rule_fired("SUB-4");
    if (!dtype_is_void(b->u.tensor.dtype) && !dtype_equal(a->u.tensor.dtype, b->u.tensor.dtype))
        return REL_NO;
    if (b->u.tensor.ndim != -1 && a->u.tensor.ndim != b->u.tensor.ndim)
        return REL_NO;
    if (b->u.tensor.vdevice != NULL &&
        !sinfo_vdevice_equal(a->u.tensor.vdevice, b->u.tensor.vdevice))
        return REL_NO;
    if (b->u.tensor.shape == NULL)
        return REL_YES;
    if (a->u.tensor.shape == NULL)
        return REL_NO;
    return sinfo_shape_equal(a->u.tensor.shape, b->u.tensor.shape);
}

/* SUB-5 */
static Relation subtype_shape(const StructInfo *a, const StructInfo *b)
{
    rule_fired("SUB-5");
    if (b->u.shape.ndim == -1)
        return REL_YES;
    if (a->u.shape.ndim != b->u.shape.ndim)
        return REL_NO;
    if (b->u.shape.values == NULL)
        return REL_YES;
    if (a->u.shape.values == NULL)
        return REL_NO;
    return values_equal(a->u.shape.values, b->u.shape.values, a->u.shape.ndim);
}

/* SUB-7: no subtyping between dtypes; dropping the value makes a supertype. */
static Relation subtype_prim(const StructInfo *a, const StructInfo *b)
{
    rule_fired("SUB-7");
    if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype))
        return REL_NO;
    if (b->u.prim.value == NULL)
        return REL_YES;
    if (a->u.prim.value == NULL)
        return REL_NO;
    return from_prove(prover_compare(a->u.prim.value, b->u.prim.value));
}

static bool is_empty_derive(const StructInfo *f)
{
    return f->u.func.derive_func != NULL && strcmp(f->u.func.derive_func, "empty_derive") == 0;
}

/* The signature of `a` with its free shape variables renamed to those of `b`'s parameters
 * (the mapping of SPEC_REST §5.3), so signatures equal up to renaming compare equal. */
static StructInfo *align_signature(const StructInfo *a, const StructInfo *b)
{
    ShapeVarMap m = {NULL, NULL, 0, 0};
    for (int i = 0; i < a->u.func.nparams; i++)
        sinfo_shape_var_mapping(a->u.func.params[i], b->u.func.params[i], &m);
    return sinfo_substitute(a, &m);
}

/* SUB-8 */
static Relation subtype_func(const StructInfo *a, const StructInfo *b)
{
    rule_fired("SUB-8");
    bool pa = a->u.func.has_params, pb = b->u.func.has_params;
    if (pa != pb)
        return REL_NO;
    if (a->u.func.purity == false && b->u.func.purity == true)
        return REL_NO;
    if (!pa) {
        if (is_empty_derive(b) && a->u.func.ret->kind == SINFO_OBJECT &&
            b->u.func.ret->kind == SINFO_OBJECT)
            return REL_YES;
        if (!str_eq(a->u.func.derive_func, b->u.func.derive_func))
            return REL_NO;
        return sinfo_subtype(a->u.func.ret, b->u.func.ret);
    }
    if (a->u.func.nparams != b->u.func.nparams)
        return REL_NO;
    const StructInfo *al = align_signature(a, b);
    Relation r = sinfo_subtype(al->u.func.ret, b->u.func.ret);
    for (int i = 0; i < a->u.func.nparams; i++)
        r = relation_meet(r, sinfo_subtype(b->u.func.params[i], al->u.func.params[i]));
    return r;
}

/* DIST-3: TVM's IsBaseOf for DTensors: another mesh or placement fails, else the
 * tensors decide. */
static bool same_distribution(const StructInfo *a, const StructInfo *b)
{
    rule_fired("DIST-3");
    return dist_mesh_equal(a->u.dtensor.mesh, b->u.dtensor.mesh) &&
           dist_placement_equal(a->u.dtensor.placement, b->u.dtensor.placement);
}

Relation sinfo_subtype(const StructInfo *a, const StructInfo *b)
{
    /* SUB-3: everything is below Object, and Object is below no other kind. */
    rule_fired("SUB-3");
    if (b->kind == SINFO_OBJECT)
        return REL_YES;
    if (a->kind != b->kind)
        return REL_NO;
    switch (a->kind) {
    case SINFO_OBJECT:
        return REL_YES;
    case SINFO_PRIM:
        return subtype_prim(a, b);
    case SINFO_SHAPE:
        return subtype_shape(a, b);
    case SINFO_TENSOR:
        return subtype_tensor(a, b);
    /* SUB-6: same length, then the weakest answer of the fields. */
    case SINFO_TUPLE: {
        rule_fired("SUB-6");
        if (a->u.tuple.n != b->u.tuple.n)
            return REL_NO;
        Relation r = REL_YES;
        for (int i = 0; i < a->u.tuple.n; i++)
            r = relation_meet(r, sinfo_subtype(a->u.tuple.fields[i], b->u.tuple.fields[i]));
        return r;
    }
    case SINFO_FUNC:
        return subtype_func(a, b);
    case SINFO_DTENSOR:
        if (!same_distribution(a, b))
            return REL_NO;
        return sinfo_subtype(a->u.dtensor.tensor, b->u.dtensor.tensor);
    }
    return REL_NO; /* not reached: every case of the switch returns */
}

/* ---- check_compatibility (SPEC_REST §5.4) ----------------------------------------------- */

/* COMPAT-4 */
static Relation compat_shape(const StructInfo *a, const StructInfo *b)
{
    rule_fired("COMPAT-4");
    if (b->u.shape.ndim == -1)
        return REL_YES;
    if (a->u.shape.ndim == -1)
        return REL_MAYBE; /* decision: unknown ndim is possibly compatible, as for tensors */
    if (a->u.shape.ndim != b->u.shape.ndim)
        return REL_NO;
    if (b->u.shape.values == NULL)
        return REL_YES;
    if (a->u.shape.values == NULL)
        return REL_MAYBE;
    return values_equal(a->u.shape.values, b->u.shape.values, a->u.shape.ndim);
}

/* COMPAT-5 */
static Relation compat_prim(const StructInfo *a, const StructInfo *b)
{
    rule_fired("COMPAT-5");
    if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype))
        return REL_NO;
    if (b->u.prim.value == NULL)
        return REL_YES;
    if (a->u.prim.value == NULL)
        return REL_MAYBE;
    return from_prove(prover_compare(a->u.prim.value, b->u.prim.value));
}

/* COMPAT-6, steps 1 to 8 in order. */
static Relation compat_tensor(const StructInfo *a, const StructInfo *b)
{
    rule_fired("COMPAT-6");
    DataType da = a->u.tensor.dtype, db = b->u.tensor.dtype;
    int na = a->u.tensor.ndim, nb = b->u.tensor.ndim;
    const VDevice *va = a->u.tensor.vdevice, *vb = b->u.tensor.vdevice;
    if (!dtype_is_void(da) && !dtype_is_void(db) && !dtype_equal(da, db))
        return REL_NO;
    if (na != -1 && nb != -1 && na != nb)
        return REL_NO;
    if (va != NULL && vb != NULL && !sinfo_vdevice_equal(va, vb))
        return REL_NO;
    Relation shape;
    if (b->u.tensor.shape == NULL)
        shape = na == -1 && nb != -1 ? REL_MAYBE : REL_YES;
    else if (a->u.tensor.shape == NULL)
        shape = REL_MAYBE;
    else
        shape = sinfo_shape_equal(a->u.tensor.shape, b->u.tensor.shape);
    if (shape != REL_YES)
        return shape;
    if ((dtype_is_void(da) && !dtype_is_void(db)) || (va == NULL && vb != NULL))
        return REL_MAYBE;
    return REL_YES;
}

/* COMPAT-7 */
static Relation compat_func(const StructInfo *a, const StructInfo *b)
{
    rule_fired("COMPAT-7");
    bool pa = a->u.func.has_params, pb = b->u.func.has_params;
    if (pa != pb)
        return REL_NO;
    if (!pa) {
        if (!str_eq(a->u.func.derive_func, b->u.func.derive_func))
            return REL_MAYBE;
        if (a->u.func.purity == false && b->u.func.purity == true)
            return REL_NO;
        return sinfo_compat(a->u.func.ret, b->u.func.ret);
    }
    if (a->u.func.nparams != b->u.func.nparams)
        return REL_NO;
    if (a->u.func.purity == false && b->u.func.purity == true)
        return REL_NO;
    const StructInfo *al = align_signature(a, b);
    Relation r = sinfo_compat(al->u.func.ret, b->u.func.ret);
    for (int i = 0; i < a->u.func.nparams; i++)
        r = relation_meet(r, sinfo_compat(b->u.func.params[i], al->u.func.params[i]));
    return r;
}

Relation sinfo_compat(const StructInfo *a, const StructInfo *b)
{
    /* COMPAT-1: any value fits where an Object is expected. */
    rule_fired("COMPAT-1");
    if (b->kind == SINFO_OBJECT)
        return REL_YES;
    /* COMPAT-2: an Object may hold anything; other differing kinds never match. */
    rule_fired("COMPAT-2");
    if (a->kind == SINFO_DTENSOR || b->kind == SINFO_DTENSOR)
        rule_fired("DIST-3"); /* a DTensor and a Tensor are kinds apart */
    if (a->kind == SINFO_OBJECT)
        return REL_MAYBE; /* decision: the least specific value may still match (§4) */
    if (a->kind != b->kind)
        return REL_NO;
    switch (a->kind) {
    case SINFO_OBJECT:
        return REL_YES;
    case SINFO_PRIM:
        return compat_prim(a, b);
    case SINFO_SHAPE:
        return compat_shape(a, b);
    case SINFO_TENSOR:
        return compat_tensor(a, b);
    /* COMPAT-3: a length mismatch is fatal; otherwise the worst of the fields. */
    case SINFO_TUPLE: {
        rule_fired("COMPAT-3");
        if (a->u.tuple.n != b->u.tuple.n)
            return REL_NO;
        Relation r = REL_YES;
        for (int i = 0; i < a->u.tuple.n; i++)
            r = relation_meet(r, sinfo_compat(a->u.tuple.fields[i], b->u.tuple.fields[i]));
        return r;
    }
    case SINFO_FUNC:
        return compat_func(a, b);
    case SINFO_DTENSOR:
        if (!same_distribution(a, b))
            return REL_NO;
        return sinfo_compat(a->u.dtensor.tensor, b->u.dtensor.tensor);
    }
    return REL_NO; /* not reached: every case of the switch returns */
}

/* ---- disjointness (a MatchCast that cannot succeed) ------------------------------------ */

static bool disjoint_tensor(const StructInfo *a, const StructInfo *b)
{
    DataType da = a->u.tensor.dtype, db = b->u.tensor.dtype;
    int na = a->u.tensor.ndim, nb = b->u.tensor.ndim;
    if (!dtype_is_void(da) && !dtype_is_void(db) && !dtype_equal(da, db))
        return true;
    if (na != -1 && nb != -1 && na != nb)
        return true;
    if (a->u.tensor.vdevice && b->u.tensor.vdevice &&
        !sinfo_vdevice_equal(a->u.tensor.vdevice, b->u.tensor.vdevice))
        return true;
    return a->u.tensor.shape && b->u.tensor.shape &&
           sinfo_shape_equal(a->u.tensor.shape, b->u.tensor.shape) == REL_NO;
}

bool sinfo_disjoint(const StructInfo *a, const StructInfo *b)
{
    if (a->kind == SINFO_OBJECT || b->kind == SINFO_OBJECT)
        return false;
    if (a->kind != b->kind)
        return true;
    switch (a->kind) {
    case SINFO_OBJECT:
        return false; /* not reached: the test above returns for an Object */
    case SINFO_PRIM:
        if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype))
            return true;
        return a->u.prim.value && b->u.prim.value &&
               prover_compare(a->u.prim.value, b->u.prim.value) == PROVE_UNEQUAL;
    case SINFO_SHAPE:
        if (a->u.shape.ndim != -1 && b->u.shape.ndim != -1 && a->u.shape.ndim != b->u.shape.ndim)
            return true;
        return a->u.shape.values && b->u.shape.values &&
               values_equal(a->u.shape.values, b->u.shape.values, a->u.shape.ndim) == REL_NO;
    case SINFO_TENSOR:
        return disjoint_tensor(a, b);
    case SINFO_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return true;
        for (int i = 0; i < a->u.tuple.n; i++)
            if (sinfo_disjoint(a->u.tuple.fields[i], b->u.tuple.fields[i]))
                return true;
        return false;
    case SINFO_FUNC:
        /* A value described by an opaque callable may be a closure or a packed function:
         * its StructInfo alone never rules a function cast out. */
        return false;
    case SINFO_DTENSOR:
        return !same_distribution(a, b) ||
               disjoint_tensor(a->u.dtensor.tensor, b->u.dtensor.tensor);
    }
    return false; /* not reached: every kind returns inside the switch */
}
