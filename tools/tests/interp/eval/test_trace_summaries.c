/* test_trace_summaries: --trace's summary of each kind of value (SPEC_NOTES "Evaluation"):
 * a tensor's dtype, shape and first four elements (floats in %.6g, integers exactly, the top
 * of uint64 unsigned), a PrimValue's dtype and value (floats in %.9g, uint64 unsigned), a
 * tuple's field ids, and the others by kind and name, each followed by the value's #id. */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "interp/eval/eval_internal.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

static void expect_summary(const Value *v, const char *want_before_id)
{
    StrBuf sb;
    strbuf_init(&sb);
    trace_value_summary(&sb, v);
    char *want = mem_printf("%s #%d", want_before_id, v->id);
    const char *got = strbuf_str(&sb);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\ngot '%s', expected '%s'\n", got, want);
    CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_prim_summaries(void)
{
    expect_summary(value_prim_float(dtype_float32(), 1.5), "prim float32 1.5");
    expect_summary(value_prim_float(dtype_make(DT_FLOAT, 64, 1), 0.1), "prim float64 0.1");
    expect_summary(value_prim_int(dtype_int64(), -7), "prim int64 -7");
    expect_summary(value_prim_int(dtype_make(DT_UINT, 64, 1), -1),
                   "prim uint64 18446744073709551615");
    expect_summary(value_prim_int(dtype_make(DT_UINT, 32, 1), 4000000000),
                   "prim uint32 4000000000");
}

static void test_tensor_summaries(void)
{
    int64_t five = 5, two_by_two[2] = {2, 2};
    Tensor *f = tensor_new(dtype_float32(), 1, &five);
    for (int i = 0; i < 5; i++)
        tensor_set_f64(f, i, i + 0.5);
    expect_summary(value_tensor(f), "tensor float32 [5] {0.5, 1.5, 2.5, 3.5, ...}");
    Tensor *u = tensor_new(dtype_make(DT_UINT, 64, 1), 2, two_by_two);
    tensor_set_i64(u, 0, -1);
    tensor_set_i64(u, 3, 3);
    expect_summary(value_tensor(u), "tensor uint64 [2, 2] {18446744073709551615, 0, 0, 3}");
    Tensor *i = tensor_new(dtype_int64(), 0, NULL);
    tensor_set_i64(i, 0, -9);
    expect_summary(value_tensor(i), "tensor int64 [] {-9}");
}

static void test_other_summaries(void)
{
    int64_t dims[2] = {3, 0};
    expect_summary(value_shape(dims, 2), "shape (3, 0)");
    Value *a = value_string("hi"), *b = value_null();
    Value *fields[2] = {a, b};
    Value *t = value_tuple(fields, 2);
    expect_summary(t, mem_printf("tuple(2) (#%d, #%d)", a->id, b->id));
    expect_summary(a, "string \"hi\"");
    expect_summary(b, "null");
    expect_summary(value_dtype(dtype_float32()), "dtype float32");
    expect_summary(value_object("thing"), "object thing");
}

UNIT_SUITE(trace_summaries)
{
    CU_pSuite s = CU_add_suite("trace summaries", 0, 0);
    CU_add_test(s, "PrimValues", test_prim_summaries);
    CU_add_test(s, "tensors", test_tensor_summaries);
    CU_add_test(s, "shapes, tuples and the rest", test_other_summaries);
}
