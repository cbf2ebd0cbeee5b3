/* kernels_linalg: matmul and outer (einsum: kernels_einsum). Products accumulate in double (or in
 * wrapping 64-bit integers for integer results) and round once. SPEC_NOTES: "Operators" (OP-*). */
#include "values/kernels/kernels_manip.h"

#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "values/kernels/kernels_gemm.h"

/* Whole-tensor buffers in the accumulation domain. */
typedef struct Operand {
    const double *f;
    const int64_t *i;
} Operand;

static Operand operand_read(const Tensor *t, bool as_float)
{
    Operand op = {NULL, NULL};
    if (as_float) {
        double *f = tensor_scratch(t->numel, sizeof(double));
        tensor_read_f64(t, f);
        op.f = f;
    } else {
        int64_t *i = tensor_scratch(t->numel, sizeof(int64_t));
        tensor_read_i64(t, i);
        op.i = i;
    }
    return op;
}

static int significand_bits(DataType t)
{
    if (dtype_is_bool(t))
        return 1;
    if (t.code == DT_BFLOAT)
        return 8;
    if (t.code == DT_FLOAT)
        return t.bits == 16 ? 11 : t.bits == 32 ? 24 : 53;
    return t.bits; /* integers: at most `bits` magnitude bits */
}

static bool float_domain(DataType out, const Tensor *a, const Tensor *b)
{
    return dtype_is_float(out) || dtype_is_float(a->dtype) || (b && dtype_is_float(b->dtype));
}

/* Batch dims of a matmul operand as strides into the broadcast batch shape. */
static void batch_strides(const Tensor *t, int core, int nb, const int64_t *bshape,
                          int64_t *strides)
{
    int tb = t->ndim - core;
    int64_t own[TENSOR_MAX_NDIM];
    kernel_strides(t->ndim, t->shape, own);
    for (int i = 0; i < nb; i++) {
        int j = i - (nb - tb);
        strides[i] = (j < 0 || (t->shape[j] == 1 && bshape[i] != 1)) ? 0 : own[j];
    }
}

/* The output shape of a numpy matmul; false when the core or batch dims disagree. */
static bool matmul_shape(const Tensor *a, const Tensor *b, int *nb, int64_t *bshape, int *ndim,
                         int64_t *shape)
{
    int ca = a->ndim == 1 ? 1 : 2, cb = b->ndim == 1 ? 1 : 2;
    int ba = a->ndim - ca, bb = b->ndim - cb;
    int64_t ka = a->shape[a->ndim - 1], kb = b->ndim == 1 ? b->shape[0] : b->shape[b->ndim - 2];
    if (ka != kb)
        return false;
    *nb = ba > bb ? ba : bb;
    for (int i = 0; i < *nb; i++) {
        int ia = i - (*nb - ba), ib = i - (*nb - bb);
        int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        bshape[i] = da == 1 ? db : da;
    }
    *ndim = 0;
    for (int i = 0; i < *nb; i++)
        shape[(*ndim)++] = bshape[i];
    if (ca == 2)
        shape[(*ndim)++] = a->shape[a->ndim - 2];
    if (cb == 2)
        shape[(*ndim)++] = b->shape[b->ndim - 1];
    return true;
}

/* Whether every product of an element of `a` and one of `b` is exact in double: their
 * dtypes' significands (integers: their magnitude bits) fit 53 bits together. */
static bool products_exact(const Tensor *a, const Tensor *b)
{
    return significand_bits(a->dtype) + significand_bits(b->dtype) <= 53;
}

Tensor *kernel_matmul(const Tensor *a, const Tensor *b, DataType out_dtype, const char **err)
{
    int nb, nd;
    int64_t bshape[TENSOR_MAX_NDIM], shape[TENSOR_MAX_NDIM];
    if (a->ndim == 0 || b->ndim == 0 || !matmul_shape(a, b, &nb, bshape, &nd, shape)) {
        *err = "matmul's operand shapes do not agree";
        return NULL;
    }
    Tensor *out = tensor_new(out_dtype, nd, shape);
    if (!out) {
        *err = "matmul's result dtype or size is not supported";
        return NULL;
    }
    if (out->numel == 0)
        return out; /* no element: its batch, M or N dims, maybe near 2^63 beside the 0, are
                     * not multiplied */
    int64_t n = a->ndim == 1 ? 1 : a->shape[a->ndim - 2], k = a->shape[a->ndim - 1];
    int64_t m = b->ndim == 1 ? 1 : b->shape[b->ndim - 1];
    int64_t sa[TENSOR_MAX_NDIM], sb[TENSOR_MAX_NDIM];
    batch_strides(a, a->ndim == 1 ? 1 : 2, nb, bshape, sa);
    batch_strides(b, b->ndim == 1 ? 1 : 2, nb, bshape, sb);
    int64_t *ia = kernel_view_index(nb, bshape, sa, 0), *ib = kernel_view_index(nb, bshape, sb, 0);
    int64_t batches = out->numel / (n * m); /* n and m are dims of the non-empty result */
    bool fl = float_domain(out_dtype, a, b);
    Operand A = operand_read(a, fl), B = operand_read(b, fl);
    GemmDims d = {n, k, m};
    if (fl) {
        double *acc = tensor_scratch(out->numel, sizeof(double));
        bool exact = products_exact(a, b);
        for (int64_t p = 0; p < batches; p++)
            kernels_gemm_f64(A.f + ia[p], B.f + ib[p], &d, exact, acc + p * n * m);
        tensor_write_f64(out, acc);
    } else {
        uint64_t *acc = tensor_scratch(out->numel, sizeof(uint64_t));
        for (int64_t p = 0; p < batches; p++)
            kernels_gemm_u64(A.i + ia[p], B.i + ib[p], &d, acc + p * n * m);
        tensor_write_i64(out, (const int64_t *)acc);
    }
    return out;
}

Tensor *kernel_outer(const Tensor *a, const Tensor *b, DataType out_dtype, const char **err)
{
    if (a->ndim != 1 || b->ndim != 1) {
        *err = "outer needs 1-D operands";
        return NULL;
    }
    int64_t shape[2] = {a->shape[0], b->shape[0]};
    Tensor *out = tensor_new(out_dtype, 2, shape);
    if (!out) {
        *err = "outer's result dtype or size is not supported";
        return NULL;
    }
    bool fl = float_domain(out_dtype, a, b);
    Operand A = operand_read(a, fl), B = operand_read(b, fl);
    for (int64_t r = 0; r < shape[0]; r++)
        for (int64_t c = 0; c < shape[1]; c++) {
            if (fl)
                tensor_set_f64(out, r * shape[1] + c, A.f[r] * B.f[c]);
            else
                tensor_set_i64(out, r * shape[1] + c,
                               (int64_t)((uint64_t)A.i[r] * (uint64_t)B.i[c]));
        }
    return out;
}
