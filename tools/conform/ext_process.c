/* ext_process: one request to an external implementation: a shell command started in its own
 * process group, the request on its stdin, its stdout and stderr collected under a deadline.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include "tools/conform/ext_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ast/mem.h"

/* The parent's side of the three pipes; -1 once closed. */
typedef struct Stream {
    int fd;
    StrBuf buf;
} Stream;

typedef struct Child {
    pid_t pid;
    int in_fd; /* the write end of the child's stdin */
    const char *input;
    size_t input_left;
    Stream out, err;
    double deadline;
} Child;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* In the forked child: only async-signal-safe calls until exec. */
static noreturn void child_exec(const char *command, int pipes[3][2])
{
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    dup2(pipes[0][0], 0);
    dup2(pipes[1][1], 1);
    dup2(pipes[2][1], 2);
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 2; k++) {
            if (pipes[i][k] > 2)
                close(pipes[i][k]);
        }
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

bool ext_process_spawn(const char *command, ExtChild *out)
{
    int pipes[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    for (int i = 0; i < 3; i++) {
        if (pipe(pipes[i]) != 0) {
            for (int k = 0; k < i; k++) {
                close(pipes[k][0]);
                close(pipes[k][1]);
            }
            return false;
        }
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(command, pipes);
    close(pipes[0][0]);
    close(pipes[1][1]);
    close(pipes[2][1]);
    out->in_fd = pipes[0][1];
    out->out_fd = pipes[1][0];
    out->err_fd = pipes[2][0];
    if (pid < 0) {
        close_fd(&out->in_fd);
        close_fd(&out->out_fd);
        close_fd(&out->err_fd);
        return false;
    }
    /* Also here, so a kill of the group cannot race the child's own setpgid. */
    setpgid(pid, pid);
    out->pid = pid;
    fcntl(out->in_fd, F_SETFL, fcntl(out->in_fd, F_GETFL) | O_NONBLOCK);
    return true;
}

/* Forks the command; false when the pipes or the fork cannot be made. */
static bool spawn(Child *ch, const char *command)
{
    ExtChild c;
    if (!ext_process_spawn(command, &c))
        return false;
    ch->pid = c.pid;
    ch->in_fd = c.in_fd;
    ch->out.fd = c.out_fd;
    ch->err.fd = c.err_fd;
    return true;
}

static void feed_input(Child *ch)
{
    ssize_t n = write(ch->in_fd, ch->input, ch->input_left);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n < 0) {
        /* The command stopped reading (EPIPE): what it answers is still its answer. */
        close_fd(&ch->in_fd);
        return;
    }
    ch->input += n;
    ch->input_left -= (size_t)n;
    if (ch->input_left == 0)
        close_fd(&ch->in_fd);
}

static void drain(Stream *s)
{
    char chunk[8192];
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        close_fd(&s->fd);
        return;
    }
    strbuf_addn(&s->buf, chunk, (size_t)n);
}

static bool has_exited(const Child *ch)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int rc = waitid(P_PID, (id_t)ch->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    return rc != 0 ? errno != EINTR : info.si_pid != 0;
}

/* One wait for the pipes, at most `ms` milliseconds; false when poll itself failed. */
static bool pump_once(Child *ch, int ms)
{
    struct pollfd fds[3] = {
        {ch->in_fd, POLLOUT, 0}, {ch->out.fd, POLLIN, 0}, {ch->err.fd, POLLIN, 0}};
    int n = poll(fds, 3, ms);
    if (n < 0)
        return errno == EINTR;
    if (ch->in_fd >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP)))
        feed_input(ch);
    if (ch->out.fd >= 0 && (fds[1].revents & (POLLIN | POLLERR | POLLHUP)))
        drain(&ch->out);
    if (ch->err.fd >= 0 && (fds[2].revents & (POLLIN | POLLERR | POLLHUP)))
        drain(&ch->err);
    return true;
}

/* What an exited command wrote is all in the pipes already: read it without waiting for an
 * end of file that a leftover background process could hold back. */
static void drain_rest(Child *ch)
{
    size_t before;
    do {
        before = ch->out.buf.len + ch->err.buf.len;
        if (!pump_once(ch, 0))
            return;
    } while (ch->out.buf.len + ch->err.buf.len != before &&
             ch->out.buf.len + ch->err.buf.len <= EXT_PROCESS_MAX_OUTPUT);
}

/* Feeds stdin and collects stdout and stderr until both are closed or the command has exited.
 * Returns EXT_END_EXITED then, else why it stopped. */
static ExtEnd pump(Child *ch)
{
    while (ch->out.fd >= 0 || ch->err.fd >= 0) {
        double left = ch->deadline - now_seconds();
        if (left <= 0)
            return EXT_END_TIMEOUT;
        if (ch->out.buf.len + ch->err.buf.len > EXT_PROCESS_MAX_OUTPUT)
            return EXT_END_TOO_LONG;
        int ms = left > 0.1 ? 100 : (int)(left * 1000.0) + 1;
        if (!pump_once(ch, ms))
            return EXT_END_SPAWN;
        if (has_exited(ch)) {
            drain_rest(ch);
            break;
        }
    }
    return EXT_END_EXITED;
}

/* Waits until the command itself has exited, without reaping it (so its process group id
 * cannot be reused yet). False at the deadline. */
static bool await_exit(const Child *ch)
{
    while (!has_exited(ch)) {
        if (now_seconds() >= ch->deadline)
            return false;
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    return true;
}

static void finish(Child *ch, ExtEnd end, ExtProcessResult *res)
{
    if (end == EXT_END_EXITED && !await_exit(ch))
        end = EXT_END_TIMEOUT;
    kill(-ch->pid, SIGKILL);
    int st = 0;
    while (waitpid(ch->pid, &st, 0) < 0 && errno == EINTR)
        ;
    close_fd(&ch->in_fd);
    close_fd(&ch->out.fd);
    close_fd(&ch->err.fd);
    res->end = end;
    res->status = 0;
    if (end == EXT_END_EXITED && WIFSIGNALED(st)) {
        res->end = EXT_END_SIGNALED;
        res->status = WTERMSIG(st);
    } else if (end == EXT_END_EXITED) {
        res->status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
    }
    res->out = strbuf_str(&ch->out.buf);
    res->err = strbuf_str(&ch->err.buf);
}

void ext_process_kill(ExtChild *ch, int *wait_status)
{
    kill(-ch->pid, SIGKILL);
    int st = 0;
    while (waitpid(ch->pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (wait_status != NULL)
        *wait_status = st;
    close_fd(&ch->in_fd);
    close_fd(&ch->out_fd);
    close_fd(&ch->err_fd);
    ch->pid = 0;
}

void ext_process_run(const char *command, const char *input, double timeout, ExtProcessResult *res)
{
    Child ch;
    memset(&ch, 0, sizeof ch);
    strbuf_init(&ch.out.buf);
    strbuf_init(&ch.err.buf);
    ch.input = input;
    ch.input_left = strlen(input);
    ch.deadline = now_seconds() + timeout;
    res->end = EXT_END_SPAWN;
    res->status = 0;
    res->out = "";
    res->err = "";
    /* A command that stops reading its stdin must not kill the runner with SIGPIPE. */
    struct sigaction ignore, saved;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &saved);
    if (spawn(&ch, command))
        finish(&ch, pump(&ch), res);
    sigaction(SIGPIPE, &saved, NULL);
}

/* What a shell writes when the command it waits for dies of a signal ("Segmentation fault",
 * "Killed", "Aborted (core dumped)", "sh: line 1: 123 Segmentation fault ..."). */
static bool is_shell_signal_report(const char *line)
{
    static const char *const reports[] = {
        "Segmentation fault",       "Killed",    "Aborted", "Bus error",
        "Floating point exception", "Terminated"};
    for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
        const char *hit = strstr(line, reports[i]);
        if (hit == NULL)
            continue;
        const char *rest = hit + strlen(reports[i]);
        if (*rest == '\0' || strncmp(rest, " (core dumped)", 14) == 0 || hit == line ||
            strncmp(line, "sh: ", 4) == 0 || strncmp(line, "/bin/sh: ", 9) == 0)
            return true;
    }
    return false;
}

const char *ext_process_reason_line(const char *text)
{
    const char *line = ext_process_last_line(text);
    if (!is_shell_signal_report(line))
        return line;
    /* The adapter's own last words are the line before the shell's report. */
    size_t keep = strlen(text);
    const char *at = strstr(text, line);
    while (at != NULL) {
        keep = (size_t)(at - text);
        at = strstr(at + 1, line);
    }
    return ext_process_last_line(mem_strndup(text, keep));
}

const char *ext_process_last_line(const char *text)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    return mem_strndup(start, (size_t)(end - start));
}
