/* main: the `relax` program; dispatches to subcommands through one table.
 * SPEC_NOTES: "Exit codes". */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/cli/suggest.h"

static int cmd_help(int argc, char **argv);

static const char CMD_HELP_USAGE[] = "usage: relax help [COMMAND | --man]\n"
                                     "\n"
                                     "Describes COMMAND, or lists the commands. With --man,\n"
                                     "writes this manual as the roff page relax(1).\n";

/* Later commands (check, normalize, repl) are added here. */
static const CliCommand COMMANDS[] = {
    {"print", "print a program in canonical TVMScript (or the ast: form)", CMD_PRINT_USAGE,
     cmd_print},
    {"parse", "check that a program parses", CMD_PARSE_USAGE, cmd_parse},
    {"check", "check a program statically (well-formedness, StructInfo)", CMD_CHECK_USAGE,
     cmd_check},
    {"run", "call a program's entry function and print its result", CMD_RUN_USAGE, cmd_run},
    {"normalize", "print a program in normal form", CMD_NORMALIZE_USAGE, cmd_normalize},
    {"explain", "each binding's derived StructInfo and the rule that derived it", CMD_EXPLAIN_USAGE,
     cmd_explain},
    {"conform", "run the conformance corpus", CMD_CONFORM_USAGE, cmd_conform},
    {"repl", "explore a program interactively", CMD_REPL_USAGE, cmd_repl},
    {"ops", "list the operators, or their status table", CMD_OPS_USAGE, cmd_ops},
    {"rules", "list the spec's rule ids and the cases that pin each", CMD_RULES_USAGE, cmd_rules},
    {"gen", "random valid programs with arguments, or their differential checks", CMD_GEN_USAGE,
     cmd_gen},
    {"reduce", "shrink a program while the reference reports an error or an adapter disagrees",
     CMD_REDUCE_USAGE, cmd_reduce},
    {"adapter-serve", "answer one conformance adapter request (protocol 1) on stdin",
     CMD_ADAPTER_SERVE_USAGE, cmd_adapter_serve},
    {"help", "describe a command", CMD_HELP_USAGE, cmd_help},
};

#define NCOMMANDS ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static const CliCommand *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    }
    return NULL;
}

static int unknown_command(const char *name)
{
    NameList names = {0};
    for (int i = 0; i < NCOMMANDS; i++)
        names_add(&names, COMMANDS[i].name);
    const char *best = suggest_closest(name, &names);
    if (best != NULL)
        return cli_usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", name, best);
    return cli_usage_error(NULL, "unknown command '%s'", name);
}

static void print_overview(FILE *out)
{
    fprintf(out, "usage: relax <command> [args]\n"
                 "       relax --help | --version\n"
                 "\n"
                 "Relax reference interpreter and conformance runner.\n"
                 "\n"
                 "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-14s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\nRun 'relax help COMMAND' for a command's options. Every command also takes\n"
                 "--diagnostics=short|long, --color=auto|always|never, --max-tensor-bytes N\n"
                 "(default 2G) and --max-heap N (default 4G; N in bytes, or with K, M, G).\n"
                 "exit codes: 0 ok, 1 conformance failures, 2 usage, 3 i/o or case file, "
                 "4 parse, 5 wellformed, 6 struct_info, 7 runtime\n");
}

static int cmd_help(int argc, char **argv)
{
    if (argc == 1) {
        print_overview(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--man") == 0) {
        cli_write_man(stdout, COMMANDS, NCOMMANDS);
        return 0;
    }
    if (argc > 2)
        return cli_usage_error("help", "expected one command name");
    const CliCommand *cmd = find_command(argv[1]);
    if (cmd == NULL)
        return cli_usage_error("help", "unknown command '%s'", argv[1]);
    fputs(cmd->usage, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    mem_init();
    if (argc < 2)
        return cli_usage_error(NULL, "missing command");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_overview(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("relax %s\n", RELAX_VERSION);
        return 0;
    }
    const CliCommand *cmd = find_command(argv[1]);
    if (cmd == NULL)
        return unknown_command(argv[1]);
    int rc = cli_take_style_options(&argc, argv);
    if (rc == 0)
        rc = cli_take_limit_options(&argc, argv);
    if (rc != 0)
        return rc;
    return cmd->run(argc - 1, argv + 1);
}
