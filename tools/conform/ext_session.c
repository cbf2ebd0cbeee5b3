/* ext_session: protocol 2 of the external adapter protocol: one adapter process kept for many
 * requests, a `hello` handshake, messages framed as YAML documents ended by a `...` line.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include "tools/conform/ext_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ast/mem.h"

/* Of an adapter's stderr only the end is ever shown. */
#define ERR_KEEP 16384

struct ExtSession {
    const char *command;
    double timeout;
    ExtChild child;
    bool running;
    StrBuf out; /* stdout read and not yet taken as a response */
    StrBuf err; /* stderr since the current request began */
    ExtHello hello;
    int timeouts;          /* in a row */
    bool probe;            /* the last request timed out: probe the restarted adapter first */
    const char *abandoned; /* why the adapter is not asked again, or NULL */
};

/* The message being written and the deadline of the exchange. */
typedef struct Wait {
    const char *request;
    size_t left;
    double deadline;
} Wait;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ExtSession *ext_session_new(const char *command, double timeout)
{
    ExtSession *s = MEM_NEW(ExtSession);
    s->command = command;
    s->timeout = timeout;
    strbuf_init(&s->out);
    strbuf_init(&s->err);
    return s;
}

const ExtHello *ext_session_hello(const ExtSession *s)
{
    return &s->hello;
}

void ext_session_stop(ExtSession *s)
{
    if (s->running)
        ext_process_kill(&s->child, NULL);
    s->running = false;
    strbuf_init(&s->out);
}

static void keep_err(ExtSession *s, const char *chunk, size_t n)
{
    strbuf_addn(&s->err, chunk, n);
    if (s->err.len > 2 * ERR_KEEP) {
        const char *tail = strbuf_str(&s->err) + s->err.len - ERR_KEEP;
        StrBuf fresh;
        strbuf_init(&fresh);
        strbuf_add(&fresh, tail);
        s->err = fresh;
    }
}

/* Reads what is there on fd; false at end of file or on an error. */
static bool take(ExtSession *s, int fd, bool is_err)
{
    char chunk[8192];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return true;
    if (n <= 0)
        return false;
    if (is_err)
        keep_err(s, chunk, (size_t)n);
    else
        strbuf_addn(&s->out, chunk, (size_t)n);
    return true;
}

static void feed(ExtSession *s, Wait *w)
{
    ssize_t n = write(s->child.in_fd, w->request, w->left);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n < 0) {
        w->left = 0; /* it stopped reading: what it says next is still its answer */
        return;
    }
    w->request += n;
    w->left -= (size_t)n;
}

/* The end of the first complete response in s->out (just after its `...` line), or 0. */
static size_t response_end(const ExtSession *s)
{
    const char *text = strbuf_str((StrBuf *)&s->out);
    if (strncmp(text, EXT_PROTOCOL_END, 4) == 0)
        return 4;
    const char *hit = strstr(text, "\n" EXT_PROTOCOL_END);
    return hit == NULL ? 0 : (size_t)(hit - text) + 5;
}

/* Waits for the response, feeding the request meanwhile. EXT_END_EXITED when a whole
 * response is in s->out; EXT_END_SIGNALED stands for "the adapter's stdout closed". */
static ExtEnd pump(ExtSession *s, Wait *w)
{
    for (;;) {
        if (response_end(s) > 0)
            return EXT_END_EXITED;
        double left = w->deadline - now_seconds();
        if (left <= 0)
            return EXT_END_TIMEOUT;
        if (s->out.len > EXT_PROCESS_MAX_OUTPUT)
            return EXT_END_TOO_LONG;
        struct pollfd fds[3] = {{w->left > 0 ? s->child.in_fd : -1, POLLOUT, 0},
                                {s->child.out_fd, POLLIN, 0},
                                {s->child.err_fd, POLLIN, 0}};
        int ms = left > 0.1 ? 100 : (int)(left * 1000.0) + 1;
        if (poll(fds, 3, ms) < 0 && errno != EINTR)
            return EXT_END_SPAWN;
        if (fds[0].revents & (POLLOUT | POLLERR | POLLHUP))
            feed(s, w);
        if ((fds[2].revents & (POLLIN | POLLERR | POLLHUP)) && !take(s, s->child.err_fd, true)) {
            close(s->child.err_fd);
            s->child.err_fd = -1;
        }
        if ((fds[1].revents & (POLLIN | POLLERR | POLLHUP)) && !take(s, s->child.out_fd, false))
            return response_end(s) > 0 ? EXT_END_EXITED : EXT_END_SIGNALED;
    }
}

/* The adapter closed its stdout without a whole response: it is dying; collect its stderr
 * and its status for the reason. */
static void collect_death(ExtSession *s, double deadline, ExtProcessResult *res)
{
    while (s->child.err_fd >= 0 && now_seconds() < deadline) {
        struct pollfd fd = {s->child.err_fd, POLLIN, 0};
        if (poll(&fd, 1, 100) > 0 && !take(s, s->child.err_fd, true)) {
            close(s->child.err_fd);
            s->child.err_fd = -1;
        }
    }
    siginfo_t info;
    for (int i = 0; i < 50; i++) {
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)s->child.pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid != 0)
            break;
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    int st = 0;
    ext_process_kill(&s->child, &st);
    s->running = false;
    res->end = WIFSIGNALED(st) ? EXT_END_SIGNALED : EXT_END_EXITED;
    res->status = WIFSIGNALED(st) ? WTERMSIG(st) : WIFEXITED(st) ? WEXITSTATUS(st) : 0;
    if (res->end == EXT_END_EXITED && res->status == 0)
        res->status = -1; /* exited "successfully" without answering: still no answer */
}

/* One message out, one back, under the deadline (`timeout` seconds). */
static void transact(ExtSession *s, const char *message, double timeout, ExtProcessResult *res)
{
    Wait w = {message, strlen(message), now_seconds() + timeout};
    strbuf_init(&s->err);
    struct sigaction ignore, saved;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &saved);
    ExtEnd end = pump(s, &w);
    sigaction(SIGPIPE, &saved, NULL);
    memset(res, 0, sizeof *res);
    res->end = end;
    res->out = "";
    res->err = strbuf_str(&s->err);
    if (end == EXT_END_SIGNALED) {
        collect_death(s, w.deadline, res);
        res->err = strbuf_str(&s->err);
        return;
    }
    if (end != EXT_END_EXITED) {
        ext_session_stop(s);
        return;
    }
    size_t n = response_end(s);
    const char *all = strbuf_str(&s->out);
    res->out = mem_strndup(all, n - 4);
    StrBuf rest;
    strbuf_init(&rest);
    strbuf_add(&rest, all + n);
    s->out = rest;
}

static const char *start_problem(ExtSession *s, const ExtProcessResult *res)
{
    const char *last = ext_process_reason_line(res->err);
    const char *tail = *last ? mem_printf(": %s", last) : " (nothing on stderr)";
    switch (res->end) {
    case EXT_END_EXITED:
        return mem_printf("the adapter exited with status %d before answering hello%s", res->status,
                          tail);
    case EXT_END_SIGNALED:
        return mem_printf("the adapter was killed by signal %d before answering hello%s",
                          res->status, tail);
    case EXT_END_TIMEOUT:
        return mem_printf("no answer to hello within %g s", s->timeout);
    case EXT_END_SPAWN:
        return mem_printf("cannot start the adapter '%s'", s->command);
    case EXT_END_TOO_LONG:
        return "the adapter wrote a runaway answer to hello";
    case EXT_END_PROTOCOL:
        return res->err;
    }
    return "the adapter failed";
}

const char *ext_session_start(ExtSession *s)
{
    if (s->abandoned != NULL)
        return s->abandoned;
    if (s->running)
        return NULL;
    strbuf_init(&s->out);
    if (!ext_process_spawn(s->command, &s->child)) {
        s->abandoned = mem_printf("cannot start the adapter '%s'", s->command);
        return s->abandoned;
    }
    s->running = true;
    ExtProcessResult res;
    transact(s, mem_printf("%s%s", ext_protocol_write_hello(), EXT_PROTOCOL_END), s->timeout, &res);
    const char *why = NULL;
    if (res.end == EXT_END_EXITED && res.status == 0 && s->out.len > 0)
        why = "the adapter wrote more than one answer to hello";
    else if (res.end == EXT_END_EXITED && res.status == 0 &&
             !ext_protocol_read_hello(res.out, &s->hello, &why))
        why = mem_printf("malformed answer to hello: %s", why);
    else if (res.end != EXT_END_EXITED || res.status != 0)
        why = start_problem(s, &res);
    if (why == NULL)
        return NULL;
    ext_session_stop(s);
    s->abandoned = mem_printf("protocol 2 handshake failed: %s", why);
    return s->abandoned;
}

/* After a broken exchange: the adapter is killed; after too many timeouts in a row it is
 * never asked again. */
static void after_failure(ExtSession *s, const ExtProcessResult *res, const char *what)
{
    ext_session_stop(s);
    if (res->end != EXT_END_TIMEOUT) {
        s->timeouts = 0;
        return;
    }
    s->probe = true;
    if (++s->timeouts >= EXT_SESSION_MAX_TIMEOUTS)
        s->abandoned = mem_printf("not sent: the adapter timed out on %d requests in a row "
                                  "(the last a %s request) and is not asked again",
                                  s->timeouts, what);
}

static double probe_seconds(const ExtSession *s)
{
    double t = s->timeout / 4;
    return t < EXT_SESSION_PROBE_MAX_SECONDS ? t : EXT_SESSION_PROBE_MAX_SECONDS;
}

/* After a timeout: whether the restarted adapter answers a small request at all, within a short
 * deadline. Any whole response will do (even a rejection); none abandons the adapter. */
static bool probe_alive(ExtSession *s)
{
    static const char program[] = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                                  "    return x\n";
    ExtRequest req;
    memset(&req, 0, sizeof req);
    req.kind = EXT_REQUEST_LOAD;
    req.name = "liveness probe";
    req.program = program;
    req.protocol = EXT_PROTOCOL_PERSISTENT;
    ExtProcessResult res;
    transact(s, mem_printf("%s%s", ext_protocol_write_request(&req), EXT_PROTOCOL_END),
             probe_seconds(s), &res);
    s->probe = false;
    if (res.end == EXT_END_EXITED && res.status == 0 && s->out.len == 0)
        return true;
    ext_session_stop(s);
    s->abandoned = mem_printf("not sent: the adapter timed out on a request, and once restarted "
                              "did not answer a liveness probe within %g s; it is not asked again",
                              probe_seconds(s));
    return false;
}

void ext_session_request(ExtSession *s, const char *request, const char *what,
                         ExtProcessResult *res)
{
    const char *why = ext_session_start(s);
    if (why == NULL && s->probe && !probe_alive(s))
        why = s->abandoned;
    if (why != NULL) {
        memset(res, 0, sizeof *res);
        res->end = EXT_END_PROTOCOL;
        res->out = "";
        res->err = why;
        return;
    }
    transact(s, mem_printf("%s%s", request, EXT_PROTOCOL_END), s->timeout, res);
    if (res->end == EXT_END_EXITED && res->status == 0 && s->out.len > 0) {
        res->end = EXT_END_PROTOCOL;
        res->err = mem_printf("the adapter wrote more than one response to the %s request "
                              "(restarted)",
                              what);
    }
    if (res->end == EXT_END_EXITED && res->status == 0) {
        s->timeouts = 0;
        return;
    }
    if (res->end == EXT_END_EXITED && res->status == -1) {
        res->end = EXT_END_PROTOCOL;
        res->err =
            mem_printf("the adapter exited (status 0) without answering the %s request", what);
    }
    after_failure(s, res, what);
}
