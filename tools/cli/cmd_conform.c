/* cmd_conform: `relax conform`: selects cases, judges them through the reference adapter or an
 * external one (in N workers), applies known failures, prints the outcome lines, the summary
 * and the reports. SPEC_NOTES: "Exit codes", "The conformance runner". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"
#include "tools/conform/adapter.h"
#include "tools/conform/adapter_ext.h"
#include "tools/conform/case_file.h"
#include "tools/conform/junit.h"
#include "tools/conform/known_failures.h"
#include "tools/conform/pool.h"
#include "tools/conform/report.h"
#include "tools/conform/rule_index.h"
#include "tools/conform/run_entry.h"
#include "tools/conform/runner.h"
#include "tools/conform/selection.h"

const char CMD_CONFORM_USAGE[] =
    "usage: relax conform [options] [PATH ...]\n"
    "\n"
    "Runs the conformance cases in PATH (a case file, FILE#id for one case, or a directory\n"
    "searched recursively for *.yaml; default: ./spec-tests) and prints one line per case\n"
    "that does not pass, then 'conformance: N passed, N failed, N skipped'.\n"
    "\n"
    "selection:\n"
    "  --filter SUBSTR         only cases whose id '<path>#<id>' contains SUBSTR\n"
    "  --tag TAG               only cases with this tag (repeatable: any of them)\n"
    "  --list                  print the selected cases' ids and stop\n"
    "running:\n"
    "  -j, --jobs N            judge cases in N worker processes (default 1)\n"
    "  --adapter 'COMMAND'     judge an external implementation (tools/adapters/README.md)\n"
    "  --adapter-protocol N    1: one COMMAND per request (default); 2: one persistent COMMAND\n"
    "  --adapter-timeout SECS  wall-clock limit per adapter request (default 60)\n"
    "  --timeout SECS          wall-clock limit of each run of the reference (a Timeout\n"
    "                          runtime error, LIMIT-time); default none\n"
    "  --dump-requests DIR     also write every adapter request into DIR\n"
    "  --max-failures N        stop after N failures; --fail-fast is --max-failures 1\n"
    "  --allow-skips           a run where every case is skipped is not an error\n"
    "  --strict                implementation-defined and undefined results must be the\n"
    "                          reference's own (RESULT-2, RESULT-3)\n"
    "  --known-failures FILE   the list of expected failures (default: known-failures.txt\n"
    "                          in the spec-tests directory)\n"
    "reports:\n"
    "  -v, --verbose           also print PASS and SKIP lines\n"
    "  --summary               print passed/failed/known/skipped per chapter and per tag\n"
    "  --junit FILE            write a JUnit XML report\n"
    "  --tap FILE              write a TAP 14 report\n"
    "  --jsonl FILE            write one JSON object per case (JSON Lines)\n"
    "  --scoreboard FILE       write the Markdown scoreboard (per chapter, per tag, failures)\n"
    "  --rules-fired FILE      write, per case, the rule ids the reference fired while\n"
    "                          judging it (JSON Lines; not with --adapter)\n"
    "\n"
    "exit: 0 no failures, 1 failures (or every case skipped), 2 usage or an empty selection,\n"
    "3 a path or file cannot be read or the adapter fails its preflight, 128+N stopped by\n"
    "signal N (after the summary and the reports)\n";

typedef struct Conform {
    bool verbose, list, summary, allow_skips;
    int jobs;
    int max_failures; /* 0: no limit */
    const char *junit, *tap, *jsonl, *scoreboard;
    const char *fired_path; /* --rules-fired */
    const char *fired;      /* the ids the case just judged fired (rule_fired_text) */
    StrBuf fired_lines;
    const char *known_path;
    const char *command; /* the command line, for the scoreboard */
    Selection sel;
    CaseFile **loaded;
    int nloaded, loaded_cap;
    const Case **cases;
    int ncases, cases_cap;
    ReportEntry *entries;
    int nentries, entries_cap;
    int npass, nfail, nskip, nknown;
    int kind_pass[3], kind_total[3]; /* by ResultKind (RESULT-1) */
    int not_run;
    unsigned missing;
    Adapter ad;
    KnownFailures *known;
} Conform;

static bool parse_count(const char *text, int *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > 4096)
        return false;
    *out = (int)v;
    return true;
}

static bool takes_value(const char *a)
{
    static const char *const with_value[] = {
        "--filter",     "--tag",        "--junit", "--tap",          "--jsonl",
        "--scoreboard", "-j",           "--jobs",  "--max-failures", "--known-failures",
        "--timeout",    "--rules-fired"};
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++) {
        if (strcmp(a, with_value[i]) == 0)
            return true;
    }
    return false;
}

/* An option with a value; returns 0 or the usage error's exit code. */
static int take_option(Conform *cf, const char *a, const char *v)
{
    if (strcmp(a, "--filter") == 0)
        cf->sel.filter = v;
    else if (strcmp(a, "--tag") == 0)
        VEC_PUSH(cf->sel.tags, cf->sel.ntags, cf->sel.tags_cap, v);
    else if (strcmp(a, "--junit") == 0)
        cf->junit = v;
    else if (strcmp(a, "--tap") == 0)
        cf->tap = v;
    else if (strcmp(a, "--jsonl") == 0)
        cf->jsonl = v;
    else if (strcmp(a, "--scoreboard") == 0)
        cf->scoreboard = v;
    else if (strcmp(a, "--rules-fired") == 0)
        cf->fired_path = v;
    else if (strcmp(a, "--known-failures") == 0)
        cf->known_path = v;
    else if (strcmp(a, "--timeout") == 0) {
        char *end;
        double t = strtod(v, &end);
        if (end == v || *end != '\0' || !(t > 0) || t > 1e9)
            return cli_usage_error("conform", "--timeout needs a positive number of seconds, "
                                              "got '%s'", v);
        run_entry_set_timeout(t);
    } else if (strcmp(a, "--max-failures") == 0 && !parse_count(v, &cf->max_failures))
        return cli_usage_error("conform", "--max-failures needs a positive count, got '%s'", v);
    else if ((strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) && !parse_count(v, &cf->jobs))
        return cli_usage_error("conform", "%s needs a positive count, got '%s'", a, v);
    return 0;
}

static bool take_flag(Conform *cf, const char *a)
{
    if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
        cf->verbose = true;
    else if (strcmp(a, "--list") == 0)
        cf->list = true;
    else if (strcmp(a, "--summary") == 0)
        cf->summary = true;
    else if (strcmp(a, "--allow-skips") == 0)
        cf->allow_skips = true;
    else if (strcmp(a, "--strict") == 0)
        runner_set_strict(true);
    else if (strcmp(a, "--fail-fast") == 0)
        cf->max_failures = 1;
    else
        return false;
    return true;
}

/* Returns 0, or the usage error's exit code. */
static int parse_options(Conform *cf, int argc, char **argv, const char ***paths, int *npaths)
{
    int cap = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (takes_value(a)) {
            if (i + 1 >= argc)
                return cli_usage_error("conform", "%s needs a value", a);
            int status = take_option(cf, a, argv[++i]);
            if (status != 0)
                return status;
        } else if (take_flag(cf, a)) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("conform", "unknown option '%s'", a);
        } else {
            VEC_PUSH(*paths, *npaths, cap, a);
        }
    }
    return 0;
}

/* The command line as one shell-quoted text. */
static const char *command_text(int argc, char **argv)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "relax");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool plain = a[0] != '\0' && a[strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
                                                 "TUVWXYZ0123456789-_./=#:,+")] == '\0';
        strbuf_addf(&sb, plain ? " %s" : " '%s'", a);
    }
    return strbuf_str(&sb);
}

static void add_entry(Conform *cf, const char *file, const Case *c, CaseResult r, double secs)
{
    ReportEntry e = {file, c ? c->id : NULL, r.outcome, r.reason, secs, c};
    VEC_PUSH(cf->entries, cf->nentries, cf->entries_cap, e);
}

/* Reads every file and selects its cases; a broken file is one failure of the run (its FAIL
 * line names the file, line and column) and the other files are still judged. */
static void load_files(Conform *cf)
{
    for (int i = 0; i < cf->sel.nfiles; i++) {
        const InputFile *f = &cf->sel.files[i];
        ErrorTrap trap;
        if (setjmp(trap.jmp) != 0) {
            CaseResult r = {OUTCOME_FAIL, error_format(&trap.error), 0};
            add_entry(cf, f->display, NULL, r, 0);
            cf->nfail++;
            printf("FAIL %s\n", r.reason);
            continue;
        }
        CaseFile *file = case_file_parse(f->display, source_read_file(f->disk, &trap), &trap);
        VEC_PUSH(cf->loaded, cf->nloaded, cf->loaded_cap, file);
        const char *missing = selection_missing_id(f, file);
        if (missing != NULL)
            fprintf(stderr, "%s#%s: no such case in the file\n", f->display, missing);
        for (int k = 0; k < file->ncases; k++) {
            if (selection_selects(&cf->sel, f, file->cases[k]))
                VEC_PUSH(cf->cases, cf->ncases, cf->cases_cap, file->cases[k]);
        }
    }
}

static void print_line(const Conform *cf, const char *gid, CaseResult r)
{
    switch (r.outcome) {
    case OUTCOME_PASS:
        if (cf->verbose)
            printf("PASS %s\n", gid);
        return;
    case OUTCOME_SKIP:
        if (cf->verbose)
            printf("SKIP %s: %s\n", gid, r.reason);
        return;
    case OUTCOME_KNOWN:
    case OUTCOME_EARLY:
    case OUTCOME_FAIL:
    case OUTCOME_WRONG_PHASE:
        printf("%s %s: %s\n", runner_outcome_name(r.outcome), gid, r.reason ? r.reason : "");
        return;
    }
}

static void count(Conform *cf, CaseResult r)
{
    switch (r.outcome) {
    case OUTCOME_PASS:
        cf->npass++;
        return;
    case OUTCOME_SKIP:
        cf->nskip++;
        cf->missing |= r.missing;
        return;
    case OUTCOME_KNOWN:
        cf->nknown++;
        return;
    case OUTCOME_EARLY: /* a failure, told apart in the reports */
    case OUTCOME_FAIL:
    case OUTCOME_WRONG_PHASE:
        cf->nfail++;
        return;
    }
}

/* With --rules-fired, the rules fired while the case is judged (and while its ast: form was
 * read) go with its result as the pool's note. */
static CaseResult judge(void *ctx, const Case *c)
{
    Conform *cf = ctx;
    if (cf->fired_path == NULL)
        return adapter_ext_run_case(&cf->ad, c);
    rule_record_start();
    rule_record_text(c->read_fired);
    CaseResult r = adapter_ext_run_case(&cf->ad, c);
    cf->fired = rule_fired_text();
    rule_record_stop();
    return r;
}

static const char *fired_note(void *ctx)
{
    return ((Conform *)ctx)->fired;
}

static void on_fired_note(void *ctx, int index, const char *note)
{
    (void)index;
    ((Conform *)ctx)->fired = note;
}

/* In case order, in the calling process: the known-failure ledger, the line, the counts. */
static bool on_result(void *ctx, int index, CaseResult r, double seconds)
{
    Conform *cf = ctx;
    const Case *c = cf->cases[index];
    r = known_failures_apply(cf->known, c->global_id, r);
    add_entry(cf, c->file, c, r, seconds);
    print_line(cf, c->global_id, r);
    count(cf, r);
    cf->kind_total[c->result]++;
    cf->kind_pass[c->result] += r.outcome == OUTCOME_PASS;
    if (cf->fired_path != NULL)
        strbuf_add(&cf->fired_lines,
                   rule_index_fired_line(c, runner_outcome_name(r.outcome), cf->fired));
    fflush(stdout);
    return cf->max_failures == 0 || cf->nfail < cf->max_failures;
}

static void worker_done(void *ctx)
{
    Conform *cf = ctx;
    adapter_ext_stop(&cf->ad);
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
        const char *disk = cf->sel.root ? mem_printf("%s/%s", cf->sel.root, rel) : file;
        const char *why = known_failures_stale(k, cf->loaded, cf->nloaded, source_exists(disk));
        if (why == NULL)
            continue;
        cf->nfail++;
        const char *reason = mem_printf("%s:%d: %s: %s (remove the line)", cf->known->path, k->line,
                                        k->global_id, why);
        CaseResult r = {OUTCOME_FAIL, reason, 0};
        add_entry(cf, cf->known->path, NULL, r, 0);
        printf("STALE %s\n", reason);
    }
}

/* --known-failures FILE, else known-failures.txt in the spec-tests directory if present. */
static const char *known_path(const Conform *cf)
{
    if (cf->known_path != NULL || cf->sel.root == NULL)
        return cf->known_path;
    const char *candidate = mem_printf("%s/known-failures.txt", cf->sel.root);
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

static void print_summary(const Conform *cf, const Report *rep)
{
    if (cf->summary)
        fputs(report_summary(rep), stdout);
    if (cf->not_run > 0)
        printf("stopped: %d selected cases not run (%s)\n", cf->not_run,
               pool_stop_signal() ? "interrupted by a signal" : "--max-failures reached");
    if (cf->nskip > 0)
        printf("skipped: needs phases %s (not provided by the implementation)\n",
               runner_missing_names(cf->missing));
    if (cf->nknown > 0)
        printf("known failures: %d (listed in %s)\n", cf->nknown, cf->known->path);
    if (cf->kind_total[RESULT_IMPL_DEFINED] + cf->kind_total[RESULT_UNDEFINED] > 0)
        printf("results: defined %d/%d, implementation-defined %d/%d, undefined %d/%d passed\n",
               cf->kind_pass[RESULT_DEFINED], cf->kind_total[RESULT_DEFINED],
               cf->kind_pass[RESULT_IMPL_DEFINED], cf->kind_total[RESULT_IMPL_DEFINED],
               cf->kind_pass[RESULT_UNDEFINED], cf->kind_total[RESULT_UNDEFINED]);
    printf("conformance: %d passed, %d failed, %d skipped\n", cf->npass, cf->nfail, cf->nskip);
    fflush(stdout);
}

static bool write_report(const char *path, const char *what, const char *text)
{
    if (path == NULL || report_write_file(path, text))
        return true;
    fprintf(stderr, "%s: io error [IoError]: cannot write the %s\n", path, what);
    return false;
}

/* Every report file asked for; false when one cannot be written. */
static bool write_reports(const Conform *cf, const Report *rep)
{
    bool ok = write_report(cf->junit, "JUnit report", junit_render(cf->entries, cf->nentries));
    ok = write_report(cf->tap, "TAP report", cf->tap ? report_tap(rep) : "") && ok;
    ok = write_report(cf->jsonl, "JSON Lines report", cf->jsonl ? report_jsonl(rep) : "") && ok;
    ok = write_report(cf->fired_path, "rules-fired report", strbuf_str(&cf->fired_lines)) && ok;
    return write_report(cf->scoreboard, "scoreboard",
                        cf->scoreboard ? report_scoreboard(rep) : "") &&
           ok;
}

static void judge_all(Conform *cf)
{
    PoolTask task = {cf->cases, cf->ncases,  cf->jobs,   cf,           judge,
                     on_result, worker_done, fired_note, on_fired_note};
    pool_catch_signals();
    int done = pool_run(&task);
    cf->not_run = cf->ncases - done;
    if (cf->not_run == 0)
        check_stale_known(cf);
}

/* The run's exit status, after the summary. */
static int finish(Conform *cf)
{
    Report rep = {cf->entries, cf->nentries, adapter_ext_describe(&cf->ad), cf->command,
                  cf->not_run};
    print_summary(cf, &rep);
    bool written = write_reports(cf, &rep);
    if (pool_stop_signal() != 0)
        return 128 + pool_stop_signal();
    if (!written)
        return error_exit_code(PHASE_IO);
    if (cf->nfail > 0)
        return 1;
    if (cf->npass + cf->nknown == 0 && cf->nskip > 0 && !cf->allow_skips) {
        fprintf(stderr, "relax conform: every selected case was skipped: nothing was judged "
                        "(--allow-skips accepts that)\n");
        return 1;
    }
    return 0;
}

/* Options, files and selection; returns 0 or the exit status. */
static int prepare(Conform *cf, int argc, char **argv, const AdapterExtOptions **ext)
{
    const char **paths = NULL;
    int npaths = 0;
    cf->command = command_text(argc, argv);
    cf->jobs = 1;
    int status = adapter_ext_take_options(&argc, argv, ext);
    if (status == 0)
        status = parse_options(cf, argc, argv, &paths, &npaths);
    if (status != 0)
        return status;
    if (npaths == 0) {
        paths = MEM_ARRAY(const char *, 1);
        paths[0] = source_default_corpus();
        npaths = 1;
    }
    status = selection_collect(&cf->sel, paths, npaths);
    if (status == 0 && cf->fired_path != NULL && *ext != NULL)
        status = cli_usage_error("conform", "--rules-fired records the reference's own rules: "
                                            "it does not go with --adapter");
    if (status == 0)
        status = load_known(cf);
    if (status != 0)
        return status;
    strbuf_init(&cf->fired_lines);
    if (cf->fired_path != NULL)
        rule_record_start(); /* an ast: form is read with its file */
    load_files(cf);
    rule_record_stop();
    if (cf->ncases == 0 && cf->nfail == 0) {
        fprintf(stderr, "relax conform: no case matches the selection (paths, --filter, --tag)\n");
        return error_exit_code(PHASE_USAGE);
    }
    return 0;
}

int cmd_conform(int argc, char **argv)
{
    Conform *cf = MEM_NEW(Conform);
    const AdapterExtOptions *ext = NULL;
    int status = prepare(cf, argc, argv, &ext);
    if (status != 0)
        return status;
    if (cf->list) {
        for (int i = 0; i < cf->ncases; i++)
            printf("%s\n", cf->cases[i]->global_id);
        return cf->nfail == 0 ? 0 : 1;
    }
    if (ext != NULL)
        adapter_ext_init(&cf->ad, ext);
    else
        adapter_ref_init(&cf->ad);
    const char *why = adapter_ext_preflight(&cf->ad);
    if (why != NULL) {
        fprintf(stderr, "relax conform: the adapter failed its preflight request, nothing was "
                        "judged: %s\n", why);
        return error_exit_code(PHASE_IO);
    }
    /* Workers start adapters of their own. */
    if (cf->jobs > 1)
        adapter_ext_stop(&cf->ad);
    judge_all(cf);
    adapter_ext_stop(&cf->ad);
    return finish(cf);
}
