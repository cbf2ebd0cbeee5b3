"""Conformance cases of the normalizations, attention, losses and pixel_shuffle of R.nn.

numpy is the oracle, computing each operator with TVM v0.22's formula (its legalization in
python/tvm/relax/transform/legalize_ops/nn.py and the topi compute it calls) in float64 from
the dtype's inputs, rounded where TVM's lowering rounds (said per oracle). `cases()` returns
the case dicts the driver (gen_ops.py) writes to spec-tests/ops/norm.yaml,
norm_attention.yaml and norm_loss.yaml.
"""

import numpy as np
from ops_nn import (ann, error_case, floats, program, rounded, sinfo, sinfo_case, tensor,
                    value_case)

SEED = 20261126
TOL = {"rtol": 1e-4, "atol": 1e-5}
TOL16 = {"rtol": 2e-3, "atol": 2e-3}
F32 = np.float32


def as_dtype(x, dtype):
    return np.asarray(x, dtype=np.float64).astype(np.dtype(dtype)).astype(np.float64)


def p3(x, g, b, dtype="float32", gdtype=None):
    """Parameters (x, g, b) annotated with their shapes."""
    gd = gdtype or dtype
    return [("x", ann(x, dtype)), ("g", ann(g, gd)), ("b", ann(b, gd))]


# ---- oracles ---------------------------------------------------------------------------


def normalize_groups(x, red_axes, eps, dtype):
    """(x - mean) / sqrt(var + eps) over red_axes, biased variance, eps a constant of the
    dtype (topi's make_const(data->dtype, epsilon))."""
    x = x.astype(np.float64)
    mean = np.mean(x, axis=red_axes, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=red_axes, keepdims=True)
    return (x - mean) / np.sqrt(var + as_dtype(eps, dtype))


def affine(z, gamma, beta, shape, center, scale, dtype):
    """topi group_norm/instance_norm: for float16 the normalized value is cast to float16 and
    the affine step computed in float16 (each operation rounded)."""
    half = dtype == "float16"
    if half:
        z = as_dtype(z, dtype)
    if scale:
        z = z * gamma.reshape(shape)
    if half:
        z = as_dtype(z, dtype)
    if center:
        z = z + beta.reshape(shape)
    return z


def np_group_norm(x, gamma, beta, groups, channel, axes, eps=1e-5, center=True, scale=True,
                  dtype="float32"):
    """include/tvm/topi/nn/group_norm.h: the channel axis split into (groups, C / groups),
    normalized over the channels of a group and the axes. TVM's legalization passes neither
    center nor scale (gamma and beta always apply); the reference honours them."""
    nd = x.ndim
    channel %= nd
    axes = [a % nd for a in axes]
    shape = list(x.shape)
    split = shape[:channel] + [groups, shape[channel] // groups] + shape[channel + 1:]
    red = tuple(sorted([channel + 1] + [a if a < channel else a + 1 for a in axes]))
    z = normalize_groups(x.reshape(split), red, eps, dtype).reshape(x.shape)
    pshape = [1] * nd
    pshape[channel] = -1
    return affine(z, gamma, beta, pshape, center, scale, dtype)


def np_instance_norm(x, gamma, beta, channel, axes, eps=1e-5, center=True, scale=True,
                     dtype="float32"):
    """include/tvm/topi/nn/instance_norm.h: normalized over the axes, gamma and beta by
    channel (center/scale: as group_norm)."""
    nd = x.ndim
    z = normalize_groups(x, tuple(a % nd for a in axes), eps, dtype)
    pshape = [1] * nd
    pshape[channel % nd] = -1
    return affine(z, gamma, beta, pshape, center, scale, dtype)


def np_rms_norm(x, w, axes, eps=1e-5, dtype="float32"):
    """include/tvm/topi/nn/rms_norm.h: data and weight cast to float32, rsqrt(mean(x^2) +
    eps) * x * w, cast back; eps a constant of the data's dtype; for float64 data that
    constant promotes the last steps to float64, otherwise they are float32."""
    nd = x.ndim
    axes = [a % nd for a in axes]
    x32 = as_dtype(x, "float32")
    w32 = as_dtype(w, "float32")
    ms = np.mean(x32 * x32, axis=tuple(axes), keepdims=True)
    r = 1.0 / np.sqrt(ms + as_dtype(eps, dtype))
    wshape = [x.shape[a] if a in axes else 1 for a in range(nd)]
    order = sorted(range(len(axes)), key=lambda k: axes[k])
    out = r * x32 * np.transpose(w32, order).reshape(wshape)
    return out if dtype == "float64" else as_dtype(out, "float32")


def np_attention(q, k, v, bias=None, scale=None, mask=None, window=None, dtype="float32"):
    """legalize_ops/nn.py _te_attention: softmax(q k^T * scale (or / sqrt(head_dim)) + bias)
    v per head; TopLeft keeps key j <= i, BottomRight j <= i + |seq_len - seq_len_kv|. The
    softmax is taken over the visible keys (TVM's trilu form masks with 0 before its max,
    see the tvm-bug case). window_size (no TVM lowering: flash attention's sliding window)
    also needs j > i + offset - window. Query head h reads key/value head h / (H / Hkv).
    float16 rounds every step to float16 in the order of TVM's float16 lowering (batch_matmul
    products and running sums, the scaling, bias, exp, the sum, the division, the second
    batch_matmul); other dtypes compute in double."""
    if dtype == "float16":
        r = lambda x: float(np.float16(x))
    else:
        r = lambda x: x
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    B, S, H, D = q.shape
    Skv, Hk, Hv, Dv = k.shape[1], k.shape[2], v.shape[2], v.shape[3]
    sc = float(F32(scale)) if scale is not None else None
    sqrt_d = r(np.sqrt(r(float(D))))
    off = abs(S - Skv) if mask == "BottomRight" else 0
    bb = None if bias is None else np.broadcast_to(bias.astype(np.float64), (B, H, S, Skv))
    out = np.zeros((B, S, H, Dv))
    for b, h, i in np.ndindex(B, H, S):
        kh, vh = h // (H // Hk), h // (H // Hv)
        vis = [j for j in range(Skv) if (mask is None or j <= i + off) and
               (window is None or j > i + off - window)]
        scores = {}
        for j in vis:
            acc = 0.0
            for d in range(D):
                acc = r(acc + r(q[b, i, h, d] * k[b, j, kh, d]))
            x = r(acc * sc) if sc is not None else r(acc / sqrt_d)
            scores[j] = r(x + bb[b, h, i, j]) if bb is not None else x
        if not vis:
            continue
        mx = max(scores.values())
        e = {j: r(np.exp(r(scores[j] - mx))) for j in vis}
        total = 0.0
        for j in vis:
            total = r(total + e[j])
        for d in range(Dv):
            acc = 0.0
            for j in vis:
                acc = r(acc + r(r(e[j] / total) * v[b, j, vh, d]))
            out[b, i, h, d] = acc
    return out


def np_attention_var_len(q, k, v, sq, sk, scale=None, mask=None):
    """Per sequence b the query rows sq[b]..sq[b+1] against the key rows sk[b]..sk[b+1], as
    np_attention (the documented semantics; TVM v0.22 has no lowering of it)."""
    out = np.zeros(q.shape[:3] + (v.shape[3],))
    for b in range(len(sq) - 1):
        qs, ks = slice(sq[b], sq[b + 1]), slice(sk[b], sk[b + 1])
        out[:, qs] = np_attention(q[:, qs], k[:, ks], v[:, ks], scale=scale, mask=mask)
    return out


def np_cross_entropy(x, y):
    """legalize_ops/nn.py: -sum(x * y), divided by x.shape[0] when the rank is above 1."""
    s = -np.sum(x.astype(np.float64) * y.astype(np.float64))
    return s / x.shape[0] if x.ndim > 1 else s


def np_cross_entropy_int(x, y):
    """The same on integers: products and sum wrap in the dtype (small values here), the
    division truncates (TIR's integer Div)."""
    s = -int(np.sum(x.astype(np.int64) * y.astype(np.int64)))
    if x.ndim > 1:
        q = abs(s) // x.shape[0]
        s = q if s >= 0 else -q
    return s


def np_nll_loss(pred, t, w, reduction="mean", ignore=-100):
    """include/tvm/topi/nn.h nll_loss: per target c != ignore_index -pred[n, c, ...] * w[c]
    (0 when ignored); mean divides the sum by the sum of the weights of the targets not
    ignored (a prediction of shape (C,) gives the one loss over its weight)."""
    pred = pred.astype(np.float64)
    w = np.ones(pred.shape[0 if pred.ndim == 1 else 1]) if w is None else w.astype(np.float64)
    if pred.ndim == 1:
        c = int(t)
        loss = -pred[c] * w[c] if c != ignore else 0.0
        wt = w[c] if c != ignore else 0.0
        with np.errstate(invalid="ignore"):
            return np.float64(loss / wt) if reduction == "mean" else np.float64(loss)
    loss = np.zeros(t.shape)
    wts = np.zeros(t.shape)
    for idx in np.ndindex(*t.shape):
        c = int(t[idx])
        if c == ignore:
            continue
        loss[idx] = -pred[(idx[0], c) + idx[1:]] * w[c]
        wts[idx] = w[c]
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.float64(loss.sum())
    with np.errstate(invalid="ignore"):
        return np.float64(loss.sum() / wts.sum())


def np_pixel_shuffle(x, r):
    """python/tvm/topi/nn/pixel_shuffle.py: out[..., c, h, w] = x[..., c r^2 + (h % r) r +
    w % r, h // r, w // r]."""
    *lead, c, h, w = x.shape
    y = x.reshape(lead + [c // (r * r), r, r, h, w])
    n = len(lead)
    y = y.transpose(list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2])
    return y.reshape(lead + [c // (r * r), h * r, w * r])


# ---- group_norm, instance_norm, rms_norm -------------------------------------------------


CENTER_SCALE_BUG = ["tvm-bug", "tvm-norm-center-scale"]


def tagged(case, tags):
    case["tags"] = list(tags)
    return case


def group_norm_cases(rng):
    op, out = "nn.group_norm", []
    x, g, b = floats(rng, (2, 4, 2, 2)), floats(rng, (4,)), floats(rng, (4,))
    f32 = [tensor(a, "float32") for a in (x, g, b)]
    out.append(value_case(op, "nchw", "group_norm of 4 channels in 2 groups over H and W.",
                          p3((2, 4, 2, 2), (4,), (4,)),
                          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])",
                          f32, tensor(np_group_norm(x, g, b, 2, 1, [2, 3]), "float32"), TOL))
    x, g, b = floats(rng, (2, 3, 6)), floats(rng, (6,)), floats(rng, (6,))
    out.append(value_case(op, "channel-last", "group_norm with the channel axis last (-1), 3 "
                          "groups of 2, over axis 1, epsilon 1e-3.", p3((2, 3, 6), (6,), (6,)),
                          "R.nn.group_norm(x, g, b, num_groups=3, channel_axis=-1, axes=[1], "
                          "epsilon=0.001)", [tensor(a, "float32") for a in (x, g, b)],
                          tensor(np_group_norm(x, g, b, 3, -1, [1], 1e-3), "float32"), TOL))
    x4, g4, b4 = floats(rng, (1, 4, 3)), floats(rng, (4,)), floats(rng, (4,))
    out.append(value_case(op, "one-group", "group_norm with one group normalizes over every "
                          "channel and axis 2.", p3((1, 4, 3), (4,), (4,)),
                          "R.nn.group_norm(x, g, b, num_groups=1, channel_axis=1, axes=[2])",
                          [tensor(a, "float32") for a in (x4, g4, b4)],
                          tensor(np_group_norm(x4, g4, b4, 1, 1, [2]), "float32"), TOL))
    out.append(tagged(value_case(
        op, "no-center-scale", "group_norm with center=False and scale=False leaves the "
        "normalized values (TVM's legalization ignores both flags).", p3((1, 4, 3), (4,), (4,)),
        "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2], center=False, "
        "scale=False)", [tensor(a, "float32") for a in (x4, g4, b4)],
        tensor(np_group_norm(x4, g4, b4, 2, 1, [2], center=False, scale=False), "float32"),
        TOL), CENTER_SCALE_BUG))
    xh = rounded(rng.integers(-32, 32, size=(1, 4, 4)) / 8.0, "float16")
    gh, bh = floats(rng, (4,), "float16"), floats(rng, (4,), "float16")
    out.append(value_case(op, "float16", "group_norm of float16: normalized in float32, the "
                          "affine step in float16 as TVM's topi computes it.",
                          p3((1, 4, 4), (4,), (4,), "float16"),
                          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
                          [tensor(a, "float16") for a in (xh, gh, bh)],
                          tensor(np_group_norm(xh, gh, bh, 2, 1, [2], dtype="float16"),
                                 "float16"), TOL16))
    out.append(sinfo_case(op, "symbolic", "group_norm keeps the data's StructInfo.",
                          p3(("n", 4, "h", "w"), (4,), (4,)),
                          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])",
                          sinfo(("n", 4, "h", "w"), "float32")))
    gn = "R.nn.group_norm(x, g, b, num_groups=%d, channel_axis=%d, axes=%s)"
    bad = [
        ("int", "group_norm of int32 data is rejected.", p3((2, 4, 3), (4,), (4,), "int32"),
         gn % (2, 1, "[2]"), "OpDTypeMismatch"),
        ("channel-in-axes", "group_norm with the channel axis among the axes is rejected.",
         p3((2, 4, 3), (4,), (4,)), gn % (2, 1, "[1, 2]"), "OpAttr"),
        ("channel-range", "group_norm with channel_axis 3 on a rank-3 tensor is rejected.",
         p3((2, 4, 3), (4,), (4,)), gn % (2, 3, "[2]"), "OpAttr"),
        ("axis-range", "group_norm with axis -4 on a rank-3 tensor is rejected.",
         p3((2, 4, 3), (4,), (4,)), gn % (2, 1, "[-4]"), "OpAttr"),
        ("groups-divide", "group_norm of 6 channels in 4 groups is rejected.",
         p3((2, 6, 3), (6,), (6,)), gn % (4, 1, "[2]"), "OpShapeMismatch"),
        ("groups-zero", "group_norm with num_groups 0 is rejected.",
         p3((2, 6, 3), (6,), (6,)), gn % (0, 1, "[2]"), "OpAttr"),
        ("gamma-dtype", "group_norm with float16 gamma and beta on float32 data is rejected.",
         p3((2, 4, 3), (4,), (4,), "float32", "float16"), gn % (2, 1, "[2]"), "OpDTypeMismatch"),
        ("gamma-rank", "group_norm with 2-D gamma and beta is rejected.",
         p3((2, 4, 3), (4, 1), (4, 1)), gn % (2, 1, "[2]"), "OpShapeMismatch"),
        ("gamma-length", "group_norm with gamma of 3 elements for 4 channels is rejected.",
         [("x", ann((2, 4, 3), "float32")), ("g", ann((3,), "float32")),
          ("b", ann((4,), "float32"))], gn % (2, 1, "[2]"), "OpShapeMismatch"),
    ]
    for cid, desc, params, expr, code in bad:
        out.append(error_case(op, cid, desc, params, expr, code))
    out.append(error_case(op, "runtime-groups", "group_norm of a symbolic channel count that "
                          "turns out to be 3 cannot split into 2 groups at run time.",
                          p3((1, "c", 2), ("c",), ("c",)), gn % (2, 1, "[2]"), "OpPrecondition",
                          [tensor(np.zeros((1, 3, 2)), "float32"),
                           tensor(np.ones(3), "float32"), tensor(np.zeros(3), "float32")]))
    return out


def instance_norm_cases(rng):
    op, out = "nn.instance_norm", []
    x, g, b = floats(rng, (2, 3, 2, 2)), floats(rng, (3,)), floats(rng, (3,))
    out.append(value_case(op, "nchw", "instance_norm over H and W, gamma and beta per channel.",
                          p3((2, 3, 2, 2), (3,), (3,)),
                          "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2, 3])",
                          [tensor(a, "float32") for a in (x, g, b)],
                          tensor(np_instance_norm(x, g, b, 1, [2, 3]), "float32"), TOL))
    x, g, b = floats(rng, (2, 2, 3, 4)), floats(rng, (4,)), floats(rng, (4,))
    out.append(value_case(op, "nhwc", "instance_norm with the channel axis last, over axes 1 "
                          "and 2, epsilon 1e-2.", p3((2, 2, 3, 4), (4,), (4,)),
                          "R.nn.instance_norm(x, g, b, channel_axis=-1, axes=[1, 2], "
                          "epsilon=0.01)", [tensor(a, "float32") for a in (x, g, b)],
                          tensor(np_instance_norm(x, g, b, -1, [1, 2], 1e-2), "float32"), TOL))
    x, g, b = floats(rng, (1, 2, 5)), floats(rng, (2,)), floats(rng, (2,))
    xd, gd, bd = floats(rng, (2, 2, 3)), floats(rng, (2,)), floats(rng, (2,))
    out.append(value_case(op, "float64", "instance_norm of float64 data in double (TVM's topi "
                          "supports only float32 and float16).",
                          p3((2, 2, 3), (2,), (2,), "float64"),
                          "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
                          [tensor(a, "float64") for a in (xd, gd, bd)],
                          tensor(np_instance_norm(xd, gd, bd, 1, [2], dtype="float64"), "float64")))
    out.append(tagged(value_case(
        op, "no-scale", "instance_norm with scale=False adds beta only (TVM's legalization "
        "ignores the flag).", p3((1, 2, 5), (2,), (2,)),
        "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2], scale=False)",
        [tensor(a, "float32") for a in (x, g, b)],
        tensor(np_instance_norm(x, g, b, 1, [2], scale=False), "float32"), TOL),
        CENTER_SCALE_BUG))
    out.append(sinfo_case(op, "symbolic", "instance_norm keeps the data's StructInfo.",
                          p3(("n", "c", 8), ("c",), ("c",)),
                          "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
                          sinfo(("n", "c", 8), "float32")))
    out.append({"id": "instance-norm-int-static", "description": "instance_norm of int32 data "
                "passes StructInfo checking (TVM's inference does not check the dtype).",
                "spec": ["OP-nn.instance_norm"], "valid": True,
                "program": program(p3((1, 2, 3), (2,), (2,), "int32"),
                                   "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])")})
    out.append(error_case(op, "int-runtime", "instance_norm of int32 data fails at run time "
                          "(the kernel, as TVM's topi, needs floats).",
                          p3((1, 2, 3), (2,), (2,), "int32"),
                          "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
                          "OpPrecondition", [tensor(np.zeros((1, 2, 3)), "int32"),
                                             tensor(np.ones(2), "int32"),
                                             tensor(np.zeros(2), "int32")]))
    inn = "R.nn.instance_norm(x, g, b, channel_axis=%d, axes=%s)"
    bad = [
        ("channel-in-axes", "instance_norm with the channel axis among the axes is rejected.",
         p3((2, 3, 4), (3,), (3,)), inn % (1, "[1, 2]"), "OpAttr"),
        ("channel-range", "instance_norm with channel_axis -4 on a rank-3 tensor is rejected.",
         p3((2, 3, 4), (3,), (3,)), inn % (-4, "[2]"), "OpAttr"),
        ("axis-dup", "instance_norm with axis 2 given twice is rejected.",
         p3((2, 3, 4), (3,), (3,)), inn % (1, "[2, -1]"), "OpAttr"),
        ("beta-dtype", "instance_norm with a float64 beta on float32 data is rejected.",
         [("x", ann((2, 3, 4), "float32")), ("g", ann((3,), "float32")),
          ("b", ann((3,), "float64"))], inn % (1, "[2]"), "OpDTypeMismatch"),
        ("gamma-rank", "instance_norm with a scalar gamma is rejected.",
         [("x", ann((2, 3, 4), "float32")), ("g", 'R.Tensor((), "float32")'),
          ("b", ann((3,), "float32"))], inn % (1, "[2]"), "OpShapeMismatch"),
        ("gamma-length", "instance_norm with gamma of 4 elements for 3 channels is rejected.",
         p3((2, 3, 4), (4,), (4,)), inn % (1, "[2]"), "OpShapeMismatch"),
    ]
    for cid, desc, params, expr, code in bad:
        out.append(error_case(op, cid, desc, params, expr, code))
    return out


def rms_norm_cases(rng):
    op, out = "nn.rms_norm", []
    pw = lambda x, w, dt="float32", wdt=None: [("x", ann(x, dt)), ("w", ann(w, wdt or dt))]
    x, w = floats(rng, (2, 5)), floats(rng, (5,))
    out.append(value_case(op, "last-axis", "rms_norm over the last axis (the default).",
                          pw((2, 5), (5,)), "R.nn.rms_norm(x, w)",
                          [tensor(x, "float32"), tensor(w, "float32")],
                          tensor(np_rms_norm(x, w, [-1]), "float32"), TOL))
    x, w = floats(rng, (2, 2, 3)), floats(rng, (2, 3))
    out.append(value_case(op, "two-axes", "rms_norm over axes 1 and 2, epsilon 1e-6.",
                          pw((2, 2, 3), (2, 3)), "R.nn.rms_norm(x, w, axes=[1, 2], epsilon=1e-6)",
                          [tensor(x, "float32"), tensor(w, "float32")],
                          tensor(np_rms_norm(x, w, [1, 2], 1e-6), "float32"), TOL))
    x = np.array([[0.1, 1.0 / 3.0, 2.0 / 7.0], [1e-3, 5.0, -0.7]])
    w = np.array([1.0 / 3.0, 0.2, 1.1])
    out.append(value_case(op, "float64", "rms_norm of float64 data: TVM casts data and weight "
                          "to float32, so the result carries float32 precision.",
                          pw((2, 3), (3,), "float64"), "R.nn.rms_norm(x, w, axes=1)",
                          [tensor(x, "float64"), tensor(w, "float64")],
                          tensor(np_rms_norm(x, w, [1], dtype="float64"), "float64"),
                          {"rtol": 1e-6, "atol": 1e-9}))
    xh, wh = floats(rng, (2, 4), "float16"), floats(rng, (4,), "float16")
    out.append(value_case(op, "float16", "rms_norm of float16 computed in float32 and rounded "
                          "to float16.", pw((2, 4), (4,), "float16"), "R.nn.rms_norm(x, w)",
                          [tensor(xh, "float16"), tensor(wh, "float16")],
                          tensor(np_rms_norm(xh, wh, [-1], dtype="float16"), "float16"), TOL16))
    out.append(sinfo_case(op, "symbolic", "rms_norm keeps the data's StructInfo.",
                          pw(("n", "m"), ("m",)), "R.nn.rms_norm(x, w)",
                          sinfo(("n", "m"), "float32")))
    out.append(sinfo_case(op, "undecided", "rms_norm whose weight length cannot be compared "
                          "with the axis keeps only the rank.", pw(("n", 4), ("k",)),
                          "R.nn.rms_norm(x, w)", sinfo(2, "float32")))
    bad = [
        ("int", "rms_norm of int32 data is rejected.", pw((2, 3), (3,), "int32"),
         "R.nn.rms_norm(x, w)", "OpDTypeMismatch"),
        ("weight-dtype", "rms_norm with a float16 weight on float32 data is rejected.",
         pw((2, 3), (3,), "float32", "float16"), "R.nn.rms_norm(x, w)", "OpDTypeMismatch"),
        ("weight-rank", "rms_norm over one axis with a 2-D weight is rejected.",
         pw((2, 3), (2, 3)), "R.nn.rms_norm(x, w)", "OpShapeMismatch"),
        ("weight-dims", "rms_norm with a weight of 4 elements over an axis of 3 is rejected.",
         pw((2, 3), (4,)), "R.nn.rms_norm(x, w)", "OpShapeMismatch"),
        ("axis-range", "rms_norm over axis 2 of a rank-2 tensor is rejected.",
         pw((2, 3), (3,)), "R.nn.rms_norm(x, w, axes=[2])", "OpAttr"),
        ("axis-dup", "rms_norm over axes [1, -1] (one axis twice) is rejected.",
         pw((2, 3), (3, 3)), "R.nn.rms_norm(x, w, axes=[1, -1])", "OpAttr"),
    ]
    for cid, desc, params, expr, code in bad:
        out.append(error_case(op, cid, desc, params, expr, code))
    out.append(error_case(op, "runtime-weight", "rms_norm whose weight turns out shorter than "
                          "the axis fails at run time.", pw((2, "n"), ("m",)),
                          "R.nn.rms_norm(x, w)", "OpPrecondition",
                          [tensor(np.ones((2, 3)), "float32"), tensor(np.ones(2), "float32")]))
    return out


# ---- attention ---------------------------------------------------------------------------


def qkv(q, k, v, extra=()):
    return [("q", ann(q, "float32")), ("k", ann(k, "float32")), ("v", ann(v, "float32"))] + \
        list(extra)


def attention_cases(rng):
    op, out = "nn.attention", []

    def rnd(shape):
        return floats(rng, shape)

    def run(cid, desc, shapes, expr, bias=None, **kw):
        q, k, v = (rnd(s) for s in shapes)
        args = [tensor(a, "float32") for a in (q, k, v)]
        extra = []
        if bias is not None:
            bv = rnd(bias)
            args.append(tensor(bv, "float32"))
            extra = [("bias", ann(bias, "float32"))]
        exp = np_attention(q, k, v, bv if bias is not None else None, **kw)
        rule = "nn.attention_bias" if bias is not None else op
        return value_case(rule, cid, desc, qkv(*shapes, extra), expr, args,
                          tensor(exp, "float32"), TOL)

    base = ((1, 3, 2, 4), (1, 4, 2, 4), (1, 4, 2, 3))
    out.append(run("default", "attention with the default scale 1/sqrt(head_dim): (batch, seq, "
                   "heads, head_dim) in, (batch, seq, heads, head_dim_v) out.", base,
                   "R.nn.attention(q, k, v)"))
    out.append(run("scale", "attention with scale 0.5 on two batches.",
                   ((2, 2, 1, 3), (2, 3, 1, 3), (2, 3, 1, 2)),
                   "R.nn.attention(q, k, v, scale=0.5)", scale=0.5))
    sq = ((1, 4, 1, 2), (1, 2, 1, 2), (1, 2, 1, 2))
    kq = ((1, 2, 1, 2), (1, 4, 1, 2), (1, 4, 1, 3))
    out.append(run("top-left", "attention with the TopLeft causal mask: query i sees keys j <= "
                   "i (4 queries, 2 keys).", sq, "R.nn.attention(q, k, v, causal_mask=\"TopLeft\")",
                   mask="TopLeft"))
    out.append(run("top-left-wide", "attention with the TopLeft causal mask, 2 queries and 4 "
                   "keys.", kq, "R.nn.attention(q, k, v, causal_mask=\"TopLeft\")",
                   mask="TopLeft"))
    out.append(run("bottom-right", "attention with the BottomRight mask: query i sees keys j <= "
                   "i + |seq_len - seq_len_kv| (2 queries, 4 keys).", kq,
                   "R.nn.attention(q, k, v, causal_mask=\"BottomRight\")", mask="BottomRight"))
    out.append(run("bottom-right-tall", "attention with the BottomRight mask, 4 queries and 2 "
                   "keys: the offset is |4 - 2|, every key visible, as TVM documents.", sq,
                   "R.nn.attention(q, k, v, causal_mask=\"BottomRight\")", mask="BottomRight"))
    out.append(run("grouped-heads", "attention with 4 query heads over 2 key/value heads: query "
                   "head h reads head h / 2.", ((1, 2, 4, 2), (1, 3, 2, 2), (1, 3, 2, 2)),
                   "R.nn.attention(q, k, v)"))
    out.append(run("window", "attention with a sliding window of 2 keys on the BottomRight "
                   "diagonal.", ((1, 4, 1, 2), (1, 4, 1, 2), (1, 4, 1, 2)),
                   "R.nn.attention(q, k, v, causal_mask=\"BottomRight\", window_size=2)",
                   mask="BottomRight", window=2))
    # Visible scores of -200: TVM's masked softmax subtracts a max that counts the masked
    # zeros, exp(-200) underflows in float32 and the first row is 0/0.
    q = np.array([[[[10.0]], [[10.0]]]])
    k = np.array([[[[-20.0]], [[-20.0]]]])
    v = np.array([[[[1.5]], [[-2.5]]]])
    out.append(tagged(value_case(
        op, "masked-underflow", "attention with the TopLeft mask whose visible scores are all "
        "-200: the softmax over the visible keys is finite (TVM v0.22's lowering takes the max "
        "with the masked zeros, underflows and gives NaN).",
        qkv((1, 2, 1, 1), (1, 2, 1, 1), (1, 2, 1, 1)),
        "R.nn.attention(q, k, v, scale=1.0, causal_mask=\"TopLeft\")",
        [tensor(a, "float32") for a in (q, k, v)],
        tensor(np_attention(q, k, v, scale=1.0, mask="TopLeft"), "float32"), TOL),
        ["tvm-bug", "tvm-attention-mask-underflow"]))
    q, k, v = (floats(rng, sh, "float16") for sh in base)
    out.append(value_case(op, "float16", "attention of float16 tensors, each step rounded to "
                          "float16 as TVM's float16 lowering computes it.",
                          [(n, ann(sh, "float16")) for n, sh in zip("qkv", base)],
                          "R.nn.attention(q, k, v)", [tensor(a, "float16") for a in (q, k, v)],
                          tensor(np_attention(q, k, v, dtype="float16"), "float16"), TOL16))
    out.append(value_case(op, "float16-scale", "attention of float16 tensors with scale 0.25: the "
                          "result stays float16 (TVM v0.22's lowering turns the scaled scores "
                          "into float32 and returns a float32 tensor).",
                          [(n, ann(sh, "float16")) for n, sh in zip("qkv", base)],
                          "R.nn.attention(q, k, v, scale=0.25)",
                          [tensor(a, "float16") for a in (q, k, v)],
                          tensor(np_attention(q, k, v, scale=0.25, dtype="float16"), "float16"),
                          TOL16))
    out.append(error_case(op, "scale-symbolic", "attention with a symbolic scale is rejected "
                          "(the scale is a number).", qkv(("n", 3, 2, 4), (1, 4, 2, 4),
                                                          (1, 4, 2, 3)),
                          "R.nn.attention(q, k, v, scale=R.prim_value(n))", "OpAttr"))
    out.append(sinfo_case(op, "symbolic", "attention gives (batch, seq, heads, head_dim_v) with "
                          "symbolic dims.", qkv(("b", "s", 4, 16), ("b", "t", 2, 16),
                                                ("b", "t", 2, 8)),
                          "R.nn.attention(q, k, v)", sinfo(("b", "s", 4, 8), "float32")))
    out.append(sinfo_case(op, "symbolic-heads", "attention with h query heads over 2 key heads "
                          "passes (h is not provably other than a multiple).",
                          qkv((1, 3, "h", 4), (1, 5, 2, 4), (1, 5, 2, 4)),
                          "R.nn.attention(q, k, v)", sinfo((1, 3, "h", 4), "float32")))
    q, k, v = floats(rng, (2, 3, 1, 2)), floats(rng, (2, 2, 1, 2)), floats(rng, (2, 2, 1, 2))
    out.append(value_case(op, "symbolic-run", "attention with symbolic lengths, run "
                          "with 3 queries and 2 keys.",
                          qkv((2, "s", 1, 2), (2, "t", 1, 2), (2, "t", 1, 2)),
                          "R.nn.attention(q, k, v, causal_mask=\"BottomRight\")",
                          [tensor(a, "float32") for a in (q, k, v)],
                          tensor(np_attention(q, k, v, mask="BottomRight"), "float32"), TOL))
    out.append(value_case(op, "symbolic-batch", "attention with a symbolic batch, run with batch "
                          "2 (TVM v0.22's lowering cannot build it).",
                          qkv(("b", 3, 1, 2), ("b", 2, 1, 2), ("b", 2, 1, 2)),
                          "R.nn.attention(q, k, v)", [tensor(a, "float32") for a in (q, k, v)],
                          tensor(np_attention(q, k, v), "float32"), TOL))
    out.append(sinfo_case(op, "unknown-shape", "attention of a query with only its rank known "
                          "gives a rank-4 tensor.",
                          [("q", 'R.Tensor(dtype="float16", ndim=4)'),
                           ("k", ann((1, 2, 1, 4), "float16")), ("v", ann((1, 2, 1, 4), "float16"))],
                          "R.nn.attention(q, k, v)", sinfo(4, "float16")))
    out.append(sinfo_case(op, "unknown-key-shape", "attention whose key has only its rank known "
                          "gives a rank-4 tensor, although the query and value shapes are known.",
                          [("q", ann((1, 2, 1, 4), "float16")),
                           ("k", 'R.Tensor(dtype="float16", ndim=4)'),
                           ("v", ann((1, 2, 1, 4), "float16"))],
                          "R.nn.attention(q, k, v)", sinfo(4, "float16")))
    a = "R.nn.attention(q, k, v%s)"
    bad = [
        ("rank", "attention of a rank-3 query is rejected.",
         qkv((1, 3, 8), (1, 4, 2, 4), (1, 4, 2, 4)), a % "", "OpShapeMismatch"),
        ("batch", "attention with query batch 2 and key batch 1 is rejected.",
         qkv((2, 3, 2, 4), (1, 4, 2, 4), (1, 4, 2, 4)), a % "", "OpShapeMismatch"),
        ("heads", "attention with 3 query heads over 2 key heads is rejected.",
         qkv((1, 3, 3, 4), (1, 4, 2, 4), (1, 4, 2, 4)), a % "", "OpShapeMismatch"),
        ("value-heads", "attention with 4 query heads over 3 value heads is rejected.",
         qkv((1, 3, 4, 4), (1, 4, 2, 4), (1, 4, 3, 4)), a % "", "OpShapeMismatch"),
        ("kv-seq", "attention with 4 keys and 5 values is rejected.",
         qkv((1, 3, 2, 4), (1, 4, 2, 4), (1, 5, 2, 4)), a % "", "OpShapeMismatch"),
        ("head-dim", "attention with query head_dim 4 and key head_dim 8 is rejected.",
         qkv((1, 3, 2, 4), (1, 4, 2, 8), (1, 4, 2, 4)), a % "", "OpShapeMismatch"),
        ("mask-name", "attention with causal_mask \"Upper\" is rejected.",
         qkv(*base), a % ", causal_mask=\"Upper\"", "OpAttr"),
        ("window-no-mask", "attention with a window but no causal mask is rejected.",
         qkv(*base), a % ", window_size=2", "OpAttr"),
        ("window-zero", "attention with window_size 0 is rejected.",
         qkv(*base), a % ", causal_mask=\"TopLeft\", window_size=0", "OpAttr"),
    ]
    for cid, desc, params, expr, code in bad:
        out.append(error_case(op, cid, desc, params, expr, code))
    return out


def attention_bias_cases(rng):
    op, out = "nn.attention_bias", []
    shapes = ((1, 3, 2, 4), (1, 4, 2, 4), (1, 4, 2, 3))
    for cid, bshape, expr, kw, desc in [
            ("full", (1, 2, 3, 4), "R.nn.attention(q, k, v, bias)", {},
             "attention with a (batch, heads, seq, seq_kv) bias added to the scaled scores."),
            ("broadcast", (1, 1, 1, 4), "R.nn.attention(q, k, v, bias, scale=0.25)",
             {"scale": 0.25}, "attention with a bias of shape (1, 1, 1, seq_kv) broadcast over "
             "heads and queries."),
            ("causal", (1, 2, 3, 4), "R.nn.attention_bias(q, k, v, bias, causal_mask=\"TopLeft\")",
             {"mask": "TopLeft"}, "attention_bias (the name TVM prints) with a bias and the "
             "TopLeft mask."),
            ("printed-scale", (1, 2, 1, 4), "R.nn.attention_bias(q, k, v, bias, "
             "scale=T.float32(0.1), causal_mask=\"BottomRight\", window_size=None)",
             {"scale": 0.1, "mask": "BottomRight"}, "attention_bias as TVM prints it, the "
             "scale a float32 literal (0.1 rounded to float32).")]:
        q, k, v, b = (floats(rng, s) for s in shapes + (bshape,))
        out.append(value_case(op, cid, desc, qkv(*shapes, [("bias", ann(bshape, "float32"))]),
                              expr, [tensor(a, "float32") for a in (q, k, v, b)],
                              tensor(np_attention(q, k, v, b, **kw), "float32"), TOL))
    out.append(sinfo_case(op, "symbolic", "attention with a broadcast symbolic bias keeps the "
                          "query's dims.", qkv(("b", "s", 2, 4), ("b", "t", 2, 4),
                                               ("b", "t", 2, 6),
                                               [("bias", ann(("b", 1, "s", "t"), "float32"))]),
                          "R.nn.attention(q, k, v, bias)", sinfo(("b", "s", 2, 6), "float32")))
    a = "R.nn.attention(q, k, v, bias)"
    for cid, bshape, desc in [("rank", (2, 3, 4), "attention with a rank-3 bias is rejected."),
                              ("rank-0", (), "attention with a scalar bias is rejected (TVM's "
                               "inference needs rank 4)."),
                              ("batch", (2, 2, 3, 4), "attention with a bias of batch 2 for "
                               "batch 1 is rejected."),
                              ("seq", (1, 2, 2, 4), "attention with a bias of 2 query rows for 3 "
                               "is rejected."),
                              ("heads", (1, 3, 3, 4), "attention with a bias of 3 heads for 2 "
                               "query heads is rejected."),
                              ("seq-kv", (1, 2, 3, 5), "attention with a bias of 5 keys for 4 "
                               "is rejected.")]:
        out.append(error_case(op, cid, desc, qkv(*shapes, [("bias", ann(bshape, "float32"))]),
                              a, "OpShapeMismatch"))
    # Found only when run: the error names the bias rule, as the static ones do. TVM reads the
    # bias out of bounds there (undefined).
    case = error_case(op, "seq-kv-run", "attention with a bias of symbolic shape that has 5 "
                      "keys for 4 when run stops under the bias's rule.",
                      qkv(*shapes, [("bias", ann(("a", "b", "c", "d"), "float32"))]), a,
                      "OpPrecondition",
                      [tensor(np.zeros(sh), "float32") for sh in shapes + ((1, 2, 3, 5),)])
    case["result"] = "undefined"
    out.append(case)
    return out


def attention_var_len_cases(rng):
    op, out = "nn.attention_var_len", []
    i32 = lambda a: np.array(a, dtype=np.int32)
    q, k, v = floats(rng, (1, 5, 2, 2)), floats(rng, (1, 5, 2, 2)), floats(rng, (1, 5, 2, 3))
    params = qkv((1, 5, 2, 2), (1, 5, 2, 2), (1, 5, 2, 3),
                 [("sq", ann((3,), "int32")), ("mq", ann((), "int32"))])
    out.append(value_case(op, "two-sequences", "attention_var_len over sequences of 2 and 3 "
                          "rows: each attends only to its own keys.", params,
                          "R.nn.attention_var_len(q, k, v, sq, mq)",
                          [tensor(a, "float32") for a in (q, k, v)] +
                          [tensor(i32([0, 2, 5]), "int32"), tensor(i32(3), "int32")],
                          tensor(np_attention_var_len(q, k, v, [0, 2, 5], [0, 2, 5]), "float32"),
                          TOL))
    kk, vv = floats(rng, (1, 6, 2, 2)), floats(rng, (1, 6, 2, 3))
    params = qkv((1, 5, 2, 2), (1, 6, 2, 2), (1, 6, 2, 3),
                 [("sq", ann((3,), "int32")), ("mq", ann((), "int32")),
                  ("sk", ann((3,), "int32")), ("mk", ann((), "int32"))])
    out.append(value_case(op, "causal", "attention_var_len with key lengths 4 and 2 apart from "
                          "the query lengths 2 and 3, the BottomRight mask per sequence, scale "
                          "0.5.", params,
                          "R.nn.attention_var_len(q, k, v, sq, mq, sk, mk, scale=0.5, "
                          "causal_mask=\"BottomRight\")",
                          [tensor(a, "float32") for a in (q, kk, vv)] +
                          [tensor(i32([0, 2, 5]), "int32"), tensor(i32(3), "int32"),
                           tensor(i32([0, 4, 6]), "int32"), tensor(i32(4), "int32")],
                          tensor(np_attention_var_len(q, kk, vv, [0, 2, 5], [0, 4, 6], 0.5,
                                                      "BottomRight"), "float32"), TOL))
    out.append(sinfo_case(op, "symbolic", "attention_var_len gives (1, total_q, heads, "
                          "head_dim_v).", qkv((1, "n", 4, 8), (1, "m", 4, 8), (1, "m", 4, 2),
                                              [("sq", ann(("b",), "int32")),
                                               ("mq", ann((), "int32"))]),
                          "R.nn.attention_var_len(q, k, v, sq, mq)",
                          sinfo((1, "n", 4, 2), "float32")))
    base = qkv((1, 5, 2, 2), (1, 5, 2, 2), (1, 5, 2, 3),
               [("sq", ann((3,), "int32")), ("mq", ann((), "int32"))])
    out.append(error_case(op, "head-dim", "attention_var_len with query head_dim 2 and key "
                          "head_dim 4 is rejected.",
                          qkv((1, 5, 2, 2), (1, 5, 2, 4), (1, 5, 2, 3),
                              [("sq", ann((3,), "int32")), ("mq", ann((), "int32"))]),
                          "R.nn.attention_var_len(q, k, v, sq, mq)", "OpShapeMismatch"))
    out.append(error_case(op, "seqstart-shape", "attention_var_len with a Shape for seqstart_q "
                          "is rejected (every argument is a tensor).",
                          base[:3] + [("sq", "R.Shape([3])"), ("mq", ann((), "int32"))],
                          "R.nn.attention_var_len(q, k, v, sq, mq)", "OpArgType"))
    out.append(error_case(op, "six-args", "attention_var_len given seqstart_k without "
                          "max_seqlen_k is rejected (the two go together here).",
                          base + [("sk", ann((3,), "int32"))],
                          "R.nn.attention_var_len(q, k, v, sq, mq, sk)", "OpArity"))
    args = [tensor(a, "float32") for a in (q, k, v)]
    out.append(error_case(op, "seqstart-order", "attention_var_len with decreasing sequence "
                          "starts fails at run time.", base,
                          "R.nn.attention_var_len(q, k, v, sq, mq)", "OpPrecondition",
                          args + [tensor(i32([0, 3, 2]), "int32"), tensor(i32(3), "int32")]))
    out.append(error_case(op, "max-seqlen", "attention_var_len with a sequence of 3 rows and "
                          "max_seqlen_q 2 fails at run time.", base,
                          "R.nn.attention_var_len(q, k, v, sq, mq)", "OpPrecondition",
                          args + [tensor(i32([0, 2, 5]), "int32"), tensor(i32(2), "int32")]))
    out.append(error_case(op, "max-seqlen-first", "attention_var_len whose first sequence (3 "
                          "rows) is the one longer than max_seqlen_q 2 fails at run time.", base,
                          "R.nn.attention_var_len(q, k, v, sq, mq)", "OpPrecondition",
                          args + [tensor(i32([0, 3, 5]), "int32"), tensor(i32(2), "int32")]))
    return out


# ---- losses ------------------------------------------------------------------------------


def cross_entropy_cases(rng):
    op, out = "nn.cross_entropy_with_logits", []
    pxy = lambda s, dt="float32", s2=None, dt2=None: [("x", ann(s, dt)),
                                                      ("lab", ann(s if s2 is None else s2, dt2 or dt))]
    x, y = floats(rng, (3, 4)), floats(rng, (3, 4))
    out.append(value_case(op, "batch", "cross_entropy_with_logits of (3, 4): -sum(x y) / 3.",
                          pxy((3, 4)), "R.nn.cross_entropy_with_logits(x, lab)",
                          [tensor(x, "float32"), tensor(y, "float32")],
                          tensor(np_cross_entropy(x, y), "float32"), TOL))
    x, y = floats(rng, (5,)), floats(rng, (5,))
    out.append(value_case(op, "vector", "cross_entropy_with_logits of a float64 vector: "
                          "-sum(x y), no division.", pxy((5,), "float64"),
                          "R.nn.cross_entropy_with_logits(x, lab)",
                          [tensor(x, "float64"), tensor(y, "float64")],
                          tensor(np_cross_entropy(x, y), "float64")))
    xi = np.array([[3, -1], [2, 2], [1, 0]])
    yi = np.array([[1, 2], [1, 1], [-1, 4]])
    out.append(value_case(op, "int", "cross_entropy_with_logits of int32: -sum(x y) = -4, "
                          "divided by 3 truncating toward zero to -1.", pxy((3, 2), "int32"),
                          "R.nn.cross_entropy_with_logits(x, lab)",
                          [tensor(xi, "int32"), tensor(yi, "int32")],
                          np.array(np_cross_entropy_int(xi, yi), dtype=np.int32)))
    out.append(sinfo_case(op, "symbolic", "cross_entropy_with_logits gives a scalar.",
                          pxy(("n", "c")), "R.nn.cross_entropy_with_logits(x, lab)",
                          sinfo((), "float32")))
    bad = [
        ("rank", "cross_entropy_with_logits of ranks 2 and 1 is rejected.", pxy((3, 4), s2=(4,)),
         "OpShapeMismatch"),
        ("rank-0-predictions", "cross_entropy_with_logits of a rank-0 prediction and rank-2 "
         "labels is rejected: a known rank 0 differs from 2 (TVM's ndim check).",
         pxy((), s2=(3, 4)), "OpShapeMismatch"),
        ("rank-0-labels", "cross_entropy_with_logits of rank-2 predictions and rank-0 labels is "
         "rejected.", pxy((3, 4), s2=()), "OpShapeMismatch"),
        ("dims", "cross_entropy_with_logits of (3, 4) and (3, 5) is rejected.",
         pxy((3, 4), s2=(3, 5)), "OpShapeMismatch"),
        ("dtype", "cross_entropy_with_logits of float32 and float16 is rejected.",
         pxy((3, 4), dt2="float16"), "OpDTypeMismatch"),
    ]
    for cid, desc, params, code in bad:
        out.append(error_case(op, cid, desc, params, "R.nn.cross_entropy_with_logits(x, lab)",
                              code))
    return out


def nll_cases(rng):
    op, out = "nn.nll_loss", []

    def params(p, t, w=None, pd="float32", td="int64", wd=None):
        ps = [("p", ann(p, pd)), ("t", ann(t, td))]
        return ps + ([("w", ann(w, wd or pd))] if w is not None else [])

    def run(cid, desc, pshape, t, w, expr, **kw):
        pred = floats(rng, pshape)
        args = [tensor(pred, "float32"), np.array(t, dtype=np.int64)]
        if w is not None:
            args.append(tensor(w, "float32"))
        exp = np_nll_loss(pred, np.array(t), None if w is None else np.array(w), **kw)
        return value_case(op, cid, desc, params(pshape, np.shape(t),
                                                None if w is None else np.shape(w)),
                          expr, args, tensor(exp, "float32"), TOL)

    w4 = rounded(np.array([0.5, 1.0, 2.0, 0.25]), "float32")
    out.append(run("mean-weights", "nll_loss mean with class weights: the weighted losses over "
                   "the sum of the targets' weights.", (3, 4), [1, 3, 2], w4,
                   "R.nn.nll_loss(p, t, w)"))
    out.append(run("sum", "nll_loss sum without weights.", (3, 4), [0, 3, 3], None,
                   "R.nn.nll_loss(p, t, reduction=\"sum\")", reduction="sum"))
    out.append(run("none-spatial", "nll_loss none on (N, C, d): one loss per target, 0 where the "
                   "target is ignore_index 1.", (2, 3, 2), [[1, 0], [2, 1]], None,
                   "R.nn.nll_loss(p, t, reduction=\"none\", ignore_index=1)",
                   reduction="none", ignore=1))
    out.append(run("mean-ignore", "nll_loss mean divides by the weights of the targets not "
                   "ignored (-100).", (4, 4), [2, -100, 0, -100], w4, "R.nn.nll_loss(p, t, w)"))
    out.append(run("class-vector", "nll_loss of predictions (C,) and a scalar target.", (4,), 2,
                   w4, "R.nn.nll_loss(p, t, w)"))
    out.append(run("all-ignored", "nll_loss mean with every target ignored is 0 / 0, NaN.",
                   (2, 3), [-100, -100], None, "R.nn.nll_loss(p, t)"))
    out.append(sinfo_case(op, "symbolic-none", "nll_loss none of (n, c, d) predictions gives "
                          "(n, d).", params(("n", "c", "d"), ("n", "d")),
                          "R.nn.nll_loss(p, t, reduction=\"none\")", sinfo(("n", "d"), "float32")))
    out.append(sinfo_case(op, "rank-only-none", "nll_loss none of predictions with only their "
                          "rank 3 known gives rank 2.",
                          [("p", 'R.Tensor(dtype="float32", ndim=3)'), ("t", ann(("n", 2), "int64"))],
                          "R.nn.nll_loss(p, t, reduction=\"none\")", sinfo(2, "float32")))
    out.append(sinfo_case(op, "symbolic-mean", "nll_loss mean gives a scalar.",
                          params(("n", "c"), ("n",), ("c",)), "R.nn.nll_loss(p, t, w)",
                          sinfo((), "float32")))
    bad = [
        ("float-targets", "nll_loss with float32 targets is rejected.",
         params((3, 4), (3,), td="float32"), "R.nn.nll_loss(p, t)", "OpDTypeMismatch"),
        ("weights-dtype", "nll_loss with float16 weights on float32 predictions is rejected.",
         params((3, 4), (3,), (4,), wd="float16"), "R.nn.nll_loss(p, t, w)", "OpDTypeMismatch"),
        ("k-dims", "nll_loss of (N, C, d) predictions with (N,) targets is rejected.",
         params((3, 4, 2), (3,)), "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("weights-rank", "nll_loss with 2-D weights is rejected.",
         params((3, 4), (3,), (4, 1)), "R.nn.nll_loss(p, t, w)", "OpShapeMismatch"),
        ("batch", "nll_loss with 3 predictions and 2 targets is rejected.",
         params((3, 4), (2,)), "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("spatial", "nll_loss with prediction dim d=2 and target dim 3 is rejected.",
         params((3, 4, 2), (3, 3)), "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("classes", "nll_loss with 4 classes and 5 weights is rejected.",
         params((3, 4), (3,), (5,)), "R.nn.nll_loss(p, t, w)", "OpShapeMismatch"),
        ("vector-targets", "nll_loss of predictions (C,) with targets (N,) is rejected.",
         params((4,), (3,)), "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("scalar-target", "nll_loss of predictions (N, C) with a scalar target is rejected.",
         params((3, 4), ()), "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("scalar-predictions", "nll_loss of scalar predictions is rejected.",
         [("p", 'R.Tensor((), "float32")'), ("t", 'R.Tensor((), "int64")')],
         "R.nn.nll_loss(p, t)", "OpShapeMismatch"),
        ("reduction", "nll_loss with reduction \"max\" is rejected.",
         params((3, 4), (3,)), "R.nn.nll_loss(p, t, reduction=\"max\")", "OpAttr"),
    ]
    for cid, desc, ps, expr, code in bad:
        out.append(error_case(op, cid, desc, ps, expr, code))
    out.append(error_case(op, "target-range", "nll_loss with target 4 among 4 classes fails at "
                          "run time.", params((2, 4), (2,)), "R.nn.nll_loss(p, t)",
                          "OpPrecondition", [tensor(np.zeros((2, 4)), "float32"),
                                             np.array([1, 4], dtype=np.int64)]))
    return out


# ---- pixel_shuffle -----------------------------------------------------------------------


def pixel_shuffle_cases(rng):
    op, out = "nn.pixel_shuffle", []
    x = floats(rng, (1, 8, 2, 3))
    out.append(value_case(op, "nchw", "pixel_shuffle of (1, 8, 2, 3) by 2 gives (1, 2, 4, 6).",
                          [("x", ann((1, 8, 2, 3), "float32"))],
                          "R.nn.pixel_shuffle(x, upscale_factor=2)", [tensor(x, "float32")],
                          tensor(np_pixel_shuffle(x, 2), "float32")))
    xi = np.arange(36).reshape(9, 2, 2)
    out.append(value_case(op, "rank3-int", "pixel_shuffle of an int32 (9, 2, 2) by 3 gives "
                          "(1, 6, 6).", [("x", ann((9, 2, 2), "int32"))],
                          "R.nn.pixel_shuffle(x, 3)", [tensor(xi, "int32")],
                          tensor(np_pixel_shuffle(xi, 3), "int32")))
    x5 = floats(rng, (2, 1, 4, 1, 2))
    out.append(value_case(op, "rank5", "pixel_shuffle of a rank-5 tensor works on the last "
                          "three axes.", [("x", ann((2, 1, 4, 1, 2), "float32"))],
                          "R.nn.pixel_shuffle(x, 2)", [tensor(x5, "float32")],
                          tensor(np_pixel_shuffle(x5, 2), "float32")))
    out.append(sinfo_case(op, "symbolic", "pixel_shuffle multiplies symbolic H and W by r.",
                          [("x", ann(("n", 8, "h", "w"), "float32"))], "R.nn.pixel_shuffle(x, 2)",
                          sinfo(("n", 2, "h * 2", "w * 2"), "float32")))
    out.append(sinfo_case(op, "rank-only", "pixel_shuffle of a tensor with only its rank known "
                          "keeps the rank.", [("x", 'R.Tensor(dtype="float16", ndim=4)')],
                          "R.nn.pixel_shuffle(x, 3)", sinfo(4, "float16")))
    out.append(sinfo_case(op, "symbolic-channels", "pixel_shuffle of a symbolic channel count "
                          "c gives c // 4 channels for r = 2.",
                          [("x", ann(("n", "c", 2, 3), "float32"))], "R.nn.pixel_shuffle(x, 2)",
                          sinfo(("n", "c // 4", 4, 6), "float32")))
    bad = [
        ("channels", "pixel_shuffle of 6 channels by 2 is rejected.", (1, 6, 2, 2), 2,
         "OpShapeMismatch"),
        ("rank", "pixel_shuffle of a rank-2 tensor is rejected.", (4, 4), 2, "OpShapeMismatch"),
        ("factor", "pixel_shuffle with upscale_factor 0 is rejected.", (1, 4, 2, 2), 0,
         "OpAttr"),
    ]
    for cid, desc, shape, r, code in bad:
        out.append(error_case(op, cid, desc, [("x", ann(shape, "float32"))],
                              "R.nn.pixel_shuffle(x, %d)" % r, code))
    return out


# Where TVM v0.22 differs from the reference (SPEC_NOTES, the rows OP-nn.group_norm to
# OP-nn.pixel_shuffle): `tvm-bug` where TVM's lowering or inference is wrong (with a tag
# naming the bug), `tvm-diverges` where the reference decides what TVM leaves unlowered or
# undefined. Measured with tools/gen/check_tvm.sh.
PIXEL_SHUFFLE_BUG = ["tvm-bug", "tvm-pixel-shuffle-topi"]
TVM_DIFFERENCES = {
    "pixel-shuffle-nchw": PIXEL_SHUFFLE_BUG,
    "pixel-shuffle-rank3-int": PIXEL_SHUFFLE_BUG,
    "pixel-shuffle-rank5": PIXEL_SHUFFLE_BUG,
    "pixel-shuffle-symbolic-channels": ["tvm-bug", "tvm-pixel-shuffle-symbolic-channels"],
    "instance-norm-nhwc": ["tvm-bug", "tvm-instance-norm-negative-channel"],
    "attention-grouped-heads": ["tvm-bug", "tvm-attention-grouped-heads"],
    "attention-unknown-shape": ["tvm-bug", "tvm-attention-unknown-shape"],
    "attention-unknown-key-shape": ["tvm-bug", "tvm-attention-unknown-shape"],
    "attention-symbolic-batch": ["tvm-bug", "tvm-attention-symbolic-batch"],
    "attention-float16-scale": ["tvm-bug", "tvm-attention-scale-dtype"],
    "attention-window": ["tvm-diverges"],
    "attention-mask-name": ["tvm-diverges"],
    "attention-window-no-mask": ["tvm-diverges"],
    "attention-window-zero": ["tvm-diverges"],
    "attention-var-len-two-sequences": ["tvm-diverges"],
    "attention-var-len-causal": ["tvm-diverges"],
    "attention-var-len-seqstart-order": ["tvm-diverges"],
    "attention-var-len-max-seqlen": ["tvm-diverges"],
    "attention-var-len-max-seqlen-first": ["tvm-diverges"],
    "attention-var-len-six-args": ["tvm-diverges"],
    "cross-entropy-with-logits-int": ["tvm-diverges"],
    "group-norm-runtime-groups": ["tvm-diverges"],
    "instance-norm-float64": ["tvm-diverges"],
    "nll-loss-target-range": ["tvm-diverges"],
}


def cases():
    groups = [(group_norm_cases, "norm"), (instance_norm_cases, "norm"),
              (rms_norm_cases, "norm"), (attention_cases, "norm_attention"),
              (attention_bias_cases, "norm_attention"), (attention_var_len_cases, "norm_attention"),
              (cross_entropy_cases, "norm_loss"), (nll_cases, "norm_loss"),
              (pixel_shuffle_cases, "norm")]
    out = []
    for index, (group, name) in enumerate(groups):
        # One random stream per group: a case added to one group leaves the others' inputs.
        for case in group(np.random.default_rng([SEED, index])):
            case["file"] = name
            if case["id"] in TVM_DIFFERENCES:
                case["tags"] = list(case.get("tags") or []) + TVM_DIFFERENCES[case["id"]]
            out.append(case)
    return out
