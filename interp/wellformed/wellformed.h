/* wellformed: the well-formedness criteria WF-1..WF-24 and the normal-form criteria
 * NF-1..NF-5. SPEC_NOTES: "Well-formedness" (WF-*, NF-*). */
#ifndef RELAX_INTERP_WELLFORMED_H
#define RELAX_INTERP_WELLFORMED_H

#include <stdbool.h>

#include "ast/module.h"
#include "interp/diag.h"

/* Checks every WF rule over the whole module; each violation is added to `errors` (phase
 * wellformed) with its rule id and the span of the offending node. */
void wellformed_check(const IRModule *mod, DiagList *errors);
/* The first well-formedness error in source order that stops normalization, or NULL: every
 * rule but WF-23, which normalization step 6 repairs (it is NF-5's fixed-point test). */
const Error *wellformed_first_before_normalize(const IRModule *mod);
/* Checks the normal-form criteria NF-1..NF-5 (for programs claimed to be normalized). */
void wellformed_check_normal_form(const IRModule *mod, DiagList *errors);
/* NF-1's atoms: variables, constants, shapes, PrimValues, strings, dtypes, ExternFunc, Op
 * (a leaf is an atom or a Tuple of leaves). */
bool normal_form_is_atom(const Expr *e);

#endif
