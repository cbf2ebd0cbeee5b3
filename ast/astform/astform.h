/* astform: the `ast:` form of CASE_FORMAT (a program written in the spec's abstract grammar
 * as YAML mappings), read and written. SPEC_NOTES: "The ast: form". */
#ifndef RELAX_AST_ASTFORM_H
#define RELAX_AST_ASTFORM_H

#include <yaml.h>

#include "ast/error.h"
#include "ast/module.h"

/* Reads the `ast:` node of a case (a node of a libyaml document). Errors are parse errors
 * with the file, line and column of the offending YAML node. */
IRModule *astform_read(const char *file, yaml_document_t *doc, yaml_node_t *node, ErrorTrap *trap);
/* Reads a standalone YAML text holding one `ast:` value (an IRModule or Function mapping). */
IRModule *astform_read_text(const char *file, const char *text, ErrorTrap *trap);
/* Writes the module in the `ast:` form, as block-style YAML (what `relax print --ast` shows). */
char *astform_write(const IRModule *mod);

#endif
