/* sinfo_derive_internal: the checking context shared by the derivation rules.
 * SPEC_NOTES: "StructInfo" (SI-*, PURITY-*). */
#ifndef RELAX_INTERP_SINFO_DERIVE_INTERNAL_H
#define RELAX_INTERP_SINFO_DERIVE_INTERNAL_H

#include <stdbool.h>

#include "interp/sinfo_check.h"
#include "interp/sinfo_relations.h"

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
    TirVarList sigma; /* Σ: shape variables in scope, a stack */
    StructInfo **globals; /* parallel to mod->funcs */
    GlobalState *state;
    const FnFrame *fn;
    bool in_dataflow;
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

/* The current Γ and Σ as an erasure scope. */
SinfoScope si_scope(const SiCtx *c);
/* PURITY-1 / PURITY-2: reports an impure call in a context that forbids one. */
void si_check_purity(SiCtx *c, const Expr *call, const char *what);

void si_error(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void si_warn(SiCtx *c, const char *code, const char *rule, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Reports a "possibly" outcome as a PossiblyIncompatible warning and a NO as `code`. */
void si_judge(SiCtx *c, Relation r, const char *code, const char *rule, Span span,
              const StructInfo *got, const StructInfo *want, const char *what);

#endif
