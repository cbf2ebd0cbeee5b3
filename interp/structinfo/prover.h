/* prover: three-valued equality of PrimExprs (shape dimensions, PrimValue values): provably
 * equal, provably unequal, or unknown. SPEC_NOTES: "StructInfo" (PROVER-1). */
#ifndef RELAX_INTERP_PROVER_H
#define RELAX_INTERP_PROVER_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/primexpr.h"

typedef enum ProveResult {
    PROVE_EQUAL,   /* equal for every value of the shape variables */
    PROVE_UNEQUAL, /* unequal for every value of the shape variables */
    PROVE_UNKNOWN, /* the prover cannot decide */
} ProveResult;

/* Compares two PrimExprs. Variables are compared by identity (the TirVar object). The method:
 * both sides become canonical polynomials over atoms (variables, and opaque terms such as a
 * floordiv by a non-constant); their difference decides: the zero polynomial is equal, a
 * nonzero constant is unequal, anything else unknown. */
ProveResult prover_compare(const PrimExpr *a, const PrimExpr *b);

/* True when the expression folds to an integer constant; *out gets it. */
bool prover_const_int(const PrimExpr *e, int64_t *out);

/* The canonical text of the expression's normal form: equal texts mean provably equal. For
 * tests and debugging. */
char *prover_canonical(const PrimExpr *e);

#endif
