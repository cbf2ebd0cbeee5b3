/* kernels_image: image resizing (resize2d) in every interpolation method, coordinate
 * transformation and rounding rule of TVM's topi, with topi's float32 arithmetic.
 * SPEC_NOTES: "Operators" (OP-image.resize2d). */
#ifndef RELAX_VALUES_KERNELS_IMAGE_H
#define RELAX_VALUES_KERNELS_IMAGE_H

#include <stdbool.h>

#include "values/tensor.h"

typedef enum ResizeMethod {
    RESIZE_NEAREST, /* "nearest_neighbor" */
    RESIZE_LINEAR,  /* "linear" */
    RESIZE_CUBIC,   /* "cubic" */
} ResizeMethod;

typedef enum ResizeCoord {
    RESIZE_HALF_PIXEL,
    RESIZE_ALIGN_CORNERS,
    RESIZE_ASYMMETRIC,
    RESIZE_PYTORCH_HALF_PIXEL,
    RESIZE_TF_HALF_PIXEL_FOR_NN,
    RESIZE_TF_CROP_AND_RESIZE,
} ResizeCoord;

typedef enum ResizeRounding {
    RESIZE_ROUND,              /* half away from zero */
    RESIZE_ROUND_PREFER_FLOOR, /* ceil(x - 0.5) */
    RESIZE_ROUND_PREFER_CEIL,  /* floor(x + 0.5) */
    RESIZE_FLOOR,              /* floor(x + 1e-5) */
    RESIZE_CEIL,               /* ceil(x - 1e-5) */
    RESIZE_DEFAULT,            /* "": round for align_corners, else floor */
} ResizeRounding;

typedef struct ResizeParams {
    int h_axis, w_axis; /* the data's H and W axes (2, 3 for NCHW; 1, 2 for NHWC) */
    ResizeMethod method;
    ResizeCoord coord;
    ResizeRounding rounding;
    double roi[4]; /* start_h, start_w, end_h, end_w (tf_crop_and_resize) */
    double cubic_alpha;
    bool cubic_exclude;
    double extrapolation_value;
} ResizeParams;

/* The name tables' lookups: false for a name topi does not know. */
bool kernels_resize_method(const char *name, ResizeMethod *out);
bool kernels_resize_coord(const char *name, ResizeCoord *out);
bool kernels_resize_rounding(const char *name, ResizeRounding *out);

/* Resizes data into out along the H and W axes, every other axis (N, C, and packed sub-axes
 * such as NCHW16c's c) indexing its own image; out's H and W dims are the target size. Pixels
 * and coordinates are float32 as topi computes them; the result is converted once to out's
 * dtype (integers truncate toward zero). */
void kernels_resize2d(const Tensor *data, const ResizeParams *p, Tensor *out);

#endif
