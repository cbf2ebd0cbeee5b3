/* error: source spans, phases, and the one error path (raise and longjmp to a trap).
 * SPEC_NOTES: "Error codes" and "Exit codes". */
#ifndef RELAX_AST_ERROR_H
#define RELAX_AST_ERROR_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdnoreturn.h>

typedef struct Span {
    const char *file; /* NULL when unknown */
    int line;         /* 1-based; 0 when unknown */
    int col;          /* 1-based */
    int end_line;
    int end_col;
} Span;

/* Phases in the order an implementation meets them (CASE_FORMAT "Phases"), plus the
 * tool-level ones that are not about the program. */
typedef enum Phase {
    PHASE_PARSE,
    PHASE_WELLFORMED,
    PHASE_STRUCT_INFO,
    PHASE_RUNTIME,
    PHASE_USAGE, /* bad command line */
    PHASE_IO,    /* a file cannot be read */
    PHASE_CASE,  /* a conformance case file is not valid YAML or breaks the schema */
} Phase;

typedef struct Error {
    Phase phase;
    const char *code; /* stable identifier listed in SPEC_NOTES.md */
    const char *rule; /* spec rule id, or NULL */
    Span span;
    const char *message;
} Error;

/* A protected boundary: error_raise longjmps to the innermost trap it is given. */
typedef struct ErrorTrap {
    jmp_buf jmp;
    Error error;
} ErrorTrap;

/* Usage: ErrorTrap trap; if (setjmp(trap.jmp) == 0) { ...work... } else { trap.error } */
noreturn void error_raise(ErrorTrap *trap, Phase phase, const char *code, const char *rule,
                          Span span, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* file:line:col: <phase> error [<code> <rule>]: message */
char *error_format(const Error *e);
/* file:line:col: <phase> warning [<code> <rule>]: message */
char *error_format_warning(const Error *w);
/* How error_render shows a diagnostic beyond its one-line form. */
typedef struct ErrorRender {
    bool warning;       /* the word "warning" rather than "error" */
    const char *source; /* the text of the span's file, or NULL */
    const char *hint;   /* a suggestion ("did you mean `R.add`?"), or NULL */
    bool color;         /* terminal colors */
} ErrorRender;

/* The long form of a diagnostic: the one-line form, then the source line of the span with a
 * caret range under it (when `source` has that line), then the hint. */
char *error_render(const Error *e, const ErrorRender *how);
const char *error_phase_name(Phase phase);
/* Parses a phase name as written in case files; returns 0 on success. */
int error_phase_parse(const char *name, Phase *out);
/* The process exit code for an error of this phase (README "Exit codes"). */
int error_exit_code(Phase phase);

Span span_make(const char *file, int line, int col);
Span span_none(void);

#endif
