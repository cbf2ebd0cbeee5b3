/* test_rule: the rules-fired recorder: off by default, a set per recording, sorted output,
 * errors that carry a rule id report it.
 * SPEC_NOTES: "Rule ids". */
#include <setjmp.h>
#include <string.h>

#include "ast/error.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/diag.h"
#include "tools/tests/unit.h"

static void test_off_by_default(void)
{
    rule_record_stop();
    rule_record_clear();
    rule_fired("E-3");
    CU_ASSERT_FALSE(rule_has_fired("E-3"));
    int n = -1;
    rule_fired_list(&n);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_STRING_EQUAL(rule_fired_text(), "");
}

static void test_set_sorted(void)
{
    rule_record_start();
    rule_fired("WF-3");
    rule_fired("E-3");
    rule_fired("WF-3"); /* a set: twice is once */
    rule_fired(NULL);   /* an error without a rule id */
    char id[8] = "E-1";
    rule_fired(id);
    id[2] = '9'; /* interned by value, not by pointer */
    rule_record_stop();
    rule_fired("SI-14"); /* after the stop: not recorded */
    int n = 0;
    const char **ids = rule_fired_list(&n);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(ids[0], "E-1");
    CU_ASSERT_STRING_EQUAL(ids[1], "E-3");
    CU_ASSERT_STRING_EQUAL(ids[2], "WF-3");
    CU_ASSERT_PTR_NULL(ids[3]);
    CU_ASSERT_TRUE(rule_has_fired("E-1"));
    CU_ASSERT_FALSE(rule_has_fired("E-9"));
    CU_ASSERT_FALSE(rule_has_fired("SI-14"));
    CU_ASSERT_STRING_EQUAL(rule_fired_text(), "E-1 E-3 WF-3");
    /* A new recording starts empty; a text replays into it. */
    rule_record_start();
    CU_ASSERT_FALSE(rule_has_fired("E-3"));
    rule_record_text("MC-2  FN-1");
    rule_record_stop();
    CU_ASSERT_STRING_EQUAL(rule_fired_text(), "FN-1 MC-2");
}

/* Many ids: the table grows past its first size and keeps every one. */
static void test_many_ids(void)
{
    rule_record_start();
    for (int i = 0; i < 3000; i++)
        rule_fired(mem_printf("X-%d", i));
    rule_record_stop();
    int n = 0;
    rule_fired_list(&n);
    CU_ASSERT_EQUAL(n, 3000);
    CU_ASSERT_TRUE(rule_has_fired("X-0"));
    CU_ASSERT_TRUE(rule_has_fired("X-2999"));
    CU_ASSERT_FALSE(rule_has_fired("X-3000"));
    rule_record_clear();
    CU_ASSERT_FALSE(rule_has_fired("X-7"));
}

/* An error raised or collected with a rule id reports it without a call of its own. */
static void test_errors_report_their_rule(void)
{
    rule_record_start();
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        error_raise(&trap, PHASE_RUNTIME, "TupleIndex", "E-7", span_none(), "index %d", 3);
    DiagList d;
    diag_init(&d);
    diag_add(&d, PHASE_WELLFORMED, "UseBeforeDef", "WF-3", span_none(), "x");
    rule_record_stop();
    CU_ASSERT_STRING_EQUAL(rule_fired_text(), "E-7 WF-3");
}

UNIT_SUITE(rule)
{
    CU_pSuite s = CU_add_suite("rule", NULL, NULL);
    CU_add_test(s, "off by default", test_off_by_default);
    CU_add_test(s, "a sorted set per recording", test_set_sorted);
    CU_add_test(s, "many ids", test_many_ids);
    CU_add_test(s, "errors report their rule", test_errors_report_their_rule);
}
