/* man: relax(1), the manual page, written from the same table and usage texts as
 * `relax help`, so the two never disagree. SPEC_NOTES: "Exit codes". */
#include <stdio.h>
#include <string.h>

#include "tools/cli/cli.h"

/* One line of text with roff's special characters escaped. */
static void roff_line(FILE *out, const char *s, size_t n)
{
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-')
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
    fputc('\n', out);
}

/* A usage text as preformatted lines, so its columns stay as `relax help` shows them. */
static void roff_block(FILE *out, const char *text)
{
    fputs(".nf\n", out);
    while (*text != '\0') {
        size_t n = strcspn(text, "\n");
        roff_line(out, text, n);
        text += n + (text[n] == '\n');
    }
    fputs(".fi\n", out);
}

void cli_write_man(FILE *out, const CliCommand *cmds, int n)
{
    fprintf(out, ".TH RELAX 1 \"\" \"relax %s\" \"User Commands\"\n", RELAX_VERSION);
    fputs(".SH NAME\nrelax \\- Relax reference interpreter and conformance runner\n", out);
    fputs(".SH SYNOPSIS\n.B relax\n.I command\n[\n.I args\n]\n", out);
    fputs(".SH DESCRIPTION\n", out);
    roff_line(out, "Each command below is also described by 'relax help COMMAND'.", 61);
    fputs("Diagnostics: --diagnostics=short|long, --color=auto|always|never (and NO_COLOR)\n"
          "are accepted by every command, and so are the limits --max-tensor-bytes N (the\n"
          "largest tensor, default 2G) and --max-heap N (the whole heap, default 4G, at least\n"
          "64M); N is a byte count, with K, M or G for powers of 1024.\n",
          out);
    fputs(".SH COMMANDS\n", out);
    for (int i = 0; i < n; i++) {
        fprintf(out, ".SS %s\n", cmds[i].name);
        roff_line(out, cmds[i].summary, strlen(cmds[i].summary));
        fputs(".PP\n", out);
        roff_block(out, cmds[i].usage);
    }
    fputs(".SH EXIT STATUS\n0 ok, 1 conformance failures, 2 usage, 3 i/o or case file, "
          "4 parse, 5 wellformed, 6 struct_info, 7 runtime.\n",
          out);
    fputs(".SH FILES\n~/.relax_history: the history of relax repl.\n"
          "PREFIX/share/relax\\-ref/spec\\-tests: the conformance corpus.\n",
          out);
}
