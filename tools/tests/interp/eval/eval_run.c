/* eval_run: running small programs for the evaluator's unit tests (test_eval.c,
 * test_eval_limits.c): the result or the error, what was printed, and value makers. */
#include "tools/tests/interp/eval/eval_run.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"

IRModule *eval_parse(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "\nparse failed: %s\n", error_format(&trap.error));
        return NULL;
    }
    return script_parse("test.py", src, &trap);
}

Run run_opt(const char *src, Value **args, int nargs, const InterpOptions *opt)
{
    Run r = {0};
    IRModule *mod = eval_parse(src);
    if (mod == NULL) {
        r.failed = true;
        r.err.code = "ParseFailed";
        return r;
    }
    Interp *in = MEM_NEW(Interp);
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        interp_init(in, mod, opt, &trap);
        r.v = interp_run_entry(in, "main", args, nargs);
    } else {
        r.failed = true;
        r.err = trap.error;
    }
    r.out = strbuf_str(&in->out);
    r.in = in;
    return r;
}

Run run(const char *src, Value **args, int nargs)
{
    return run_opt(src, args, nargs, NULL);
}

bool ok(Run r)
{
    if (r.failed)
        fprintf(stderr, "\nunexpected error: %s %s: %s\n", r.err.code,
                r.err.rule ? r.err.rule : "-", r.err.message ? r.err.message : "");
    return !r.failed && r.v != NULL;
}

bool fails(Run r, const char *code, const char *rule)
{
    bool same =
        r.failed && r.err.phase == PHASE_RUNTIME && strcmp(r.err.code, code) == 0 &&
        (rule == NULL ? r.err.rule == NULL : r.err.rule != NULL && strcmp(r.err.rule, rule) == 0);
    if (!same)
        fprintf(stderr, "\nexpected %s %s, got %s %s (%s)\n", code, rule ? rule : "-",
                r.failed ? r.err.code : "success", r.failed && r.err.rule ? r.err.rule : "-",
                r.failed && r.err.message ? r.err.message : "");
    return same;
}

int64_t prim_int(const Value *v)
{
    CU_ASSERT_EQUAL_FATAL(v->kind, VAL_PRIM);
    return v->u.prim.i;
}

Value *ften(int ndim, const int64_t *shape, double start)
{
    Tensor *t = tensor_new(dtype_float32(), ndim, shape);
    for (int64_t i = 0; i < t->numel; i++)
        tensor_set_f64(t, i, start + (double)i);
    return value_tensor(t);
}

Value *vec(int64_t n)
{
    int64_t shape[1] = {n};
    return ften(1, shape, 0);
}

Value *mat(int64_t a, int64_t b)
{
    int64_t shape[2] = {a, b};
    return ften(2, shape, 0);
}

const char *const MUTUAL = MOD_HEAD "    @R.function\n"
                                    "    def even(k: R.Prim(value=\"n\")) -> R.Prim(\"bool\"):\n"
                                    "        n = T.int64()\n"
                                    "        if n == 0:\n"
                                    "            r = R.prim_value(T.bool(True))\n"
                                    "        else:\n"
                                    "            r = Module.odd(R.prim_value(n - 1))\n"
                                    "        return r\n"
                                    "    @R.function\n"
                                    "    def odd(k: R.Prim(value=\"n\")) -> R.Prim(\"bool\"):\n"
                                    "        n = T.int64()\n"
                                    "        if n == 0:\n"
                                    "            r = R.prim_value(T.bool(False))\n"
                                    "        else:\n"
                                    "            r = Module.even(R.prim_value(n - 1))\n"
                                    "        return r\n"
                                    "    @R.function\n"
                                    "    def main(k: R.Prim(\"int64\")):\n"
                                    "        r = Module.even(k)\n"
                                    "        return r\n";
