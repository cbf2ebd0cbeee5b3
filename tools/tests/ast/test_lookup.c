/* The name index: strmap keeps the first of equal names, as a scan in order finds it, and
 * finds names by content; module_lookup answers as a scan would, through its index or,
 * for a module whose function array was set from outside, by the scan itself. */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/module.h"
#include "ast/strmap.h"
#include "tools/tests/unit.h"

static void test_strmap(void)
{
    StrMap m;
    memset(&m, 0, sizeof m);
    int64_t v = -1;
    CU_ASSERT_FALSE(strmap_get(&m, "a", &v));
    char key[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "f%d", i);
        CU_ASSERT_TRUE(strmap_put_first(&m, mem_strdup(key), i));
    }
    CU_ASSERT_FALSE(strmap_put_first(&m, "f7", 99)); /* the first f7 is kept */
    for (int i = 0; i < 1000; i += 37) {
        snprintf(key, sizeof key, "f%d", i); /* another buffer: found by content */
        CU_ASSERT_TRUE(strmap_get(&m, key, &v));
        CU_ASSERT_EQUAL(v, i);
    }
    CU_ASSERT_TRUE(strmap_get(&m, "f7", &v));
    CU_ASSERT_EQUAL(v, 7);
    CU_ASSERT_FALSE(strmap_get(&m, "f1000", &v));
    CU_ASSERT_FALSE(strmap_get(&m, "", &v));
}

static void test_module_lookup(void)
{
    IRModule *mod = module_new("t");
    CU_ASSERT_PTR_NULL(module_lookup(mod, "f"));
    ModuleFunc *first = module_add(mod, globalvar_new("f", span_none()), MODFUNC_EXTERN);
    ModuleFunc *g = module_add(mod, globalvar_new("g", span_none()), MODFUNC_EXTERN);
    module_add(mod, globalvar_new("f", span_none()), MODFUNC_EXTERN); /* a second f */
    for (int i = 0; i < 100; i++)
        module_add(mod, globalvar_new(mem_printf("h%d", i), span_none()), MODFUNC_EXTERN);
    CU_ASSERT_PTR_EQUAL(module_lookup(mod, "f"), first);
    CU_ASSERT_PTR_EQUAL(module_lookup(mod, "g"), g);
    CU_ASSERT_EQUAL(module_index(mod, "h99"), 102);
    CU_ASSERT_EQUAL(module_index(mod, "h100"), -1);
    /* A function array set from outside (a copy, reversed): found by the scan. */
    IRModule *copy = module_new("t");
    copy->funcs = MEM_ARRAY(ModuleFunc *, mod->nfuncs);
    for (int i = 0; i < mod->nfuncs; i++)
        copy->funcs[i] = mod->funcs[mod->nfuncs - 1 - i];
    copy->nfuncs = copy->cap = mod->nfuncs;
    CU_ASSERT_EQUAL(module_index(copy, "h99"), 0);
    CU_ASSERT_EQUAL(module_index(copy, "g"), 101);
    CU_ASSERT_PTR_NOT_EQUAL(module_lookup(copy, "f"), first); /* the second f comes first */
    CU_ASSERT_EQUAL(module_index(copy, "nothing"), -1);
}

UNIT_SUITE(lookup)
{
    CU_pSuite s = CU_add_suite("lookup", NULL, NULL);
    CU_add_test(s, "strmap", test_strmap);
    CU_add_test(s, "module_lookup", test_module_lookup);
}
