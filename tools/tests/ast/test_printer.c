/* test_printer: canonical TVMScript printing of StructInfo, PrimExprs, constants and
 * hand-built modules. SPEC_NOTES: "Canonical printing". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/scalar.h"
#include "tools/tests/unit.h"

#define SP span_none()

static PrimExpr *i64(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static PrimExpr *pv(TirVar *v)
{
    return primexpr_var(v, SP);
}

static PrimExpr **dims(int n, PrimExpr *a, PrimExpr *b, PrimExpr *c)
{
    PrimExpr **d = MEM_ARRAY(PrimExpr *, 3);
    d[0] = a;
    d[1] = b;
    d[2] = c;
    (void)n;
    return d;
}

static StructInfo *tensor(int n, PrimExpr **ds, DataType t)
{
    return sinfo_tensor(expr_shape(ds, n, SP), t, NULL, n, SP);
}

static StructInfo **sinfos(StructInfo *a, StructInfo *b, StructInfo *c)
{
    StructInfo **s = MEM_ARRAY(StructInfo *, 3);
    s[0] = a;
    s[1] = b;
    s[2] = c;
    return s;
}

#define EXPECT_SINFO(s, text) CU_ASSERT_STRING_EQUAL(printer_print_sinfo(s), text)

static void test_sinfo_object_prim_shape(void)
{
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    TirVar *a = tirvar_new("a", dtype_int64(), SP);
    EXPECT_SINFO(sinfo_object(SP), "R.Object");
    EXPECT_SINFO(sinfo_prim(dtype_float32(), NULL, SP), "R.Prim(\"float32\")");
    EXPECT_SINFO(sinfo_prim(dtype_int64(), pv(n), SP), "R.Prim(value=n)");
    EXPECT_SINFO(sinfo_prim(dtype_void(), pv(n), SP), "R.Prim(value=n)");
    EXPECT_SINFO(sinfo_prim(dtype_int32(), pv(n), SP), "R.Prim(dtype=\"int32\", value=n)");
    EXPECT_SINFO(sinfo_shape(dims(3, i64(1), pv(a), i64(3)), 3, SP), "R.Shape([1, a, 3])");
    EXPECT_SINFO(sinfo_shape(NULL, 3, SP), "R.Shape(ndim=3)");
    EXPECT_SINFO(sinfo_shape(NULL, -1, SP), "R.Shape(ndim=-1)");
    EXPECT_SINFO(sinfo_shape(dims(0, NULL, NULL, NULL), 0, SP), "R.Shape([])");
}

static void test_sinfo_tensor(void)
{
    TirVar *a = tirvar_new("a", dtype_int64(), SP);
    EXPECT_SINFO(tensor(3, dims(3, i64(1), pv(a), i64(3)), dtype_float32()),
                 "R.Tensor((1, a, 3), dtype=\"float32\")");
    EXPECT_SINFO(tensor(1, dims(1, i64(4), NULL, NULL), dtype_float32()),
                 "R.Tensor((4,), dtype=\"float32\")");
    EXPECT_SINFO(tensor(0, dims(0, NULL, NULL, NULL), dtype_bool()),
                 "R.Tensor((), dtype=\"bool\")");
    EXPECT_SINFO(tensor(2, dims(2, i64(10), i64(10), NULL), dtype_void()), "R.Tensor((10, 10))");
    Var *sh = var_new("sh", false, sinfo_shape(NULL, 2, SP), SP);
    EXPECT_SINFO(sinfo_tensor(expr_var(sh, SP), dtype_float32(), NULL, 2, SP),
                 "R.Tensor(sh, dtype=\"float32\")");
    EXPECT_SINFO(sinfo_tensor(NULL, dtype_float32(), NULL, 2, SP),
                 "R.Tensor(dtype=\"float32\", ndim=2)");
    EXPECT_SINFO(sinfo_tensor(NULL, dtype_void(), NULL, 2, SP), "R.Tensor(ndim=2)");
    EXPECT_SINFO(sinfo_tensor(NULL, dtype_float32(), NULL, -1, SP), "R.Tensor(dtype=\"float32\")");
    EXPECT_SINFO(sinfo_tensor(NULL, dtype_void(), NULL, -1, SP), "R.Tensor");
    VDevice *vd = MEM_NEW(VDevice);
    vd->target_kind = "cuda";
    vd->vdevice_id = 0;
    EXPECT_SINFO(sinfo_tensor(NULL, dtype_float32(), vd, 2, SP),
                 "R.Tensor(dtype=\"float32\", ndim=2, vdevice=\"cuda:0\")");
}

static void test_sinfo_tuple_callable(void)
{
    TirVar *a = tirvar_new("a", dtype_int64(), SP);
    StructInfo *prim = sinfo_prim(dtype_float32(), NULL, SP);
    StructInfo *obj = sinfo_object(SP);
    StructInfo *shape = sinfo_shape(dims(3, i64(1), pv(a), i64(3)), 3, SP);
    EXPECT_SINFO(sinfo_tuple(NULL, 0, SP), "R.Tuple");
    EXPECT_SINFO(sinfo_tuple(sinfos(prim, obj, shape), 3, SP),
                 "R.Tuple(R.Prim(\"float32\"), R.Object, R.Shape([1, a, 3]))");
    EXPECT_SINFO(sinfo_func(sinfos(obj, NULL, NULL), 1, prim, true, SP),
                 "R.Callable((R.Object,), R.Prim(\"float32\"), True)");
    EXPECT_SINFO(sinfo_func(sinfos(obj, prim, NULL), 2, obj, false, SP),
                 "R.Callable((R.Object, R.Prim(\"float32\")), R.Object, False)");
    EXPECT_SINFO(sinfo_func_opaque(obj, false, NULL, SP), "R.Callable");
    EXPECT_SINFO(sinfo_func_opaque(prim, false, NULL, SP), "R.Callable(ret=R.Prim(\"float32\"))");
    EXPECT_SINFO(sinfo_func_opaque(obj, true, NULL, SP), "R.Callable(purity=True)");
    EXPECT_SINFO(sinfo_func_opaque(prim, true, NULL, SP),
                 "R.Callable(ret=R.Prim(\"float32\"), purity=True)");
}

#define EXPECT_PRIM(e, text) CU_ASSERT_STRING_EQUAL(printer_print_primexpr(e), text)

static void test_primexpr(void)
{
    PrimExpr *n = pv(tirvar_new("n", dtype_int64(), SP));
    PrimExpr *m = pv(tirvar_new("m", dtype_int64(), SP));
    EXPECT_PRIM(primexpr_binary(PE_ADD, primexpr_binary(PE_MUL, n, i64(2), SP), i64(1), SP),
                "n * 2 + 1");
    EXPECT_PRIM(primexpr_binary(PE_MUL, primexpr_binary(PE_ADD, n, i64(1), SP), i64(2), SP),
                "(n + 1) * 2");
    EXPECT_PRIM(primexpr_binary(PE_SUB, n, primexpr_binary(PE_SUB, m, i64(1), SP), SP),
                "n - (m - 1)");
    EXPECT_PRIM(primexpr_binary(PE_SUB, primexpr_binary(PE_SUB, n, m, SP), i64(1), SP),
                "n - m - 1");
    EXPECT_PRIM(primexpr_binary(PE_FLOORDIV, n, i64(2), SP), "n // 2");
    EXPECT_PRIM(primexpr_binary(PE_FLOORMOD, n, i64(2), SP), "n % 2");
    EXPECT_PRIM(primexpr_binary(PE_DIV, n, i64(2), SP), "T.truncdiv(n, 2)");
    EXPECT_PRIM(primexpr_binary(PE_MOD, n, i64(2), SP), "T.truncmod(n, 2)");
    EXPECT_PRIM(primexpr_binary(PE_MAX, m, i64(20), SP), "T.max(m, 20)");
    EXPECT_PRIM(primexpr_binary(PE_EQ, primexpr_binary(PE_FLOORMOD, n, i64(16), SP), i64(0), SP),
                "n % 16 == 0");
    EXPECT_PRIM(primexpr_binary(PE_MUL, n, i64(-1), SP), "n * -1");
    EXPECT_PRIM(primexpr_int(3, dtype_int32(), SP), "T.int32(3)");
    EXPECT_PRIM(primexpr_int(1, dtype_bool(), SP), "True");
    EXPECT_PRIM(primexpr_float(1.0, dtype_float32(), SP), "T.float32(1.0)");
    PrimExpr *cast = primexpr_new(PE_CAST, dtype_float32(), SP);
    cast->u.operand = n;
    EXPECT_PRIM(cast, "T.Cast(\"float32\", n)");
    PrimExpr *sel = primexpr_new(PE_SELECT, dtype_int64(), SP);
    sel->u.select.cond = primexpr_binary(PE_LT, n, m, SP);
    sel->u.select.then_value = n;
    sel->u.select.else_value = m;
    EXPECT_PRIM(sel, "T.Select(n < m, n, m)");
    PrimExpr *call = primexpr_new(PE_CALL, dtype_float32(), SP);
    call->u.call.name = "tir.exp";
    call->u.call.args = dims(1, cast, NULL, NULL);
    call->u.call.nargs = 1;
    EXPECT_PRIM(call, "T.exp(T.Cast(\"float32\", n))");
}

/* A constant of the dtype holding `n` doubles (or their 16-bit patterns). */
static Expr *constant(DataType t, int ndim, const int64_t *shape, const double *values)
{
    ConstData *c = MEM_NEW(ConstData);
    c->dtype = t;
    c->ndim = ndim;
    c->shape = MEM_ARRAY(int64_t, ndim + 1);
    c->numel = 1;
    for (int i = 0; i < ndim; i++) {
        c->shape[i] = shape[i];
        c->numel *= shape[i];
    }
    size_t bytes = dtype_bytes(t);
    unsigned char *data = mem_alloc_atomic((size_t)c->numel * bytes + 1);
    for (int64_t i = 0; i < c->numel; i++) {
        void *at = data + (size_t)i * bytes;
        if (t.code == DT_FLOAT && t.bits == 32) {
            float f = (float)values[i];
            memcpy(at, &f, 4);
        } else if (t.code == DT_FLOAT && t.bits == 64) {
            memcpy(at, &values[i], 8);
        } else if (t.code == DT_FLOAT && t.bits == 16) {
            uint16_t h = scalar_double_to_half(values[i]);
            memcpy(at, &h, 2);
        } else if (dtype_is_bool(t)) {
            *(unsigned char *)at = values[i] != 0;
        } else {
            int32_t v = (int32_t)values[i];
            memcpy(at, &v, 4);
        }
    }
    c->data = data;
    Expr *e = expr_new(EXPR_CONSTANT, SP);
    e->u.constant = c;
    return e;
}

static const char *scalar_text(DataType t, double v)
{
    return printer_print_expr(constant(t, 0, NULL, &v));
}

static void test_constants(void)
{
    DataType f16;
    CU_ASSERT_TRUE_FATAL(dtype_parse("float16", &f16));
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_int32(), 1), "R.const(1, \"int32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_bool(), 1), "R.const(True, \"bool\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 1.5), "R.const(1.5, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 1.0), "R.const(1.0, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 0.1), "R.const(0.1, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 1e-5), "R.const(1e-05, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 100), "R.const(100.0, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 1e20), "R.const(1e+20, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), -2.5e-7), "R.const(-2.5e-07, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 0.0001), "R.const(0.0001, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float64(), 1.0 / 3),
                           "R.const(0.3333333333333333, \"float64\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float64(), 0.1), "R.const(0.1, \"float64\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), 1.0 / 3),
                           "R.const(0.33333334, \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(f16, 0.1), "R.const(0.1, \"float16\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(f16, 65504), "R.const(65500.0, \"float16\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), NAN),
                           "R.const(float(\"nan\"), \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float32(), INFINITY),
                           "R.const(float(\"inf\"), \"float32\")");
    CU_ASSERT_STRING_EQUAL(scalar_text(dtype_float64(), -INFINITY),
                           "R.const(float(\"-inf\"), \"float64\")");
    static const int64_t shape[] = {2, 2};
    static const double vals[] = {1, 2, 3, 4.5};
    CU_ASSERT_STRING_EQUAL(printer_print_expr(constant(dtype_float32(), 2, shape, vals)),
                           "R.const([[1.0, 2.0], [3.0, 4.5]], \"float32\")");
    CU_ASSERT_STRING_EQUAL(printer_print_expr(constant(dtype_int32(), 1, shape, vals)),
                           "R.const([1, 2], \"int32\")");
}

static void test_leaf_exprs(void)
{
    Expr *s = expr_new(EXPR_STRING, SP);
    s->u.str = "a \"q\"\\\n\x01";
    CU_ASSERT_STRING_EQUAL(printer_print_expr(s), "R.str(\"a \\\"q\\\"\\\\\\n\\x01\")");
    Expr *d = expr_new(EXPR_DTYPE, SP);
    d->u.dtype = dtype_float32();
    CU_ASSERT_STRING_EQUAL(printer_print_expr(d), "R.dtype(\"float32\")");
    CU_ASSERT_STRING_EQUAL(printer_print_expr(expr_tuple(NULL, 0, SP)), "R.tuple()");
    CU_ASSERT_STRING_EQUAL(printer_print_expr(expr_op("relax.nn.softmax", SP)), "R.nn.softmax");
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    CU_ASSERT_STRING_EQUAL(printer_print_expr(expr_shape(dims(2, i64(1), pv(n), NULL), 2, SP)),
                           "R.shape([1, n])");
    CU_ASSERT_STRING_EQUAL(printer_print_expr(expr_prim_value(i64(1), SP)), "R.prim_value(1)");
    Var *x = var_new("x", false, NULL, SP);
    Expr **one = MEM_ARRAY(Expr *, 2);
    one[0] = expr_var(x, SP);
    CU_ASSERT_STRING_EQUAL(printer_print_expr(expr_tuple(one, 1, SP)), "(x,)");
    Expr *gi = expr_new(EXPR_TUPLE_GET_ITEM, SP);
    gi->u.get_item.tuple = one[0];
    gi->u.get_item.index = 1;
    CU_ASSERT_STRING_EQUAL(printer_print_expr(gi), "x[1]");
}

static Expr **args2(Expr *a, Expr *b)
{
    Expr **v = MEM_ARRAY(Expr *, 2);
    v[0] = a;
    v[1] = b;
    return v;
}

static void test_calls(void)
{
    Var *x = var_new("x", false, NULL, SP);
    Expr *xe = expr_var(x, SP);
    Expr *add = expr_call(expr_op("relax.add", SP), args2(xe, xe), 2, SP);
    CU_ASSERT_STRING_EQUAL(printer_print_expr(add), "R.add(x, x)");
    Expr *sum = expr_call(expr_op("relax.sum", SP), args2(xe, NULL), 1, SP);
    AttrValue *axis = attr_new(ATTR_LIST, SP);
    axis->u.list.items = MEM_ARRAY(AttrValue *, 1);
    axis->u.list.items[0] = attr_int(1, SP);
    axis->u.list.n = 1;
    attrs_set(sum->u.call.attrs, "axis", axis);
    attrs_set(sum->u.call.attrs, "keepdims", attr_bool(false, SP));
    CU_ASSERT_STRING_EQUAL(printer_print_expr(sum), "R.sum(x, axis=[1], keepdims=False)");

    StructInfo *out = tensor(1, dims(1, i64(4), NULL, NULL), dtype_float32());
    Expr *ext = expr_new(EXPR_EXTERN_FUNC, SP);
    ext->u.extern_symbol = "my.func";
    Expr *packed = expr_call(ext, args2(xe, NULL), 1, SP);
    packed->u.call.sinfo_args = sinfos(out, NULL, NULL);
    packed->u.call.nsinfo_args = 1;
    attrs_set(packed->u.call.attrs, "z", attr_int(1, SP));
    attrs_set(packed->u.call.attrs, "a", attr_str("s", SP));
    CU_ASSERT_STRING_EQUAL(printer_print_expr(packed),
                           "R.call_packed(\"my.func\", x, a=\"s\", z=1, "
                           "sinfo_args=(R.Tensor((4,), dtype=\"float32\"),))");

    GlobalVar *g = globalvar_new("add_one", SP);
    Expr *ge = expr_new(EXPR_GLOBAL_VAR, SP);
    ge->u.gvar = g;
    Expr **targs = MEM_ARRAY(Expr *, 3);
    targs[0] = ge;
    targs[1] = expr_tuple(args2(xe, NULL), 1, SP);
    Expr *ct = expr_call(expr_op("relax.call_tir", SP), targs, 2, SP);
    ct->u.call.sinfo_args = sinfos(out, NULL, NULL);
    ct->u.call.nsinfo_args = 1;
    CU_ASSERT_STRING_EQUAL(printer_print_expr(ct),
                           "R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), "
                           "dtype=\"float32\"))");
    Expr *ip = expr_call(expr_op("relax.call_tir_inplace", SP), targs, 3, SP);
    targs[2] = expr_shape(dims(1, i64(4), NULL, NULL), 1, SP);
    ip->u.call.sinfo_args = sinfos(sinfo_tuple(sinfos(out, out, NULL), 2, SP), NULL, NULL);
    ip->u.call.nsinfo_args = 1;
    AttrValue *idx = attr_new(ATTR_LIST, SP);
    idx->u.list.items = MEM_ARRAY(AttrValue *, 2);
    idx->u.list.items[0] = attr_int(0, SP);
    idx->u.list.items[1] = attr_int(-1, SP);
    idx->u.list.n = 2;
    attrs_set(ip->u.call.attrs, "inplace_indices", idx);
    CU_ASSERT_STRING_EQUAL(printer_print_expr(ip),
                           "R.call_tir_inplace(cls.add_one, (x,), out_sinfo=[R.Tensor((4,), "
                           "dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\")], "
                           "inplace_indices=[0, -1], tir_vars=R.shape([4]))");
    Expr *gcall = expr_call(ge, args2(xe, xe), 2, SP);
    CU_ASSERT_STRING_EQUAL(printer_print_expr(gcall), "cls.add_one(x, x)");
}

/* ---- Hand-built modules ---- */

static Expr *v(Var *x)
{
    return expr_var(x, SP);
}

static Expr *op2(const char *op, Expr *a, Expr *b)
{
    return expr_call(expr_op(op, SP), args2(a, b), b ? 2 : 1, SP);
}

static Expr *gvar_ref(GlobalVar *g)
{
    Expr *e = expr_new(EXPR_GLOBAL_VAR, SP);
    e->u.gvar = g;
    return e;
}

static Expr *seq(BindingBlock *a, BindingBlock *b, Expr *body)
{
    BindingBlock **blocks = MEM_ARRAY(BindingBlock *, 2);
    blocks[0] = a;
    blocks[1] = b;
    return expr_seq(blocks, (a != NULL) + (b != NULL), body, SP);
}

static Var **params(Var *a, Var *b)
{
    Var **ps = MEM_ARRAY(Var *, 2);
    ps[0] = a;
    ps[1] = b;
    return ps;
}

static PrimFunc *add_one_primfunc(void)
{
    PrimFunc *f = primfunc_new("add_one", SP);
    Buffer *a = buffer_new("A", dtype_float32(), dims(1, i64(16), NULL, NULL), 1, SP);
    Buffer *b = buffer_new("B", dtype_float32(), dims(1, i64(16), NULL, NULL), 1, SP);
    f->nparams = 2;
    f->params = MEM_ARRAY(TirVar *, 2);
    f->params[0] = tirvar_new("a", dtype_handle(), SP);
    f->params[1] = tirvar_new("b", dtype_handle(), SP);
    f->param_buffers = MEM_ARRAY(Buffer *, 2);
    f->param_buffers[0] = a;
    f->param_buffers[1] = b;
    attrs_set(f->attrs, "tir.noalias", attr_bool(true, SP));
    TirVar *i = tirvar_new("i", dtype_int64(), SP);
    TirVar *vi = tirvar_new("vi", dtype_int64(), SP);
    Stmt *blk = stmt_new(STMT_BLOCK, SP);
    blk->u.block.name = "compute";
    IterVar *it = MEM_NEW(IterVar);
    it->var = vi;
    it->dom_min = i64(0);
    it->extent = i64(16);
    it->binding = pv(i);
    blk->u.block.iters = MEM_ARRAY(IterVar *, 1);
    blk->u.block.iters[0] = it;
    blk->u.block.niters = 1;
    Stmt *store = stmt_new(STMT_STORE, SP);
    PrimExpr *load = primexpr_new(PE_LOAD, dtype_float32(), SP);
    load->u.load.buffer = a;
    load->u.load.indices = dims(1, pv(vi), NULL, NULL);
    load->u.load.nindices = 1;
    store->u.store.buffer = b;
    store->u.store.indices = dims(1, pv(vi), NULL, NULL);
    store->u.store.nindices = 1;
    store->u.store.value =
        primexpr_binary(PE_ADD, load, primexpr_float(1.0, dtype_float32(), SP), SP);
    blk->u.block.body = store;
    Stmt *loop = stmt_new(STMT_FOR, SP);
    loop->u.for_.var = i;
    loop->u.for_.min = i64(0);
    loop->u.for_.extent = i64(16);
    loop->u.for_.body = blk;
    f->body = loop;
    return f;
}

static Function *main_function(GlobalVar *add_one)
{
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    StructInfo *t = tensor(2, dims(2, pv(n), i64(4), NULL), dtype_float32());
    Var *x = var_new("x", false, t, SP);
    Var *lv = var_new("lv", true, NULL, SP);
    Var *gv = var_new("gv", false, NULL, SP);
    Var *x1 = var_new("x", false, NULL, SP);
    Var *unit = var_new("_", false, NULL, SP);
    BindingBlock *df = block_new(true, SP);
    block_add(df, binding_var(lv, op2("relax.add", v(x), v(x)), SP));
    Expr **targs = args2(gvar_ref(add_one), expr_tuple(args2(v(lv), NULL), 1, SP));
    Expr *ct = expr_call(expr_op("relax.call_tir", SP), targs, 2, SP);
    ct->u.call.sinfo_args = sinfos(t, NULL, NULL);
    ct->u.call.nsinfo_args = 1;
    block_add(df, binding_var(gv, ct, SP));
    BindingBlock *plain = block_new(false, SP);
    block_add(plain, binding_var(x1, op2("relax.multiply", v(gv), v(gv)), SP));
    Expr *fmt = expr_new(EXPR_STRING, SP);
    fmt->u.str = "v";
    block_add(plain, binding_var(unit, op2("relax.print", fmt, v(x1)), SP));
    Function *f = function_new(SP);
    f->params = params(x, NULL);
    f->nparams = 1;
    f->ret = t;
    f->body = seq(df, plain, v(x1));
    attrs_set(f->attrs, "global_symbol", attr_str("main", SP));
    return f;
}

/* A private function with a match_cast-defined shape variable, a nested function and an if. */
static Function *helper_function(void)
{
    TirVar *m = tirvar_new("m", dtype_int64(), SP);
    StructInfo *vec = sinfo_tensor(NULL, dtype_float32(), NULL, 1, SP);
    StructInfo *vm = tensor(1, dims(1, pv(m), NULL, NULL), dtype_float32());
    Var *c = var_new("c", false, tensor(0, NULL, dtype_bool()), SP);
    Var *y = var_new("y", false, vec, SP);
    Var *z = var_new("z", false, NULL, SP);
    Var *inner = var_new("inner", false, NULL, SP);
    Var *a = var_new("a", false, vm, SP);
    Var *r = var_new("r", false, NULL, SP);
    Function *fi = function_new(SP);
    fi->params = params(a, NULL);
    fi->nparams = 1;
    fi->ret = vm;
    fi->body = seq(NULL, NULL, v(a));
    Expr *fe = expr_new(EXPR_FUNCTION, SP);
    fe->u.func = fi;
    Expr *ife = expr_new(EXPR_IF, SP);
    ife->u.if_.cond = v(c);
    ife->u.if_.then_branch = seq(NULL, NULL, expr_call(v(inner), args2(v(z), NULL), 1, SP));
    ife->u.if_.else_branch = seq(NULL, NULL, v(z));
    BindingBlock *blk = block_new(false, SP);
    block_add(blk, binding_match_cast(z, vm, v(y), SP));
    block_add(blk, binding_var(inner, fe, SP));
    block_add(blk, binding_var(r, ife, SP));
    Function *f = function_new(SP);
    f->params = params(c, y);
    f->nparams = 2;
    f->ret = vec;
    f->body = seq(blk, NULL, v(r));
    attrs_set(f->attrs, "num_input", attr_int(1, SP));
    return f;
}

static const char expected_module[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import tir as T\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def add_one(A: T.Buffer((T.int64(16),), \"float32\"), "
    "B: T.Buffer((T.int64(16),), \"float32\")):\n"
    "        T.func_attr({\"tir.noalias\": True})\n"
    "        for i in range(T.int64(16)):\n"
    "            with T.block(\"compute\"):\n"
    "                vi = T.axis.remap(\"S\", [i])\n"
    "                B[vi] = A[vi] + T.float32(1.0)\n"
    "\n"
    "    ext = R.ExternFunc(\"ext_sym\")\n"
    "\n"
    "    @R.function(private=True)\n"
    "    def helper(c: R.Tensor((), dtype=\"bool\"), y: R.Tensor(dtype=\"float32\", ndim=1)) "
    "-> R.Tensor(dtype=\"float32\", ndim=1):\n"
    "        R.func_attr({\"num_input\": 1})\n"
    "        m = T.int64()\n"
    "        z = R.match_cast(y, R.Tensor((m,), dtype=\"float32\"))\n"
    "        @R.function\n"
    "        def inner(a: R.Tensor((m,), dtype=\"float32\")) -> R.Tensor((m,), "
    "dtype=\"float32\"):\n"
    "            return a\n"
    "        if c:\n"
    "            r = inner(z)\n"
    "        else:\n"
    "            r = z\n"
    "        return r\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) "
    "-> R.Tensor((\"n\", 4), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        cls = Module\n"
    "        with R.dataflow():\n"
    "            lv = R.add(x, x)\n"
    "            gv = R.call_tir(cls.add_one, (lv,), out_sinfo=R.Tensor((n, 4), "
    "dtype=\"float32\"))\n"
    "            R.output(gv)\n"
    "        x_1 = R.multiply(gv, gv)\n"
    "        R.print(x_1, format=R.str(\"v\"))\n"
    "        return x_1\n";

static IRModule *hand_module(void)
{
    IRModule *mod = module_new(NULL);
    GlobalVar *g_main = globalvar_new("main", SP);
    GlobalVar *g_add = globalvar_new("add_one", SP);
    module_add(mod, g_main, MODFUNC_RELAX)->u.relax = main_function(g_add);
    module_add(mod, globalvar_new("helper", SP), MODFUNC_RELAX)->u.relax = helper_function();
    module_add(mod, globalvar_new("ext", SP), MODFUNC_EXTERN)->u.extern_symbol = "ext_sym";
    module_add(mod, g_add, MODFUNC_PRIM)->u.prim = add_one_primfunc();
    return mod;
}

static void test_module(void)
{
    const char *text = printer_print_module(hand_module());
    CU_ASSERT_STRING_EQUAL(text, expected_module);
    if (strcmp(text, expected_module) != 0)
        fprintf(stderr, "\n%s", text);
}

static void test_lone_function(void)
{
    IRModule *mod = module_new(NULL);
    mod->is_lone_function = true;
    Var *x = var_new("x", false, sinfo_prim(dtype_int64(), NULL, SP), SP);
    Function *f = function_new(SP);
    f->params = params(x, NULL);
    f->nparams = 1;
    f->body = seq(NULL, NULL, v(x));
    f->is_pure = false;
    module_add(mod, globalvar_new("f", SP), MODFUNC_RELAX)->u.relax = f;
    CU_ASSERT_STRING_EQUAL(printer_print_module(mod), "# from tvm.script import relax as R\n"
                                                      "\n"
                                                      "@R.function(pure=False, private=True)\n"
                                                      "def f(x: R.Prim(\"int64\")):\n"
                                                      "    return x\n");
}

/* Names that are not identifiers, keywords, and clashes between Relax and shape variables. */
static void test_names(void)
{
    IRModule *mod = module_new(NULL);
    mod->is_lone_function = true;
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    Var *p1 = var_new("n", false, sinfo_shape(dims(1, pv(n), NULL, NULL), 1, SP), SP);
    Var *p2 = var_new("1st-arg", false, sinfo_object(SP), SP);
    Var *p3 = var_new("lambda", false, sinfo_object(SP), SP);
    Var **ps = MEM_ARRAY(Var *, 3);
    ps[0] = p1;
    ps[1] = p2;
    ps[2] = p3;
    Function *f = function_new(SP);
    f->params = ps;
    f->nparams = 3;
    f->body = seq(NULL, NULL, expr_tuple(args2(v(p2), v(p3)), 2, SP));
    attrs_set(f->attrs, "global_symbol", attr_str("f", SP));
    module_add(mod, globalvar_new("f", SP), MODFUNC_RELAX)->u.relax = f;
    CU_ASSERT_STRING_EQUAL(printer_print_module(mod),
                           "# from tvm.script import tir as T\n"
                           "# from tvm.script import relax as R\n"
                           "\n"
                           "@R.function\n"
                           "def f(n_1: R.Shape([\"n\"]), v_1st_arg: R.Object, lambda_: R.Object):\n"
                           "    n = T.int64()\n"
                           "    return (v_1st_arg, lambda_)\n");
}

UNIT_SUITE(printer_leaves)
{
    CU_pSuite s = CU_add_suite("printer_leaves", 0, 0);
    CU_add_test(s, "sinfo object/prim/shape", test_sinfo_object_prim_shape);
    CU_add_test(s, "sinfo tensor", test_sinfo_tensor);
    CU_add_test(s, "sinfo tuple/callable", test_sinfo_tuple_callable);
    CU_add_test(s, "primexpr", test_primexpr);
    CU_add_test(s, "constants", test_constants);
    CU_add_test(s, "leaf expressions", test_leaf_exprs);
    CU_add_test(s, "calls", test_calls);
}

UNIT_SUITE(printer_module)
{
    CU_pSuite s = CU_add_suite("printer_module", 0, 0);
    CU_add_test(s, "hand-built module", test_module);
    CU_add_test(s, "lone function", test_lone_function);
    CU_add_test(s, "names", test_names);
}
