/* selection: which case files and which cases a `relax conform` run judges: paths (a file, a
 * directory searched recursively, or `FILE#id`), --filter and --tag. SPEC_NOTES: "The
 * conformance runner". */
#ifndef RELAX_TOOLS_SELECTION_H
#define RELAX_TOOLS_SELECTION_H

#include <stdbool.h>

#include "tools/conform/case_file.h"

typedef struct InputFile {
    const char *disk;
    const char *display; /* "spec-tests/..." when under a spec-tests directory */
    const char **ids;    /* `FILE#id` arguments: only these cases; none: every case */
    int nids;
    bool whole; /* also named without an id: every case */
} InputFile;

typedef struct Selection {
    const char *filter; /* substring of the global id, or NULL */
    const char **tags;  /* any of them; none: every case */
    int ntags, tags_cap;
    const char *root; /* the first spec-tests directory met, or NULL */
    InputFile *files;
    int nfiles, files_cap;
} Selection;

/* Collects and sorts the files the paths name; returns 0, or 3 when a path cannot be read
 * (reported on stderr). */
int selection_collect(Selection *s, const char *const *paths, int npaths);
/* Whether a case of `f` is selected. */
bool selection_selects(const Selection *s, const InputFile *f, const Case *c);
/* The `FILE#id` ids of `f` that name no case of the loaded file, or NULL: the first one. */
const char *selection_missing_id(const InputFile *f, const CaseFile *file);

#endif
