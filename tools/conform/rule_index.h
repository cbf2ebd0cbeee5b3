/* rule_index: the rule ids SPEC_NOTES.md lists (its "Rule ids" tables), how many corpus cases
 * name each one, and which cases fire it (the --rules-fired file of `relax conform`).
 * SPEC_NOTES: "Rule ids". */
#ifndef RELAX_TOOLS_RULE_INDEX_H
#define RELAX_TOOLS_RULE_INDEX_H

#include <stdbool.h>

#include "ast/error.h"
#include "tools/conform/case_file.h"

typedef struct RuleIndex {
    const char **ids; /* in the order SPEC_NOTES lists them */
    int *counts;      /* cases naming each id */
    int *fired;       /* after rule_index_add_fired: cases firing each id */
    int *positive;    /* ... of those, cases expecting success */
    int *negative;    /* ... of those, cases expecting an error (the program is rejected) */
    int *own;         /* ... of those, cases expecting an error of that very rule */
    int n;
    int cap;
    const char **unknown; /* "<case global id>: <rule id>" for ids SPEC_NOTES lacks */
    int nunknown;
    int unknown_cap;
} RuleIndex;

/* Reads the first column of every table row in SPEC_NOTES.md's "## 1. Rule ids" section. */
RuleIndex *rule_index_load(const char *spec_notes_path, ErrorTrap *trap);
bool rule_index_has(const RuleIndex *ri, const char *id);
/* Counts the rule ids of every case in the case files under `corpus_dir`, recording ids
 * the index lacks. Case-file errors are raised through `trap`. Returns the cases read. */
int rule_index_count_corpus(RuleIndex *ri, const char *corpus_dir, ErrorTrap *trap);

/* One judged case as `relax conform --rules-fired` writes it. */
typedef struct FiredCase {
    const char *id;      /* "<path>#<id>" */
    const char *outcome; /* PASS, FAIL, ... */
    bool success;        /* some run expects success (not an error) */
    bool rejects;        /* some run expects an error (or a normal-form violation) */
    const char **named;  /* the case's spec ids, then its expected errors' rules */
    int nnamed;
    const char **errors; /* the rules of the errors (and NF verdicts) it expects */
    int nerrors;
    const char **fired; /* sorted */
    int nfired;
} FiredCase;

/* The case's record, one JSON object and a newline: keys id, outcome, success, rejects,
 * named, errors, fired (spec-tests/README.md). `fired` is rule_fired_text's form. */
char *rule_index_fired_line(const Case *c, const char *outcome, const char *fired);
/* Reads a --rules-fired file; a line that is not such a record raises a PHASE_CASE error. */
FiredCase *rule_index_read_fired(const char *path, int *n, ErrorTrap *trap);
/* Counts, per listed id, the cases firing it, and of those that pass, the positive ones (the
 * case expects success), the negative ones (it expects the program rejected) and, of those,
 * the ones whose expected error is that rule's own. */
void rule_index_add_fired(RuleIndex *ri, const FiredCase *cases, int n);
/* Whether the list holds id. */
bool rule_index_list_has(const char *const *list, int n, const char *id);

#endif
