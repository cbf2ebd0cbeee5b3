/* runner: judging one conformance case against an implementation (through an Adapter):
 * phases in order, expectation matching, outcomes. SPEC_NOTES: "Exit codes"; CASE_FORMAT. */
#ifndef RELAX_TOOLS_RUNNER_H
#define RELAX_TOOLS_RUNNER_H

#include <stdbool.h>

#include "ast/error.h"
#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"

typedef enum Outcome {
    OUTCOME_PASS,
    OUTCOME_SKIP,  /* needs a phase the implementation lacks */
    OUTCOME_KNOWN, /* failed, and listed in known-failures.txt */
    OUTCOME_EARLY, /* rejected as expected, but in an earlier phase than the spec's: a failure,
                      counted apart (SPEC_NOTES 4.17, "Rejected earlier") */
    OUTCOME_FAIL,
    OUTCOME_WRONG_PHASE, /* rejected, but in another phase than expected */
} Outcome;

/* Bits of RunnerMissing: phases (and the print round trip) an adapter lacks. */
#define RUNNER_NEEDS(phase) (1u << (phase))
#define RUNNER_NEEDS_ROUNDTRIP (1u << 8)
#define RUNNER_NEEDS_NORMAL_FORM (1u << 9) /* the check_normal_form slot */
#define RUNNER_NEEDS_NORMALIZE (1u << 10)  /* the normalize slot */

typedef struct CaseResult {
    Outcome outcome;
    const char *reason; /* NULL on PASS */
    unsigned missing;   /* SKIP: RUNNER_NEEDS bits */
} CaseResult;

/* --strict: judge implementation-defined and undefined results by the reference's own choice
 * (RESULT-2, RESULT-3); off by default. */
void runner_set_strict(bool on);

/* Loads the case's program and runs the phases its expectations need. */
CaseResult runner_run_case(const Adapter *ad, const Case *c);

/* Pure pieces of the judgement, exposed for tests. */

/* An error expectation against the error an implementation raised, at full strictness: the
 * phase, and the code and rule where the case gives them. */
CaseResult runner_judge_error(const Expect *e, const Error *got);
/* The same for an implementation that does not report some of them (ADAPTER_OMITS_* bits of
 * Adapter.omits): those are not compared. */
CaseResult runner_judge_error_as(const Expect *e, const Error *got, unsigned omits);
/* A normal_form expectation against the check's verdict (`got` is read when !in_normal_form). */
CaseResult runner_judge_normal_form(const Expect *e, bool in_normal_form, const Error *got);
/* The module a normalizes_to expectation gives, read and checked: it must be well-formed and in
 * normal form. NULL with *why when it is not; `name` names it in error spans. */
IRModule *runner_expected_normal_form(const Expect *e, const char *name, const char **why);
/* "expected parse error [Code RULE]" style description of an error expectation. */
char *runner_describe_expected_error(const Expect *e);
/* NULL when the texts are equal; else "line N: expected '...', got '...'". */
const char *runner_text_difference(const char *expected, const char *got);
/* Warning codes compared as multisets; NULL when equal, else a reason. */
const char *runner_judge_warnings(const Expect *e, const char *const *got, int ngot);
const char *runner_judge_errors(const Expect *e, const char *const *got, int ngot);
/* StructInfo texts compared with whitespace ignored. */
bool runner_same_sinfo_text(const char *expected, const char *got);
/* Names of the phases in `missing`, comma separated ("wellformed, struct_info"). */
char *runner_missing_names(unsigned missing);
const char *runner_outcome_name(Outcome o);

#endif
