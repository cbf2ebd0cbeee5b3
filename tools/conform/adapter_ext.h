/* adapter_ext: any implementation judged through a subprocess: every phase request is one run
 * of a shell command, speaking the protocol of ext_protocol.h over its stdin and stdout.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#ifndef RELAX_TOOLS_ADAPTER_EXT_H
#define RELAX_TOOLS_ADAPTER_EXT_H

#include "tools/conform/adapter.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

#define ADAPTER_EXT_DEFAULT_TIMEOUT 60.0

typedef struct AdapterExtOptions {
    const char *command;  /* run with /bin/sh -c */
    double timeout;       /* seconds of wall clock per request */
    int protocol;         /* 1: one process per request; 2: one persistent process */
    const char *dump_dir; /* every request is also written here, or NULL */
} AdapterExtOptions;

/* Takes `--adapter COMMAND`, `--adapter-timeout SECONDS`, `--adapter-protocol N` and
 * `--dump-requests DIR` out of argv, keeping the other arguments in order. Returns 0, or a
 * usage error's exit code. *opts stays NULL when there is no --adapter. */
int adapter_ext_take_options(int *argc, char **argv, const AdapterExtOptions **opts);

void adapter_ext_init(Adapter *ad, const AdapterExtOptions *opts);

/* Before the corpus: one request that any working adapter answers (protocol 2: the hello;
 * protocol 1: a `load` of a two-line program, answered `ok: true` or `unsupported`). NULL when
 * it was answered, else why the adapter cannot be used. */
const char *adapter_ext_preflight(Adapter *ad);
/* "name version (protocol 2)" as the adapter's hello gave it, or the command. */
const char *adapter_ext_describe(const Adapter *ad);
/* Stops a persistent adapter (before a worker exits, or at the end of the run). */
void adapter_ext_stop(Adapter *ad);

/* runner_run_case, plus what only an external adapter needs: a phase the implementation
 * answered `unsupported` is switched off and the case judged again without it (a SKIP, as for
 * a built-in adapter that lacks the phase), and a broken exchange (timeout, exit status,
 * malformed response) makes the case FAIL with that reason. Any other adapter goes straight
 * to runner_run_case. */
CaseResult adapter_ext_run_case(Adapter *ad, const Case *c);

#endif
