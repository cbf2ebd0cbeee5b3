/* diag: lists of errors and warnings that static checks collect (they report every problem
 * they find, not just the first). SPEC_NOTES: "Error codes". */
#ifndef RELAX_INTERP_DIAG_H
#define RELAX_INTERP_DIAG_H

#include <stdarg.h>

#include "ast/error.h"

typedef struct DiagList {
    Error *items;
    int n;
    int cap;
} DiagList;

void diag_init(DiagList *d);
void diag_add(DiagList *d, Phase phase, const char *code, const char *rule, Span span,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The first diagnostic in source order (line, then column), or NULL. */
const Error *diag_first(const DiagList *d);

#endif
