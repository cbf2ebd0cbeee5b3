/* ops_window_layout: the data, kernel and output layouts of the sliding-window operators as
 * TVM's tir::Layout reads them (primal axes and packed sub-axes such as NCHW4c), converted to
 * and from the canonical layout as tir::BijectiveLayout converts them: dims at inference,
 * tensors at run time. SPEC_NOTES: "Operators" (OP-nn.conv2d, OP-nn.max_pool2d, ...). */
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "interp/eval/interp.h"
#include "interp/ops/ops_window_internal.h"
#include "interp/structinfo/prover.h"

/* Factors (and their product per axis) above this are refused: TVM keeps them in int32. */
#define FACTOR_MAX 2147483647LL

/* ---- reading a layout -------------------------------------------------------------------- */

bool ops_window_layout(const char *text, const char *canonical, WindowLayout *out)
{
    int n = (int)strlen(canonical);
    if (text == NULL || (int)strlen(text) != n || n > WINDOW_MAX_RANK)
        return false;
    out->ndim = n;
    for (int i = 0; i < n; i++) {
        const char *at = strchr(text, canonical[i]);
        if (at == NULL || strchr(at + 1, canonical[i]) != NULL)
            return false;
        out->perm[i] = (int)(at - text);
    }
    return true;
}

/* The axes of a layout string as tir::Layout's constructor reads them: an upper-case letter
 * is a primal axis; digits then a lower-case letter are a sub-axis with that factor (above
 * zero); digits left at the end are ignored, as TVM ignores them. Fills letter/factor (0 for
 * a primal axis) and the primal letters in order; NULL, or why the text is no layout. */
static const char *read_axes(const char *text, char *letter, int64_t *factor, int *n, char *primal)
{
    int64_t f = 0;
    int np = 0;
    *n = 0;
    for (const char *p = text; *p != '\0'; p++) {
        char c = *p;
        if (c >= '0' && c <= '9') {
            if ((f = f * 10 + (c - '0')) > FACTOR_MAX)
                return "a factor is too large";
            continue;
        }
        if (*n == WINDOW_MAX_AXES)
            return "it has too many axes";
        bool upper = c >= 'A' && c <= 'Z';
        if (!upper && !(c >= 'a' && c <= 'z'))
            return "it has a character that is no axis letter or factor";
        if (upper && f != 0)
            return "a factor stands before a primal axis";
        if (!upper && f == 0)
            return "a sub-axis has no factor above zero";
        if (upper)
            primal[np++] = c;
        letter[*n] = c;
        factor[(*n)++] = upper ? 0 : f;
        f = 0;
    }
    primal[np] = '\0';
    return NULL;
}

/* The weights of the layout's axes and each canonical axis' split (see WindowAxes). */
static const char *weigh_axes(PackedLayout *out)
{
    WindowAxes *a = &out->axes;
    for (int k = 0; k < a->canon_ndim; k++)
        out->split[k] = 1;
    for (int j = a->ndim - 1; j >= 0; j--) {
        int k = a->canon[j];
        if (out->factor[j] == 0)
            continue;
        a->weight[j] = out->split[k];
        if ((out->split[k] *= out->factor[j]) > FACTOR_MAX)
            return "the factors of one axis multiply past the largest factor";
    }
    for (int j = 0; j < a->ndim; j++)
        if (out->factor[j] == 0)
            a->weight[j] = out->split[a->canon[j]];
    return NULL;
}

/* OP-nn.conv2d, OP-nn.max_pool2d, ...: a layout converts to the canonical one when its
 * primal letters are a permutation of the canonical letters and every sub-axis splits one of
 * them (CheckTensorLayout: tir::BijectiveLayout is defined). TVM v0.22 also accepts a primal
 * letter given twice when the letters still cover the canonical ones, summing the two dims;
 * the reference refuses it (SPEC_NOTES, OP-nn.conv2d). */
const char *ops_window_packed(const char *text, const char *canonical, PackedLayout *out)
{
    char letter[WINDOW_MAX_AXES], primal[WINDOW_MAX_AXES + 1];
    int primal_at[WINDOW_MAX_AXES], np = 0;
    WindowLayout perm;
    if (text == NULL)
        return "it is no string";
    const char *why = read_axes(text, letter, out->factor, &out->axes.ndim, primal);
    if (why != NULL)
        return why;
    if (!ops_window_layout(primal, canonical, &perm))
        return "its primal axes are no permutation of the canonical ones";
    out->axes.canon_ndim = perm.ndim;
    for (int j = 0; j < out->axes.ndim; j++) {
        char upper = (char)(letter[j] >= 'a' ? letter[j] - 'a' + 'A' : letter[j]);
        const char *at = strchr(canonical, upper);
        if (at == NULL)
            return "a sub-axis splits no axis of the layout";
        out->axes.canon[j] = (int)(at - canonical);
        if (out->factor[j] == 0)
            primal_at[np++] = j;
    }
    for (int k = 0; k < perm.ndim; k++)
        out->primal[k] = primal_at[perm.perm[k]];
    return weigh_axes(out);
}

/* ---- dims -------------------------------------------------------------------------------- */

/* e * k, folded for a constant e; NULL when that product overflows int64. */
static PrimExpr *mul_const(PrimExpr *e, int64_t k, Span sp)
{
    int64_t c, prod;
    bool over = false;
    if (k == 1)
        return e;
    if (prover_const_int(e, &c)) {
        prod = checked_mul(c, k, &over);
        return over ? NULL : primexpr_int(prod, dtype_int64(), sp);
    }
    return primexpr_binary(PE_MUL, e, primexpr_int(k, dtype_int64(), sp), sp);
}

/* ceildiv(e, f), TVM's shapediv, folded where a constant or a multiple of f allows. */
static PrimExpr *ceil_div(PrimExpr *e, int64_t f, Span sp)
{
    int64_t c;
    if (f == 1)
        return e;
    if (e == NULL)
        return NULL;
    if (prover_const_int(e, &c))
        return primexpr_int(checked_ceildiv(c, f), dtype_int64(), sp);
    if (e->kind == PE_MUL && prover_const_int(e->u.bin.b, &c) && c % f == 0)
        return mul_const(e->u.bin.a, c / f, sp);
    /* (a // s + k + f - 1) // f is (a + (k + f - 1) s) // (s f), as TVM's simplifier merges
     * the divisions of a strided extent split by a factor. */
    int64_t k = 0, s;
    const PrimExpr *q = e;
    if ((e->kind == PE_ADD || e->kind == PE_SUB) && prover_const_int(e->u.bin.b, &k)) {
        k = e->kind == PE_ADD ? k : -k;
        q = e->u.bin.a;
    }
    if (q->kind == PE_FLOORDIV && prover_const_int(q->u.bin.b, &s) && s > 0 && s <= FACTOR_MAX &&
        k > -FACTOR_MAX && k < FACTOR_MAX) {
        PrimExpr *merged = ops_window_add_const(q->u.bin.a, (k + f - 1) * s, sp);
        return merged == NULL ? NULL
                              : primexpr_binary(PE_FLOORDIV, merged,
                                                primexpr_int(s * f, dtype_int64(), sp), sp);
    }
    PrimExpr *num = ops_window_add_const(e, f - 1, sp);
    return num == NULL ? NULL
                       : primexpr_binary(PE_FLOORDIV, num, primexpr_int(f, dtype_int64(), sp), sp);
}

bool ops_window_dims_to_canonical(OpInferCtx *ctx, const PackedLayout *l, PrimExpr *const *dims,
                                  PrimExpr **canon)
{
    int64_t c;
    for (int j = 0; j < l->axes.ndim; j++) {
        if (l->factor[j] != 0 && prover_const_int(dims[j], &c) && c != l->factor[j]) {
            ops_infer_fail(ctx, "OpShapeMismatch",
                           "axis %d is a sub-axis of factor %lld, but its dim is %lld", j,
                           (long long)l->factor[j], (long long)c);
            return false;
        }
    }
    for (int k = 0; k < l->axes.canon_ndim; k++) {
        canon[k] = mul_const(dims[l->primal[k]], l->split[k], ctx->call->span);
        if (canon[k] == NULL) {
            ops_infer_fail(ctx, "OpShapeOverflow", "axis %d times its sub-axes overflows int64",
                           l->primal[k]);
            return false;
        }
    }
    return true;
}

PrimExpr **ops_window_dims_from_canonical(const PackedLayout *l, PrimExpr *const *canon, Span sp)
{
    PrimExpr **out = MEM_ARRAY(PrimExpr *, l->axes.ndim);
    for (int j = 0; j < l->axes.ndim; j++) {
        int k = l->axes.canon[j];
        out[j] = l->factor[j] != 0 ? primexpr_int(l->factor[j], dtype_int64(), sp)
                                   : ceil_div(canon[k], l->split[k], sp);
        if (out[j] == NULL)
            return NULL;
    }
    return out;
}

/* ---- tensors ----------------------------------------------------------------------------- */

/* The canonical layout itself: tensors pass through unmoved. */
static bool is_canonical(const PackedLayout *l)
{
    for (int j = 0; j < l->axes.ndim; j++)
        if (l->axes.canon[j] != j || l->factor[j] != 0)
            return false;
    return l->axes.ndim == l->axes.canon_ndim;
}

Tensor *ops_window_tensor_to_canonical(struct Interp *in, const Expr *call, const PackedLayout *l,
                                       Tensor *t)
{
    int64_t shape[WINDOW_MAX_RANK];
    if (t->ndim != l->axes.ndim)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "a tensor of rank %d does not fit a layout of %d axes", t->ndim, l->axes.ndim);
    for (int j = 0; j < t->ndim; j++)
        if (l->factor[j] != 0 && t->shape[j] != l->factor[j])
            interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                        "axis %d is a sub-axis of factor %lld, but its dim is %lld", j,
                        (long long)l->factor[j], (long long)t->shape[j]);
    if (is_canonical(l))
        return t;
    bool over = false;
    for (int k = 0; k < l->axes.canon_ndim; k++)
        shape[k] = checked_mul(t->shape[l->primal[k]], l->split[k], &over);
    if (over)
        interp_fail(in, "OpPrecondition", ops_call_rule(call), call->span,
                    "the tensor's canonical shape overflows int64");
    Tensor *out = ops_kernel_new_tensor(in, call, t->dtype, l->axes.canon_ndim, shape);
    kernels_window_to_canonical(t, &l->axes, out);
    return out;
}

Tensor *ops_window_tensor_from_canonical(struct Interp *in, const Expr *call, const PackedLayout *l,
                                         Tensor *t)
{
    int64_t shape[WINDOW_MAX_AXES];
    if (is_canonical(l))
        return t;
    for (int j = 0; j < l->axes.ndim; j++) {
        int64_t c = t->shape[l->axes.canon[j]], f = l->split[l->axes.canon[j]];
        shape[j] = l->factor[j] != 0 ? l->factor[j] : checked_ceildiv(c, f);
    }
    Tensor *out = ops_kernel_new_tensor(in, call, t->dtype, l->axes.ndim, shape);
    kernels_window_from_canonical(t, &l->axes, out);
    return out;
}
