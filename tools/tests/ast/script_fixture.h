/* script_fixture: helpers shared by the TVMScript translator's tests.
 * SPEC_NOTES: "Parse errors". */
#ifndef RELAX_TESTS_SCRIPT_FIXTURE_H
#define RELAX_TESTS_SCRIPT_FIXTURE_H

/* Parses `text` and checks it fails in the parse phase with `code` and `rule`, at `line`
 * when `line` is positive. */
void script_fixture_expect_error(const char *text, const char *code, const char *rule, int line);

#endif
