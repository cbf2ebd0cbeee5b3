/* repl: the session's program of `relax repl` (kept as the text of its definitions) and the
 * reader that splits typed or piped input into entries. SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_REPL_H
#define RELAX_TOOLS_REPL_H

#include <stdbool.h>
#include <stdio.h>

#include "ast/error.h"
#include "ast/module.h"
#include "tools/cli/suggest.h"

/* ---- the program (repl_program.c) ---- */

/* One top-level piece of the program as the user wrote it: a function, an extern, another
 * module statement, or an import line. */
typedef struct ReplPart {
    const char *name; /* the def or extern it defines; NULL for other statements */
    const char **lines;
    int nlines;
    int indent;         /* the indentation it was written with */
    const char *origin; /* the file its errors name: "<repl>" or a loaded file */
    int line0;          /* the origin line of lines[0] */
} ReplPart;

/* Where one line of the assembled program text came from. */
typedef struct ReplLineOrigin {
    const char *origin;
    int line;
    int col_shift; /* add to a column of the assembled text to get the origin column */
} ReplLineOrigin;

/* The session's program. Its definitions are assembled into one TVMScript text (a lone
 * function while there is just one function entered alone, else a module class), which is
 * parsed as a whole, so functions entered one by one refer to each other as in a module. */
typedef struct ReplProgram {
    const char *class_name; /* of the assembled module: the last module entered, or Module */
    ReplPart *imports;
    int nimports;
    ReplPart *parts; /* in definition order */
    int nparts;
    bool lone;           /* one function entered alone: printed and run as a lone function */
    const char *text;    /* the assembled text */
    ReplLineOrigin *map; /* one per line of `text` */
    int nmap;
    IRModule *mod; /* `text` parsed; NULL while the program is empty */
} ReplProgram;

/* The file name of the assembled text; spans naming it are mapped back by repl_program_map. */
extern const char REPL_ASSEMBLED[];

void repl_program_init(ReplProgram *p);
/* Enters a definition (a lone function adds or replaces that function; a module replaces
 * everything). On failure the program is unchanged and *err holds the error, its span in
 * the entry's own lines (line 1 is the entry's first line). Returns a one-line summary of
 * what changed, or NULL on failure. */
const char *repl_program_enter(ReplProgram *p, const char *origin, const char *text, Error *err);
/* A newly parsed copy of the program, for checks that annotate the tree they check. */
IRModule *repl_program_fresh(const ReplProgram *p);
/* Rewrites a span of the assembled text into the entry or file it came from. */
void repl_program_map(const ReplProgram *p, Span *span);
/* The names of the program's functions, comma separated ("" when empty). */
const char *repl_program_names(const ReplProgram *p);

/* ---- line editing (repl_edit.c) ---- */

/* The words Tab may complete to: the commands (":run", ...) when `command`, else names. */
typedef void (*ReplWordsFn)(void *ctx, bool command, NameList *out);
typedef struct ReplEdit ReplEdit;

/* Line editing on the terminal `in`/`out`, with the history of $HOME/.relax_history; NULL
 * when the terminal cannot be edited. */
ReplEdit *repl_edit_open(FILE *in, FILE *out, ReplWordsFn words, void *ctx);
/* One edited line without its newline; NULL at Ctrl-D. Ctrl-C gives "" with *cancelled. */
char *repl_edit_read(ReplEdit *ed, const char *prompt, bool *cancelled);
void repl_edit_close(ReplEdit *ed);

/* ---- input (repl_input.c) ---- */

typedef struct ReplInput {
    FILE *in;
    FILE *out;        /* where prompts go */
    bool interactive; /* `in` is a terminal: prompts are shown, and a blank line ends a block */
    char *pushed;     /* a line read ahead and given back, or NULL */
    ReplEdit *edit;   /* line editing, or NULL: plain reading */
    bool cancelled;   /* Ctrl-C while reading: the entry being read is dropped */
} ReplInput;

/* One entry: a command line (":run ...") or a block of definition lines. */
typedef struct ReplEntry {
    const char *text;
    bool command;
} ReplEntry;

void repl_input_init(ReplInput *r, FILE *in, FILE *out);
/* Turns line editing on when `in` and `out` are a terminal. */
void repl_input_edit(ReplInput *r, ReplWordsFn words, void *ctx);
/* One line of any length without its newline; NULL at end of input. */
char *repl_input_read_line(FILE *in);
/* The next entry; false at end of input. Blank and comment lines between entries are
 * skipped. A block ends at a blank line (unless an indented line follows at once, as when a
 * module with blank lines between its functions is pasted or piped), at a line back at
 * column 0 after an indented one, at a command line, or at end of input. */
bool repl_input_entry(ReplInput *r, ReplEntry *e);

#endif
