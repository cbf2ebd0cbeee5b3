/* suggest: "did you mean" over the names in scope (edit distance), and the names a program
 * text defines or uses. SPEC_NOTES: "Error codes". */
#ifndef RELAX_TOOLS_SUGGEST_H
#define RELAX_TOOLS_SUGGEST_H

/* A growing list of names. */
typedef struct NameList {
    const char **items;
    int n;
    int cap;
} NameList;

void names_add(NameList *l, const char *name);
/* Adds every identifier (dotted names too, "R.add") written in `text` before line
 * `before_line` (0: the whole text), each once. */
void names_add_identifiers(NameList *l, const char *text, int before_line);
/* The names that follow `def ` in `text`. */
void names_add_defs(NameList *l, const char *text);
/* Every operator name, both as registered ("relax.nn.softmax") and as TVMScript writes it
 * ("R.nn.softmax"). */
void names_add_operators(NameList *l);

/* The edit distance of a and b: insertions, deletions, substitutions and swaps of two
 * neighbouring characters. */
int suggest_distance(const char *a, const char *b);
/* The candidate closest to `name`, if close enough to be a likely typo (distance at most a
 * third of the name's length, at least 1) other than `name` itself; NULL otherwise. */
const char *suggest_closest(const char *name, const NameList *candidates);

#endif
