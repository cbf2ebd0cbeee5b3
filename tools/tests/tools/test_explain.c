/* test_explain: `relax explain` names, for each binding, the rule that derived its StructInfo;
 * the expected rules are read off SPEC_NOTES 1.3 by hand. SPEC_NOTES: "StructInfo" (SI-*). */
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/tests/unit.h"

static const char PROGRAM[] =
    "from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((2, 3), \"float32\")):\n"
    "    y = R.add(x, x)\n"
    "    t = (y, x)\n"
    "    z = t[1]\n"
    "    s = R.shape([2, 3])\n"
    "    w = R.match_cast(z, R.Tensor((2, 3), \"float32\"))\n"
    "    a: R.Tensor((2, 3), \"float32\") = w\n"
    "    return a\n";

static void collect(void *ctx, Span span, const char *text)
{
    StrBuf *sb = ctx;
    strbuf_addf(sb, "%d:%d: %s\n", span.line, span.col, text);
}

static void test_rules(void)
{
    ErrorTrap trap;
    CU_ASSERT_FATAL(setjmp(trap.jmp) == 0);
    IRModule *mod = script_parse("e.py", PROGRAM, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    SinfoBindings b = {NULL, 0, 0};
    sinfo_check_module_report(mod, &errors, &warnings, &b);
    CU_ASSERT_EQUAL_FATAL(errors.n, 0);
    StrBuf sb;
    strbuf_init(&sb);
    cli_explain(mod, &b, collect, &sb);
    const char *want[] = {
        "4:10: main.x: R.Tensor((2, 3), dtype=\"float32\")  (SI-15, a parameter)\n",
        "5:5: main.y: R.Tensor((2, 3), dtype=\"float32\")  (SI-14, relax.add inference)\n",
        "6:5: main.t: R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), "
        "dtype=\"float32\"))  (SI-7)\n",
        "7:5: main.z: R.Tensor((2, 3), dtype=\"float32\")  (SI-12)\n",
        "8:5: main.s: R.Shape([2, 3])  (SI-8)\n",
        "9:5: main.w: R.Tensor((2, 3), dtype=\"float32\")  (SI-11 MatchCast, after SI-2)\n",
        "10:5: main.a: R.Tensor((2, 3), dtype=\"float32\")  (SI-2, SI-11 annotation)\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (strstr(sb.data, want[i]) == NULL)
            printf("\nwanted %s in\n%s", want[i], sb.data);
        CU_ASSERT_PTR_NOT_NULL(strstr(sb.data, want[i]));
    }
}

UNIT_SUITE(explain)
{
    CU_pSuite s = CU_add_suite("explain", NULL, NULL);
    CU_add_test(s, "each binding's rule", test_rules);
}
