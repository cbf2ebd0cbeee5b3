/* cmd_conform: `relax conform`: finds case files, runs every selected case through the
 * reference adapter, applies known failures, prints the outcome lines and the summary.
 * SPEC_NOTES: "Exit codes" and "Case file errors (phase case)". */
/* realpath is XSI. */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ast/mem.h"
#include "tools/conform/adapter.h"
#include "tools/conform/adapter_ext.h"
#include "tools/conform/case_file.h"
#include "tools/cli/cli.h"
#include "tools/conform/corpus.h"
#include "tools/conform/junit.h"
#include "tools/conform/known_failures.h"
#include "tools/conform/runner.h"
#include "tools/cli/source.h"

const char CMD_CONFORM_USAGE[] =
    "usage: relax conform [options] [PATH ...]\n"
    "\n"
    "Runs the conformance cases in PATH (directories are searched recursively for *.yaml;\n"
    "default: ./spec-tests) and prints one line per case that does not pass, then\n"
    "'conformance: N passed, N failed, N skipped'.\n"
    "\n"
    "options:\n"
    "  -v, --verbose           also print PASS and SKIP lines\n"
    "  --filter SUBSTR         only cases whose id '<path>#<id>' contains SUBSTR\n"
    "  --tag TAG               only cases with this tag (repeatable: any of them)\n"
    "  --junit FILE            also write a JUnit XML report to FILE\n"
    "  --known-failures FILE   the list of expected failures (default: known-failures.txt\n"
    "                          in the spec-tests directory)\n"
    "  --adapter 'COMMAND'     judge an external implementation, one COMMAND per request\n"
    "                          (protocol: tools/adapters/README.md)\n"
    "  --adapter-timeout SECS  wall-clock limit per adapter request (default 60)\n"
    "\n"
    "exit: 0 no failures, 1 failures, 2 usage, 3 a path or file cannot be read\n";

typedef struct InputFile {
    const char *disk;
    const char *display; /* "spec-tests/..." when under a spec-tests directory */
} InputFile;

typedef struct Conform {
    bool verbose;
    const char *filter;
    const char **tags;
    int ntags, tags_cap;
    const char *junit;
    const char *known_path;
    const char *root; /* the first spec-tests directory met, or NULL */
    InputFile *files;
    int nfiles, files_cap;
    CaseFile **loaded;
    int nloaded, loaded_cap;
    ReportEntry *entries;
    int nentries, entries_cap;
    int npass, nfail, nskip, nknown;
    unsigned missing;
    Adapter ad;
    KnownFailures *known;
} Conform;

/* Returns 0, or the usage error's exit code. */
static int parse_options(Conform *cf, int argc, char **argv, const char ***paths, int *npaths)
{
    int cap = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool takes_value = strcmp(a, "--filter") == 0 || strcmp(a, "--tag") == 0 ||
                           strcmp(a, "--junit") == 0 || strcmp(a, "--known-failures") == 0;
        if (takes_value && i + 1 >= argc)
            return cli_usage_error("conform", "%s needs a value", a);
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
            cf->verbose = true;
        else if (strcmp(a, "--filter") == 0)
            cf->filter = argv[++i];
        else if (strcmp(a, "--tag") == 0)
            VEC_PUSH(cf->tags, cf->ntags, cf->tags_cap, argv[++i]);
        else if (strcmp(a, "--junit") == 0)
            cf->junit = argv[++i];
        else if (strcmp(a, "--known-failures") == 0)
            cf->known_path = argv[++i];
        else if (a[0] == '-' && a[1] != '\0')
            return cli_usage_error("conform", "unknown option '%s'", a);
        else
            VEC_PUSH(*paths, *npaths, cap, a);
    }
    return 0;
}

/* The path from the nearest enclosing `spec-tests` directory on, so global ids read the same
 * from any working directory; *root gets that directory. */
static const char *display_path(const char *disk, const char **root)
{
    char buf[PATH_MAX];
    *root = NULL;
    if (realpath(disk, buf) == NULL)
        return disk;
    const char *name = "/spec-tests";
    size_t n = strlen(name);
    const char *best = NULL;
    for (const char *p = strstr(buf, name); p != NULL; p = strstr(p + 1, name)) {
        if (p[n] == '/' || p[n] == '\0')
            best = p;
    }
    if (best == NULL)
        return disk;
    *root = mem_strndup(buf, (size_t)(best - buf) + n);
    return best[n] == '\0' ? "spec-tests" : mem_strdup(best + 1);
}

static void add_file(Conform *cf, const char *disk)
{
    const char *root;
    InputFile f = {mem_strdup(disk), display_path(disk, &root)};
    if (cf->root == NULL)
        cf->root = root;
    VEC_PUSH(cf->files, cf->nfiles, cf->files_cap, f);
}

static int cmp_input(const void *a, const void *b)
{
    return strcmp(((const InputFile *)a)->display, ((const InputFile *)b)->display);
}

/* Collects and sorts the files; returns 0, or 3 when a path cannot be read. */
static int collect_files(Conform *cf, const char **paths, int npaths)
{
    int status = 0;
    for (int i = 0; i < npaths; i++) {
        if (!source_exists(paths[i])) {
            fprintf(stderr, "%s: io error [IoError]: no such file or directory\n", paths[i]);
            status = error_exit_code(PHASE_IO);
        } else if (source_is_dir(paths[i])) {
            const char *root;
            display_path(paths[i], &root);
            if (cf->root == NULL)
                cf->root = root;
            const char **found = NULL;
            int nfound = corpus_find_files(paths[i], &found, 0);
            for (int k = 0; k < nfound; k++)
                add_file(cf, found[k]);
        } else {
            add_file(cf, paths[i]);
        }
    }
    if (cf->nfiles > 1)
        qsort(cf->files, (size_t)cf->nfiles, sizeof *cf->files, cmp_input);
    int out = 0;
    for (int i = 0; i < cf->nfiles; i++) {
        if (out == 0 || strcmp(cf->files[out - 1].display, cf->files[i].display) != 0)
            cf->files[out++] = cf->files[i];
    }
    cf->nfiles = out;
    return status;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool selected(const Conform *cf, const Case *c)
{
    if (cf->filter != NULL && strstr(c->global_id, cf->filter) == NULL)
        return false;
    if (cf->ntags == 0)
        return true;
    for (int i = 0; i < cf->ntags; i++) {
        if (case_has_tag(c, cf->tags[i]))
            return true;
    }
    return false;
}

static void record(Conform *cf, const char *file, const char *id, CaseResult r, double secs)
{
    ReportEntry e = {file, id, r.outcome, r.reason, secs};
    VEC_PUSH(cf->entries, cf->nentries, cf->entries_cap, e);
    const char *gid = id ? mem_printf("%s#%s", file, id) : file;
    switch (r.outcome) {
    case OUTCOME_PASS:
        cf->npass++;
        if (cf->verbose)
            printf("PASS %s\n", gid);
        return;
    case OUTCOME_SKIP:
        cf->nskip++;
        cf->missing |= r.missing;
        if (cf->verbose)
            printf("SKIP %s: %s\n", gid, r.reason);
        return;
    case OUTCOME_KNOWN:
        cf->nknown++;
        break;
    case OUTCOME_FAIL:
    case OUTCOME_WRONG_PHASE:
        cf->nfail++;
        break;
    }
    printf("%s %s: %s\n", runner_outcome_name(r.outcome), gid, r.reason ? r.reason : "");
}

static void run_file(Conform *cf, const InputFile *f)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CaseResult r = {OUTCOME_FAIL, error_format(&trap.error), 0};
        ReportEntry e = {f->display, NULL, r.outcome, r.reason, 0};
        VEC_PUSH(cf->entries, cf->nentries, cf->entries_cap, e);
        cf->nfail++;
        printf("FAIL %s\n", r.reason);
        return;
    }
    CaseFile *file = case_file_parse(f->display, source_read_file(f->disk, &trap), &trap);
    VEC_PUSH(cf->loaded, cf->nloaded, cf->loaded_cap, file);
    for (int i = 0; i < file->ncases; i++) {
        const Case *c = file->cases[i];
        if (!selected(cf, c))
            continue;
        double start = now_seconds();
        CaseResult r = adapter_ext_run_case(&cf->ad, c);
        r = known_failures_apply(cf->known, c->global_id, r);
        record(cf, f->display, c->id, r, now_seconds() - start);
    }
}

/* Listed cases this run did not meet and that do not exist: each fails the run. */
static void check_stale_known(Conform *cf)
{
    for (int i = 0; i < cf->known->nitems; i++) {
        const KnownFailure *k = &cf->known->items[i];
        if (k->seen)
            continue;
        char *file = known_failures_file_of(k);
        const char *rel = strncmp(file, "spec-tests/", 11) == 0 ? file + 11 : file;
        const char *disk = cf->root ? mem_printf("%s/%s", cf->root, rel) : file;
        const char *why = known_failures_stale(k, cf->loaded, cf->nloaded, source_exists(disk));
        if (why == NULL)
            continue;
        cf->nfail++;
        printf("STALE %s:%d: %s: %s (remove the line)\n", cf->known->path, k->line, k->global_id,
               why);
    }
}

/* --known-failures FILE, else known-failures.txt in the spec-tests directory if present. */
static const char *known_path(const Conform *cf)
{
    if (cf->known_path != NULL || cf->root == NULL)
        return cf->known_path;
    const char *candidate = mem_printf("%s/known-failures.txt", cf->root);
    return source_exists(candidate) ? candidate : NULL;
}

static int load_known(Conform *cf)
{
    const char *path = known_path(cf);
    if (path == NULL) {
        cf->known = known_failures_new("known-failures.txt");
        return 0;
    }
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    cf->known = known_failures_load(path, &trap);
    /* Name the default list the way case ids name files, not by its absolute path. */
    if (cf->known_path == NULL)
        cf->known->path = "spec-tests/known-failures.txt";
    return 0;
}

static void print_summary(const Conform *cf)
{
    if (cf->nskip > 0)
        printf("skipped: needs phases %s (not provided by the implementation)\n",
               runner_missing_names(cf->missing));
    if (cf->nknown > 0)
        printf("known failures: %d (listed in %s)\n", cf->nknown, cf->known->path);
    printf("conformance: %d passed, %d failed, %d skipped\n", cf->npass, cf->nfail, cf->nskip);
}

int cmd_conform(int argc, char **argv)
{
    Conform *cf = MEM_NEW(Conform);
    const char **paths = NULL;
    int npaths = 0;
    const AdapterExtOptions *ext = NULL;
    int status = adapter_ext_take_options(&argc, argv, &ext);
    if (status == 0)
        status = parse_options(cf, argc, argv, &paths, &npaths);
    if (status != 0)
        return status;
    if (npaths == 0) {
        paths = MEM_ARRAY(const char *, 1);
        paths[0] = source_default_corpus();
        npaths = 1;
    }
    status = collect_files(cf, paths, npaths);
    if (status != 0)
        return status;
    status = load_known(cf);
    if (status != 0)
        return status;
    if (ext != NULL)
        adapter_ext_init(&cf->ad, ext);
    else
        adapter_ref_init(&cf->ad);
    for (int i = 0; i < cf->nfiles; i++)
        run_file(cf, &cf->files[i]);
    check_stale_known(cf);
    print_summary(cf);
    fflush(stdout);
    if (cf->junit != NULL && !junit_write(cf->junit, cf->entries, cf->nentries)) {
        fprintf(stderr, "%s: io error [IoError]: cannot write the JUnit report\n", cf->junit);
        return error_exit_code(PHASE_IO);
    }
    return cf->nfail == 0 ? 0 : 1;
}
