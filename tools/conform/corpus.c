/* corpus: the case files of a corpus directory, found recursively and sorted so every run
 * meets them in the same order. SPEC_NOTES: none (file layout). */
#include "tools/conform/corpus.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/source.h"

typedef struct PathList {
    const char **items;
    int len;
    int cap;
} PathList;

static void walk(const char *dir, PathList *out)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        char *path = mem_printf("%s/%s", dir, ent->d_name);
        if (source_is_dir(path))
            walk(path, out);
        else if (source_has_suffix(ent->d_name, ".yaml"))
            VEC_PUSH(out->items, out->len, out->cap, path);
    }
    closedir(d);
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int corpus_find_files(const char *dir, const char ***paths, int npaths)
{
    PathList found = {NULL, 0, 0};
    walk(dir, &found);
    if (found.len > 1)
        qsort(found.items, (size_t)found.len, sizeof *found.items, cmp_path);
    int cap = npaths;
    for (int i = 0; i < found.len; i++)
        VEC_PUSH(*paths, npaths, cap, found.items[i]);
    return npaths;
}
