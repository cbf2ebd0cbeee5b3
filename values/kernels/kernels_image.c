/* kernels_image: resize2d as topi's image/resize.py computes it: float32 coordinates and
 * pixels, each operation rounded to float32 (a double operation on two floats rounded once to
 * float is the float operation), the result converted once to the output dtype.
 * SPEC_NOTES: "Operators" (OP-image.resize2d). */
#include "values/kernels/kernels_image.h"

#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"

static const char *const METHOD_NAMES[] = {"nearest_neighbor", "linear", "cubic"};
static const char *const COORD_NAMES[] = {"half_pixel",           "align_corners",
                                          "asymmetric",           "pytorch_half_pixel",
                                          "tf_half_pixel_for_nn", "tf_crop_and_resize"};
static const char *const ROUNDING_NAMES[] = {
    "round", "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", ""};

static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

#define FIND(table, name) find_name(table, (int)(sizeof(table) / sizeof(table[0])), name)

bool kernels_resize_method(const char *name, ResizeMethod *out)
{
    int i = FIND(METHOD_NAMES, name);
    *out = (ResizeMethod)(i < 0 ? 0 : i);
    return i >= 0;
}

bool kernels_resize_coord(const char *name, ResizeCoord *out)
{
    int i = FIND(COORD_NAMES, name);
    *out = (ResizeCoord)(i < 0 ? 0 : i);
    return i >= 0;
}

bool kernels_resize_rounding(const char *name, ResizeRounding *out)
{
    int i = FIND(ROUNDING_NAMES, name);
    *out = (ResizeRounding)(i < 0 ? 0 : i);
    return i >= 0;
}

/* One float32 operation's result. */
static double f32(double v)
{
    return (double)(float)v;
}

/* One axis of the resize: the input and target extents, and the roi's start and end. */
typedef struct Axis {
    int64_t in, target;
    double start, end;
    bool int_div; /* nearest_neighbor + asymmetric with an integral upscale (topi's intdiv) */
} Axis;

/* topi's can_convert_multiply_to_intdiv: the target a whole multiple of the input, not too
 * large. */
static bool integral_upscale(int64_t in, int64_t target)
{
    if (in <= 0 || target % in != 0)
        return false;
    return (double)(target / in) <= 1.0 / (1e-5 * (double)in + 1e-5);
}

/* get_inx: the input coordinate of output index x. */
static double input_coord(const ResizeParams *p, const Axis *a, int64_t x)
{
    double fx = (double)x, in = (double)a->in, tg = (double)a->target;
    double scale = f32(in / tg);
    switch (p->coord) {
    case RESIZE_HALF_PIXEL:
        return f32(f32(f32(fx + 0.5) * scale) - 0.5);
    case RESIZE_ALIGN_CORNERS: /* topi divides by zero for one target pixel (NaN) */
        if (a->target <= 1)
            return 0.0;
        return f32(f32((in - 1) / (tg - 1)) * fx);
    case RESIZE_ASYMMETRIC:
        if (a->int_div)
            return (double)(x / (a->target / a->in));
        return f32(scale * fx);
    case RESIZE_PYTORCH_HALF_PIXEL:
        return a->target > 1 ? f32(f32(f32(fx + 0.5) * scale) - 0.5) : 0.0;
    case RESIZE_TF_HALF_PIXEL_FOR_NN:
        return f32(f32(fx + 0.5) * scale);
    case RESIZE_TF_CROP_AND_RESIZE:
        if (a->target <= 1)
            return f32(f32(0.5 * f32(a->start + a->end)) * (in - 1));
        return f32(f32(a->start * (in - 1)) +
                   f32(f32(f32(fx * f32(a->end - a->start)) * (in - 1)) / (tg - 1)));
    }
    return 0;
}

/* get_closest_index. */
static int64_t closest(const ResizeParams *p, const Axis *a, double v)
{
    if (a->int_div)
        return (int64_t)v;
    ResizeRounding r = p->rounding;
    if (r == RESIZE_DEFAULT)
        r = p->coord == RESIZE_ALIGN_CORNERS ? RESIZE_ROUND : RESIZE_FLOOR;
    switch (r) {
    case RESIZE_ROUND:
        return (int64_t)round(v);
    case RESIZE_ROUND_PREFER_FLOOR:
        return (int64_t)ceil(f32(v - 0.5));
    case RESIZE_ROUND_PREFER_CEIL:
        return (int64_t)floor(f32(v + 0.5));
    case RESIZE_FLOOR:
        return (int64_t)floor(f32(v + f32(1e-5)));
    case RESIZE_CEIL:
        return (int64_t)ceil(f32(v - f32(1e-5)));
    case RESIZE_DEFAULT:
        break;
    }
    return (int64_t)floor(v);
}

static int64_t clamp(int64_t v, int64_t n)
{
    return v < 0 ? 0 : (v > n - 1 ? n - 1 : v);
}

/* The image being read: the float32 pixels of one plane (every axis but H and W fixed), at
 * element base, rows sh and columns sw apart. */
typedef struct Plane {
    const Tensor *data;
    const ResizeParams *p;
    int64_t base, sh, sw, h, w;
} Plane;

static double pixel(const Plane *pl, int64_t y, int64_t x)
{
    y = clamp(y, pl->h);
    x = clamp(x, pl->w);
    return f32(tensor_get_f64(pl->data, pl->base + y * pl->sh + x * pl->sw));
}

static double lerp(double a, double b, double t)
{
    return f32(f32(a * f32(1.0 - t)) + f32(b * t));
}

static void cubic_weights(double t, double alpha, double *w)
{
    double t2 = f32(t * t), t3 = f32(t2 * t);
    double a = f32(alpha), a2 = f32(alpha + 2), a3 = f32(3 + alpha), a5 = f32(3 + 2 * alpha);
    w[0] = f32(a * f32(f32(t3 - f32(2 * t2)) + t));
    w[1] = f32(f32(f32(a2 * t3) - f32(a3 * t2)) + 1);
    w[2] = f32(f32(f32(-a2 * t3) + f32(a5 * t2)) - f32(a * t));
    w[3] = f32(f32(-a * t3) + f32(a * t2));
}

static void exclude_outside(double *w, int64_t base, int64_t n)
{
    double sum = 0;
    for (int i = 0; i < 4; i++) {
        if (base - 1 + i < 0 || base + i > n)
            w[i] = 0;
        sum = f32(sum + w[i]);
    }
    for (int i = 0; i < 4; i++)
        w[i] = f32(w[i] / sum);
}

static double cubic(const Plane *pl, double in_y, double in_x)
{
    double fy = floor(in_y), fx = floor(in_x), wy[4], wx[4];
    int64_t yi = (int64_t)fy, xi = (int64_t)fx;
    cubic_weights(f32(in_x - fx), pl->p->cubic_alpha, wx);
    cubic_weights(f32(in_y - fy), pl->p->cubic_alpha, wy);
    if (pl->p->cubic_exclude) {
        exclude_outside(wx, xi, pl->w);
        exclude_outside(wy, yi, pl->h);
    }
    double value = 0;
    for (int j = 0; j < 4; j++) {
        double col = 0;
        for (int i = 0; i < 4; i++)
            col = f32(col + f32(pixel(pl, yi + j - 1, xi + i - 1) * wx[i]));
        value = f32(value + f32(col * wy[j]));
    }
    return value;
}

static double sample(const Plane *pl, const Axis *ay, const Axis *ax, double in_y, double in_x)
{
    switch (pl->p->method) {
    case RESIZE_NEAREST:
        return pixel(pl, closest(pl->p, ay, in_y), closest(pl->p, ax, in_x));
    case RESIZE_LINEAR: {
        double fy = floor(in_y), fx = floor(in_x);
        int64_t yi = (int64_t)fy, xi = (int64_t)fx;
        double ly = f32(in_y - fy), lx = f32(in_x - fx);
        double top = lerp(pixel(pl, yi, xi), pixel(pl, yi, xi + 1), lx);
        double bottom = lerp(pixel(pl, yi + 1, xi), pixel(pl, yi + 1, xi + 1), lx);
        return lerp(top, bottom, ly);
    }
    case RESIZE_CUBIC:
        return cubic(pl, in_y, in_x);
    }
    return 0;
}

static double output_at(const Plane *pl, const Axis *ay, const Axis *ax, int64_t y, int64_t x)
{
    double in_y = input_coord(pl->p, ay, y), in_x = input_coord(pl->p, ax, x);
    if (pl->p->coord == RESIZE_TF_CROP_AND_RESIZE &&
        (in_y < 0 || in_y > (double)(pl->h - 1) || in_x < 0 || in_x > (double)(pl->w - 1)))
        return f32(pl->p->extrapolation_value);
    return sample(pl, ay, ax, in_y, in_x);
}

void kernels_resize2d(const Tensor *data, const ResizeParams *p, Tensor *out)
{
    int hx = p->h_axis, wx = p->w_axis, rank = data->ndim;
    int64_t stride[TENSOR_MAX_NDIM], idx[TENSOR_MAX_NDIM];
    if (out->numel == 0)
        return; /* the other dims may be near 2^63 beside the 0: nothing to sample */
    int64_t step = 1;
    bool over = false; /* only beside a 0 dim of data, whose strides nothing then reads */
    for (int k = rank - 1; k >= 0; k--) {
        stride[k] = step;
        step = checked_mul(step, data->shape[k], &over);
    }
    Plane pl = {data, p, 0, stride[hx], stride[wx], data->shape[hx], data->shape[wx]};
    bool nn_asym = p->method == RESIZE_NEAREST && p->coord == RESIZE_ASYMMETRIC;
    Axis ay = {pl.h, out->shape[hx], p->roi[0], p->roi[2], false};
    Axis ax = {pl.w, out->shape[wx], p->roi[1], p->roi[3], false};
    ay.int_div = nn_asym && integral_upscale(ay.in, ay.target);
    ax.int_div = nn_asym && integral_upscale(ax.in, ax.target);
    const int64_t *os = out->shape;
    for (int64_t i = 0; i < out->numel; i++) {
        int64_t r = i;
        pl.base = 0;
        for (int k = rank - 1; k >= 0; k--) {
            idx[k] = r % os[k];
            r /= os[k];
            if (k != hx && k != wx)
                pl.base += idx[k] * stride[k];
        }
        tensor_set_f64(out, i, output_at(&pl, &ay, &ax, idx[hx], idx[wx]));
    }
}
