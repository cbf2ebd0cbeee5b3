/* test_trace: what `relax run --trace` explains for each step: the function, the call depth
 * and the evaluation rule (SPEC_NOTES 1.2), as text and as JSON lines. The expected rules
 * are read off the spec's E-* table by hand. SPEC_NOTES: "Evaluation" (E-*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/run_entry.h"
#include "tools/tests/unit.h"
#include "values/value_yaml.h"

static const char PROGRAM[] =
    "from tvm.script import ir as I\n"
    "from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def double(a: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "        b = R.add(a, a)\n"
    "        return b\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), \"float32\")):\n"
    "        cls = Module\n"
    "        y = cls.double(x)\n"
    "        t = (y, x)\n"
    "        z = t[0]\n"
    "        w = R.match_cast(z, R.Tensor((2,), \"float32\"))\n"
    "        s = R.shape([2, 3])\n"
    "        return w\n";

/* The trace of main in `program`, called with the `nargs` values written in `args`. */
static char *traced_program(const char *program, const char *const *args, int nargs, bool json)
{
    ErrorTrap trap;
    CU_ASSERT_FATAL(setjmp(trap.jmp) == 0);
    IRModule *mod = script_parse("t.py", program, &trap);
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    InterpOptions opt;
    interp_options_default(&opt);
    opt.trace = f;
    opt.trace_json = json;
    ValueYamlOptions vo = {"arg", false};
    Value **x = MEM_ARRAY(Value *, nargs);
    for (int i = 0; i < nargs; i++)
        x[i] = value_yaml_parse_text(args[i], &vo, &trap);
    RunEntryRequest req = {mod, "main", x, nargs, &opt};
    RunEntryOutput got;
    Error err;
    CU_ASSERT_FATAL(run_entry_call(&req, &got, &err));
    long n = ftell(f);
    rewind(f);
    char *text = mem_alloc_atomic((size_t)n + 1);
    size_t r = fread(text, 1, (size_t)n, f);
    text[r] = '\0';
    fclose(f);
    return text;
}

static char *traced(bool json)
{
    static const char *const x[] = {"{tensor: {dtype: float32, shape: [2], data: [1, 2]}}"};
    return traced_program(PROGRAM, x, 1, json);
}

/* The line of the trace that starts with `head`, or NULL. */
static const char *line_of(const char *text, const char *head)
{
    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        if (strncmp(p, head, strlen(head)) == 0)
            return mem_strndup(p, n);
        p += n + (p[n] == '\n');
    }
    return NULL;
}

static void expect_line(const char *text, const char *head, const char *tail)
{
    const char *line = line_of(text, head);
    if (line == NULL || strstr(line, tail) == NULL)
        printf("\nwanted '%s ... %s' in\n%s\n", head, tail, text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    size_t n = strlen(line), m = strlen(tail);
    CU_ASSERT(n >= m && strcmp(line + n - m, tail) == 0);
}

static void test_text_trace(void)
{
    char *t = traced(false);
    /* E-12: the call; its callee's bindings are one call deeper, in its own name. */
    expect_line(t, "8:9: b = tensor float32 [2] {2, 4} #", "(double, depth 2, E-12)");
    expect_line(t, "14:9: y = tensor float32 [2] {2, 4} #", "(main, depth 1, E-12)");
    expect_line(t, "15:9: t = tuple(2) (#", "(main, depth 1, E-3)");
    expect_line(t, "16:9: z = tensor float32 [2] {2, 4} #", "(main, depth 1, E-7)");
    /* A MatchCast binding: its value (a variable, E-2), then the check and bind of E-13. */
    expect_line(t, "17:9: match_cast w = tensor float32 [2] {2, 4} #",
                "(main, depth 1, E-2, E-13)");
    expect_line(t, "18:9: s = shape (2, 3) #", "(main, depth 1, E-8)");
}

static void test_json_trace(void)
{
    char *t = traced(true);
    const char *b = line_of(t, "{\"line\": 8, \"col\": 9,");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"func\": \"double\", \"depth\": 2, \"rule\": \"E-12\", "
                                     "\"kind\": \"binding\", \"var\": \"b\", "
                                     "\"value\": \"tensor float32 [2] {2, 4} #"));
    /* The value's identity: the number after '#' in its summary is the line's "id". */
    const char *hash = strstr(b, "{2, 4} #");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hash);
    int id = atoi(hash + strlen("{2, 4} #"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, mem_printf("\"id\": %d,", id)));
    const char *w = line_of(t, "{\"line\": 17, \"col\": 9,");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL(strstr(w, "\"rule\": \"E-2, E-13\", \"kind\": \"match_cast\""));
}

/* E-9: a closure captures the shape variables it mentions, also those mentioned only in a
 * call's attributes (a keyword's value, an item of a list, a value of a dict), and no
 * others; the trace shows the variables in scope at each step. */
static const char CLOSURES[] =
    "from tvm.script import ir as I\n"
    "from tvm.script import relax as R\n"
    "from tvm.script import tir as T\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\",), \"float32\"), u: R.Tensor((\"m\", 1), \"float32\"),\n"
    "             v: R.Tensor((\"p\", 1, 1), \"float32\")):\n"
    "        n = T.int64()\n"
    "        m = T.int64()\n"
    "        p = T.int64()\n"
    "        @R.function\n"
    "        def f1(a: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "            b = R.call_packed(\"spectest.identity\", a, sinfo_args=R.Tensor((2,), "
    "\"float32\"),\n"
    "                              k=R.prim_value(n))\n"
    "            return b\n"
    "        @R.function\n"
    "        def f2(a: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "            c = R.call_packed(\"spectest.identity\", a, sinfo_args=R.Tensor((2,), "
    "\"float32\"),\n"
    "                              j=1, k=[2, R.prim_value(m)])\n"
    "            return c\n"
    "        @R.function\n"
    "        def f3(a: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
    "            d = R.call_packed(\"spectest.identity\", a, sinfo_args=R.Tensor((2,), "
    "\"float32\"),\n"
    "                              k={\"q\": R.prim_value(p)})\n"
    "            return d\n"
    "        y1 = f1(x)\n"
    "        y2 = f2(x)\n"
    "        y3 = f3(x)\n"
    "        return y3\n";

static void test_closure_captures(void)
{
    static const char *const args[] = {
        "{tensor: {dtype: float32, shape: [2], data: [1, 2]}}",
        "{tensor: {dtype: float32, shape: [3, 1], data: [1, 2, 3]}}",
        "{tensor: {dtype: float32, shape: [4, 1, 1], data: [1, 2, 3, 4]}}",
    };
    char *t = traced_program(CLOSURES, args, 3, false);
    expect_line(t, "15:13: b = tensor float32 [2] {1, 2} #", "  [n=2]  (f1, depth 2, E-12)");
    expect_line(t, "20:13: c = tensor float32 [2] {1, 2} #", "  [m=3]  (f2, depth 2, E-12)");
    expect_line(t, "25:13: d = tensor float32 [2] {1, 2} #", "  [p=4]  (f3, depth 1, E-12)");
}

UNIT_SUITE(trace)
{
    CU_pSuite s = CU_add_suite("trace", NULL, NULL);
    CU_add_test(s, "text: function, depth and rule of each step", test_text_trace);
    CU_add_test(s, "json: one object a line", test_json_trace);
    CU_add_test(s, "closures capture the shape variables of attributes", test_closure_captures);
}
