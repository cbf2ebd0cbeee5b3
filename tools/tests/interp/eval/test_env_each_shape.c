/* test_env_each_shape: env_each_shape visits every shape variable of an environment and of
 * its parents, whichever slot of the hash map it sits in (the first and the last included),
 * which the trace's shape list relies on. */
#include "ast/primexpr.h"
#include "ast/ptrmap.h"
#include "interp/eval/env.h"
#include "tools/tests/unit.h"

typedef struct Seen {
    const TirVar *vars[8];
    int64_t vals[8];
    int n;
} Seen;

static void note(void *ctx, const TirVar *var, int64_t v)
{
    Seen *s = ctx;
    if (s->n < 8) {
        s->vars[s->n] = var;
        s->vals[s->n] = v;
    }
    s->n++;
}

/* A fresh shape variable whose home slot in a map of `cap` slots is `slot`. */
static const TirVar *var_at_slot(uint32_t slot, uint32_t cap)
{
    for (int tries = 0; tries < 100000; tries++) {
        const TirVar *v = tirvar_new("n", dtype_int64(), span_none());
        if (ptrmap_slot(v, cap) == slot)
            return v;
    }
    return NULL;
}

static void test_each_shape_first_and_last_slot(void)
{
    /* env_new(0) holds 8 slots; a lone key sits at its home slot. */
    const TirVar *first = var_at_slot(0, 8), *last = var_at_slot(7, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    CU_ASSERT_PTR_NOT_NULL_FATAL(last);
    Env *parent = env_new(0);
    env_bind_shape(parent, first, 5);
    Env *child = env_new_child(parent, 0);
    env_bind_shape(child, last, 9);
    Seen s = {{0}, {0}, 0};
    env_each_shape(child, note, &s);
    CU_ASSERT_EQUAL_FATAL(s.n, 2);
    CU_ASSERT_PTR_EQUAL(s.vars[0], last);
    CU_ASSERT_EQUAL(s.vals[0], 9);
    CU_ASSERT_PTR_EQUAL(s.vars[1], first);
    CU_ASSERT_EQUAL(s.vals[1], 5);
}

UNIT_SUITE(env_each_shape)
{
    CU_pSuite s = CU_add_suite("env each shape", 0, 0);
    CU_add_test(s, "env_each_shape: first and last slot, parent chain",
                test_each_shape_first_and_last_slot);
}
