/* main: the `relax` program; dispatches to subcommands.
 * SPEC_NOTES: "Exit codes". */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"

int main(int argc, char **argv)
{
    mem_init();
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        printf("usage: relax <command> [args]\n");
        return argc < 2 ? 2 : 0;
    }
    fprintf(stderr, "relax: usage error [UnknownCommand]: unknown command '%s'\n", argv[1]);
    return 2;
}
