/* test_vdevice: VDevice propagation in the StructInfo checker (operators, transfers, the
 * backward pass, conflicts, the final check). SPEC_NOTES: "StructInfo" (VDEV-*), §4.13. */
#include <setjmp.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/structinfo/sinfo_check.h"
#include "tools/tests/unit.h"

typedef struct Checked {
    IRModule *mod;
    DiagList errors;
    DiagList warnings;
    SinfoBindings bindings;
} Checked;

#define HEADER                                                                                     \
    "@I.ir_module\n"                                                                               \
    "class M:\n"                                                                                   \
    "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), I.vdevice(\"cuda\", 0)]})\n"

#define T4 "R.Tensor((4,), \"float32\")"
#define T4_CUDA "R.Tensor((4,), \"float32\", vdevice=\"cuda:0\")"
#define T4_LLVM "R.Tensor((4,), \"float32\", vdevice=\"llvm\")"
#define P4_CUDA "R.Tensor((4,), dtype=\"float32\", vdevice=\"cuda:0\")"
#define P4_LLVM "R.Tensor((4,), dtype=\"float32\", vdevice=\"llvm:0\")"
#define P4 "R.Tensor((4,), dtype=\"float32\")"

static Checked check(const char *text)
{
    Checked r;
    memset(&r, 0, sizeof r);
    diag_init(&r.errors);
    diag_init(&r.warnings);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return r;
    }
    r.mod = script_parse("t.py", text, &trap);
    sinfo_check_module_report(r.mod, &r.errors, &r.warnings, &r.bindings);
    return r;
}

static const char *sinfo_text(const Checked *r, const char *name)
{
    if (r->mod == NULL)
        return "";
    const StructInfo *s = sinfo_bindings_find(&r->bindings, r->mod, name);
    return s ? printer_print_sinfo(s) : "(none)";
}

static const char *first_code(const DiagList *d)
{
    const Error *e = diag_first(d);
    return e ? e->code : "";
}

static const char *first_rule(const DiagList *d)
{
    const Error *e = diag_first(d);
    return e && e->rule ? e->rule : "";
}

/* VDEV-2: results follow the arguments; mixed arguments are an error. */
static void test_operators(void)
{
    Checked r = check(HEADER "    @R.function\n"
                             "    def main(x: " T4_CUDA ", y: " T4 "):\n"
                             "        z = R.add(x, y)\n"
                             "        w = R.exp(z)\n"
                             "        return w\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "z"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "w"), P4_CUDA);
    /* The backward pass puts the sibling argument on cuda as well. */
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "y"), P4_CUDA);

    Checked bad = check(HEADER "    @R.function\n"
                               "    def main(x: " T4_CUDA ", y: " T4_LLVM "):\n"
                               "        z = R.concat((x, y))\n"
                               "        return z\n");
    CU_ASSERT_STRING_EQUAL(first_code(&bad.errors), "VDeviceMismatch");
    CU_ASSERT_STRING_EQUAL(first_rule(&bad.errors), "VDEV-2");
}

/* VDEV-1 and VDEV-5: the transfers. */
static void test_transfers(void)
{
    Checked r = check(HEADER "    @R.function\n"
                             "    def main(x: " T4 "):\n"
                             "        a = R.to_vdevice(x, \"cuda:0\")\n"
                             "        b = R.hint_on_device(x, R.device(dev_type=1, dev_id=0))\n"
                             "        c = R.add(a, a)\n"
                             "        return c\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "a"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "b"), P4_LLVM);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "c"), P4_CUDA);
    /* Neither transfer puts its source anywhere. */
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "x"), P4);

    Checked none = check(HEADER "    @R.function\n"
                                "    def main(x: " T4 "):\n"
                                "        b = R.hint_on_device(x, R.device(dev_type=2, dev_id=3))\n"
                                "        return b\n");
    CU_ASSERT_STRING_EQUAL(first_code(&none.errors), "VDeviceNotFound");
}

/* VDEV-4 and VDEV-6: a vdevice travels back through several bindings; the first pass's
 * "possibly" warnings are replaced by the second pass's (none). */
static void test_backward(void)
{
    Checked r = check(HEADER "    @R.function\n"
                             "    def main(x: " T4 ", y: " T4 ") -> " T4_CUDA ":\n"
                             "        a = R.add(x, y)\n"
                             "        b = R.multiply(a, a)\n"
                             "        c: " T4_CUDA " = R.exp(b)\n"
                             "        return c\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_EQUAL(r.warnings.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "x"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "a"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "b"), P4_CUDA);
    /* Each binding is listed once, from the second pass. */
    int seen = 0;
    for (int i = 0; i < r.bindings.n; i++)
        seen += strcmp(r.bindings.items[i].var, "a") == 0;
    CU_ASSERT_EQUAL(seen, 1);

    Checked mc = check(HEADER "    @R.function\n"
                              "    def main(x: R.Tensor(dtype=\"float32\", ndim=1)):\n"
                              "        y = R.match_cast(x, " T4_CUDA ")\n"
                              "        return y\n");
    CU_ASSERT_EQUAL(mc.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&mc, "x"),
                           "R.Tensor(dtype=\"float32\", ndim=1, vdevice=\"cuda:0\")");
}

/* VDEV-4 has no bound on rounds: a return annotation reaches the parameter through a chain
 * longer than the 10,000 rounds it once allowed (each binding uses only the one before), and
 * an alias bound after the use that places its source follows it. */
static void test_backward_unbounded(void)
{
    enum { N = 12000 };
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, HEADER "    @R.function\n"
                           "    def main(x: " T4 ") -> " T4_CUDA ":\n"
                           "        v0 = R.exp(x)\n");
    for (int i = 1; i < N; i++)
        strbuf_addf(&sb, "        v%d = R.exp(v%d)\n", i, i - 1);
    strbuf_addf(&sb, "        return v%d\n", N - 1);
    Checked r = check(strbuf_str(&sb));
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "x"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "v0"), P4_CUDA);

    Checked alias = check(HEADER "    @R.function\n"
                                 "    def main(x: " T4 ", c: " T4_CUDA "):\n"
                                 "        z = R.add(x, c)\n"
                                 "        y = x\n"
                                 "        w = R.multiply(y, y)\n"
                                 "        return (z, w)\n");
    CU_ASSERT_EQUAL(alias.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&alias, "y"), P4_CUDA);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&alias, "w"), P4_CUDA);
}

/* VDEV-3 and VDEV-6: the two kinds of conflict. */
static void test_conflicts(void)
{
    Checked r = check(HEADER "    @R.function\n"
                             "    def main(y: " T4 "):\n"
                             "        a: " T4_CUDA " = R.add(y, y)\n"
                             "        b: " T4_LLVM " = R.multiply(y, y)\n"
                             "        return a\n");
    CU_ASSERT_STRING_EQUAL(first_code(&r.errors), "VDeviceConflict");
    CU_ASSERT_STRING_EQUAL(first_rule(&r.errors), "VDEV-3");

    Checked fwd = check(HEADER "    @R.function\n"
                               "    def main(p: " T4 "):\n"
                               "        t = (p,)\n"
                               "        g = t[0]\n"
                               "        k: " T4_CUDA " = g\n"
                               "        h: " T4_LLVM " = R.add(p, p)\n"
                               "        return h\n");
    CU_ASSERT_STRING_EQUAL(first_code(&fwd.errors), "VDeviceConflict");
    CU_ASSERT_STRING_EQUAL(first_rule(&fwd.errors), "VDEV-6");
}

/* VDEV-7 and VDEV-3: the final check, only in modules with VDevices. */
static void test_final_check(void)
{
    const char *body = "    @R.function\n"
                       "    def main(x: " T4 ", y: " T4 "):\n"
                       "        z = R.add(x, y)\n"
                       "        return z\n";
    Checked r = check(mem_printf("%s%s", HEADER, body));
    CU_ASSERT_EQUAL(r.errors.n, 2);
    CU_ASSERT_STRING_EQUAL(first_code(&r.errors), "VDeviceUndefined");
    CU_ASSERT_STRING_EQUAL(first_rule(&r.errors), "VDEV-7");

    Checked plain = check(mem_printf("@I.ir_module\nclass M:\n%s", body));
    CU_ASSERT_EQUAL(plain.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&plain, "z"), P4);

    /* Calls of Relax functions are not checked, and do not move their arguments. */
    Checked call = check(HEADER "    @R.function\n"
                                "    def move(a: " T4_LLVM ") -> " T4_CUDA ":\n"
                                "        return R.to_vdevice(a, \"cuda:0\")\n"
                                "    @R.function\n"
                                "    def main(x: " T4_LLVM "):\n"
                                "        y = M.move(x)\n"
                                "        z = R.add(y, y)\n"
                                "        return z\n");
    CU_ASSERT_EQUAL(call.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&call, "x"), P4_LLVM);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&call, "z"), P4_CUDA);
}

UNIT_SUITE(vdevice)
{
    CU_pSuite s = CU_add_suite("vdevice", 0, 0);
    CU_add_test(s, "operators (VDEV-2)", test_operators);
    CU_add_test(s, "to_vdevice and hint_on_device", test_transfers);
    CU_add_test(s, "backward pass", test_backward);
    CU_add_test(s, "backward pass without a bound on rounds", test_backward_unbounded);
    CU_add_test(s, "conflicts", test_conflicts);
    CU_add_test(s, "final check", test_final_check);
}
