/* selection: which case files and which cases a `relax conform` run judges: paths (a file, a
 * directory searched recursively, or `FILE#id`), --filter and --tag. SPEC_NOTES: "The
 * conformance runner". */
/* realpath is XSI. */
#define _XOPEN_SOURCE 700

#include "tools/conform/selection.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/cli/source.h"
#include "tools/conform/corpus.h"

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

static void add_file(Selection *s, const char *disk, const char *id)
{
    const char *root;
    InputFile f;
    memset(&f, 0, sizeof f);
    f.disk = mem_strdup(disk);
    f.display = display_path(disk, &root);
    f.whole = id == NULL;
    int cap = 0;
    if (id != NULL)
        VEC_PUSH(f.ids, f.nids, cap, id);
    if (s->root == NULL)
        s->root = root;
    VEC_PUSH(s->files, s->nfiles, s->files_cap, f);
}

static int cmp_input(const void *a, const void *b)
{
    return strcmp(((const InputFile *)a)->display, ((const InputFile *)b)->display);
}

/* One file named twice (two `FILE#id`, or a directory and the file) is judged once. */
static void merge_duplicates(Selection *s)
{
    if (s->nfiles > 1)
        qsort(s->files, (size_t)s->nfiles, sizeof *s->files, cmp_input);
    int out = 0;
    for (int i = 0; i < s->nfiles; i++) {
        InputFile *f = &s->files[i];
        InputFile *prev = out > 0 ? &s->files[out - 1] : NULL;
        if (prev == NULL || strcmp(prev->display, f->display) != 0) {
            s->files[out++] = *f;
            continue;
        }
        prev->whole = prev->whole || f->whole;
        int cap = prev->nids;
        for (int k = 0; k < f->nids; k++)
            VEC_PUSH(prev->ids, prev->nids, cap, f->ids[k]);
    }
    s->nfiles = out;
}

/* `FILE#id`: the file and the id, when FILE exists and the whole argument does not. */
static const char *split_id(const char *path, const char **file)
{
    const char *hash = strrchr(path, '#');
    *file = path;
    if (hash == NULL || source_exists(path))
        return NULL;
    const char *f = mem_strndup(path, (size_t)(hash - path));
    if (!source_exists(f) || source_is_dir(f) || hash[1] == '\0')
        return NULL;
    *file = f;
    return mem_strdup(hash + 1);
}

static void add_dir(Selection *s, const char *dir)
{
    const char *root;
    display_path(dir, &root);
    if (s->root == NULL)
        s->root = root;
    const char **found = NULL;
    int nfound = corpus_find_files(dir, &found, 0);
    for (int k = 0; k < nfound; k++)
        add_file(s, found[k], NULL);
}

int selection_collect(Selection *s, const char *const *paths, int npaths)
{
    int status = 0;
    for (int i = 0; i < npaths; i++) {
        const char *file;
        const char *id = split_id(paths[i], &file);
        if (!source_exists(file)) {
            fprintf(stderr, "%s: io error [IoError]: no such file or directory\n", paths[i]);
            status = error_exit_code(PHASE_IO);
        } else if (source_is_dir(file)) {
            add_dir(s, file);
        } else {
            add_file(s, file, id);
        }
    }
    merge_duplicates(s);
    return status;
}

bool selection_selects(const Selection *s, const InputFile *f, const Case *c)
{
    if (s->filter != NULL && strstr(c->global_id, s->filter) == NULL)
        return false;
    if (!f->whole) {
        bool named = false;
        for (int i = 0; i < f->nids && !named; i++)
            named = strcmp(f->ids[i], c->id) == 0;
        if (!named)
            return false;
    }
    if (s->ntags == 0)
        return true;
    for (int i = 0; i < s->ntags; i++) {
        if (case_has_tag(c, s->tags[i]))
            return true;
    }
    return false;
}

const char *selection_missing_id(const InputFile *f, const CaseFile *file)
{
    for (int i = 0; i < f->nids; i++) {
        if (case_file_find(file, f->ids[i]) == NULL)
            return f->ids[i];
    }
    return NULL;
}
