/* rule: the rules that fire. Every check, derivation, evaluation rule and error site reports
 * the rule id it applies through rule_fired; while recording is on, the ids are gathered into
 * one set per judged case (`relax conform --rules-fired`). SPEC_NOTES: "Rule ids". */
#ifndef RELAX_AST_RULE_H
#define RELAX_AST_RULE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether rule_fired records; off unless rule_record_start was called. Read by the inline
 * test below so that a call costs one load and one branch when recording is off. */
extern bool rule_recording;

/* Records `id` (a SPEC_NOTES rule id such as "E-3") into the set of the current run. */
void rule_record(const char *id);

/* The one call at the code that enforces a rule. */
static inline void rule_fired(const char *id)
{
    if (rule_recording && id != NULL)
        rule_record(id);
}

/* Records every id of a text in rule_fired_text's form (while recording). */
void rule_record_text(const char *text);

/* Turns recording on with an empty set, or off (the set is kept until the next start). */
void rule_record_start(void);
void rule_record_stop(void);
/* Empties the set; recording stays as it is. */
void rule_record_clear(void);

/* Whether `id` fired since the set was last emptied. */
bool rule_has_fired(const char *id);
/* The ids fired since the set was last emptied, sorted by strcmp, NULL-terminated; *n gets
 * their number. */
const char **rule_fired_list(int *n);
/* The same ids as one text, space separated ("" when none fired). */
const char *rule_fired_text(void);

#endif
