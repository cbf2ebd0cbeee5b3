/* test_dtype: data type parsing and printing, and the 16-bit float conversions.
 * SPEC_NOTES: "Data types", "float16 and bfloat16". */
#include <math.h>
#include <string.h>

#include "ast/dtype.h"
#include "ast/scalar.h"
#include "tools/tests/unit.h"

static void test_parse_print(void)
{
    static const char *const names[] = {"float32",   "int64", "bool",   "bfloat16", "uint8",
                                        "float16x4", "void",  "handle", "int1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        DataType t;
        CU_ASSERT_TRUE_FATAL(dtype_parse(names[i], &t));
        CU_ASSERT_STRING_EQUAL(dtype_str(t), names[i]);
    }
    DataType t;
    CU_ASSERT_TRUE(dtype_parse("", &t));
    CU_ASSERT_TRUE(dtype_is_void(t));
    CU_ASSERT_FALSE(dtype_parse("float", &t));
    CU_ASSERT_FALSE(dtype_parse("int64x", &t));
    CU_ASSERT_FALSE(dtype_parse("tensor", &t));
    CU_ASSERT_FALSE(dtype_parse("int999", &t));
    CU_ASSERT_TRUE(dtype_parse("bool", &t) && dtype_is_bool(t) && dtype_bytes(t) == 1);
    CU_ASSERT_TRUE(dtype_parse("float16", &t) && dtype_bytes(t) == 2);
}

static void test_half(void)
{
    /* Values checked against the binary16 table: 1.0 = 0x3c00, 65504 = 0x7bff,
     * smallest subnormal 2^-24 = 0x0001, 0.1 rounds to 0x2e66. */
    CU_ASSERT_EQUAL(scalar_float_to_half(1.0f), 0x3c00);
    CU_ASSERT_EQUAL(scalar_float_to_half(-2.0f), 0xc000);
    CU_ASSERT_EQUAL(scalar_float_to_half(65504.0f), 0x7bff);
    CU_ASSERT_EQUAL(scalar_float_to_half(65520.0f), 0x7c00);
    CU_ASSERT_EQUAL(scalar_float_to_half(65519.0f), 0x7bff);
    CU_ASSERT_EQUAL(scalar_float_to_half(ldexpf(1.0f, -24)), 0x0001);
    CU_ASSERT_EQUAL(scalar_float_to_half(ldexpf(1.0f, -25)), 0x0000); /* tie to even: 0 */
    CU_ASSERT_EQUAL(scalar_float_to_half(ldexpf(3.0f, -25)), 0x0002); /* tie to even: 2 */
    CU_ASSERT_EQUAL(scalar_float_to_half(0.1f), 0x2e66);
    CU_ASSERT_EQUAL(scalar_double_to_half(1.0 + ldexp(1.0, -11)), 0x3c00); /* tie: even */
    CU_ASSERT_EQUAL(scalar_double_to_half(1.0 + 3 * ldexp(1.0, -11)), 0x3c02);
    CU_ASSERT_TRUE(isnan(scalar_half_to_float(scalar_float_to_half(NAN))));
    CU_ASSERT_EQUAL(scalar_half_to_float(0x3c00), 1.0f);
    CU_ASSERT_EQUAL(scalar_half_to_float(0x0001), ldexpf(1.0f, -24));
    CU_ASSERT_EQUAL(scalar_half_to_float(0xfc00), -INFINITY);
    for (unsigned h = 0; h < 0x7c00; h++) /* every finite positive half round-trips */
        CU_ASSERT_EQUAL_FATAL(scalar_float_to_half(scalar_half_to_float((uint16_t)h)), h);
}

static void test_bfloat(void)
{
    CU_ASSERT_EQUAL(scalar_float_to_bfloat(1.0f), 0x3f80);
    CU_ASSERT_EQUAL(scalar_bfloat_to_float(0x3f80), 1.0f);
    /* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even gives 1. */
    CU_ASSERT_EQUAL(scalar_float_to_bfloat(1.0f + ldexpf(1.0f, -8)), 0x3f80);
    CU_ASSERT_EQUAL(scalar_float_to_bfloat(1.0f + 3 * ldexpf(1.0f, -8)), 0x3f82);
    CU_ASSERT_TRUE(isnan(scalar_bfloat_to_float(scalar_float_to_bfloat(NAN))));
}

UNIT_SUITE(dtype)
{
    CU_pSuite s = CU_add_suite("dtype", NULL, NULL);
    CU_add_test(s, "parse and print", test_parse_print);
    CU_add_test(s, "binary16", test_half);
    CU_add_test(s, "bfloat16", test_bfloat);
}
