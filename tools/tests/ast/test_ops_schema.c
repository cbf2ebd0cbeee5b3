/* test_ops_schema: the operator registry (schemas and implementations agree and are well
 * formed), the parser's binding of operator calls to schemas, and the registry's hooks in
 * StructInfo derivation. SPEC_NOTES: "Operators" (OP-REGISTRY, TS-8). */
#include <setjmp.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/schema/op_schema.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/ops/ops.h"
#include "interp/structinfo/sinfo_check.h"
#include "tools/tests/unit.h"

static void test_lookup(void)
{
    const OpSchema *add = op_schema_lookup("relax.add");
    CU_ASSERT_PTR_NOT_NULL_FATAL(add);
    CU_ASSERT_EQUAL(add->nparams, 2);
    CU_ASSERT_STRING_EQUAL(add->params[0].name, "x1");
    CU_ASSERT_PTR_NULL(op_schema_lookup("relax.no_such_op"));
    CU_ASSERT_PTR_NULL(op_schema_lookup("add"));
    const OpImpl *impl = ops_lookup("relax.clip");
    CU_ASSERT_PTR_NOT_NULL_FATAL(impl);
    CU_ASSERT(impl->pure);
    CU_ASSERT_PTR_NOT_NULL(impl->infer);
    CU_ASSERT_PTR_NOT_NULL(impl->kernel);
    CU_ASSERT_PTR_NULL(ops_lookup("relax.no_such_op"));
}

static bool has_attr_param(const OpSchema *s, const char *name)
{
    for (int i = 0; i < s->nparams; i++)
        if (s->params[i].kind == OPP_ATTR && strcmp(s->params[i].name, name) == 0)
            return true;
    return false;
}

/* Every schema: a relax. name, distinct parameter names, a print order naming attributes;
 * every schema has an implementation and the reverse; no name twice. */
static void test_registry_consistent(void)
{
    int ns = 0, ni = 0;
    const OpSchema *const *all = op_schema_all(&ns);
    const OpImpl *const *impls = ops_all(&ni);
    CU_ASSERT(ns >= 57);
    for (int k = 0; k < ns; k++) {
        const OpSchema *s = all[k];
        CU_ASSERT(strncmp(s->name, "relax.", 6) == 0);
        CU_ASSERT_PTR_EQUAL(op_schema_lookup(s->name), s);
        for (int i = 0; i < s->nparams; i++)
            for (int j = i + 1; j < s->nparams; j++)
                CU_ASSERT(strcmp(s->params[i].name, s->params[j].name) != 0);
        for (int i = 0; s->print_order != NULL && i < s->nprint_order; i++)
            CU_ASSERT(has_attr_param(s, s->print_order[i]));
        if (ops_lookup(s->name) == NULL)
            CU_FAIL(s->name);
    }
    for (int k = 0; k < ni; k++) {
        CU_ASSERT_PTR_EQUAL(ops_lookup(impls[k]->name), impls[k]);
        CU_ASSERT_PTR_NOT_NULL(op_schema_lookup(impls[k]->name));
    }
}

/* ---- parsing operator calls ------------------------------------------------------------- */

static const char *parse_error(const char *text, const char **rule)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        *rule = trap.error.rule;
        return trap.error.code;
    }
    script_parse("t.py", text, &trap);
    return NULL;
}

static IRModule *parse_ok(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return NULL;
    }
    return script_parse("t.py", text, &trap);
}

static const char *F2 =
    "@R.function\n"
    "def main(x: R.Tensor((2, 3), \"float32\"), y: R.Tensor((3,), \"float32\")):\n";

static void test_parse_binding(void)
{
    IRModule *m = parse_ok(mem_printf("%s    r = R.add(x2=y, x1=x)\n    return r\n", F2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(printer_print_module(m), "R.add(x, y)"));
    IRModule *c = parse_ok("@R.function\n"
                           "def main(x: R.Tensor((4,), \"int32\")):\n"
                           "    r = R.clip(x, 0, max=5)\n"
                           "    return r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(printer_print_module(c), "R.clip(x, R.prim_value(0), R.prim_value(5))"));
}

static void test_parse_errors(void)
{
    const char *rule = NULL;
    const char *code =
        parse_error(mem_printf("%s    r = R.add(x, y, z=1)\n    return r\n", F2), &rule);
    CU_ASSERT_STRING_EQUAL(code ? code : "", "UnknownKeyword");
    CU_ASSERT_STRING_EQUAL(rule ? rule : "", "TS-8");
    code = parse_error(mem_printf("%s    r = R.add(x, y, x)\n    return r\n", F2), &rule);
    CU_ASSERT_STRING_EQUAL(code ? code : "", "BadArguments");
    code = parse_error(mem_printf("%s    r = R.add(x, x1=y)\n    return r\n", F2), &rule);
    CU_ASSERT_STRING_EQUAL(code ? code : "", "BadArguments");
    code = parse_error(mem_printf("%s    r = R.add(x)\n    return r\n", F2), &rule);
    CU_ASSERT_STRING_EQUAL(code ? code : "", "BadArguments");
}

/* ---- StructInfo hooks ------------------------------------------------------------------- */

static const char *derived(const char *text, const char *var, const char **err_code)
{
    IRModule *m = parse_ok(text);
    if (m == NULL)
        return "";
    DiagList errors, warnings;
    SinfoBindings b = {NULL, 0, 0};
    diag_init(&errors);
    diag_init(&warnings);
    sinfo_check_module_report(m, &errors, &warnings, &b);
    const Error *e = diag_first(&errors);
    *err_code = e != NULL ? e->code : "";
    const StructInfo *s = sinfo_bindings_find(&b, m, var);
    return s != NULL ? printer_print_sinfo(s) : "(none)";
}

static void test_sinfo_hooks(void)
{
    const char *code;
    const char *s =
        derived(mem_printf("%s    r = R.greater(x, y)\n    return r\n", F2), "r", &code);
    CU_ASSERT_STRING_EQUAL(s, "R.Tensor((2, 3), dtype=\"bool\")");
    CU_ASSERT_STRING_EQUAL(code, "");
    derived("@R.function\n"
            "def main(x: R.Tensor((2,), \"float32\")):\n"
            "    r = R.no_such_op(x)\n"
            "    return x\n",
            "r", &code);
    CU_ASSERT_STRING_EQUAL(code, "UnknownOp");
    derived("@R.function\n"
            "def main(x: R.Tensor((2,), \"int32\")):\n"
            "    r = R.exp(x)\n"
            "    return x\n",
            "r", &code);
    CU_ASSERT_STRING_EQUAL(code, "OpDTypeMismatch");
}

UNIT_SUITE(ops_schema)
{
    CU_pSuite s = CU_add_suite("ops_schema", 0, 0);
    CU_add_test(s, "lookup", test_lookup);
    CU_add_test(s, "registry consistent", test_registry_consistent);
    CU_add_test(s, "parser binds arguments to the schema", test_parse_binding);
    CU_add_test(s, "parser errors in operator calls", test_parse_errors);
    CU_add_test(s, "StructInfo derivation uses the registry", test_sinfo_hooks);
}
