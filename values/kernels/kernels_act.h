/* kernels_act: the parameterized activations leakyrelu, softplus, selu and prelu, computed in
 * double and rounded once to the output dtype. SPEC_NOTES: "Operators" (OP-nn.leakyrelu,
 * OP-nn.softplus, OP-nn.selu, OP-nn.prelu). */
#ifndef RELAX_VALUES_KERNELS_ACT_H
#define RELAX_VALUES_KERNELS_ACT_H

#include "values/tensor.h"

typedef enum ActKind {
    ACT_LEAKYRELU, /* x > 0 ? x : alpha x */
    ACT_SOFTPLUS,  /* beta x > threshold ? x : log(1 + exp(beta x)) / beta */
    ACT_SELU,      /* scale (max(0, x) + min(0, alpha (exp(x) - 1))) */
} ActKind;

typedef struct ActParams {
    double alpha;     /* leakyrelu */
    double beta;      /* softplus */
    double threshold; /* softplus */
} ActParams;

/* SELU's constants as TVM writes them. */
#define ACT_SELU_ALPHA 1.6732632423543772848170429916717
#define ACT_SELU_SCALE 1.0507009873554804934193349852946

double kernels_act_scalar(ActKind kind, const ActParams *p, double x);
void kernels_act(ActKind kind, const ActParams *p, const Tensor *x, Tensor *out);
/* x > 0 ? x : alpha[c] x with c the index along `axis` (non-negative); alpha is 1-D of that
 * axis' length. */
void kernels_act_prelu(const Tensor *x, const Tensor *alpha, int axis, Tensor *out);

#endif
