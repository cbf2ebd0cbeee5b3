/* sinfo_compare: StructInfo expectations compared by meaning: both annotation texts read in
 * one scope, then compared with the prover. SPEC_NOTES: "The conformance runner" (SINFO-CMP-1). */
#ifndef RELAX_TOOLS_SINFO_COMPARE_H
#define RELAX_TOOLS_SINFO_COMPARE_H

#include <stdbool.h>

#include "ast/sinfo.h"

/* SINFO-CMP-1: the same kind; tensors of the same dtype, ndim and vdevice with dims provably
 * equal (prover), shapes and PrimValues alike, tuples and functions field by field. Shape
 * variables are compared by identity. */
bool sinfo_same_meaning(const StructInfo *a, const StructInfo *b);

/* The texts as StructInfo annotations, read in one function so that a name means one shape
 * variable on both sides (`n * 2` and `2 * n` agree). False when they differ or either does
 * not read; *why (optional) says which. */
bool sinfo_texts_same_meaning(const char *expected, const char *got, const char **why);

#endif
