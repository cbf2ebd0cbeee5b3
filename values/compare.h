/* compare: an actual value against an expected one, as conformance cases judge results.
 * SPEC_NOTES: "Values" (comparison rules of CASE_FORMAT). */
#ifndef RELAX_VALUES_COMPARE_H
#define RELAX_VALUES_COMPARE_H

#include <stdbool.h>

#include "values/value.h"

typedef struct Tolerance {
    double rtol; /* floats match when |a - b| <= atol + rtol * |b|, b the expected */
    double atol;
    bool exact; /* floats must be bit-equal in their dtype (NaN still equals NaN) */
} Tolerance;

/* rtol 1e-5, atol 1e-6, not exact. */
Tolerance compare_default_tolerance(void);

/* True when two floats match: NaN equals NaN, an infinity only the same infinity, the rest
 * by the tolerance (or bit equality of the doubles when exact). */
bool compare_floats(double actual, double expected, const Tolerance *tol);

/* True when `actual` matches `expected`: kinds, dtypes and shapes exactly, integer and bool
 * data exactly, floats by `tol` (NULL: the default), tuples field by field, a callable
 * pattern (or any expected callable) by kind only, an object by kind and name. On a
 * mismatch, *reason (when reason is not NULL) names the first difference with its path. */
bool compare_values(const Value *actual, const Value *expected, const Tolerance *tol,
                    char **reason);

#endif
