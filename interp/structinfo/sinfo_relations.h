/* sinfo_relations: the relations between StructInfos: subtyping, compatibility, the least
 * upper bound, erasure and shape-variable mapping. SPEC_NOTES: "StructInfo" (SUB-*, COMPAT-*,
 * LUB-*, ERASE-*, MAP-*). */
#ifndef RELAX_INTERP_SINFO_RELATIONS_H
#define RELAX_INTERP_SINFO_RELATIONS_H

#include <stdbool.h>

#include "ast/expr.h"
#include "ast/sinfo.h"

/* Three outcomes. Subtyping: holds definitely, possibly (an arithmetic fact the prover cannot
 * decide), or not. Compatibility: compatible, possibly compatible, incompatible. */
typedef enum Relation {
    REL_YES,
    REL_MAYBE,
    REL_NO,
} Relation;

/* The weaker of two outcomes (NO below MAYBE below YES). */
Relation relation_meet(Relation a, Relation b);

/* S1 <: S2 (SPEC_REST §3). */
Relation sinfo_subtype(const StructInfo *s1, const StructInfo *s2);
/* check_compatibility(S1, S2): may a value described by S1 be used where S2 is expected
 * (SPEC_REST §5.4). */
Relation sinfo_compat(const StructInfo *s1, const StructInfo *s2);
/* True when no value can satisfy both (a MatchCast between them always fails). */
bool sinfo_disjoint(const StructInfo *a, const StructInfo *b);
/* Equal VDevices (target kind, id, memory scope); NULL only equals NULL. */
bool sinfo_vdevice_equal(const VDevice *a, const VDevice *b);
/* Three-valued equality of two tensor shapes (EXPR_SHAPE or a Shape-typed EXPR_VAR). */
Relation sinfo_shape_equal(const struct Expr *a, const struct Expr *b);

/* unify_struct_info(S1, S2), the least upper bound, with the errata fixed (SPEC_REST §3.1). */
StructInfo *sinfo_unify(const StructInfo *a, const StructInfo *b);

/* The variables in scope where erased StructInfo is used. */
typedef struct SinfoScope {
    bool (*has_var)(const void *ctx, const Var *v);
    bool (*has_shape_var)(const void *ctx, const TirVar *v);
    const void *ctx;
} SinfoScope;

/* erase_to_well_defined (SPEC_REST §5.2, errata fixed). */
StructInfo *sinfo_erase(const StructInfo *s, const SinfoScope *scope);

/* A substitution of shape variables. */
typedef struct ShapeVarMap {
    TirVar **vars;
    PrimExpr **values;
    int n;
    int cap;
} ShapeVarMap;

/* get_shape_var_mapping(S1, S2) (SPEC_REST §5.3): adds var -> value for every bare shape
 * variable of S1 matched against S2; the first occurrence wins. */
void sinfo_shape_var_mapping(const StructInfo *s1, const StructInfo *s2, ShapeVarMap *m);
PrimExpr *sinfo_map_lookup(const ShapeVarMap *m, const TirVar *v);
StructInfo *sinfo_substitute(const StructInfo *s, const ShapeVarMap *m);
PrimExpr *sinfo_subst_prim(PrimExpr *e, const ShapeVarMap *m);

/* Every shape variable a StructInfo mentions (each once, in order of appearance), appended. */
typedef struct TirVarList {
    TirVar **items;
    int n;
    int cap;
} TirVarList;
void sinfo_collect_shape_vars(const StructInfo *s, TirVarList *out);
void sinfo_collect_prim_vars(const PrimExpr *e, TirVarList *out);
bool tirvar_list_has(const TirVarList *l, const TirVar *v);

#endif
