/* rule_index: the rule ids SPEC_NOTES.md lists (its "Rule ids" tables), and how many corpus
 * cases name each one. SPEC_NOTES: "Rule ids". */
#ifndef RELAX_TOOLS_RULE_INDEX_H
#define RELAX_TOOLS_RULE_INDEX_H

#include <stdbool.h>

#include "ast/error.h"

typedef struct RuleIndex {
    const char **ids; /* in the order SPEC_NOTES lists them */
    int *counts;      /* cases naming each id */
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

#endif
