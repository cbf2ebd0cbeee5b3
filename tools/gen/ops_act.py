"""Conformance cases of the parameterized activations: leakyrelu, softplus, selu and prelu.

numpy is the oracle: TVM's topi/legalization formulas written out in float64 and rounded once
to the dtype. `cases()` returns the case dicts the driver (gen_ops.py) writes to
spec-tests/ops/act.yaml.
"""

import numpy as np
from ops_nn import ann, error_case, floats, sinfo, sinfo_case, tensor, value_case

SEED = 20261127
FILE = "act"
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def np_leakyrelu(x, alpha):
    return np.where(x > 0, x, x * alpha)


def np_softplus(x, beta, threshold):
    bx = beta * x
    return np.where(bx > threshold, x, (1.0 / beta) * np.log1p(np.exp(np.minimum(bx, threshold))))


def np_selu(x):
    return SELU_SCALE * (np.maximum(x, 0.0) + np.minimum(0.0, SELU_ALPHA * (np.exp(x) - 1.0)))


def np_prelu(x, alpha, axis):
    shape = [1] * x.ndim
    shape[axis] = -1
    return np.where(x > 0, x, x * alpha.reshape(shape))


TOL = {"rtol": 1e-5, "atol": 1e-6}


def unary_cases(rng):
    out = []
    x = floats(rng, (2, 5)).astype(np.float64)
    p = [("x", ann((2, 5), "float32"))]
    op = "nn.leakyrelu"
    out.append(value_case(op, "default", "leakyrelu with the default alpha 0.01.", p,
                          "R.nn.leakyrelu(x)", [tensor(x, "float32")],
                          tensor(np_leakyrelu(x, 0.01), "float32"), TOL))
    out.append(value_case(op, "alpha", "leakyrelu with alpha 0.25 on float64.",
                          [("x", ann((2, 5), "float64"))], "R.nn.leakyrelu(x, alpha=0.25)",
                          [tensor(x, "float64")], tensor(np_leakyrelu(x, 0.25), "float64")))
    out.append(sinfo_case(op, "symbolic", "leakyrelu keeps its input's StructInfo.",
                          [("x", ann(("n", 3), "float16"))], "R.nn.leakyrelu(x, 0.1)",
                          sinfo(("n", 3), "float16")))
    # TVM's Select(x > 0, x, x * alpha): a zero takes the x * alpha side, so a negative alpha
    # flips its sign (exact comparison tells -0.0 from 0.0).
    xz = np.array([0.0, -0.0, 2.0, -2.0])
    case = value_case(op, "negative-alpha-zeros", "leakyrelu with alpha -0.5: 0.0 is not > 0, "
                      "so it gives 0.0 * -0.5 = -0.0, and -0.0 gives 0.0.",
                      [("x", ann((4,), "float32"))], "R.nn.leakyrelu(x, alpha=-0.5)",
                      [tensor(xz, "float32")], tensor(np_leakyrelu(xz, -0.5), "float32"))
    case["exact"] = True
    out.append(case)
    out.append(error_case(op, "int", "leakyrelu of an int32 tensor is rejected (float only).",
                          [("x", ann((3,), "int32"))], "R.nn.leakyrelu(x)", "OpDTypeMismatch"))
    op = "nn.softplus"
    xs = np.array([[-3.0, -0.5, 0.0, 0.75, 2.5], [4.0, 7.5, 10.0, 12.0, -8.0]])
    out.append(value_case(op, "default", "softplus log(1 + exp(x)) with beta 1, threshold 20.",
                          p, "R.nn.softplus(x)", [tensor(xs, "float32")],
                          tensor(np_softplus(xs, 1.0, 20.0), "float32"), TOL))
    out.append(value_case(op, "beta-threshold", "softplus with beta 2 and threshold 10: x "
                          "itself where 2 x > 10.", p, "R.nn.softplus(x, beta=2.0, threshold=10.0)",
                          [tensor(xs, "float32")], tensor(np_softplus(xs, 2.0, 10.0), "float32"),
                          TOL))
    out.append(error_case(op, "int", "softplus of an int64 tensor is rejected.",
                          [("x", ann((3,), "int64"))], "R.nn.softplus(x)", "OpDTypeMismatch"))
    op = "nn.selu"
    out.append(value_case(op, "values", "selu: scale (max(0, x) + min(0, alpha (exp(x) - 1))).",
                          p, "R.nn.selu(x)", [tensor(xs, "float32")], tensor(np_selu(xs), "float32"),
                          TOL))
    out.append(sinfo_case(op, "symbolic", "selu keeps its input's StructInfo.",
                          [("x", ann(("a", "b"), "float32"))], "R.nn.selu(x)",
                          sinfo(("a", "b"), "float32")))
    out.append(error_case(op, "bool", "selu of a bool tensor is rejected.",
                          [("x", ann((3,), "bool"))], "R.nn.selu(x)", "OpDTypeMismatch"))
    return out


def prelu_cases(rng):
    op, out = "nn.prelu", []
    x = floats(rng, (2, 3, 2)).astype(np.float64)
    a = np.array([0.25, 0.5, 0.125])
    out.append(value_case(op, "one-slope", "prelu with one slope for every channel.",
                          [("x", ann((2, 3, 2), "float32")), ("a", ann((1,), "float32"))],
                          "R.nn.prelu(x, a)", [tensor(x, "float32"), tensor(a[:1], "float32")],
                          tensor(np_prelu(x, np.repeat(a[:1], 3), 1), "float32")))
    case = value_case(op, "channels", "prelu with one slope per channel of axis 1 (TVM v0.22's "
                      "topi uses the first slope for every channel).",
                      [("x", ann((2, 3, 2), "float32")), ("a", ann((3,), "float32"))],
                      "R.nn.prelu(x, a)", [tensor(x, "float32"), tensor(a, "float32")],
                      tensor(np_prelu(x, a, 1), "float32"))
    case["tags"] = ["tvm-bug", "tvm-prelu-first-slope"]
    out.append(case)
    xl = np.transpose(x, (0, 2, 1))
    case = value_case(op, "last-axis", "prelu along the last axis (axis=-1).",
                      [("x", ann((2, 2, 3), "float32")), ("a", ann((3,), "float32"))],
                      "R.nn.prelu(x, a, axis=-1)", [tensor(xl, "float32"), tensor(a, "float32")],
                      tensor(np_prelu(xl, a, 2), "float32"))
    case["tags"] = ["tvm-bug", "tvm-prelu-first-slope"]
    out.append(case)
    xz = np.array([[0.0, -0.0, 3.0, -3.0]])
    case = value_case(op, "negative-slope-zeros", "prelu with one slope -0.25: 0.0 is not > 0, "
                      "so it gives 0.0 * -0.25 = -0.0, and -0.0 gives 0.0.",
                      [("x", ann((1, 4), "float32")), ("a", ann((1,), "float32"))],
                      "R.nn.prelu(x, a)", [tensor(xz, "float32"), tensor(np.array([-0.25]), "float32")],
                      tensor(np_prelu(xz, np.array([-0.25]), 1), "float32"))
    case["exact"] = True
    out.append(case)
    out.append(sinfo_case(op, "symbolic", "prelu keeps the data's StructInfo.",
                          [("x", ann(("n", 4), "float32")), ("a", ann((4,), "float32"))],
                          "R.nn.prelu(x, a)", sinfo(("n", 4), "float32")))
    out.append(error_case(op, "axis", "prelu with axis 2 on a rank-2 tensor is rejected.",
                          [("x", ann((2, 4), "float32")), ("a", ann((4,), "float32"))],
                          "R.nn.prelu(x, a, axis=2)", "OpAttr"))
    case = error_case(op, "alpha-length", "prelu whose alpha is neither the axis length nor 1 "
                      "fails when run.",
                      [("x", ann((2, 4), "float32")), ("a", ann((3,), "float32"))],
                      "R.nn.prelu(x, a)", "OpPrecondition",
                      [tensor(np.zeros((2, 4)), "float32"), tensor(a, "float32")])
    case["tags"] = ["tvm-bug", "tvm-prelu-first-slope"]
    out.append(case)
    return out


NP_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def np_pad(x, widths, mode, value=0.0):
    """topi pad / reflect_pad / replicate_pad / circular_pad as numpy's pad modes."""
    pairs = [(widths[2 * i], widths[2 * i + 1]) for i in range(x.ndim)]
    if mode == "constant":
        return np.pad(x, pairs, mode="constant", constant_values=value)
    return np.pad(x, pairs, mode=NP_MODES[mode])


def pad_cases(rng):
    op, out = "nn.pad", []
    x = floats(rng, (2, 3)).astype(np.float64)
    p = [("x", ann((2, 3), "float32"))]
    out.append(value_case(op, "constant", "pad with a constant 1.5 around a 2x3 tensor.", p,
                          "R.nn.pad(x, [1, 0, 2, 1], pad_value=1.5)", [tensor(x, "float32")],
                          tensor(np_pad(x, [1, 0, 2, 1], "constant", 1.5), "float32")))
    for mode in ("reflect", "replicate", "circular"):
        out.append(value_case(op, mode, "pad in %s mode (numpy's %s)." % (mode, NP_MODES[mode]), p,
                              'R.nn.pad(x, [1, 1, 2, 2], pad_mode="%s")' % mode,
                              [tensor(x, "float32")],
                              tensor(np_pad(x, [1, 1, 2, 2], mode), "float32")))
    xi = rng.integers(-9, 10, (4,))
    out.append(value_case(op, "int-default", "pad of an int32 vector with the default constant 0.",
                          [("x", ann((4,), "int32"))], "R.nn.pad(x, [2, 1])",
                          [tensor(xi, "int32")], tensor(np_pad(xi, [2, 1], "constant"), "int32")))
    out.append(sinfo_case(op, "symbolic", "pad adds both widths to each dim.",
                          [("x", ann(("n", 3), "float32"))], "R.nn.pad(x, [1, 2, 0, 0])",
                          sinfo(("n + 3", 3), "float32")))
    out.append(error_case(op, "width-count", "pad with 3 widths for a rank-2 tensor is rejected.",
                          p, "R.nn.pad(x, [1, 1, 1])", "OpAttr"))
    out.append(error_case(op, "reflect-too-wide", "reflect padding as wide as the axis fails "
                          "when run.", [("x", ann((2, 3), "float32"))],
                          'R.nn.pad(x, [0, 0, 3, 0], pad_mode="reflect")', "OpPrecondition",
                          [tensor(x, "float32")]))
    x1 = np.array([[1.5, -2.0]])
    for mode, widths in (("replicate", [2, 1, 0, 0]), ("circular", [1, 1, 0, 0])):
        out.append(value_case(op, mode + "-length-one", "pad in %s mode along an axis of length "
                              "1: every padded row is that one row." % mode,
                              [("x", ann((1, 2), "float32"))],
                              'R.nn.pad(x, %s, pad_mode="%s")' % (widths, mode),
                              [tensor(x1, "float32")],
                              tensor(np_pad(x1, widths, mode), "float32")))
    return out


def cases():
    rng = np.random.default_rng(SEED)
    out = []
    for group in (unary_cases, prelu_cases, pad_cases):
        for case in group(rng):
            case["file"] = FILE
            out.append(case)
    return out
