"""Conformance cases of the sliding-window nn operators beyond conv2d and pool2d: conv1d,
conv3d, conv1d_transpose, conv2d_transpose, max/avg_pool1d/3d and adaptive_avg_pool1d/2d/3d;
and the layouts of every convolution and pool, conv2d and pool2d included: permuted and
packed (NCHW4c, OIHW4o4i), out_layout unlike the data's, symbolic dims, rejected layouts.

numpy is the oracle: TVM's formulas (topi conv/pool, Relax's output-shape inference) written
out in float64 (or exact integers) and rounded once. `cases()` returns the case dicts the
driver (gen_ops.py) writes to spec-tests/ops/window.yaml.
"""

import itertools

import gen_ops as g
import numpy as np
from ops_nn import ann, error_case, floats, sinfo, sinfo_case, tensor, value_case

SEED = 20261126
FILE = "window"


# ---- layouts --------------------------------------------------------------------------------

def to_canonical(arr, layout, canonical):
    """The array moved from `layout` to `canonical` axis order."""
    return np.transpose(arr, [layout.index(c) for c in canonical])


def from_canonical(arr, layout, canonical):
    return np.transpose(arr, [canonical.index(c) for c in layout])


# TVM's packed layouts (src/tir/ir/data_layout.cc, tir::Layout and tir::BijectiveLayout): an
# upper-case letter is a primal axis, a factor and a lower-case letter a sub-axis splitting it;
# canonical index = primal index times the product of the sub-axes' factors plus the sub-axes'
# indices in mixed radix, in the order they are written. Here the conversion is a transpose
# that gathers each canonical axis' layout axes (primal first) and a reshape that merges them.

def parse_layout(layout):
    """[(letter, factor)] with factor 0 for a primal axis; trailing digits are ignored."""
    axes, f = [], 0
    for ch in layout:
        if ch.isdigit():
            f = f * 10 + int(ch)
        else:
            axes.append((ch, f if ch.islower() else 0))
            f = 0
    return axes


def packed_groups(layout, canonical):
    """Per canonical letter, the layout axes that make it up: the primal one, then the
    sub-axes in their order."""
    axes = parse_layout(layout)
    return [[i for i, (ch, f) in enumerate(axes) if ch == x and f == 0] +
            [i for i, (ch, f) in enumerate(axes) if ch == x.lower()] for x in canonical]


def packed_to_canonical(arr, layout, canonical):
    groups = packed_groups(layout, canonical)
    order = [i for g in groups for i in g]
    shape = [int(np.prod([arr.shape[i] for i in g])) for g in groups]
    return np.transpose(arr, order).reshape(shape)


def packed_from_canonical(arr, layout, canonical):
    """The inverse; a canonical extent the factors do not divide is padded with zeros (the
    layout's primal extent is the ceildiv), as topi's layout_transform pads."""
    axes = parse_layout(layout)
    groups = packed_groups(layout, canonical)
    split_shape, pads = [], []
    for k, g in enumerate(groups):
        factors = [axes[i][1] for i in g[1:]]
        split = int(np.prod(factors)) if factors else 1
        outer = -(-arr.shape[k] // split)
        pads.append((0, outer * split - arr.shape[k]))
        split_shape += [outer] + factors
    blocked = np.pad(arr, pads).reshape(split_shape)
    order = [i for g in groups for i in g]
    return np.transpose(blocked, np.argsort(order))


# ---- oracles (canonical layouts) ------------------------------------------------------------

def out_extent(n, k, s, d, pads, ceil_mode=False):
    num = n + pads - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    return num // s + 1


def np_conv(x, w, strides, pad_lo, pad_hi, dilation, groups, integer=False):
    """topi convolution: out[n, o, y] = sum over the group's channels c and taps k of
    x[n, g C' + c, y s - pad + k d] w[o, c, k], padded taps zero."""
    nsp = x.ndim - 2
    cin_pg, cout_pg = w.shape[1], w.shape[0] // groups
    outs = [out_extent(x.shape[2 + a], w.shape[2 + a], strides[a], dilation[a],
                       pad_lo[a] + pad_hi[a]) for a in range(nsp)]
    res = np.zeros((x.shape[0], w.shape[0]) + tuple(outs), dtype=object if integer else np.float64)
    for n, o in itertools.product(range(x.shape[0]), range(w.shape[0])):
        g = o // cout_pg
        for pos in itertools.product(*[range(e) for e in outs]):
            acc = 0 if integer else 0.0
            for c in range(cin_pg):
                for k in itertools.product(*[range(e) for e in w.shape[2:]]):
                    src = [pos[a] * strides[a] - pad_lo[a] + k[a] * dilation[a] for a in range(nsp)]
                    if all(0 <= src[a] < x.shape[2 + a] for a in range(nsp)):
                        xv = x[(n, g * cin_pg + c) + tuple(src)]
                        acc += int(xv) * int(w[(o, c) + k]) if integer else float(xv) * float(w[(o, c) + k])
            res[(n, o) + pos] = acc
    return res


def np_conv_transpose(x, w, strides, pad_lo, pad_hi, out_pad, dilation, groups):
    """The transposed convolution as a scatter: input x[n, c, i] adds x w[c, o', k] to
    out[n, g O' + o', i s - pad + k d], kept when inside the output of extent
    (in - 1) s - pads + d (k - 1) + out_pad + 1."""
    nsp = x.ndim - 2
    cin_pg, cout_pg = x.shape[1] // groups, w.shape[1]
    outs = [(x.shape[2 + a] - 1) * strides[a] - pad_lo[a] - pad_hi[a] +
            dilation[a] * (w.shape[2 + a] - 1) + out_pad[a] + 1 for a in range(nsp)]
    res = np.zeros((x.shape[0], cout_pg * groups) + tuple(outs))
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        g = c // cin_pg
        for i in itertools.product(*[range(e) for e in x.shape[2:]]):
            for op in range(cout_pg):
                for k in itertools.product(*[range(e) for e in w.shape[2:]]):
                    dst = [i[a] * strides[a] - pad_lo[a] + k[a] * dilation[a] for a in range(nsp)]
                    if all(0 <= dst[a] < outs[a] for a in range(nsp)):
                        res[(n, g * cout_pg + op) + tuple(dst)] += (
                            float(x[(n, c) + i]) * float(w[(c, op) + k]))
    return res


def pool_extent(n, k, s, d, lo, hi, ceil_mode):
    """The pooled extent; in ceil mode a last window starting inside the back padding is
    dropped (the rule pool2d follows, TVM's after v0.22)."""
    out = out_extent(n, k, s, d, lo + hi, ceil_mode)
    if ceil_mode and (out - 1) * s >= n + lo:
        out -= 1
    return out


def np_pool(x, kind, size, strides, pad_lo, pad_hi, dilation, ceil_mode, count_include_pad):
    nsp = x.ndim - 2
    outs = [pool_extent(x.shape[2 + a], size[a], strides[a], dilation[a], pad_lo[a], pad_hi[a],
                        ceil_mode) for a in range(nsp)]
    res = np.zeros(x.shape[:2] + tuple(outs))
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for pos in itertools.product(*[range(e) for e in outs]):
            taps, padded = [], 1
            axes = []
            for a in range(nsp):
                cand = [pos[a] * strides[a] - pad_lo[a] + t * dilation[a] for t in range(size[a])]
                padded *= sum(1 for v in cand if -pad_lo[a] <= v < x.shape[2 + a] + pad_hi[a])
                axes.append([v for v in cand if 0 <= v < x.shape[2 + a]])
            taps = [float(x[(n, c) + p]) for p in itertools.product(*axes)]
            if kind == "max":
                res[(n, c) + pos] = max(taps)
            else:
                res[(n, c) + pos] = sum(taps) / (padded if count_include_pad else len(taps))
    return res


def np_adaptive(x, size):
    nsp = x.ndim - 2
    res = np.zeros(x.shape[:2] + tuple(size))
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for pos in itertools.product(*[range(e) for e in size]):
            ranges = []
            for a in range(nsp):
                lo = (pos[a] * x.shape[2 + a]) // size[a]
                hi = -((-(pos[a] + 1) * x.shape[2 + a]) // size[a])
                ranges.append(range(lo, hi))
            taps = [float(x[(n, c) + p]) for p in itertools.product(*ranges)]
            res[(n, c) + pos] = sum(taps) / len(taps)
    return res


# ---- cases ----------------------------------------------------------------------------------

def p2(x, w):
    return [("x", ann(x.shape, "float32")), ("w", ann(w.shape, "float32"))]


def conv1d_cases(rng):
    op, out = "nn.conv1d", []
    x, w = floats(rng, (1, 2, 7)), floats(rng, (3, 2, 3))
    out.append(value_case(op, "stride-pad", "conv1d with stride 2 and padding 1 on each side.",
                          p2(x, w), "R.nn.conv1d(x, w, strides=2, padding=1)",
                          [tensor(x, "float32"), tensor(w, "float32")],
                          tensor(np_conv(x, w, [2], [1], [1], [1], 1), "float32")))
    x, w = floats(rng, (2, 6, 4)), floats(rng, (2, 3, 4))
    xl, wl = to_canonical(x, "NCW", "NWC"), to_canonical(w, "OIW", "WIO")
    ref = np_conv(x, w, [1], [2], [1], [2], 2)
    out.append(value_case(op, "nwc-groups-dilation", "conv1d in NWC/WIO layouts with 2 groups, "
                          "dilation 2 and padding (2, 1).",
                          [("x", ann(xl.shape, "float32")), ("w", ann(wl.shape, "float32"))],
                          'R.nn.conv1d(x, w, padding=[2, 1], dilation=2, groups=2, '
                          'data_layout="NWC", kernel_layout="WIO")',
                          [tensor(xl, "float32"), tensor(wl, "float32")],
                          tensor(to_canonical(ref, "NCW", "NWC"), "float32")))
    # Padding wider than the input on both sides: the first outputs read only padding, and
    # a tap reaches the input only from the output where k d - pad + o s enters it.
    xt = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
    wt = np.array([[[1.0, 2.0], [4.0, 8.0]]])
    out.append(value_case(op, "pad-wider-than-input", "conv1d of width 2 by a width-2 kernel "
                          "with padding (3, 3): 7 outputs, the first two and the last two made "
                          "of padding only (0), the middle ones x0 w1, x0 w0 + x1 w1, x1 w0 "
                          "summed over the channels.",
                          p2(xt, wt), "R.nn.conv1d(x, w, padding=[3, 3])",
                          [tensor(xt, "float32"), tensor(wt, "float32")],
                          tensor(np_conv(xt, wt, [1], [3], [3], [1], 1), "float32")))
    xi, wi = rng.integers(-9, 10, (1, 2, 5)), rng.integers(-9, 10, (2, 2, 2))
    out.append(value_case(op, "int32", "conv1d of int32 tensors is exact.",
                          [("x", ann(xi.shape, "int32")), ("w", ann(wi.shape, "int32"))],
                          "R.nn.conv1d(x, w)", [tensor(xi, "int32"), tensor(wi, "int32")],
                          tensor(np_conv(xi, wi, [1], [0], [0], [1], 1, True), "int32")))
    out.append(sinfo_case(op, "symbolic", "conv1d of (n, 4, w) by 8 kernels of width 3, stride "
                          "2 and padding 1: width (w + 2 - 3) // 2 + 1.",
                          [("x", ann(("n", 4, "w"), "float32")), ("k", ann((8, 4, 3), "float32"))],
                          "R.nn.conv1d(x, k, strides=2, padding=1)",
                          sinfo(("n", 8, "(w - 1) // 2 + 1"), "float32")))
    out.append(sinfo_case(op, "out-layout", "conv1d with out_layout NWC puts the channels last.",
                          [("x", ann((2, 4, 12), "float32")), ("k", ann((8, 4, 3), "float32"))],
                          'R.nn.conv1d(x, k, out_layout="NWC", out_dtype="float64")',
                          sinfo((2, 10, 8), "float64")))
    out.append(error_case(op, "channels", "conv1d whose data has 3 channels and weight 4 input "
                          "channels is rejected.",
                          [("x", ann((1, 3, 8), "float32")), ("w", ann((2, 4, 3), "float32"))],
                          "R.nn.conv1d(x, w)", "OpShapeMismatch"))
    out.append(error_case(op, "layout", "conv1d with a data layout that is no permutation of "
                          "NCW is rejected.",
                          [("x", ann((1, 3, 8), "float32")), ("w", ann((2, 3, 3), "float32"))],
                          'R.nn.conv1d(x, w, data_layout="NCH")', "OpAttr"))
    return out


def conv3d_cases(rng):
    op, out = "nn.conv3d", []
    x, w = floats(rng, (1, 2, 3, 4, 4)), floats(rng, (2, 2, 2, 3, 2))
    out.append(value_case(op, "pad", "conv3d with padding (0, 1, 1) on both sides and strides "
                          "(1, 2, 1).", p2(x, w), "R.nn.conv3d(x, w, strides=[1, 2, 1], "
                          "padding=[0, 1, 1])", [tensor(x, "float32"), tensor(w, "float32")],
                          tensor(np_conv(x, w, [1, 2, 1], [0, 1, 1], [0, 1, 1], [1, 1, 1], 1),
                                 "float32")))
    x, w = floats(rng, (1, 2, 3, 3, 3)), floats(rng, (4, 2, 2, 2, 2))
    xl, wl = to_canonical(x, "NCDHW", "NDHWC"), to_canonical(w, "OIDHW", "DHWIO")
    ref = np_conv(x, w, [1, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 1], 1)
    out.append(value_case(op, "ndhwc", "conv3d in NDHWC/DHWIO layouts with six padding values.",
                          [("x", ann(xl.shape, "float32")), ("w", ann(wl.shape, "float32"))],
                          'R.nn.conv3d(x, w, padding=[1, 0, 0, 0, 0, 1], data_layout="NDHWC", '
                          'kernel_layout="DHWIO")', [tensor(xl, "float32"), tensor(wl, "float32")],
                          tensor(to_canonical(ref, "NCDHW", "NDHWC"), "float32")))
    out.append(sinfo_case(op, "symbolic", "conv3d of (1, 2, d, h, w) by 3x3x3 kernels with "
                          "padding 1 keeps the spatial dims.",
                          [("x", ann((1, 2, "d", "h", "w"), "float32")),
                           ("k", ann((5, 2, 3, 3, 3), "float32"))],
                          "R.nn.conv3d(x, k, padding=1)", sinfo((1, 5, "d", "h", "w"), "float32")))
    out.append(error_case(op, "rank", "conv3d of a rank-4 tensor is rejected.",
                          [("x", ann((1, 2, 4, 4), "float32")), ("w", ann((2, 2, 1, 1, 1), "float32"))],
                          "R.nn.conv3d(x, w)", "OpShapeMismatch"))
    return out


def conv_t_cases(rng):
    out = []
    op = "nn.conv1d_transpose"
    x, w = floats(rng, (1, 2, 4)), floats(rng, (2, 3, 3))
    ref = np_conv_transpose(x, w, [2], [1], [1], [1], [1], 1)
    out.append(value_case(op, "stride-outpad", "conv1d_transpose with stride 2, padding 1 and "
                          "output_padding 1: width (4 - 1) 2 - 2 + 2 + 1 + 1 = 8.", p2(x, w),
                          "R.nn.conv1d_transpose(x, w, strides=2, padding=1, output_padding=1)",
                          [tensor(x, "float32"), tensor(w, "float32")], tensor(ref, "float32")))
    x, w = floats(rng, (1, 4, 3)), floats(rng, (4, 1, 2))
    ref = np_conv_transpose(x, w, [1], [0], [0], [0], [1], 2)
    out.append(value_case(op, "groups", "conv1d_transpose with 2 groups: 4 input channels, 2 "
                          "output channels.", p2(x, w), "R.nn.conv1d_transpose(x, w, groups=2)",
                          [tensor(x, "float32"), tensor(w, "float32")], tensor(ref, "float32")))
    out.append(sinfo_case(op, "symbolic", "conv1d_transpose of width w, kernel 3, stride 2: "
                          "width w * 2 + 1.",
                          [("x", ann(("n", 4, "w"), "float32")), ("k", ann((4, 6, 3), "float32"))],
                          "R.nn.conv1d_transpose(x, k, strides=2)",
                          sinfo(("n", 6, "w * 2 + 1"), "float32")))
    out.append(sinfo_case(op, "symbolic-padding", "conv1d_transpose of width w, kernel 3, "
                          "stride 2, padding 1 on both sides: (w - 1) 2 - 2 + 2 + 1 = w * 2 - 1.",
                          [("x", ann(("n", 4, "w"), "float32")), ("k", ann((4, 6, 3), "float32"))],
                          "R.nn.conv1d_transpose(x, k, strides=2, padding=1)",
                          sinfo(("n", 6, "w * 2 - 1"), "float32")))
    out.append(error_case(op, "outpad", "conv1d_transpose with output_padding not below the "
                          "stride is rejected.",
                          [("x", ann((1, 2, 4), "float32")), ("w", ann((2, 2, 3), "float32"))],
                          "R.nn.conv1d_transpose(x, w, strides=2, output_padding=2)", "OpAttr"))
    op = "nn.conv2d_transpose"
    x, w = floats(rng, (1, 2, 3, 3)), floats(rng, (2, 2, 3, 3))
    ref = np_conv_transpose(x, w, [2, 2], [1, 0], [1, 1], [1, 0], [1, 1], 1)
    out.append(value_case(op, "stride-outpad", "conv2d_transpose with stride 2, padding (1, 0, "
                          "1, 1) and output_padding (1, 0).", p2(x, w),
                          "R.nn.conv2d_transpose(x, w, strides=2, padding=[1, 0, 1, 1], "
                          "output_padding=[1, 0])", [tensor(x, "float32"), tensor(w, "float32")],
                          tensor(ref, "float32")))
    x, w = floats(rng, (1, 4, 3, 2)), floats(rng, (4, 1, 2, 2))
    ref = np_conv_transpose(x, w, [1, 1], [0, 0], [0, 0], [0, 0], [2, 1], 2)
    xl, wl = to_canonical(x, "NCHW", "NHWC"), to_canonical(w, "IOHW", "HWOI")
    out.append(value_case(op, "nhwc-groups-dilation", "conv2d_transpose in NHWC/HWOI layouts "
                          "with 2 groups and dilation (2, 1).",
                          [("x", ann(xl.shape, "float32")), ("w", ann(wl.shape, "float32"))],
                          'R.nn.conv2d_transpose(x, w, dilation=[2, 1], groups=2, '
                          'data_layout="NHWC", kernel_layout="HWOI")',
                          [tensor(xl, "float32"), tensor(wl, "float32")],
                          tensor(to_canonical(ref, "NCHW", "NHWC"), "float32")))
    out.append(sinfo_case(op, "static", "conv2d_transpose of 4x5 by a 3x3 kernel, stride 2, "
                          "padding 1: 7x9, 3 output channels of 3 groups of 1.",
                          [("x", ann((2, 6, 4, 5), "float32")), ("k", ann((6, 1, 3, 3), "float32"))],
                          "R.nn.conv2d_transpose(x, k, strides=2, padding=1, groups=3)",
                          sinfo((2, 3, 7, 9), "float32")))
    out.append(error_case(op, "channels", "conv2d_transpose whose data has 3 channels and weight "
                          "4 input channels is rejected.",
                          [("x", ann((1, 3, 4, 4), "float32")), ("w", ann((4, 2, 3, 3), "float32"))],
                          "R.nn.conv2d_transpose(x, w)", "OpShapeMismatch"))
    return out


def pool_cases(rng):
    out = []
    for kind in ("max", "avg"):
        op = "nn.%s_pool1d" % kind
        x = floats(rng, (1, 2, 7))
        ref = np_pool(x, kind, [3], [2], [1], [1], [1], False, kind == "avg")
        out.append(value_case(op, "pad", "%s_pool1d with windows of 3, stride 2 and padding 1 "
                              "(the constructor's count_include_pad default)." % kind,
                              [("x", ann(x.shape, "float32"))],
                              "R.nn.%s_pool1d(x, pool_size=3, strides=2, padding=1)" % kind,
                              [tensor(x, "float32")], tensor(ref, "float32")))
        x = floats(rng, (2, 6, 3))
        ref = np_pool(x, kind, [2], [2], [0], [0], [2], True, False)
        out.append(value_case(op, "nwc-ceil", "%s_pool1d in NWC with dilation 2, stride 2 and "
                              "ceil mode." % kind, [("x", ann((2, 3, 6), "float32"))],
                              '%s(x, pool_size=2, strides=2, dilation=2, ceil_mode=True, '
                              'count_include_pad=False, layout="NWC")' % ("R.nn.%s_pool1d" % kind),
                              [tensor(to_canonical(x, "NCW", "NWC"), "float32")],
                              tensor(to_canonical(ref, "NCW", "NWC"), "float32")))
        out.append(sinfo_case(op, "symbolic", "%s_pool1d of width w, window 3, stride 2: "
                              "(w - 3) // 2 + 1." % kind, [("x", ann(("n", 4, "w"), "float32"))],
                              "R.nn.%s_pool1d(x, pool_size=3, strides=2)" % kind,
                              sinfo(("n", 4, "(w - 3) // 2 + 1"), "float32")))
        case = sinfo_case(op, "ceil-drop", "%s_pool1d in ceil mode drops a last window that "
                          "would start in the back padding: width 4, window 1, stride 2, "
                          "padding (0, 1) gives %d, not 3." % (kind, pool_extent(4, 1, 2, 1, 0, 1, True)),
                          [("x", ann((1, 1, 4), "float32"))],
                          "R.nn.%s_pool1d(x, strides=2, padding=[0, 1], ceil_mode=True)" % kind,
                          sinfo((1, 1, pool_extent(4, 1, 2, 1, 0, 1, True)), "float32"))
        case["tags"] = ["tvm-bug", "tvm-fixed-v0.23"]
        out.append(case)
        case = sinfo_case(op, "ceil-symbolic", "%s_pool1d in ceil mode over a symbolic width "
                          "leaves the rank only (as max_pool2d)." % kind,
                          [("x", ann(("n", 4, "w"), "float32"))],
                          "R.nn.%s_pool1d(x, pool_size=2, strides=2, ceil_mode=True)" % kind,
                          sinfo(3, "float32"))
        case["tags"] = ["tvm-bug", "tvm-fixed-v0.23"]
        out.append(case)
        out.append(error_case(op, "rank", "%s_pool1d of a rank-4 tensor is rejected." % kind,
                              [("x", ann((1, 2, 3, 4), "float32"))],
                              "R.nn.%s_pool1d(x)" % kind, "OpShapeMismatch"))
        op = "nn.%s_pool3d" % kind
        x = floats(rng, (1, 2, 3, 4, 4))
        ref = np_pool(x, kind, [2, 2, 2], [1, 2, 2], [0, 1, 1], [1, 1, 0], [1, 1, 1], False,
                      kind == "avg")
        out.append(value_case(op, "pad", "%s_pool3d with 2x2x2 windows, strides (1, 2, 2) and six "
                              "padding values." % kind, [("x", ann(x.shape, "float32"))],
                              "R.nn.%s_pool3d(x, pool_size=2, strides=[1, 2, 2], "
                              "padding=[0, 1, 1, 1, 1, 0])" % kind,
                              [tensor(x, "float32")], tensor(ref, "float32")))
        x = floats(rng, (1, 2, 4, 3, 3))
        ref = np_pool(x, kind, [3, 1, 2], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], False, False)
        xl = to_canonical(x, "NCDHW", "NDHWC")
        out.append(value_case(op, "ndhwc", "%s_pool3d in NDHWC with windows (3, 1, 2)." % kind,
                              [("x", ann(xl.shape, "float32"))],
                              'R.nn.%s_pool3d(x, pool_size=[3, 1, 2], layout="NDHWC")' % kind,
                              [tensor(xl, "float32")],
                              tensor(to_canonical(ref, "NCDHW", "NDHWC"), "float32")))
        out.append(error_case(op, "pool-size", "%s_pool3d with two pool sizes is rejected." % kind,
                              [("x", ann((1, 2, 4, 4, 4), "float32"))],
                              "R.nn.%s_pool3d(x, pool_size=[2, 2])" % kind, "OpAttr"))
    return out


def adaptive_cases(rng):
    out = []
    specs = [(1, "NCW", "NWC", (1, 2, 7), [3]), (2, "NCHW", "NHWC", (1, 2, 5, 7), [2, 3]),
             (3, "NCDHW", "NDHWC", (1, 1, 3, 5, 4), [2, 2, 3])]
    for nsp, canon, other, shape, size in specs:
        op = "nn.adaptive_avg_pool%dd" % nsp
        call = "R.nn.adaptive_avg_pool%dd" % nsp
        x = floats(rng, shape)
        size_text = str(size[0]) if nsp == 1 else "[%s]" % ", ".join(map(str, size))
        out.append(value_case(op, "uneven", "%s to %s: bins [floor(i n / m), ceil((i + 1) n / "
                              "m)) overlap where n is no multiple of m." % (op[3:], size),
                              [("x", ann(shape, "float32"))],
                              "%s(x, output_size=%s)" % (call, size_text),
                              [tensor(x, "float32")], tensor(np_adaptive(x, size), "float32")))
        xl = to_canonical(x, canon, other)
        ones = [1] * nsp
        out.append(value_case(op, "global-" + other.lower(), "%s to size 1 in %s: the mean of "
                              "each channel." % (op[3:], other), [("x", ann(xl.shape, "float32"))],
                              '%s(x, 1, layout="%s")' % (call, other), [tensor(xl, "float32")],
                              tensor(to_canonical(np_adaptive(x, ones), canon, other), "float32")))
        sym = ("n", "c") + tuple("s%d" % a for a in range(nsp))
        out.append(sinfo_case(op, "none", "%s without output_size keeps every dim; out_layout "
                              "%s moves the channels last." % (op[3:], other),
                              [("x", ann(sym, "float32"))],
                              '%s(x, out_layout="%s")' % (call, other),
                              sinfo(("n",) + sym[2:] + ("c",), "float32")))
        out.append(error_case(op, "layout", "%s with a layout of the wrong rank is rejected." %
                              op[3:], [("x", ann(shape, "float32"))],
                              '%s(x, layout="%s")' % (call, canon + "X"), "OpAttr"))
    return out


# ---- layouts --------------------------------------------------------------------------------

def in_layout(arr, layout, canonical):
    return packed_from_canonical(arr, layout, canonical)


def conv_layout_case(rng, op, cid, desc, shapes, layouts, kw="", extra=None):
    """A value case of a convolution whose data, weight and result are in the given layouts
    (data, kernel, out); the oracle computes in the canonical ones."""
    canon_d, canon_k = {"nn.conv1d": ("NCW", "OIW"), "nn.conv2d": ("NCHW", "OIHW"),
                        "nn.conv3d": ("NCDHW", "OIDHW")}[op]
    dl, kl, ol = layouts
    x, w = floats(rng, shapes[0]), floats(rng, shapes[1])
    nsp = len(canon_d) - 2
    p = extra or {}
    ref = np_conv(x, w, p.get("strides", [1] * nsp), p.get("pad", [0] * nsp),
                  p.get("pad", [0] * nsp), p.get("dilation", [1] * nsp), p.get("groups", 1))
    xl, wl = in_layout(x, dl, canon_d), in_layout(w, kl, canon_k)
    attrs = 'data_layout="%s", kernel_layout="%s"' % (dl, kl)
    if ol != dl:
        attrs += ', out_layout="%s"' % ol
    return value_case(op, cid, desc, [("x", ann(xl.shape, "float32")), ("w", ann(wl.shape, "float32"))],
                      "R.%s(x, w%s, %s)" % (op, kw, attrs),
                      [tensor(xl, "float32"), tensor(wl, "float32")],
                      tensor(in_layout(ref, ol, canon_d), "float32"))


def conv2d_layout_values(rng):
    op = "nn.conv2d"
    return [
        conv_layout_case(rng, op, "nhwc-ohwi", "conv2d in NHWC data and OHWI kernel layouts "
                         "with stride 2 and padding 1: the result is NHWC.",
                         [(1, 3, 5, 5), (4, 3, 3, 3)], ("NHWC", "OHWI", "NHWC"),
                         ", strides=2, padding=1", {"strides": [2, 2], "pad": [1, 1]}),
        conv_layout_case(rng, op, "nhwc-hwio-to-nchw", "conv2d of NHWC data by an HWIO kernel "
                         "with out_layout NCHW: the result comes back channels first.",
                         [(2, 2, 4, 3), (3, 2, 2, 2)], ("NHWC", "HWIO", "NCHW")),
        conv_layout_case(rng, op, "nchw4c-oihw4o4i", "conv2d in the packed layouts NCHW4c and "
                         "OIHW4o4i (channel 4 C + c at [n, C, h, w, c]), two groups.",
                         [(1, 8, 4, 4), (8, 4, 3, 3)], ("NCHW4c", "OIHW4o4i", "NCHW4c"),
                         ", groups=2", {"groups": 2}),
        conv_layout_case(rng, op, "packed-to-nhwc", "conv2d of NCHW4c data by an OIHW4i kernel "
                         "with out_layout NHWC.", [(1, 4, 3, 3), (2, 4, 2, 2)],
                         ("NCHW4c", "OIHW4i", "NHWC")),
        conv_layout_case(rng, op, "n2n-c2c2c", "conv2d with out_layout N2nHWC2c2c: a batch "
                         "sub-axis and two channel sub-axes (C = 4 C' + 2 c + c').",
                         [(2, 2, 3, 3), (8, 2, 2, 2)], ("NCHW", "OIHW", "N2nHWC2c2c")),
        conv_layout_case(rng, op, "subaxis-first", "conv2d in N4cHWC and O4oHWI: a sub-axis "
                         "may stand before its primal axis (channel 4 C + c at [n, c, h, w, C]).",
                         [(1, 8, 3, 3), (8, 8, 2, 2)], ("N4cHWC", "O4oHWI", "N4cHWC")),
        conv_layout_case(rng, op, "out-factor-pads", "conv2d of 6 output channels into "
                         "out_layout NCHW4c: ceildiv(6, 4) = 2 blocks, the last two lanes of "
                         "the second zero (as topi's layout_transform pads).",
                         [(1, 2, 3, 3), (6, 2, 2, 2)], ("NCHW", "OIHW", "NCHW4c")),
    ]


def conv2d_layout_statics():
    op = "nn.conv2d"
    x4, w4 = ("x", ann((1, 8, 5, 5), "float32")), ("w", ann((8, 8, 3, 3), "float32"))
    bad = [
        ("unknown-letter", "conv2d with data layout NCHWX (X is no axis of NCHW) is rejected.",
         'data_layout="NCHWX"'),
        ("kernel-layout", "conv2d with kernel_layout NCHW, which does not convert to OIHW, is "
         "rejected.", 'kernel_layout="NCHW"'),
        ("factor-first", "conv2d with data layout NC4HW (a factor before a primal axis) is "
         "rejected.", 'data_layout="NC4HW"'),
        ("no-factor", "conv2d with data layout NCHWc (a sub-axis without a factor) is "
         "rejected.", 'data_layout="NCHWc"'),
        ("orphan-subaxis", "conv2d with out_layout NCHW4d (a sub-axis of an axis the layout "
         "lacks) is rejected.", 'out_layout="NCHW4d"'),
        ("missing-axis", "conv2d with out_layout NCW (no H) is rejected.", 'out_layout="NCW"'),
        ("bad-char", "conv2d with data layout N_CHW is rejected.", 'data_layout="N_CHW"'),
    ]
    out = [error_case(op, "layout-" + cid, desc, [x4, w4], "R.nn.conv2d(x, w, %s)" % kw, "OpAttr")
           for cid, desc, kw in bad]
    case = error_case(op, "layout-twice", "conv2d with data layout NCCHW (C twice) is "
                      "rejected; TVM v0.22 accepts it and sums the two channel dims.",
                      [("x", ann((1, 4, 4, 5, 5), "float32")), w4],
                      'R.nn.conv2d(x, w, data_layout="NCCHW")', "OpAttr")
    case["tags"] = ["tvm-bug"]
    out.append(case)
    out += [
        error_case(op, "subaxis-dim", "conv2d with data layout NCHW4c whose last dim is 3, not "
                   "the factor 4, is rejected.",
                   [("x", ann((1, 2, 5, 5, 3), "float32")), w4],
                   'R.nn.conv2d(x, w, data_layout="NCHW4c")', "OpShapeMismatch"),
        error_case(op, "packed-rank", "conv2d with data layout NCHW4c needs a rank-5 tensor.",
                   [x4, w4], 'R.nn.conv2d(x, w, data_layout="NCHW4c")', "OpShapeMismatch"),
        error_case(op, "subaxis-runtime", "conv2d with data layout NCHW4c whose symbolic last "
                   "dim turns out to be 2 at run time fails its precondition.",
                   [("x", ann((1, 2, 3, 3, "c"), "float32")), ("w", ann((2, 8, 1, 1), "float32"))],
                   'R.nn.conv2d(x, w, data_layout="NCHW4c")', "OpPrecondition",
                   [tensor(np.zeros((1, 2, 3, 3, 2)), "float32"),
                    tensor(np.zeros((2, 8, 1, 1)), "float32")]),
        sinfo_case(op, "packed-symbolic", "conv2d of NCHW4c data (n, c, h, w, 4) by (o, i, 3, "
                   "3): channels o become ceildiv(o, 4) = (o + 3) // 4 blocks of 4.",
                   [("x", ann(("n", "c", "h", "w", 4), "float32")),
                    ("k", ann(("o", "i", 3, 3), "float32"))],
                   'R.nn.conv2d(x, k, data_layout="NCHW4c")',
                   sinfo(("n", "(o + 3) // 4", "h - 2", "w - 2", 4), "float32")),
        sinfo_case(op, "packed-kernel-symbolic", "conv2d by an OIHW4o kernel (o, i, 3, 3, 4) "
                   "into NCHW8c: 4 o output channels make (o * 4 + 7) // 8 blocks of 8.",
                   [("x", ann(("n", "c", "h", "w"), "float32")),
                    ("k", ann(("o", "i", 3, 3, 4), "float32"))],
                   'R.nn.conv2d(x, k, kernel_layout="OIHW4o", out_layout="NCHW8c")',
                   sinfo(("n", "(o * 4 + 7) // 8", "h - 2", "w - 2", 8), "float32")),
        sinfo_case(op, "packed-symbolic-subaxis", "conv2d of NCHW4c data whose sub-axis dim is "
                   "symbolic: TVM trusts it and the channels are c * 4.",
                   [("x", ann((1, "c", 6, 6, "b"), "float32")), ("k", ann((3, 8, 3, 3), "float32"))],
                   'R.nn.conv2d(x, k, data_layout="NCHW4c", out_layout="NHWC")',
                   sinfo((1, 4, 4, 3), "float32")),
        sinfo_case(op, "packed-ndim", "conv2d of NCHW4c data of unknown shape into NHWC: the "
                   "rank of the output layout only.",
                   [("x", 'R.Tensor(dtype="float32", ndim=5)'), w4],
                   'R.nn.conv2d(x, w, data_layout="NCHW4c", out_layout="NHWC")',
                   sinfo(4, "float32")),
        sinfo_case(op, "trailing-digits", "conv2d with data layout NCHW4: the digits after the "
                   "last axis are ignored, as tir::Layout ignores them.", [x4, w4],
                   'R.nn.conv2d(x, w, data_layout="NCHW4")', sinfo((1, 8, 3, 3), "float32")),
    ]
    return out


def pool_layout_cases(rng):
    out = []
    for kind in ("max", "avg"):
        op, call = "nn.%s_pool2d" % kind, "R.nn.%s_pool2d" % kind
        x = floats(rng, (1, 3, 5, 4))
        ref = np_pool(x, kind, [2, 2], [1, 2], [1, 0], [0, 1], [1, 1], False, False)
        xl = in_layout(x, "NHWC", "NCHW")
        out.append(value_case(op, "nhwc", "%s_pool2d in NHWC with padding (1, 0, 0, 1)." % kind,
                              [("x", ann(xl.shape, "float32"))],
                              '%s(x, pool_size=2, strides=[1, 2], padding=[1, 0, 0, 1], '
                              'layout="NHWC")' % call, [tensor(xl, "float32")],
                              tensor(in_layout(ref, "NHWC", "NCHW"), "float32")))
        x = floats(rng, (1, 8, 4, 4))
        ref = np_pool(x, kind, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], True, True)
        xl = in_layout(x, "NCHW4c", "NCHW")
        out.append(value_case(op, "nchw4c", "%s_pool2d in NCHW4c with 3x3 windows, stride 2, "
                              "padding 1, ceil mode, count_include_pad." % kind,
                              [("x", ann(xl.shape, "float32"))],
                              '%s(x, pool_size=3, strides=2, padding=1, ceil_mode=True, '
                              'count_include_pad=True, layout="NCHW4c")' % call,
                              [tensor(xl, "float32")],
                              tensor(in_layout(ref, "NCHW4c", "NCHW"), "float32")))
        x = floats(rng, (2, 4, 3, 3))
        ref = np_pool(x, kind, [2, 2], [1, 1], [0, 0], [0, 0], [1, 1], False, False)
        xl = in_layout(x, "NCHW2c", "NCHW")
        out.append(value_case(op, "packed-to-nhwc", "%s_pool2d from NCHW2c to out_layout NHWC."
                              % kind, [("x", ann(xl.shape, "float32"))],
                              '%s(x, pool_size=2, layout="NCHW2c", out_layout="NHWC")' % call,
                              [tensor(xl, "float32")],
                              tensor(in_layout(ref, "NHWC", "NCHW"), "float32")))
        out.append(sinfo_case(op, "out-packed-symbolic", "%s_pool2d of (n, c, h, w) into "
                              "out_layout NCHW4c: (c + 3) // 4 blocks of 4 channels." % kind,
                              [("x", ann(("n", "c", "h", "w"), "float32"))],
                              '%s(x, pool_size=2, out_layout="NCHW4c")' % call,
                              sinfo(("n", "(c + 3) // 4", "h - 1", "w - 1", 4), "float32")))
        out.append(sinfo_case(op, "out-split-h", "%s_pool2d with stride 2 into out_layout "
                              "NCH4hW: the pooled height h // 2 splits into (h + 6) // 8 "
                              "blocks of 4." % kind, [("x", ann(("n", 8, "h", 5), "float32"))],
                              '%s(x, pool_size=2, strides=2, out_layout="NCH4hW")' % call,
                              sinfo(("n", 8, "(h + 6) // 8", 4, 2), "float32")))
        out.append(sinfo_case(op, "in-packed-symbolic", "%s_pool2d of NCHW4c data (n, c, h, w, "
                              "4) into NCHW: c * 4 channels." % kind,
                              [("x", ann(("n", "c", "h", "w", 4), "float32"))],
                              '%s(x, pool_size=2, layout="NCHW4c", out_layout="NCHW")' % call,
                              sinfo(("n", "c * 4", "h - 1", "w - 1"), "float32")))
        out.append(error_case(op, "layout-unknown", "%s_pool2d with out_layout NCHWX is "
                              "rejected." % kind, [("x", ann((1, 4, 4, 4), "float32"))],
                              '%s(x, out_layout="NCHWX")' % call, "OpAttr"))
        out.append(error_case(op, "layout-subaxis-dim", "%s_pool2d with layout NCHW4c whose last "
                              "dim is 8 is rejected." % kind,
                              [("x", ann((1, 1, 4, 4, 8), "float32"))],
                              '%s(x, layout="NCHW4c")' % call, "OpShapeMismatch"))
    return out


def other_layout_cases(rng):
    """Packed layouts reach every convolution and pool, not only the 2-D ones."""
    out = [conv_layout_case(rng, "nn.conv1d", "ncw4c", "conv1d in NCW4c with an OIW4i kernel.",
                            [(1, 4, 6), (3, 4, 3)], ("NCW4c", "OIW4i", "NCW")),
           conv_layout_case(rng, "nn.conv3d", "ncdhw2c", "conv3d in NCDHW2c with a DHWIO "
                            "kernel.", [(1, 2, 3, 3, 3), (2, 2, 2, 2, 2)],
                            ("NCDHW2c", "DHWIO", "NCDHW2c"))]
    x, w = floats(rng, (1, 4, 3, 3)), floats(rng, (4, 2, 2, 2))
    ref = np_conv_transpose(x, w, [2, 2], [0, 0], [0, 0], [0, 0], [1, 1], 1)
    xl, wl = in_layout(x, "NCHW2c", "NCHW"), in_layout(w, "IOHW2i", "IOHW")
    out.append(value_case("nn.conv2d_transpose", "nchw2c", "conv2d_transpose with stride 2 in "
                          "NCHW2c data and IOHW2i kernel layouts into NHWC.",
                          [("x", ann(xl.shape, "float32")), ("w", ann(wl.shape, "float32"))],
                          'R.nn.conv2d_transpose(x, w, strides=2, data_layout="NCHW2c", '
                          'kernel_layout="IOHW2i", out_layout="NHWC")',
                          [tensor(xl, "float32"), tensor(wl, "float32")],
                          tensor(in_layout(ref, "NHWC", "NCHW"), "float32")))
    x = floats(rng, (1, 4, 2, 3, 3))
    ref = np_pool(x, "max", [2, 2, 2], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], False, False)
    xl = in_layout(x, "NCDHW2c", "NCDHW")
    out.append(value_case("nn.max_pool3d", "ncdhw2c", "max_pool3d in NCDHW2c.",
                          [("x", ann(xl.shape, "float32"))],
                          'R.nn.max_pool3d(x, pool_size=2, layout="NCDHW2c")',
                          [tensor(xl, "float32")], tensor(in_layout(ref, "NCDHW2c", "NCDHW"),
                                                          "float32")))
    x = floats(rng, (1, 8, 4, 5))
    xl = in_layout(x, "NCHW4c", "NCHW")
    out.append(value_case("nn.adaptive_avg_pool2d", "nchw4c", "adaptive_avg_pool2d from NCHW4c "
                          "to (2, 3) in out_layout NHWC.", [("x", ann(xl.shape, "float32"))],
                          'R.nn.adaptive_avg_pool2d(x, [2, 3], layout="NCHW4c", '
                          'out_layout="NHWC")', [tensor(xl, "float32")],
                          tensor(in_layout(np_adaptive(x, [2, 3]), "NHWC", "NCHW"), "float32")))
    out.append(error_case("nn.avg_pool1d", "layout-twice-factor", "avg_pool1d with layout NCW4 "
                          "is the NCW layout; NC4W (a factor before W) is rejected.",
                          [("x", ann((1, 4, 6), "float32"))],
                          'R.nn.avg_pool1d(x, layout="NC4W")', "OpAttr"))
    return out


def layout_cases(rng):
    return conv2d_layout_values(rng) + conv2d_layout_statics() + pool_layout_cases(rng) + \
        other_layout_cases(rng)


def infinity_cases(rng):
    """Pools over infinities. topi's max pool pads with the dtype's lowest finite value
    (include/tvm/topi/nn/pooling.h: min_value), so a window of -inf that covers padding gives
    -3.4028235e38 in TVM v0.22 where a pad that never wins gives -inf (the reference):
    implementation-defined. +inf and -inf in one average window give NaN, a lone +inf wins a
    max window: defined."""
    out = []
    x = np.full((1, 1, 2, 2), -np.inf, np.float32)
    ref = np.full((1, 1, 2, 2), -np.inf, np.float32)
    case = value_case("nn.max_pool2d", "minus-inf-padding", "max_pool2d over -inf with padding "
                      "1: -inf (padding never wins) or the float32 lowest, -3.4028235e38 "
                      "(TVM pads with it).", [("x", ann(x.shape, "float32"))],
                      "R.nn.max_pool2d(x, pool_size=(3, 3), padding=(1, 1))",
                      [tensor(x, "float32")], tensor(ref, "float32"))
    lowest = float(np.finfo(np.float32).min)
    case["result"] = "implementation-defined"
    case["value"] = g.Allowed(case["value"], {i: [lowest] for i in range(4)})
    case["spec"] = case["spec"] + ["RESULT-2"]
    out.append(case)
    y = np.array([[[[np.inf, -np.inf], [1.0, 2.0]]]], np.float32)
    out.append(value_case("nn.max_pool2d", "plus-inf", "max_pool2d: +inf wins every window that "
                          "holds it, padding or not.", [("x", ann(y.shape, "float32"))],
                          "R.nn.max_pool2d(x, pool_size=(3, 3), padding=(1, 1))",
                          [tensor(y, "float32")], tensor(np.full((1, 1, 2, 2), np.inf), "float32")))
    out.append(value_case("nn.avg_pool2d", "inf-minus-inf", "avg_pool2d of a window holding "
                          "+inf and -inf is NaN.", [("x", ann(y.shape, "float32"))],
                          "R.nn.avg_pool2d(x, pool_size=(2, 2))", [tensor(y, "float32")],
                          tensor(np.full((1, 1, 1, 1), np.nan), "float32")))
    return out


def int_conv_cases(rng):
    """Integer convolutions of two output channels whose first spatial axis is longer than
    the kernel's: every tap row of the kernel and no row past it reaches the input, and each
    output channel reads its own weights (topi conv with an integer out_dtype: exact sums)."""
    out = []
    xi, wi = rng.integers(-9, 10, (1, 2, 5, 4)), rng.integers(-9, 10, (2, 2, 3, 2))
    out.append(value_case("nn.conv2d", "int32-two-channels", "conv2d of int32 tensors, 2 input "
                          "and 2 output channels, a 3x2 kernel over a 5x4 input, is exact.",
                          [("x", ann(xi.shape, "int32")), ("w", ann(wi.shape, "int32"))],
                          "R.nn.conv2d(x, w)", [tensor(xi, "int32"), tensor(wi, "int32")],
                          tensor(np_conv(xi, wi, [1, 1], [0, 0], [0, 0], [1, 1], 1, True),
                                 "int32")))
    xi, wi = rng.integers(-9, 10, (1, 2, 4, 3, 3)), rng.integers(-9, 10, (2, 2, 2, 2, 2))
    out.append(value_case("nn.conv3d", "int32-two-channels", "conv3d of int32 tensors, 2 input "
                          "and 2 output channels, a 2x2x2 kernel over a 4x3x3 input, is exact.",
                          [("x", ann(xi.shape, "int32")), ("w", ann(wi.shape, "int32"))],
                          "R.nn.conv3d(x, w)", [tensor(xi, "int32"), tensor(wi, "int32")],
                          tensor(np_conv(xi, wi, [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], 1,
                                         True), "int32")))
    return out


GROUPS = [conv1d_cases, conv3d_cases, conv_t_cases, pool_cases, adaptive_cases, layout_cases,
          infinity_cases, int_conv_cases]


def cases():
    rng = np.random.default_rng(SEED)
    out = []
    for group in GROUPS:
        for case in group(rng):
            case["file"] = FILE
            out.append(case)
    return out
