/* diagnostics: how the CLI and the REPL print errors and warnings: the one-line form for
 * tools (--diagnostics=short), or the long form with the source line, a caret range and a
 * "did you mean" for people, colored on a terminal. SPEC_NOTES: "Error codes". */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"

/* Set once from the command line, before any command runs. */
static CliDiagForm diag_form = CLI_DIAG_AUTO;
static CliColor diag_color = CLI_COLOR_AUTO;

void cli_set_style(CliDiagForm form, CliColor color)
{
    diag_form = form;
    diag_color = color;
}

static int take_one(const char *a, CliDiagForm *form, CliColor *color)
{
    if (strcmp(a, "--diagnostics=short") == 0)
        *form = CLI_DIAG_SHORT;
    else if (strcmp(a, "--diagnostics=long") == 0)
        *form = CLI_DIAG_LONG;
    else if (strcmp(a, "--color=auto") == 0)
        *color = CLI_COLOR_AUTO;
    else if (strcmp(a, "--color=always") == 0)
        *color = CLI_COLOR_ALWAYS;
    else if (strcmp(a, "--color=never") == 0)
        *color = CLI_COLOR_NEVER;
    else if (strncmp(a, "--diagnostics", 13) == 0 || strncmp(a, "--color", 7) == 0)
        return cli_usage_error(NULL, "'%s': expected --diagnostics=short|long or "
                                     "--color=auto|always|never", a);
    else
        return -1;
    return 0;
}

int cli_take_style_options(int *argc, char **argv)
{
    CliDiagForm form = diag_form;
    CliColor color = diag_color;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        int rc = take_one(argv[i], &form, &color);
        if (rc > 0)
            return rc;
        if (rc < 0)
            argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    *argc = kept;
    cli_set_style(form, color);
    return 0;
}

static bool is_terminal(FILE *out)
{
    int fd = fileno(out);
    return fd >= 0 && isatty(fd);
}

static bool use_color(FILE *out)
{
    if (diag_color == CLI_COLOR_ALWAYS)
        return true;
    if (diag_color == CLI_COLOR_NEVER)
        return false;
    const char *no = getenv("NO_COLOR");
    return (no == NULL || no[0] == '\0') && is_terminal(out);
}

static bool use_long(FILE *out)
{
    if (diag_form != CLI_DIAG_AUTO)
        return diag_form == CLI_DIAG_LONG;
    return is_terminal(out);
}

char *cli_format_diag(FILE *out, const CliDiag *d)
{
    const Error *e = d->error;
    if (!use_long(out))
        return d->warning ? error_format_warning(e) : error_format(e);
    const char *source = d->source;
    if (source == NULL && e->span.file != NULL && e->span.line > 0)
        source = source_text_of(e->span.file);
    ErrorRender how = {d->warning, source, cli_hint(e, source, d->mod), use_color(out)};
    return error_render(e, &how);
}

void cli_print_diag(FILE *out, const CliDiag *d)
{
    fprintf(out, "%s\n", cli_format_diag(out, d));
}
