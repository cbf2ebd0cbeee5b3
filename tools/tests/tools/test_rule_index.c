/* test_rule_index: SPEC_NOTES.md and the corpus agree: every case names only listed rule ids,
 * and every listed id is named by at least one case. SPEC_NOTES: "Rule ids". */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "tools/conform/rule_index.h"
#include "tools/tests/unit.h"

static RuleIndex *load_counted(int *ncases)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "%s\n", error_format(&trap.error));
        return NULL;
    }
    RuleIndex *ri = rule_index_load(mem_printf("%s/SPEC_NOTES.md", unit_source_dir()), &trap);
    *ncases = rule_index_count_corpus(ri, mem_printf("%s/spec-tests", unit_source_dir()), &trap);
    return ri;
}

static void test_parse_table(void)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL_FATAL("SPEC_NOTES.md unreadable");
        return;
    }
    RuleIndex *ri = rule_index_load(mem_printf("%s/SPEC_NOTES.md", unit_source_dir()), &trap);
    CU_ASSERT_TRUE(ri->n > 20);
    CU_ASSERT_TRUE(rule_index_has(ri, "TS-1"));
    CU_ASSERT_TRUE(rule_index_has(ri, "E-13"));
    CU_ASSERT_FALSE(rule_index_has(ri, "id"));
    CU_ASSERT_FALSE(rule_index_has(ri, "TS-99"));
}

static void test_cases_name_listed_ids(void)
{
    int ncases = 0;
    RuleIndex *ri = load_counted(&ncases);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ri);
    CU_ASSERT_TRUE(ncases > 0);
    for (int i = 0; i < ri->nunknown; i++)
        fprintf(stderr, "rule id not in SPEC_NOTES.md: %s\n", ri->unknown[i]);
    CU_ASSERT_EQUAL(ri->nunknown, 0);
}

static void test_every_id_is_named(void)
{
    int ncases = 0;
    RuleIndex *ri = load_counted(&ncases);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ri);
    int uncovered = 0;
    for (int i = 0; i < ri->n; i++) {
        if (ri->counts[i] == 0) {
            fprintf(stderr, "rule id named by no case: %s\n", ri->ids[i]);
            uncovered++;
        }
    }
    CU_ASSERT_EQUAL(uncovered, 0);
}

static Case *fixture_case(void)
{
    static const char text[] = "format: 1\n"
                               "spec: [E-13]\n"
                               "cases:\n"
                               "  - id: c\n"
                               "    description: A fixture.\n"
                               "    spec: [E-7, E-13]\n"
                               "    program: |\n"
                               "      @R.function\n"
                               "      def main(x: R.Tuple(R.Prim(\"int64\"))):\n"
                               "          return x[0]\n"
                               "    runs:\n"
                               "      - args: [{tuple: [{prim: {dtype: int64, value: 1}}]}]\n"
                               "        expect: {value: {prim: {dtype: int64, value: 1}}}\n"
                               "      - args: [{tuple: []}]\n"
                               "        expect: {error: {phase: runtime, rule: FN-2}}\n";
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return NULL;
    CaseFile *cf = case_file_parse("t.yaml", text, &trap);
    return cf->cases[0];
}

/* The record names the file's and the case's ids once each, then the expected errors'. */
static void test_fired_line(void)
{
    Case *c = fixture_case();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const char *line = rule_index_fired_line(c, "PASS", "E-13 FN-2");
    CU_ASSERT_STRING_EQUAL(
        line, "{\"id\":\"t.yaml#c\",\"outcome\":\"PASS\",\"success\":true,"
              "\"rejects\":true,\"named\":[\"E-13\",\"E-7\",\"FN-2\"],\"errors\":[\"FN-2\"],"
              "\"fired\":[\"E-13\",\"FN-2\"]}\n");
}

/* Records read back, and counted: a passing case expecting success is positive for what it
 * fires; one expecting an error (rejects; in a record without the key, one that names an
 * expected error) is negative for what it fires, and its own for that error's rule; a
 * failing case counts as firing, and as evidence neither way. */
static void test_fired_counts(void)
{
    const char *dir = getenv("TMPDIR");
    const char *path = mem_printf("%s/relax_rule_index_fired.jsonl", dir != NULL ? dir : ".");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("{\"id\":\"a#1\",\"outcome\":\"PASS\",\"success\":true,\"named\":[\"E-7\"],"
          "\"errors\":[],\"fired\":[\"E-13\",\"E-7\"]}\n"
          "\n"
          "{\"id\":\"a#2\",\"outcome\":\"PASS\",\"success\":false,\"named\":[\"E-7\"],"
          "\"errors\":[\"E-7\"],\"fired\":[\"E-13\",\"E-7\"]}\n"
          "{\"id\":\"a#3\",\"outcome\":\"FAIL\",\"success\":true,\"named\":[\"E-13\"],"
          "\"errors\":[],\"fired\":[\"E-13\"]}\n",
          f);
    fclose(f);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        remove(path);
        CU_FAIL_FATAL("the records did not read");
        return;
    }
    int n = 0;
    FiredCase *cases = rule_index_read_fired(path, &n, &trap);
    remove(path);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(cases[1].id, "a#2");
    CU_ASSERT_FALSE(cases[1].success);
    CU_ASSERT_EQUAL(cases[1].nerrors, 1);
    RuleIndex *ri = rule_index_load(mem_printf("%s/SPEC_NOTES.md", unit_source_dir()), &trap);
    rule_index_add_fired(ri, cases, n);
    int e7 = -1, e13 = -1;
    for (int i = 0; i < ri->n; i++) {
        e7 = strcmp(ri->ids[i], "E-7") == 0 ? i : e7;
        e13 = strcmp(ri->ids[i], "E-13") == 0 ? i : e13;
    }
    CU_ASSERT_FATAL(e7 >= 0 && e13 >= 0);
    CU_ASSERT_EQUAL(ri->fired[e7], 2);
    CU_ASSERT_EQUAL(ri->positive[e7], 1);
    CU_ASSERT_EQUAL(ri->negative[e7], 1);
    CU_ASSERT_EQUAL(ri->own[e7], 1);
    CU_ASSERT_EQUAL(ri->fired[e13], 3);
    CU_ASSERT_EQUAL(ri->positive[e13], 1); /* a#3 failed: no evidence */
    CU_ASSERT_EQUAL(ri->negative[e13], 1); /* a#2 is rejected, E-13 fired on the way */
    CU_ASSERT_EQUAL(ri->own[e13], 0);      /* a#2's error is E-7's, not E-13's */
    CU_ASSERT_TRUE(cases[1].rejects);
    CU_ASSERT_FALSE(cases[0].rejects);
}

UNIT_SUITE(rule_index)
{
    CU_pSuite s = CU_add_suite("rule_index", NULL, NULL);
    CU_add_test(s, "SPEC_NOTES tables", test_parse_table);
    CU_add_test(s, "cases name listed ids", test_cases_name_listed_ids);
    CU_add_test(s, "every id is named", test_every_id_is_named);
    CU_add_test(s, "the --rules-fired record", test_fired_line);
    CU_add_test(s, "fired, positive and negative counts", test_fired_counts);
}
