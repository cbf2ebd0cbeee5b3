/* kernels_einsum: Einstein summation as TVM v0.22's topi einsum defines it: the equation read
 * as EinsumEquation::FromString reads it (spaces ignored, one ellipsis per term, numpy's
 * implicit output), labels broadcast where one operand's dim is 1, products summed over the
 * labels the output leaves out. SPEC_NOTES: "Operators" (OP-einsum). */
#ifndef RELAX_VALUES_KERNELS_EINSUM_H
#define RELAX_VALUES_KERNELS_EINSUM_H

#include <stdbool.h>

#include "values/tensor.h"

/* An equation with every ellipsis expanded: an ellipsis dim is a label below 'A' (dim j of the
 * widest ellipsis, counted from the left, is label 1 + j; a narrower ellipsis takes the last
 * labels, as numpy's broadcasting aligns dims from the right). */
typedef struct EinsumSpec {
    int nin;
    const char **in; /* per operand its labels, one per axis */
    const char *out; /* the output's labels */
    int out_ndim;    /* strlen(out); -1 when an operand's unknown rank leaves it open */
} EinsumSpec;

/* True for the label of an ellipsis dim. */
bool kernel_einsum_is_ellipsis(char label);

/* Reads `subscripts` for n operands of these ranks (-1: unknown, which leaves the labels
 * unexpanded and only out_ndim meaningful). NULL on success, else why the equation is not
 * one TVM reads for these operands. The reference also refuses an output label that no
 * operand has (TVM crashes) or that the output repeats. */
const char *kernel_einsum_spec(const char *subscripts, const int *ranks, int n, EinsumSpec *out);

/* The work of kernel_einsum, for LIMIT-fuel: label assignments (the product of every label's
 * size) times operands, each assignment reading one element of each; -1 when that overflows,
 * 0 when the sizes do not broadcast (the kernel then reports it). */
int64_t kernel_einsum_work(const EinsumSpec *s, Tensor *const *xs);

/* The einsum of xs (ranks as the spec was read for). Sizes broadcast per label: equal dims,
 * or a dim of 1 taking the other; else *err. Products and sums in double (wrapping 64-bit
 * integers for integer dtypes), rounded once to out_dtype. */
Tensor *kernel_einsum(const EinsumSpec *spec, Tensor *const *xs, DataType out_dtype,
                      const char **err);

#endif
