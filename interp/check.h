/* check: a module's static judgement as one call: well-formedness, then StructInfo when the
 * module is well-formed (a StructInfo error on an ill-formed module would only repeat it).
 * SPEC_NOTES: "Well-formedness", "StructInfo". */
#ifndef RELAX_INTERP_CHECK_H
#define RELAX_INTERP_CHECK_H

#include <stdbool.h>

#include "ast/module.h"
#include "interp/diag.h"

/* Adds every well-formedness error to `errors`, then, when there is none, every StructInfo
 * error and warning. True when no error was found. */
bool check_module(IRModule *mod, DiagList *errors, DiagList *warnings);

#endif
