/* source: reading files and resolving the program a command-line argument names.
 * SPEC_NOTES: "Exit codes". */
#include "tools/cli/source.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ast/astform/astform.h"
#include "ast/legacy/legacy.h"
#include "ast/mem.h"
#include "ast/text/py_parser.h"
#include "tools/cli/cli.h"
#include "tools/conform/case_file.h"

static char *read_stream(FILE *f, size_t *len)
{
    StrBuf sb;
    strbuf_init(&sb);
    char buf[8192];
    size_t n;
    *len = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        strbuf_addn(&sb, buf, n);
        *len += n;
    }
    return strbuf_str(&sb);
}

/* PY-1: a NUL byte starts no token. Text is handled as C strings, so a NUL would silently
 * end the input there: it is refused where it stands. SPEC_NOTES: "Resource limits". */
static void refuse_nul(const char *path, const char *text, size_t len, ErrorTrap *trap)
{
    const char *nul = memchr(text, '\0', len);
    if (nul == NULL)
        return;
    int line = 1, col = 1;
    for (const char *c = text; c < nul; c++, col++)
        if (*c == '\n') {
            line++;
            col = 0;
        }
    error_raise(trap, PHASE_PARSE, "BadToken", "PY-1", span_make(path, line, col),
                "a NUL byte (0x00) starts no token");
}

/* What was read from stdin, for the source lines of diagnostics about it. */
static const char *stdin_text;

char *source_read_file(const char *path, ErrorTrap *trap)
{
    size_t len;
    if (strcmp(path, "-") == 0) {
        char *text = read_stream(stdin, &len);
        stdin_text = text;
        refuse_nul("<stdin>", text, len, trap);
        return text;
    }
    if (source_is_dir(path))
        error_raise(trap, PHASE_IO, "IoError", NULL, span_make(path, 0, 0), "is a directory");
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        error_raise(trap, PHASE_IO, "IoError", NULL, span_make(path, 0, 0), "cannot read: %s",
                    strerror(errno));
    char *text = read_stream(f, &len);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed)
        error_raise(trap, PHASE_IO, "IoError", NULL, span_make(path, 0, 0), "read error");
    refuse_nul(path, text, len, trap);
    return text;
}

bool source_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool source_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

bool source_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* --syntax: how every program text of this command is read. */
static SyntaxMode syntax_mode = SYNTAX_AUTO;

void source_set_syntax(SyntaxMode mode)
{
    syntax_mode = mode;
}

SyntaxMode source_get_syntax(void)
{
    return syntax_mode;
}

static int take_mode(const char *cmd, const char *value)
{
    SyntaxMode mode;
    if (value == NULL)
        return cli_usage_error(cmd, "--syntax needs a value: legacy, current or auto");
    if (!legacy_syntax_mode_parse(value, &mode))
        return cli_usage_error(cmd, "--syntax expects legacy, current or auto, got '%s'", value);
    syntax_mode = mode;
    return 0;
}

int source_take_syntax_option(int *argc, char **argv)
{
    int k = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (strcmp(a, "--syntax") == 0)
            rc = take_mode(argv[0], ++i < *argc ? argv[i] : NULL);
        else if (strncmp(a, "--syntax=", 9) == 0)
            rc = take_mode(argv[0], a + 9);
        else
            argv[k++] = argv[i];
        if (rc != 0)
            return rc;
    }
    *argc = k;
    return 0;
}

/* After today's reader refused a program that --syntax current read: a note naming its
 * first legacy form, when it has one. */
static void note_legacy_forms(const char *name, const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return;
    PyBody top = py_parse_file(name, text, &trap);
    LegacyForm form;
    if (legacy_detect(&top, &form))
        fprintf(stderr,
                "relax: note: %s uses the legacy Relax syntax (%s at %d:%d); "
                "--syntax legacy or auto reads it\n",
                name, form.name, form.span.line, form.span.col);
}

/* LEG-1: the one-line notice that auto mode chose the legacy reader, on stderr so that what
 * a command prints on stdout stays as it is. */
IRModule *source_parse_text(const char *name, const char *text, ErrorTrap *trap)
{
    if (syntax_mode == SYNTAX_CURRENT) {
        ErrorTrap inner;
        if (setjmp(inner.jmp) != 0) {
            note_legacy_forms(name, text);
            Error e = inner.error;
            error_raise(trap, e.phase, e.code, e.rule, e.span, "%s", e.message);
        }
        return legacy_parse(name, text, SYNTAX_CURRENT, NULL, &inner);
    }
    LegacyForm form;
    IRModule *mod = legacy_parse(name, text, syntax_mode, &form, trap);
    if (syntax_mode == SYNTAX_AUTO && form.name != NULL)
        fprintf(stderr,
                "relax: note: %s is read as legacy Relax syntax (%s at %d:%d); "
                "--syntax legacy|current chooses the reader\n",
                name, form.name, form.span.line, form.span.col);
    return mod;
}

/* CASEFILE.yaml#case-id: the program of that case, text or ast. */
static IRModule *load_case_program(const char *arg, const char *hash, ErrorTrap *trap)
{
    char *path = mem_strndup(arg, (size_t)(hash - arg));
    CaseFile *cf = case_file_load(path, trap);
    Case *c = case_file_find(cf, hash + 1);
    if (c == NULL)
        error_raise(trap, PHASE_USAGE, "UnknownCase", NULL, span_make(path, 0, 0),
                    "no case with id '%s'", hash + 1);
    if (c->program != NULL)
        return source_parse_text(c->global_id, c->program, trap);
    if (c->ast_failed) {
        Error e = c->ast_error;
        error_raise(trap, e.phase, e.code, e.rule, e.span, "%s", e.message);
    }
    return c->ast;
}

IRModule *source_load_program(const char *arg, ErrorTrap *trap)
{
    const char *hash = strrchr(arg, '#');
    if (hash != NULL && hash > arg && !source_exists(arg))
        return load_case_program(arg, hash, trap);
    const char *name = strcmp(arg, "-") == 0 ? "<stdin>" : arg;
    char *text = source_read_file(arg, trap);
    if (source_has_suffix(arg, ".yaml") || source_has_suffix(arg, ".yml")) {
        if (strncmp(text, "format:", 7) == 0 || strstr(text, "\nformat:") != NULL)
            error_raise(trap, PHASE_USAGE, "UnknownCase", NULL, span_make(name, 0, 0),
                        "a case file: name one case as %s#<case-id>", arg);
        return astform_read_text(name, text, trap);
    }
    return source_parse_text(name, text, trap);
}

static const char *case_program_text(const char *file, const char *hash)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return NULL;
    CaseFile *cf = case_file_load(mem_strndup(file, (size_t)(hash - file)), &trap);
    Case *c = case_file_find(cf, hash + 1);
    return c != NULL ? c->program : NULL;
}

const char *source_text_of(const char *file)
{
    if (strcmp(file, "<stdin>") == 0)
        return stdin_text;
    const char *hash = strrchr(file, '#');
    if (hash != NULL && hash > file && !source_exists(file))
        return case_program_text(file, hash);
    FILE *f = source_is_dir(file) ? NULL : fopen(file, "rb");
    if (f == NULL)
        return NULL;
    size_t len;
    char *text = read_stream(f, &len);
    fclose(f);
    return text;
}

const char *source_default_corpus(void)
{
    if (source_is_dir("spec-tests"))
        return "spec-tests";
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return "spec-tests";
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash != NULL)
        *slash = '\0';
    const char *installed = mem_printf("%s/../share/relax-ref/spec-tests", exe);
    return source_is_dir(installed) ? installed : "spec-tests";
}
