/* report: the conformance run's results for machines and people besides the outcome lines:
 * TAP 14, JSON Lines, the per-chapter and per-tag summary, the scoreboard (Markdown).
 * SPEC_NOTES: "The conformance runner"; formats in spec-tests/README.md. */
#ifndef RELAX_TOOLS_REPORT_H
#define RELAX_TOOLS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "ast/mem.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

typedef struct ReportEntry {
    const char *file; /* display path of the case file */
    const char *id;   /* case id, or NULL for an error of the whole file (or a stale line) */
    Outcome outcome;
    const char *reason;
    double seconds;
    const Case *c; /* the case, or NULL */
} ReportEntry;

typedef struct Report {
    const ReportEntry *entries;
    int n;
    const char *implementation; /* "relax-ref 0.1.0 (built in)", "tvm 0.22.0 (protocol 2)" */
    const char *command;        /* how the run was started, for the scoreboard */
    int not_run;                /* selected cases left unjudged (stopped or interrupted) */
} Report;

/* TAP version 14: one test point per entry; SKIP and KNOWN carry # SKIP and # TODO. */
char *report_tap(const Report *r);
/* JSON Lines: one object per entry (keys in spec-tests/README.md). */
char *report_jsonl(const Report *r);
/* The per-chapter and per-tag tables of `--summary` (plain text). */
char *report_summary(const Report *r);
/* The scoreboard: totals, per chapter, per tag, every failure with its tags and reason. */
char *report_scoreboard(const Report *r);

/* A JSON string literal of s (quotes, backslashes and control characters escaped). */
void report_json_string(StrBuf *sb, const char *s);

/* Writes text to path; false when it cannot. */
bool report_write_file(const char *path, const char *text);

#endif
