/* kernels_sort: stable sorting along an axis (sort, argsort, topk) and unique.
 * SPEC_NOTES: "Operators" (OP-sort, OP-argsort, OP-topk, OP-unique). */
#ifndef RELAX_VALUES_KERNELS_SORT_H
#define RELAX_VALUES_KERNELS_SORT_H

#include <stdbool.h>
#include <stdint.h>

#include "values/tensor.h"

/* The order is numpy's: ascending with NaN after every number; descending is its exact
 * reverse on keys (NaN first) while equal keys keep their original order in both. */

/* For every lane along `axis`, the stable sorting permutation: perm has x->numel entries,
 * laid out like x, perm[.., j, ..] being the position along the axis of the j-th element. */
void kernels_sort_perm(const Tensor *x, int axis, bool descending, int64_t *perm);

/* out[.., j, ..] = x[.., perm[.., j, ..], ..] for j < out's extent along the axis (out may
 * be shorter than x there: topk). */
void kernels_sort_gather(const Tensor *x, int axis, const int64_t *perm, Tensor *out);
/* out[.., j, ..] = perm[.., j, ..], converted into out's dtype. */
void kernels_sort_indices(const Tensor *x, int axis, const int64_t *perm, Tensor *out);

/* unique along `axis` (-1: over the flattened tensor). */
typedef struct UniqueResult {
    Tensor *values;  /* the unique elements (or slices) */
    Tensor *index;   /* int64: first occurrence of each */
    Tensor *inverse; /* int64: for every input element (slice), its unique's position */
    Tensor *counts;  /* int64: occurrences of each */
} UniqueResult;

/* Sorted: in ascending order (NaNs, all equal, last); unsorted: in order of first
 * occurrence. NULL result tensors only when the sizes pass the tensor limits. */
UniqueResult kernels_unique(const Tensor *x, int axis, bool sorted);

#endif
