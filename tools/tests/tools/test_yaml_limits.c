/* test_yaml_limits: hostile YAML in case files, adapter responses and --arg values: alias
 * cycles, alias bombs, deep nesting and shapes larger than their data end in clean errors.
 * SPEC_NOTES: "Resource limits". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/error.h"
#include "ast/mem.h"
#include "tools/conform/case_file.h"
#include "tools/conform/yaml_node.h"
#include "tools/tests/unit.h"
#include "values/value_yaml.h"

/* A "billion laughs" document: nine levels, each referring ten times to the one below. */
static char *alias_bomb(bool as_value)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, as_value ? "{tuple: [" : "[");
    strbuf_add(&sb, as_value ? "&l0 {tuple: []}" : "&l0 [x]");
    for (int level = 1; level < 9; level++) {
        strbuf_addf(&sb, ", &l%d %s", level, as_value ? "{tuple: [" : "[");
        for (int i = 0; i < 10; i++)
            strbuf_addf(&sb, "%s*l%d", i ? ", " : "", level - 1);
        strbuf_add(&sb, as_value ? "]}" : "]");
    }
    strbuf_add(&sb, as_value ? "]}" : "]");
    return strbuf_str(&sb);
}

static char *nested(int depth, const char *open, const char *leaf, const char *close)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < depth; i++)
        strbuf_add(&sb, open);
    strbuf_add(&sb, leaf);
    for (int i = 0; i < depth; i++)
        strbuf_add(&sb, close);
    return strbuf_str(&sb);
}

/* The copy of `text`'s root: NULL with the reason, or the tree. */
static YamlNode *copy_text(const char *text, const char **why)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    CU_ASSERT_FATAL(yaml_parser_load(&parser, &doc) != 0);
    *why = NULL;
    YamlNode *n = yaml_node_copy_checked(&doc, yaml_document_get_root_node(&doc), why, NULL);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return n;
}

static void test_copy_limits(void)
{
    const char *why;
    CU_ASSERT_PTR_NULL(copy_text("&a [*a]", &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "cycle"));
    CU_ASSERT_PTR_NULL(copy_text("{k: &a {j: [1, *a]}}", &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "cycle"));
    CU_ASSERT_PTR_NULL(copy_text(alias_bomb(false), &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "aliases expand"));
    CU_ASSERT_PTR_NULL(copy_text(nested(YAML_NODE_MAX_DEPTH + 1, "[", "1", "]"), &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "nested deeper"));
    /* Within the limits: shared (not cyclic) aliases expand, and deep nesting up to the limit. */
    YamlNode *ok = copy_text("[&a [1, 2], *a, *a]", &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
    CU_ASSERT_EQUAL(ok->nitems, 3);
    CU_ASSERT_EQUAL(ok->items[2]->nitems, 2);
    CU_ASSERT_PTR_NOT_NULL(copy_text(nested(YAML_NODE_MAX_DEPTH, "[", "1", "]"), &why));
}

static const Error *value_error(const char *text)
{
    static Error err;
    ValueYamlOptions opt = {"arg", false};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        value_yaml_parse_text(text, &opt, &trap);
        return NULL;
    }
    err = trap.error;
    return &err;
}

static void expect_bad_value(const char *text, const char *words)
{
    const Error *e = value_error(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->code, "BadValue");
    if (strstr(e->message, words) == NULL)
        fprintf(stderr, "\n%s: %s (wanted '%s')\n", text, error_format(e), words);
    CU_ASSERT_PTR_NOT_NULL(strstr(e->message, words));
}

static void test_value_limits(void)
{
    expect_bad_value("&a {tuple: [*a]}", "nested deeper");
    expect_bad_value(alias_bomb(true), "aliases expand");
    expect_bad_value(nested(VALUE_YAML_MAX_DEPTH + 1, "{tuple: [", "{prim: {dtype: int64, value: 1}}",
                            "]}"),
                     "nested deeper");
    /* A large shape with little data fails before anything is allocated. */
    expect_bad_value("{tensor: {dtype: float32, shape: [100000000], data: [1]}}",
                     "more than the data can");
    expect_bad_value("{tensor: {dtype: float32, shape: [3, 2], data: [1, 2]}}", "has 2 items");
    expect_bad_value("{tensor: {dtype: float64, shape: [65536, 65536], data: []}}",
                     "more than the limit of 2147483648 bytes");
    CU_ASSERT_PTR_NULL(value_error("{tuple: [&a {prim: {dtype: int64, value: 1}}, *a]}"));
    CU_ASSERT_PTR_NULL(
        value_error(nested(VALUE_YAML_MAX_DEPTH - 1, "{tuple: [", "{tuple: []}", "]}")));
}

static void test_case_file_limits(void)
{
    const char *texts[] = {"format: 1\ncases: &a [*a]\n",
                           "format: 1\ncases: [{id: a, spec: [E-1], program: x, x: &b [*b]}]\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        ErrorTrap trap;
        if (setjmp(trap.jmp) == 0) {
            case_file_parse("bomb.yaml", texts[i], &trap);
            CU_FAIL("no error");
            continue;
        }
        CU_ASSERT_EQUAL(trap.error.phase, PHASE_CASE);
        CU_ASSERT_STRING_EQUAL(trap.error.code, "CaseLimit");
        CU_ASSERT_EQUAL(trap.error.span.line, 2);
    }
}

UNIT_SUITE(yaml_limits)
{
    CU_pSuite s = CU_add_suite("yaml limits", 0, 0);
    CU_add_test(s, "copies of case YAML", test_copy_limits);
    CU_add_test(s, "values", test_value_limits);
    CU_add_test(s, "case files", test_case_file_limits);
}
