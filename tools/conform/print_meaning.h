/* print_meaning: what a program printed by another implementation means, for comparing it with
 * the case's text when the implementation's print is TVMScript of its own (it writes each
 * binding's derived StructInfo, as TVM does) rather than the canonical text. SPEC_NOTES 4.17. */
#ifndef RELAX_TOOLS_PRINT_MEANING_H
#define RELAX_TOOLS_PRINT_MEANING_H

#include "ast/module.h"

/* Removes, in place, what such a print adds: the annotations of variables bound in function
 * bodies (VarBinding and MatchCast variables) and every function's return annotation, in
 * global and nested functions. Parameters keep theirs (they are the function's signature). */
void print_meaning_drop_derived_annotations(IRModule *mod);

#endif
