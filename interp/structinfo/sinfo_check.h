/* sinfo_check: StructInfo derivation and checking over a module (SPEC_REST §2-§8): fills
 * every Expr's `sinfo`, reports incompatibilities as errors and possible ones as warnings,
 * and checks purity. SPEC_NOTES: "StructInfo" (SI-*, SUB-*, LUB-*, ERASE-*, COMPAT-*,
 * PURITY-*). */
#ifndef RELAX_INTERP_SINFO_CHECK_H
#define RELAX_INTERP_SINFO_CHECK_H

#include "ast/module.h"
#include "interp/diag.h"

/* Derives and checks; errors (phase struct_info) and warnings go to the lists. Expects a
 * well-formed module (normalized or not). */
void sinfo_check_module(IRModule *mod, DiagList *errors, DiagList *warnings);

/* The derived StructInfo of one binding (or parameter) of a function. */
typedef struct SinfoBinding {
    const char *func; /* the enclosing function: a global's name, or a nested def's name */
    const char *var;
    const StructInfo *sinfo;
    Span span;
} SinfoBinding;

typedef struct SinfoBindings {
    SinfoBinding *items; /* in derivation order */
    int n;
    int cap;
} SinfoBindings;

/* As sinfo_check_module, also listing every binding's derived StructInfo. */
void sinfo_check_module_report(IRModule *mod, DiagList *errors, DiagList *warnings,
                               SinfoBindings *bindings);
/* The StructInfo of `name`: "func.var", or "var" in the entry function (`main` when the
 * module has one, else the first function). The last binding of that name wins. */
const StructInfo *sinfo_bindings_find(const SinfoBindings *b, const IRModule *mod,
                                      const char *name);

#endif
