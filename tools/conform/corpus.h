/* corpus: finding the case files of a corpus directory (recursively, *.yaml, sorted), for the
 * runner and for the tests that walk spec-tests/. SPEC_NOTES: none (file layout). */
#ifndef RELAX_TOOLS_CORPUS_H
#define RELAX_TOOLS_CORPUS_H

/* Appends the paths ("<dir>/<sub>/<name>.yaml") under `dir` to *paths, sorted; hidden entries
 * are skipped. Returns the new count. */
int corpus_find_files(const char *dir, const char ***paths, int npaths);

#endif
