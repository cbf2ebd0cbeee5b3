/* ops_window: the sliding-window operator table and what its files share: window attributes
 * and symbolic output extents. SPEC_NOTES: "Operators" (OP-nn.conv1d, OP-nn.conv2d, ...). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/ops/ops_window_internal.h"
#include "interp/structinfo/prover.h"

/* ---- attributes -------------------------------------------------------------------------- */

bool ops_window_read_list(const Expr *call, const char *key, int nsp, int64_t dflt, int64_t *out)
{
    int64_t *v;
    int n;
    for (int k = 0; k < nsp; k++)
        out[k] = dflt;
    if (ops_attr(call, key) == NULL)
        return true;
    if (!ops_attr_int_list(call, key, &v, &n) || (n != 1 && n != nsp))
        return false;
    for (int k = 0; k < nsp; k++)
        out[k] = v[n == 1 ? 0 : k];
    return true;
}

bool ops_window_read_padding(const Expr *call, int nsp, int64_t *lo, int64_t *hi)
{
    int64_t *v;
    int n;
    for (int k = 0; k < nsp; k++)
        lo[k] = hi[k] = 0;
    if (ops_attr(call, "padding") == NULL)
        return true;
    if (!ops_attr_int_list(call, "padding", &v, &n) || (n != 1 && n != nsp && n != 2 * nsp))
        return false;
    for (int k = 0; k < nsp; k++) {
        lo[k] = v[n == 1 ? 0 : k];
        hi[k] = v[n == 1 ? 0 : (n == nsp ? k : nsp + k)];
        if (lo[k] < 0 || hi[k] < 0)
            return false;
    }
    return true;
}

/* ---- symbolic extents -------------------------------------------------------------------- */

PrimExpr *ops_window_add_const(PrimExpr *e, int64_t c, Span sp)
{
    int64_t k;
    bool over = false;
    if (e == NULL || c == 0)
        return e;
    if (prover_const_int(e, &k)) {
        k = checked_add(k, c, &over);
        return over ? NULL : primexpr_int(k, dtype_int64(), sp);
    }
    if ((e->kind == PE_ADD || e->kind == PE_SUB) && prover_const_int(e->u.bin.b, &k)) {
        k = checked_add(e->kind == PE_ADD ? k : checked_neg(k, &over), c, &over);
        return over ? NULL : ops_window_add_const(e->u.bin.a, k, sp);
    }
    if (c == INT64_MIN)
        return NULL;
    if (c < 0)
        return primexpr_binary(PE_SUB, e, primexpr_int(-c, dtype_int64(), sp), sp);
    return primexpr_binary(PE_ADD, e, primexpr_int(c, dtype_int64(), sp), sp);
}

/* The numerator in + pads - dilation (k - 1) - 1 (+ stride - 1 in ceil mode); NULL when a
 * constant overflows. */
static PrimExpr *extent_numerator(PrimExpr *in, PrimExpr *k, int64_t pads, int64_t stride,
                                  int64_t dilation, bool ceil_mode, Span sp)
{
    bool over = false;
    int64_t kc, extra = ceil_mode ? stride - 1 : 0;
    if (prover_const_int(k, &kc)) {
        int64_t span = checked_mul(dilation, checked_sub(kc, 1, &over), &over);
        int64_t c =
            checked_add(checked_sub(checked_sub(pads, span, &over), 1, &over), extra, &over);
        return over ? NULL : ops_window_add_const(in, c, sp);
    }
    PrimExpr *dk = dilation == 1
                       ? k
                       : primexpr_binary(PE_MUL, primexpr_int(dilation, dtype_int64(), sp), k, sp);
    int64_t c = checked_add(checked_add(pads, dilation - 1, &over), extra, &over);
    PrimExpr *front = over ? NULL : ops_window_add_const(in, c, sp);
    return front == NULL ? NULL : primexpr_binary(PE_SUB, front, dk, sp);
}

PrimExpr *ops_window_extent(PrimExpr *in, PrimExpr *k, int64_t pads, int64_t stride,
                            int64_t dilation, bool ceil_mode, Span sp)
{
    PrimExpr *num = extent_numerator(in, k, pads, stride, dilation, ceil_mode, sp);
    if (num == NULL || stride == 1)
        return ops_window_add_const(num, 1, sp);
    int64_t c, off = 0;
    if (prover_const_int(num, &c)) {
        int64_t q = c / stride - ((c % stride != 0) && (c < 0));
        return primexpr_int(q + 1, dtype_int64(), sp);
    }
    /* (e + c) // s + 1 with c a multiple of s is e // s + (c / s + 1), as TVM's simplifier
     * rewrites it. */
    if ((num->kind == PE_ADD || num->kind == PE_SUB) && prover_const_int(num->u.bin.b, &off) &&
        off != INT64_MIN) {
        off = num->kind == PE_ADD ? off : -off;
        if (off % stride == 0)
            num = num->u.bin.a;
        else
            off = 0;
    }
    PrimExpr *q = primexpr_binary(PE_FLOORDIV, num, primexpr_int(stride, dtype_int64(), sp), sp);
    return ops_window_add_const(q, off / stride + 1, sp);
}

/* OP-<window op>: an output extent that overflows int64 (NULL) is OpShapeOverflow; a
 * constant negative one, a window wider than the padded input, OpShapeMismatch. */
bool ops_window_check_extents(OpInferCtx *ctx, PrimExpr *const *dims, int n)
{
    int64_t c;
    for (int k = 0; k < n; k++) {
        if (dims[k] == NULL) {
            ops_infer_fail(ctx, "OpShapeOverflow", "output dim %d overflows int64", k);
            return false;
        }
        if (prover_const_int(dims[k], &c) && c < 0) {
            ops_infer_fail(ctx, "OpShapeMismatch",
                           "output dim %d is %lld: the window does not fit the padded input", k,
                           (long long)c);
            return false;
        }
    }
    return true;
}

PrimExpr **ops_window_out_dims(OpInferCtx *ctx, const PackedLayout *l, PrimExpr *const *canon)
{
    PrimExpr **out = ops_window_dims_from_canonical(l, canon, ctx->call->span);
    if (out == NULL)
        ops_infer_fail(ctx, "OpShapeOverflow",
                       "an output dim in the output layout overflows int64");
    return out;
}

/* ---- the table --------------------------------------------------------------------------- */

static const OpImpl WINDOW_IMPLS[] = {
    {"relax.nn.conv1d", true, ops_window_infer_conv, ops_window_kernel_conv, "all"},
    {"relax.nn.conv2d", true, ops_window_infer_conv, ops_window_kernel_conv, "all"},
    {"relax.nn.conv3d", true, ops_window_infer_conv, ops_window_kernel_conv, "all"},
    {"relax.nn.conv1d_transpose", true, ops_window_infer_conv, ops_window_kernel_conv, "all"},
    {"relax.nn.conv2d_transpose", true, ops_window_infer_conv, ops_window_kernel_conv, "all"},
    {"relax.nn.max_pool1d", true, ops_window_infer_pool, ops_window_kernel_max_pool, "all"},
    {"relax.nn.max_pool2d", true, ops_window_infer_pool, ops_window_kernel_max_pool, "all"},
    {"relax.nn.max_pool3d", true, ops_window_infer_pool, ops_window_kernel_max_pool, "all"},
    {"relax.nn.avg_pool1d", true, ops_window_infer_pool, ops_window_kernel_avg_pool, "all"},
    {"relax.nn.avg_pool2d", true, ops_window_infer_pool, ops_window_kernel_avg_pool, "all"},
    {"relax.nn.avg_pool3d", true, ops_window_infer_pool, ops_window_kernel_avg_pool, "all"},
    {"relax.nn.adaptive_avg_pool1d", true, ops_window_infer_adaptive, ops_window_kernel_adaptive,
     "all"},
    {"relax.nn.adaptive_avg_pool2d", true, ops_window_infer_adaptive, ops_window_kernel_adaptive,
     "all"},
    {"relax.nn.adaptive_avg_pool3d", true, ops_window_infer_adaptive, ops_window_kernel_adaptive,
     "all"},
};

const OpImpl *ops_window(int *n)
{
    *n = (int)(sizeof(WINDOW_IMPLS) / sizeof(WINDOW_IMPLS[0]));
    return WINDOW_IMPLS;
}
