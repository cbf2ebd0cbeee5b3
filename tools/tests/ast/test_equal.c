/* test_equal: alpha-equivalence of hand-built functions, StructInfo, PrimFuncs and modules.
 * SPEC_NOTES: "Structural equality". */
#include <string.h>

#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "tools/tests/unit.h"

#define SP span_none()

static PrimExpr *i64(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static PrimExpr **dims2(PrimExpr *a, PrimExpr *b)
{
    PrimExpr **d = MEM_ARRAY(PrimExpr *, 2);
    d[0] = a;
    d[1] = b;
    return d;
}

static StructInfo *tensor2(PrimExpr *a, PrimExpr *b, DataType t)
{
    return sinfo_tensor(expr_shape(dims2(a, b), 2, SP), t, NULL, 2, SP);
}

static Expr **two(Expr *a, Expr *b)
{
    Expr **v = MEM_ARRAY(Expr *, 2);
    v[0] = a;
    v[1] = b;
    return v;
}

/* def <name>(p0: S, p1: S): <var> = R.<op>(p[i], p[j]); return <var> (or p[ret] if ret >= 0) */
typedef struct FnSpec {
    const char *p0, *p1;
    int use_a, use_b; /* which params the call uses */
    int ret;          /* -1: the bound var; 0/1: a param */
    const char *op;
    DataType dtype;
} FnSpec;

static IRModule *build(FnSpec s)
{
    StructInfo *t = tensor2(i64(2), i64(3), s.dtype);
    Var *ps[2] = {var_new(s.p0, false, t, SP), var_new(s.p1, false, t, SP)};
    Var *lv = var_new("lv", false, NULL, SP);
    Expr *call = expr_call(expr_op(s.op, SP),
                           two(expr_var(ps[s.use_a], SP), expr_var(ps[s.use_b], SP)), 2, SP);
    BindingBlock *blk = block_new(false, SP);
    block_add(blk, binding_var(lv, call, SP));
    BindingBlock **blocks = MEM_ARRAY(BindingBlock *, 1);
    blocks[0] = blk;
    Expr *body = expr_var(s.ret < 0 ? lv : ps[s.ret], SP);
    Function *f = function_new(SP);
    f->params = MEM_ARRAY(Var *, 2);
    f->params[0] = ps[0];
    f->params[1] = ps[1];
    f->nparams = 2;
    f->body = expr_seq(blocks, 1, body, SP);
    attrs_set(f->attrs, "global_symbol", attr_str("f", SP));
    IRModule *m = module_new(NULL);
    module_add(m, globalvar_new("f", SP), MODFUNC_RELAX)->u.relax = f;
    return m;
}

static FnSpec base_spec(void)
{
    FnSpec s = {"x", "y", 0, 1, -1, "relax.add", dtype_float32()};
    return s;
}

static void test_renaming(void)
{
    FnSpec a = base_spec(), b = base_spec();
    b.p0 = "a";
    b.p1 = "b";
    CU_ASSERT_TRUE(equal_module(build(a), build(b)));
    CU_ASSERT_TRUE(equal_module(build(a), build(a)));
}

static void test_differences(void)
{
    FnSpec a = base_spec();
    FnSpec swapped = base_spec();
    swapped.use_a = 1;
    swapped.use_b = 0;
    CU_ASSERT_FALSE(equal_module(build(a), build(swapped)));
    FnSpec op = base_spec();
    op.op = "relax.multiply";
    CU_ASSERT_FALSE(equal_module(build(a), build(op)));
    FnSpec dt = base_spec();
    dt.dtype = dtype_int32();
    CU_ASSERT_FALSE(equal_module(build(a), build(dt)));
    /* f(x, y) = x vs f(a, b) = b: the correspondence is not a bijection. */
    FnSpec rx = base_spec(), rb = base_spec();
    rx.ret = 0;
    rb.ret = 1;
    rb.p0 = "a";
    rb.p1 = "b";
    CU_ASSERT_FALSE(equal_module(build(rx), build(rb)));
    /* f(x, y) uses x twice vs f(a, b) uses a then b. */
    FnSpec xx = base_spec(), ab = base_spec();
    xx.use_b = 0;
    CU_ASSERT_FALSE(equal_module(build(xx), build(ab)));
}

static void test_explain(void)
{
    FnSpec a = base_spec(), b = base_spec();
    b.use_a = 1;
    b.use_b = 0;
    const char *why = NULL;
    CU_ASSERT_FALSE(equal_module_explain(build(a), build(b), &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "f/body/blocks[0]/bindings[0]/value/args[0]"));
    CU_ASSERT_TRUE(equal_module_explain(build(a), build(a), &why));
    CU_ASSERT_PTR_NULL(why);
}

static void test_attrs_and_module(void)
{
    IRModule *a = build(base_spec()), *b = build(base_spec());
    Function *fa = a->funcs[0]->u.relax, *fb = b->funcs[0]->u.relax;
    attrs_set(fa->attrs, "k1", attr_int(1, SP));
    attrs_set(fa->attrs, "k2", attr_str("s", SP));
    attrs_set(fb->attrs, "k2", attr_str("s", SP));
    attrs_set(fb->attrs, "k1", attr_int(1, SP));
    CU_ASSERT_TRUE(equal_module(a, b)); /* order-insensitive */
    attrs_set(fb->attrs, "k1", attr_int(2, SP));
    CU_ASSERT_FALSE(equal_module(a, b));
    IRModule *c = build(base_spec());
    module_add(c, globalvar_new("g", SP), MODFUNC_EXTERN)->u.extern_symbol = "g";
    CU_ASSERT_FALSE(equal_module(build(base_spec()), c));
    CU_ASSERT_FALSE(equal_module(c, build(base_spec())));
}

static void test_sinfo(void)
{
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    TirVar *m = tirvar_new("m", dtype_int64(), SP);
    CU_ASSERT_TRUE(equal_sinfo(tensor2(primexpr_var(n, SP), i64(3), dtype_float32()),
                               tensor2(primexpr_var(m, SP), i64(3), dtype_float32())));
    CU_ASSERT_FALSE(equal_sinfo(tensor2(i64(2), i64(3), dtype_float32()),
                                tensor2(i64(2), i64(4), dtype_float32())));
    /* (n, n) vs (n, m): n cannot correspond to both n and m. */
    CU_ASSERT_FALSE(
        equal_sinfo(tensor2(primexpr_var(n, SP), primexpr_var(n, SP), dtype_float32()),
                    tensor2(primexpr_var(n, SP), primexpr_var(m, SP), dtype_float32())));
    CU_ASSERT_FALSE(equal_sinfo(sinfo_shape(NULL, 2, SP), sinfo_shape(NULL, 3, SP)));
    CU_ASSERT_FALSE(equal_sinfo(sinfo_object(SP), sinfo_shape(NULL, -1, SP)));
    CU_ASSERT_TRUE(equal_sinfo(sinfo_func_opaque(NULL, false, NULL, SP),
                               sinfo_func_opaque(sinfo_object(SP), false, NULL, SP)));
    CU_ASSERT_FALSE(equal_sinfo(sinfo_func_opaque(NULL, true, NULL, SP),
                                sinfo_func_opaque(NULL, false, NULL, SP)));
}

static Expr *float_const(float value)
{
    ConstData *c = MEM_NEW(ConstData);
    c->dtype = dtype_float32();
    c->numel = 1;
    c->data = mem_alloc_atomic(4);
    memcpy(c->data, &value, 4);
    Expr *e = expr_new(EXPR_CONSTANT, SP);
    e->u.constant = c;
    return e;
}

static void test_constants(void)
{
    CU_ASSERT_TRUE(equal_expr(float_const(1.5f), float_const(1.5f)));
    CU_ASSERT_FALSE(equal_expr(float_const(0.0f), float_const(-0.0f))); /* by bits */
    CU_ASSERT_FALSE(equal_expr(float_const(1.0f), float_const(2.0f)));
}

/* for i in range(16): B[i] = A[i], with the loop variable renamed or the buffers swapped. */
static PrimFunc *copy_func(const char *loop_name, bool swap)
{
    PrimFunc *f = primfunc_new("copy", SP);
    Buffer *a = buffer_new("A", dtype_float32(), dims2(i64(16), NULL), 1, SP);
    Buffer *b = buffer_new("B", dtype_float32(), dims2(i64(16), NULL), 1, SP);
    f->nparams = 2;
    f->params = MEM_ARRAY(TirVar *, 2);
    f->params[0] = tirvar_new("a", dtype_handle(), SP);
    f->params[1] = tirvar_new("b", dtype_handle(), SP);
    f->param_buffers = MEM_ARRAY(Buffer *, 2);
    f->param_buffers[0] = a;
    f->param_buffers[1] = b;
    TirVar *i = tirvar_new(loop_name, dtype_int32(), SP);
    PrimExpr *load = primexpr_new(PE_LOAD, dtype_float32(), SP);
    load->u.load.buffer = swap ? b : a;
    load->u.load.indices = dims2(primexpr_var(i, SP), NULL);
    load->u.load.nindices = 1;
    Stmt *st = stmt_new(STMT_STORE, SP);
    st->u.store.buffer = swap ? a : b;
    st->u.store.indices = dims2(primexpr_var(i, SP), NULL);
    st->u.store.nindices = 1;
    st->u.store.value = load;
    Stmt *loop = stmt_new(STMT_FOR, SP);
    loop->u.for_.var = i;
    loop->u.for_.min = primexpr_int(0, dtype_int32(), SP);
    loop->u.for_.extent = primexpr_int(16, dtype_int32(), SP);
    loop->u.for_.body = st;
    f->body = loop;
    return f;
}

static IRModule *prim_module(PrimFunc *f)
{
    IRModule *m = module_new(NULL);
    module_add(m, globalvar_new("copy", SP), MODFUNC_PRIM)->u.prim = f;
    return m;
}

static void test_primfunc(void)
{
    CU_ASSERT_TRUE(
        equal_module(prim_module(copy_func("i", false)), prim_module(copy_func("j", false))));
    CU_ASSERT_FALSE(
        equal_module(prim_module(copy_func("i", false)), prim_module(copy_func("i", true))));
    PrimFunc *other = copy_func("i", false);
    other->body->u.for_.extent = primexpr_int(8, dtype_int32(), SP);
    CU_ASSERT_FALSE(equal_module(prim_module(copy_func("i", false)), prim_module(other)));
}

UNIT_SUITE(equal)
{
    CU_pSuite s = CU_add_suite("equal", 0, 0);
    CU_add_test(s, "renaming is equal", test_renaming);
    CU_add_test(s, "differences", test_differences);
    CU_add_test(s, "explain path", test_explain);
    CU_add_test(s, "attrs and module members", test_attrs_and_module);
    CU_add_test(s, "StructInfo", test_sinfo);
    CU_add_test(s, "constants", test_constants);
    CU_add_test(s, "PrimFuncs", test_primfunc);
}
