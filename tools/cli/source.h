/* source: reading program and case files, and resolving the FILE argument of the CLI
 * (a TVMScript file, `-` for stdin, a standalone ast: YAML file, or CASEFILE.yaml#case-id).
 * SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_SOURCE_H
#define RELAX_TOOLS_SOURCE_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/legacy/legacy.h"
#include "ast/module.h"

/* The whole file as a GC string; "-" reads stdin. An unreadable file raises PHASE_IO. */
char *source_read_file(const char *path, ErrorTrap *trap);
bool source_is_dir(const char *path);
bool source_exists(const char *path);
bool source_has_suffix(const char *s, const char *suffix);

/* How the program texts of this command are read (--syntax); SYNTAX_AUTO unless set. */
void source_set_syntax(SyntaxMode mode);
/* The mode --syntax (or source_set_syntax) chose; SYNTAX_AUTO by default. */
SyntaxMode source_get_syntax(void);
/* Takes `--syntax MODE` and `--syntax=MODE` out of argv (after argv[0], the command) and
 * applies the mode. Returns 0, or the exit code of a usage error it already reported. */
int source_take_syntax_option(int *argc, char **argv);
/* Parses program text in the chosen syntax. In auto mode a program holding a legacy form
 * is read by the legacy reader, with a one-line notice on stderr (LEG-1). */
IRModule *source_parse_text(const char *name, const char *text, ErrorTrap *trap);

/* Loads the program a CLI FILE argument names. Parse errors (of text or ast: form) are
 * PHASE_PARSE; a bad case file is PHASE_CASE; an unknown case id is PHASE_USAGE. */
IRModule *source_load_program(const char *arg, ErrorTrap *trap);

/* The text of the file a diagnostic's span names: a file, "<stdin>" (what was read from it),
 * or CASEFILE.yaml#case-id (the case's program); NULL when there is none. Never raises. */
const char *source_text_of(const char *file);

/* The corpus `relax conform` runs when given no path: ./spec-tests when there is one (a
 * source tree), else the installed one (PREFIX/share/relax-ref/spec-tests, found from the
 * program's own path PREFIX/bin/relax). */
const char *source_default_corpus(void);

#endif
