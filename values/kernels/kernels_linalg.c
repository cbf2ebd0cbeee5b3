/* kernels_linalg: matmul, outer and einsum. Products accumulate in double (or in wrapping
 * 64-bit integers for integer results) and round once. SPEC_NOTES: "Operators" (OP-*). */
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
    size_t n = (size_t)(t->numel + 1);
    if (as_float) {
        double *f = mem_alloc_atomic(sizeof(double) * n);
        tensor_read_f64(t, f);
        op.f = f;
    } else {
        int64_t *i = mem_alloc_atomic(sizeof(int64_t) * n);
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
    int64_t n = a->ndim == 1 ? 1 : a->shape[a->ndim - 2], k = a->shape[a->ndim - 1];
    int64_t m = b->ndim == 1 ? 1 : b->shape[b->ndim - 1];
    int64_t sa[TENSOR_MAX_NDIM], sb[TENSOR_MAX_NDIM];
    batch_strides(a, a->ndim == 1 ? 1 : 2, nb, bshape, sa);
    batch_strides(b, b->ndim == 1 ? 1 : 2, nb, bshape, sb);
    int64_t *ia = kernel_view_index(nb, bshape, sa, 0), *ib = kernel_view_index(nb, bshape, sb, 0);
    int64_t batches = out->numel / (n * m > 0 ? n * m : 1);
    if (n * m == 0)
        batches = 0;
    bool fl = float_domain(out_dtype, a, b);
    Operand A = operand_read(a, fl), B = operand_read(b, fl);
    GemmDims d = {n, k, m};
    size_t nout = (size_t)(out->numel + 1);
    if (fl) {
        double *acc = mem_alloc_atomic(sizeof(double) * nout);
        bool exact = products_exact(a, b);
        for (int64_t p = 0; p < batches; p++)
            kernels_gemm_f64(A.f + ia[p], B.f + ib[p], &d, exact, acc + p * n * m);
        tensor_write_f64(out, acc);
    } else {
        uint64_t *acc = mem_alloc_atomic(sizeof(uint64_t) * nout);
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

/* ---- einsum ----------------------------------------------------------------------------- */

/* The parsed subscripts: per operand its labels; the output labels; every label's size. */
typedef struct Einsum {
    const char *in[TENSOR_MAX_NDIM];
    int nin;
    char out[TENSOR_MAX_NDIM + 1];
    char labels[TENSOR_MAX_NDIM + 1]; /* distinct labels, output ones first */
    int nlabels;
    int64_t size[128];
} Einsum;

static int label_index(const Einsum *es, char c)
{
    for (int i = 0; i < es->nlabels; i++)
        if (es->labels[i] == c)
            return i;
    return -1;
}

static bool einsum_sizes(Einsum *es, Tensor *const *xs, int n, const char **err)
{
    for (int i = 0; i < 128; i++)
        es->size[i] = -1;
    for (int t = 0; t < n; t++) {
        const char *l = es->in[t];
        if ((int)strlen(l) != xs[t]->ndim) {
            *err = "einsum: an operand's rank differs from its subscripts";
            return false;
        }
        for (int a = 0; l[a]; a++) {
            int64_t *s = &es->size[(unsigned char)l[a]];
            if (*s >= 0 && *s != xs[t]->shape[a]) {
                *err = "einsum: a label has two different sizes";
                return false;
            }
            *s = xs[t]->shape[a];
        }
    }
    return true;
}

static void einsum_parse(Einsum *es, const char *subscripts)
{
    char *spec = mem_strdup(subscripts);
    char *arrow = strstr(spec, "->");
    if (arrow)
        *arrow = '\0';
    es->nin = 0;
    for (char *p = spec;; p++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (es->nin == TENSOR_MAX_NDIM)
            break;
        es->in[es->nin++] = p;
        if (!comma)
            break;
        p = comma;
    }
    /* numpy's implicit output: the labels used once, in alphabetical order. */
    if (arrow) {
        snprintf(es->out, sizeof es->out, "%s", arrow + 2);
    } else {
        int k = 0;
        for (int c = 'A'; c <= 'z'; c++) {
            int uses = 0;
            for (const char *q = spec; q < spec + strlen(subscripts); q++)
                uses += *q == c;
            if (uses == 1)
                es->out[k++] = (char)c;
        }
        es->out[k] = '\0';
    }
    es->nlabels = 0;
    for (const char *q = es->out; *q; q++)
        es->labels[es->nlabels++] = *q;
    for (int t = 0; t < es->nin; t++)
        for (const char *q = es->in[t]; *q; q++)
            if (label_index(es, *q) < 0)
                es->labels[es->nlabels++] = *q;
}

Tensor *kernel_einsum(const char *subscripts, Tensor *const *xs, int n, DataType out_dtype,
                      const char **err)
{
    Einsum es;
    if (n > TENSOR_MAX_NDIM) {
        *err = "einsum has too many operands";
        return NULL;
    }
    einsum_parse(&es, subscripts);
    if (es.nin != n || !einsum_sizes(&es, xs, n, err)) {
        if (!*err)
            *err = "einsum: the operand count differs from the subscripts";
        return NULL;
    }
    int nout = (int)strlen(es.out);
    int64_t shape[TENSOR_MAX_NDIM], lsize[TENSOR_MAX_NDIM], lstride[TENSOR_MAX_NDIM];
    for (int i = 0; i < es.nlabels; i++)
        lsize[i] = es.size[(unsigned char)es.labels[i]];
    for (int i = 0; i < nout; i++)
        shape[i] = lsize[i];
    Tensor *out = tensor_new(out_dtype, nout, shape);
    if (!out) {
        *err = "einsum's result dtype or size is not supported";
        return NULL;
    }
    bool fl = float_domain(out_dtype, xs[0], NULL);
    for (int t = 0; t < n; t++)
        fl = fl || dtype_is_float(xs[t]->dtype);
    /* Walk every label assignment in row-major order over (output labels, summed labels):
     * consecutive assignments with the same output labels accumulate into one element. */
    int64_t *offs[TENSOR_MAX_NDIM];
    Operand ops[TENSOR_MAX_NDIM];
    for (int t = 0; t < n; t++) {
        int64_t own[TENSOR_MAX_NDIM];
        kernel_strides(xs[t]->ndim, xs[t]->shape, own);
        for (int i = 0; i < es.nlabels; i++)
            lstride[i] = 0;
        for (int a = 0; es.in[t][a]; a++)
            lstride[label_index(&es, es.in[t][a])] += own[a];
        offs[t] = kernel_view_index(es.nlabels, lsize, lstride, 0);
        if (offs[t] == NULL) {
            *err = "einsum's index space overflows int64";
            return NULL;
        }
        ops[t] = operand_read(xs[t], fl);
    }
    int64_t inner = 1;
    for (int i = nout; i < es.nlabels; i++)
        inner *= lsize[i];
    for (int64_t o = 0; o < out->numel; o++) {
        double fs = 0;
        uint64_t is = 0;
        for (int64_t s = 0; s < inner; s++) {
            int64_t k = o * inner + s;
            double fp = 1;
            uint64_t ip = 1;
            for (int t = 0; t < n; t++) {
                if (fl)
                    fp *= ops[t].f[offs[t][k]];
                else
                    ip *= (uint64_t)ops[t].i[offs[t][k]];
            }
            fs += fp;
            is += ip;
        }
        if (fl)
            tensor_set_f64(out, o, fs);
        else
            tensor_set_i64(out, o, (int64_t)is);
    }
    return out;
}
