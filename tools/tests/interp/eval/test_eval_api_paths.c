/* test_eval_api_paths: what the evaluator does on paths only its C API reaches: an entry named
 * by its GlobalVar when its global_symbol differs, an interrupt flag, and --trace=json's
 * escaping, its null fields and the rules of string, dtype and PrimFunc bindings.
 * SPEC_NOTES: "Evaluation". */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "tools/tests/interp/eval/eval_run.h"
#include "tools/tests/unit.h"
#include "values/value.h"

/* ENTRY-1: `foo`'s global_symbol is "bar" (a module WF-13 rejects, which interp_run_entry
 * does not check): asked for "foo", the evaluator falls back to the function of that name. */
static void test_entry_by_gvar_name(void)
{
    static const char *const SRC = MOD_HEAD "    @R.function\n"
                                            "    def main() -> R.Prim(\"int64\"):\n"
                                            "        r = R.prim_value(T.int64(1))\n"
                                            "        return r\n"
                                            "    @R.function\n"
                                            "    def foo() -> R.Prim(\"int64\"):\n"
                                            "        R.func_attr({\"global_symbol\": \"bar\"})\n"
                                            "        r = R.prim_value(T.int64(7))\n"
                                            "        return r\n";
    IRModule *mod = eval_parse(SRC);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    Interp in;
    ErrorTrap trap;
    Value *by_symbol = NULL, *by_name = NULL;
    if (setjmp(trap.jmp) == 0) {
        interp_init(&in, mod, NULL, &trap);
        by_symbol = interp_run_entry(&in, "bar", NULL, 0);
        by_name = interp_run_entry(&in, "foo", NULL, 0);
    } else {
        fprintf(stderr, "\nunexpected error: %s\n", error_format(&trap.error));
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(by_symbol);
    CU_ASSERT_PTR_NOT_NULL_FATAL(by_name);
    CU_ASSERT_EQUAL(prim_int(by_symbol), 7);
    CU_ASSERT_EQUAL(prim_int(by_name), 7);
}

/* A set interrupt flag stops the run at its first step with Interrupted (no rule). */
static void test_interrupt_flag(void)
{
    static const char *const SRC = MOD_HEAD "    @R.function\n"
                                            "    def main() -> R.Prim(\"int64\"):\n"
                                            "        r = R.prim_value(T.int64(1))\n"
                                            "        return r\n";
    static volatile sig_atomic_t stop = 1;
    InterpOptions opt = {0};
    opt.max_depth = INTERP_DEFAULT_MAX_DEPTH;
    opt.fuel = INTERP_DEFAULT_FUEL;
    opt.interrupt = &stop;
    Run r = run_opt(SRC, NULL, 0, &opt);
    CU_ASSERT_TRUE(fails(r, "Interrupted", NULL));
    stop = 0;
    CU_ASSERT_TRUE(ok(run_opt(SRC, NULL, 0, &opt)));
}

/* The JSON trace of main below, one object a line, read back into collected memory. */
static char *json_trace(const char *src)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    InterpOptions opt = {0};
    opt.max_depth = INTERP_DEFAULT_MAX_DEPTH;
    opt.fuel = INTERP_DEFAULT_FUEL;
    opt.trace = f;
    opt.trace_json = true;
    Run r = run_opt(src, NULL, 0, &opt);
    CU_ASSERT_TRUE(ok(r));
    long n = ftell(f);
    rewind(f);
    char *text = n >= 0 ? mem_alloc_atomic((size_t)n + 1) : NULL;
    if (text != NULL)
        text[fread(text, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return text;
}

/* The line of the trace whose "var" is `var` (or the result line for NULL). */
static const char *trace_line(const char *text, const char *var)
{
    char key[64];
    snprintf(key, sizeof key, "\"var\": %s%s%s", var ? "\"" : "", var ? var : "null",
             var ? "\"" : "");
    const char *at = strstr(text, key);
    if (at == NULL)
        fprintf(stderr, "\nno trace line with %s in:\n%s\n", key, text);
    return at;
}

/* E-5, E-6 and E-2 name the rules of string, dtype and global bindings; a string's quote,
 * backslash and tab are escaped as JSON wants; a body that is not a variable is a result
 * line whose var is null. */
static void test_json_trace(void)
{
    static const char *const SRC = MOD_HEAD "    @T.prim_func\n"
                                            "    def k(A: T.Buffer((2,), \"float32\")):\n"
                                            "        A[0] = T.float32(1)\n"
                                            "    @R.function\n"
                                            "    def main():\n"
                                            "        s = R.str(\"a\\\"b\\\\c\\td\")\n"
                                            "        d = R.dtype(\"float16\")\n"
                                            "        g = Module.k\n"
                                            "        return (s, d)\n";
    char *text = json_trace(SRC);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *s = trace_line(text, "s"), *d = trace_line(text, "d"), *g = trace_line(text, "g");
    const char *res = trace_line(text, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    /* the summary `string "a"b\c<tab>d"` written as a JSON string */
    const char *s_end = strchr(s, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(s_end);
    const char *s_line = mem_strndup(s, (size_t)(s_end - s));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\"rule\": \"E-5\", \"kind\": \"binding\", \"var\": \"s\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(s_line, "\"value\": \"string \\\"a\\\"b\\\\c\\u0009d\\\" #"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\"rule\": \"E-6\", \"kind\": \"binding\", \"var\": \"d\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"rule\": \"E-2\", \"kind\": \"binding\", \"var\": \"g\", "
                                        "\"value\": \"prim_func k #"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"rule\": \"E-3\", \"kind\": \"result\", \"var\": null"));
}

UNIT_SUITE(eval_api_paths)
{
    CU_pSuite s = CU_add_suite("evaluator API paths", 0, 0);
    CU_add_test(s, "entry by GlobalVar name", test_entry_by_gvar_name);
    CU_add_test(s, "interrupt flag", test_interrupt_flag);
    CU_add_test(s, "JSON trace", test_json_trace);
}
