/* known_failures: the checked-in list of cases expected to fail (spec-tests/known-failures.txt),
 * one `path#id reason` a line. SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_KNOWN_FAILURES_H
#define RELAX_TOOLS_KNOWN_FAILURES_H

#include <stdbool.h>

#include "ast/error.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

typedef struct KnownFailure {
    const char *global_id; /* "spec-tests/x.yaml#id" */
    const char *reason;
    int line;
    bool seen; /* the run met this case */
} KnownFailure;

typedef struct KnownFailures {
    const char *path;
    KnownFailure *items;
    int nitems;
    int cap;
} KnownFailures;

/* An empty list (no file). */
KnownFailures *known_failures_new(const char *path);
/* Lines `path#id reason`; `#` starts a comment line; blank lines are ignored. A line without
 * `#id`, or an id listed twice, raises a PHASE_CASE error (code KnownFailures). */
KnownFailures *known_failures_parse(const char *path, const char *text, ErrorTrap *trap);
KnownFailures *known_failures_load(const char *path, ErrorTrap *trap);
KnownFailure *known_failures_find(const KnownFailures *kf, const char *global_id);

/* A listed case that failed becomes OUTCOME_KNOWN; a listed case that passed becomes a
 * failure ("now passes"). Skips are left alone. Marks the entry seen. */
CaseResult known_failures_apply(KnownFailures *kf, const char *global_id, CaseResult r);

/* Whether a listed id names no case: its file is among `files` (loaded in this run) without
 * that id, or `file_exists` says the file is absent. Returns the reason, or NULL. */
const char *known_failures_stale(const KnownFailure *k, CaseFile *const *files, int nfiles,
                                 bool file_exists);
/* The file part of an entry's id ("spec-tests/x.yaml"). */
char *known_failures_file_of(const KnownFailure *k);

#endif
