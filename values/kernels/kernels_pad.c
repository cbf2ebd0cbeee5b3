/* kernels_pad: constant, reflect, replicate and circular padding by gathering each output
 * element from its source. SPEC_NOTES: "Operators" (OP-nn.pad). */
#include "values/kernels/kernels_pad.h"

#include "ast/mem.h"

int64_t kernels_pad_source(PadMode mode, int64_t o, int64_t before, int64_t n)
{
    int64_t x = o - before;
    if (x >= 0 && x < n)
        return x;
    switch (mode) {
    case PAD_CONSTANT:
        return -1;
    case PAD_REFLECT:
        return x < 0 ? -x : 2 * (n - 1) - x;
    case PAD_REPLICATE:
        return x < 0 ? 0 : n - 1;
    case PAD_CIRCULAR:
        return ((x % n) + n) % n;
    }
    return -1;
}

void kernels_pad(const Tensor *x, PadMode mode, const int64_t *before, double value, Tensor *out)
{
    int nd = x->ndim;
    int64_t idx[TENSOR_MAX_NDIM] = {0};
    bool is_float = dtype_is_float(x->dtype);
    for (int64_t i = 0; i < out->numel; i++) {
        int64_t src = 0;
        for (int a = 0; a < nd && src >= 0; a++) {
            int64_t s = kernels_pad_source(mode, idx[a], before[a], x->shape[a]);
            src = s < 0 ? -1 : src * x->shape[a] + s;
        }
        if (is_float)
            tensor_set_f64(out, i, src < 0 ? value : tensor_get_f64(x, src));
        else
            tensor_set_i64(out, i,
                           src < 0 ? tensor_f64_to_int(x->dtype, value) : tensor_get_i64(x, src));
        for (int a = nd - 1; a >= 0; a--) {
            if (++idx[a] < out->shape[a])
                break;
            idx[a] = 0;
        }
    }
}
