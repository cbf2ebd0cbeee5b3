/* test_script_syntax_more: the unsupported-construct table and index maps read from text,
 * checked on the internal functions. SPEC_NOTES §4.10, TS-6.2. */
#include <setjmp.h>
#include <string.h>

#include "ast/script/script_index_map.h"
#include "ast/script/script_internal.h"
#include "ast/text/py_parser.h"
#include "tools/tests/unit.h"

static void test_unsupported_table(void)
{
    CU_ASSERT_PTR_NOT_NULL(script_unsupported_reason(NS_RELAX, "macro"));
    CU_ASSERT_PTR_NOT_NULL(script_unsupported_reason(NS_RELAX, "call_py_func"));
    /* the distributed dialect is read (SPEC_NOTES §4.24) */
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_RELAX, "DTensor"));
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_RELAX, "dist.annotate_sharding"));
    CU_ASSERT_PTR_NOT_NULL(script_unsupported_reason(NS_TIR, "anylist_getitem"));
    CU_ASSERT_PTR_NOT_NULL(script_unsupported_reason(NS_NONE, "BasePyModule"));
    /* exact names stay exact; prefixes need their separator */
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_RELAX, "macros"));
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_TIR, "anylist"));
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_TIR, "DTensor"));
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_RELAX, "add"));
    CU_ASSERT_PTR_NULL(script_unsupported_reason(NS_RELAX, NULL));
}

static AttrValue *index_map(const char *text, const char **code)
{
    ErrorTrap trap;
    *code = NULL;
    if (setjmp(trap.jmp) != 0) {
        *code = trap.error.code;
        return NULL;
    }
    return script_index_map(py_parse_expr("t", text, span_make("t", 1, 1), &trap), &trap);
}

static void test_index_map(void)
{
    const char *code;
    AttrValue *v = index_map("T.index_map(lambda i, j: (j, i // 4), index_dtype=\"int32\")", &code);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, ATTR_INDEX_MAP);
    CU_ASSERT_EQUAL(v->u.index_map.nparams, 2);
    CU_ASSERT_EQUAL(v->u.index_map.nresults, 2);
    CU_ASSERT_EQUAL(v->u.index_map.params[0]->dtype.bits, 32);
    CU_ASSERT_EQUAL(v->u.index_map.results[0]->kind, PE_VAR);
    CU_ASSERT_PTR_EQUAL(v->u.index_map.results[0]->u.var, v->u.index_map.params[1]);
    CU_ASSERT_EQUAL(v->u.index_map.results[1]->kind, PE_FLOORDIV);
    v = index_map("lambda i: i + 1", &code); /* one bare result */
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->u.index_map.nresults, 1);
    CU_ASSERT_EQUAL(v->u.index_map.params[0]->dtype.bits, 64);
    CU_ASSERT_PTR_NULL(index_map("(4, 4)", &code));
    CU_ASSERT_STRING_EQUAL(code, "BadArguments");
    CU_ASSERT_PTR_NULL(index_map("lambda i: (k,)", &code));
    CU_ASSERT_STRING_EQUAL(code, "UnknownName");
}

UNIT_SUITE(script_syntax_more)
{
    CU_pSuite s = CU_add_suite("script_syntax_more", 0, 0);
    CU_add_test(s, "unsupported constructs", test_unsupported_table);
    CU_add_test(s, "index maps", test_index_map);
}
