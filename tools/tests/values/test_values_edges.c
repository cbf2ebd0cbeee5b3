/* test_values_edges: value reading, rendering and conversion at the edges no case reaches:
 * value-notation errors a case file can only make by breaking itself (BadValue, with the
 * message that says what is wrong), a format conversion Python's format does not know, the
 * saturating float-to-integer reads, and the tensor byte limit's floor.
 * SPEC_NOTES: "Value notation errors", 4.8, BI-print, 4.18. */
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/error.h"
#include "tools/tests/unit.h"
#include "values/render.h"
#include "values/tensor.h"
#include "values/value.h"
#include "values/value_yaml.h"

/* The BadValue error a value text raises: its column and its message. */
static void expect_bad(const char *text, int col, const char *message)
{
    ValueYamlOptions opt = {"v.yaml", false};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        value_yaml_parse_text(text, &opt, &trap);
        fprintf(stderr, "\nno error for: %s\n", text);
        CU_FAIL("no error raised");
        return;
    }
    if (trap.error.span.col != col || strcmp(trap.error.message, message) != 0)
        fprintf(stderr, "\n%s -> %d: %s (expected %d: %s)\n", text, trap.error.span.col,
                trap.error.message, col, message);
    CU_ASSERT_EQUAL(trap.error.phase, PHASE_CASE);
    CU_ASSERT_STRING_EQUAL(trap.error.code, "BadValue");
    CU_ASSERT_EQUAL(trap.error.span.line, 1);
    CU_ASSERT_EQUAL(trap.error.span.col, col);
    CU_ASSERT_STRING_EQUAL(trap.error.message, message);
}

static void test_notation_errors(void)
{
    /* A quoted number is a string, not a float element. */
    expect_bad("{tensor: {dtype: float32, shape: [1], data: [\"1.5\"]}}", 46,
               "a float32 element must be a plain number, not '1.5'");
    /* Keys are names: a sequence as a key is refused, for the fields and for the value. */
    expect_bad("{tensor: {? [a] : 1}}", 13, "tensor keys must be scalars");
    expect_bad("{? [a] : 1}", 4, "a value's key must be a scalar");
    /* Data of rank 1 must be a sequence; of rank 0 a sequence or a number. */
    expect_bad("{tensor: {dtype: int32, shape: [2], data: 5}}", 43,
               "tensor data must be a sequence");
    expect_bad("{tensor: {dtype: int32, shape: [], data: {a: 1}}}", 42,
               "tensor data must be a sequence or a number");
    /* 65 dims: one past the rank limit. */
    char text[400];
    int at = snprintf(text, sizeof text, "{tensor: {dtype: int32, shape: [");
    for (int i = 0; i < 65; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, i ? ", 1" : "1");
    snprintf(text + at, sizeof text - (size_t)at, "], data: [1]}}");
    expect_bad(text, 32, "a shape of rank 65 is over the limit of 64");
}

static void test_format_conversion(void)
{
    char one_text[] = "ab";
    char *one[] = {one_text};
    char *err = NULL;
    CU_ASSERT_STRING_EQUAL(render_format("{!s:>3}", one, 1, &err), " ab");
    err = NULL;
    /* Python's format knows !s, !r and !a; any other letter is an error with its own text. */
    CU_ASSERT_PTR_NULL(render_format("{!x}", one, 1, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_STRING_EQUAL(err, "unsupported conversion '!x'");
}

/* Reading a float as an integer truncates toward zero, saturates at int64's ends and reads
 * NaN as 0 (the reads a PrimValue and an untyped element go through). */
static void test_float_to_int_saturates(void)
{
    DataType f32 = dtype_float32();
    CU_ASSERT_EQUAL(value_prim_as_i64(value_prim_float(f32, NAN)), 0);
    CU_ASSERT_EQUAL(value_prim_as_i64(value_prim_float(f32, 1e19)), INT64_MAX);
    CU_ASSERT_EQUAL(value_prim_as_i64(value_prim_float(f32, -1e19)), INT64_MIN);
    CU_ASSERT_EQUAL(value_prim_as_i64(value_prim_float(f32, -2.75)), -2);
    DataType none = dtype_void();
    CU_ASSERT_EQUAL(tensor_f64_to_int(none, NAN), 0);
    CU_ASSERT_EQUAL(tensor_f64_to_int(none, 1e19), INT64_MAX);
    CU_ASSERT_EQUAL(tensor_f64_to_int(none, -1e19), INT64_MIN);
    CU_ASSERT_EQUAL(tensor_f64_to_int(none, 7.9), 7);
}

static void test_kind_names(void)
{
    CU_ASSERT_STRING_EQUAL(value_kind_name(VAL_PRIMFUNC), "prim_func");
    CU_ASSERT_STRING_EQUAL(value_kind_name(VAL_PACKED), "packed function");
}

/* The byte limit is at least 1: 0 or a negative limit would refuse even an empty tensor. */
static void test_max_bytes_floor(void)
{
    int64_t was = tensor_max_bytes();
    tensor_set_max_bytes(0);
    CU_ASSERT_EQUAL(tensor_max_bytes(), 1);
    tensor_set_max_bytes(-5);
    CU_ASSERT_EQUAL(tensor_max_bytes(), 1);
    tensor_set_max_bytes(7);
    CU_ASSERT_EQUAL(tensor_max_bytes(), 7);
    tensor_set_max_bytes(was);
    CU_ASSERT_EQUAL(tensor_max_bytes(), was);
}

UNIT_SUITE(values_edges)
{
    CU_pSuite s = CU_add_suite("values_edges", NULL, NULL);
    CU_add_test(s, "notation_errors", test_notation_errors);
    CU_add_test(s, "format_conversion", test_format_conversion);
    CU_add_test(s, "float_to_int_saturates", test_float_to_int_saturates);
    CU_add_test(s, "kind_names", test_kind_names);
    CU_add_test(s, "max_bytes_floor", test_max_bytes_floor);
}
