/* limits: the resource limits every command takes (--max-tensor-bytes, --max-heap), read
 * out of argv before the command sees it. SPEC_NOTES: "Resource limits". */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "values/tensor.h"

/* A byte count: digits, then an optional K, M or G (powers of 1024, also KiB, MiB, GiB).
 * False for anything else, zero, or more than INT64_MAX. */
static bool parse_bytes(const char *s, int64_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0)
        return false;
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M')
        shift = 20;
    else if (*end == 'G')
        shift = 30;
    if (shift != 0)
        end += strcmp(end + 1, "iB") == 0 ? 3 : 1;
    if (*end != '\0' || v == 0 || v > ((unsigned long long)INT64_MAX >> shift))
        return false;
    *out = (int64_t)(v << shift);
    return true;
}

/* The value of `--name=V` or `--name V` at argv[*i] (advancing *i past V), or NULL when
 * argv[*i] is another option. *missing is set when the value is absent. */
static const char *option(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return "";
    }
    return argv[++*i];
}

int cli_take_limit_options(int *argc, char **argv)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        bool missing = false;
        int64_t bytes;
        const char *v;
        if ((v = option(*argc, argv, &i, "--max-tensor-bytes", &missing)) != NULL) {
            if (missing || !parse_bytes(v, &bytes))
                return cli_usage_error(NULL,
                                       "--max-tensor-bytes expects a positive byte count "
                                       "(e.g. 1048576, 64M, 2G), got '%s'",
                                       v);
            tensor_set_max_bytes(bytes);
        } else if ((v = option(*argc, argv, &i, "--max-heap", &missing)) != NULL) {
            if (missing || !parse_bytes(v, &bytes) || (uint64_t)bytes < MEM_MIN_MAX_HEAP ||
                (uint64_t)bytes > SIZE_MAX)
                return cli_usage_error(NULL,
                                       "--max-heap expects a byte count of at least 64M "
                                       "(e.g. 512M, 8G), got '%s'",
                                       v);
            mem_set_max_heap((size_t)bytes);
        } else {
            argv[kept++] = argv[i];
        }
    }
    argv[kept] = NULL;
    *argc = kept;
    return 0;
}
