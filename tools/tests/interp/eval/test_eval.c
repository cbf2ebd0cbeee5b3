/* test_eval: the evaluator on small programs: every E rule, scopes, closures, MatchCast and
 * signature checks, tail calls. Limits are in test_eval_limits.c. SPEC_NOTES: "Evaluation". */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/eval/env.h"
#include "interp/eval/interp.h"
#include "tools/tests/interp/eval/eval_run.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"

/* ---- E-1..E-8 ------------------------------------------------------------------------- */

static void test_constants_are_fresh(void)
{
    Run r = run(MOD_HEAD "    @R.function\n"
                         "    def c() -> R.Tensor((2,), \"float32\"):\n"
                         "        return R.const([1, 2], \"float32\")\n"
                         "    @R.function\n"
                         "    def main():\n"
                         "        a = Module.c()\n"
                         "        b = Module.c()\n"
                         "        return (a, b, a)\n",
                NULL, 0);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL_FATAL(r.v->kind, VAL_TUPLE);
    Value **f = r.v->u.tuple.fields;
    CU_ASSERT_PTR_NOT_EQUAL(f[0]->u.tensor, f[1]->u.tensor); /* E-1 */
    CU_ASSERT_PTR_EQUAL(f[0], f[2]);                         /* ALIAS-1 */
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(f[1]->u.tensor, 1), 2.0, 0);
}

static void test_scalars_and_shapes(void)
{
    Value *args[1] = {mat(3, 4)};
    Run r = run("@R.function\n"
                "def main(x: R.Tensor((\"n\", \"m\"), \"float32\")):\n"
                "    n = T.int64()\n"
                "    m = T.int64()\n"
                "    a = R.prim_value(n * m + 1)\n"
                "    s = R.shape([n, 2 * m])\n"
                "    t = R.str(\"hi\")\n"
                "    d = R.dtype(\"float16\")\n"
                "    u = (a, s, t, d)\n"
                "    g = u[1]\n"
                "    return (u, g)\n",
                args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    Value *u = r.v->u.tuple.fields[0];
    CU_ASSERT_EQUAL(prim_int(u->u.tuple.fields[0]), 13);
    Value *s = u->u.tuple.fields[1];
    CU_ASSERT_EQUAL_FATAL(s->kind, VAL_SHAPE);
    CU_ASSERT_EQUAL(s->u.shape.dims[0], 3);
    CU_ASSERT_EQUAL(s->u.shape.dims[1], 8);
    CU_ASSERT_STRING_EQUAL(u->u.tuple.fields[2]->u.str, "hi");
    CU_ASSERT_EQUAL(u->u.tuple.fields[3]->kind, VAL_DTYPE);
    CU_ASSERT_PTR_EQUAL(r.v->u.tuple.fields[1], s); /* E-7: an alias */
}

static void test_tuple_index_errors(void)
{
    Value *args[1] = {vec(2)};
    Run r = run("@R.function\n"
                "def main(x: R.Object):\n"
                "    y = x[0]\n"
                "    return y\n",
                args, 1);
    CU_ASSERT_TRUE(fails(r, "TupleIndex", "E-7"));
    Value *fields[1] = {vec(1)};
    Value *targs[1] = {value_tuple(fields, 1)};
    r = run("@R.function\n"
            "def main(x: R.Tuple(R.Tensor, R.Tensor)):\n"
            "    y = x[1]\n"
            "    return y\n",
            targs, 1);
    CU_ASSERT_TRUE(fails(r, "ArgCheck", "FN-2"));
    r = run("@R.function\n"
            "def main(x: R.Object):\n"
            "    y = x[1]\n"
            "    return y\n",
            targs, 1);
    CU_ASSERT_TRUE(fails(r, "TupleIndex", "E-7"));
}

/* ---- E-13: scopes ------------------------------------------------------------------- */

static void test_shadowing_and_dataflow(void)
{
    Value *args[1] = {vec(2)};
    Run r = run("@R.function\n"
                "def main(x: R.Tensor((2,), \"float32\")):\n"
                "    y = R.prim_value(1)\n"
                "    y = R.prim_value(2)\n"
                "    with R.dataflow():\n"
                "        lv = (x, y)\n"
                "        gv = lv\n"
                "        R.output(gv)\n"
                "    return (y, gv)\n",
                args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v->u.tuple.fields[0]), 2);
    Value *gv = r.v->u.tuple.fields[1];
    CU_ASSERT_PTR_EQUAL(gv->u.tuple.fields[0], args[0]);
}

static void test_if(void)
{
    const char *src = "@R.function\n"
                      "def main(c: R.Prim(\"bool\"), x: R.Tensor((2,), \"float32\")):\n"
                      "    if c:\n"
                      "        y = R.prim_value(1)\n"
                      "    else:\n"
                      "        y = R.prim_value(2)\n"
                      "    return y\n";
    Value *args[2] = {value_prim_bool(true), vec(2)};
    Run r = run(src, args, 2);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 1);
    args[0] = value_prim_bool(false);
    r = run(src, args, 2);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 2);
    /* A rank-0 bool tensor is a condition too. */
    Tensor *t = tensor_new(dtype_bool(), 0, NULL);
    tensor_set_i64(t, 0, 1);
    Value *targs[1] = {value_tensor(t)};
    r = run("@R.function\n"
            "def main(c: R.Tensor((), \"bool\")):\n"
            "    if c:\n"
            "        y = R.prim_value(1)\n"
            "    else:\n"
            "        y = R.prim_value(2)\n"
            "    return y\n",
            targs, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 1);
    Value *bad[1] = {value_prim_int(dtype_int64(), 1)};
    r = run("@R.function\n"
            "def main(c: R.Object):\n"
            "    if c:\n"
            "        y = R.prim_value(1)\n"
            "    else:\n"
            "        y = R.prim_value(2)\n"
            "    return y\n",
            bad, 1);
    CU_ASSERT_TRUE(fails(r, "IfCondition", "E-10"));
}

static void test_branch_shape_scope(void)
{
    /* A shape variable bound in a branch leaves with it: the later MatchCast binds anew. */
    Value *args[2] = {vec(3), vec(5)};
    Run r = run("@R.function\n"
                "def main(x: R.Tensor(ndim=1), y: R.Tensor(ndim=1)):\n"
                "    n = T.int64()\n"
                "    if R.prim_value(T.bool(True)):\n"
                "        a = R.match_cast(x, R.Tensor((n,)))\n"
                "        z = R.prim_value(n)\n"
                "    else:\n"
                "        z = R.prim_value(0)\n"
                "    b = R.match_cast(y, R.Tensor((n,)))\n"
                "    return (z, R.prim_value(n))\n",
                args, 2);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v->u.tuple.fields[0]), 3);
    CU_ASSERT_EQUAL(prim_int(r.v->u.tuple.fields[1]), 5);
}

/* ---- E-9, E-12: closures and calls ------------------------------------------------------ */

static void test_closure_captures(void)
{
    Value *args[1] = {vec(3)};
    Run r = run("@R.function(pure=False)\n"
                "def main(x: R.Tensor((\"n\",), \"float32\")):\n"
                "    n = T.int64()\n"
                "    @R.function\n"
                "    def get(k: R.Prim(\"int64\")):\n"
                "        return (x, R.prim_value(n), k)\n"
                "    _ = R.call_packed(\"spectest.add_one_inplace\", x, sinfo_args=R.Tuple())\n"
                "    r = get(R.prim_value(7))\n"
                "    return r\n",
                args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    Value **f = r.v->u.tuple.fields;
    CU_ASSERT_PTR_EQUAL(f[0], args[0]); /* captured by reference */
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(f[0]->u.tensor, 0), 1.0, 0);
    CU_ASSERT_EQUAL(prim_int(f[1]), 3);
    CU_ASSERT_EQUAL(prim_int(f[2]), 7);
}

static void test_local_recursion(void)
{
    Run r = run("@R.function\n"
                "def main():\n"
                "    @R.function\n"
                "    def count(k: R.Prim(value=\"m\")) -> R.Prim(\"int64\"):\n"
                "        m = T.int64()\n"
                "        if m == 0:\n"
                "            y = R.prim_value(100)\n"
                "        else:\n"
                "            y = count(R.prim_value(m - 1))\n"
                "        return y\n"
                "    r = count(R.prim_value(5))\n"
                "    return r\n",
                NULL, 0);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 100);
}

static void test_mutual_recursion(void)
{
    Value *args[1] = {value_prim_int(dtype_int64(), 7)};
    Run r = run(MUTUAL, args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 0);
    args[0] = value_prim_int(dtype_int64(), 100000); /* tail calls: no depth, no stack */
    r = run(MUTUAL, args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_EQUAL(prim_int(r.v), 1);
}

static void test_call_errors(void)
{
    Value *args[1] = {vec(2)};
    Run r = run(MOD_HEAD "    @R.function\n"
                         "    def f(a: R.Object) -> R.Object:\n"
                         "        return a\n"
                         "    @R.function\n"
                         "    def main(x: R.Object):\n"
                         "        y = Module.f(x, x)\n"
                         "        return y\n",
                args, 1);
    CU_ASSERT_TRUE(fails(r, "Arity", "E-12"));
    r = run("@R.function\n"
            "def main(x: R.Callable([R.Object], R.Object)):\n"
            "    y = x(x)\n"
            "    return y\n",
            args, 1);
    CU_ASSERT_TRUE(fails(r, "ArgCheck", "FN-2"));
    r = run("@R.function\n"
            "def main(x: R.Object):\n"
            "    f = R.ExternFunc(\"no.such.function\")\n"
            "    return f\n",
            args, 1);
    CU_ASSERT_TRUE(fails(r, "PackedFuncMissing", "E-11"));
    r = run(MOD_HEAD "    @R.function\n"
                     "    def helper(x: R.Object):\n"
                     "        return x\n",
            args, 1);
    CU_ASSERT_TRUE(fails(r, "NoEntry", "ENTRY-1"));
    /* A lone function is the program's only function: the entry "main" names it. */
    r = run("@R.function\n"
            "def helper(x: R.Object):\n"
            "    return x\n",
            args, 1);
    CU_ASSERT_TRUE(ok(r));
    /* NotCallable through the public entry point. */
    IRModule *mod = eval_parse("@R.function\ndef main():\n    return R.tuple()\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    Interp in;
    ErrorTrap trap;
    volatile bool failed = false;
    if (setjmp(trap.jmp) == 0) {
        interp_init(&in, mod, NULL, &trap);
        interp_call(&in, args[0], NULL, 0, span_none());
    } else {
        failed = true;
        CU_ASSERT_STRING_EQUAL(trap.error.code, "NotCallable");
    }
    CU_ASSERT_TRUE(failed);
}

static void test_packed_and_extern(void)
{
    Value *args[1] = {vec(2)};
    Run r = run(MOD_HEAD "    ident = R.ExternFunc(\"spectest.identity\")\n"
                         "    @R.function\n"
                         "    def main(x: R.Tensor((2,), \"float32\")):\n"
                         "        y = Module.ident(x)\n"
                         "        return y\n",
                args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_PTR_EQUAL(r.v, args[0]);
    r = run(MOD_HEAD "    missing = R.ExternFunc(\"no.such\")\n"
                     "    @R.function\n"
                     "    def main(x: R.Tensor((2,), \"float32\")):\n"
                     "        y = Module.missing(x)\n"
                     "        return y\n",
            args, 1);
    CU_ASSERT_TRUE(fails(r, "PackedFuncMissing", "E-11"));
    /* ENTRY-1: globals are evaluated first, so an unused missing extern fails too. */
    r = run(MOD_HEAD "    missing = R.ExternFunc(\"no.such\")\n"
                     "    @R.function\n"
                     "    def main(x: R.Tensor((2,), \"float32\")):\n"
                     "        return x\n",
            args, 1);
    CU_ASSERT_TRUE(fails(r, "PackedFuncMissing", "E-11"));
}

/* ---- env and the free-variable analysis ------------------------------------------------ */

static void test_env_map(void)
{
    enum { N = 1000 };
    Var **vars = MEM_ARRAY(Var *, N);
    Value *one = value_unit();
    Env *env = env_new(0);
    for (int i = 0; i < N; i++) {
        vars[i] = var_new("v", false, NULL, span_none());
        env_bind(env, vars[i], one);
    }
    for (int i = 0; i < N; i += 2)
        env_unbind(env, vars[i]);
    int found = 0;
    for (int i = 0; i < N; i++)
        found += env_lookup(env, vars[i]) != NULL;
    CU_ASSERT_EQUAL(found, N / 2);
    CU_ASSERT_PTR_NULL(env_lookup(env, vars[0]));
    CU_ASSERT_PTR_EQUAL(env_lookup(env, vars[1]), one);
    /* a child sees its parent's bindings; scope marks unbind shape variables */
    Env *child = env_new_child(env, 4);
    CU_ASSERT_PTR_EQUAL(env_lookup(child, vars[N - 1]), one);
    TirVar *n = tirvar_new("n", dtype_int64(), span_none());
    int mark = env_shape_mark(child);
    env_bind_shape(child, n, 7);
    int64_t x = 0;
    CU_ASSERT_TRUE(env_lookup_shape(child, n, &x) && x == 7);
    env_shape_pop(child, mark);
    CU_ASSERT_FALSE(env_lookup_shape(child, n, &x));
}

/* A pooled activation comes back empty, under its new parent, with room for its keys. */
static void test_env_pool(void)
{
    EnvPool *pool = env_pool_new();
    Var *a = var_new("a", false, NULL, span_none()), *b = var_new("b", false, NULL, span_none());
    TirVar *n = tirvar_new("n", dtype_int64(), span_none());
    Value *one = value_unit();
    Env *parent = env_new(1);
    env_bind(parent, b, one);
    Env *env = env_pool_take(pool, NULL, 2);
    env_bind(env, a, one);
    env_bind_shape(env, n, 3);
    env_pool_give(pool, env);
    Env *again = env_pool_take(pool, parent, 40);
    CU_ASSERT_PTR_EQUAL(again, env);
    int64_t x;
    CU_ASSERT_PTR_NULL(env_lookup(again, a));
    CU_ASSERT_FALSE(env_lookup_shape(again, n, &x));
    CU_ASSERT_EQUAL(env_shape_mark(again), 0);
    CU_ASSERT_PTR_EQUAL(env_lookup(again, b), one);
    enum { K = 40 };
    Var *vars[K];
    for (int i = 0; i < K; i++) {
        vars[i] = var_new("v", false, NULL, span_none());
        env_bind(again, vars[i], one);
    }
    for (int i = 0; i < K; i++)
        CU_ASSERT_PTR_EQUAL(env_lookup(again, vars[i]), one);
}

/* ---- the resolution pass and frames (env.c) ---- */

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
    IRModule *mod = eval_parse(nested_src);
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

/* A global's cached index is checked: the same GlobalVar at another index (its module's
 * functions reordered) still names its own function. */
static void test_global_slot_checked(void)
{
    IRModule *mod =
        eval_parse("@I.ir_module\nclass Module:\n    @R.function\n    def a() -> R.Prim(\"int64\"):\n"
              "        return R.prim_value(1)\n    @R.function\n    def main():\n"
              "        cls = Module\n        r = cls.a()\n        return r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    CU_ASSERT_EQUAL_FATAL(mod->nfuncs, 2);
    for (int round = 0; round < 2; round++) {
        Interp in;
        ErrorTrap trap;
        Value *volatile v = NULL;
        if (setjmp(trap.jmp) == 0) {
            interp_init(&in, mod, NULL, &trap);
            v = interp_run_entry(&in, "main", NULL, 0);
        }
        CU_ASSERT_TRUE(v != NULL && v->kind == VAL_PRIM && v->u.prim.i == 1);
        ModuleFunc *first = mod->funcs[0]; /* swap: a's GlobalVar now sits at index 1 */
        mod->funcs[0] = mod->funcs[1];
        mod->funcs[1] = first;
    }
}

static void test_free_vars(void)
{
    IRModule *mod = eval_parse("@R.function\n"
                          "def main(x: R.Tensor((\"n\",), \"float32\"), y: R.Object):\n"
                          "    n = T.int64()\n"
                          "    @R.function\n"
                          "    def inner(a: R.Object):\n"
                          "        b = (a, x, R.prim_value(n))\n"
                          "        return b\n"
                          "    return inner\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    Function *mainf = mod->funcs[0]->u.relax;
    Function *inner = mainf->body->u.seq.blocks[0]->bindings[0]->value->u.func;
    struct FuncInfoTable *t = env_func_table_new();
    const FuncInfo *fi = env_func_info(t, inner);
    CU_ASSERT_EQUAL_FATAL(fi->nfree_vars, 1);
    CU_ASSERT_PTR_EQUAL(fi->free_vars[0], mainf->params[0]);
    CU_ASSERT_EQUAL_FATAL(fi->nshape_vars, 1);
    CU_ASSERT_STRING_EQUAL(fi->shape_vars[0]->name, "n");
    CU_ASSERT_PTR_EQUAL(env_func_info(t, inner), fi); /* cached */
    CU_ASSERT_EQUAL(env_func_info(t, mainf)->nfree_vars, 0);
}

static void test_closure_outlives_activation(void)
{
    Value *args[1] = {vec(2)};
    Run r = run(MOD_HEAD "    @R.function\n"
                         "    def mk(x: R.Tensor((\"n\",), \"float32\")):\n"
                         "        n = T.int64()\n"
                         "        y = R.prim_value(1)\n"
                         "        @R.function\n"
                         "        def get(k: R.Object):\n"
                         "            return (x, y, R.shape([n]))\n"
                         "        y = R.prim_value(2)\n"
                         "        return get\n"
                         "    @R.function\n"
                         "    def main(x: R.Tensor((2,), \"float32\")):\n"
                         "        c = Module.mk(x)\n"
                         "        r = c(x)\n"
                         "        return r\n",
                args, 1);
    CU_ASSERT_TRUE_FATAL(ok(r));
    Value **f = r.v->u.tuple.fields;
    CU_ASSERT_PTR_EQUAL(f[0], args[0]);
    CU_ASSERT_EQUAL(prim_int(f[1]), 1); /* the shadowed y is another variable */
    CU_ASSERT_EQUAL(f[2]->u.shape.dims[0], 2);
}

/* ---- MatchCast ------------------------------------------------------------------------ */

static Run cast(const char *ann, Value *arg)
{
    char *src = mem_printf("@R.function\n"
                           "def main(x: R.Object):\n"
                           "    n = T.int64()\n"
                           "    m = T.int64()\n"
                           "    y = R.match_cast(x, %s)\n"
                           "    return y\n",
                           ann);
    Value *args[1] = {arg};
    return run(src, args, 1);
}

static void test_match_cast_success(void)
{
    CU_ASSERT_TRUE(ok(cast("R.Object", vec(2))));
    CU_ASSERT_TRUE(ok(cast("R.Tensor((n, m), \"float32\")", mat(2, 3))));
    CU_ASSERT_TRUE(ok(cast("R.Tensor((n, n + 1), \"float32\")", mat(2, 3))));
    CU_ASSERT_TRUE(ok(cast("R.Tensor(ndim=2)", mat(2, 3))));
    CU_ASSERT_TRUE(ok(cast("R.Prim(\"int64\")", value_prim_int(dtype_int64(), 4))));
    CU_ASSERT_TRUE(ok(cast("R.Prim(value=n)", value_prim_int(dtype_int64(), 4))));
    CU_ASSERT_TRUE(ok(cast("R.Prim(value=4)", value_prim_int(dtype_int64(), 4))));
    int64_t dims[2] = {5, 6};
    CU_ASSERT_TRUE(ok(cast("R.Shape([n, m])", value_shape(dims, 2))));
    CU_ASSERT_TRUE(ok(cast("R.Shape(ndim=2)", value_shape(dims, 2))));
    Value *fields[2] = {vec(2), value_shape(dims, 2)};
    CU_ASSERT_TRUE(ok(cast("R.Tuple(R.Tensor((n,)), R.Shape([m, 6]))", value_tuple(fields, 2))));
}

static void test_match_cast_errors(void)
{
    int64_t dims[2] = {5, 6};
    Value *sh = value_shape(dims, 2);
    CU_ASSERT_TRUE(fails(cast("R.Tensor((2, 3))", sh), "MatchCastKind", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Tensor(ndim=1)", mat(2, 3)), "MatchCastNdim", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Tensor((n,))", mat(2, 3)), "MatchCastNdim", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Tensor((2, 3), \"int32\")", mat(2, 3)), "MatchCastDType", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Tensor((n, n))", mat(2, 3)), "MatchCastShape", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Tensor((2, 4))", mat(2, 3)), "MatchCastShape", "MC-2"));
    /* dims in order: 2 * n before n binds */
    CU_ASSERT_TRUE(fails(cast("R.Tensor((2 * n, n))", mat(4, 2)), "UnboundShapeVar", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Prim(\"int64\")", sh), "MatchCastKind", "MC-3"));
    CU_ASSERT_TRUE(fails(cast("R.Prim(\"int32\")", value_prim_int(dtype_int64(), 1)),
                         "MatchCastDType", "MC-3"));
    CU_ASSERT_TRUE(
        fails(cast("R.Prim(value=3)", value_prim_int(dtype_int64(), 1)), "MatchCastValue", "MC-3"));
    CU_ASSERT_TRUE(fails(cast("R.Shape(ndim=3)", sh), "MatchCastNdim", "MC-4"));
    CU_ASSERT_TRUE(fails(cast("R.Shape([n, n])", sh), "MatchCastShape", "MC-4"));
    CU_ASSERT_TRUE(fails(cast("R.Shape([5])", vec(5)), "MatchCastKind", "MC-4"));
    CU_ASSERT_TRUE(fails(cast("R.Tuple(R.Object)", sh), "MatchCastKind", "MC-5"));
    Value *fields[2] = {vec(2), sh};
    Value *tup = value_tuple(fields, 2);
    CU_ASSERT_TRUE(fails(cast("R.Tuple(R.Object)", tup), "MatchCastTupleLength", "MC-5"));
    CU_ASSERT_TRUE(fails(cast("R.Tuple(R.Object, R.Tensor)", tup), "MatchCastKind", "MC-2"));
    CU_ASSERT_TRUE(fails(cast("R.Callable([R.Object], R.Object)", sh), "MatchCastKind", "MC-6"));
}

static void test_match_cast_func(void)
{
    const char *head = "@R.function(pure=False)\n"
                       "def main(x: R.Object):\n"
                       "    @R.function\n"
                       "    def pure1(a: R.Object) -> R.Object:\n"
                       "        return a\n"
                       "    @R.function(pure=False)\n"
                       "    def impure1(a: R.Object) -> R.Object:\n"
                       "        return a\n"
                       "    p = R.ExternFunc(\"spectest.identity\")\n";
    Value *args[1] = {vec(1)};
    Run r = run(mem_printf("%s    y = R.match_cast(pure1, R.Callable([R.Object], R.Object))\n"
                           "    return y\n",
                           head),
                args, 1);
    CU_ASSERT_TRUE(ok(r));
    r = run(mem_printf("%s    y = R.match_cast(impure1, R.Callable([R.Object], R.Object))\n"
                       "    return y\n",
                       head),
            args, 1);
    CU_ASSERT_TRUE(fails(r, "MatchCastFunc", "MC-6"));
    r = run(mem_printf("%s    y = R.match_cast(impure1, R.Callable([R.Object], R.Object, "
                       "purity=False))\n    return y\n",
                       head),
            args, 1);
    CU_ASSERT_TRUE(ok(r));
    r = run(mem_printf("%s    y = R.match_cast(pure1, R.Callable([R.Object, R.Object], "
                       "R.Object))\n    return y\n",
                       head),
            args, 1);
    CU_ASSERT_TRUE(fails(r, "MatchCastFunc", "MC-6"));
    r = run(mem_printf("%s    y = R.match_cast(p, R.Callable([R.Object], R.Object))\n"
                       "    return y\n",
                       head),
            args, 1);
    CU_ASSERT_TRUE(fails(r, "MatchCastFunc", "MC-6"));
}

/* ---- FN-1..FN-3: signatures ------------------------------------------------------------ */

static const char *const SIG =
    "@R.function\n"
    "def main(x: R.Tensor((\"m * n\",), \"float32\"), y: R.Tensor((\"m\", \"n\"), \"float32\")) "
    "-> R.Tensor((\"n * n\", \"m * m\"), \"float32\"):\n"
    "    m = T.int64()\n"
    "    n = T.int64()\n"
    "    z = R.match_cast(x, R.Tensor((n * n, m * m), \"float32\"))\n"
    "    return z\n";

static void test_signature_binding_order(void)
{
    Value *args[2] = {vec(6), mat(2, 3)};
    CU_ASSERT_TRUE(fails(run(SIG, args, 2), "MatchCastNdim", "MC-2"));
    args[0] = vec(7);
    CU_ASSERT_TRUE(fails(run(SIG, args, 2), "ArgCheck", "FN-2"));
    int64_t dims[2] = {2, 3};
    args[0] = vec(6);
    args[1] = value_shape(dims, 2);
    CU_ASSERT_TRUE(fails(run(SIG, args, 2), "ArgCheck", "FN-1"));
    /* a lone square tensor passes the body's cast and the return check */
    const char *sq = "@R.function\n"
                     "def main(x: R.Tensor((\"m * n\",), \"float32\"), y: R.Tensor((\"m\", \"n\"), "
                     "\"float32\")) -> R.Tensor((\"n * n\",), \"float32\"):\n"
                     "    m = T.int64()\n"
                     "    n = T.int64()\n"
                     "    return x\n";
    args[0] = vec(4);
    args[1] = mat(2, 2);
    CU_ASSERT_TRUE(ok(run(sq, args, 2)));
    args[1] = mat(4, 1);
    CU_ASSERT_TRUE(fails(run(sq, args, 2), "ReturnCheck", "FN-3"));
}

static void test_tail_call_return_checks(void)
{
    /* main's call of g is in tail position: main's return check is still owed. */
    const char *src = MOD_HEAD "    @R.function\n"
                               "    def g(x: R.Tensor(ndim=1)) -> R.Tensor(ndim=1):\n"
                               "        y = R.const([1, 2, 3], \"float32\")\n"
                               "        return y\n"
                               "    @R.function\n"
                               "    def main(x: R.Tensor((\"n\",), \"float32\")) -> "
                               "R.Tensor((\"n\",), \"float32\"):\n"
                               "        n = T.int64()\n"
                               "        r = Module.g(x)\n"
                               "        return r\n";
    Value *args[1] = {vec(2)};
    CU_ASSERT_TRUE(fails(run(src, args, 1), "ReturnCheck", "FN-3"));
    args[0] = vec(3);
    CU_ASSERT_TRUE(ok(run(src, args, 1)));
    const char *fixed = MOD_HEAD "    @R.function\n"
                                 "    def g(x: R.Tensor(ndim=1)) -> R.Tensor(ndim=1):\n"
                                 "        return x\n"
                                 "    @R.function\n"
                                 "    def main(x: R.Tensor(ndim=1)) -> R.Tensor((3,)):\n"
                                 "        r = Module.g(x)\n"
                                 "        return r\n";
    args[0] = vec(2);
    CU_ASSERT_TRUE(fails(run(fixed, args, 1), "ReturnCheck", "FN-3"));
}

/* ---- trace ------------------------------------------------------------------------ */

static void test_trace(void)
{
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    InterpOptions opt;
    interp_options_default(&opt);
    opt.trace = f;
    Value *args[1] = {vec(3)};
    Run r = run_opt("@R.function\n"
                    "def main(x: R.Tensor((\"n\",), \"float32\")):\n"
                    "    n = T.int64()\n"
                    "    y = x\n"
                    "    s = R.shape([n])\n"
                    "    return y\n",
                    args, 1, &opt);
    fclose(f);
    CU_ASSERT_TRUE_FATAL(ok(r));
    char *want = mem_printf("y = tensor float32 [3] {0, 1, 2} #%d  [n=3]", args[0]->id);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "s = shape (3) #"));
}

UNIT_SUITE(eval)
{
    CU_pSuite s = CU_add_suite("eval", 0, 0);
    CU_add_test(s, "E-1 fresh constants, aliasing", test_constants_are_fresh);
    CU_add_test(s, "E-3..E-8 scalars, shapes, tuples", test_scalars_and_shapes);
    CU_add_test(s, "E-7 tuple index errors", test_tuple_index_errors);
    CU_add_test(s, "E-13 shadowing and dataflow", test_shadowing_and_dataflow);
    CU_add_test(s, "E-10 if", test_if);
    CU_add_test(s, "E-13 branch shape scope", test_branch_shape_scope);
    CU_add_test(s, "E-9 closure captures", test_closure_captures);
    CU_add_test(s, "E-9 local recursion", test_local_recursion);
    CU_add_test(s, "mutual recursion", test_mutual_recursion);
    CU_add_test(s, "E-12 call errors", test_call_errors);
    CU_add_test(s, "E-11 packed and extern", test_packed_and_extern);
    CU_add_test(s, "env map", test_env_map);
    CU_add_test(s, "env pool", test_env_pool);
    CU_add_test(s, "E-9 free variables", test_free_vars);
    CU_add_test(s, "resolution pass", test_resolution);
    CU_add_test(s, "frame slots", test_frame_slots);
    CU_add_test(s, "global slot checked", test_global_slot_checked);
    CU_add_test(s, "E-9 closure outlives activation", test_closure_outlives_activation);
    CU_add_test(s, "MC success", test_match_cast_success);
    CU_add_test(s, "MC errors", test_match_cast_errors);
    CU_add_test(s, "MC-6 functions", test_match_cast_func);
    CU_add_test(s, "FN signature order", test_signature_binding_order);
    CU_add_test(s, "FN-3 owed across tail calls", test_tail_call_return_checks);
    CU_add_test(s, "trace", test_trace);
}
