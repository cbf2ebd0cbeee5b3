/* ext_process: one request to an external implementation: a shell command started in its own
 * process group, the request on its stdin, its stdout and stderr collected under a deadline.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#ifndef RELAX_TOOLS_EXT_PROCESS_H
#define RELAX_TOOLS_EXT_PROCESS_H

#include <stdbool.h>

typedef enum ExtEnd {
    EXT_END_EXITED,   /* the command exited; `status` is its exit status */
    EXT_END_SIGNALED, /* a signal killed it; `status` is the signal number */
    EXT_END_TIMEOUT,  /* the deadline passed: the whole process group was killed */
    EXT_END_SPAWN,    /* it could not be started (pipe or fork failed) */
    EXT_END_TOO_LONG, /* it wrote more than EXT_PROCESS_MAX_OUTPUT: the group was killed */
} ExtEnd;

/* More output than this is not a response but a runaway program. */
#define EXT_PROCESS_MAX_OUTPUT (64u << 20)

typedef struct ExtProcessResult {
    ExtEnd end;
    int status;
    const char *out; /* everything written to stdout (GC memory, NUL-terminated) */
    const char *err; /* everything written to stderr */
} ExtProcessResult;

/* Runs `/bin/sh -c command` with `input` on its stdin and waits at most `timeout` seconds
 * (wall clock) for it to exit. Whatever is left of its process group afterwards is killed. */
void ext_process_run(const char *command, const char *input, double timeout, ExtProcessResult *res);

/* The last non-empty line of a text (stderr), or "" when there is none. */
const char *ext_process_last_line(const char *text);

#endif
