"""Conformance cases of the creation, image, vision, quantization and gradient operators.

numpy is the oracle, computing each operator with TVM v0.22's formula (each oracle function
names the TVM source it follows). `cases()` returns the case dicts the driver (gen_ops.py)
writes to spec-tests/ops/misc*.yaml.
"""

import math

import numpy as np

from ops_misc_image import np_resize2d, round_half_away
from ops_nn import ann, floats, sinfo, tensor

import gen_ops

SEED = 20261126
F = np.float32
TOL32 = {"rtol": 1e-5, "atol": 1e-5}


# ---- case builders (ids are the operator's short name and a suffix) -------------------------


def rule(op):
    return "OP-" + op


def case_id(op, cid):
    return "%s-%s" % (op.split(".")[-1].replace("_", "-"), cid)


def program(params, expr):
    sig = ", ".join("%s: %s" % p for p in params)
    return "@R.function\ndef main(%s):\n    y = %s\n    return y\n" % (sig, expr)


def base(op, cid, desc, params, expr, file):
    return {"id": case_id(op, cid), "description": desc, "spec": [rule(op)],
            "program": program(params, expr), "file": file}


def value_case(op, cid, desc, params, expr, args, expected, file, tolerance=None, tags=None):
    case = base(op, cid, desc, params, expr, file)
    case["args"] = list(args)
    case["value"] = expected
    if tolerance:
        case["tolerance"] = tolerance
    if tags:
        case["tags"] = tags
    return case


def sinfo_case(op, cid, desc, params, expr, expected, file):
    case = base(op, cid, desc, params, expr, file)
    case["struct_info"] = {"y": expected}
    return case


def error_case(op, cid, desc, params, expr, code, file, args=None, phase=None):
    case = base(op, cid, desc, params, expr, file)
    case["error"] = {"phase": phase or ("struct_info" if args is None else "runtime"),
                     "code": code}
    if code != "BadArguments":
        case["error"]["rule"] = rule(op)
    if args is not None:
        case["args"] = list(args)
    return case


def tagged(case, *tags):
    """The case with tags added: `tvm-bug` (the reference deliberately differs from TVM
    v0.22), `tvm-diverges` (a check TVM leaves to legalization), `tvm-no-legalization` (TVM
    v0.22 cannot build the operator)."""
    case["tags"] = list(case.get("tags") or []) + list(tags)
    return case


def undefined(case):
    """An out-of-range read or write in TVM's lowered code (RESULT-3): the reference stops with
    OpPrecondition, another implementation may do anything."""
    case["result"] = "undefined"
    return case


# ---- quantize, dequantize: python/tvm/relax/transform/legalize_ops/qdq.py -----------------

INT_RANGE = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
             "uint16": (0, 65535)}


def per_axis(p, x, axis):
    """A rank-0 parameter as is, a 1-D one shaped to broadcast along axis."""
    if p.ndim == 0:
        return p
    shape = [1] * x.ndim
    shape[axis] = -1
    return p.reshape(shape)


def np_quantize(x, scale, zp, axis, out_dtype):
    """qdq.py _quantize: clip_cast(round(x / scale) + zp) in the wider float dtype of x and
    scale, round = tir.round (llvm.round: halves away from zero)."""
    t = x.dtype if x.dtype.itemsize >= scale.dtype.itemsize else scale.dtype
    s = per_axis(scale, x, axis).astype(t)
    q = (x.astype(t) / s).astype(t)
    q = np.vectorize(round_half_away, otypes=[np.float64])(q).astype(t)
    tz = t if zp.dtype.kind != "f" or zp.dtype.itemsize <= t.itemsize else zp.dtype
    q = (q.astype(tz) + per_axis(zp, x, axis).astype(tz)).astype(tz)
    lo, hi = INT_RANGE[out_dtype]
    # clip_cast: te.min then te.max, which LLVM lowers as selects (a NaN takes the bound)
    q = np.where(q < tz.type(hi), q, tz.type(hi))
    q = np.where(q > tz.type(lo), q, tz.type(lo))
    return q.astype(out_dtype)


def np_dequantize(x, scale, zp, axis, out_dtype):
    """qdq.py _dequantize: (x - zp) in float32 for float x, in int32 for integer x and an int8
    zero point, in float16 for integer x and a float16 zero point (TIR's promotion); times
    scale in float32; a float16 result clipped to +-65504 first."""
    z = per_axis(zp, x, axis)
    if x.dtype.kind == "f":
        sub = x.astype(F) - z.astype(F)
    elif zp.dtype.kind == "f":
        with np.errstate(over="ignore"):
            sub = (x.astype(np.int32).astype(np.float16) - z.astype(np.float16)).astype(np.float16)
    else:
        sub = x.astype(np.int32) - z.astype(np.int32)
    out = (sub.astype(F) * per_axis(scale, x, axis).astype(F)).astype(F)
    if out_dtype == "float16":
        out = np.maximum(np.minimum(out, F(65504.0)), F(-65504.0))
    return out.astype(out_dtype)


def qdq_cases():
    out, file = [], "misc_quantize"
    op = "quantize"
    x = np.array([[-3.0, -1.25, 0.3, 2.5, 100.0, -0.75],
                  [0.5, 1.5, -2.5, 7.0, -100.0, 0.125]], dtype=F)
    s = np.array([0.5, 0.5, 0.25, 1.0, 2.0, 0.25], dtype=F)
    z = np.array([0, 3, -2, 0, 1, -128], dtype=np.int8)
    p = [("x", ann((2, 6), "float32")), ("s", ann((6,), "float32")), ("z", ann((6,), "int8"))]
    out.append(value_case(op, "per-channel", "quantize along the last axis: ties round away "
                          "from zero (llvm.round), results clip to int8.", p,
                          "R.quantize(x, s, z)", [x, s, z], np_quantize(x, s, z, 1, "int8"), file))
    xs = x.T.copy()
    p2 = [("x", ann((6, 2), "float32")), ("s", ann((6,), "float32")), ("z", ann((6,), "int8"))]
    out.append(value_case(op, "axis0", "quantize along axis 0.", p2,
                          "R.quantize(x, s, z, axis=0)", [xs, s, z],
                          np_quantize(xs, s, z, 0, "int8"), file))
    s0, z0 = np.array(0.5, dtype=F), np.array(10, dtype=np.int8)
    out.append(value_case(op, "const-uint8", "quantize with constant scalar scale and zero point "
                          "to uint8: negative results clip to 0, large ones to 255.", p[:1],
                          'R.quantize(x, R.const(0.5, "float32"), R.const(10, "int8"), '
                          'out_dtype="uint8")', [x], np_quantize(x, s0, z0, -1, "uint8"), file))
    xn = np.array([np.nan, np.inf, -np.inf, 63.25, -65.75], dtype=F)
    out.append(value_case(op, "nan-inf", "quantize of NaN and infinities: the clip's selects "
                          "give NaN the upper bound.", [("x", ann((5,), "float32"))],
                          'R.quantize(x, R.const(0.5, "float32"), R.const(3, "int8"))', [xn],
                          np_quantize(xn, s0, np.array(3, dtype=np.int8), 0, "int8"), file))
    p3 = [("x", ann((2, 6), "float32")), ("s", ann((), "float32")), ("z", ann((), "int8"))]
    out.append(tagged(value_case(op, "scalar-params", "quantize with rank-0 scale and zero point "
                                 "parameters (TVM v0.22's legalization indexes them as 1-D and "
                                 "fails to build).", p3, 'R.quantize(x, s, z, out_dtype="uint8")',
                                 [x, s0, z0], np_quantize(x, s0, z0, -1, "uint8"), file),
                      "tvm-bug", "tvm-qdq-scalar-tensor"))
    xh = np.array([[0.1, -0.7, 3.3], [12.5, -12.5, 0.05]], dtype=np.float16)
    sh = np.array([0.1, 0.2, 0.05], dtype=np.float16)
    zh = np.array([1.0, -1.5, 0.0], dtype=np.float16)
    p4 = [("x", ann((2, 3), "float16")), ("s", ann((3,), "float16")), ("z", ann((3,), "float16"))]
    out.append(value_case(op, "float16-int16", "quantize float16 data with float16 scale and "
                          "zero point to int16: the division and the sum are float16.", p4,
                          'R.quantize(x, s, z, out_dtype="int16")', [xh, sh, zh],
                          np_quantize(xh, sh, zh, 1, "int16"), file))
    out.append(sinfo_case(op, "symbolic", "quantize keeps the data's shape with out_dtype.",
                          [("x", ann(("n", 4), "float32")), ("s", ann((4,), "float32")),
                           ("z", ann((4,), "int8"))], 'R.quantize(x, s, z, out_dtype="uint8")',
                          sinfo(("n", 4), "uint8"), file))
    xw = np.array([-20.0, 100.5, 200.25, 40000.0], dtype=F)
    out.append(value_case(op, "const-uint16", "quantize with constant scalar scale and zero "
                          "point to uint16: 200.25 / 0.5 + 10 = 410.5 rounds away to 411, beyond "
                          "uint8; negative results clip to 0, large ones to 65535.",
                          [("x", ann((4,), "float32"))],
                          'R.quantize(x, R.const(0.5, "float32"), R.const(10, "int8"), '
                          'out_dtype="uint16")', [xw], np_quantize(xw, s0, z0, -1, "uint16"), file))
    out.append(error_case(op, "out-int32", "quantize to int32 is rejected (int8, uint8, int16, "
                          "uint16 or float8 only).", p, 'R.quantize(x, s, z, out_dtype="int32")',
                          "OpAttr", file))
    out.append(error_case(op, "int-data", "quantize of int32 data is rejected.",
                          [("x", ann((2, 6), "int32")), ("s", ann((6,), "float32")),
                           ("z", ann((6,), "int8"))], "R.quantize(x, s, z)", "OpDTypeMismatch",
                          file))
    out.append(error_case(op, "scale-size", "a scale of 5 values for an axis of 6 is rejected.",
                          [("x", ann((2, 6), "float32")), ("s", ann((5,), "float32")),
                           ("z", ann((6,), "int8"))], "R.quantize(x, s, z)", "OpShapeMismatch",
                          file))
    out.append(error_case(op, "symbolic-size", "a scale of length m for an axis n is rejected "
                          "(not provably equal).",
                          [("x", ann((2, "n"), "float32")), ("s", ann(("m",), "float32")),
                           ("z", ann((), "int8"))], "R.quantize(x, s, z)", "OpShapeMismatch",
                          file))
    out.append(error_case(op, "axis", "axis 2 of a rank-2 tensor is rejected.", p,
                          "R.quantize(x, s, z, axis=2)", "OpAttr", file))
    op = "dequantize"
    q = np.array([[-128, -3, 0, 5, 127, 100], [1, 2, 3, -4, -5, 60]], dtype=np.int8)
    out.append(value_case(op, "per-channel", "dequantize int8 along the last axis: (q - z) "
                          "times scale in float32.", [("q", ann((2, 6), "int8")),
                                                     ("s", ann((6,), "float32")),
                                                     ("z", ann((6,), "int8"))],
                          "R.dequantize(q, s, z)", [q, s, z], np_dequantize(q, s, z, 1, "float32"),
                          file))
    qu = np.array([[0, 1, 128, 255], [7, 200, 30, 255]], dtype=np.uint8)
    s300, z5 = np.array(300.0, dtype=F), np.array(5, dtype=np.int8)
    out.append(value_case(op, "float16-clip", "dequantize uint8 to float16: products past "
                          "65504 clip to it.", [("q", ann((2, 4), "uint8"))],
                          'R.dequantize(q, R.const(300.0, "float32"), R.const(5, "int8"), '
                          'out_dtype="float16")', [qu],
                          np_dequantize(qu, s300, z5, -1, "float16"), file))
    qi = np.array([2049, -3, 70001, 5], dtype=np.int32)
    zf, s1 = np.array(0.5, dtype=np.float16), np.array(1.0, dtype=F)
    out.append(value_case(op, "int32-float16-zp", "dequantize int32 with a float16 zero point: "
                          "TIR subtracts in float16 (2049 - 0.5 gives 2048, 70001 overflows to "
                          "inf).", [("q", ann((4,), "int32"))],
                          'R.dequantize(q, R.const(1.0, "float32"), R.const(0.5, "float16"))',
                          [qi], np_dequantize(qi, s1, zf, 0, "float32"), file))
    out.append(tagged(value_case(op, "scalar-params", "dequantize with rank-0 scale and zero "
                                 "point parameters (TVM v0.22's legalization fails to build).",
                                 [("q", ann((2, 4), "uint8")), ("s", ann((), "float32")),
                                  ("z", ann((), "int8"))], "R.dequantize(q, s, z)",
                                 [qu, np.array(0.25, dtype=F), z5],
                                 np_dequantize(qu, np.array(0.25, dtype=F), z5, -1, "float32"),
                                 file), "tvm-bug", "tvm-qdq-scalar-tensor"))
    xf = np.array([[1.5, -2.25], [0.125, 8.0]], dtype=np.float16)
    sf = np.array([2.0, 0.5], dtype=np.float16)
    out.append(value_case(op, "float16-data", "dequantize float16 data with float16 scale and "
                          "int8 zero point.", [("q", ann((2, 2), "float16")),
                                               ("s", ann((2,), "float16")),
                                               ("z", ann((2,), "int8"))],
                          "R.dequantize(q, s, z, axis=0)",
                          [xf, sf, np.array([1, -1], dtype=np.int8)],
                          np_dequantize(xf, sf, np.array([1, -1], dtype=np.int8), 0, "float32"),
                          file))
    out.append(sinfo_case(op, "symbolic", "dequantize keeps the data's shape with out_dtype.",
                          [("q", ann(("n", "m"), "int8")), ("s", ann(("m",), "float32")),
                           ("z", ann(("m",), "int8"))], 'R.dequantize(q, s, z, out_dtype="float16")',
                          sinfo(("n", "m"), "float16"), file))
    out.append(error_case(op, "out-int8", "dequantize to int8 is rejected (float16 or float32).",
                          [("q", ann((2, 6), "int8")), ("s", ann((6,), "float32")),
                           ("z", ann((6,), "int8"))], 'R.dequantize(q, s, z, out_dtype="int8")',
                          "OpAttr", file))
    out.append(error_case(op, "float64-data", "dequantize of float64 data is rejected.",
                          [("q", ann((2, 6), "float64")), ("s", ann((6,), "float32")),
                           ("z", ann((6,), "int8"))], "R.dequantize(q, s, z)", "OpDTypeMismatch",
                          file))
    out.append(error_case(op, "zp-dtype", "an int32 zero point is rejected (int8 or float16).",
                          [("q", ann((2, 6), "int8")), ("s", ann((6,), "float32")),
                           ("z", ann((6,), "int32"))], "R.dequantize(q, s, z)", "OpDTypeMismatch",
                          file))
    return out


# ---- resize2d: topi/image/resize.py (ops_misc_image) -----------------------------------------

def resize_expr(size, **kw):
    attrs = "".join(", %s=%s" % (k, '"%s"' % v if isinstance(v, str) else repr(v))
                    for k, v in kw.items())
    return "R.image.resize2d(x, %s%s)" % (size, attrs)


RESIZE_MODES = [
    # (id, attributes, description)
    ("linear-half-pixel", {}, "linear with half_pixel coordinates (the defaults)"),
    ("linear-align-corners", {"coordinate_transformation_mode": "align_corners"},
     "linear with align_corners"),
    ("linear-asymmetric", {"coordinate_transformation_mode": "asymmetric"},
     "linear with asymmetric coordinates"),
    ("linear-pytorch", {"coordinate_transformation_mode": "pytorch_half_pixel"},
     "linear with pytorch_half_pixel"),
    ("nearest-round", {"method": "nearest_neighbor"},
     "nearest_neighbor with half_pixel and round (halves away from zero)"),
    ("nearest-floor", {"method": "nearest_neighbor", "rounding_method": "floor"},
     "nearest_neighbor with floor (plus 1e-5)"),
    ("nearest-ceil", {"method": "nearest_neighbor", "rounding_method": "ceil"},
     "nearest_neighbor with ceil (minus 1e-5)"),
    ("nearest-prefer-floor", {"method": "nearest_neighbor",
                              "rounding_method": "round_prefer_floor"},
     "nearest_neighbor with round_prefer_floor (ceil(x - 0.5))"),
    ("nearest-prefer-ceil", {"method": "nearest_neighbor", "rounding_method": "round_prefer_ceil",
                             "coordinate_transformation_mode": "align_corners"},
     "nearest_neighbor with align_corners and round_prefer_ceil (floor(x + 0.5))"),
    ("nearest-empty-rounding", {"method": "nearest_neighbor", "rounding_method": "",
                                "coordinate_transformation_mode": "tf_half_pixel_for_nn"},
     "nearest_neighbor with tf_half_pixel_for_nn and an empty rounding_method (floor)"),
    ("nearest-asymmetric", {"method": "nearest_neighbor",
                            "coordinate_transformation_mode": "asymmetric"},
     "nearest_neighbor asymmetric with a non-integral scale (round of x * in / out)"),
    ("cubic", {"method": "cubic"}, "cubic with alpha -0.75"),
    ("cubic-alpha-exclude", {"method": "cubic", "cubic_alpha": -0.5, "cubic_exclude": 1},
     "cubic with alpha -0.5 and the taps outside the image excluded"),
    ("cubic-align-corners", {"method": "cubic", "coordinate_transformation_mode": "align_corners"},
     "cubic with align_corners"),
]


def resize_cases(rng):
    out, file = [], "misc_image"
    op = "image.resize2d"
    x = floats(rng, (1, 2, 3, 4)).astype(F)
    p = [("x", ann((1, 2, 3, 4), "float32"))]
    for cid, attrs, desc in RESIZE_MODES:
        kw = {("mode" if k == "coordinate_transformation_mode" else k): v
              for k, v in attrs.items()}
        out.append(value_case(op, cid, "resize2d 3x4 to 5x7, %s." % desc, p,
                              resize_expr("(5, 7)", **attrs), [x],
                              np_resize2d(x, (5, 7), **kw), file, TOL32))
    out.append(value_case(op, "nearest-asymmetric-intdiv", "nearest_neighbor asymmetric with an "
                          "integral upscale (3x4 to 6x8): topi divides integers, ignoring "
                          "rounding_method.", p,
                          resize_expr("(6, 8)", method="nearest_neighbor",
                                      coordinate_transformation_mode="asymmetric"), [x],
                          np_resize2d(x, (6, 8), method="nearest_neighbor", mode="asymmetric"),
                          file))
    out.append(value_case(op, "downscale", "linear half_pixel downscale 3x4 to 2x2.", p,
                          resize_expr("(2, 2)"), [x], np_resize2d(x, (2, 2)), file, TOL32))
    out.append(value_case(op, "pytorch-one", "pytorch_half_pixel to one row samples coordinate 0.",
                          p, resize_expr("(1, 3)", coordinate_transformation_mode="pytorch_half_pixel"),
                          [x], np_resize2d(x, (1, 3), mode="pytorch_half_pixel"), file, TOL32))
    roi = (0, 1, 1, 3)
    kw = dict(mode="tf_crop_and_resize", roi=roi, extrapolation_value=-1.0)
    out.append(value_case(op, "tf-crop", "tf_crop_and_resize with roi [0, 1, 1, 3]: samples past "
                          "the image take extrapolation_value.", p,
                          resize_expr("(3, 5)", roi=list(roi),
                                      coordinate_transformation_mode="tf_crop_and_resize",
                                      extrapolation_value=-1.0),
                          [x], np_resize2d(x, (3, 5), **kw), file, TOL32))
    xn = np.transpose(x, (0, 2, 3, 1)).copy()
    out.append(value_case(op, "nhwc", "linear in the NHWC layout.",
                          [("x", ann((1, 3, 4, 2), "float32"))],
                          resize_expr("(5, 6)", layout="NHWC"), [xn],
                          np_resize2d(xn, (5, 6), layout="NHWC"), file, TOL32))
    xu = rng.integers(0, 256, (1, 1, 3, 3)).astype(np.uint8)
    out.append(value_case(op, "uint8-truncates", "linear on uint8: the float32 value truncates "
                          "toward zero (topi's astype), it is not rounded.",
                          [("x", ann((1, 1, 3, 3), "uint8"))], resize_expr("(4, 5)"), [xu],
                          np_resize2d(xu, (4, 5)), file))
    x64 = floats(rng, (1, 1, 2, 2)).astype(np.float64) + 1.0 / 3.0
    out.append(value_case(op, "float64-in-float32", "float64 data is resized in float32 "
                          "(topi reads pixels as float32).",
                          [("x", ann((1, 1, 2, 2), "float64"))], resize_expr("(3, 3)"), [x64],
                          np_resize2d(x64, (3, 3)), file, exact_tol()))
    xh = floats(rng, (1, 1, 2, 3)).astype(np.float16)
    out.append(value_case(op, "float16", "linear on float16 data: computed in float32, rounded "
                          "once to float16.", [("x", ann((1, 1, 2, 3), "float16"))],
                          resize_expr("(3, 4)"), [xh], np_resize2d(xh, (3, 4)), file))
    out.append(tagged(value_case(op, "out-dtype", "out_dtype float16 converts the float32 result "
                                 "(TVM v0.22's legalization drops out_dtype and returns "
                                 "float32).", p, resize_expr("(2, 3)", out_dtype="float16"), [x],
                                 np_resize2d(x, (2, 3), out_dtype="float16"), file),
                      "tvm-bug", "tvm-resize-out-dtype"))
    out.extend(packed_resize_cases(rng, p))
    out.append(sinfo_case(op, "symbolic", "resize2d replaces H and W by the size.",
                          [("x", ann(("n", 3, "h", "w"), "float32"))], resize_expr("(8, 9)"),
                          sinfo(("n", 3, 8, 9), "float32"), file))
    out.append(sinfo_case(op, "nhwc-out-dtype", "NHWC: the size goes to axes 1 and 2; out_dtype "
                          "sets the dtype.", [("x", ann(("n", "h", "w", 3), "float32"))],
                          resize_expr("(4, 4)", layout="NHWC", out_dtype="float16"),
                          sinfo(("n", 4, 4, 3), "float16"), file))
    out.append(error_case(op, "layout", "the NCDHW layout is rejected for resize2d.",
                          p, resize_expr("(4, 4)", layout="NCDHW"), "OpAttr", file))
    out.append(error_case(op, "size-rank", "a 3-dim size is rejected.", p,
                          resize_expr("(4, 4, 4)"), "OpShapeMismatch", file))
    out.append(error_case(op, "rank", "3-D data is rejected for NCHW.",
                          [("x", ann((2, 3, 4), "float32"))], resize_expr("(4, 4)"),
                          "OpShapeMismatch", file))
    out.append(tagged(error_case(op, "method", "an unknown method name is rejected (TVM finds "
                                 "it only when legalizing).", p,
                                 resize_expr("(4, 4)", method="bilinear"), "OpAttr", file),
                      "tvm-diverges"))
    roi = (0.25, 0.5, 0.75, 1.0)
    kw = dict(mode="tf_crop_and_resize", roi=roi)
    out.append(tagged(value_case(op, "tf-crop-one", "tf_crop_and_resize to one pixel samples the "
                                 "middle of the roi, (start + end) / 2 of the extent - 1 on each "
                                 "axis, topi's branch for it (TVM v0.22's build folds the other "
                                 "branch's division by target - 1 = 0 and fails).", p,
                                 resize_expr("(1, 1)", roi=list(roi),
                                             coordinate_transformation_mode="tf_crop_and_resize"),
                                 [x], np_resize2d(x, (1, 1), **kw), file, TOL32),
                      "tvm-bug", "tvm-resize-one-pixel"))
    out.append(undefined(value_case(op, "align-corners-one", "align_corners to one row samples "
                                    "row 0 (topi divides by zero there: undefined in TVM).", p,
                                    resize_expr("(1, 3)",
                                                coordinate_transformation_mode="align_corners"),
                                    [x], np_resize2d(x, (1, 3), mode="align_corners"), file,
                                    TOL32)))
    return out


def packed_resize_cases(rng, p):
    """resize2d in the packed layouts TVM reads (CheckTensorLayout against NCHW) and topi's
    resize2d computes (NCHWxc, NCHWinic: each packed position its own image)."""
    out, file, op = [], "misc_image", "image.resize2d"
    xc = floats(rng, (1, 1, 2, 3, 4)).astype(F)
    out.append(value_case(op, "nchw4c", "linear in NCHW4c: each of the 4 packed channels is "
                          "resized on its own.", [("x", ann((1, 1, 2, 3, 4), "float32"))],
                          resize_expr("(3, 5)", layout="NCHW4c"), [xc],
                          np_resize2d(xc, (3, 5), layout="NCHW4c"), file, TOL32))
    xi = floats(rng, (1, 1, 2, 2, 2, 2)).astype(F)
    out.append(value_case(op, "nchw2n2c", "nearest_neighbor in NCHW2n2c (topi's NCHWinic).",
                          [("x", ann((1, 1, 2, 2, 2, 2), "float32"))],
                          resize_expr("(3, 3)", layout="NCHW2n2c", method="nearest_neighbor"), [xi],
                          np_resize2d(xi, (3, 3), layout="NCHW2n2c", method="nearest_neighbor"),
                          file))
    out.append(sinfo_case(op, "nchw16c-symbolic", "NCHW16c: H and W from the size, the packed "
                          "axis kept (TVM's own NCHW16c test program).",
                          [("x", ann(("n", "c", "h", "w", 16), "float32"))],
                          resize_expr("(8, 9)", layout="NCHW16c",
                                      method="nearest_neighbor",
                                      coordinate_transformation_mode="asymmetric"),
                          sinfo(("n", "c", 8, 9, 16), "float32"), file))
    out.append(sinfo_case(op, "nchw2h", "NCHW2h: the size's H is split as BijectiveLayout's "
                          "BackwardShape splits it (ceildiv(6, 2) rows of 2).",
                          [("x", ann((1, 2, 3, 3, 2), "float32"))],
                          resize_expr("(6, 5)", layout="NCHW2h"), sinfo((1, 2, 3, 5, 2), "float32"),
                          file))
    out.append(error_case(op, "packed-factor", "a packed axis whose dim is not its factor (8 "
                          "for NCHW4c) is rejected.", [("x", ann((1, 2, 3, 3, 8), "float32"))],
                          resize_expr("(4, 4)", layout="NCHW4c"), "OpShapeMismatch", file))
    xh = floats(rng, (1, 1, 2, 2, 2)).astype(F)
    out.append(error_case(op, "split-h", "a layout that splits H checks, but cannot be resized "
                          "(topi's resize2d refuses it too).",
                          [("x", ann((1, 1, 2, 2, 2), "float32"))],
                          resize_expr("(4, 4)", layout="NCHW2h"), "OpPrecondition", file, [xh]))
    return out


def exact_tol():
    return {"rtol": 1e-7, "atol": 1e-7}


def cases():
    rng = np.random.default_rng(SEED)
    out = []
    out.extend(qdq_cases())
    out.extend(resize_cases(rng))
    from ops_misc_more import more_cases
    out.extend(more_cases(np.random.default_rng(SEED + 1)))
    return out
