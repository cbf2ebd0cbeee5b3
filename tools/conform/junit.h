/* junit: the conformance run as a JUnit XML report, one testsuite per case file, for CI.
 * SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_JUNIT_H
#define RELAX_TOOLS_JUNIT_H

#include <stdbool.h>

#include "tools/conform/runner.h"

typedef struct ReportEntry {
    const char *file; /* display path of the case file */
    const char *id;   /* case id, or NULL for an error of the whole file */
    Outcome outcome;
    const char *reason;
    double seconds;
} ReportEntry;

/* Writes the report; false when the file cannot be written. */
bool junit_write(const char *path, const ReportEntry *entries, int n);
/* The XML text itself (for tests). */
char *junit_render(const ReportEntry *entries, int n);

#endif
