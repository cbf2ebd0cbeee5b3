/* test_ops_manip: the creation, manipulation, linear algebra and statistical kernels and
 * their StructInfo inference, called directly. SPEC_NOTES: "Operators". */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/ops/ops_manip_internal.h"
#include "interp/structinfo/prover.h"
#include "tools/tests/unit.h"
#include "values/kernels/kernels_einsum.h"

static Tensor *make(const char *dtype, int ndim, const int64_t *shape, const double *data)
{
    DataType t;
    dtype_parse(dtype, &t);
    Tensor *x = tensor_new(t, ndim, shape);
    if (data != NULL)
        tensor_write_f64(x, data);
    return x;
}

static void expect_data(const Tensor *t, const double *want, int64_t n)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->numel, n);
    for (int64_t i = 0; i < n; i++) {
        double got = tensor_get_f64(t, i);
        CU_ASSERT_TRUE(got == want[i] || (isnan(got) && isnan(want[i])));
    }
}

static void test_matmul(void)
{
    int64_t sa[2] = {2, 3}, sb[2] = {3, 2};
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
    const char *err = NULL;
    Tensor *r =
        kernel_matmul(make("float32", 2, sa, a), make("float32", 2, sb, b), dtype_float32(), &err);
    double want[4] = {58, 64, 139, 154};
    expect_data(r, want, 4);
    /* A 1-D right operand drops its axis; int8 inputs accumulate exactly into int32. */
    int64_t sv[1] = {3};
    double v[3] = {100, 100, 100};
    Tensor *r2 = kernel_matmul(make("int8", 2, sa, a), make("int8", 1, sv, v), dtype_int32(), &err);
    CU_ASSERT_EQUAL(r2->ndim, 1);
    double want2[2] = {600, 1500};
    expect_data(r2, want2, 2);
    int64_t bad[2] = {4, 2};
    CU_ASSERT_PTR_NULL(kernel_matmul(make("float32", 2, sa, a), make("float32", 2, bad, NULL),
                                     dtype_float32(), &err));
    CU_ASSERT_PTR_NOT_NULL(err);
}

static void test_reduce(void)
{
    int64_t s[2] = {2, 3};
    double x[6] = {1, 2, 3, 4, 5, 7};
    const char *err = NULL;
    bool axis1[2] = {false, true}, all[2] = {true, true};
    double sums[2] = {6, 16};
    expect_data(kernel_reduce(make("float32", 2, s, x), REDUCE_SUM, axis1, false, &err), sums, 2);
    /* The int mean truncates toward zero: 22 / 6 = 3.67 -> 3. */
    double mean[1] = {3};
    Tensor *m = kernel_reduce(make("int32", 2, s, x), REDUCE_MEAN, all, true, &err);
    CU_ASSERT_EQUAL(m->ndim, 2);
    expect_data(m, mean, 1);
    double var[2] = {2.0 / 3.0, 14.0 / 9.0};
    Tensor *v = kernel_reduce(make("float64", 2, s, x), REDUCE_VARIANCE, axis1, false, &err);
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(v, 0), var[0], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(tensor_get_f64(v, 1), var[1], 1e-12);
    int64_t e[1] = {0};
    bool one[1] = {true};
    CU_ASSERT_PTR_NULL(kernel_reduce(make("float32", 1, e, NULL), REDUCE_MAX, one, false, &err));
    double prod1[1] = {1};
    expect_data(kernel_reduce(make("int32", 1, e, NULL), REDUCE_PROD, one, false, &err), prod1, 1);
}

static void test_scan_and_arg(void)
{
    int64_t s[2] = {2, 3};
    double x[6] = {1, 2, 3, 4, 5, 6};
    const char *err = NULL;
    double inc[6] = {1, 3, 6, 4, 9, 15}, exc[6] = {0, 1, 3, 0, 4, 9};
    expect_data(kernel_scan(make("int32", 2, s, x), 1, false, false, dtype_int32(), &err), inc, 6);
    expect_data(kernel_scan(make("int32", 2, s, x), 1, false, true, dtype_int32(), &err), exc, 6);
    double flat[6] = {1, 2, 6, 24, 120, 720};
    Tensor *p = kernel_scan(make("int32", 2, s, x), -1, true, false, dtype_int64(), &err);
    CU_ASSERT_EQUAL(p->ndim, 1);
    expect_data(p, flat, 6);
    double ties[6] = {3, 1, 3, 0, 3, 0};
    double am[2] = {0, 1};
    expect_data(kernel_arg_extreme(make("int32", 2, s, ties), 1, false, true, &err), am, 2);
    int64_t n4[1] = {4};
    double withnan[4] = {1, NAN, 3, NAN}, first_nan[1] = {1};
    expect_data(kernel_arg_extreme(make("float32", 1, n4, withnan), -1, false, false, &err),
                first_nan, 1);
}

static void test_layout(void)
{
    int64_t s[2] = {2, 3};
    double x[6] = {1, 2, 3, 4, 5, 6};
    const char *err = NULL;
    Tensor *t = make("int16", 2, s, x);
    int perm[2] = {1, 0};
    double tr[6] = {1, 4, 2, 5, 3, 6};
    expect_data(kernel_permute(t, perm, &err), tr, 6);
    int64_t reps[2] = {2, 1};
    double tiled[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
    expect_data(kernel_tile(t, reps, 2, &err), tiled, 12);
    double rep[12] = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6};
    expect_data(kernel_repeat(t, 2, 1, &err), rep, 12);
    double flipped[6] = {3, 2, 1, 6, 5, 4};
    expect_data(kernel_flip(t, 1, &err), flipped, 6);
    int64_t b[2] = {0, -1}, e[2] = {INT64_MAX, -100}, st[2] = {1, -2};
    double sliced[4] = {3, 1, 6, 4};
    expect_data(kernel_strided_slice(t, b, e, st, &err), sliced, 4);
    Tensor *parts[2] = {t, t};
    double cat[12] = {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6};
    expect_data(kernel_concat(parts, 2, 1, &err), cat, 12);
    int64_t at[1] = {1};
    Tensor **sp = kernel_split(t, at, 1, 1, &err);
    double first[2] = {1, 4}, rest[4] = {2, 3, 5, 6};
    expect_data(sp[0], first, 2);
    expect_data(sp[1], rest, 4);
}

static void test_select(void)
{
    int64_t s[2] = {2, 3}, si[1] = {2};
    double x[6] = {1, 2, 3, 4, 5, 6}, ix[2] = {2, -3};
    const char *err = NULL;
    Tensor *t = make("float32", 2, s, x);
    double taken[4] = {3, 1, 6, 4};
    expect_data(kernel_take(t, make("int64", 1, si, ix), 1, "fast", &err), taken, 4);
    double oob[2] = {3, 0};
    CU_ASSERT_PTR_NULL(kernel_take(t, make("int64", 1, si, oob), 1, "fast", &err));
    double clipped[4] = {3, 1, 6, 4};
    expect_data(kernel_take(t, make("int64", 1, si, oob), 1, "clip", &err), clipped, 4);
    int64_t sc[1] = {3};
    double c[3] = {1, 0, 1}, fill[1] = {0};
    int64_t s0[1] = {1};
    double w[6] = {1, 0, 3, 4, 0, 6};
    expect_data(kernel_where(make("bool", 1, sc, c), t, make("float32", 1, s0, fill), &err), w, 6);
    double fr[3] = {-2.5, 300, 0.75};
    double u8[3] = {254, 44, 0};
    expect_data(kernel_astype(make("float32", 1, sc, fr), dtype_make(DT_UINT, 8, 1), &err), u8, 3);
}

static void test_create_and_einsum(void)
{
    const char *err = NULL;
    double ar[3] = {5, 3, 1};
    expect_data(kernel_arange_int(dtype_int64(), 5, 0, -2, &err), ar, 3);
    double eye[6] = {0, 1, 0, 0, 0, 1};
    expect_data(kernel_eye(dtype_float32(), 2, 3, 1, &err), eye, 6);
    int64_t s[2] = {3, 3};
    double x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    double low[9] = {1, 0, 0, 4, 5, 0, 7, 8, 9};
    expect_data(kernel_trilu(make("int32", 2, s, x), 0, true, &err), low, 9);
    Tensor *m = make("float32", 2, s, x);
    Tensor *ops[2] = {m, m};
    int ranks[2] = {2, 2};
    EinsumSpec spec;
    double trace[1] = {15};
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("ii->", ranks, 1, &spec));
    expect_data(kernel_einsum(&spec, ops, dtype_float32(), &err), trace, 1);
    double mm0 = 1 * 1 + 2 * 4 + 3 * 7;
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("ij, jk", ranks, 2, &spec));
    Tensor *p = kernel_einsum(&spec, ops, dtype_float32(), &err);
    CU_ASSERT_EQUAL(tensor_get_f64(p, 0), mm0);
    /* An ellipsis covers the leading dims; a label of dim 1 broadcasts against 3. */
    double rowsum[3] = {6, 15, 24};
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("...j->...", ranks, 1, &spec));
    expect_data(kernel_einsum(&spec, ops, dtype_float32(), &err), rowsum, 3);
    int64_t s1[2] = {1, 3};
    double one[3] = {1, 1, 2};
    Tensor *bops[2] = {make("float32", 2, s1, one), m};
    double bsum[3] = {1 + 2 + 6, 4 + 5 + 12, 7 + 8 + 18};
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("ij,ij->i", ranks, 2, &spec));
    expect_data(kernel_einsum(&spec, bops, dtype_float32(), &err), bsum, 3);
    /* LIMIT-fuel's measure: label assignments times operands. */
    CU_ASSERT_EQUAL(kernel_einsum_work(&spec, bops), 3 * 3 * 2);
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("ij,jk->ik", ranks, 2, &spec));
    CU_ASSERT_EQUAL(kernel_einsum_work(&spec, ops), 3 * 3 * 3 * 2);
    int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    int64_t tall[2] = {INT64_C(1) << 40, 0}, wide[2] = {0, INT64_C(1) << 40};
    Tensor big = {dtype_float32(), 2, huge, 0, NULL, 0};
    Tensor t = {dtype_float32(), 2, tall, 0, NULL, 0}, w = {dtype_float32(), 2, wide, 0, NULL, 0};
    Tensor *bigs[2] = {&big, &big}, *empty[2] = {&t, &w};
    CU_ASSERT_EQUAL(kernel_einsum_work(&spec, bigs), -1); /* 2^120 assignments */
    CU_ASSERT_EQUAL(kernel_einsum_work(&spec, empty), 0); /* j has no value */
    CU_ASSERT_PTR_NULL(kernel_einsum_spec("ii->", ranks, 1, &spec));
    CU_ASSERT_EQUAL(kernel_einsum_work(&spec, ops), 3);
    CU_ASSERT_PTR_NOT_NULL(kernel_einsum_spec("i..j", ranks, 1, &spec));
    CU_ASSERT_PTR_NOT_NULL(kernel_einsum_spec("ij->k", ranks, 1, &spec));
    CU_ASSERT_PTR_NOT_NULL(kernel_einsum_spec("ijk...", ranks, 1, &spec));
}

/* ---- inference ---------------------------------------------------------------------------- */

static Expr *call_of(const char *op, int nargs)
{
    Expr **args = MEM_ARRAY(Expr *, nargs > 0 ? nargs : 1);
    for (int i = 0; i < nargs; i++)
        args[i] = expr_tuple(NULL, 0, span_none());
    return expr_call(expr_op(op, span_none()), args, nargs, span_none());
}

static StructInfo *tensor_sinfo(int ndim, PrimExpr **dims, const char *dtype)
{
    DataType t;
    dtype_parse(dtype, &t);
    OpShape s = {dims, ndim};
    return ops_tensor_result(s, t, NULL, span_none());
}

static StructInfo *infer(OpInferFn fn, Expr *call, StructInfo **args, int n, DiagList *d)
{
    diag_init(d);
    OpInferCtx ctx = {call, args, n, d, "OP-test"};
    return fn(&ctx);
}

static AttrValue *int_list(int n, const int64_t *v)
{
    AttrValue *l = attr_new(ATTR_LIST, span_none());
    l->u.list.items = MEM_ARRAY(AttrValue *, n > 0 ? n : 1);
    l->u.list.n = n;
    for (int i = 0; i < n; i++)
        l->u.list.items[i] = attr_int(v[i], span_none());
    return l;
}

static void test_infer_reshape(void)
{
    PrimExpr *d[3] = {manip_dim_int(2), manip_dim_int(3), manip_dim_int(4)};
    PrimExpr *target[3] = {manip_dim_int(6), manip_dim_int(1), manip_dim_int(-1)};
    StructInfo *args[2] = {tensor_sinfo(3, d, "float32"), sinfo_shape(target, 3, span_none())};
    DiagList dl;
    StructInfo *r = infer(manip_infer_reshape, call_of("relax.reshape", 2), args, 2, &dl);
    CU_ASSERT_EQUAL_FATAL(r->kind, SINFO_TENSOR);
    OpShape s = ops_shape_of(r);
    CU_ASSERT_TRUE(s.dims != NULL && ops_dim_is(s.dims[2], 4));
    PrimExpr *bad[2] = {manip_dim_int(5), manip_dim_int(5)};
    args[1] = sinfo_shape(bad, 2, span_none());
    r = infer(manip_infer_reshape, call_of("relax.reshape", 2), args, 2, &dl);
    CU_ASSERT_EQUAL(r->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&dl)->code, "OpShapeMismatch");
}

static void test_infer_symbolic(void)
{
    TirVar *n = tirvar_new("n", dtype_int64(), span_none());
    TirVar *m = tirvar_new("m", dtype_int64(), span_none());
    PrimExpr *a[2] = {primexpr_var(n, span_none()), manip_dim_int(3)};
    PrimExpr *b[2] = {primexpr_var(m, span_none()), manip_dim_int(3)};
    StructInfo *fields[2] = {tensor_sinfo(2, a, "float32"), tensor_sinfo(2, b, "float32")};
    StructInfo *args[1] = {sinfo_tuple(fields, 2, span_none())};
    DiagList dl;
    StructInfo *r = infer(manip_infer_concat, call_of("relax.concat", 1), args, 1, &dl);
    OpShape s = ops_shape_of(r);
    CU_ASSERT_TRUE_FATAL(s.dims != NULL);
    PrimExpr *sum = primexpr_binary(PE_ADD, primexpr_var(n, span_none()),
                                    primexpr_var(m, span_none()), span_none());
    CU_ASSERT_EQUAL(prover_compare(s.dims[0], sum), PROVE_EQUAL);
    /* matmul (n, 3) x (m, 3): 3 vs m is undecided, so the result keeps its dims. */
    StructInfo *mm[2] = {
        fields[0], tensor_sinfo(2, (PrimExpr *[]){manip_dim_int(4), manip_dim_int(5)}, "float32")};
    r = infer(manip_infer_matmul, call_of("relax.matmul", 2), mm, 2, &dl);
    CU_ASSERT_EQUAL(r->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&dl)->code, "OpShapeMismatch");
    /* sum over axis 1 with keepdims keeps n and makes the axis 1. */
    Expr *call = call_of("relax.sum", 1);
    int64_t ax[1] = {1};
    attrs_set(call->u.call.attrs, "axis", int_list(1, ax));
    attrs_set(call->u.call.attrs, "keepdims", attr_bool(true, span_none()));
    StructInfo *one[1] = {fields[0]};
    r = infer(manip_infer_sum, call, one, 1, &dl);
    s = ops_shape_of(r);
    CU_ASSERT_TRUE_FATAL(s.dims != NULL && s.ndim == 2);
    CU_ASSERT_TRUE(ops_dim_is(s.dims[1], 1));
    int64_t dup[2] = {1, -1};
    attrs_set(call->u.call.attrs, "axis", int_list(2, dup));
    r = infer(manip_infer_sum, call, one, 1, &dl);
    CU_ASSERT_STRING_EQUAL(diag_first(&dl)->code, "OpAttr");
}

static void test_infer_einsum(void)
{
    PrimExpr *a[2] = {manip_dim_int(2), manip_dim_int(3)};
    StructInfo *fields[1] = {tensor_sinfo(2, a, "float32")};
    StructInfo *args[1] = {sinfo_tuple(fields, 1, span_none())};
    Expr *call = call_of("relax.einsum", 1);
    attrs_set(call->u.call.attrs, "subscripts", attr_str("ij->ji", span_none()));
    DiagList dl;
    OpShape s = ops_shape_of(infer(manip_infer_einsum, call, args, 1, &dl));
    CU_ASSERT_TRUE_FATAL(s.dims != NULL);
    CU_ASSERT_TRUE(ops_dim_is(s.dims[0], 3) && ops_dim_is(s.dims[1], 2));
    attrs_set(call->u.call.attrs, "subscripts", attr_str("...j", span_none()));
    s = ops_shape_of(infer(manip_infer_einsum, call, args, 1, &dl));
    CU_ASSERT_TRUE_FATAL(s.dims != NULL && s.ndim == 2);
    CU_ASSERT_TRUE(ops_dim_is(s.dims[0], 2) && ops_dim_is(s.dims[1], 3));
    attrs_set(call->u.call.attrs, "subscripts", attr_str("i.j->", span_none()));
    CU_ASSERT_EQUAL(infer(manip_infer_einsum, call, args, 1, &dl)->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&dl)->code, "OpAttr");
}

/* An int indices_or_sections means that many pieces of ceil(dim / n), the last smaller. */
static void test_split_sections(void)
{
    PrimExpr *d[1] = {manip_dim_int(7)};
    StructInfo *args[1] = {tensor_sinfo(1, d, "int32")};
    Expr *call = call_of("relax.split", 1);
    attrs_set(call->u.call.attrs, "indices_or_sections", attr_int(3, span_none()));
    DiagList dl;
    StructInfo *r = infer(manip_infer_split, call, args, 1, &dl);
    CU_ASSERT_EQUAL_FATAL(r->kind, SINFO_TUPLE);
    CU_ASSERT_EQUAL_FATAL(r->u.tuple.n, 3);
    int64_t want[3] = {3, 3, 1};
    for (int i = 0; i < 3; i++)
        CU_ASSERT_TRUE(ops_dim_is(ops_shape_of(r->u.tuple.fields[i]).dims[0], want[i]));
    attrs_set(call->u.call.attrs, "indices_or_sections", attr_int(0, span_none()));
    CU_ASSERT_EQUAL(infer(manip_infer_split, call, args, 1, &dl)->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&dl)->code, "OpAttr");
}

static void test_table(void)
{
    int n;
    const OpImpl *t = ops_manip(&n);
    int ns;
    const OpSchema *schemas = op_schema_manip(&ns);
    CU_ASSERT_EQUAL(n, ns);
    for (int i = 0; i < n && i < ns; i++) {
        CU_ASSERT_STRING_EQUAL(t[i].name, schemas[i].name);
        CU_ASSERT_TRUE(t[i].pure && t[i].infer != NULL && t[i].kernel != NULL);
    }
}

UNIT_SUITE(ops_manip)
{
    CU_pSuite s = CU_add_suite("ops_manip", NULL, NULL);
    CU_add_test(s, "matmul", test_matmul);
    CU_add_test(s, "reduce", test_reduce);
    CU_add_test(s, "scan_and_arg", test_scan_and_arg);
    CU_add_test(s, "layout", test_layout);
    CU_add_test(s, "select", test_select);
    CU_add_test(s, "create_and_einsum", test_create_and_einsum);
    CU_add_test(s, "infer_reshape", test_infer_reshape);
    CU_add_test(s, "infer_symbolic", test_infer_symbolic);
    CU_add_test(s, "infer_einsum", test_infer_einsum);
    CU_add_test(s, "split_sections", test_split_sections);
    CU_add_test(s, "table", test_table);
}
