/* spectest: the host functions every implementation provides to conformance cases.
 * SPEC_NOTES: "Packed functions" (SPECTEST-*; CASE_FORMAT "Packed functions ... spectest"). */
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/interp.h"
#include "interp/eval/packed.h"
#include "values/render.h"
#include "values/tensor.h"

/* Every misuse of a spectest function is the caller's error, reported as PackedFuncError
 * with the function's own rule id. */
#define SPECTEST_FAIL(in, fn, ...)                                                                 \
    interp_fail((in), "PackedFuncError", "SPECTEST-" fn, span_none(), __VA_ARGS__)

static void want_args(Interp *in, const char *fn, const char *rule, int nargs, int want)
{
    if (nargs != want)
        interp_fail(in, "PackedFuncError", rule, span_none(),
                    "spectest.%s takes %d argument%s, got %d", fn, want, want == 1 ? "" : "s",
                    nargs);
}

static Tensor *tensor_arg(Interp *in, const char *fn, const char *rule, Value **args, int i)
{
    if (args[i]->kind != VAL_TENSOR)
        interp_fail(in, "PackedFuncError", rule, span_none(),
                    "spectest.%s: argument %d must be a tensor, got a %s", fn, i,
                    value_kind_name(args[i]->kind));
    return args[i]->u.tensor;
}

/* ---- numpy broadcasting ----------------------------------------------------------- */

/* numpy's rule: align trailing dims; each pair is equal or one of them is 1. */
static bool broadcast_shape(const Tensor *a, const Tensor *b, int *ndim, int64_t *shape)
{
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int i = 0; i < n; i++) {
        int ia = a->ndim - n + i, ib = b->ndim - n + i;
        int64_t da = ia >= 0 ? a->shape[ia] : 1;
        int64_t db = ib >= 0 ? b->shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        shape[i] = da == 1 ? db : da;
    }
    *ndim = n;
    return true;
}

/* The flat index into `t` of the element broadcast to output position `o`. */
static int64_t source_index(const Tensor *t, const Tensor *out, int64_t o)
{
    int64_t index = 0, stride = 1;
    for (int i = out->ndim - 1, it = t->ndim - 1; it >= 0; i--, it--) {
        int64_t coord = o % out->shape[i];
        o /= out->shape[i];
        if (t->shape[it] != 1)
            index += coord * stride;
        stride *= t->shape[it];
    }
    return index;
}

/* out = a + b elementwise with broadcasting; a, b and out share one dtype. Integers wrap;
 * floats add in double and round once to the dtype, which is exact rounding for every
 * float dtype here (double has more than twice their precision). */
static void add_into(const Tensor *a, const Tensor *b, Tensor *out)
{
    bool is_float = dtype_is_float(out->dtype);
    for (int64_t o = 0; o < out->numel; o++) {
        int64_t ia = source_index(a, out, o), ib = source_index(b, out, o);
        if (is_float) {
            tensor_set_f64(out, o, tensor_get_f64(a, ia) + tensor_get_f64(b, ib));
        } else {
            uint64_t sum = (uint64_t)tensor_get_i64(a, ia) + (uint64_t)tensor_get_i64(b, ib);
            tensor_set_i64(out, o, (int64_t)sum);
        }
    }
}

static void check_add_operands(Interp *in, const char *fn, const char *rule, const Tensor *a,
                               const Tensor *b)
{
    if (!dtype_equal(a->dtype, b->dtype))
        interp_fail(in, "PackedFuncError", rule, span_none(),
                    "spectest.%s: dtypes differ (%s and %s)", fn, dtype_str(a->dtype),
                    dtype_str(b->dtype));
}

static void shape_text(StrBuf *sb, int ndim, const int64_t *shape)
{
    strbuf_addc(sb, '(');
    for (int i = 0; i < ndim; i++)
        strbuf_addf(sb, "%s%lld", i ? ", " : "", (long long)shape[i]);
    strbuf_add(sb, ndim == 1 ? ",)" : ")");
}

static void fail_broadcast(Interp *in, const char *fn, const char *rule, const Tensor *a,
                           const Tensor *b)
{
    StrBuf sb;
    strbuf_init(&sb);
    shape_text(&sb, a->ndim, a->shape);
    strbuf_add(&sb, " and ");
    shape_text(&sb, b->ndim, b->shape);
    interp_fail(in, "PackedFuncError", rule, span_none(), "spectest.%s: shapes %s do not broadcast",
                fn, strbuf_str(&sb));
}

/* ---- the functions ---------------------------------------------------------------- */

/* SPECTEST-print: the values rendered as R.print renders them, space separated. */
static Value *spectest_print(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-print");
    char *error = NULL;
    char *line = render_print_line("", args, nargs, &error);
    interp_write(ctx, line ? line : "");
    interp_write(ctx, "\n");
    return value_unit();
}

/* SPECTEST-identity: the argument itself, so the result aliases it. */
static Value *spectest_identity(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-identity");
    want_args(ctx, "identity", "SPECTEST-identity", nargs, 1);
    return args[0];
}

/* SPECTEST-copy */
static Value *spectest_copy(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-copy");
    want_args(ctx, "copy", "SPECTEST-copy", nargs, 1);
    return value_tensor(tensor_copy(tensor_arg(ctx, "copy", "SPECTEST-copy", args, 0)));
}

/* SPECTEST-add: a fresh tensor a + b; same dtype required, numpy broadcasting. */
static Value *spectest_add(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-add");
    want_args(ctx, "add", "SPECTEST-add", nargs, 2);
    Tensor *a = tensor_arg(ctx, "add", "SPECTEST-add", args, 0);
    Tensor *b = tensor_arg(ctx, "add", "SPECTEST-add", args, 1);
    check_add_operands(ctx, "add", "SPECTEST-add", a, b);
    int ndim;
    int64_t shape[TENSOR_MAX_NDIM];
    if (!broadcast_shape(a, b, &ndim, shape))
        fail_broadcast(ctx, "add", "SPECTEST-add", a, b);
    Tensor *out = tensor_new(a->dtype, ndim, shape);
    if (!out)
        SPECTEST_FAIL(ctx, "add", "spectest.add: the result is too large");
    add_into(a, b, out);
    return value_tensor(out);
}

/* SPECTEST-add_one_inplace: every element + 1 in the tensor itself (integers wrap; a bool
 * element becomes true, as any non-zero sum stored in bool does). */
static Value *spectest_add_one_inplace(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-add_one_inplace");
    want_args(ctx, "add_one_inplace", "SPECTEST-add_one_inplace", nargs, 1);
    Tensor *t = tensor_arg(ctx, "add_one_inplace", "SPECTEST-add_one_inplace", args, 0);
    bool is_float = dtype_is_float(t->dtype);
    for (int64_t i = 0; i < t->numel; i++) {
        if (is_float)
            tensor_set_f64(t, i, tensor_get_f64(t, i) + 1.0);
        else
            tensor_set_i64(t, i, (int64_t)((uint64_t)tensor_get_i64(t, i) + 1u));
    }
    return value_unit();
}

/* SPECTEST-counter: 0, 1, 2, ... per run; the count lives in the Interp, not here. */
static Value *spectest_counter(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-counter");
    Interp *in = ctx;
    want_args(in, "counter", "SPECTEST-counter", nargs, 0);
    return value_prim_int(dtype_int64(), in->spectest_counter++);
}

/* SPECTEST-fail: always a PackedFuncError carrying the message. */
static Value *spectest_fail(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-fail");
    if (nargs == 1 && args[0]->kind == VAL_STRING)
        SPECTEST_FAIL(ctx, "fail", "%s", args[0]->u.str);
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < nargs; i++) {
        strbuf_add(&sb, i ? " " : "");
        strbuf_add(&sb, render_value_print(args[i]));
    }
    SPECTEST_FAIL(ctx, "fail", "%s", nargs ? strbuf_str(&sb) : "spectest.fail");
}

/* SPECTEST-make_object: a value of no kind a program can inspect. */
static Value *spectest_make_object(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-make_object");
    want_args(ctx, "make_object", "SPECTEST-make_object", nargs, 0);
    return value_object("spectest.Object");
}

/* SPECTEST-dps_add: writes a + b into out, whose shape must be the broadcast shape. */
static Value *spectest_dps_add(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-dps_add");
    want_args(ctx, "dps_add", "SPECTEST-dps_add", nargs, 3);
    Tensor *a = tensor_arg(ctx, "dps_add", "SPECTEST-dps_add", args, 0);
    Tensor *b = tensor_arg(ctx, "dps_add", "SPECTEST-dps_add", args, 1);
    Tensor *out = tensor_arg(ctx, "dps_add", "SPECTEST-dps_add", args, 2);
    check_add_operands(ctx, "dps_add", "SPECTEST-dps_add", a, b);
    check_add_operands(ctx, "dps_add", "SPECTEST-dps_add", a, out);
    int ndim;
    int64_t shape[TENSOR_MAX_NDIM];
    if (!broadcast_shape(a, b, &ndim, shape))
        fail_broadcast(ctx, "dps_add", "SPECTEST-dps_add", a, b);
    if (!tensor_has_shape(out, ndim, shape))
        SPECTEST_FAIL(ctx, "dps_add", "spectest.dps_add: the output has the wrong shape");
    add_into(a, b, out);
    return value_unit();
}

/* SPECTEST-dps_tile2: out[..., j] = a[..., j mod L], L the last dim of a; out's last dim
 * is 2L. Elements are copied bit for bit, so every dtype tiles exactly. */
static Value *spectest_dps_tile2(void *ctx, Value **args, int nargs)
{
    rule_fired("SPECTEST-dps_tile2");
    want_args(ctx, "dps_tile2", "SPECTEST-dps_tile2", nargs, 2);
    Tensor *a = tensor_arg(ctx, "dps_tile2", "SPECTEST-dps_tile2", args, 0);
    Tensor *out = tensor_arg(ctx, "dps_tile2", "SPECTEST-dps_tile2", args, 1);
    if (a->ndim == 0)
        SPECTEST_FAIL(ctx, "dps_tile2", "spectest.dps_tile2: the input has no last axis");
    if (!dtype_equal(a->dtype, out->dtype))
        SPECTEST_FAIL(ctx, "dps_tile2", "spectest.dps_tile2: dtypes differ (%s and %s)",
                      dtype_str(a->dtype), dtype_str(out->dtype));
    int64_t shape[TENSOR_MAX_NDIM];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    int64_t len = a->shape[a->ndim - 1];
    shape[a->ndim - 1] = 2 * len;
    if (!tensor_has_shape(out, a->ndim, shape))
        SPECTEST_FAIL(ctx, "dps_tile2", "spectest.dps_tile2: the output has the wrong shape");
    size_t width = dtype_bytes(a->dtype);
    for (int64_t o = 0; o < out->numel; o++) {
        int64_t src = (o / (2 * len)) * len + (o % (2 * len)) % len;
        memcpy((char *)out->data + (size_t)o * width, (const char *)a->data + (size_t)src * width,
               width);
    }
    return value_unit();
}

void packed_register_spectest(PackedRegistry *r)
{
    packed_register(r, "spectest.print", false, spectest_print);
    packed_register(r, "spectest.identity", true, spectest_identity);
    packed_register(r, "spectest.copy", true, spectest_copy);
    packed_register(r, "spectest.add", true, spectest_add);
    packed_register(r, "spectest.add_one_inplace", false, spectest_add_one_inplace);
    packed_register(r, "spectest.counter", false, spectest_counter);
    packed_register(r, "spectest.fail", true, spectest_fail);
    packed_register(r, "spectest.make_object", true, spectest_make_object);
    packed_register(r, "spectest.dps_add", false, spectest_dps_add);
    packed_register(r, "spectest.dps_tile2", false, spectest_dps_tile2);
}
