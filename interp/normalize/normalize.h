/* normalize: brings a well-formed module to normal form (spec "Normal Form", steps 1-6).
 * SPEC_NOTES: "Normalization" (NF-*). */
#ifndef RELAX_INTERP_NORMALIZE_H
#define RELAX_INTERP_NORMALIZE_H

#include "ast/module.h"

/* A new module in normal form with the same meaning; the input is not changed. Idempotent:
 * normalizing a normalized module gives an alpha-equivalent module. */
IRModule *normalize_module(const IRModule *mod);

#endif
