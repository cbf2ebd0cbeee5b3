"""The numpy oracle of relax.image.resize2d (a helper of ops_misc.py).

It follows TVM v0.22's python/tvm/topi/image/resize.py (_resize_2d, get_inx,
get_closest_index, _cubic_spline_weights, can_convert_multiply_to_intdiv) as the Relax
legalization (python/tvm/relax/transform/legalize_ops/image.py) calls it: every coordinate and
pixel is a float32 (numpy float32 scalars round each operation), round is half away from zero
(llvm.round), and the value is converted once to the result dtype (integers truncate).
"""

import math

import numpy as np

F = np.float32


def round_half_away(v):
    """tir.round as LLVM lowers it: halves away from zero (NaN and infinities stay)."""
    if not math.isfinite(v):
        return v
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def integral_upscale(size, target):
    """topi's can_convert_multiply_to_intdiv."""
    if size <= 0 or target % size:
        return False
    return target // size <= 1.0 / (1e-5 * size + 1e-5)


def input_coord(mode, x, size, target, start, end, int_div):
    """get_inx: the input coordinate of output index x, in float32."""
    fx, n, t = F(x), F(size), F(target)
    scale = n / t
    if mode == "half_pixel":
        return (fx + F(0.5)) * scale - F(0.5)
    if mode == "align_corners":
        if target <= 1:  # topi divides by zero here: the reference takes 0 (SPEC_NOTES)
            return F(0.0)
        return (F(size - 1) / F(target - 1)) * fx
    if mode == "asymmetric":
        if int_div:
            return F(x // (target // size))
        return scale * fx
    if mode == "pytorch_half_pixel":
        return (fx + F(0.5)) * scale - F(0.5) if target > 1 else F(0.0)
    if mode == "tf_half_pixel_for_nn":
        return (fx + F(0.5)) * scale
    if mode == "tf_crop_and_resize":
        if target <= 1:
            return F(0.5) * (F(start) + F(end)) * F(size - 1)
        return F(start) * F(size - 1) + fx * (F(end) - F(start)) * F(size - 1) / F(target - 1)
    raise ValueError(mode)


def closest_index(v, rounding, mode, int_div):
    """get_closest_index."""
    if int_div:
        return int(v)
    if rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    if rounding == "round":
        return round_half_away(float(v))
    if rounding == "round_prefer_floor":
        return math.ceil(v - F(0.5))
    if rounding == "round_prefer_ceil":
        return math.floor(v + F(0.5))
    if rounding == "floor":
        return math.floor(v + F(1e-5))
    if rounding == "ceil":
        return math.ceil(v - F(1e-5))
    raise ValueError(rounding)


def cubic_weights(t, alpha):
    """_cubic_spline_weights: alpha's sums are Python floats, then float32 constants."""
    t2 = t * t
    t3 = t2 * t
    a = F(alpha)
    return [a * (t3 - F(2) * t2 + t),
            F(alpha + 2) * t3 - F(3 + alpha) * t2 + F(1),
            F(-(alpha + 2)) * t3 + F(3 + 2 * alpha) * t2 - a * t,
            F(-alpha) * t3 + F(alpha) * t2]


def exclude_weights(w, base, n):
    w = [F(0) if (base - 1 + i < 0 or base + i > n) else w[i] for i in range(4)]
    total = F(0)
    for v in w:
        total = total + v
    return [v / total for v in w]


class Image:
    """One (n, c) plane of the input, read as float32 with clamped coordinates."""

    def __init__(self, plane):
        self.plane = plane
        self.h, self.w = plane.shape

    def at(self, y, x):
        y = min(max(y, 0), self.h - 1)
        x = min(max(x, 0), self.w - 1)
        return F(self.plane[y, x])


def sample(img, opt, in_y, in_x, div):
    method = opt["method"]
    if method == "nearest_neighbor":
        yi = closest_index(in_y, opt["rounding_method"], opt["mode"], div[0])
        xi = closest_index(in_x, opt["rounding_method"], opt["mode"], div[1])
        return img.at(yi, xi)
    fy, fx = math.floor(in_y), math.floor(in_x)
    ty, tx = in_y - F(fy), in_x - F(fx)
    if method == "linear":
        def lerp(a, b, t):
            return a * (F(1.0) - t) + b * t
        top = lerp(img.at(fy, fx), img.at(fy, fx + 1), tx)
        bottom = lerp(img.at(fy + 1, fx), img.at(fy + 1, fx + 1), tx)
        return lerp(top, bottom, ty)
    wx = cubic_weights(tx, opt["cubic_alpha"])
    wy = cubic_weights(ty, opt["cubic_alpha"])
    if opt["cubic_exclude"]:
        wx = exclude_weights(wx, fx, img.w)
        wy = exclude_weights(wy, fy, img.h)
    value = F(0)
    for j in range(4):
        col = F(0)
        for i in range(4):
            col = col + img.at(fy + j - 1, fx + i - 1) * wx[i]
        value = value + col * wy[j]
    return value


DEFAULTS = {"layout": "NCHW", "method": "linear", "mode": "half_pixel",
            "rounding_method": "round", "cubic_alpha": -0.75, "cubic_exclude": 0,
            "extrapolation_value": 0.0, "roi": (0.0, 0.0, 0.0, 0.0)}


def layout_axes(layout):
    """The axis letters of a layout as tir::Layout reads it: "NCHW4c" -> N C H W c."""
    letters, digits = [], ""
    for ch in layout:
        if ch.isdigit():
            digits += ch
        else:
            letters.append(ch)
            digits = ""
    return letters


def np_resize2d(x, size, out_dtype=None, **kw):
    """topi.image.resize2d in any layout whose H and W are whole axes (NCHW, NHWC, and topi's
    packed NCHWxc and NCHWinic): every other axis fixes one image, resized on its own as
    _resize_2d's compute indexes (n, c, y, x, cc, inum, ic); returns the result in out_dtype
    (default x's)."""
    opt = dict(DEFAULTS, **kw)
    axes = layout_axes(opt["layout"])
    hx, wx = axes.index("H"), axes.index("W")
    data = np.moveaxis(x, (hx, wx), (-2, -1))
    lead = data.shape[:-2]
    h, w = data.shape[-2:]
    planes = data.reshape((-1, h, w))
    th, tw = size
    asym_nn = opt["method"] == "nearest_neighbor" and opt["mode"] == "asymmetric"
    div = (asym_nn and integral_upscale(h, th), asym_nn and integral_upscale(w, tw))
    roi = opt["roi"]
    out = np.zeros((planes.shape[0], th, tw), dtype=np.float64)
    for k in range(planes.shape[0]):
        img = Image(planes[k])
        for y in range(th):
            in_y = input_coord(opt["mode"], y, h, th, roi[0], roi[2], div[0])
            for xx in range(tw):
                in_x = input_coord(opt["mode"], xx, w, tw, roi[1], roi[3], div[1])
                if opt["mode"] == "tf_crop_and_resize" and (
                        in_y < 0 or in_y > h - 1 or in_x < 0 or in_x > w - 1):
                    v = F(opt["extrapolation_value"])
                else:
                    v = sample(img, opt, in_y, in_x, div)
                out[k, y, xx] = float(v)
    out = np.moveaxis(out.reshape(lead + (th, tw)), (-2, -1), (hx, wx))
    dtype = np.dtype(out_dtype or x.dtype)
    if dtype.kind in "iu":
        return np.trunc(out).astype(dtype)
    return out.astype(dtype)
