/* junit: the conformance run as a JUnit XML report, one testsuite per case file, for CI.
 * SPEC_NOTES: "Exit codes". */
#ifndef RELAX_TOOLS_JUNIT_H
#define RELAX_TOOLS_JUNIT_H

#include <stdbool.h>

#include "tools/conform/report.h"

/* Writes the report; false when the file cannot be written. */
bool junit_write(const char *path, const ReportEntry *entries, int n);
/* The XML text itself (for tests). */
char *junit_render(const ReportEntry *entries, int n);

#endif
