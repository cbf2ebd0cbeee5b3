/* test_ops_unchecked_run: the operators' own run-time checks, for a program run without its
 * static check (as `relax run` and the fuzzers run one): each program below is refused by the
 * operator's inference, and its kernel must refuse it too, with OpPrecondition under the
 * operator's rule, never a crash or a result made of garbage. The corpus cannot reach these
 * checks (it judges a program statically first). SPEC_NOTES: "Operators" (the OP-* rows),
 * "Runtime errors". */
#include <stdio.h>

#include "tools/tests/interp/eval/eval_run.h"
#include "tools/tests/unit.h"
#include "values/tensor.h"
#include "values/value.h"

/* main(x) = <call> for one argument x of the given annotation. */
static Run run_call(const char *annotation, const char *call, Value *x)
{
    char src[1024];
    snprintf(src, sizeof src,
             "@R.function\n"
             "def main(x: %s):\n"
             "    y = %s\n"
             "    return y\n",
             annotation, call);
    Value *args[1] = {x};
    return run(src, args, 1);
}

static Value *ints(int64_t n)
{
    Tensor *t = tensor_new(dtype_int32(), 1, &n);
    for (int64_t i = 0; i < n; i++)
        tensor_set_i64(t, i, i + 1);
    return value_tensor(t);
}

static Value *image(void)
{
    const int64_t shape[4] = {1, 1, 2, 2};
    return ften(4, shape, 1);
}

static void test_quantize(void)
{
    const char *rule = "OP-quantize";
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"int32\")",
                                  "R.quantize(x, R.const(1.0, \"float32\"), R.const(0, \"int8\"), "
                                  "axis=0)",
                                  ints(3)),
                         "OpPrecondition", rule));
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"float32\")",
                                  "R.quantize(x, R.const(1, \"int32\"), R.const(0, \"int8\"), "
                                  "axis=0)",
                                  vec(3)),
                         "OpPrecondition", rule));
    /* Two scales for a dim of 3. */
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"float32\")",
                                  "R.quantize(x, R.const([1.0, 2.0], \"float32\"), "
                                  "R.const(0, \"int8\"), axis=0)",
                                  vec(3)),
                         "OpPrecondition", rule));
}

static void test_hamming_window(void)
{
    const char *rule = "OP-hamming_window";
    CU_ASSERT_TRUE(
        fails(run_call("R.Tensor((3,), \"float32\")",
                       "R.hamming_window(R.prim_value(3), 1, 0.54, 0.46, \"int32\")", vec(3)),
              "OpPrecondition", rule));
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"float32\")",
                                  "R.hamming_window(R.prim_value(T.float32(3.0)), 1, 0.54, 0.46, "
                                  "\"float32\")",
                                  vec(3)),
                         "OpPrecondition", rule));
}

static void test_join_of_no_tensors(void)
{
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"float32\")", "R.concat(())", vec(3)),
                         "OpPrecondition", "OP-concat"));
    CU_ASSERT_TRUE(fails(run_call("R.Tensor((3,), \"float32\")", "R.stack(())", vec(3)),
                         "OpPrecondition", "OP-stack"));
}

static void test_attention_and_loss_attributes(void)
{
    const int64_t shape[4] = {1, 2, 1, 2};
    const char *qkv = "R.Tensor((1, 2, 1, 2), \"float32\")";
    CU_ASSERT_TRUE(
        fails(run_call(qkv, "R.nn.attention(x, x, x, causal_mask=\"Foo\")", ften(4, shape, 1)),
              "OpPrecondition", "OP-nn.attention"));
    CU_ASSERT_TRUE(fails(run_call(qkv, "R.nn.attention(x, x, x, window_size=2)", ften(4, shape, 1)),
                         "OpPrecondition", "OP-nn.attention"));
    /* nll_loss with a reduction it does not know; the targets are the predictions' row
     * indices 0 and 1 as int64. */
    int64_t two = 2;
    Tensor *t = tensor_new(dtype_int64(), 1, &two);
    tensor_set_i64(t, 0, 0);
    tensor_set_i64(t, 1, 1);
    Value *args[2] = {mat(2, 3), value_tensor(t)};
    CU_ASSERT_TRUE(fails(run("@R.function\n"
                             "def main(p: R.Tensor((2, 3), \"float32\"), t: R.Tensor((2,), "
                             "\"int64\")):\n"
                             "    y = R.nn.nll_loss(p, t, reduction=\"foo\")\n"
                             "    return y\n",
                             args, 2),
                         "OpPrecondition", "OP-nn.nll_loss"));
}

/* A layout whose primal axes are no permutation of NCHW, in each family that reads one. */
static void test_layouts(void)
{
    const char *x = "R.Tensor((1, 1, 2, 2), \"float32\")";
    CU_ASSERT_TRUE(fails(run_call(x, "R.image.resize2d(x, (2, 2), layout=\"ABCD\")", image()),
                         "OpPrecondition", "OP-image.resize2d"));
    CU_ASSERT_TRUE(fails(run_call(x, "R.nn.conv2d(x, x, data_layout=\"ABCD\")", image()),
                         "OpPrecondition", "OP-nn.conv2d"));
    CU_ASSERT_TRUE(fails(run_call(x, "R.nn.max_pool2d(x, layout=\"ABCD\")", image()),
                         "OpPrecondition", "OP-nn.max_pool2d"));
}

UNIT_SUITE(ops_unchecked_run)
{
    CU_pSuite s = CU_add_suite("ops_unchecked_run", NULL, NULL);
    CU_add_test(s, "quantize", test_quantize);
    CU_add_test(s, "hamming_window", test_hamming_window);
    CU_add_test(s, "join_of_no_tensors", test_join_of_no_tensors);
    CU_add_test(s, "attention_and_loss_attributes", test_attention_and_loss_attributes);
    CU_add_test(s, "layouts", test_layouts);
}
