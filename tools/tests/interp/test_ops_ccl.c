/* test_ops_ccl: the collectives' StructInfo as TVM's ccl.cc infers it, checked by hand, and
 * their registry entries. SPEC_NOTES: "Operators" (OP-ccl.*), 4.23 (CCL-*). */
#include "ast/attrs.h"
#include "ast/mem.h"
#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "tools/tests/unit.h"

static StructInfo *infer_with(const char *op, StructInfo *x, const char *key, int64_t v,
                              DiagList *d)
{
    Expr *arg = expr_tuple(NULL, 0, span_none());
    Expr *call = expr_call(expr_op(op, span_none()), &arg, 1, span_none());
    if (key != NULL)
        attrs_set(call->u.call.attrs, key, attr_int(v, span_none()));
    diag_init(d);
    StructInfo *args[1] = {x};
    OpInferCtx ctx = {call, args, 1, d, "OP-test"};
    return ops_lookup(op)->infer(&ctx);
}

static StructInfo *tensor_of(int64_t d0, int64_t d1)
{
    int64_t dims[2] = {d0, d1};
    OpShape s = {ops_const_dims(dims, 2, span_none()), 2};
    return ops_tensor_result(s, dtype_float32(), NULL, span_none());
}

static void test_allgather_dim0(void)
{
    DiagList d;
    OpShape s =
        ops_shape_of(infer_with("relax.ccl.allgather", tensor_of(10, 3), "num_workers", 4, &d));
    CU_ASSERT_TRUE_FATAL(s.dims != NULL);
    CU_ASSERT_TRUE(ops_dim_is(s.dims[0], 40) && ops_dim_is(s.dims[1], 3));
    CU_ASSERT_EQUAL(infer_with("relax.ccl.allgather", tensor_of(10, 3), "num_workers", 0, &d)->kind,
                    SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&d)->code, "OpAttr");
}

static void test_scatter_divides(void)
{
    DiagList d;
    OpShape s = ops_shape_of(
        infer_with("relax.ccl.scatter_from_worker0", tensor_of(12, 3), "num_workers", 3, &d));
    CU_ASSERT_TRUE_FATAL(s.dims != NULL);
    CU_ASSERT_TRUE(ops_dim_is(s.dims[0], 4) && ops_dim_is(s.dims[1], 3));
    CU_ASSERT_EQUAL(
        infer_with("relax.ccl.scatter_from_worker0", tensor_of(9, 3), "num_workers", 2, &d)->kind,
        SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(diag_first(&d)->code, "OpShapeMismatch");
}

static void test_registry(void)
{
    static const char *const names[] = {"relax.ccl.allreduce", "relax.ccl.allgather",
                                        "relax.ccl.broadcast_from_worker0",
                                        "relax.ccl.scatter_from_worker0"};
    for (int i = 0; i < 4; i++) {
        const OpImpl *op = ops_lookup(names[i]);
        CU_ASSERT_TRUE_FATAL(op != NULL);
        CU_ASSERT_TRUE(op->pure && op->infer != NULL && op->kernel != NULL);
        CU_ASSERT_PTR_NOT_NULL(op_schema_lookup(names[i]));
    }
}

UNIT_SUITE(ops_ccl)
{
    CU_pSuite s = CU_add_suite("ops_ccl", 0, 0);
    CU_add_test(s, "allgather_dim0", test_allgather_dim0);
    CU_add_test(s, "scatter_divides", test_scatter_divides);
    CU_add_test(s, "registry", test_registry);
}
