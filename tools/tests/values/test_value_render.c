/* test_value_render: numpy's str(ndarray), R.print text and the case-file notation.
 * SPEC_NOTES: "Values" (value notation), "R.print and assert_op rendering". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/mem.h"
#include "tools/tests/unit.h"
#include "values/render.h"
#include "values/tensor.h"
#include "values/value.h"

typedef struct NumpyCase {
    const char *dtype;
    int ndim;
    int64_t shape[3];
    const char *data; /* space-separated elements, or "iota" for 0, 1, 2, ... */
    const char *expected;
} NumpyCase;

/* Expected strings are numpy's own str(np.array(data, dtype=dtype)) (numpy 1.24),
 * generated once and pasted here. */
static const NumpyCase numpy_cases[] = {
    {"float32", 1, {3}, "1.0 2.0 3.0", "[1. 2. 3.]"},
    {"int32", 2, {2, 2}, "1 2 3 4", "[[1 2]\n [3 4]]"},
    {"int32", 0, {0}, "1", "1"},
    {"float32", 0, {0}, "1.5", "1.5"},
    {"bool", 0, {0}, "1", "True"},
    {"bool", 0, {0}, "0", "False"},
    {"float32", 1, {2}, "1.5 2.25", "[1.5  2.25]"},
    {"float32", 1, {2}, "0.10000000149011612 0.20000000298023224", "[0.1 0.2]"},
    {"float32", 1, {2}, "0.3333333432674408 0.6666666865348816", "[0.33333334 0.6666667 ]"},
    {"float64", 1, {2}, "0.3333333333333333 0.6666666666666666", "[0.33333333 0.66666667]"},
    {"float32", 1, {2}, "9.999999747378752e-06 1.0", "[1.e-05 1.e+00]"},
    {"float64", 1, {2}, "1.5e-05 1.0", "[1.5e-05 1.0e+00]"},
    {"float64", 1, {2}, "2.5e-05 3.0", "[2.5e-05 3.0e+00]"},
    {"float64", 1, {2}, "-1e-05 1.0", "[-1.e-05  1.e+00]"},
    {"float64", 1, {2}, "-4.5e-07 9.0", "[-4.5e-07  9.0e+00]"},
    {"float32", 1, {2}, "7.250000233257291e+20 3.0", "[7.25e+20 3.00e+00]"},
    {"int32", 1, {1001}, "iota", "[   0    1    2 ...  998  999 1000]"},
    {"float64", 1, {2}, "100000000.0 1.0", "[1.e+08 1.e+00]"},
    {"float64", 1, {2}, "100000000.0 10000000.0", "[1.e+08 1.e+07]"},
    {"float64", 1, {2}, "99999999.0 10000000.0", "[99999999. 10000000.]"},
    {"float64", 1, {2}, "0.0001 0.001", "[0.0001 0.001 ]"},
    {"float32", 1, {2}, "9.999999747378752e-05 1.0", "[1.e-04 1.e+00]"},
    {"float64", 1, {2}, "1.0 1000.0", "[   1. 1000.]"},
    {"float64", 1, {2}, "1.0 1001.0", "[1.000e+00 1.001e+03]"},
    {"float32", 1, {2}, "nan 1.0", "[nan  1.]"},
    {"float32", 1, {2}, "-inf 1.0", "[-inf   1.]"},
    {"float32", 1, {2}, "nan inf", "[nan inf]"},
    {"float32", 1, {2}, "-0.0 0.0", "[-0.  0.]"},
    {"float64", 1, {2}, "-1.5 2.0", "[-1.5  2. ]"},
    {"bool", 1, {2}, "1 0", "[ True False]"},
    {"int8", 1, {3}, "-5 100 7", "[ -5 100   7]"},
    {"float16", 1, {1}, "0.0999755859375", "[0.1]"},
    {"float16", 1, {2}, "65504.0 0.0010004043579101562", "[6.55e+04 1.00e-03]"},
    {"float16", 1, {1}, "64288.0", "[64288.]"},
    {"float32",
     1,
     {30},
     "0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0 16.0 17.0 18.0 19.0 "
     "20.0 21.0 22.0 23.0 24.0 25.0 26.0 27.0 28.0 29.0",
     "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n 18. 19. 20. 21. "
     "22. 23. 24. 25. 26. 27. 28. 29.]"},
    {"float32", 2, {2, 2}, "1.5 2.0 3.0 4.0", "[[1.5 2. ]\n [3.  4. ]]"},
    {"int32", 3, {2, 2, 2}, "1 2 3 4 5 6 7 8", "[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]"},
    {"float32", 0, {0}, "0.10000000149011612", "0.1"},
    {"float32", 0, {0}, "1.0000000200408773e+20", "1e+20"},
    {"float64", 0, {0}, "1e-05", "1e-05"},
    {"float64", 0, {0}, "1e+16", "1e+16"},
    {"float32", 0, {0}, "nan", "nan"},
    {"float64", 0, {0}, "-inf", "-inf"},
    {"float32", 0, {0}, "-0.0", "-0.0"},
    {"float32", 0, {0}, "123456792.0", "123456790.0"},
    {"float16", 0, {0}, "65504.0", "65500.0"},
    {"uint64", 1, {2}, "18446744073709551615 0", "[18446744073709551615                    0]"},
    {"int64", 1, {2}, "-9223372036854775808 5", "[-9223372036854775808                    5]"},
    {"float64", 1, {2}, "12345678.9 1.0", "[1.23456789e+07 1.00000000e+00]"},
    {"float64", 1, {2}, "0.999999999 0.001", "[1.    0.001]"},
    {"float32",
     1,
     {3},
     "-64.69917297363281 1.3915953786636237e-05 -5.675014495849609",
     "[-6.4699173e+01  1.3915954e-05 -5.6750145e+00]"},
    {"float32", 1, {2}, "99999992.0 1.0", "[9.999999e+07 1.000000e+00]"},
    {"int32", 1, {1100}, "iota", "[   0    1    2 ... 1097 1098 1099]"},
    {"int64",
     3,
     {2, 3, 200},
     "iota",
     "[[[   0    1    2 ...  197  198  199]\n  [ 200  201  202 ...  397  398  399]\n  [ 400  401  "
     "402 ...  597  598  599]]\n\n [[ 600  601  602 ...  797  798  799]\n  [ 800  801  802 ...  "
     "997  998  999]\n  [1000 1001 1002 ... 1197 1198 1199]]]"},
    {"bool", 2, {1, 3}, "1 0 1", "[[ True False  True]]"},
    {"float32", 1, {2}, "0.001 2.5", "[1.0e-03 2.5e+00]"},
    {"float32", 2, {2, 0}, "", "[]"},
};

static DataType dt(const char *name)
{
    DataType t;
    CU_ASSERT_TRUE_FATAL(dtype_parse(name, &t));
    return t;
}

static Tensor *build(const NumpyCase *c)
{
    DataType t = dt(c->dtype);
    Tensor *x = tensor_new(t, c->ndim, c->shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    bool iota = strcmp(c->data, "iota") == 0;
    const char *p = c->data;
    for (int64_t i = 0; i < x->numel; i++) {
        char *end;
        if (iota)
            tensor_set_i64(x, i, i);
        else if (dtype_is_float(t))
            tensor_set_f64(x, i, strtod(p, &end));
        else if (dtype_is_uint(t))
            tensor_set_i64(x, i, (int64_t)strtoull(p, &end, 10));
        else
            tensor_set_i64(x, i, strtoll(p, &end, 10));
        if (!iota)
            p = end;
    }
    return x;
}

static void test_numpy_str(void)
{
    for (size_t i = 0; i < sizeof numpy_cases / sizeof numpy_cases[0]; i++) {
        const NumpyCase *c = &numpy_cases[i];
        char *got = render_tensor_numpy(build(c));
        if (strcmp(got, c->expected) != 0)
            fprintf(stderr, "\nnumpy case %zu (%s): got\n%s\nexpected\n%s\n", i, c->dtype, got,
                    c->expected);
        CU_ASSERT_STRING_EQUAL(got, c->expected);
    }
}

/* numpy summarizes an array of more than 1,000 elements (its threshold) and prints one of
 * exactly 1,000 whole: str(np.arange(1000)) is 4,056 characters ending in "998 999]". */
static void test_numpy_threshold(void)
{
    NumpyCase c = {"int32", 1, {1000}, "iota", NULL};
    char *got = render_tensor_numpy(build(&c));
    CU_ASSERT_PTR_NULL(strstr(got, "..."));
    CU_ASSERT_EQUAL(strlen(got), 4056);
    size_t n = strlen(got);
    CU_ASSERT_TRUE(n >= 8 && strcmp(got + n - 8, "998 999]") == 0);
}

static Tensor *tensor_of(const char *dtype, int ndim, const int64_t *shape, const double *vals)
{
    Tensor *t = tensor_new(dt(dtype), ndim, shape);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    tensor_write_f64(t, vals);
    return t;
}

static void test_print(void)
{
    /* The R.print expectations of TVM's test_print: "1", "(1, 1)". */
    Value *one = value_tensor(tensor_of("int32", 0, NULL, (double[]){1}));
    Value *pair[2] = {one, one};
    CU_ASSERT_STRING_EQUAL(render_value_print(one), "1");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_tuple(pair, 2)), "(1, 1)");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_tuple(pair, 1)), "(1)");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_unit()), "()");
    int64_t dims[2] = {2, 3};
    CU_ASSERT_STRING_EQUAL(render_value_print(value_shape(dims, 2)), "(2, 3)");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_shape(dims, 1)), "(2,)");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_shape(dims, 0)), "()");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_prim_int(dt("int64"), -3)), "-3");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_prim_int(dt("uint64"), -1)),
                           "18446744073709551615");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_prim_bool(true)), "True");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_prim_float(dt("float64"), 1.0)), "1.0");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_prim_float(dt("float32"), 0.1)), "0.1");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_string("a b")), "a b");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_dtype(dt("bfloat16"))), "bfloat16");
    CU_ASSERT_STRING_EQUAL(render_value_print(value_null()), "None");
    int64_t three = 3;
    Value *t = value_tensor(tensor_of("float32", 1, &three, (double[]){1, 2, 3}));
    Value *mixed[2] = {t, value_shape(dims, 1)};
    CU_ASSERT_STRING_EQUAL(render_value_print(value_tuple(mixed, 2)), "([1. 2. 3.], (2,))");
}

static void test_float_repr(void)
{
    /* Python's repr(float) for the float64 cases. */
    static const struct {
        double v;
        const char *dtype;
        const char *text;
    } cases[] = {
        {0.1, "float64", "0.1"},
        {1e16, "float64", "1e+16"},
        {1e-5, "float64", "1e-05"},
        {1.0, "float64", "1.0"},
        {-0.0, "float64", "-0.0"},
        {123456789.0, "float64", "123456789.0"},
        {1.5e300, "float64", "1.5e+300"},
        {0.0001, "float64", "0.0001"},
        {NAN, "float64", "nan"},
        {-INFINITY, "float32", "-inf"},
        {0.1f, "float32", "0.1"},
        /* float32 0.0001 is 9.99999975e-05: the layout follows the shortest digits' exponent. */
        {0.0001f, "float32", "0.0001"},
        {0.00009999999747378752, "float64", "9.999999747378752e-05"},
        {0.0999755859375, "float16", "0.1"},
        {5e-324, "float64", "5e-324"},
        {1.7976931348623157e308, "float64", "1.7976931348623157e+308"},
        {3.4028234663852886e38, "float32", "3.4028235e+38"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CU_ASSERT_STRING_EQUAL(render_float_repr(cases[i].v, dt(cases[i].dtype)), cases[i].text);
}

static void test_case_notation(void)
{
    int64_t s22[2] = {2, 2};
    Value *t = value_tensor(tensor_of("float32", 2, s22, (double[]){1, 2, 3, 4}));
    CU_ASSERT_STRING_EQUAL(render_value_case(t),
                           "{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4]]}}");
    int64_t four = 4;
    Value *f = value_tensor(tensor_of("float32", 1, &four, (double[]){0.1, NAN, -INFINITY, -0.0}));
    CU_ASSERT_STRING_EQUAL(render_value_case(f),
                           "{tensor: {dtype: float32, shape: [4], data: [0.1, nan, -inf, -0.0]}}");
    Value *s = value_tensor(tensor_of("bool", 0, NULL, (double[]){1}));
    CU_ASSERT_STRING_EQUAL(render_value_case(s), "{tensor: {dtype: bool, shape: [], data: true}}");
    int64_t s20[2] = {2, 0};
    Value *e = value_tensor(tensor_new(dt("int8"), 2, s20));
    CU_ASSERT_STRING_EQUAL(render_value_case(e),
                           "{tensor: {dtype: int8, shape: [2, 0], data: []}}");
    int64_t huge_empty[2] = {INT64_MAX, 0};
    Value *he = value_tensor(tensor_new(dt("int8"), 2, huge_empty));
    CU_ASSERT_STRING_EQUAL(render_value_case(he),
                           "{tensor: {dtype: int8, shape: [9223372036854775807, 0], data: []}}");
    Value *big = value_tensor(tensor_of("float64", 1, &four, (double[]){1e20, 1.5e-7, 2.5, 1e15}));
    CU_ASSERT_STRING_EQUAL(render_value_case(big),
                           "{tensor: {dtype: float64, shape: [4], data: [1e+20, 1.5e-07, 2.5, "
                           "1000000000000000]}}");
    Value *fields[6] = {value_shape(s22, 2),
                        value_prim_int(dt("int64"), 3),
                        value_string("a\"b\\c\n"),
                        value_dtype(dt("float32")),
                        value_null(),
                        value_object("spectest.Object")};
    CU_ASSERT_STRING_EQUAL(render_value_case(value_tuple(fields, 6)),
                           "{tuple: [{shape: [2, 2]}, {prim: {dtype: int64, value: 3}}, "
                           "{string: \"a\\\"b\\\\c\\n\"}, {dtype: \"float32\"}, {null: true}, "
                           "{object: \"spectest.Object\"}]}");
    CU_ASSERT_STRING_EQUAL(render_value_case(value_unit()), "{tuple: []}");
    CU_ASSERT_STRING_EQUAL(render_value_case(value_packed("f", true, NULL)), "{callable: true}");
    CU_ASSERT_STRING_EQUAL(render_value_case(value_callable_pattern()), "{callable: true}");
    CU_ASSERT_STRING_EQUAL(render_value_case(value_prim_bool(false)),
                           "{prim: {dtype: bool, value: false}}");
    CU_ASSERT_STRING_EQUAL(render_value_case(value_prim_float(dt("float16"), 0.1)),
                           "{prim: {dtype: float16, value: 0.1}}");
}

/* TVM's test_print output, line by line: 1 / Number: 1 / Tuple: (1, 1) / 1 (1, 1) /
 * Custom print: 1 1 / Another print: 1 (1, 1). */
static void test_print_line(void)
{
    Value *x = value_tensor(tensor_of("int32", 0, NULL, (double[]){1}));
    Value *pair[2] = {x, x};
    Value *t = value_tuple(pair, 2);
    char *err = NULL;
    CU_ASSERT_STRING_EQUAL(render_print_line("", (Value *[]){x}, 1, &err), "1");
    CU_ASSERT_STRING_EQUAL(render_print_line("Number: {}", (Value *[]){x}, 1, &err), "Number: 1");
    CU_ASSERT_STRING_EQUAL(render_print_line("Tuple: {}", (Value *[]){t}, 1, &err),
                           "Tuple: (1, 1)");
    CU_ASSERT_STRING_EQUAL(render_print_line("", (Value *[]){x, t}, 2, &err), "1 (1, 1)");
    CU_ASSERT_STRING_EQUAL(render_print_line("Custom print: {} {}", (Value *[]){x, x}, 2, &err),
                           "Custom print: 1 1");
    CU_ASSERT_STRING_EQUAL(render_print_line("Another print: {} {}", (Value *[]){x, t}, 2, &err),
                           "Another print: 1 (1, 1)");
    CU_ASSERT_STRING_EQUAL(render_print_line("", NULL, 0, &err), "");
    CU_ASSERT_PTR_NULL(err);
    Value *five = value_prim_int(dtype_int64(), 5);
    CU_ASSERT_STRING_EQUAL(render_assert_message("", NULL, 0, &err), "Assertion Failed");
    CU_ASSERT_STRING_EQUAL(render_assert_message("", (Value *[]){five, five}, 2, &err), "5, 5");
    CU_ASSERT_STRING_EQUAL(render_assert_message("got {0}, {0}!", (Value *[]){five}, 1, &err),
                           "got 5, 5!");
}

/* Expected texts and messages are Python's own str.format results. */
static void test_format(void)
{
    char *ab[1] = {(char *)"ab"};
    char *err = NULL;
    CU_ASSERT_STRING_EQUAL(render_format("{:>5}|", ab, 1, &err), "   ab|");
    CU_ASSERT_STRING_EQUAL(render_format("{:*^7}", ab, 1, &err), "**ab***");
    CU_ASSERT_STRING_EQUAL(render_format("{:.1}", ab, 1, &err), "a");
    CU_ASSERT_STRING_EQUAL(render_format("{:5}|", ab, 1, &err), "ab   |");
    CU_ASSERT_STRING_EQUAL(render_format("{:05}", ab, 1, &err), "ab000");
    CU_ASSERT_STRING_EQUAL(render_format("a{{b}}c{0!s}", ab, 1, &err), "a{b}cab");
    CU_ASSERT_STRING_EQUAL(render_format("{0:}", ab, 1, &err), "ab");
    static const struct {
        const char *fmt;
        const char *error;
    } bad[] = {
        {"{", "Single '{' encountered in format string"},
        {"}", "Single '}' encountered in format string"},
        {"{0}{}", "cannot switch from manual field specification to automatic field numbering"},
        {"{}{0}", "cannot switch from automatic field numbering to manual field specification"},
        {"{1}", "Replacement index 1 out of range for positional args tuple"},
        {"{:=5}", "'=' alignment not allowed in string format specifier"},
        {"{:d}", "Unknown format code 'd' for object of type 'str'"},
        {"{x}", "KeyError: 'x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = NULL;
        CU_ASSERT_PTR_NULL(render_format(bad[i].fmt, ab, 1, &err));
        CU_ASSERT_PTR_NOT_NULL_FATAL(err);
        CU_ASSERT_STRING_EQUAL(err, bad[i].error);
    }
}

UNIT_SUITE(value_render)
{
    CU_pSuite s = CU_add_suite("value_render", NULL, NULL);
    CU_add_test(s, "numpy's summarizing threshold", test_numpy_threshold);
    CU_add_test(s, "numpy_str", test_numpy_str);
    CU_add_test(s, "print", test_print);
    CU_add_test(s, "float_repr", test_float_repr);
    CU_add_test(s, "case_notation", test_case_notation);
    CU_add_test(s, "print_line", test_print_line);
    CU_add_test(s, "format", test_format);
}
