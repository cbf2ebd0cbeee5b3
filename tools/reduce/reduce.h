/* reduce: shrinking a program while a property of it holds (`relax reduce`): delta
 * debugging over its lines, then rewrites that keep the text a program (blocks unwrapped,
 * functions removed, a binding's value replaced by one of its operands, constants made
 * small). SPEC_NOTES 4.17 "Reducing a disagreement". */
#ifndef RELAX_TOOLS_REDUCE_H
#define RELAX_TOOLS_REDUCE_H

#include <stdbool.h>

/* Whether a candidate text still has the property; `ctx` is the caller's. */
typedef bool (*ReducePredicate)(void *ctx, const char *text);

typedef struct ReduceStats {
    int lines_before, lines_after;
    int tried;    /* candidates given to the predicate */
    int accepted; /* candidates that kept the property */
} ReduceStats;

/* The smallest text this reducer finds from `text` (which must have the property) for
 * which `pred` holds; at most `budget` predicate calls. */
char *reduce_text(const char *text, ReducePredicate pred, void *ctx, int budget,
                  ReduceStats *stats);

#endif
