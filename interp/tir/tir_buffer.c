/* tir_buffer: TIR buffers as views over tensors; allocation and bounds-checked element
 * access. SPEC_NOTES: "TIR semantics" (TIR-BOUNDS, TIR-ALLOC, TIR-STORE). */
#include <inttypes.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/tir/tir_internal.h"

void tir_buffer_bind(TirFrame *fr, const Buffer *b, Tensor *t)
{
    TirBufferSlot slot = {b, t};
    VEC_PUSH(fr->buffers, fr->nbuffers, fr->capbuffers, slot);
}

static Tensor *buffer_tensor(TirFrame *fr, const Buffer *b, Span span)
{
    for (int i = fr->nbuffers - 1; i >= 0; i--)
        if (fr->buffers[i].buffer == b)
            return fr->buffers[i].tensor;
    /* Only a program the parser should have rejected reaches a buffer out of its scope. */
    interp_fail(fr->in, "UnboundVariable", "E-2", span, "buffer `%s` is not live here", b->name);
}

/* TIR-ALLOC: the shape is evaluated where the allocation runs; the data starts zeroed. */
void tir_buffer_alloc(TirFrame *fr, const Buffer *b, Span span)
{
    rule_fired("TIR-ALLOC");
    int64_t dims[TENSOR_MAX_NDIM];
    if (b->ndim > TENSOR_MAX_NDIM)
        interp_fail(fr->in, "TirAlloc", "TIR-ALLOC", span, "buffer `%s` has %d dimensions", b->name,
                    b->ndim);
    for (int d = 0; d < b->ndim; d++) {
        Scalar s = tir_eval(fr, b->shape[d]);
        dims[d] = s.i;
        if (dims[d] < 0)
            interp_fail(fr->in, "TirAlloc", "TIR-ALLOC", span,
                        "buffer `%s` dimension %d is negative (%" PRId64 ")", b->name, d, dims[d]);
    }
    Tensor *t = tensor_new(b->dtype, b->ndim, dims);
    if (!t)
        interp_fail(fr->in, "TirAlloc", "TIR-ALLOC", span,
                    "cannot allocate buffer `%s` of %s (unsupported dtype or too large)", b->name,
                    dtype_str(b->dtype));
    tir_buffer_bind(fr, b, t);
}

/* TIR-BOUNDS: every index lies in [0, dim) of the tensor the buffer views; the element is
 * then found by the row-major flat index. */
static int64_t flat_index(TirFrame *fr, const Buffer *b, const Tensor *t, const Scalar *indices,
                          int n, Span span)
{
    rule_fired("TIR-BOUNDS");
    if (n != t->ndim)
        interp_fail(fr->in, "TirOutOfBounds", "TIR-BOUNDS", span,
                    "buffer `%s` has %d dimensions but is indexed with %d", b->name, t->ndim, n);
    int64_t flat = 0;
    for (int d = 0; d < n; d++) {
        int64_t x = indices[d].i;
        /* A uint64 index past 2^63 holds negative bits: out of bounds like any other. */
        if (dtype_is_float(indices[d].dtype) || x < 0 || x >= t->shape[d])
            interp_fail(fr->in, "TirOutOfBounds", "TIR-BOUNDS", span,
                        "index %" PRId64 " is out of bounds for dimension %d of buffer `%s` "
                        "(size %" PRId64 ")",
                        x, d, b->name, t->shape[d]);
        flat = flat * t->shape[d] + x;
    }
    return flat;
}

Scalar tir_buffer_load(TirFrame *fr, const Buffer *b, const Scalar *indices, int n, Span span)
{
    Tensor *t = buffer_tensor(fr, b, span);
    int64_t i = flat_index(fr, b, t, indices, n, span);
    if (dtype_is_float(t->dtype))
        return prim_scalar_float(t->dtype, tensor_get_f64(t, i));
    return prim_scalar_int(t->dtype, tensor_get_i64(t, i));
}

/* TIR-STORE: the value converts once into the buffer's dtype (integers wrap, floats round
 * to nearest even in the dtype's own format, bool stores 0 or 1). */
void tir_buffer_store(TirFrame *fr, const Buffer *b, const Scalar *indices, int n, Scalar v,
                      Span span)
{
    Tensor *t = buffer_tensor(fr, b, span);
    int64_t i = flat_index(fr, b, t, indices, n, span);
    if (!dtype_equal(v.dtype, t->dtype))
        v = prim_cast(t->dtype, v);
    if (dtype_is_float(t->dtype))
        tensor_set_f64(t, i, v.f);
    else
        tensor_set_i64(t, i, v.i);
}

Scalar tir_buffer_load_cb(void *ctx, const PrimExpr *load, const Scalar *indices)
{
    TirFrame *fr = ctx;
    return tir_buffer_load(fr, load->u.load.buffer, indices, load->u.load.nindices, load->span);
}
