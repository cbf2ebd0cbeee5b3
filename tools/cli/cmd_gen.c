/* cmd_gen: `relax gen`, random valid programs with their arguments: printed as a case file
 * for an adapter to be judged against the reference, or checked in the reference itself
 * (GEN-1..GEN-4). SPEC_NOTES: "Generated programs". */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/progen/differential.h"
#include "tools/progen/progen.h"
#include "values/render.h"

const char CMD_GEN_USAGE[] =
    "usage: relax gen [--seed N] [--size S] [--count K] [--without LIST] [--check | --text]\n"
    "                 [--out FILE]\n"
    "\n"
    "Generates random Relax programs that are well-formed and StructInfo-valid by\n"
    "construction (dataflow blocks, MatchCast with fresh and bound shape variables, if,\n"
    "closures, tuples, calls between module functions, operators on symbolic shapes), each\n"
    "with arguments for its entry function main. The same seed and size give the same\n"
    "program on every machine.\n"
    "\n"
    "  --seed N    the first program's seed (default 1); program i uses seed N + i\n"
    "  --size S    how many segments main may have, 1 to 50 (default 8)\n"
    "  --count K   how many programs (default 1)\n"
    "  --without LIST  constructs the programs leave out, comma-separated: dataflow, if,\n"
    "              closure, call, match-cast, tuple (for an implementation that lacks one)\n"
    "  --check     do not print the programs: check each in the reference (it parses and\n"
    "              checks, GEN-1; it runs, GEN-2; printing and reparsing it, GEN-3, and\n"
    "              normalizing it, GEN-4, keep the printed fixpoint and the result bit for\n"
    "              bit), print a summary and every failure, exit 1 on any failure\n"
    "  --text      print the programs as TVMScript, each followed by its arguments as\n"
    "              comments (one --arg value a line)\n"
    "  --out FILE  write to FILE instead of standard output\n"
    "\n"
    "Without --check or --text, writes a conformance case file (CASE_FORMAT version 1), one\n"
    "case per program, whose expected value is the reference's result: a differential\n"
    "case, tagged 'generated' and 'differential', that judges another implementation\n"
    "against the reference (relax gen --count 100 --out gen.yaml; relax conform --adapter\n"
    "CMD gen.yaml). It is not a statement of the spec; cases for the corpus are written\n"
    "from the spec.\n"
    "Exit codes: 0 ok, 1 a check failed (or the reference failed on a program), 2 usage,\n"
    "3 the output file cannot be written.\n";

typedef struct GenArgs {
    unsigned long long seed;
    int size;
    long count;
    int features;
    bool check;
    bool text;
    const char *out;
} GenArgs;

static bool parse_number(const char *text, unsigned long long max, unsigned long long *out)
{
    if (text == NULL || *text == '\0' || *text == '-')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v > max)
        return false;
    *out = v;
    return true;
}

static int parse_args(int argc, char **argv, GenArgs *a)
{
    *a = (GenArgs){1, 8, 1, GEN_ALL, false, false, NULL};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n = 0;
        if (strcmp(opt, "--check") == 0) {
            a->check = true;
        } else if (strcmp(opt, "--text") == 0) {
            a->text = true;
        } else if (strcmp(opt, "--seed") == 0) {
            if (!parse_number(val, ~0ULL / 2, &n))
                return cli_usage_error("gen", "--seed needs a non-negative integer");
            a->seed = n;
            i++;
        } else if (strcmp(opt, "--size") == 0) {
            if (!parse_number(val, 50, &n) || n < 1)
                return cli_usage_error("gen", "--size needs an integer from 1 to 50");
            a->size = (int)n;
            i++;
        } else if (strcmp(opt, "--count") == 0) {
            if (!parse_number(val, 1000000, &n) || n < 1)
                return cli_usage_error("gen", "--count needs an integer from 1 to 1000000");
            a->count = (long)n;
            i++;
        } else if (strcmp(opt, "--without") == 0) {
            if (val == NULL)
                return cli_usage_error("gen", "--without needs a list of constructs");
            char *list = mem_strdup(val);
            for (char *tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
                int flag = progen_feature(tok);
                if (flag == 0)
                    return cli_usage_error("gen",
                                           "--without: unknown construct '%s' (dataflow, "
                                           "if, closure, call, match-cast, tuple)",
                                           tok);
                a->features &= ~flag;
            }
            i++;
        } else if (strcmp(opt, "--out") == 0) {
            if (val == NULL)
                return cli_usage_error("gen", "--out needs a file name");
            a->out = val;
            i++;
        } else {
            return cli_usage_error("gen", "unknown option '%s'", opt);
        }
    }
    if (a->check && a->text)
        return cli_usage_error("gen", "--check and --text exclude each other");
    return 0;
}

/* One differential case; false when the reference fails on the program. */
static bool write_case(FILE *out, const GenProgram *p)
{
    DiffResult r = differential_check(p);
    if (!r.ok) {
        fprintf(stderr, "relax gen: seed %llu: %s [%s]\n", (unsigned long long)p->seed, r.why,
                r.rule);
        return false;
    }
    fprintf(out, "\n  - id: gen-%llu-size-%d\n", (unsigned long long)p->seed, p->size);
    fprintf(out,
            "    description: Generated program (relax gen --seed %llu --size %d); the "
            "expected value is the reference's result.\n",
            (unsigned long long)p->seed, p->size);
    fprintf(out, "    spec: [GEN-2]\n    tags: [generated, differential]\n");
    fprintf(out, "    program: |\n");
    cli_write_indented(out, p->text, "      ");
    fprintf(out, "    run:\n      args:\n");
    for (int i = 0; i < p->nargs; i++)
        fprintf(out, "        - %s\n", p->args[i]);
    fprintf(out, "    expect:\n      value: %s\n", render_value_case(r.result));
    return true;
}

static int run_check(FILE *out, const GenArgs *a)
{
    long failed = 0;
    long totals[7] = {0};
    for (long i = 0; i < a->count; i++) {
        GenProgram *p = progen_program(a->seed + (unsigned long long)i, a->size, a->features);
        int counts[7] = {p->n_dataflow,   p->n_if,    p->n_closure, p->n_call,
                         p->n_match_cast, p->n_tuple, p->n_ops};
        for (int k = 0; k < 7; k++)
            totals[k] += counts[k];
        DiffResult r = differential_check(p);
        if (!r.ok) {
            failed++;
            fprintf(out, "seed %llu: %s: %s\n", (unsigned long long)p->seed, r.rule, r.why);
        }
    }
    fprintf(out,
            "gen: %ld programs (seeds %llu..%llu, size %d), %ld passed the differential checks, "
            "%ld failed\n",
            a->count, a->seed, a->seed + (unsigned long long)a->count - 1, a->size,
            a->count - failed, failed);
    fprintf(out,
            "gen: they hold %ld dataflow blocks, %ld ifs, %ld closures, %ld calls, %ld "
            "MatchCasts, %ld tuples, %ld operator bindings\n",
            totals[0], totals[1], totals[2], totals[3], totals[4], totals[5], totals[6]);
    return failed == 0 ? 0 : 1;
}

int cmd_gen(int argc, char **argv)
{
    GenArgs a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    FILE *out = stdout;
    if (a.out != NULL && (out = fopen(a.out, "w")) == NULL) {
        fprintf(stderr, "relax gen: cannot write %s: %s\n", a.out, strerror(errno));
        return 3;
    }
    if (a.check) {
        rc = run_check(out, &a);
    } else if (a.text) {
        for (long i = 0; i < a.count; i++) {
            GenProgram *p = progen_program(a.seed + (unsigned long long)i, a.size, a.features);
            fprintf(out, "%s# relax gen --seed %llu --size %d\n", i > 0 ? "\n" : "",
                    (unsigned long long)p->seed, p->size);
            fputs(p->text, out);
            for (int k = 0; k < p->nargs; k++)
                fprintf(out, "# --arg '%s'\n", p->args[k]);
        }
    } else {
        fprintf(out,
                "# Generated by relax gen --seed %llu --size %d --count %ld: differential "
                "cases whose\n# expected values are the reference's results.\n",
                a.seed, a.size, a.count);
        fprintf(out, "format: 1\nspec: [GEN-2]\ntags: [generated, differential]\ncases:\n");
        for (long i = 0; i < a.count; i++)
            if (!write_case(out,
                            progen_program(a.seed + (unsigned long long)i, a.size, a.features)))
                rc = 1;
    }
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "relax gen: cannot write %s\n", a.out);
        return 3;
    }
    return rc;
}
