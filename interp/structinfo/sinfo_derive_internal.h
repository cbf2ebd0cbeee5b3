/* sinfo_derive_internal: the checking context shared by the derivation rules.
 * SPEC_NOTES: "StructInfo" (SI-*, PURITY-*). */
#ifndef RELAX_INTERP_SINFO_DERIVE_INTERNAL_H
#define RELAX_INTERP_SINFO_DERIVE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/ptrmap.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/structinfo/sinfo_relations.h"

/* Γ: Relax variables (and their StructInfo), a stack in binding order. */
typedef struct GammaEntry {
    const Var *var;
    StructInfo *sinfo;
} GammaEntry;

typedef enum GlobalState {
    GLOBAL_PENDING,
    GLOBAL_ACTIVE, /* being derived: its pre-declared StructInfo stands (mutual recursion) */
    GLOBAL_DONE,
} GlobalState;

/* A variable and its StructInfo, for VDevice propagation (SPEC_REST §7). */
typedef struct VdevVar {
    const Var *var;
    StructInfo *sinfo;
} VdevVar;

/* Zero-initialized is empty; `index` finds a variable's entry in one probe. */
typedef struct VdevTable {
    VdevVar *items;
    int n;
    int cap;
    PtrMap index; /* Var -> its position in items */
} VdevTable;

/* The function whose body is being derived: decides where impure calls are errors. */
typedef struct FnFrame {
    const char *name;
    bool is_pure;
    bool force_pure;
} FnFrame;

typedef struct SiCtx {
    IRModule *mod;
    DiagList *errors;
    DiagList *warnings;
    SinfoBindings *bindings;
    GammaEntry *gamma;
    int ngamma;
    int capgamma;
    PtrMap gamma_at;      /* Var -> its newest position in gamma (checked: scopes pop) */
    TirVarList sigma;     /* Σ: shape variables in scope, a stack */
    StructInfo **globals; /* parallel to mod->funcs */
    GlobalState *state;
    const FnFrame *fn;
    bool in_dataflow;
    VdevTable *defs;           /* the first pass: every variable's derived StructInfo (§7) */
    const VdevTable *realized; /* the second pass: the vdevices the backward pass found */
    uintptr_t stack_floor;     /* a global is derived only while the stack is above it; 0: any */
} SiCtx;

/* Derives (and stores in e->sinfo) the StructInfo of any expression. */
StructInfo *si_derive(SiCtx *c, Expr *e);
/* SI-10: a SeqExpr. */
StructInfo *si_derive_seq(SiCtx *c, Expr *e);
/* SI-15: a function literal (or a global's function); `name` labels its bindings. */
StructInfo *si_derive_function(SiCtx *c, Expr *e, Function *f, const char *name);
/* The FuncStructInfo a function's annotations declare (ret Object when not annotated). */
StructInfo *si_signature(const Function *f);
/* SI-14: a Call. */
StructInfo *si_derive_call(SiCtx *c, Expr *e);
/* The StructInfo of a global, deriving its function first when it is still pending. */
StructInfo *si_global(SiCtx *c, const char *name, const ModuleFunc **mf);

/* The position of `v` in Γ, or -1 when it is not in scope: one hash probe. */
int si_gamma_find(const SiCtx *c, const Var *v);
/* The current Γ and Σ as an erasure scope. */
SinfoScope si_scope(const SiCtx *c);
/* PURITY-1 / PURITY-2: reports an impure call in a context that forbids one. */
void si_check_purity(SiCtx *c, const Expr *call, const char *what);

/* ---- VDevice propagation (sinfo_vdevice.c, SPEC_REST §7) ---- */

/* Binds a variable: in the second pass its realized vdevices are applied (VDEV-6); in the
 * first its StructInfo is recorded for the backward pass. Returns the StructInfo to bind. */
StructInfo *si_vdev_bind(SiCtx *c, const Var *v, StructInfo *s, Span span);
/* VDEV-2: an operator's tensor arguments share one vdevice, which its result takes. */
StructInfo *si_vdev_op_result(SiCtx *c, const Expr *call, const char *op, StructInfo *s);
/* VDEV-5: hint_on_device in a module with VDevices: its argument on the hinted VDevice. */
StructInfo *si_vdev_hint(SiCtx *c, const Expr *call);
/* VDEV-4: the backward pass over every Relax function, to a fixpoint (linear in practice:
 * sweeps alternate direction). False on an error. */
bool si_vdev_backward(SiCtx *c, VdevTable *t);
/* VDEV-7: Op and PrimFunc calls whose tensor arguments have no vdevice. */
void si_vdev_final_check(SiCtx *c);

void si_error(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void si_warn(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Reports a "possibly" outcome as a PossiblyIncompatible warning and a NO as `code`. */
void si_judge(SiCtx *c, Relation r, const char *code, const char *rule, Span span,
              const StructInfo *got, const StructInfo *want, const char *what);

/* sinfo_dist.c (DIST-4, DIST-5): the StructInfo of an R.dist.* call, of call_tir with
 * DTensors, or of an operator with a DTensor argument; NULL for any other call. */
struct OpImpl;
StructInfo *si_dist_call(SiCtx *c, Expr *e, const char *op, const struct OpImpl *impl);

#endif
