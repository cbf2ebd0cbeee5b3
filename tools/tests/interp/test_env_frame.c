/* test_env_frame: the resolution pass (a slot of its function's frames per variable a
 * function binds) and frames as arrays beside the map. SPEC_NOTES: "Evaluation" (E-2, E-13). */
#include <setjmp.h>
#include <stdio.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "tools/tests/unit.h"

static IRModule *parse(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "\nparse failed: %s\n", error_format(&trap.error));
        return NULL;
    }
    return script_parse("test.py", src, &trap);
}

static const char *nested_src =
    "@R.function\n"
    "def main(x: R.Tensor((2,), \"float32\"), c: R.Tensor((), \"bool\")):\n"
    "    a = (x, x)\n"
    "    @R.function\n"
    "    def inner(p: R.Object):\n"
    "        q = (p, a)\n"
    "        return q\n"
    "    if c:\n"
    "        t = (a, x)\n"
    "        r = t\n"
    "    else:\n"
    "        r = a\n"
    "    return (inner, r)\n";

/* The parameters first, then every binding in order, If branches included; a nested
 * Function's own variables are not the outer function's. */
static void test_resolution(void)
{
    IRModule *mod = parse(nested_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    Function *mainf = mod->funcs[0]->u.relax;
    const BindingBlock *blk = mainf->body->u.seq.blocks[0];
    Function *inner = blk->bindings[1]->value->u.func;
    struct FuncInfoTable *t = env_func_table_new();
    const FuncInfo *fi = env_func_info(t, mainf);
    CU_ASSERT_PTR_EQUAL(mainf->params[0]->slot_owner, mainf);
    CU_ASSERT_EQUAL(mainf->params[0]->slot, 0);
    CU_ASSERT_EQUAL(mainf->params[1]->slot, 1);
    CU_ASSERT_EQUAL(blk->bindings[0]->var->slot, 2);  /* a */
    CU_ASSERT_PTR_NULL(inner->params[0]->slot_owner); /* not analyzed yet */
    /* x, c, a, inner, t, r (then branch), r (else branch), the If's r and the result: each
     * distinct variable the function binds has a slot, all below nslots. */
    CU_ASSERT_TRUE(fi->nslots >= 6);
    for (int i = 0; i < blk->n; i++) {
        const Var *v = blk->bindings[i]->var;
        CU_ASSERT_PTR_EQUAL(v->slot_owner, mainf);
        CU_ASSERT_TRUE(v->slot >= 0 && v->slot < fi->nslots);
    }
    const FuncInfo *ii = env_func_info(t, inner);
    CU_ASSERT_PTR_EQUAL(inner->params[0]->slot_owner, inner);
    CU_ASSERT_EQUAL(inner->params[0]->slot, 0);
    CU_ASSERT_EQUAL(ii->nslots, 2);                                /* p, q */
    CU_ASSERT_PTR_EQUAL(blk->bindings[0]->var->slot_owner, mainf); /* a stays main's */
}

/* A slot serves the variable resolved to it; a second variable claiming the same slot (a
 * copy of the first) goes through the map, and both keep their own values. */
static void test_frame_slots(void)
{
    Function *f = function_new(span_none());
    Var *a = var_new("a", false, NULL, span_none());
    a->slot_owner = f;
    a->slot = 0;
    Var *twin = MEM_NEW(Var);
    *twin = *a;
    Var *other = var_new("o", false, NULL, span_none()); /* resolved nowhere */
    Value *one = value_unit(), *two = value_unit(), *three = value_unit();
    EnvPool *pool = env_pool_new();
    Env *env = env_pool_take(pool, NULL, 1);
    env_use_frame(env, f, 1);
    env_bind(env, a, one);
    env_bind(env, twin, two);
    env_bind(env, other, three);
    CU_ASSERT_PTR_EQUAL(env_lookup(env, a), one);
    CU_ASSERT_PTR_EQUAL(env_lookup(env, twin), two);
    CU_ASSERT_PTR_EQUAL(env_lookup(env, other), three);
    env_unbind(env, a);
    CU_ASSERT_PTR_NULL(env_lookup(env, a));
    CU_ASSERT_PTR_EQUAL(env_lookup(env, twin), two);
    env_unbind(env, twin);
    CU_ASSERT_PTR_NULL(env_lookup(env, twin));
    /* Rebinding after a scope ended, and a child frame of another function seeing it. */
    env_bind(env, a, three);
    Function *g = function_new(span_none());
    Env *child = env_new_child(env, 1);
    env_use_frame(child, g, 4);
    CU_ASSERT_PTR_EQUAL(env_lookup(child, a), three);
    /* A frame back from the pool holds nothing. */
    env_pool_give(pool, env);
    Env *again = env_pool_take(pool, NULL, 1);
    CU_ASSERT_PTR_EQUAL(again, env);
    env_use_frame(again, f, 1);
    CU_ASSERT_PTR_NULL(env_lookup(again, a));
    CU_ASSERT_PTR_NULL(env_lookup(again, other));
    /* A frame of another function: a's slot is not its. */
    env_use_frame(again, g, 1);
    env_bind(again, a, two);
    CU_ASSERT_PTR_EQUAL(env_lookup(again, a), two);
}

typedef struct Run {
    Value *v;
    bool failed;
} Run;

static Run run(const char *src, Value **args, int nargs)
{
    Run r = {0};
    IRModule *mod = parse(src);
    if (mod == NULL) {
        r.failed = true;
        return r;
    }
    ErrorTrap trap;
    Interp in;
    if (setjmp(trap.jmp) != 0) {
        r.failed = true;
        return r;
    }
    interp_init(&in, mod, NULL, &trap);
    r.v = interp_run_entry(&in, "main", args, nargs);
    return r;
}

/* Frames are reused (a returned call's, a tail call's): a closure made in one activation
 * still sees what it captured after many other activations of the same function ran. */
static void test_frames_reused_by_recursion(void)
{
    const char *src = "@I.ir_module\n"
                      "class Module:\n"
                      "    @R.function\n"
                      "    def mk(n: R.Prim(\"int64\")):\n"
                      "        m = n\n"
                      "        @R.function\n"
                      "        def get() -> R.Prim(\"int64\"):\n"
                      "            return m\n"
                      "        return get\n"
                      "    @R.function\n"
                      "    def main():\n"
                      "        cls = Module\n"
                      "        f = cls.mk(R.prim_value(1))\n"
                      "        g = cls.mk(R.prim_value(2))\n"
                      "        h = cls.mk(R.prim_value(3))\n"
                      "        a = f()\n"
                      "        b = g()\n"
                      "        c = h()\n"
                      "        return (a, b, c)\n";
    Run r = run(src, NULL, 0);
    CU_ASSERT_FALSE_FATAL(r.failed);
    CU_ASSERT_EQUAL_FATAL(r.v->kind, VAL_TUPLE);
    CU_ASSERT_EQUAL_FATAL(r.v->u.tuple.n, 3);
    for (int i = 0; i < 3; i++) {
        const Value *f = r.v->u.tuple.fields[i];
        CU_ASSERT_EQUAL_FATAL(f->kind, VAL_PRIM);
        CU_ASSERT_EQUAL(f->u.prim.i, i + 1);
    }
}

UNIT_SUITE(env_frame)
{
    CU_pSuite s = CU_add_suite("env frames", 0, 0);
    CU_add_test(s, "resolution pass", test_resolution);
    CU_add_test(s, "frame slots", test_frame_slots);
    CU_add_test(s, "frames reused, captures kept", test_frames_reused_by_recursion);
}
