/* test_value_tree: a case's value read from its YAML tree in place (run_entry_value_from_yaml)
 * is what reading the tree's flow text gave before: the same value, or the same BadValue
 * with the same message at the same position. SPEC_NOTES: "Value notation errors",
 * "Resource limits". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/error.h"
#include "ast/mem.h"
#include "tools/conform/run_entry.h"
#include "tools/conform/yaml_node.h"
#include "tools/tests/unit.h"
#include "values/render.h"
#include "values/value_yaml.h"

/* A value rendered, or its error as "code message @line:col". */
static const char *by_tree(const YamlNode *node)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return mem_printf("%s %s @%d:%d", trap.error.code, trap.error.message, trap.error.span.line,
                          trap.error.span.col);
    return render_value_case(run_entry_value_from_yaml("case.yaml", node, &trap));
}

static const char *by_text(const YamlNode *node)
{
    const char *text = run_entry_flow_text(node);
    ValueYamlOptions opt = {"case.yaml", false};
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) /* positions in the rebuilt text name the node instead */
        return mem_printf("%s %s @%d:%d", trap.error.code, trap.error.message, node->line,
                          node->col);
    return render_value_case(value_yaml_parse_text(text, &opt, &trap));
}

static int compared;

static void expect_same(const char *text)
{
    YamlLoadError err;
    YamlNode *node = yaml_node_load(text, strlen(text), &err);
    if (node == NULL)
        return; /* not a tree: the case file is refused before any value is read */
    const char *a = by_tree(node), *b = by_text(node);
    if (strcmp(a, b) != 0)
        fprintf(stderr, "\n<%s>\n  in place: %s\n  by text:  %s\n", text, a, b);
    CU_ASSERT_STRING_EQUAL(a, b);
    compared++;
}

static const char *const texts[] = {
    "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2.5], [-3e2, .inf]]}}",
    "{tensor: {dtype: float32, shape: [4], data: [1, nan, -inf, 1e39]}}",
    "{tensor: {dtype: int8, shape: [3], data: [127, -128, 128]}}",
    "{tensor: {dtype: uint8, shape: [2], data: [255, -1]}}",
    "{tensor: {dtype: int64, shape: [], data: 22}}",
    "{tensor: {dtype: int64, shape: [], data: [22]}}",
    "{tensor: {dtype: bool, shape: [3], data: [true, False, 1]}}",
    "{tensor: {dtype: bool, shape: [1], data: [yes]}}",
    "{tensor: {dtype: float16, shape: [2, 3], data: [1, 2, 3, 4, 5, 6]}}",
    "{tensor: {dtype: float64, shape: [2, 3], data: [[1, 2, 3], [4, 5]]}}",
    "{tensor: {dtype: float64, shape: [2], data: [1, [2]]}}",
    "{tensor: {dtype: float64, shape: [-1], data: []}}",
    "{tensor: {dtype: float64, shape: [3000000], data: [1]}}",
    "{tensor: {dtype: float64, shape: [100000, 100000, 100000], data: []}}",
    "{tensor: {dtype: float32x4, shape: [1], data: [1]}}",
    "{tensor: {dtype: fp32, shape: [1], data: [1]}}",
    "{tensor: {dtype: int32, shape: [1], data: [\"1\"]}}",
    "{tensor: {dtype: int32, shape: [1], data: [0x10]}}",
    "{tensor: {dtype: int32, shape: [1], data: [1.0]}}",
    "{tensor: {dtype: int32, shape: [1], data: [1], extra: 2}}",
    "{tensor: {dtype: int32, shape: [1], shape: [1], data: [1]}}",
    "{tensor: {dtype: int32, data: [1]}}",
    "{tensor: [1, 2]}",
    "{tensor: {dtype: int32, shape: 1, data: [1]}}",
    "{tensor: {dtype: int32, shape: [1.5], data: [1]}}",
    "{tensor: {dtype: int32, shape: [99999999999999999999], data: [1]}}",
    "{prim: {dtype: int64, value: 50000}}",
    "{prim: {dtype: bool, value: true}}",
    "{prim: {dtype: float32, value: 0.1}}",
    "{prim: {dtype: float32, value: [1]}}",
    "{prim: {dtype: int16, value: 40000}}",
    "{prim: {dtype: handle, value: 1}}",
    "{prim: {value: 1}}",
    "{tuple: [{prim: {dtype: int64, value: 1}}, {tuple: []}, {shape: [1, 2]}]}",
    "{tuple: {a: 1}}",
    "{tuple: [1]}",
    "{shape: [2, -3]}",
    "{shape: [a]}",
    "{string: hello}",
    "{string: \"a \\\"quoted\\\" \\\\ text\\nwith a line\"}",
    "{string: 'single ''quoted'''}",
    "{string: [1]}",
    "{dtype: float32}",
    "{dtype: nonsense}",
    "{null: true}",
    "{null: false}",
    "{callable: true}",
    "{object: relax.Object}",
    "{unknown: 1}",
    "{tensor: 1, prim: 2}",
    "{}",
    "[1, 2]",
    "plain",
    "\"quoted\"",
    "{\"tensor\": {\"dtype\": \"int32\", \"shape\": [1], \"data\": [1]}}",
    "{? [a] : 1}",
    "tensor:\n  dtype: int32\n  shape: [2]\n  data:\n    - 1\n    - 2\n",
    "string: hello, world\n",
    "string: a: b\n",
    "string: -\n",
    "string:\n",
    "string: caf\xc3\xa9\n",
    "string: \"tab\\there\"\n",
    "{string: \"\\u0085\"}",
    "{string: \"\\ufeff\"}",
    "tuple: [&p {prim: {dtype: int64, value: 1}}, *p, *p]\n",
    "tensor: {dtype: int32, shape: &s [2], data: *s}\n",
    "tensor: {dtype: int32, shape: [4], data: &d [1, 2, 3, 4]}\n",
};

static void test_texts(void)
{
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        expect_same(texts[i]);
}

/* A long key, past what libyaml takes as a key in flow text. */
static void test_long_key(void)
{
    char key[1200];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    expect_same(mem_printf("{%s: 1}", key));
    expect_same(mem_printf("{tensor: {%s: 1}}", key));
}

/* Many small edits of a few values, in a fixed pseudo-random order. */
static void test_mutated_texts(void)
{
    static const char *const bases[] = {
        "{tensor: {dtype: int32, shape: [2, 2], data: [[1, 2], [3, 4]]}}",
        "{tuple: [{prim: {dtype: float32, value: 1.5}}, {string: \"a b\"}, {shape: [3]}]}",
        "tensor:\n  dtype: bool\n  shape: [3]\n  data: [true, false, true]\n",
    };
    static const char EDITS[] = "[]{}:,-&*!|'\"\n #?ab1.e+";
    unsigned state = 4242u;
    for (int round = 0; round < 4000; round++) {
        const char *base = bases[round % 3];
        char text[160];
        size_t n = strlen(base);
        memcpy(text, base, n + 1);
        for (int edit = 0; edit < 1 + round % 3; edit++) {
            state = state * 1103515245u + 12345u;
            size_t at = (state >> 8) % (n + 1);
            char c = EDITS[(state >> 20) % (sizeof EDITS - 1)];
            if ((state >> 4) % 3 == 0 && at < n) {
                memmove(text + at, text + at + 1, n - at);
                n--;
            } else if ((state >> 4) % 3 == 1 && n + 1 < sizeof text) {
                memmove(text + at + 1, text + at, n - at + 1);
                text[at] = c;
                n++;
            } else if (at < n) {
                text[at] = c;
            }
        }
        expect_same(text);
    }
    /* Most edits still load as a tree: the comparison is not vacuous. */
    CU_ASSERT_TRUE(compared > 1500);
}

UNIT_SUITE(value_tree)
{
    CU_pSuite s = CU_add_suite("value_tree", 0, 0);
    CU_add_test(s, "values read in place as through their text", test_texts);
    CU_add_test(s, "a key past libyaml's length", test_long_key);
    CU_add_test(s, "mutated values", test_mutated_texts);
}
