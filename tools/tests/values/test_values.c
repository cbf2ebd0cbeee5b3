/* test_values: value construction and tensors' exact element conversions.
 * SPEC_NOTES: "Values" (tensors; float16 and bfloat16; integer wrap-around). */
#include <math.h>
#include <setjmp.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/mem.h"
#include "ast/scalar.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

static DataType dt(const char *name)
{
    DataType t;
    CU_ASSERT_TRUE_FATAL(dtype_parse(name, &t));
    return t;
}

static Tensor *vec(const char *dtype, int64_t n)
{
    Tensor *t = tensor_new(dt(dtype), 1, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static void test_construction(void)
{
    int64_t dims[2] = {2, 3};
    Value *s = value_shape(dims, 2);
    dims[0] = 7; /* the shape keeps its own copy */
    CU_ASSERT_EQUAL(s->kind, VAL_SHAPE);
    CU_ASSERT_EQUAL(s->u.shape.ndim, 2);
    CU_ASSERT_EQUAL(s->u.shape.dims[0], 2);
    Value *fields[2] = {s, value_string("hi")};
    Value *tup = value_tuple(fields, 2);
    fields[0] = NULL;
    CU_ASSERT_EQUAL(tup->u.tuple.n, 2);
    CU_ASSERT_PTR_EQUAL(tup->u.tuple.fields[0], s); /* fields are shared, not copied */
    CU_ASSERT_STRING_EQUAL(tup->u.tuple.fields[1]->u.str, "hi");
    CU_ASSERT_NOT_EQUAL(s->id, tup->id);
    CU_ASSERT_EQUAL(value_unit()->u.tuple.n, 0);
    CU_ASSERT_EQUAL(value_null()->kind, VAL_NULL);
    CU_ASSERT_TRUE(dtype_equal(value_dtype(dt("float16"))->u.dtype, dt("float16")));
    CU_ASSERT_STRING_EQUAL(value_object("spectest.Object")->u.object.name, "spectest.Object");
    CU_ASSERT_FALSE(value_object("x")->u.object.callable_pattern);
    CU_ASSERT_TRUE(value_callable_pattern()->u.object.callable_pattern);
    Value *pk = value_packed("spectest.print", false, NULL);
    CU_ASSERT_TRUE(value_is_callable(pk));
    CU_ASSERT_FALSE(pk->u.packed.is_pure);
    CU_ASSERT_TRUE(value_is_callable(value_closure(NULL, NULL)));
    CU_ASSERT_FALSE(value_is_callable(s));
    CU_ASSERT_STRING_EQUAL(value_kind_name(VAL_PACKED), "packed function");
}

static void test_prims(void)
{
    CU_ASSERT_EQUAL(value_prim_int(dt("int8"), 300)->u.prim.i, 44);
    CU_ASSERT_EQUAL(value_prim_int(dt("uint8"), -1)->u.prim.i, 255);
    CU_ASSERT_EQUAL(value_prim_int(dt("int64"), INT64_MIN)->u.prim.i, INT64_MIN);
    CU_ASSERT_EQUAL(value_prim_bool(true)->u.prim.i, 1);
    CU_ASSERT_TRUE(dtype_is_bool(value_prim_bool(false)->u.prim.dtype));
    CU_ASSERT_EQUAL(value_prim_float(dt("float32"), 0.1)->u.prim.f, (double)0.1f);
    CU_ASSERT_EQUAL(value_prim_float(dt("float16"), 0.1)->u.prim.f, 0.0999755859375);
    CU_ASSERT_EQUAL(value_prim_float(dt("float64"), 0.1)->u.prim.f, 0.1);
    Value *u = value_prim_int(dt("uint64"), -1);
    CU_ASSERT_EQUAL(value_prim_as_f64(u), 18446744073709551615.0);
    CU_ASSERT_EQUAL(value_prim_as_i64(value_prim_float(dt("float32"), -2.75)), -2);
    CU_ASSERT_TRUE(value_prim_is_float(value_prim_int(dt("float32"), 3)));
    CU_ASSERT_EQUAL(value_prim_int(dt("float32"), 3)->u.prim.f, 3.0);
    CU_ASSERT_EQUAL(value_prim_float(dt("int8"), 300.9)->u.prim.i, 44);
}

static void test_tensor_new(void)
{
    int64_t shape[2] = {2, 3};
    Tensor *t = tensor_new(dt("float32"), 2, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(tensor_numel(t), 6);
    CU_ASSERT_EQUAL(tensor_nbytes(t), 24);
    for (int64_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(tensor_get_f64(t, i), 0.0);
    Tensor *scalar = tensor_new(dt("int32"), 0, NULL);
    CU_ASSERT_EQUAL(tensor_numel(scalar), 1);
    int64_t empty[2] = {0, 5};
    CU_ASSERT_EQUAL(tensor_numel(tensor_new(dt("int8"), 2, empty)), 0);
    int64_t neg[1] = {-1};
    CU_ASSERT_PTR_NULL(tensor_new(dt("int8"), 1, neg));
    int64_t huge[3] = {INT64_C(1) << 31, INT64_C(1) << 31, 4};
    CU_ASSERT_PTR_NULL(tensor_new(dt("int8"), 3, huge));
    CU_ASSERT_EQUAL(tensor_shape_numel(dt("int8"), 3, huge), -1);
    int64_t zero_huge[3] = {0, INT64_MAX, INT64_MAX}; /* empty: no overflow to report */
    CU_ASSERT_EQUAL(tensor_shape_numel(dt("int8"), 3, zero_huge), 0);
    CU_ASSERT_PTR_NULL(tensor_new(dt("float16x4"), 1, shape));
    CU_ASSERT_PTR_NULL(tensor_new(dt("handle"), 1, shape));
    CU_ASSERT_PTR_NULL(tensor_new(dt("int4"), 1, shape));
    CU_ASSERT_PTR_NULL(tensor_new(dt("void"), 1, shape));
    CU_ASSERT_PTR_NULL(tensor_new(dt("int32"), -1, shape));
    /* Each refusal says why, naming what was refused. */
    static const char *const refusals[][2] = {{"int4", "int4"}, {"handle", "handle"}};
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const char *why = tensor_new_refusal(dt(refusals[i][0]), 1, shape);
        CU_ASSERT_PTR_NOT_NULL_FATAL(why);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, refusals[i][1]));
    }
    const char *why = tensor_new_refusal(dt("int8"), 1, neg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "-1"));
    why = tensor_new_refusal(dt("int32"), TENSOR_MAX_NDIM + 1, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "at most"));
    static const char *const ok[] = {"bool",    "int8",    "int16",   "int32",  "int64",
                                     "uint8",   "uint16",  "uint32",  "uint64", "float16",
                                     "float32", "float64", "bfloat16"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        CU_ASSERT_TRUE(tensor_dtype_supported(dt(ok[i])));
    CU_ASSERT_TRUE(tensor_has_shape(t, 2, shape));
    CU_ASSERT_FALSE(tensor_shape_equal(t, scalar));
}

static void test_integer_wrap(void)
{
    Tensor *i8 = vec("int8", 4);
    tensor_set_i64(i8, 0, 300);
    tensor_set_i64(i8, 1, -129);
    tensor_set_f64(i8, 2, 300.7); /* truncate, then wrap */
    tensor_set_f64(i8, 3, -3.9);
    CU_ASSERT_EQUAL(tensor_get_i64(i8, 0), 44);
    CU_ASSERT_EQUAL(tensor_get_i64(i8, 1), 127);
    CU_ASSERT_EQUAL(tensor_get_i64(i8, 2), 44);
    CU_ASSERT_EQUAL(tensor_get_i64(i8, 3), -3);
    Tensor *u8 = vec("uint8", 2);
    tensor_set_i64(u8, 0, -1);
    tensor_set_f64(u8, 1, -1.0);
    CU_ASSERT_EQUAL(tensor_get_i64(u8, 0), 255);
    CU_ASSERT_EQUAL(tensor_get_f64(u8, 1), 255.0);
    Tensor *i16 = vec("int16", 1);
    tensor_set_i64(i16, 0, 40000);
    CU_ASSERT_EQUAL(tensor_get_i64(i16, 0), 40000 - 65536);
    Tensor *u32 = vec("uint32", 1);
    tensor_set_i64(u32, 0, -2);
    CU_ASSERT_EQUAL(tensor_get_i64(u32, 0), 4294967294);
    Tensor *i64 = vec("int64", 3);
    tensor_set_f64(i64, 0, 1e19); /* 1e19 - 2^64 */
    tensor_set_f64(i64, 1, NAN);
    tensor_set_f64(i64, 2, -INFINITY);
    CU_ASSERT_EQUAL(tensor_get_i64(i64, 0), INT64_C(-8446744073709551616));
    CU_ASSERT_EQUAL(tensor_get_i64(i64, 1), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(i64, 2), 0);
    Tensor *u64 = vec("uint64", 1);
    tensor_set_i64(u64, 0, -1);
    CU_ASSERT_EQUAL(tensor_get_u64(u64, 0), UINT64_MAX);
    CU_ASSERT_EQUAL(tensor_get_i64(u64, 0), -1);
    CU_ASSERT_EQUAL(tensor_get_f64(u64, 0), 18446744073709551615.0);
    CU_ASSERT_EQUAL(tensor_wrap_i64(dt("int8"), 128), -128);
    CU_ASSERT_EQUAL(tensor_f64_to_int(dt("uint16"), 65536.5), 0);
}

static void test_bool(void)
{
    Tensor *b = vec("bool", 5);
    tensor_set_i64(b, 0, 5);
    tensor_set_i64(b, 1, 0);
    tensor_set_f64(b, 2, NAN);
    tensor_set_f64(b, 3, -0.0);
    tensor_set_i64(b, 4, 256); /* non-zero, so true even though its low byte is 0 */
    CU_ASSERT_EQUAL(((uint8_t *)b->data)[0], 1);
    CU_ASSERT_EQUAL(tensor_get_i64(b, 1), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(b, 2), 1);
    CU_ASSERT_EQUAL(tensor_get_i64(b, 3), 0);
    CU_ASSERT_EQUAL(tensor_get_f64(b, 4), 1.0);
}

static void test_float_rounding(void)
{
    Tensor *h = vec("float16", 6);
    tensor_set_f64(h, 0, 0.1);
    tensor_set_f64(h, 1, 65520.0);             /* halfway to 2^16: rounds to infinity */
    tensor_set_f64(h, 2, 1.0 + ldexp(1, -11)); /* tie: even */
    tensor_set_i64(h, 3, 2049);                /* tie between 2048 and 2050: even */
    tensor_set_i64(h, 4, 2051);
    tensor_set_i64(h, 5, INT64_MAX);
    CU_ASSERT_EQUAL(((uint16_t *)h->data)[0], 0x2e66);
    CU_ASSERT_EQUAL(tensor_get_f64(h, 0), 0.0999755859375);
    CU_ASSERT_TRUE(isinf(tensor_get_f64(h, 1)));
    CU_ASSERT_EQUAL(tensor_get_f64(h, 2), 1.0);
    CU_ASSERT_EQUAL(tensor_get_f64(h, 3), 2048.0);
    CU_ASSERT_EQUAL(tensor_get_f64(h, 4), 2052.0);
    CU_ASSERT_TRUE(isinf(tensor_get_f64(h, 5)));
    Tensor *bf = vec("bfloat16", 4);
    /* Just above the halfway point between 1 and 1 + 2^-7: rounding once gives the upper
     * neighbour; going through float32 first would land on the tie and round down. */
    tensor_set_f64(bf, 0, 1.0 + ldexp(1, -8) + ldexp(1, -30));
    tensor_set_f64(bf, 1, 1.0 + ldexp(1, -8));
    tensor_set_i64(bf, 2, (INT64_C(1) << 60) + (INT64_C(1) << 52) + 1);
    tensor_set_f64(bf, 3, -NAN);
    CU_ASSERT_EQUAL(tensor_get_f64(bf, 0), 1.0 + ldexp(1, -7));
    CU_ASSERT_EQUAL(tensor_get_f64(bf, 1), 1.0);
    CU_ASSERT_EQUAL(tensor_get_f64(bf, 2), ldexp(1.0 + ldexp(1, -7), 60));
    CU_ASSERT_TRUE(isnan(tensor_get_f64(bf, 3)));
    Tensor *f = vec("float32", 2);
    tensor_set_f64(f, 0, 0.1);
    tensor_set_i64(f, 1, 16777217); /* tie between 2^24 and 2^24 + 2: even */
    CU_ASSERT_EQUAL(tensor_get_f64(f, 0), (double)0.1f);
    CU_ASSERT_EQUAL(tensor_get_f64(f, 1), 16777216.0);
    CU_ASSERT_EQUAL(tensor_get_i64(f, 1), 16777216);
    Tensor *d = vec("float64", 1);
    tensor_set_f64(d, 0, -2.5e300);
    CU_ASSERT_EQUAL(tensor_get_i64(d, 0), INT64_MIN); /* reading as an integer saturates */
    CU_ASSERT_EQUAL(tensor_round_f64(dt("float16"), 1e-8), 0.0);
    CU_ASSERT_EQUAL(tensor_round_f64(dt("float16"), ldexp(1, -24)), ldexp(1, -24));
}

static void test_copy_alias_const(void)
{
    Tensor *t = vec("int32", 3);
    tensor_fill_f64(t, 7.0);
    Value *a = value_tensor(t);
    Value *b = a; /* binding shares the value */
    tensor_set_i64(b->u.tensor, 0, 1);
    CU_ASSERT_EQUAL(tensor_get_i64(a->u.tensor, 0), 1);
    Tensor *c = tensor_copy(t);
    tensor_set_i64(c, 1, 9);
    CU_ASSERT_EQUAL(tensor_get_i64(t, 1), 7);
    CU_ASSERT_EQUAL(tensor_get_i64(c, 2), 7);
    CU_ASSERT_PTR_NOT_EQUAL(c->data, t->data);

    int64_t shape[1] = {3};
    uint8_t raw[3] = {0, 2, 1};
    ConstData k = {dt("bool"), 1, shape, 3, raw};
    Tensor *from = tensor_from_const(&k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(from);
    CU_ASSERT_EQUAL(((uint8_t *)from->data)[1], 1);
    tensor_set_i64(from, 0, 1);
    CU_ASSERT_EQUAL(raw[0], 0); /* the constant stays untouched */
    ConstData wrong = {dt("bool"), 1, shape, 4, raw};
    CU_ASSERT_PTR_NULL(tensor_from_const(&wrong));
}

static void test_bulk(void)
{
    Tensor *f = vec("float16", 3);
    double in[3] = {0.1, -2.0, 1e6};
    tensor_write_f64(f, in);
    double out[3];
    tensor_read_f64(f, out);
    CU_ASSERT_EQUAL(out[0], 0.0999755859375);
    CU_ASSERT_EQUAL(out[1], -2.0);
    CU_ASSERT_TRUE(isinf(out[2]));
    Tensor *i = vec("int8", 3);
    int64_t iv[3] = {1, 255, -300};
    tensor_write_i64(i, iv);
    int64_t io[3];
    tensor_read_i64(i, io);
    CU_ASSERT_EQUAL(io[0], 1);
    CU_ASSERT_EQUAL(io[1], -1);
    CU_ASSERT_EQUAL(io[2], -44);
    Tensor *g = vec("float32", 2);
    double gv[2] = {0.1, 3.0};
    tensor_write_f64(g, gv);
    tensor_read_f64(g, out);
    CU_ASSERT_EQUAL(out[0], (double)0.1f);
    Tensor *l = vec("int64", 2);
    int64_t lv[2] = {INT64_MAX, -5};
    tensor_write_i64(l, lv);
    tensor_read_i64(l, io);
    CU_ASSERT_EQUAL(io[0], INT64_MAX);
    CU_ASSERT_EQUAL(io[1], -5);
}

/* The allocator's small blocks (free lists filled a heap block at a time): every block comes
 * zeroed, blocks in use are distinct, and a collection reclaims none that is still reachable
 * nor hands one out again. */
static void test_small_blocks(void)
{
    enum { PER_SIZE = 300, SIZES = 33 };
    unsigned char ***kept = mem_alloc(sizeof(unsigned char **) * SIZES);
    for (int round = 0; round < 2; round++) {
        for (int s = 0; s < SIZES; s++) {
            size_t size = (size_t)s * 8;
            kept[s] = mem_alloc(sizeof(unsigned char *) * PER_SIZE);
            for (int k = 0; k < PER_SIZE; k++) {
                unsigned char *p = mem_alloc(size);
                bool zero = true;
                for (size_t b = 0; b < size; b++)
                    zero = zero && p[b] == 0;
                CU_ASSERT_TRUE(zero);
                memset(p, (int)(1 + (s + k) % 250), size);
                kept[s][k] = p;
            }
        }
        mem_collect();
        for (int s = 0; s < SIZES; s++) {
            size_t size = (size_t)s * 8;
            for (int k = 0; k < PER_SIZE; k++)
                for (size_t b = 0; b < size; b++)
                    if (kept[s][k][b] != (unsigned char)(1 + (s + k) % 250))
                        CU_FAIL_FATAL("a reachable block was reused");
        }
    }
}

/* The bound on the tensors being made: one of more elements than the budget is refused
 * before it is made, one of exactly the budget is made, and no bound is in force again once
 * the previous one is put back. */
static jmp_buf refused_at;
static int64_t refused_elements;

static void refuse(void *ctx, int64_t elements)
{
    (void)ctx;
    refused_elements = elements;
    longjmp(refused_at, 1);
}

static void test_tensor_budget(void)
{
    DataType f32 = dtype_make(DT_FLOAT, 32, 1);
    int64_t ten[] = {2, 5}, eleven[] = {11};
    TensorBudget outer = tensor_set_budget((TensorBudget){10, refuse, NULL});
    refused_elements = -1;
    volatile Tensor *made = NULL;
    if (setjmp(refused_at) == 0)
        made = tensor_new(f32, 2, ten);
    CU_ASSERT_PTR_NOT_NULL(made);
    CU_ASSERT_EQUAL(refused_elements, -1);
    made = NULL;
    if (setjmp(refused_at) == 0)
        made = tensor_new_uninit(f32, 1, eleven);
    CU_ASSERT_PTR_NULL(made);
    CU_ASSERT_EQUAL(refused_elements, 11);
    TensorBudget mine = tensor_set_budget(outer);
    CU_ASSERT_EQUAL(mine.elements, 10);
    CU_ASSERT_PTR_NOT_NULL(tensor_new(f32, 1, eleven));
}

/* The element types a tensor holds: exactly bool (uint1), int and uint of 8 to 64 bits,
 * float16/32/64 and bfloat16, one lane; every other code, width and lane count is refused. */
static void test_supported_dtypes(void)
{
    int supported = 0, wrong = 0;
    for (int code = 0; code < 256; code++) {
        for (int bits = 0; bits < 256; bits++) {
            for (int lanes = 0; lanes < 3; lanes++) {
                DataType t = {(uint8_t)code, (uint8_t)bits, (uint16_t)lanes};
                bool word = bits == 8 || bits == 16 || bits == 32 || bits == 64;
                bool want = lanes == 1 && ((code == DT_UINT && bits == 1) ||
                                           ((code == DT_INT || code == DT_UINT) && word) ||
                                           (code == DT_FLOAT && word && bits != 8) ||
                                           (code == DT_BFLOAT && bits == 16));
                wrong += tensor_dtype_supported(t) != want;
                supported += want;
            }
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(supported, 13);
}

UNIT_SUITE(values)
{
    CU_pSuite s = CU_add_suite("values", NULL, NULL);
    CU_add_test(s, "construction", test_construction);
    CU_add_test(s, "prims", test_prims);
    CU_add_test(s, "tensor_new", test_tensor_new);
    CU_add_test(s, "integer_wrap", test_integer_wrap);
    CU_add_test(s, "bool", test_bool);
    CU_add_test(s, "float_rounding", test_float_rounding);
    CU_add_test(s, "copy_alias_const", test_copy_alias_const);
    CU_add_test(s, "bulk", test_bulk);
    CU_add_test(s, "small_blocks", test_small_blocks);
    CU_add_test(s, "tensor_budget", test_tensor_budget);
    CU_add_test(s, "supported_dtypes", test_supported_dtypes);
}
