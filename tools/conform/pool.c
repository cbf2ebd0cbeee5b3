/* pool: the selected cases judged in N worker processes (`relax conform -j N`), their results
 * handed back in case order; and the run's stop on SIGINT or SIGTERM.
 * SPEC_NOTES: "The conformance runner". */
/* Processes, not threads: the interpreter runs on a big-stack thread of its own, unwinds with
 * longjmp and allocates from one garbage-collected heap; a forked worker shares none of that. */
#define _POSIX_C_SOURCE 200809L

#include "tools/conform/pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ast/mem.h"
#include "tools/conform/run_entry.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

void pool_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* The case being judged stops too, at its evaluation's next step. */
    run_entry_set_interrupt(&stop_signal);
}

int pool_stop_signal(void)
{
    return (int)stop_signal;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *note_of(const PoolTask *t)
{
    return t->note != NULL ? t->note(t->ctx) : NULL;
}

static int run_here(const PoolTask *t)
{
    for (int i = 0; i < t->ncases; i++) {
        if (stop_signal != 0)
            return i;
        double start = now_seconds();
        CaseResult r = t->judge(t->ctx, t->cases[i]);
        double seconds = now_seconds() - start;
        if (stop_signal != 0)
            return i; /* stopped while judged: the case is not run, not failed */
        if (t->on_note != NULL)
            t->on_note(t->ctx, i, note_of(t));
        if (!t->on_result(t->ctx, i, r, seconds))
            return i + 1;
    }
    return t->ncases;
}

/* ---- workers ---- */

/* One result on the wire: index, outcome, missing bits, seconds, the lengths of the reason and
 * of the note (-1: NULL), then the two texts. */
typedef struct Record {
    int index;
    int outcome;
    unsigned missing;
    double seconds;
    int reason_len;
    int note_len;
} Record;

static int text_len(const char *s)
{
    return s ? (int)strlen(s) : -1;
}

static bool write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static void send_result(int fd, int index, CaseResult r, double seconds, const char *note)
{
    Record rec = {index, (int)r.outcome, r.missing, seconds, text_len(r.reason), text_len(note)};
    if (!write_all(fd, &rec, sizeof rec) ||
        (r.reason != NULL && !write_all(fd, r.reason, (size_t)rec.reason_len)) ||
        (note != NULL && !write_all(fd, note, (size_t)rec.note_len)))
        _exit(3);
}

static void worker_main(const PoolTask *t, int w, int fd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN; /* a ^C reaches the whole process group: the parent decides */
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &sa, NULL);
    for (int i = w; i < t->ncases; i += t->jobs) {
        double start = now_seconds();
        CaseResult r = t->judge(t->ctx, t->cases[i]);
        send_result(fd, i, r, now_seconds() - start, note_of(t));
    }
    if (t->worker_done != NULL)
        t->worker_done(t->ctx);
    fflush(NULL);
    _exit(0);
}

typedef struct Worker {
    pid_t pid;
    int fd;
    StrBuf buf;
    size_t used; /* bytes of buf already taken */
} Worker;

typedef struct Pool {
    const PoolTask *t;
    Worker *w;
    CaseResult *results;
    const char **notes;
    double *seconds;
    bool *have;
    int next; /* the next index to hand back */
    bool stopped;
} Pool;

/* Takes whole records out of a worker's buffer. */
static void take_records(Pool *p, Worker *w)
{
    for (;;) {
        size_t avail = w->buf.len - w->used;
        if (avail < sizeof(Record))
            return;
        Record rec;
        memcpy(&rec, strbuf_str(&w->buf) + w->used, sizeof rec);
        size_t reason_len = rec.reason_len > 0 ? (size_t)rec.reason_len : 0;
        size_t note_len = rec.note_len > 0 ? (size_t)rec.note_len : 0;
        size_t need = sizeof rec + reason_len + note_len;
        if (avail < need || rec.index < 0 || rec.index >= p->t->ncases)
            return;
        const char *text = strbuf_str(&w->buf) + w->used + sizeof rec;
        CaseResult r = {(Outcome)rec.outcome,
                        rec.reason_len < 0 ? NULL : mem_strndup(text, reason_len), rec.missing};
        p->results[rec.index] = r;
        p->notes[rec.index] = rec.note_len < 0 ? NULL : mem_strndup(text + reason_len, note_len);
        p->seconds[rec.index] = rec.seconds;
        p->have[rec.index] = true;
        w->used += need;
    }
}

static void hand_back(Pool *p)
{
    while (!p->stopped && p->next < p->t->ncases && p->have[p->next]) {
        int i = p->next++;
        if (p->t->on_note != NULL)
            p->t->on_note(p->t->ctx, i, p->notes[i]);
        if (!p->t->on_result(p->t->ctx, i, p->results[i], p->seconds[i]))
            p->stopped = true;
    }
}

/* A worker that ended: the cases it owed are failures of the run, not silent gaps. */
static void settle_worker(Pool *p, int wi)
{
    Worker *w = &p->w[wi];
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
    for (int i = wi; i < p->t->ncases; i += p->t->jobs) {
        if (p->have[i])
            continue;
        p->results[i].outcome = OUTCOME_FAIL;
        p->results[i].reason = WIFSIGNALED(st)
                                   ? mem_printf("worker %d died of signal %d", wi + 1, WTERMSIG(st))
                                   : mem_printf("worker %d exited with status %d before judging it",
                                                wi + 1, WEXITSTATUS(st));
        p->results[i].missing = 0;
        p->have[i] = true;
    }
}

static bool start_workers(Pool *p)
{
    const PoolTask *t = p->t;
    fflush(NULL);
    for (int wi = 0; wi < t->jobs; wi++) {
        int fds[2];
        if (pipe(fds) != 0)
            return false;
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            for (int k = 0; k < wi; k++)
                close(p->w[k].fd);
            worker_main(t, wi, fds[1]);
        }
        close(fds[1]);
        if (pid < 0) {
            close(fds[0]);
            return false;
        }
        p->w[wi].pid = pid;
        p->w[wi].fd = fds[0];
        strbuf_init(&p->w[wi].buf);
    }
    return true;
}

/* One wait on the workers' pipes. False when every pipe is closed. */
static bool pump(Pool *p)
{
    int n = p->t->jobs;
    struct pollfd *fds = MEM_ARRAY(struct pollfd, n);
    bool any = false;
    for (int i = 0; i < n; i++) {
        fds[i].fd = p->w[i].fd;
        fds[i].events = POLLIN;
        any = any || p->w[i].fd >= 0;
    }
    if (!any)
        return false;
    if (poll(fds, (nfds_t)n, 200) < 0)
        return true; /* EINTR: the caller looks at the stop flag */
    for (int i = 0; i < n; i++) {
        if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        char chunk[65536];
        ssize_t k = read(fds[i].fd, chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k > 0) {
            strbuf_addn(&p->w[i].buf, chunk, (size_t)k);
            take_records(p, &p->w[i]);
            continue;
        }
        close(p->w[i].fd);
        p->w[i].fd = -1;
        settle_worker(p, i);
    }
    hand_back(p);
    return true;
}

static void stop_workers(Pool *p)
{
    for (int i = 0; i < p->t->jobs; i++) {
        if (p->w[i].pid > 0) {
            kill(p->w[i].pid, SIGTERM);
            while (waitpid(p->w[i].pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        if (p->w[i].fd >= 0)
            close(p->w[i].fd);
    }
}

int pool_run(const PoolTask *t)
{
    if (t->jobs <= 1 || t->ncases <= 1)
        return run_here(t);
    Pool p;
    memset(&p, 0, sizeof p);
    p.t = t;
    p.w = MEM_ARRAY(Worker, t->jobs);
    for (int i = 0; i < t->jobs; i++)
        p.w[i].fd = -1;
    p.results = MEM_ARRAY(CaseResult, t->ncases);
    p.notes = MEM_ARRAY(const char *, t->ncases);
    p.seconds = MEM_ARRAY(double, t->ncases);
    p.have = MEM_ARRAY(bool, t->ncases);
    if (!start_workers(&p)) {
        stop_workers(&p);
        return run_here(t);
    }
    while (!p.stopped && stop_signal == 0 && p.next < t->ncases && pump(&p))
        ;
    hand_back(&p);
    stop_workers(&p);
    return p.next;
}
