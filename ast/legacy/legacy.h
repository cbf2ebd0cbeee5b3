/* legacy: the reader of the 2022 Relax surface syntax (the seed-era TVMScript of
 * DynTensorType, R.match_shape and the positional call_tir), as rewrites into today's.
 * SPEC_NOTES: "Legacy syntax" (LEG-*). */
#ifndef RELAX_AST_LEGACY_H
#define RELAX_AST_LEGACY_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/module.h"
#include "ast/text/py_ast.h"

/* How a program text is read: auto (today's syntax, or the legacy one when a legacy form
 * appears), current (today's only), legacy (the legacy reader). */
typedef enum SyntaxMode { SYNTAX_AUTO, SYNTAX_CURRENT, SYNTAX_LEGACY } SyntaxMode;

/* "auto", "current" or "legacy"; false for anything else. */
bool legacy_syntax_mode_parse(const char *text, SyntaxMode *out);

/* A legacy form found in a program: its name as written ("R.match_shape") and where. */
typedef struct LegacyForm {
    const char *name;
    Span span;
} LegacyForm;

/* LEG-1: the first legacy-only form of the tree, in source order; false when there is none. */
bool legacy_detect(const PyBody *top, LegacyForm *first);

/* Rewrites every legacy form of the tree into today's form, in place. Errors are parse
 * errors (codes Legacy*, rules LEG-*) raised through `trap`. */
void legacy_rewrite(const char *file, PyBody *top, ErrorTrap *trap);

/* Parses `text` in the given mode. In auto mode, *detected (when not NULL) receives the
 * legacy form that switched the reader, and its name is NULL when none did. */
IRModule *legacy_parse(const char *file, const char *text, SyntaxMode mode, LegacyForm *detected,
                       ErrorTrap *trap);

#endif
