/* test_ops_nn: the nn, sorting and unique kernels on small hand-checked tensors, and their
 * StructInfo inference (symbolic conv2d dims, dtype and attribute errors).
 * SPEC_NOTES: "Operators" (OP-nn.*, OP-sort, OP-argsort, OP-topk, OP-unique). */
#include <math.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/schema/op_schema.h"
#include "interp/ops/ops.h"
#include "interp/structinfo/prover.h"
#include "tools/tests/unit.h"
#include "values/kernels/kernels_nn.h"
#include "values/kernels/kernels_sort.h"

#define SP span_none()

static Tensor *make(DataType t, int ndim, const int64_t *shape, const double *data)
{
    Tensor *x = tensor_new(t, ndim, shape);
    tensor_write_f64(x, data);
    return x;
}

static Tensor *vec_f32(int64_t n, const double *data)
{
    return make(dtype_float32(), 1, &n, data);
}

static double at(const Tensor *t, int64_t i)
{
    return tensor_get_f64(t, i);
}

static void test_activations(void)
{
    const double in[] = {-2, -0.5, 0, 3, 7};
    int64_t n = 5;
    Tensor *xi = make(dtype_int32(), 1, &n, in), *x = vec_f32(5, in);
    Tensor *out = tensor_new(dtype_int32(), 1, &n);
    kernels_nn_activation(NN_ACT_RELU6, xi, out);
    CU_ASSERT_EQUAL(tensor_get_i64(out, 0), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(out, 3), 3);
    CU_ASSERT_EQUAL(tensor_get_i64(out, 4), 6);
    Tensor *f = tensor_new(dtype_float32(), 1, &n);
    kernels_nn_activation(NN_ACT_GELU, x, f);
    CU_ASSERT_DOUBLE_EQUAL(at(f, 3), 3 * 0.5 * (1 + erf(3 / sqrt(2.0))), 1e-6);
    kernels_nn_activation(NN_ACT_SILU, x, f);
    CU_ASSERT_DOUBLE_EQUAL(at(f, 0), -2 / (1 + exp(2.0)), 1e-6);
    kernels_nn_activation(NN_ACT_RELU, x, f);
    CU_ASSERT_EQUAL(at(f, 1), 0.0);
}

static void test_softmax(void)
{
    const double in[] = {1, 2, 3, 1000, 1000, 1000};
    int64_t shape[2] = {2, 3};
    Tensor *x = make(dtype_float64(), 2, shape, in), *out = tensor_new(dtype_float64(), 2, shape);
    kernels_nn_softmax(x, 1, false, out);
    double e = exp(1.0) + exp(2.0) + exp(3.0);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 0), exp(1.0) / e, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 4), 1.0 / 3, 1e-12); /* no overflow: max subtracted */
    kernels_nn_softmax(x, 0, true, out);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 3), 0.0, 1e-12);
}

static void test_layer_norm(void)
{
    const double in[] = {1, 2, 3, 4}, ones[] = {1, 1}, two[] = {2, 2}, zero[] = {0, 0};
    int64_t shape[2] = {2, 2};
    Tensor *x = make(dtype_float32(), 2, shape, in), *out = tensor_new(dtype_float32(), 2, shape);
    NnNormOptions opt = {1e-5, true, true, 0.1, false};
    int axes[1] = {1};
    kernels_nn_layer_norm(x, vec_f32(2, two), vec_f32(2, ones), axes, 1, &opt, out);
    double z = 0.5 / sqrt(0.25 + 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 0), 1 - 2 * z, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 3), 1 + 2 * z, 1e-6);
    /* batch_norm in inference mode normalizes with the moving statistics. */
    const Tensor *params[4] = {vec_f32(2, ones), vec_f32(2, zero), vec_f32(2, ones),
                               vec_f32(2, two)};
    Tensor *outs[3] = {out, tensor_new(dtype_float32(), 1, shape),
                       tensor_new(dtype_float32(), 1, shape)};
    kernels_nn_batch_norm(x, params, 1, &opt, outs);
    CU_ASSERT_DOUBLE_EQUAL(at(out, 3), 3 / sqrt(2 + 1e-5), 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(outs[2], 0), 2.0, 0);
    opt.training = true;
    kernels_nn_batch_norm(x, params, 1, &opt, outs);
    CU_ASSERT_DOUBLE_EQUAL(at(outs[1], 0), 0.9 * 1 + 0.1 * 2, 1e-6); /* batch mean of col 0 */
    CU_ASSERT_DOUBLE_EQUAL(at(outs[2], 1), 0.9 * 2 + 0.1 * 1, 1e-6); /* biased var 1 */
}

static void test_conv2d(void)
{
    double in[9], w[4] = {1, 1, 1, 1};
    for (int i = 0; i < 9; i++)
        in[i] = i;
    int64_t ds[4] = {1, 1, 3, 3}, wsh[4] = {1, 1, 2, 2}, os[4];
    Tensor *x = make(dtype_float32(), 4, ds, in), *k = make(dtype_float32(), 4, wsh, w);
    NnConv2d p = {{1, 1}, {1, 1, 1, 1}, {1, 1}, 1};
    CU_ASSERT_TRUE(kernels_nn_conv2d_shape(ds, wsh, &p, os));
    CU_ASSERT_EQUAL(os[2], 4);
    Tensor *out = tensor_new(dtype_float32(), 4, os);
    kernels_nn_conv2d(x, k, &p, out);
    CU_ASSERT_EQUAL(at(out, 0), 0.0); /* only x[0][0] under the window */
    CU_ASSERT_EQUAL(at(out, 5), 0 + 1 + 3 + 4);
    CU_ASSERT_EQUAL(at(out, 15), 8.0);
    p.groups = 2; /* 1 input channel cannot split into 2 groups */
    CU_ASSERT_FALSE(kernels_nn_conv2d_shape(ds, wsh, &p, os));
}

static void test_pool2d(void)
{
    double in[16];
    for (int i = 0; i < 16; i++)
        in[i] = i;
    int64_t ds[4] = {1, 1, 4, 4}, os[4];
    Tensor *x = make(dtype_float32(), 4, ds, in);
    NnPool2d p = {{2, 2}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, false};
    CU_ASSERT_TRUE(kernels_nn_pool2d_shape(ds, &p, os));
    CU_ASSERT_EQUAL(os[2], 3);
    Tensor *out = tensor_new(dtype_float32(), 4, os);
    kernels_nn_max_pool2d(x, &p, out);
    CU_ASSERT_EQUAL(at(out, 0), 0.0);
    CU_ASSERT_EQUAL(at(out, 4), 10.0);
    kernels_nn_avg_pool2d(x, &p, out);
    CU_ASSERT_EQUAL(at(out, 1), (1 + 2) / 2.0);
    p.count_include_pad = true;
    kernels_nn_avg_pool2d(x, &p, out);
    CU_ASSERT_EQUAL(at(out, 1), (1 + 2) / 4.0);
    int64_t pad0[2] = {0, 0};
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(5, 2, 2, 1, pad0, false), 2);
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(5, 2, 2, 1, pad0, true), 3);
    int64_t pad1[2] = {1, 1}; /* the last ceil window would start in the padding */
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(4, 2, 2, 1, pad1, true), 3);
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(3, 1, 2, 1, pad1, true), 2);
    /* Padding on the high side only counts: floor((in + lo + hi - k) / stride) + 1. */
    int64_t pad_hi_only[2] = {0, 2};
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(4, 2, 2, 1, pad_hi_only, false), 3);
    int64_t pad_lo_only[2] = {2, 0};
    CU_ASSERT_EQUAL(kernels_nn_pool_extent(4, 2, 2, 1, pad_lo_only, false), 3);
}

static void test_sort(void)
{
    const double in[] = {3, NAN, 1, 3, -1};
    Tensor *x = vec_f32(5, in);
    int64_t perm[5];
    kernels_sort_perm(x, 0, false, perm);
    CU_ASSERT_EQUAL(perm[0], 4);
    CU_ASSERT_EQUAL(perm[2], 0); /* stable: the first 3 before the second */
    CU_ASSERT_EQUAL(perm[3], 3);
    CU_ASSERT_EQUAL(perm[4], 1); /* NaN last */
    kernels_sort_perm(x, 0, true, perm);
    CU_ASSERT_EQUAL(perm[0], 1); /* descending: NaN first, ties still in order */
    CU_ASSERT_EQUAL(perm[1], 0);
    CU_ASSERT_EQUAL(perm[2], 3);
    int64_t two = 2;
    Tensor *top = tensor_new(dtype_float32(), 1, &two), *idx = tensor_new(dtype_int32(), 1, &two);
    kernels_sort_gather(x, 0, perm, top);
    kernels_sort_indices(x, 0, perm, idx);
    CU_ASSERT_TRUE(isnan(at(top, 0)));
    CU_ASSERT_EQUAL(at(top, 1), 3.0);
    CU_ASSERT_EQUAL(tensor_get_i64(idx, 1), 0);
}

static void test_unique(void)
{
    const double in[] = {2, 1, 2, 5, 1, 1};
    int64_t n = 6;
    Tensor *x = make(dtype_int64(), 1, &n, in);
    UniqueResult r = kernels_unique(x, -1, true);
    CU_ASSERT_EQUAL(r.values->numel, 3);
    CU_ASSERT_EQUAL(tensor_get_i64(r.values, 0), 1);
    CU_ASSERT_EQUAL(tensor_get_i64(r.index, 0), 1);
    CU_ASSERT_EQUAL(tensor_get_i64(r.counts, 0), 3);
    CU_ASSERT_EQUAL(tensor_get_i64(r.inverse, 3), 2);
    r = kernels_unique(x, -1, false);
    CU_ASSERT_EQUAL(tensor_get_i64(r.values, 0), 2); /* first-occurrence order */
    CU_ASSERT_EQUAL(tensor_get_i64(r.values, 2), 5);
    CU_ASSERT_EQUAL(tensor_get_i64(r.counts, 1), 3);
    CU_ASSERT_EQUAL(tensor_get_i64(r.inverse, 4), 1);
    const double rows[] = {1, 2, 0, 0, 1, 2};
    int64_t shape[2] = {3, 2};
    r = kernels_unique(make(dtype_int32(), 2, shape, rows), 0, true);
    CU_ASSERT_EQUAL(r.values->shape[0], 2);
    CU_ASSERT_EQUAL(tensor_get_i64(r.values, 0), 0);
    CU_ASSERT_EQUAL(tensor_get_i64(r.counts, 1), 2);
}

/* ---- inference through the registry ------------------------------------------------------- */

static PrimExpr *dim(int64_t v)
{
    return primexpr_int(v, dtype_int64(), SP);
}

static StructInfo *tensor_sinfo(PrimExpr **dims, int ndim, DataType t)
{
    Expr *shape = expr_shape(dims, ndim, SP);
    shape->sinfo = sinfo_shape(dims, ndim, SP);
    return sinfo_tensor(shape, t, NULL, ndim, SP);
}

static StructInfo *infer(const char *op, StructInfo **args, int nargs, Attrs *attrs,
                         DiagList *errors)
{
    Expr **eargs = MEM_ARRAY(Expr *, nargs);
    for (int i = 0; i < nargs; i++) {
        eargs[i] = expr_var(var_new("a", false, args[i], SP), SP);
        eargs[i]->sinfo = args[i];
    }
    Expr *call = expr_call(expr_op(op, SP), eargs, nargs, SP);
    if (attrs)
        call->u.call.attrs = attrs;
    diag_init(errors);
    const OpImpl *impl = ops_lookup(op);
    CU_ASSERT_PTR_NOT_NULL_FATAL(impl);
    OpInferCtx ctx = {call, args, nargs, errors, "OP-test"};
    return impl->infer(&ctx);
}

static void test_infer_conv2d_symbolic(void)
{
    PrimExpr *h = primexpr_var(tirvar_new("h", dtype_int64(), SP), SP);
    PrimExpr *d[4] = {dim(1), dim(3), h, dim(8)}, *w[4] = {dim(4), dim(3), dim(3), dim(3)};
    StructInfo *args[2] = {tensor_sinfo(d, 4, dtype_float32()),
                           tensor_sinfo(w, 4, dtype_float32())};
    DiagList errors;
    StructInfo *r = infer("relax.nn.conv2d", args, 2, NULL, &errors);
    CU_ASSERT_EQUAL(errors.n, 0);
    CU_ASSERT_EQUAL_FATAL(r->kind, SINFO_TENSOR);
    PrimExpr **out = r->u.tensor.shape->u.shape.values;
    CU_ASSERT_EQUAL(prover_compare(out[1], dim(4)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(out[2], primexpr_binary(PE_SUB, h, dim(2), SP)), PROVE_EQUAL);
    CU_ASSERT_EQUAL(prover_compare(out[3], dim(6)), PROVE_EQUAL);
    Attrs *a = attrs_new();
    attrs_set(a, "groups", attr_int(2, SP)); /* 3 channels vs 3 x 2 */
    r = infer("relax.nn.conv2d", args, 2, a, &errors);
    CU_ASSERT_EQUAL(r->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(errors.items[0].code, "OpShapeMismatch");
}

static void test_infer_errors_and_tuples(void)
{
    PrimExpr *d[2] = {dim(2), dim(5)};
    StructInfo *xi = tensor_sinfo(d, 2, dtype_int32());
    DiagList errors;
    StructInfo *r = infer("relax.nn.softmax", &xi, 1, NULL, &errors);
    CU_ASSERT_EQUAL(r->kind, SINFO_OBJECT);
    CU_ASSERT_STRING_EQUAL(errors.items[0].code, "OpDTypeMismatch");
    Attrs *a = attrs_new();
    attrs_set(a, "k", attr_int(3, SP));
    r = infer("relax.topk", &xi, 1, a, &errors);
    CU_ASSERT_EQUAL_FATAL(r->kind, SINFO_TUPLE);
    CU_ASSERT_EQUAL(prover_compare(r->u.tuple.fields[1]->u.tensor.shape->u.shape.values[1], dim(3)),
                    PROVE_EQUAL);
    CU_ASSERT_TRUE(dtype_equal(r->u.tuple.fields[1]->u.tensor.dtype, dtype_int32()));
    attrs_set(a, "axis", attr_int(2, SP));
    r = infer("relax.topk", &xi, 1, a, &errors);
    CU_ASSERT_STRING_EQUAL(errors.items[0].code, "OpAttr");
    r = infer("relax.nn.dropout", &xi, 1, NULL, &errors);
    CU_ASSERT_EQUAL(r->kind, SINFO_TUPLE);
}

static AttrValue *ilist(int n, int64_t a, int64_t b)
{
    AttrValue *l = attr_new(ATTR_LIST, SP);
    l->u.list.items = MEM_ARRAY(AttrValue *, 2);
    l->u.list.items[0] = attr_int(a, SP);
    l->u.list.items[1] = attr_int(b, SP);
    l->u.list.n = n;
    return l;
}

static void test_canonical_attrs(void)
{
    Attrs *a = attrs_new();
    attrs_set(a, "strides", ilist(1, 2, 0));
    attrs_set(a, "padding", ilist(2, 1, 3));
    attrs_set(a, "data_layout", attr_str("NCHW", SP));
    attrs_set(a, "out_layout", attr_new(ATTR_NONE, SP));
    op_schema_nn_canonicalize("relax.nn.conv2d", a);
    AttrValue *s = attrs_get(a, "strides"), *p = attrs_get(a, "padding");
    CU_ASSERT_EQUAL(s->u.list.n, 2);
    CU_ASSERT_EQUAL(s->u.list.items[1]->u.i, 2);
    CU_ASSERT_EQUAL_FATAL(p->u.list.n, 4);
    CU_ASSERT_EQUAL(p->u.list.items[2]->u.i, 1); /* (top, left, bottom, right) */
    CU_ASSERT_EQUAL(p->u.list.items[3]->u.i, 3);
    CU_ASSERT_STRING_EQUAL(attrs_get(a, "out_layout")->u.s, "NCHW");
    CU_ASSERT_STRING_EQUAL(a->keys[0], "strides"); /* order kept */
}

UNIT_SUITE(ops_nn)
{
    CU_pSuite s = CU_add_suite("ops_nn", 0, 0);
    CU_add_test(s, "activations", test_activations);
    CU_add_test(s, "softmax", test_softmax);
    CU_add_test(s, "layer_norm and batch_norm", test_layer_norm);
    CU_add_test(s, "conv2d", test_conv2d);
    CU_add_test(s, "pool2d", test_pool2d);
    CU_add_test(s, "sort", test_sort);
    CU_add_test(s, "unique", test_unique);
    CU_add_test(s, "infer conv2d symbolic", test_infer_conv2d_symbolic);
    CU_add_test(s, "infer errors and tuples", test_infer_errors_and_tuples);
    CU_add_test(s, "canonical conv2d attributes", test_canonical_attrs);
}
