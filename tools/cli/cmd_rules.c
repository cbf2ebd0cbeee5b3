/* cmd_rules: `relax rules`, the rule index of SPEC_NOTES.md with how many corpus cases name
 * each rule and, from a --rules-fired file, how many fire it, positively and negatively; and
 * the ids cases name that the index lacks. SPEC_NOTES: "Rule ids". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/conform/rule_index.h"

const char CMD_RULES_USAGE[] =
    "usage: relax rules [--spec-notes FILE] [--uncovered] [--fired FILE [--rule ID]]\n"
    "                   [CORPUS_DIR]\n"
    "\n"
    "Lists every rule id of SPEC_NOTES.md's rule tables with the number of conformance cases\n"
    "that name it (CORPUS_DIR defaults to spec-tests; --spec-notes to SPEC_NOTES.md next to\n"
    "it). --uncovered lists only the ids no case names. Ids that cases name but the index\n"
    "lacks are listed last. Exit 1 when either list is not empty.\n"
    "\n"
    "--fired FILE reads what `relax conform --rules-fired FILE` wrote and adds, per rule, the\n"
    "cases that fire it, the positive ones (the case expects success), the negative ones\n"
    "(the case expects the program rejected) and, of those, the ones whose expected error is\n"
    "the rule's own, then lists the rules that fire for no positive or no negative case; exit\n"
    "1 when such a rule exists. Three kinds of rule are listed apart: the runner's judging\n"
    "rules (RESULT-*, TOL-*, SINFO-CMP-*: a program cannot break them, an implementation's\n"
    "answer can, and the runner's own tests judge that) need no negative case; the rules of\n"
    "how errors are reported (DIAG-*: only a rejected program fires them) need no positive\n"
    "case; the legacy chapter's contrasts (LEG-15 to LEG-20: the 2022 rules its cases set\n"
    "against today's, which the reference applies instead) fire for no case. --rule ID lists\n"
    "the cases that name, fire, and fire positively and negatively one rule.\n";

typedef struct RulesArgs {
    const char *notes;
    const char *corpus;
    const char *fired;
    const char *rule;
    bool uncovered;
} RulesArgs;

static int parse(int argc, char **argv, RulesArgs *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--uncovered") == 0)
            a->uncovered = true;
        else if (strcmp(argv[i], "--spec-notes") == 0 && i + 1 < argc)
            a->notes = argv[++i];
        else if (strcmp(argv[i], "--fired") == 0 && i + 1 < argc)
            a->fired = argv[++i];
        else if (strcmp(argv[i], "--rule") == 0 && i + 1 < argc)
            a->rule = argv[++i];
        else if (argv[i][0] == '-')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (a->corpus != NULL)
            return cli_usage_error(argv[0], "expected one CORPUS_DIR");
        else
            a->corpus = argv[i];
    }
    if (a->rule != NULL && a->fired == NULL)
        return cli_usage_error(argv[0], "--rule needs --fired FILE");
    if (a->corpus == NULL)
        a->corpus = "spec-tests";
    if (a->notes == NULL)
        a->notes = mem_printf("%s/../SPEC_NOTES.md", a->corpus);
    return 0;
}

static int report(const RuleIndex *ri, bool uncovered_only)
{
    int uncovered = 0;
    for (int i = 0; i < ri->n; i++) {
        if (ri->counts[i] == 0)
            uncovered++;
        if (!uncovered_only || ri->counts[i] == 0)
            printf("%-24s %d\n", ri->ids[i], ri->counts[i]);
    }
    for (int i = 0; i < ri->nunknown; i++)
        printf("not in SPEC_NOTES.md: %s\n", ri->unknown[i]);
    printf("rules: %d listed, %d named by no case, %d unknown ids named\n", ri->n, uncovered,
           ri->nunknown);
    return uncovered == 0 && ri->nunknown == 0 ? 0 : 1;
}

/* What a rule's cases can show: most rules fire for valid and for rejected programs; the
 * exceptions are listed apart (SPEC_NOTES 4.17, 1.4 DIAG-1, 1.8). */
typedef enum RuleKind {
    RULE_PROGRAM,  /* positive and negative cases fire it */
    RULE_JUDGING,  /* the runner's comparison of answers: no program breaks it */
    RULE_DIAG,     /* how errors are reported: only rejected programs fire it */
    RULE_CONTRAST, /* a 2022 rule the legacy chapter sets against today's: never applied */
} RuleKind;

static RuleKind rule_kind(const char *id)
{
    if (strncmp(id, "RESULT-", 7) == 0 || strncmp(id, "TOL-", 4) == 0 ||
        strncmp(id, "SINFO-CMP-", 10) == 0)
        return RULE_JUDGING;
    if (strncmp(id, "DIAG-", 5) == 0)
        return RULE_DIAG;
    int n = 0;
    if (sscanf(id, "LEG-%d", &n) == 1 && n >= 15 && n <= 20)
        return RULE_CONTRAST;
    return RULE_PROGRAM;
}

/* The rules short of `counts` (every rule of the kind when counts is NULL). */
static void list_ids(const char *title, const RuleIndex *ri, const int *counts, RuleKind kind)
{
    int n = 0;
    for (int i = 0; i < ri->n; i++)
        n += (counts == NULL || counts[i] == 0) && rule_kind(ri->ids[i]) == kind;
    printf("%s (%d):", title, n);
    for (int i = 0; i < ri->n; i++)
        if ((counts == NULL || counts[i] == 0) && rule_kind(ri->ids[i]) == kind)
            printf(" %s", ri->ids[i]);
    printf("\n");
}

/* Per rule: named, fired, positive, negative, own error; then the rules short of a side. */
static int report_fired(const RuleIndex *ri)
{
    printf("%-24s %6s %6s %8s %8s %5s\n", "rule", "named", "fired", "positive", "negative", "own");
    int both = 0, program_rules = 0, short_of_side = 0;
    for (int i = 0; i < ri->n; i++) {
        printf("%-24s %6d %6d %8d %8d %5d\n", ri->ids[i], ri->counts[i], ri->fired[i],
               ri->positive[i], ri->negative[i], ri->own[i]);
        RuleKind k = rule_kind(ri->ids[i]);
        short_of_side +=
            (k == RULE_JUDGING && ri->positive[i] == 0) || (k == RULE_DIAG && ri->negative[i] == 0);
        if (k != RULE_PROGRAM)
            continue;
        program_rules++;
        both += ri->positive[i] > 0 && ri->negative[i] > 0;
    }
    list_ids("fired for no case", ri, ri->fired, RULE_PROGRAM);
    list_ids("fired for no positive case", ri, ri->positive, RULE_PROGRAM);
    list_ids("fired for no negative case", ri, ri->negative, RULE_PROGRAM);
    list_ids("judging rules (need no negative case)", ri, NULL, RULE_JUDGING);
    list_ids("judging rules fired for no positive case", ri, ri->positive, RULE_JUDGING);
    list_ids("diagnostic rules (need no positive case)", ri, NULL, RULE_DIAG);
    list_ids("diagnostic rules fired for no negative case", ri, ri->negative, RULE_DIAG);
    list_ids("legacy contrasts (fire for no case)", ri, NULL, RULE_CONTRAST);
    printf("rules: %d listed, %d of the %d program rules fire for a positive and a negative "
           "case\n",
           ri->n, both, program_rules);
    return both == program_rules && short_of_side == 0 ? 0 : 1;
}

static void list_cases(const char *title, const FiredCase *cases, int n, const char *rule, int what)
{
    printf("%s:\n", title);
    for (int i = 0; i < n; i++) {
        const FiredCase *fc = &cases[i];
        bool fired = rule_index_list_has(fc->fired, fc->nfired, rule);
        bool pass = strcmp(fc->outcome, "PASS") == 0;
        bool show = what == 0   ? rule_index_list_has(fc->named, fc->nnamed, rule)
                    : what == 1 ? fired
                    : what == 2 ? fired && pass && fc->success
                                : fired && pass && fc->rejects;
        if (show)
            printf("  %s\n", fc->id);
    }
}

static int report_rule(const FiredCase *cases, int n, const char *rule)
{
    list_cases("named by", cases, n, rule, 0);
    list_cases("fired by", cases, n, rule, 1);
    list_cases("positive", cases, n, rule, 2);
    list_cases("negative", cases, n, rule, 3);
    return 0;
}

int cmd_rules(int argc, char **argv)
{
    RulesArgs a;
    int rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    RuleIndex *ri = rule_index_load(a.notes, &trap);
    rule_index_count_corpus(ri, a.corpus, &trap);
    if (a.fired == NULL)
        return report(ri, a.uncovered);
    int n = 0;
    FiredCase *cases = rule_index_read_fired(a.fired, &n, &trap);
    if (a.rule != NULL)
        return report_rule(cases, n, a.rule);
    rule_index_add_fired(ri, cases, n);
    return report_fired(ri);
}
