/* test_sinfo: the StructInfo relations (subtyping, compatibility, LUB, erasure, mapping) on
 * hand-built StructInfo, and the derivation rules and purity checks on parsed programs.
 * SPEC_NOTES: "StructInfo" (SUB-*, COMPAT-*, LUB-*, ERASE-*, MAP-*, SI-*, PURITY-*). */
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/structinfo/sinfo_check.h"
#include "interp/structinfo/sinfo_relations.h"
#include "tools/tests/unit.h"

#define SP span_none()

static TirVar *tv_n, *tv_m;

static PrimExpr *c(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static PrimExpr *vn(void)
{
    if (tv_n == NULL)
        tv_n = tirvar_new("n", dtype_int64(), SP);
    return primexpr_var(tv_n, SP);
}

static PrimExpr *vm(void)
{
    if (tv_m == NULL)
        tv_m = tirvar_new("m", dtype_int64(), SP);
    return primexpr_var(tv_m, SP);
}

static StructInfo *obj(void)
{
    return sinfo_object(SP);
}

/* A tensor of the given dims (ndim -1 and dims NULL: no shape). */
static StructInfo *ten(PrimExpr *d0, PrimExpr *d1, int ndim, DataType t)
{
    if (d0 == NULL)
        return sinfo_tensor(NULL, t, NULL, ndim, SP);
    PrimExpr **d = MEM_ARRAY(PrimExpr *, 2);
    d[0] = d0;
    d[1] = d1;
    int k = d1 ? 2 : 1;
    return sinfo_tensor(expr_shape(d, k, SP), t, NULL, k, SP);
}

static StructInfo *shp(PrimExpr *d0, int ndim)
{
    if (d0 == NULL)
        return sinfo_shape(NULL, ndim, SP);
    PrimExpr **d = MEM_ARRAY(PrimExpr *, 1);
    d[0] = d0;
    return sinfo_shape(d, 1, SP);
}

static StructInfo *tup2(StructInfo *a, StructInfo *b)
{
    StructInfo **f = MEM_ARRAY(StructInfo *, 2);
    f[0] = a;
    f[1] = b;
    return sinfo_tuple(f, b ? 2 : 1, SP);
}

static StructInfo *fn1(StructInfo *p, StructInfo *r, bool pure)
{
    StructInfo **ps = MEM_ARRAY(StructInfo *, 1);
    ps[0] = p;
    return sinfo_func(ps, 1, r, pure, SP);
}

#define F32 dtype_float32()
#define I32 dtype_int32()
#define VOID dtype_void()

static void test_subtype(void)
{
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, F32), obj()), REL_YES); /* SUB-3 */
    CU_ASSERT_EQUAL(sinfo_subtype(obj(), ten(NULL, NULL, -1, VOID)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, F32), ten(NULL, NULL, -1, F32)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, F32), ten(c(2), NULL, 1, VOID)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, F32), ten(NULL, NULL, 1, F32)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(vn(), NULL, 1, F32), ten(vm(), NULL, 1, F32)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, F32), ten(c(3), NULL, 1, F32)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(NULL, NULL, 1, F32), ten(c(3), NULL, 1, F32)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(ten(c(2), NULL, 1, I32), ten(c(2), NULL, 1, F32)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(shp(c(2), 1), shp(NULL, -1)), REL_YES); /* SUB-5 */
    CU_ASSERT_EQUAL(sinfo_subtype(shp(vn(), 1), shp(vm(), 1)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_subtype(shp(NULL, 1), shp(c(1), 1)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(sinfo_prim(I32, c(1), SP), sinfo_prim(I32, NULL, SP)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(sinfo_prim(I32, NULL, SP), sinfo_prim(F32, NULL, SP)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(tup2(shp(vn(), 1), obj()), tup2(shp(vm(), 1), obj())),
                    REL_MAYBE); /* SUB-6 */
    CU_ASSERT_EQUAL(sinfo_subtype(tup2(obj(), NULL), tup2(obj(), obj())), REL_NO);
    /* SUB-8: purity, contravariant params, covariant result */
    StructInfo *t2 = ten(c(2), NULL, 1, F32), *tany = ten(NULL, NULL, -1, F32);
    CU_ASSERT_EQUAL(sinfo_subtype(fn1(t2, t2, true), fn1(t2, t2, false)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(fn1(t2, t2, false), fn1(t2, t2, true)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(fn1(tany, t2, true), fn1(t2, tany, true)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(fn1(t2, t2, true), fn1(tany, t2, true)), REL_NO);
    StructInfo *opaque = sinfo_func_opaque(obj(), false, "f", SP);
    StructInfo *empty = sinfo_func_opaque(obj(), false, "empty_derive", SP);
    CU_ASSERT_EQUAL(sinfo_subtype(opaque, empty), REL_YES);
    CU_ASSERT_EQUAL(sinfo_subtype(empty, opaque), REL_NO);
    CU_ASSERT_EQUAL(sinfo_subtype(opaque, fn1(t2, t2, false)), REL_NO);
}

static void test_compat(void)
{
    StructInfo *t2 = ten(c(2), NULL, 1, F32);
    CU_ASSERT_EQUAL(sinfo_compat(t2, obj()), REL_YES);
    CU_ASSERT_EQUAL(sinfo_compat(obj(), t2), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(shp(NULL, 1), t2), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(t2, ten(c(2), NULL, 1, I32)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(t2, ten(c(2), c(2), 2, F32)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(t2, ten(NULL, NULL, 1, F32)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_compat(ten(NULL, NULL, 1, F32), t2), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(ten(vn(), NULL, 1, F32), t2), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(ten(c(2), NULL, 1, VOID), t2), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(ten(NULL, NULL, -1, F32), ten(NULL, NULL, 2, F32)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(shp(c(1), 1), shp(NULL, -1)), REL_YES);
    CU_ASSERT_EQUAL(sinfo_compat(shp(NULL, 1), shp(c(1), 1)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(shp(c(1), 1), shp(c(2), 1)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(sinfo_prim(I32, NULL, SP), sinfo_prim(I32, c(1), SP)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(sinfo_prim(I32, c(2), SP), sinfo_prim(I32, c(1), SP)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(tup2(t2, obj()), tup2(t2, t2)), REL_MAYBE);
    CU_ASSERT_EQUAL(sinfo_compat(fn1(t2, t2, false), fn1(t2, t2, true)), REL_NO);
    CU_ASSERT_EQUAL(sinfo_compat(fn1(t2, t2, true), sinfo_func_opaque(obj(), false, NULL, SP)),
                    REL_NO);
    /* Signatures equal up to renaming of their shape variables are compatible. */
    StructInfo *fa = fn1(ten(vn(), NULL, 1, F32), ten(vn(), NULL, 1, F32), true);
    StructInfo *fb = fn1(ten(vm(), NULL, 1, F32), ten(vm(), NULL, 1, F32), true);
    CU_ASSERT_EQUAL(sinfo_compat(fa, fb), REL_YES);
}

static const char *pr(const StructInfo *s)
{
    return printer_print_sinfo(s);
}

static void test_unify(void)
{
    StructInfo *t2 = ten(c(2), NULL, 1, F32), *t3 = ten(c(3), NULL, 1, F32);
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, obj())), "R.Object");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(obj(), t2)), "R.Object");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, shp(NULL, 1))), "R.Object");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, t2)), "R.Tensor((2,), dtype=\"float32\")");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, t3)), "R.Tensor(dtype=\"float32\", ndim=1)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, ten(c(2), NULL, 1, I32))), "R.Tensor((2,))");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(t2, ten(c(2), c(2), 2, F32))),
                           "R.Tensor(dtype=\"float32\")");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(shp(c(1), 1), shp(NULL, 1))), "R.Shape(ndim=1)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(shp(c(1), 1), shp(c(1), 1))), "R.Shape([1])");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(shp(c(1), 1), shp(c(2), 1))), "R.Shape(ndim=1)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(shp(c(1), 1), shp(NULL, -1))), "R.Shape(ndim=-1)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(sinfo_prim(I32, c(1), SP), sinfo_prim(I32, c(2), SP))),
                           "R.Prim(\"int32\")");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(sinfo_prim(I32, NULL, SP), sinfo_prim(F32, NULL, SP))),
                           "R.Object");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(tup2(t2, NULL), tup2(t2, t2))), "R.Object");
    CU_ASSERT_STRING_EQUAL(
        pr(sinfo_unify(tup2(t2, t2), tup2(t2, t3))),
        "R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Tensor(dtype=\"float32\", ndim=1))");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(fn1(t2, t2, true), fn1(t2, t3, false))),
                           "R.Callable((R.Tensor((2,), dtype=\"float32\"),), "
                           "R.Tensor(dtype=\"float32\", ndim=1), False)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_unify(fn1(t2, t2, true), fn1(t3, t2, true))), "R.Object");
}

static bool only_m(const void *ctx, const TirVar *v)
{
    (void)ctx;
    return v == tv_m;
}

static bool no_var(const void *ctx, const Var *v)
{
    (void)ctx;
    (void)v;
    return false;
}

static void test_erase_and_map(void)
{
    SinfoScope scope = {no_var, only_m, NULL};
    CU_ASSERT_STRING_EQUAL(pr(sinfo_erase(ten(vn(), vm(), 2, F32), &scope)),
                           "R.Tensor(dtype=\"float32\", ndim=2)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_erase(ten(vm(), NULL, 1, F32), &scope)),
                           "R.Tensor((m,), dtype=\"float32\")");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_erase(shp(vn(), 1), &scope)), "R.Shape(ndim=1)");
    CU_ASSERT_STRING_EQUAL(pr(sinfo_erase(sinfo_prim(dtype_int64(), vn(), SP), &scope)),
                           "R.Prim(\"int64\")");
    /* A function's parameters bind their own variables; purity is kept. */
    StructInfo *f = fn1(ten(vn(), NULL, 1, F32), ten(vn(), NULL, 1, F32), false);
    CU_ASSERT_STRING_EQUAL(pr(sinfo_erase(f, &scope)), pr(f));
    ShapeVarMap map = {NULL, NULL, 0, 0};
    sinfo_shape_var_mapping(ten(vn(), NULL, 1, F32), ten(c(7), NULL, 1, F32), &map);
    CU_ASSERT_EQUAL(map.n, 1);
    CU_ASSERT_STRING_EQUAL(
        pr(sinfo_substitute(shp(primexpr_binary(PE_MUL, vn(), c(2), SP), 1), &map)),
        "R.Shape([14])");
}

/* ---- derivation on programs ------------------------------------------------------------ */

typedef struct Checked {
    IRModule *mod;
    DiagList errors;
    DiagList warnings;
    SinfoBindings bindings;
} Checked;

static Checked check(const char *text)
{
    Checked r;
    memset(&r, 0, sizeof r);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        CU_FAIL("the test program does not parse");
        return r;
    }
    r.mod = script_parse("t.py", text, &trap);
    diag_init(&r.errors);
    diag_init(&r.warnings);
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

static void test_derive_leaves(void)
{
    Checked r = check("@R.function\n"
                      "def main(x: R.Tensor((\"n\", 4), \"float32\")):\n"
                      "    n = T.int64()\n"
                      "    a = R.const([[1, 2]], \"int32\")\n"
                      "    b = R.prim_value(3)\n"
                      "    s = R.str(\"hi\")\n"
                      "    d = R.dtype(\"float32\")\n"
                      "    t = (x, b)\n"
                      "    g = t[1]\n"
                      "    h = R.shape([n, 2])\n"
                      "    q = R.shape_of(x)\n"
                      "    e = R.ExternFunc(\"f\")\n"
                      "    return t\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "a"), "R.Tensor((1, 2), dtype=\"int32\")");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "b"), "R.Prim(value=3)");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "s"), "R.Object");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "d"), "R.Object");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "g"), "R.Prim(value=3)");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "h"), "R.Shape([n, 2])");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "main.q"), "R.Shape([n, 4])");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "e"), "R.Callable");
}

static void test_derive_calls(void)
{
    Checked r = check(
        "@I.ir_module\n"
        "class M:\n"
        "    @R.function\n"
        "    def f(x: R.Tensor((\"m\",), \"float32\")) -> R.Tensor((\"m * 2\",), \"float32\"):\n"
        "        return R.call_pure_packed(\"g\", x, sinfo_args=R.Tensor((m * 2,), \"float32\"))\n"
        "    @R.function\n"
        "    def main(y: R.Tensor((3,), \"float32\")):\n"
        "        a = M.f(y)\n"
        "        return a\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "a"), "R.Tensor((6,), dtype=\"float32\")");
    Checked bad =
        check("@I.ir_module\n"
              "class M:\n"
              "    @R.function\n"
              "    def f(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
              "        return x\n"
              "    @R.function\n"
              "    def main(y: R.Tensor((3,), \"float32\")):\n"
              "        a = M.f(y)\n"
              "        b = M.f(y, y)\n"
              "        return a\n");
    CU_ASSERT_EQUAL(bad.errors.n, 2);
    CU_ASSERT_STRING_EQUAL(first_code(&bad.errors), "ArgIncompatible");
    CU_ASSERT_STRING_EQUAL(bad.errors.items[1].code, "ArityMismatch");
}

static void test_derive_bindings(void)
{
    Checked r = check("@R.function\n"
                      "def main(x: R.Tensor((\"n\",), \"float32\")):\n"
                      "    n = T.int64()\n"
                      "    a: R.Tensor((n,), \"float32\") = x\n"
                      "    b: R.Tensor((4,), \"float32\") = x\n"
                      "    c: R.Object = x\n"
                      "    d = R.match_cast(x, R.Tensor((5,), \"float32\"))\n"
                      "    return x\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_EQUAL(r.warnings.n, 1);
    CU_ASSERT_STRING_EQUAL(first_code(&r.warnings), "PossiblyIncompatible");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "b"), "R.Tensor((4,), dtype=\"float32\")");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "c"), "R.Object");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "d"), "R.Tensor((5,), dtype=\"float32\")");
    Checked bad = check("@R.function\n"
                        "def main(x: R.Tensor((2,), \"float32\")):\n"
                        "    a: R.Shape = x\n"
                        "    d = R.match_cast(x, R.Tensor((5,), \"float32\"))\n"
                        "    R.shape_of(x)\n"
                        "    return x\n");
    CU_ASSERT_EQUAL(bad.errors.n, 3);
    CU_ASSERT_STRING_EQUAL(bad.errors.items[0].code, "Incompatible");
    CU_ASSERT_STRING_EQUAL(bad.errors.items[1].code, "MatchCastImpossible");
    CU_ASSERT_STRING_EQUAL(bad.errors.items[2].code, "NonVoidExprStmt");
}

static void test_derive_scopes(void)
{
    Checked r = check("@R.function\n"
                      "def main(x: R.Tensor(ndim=1, dtype=\"float32\"), c: R.Prim(\"bool\")):\n"
                      "    if c:\n"
                      "        k = T.int64()\n"
                      "        y1 = R.match_cast(x, R.Tensor((k,), \"float32\"))\n"
                      "        y = y1\n"
                      "    else:\n"
                      "        y = x\n"
                      "    return y\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "y"), "R.Tensor(dtype=\"float32\", ndim=1)");
    const ModuleFunc *mf = r.mod->funcs[0];
    (void)mf;
    Checked f = check("@R.function\n"
                      "def main(x: R.Tensor(ndim=1, dtype=\"float32\")):\n"
                      "    m = T.int64()\n"
                      "    y = R.match_cast(x, R.Tensor((m,), \"float32\"))\n"
                      "    return y\n");
    CU_ASSERT_EQUAL(f.errors.n, 0);
    /* The inferred return type forgets the body's shape variable. */
    Checked g = check("@I.ir_module\n"
                      "class M:\n"
                      "    @R.function\n"
                      "    def h(x: R.Tensor(ndim=1, dtype=\"float32\")):\n"
                      "        m = T.int64()\n"
                      "        y = R.match_cast(x, R.Tensor((m,), \"float32\"))\n"
                      "        return y\n"
                      "    @R.function\n"
                      "    def main(x: R.Tensor((2,), \"float32\")):\n"
                      "        z = M.h(x)\n"
                      "        return z\n");
    CU_ASSERT_STRING_EQUAL(sinfo_text(&g, "z"), "R.Tensor(dtype=\"float32\", ndim=1)");
}

static void test_purity(void)
{
    Checked df = check("@R.function(pure=False)\n"
                       "def main(x: R.Tensor((2,), \"float32\")):\n"
                       "    with R.dataflow():\n"
                       "        y = R.call_packed(\"f\", x, sinfo_args=R.Object)\n"
                       "        R.output(y)\n"
                       "    R.print(x)\n"
                       "    return x\n");
    CU_ASSERT_EQUAL(df.errors.n, 1);
    CU_ASSERT_STRING_EQUAL(first_code(&df.errors), "ImpureInDataflow");
    Checked pf = check("@R.function\n"
                       "def main(x: R.Tensor((2,), \"float32\")):\n"
                       "    R.print(x)\n"
                       "    return x\n");
    CU_ASSERT_STRING_EQUAL(first_code(&pf.errors), "ImpureInPureFunction");
    Checked fp = check("@R.function\n"
                       "def main(x: R.Tensor((2,), \"float32\")):\n"
                       "    R.func_attr({\"relax.force_pure\": True})\n"
                       "    R.print(x)\n"
                       "    return x\n");
    CU_ASSERT_EQUAL(fp.errors.n, 0);
    /* A nested impure function inside a pure one is checked on its own. */
    Checked nest = check("@R.function\n"
                         "def main(x: R.Tensor((2,), \"float32\")):\n"
                         "    @R.function(pure=False)\n"
                         "    def inner(y: R.Tensor((2,), \"float32\")) -> R.Tuple:\n"
                         "        R.print(y)\n"
                         "        return R.tuple()\n"
                         "    return x\n");
    CU_ASSERT_EQUAL(nest.errors.n, 0);
}

/* DIST-5: a call on DTensors that the generic path refuses is reported once; its result is
 * poisoned, so the operator's own tensor inference is not tried on the DTensors as well. */
static void test_dist_errors_once(void)
{
    Checked conflict =
        check("@I.ir_module\n"
              "class Module:\n"
              "    I.module_global_infos({\"mesh\": [R.device_mesh((2, 2), I.Range(0, 4))]})\n"
              "    @R.function\n"
              "    def main(x: R.DTensor((4, 4), \"float32\", \"mesh[0]\", \"S[0], R\"), "
              "y: R.DTensor((4, 4), \"float32\", \"mesh[0]\", \"R, S[0]\")):\n"
              "        z = R.add(x, y)\n"
              "        return z\n");
    CU_ASSERT_EQUAL(conflict.errors.n, 1);
    CU_ASSERT_STRING_EQUAL(first_code(&conflict.errors), "DistShardingConflict");
    Checked mixed =
        check("@I.ir_module\n"
              "class Module:\n"
              "    I.module_global_infos({\"mesh\": [R.device_mesh((2,), I.Range(0, 2))]})\n"
              "    @R.function\n"
              "    def main(x: R.DTensor((4, 4), \"float32\", \"mesh[0]\", \"S[0]\"), "
              "y: R.Tensor((4, 4), \"float32\")):\n"
              "        z = R.add(x, y)\n"
              "        return z\n");
    CU_ASSERT_EQUAL(mixed.errors.n, 1);
    CU_ASSERT_STRING_EQUAL(first_code(&mixed.errors), "DistMixedArguments");
}

/* DIST-5: a reshape to a shape of unknown dims gives the axis graph nothing to walk, so the
 * sharded axis joins no output axis and the result is replicated. */
static void test_dist_reshape_unknown_shape(void)
{
    Checked r =
        check("@I.ir_module\n"
              "class Module:\n"
              "    I.module_global_infos({\"mesh\": [R.device_mesh((2,), I.Range(0, 2))]})\n"
              "    @R.function\n"
              "    def main(x: R.DTensor((4, 8), \"float32\", \"mesh[0]\", \"S[1]\"), "
              "s: R.Shape(ndim=2)):\n"
              "        g = R.reshape(x, s)\n"
              "        return g\n");
    CU_ASSERT_EQUAL(r.errors.n, 0);
    CU_ASSERT_STRING_EQUAL(sinfo_text(&r, "g"),
                           "R.DTensor(dtype=\"float32\", device_mesh=\"mesh[0]\", placement=\"R\", "
                           "ndim=2)");
}

UNIT_SUITE(sinfo)
{
    CU_pSuite s = CU_add_suite("sinfo", 0, 0);
    CU_add_test(s, "subtyping", test_subtype);
    CU_add_test(s, "check_compatibility", test_compat);
    CU_add_test(s, "unify_struct_info", test_unify);
    CU_add_test(s, "erasure and mapping", test_erase_and_map);
    CU_add_test(s, "derivation: leaves", test_derive_leaves);
    CU_add_test(s, "derivation: calls", test_derive_calls);
    CU_add_test(s, "derivation: bindings", test_derive_bindings);
    CU_add_test(s, "derivation: scopes", test_derive_scopes);
    CU_add_test(s, "purity", test_purity);
    CU_add_test(s, "DTensor errors reported once", test_dist_errors_once);
    CU_add_test(s, "DTensor reshape to an unknown shape", test_dist_reshape_unknown_shape);
}
