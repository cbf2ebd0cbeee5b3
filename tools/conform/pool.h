/* pool: the selected cases judged in N worker processes (`relax conform -j N`), their results
 * handed back in case order; and the run's stop on SIGINT or SIGTERM.
 * SPEC_NOTES: "The conformance runner". */
#ifndef RELAX_TOOLS_POOL_H
#define RELAX_TOOLS_POOL_H

#include <stdbool.h>

#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

typedef struct PoolTask {
    const Case *const *cases;
    int ncases;
    int jobs; /* 1: in this process; more: forked workers, each judging every jobs-th case */
    void *ctx;
    /* Judges one case (in a worker when jobs > 1). */
    CaseResult (*judge)(void *ctx, const Case *c);
    /* Called in the calling process, in case order; false stops the run. */
    bool (*on_result)(void *ctx, int index, CaseResult r, double seconds);
    /* Called in each worker after its last case (to stop a persistent adapter); may be NULL. */
    void (*worker_done)(void *ctx);
    /* Optional: a text that goes with each result (--rules-fired's ids), asked right after the
     * case is judged, in the process that judged it; on_note gets it in the calling process,
     * in case order, before on_result. Both NULL or both set. */
    const char *(*note)(void *ctx);
    void (*on_note)(void *ctx, int index, const char *note);
} PoolTask;

/* Runs the task. Returns the number of cases whose results were handed back (fewer than
 * ncases when on_result stopped the run or a signal came). Workers that die are reported as
 * FAIL results for the cases they did not finish. */
int pool_run(const PoolTask *task);

/* SIGINT and SIGTERM set a flag instead of killing the run, so the summary and the reports
 * are still written. */
void pool_catch_signals(void);
/* The signal that asked the run to stop, or 0. */
int pool_stop_signal(void);

#endif
