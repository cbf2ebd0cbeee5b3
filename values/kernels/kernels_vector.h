/* kernels_vector: how a hot kernel loop asks for the machine's vector instructions without
 * changing a result. SPEC_NOTES: "Operators". */
#ifndef RELAX_VALUES_KERNELS_VECTOR_H
#define RELAX_VALUES_KERNELS_VECTOR_H

/* A hot loop compiled for each vector unit of x86-64 (AVX-512, AVX2, the baseline), the one
 * the machine has chosen when the program loads. The results are the same on every one: the
 * loops' arithmetic is fixed by the C source (no contraction, -ffp-contract=off in
 * CMakeLists.txt; no reassociation, which ISO C forbids). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define KERNELS_VECTOR_CLONES                                                                      \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KERNELS_VECTOR_CLONES
#endif

/* Lets GCC fuse a multiply and an add in a function where that cannot change a result (see
 * its comment); other compilers, which lack the attribute, keep them apart. */
#if defined(__GNUC__) && !defined(__clang__)
#define KERNELS_FP_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define KERNELS_FP_CONTRACT
#endif

#endif
