/* test_yaml_load: reading a text from libyaml's events (yaml_node_load) gives what libyaml's
 * document API and a copy give: the same tree, the same syntax error at the same mark, the
 * same limit broken at the same node. SPEC_NOTES: "Case file errors", "Resource limits". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/error.h"
#include "ast/mem.h"
#include "tools/cli/source.h"
#include "tools/conform/corpus.h"
#include "tools/conform/yaml_node.h"
#include "tools/tests/unit.h"

/* What reading a text gave: a tree, or an error (syntax or limit) with its position, or
 * nothing (an empty stream). */
typedef struct Outcome {
    const YamlNode *root;
    bool syntax;
    const char *message;
    int line;
    int col;
} Outcome;

/* The document API and a copy, as case files were read before yaml_node_load. */
static Outcome by_document(const char *text)
{
    Outcome o = {0};
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc)) {
        const char *problem = parser.problem != NULL ? parser.problem : "cannot read YAML";
        o.syntax = true;
        o.message = parser.context != NULL ? mem_printf("%s %s", problem, parser.context) : problem;
        o.line = (int)parser.problem_mark.line + 1;
        o.col = (int)parser.problem_mark.column + 1;
        yaml_parser_delete(&parser);
        return o;
    }
    yaml_parser_delete(&parser);
    yaml_node_t *top = yaml_document_get_root_node(&doc);
    if (top != NULL) {
        const yaml_node_t *where = NULL;
        o.root = yaml_node_copy_checked(&doc, top, &o.message, &where);
        if (o.root == NULL) {
            o.line = (int)where->start_mark.line + 1;
            o.col = (int)where->start_mark.column + 1;
        }
    }
    yaml_document_delete(&doc);
    return o;
}

static Outcome by_events(const char *text)
{
    YamlLoadError err;
    Outcome o = {0};
    o.root = yaml_node_load(text, strlen(text), &err);
    if (o.root == NULL) {
        o.syntax = err.syntax;
        o.message = err.message;
        o.line = err.line;
        o.col = err.col;
    }
    return o;
}

static bool same_tree(const YamlNode *a, const YamlNode *b)
{
    if (a->kind != b->kind || a->line != b->line || a->col != b->col || a->nitems != b->nitems)
        return false;
    if (a->kind == YAML_NODE_SCALAR)
        return a->plain == b->plain && strcmp(a->scalar, b->scalar) == 0;
    for (int i = 0; i < a->nitems; i++) {
        if (a->kind == YAML_NODE_MAP && strcmp(a->keys[i], b->keys[i]) != 0)
            return false;
        if (!same_tree(a->items[i], b->items[i]))
            return false;
    }
    return true;
}

static bool same_outcome(const Outcome *a, const Outcome *b)
{
    if ((a->root == NULL) != (b->root == NULL))
        return false;
    if (a->root != NULL)
        return same_tree(a->root, b->root);
    if ((a->message == NULL) != (b->message == NULL))
        return false;
    return a->message == NULL || (a->syntax == b->syntax && strcmp(a->message, b->message) == 0 &&
                                  a->line == b->line && a->col == b->col);
}

static void describe(const char *label, const Outcome *o)
{
    fprintf(stderr, "  %s: %s %s at %d:%d\n", label, o->root ? "tree" : "no tree",
            o->message ? o->message : "-", o->line, o->col);
}

/* Both ways agree on `text`; `want` (a word of the error, or NULL for a tree) keeps the
 * hostile texts honest about what they test. */
static void expect_same(const char *name, const char *text, const char *want)
{
    Outcome a = by_document(text), b = by_events(text);
    bool same = same_outcome(&a, &b);
    if (!same) {
        fprintf(stderr, "\n%s: the two readings differ\n", name);
        describe("document", &a);
        describe("events", &b);
    }
    CU_ASSERT_TRUE(same);
    bool as_wanted =
        want == NULL ? b.message == NULL : b.message != NULL && strstr(b.message, want) != NULL;
    if (!as_wanted)
        fprintf(stderr, "\n%s: wanted %s, got %s\n", name, want ? want : "a tree",
                b.message ? b.message : "a tree");
    CU_ASSERT_TRUE(as_wanted);
}

static char *repeat(int n, const char *piece)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++)
        strbuf_add(&sb, piece);
    return strbuf_str(&sb);
}

/* A "billion laughs" list of `levels` levels, each naming the one below ten times. */
static char *alias_bomb(int levels, const char *tail)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "[&l0 [x]");
    for (int level = 1; level < levels; level++) {
        strbuf_addf(&sb, ", &l%d [", level);
        for (int i = 0; i < 10; i++)
            strbuf_addf(&sb, "%s*l%d", i ? ", " : "", level - 1);
        strbuf_add(&sb, "]");
    }
    strbuf_addf(&sb, "%s]", tail);
    return strbuf_str(&sb);
}

static void test_plain_texts(void)
{
    static const char *const texts[] = {
        "format: 1\ncases:\n  - id: a\n    program: |\n      x = 1\n",
        "a: 'single'\nb: \"double \\t\"\nc: plain\nd: |-\n  block\ne: >\n  folded\n",
        "[1, [2, [3]], {a: b}, {}, [], '', ~]\n",
        "? [1, 2]\n: complex key\n? {a: b}\n: another\nplain: 1\n",
        "!!str 1: !!int 2\n!tag x: !<tag:yaml.org,2002:str> y\n",
        "%YAML 1.1\n%TAG ! tag:example.com,2000:\n--- !a\nk: v\n...\n",
        "a: \"nul \\0 inside\"\n\"quoted\\0key\": 1\n",
        "\xef\xbb\xbf"
        "a: 1\r\nb: [2,\r\n 3]\r\n",
        "- - - deep\n    - x\n  - y\n- z\n",
        "--- first\n--- second\n",
        "a: 1\n--- [", /* only the first document is read */
        "",
        "   \n",
        "# only a comment\n",
        "---\n",
        "--- \n...\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        expect_same(mem_printf("plain text %zu", i), texts[i], NULL);
}

static void test_syntax_errors(void)
{
    static const char *const texts[] = {
        "[1, 2",
        "a: b: c",
        "{a: 1",
        "- a\n b: c",
        "key: \"open",
        "a: 1\n]\n",
        "\t- x",
        "&",
        "*",
        "a: &x 1\nb: &x 2\n",
        "a: *nothing",
        "[*a, &a 1]",
        "%YAML 2.0\n--- x",
        "@reserved",
        "a:\n  - b\n c: d",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        expect_same(mem_printf("syntax error %zu", i), texts[i], "");
    expect_same("duplicate anchor", "a: &x 1\nb: &x 2\n", "duplicate anchor");
    expect_same("undefined alias", "a: *nothing", "undefined alias");
}

static void test_aliases_and_limits(void)
{
    expect_same("shared", "[&a [1, 2], *a, *a]", NULL);
    expect_same("aliased key", "{&k a: 1, *k : 2, b: *k}", NULL);
    expect_same("anchor in a key", "? [&z [1]]\n: *z\n", NULL);
    expect_same("cycle", "&a [*a]", "cycle");
    expect_same("cycle in a mapping", "{k: &a {j: [1, *a]}}", "cycle");
    expect_same("cycle through a key", "? &y [ &z [ *y ] ]\n: *z\n", "cycle");
    expect_same("a cycle only a key names", "&a {*a : 1}", NULL);
    expect_same("bomb", alias_bomb(9, ""), "aliases expand");
    expect_same("bomb below the limit", alias_bomb(6, ""), NULL);
    expect_same("bomb past the limit", alias_bomb(7, ""), "aliases expand");
    expect_same("bomb then a cycle", alias_bomb(9, ", &c [*c]"), "aliases expand");
    expect_same("cycle then a bomb", mem_printf("[&c [*c], %s]", alias_bomb(9, "")), "cycle");
    int max = YAML_NODE_MAX_DEPTH;
    expect_same("deep", mem_printf("%s1%s", repeat(max + 1, "["), repeat(max + 1, "]")),
                "nested deeper");
    expect_same("deep to the limit", mem_printf("%s1%s", repeat(max, "["), repeat(max, "]")), NULL);
    expect_same("deep mappings", mem_printf("%s1%s", repeat(max + 1, "{a: "), repeat(max + 1, "}")),
                "nested deeper");
    expect_same("deep in a key",
                mem_printf("? %s1%s\n: 1\n", repeat(max + 5, "["), repeat(max + 5, "]")), NULL);
    /* An alias takes what it names to its own depth. */
    expect_same("deep through an alias",
                mem_printf("[&d %s1%s, %s*d%s]", repeat(200, "["), repeat(200, "]"),
                           repeat(100, "["), repeat(100, "]")),
                "nested deeper");
    expect_same("deep then a cycle",
                mem_printf("[%s1%s, &c [*c]]", repeat(max + 1, "["), repeat(max + 1, "]")),
                "nested deeper");
}

/* Texts near YAML's edges: many small edits of a few texts, in a fixed pseudo-random order. */
static void test_mutated_texts(void)
{
    static const char *const bases[] = {
        "format: 1\ncases:\n  - id: a\n    args: [1, {b: &x [2, *x]}]\n    p: |\n      x\n",
        "[&a [1, {k: v}], *a, ? q : 'r', \"s\"]\n",
        "- &k key\n- {*k : [a, b], c: !!str d}\n",
    };
    static const char EDITS[] = "[]{}:,-&*!|>'\"\n #?ab1";
    unsigned state = 12345u;
    for (int round = 0; round < 3000; round++) {
        const char *base = bases[round % 3];
        char text[128];
        size_t n = strlen(base);
        memcpy(text, base, n + 1);
        for (int edit = 0; edit < 1 + round % 4; edit++) {
            state = state * 1103515245u + 12345u;
            size_t at = (state >> 8) % (n + 1);
            char c = EDITS[(state >> 20) % (sizeof EDITS - 1)];
            if ((state >> 4) % 3 == 0 && at < n) { /* delete */
                memmove(text + at, text + at + 1, n - at);
                n--;
            } else if ((state >> 4) % 3 == 1 && n + 1 < sizeof text) { /* insert */
                memmove(text + at + 1, text + at, n - at + 1);
                text[at] = c;
                n++;
            } else if (at < n) { /* replace */
                text[at] = c;
            }
        }
        Outcome a = by_document(text), b = by_events(text);
        bool same = same_outcome(&a, &b);
        if (!same) {
            fprintf(stderr, "\nmutated text differs: <%s>\n", text);
            describe("document", &a);
            describe("events", &b);
        }
        CU_ASSERT_TRUE(same);
    }
}

/* Every case file of the corpus reads the same both ways. */
static void test_corpus_files(void)
{
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    CU_ASSERT_TRUE_FATAL(n > 0);
    for (int i = 0; i < n; i++) {
        ErrorTrap trap;
        if (setjmp(trap.jmp) == 0)
            expect_same(paths[i], source_read_file(paths[i], &trap), NULL);
        else
            CU_FAIL("a corpus file cannot be read");
    }
}

UNIT_SUITE(yaml_load)
{
    CU_pSuite s = CU_add_suite("yaml_load", 0, 0);
    CU_add_test(s, "texts read the same both ways", test_plain_texts);
    CU_add_test(s, "syntax errors", test_syntax_errors);
    CU_add_test(s, "aliases and limits", test_aliases_and_limits);
    CU_add_test(s, "mutated texts", test_mutated_texts);
    CU_add_test(s, "the corpus's case files", test_corpus_files);
}
