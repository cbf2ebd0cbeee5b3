/* differential: the properties every generated program must have in the reference
 * (SPEC_NOTES "Generated programs"): it parses and checks (GEN-1), its entry runs on its
 * arguments (GEN-2), and printing then parsing it (GEN-3) or normalizing it (GEN-4) changes
 * neither its printed form's fixpoint nor its result, bit for bit. */
#ifndef RELAX_TOOLS_DIFFERENTIAL_H
#define RELAX_TOOLS_DIFFERENTIAL_H

#include <stdbool.h>

#include "tools/progen/progen.h"
#include "values/value.h"

typedef struct DiffResult {
    bool ok;
    const char *rule;   /* the GEN-n broken, when not ok */
    const char *why;    /* what broke, when not ok */
    Value *result;      /* the entry's result on the original program, when it ran */
} DiffResult;

/* Runs every check on `p`; stops at the first that fails. */
DiffResult differential_check(const GenProgram *p);

/* The program's arguments as values (each a fresh copy). */
Value **differential_args(const GenProgram *p);

#endif
