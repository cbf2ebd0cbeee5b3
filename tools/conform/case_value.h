/* case_value: the values of CASE_FORMAT "Values" (arguments and expected results) as YAML
 * trees: structural validation and comparison with tolerance. SPEC_NOTES: "Case file errors". */
#ifndef RELAX_TOOLS_CASE_VALUE_H
#define RELAX_TOOLS_CASE_VALUE_H

#include <stdbool.h>

#include "ast/error.h"
#include "tools/conform/yaml_node.h"

typedef struct Tolerance {
    double rtol;
    double atol;
    bool exact; /* bit equality for floats */
} Tolerance;

/* Raises a PHASE_CASE error, code CaseValue, at the first node that is not a value. */
void case_value_validate(const char *file, const YamlNode *value, ErrorTrap *trap);
/* Whether `got` (a value an implementation returned, in the same YAML form) matches
 * `expected`. When not, *why says where and how they differ. */
bool case_value_equal(const YamlNode *expected, const YamlNode *got, Tolerance tol,
                      const char **why);

/* The expected value with each implementation-defined element ({one_of: [a, b, ..]}, RESULT-2)
 * replaced by the alternative `got` matches there, or by the first (the reference's own
 * choice) when none matches or when `strict`. A value without one_of comes back as it is. */
YamlNode *case_value_resolve(const YamlNode *expected, const YamlNode *got, Tolerance tol,
                             bool strict);

#endif
