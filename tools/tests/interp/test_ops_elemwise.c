/* test_ops_elemwise: the elementwise kernels (integer division and shifts, wrap-around,
 * rounding, NaN) and the shared inference helpers (broadcasting over symbolic dims, axes).
 * SPEC_NOTES: "Operators" (OP-add ... OP-clip, Op* codes). */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "interp/ops/ops_common.h"
#include "tools/tests/unit.h"
#include "values/kernels/kernels_elemwise.h"

#define SP span_none()

static Tensor *vec_i(DataType t, const int64_t *v, int64_t n)
{
    Tensor *x = tensor_new(t, 1, &n);
    tensor_write_i64(x, v);
    return x;
}

static Tensor *vec_f(DataType t, const double *v, int64_t n)
{
    Tensor *x = tensor_new(t, 1, &n);
    tensor_write_f64(x, v);
    return x;
}

static Tensor *binary(KernelBinaryOp op, Tensor *a, Tensor *b)
{
    const char *err = NULL;
    Tensor *r = kernels_binary(op, a, b, &err);
    CU_ASSERT_PTR_NULL(err);
    return r;
}

static void test_int_division(void)
{
    DataType i8 = dtype_make(DT_INT, 8, 1);
    int64_t a[] = {7, -7, 7, -7, -128};
    int64_t b[] = {2, 2, -2, -2, -1};
    Tensor *ta = vec_i(i8, a, 5), *tb = vec_i(i8, b, 5);
    int64_t div[] = {3, -3, -3, 3, -128}, fdiv[] = {3, -4, -4, 3, -128};
    int64_t mod[] = {1, -1, 1, -1, 0}, fmod_[] = {1, 1, -1, -1, 0};
    Tensor *r = binary(KB_DIVIDE, ta, tb);
    Tensor *q = binary(KB_FLOOR_DIVIDE, ta, tb);
    Tensor *m = binary(KB_MOD, ta, tb);
    Tensor *f = binary(KB_FLOOR_MOD, ta, tb);
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(tensor_get_i64(r, i), div[i]);
        CU_ASSERT_EQUAL(tensor_get_i64(q, i), fdiv[i]);
        CU_ASSERT_EQUAL(tensor_get_i64(m, i), mod[i]);
        CU_ASSERT_EQUAL(tensor_get_i64(f, i), fmod_[i]);
    }
    int64_t z[] = {1, 0, 1, 1, 1};
    const char *err = NULL;
    CU_ASSERT_PTR_NULL(kernels_binary(KB_DIVIDE, ta, vec_i(i8, z, 5), &err));
    CU_ASSERT_PTR_NOT_NULL(err);
}

static void test_int64_extremes(void)
{
    DataType i64 = dtype_int64();
    int64_t a[] = {INT64_MIN, INT64_MAX, INT64_MIN};
    int64_t b[] = {-1, 1, 1};
    Tensor *ta = vec_i(i64, a, 3), *tb = vec_i(i64, b, 3);
    CU_ASSERT_EQUAL(tensor_get_i64(binary(KB_DIVIDE, ta, tb), 0), INT64_MIN);
    CU_ASSERT_EQUAL(tensor_get_i64(binary(KB_MOD, ta, tb), 0), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(binary(KB_ADD, ta, tb), 1), INT64_MIN);
    CU_ASSERT_EQUAL(tensor_get_i64(binary(KB_SUBTRACT, ta, tb), 2), INT64_MAX);
    DataType u64 = dtype_make(DT_UINT, 64, 1);
    int64_t ua[] = {-1}, ub[] = {2};
    Tensor *q = binary(KB_DIVIDE, vec_i(u64, ua, 1), vec_i(u64, ub, 1));
    CU_ASSERT_EQUAL(tensor_get_u64(q, 0), UINT64_MAX / 2);
    Tensor *c = binary(KB_GREATER, vec_i(u64, ua, 1), vec_i(u64, ub, 1));
    CU_ASSERT_EQUAL(tensor_get_i64(c, 0), 1);
}

static void test_shifts(void)
{
    DataType i8 = dtype_make(DT_INT, 8, 1);
    int64_t x[] = {1, -1, 3, -128, 64, 1};
    int64_t s[] = {7, 1, 8, 1, 9, -1};
    Tensor *tx = vec_i(i8, x, 6), *ts = vec_i(i8, s, 6);
    int64_t left[] = {-128, -2, 0, 0, 0, 0};
    int64_t right[] = {0, -1, 0, -64, 0, 0};
    Tensor *l = binary(KB_LEFT_SHIFT, tx, ts), *r = binary(KB_RIGHT_SHIFT, tx, ts);
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(tensor_get_i64(l, i), left[i]);
        CU_ASSERT_EQUAL(tensor_get_i64(r, i), right[i]);
    }
}

static void test_broadcast_and_bool(void)
{
    int64_t sa[] = {2, 1}, sb[] = {3};
    Tensor *a = tensor_new(dtype_float32(), 2, sa), *b = tensor_new(dtype_float32(), 1, sb);
    double va[] = {1, 2}, vb[] = {1, 2, 3};
    tensor_write_f64(a, va);
    tensor_write_f64(b, vb);
    Tensor *r = binary(KB_LESS_EQUAL, a, b);
    CU_ASSERT(dtype_is_bool(r->dtype));
    CU_ASSERT_EQUAL(r->ndim, 2);
    CU_ASSERT_EQUAL(r->shape[0], 2);
    CU_ASSERT_EQUAL(r->shape[1], 3);
    int64_t want[] = {1, 1, 1, 0, 1, 1};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(tensor_get_i64(r, i), want[i]);
    int64_t s4[] = {4};
    const char *err = NULL;
    CU_ASSERT_PTR_NULL(kernels_binary(KB_ADD, b, tensor_new(dtype_float32(), 1, s4), &err));
}

static void test_float_special(void)
{
    double a[] = {1.0, NAN, -2.5, 2.5, 0.5};
    double b[] = {NAN, 2.0, 1.0, 1.0, 1.0};
    Tensor *ta = vec_f(dtype_float32(), a, 5), *tb = vec_f(dtype_float32(), b, 5);
    Tensor *mx = binary(KB_MAXIMUM, ta, tb);
    /* OP-maximum: TVM's select(a > b, a, b): a NaN operand gives b (RESULT-2). */
    CU_ASSERT(isnan(tensor_get_f64(mx, 0)));
    CU_ASSERT_EQUAL(tensor_get_f64(mx, 1), 2.0);
    /* OP-floor_divide: float32 1 // 0.1 is 10, the quotient rounded to float32 first. */
    Tensor *fd = binary(KB_FLOOR_DIVIDE, vec_f(dtype_float32(), (double[]){1.0}, 1),
                        vec_f(dtype_float32(), (double[]){0.1}, 1));
    CU_ASSERT_EQUAL(tensor_get_f64(fd, 0), 10.0);
    /* OP-not_equal: ordered: false with a NaN operand. */
    Tensor *ne = binary(KB_NOT_EQUAL, ta, tb);
    CU_ASSERT_EQUAL(tensor_get_i64(ne, 0), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(ne, 2), 1);
    const char *err = NULL;
    Tensor *r = kernels_unary(KU_ROUND, ta, &err);
    CU_ASSERT_EQUAL(tensor_get_f64(r, 2), -2.0);
    CU_ASSERT_EQUAL(tensor_get_f64(r, 3), 2.0);
    CU_ASSERT_EQUAL(tensor_get_f64(r, 4), 0.0);
    Tensor *s = kernels_unary(KU_SIGN, ta, &err);
    CU_ASSERT(isnan(tensor_get_f64(s, 1)));
    CU_ASSERT_EQUAL(tensor_get_f64(s, 2), -1.0);
    Tensor *fm = binary(KB_FLOOR_MOD, vec_f(dtype_float64(), (double[]){-7.0}, 1),
                        vec_f(dtype_float64(), (double[]){3.0}, 1));
    CU_ASSERT_EQUAL(tensor_get_f64(fm, 0), 2.0);
}

static void test_unary_int_and_clip(void)
{
    DataType i8 = dtype_make(DT_INT, 8, 1);
    int64_t x[] = {-128, -3, 0, 5};
    Tensor *t = vec_i(i8, x, 4);
    const char *err = NULL;
    Tensor *ab = kernels_unary(KU_ABS, t, &err);
    CU_ASSERT_EQUAL(tensor_get_i64(ab, 0), -128);
    CU_ASSERT_EQUAL(tensor_get_i64(ab, 1), 3);
    Tensor *ng = kernels_unary(KU_NEGATIVE, t, &err);
    CU_ASSERT_EQUAL(tensor_get_i64(ng, 0), -128);
    Tensor *fin = kernels_unary(KU_ISFINITE, t, &err);
    CU_ASSERT(dtype_is_bool(fin->dtype));
    CU_ASSERT_EQUAL(tensor_get_i64(fin, 2), 1);
    Tensor *c = kernels_clip(t, 0, 0, -2, 4);
    int64_t want[] = {-2, -2, 0, 4};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(tensor_get_i64(c, i), want[i]);
    Tensor *crossed = kernels_clip(t, 0, 0, 3, 1);
    CU_ASSERT_EQUAL(tensor_get_i64(crossed, 3), 3);
}

/* ---- inference helpers ------------------------------------------------------------------ */

static Expr *dummy_call(void)
{
    return expr_call(expr_op("relax.add", SP), NULL, 0, SP);
}

static OpInferCtx ctx_for(DiagList *d)
{
    diag_init(d);
    OpInferCtx c = {dummy_call(), NULL, 0, d, "OP-add"};
    return c;
}

static PrimExpr *ci(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static void test_broadcast_symbolic(void)
{
    DiagList d;
    OpInferCtx c = ctx_for(&d);
    TirVar *n = tirvar_new("n", dtype_int64(), SP);
    PrimExpr *a_dims[] = {primexpr_var(n, SP), ci(3)};
    PrimExpr *b_dims[] = {ci(1), ci(3)};
    OpShape out;
    CU_ASSERT(ops_broadcast(&c, (OpShape){a_dims, 2}, (OpShape){b_dims, 2}, &out));
    CU_ASSERT_PTR_NOT_NULL(out.dims);
    CU_ASSERT_EQUAL(out.ndim, 2);
    CU_ASSERT_PTR_EQUAL(out.dims[0]->u.var, n);
    /* n against 4: n may be 1, so the result keeps only its rank. */
    PrimExpr *c_dims[] = {ci(4)};
    CU_ASSERT(ops_broadcast(&c, (OpShape){a_dims, 1}, (OpShape){c_dims, 1}, &out));
    CU_ASSERT_PTR_NULL(out.dims);
    CU_ASSERT_EQUAL(out.ndim, 1);
    /* 3 against 4 is provably wrong. */
    CU_ASSERT_FALSE(ops_broadcast(&c, (OpShape){b_dims + 1, 1}, (OpShape){c_dims, 1}, &out));
    CU_ASSERT_EQUAL(d.n, 1);
    CU_ASSERT_STRING_EQUAL(d.items[0].code, "OpShapeMismatch");
    CU_ASSERT_STRING_EQUAL(d.items[0].rule, "OP-add");
    /* an unknown rank stays unknown */
    CU_ASSERT(ops_broadcast(&c, (OpShape){NULL, -1}, (OpShape){c_dims, 1}, &out));
    CU_ASSERT_EQUAL(out.ndim, -1);
}

static void test_axes(void)
{
    DiagList d;
    OpInferCtx c = ctx_for(&d);
    AttrValue *l = attr_new(ATTR_LIST, SP);
    AttrValue *items[] = {attr_int(-1, SP), attr_int(0, SP)};
    l->u.list.items = items;
    l->u.list.n = 2;
    int *axes, n;
    CU_ASSERT(ops_normalize_axes(&c, l, 3, &axes, &n));
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(axes[0], 0);
    CU_ASSERT_EQUAL(axes[1], 2);
    CU_ASSERT(ops_normalize_axes(&c, NULL, 3, &axes, &n));
    CU_ASSERT_EQUAL(n, 3);
    items[1] = attr_int(2, SP);
    CU_ASSERT_FALSE(ops_normalize_axes(&c, l, 3, &axes, &n));
    CU_ASSERT_FALSE(ops_normalize_axes(&c, attr_int(3, SP), 3, &axes, &n));
    CU_ASSERT_EQUAL(d.n, 2);
    CU_ASSERT_STRING_EQUAL(d.items[0].code, "OpAttr");
    CU_ASSERT_STRING_EQUAL(ops_rule_of("relax.nn.softmax"), "OP-nn.softmax");
}

static void test_tensor_result(void)
{
    PrimExpr *dims[] = {ci(2), ci(5)};
    StructInfo *s = ops_tensor_result((OpShape){dims, 2}, dtype_float32(), NULL, SP);
    CU_ASSERT_STRING_EQUAL(printer_print_sinfo(s), "R.Tensor((2, 5), dtype=\"float32\")");
    StructInfo *u = ops_tensor_result((OpShape){NULL, 3}, dtype_void(), NULL, SP);
    CU_ASSERT_STRING_EQUAL(printer_print_sinfo(u), "R.Tensor(ndim=3)");
}

UNIT_SUITE(ops_elemwise)
{
    CU_pSuite s = CU_add_suite("ops_elemwise", 0, 0);
    CU_add_test(s, "integer division and modulo", test_int_division);
    CU_add_test(s, "int64 and uint64 extremes", test_int64_extremes);
    CU_add_test(s, "shifts out of range", test_shifts);
    CU_add_test(s, "broadcasting, bool results", test_broadcast_and_bool);
    CU_add_test(s, "NaN, rounding, sign", test_float_special);
    CU_add_test(s, "integer unary ops and clip", test_unary_int_and_clip);
    CU_add_test(s, "broadcast over symbolic dims", test_broadcast_symbolic);
    CU_add_test(s, "axis normalization", test_axes);
    CU_add_test(s, "result StructInfo", test_tensor_result);
}
