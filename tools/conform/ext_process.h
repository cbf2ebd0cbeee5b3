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
    EXT_END_PROTOCOL, /* protocol 2: no exchange; `err` holds the whole reason */
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

/* A started command: its process id (also its process group) and the parent's ends of its
 * stdin (non-blocking), stdout and stderr. */
typedef struct ExtChild {
    int pid;
    int in_fd, out_fd, err_fd;
} ExtChild;

/* Starts `/bin/sh -c command` in a process group of its own, SIGPIPE at its default. */
bool ext_process_spawn(const char *command, ExtChild *ch);
/* Kills the child's whole process group, reaps the child (*wait_status: its waitpid status,
 * when not NULL) and closes the pipes. */
void ext_process_kill(ExtChild *ch, int *wait_status);

/* The last line of an adapter's stderr that is its own: a shell's report of a signal
 * ("Segmentation fault") is passed over for the line before it. */
const char *ext_process_reason_line(const char *text);

/* The last non-empty line of a text (stderr), or "" when there is none. */
const char *ext_process_last_line(const char *text);

#endif
