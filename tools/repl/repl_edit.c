/* repl_edit: line editing for `relax repl` on a terminal, through libedit (BSD-licensed):
 * arrows and emacs keys, history kept across sessions in a file, Ctrl-R search, and tab
 * completion of commands and names. SPEC_NOTES: "Exit codes". */
#include <ctype.h>
#include <errno.h>
#include <histedit.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/repl/repl.h"

#define HISTORY_SIZE 1000

struct ReplEdit {
    EditLine *el;
    History *hist;
    HistEvent ev;
    const char *history_file; /* NULL: history for this session only */
    const char *prompt;
    FILE *out;
    ReplWordsFn words;
    void *ctx;
};

static char *prompt_of(EditLine *el)
{
    ReplEdit *ed;
    el_get(el, EL_CLIENTDATA, &ed);
    return (char *)ed->prompt;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':';
}

/* The longest prefix every match shares. */
static size_t common_length(const NameList *m)
{
    size_t n = strlen(m->items[0]);
    for (int i = 1; i < m->n; i++) {
        size_t k = 0;
        while (k < n && m->items[i][k] == m->items[0][k])
            k++;
        n = k;
    }
    return n;
}

static void list_matches(ReplEdit *ed, const NameList *m)
{
    fputc('\n', ed->out);
    for (int i = 0; i < m->n; i++)
        fprintf(ed->out, "%s%s", m->items[i], (i + 1) % 4 == 0 || i + 1 == m->n ? "\n" : "  ");
}

/* Tab: completes the word before the cursor as far as its matches agree; lists them when
 * they do not. A command is completed when the word starts the line with ':'. */
static unsigned char complete(EditLine *el, int ch)
{
    (void)ch;
    ReplEdit *ed;
    el_get(el, EL_CLIENTDATA, &ed);
    const LineInfo *li = el_line(el);
    const char *start = li->cursor;
    while (start > li->buffer && word_char(start[-1]))
        start--;
    size_t plen = (size_t)(li->cursor - start);
    const char *lead = li->buffer + strspn(li->buffer, " \t");
    NameList all = {0}, m = {0};
    ed->words(ed->ctx, start == lead && *start == ':', &all);
    for (int i = 0; i < all.n; i++)
        if (strncmp(all.items[i], start, plen) == 0)
            names_add(&m, all.items[i]);
    if (m.n == 0)
        return CC_REFRESH_BEEP;
    size_t common = common_length(&m);
    if (common > plen) {
        el_insertstr(el, mem_strndup(m.items[0] + plen, common - plen));
        if (m.n == 1 && *start == ':')
            el_insertstr(el, " ");
        return CC_REFRESH;
    }
    if (m.n == 1)
        return CC_REFRESH;
    list_matches(ed, &m);
    return CC_REDISPLAY;
}

static void load_history(ReplEdit *ed)
{
    const char *home = getenv("HOME");
    if (home == NULL || home[0] == '\0')
        return;
    ed->history_file = mem_printf("%s/.relax_history", home);
    history(ed->hist, &ed->ev, H_LOAD, ed->history_file);
}

ReplEdit *repl_edit_open(FILE *in, FILE *out, ReplWordsFn words, void *ctx)
{
    ReplEdit *ed = MEM_NEW(ReplEdit);
    memset(ed, 0, sizeof *ed);
    ed->out = out;
    ed->words = words;
    ed->ctx = ctx;
    ed->prompt = "";
    ed->el = el_init("relax", in, out, stderr);
    if (ed->el == NULL)
        return NULL;
    ed->hist = history_init();
    history(ed->hist, &ed->ev, H_SETSIZE, HISTORY_SIZE);
    history(ed->hist, &ed->ev, H_SETUNIQUE, 1);
    load_history(ed);
    el_set(ed->el, EL_CLIENTDATA, ed);
    el_set(ed->el, EL_EDITOR, "emacs");
    el_set(ed->el, EL_PROMPT, prompt_of);
    el_set(ed->el, EL_HIST, history, ed->hist);
    el_set(ed->el, EL_ADDFN, "relax-complete", "complete a command or name", complete);
    el_set(ed->el, EL_BIND, "^I", "relax-complete", NULL);
    el_set(ed->el, EL_BIND, "^R", "em-inc-search-prev", NULL);
    el_source(ed->el, NULL); /* the user's ~/.editrc, if any */
    return ed;
}

char *repl_edit_read(ReplEdit *ed, const char *prompt, bool *cancelled)
{
    *cancelled = false;
    ed->prompt = prompt;
    int count = 0;
    errno = 0;
    const char *got = el_gets(ed->el, &count);
    if (got == NULL && count < 0 && errno == EINTR) {
        /* Ctrl-C at the prompt: the line (and the block it was part of) is dropped. */
        *cancelled = true;
        el_reset(ed->el);
        fputc('\n', ed->out);
        return mem_strdup("");
    }
    if (got == NULL || count == 0)
        return NULL;
    size_t n = strcspn(got, "\n");
    char *line = mem_strndup(got, n);
    if (line[strspn(line, " \t")] != '\0') {
        history(ed->hist, &ed->ev, H_ENTER, line);
        if (ed->history_file != NULL)
            history(ed->hist, &ed->ev, H_SAVE, ed->history_file);
    }
    return line;
}

void repl_edit_close(ReplEdit *ed)
{
    if (ed == NULL)
        return;
    el_end(ed->el);
    history_end(ed->hist);
}
