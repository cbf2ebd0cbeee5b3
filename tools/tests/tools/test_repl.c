/* test_repl: `relax repl` sessions driven by scripted input: definitions, commands, errors
 * that the session survives, loading and reloading. SPEC_NOTES: "Exit codes". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast/mem.h"
#include "tools/cli/cli.h"
#include "tools/repl/repl.h"
#include "tools/tests/unit.h"

/* The whole output of a session reading `input` (FILE loaded first when not NULL). */
static char *session(const char *input, const char *file)
{
    char *copy = mem_strdup(input);
    FILE *in = fmemopen(copy, strlen(copy), "r");
    FILE *out = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    cmd_repl_session(in, out, file);
    fclose(in);
    /* The stream read from `copy`, which the collector cannot see through it. */
    CU_ASSERT_PTR_NOT_NULL(copy);
    StrBuf sb;
    strbuf_init(&sb);
    rewind(out);
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, out)) > 0)
        strbuf_addn(&sb, buf, n);
    fclose(out);
    return strbuf_str(&sb);
}

/* Asserts that `text` holds `lines`, in this order, each as a whole line. */
static void assert_lines(const char *text, const char *const *lines, int n)
{
    const char *at = text;
    for (int i = 0; i < n; i++) {
        const char *want = mem_printf("%s\n", lines[i]);
        const char *found = at;
        while ((found = strstr(found, want)) != NULL && found != text && found[-1] != '\n')
            found++;
        if (found == NULL) {
            fprintf(stderr, "\nmissing line '%s' in:\n%s", lines[i], at);
            CU_FAIL("a line is missing");
            return;
        }
        at = found + strlen(want);
    }
}

#define ASSERT_LINES(text, ...)                                                                    \
    do {                                                                                           \
        const char *const lines_[] = {__VA_ARGS__};                                                \
        assert_lines((text), lines_, (int)(sizeof lines_ / sizeof lines_[0]));                     \
    } while (0)

static const char ADD[] =
    "@R.function\n"
    "def add(x: R.Tensor((2,), \"float32\"), y: R.Tensor((2,), \"float32\")):\n"
    "    z = R.add(x, y)\n"
    "    return z\n"
    "\n";

static const char TWO[] = "{tensor: {dtype: float32, shape: [2], data: [1, 2]}} "
                          "{tensor: {dtype: float32, shape: [2], data: [10, 20]}}";

/* ---- a whole session ---- */

static void test_define_run_check_trace(void)
{
    const char *in = mem_printf("%s:run add %s\n:check\n:sinfo add.z\n:trace on\n:run add %s\n"
                                ":trace off\n:quit\n:run add %s\n",
                                ADD, TWO, TWO, TWO);
    char *out = session(in, NULL);
    ASSERT_LINES(out, "defined add", "{tensor: {dtype: float32, shape: [2], data: [11, 22]}}", "ok",
                 "add.z: R.Tensor((2,), dtype=\"float32\")", "trace on",
                 "{tensor: {dtype: float32, shape: [2], data: [11, 22]}}", "trace off");
    /* The trace names the binding's line and column within its entry. */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n<repl>:3:5: z = tensor float32 [2] {11, 22} #"));
    /* Nothing runs after :quit: the result appears exactly twice. */
    const char *first = strstr(out, "data: [11, 22]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    const char *second = strstr(first + 1, "data: [11, 22]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(second);
    CU_ASSERT_PTR_NULL(strstr(second + 1, "data: [11, 22]"));
}

static void test_errors_do_not_end_the_session(void)
{
    const char *in = mem_printf("@R.function\n"
                                "def bad(x: R.Tensor((2,), \"float32\"):\n"
                                "    return x\n"
                                "\n"
                                "%s"
                                "@R.function\n"
                                "def main(x: R.Tensor((2,), \"float32\")):\n"
                                "    cls = Module\n"
                                "    y = cls.add(x, x)\n"
                                "    z = R.reshape(y, (3,))\n"
                                "    return z\n"
                                ":run main {tensor: {dtype: float32, shape: [2], data: [1, 2]}}\n"
                                ":run main {tensor: {dtype: float32, shape: [2], data: [1, 2}}\n"
                                ":run add {tensor: {dtype: float32, shape: [3], data: [1, 2, 3]}} "
                                "{tensor: {dtype: float32, shape: [2], data: [1, 2]}}\n"
                                ":frobnicate\n"
                                ":run add %s\n",
                                ADD, TWO);
    char *out = session(in, NULL);
    ASSERT_LINES(out, "<repl>:2:37: parse error [SyntaxError PY-1]: expected ')', found ':'",
                 "defined add", "defined main",
                 "<repl>:5:9: runtime error [OpPrecondition OP-reshape]: relax.reshape: reshape "
                 "changes the number of elements",
                 "<repl>:1:60: case error [BadValue]: invalid YAML: did not find expected ',' "
                 "or ']'",
                 "<repl>:1:1: usage error [Usage]: unknown command ':frobnicate' (':help' "
                 "lists them)",
                 "{tensor: {dtype: float32, shape: [2], data: [11, 22]}}");
    /* DIAG-site: a failed argument check points at the parameter's annotation in `add`. */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n<repl>:2:12: runtime error [ArgCheck FN-2]: argument "
                                       "check failed (MatchCastShape): argument 1 `x` of `add`"));
}

/* ---- reading entries ---- */

static const char MODULE[] = "@I.ir_module\n"
                             "class Module:\n"
                             "    @R.function\n"
                             "    def f(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                             "        return x\n"
                             "\n"
                             "    @R.function\n"
                             "    def main(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                             "        cls = Module\n"
                             "        y = cls.f(x)\n"
                             "        return y\n";

static void test_pasted_module_with_blank_lines(void)
{
    const char *in = mem_printf("%s:run main {prim: {dtype: int64, value: 7}}\n", MODULE);
    char *out = session(in, NULL);
    ASSERT_LINES(out, "module Module: f, main", "{prim: {dtype: int64, value: 7}}");
}

/* A block ends at column 0 after an indented line, so definitions can follow each other. */
static void test_blocks_end_at_column_zero(void)
{
    const char *in = "@R.function\n"
                     "def f(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                     "    return x\n"
                     "@R.function\n"
                     "def main(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                     "    return Module.f(x)\n"
                     "# a comment between entries\n"
                     ":run {prim: {dtype: int64, value: 3}}\n"
                     "@R.function\n"
                     "def f(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                     "    y = R.prim_value(T.int64(6))\n"
                     "    return y\n"
                     ":run main {prim: {dtype: int64, value: 3}}\n";
    char *out = session(in, NULL);
    ASSERT_LINES(out, "defined f", "defined main", "{prim: {dtype: int64, value: 3}}",
                 "redefined f", "{prim: {dtype: int64, value: 6}}");
}

/* ---- the program ---- */

static void test_first_function_may_name_the_module(void)
{
    const char *in = "@R.function\n"
                     "def main(n: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                     "    cls = Module\n"
                     "    return cls.main(n)\n"
                     "\n"
                     ":fuel 50\n"
                     ":run {prim: {dtype: int64, value: 1}}\n";
    char *out = session(in, NULL);
    ASSERT_LINES(out, "defined main", "fuel 50");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "runtime error [StepLimit LIMIT-fuel]"));
}

static void test_errors_map_to_the_entry(void)
{
    ReplProgram p;
    repl_program_init(&p);
    Error err;
    CU_ASSERT_PTR_NOT_NULL_FATAL(repl_program_enter(&p, "<repl>", MODULE, &err));
    CU_ASSERT_STRING_EQUAL(repl_program_names(&p), "f, main");
    const char *g = "@R.function\n"
                    "def g(x: R.Prim(\"int64\")) -> R.Prim(\"int64\"):\n"
                    "    return cls.nowhere(x)\n";
    CU_ASSERT_PTR_NULL(repl_program_enter(&p, "<repl>", g, &err));
    CU_ASSERT_EQUAL(err.phase, PHASE_PARSE);
    CU_ASSERT_STRING_EQUAL(err.span.file, "<repl>");
    CU_ASSERT_EQUAL(err.span.line, 3);
    CU_ASSERT_EQUAL(err.span.col, 12);
    /* The failed entry left the program as it was. */
    CU_ASSERT_STRING_EQUAL(repl_program_names(&p), "f, main");
    CU_ASSERT_STRING_EQUAL(repl_program_enter(&p, "<repl>", ADD, &err), "defined add");
    CU_ASSERT_STRING_EQUAL(repl_program_names(&p), "f, main, add");
    /* A span of the assembled text names the entry line and column it was written at. */
    Span s = p.mod->funcs[2]->span;
    repl_program_map(&p, &s);
    CU_ASSERT_STRING_EQUAL(s.file, "<repl>");
    CU_ASSERT_EQUAL(s.line, 2);
    CU_ASSERT_EQUAL(s.col, 1);
}

static void test_print_normalize_reset(void)
{
    const char *in = mem_printf("@R.function\n"
                                "def main(x: R.Tensor((2,), \"float32\")):\n"
                                "    return R.add(R.add(x, x), x)\n"
                                "\n"
                                ":print\n:normalize\n:ast\n:reset\n:print\n%s:print\n",
                                ADD);
    char *out = session(in, NULL);
    ASSERT_LINES(out, "defined main", "    return R.add(R.add(x, x), x)", "    gv = R.add(x, x)",
                 "Function:", "program cleared",
                 "<repl>:1:1: usage error [Usage]: no program yet: enter an @R.function or an "
                 "@I.ir_module, or :load FILE",
                 "defined add",
                 "def add(x: R.Tensor((2,), dtype=\"float32\"), "
                 "y: R.Tensor((2,), dtype=\"float32\")):");
    /* After :reset the lone add prints as a lone function, not a module. */
    CU_ASSERT_PTR_NULL(strstr(strstr(out, "defined add"), "class Module"));
}

/* ---- loading ---- */

static void test_load_and_reload(void)
{
    char *path = unit_write_temp(MODULE);
    const char *in = mem_printf(":run main {prim: {dtype: int64, value: 4}}\n"
                                ":load\n:sinfo main\n:load %s/no/such/file.py\n",
                                unit_source_dir());
    /* Reloading reads the file again: change it between two sessions' loads. */
    char *out = session(in, path);
    ASSERT_LINES(out, "module Module: f, main", "{prim: {dtype: int64, value: 4}}",
                 "module Module: f, main", "main.x: R.Prim(\"int64\")");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "io error [IoError]"));
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("@R.function\ndef main(x: R.Prim(\"int64\")):\n    return R.reshape(x, (2,))\n", f);
    fclose(f);
    out = session(
        mem_printf(":load %s\n:check\n:run main {prim: {dtype: int64, value: 4}}\n", path), NULL);
    ASSERT_LINES(out, "defined main");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, mem_printf("%s:3:12: struct_info error", path)));
    unlink(path);
}

static void test_load_benchmark_program(void)
{
    const char *file = mem_printf("%s/tools/bench/fib.relax.py", unit_source_dir());
    char *out = session(":run fib {tensor: {dtype: int64, shape: [], data: 10}}\n", file);
    ASSERT_LINES(out, "module Module: add, subtract, less, fib, main",
                 "{tensor: {dtype: int64, shape: [], data: 55}}");
}

UNIT_SUITE(repl)
{
    CU_pSuite s = CU_add_suite("repl", NULL, NULL);
    CU_add_test(s, "define, run, check, trace", test_define_run_check_trace);
    CU_add_test(s, "errors do not end the session", test_errors_do_not_end_the_session);
    CU_add_test(s, "pasted module with blank lines", test_pasted_module_with_blank_lines);
    CU_add_test(s, "blocks end at column 0", test_blocks_end_at_column_zero);
    CU_add_test(s, "first function may name the module", test_first_function_may_name_the_module);
    CU_add_test(s, "errors map to the entry", test_errors_map_to_the_entry);
    CU_add_test(s, "print, normalize, reset", test_print_normalize_reset);
    CU_add_test(s, "load and reload", test_load_and_reload);
    CU_add_test(s, "load the benchmark program", test_load_benchmark_program);
}
