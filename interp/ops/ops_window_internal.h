/* ops_window_internal: what the sliding-window operator files share: layouts (permuted and
 * packed) against the canonical one, window attributes of any spatial rank, and symbolic
 * output extents. SPEC_NOTES: "Operators" (OP-nn.conv2d, OP-nn.max_pool2d, OP-nn.conv1d, ...). */
#ifndef RELAX_INTERP_OPS_WINDOW_INTERNAL_H
#define RELAX_INTERP_OPS_WINDOW_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "values/kernels/kernels_window.h"

#define WINDOW_MAX_RANK (WINDOW_MAX_SPATIAL + 2)

/* interp/ops/ops_window_layout.c */

/* A layout such as "NHWC" read against its canonical form ("NCHW"): perm[i] is the axis of
 * the layout holding canonical axis i. Only permutations of the canonical letters are
 * accepted here (no packed sub-axes such as "NCHW4c": see PackedLayout). */
typedef struct WindowLayout {
    int ndim;
    int perm[WINDOW_MAX_RANK];
} WindowLayout;

bool ops_window_layout(const char *text, const char *canonical, WindowLayout *out);

/* A layout as TVM's tir::Layout reads it, against its canonical form: primal axes (upper-case
 * letters, a permutation of the canonical ones) and sub-axes (a factor and a lower-case
 * letter: NCHW4c holds channel 4 C' + c at [n, C', h, w, c]). */
typedef struct PackedLayout {
    WindowAxes axes;
    int primal[WINDOW_MAX_RANK];     /* the layout axis of each canonical axis' primal axis */
    int64_t factor[WINDOW_MAX_AXES]; /* per layout axis: 0 for a primal axis, else its factor */
    int64_t split[WINDOW_MAX_RANK];  /* per canonical axis: the product of its sub-axes' factors */
} PackedLayout;

/* Reads `text`; NULL, or why it does not convert to `canonical` (the caller's OpAttr). */
const char *ops_window_packed(const char *text, const char *canonical, PackedLayout *out);
/* Dims in the layout to canonical ones (a primal dim times its split), as BijectiveLayout's
 * ForwardShape; false after OpShapeMismatch for a constant sub-axis dim unequal to its
 * factor. */
bool ops_window_dims_to_canonical(OpInferCtx *ctx, const PackedLayout *l, PrimExpr *const *dims,
                                  PrimExpr **canon);
/* Canonical dims to the layout's (ceildiv by the split, a sub-axis its factor), as
 * BackwardShape; NULL when a folded constant overflows. */
PrimExpr **ops_window_dims_from_canonical(const PackedLayout *l, PrimExpr *const *canon, Span sp);
/* A run-time tensor moved from its layout to canonical order (OpPrecondition when its shape
 * does not fit the layout), and back. */
Tensor *ops_window_tensor_to_canonical(struct Interp *in, const Expr *call, const PackedLayout *l,
                                       Tensor *t);
Tensor *ops_window_tensor_from_canonical(struct Interp *in, const Expr *call, const PackedLayout *l,
                                         Tensor *t);

/* interp/ops/ops_window.c */

/* An int-or-list attribute of nsp entries (one value repeats); false otherwise. */
bool ops_window_read_list(const Expr *call, const char *key, int nsp, int64_t dflt, int64_t *out);
/* padding: 1 value for every side, nsp values (front = back), or 2 nsp values (all fronts,
 * then all backs). */
bool ops_window_read_padding(const Expr *call, int nsp, int64_t *lo, int64_t *hi);

/* floordiv(in + pads - dilation (k - 1) - 1 [+ stride - 1], stride) + 1 with constants
 * folded as TVM's simplifier does; NULL when a folded constant overflows int64 (the
 * caller's OpShapeOverflow). */
PrimExpr *ops_window_extent(PrimExpr *in, PrimExpr *k, int64_t pads, int64_t stride,
                            int64_t dilation, bool ceil_mode, Span sp);
/* e + c with constants folded, written `e - k` for a negative c; NULL when e is NULL or a
 * folded constant overflows. */
PrimExpr *ops_window_add_const(PrimExpr *e, int64_t c, Span sp);
/* Canonical output dims (n of them) that are fine: none NULL (OpShapeOverflow), none a
 * negative constant (OpShapeMismatch); false after the error. */
bool ops_window_check_extents(OpInferCtx *ctx, PrimExpr *const *dims, int n);
/* ops_window_dims_from_canonical, or NULL after OpShapeOverflow. */
PrimExpr **ops_window_out_dims(OpInferCtx *ctx, const PackedLayout *l, PrimExpr *const *canon);

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
