/* cmd_rules: `relax rules`, the rule index of SPEC_NOTES.md with how many corpus cases name
 * each rule, and the ids cases name that the index lacks. SPEC_NOTES: "Rule ids". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/conform/rule_index.h"

const char CMD_RULES_USAGE[] =
    "usage: relax rules [--spec-notes FILE] [--uncovered] [CORPUS_DIR]\n"
    "\n"
    "Lists every rule id of SPEC_NOTES.md's rule tables with the number of conformance cases\n"
    "that name it (CORPUS_DIR defaults to spec-tests; --spec-notes to SPEC_NOTES.md next to\n"
    "it). --uncovered lists only the ids no case names. Ids that cases name but the index\n"
    "lacks are listed last. Exit 1 when either list is not empty.\n";

typedef struct RulesArgs {
    const char *notes;
    const char *corpus;
    bool uncovered;
} RulesArgs;

static int parse(int argc, char **argv, RulesArgs *a)
{
    a->notes = NULL;
    a->corpus = NULL;
    a->uncovered = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--uncovered") == 0)
            a->uncovered = true;
        else if (strcmp(argv[i], "--spec-notes") == 0 && i + 1 < argc)
            a->notes = argv[++i];
        else if (argv[i][0] == '-')
            return cli_usage_error(argv[0], "unknown option '%s'", argv[i]);
        else if (a->corpus != NULL)
            return cli_usage_error(argv[0], "expected one CORPUS_DIR");
        else
            a->corpus = argv[i];
    }
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
    return report(ri, a.uncovered);
}
