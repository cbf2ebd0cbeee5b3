/* kernels_conv: conv2d and 2-D pooling in NCHW, the two-axis case of the sliding-window
 * kernels (kernels_window), with TVM's (top, left, bottom, right) padding.
 * SPEC_NOTES: "Operators" (OP-nn.conv2d, OP-nn.max_pool2d, OP-nn.avg_pool2d). */
#include "values/kernels/kernels_nn.h"

#include <string.h>

#include "values/kernels/kernels_window.h"

static WindowConv window_conv(const NnConv2d *p)
{
    WindowConv w;
    memset(&w, 0, sizeof w);
    w.nsp = 2;
    w.groups = p->groups;
    for (int k = 0; k < 2; k++) {
        w.strides[k] = p->strides[k];
        w.dilation[k] = p->dilation[k];
        w.pad_lo[k] = p->padding[k];
        w.pad_hi[k] = p->padding[k + 2];
    }
    return w;
}

static WindowPool window_pool(const NnPool2d *p)
{
    WindowPool w;
    memset(&w, 0, sizeof w);
    w.nsp = 2;
    w.ceil_mode = p->ceil_mode;
    w.count_include_pad = p->count_include_pad;
    for (int k = 0; k < 2; k++) {
        w.pool_size[k] = p->pool_size[k];
        w.strides[k] = p->strides[k];
        w.dilation[k] = p->dilation[k];
        w.pad_lo[k] = p->padding[k];
        w.pad_hi[k] = p->padding[k + 2];
    }
    return w;
}

bool kernels_nn_conv2d_shape(const int64_t dshape[4], const int64_t wshape[4], const NnConv2d *p,
                             int64_t out[4])
{
    WindowConv w = window_conv(p);
    return kernels_window_conv_shape(dshape, wshape, &w, out);
}

void kernels_nn_conv2d(const Tensor *data, const Tensor *weight, const NnConv2d *p, Tensor *out)
{
    WindowConv w = window_conv(p);
    kernels_window_conv(data, weight, &w, out);
}

int64_t kernels_nn_pool_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                               const int64_t pad[2], bool ceil_mode)
{
    WindowPool w;
    memset(&w, 0, sizeof w);
    w.nsp = 1;
    w.pool_size[0] = k;
    w.strides[0] = stride;
    w.dilation[0] = dilation;
    w.pad_lo[0] = pad[0];
    w.pad_hi[0] = pad[1];
    w.ceil_mode = ceil_mode;
    return kernels_window_pool_extent(in, &w, 0);
}

bool kernels_nn_pool2d_shape(const int64_t dshape[4], const NnPool2d *p, int64_t out[4])
{
    WindowPool w = window_pool(p);
    return kernels_window_pool_shape(dshape, &w, out);
}

void kernels_nn_max_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out)
{
    WindowPool w = window_pool(p);
    kernels_window_pool(data, &w, true, out);
}

void kernels_nn_avg_pool2d(const Tensor *data, const NnPool2d *p, Tensor *out)
{
    WindowPool w = window_pool(p);
    kernels_window_pool(data, &w, false, out);
}
