/* cli: what the subcommands share: usage errors and reporting an Error with its exit code.
 * SPEC_NOTES: "Exit codes". */
#include "tools/cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/suggest.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "relax: usage error [Usage]: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd != NULL)
        fprintf(stderr, "\n(run 'relax help %s')\n", cmd);
    else
        fprintf(stderr, "\n(run 'relax --help')\n");
    return error_exit_code(PHASE_USAGE);
}

int cli_report_error(const Error *e)
{
    return cli_report_error_in(e, NULL);
}

int cli_report_error_in(const Error *e, const IRModule *mod)
{
    CliDiag d = {e, false, NULL, mod};
    cli_print_diag(stderr, &d);
    return error_exit_code(e->phase);
}

int cli_unknown_option(const char *cmd, const char *opt, const char *const *known)
{
    NameList names = {0};
    for (int i = 0; known[i] != NULL; i++)
        names_add(&names, known[i]);
    size_t n = strcspn(opt, "=");
    const char *best = suggest_closest(mem_strndup(opt, n), &names);
    if (best == NULL)
        return cli_usage_error(cmd, "unknown option '%s'", opt);
    return cli_usage_error(cmd, "unknown option '%s' (did you mean '%s'?)", opt, best);
}

int cli_parse_flag_file(int argc, char **argv, const char *flag, bool *set, const char **file)
{
    *set = false;
    *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (flag != NULL && strcmp(a, flag) == 0)
            *set = true;
        else if (a[0] == '-' && a[1] != '\0') {
            const char *known[] = {flag, NULL};
            return cli_unknown_option(argv[0], a, known);
        } else if (*file != NULL)
            return cli_usage_error(argv[0], "expected one FILE");
        else
            *file = a;
    }
    if (*file == NULL)
        return cli_usage_error(argv[0], "missing FILE");
    return 0;
}

void cli_write_indented(FILE *out, const char *text, const char *pad)
{
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
        if (len > 0)
            fprintf(out, "%s%.*s\n", pad, (int)len, line);
        else
            fputc('\n', out);
        line += len + (nl != NULL);
    }
}
