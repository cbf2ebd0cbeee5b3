/* repl_input: splitting what is typed, pasted or piped into `relax repl` into entries
 * (command lines and blocks of definitions, read the way Python's REPL reads them).
 * SPEC_NOTES: "Exit codes". */
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ast/mem.h"
#include "tools/repl/repl.h"

static const char PROMPT_FIRST[] = "relax> ";
static const char PROMPT_MORE[] = "....> ";

void repl_input_init(ReplInput *r, FILE *in, FILE *out)
{
    r->in = in;
    r->out = out;
    int fd = fileno(in);
    r->interactive = fd >= 0 && isatty(fd);
    r->pushed = NULL;
    r->edit = NULL;
    r->cancelled = false;
}

void repl_input_edit(ReplInput *r, ReplWordsFn words, void *ctx)
{
    int fd = fileno(r->out);
    if (r->interactive && fd >= 0 && isatty(fd))
        r->edit = repl_edit_open(r->in, r->out, words, ctx);
}

char *repl_input_read_line(FILE *in)
{
    char chunk[512];
    StrBuf sb;
    strbuf_init(&sb);
    bool any = false;
    while (fgets(chunk, sizeof chunk, in) != NULL) {
        any = true;
        size_t n = strlen(chunk);
        if (n > 0 && chunk[n - 1] == '\n') {
            strbuf_addn(&sb, chunk, n - 1);
            return strbuf_str(&sb);
        }
        strbuf_addn(&sb, chunk, n);
    }
    return any ? strbuf_str(&sb) : NULL;
}

/* Whether more input is already waiting. A terminal user who types a blank line means the
 * block to end; a paste or a pipe has its next line ready at once. */
static bool more_waiting(const ReplInput *r)
{
    if (!r->interactive)
        return true;
    struct pollfd p = {fileno(r->in), POLLIN, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

static char *next_line(ReplInput *r, const char *prompt)
{
    if (r->pushed != NULL) {
        char *line = r->pushed;
        r->pushed = NULL;
        return line;
    }
    if (r->edit != NULL) {
        bool cancelled;
        char *line = repl_edit_read(r->edit, prompt != NULL ? prompt : PROMPT_MORE, &cancelled);
        r->cancelled = r->cancelled || cancelled;
        return line;
    }
    /* No prompt for a line already waiting (pasted): it has been echoed already. */
    if (r->interactive && prompt != NULL && !more_waiting(r)) {
        fputs(prompt, r->out);
        fflush(r->out);
    }
    char *line = repl_input_read_line(r->in);
    size_t n = line != NULL ? strlen(line) : 0;
    if (n > 0 && line[n - 1] == '\r')
        line[n - 1] = '\0';
    return line;
}

static bool blank(const char *line)
{
    return line[strspn(line, " \t")] == '\0';
}

static bool comment(const char *line)
{
    return line[strspn(line, " \t")] == '#';
}

static bool indented(const char *line)
{
    return (line[0] == ' ' || line[0] == '\t') && !blank(line);
}

static bool command_line(const char *line)
{
    return line[strspn(line, " \t")] == ':';
}

/* After blank lines inside a block: true (the blank lines appended) when an indented line
 * follows at once, so the block goes on; else the line read ahead is given back. */
static bool block_goes_on(ReplInput *r, StrBuf *block, int nblank)
{
    char *line = NULL;
    while (more_waiting(r) && (line = next_line(r, NULL)) != NULL && blank(line))
        nblank++;
    if (line == NULL)
        return false;
    r->pushed = line;
    if (!indented(line))
        return false;
    for (int i = 0; i < nblank; i++)
        strbuf_addc(block, '\n');
    return true;
}

/* block -> line {line}: ends at a blank line, a command, or column 0 after an indented line */
static void read_block(ReplInput *r, StrBuf *block, const char *first)
{
    bool seen_indented = false;
    strbuf_add(block, first);
    strbuf_addc(block, '\n');
    for (;;) {
        char *line = next_line(r, PROMPT_MORE);
        if (line == NULL)
            return;
        if (blank(line)) {
            if (!block_goes_on(r, block, 1))
                return;
            continue;
        }
        if (command_line(line) || (seen_indented && !indented(line) && !comment(line))) {
            r->pushed = line;
            return;
        }
        seen_indented = seen_indented || indented(line);
        strbuf_add(block, line);
        strbuf_addc(block, '\n');
    }
}

/* entry -> command-line | block (after blank and comment lines) */
static bool read_entry(ReplInput *r, ReplEntry *e)
{
    char *line;
    do {
        line = next_line(r, PROMPT_FIRST);
        if (line == NULL)
            return false;
        if (r->cancelled)
            return true;
    } while (blank(line) || comment(line));
    if (command_line(line)) {
        e->text = line + strspn(line, " \t");
        e->command = true;
        return true;
    }
    StrBuf block;
    strbuf_init(&block);
    read_block(r, &block, line);
    e->text = strbuf_str(&block);
    e->command = false;
    return true;
}

bool repl_input_entry(ReplInput *r, ReplEntry *e)
{
    for (;;) {
        r->cancelled = false;
        if (!read_entry(r, e))
            return false;
        if (!r->cancelled)
            return true;
    }
}
