/* ops_window_internal: what the sliding-window operator files share: layouts as permutations
 * of the canonical one, window attributes of any spatial rank, and symbolic output extents.
 * SPEC_NOTES: "Operators" (OP-nn.conv1d, OP-nn.max_pool1d, OP-nn.adaptive_avg_pool2d, ...). */
#ifndef RELAX_INTERP_OPS_WINDOW_INTERNAL_H
#define RELAX_INTERP_OPS_WINDOW_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "values/kernels/kernels_window.h"

#define WINDOW_MAX_RANK (WINDOW_MAX_SPATIAL + 2)

/* A layout such as "NHWC" read against its canonical form ("NCHW"): perm[i] is the axis of
 * the layout holding canonical axis i. Only permutations of the canonical letters are
 * accepted (no packed sub-axes such as "NCHW4c"). */
typedef struct WindowLayout {
    int ndim;
    int perm[WINDOW_MAX_RANK];
} WindowLayout;

bool ops_window_layout(const char *text, const char *canonical, WindowLayout *out);
/* Dims reordered from a layout to canonical order, and back. */
void ops_window_to_canonical(const WindowLayout *l, PrimExpr *const *dims, PrimExpr **out);
void ops_window_from_canonical(const WindowLayout *l, PrimExpr *const *canon, PrimExpr **out);
/* A run-time tensor moved from its layout to canonical order, and back. */
Tensor *ops_window_tensor_to_canonical(const WindowLayout *l, const Tensor *t);
Tensor *ops_window_tensor_from_canonical(const WindowLayout *l, const Tensor *t);

/* An int-or-list attribute of nsp entries (one value repeats); false otherwise. */
bool ops_window_read_list(const Expr *call, const char *key, int nsp, int64_t dflt, int64_t *out);
/* padding: 1 value for every side, nsp values (front = back), or 2 nsp values (all fronts,
 * then all backs). */
bool ops_window_read_padding(const Expr *call, int nsp, int64_t *lo, int64_t *hi);

/* floordiv(in + pads - dilation (k - 1) - 1 [+ stride - 1], stride) + 1 with constants
 * folded as TVM's simplifier does. */
PrimExpr *ops_window_extent(PrimExpr *in, PrimExpr *k, int64_t pads, int64_t stride,
                            int64_t dilation, bool ceil_mode, Span sp);
/* e + c with constants folded, written `e - k` for a negative c. */
PrimExpr *ops_window_add_const(PrimExpr *e, int64_t c, Span sp);

/* interp/ops/ops_window_conv.c */
StructInfo *ops_window_infer_conv(OpInferCtx *ctx);
Value *ops_window_kernel_conv(struct Interp *in, const Expr *call, Value **args, int nargs);

/* interp/ops/ops_window_pool.c */
StructInfo *ops_window_infer_pool(OpInferCtx *ctx);
Value *ops_window_kernel_max_pool(struct Interp *in, const Expr *call, Value **args, int nargs);
Value *ops_window_kernel_avg_pool(struct Interp *in, const Expr *call, Value **args, int nargs);
StructInfo *ops_window_infer_adaptive(OpInferCtx *ctx);
Value *ops_window_kernel_adaptive(struct Interp *in, const Expr *call, Value **args, int nargs);

#endif
