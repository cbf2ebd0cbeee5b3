/* kernels_act: leakyrelu, softplus, selu and prelu elementwise in double.
 * SPEC_NOTES: "Operators" (OP-nn.leakyrelu, OP-nn.softplus, OP-nn.selu, OP-nn.prelu). */
#include "values/kernels/kernels_act.h"

#include <math.h>

#include "ast/checked.h"
#include "ast/mem.h"

double kernels_act_scalar(ActKind kind, const ActParams *p, double x)
{
    switch (kind) {
    case ACT_LEAKYRELU:
        return x > 0 ? x : x * p->alpha;
    case ACT_SOFTPLUS:
        return p->beta * x > p->threshold ? x : (1.0 / p->beta) * log(1.0 + exp(p->beta * x));
    case ACT_SELU:
        return ACT_SELU_SCALE * (fmax(x, 0.0) + fmin(0.0, ACT_SELU_ALPHA * (exp(x) - 1.0)));
    }
    return x;
}

static double *read_all(const Tensor *t)
{
    double *buf = tensor_scratch(t->numel, sizeof(double));
    tensor_read_f64(t, buf);
    return buf;
}

void kernels_act(ActKind kind, const ActParams *p, const Tensor *x, Tensor *out)
{
    double *buf = read_all(x);
    for (int64_t i = 0; i < x->numel; i++)
        buf[i] = kernels_act_scalar(kind, p, buf[i]);
    tensor_write_f64(out, buf);
}

void kernels_act_prelu(const Tensor *x, const Tensor *alpha, int axis, Tensor *out)
{
    double *buf = read_all(x), *a = read_all(alpha);
    int64_t inner = 1, len = x->shape[axis];
    bool over = false; /* only an empty tensor's dims overflow: no element is visited */
    for (int k = axis + 1; k < x->ndim; k++)
        inner = checked_mul(inner, x->shape[k], &over);
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t c = (i / inner) % len;
        buf[i] = buf[i] > 0 ? buf[i] : buf[i] * a[c];
    }
    tensor_write_f64(out, buf);
}
