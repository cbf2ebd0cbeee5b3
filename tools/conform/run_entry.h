/* run_entry: one call of a program's entry function in a fresh interpreter, as `relax run`
 * and the conformance runner make it; values crossing in and out in case notation.
 * SPEC_NOTES: "Evaluation" (ENTRY-1, LIMIT-*), "Runtime errors", "Value notation errors". */
#ifndef RELAX_TOOLS_RUN_ENTRY_H
#define RELAX_TOOLS_RUN_ENTRY_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/module.h"
#include "interp/eval/interp.h"
#include "tools/conform/yaml_node.h"
#include "values/value.h"

typedef struct RunEntryRequest {
    const IRModule *mod;
    const char *entry;
    Value **args;
    int nargs;
    const InterpOptions *opt; /* NULL: the defaults */
} RunEntryRequest;

typedef struct RunEntryOutput {
    Value *result;       /* NULL when the run failed */
    const char *printed; /* everything R.print and spectest.print wrote, also on failure */
} RunEntryOutput;

/* CASE_FORMAT's tolerance of float comparison. */
typedef struct RunEntryTolerance {
    double rtol;
    double atol;
    bool exact;
} RunEntryTolerance;

/* The wall-clock limit (LIMIT-time) of every later call made without options (`relax
 * conform --timeout`); 0: none. */
void run_entry_set_timeout(double seconds);

/* The flag (set by a signal handler) that stops every later call made without options at its
 * next step or charge with an Interrupted error (`relax conform` on SIGINT or SIGTERM); NULL:
 * none. */
void run_entry_set_interrupt(const volatile sig_atomic_t *flag);

/* Sets up an interpreter (a fresh one per call: spectest.counter starts at 0) and calls the
 * entry. Returns false with *err set when the interpreter raised an error. */
bool run_entry_call(const RunEntryRequest *req, RunEntryOutput *out, Error *err);

/* A case-notation value read from a case file's YAML tree. A malformed one raises BadValue
 * (phase case) through `trap`. */
Value *run_entry_value_from_yaml(const char *file, const YamlNode *node, ErrorTrap *trap);
/* The tree as one line of YAML flow text (scalars plain or double-quoted as they were), the
 * text a value is read from when it cannot be read in place. */
char *run_entry_flow_text(const YamlNode *node);
/* A value as a case-notation YAML tree (what render_value_case writes, read back). */
YamlNode *run_entry_value_to_yaml(const Value *v);

/* Whether a returned value (`got`) matches an expected one, both in case notation, by the
 * rules of values/compare.h: both are read as values first, so floats compare as values of
 * their dtype. Returns NULL when they match, else the reason. *ok_read is false when either
 * side could not be read as a value; the caller decides what that means. */
const char *run_entry_values_differ(const YamlNode *expected, const YamlNode *got,
                                    const RunEntryTolerance *tol, bool *ok_read);

#endif
