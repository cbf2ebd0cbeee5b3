"""Cases of the creation, collapse, shape and gradient operators (a helper of ops_misc.py).

Each oracle names the TVM v0.22 source it follows.
"""

import numpy as np

from ops_nn import ann, floats, sinfo

import gen_ops
from ops_misc import F, TOL32, error_case, program, sinfo_case, tagged, undefined, value_case

FILE_CREATE = "misc_create"
FILE_GRAD = "misc_grad"


# ---- oracles ----------------------------------------------------------------------------------

def np_eye_like(x, k, dtype):
    """topi.eye (tensor.py): i == j - k gives 1."""
    n, m = x.shape
    return np.array([[1 if j - i == k else 0 for j in range(m)] for i in range(n)], dtype=dtype)


def np_hamming(n, periodic, alpha, beta, dtype):
    """topi.hamming_window (transform.py): alpha - beta cos(2 pi i / (N - 1)), N one larger and
    the last point dropped when periodic; window_size 1 gives [1]; each step in the dtype."""
    t = np.dtype(dtype).type
    c = np.float32 if np.dtype(dtype).itemsize == 2 else t  # a 16-bit float computes in float32
    if n == 1:
        return np.array([1], dtype=dtype)
    size = n + 1 if periodic else n
    out = []
    for i in range(n):
        f = (c(6.283185307179586) * c(t(i))) / c(size - 1)
        out.append(c(alpha) - c(beta) * c(np.cos(f)))
    return np.array(out, dtype=dtype)


def np_multinomial(prob, u, rows, dtype):
    """DispatchSampling's CPU path: cumsum along the vocabulary in prob's dtype, then
    generic_get_sample_index: the first j with u < cumsum[j], the last index otherwise."""
    out = []
    t = prob.dtype.type
    for i in range(u.shape[0]):
        row = prob[rows[i, 0]]
        cs, pick = t(0), row.shape[0] - 1
        for j in range(row.shape[0]):
            cs = t(cs + row[j])
            if u[i, 0] < cs:
                pick = j
                break
        out.append([pick])
    return np.array(out, dtype=dtype)


def np_collapse_sum(x, shape):
    """topi.collapse_sum (reduction.h): sum the leading axes and the axes the target has as 1."""
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and x.shape[lead + i] != 1)
    r = np.sum(x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64), axis=axes)
    return r.reshape(shape).astype(x.dtype)


def np_take_backward(g, x, idx, axis):
    """legalize_ops/grad.py _grad_take_backward: zeros of x's shape, grad added back at the
    indices (repeats accumulate)."""
    out = np.zeros(x.size if axis is None else x.shape, dtype=np.float64)
    if axis is None:
        np.add.at(out, idx, g.astype(np.float64))
        return out.reshape(x.shape).astype(x.dtype)
    moved = np.moveaxis(out, axis, 0)
    np.add.at(moved, idx, np.moveaxis(g.astype(np.float64), axis, 0))
    return out.astype(x.dtype)


def np_nll_backward(g, pred, targets, weights, reduction, ignore_index):
    """legalize_ops/grad.py _grad_nll_loss_backward: -w[t] g at the target class; mean divides
    g by the sum of the targets' weights; ignore_index >= 0 zeroes that class' weight."""
    c = pred.shape[0] if pred.ndim == 1 else pred.shape[1]
    w = np.ones(c) if weights is None else weights.astype(np.float64)
    if ignore_index >= 0:
        w = w.copy()
        w[ignore_index] = 0
    tw = w[targets]
    gv = g.astype(np.float64)
    if reduction == "mean":
        gv = gv / np.sum(tw)
    gv = np.broadcast_to(gv, targets.shape)
    out = np.zeros(pred.shape)
    if pred.ndim == 1:
        out[targets] = -tw * gv
    else:
        for idx in np.ndindex(*targets.shape):
            full = (idx[0], targets[idx]) + idx[1:]
            out[full] = -tw[idx] * gv[idx]
    return out.astype(pred.dtype)


def np_pool_backward(g, x, kind, k, s, pad, include_pad=False, d=(1, 1)):
    """topi pool_grad (nn/pooling.h): max sends each window's gradient to its first maximal
    tap; avg divides it among the window's taps (count as the forward pooling)."""
    n, c, h, w = x.shape
    out = np.zeros(x.shape)
    top, left, bottom, right = pad
    for b in range(n):
        for ch in range(c):
            for oy in range(g.shape[2]):
                for ox in range(g.shape[3]):
                    taps = [(oy * s[0] - top + a * d[0], ox * s[1] - left + e * d[1])
                            for a in range(k[0]) for e in range(k[1])]
                    inside = [(yy, xx) for yy, xx in taps if 0 <= yy < h and 0 <= xx < w]
                    gv = float(g[b, ch, oy, ox])
                    if kind == "max":
                        best = inside[0]
                        for t in inside:
                            if x[b, ch, t[0], t[1]] > x[b, ch, best[0], best[1]]:
                                best = t
                        out[b, ch, best[0], best[1]] += gv
                        continue
                    cnt = k[0] * k[1] if include_pad else len(inside)
                    for yy, xx in inside:
                        out[b, ch, yy, xx] += gv / cnt
    return out.astype(x.dtype)


# ---- cases ------------------------------------------------------------------------------------

def create_cases(rng):
    out, f = [], FILE_CREATE
    op = "eye_like"
    x = np.zeros((3, 4), dtype=F)
    p = [("x", ann((3, 4), "float32"))]
    out.append(value_case(op, "upper", "eye_like with k=1: ones on the first upper diagonal.", p,
                          "R.eye_like(x, 1)", [x], np_eye_like(x, 1, "float32"), f))
    out.append(value_case(op, "main-diagonal", "eye_like with k=0: ones on the main diagonal, "
                          "from the first element on.", p, "R.eye_like(x, 0)", [x],
                          np_eye_like(x, 0, "float32"), f))
    out.append(value_case(op, "lower-int32", "eye_like with k=-1 and dtype int32 (TVM v0.22's "
                          "legalization ignores dtype and makes x's).", p,
                          'R.eye_like(x, -1, dtype="int32")', [x], np_eye_like(x, -1, "int32"), f,
                          tags=["tvm-bug", "tvm-eye-like-dtype"]))
    out.append(sinfo_case(op, "symbolic", "eye_like has x's shape, with dtype or x's dtype.",
                          [("x", ann(("n", "m"), "float16"))], "R.eye_like(x)",
                          sinfo(("n", "m"), "float16"), f))
    out.append(error_case(op, "rank3", "eye_like of a 3-D tensor is rejected.",
                          [("x", ann((2, 2, 2), "float32"))], "R.eye_like(x)", "OpShapeMismatch", f))
    op = "hamming_window"
    for cid, n, per, a, b, dt, desc in [
            ("symmetric", 5, False, 0.54, 0.46, "float32", "a symmetric window of 5"),
            ("periodic", 6, True, 0.54, 0.46, "float32", "a periodic window of 6 (7 points, "
             "the last dropped)"),
            ("float64", 4, False, 0.5, 0.5, "float64", "a float64 Hann window (alpha = beta = "
             "0.5)"),
            ("one", 1, True, 0.54, 0.46, "float32", "window_size 1 gives [1] whatever periodic")]:
        out.append(value_case(op, cid, "hamming_window: %s." % desc, [("u", ann((1,), "float32"))],
                              'R.hamming_window(%d, %s, %r, %r, "%s")' % (n, per, a, b, dt),
                              [np.zeros(1, dtype=F)], np_hamming(n, per, a, b, dt), f, TOL32))
    # float16, exact: topi takes the index in float16 but computes the window in float32
    # (float32 constants) and casts once at the end, so 0.54 - 0.46 is 0.08 in float16, not
    # float16(0.54) - float16(0.46).
    case = value_case(op, "float16-exact", "hamming_window of 6 in float16: computed in float32 "
                      "(alpha, beta and 2 pi float32 constants) and cast to float16 at the end.",
                      [("u", ann((1,), "float32"))], 'R.hamming_window(6, 0, 0.54, 0.46, "float16")',
                      [np.zeros(1, dtype=F)], np_hamming(6, False, 0.54, 0.46, "float16"), f)
    case["exact"] = True
    out.append(case)
    case = value_case(op, "float32-exact", "hamming_window of 9 in float32, exact: every step "
                      "in float32, beta too (0.46 as a float32 constant).",
                      [("u", ann((1,), "float32"))], 'R.hamming_window(9, 0, 0.54, 0.46, "float32")',
                      [np.zeros(1, dtype=F)], np_hamming(9, False, 0.54, 0.46, "float32"), f)
    case["exact"] = True
    out.append(case)
    out.append(sinfo_case(op, "symbolic", "hamming_window's length is window_size.",
                          [("x", ann(("n",), "float32"))],
                          'R.hamming_window(R.prim_value(n), 1, 0.54, 0.46, "float32")',
                          sinfo(("n",), "float32"), f))
    out.append(error_case(op, "int-dtype", "hamming_window of dtype int32 is rejected.",
                          [("u", ann((1,), "float32"))], 'R.hamming_window(4, 1, 0.54, 0.46, '
                          '"int32")', "OpDTypeMismatch", f))
    out.append(error_case(op, "zero", "a window_size of 0 is rejected.",
                          [("u", ann((1,), "float32"))], 'R.hamming_window(0, 1, 0.54, 0.46, '
                          '"float32")', "OpAttr", f))
    # A window_size known only at run time (a shape variable's value) is checked when the
    # kernel runs.
    out.append(error_case(op, "run-time-size-zero", "a window_size n = 0, known only from the "
                          "length of x at run time, is rejected there.",
                          [("x", ann(("n",), "float32"))],
                          'R.hamming_window(R.prim_value(n), 1, 0.54, 0.46, "float32")',
                          "OpPrecondition", f, args=[np.zeros(0, dtype=F)]))
    out.append(value_case(op, "run-time-size", "hamming_window: a periodic window of n = 4, "
                          "known only from the length of x at run time.",
                          [("x", ann(("n",), "float32"))],
                          'R.hamming_window(R.prim_value(n), 1, 0.54, 0.46, "float32")',
                          [np.zeros(4, dtype=F)], np_hamming(4, True, 0.54, 0.46, "float32"),
                          f, TOL32,
                          # TVM v0.22's build of a window of symbolic size fails
                          # ("begin.size() == strides.size() (1 vs. 0)").
                          tags=["tvm-bug", "tvm-hamming-symbolic-size"]))
    op = "multinomial_from_uniform"
    prob = np.array([[0.2, 0.3, 0.5], [0.3, 0.4, 0.3], [0.0, 0.0, 1.0]], dtype=F)
    u = np.array([[0.4], [0.9], [0.2], [0.99999], [0.5]], dtype=F)
    rows = np.array([[0], [1], [0], [2], [1]], dtype=np.int64)
    pm = [("p", ann((3, 3), "float32")), ("u", ann((5, 1), "float32")),
          ("i", ann((5, 1), "int64"))]
    out.append(value_case(op, "values", "multinomial_from_uniform: the first class whose "
                          "cumulative probability exceeds the sample.", pm,
                          "R.multinomial_from_uniform(p, u, i)", [prob, u, rows],
                          np_multinomial(prob, u, rows, "int64"), f))
    out.append(value_case(op, "int32", "multinomial_from_uniform with dtype int32.", pm,
                          'R.multinomial_from_uniform(p, u, i, dtype="int32")', [prob, u, rows],
                          np_multinomial(prob, u, rows, "int32"), f))
    out.append(sinfo_case(op, "symbolic", "the result is (n, 1) of the dtype.",
                          [("p", ann(("b", "v"), "float32")), ("u", ann(("n", 1), "float32")),
                           ("i", ann(("n", 1), "int64"))], "R.multinomial_from_uniform(p, u, i)",
                          sinfo(("n", 1), "int64"), f))
    out.append(sinfo_case(op, "unknown-prob-shape", "with prob of rank 2 but unknown shape the "
                          "result keeps only its rank 2, as TVM's inference, although the "
                          "samples are (3, 1).",
                          [("p", 'R.Tensor(dtype="float32", ndim=2)'),
                           ("u", ann((3, 1), "float32")), ("i", ann((3, 1), "int64"))],
                          "R.multinomial_from_uniform(p, u, i)",
                          'R.Tensor(dtype="int64", ndim=2)', f))
    out.append(error_case(op, "batch", "uniform_sample and sample_indices of different batch "
                          "sizes are rejected.", [("p", ann((3, 3), "float32")),
                                                  ("u", ann((5, 1), "float32")),
                                                  ("i", ann((4, 1), "int64"))],
                          "R.multinomial_from_uniform(p, u, i)", "OpShapeMismatch", f))
    out.append(error_case(op, "index-dtype", "float sample_indices are rejected.",
                          [("p", ann((3, 3), "float32")), ("u", ann((5, 1), "float32")),
                           ("i", ann((5, 1), "float32"))], "R.multinomial_from_uniform(p, u, i)",
                          "OpDTypeMismatch", f))
    out.append(undefined(error_case(op, "row-range", "a sample index past the distributions "
                                    "fails when run.", pm, "R.multinomial_from_uniform(p, u, i)",
                                    "OpPrecondition", f,
                                    args=[prob, u,
                                          np.array([[0], [1], [3], [0], [0]], dtype=np.int64)])))
    return out


def fma_wrap_cases(rng):
    out, f = [], FILE_CREATE
    op = "ewise_fma"
    a, b, c = (floats(rng, (2, 3)).astype(F) for _ in range(3))
    p = [("a", ann((2, 3), "float32")), ("b", ann((2, 3), "float32")),
         ("c", ann((2, 3), "float32"))]
    exp = (a.astype(np.float64) * b + c).astype(F)
    out.append(tagged(value_case(op, "float32", "ewise_fma: a * b + c, rounded once.", p,
                                 "R.ewise_fma(a, b, c)", [a, b, c], exp, f),
                      "tvm-no-legalization"))
    ai = np.array([2147483647, -5, 7], dtype=np.int32)
    bi = np.array([2, 3, -4], dtype=np.int32)
    ci = np.array([3, 1, 2], dtype=np.int32)
    ri = np.array([gen_ops.wrap(int(x) * int(y) + int(z), "int32") for x, y, z in zip(ai, bi, ci)],
                  dtype=np.int32)
    pi = [(n, ann((3,), "int32")) for n in "abc"]
    out.append(tagged(value_case(op, "int32-wrap", "ewise_fma on int32 wraps around.", pi,
                                 "R.ewise_fma(a, b, c)", [ai, bi, ci], ri, f),
                      "tvm-no-legalization"))
    out.append(sinfo_case(op, "symbolic", "ewise_fma of three (n, 4) tensors is (n, 4).",
                          [(n, ann(("n", 4), "float32")) for n in "abc"], "R.ewise_fma(a, b, c)",
                          sinfo(("n", 4), "float32"), f))
    out.append(error_case(op, "dtype", "operands of different dtypes are rejected.",
                          [("a", ann((3,), "float32")), ("b", ann((3,), "float32")),
                           ("c", ann((3,), "float16"))], "R.ewise_fma(a, b, c)", "OpDTypeMismatch",
                          f))
    out.append(error_case(op, "symbolic-shape", "dims n and m not provably equal are rejected "
                          "(ewise_fma does not broadcast).",
                          [("a", ann(("n",), "float32")), ("b", ann(("n",), "float32")),
                           ("c", ann(("m",), "float32"))], "R.ewise_fma(a, b, c)",
                          "OpShapeMismatch", f))
    op = "wrap_param"
    x = np.array([[1.5, -2.25, 65504.0], [1e-8, 3.0, 7.125]], dtype=F)
    out.append(tagged(value_case(op, "float16", "wrap_param casts a float32 parameter to float16 "
                                 "as astype does.", [("x", ann((2, 3), "float32"))],
                                 'R.wrap_param(x, "float16")', [x], x.astype(np.float16), f),
                      "tvm-no-legalization"))
    out.append(tagged(value_case(op, "default", "wrap_param with the default dtype float32 on "
                                 "float16 data.", [("x", ann((2, 3), "float16"))],
                                 "R.wrap_param(x)", [x.astype(np.float16)],
                                 x.astype(np.float16).astype(F), f), "tvm-no-legalization"))
    out.append(sinfo_case(op, "symbolic", "wrap_param keeps the shape with the dtype.",
                          [("x", ann(("n", 2), "float32"))], 'R.wrap_param(x, "float16")',
                          sinfo(("n", 2), "float16"), f))
    out.append(error_case(op, "shape-arg", "wrap_param of a Shape is rejected.",
                          [("x", 'R.Shape([2, 3])')], 'R.wrap_param(x, "float16")', "OpArgType", f))
    return out


def diverges(case):
    """A static check TVM v0.22 leaves to legalization (its inference returns an argument's
    StructInfo unchecked): the reference rejects the call when it is read."""
    return tagged(case, "tvm-diverges")


def builtin_case(rule_id, cid, desc, params, expr, value=None, args=None, sinfo=None,
                 error=None):
    case = {"id": cid, "description": desc, "spec": [rule_id], "program": program(params, expr),
            "file": FILE_CREATE}
    if args is not None:
        case["args"] = args
    if value is not None:
        case["value"] = value
    if sinfo is not None:
        case["struct_info"] = {"y": sinfo}
    if error is not None:
        case["error"] = {"phase": "runtime", "code": error, "rule": rule_id}
    return case


def shape_collapse_cases(rng):
    out, f = [], FILE_CREATE
    # shape_to_tensor and tensor_to_shape are the interpreter's builtins (BI-*), whose
    # inference (sinfo_derive_call.c) matches op.cc's; these cases pin that they follow TVM.
    bi = "BI-shape_to_tensor"
    out.append(builtin_case(bi, "shape-to-tensor-values", "shape_to_tensor gives the dims as "
                            "int64.", [("s", 'R.Shape(["a", "b", "c"])')], "R.shape_to_tensor(s)",
                            value=np.array([2, 0, 7], dtype=np.int64),
                            args=[gen_ops.Shape([2, 0, 7])]))
    out.append(builtin_case(bi, "shape-to-tensor-sinfo", "a Shape of ndim 2 gives "
                            "R.Tensor((2,), \"int64\") (op.cc).", [("s", 'R.Shape(["a", "b"])')],
                            "R.shape_to_tensor(s)", sinfo=sinfo((2,), "int64")))
    bi = "BI-tensor_to_shape"
    out.append(builtin_case(bi, "tensor-to-shape-int64", "tensor_to_shape turns int64 values "
                            "into a shape.", [("t", ann((3,), "int64"))], "R.tensor_to_shape(t)",
                            value=gen_ops.Shape([4, 1, 0]),
                            args=[np.array([4, 1, 0], dtype=np.int64)]))
    out.append(builtin_case(bi, "tensor-to-shape-int32", "tensor_to_shape reads int32 values too.",
                            [("t", ann((2,), "int32"))], "R.tensor_to_shape(t)",
                            value=gen_ops.Shape([3, 5]), args=[np.array([3, 5], dtype=np.int32)]))
    out.append(builtin_case(bi, "tensor-to-shape-ndim", "a tensor of 3 elements gives "
                            "R.Shape(ndim=3) (op.cc).", [("t", ann((3,), "int64"))],
                            "R.tensor_to_shape(t)", sinfo="R.Shape(ndim=3)"))
    out.append(builtin_case(bi, "tensor-to-shape-unknown-ndim", "a tensor of n elements gives a "
                            "Shape of unknown ndim.", [("t", ann(("n",), "int64"))],
                            "R.tensor_to_shape(t)", sinfo="R.Shape(ndim=-1)"))
    out.append(builtin_case(bi, "tensor-to-shape-float-values", "float values fail when run (the "
                            "VM builtin reads int16, int32 or int64).",
                            [("t", ann((2,), "float32"))], "R.tensor_to_shape(t)",
                            error="OpPrecondition", args=[np.array([1.0, 2.0], dtype=F)]))
    out.append(undefined(builtin_case(bi, "tensor-to-shape-negative", "a negative value fails when run "
                            "(no shape holds it).", [("t", ann((2,), "int64"))],
                            "R.tensor_to_shape(t)", error="OpPrecondition",
                            args=[np.array([2, -1], dtype=np.int64)])))
    op = "collapse_sum_to"
    x = floats(rng, (2, 3, 4)).astype(F)
    px = [("x", ann((2, 3, 4), "float32"))]
    out.append(value_case(op, "values", "collapse_sum_to (3, 1): sums the leading axis and the "
                          "last.", px, "R.collapse_sum_to(x, (3, 1))", [x],
                          np_collapse_sum(x, (3, 1)), f, TOL32))
    out.append(value_case(op, "identity", "collapse_sum_to the data's own shape copies it.", px,
                          "R.collapse_sum_to(x, (2, 3, 4))", [x], x, f))
    xi = rng.integers(-50, 50, (3, 4)).astype(np.int32)
    out.append(value_case(op, "int32", "collapse_sum_to on int32 to (1, 4).",
                          [("x", ann((3, 4), "int32"))], "R.collapse_sum_to(x, (1, 4))", [xi],
                          np_collapse_sum(xi, (1, 4)), f))
    out.append(sinfo_case(op, "symbolic", "a symbolic leading dim collapses onto 1.",
                          [("x", ann(("n", 3), "float32"))], "R.collapse_sum_to(x, (1, 3))",
                          sinfo((1, 3), "float32"), f))
    out.append(error_case(op, "mismatch", "collapsing 3 onto 2 is rejected.", px,
                          "R.collapse_sum_to(x, (2,))", "OpShapeMismatch", f))
    out.append(error_case(op, "symbolic-mismatch", "dims n and m are not provably equal: "
                          "rejected (TVM asks for a match_cast).",
                          [("x", ann(("n", 3), "float32")), ("s", 'R.Shape(["m", 3])')],
                          "R.collapse_sum_to(x, s)", "OpShapeMismatch", f))
    x23 = np.arange(6, dtype=F).reshape(2, 3)
    ps = [("x", ann((2, 3), "float32")), ("s", "R.Shape(ndim=2)")]
    out.append(tagged(error_case(op, "leading-mismatch-run", "a target known only when run whose "
                                 "first dim (5) is neither the data's (2) nor 1 fails then (TVM "
                                 "v0.22 cannot legalize a target known only when run).", ps,
                                 "R.collapse_sum_to(x, s)", "OpPrecondition", f,
                                 args=[x23, gen_ops.Shape([5, 3])]), "tvm-no-legalization"))
    out.append(tagged(value_case(op, "leading-run", "a target known only when run, (1, 3), sums "
                                 "the first axis (TVM v0.22 cannot legalize it).", ps,
                                 "R.collapse_sum_to(x, s)", [x23, gen_ops.Shape([1, 3])],
                                 np_collapse_sum(x23, (1, 3)), f, TOL32), "tvm-no-legalization"))
    op = "collapse_sum_like"
    t = np.zeros((4,), dtype=F)
    out.append(value_case(op, "values", "collapse_sum_like sums to the target's shape (4,).",
                          px + [("t", ann((4,), "float32"))], "R.collapse_sum_like(x, t)", [x, t],
                          np_collapse_sum(x, (4,)), f, TOL32))
    out.append(sinfo_case(op, "sinfo", "collapse_sum_like has the target's shape and the data's "
                          "dtype.", [("x", ann(("n", 3), "float16")), ("t", ann((1, 3), "int32"))],
                          "R.collapse_sum_like(x, t)", sinfo((1, 3), "float16"), f))
    out.append(error_case(op, "mismatch", "a target (5,) for data ending in 4 is rejected.",
                          px + [("t", ann((5,), "float32"))], "R.collapse_sum_like(x, t)",
                          "OpShapeMismatch", f))
    return out


def grad_cases(rng):
    out, f = [], FILE_GRAD
    x = floats(rng, (2, 3)).astype(F)
    p = [("x", ann((2, 3), "float32"))]
    for op, fn in (("grad.no_grad", "no_grad"), ("grad.start_checkpoint", "start_checkpoint"),
                   ("grad.end_checkpoint", "end_checkpoint")):
        out.append(value_case(op, "identity", "%s returns its argument." % fn, p,
                              "R.grad.%s(x)" % fn, [x], x, f))
        out.append(sinfo_case(op, "symbolic", "%s has its argument's StructInfo." % fn,
                              [("x", ann(("n", 3), "float16"))], "R.grad.%s(x)" % fn,
                              sinfo(("n", 3), "float16"), f))
    two = error_case("grad.no_grad", "two-args", "no_grad takes one argument (its only static "
                     "error).", p, "R.grad.no_grad(x, x)", "BadArguments", f, phase="parse")
    two["error"] = {"phase": "parse"}
    out.append(two)
    for op, fn in (("grad.start_checkpoint", "start_checkpoint"),
                   ("grad.end_checkpoint", "end_checkpoint")):
        out.append(error_case(op, "not-var", "%s of a tuple expression (not a Var) is rejected."
                              % fn, p, "R.grad.%s((x, x))" % fn, "OpArgType", f))
    op = "grad.take_backward"
    xs = np.zeros((3, 4), dtype=F)
    idx = np.array([2, 0, 2], dtype=np.int64)
    g = floats(rng, (3, 3)).astype(F)
    pt = [("g", ann((3, 3), "float32")), ("x", ann((3, 4), "float32")), ("i", ann((3,), "int64"))]
    out.append(value_case(op, "axis1", "take_backward along axis 1: repeated indices add up.",
                          pt, "R.grad.take_backward(g, x, i, axis=1)", [g, xs, idx],
                          np_take_backward(g, xs, idx, 1), f))
    g1 = floats(rng, (4,)).astype(F)
    idx1 = np.array([5, 1, 5, 11], dtype=np.int32)
    out.append(value_case(op, "flat", "take_backward without an axis addresses the flattened x.",
                          [("g", ann((4,), "float32")), ("x", ann((3, 4), "float32")),
                           ("i", ann((4,), "int32"))], "R.grad.take_backward(g, x, i)",
                          [g1, xs, idx1], np_take_backward(g1, xs, idx1, None), f))
    out.append(sinfo_case(op, "sinfo", "take_backward has x's StructInfo.",
                          [("g", ann(("n", 2), "float32")), ("x", ann(("n", "m"), "float32")),
                           ("i", ann((2,), "int64"))], "R.grad.take_backward(g, x, i, axis=1)",
                          sinfo(("n", "m"), "float32"), f))
    out.append(diverges(error_case(op, "shape-arg", "take_backward with a Shape for x is rejected (a "
                          "tensor is needed).", [("g", ann((3,), "float32")),
                                                 ("x", 'R.Shape([3])'), ("i", ann((3,), "int64"))],
                          "R.grad.take_backward(g, x, i)", "OpArgType", f)))
    out.append(undefined(error_case(op, "range", "an index past the axis fails when run.", pt,
                                    "R.grad.take_backward(g, x, i, axis=1)", "OpPrecondition", f,
                                    args=[g, xs, np.array([0, 4, 1], dtype=np.int64)])))
    # Every other run-time check, one case each (the inference returns x's StructInfo
    # unchecked): 1-D integer indices, the gradient of x's float dtype and of take's shape.
    own = np.random.default_rng(4031)
    g33, g43, g34 = (floats(own, s).astype(F) for s in [(3, 3), (4, 3), (3, 4)])
    i2 = np.array([2, 0, 2], dtype=np.int64)
    for cid, desc, params, call, args in [
            ("float-indices", "float32 indices", [("i", ann((3,), "float32"))],
             "axis=1", [g33, xs, i2.astype(F)]),
            ("indices-rank-2", "(3, 1) indices", [("i", ann((3, 1), "int64"))],
             "axis=1", [g33, xs, i2.reshape(3, 1)]),
            ("grad-dtype", "a float16 gradient for float32 x", [("g", ann((3, 3), "float16"))],
             "axis=1", [g33.astype(np.float16), xs, i2]),
            ("int-data", "int32 x and gradient", [("g", ann((3, 3), "int32")),
                                                  ("x", ann((3, 4), "int32"))],
             "axis=1", [g33.astype(np.int32), xs.astype(np.int32), i2]),
            ("grad-other-dim", "a gradient (4, 3) whose non-axis dim is not x's 3",
             [("g", ann((4, 3), "float32"))], "axis=1", [g43, xs, i2]),
            ("grad-axis-dim", "a gradient (3, 4) whose axis dim is not the 3 indices",
             [("g", ann((3, 4), "float32"))], "axis=1", [g34, xs, i2]),
            ("grad-rank", "a gradient (3, 3, 2) of rank 3 along axis 1 of a matrix (its first "
             "two dims are take's)", [("g", ann((3, 3, 2), "float32"))], "axis=1",
             [np.stack([g33, g33], axis=2), xs, i2]),
            ("flat-count", "no axis and a gradient of 4 elements for 3 indices",
             [("g", ann((4,), "float32"))], None, [g34[0], xs, i2])]:
        names = dict(pt)
        names.update(dict(params))
        call_text = "R.grad.take_backward(g, x, i%s)" % (", " + call if call else "")
        out.append(undefined(error_case(op, cid, "take_backward with %s fails when run." % desc,
                                        [(n, names[n]) for n in ("g", "x", "i")], call_text,
                                        "OpPrecondition", f, args=args)))
    op = "grad.nll_loss_backward"
    pred = floats(rng, (3, 4)).astype(F)
    tg = np.array([1, 3, 1], dtype=np.int64)
    w = np.array([0.5, 2.0, 1.0, 0.25], dtype=F)
    g0 = np.array(1.5, dtype=F)
    pn = [("g", ann((), "float32")), ("p", ann((3, 4), "float32")), ("t", ann((3,), "int64"))]
    out.append(value_case(op, "mean", "nll_loss_backward with mean reduction and no weights.",
                          pn, "R.grad.nll_loss_backward(g, p, t)", [g0, pred, tg],
                          np_nll_backward(g0, pred, tg, None, "mean", -100), f, TOL32))
    out.append(value_case(op, "sum-weights", "nll_loss_backward with sum reduction and class "
                          "weights.", pn + [("w", ann((4,), "float32"))],
                          'R.grad.nll_loss_backward(g, p, t, w, reduction="sum")',
                          [g0, pred, tg, w], np_nll_backward(g0, pred, tg, w, "sum", -100), f,
                          TOL32))
    gn = floats(rng, (3,)).astype(F)
    out.append(value_case(op, "none-ignore", "nll_loss_backward with reduction none and "
                          "ignore_index 1 (its class weight becomes 0).",
                          [("g", ann((3,), "float32")), ("p", ann((3, 4), "float32")),
                           ("t", ann((3,), "int64")), ("w", ann((4,), "float32"))],
                          'R.grad.nll_loss_backward(g, p, t, w, reduction="none", ignore_index=1)',
                          [gn, pred, tg, w], np_nll_backward(gn, pred, tg, w, "none", 1), f,
                          TOL32))
    out.append(sinfo_case(op, "sinfo", "nll_loss_backward has the predictions' StructInfo.",
                          [("g", ann((), "float32")), ("p", ann(("n", "c"), "float32")),
                           ("t", ann(("n",), "int64"))], "R.grad.nll_loss_backward(g, p, t)",
                          sinfo(("n", "c"), "float32"), f))
    out.append(diverges(error_case(op, "prim-grad", "a PrimValue output gradient is rejected (a tensor is "
                          "needed).", [("g", "R.Prim(\"float32\")"), ("p", ann((3, 4), "float32")),
                                       ("t", ann((3,), "int64"))],
                          "R.grad.nll_loss_backward(g, p, t)", "OpArgType", f)))
    out.append(undefined(error_case(op, "target-range", "a target past the classes fails when "
                                    "run.", pn, "R.grad.nll_loss_backward(g, p, t)",
                                    "OpPrecondition", f,
                                    args=[g0, pred, np.array([1, 4, 0], dtype=np.int64)])))
    # The first and the last element of the gradient are written (targets 0 and C - 1 at the
    # first and last position), and predictions of rank 1 take a rank-0 target.
    own = np.random.default_rng(2031)  # its own stream: the cases after these keep their data
    tf = np.array([0, 2, 3], dtype=np.int64)
    out.append(value_case(op, "first-last-class", "nll_loss_backward with targets 0 and C - 1 "
                          "at the first and last position: the gradient's first and last "
                          "elements are -w[t] g / sum(w[t]).", pn + [("w", ann((4,), "float32"))],
                          "R.grad.nll_loss_backward(g, p, t, w)", [g0, pred, tf, w],
                          np_nll_backward(g0, pred, tf, w, "mean", -100), f, TOL32))
    pv = floats(own, (4,)).astype(F)
    tv = np.array(3, dtype=np.int64)
    out.append(value_case(op, "vector", "nll_loss_backward of predictions (C) with a rank-0 "
                          "target 3 and reduction sum: -w[3] g at class 3.",
                          [("g", ann((), "float32")), ("p", ann((4,), "float32")),
                           ("t", ann((), "int64")), ("w", ann((4,), "float32"))],
                          'R.grad.nll_loss_backward(g, p, t, w, reduction="sum")',
                          [g0, pv, tv, w], np_nll_backward(g0, pv, tv, w, "sum", -100), f, TOL32))
    # Every shape and dtype precondition, one case each: TVM's inference returns the
    # predictions' StructInfo unchecked, so only the run finds them.
    g1 = np.array([1.5], dtype=F)
    p23, p234 = floats(own, (2, 3)).astype(F), floats(own, (2, 3, 4)).astype(F)
    t2 = np.array([0, 2], dtype=np.int64)
    for cid, desc, shapes, call, args in [
            ("target-rank-0", "a rank-0 target for predictions (N, C)",
             [(), (2, 3), ()], "R.grad.nll_loss_backward(g, p, t)",
             [g0, p23, np.array(1, dtype=np.int64)]),
            ("target-rank-short", "targets (N) for predictions (N, C, d)",
             [(), (2, 3, 4), (2,)], "R.grad.nll_loss_backward(g, p, t)", [g0, p234, t2]),
            ("target-rank-long", "targets (N, 1) for predictions (N, C)",
             [(), (2, 3), (2, 1)], "R.grad.nll_loss_backward(g, p, t)",
             [g0, p23, t2.reshape(2, 1)]),
            ("target-batch", "targets (3) for predictions (2, C)",
             [(), (2, 3), (3,)], "R.grad.nll_loss_backward(g, p, t)",
             [g0, p23, np.array([0, 1, 2], dtype=np.int64)]),
            ("target-spatial", "targets (N, 5) for predictions (N, C, 4)",
             [(), (2, 3, 4), (2, 5)], "R.grad.nll_loss_backward(g, p, t)",
             [g0, p234, np.zeros((2, 5), dtype=np.int64)]),
            ("weights-length", "weights (2) for 3 classes",
             [(), (2, 3), (2,), (2,)], "R.grad.nll_loss_backward(g, p, t, w)",
             [g0, p23, t2, np.array([1.0, 2.0], dtype=F)]),
            ("weights-rank", "weights (C, 1) of rank 2",
             [(), (2, 3), (2,), (3, 1)], "R.grad.nll_loss_backward(g, p, t, w)",
             [g0, p23, t2, np.ones((3, 1), dtype=F)]),
            ("grad-rank", "an output gradient (1) with reduction mean (it must be rank 0)",
             [(1,), (2, 3), (2,)], "R.grad.nll_loss_backward(g, p, t)", [g1, p23, t2]),
            ("predictions-rank-0", "rank-0 predictions (they need a class axis)",
             [(), (), ()], "R.grad.nll_loss_backward(g, p, t)",
             [g0, np.array(0.5, dtype=F), np.array(0, dtype=np.int64)])]:
        names = ["g", "p", "t", "w"]
        params = [(names[i], ann(s, "int64" if i == 2 else "float32"))
                  for i, s in enumerate(shapes)]
        out.append(undefined(error_case(op, cid, "nll_loss_backward with %s fails when run." % desc,
                                        params, call, "OpPrecondition", f, args=args)))
    out.append(undefined(error_case(op, "int-predictions", "nll_loss_backward of int32 "
                                    "predictions fails when run (they must be floats).",
                                    [("g", ann((), "float32")), ("p", ann((2, 3), "int32")),
                                     ("t", ann((2,), "int64"))],
                                    "R.grad.nll_loss_backward(g, p, t)", "OpPrecondition", f,
                                    args=[g0, np.zeros((2, 3), dtype=np.int32), t2])))
    out.append(undefined(error_case(op, "float-targets", "nll_loss_backward of float32 "
                                    "targets fails when run (they must be integers).",
                                    [("g", ann((), "float32")), ("p", ann((2, 3), "float32")),
                                     ("t", ann((2,), "float32"))],
                                    "R.grad.nll_loss_backward(g, p, t)", "OpPrecondition", f,
                                    args=[g0, p23, np.array([0.0, 2.0], dtype=F)])))
    xp = floats(rng, (1, 2, 4, 4)).astype(F)
    gp = floats(rng, (1, 2, 2, 2)).astype(F)
    pp = [("g", ann((1, 2, 2, 2), "float32")), ("x", ann((1, 2, 4, 4), "float32"))]
    for kind in ("max", "avg"):
        op = "grad.%s_pool2d_backward" % kind
        out.append(value_case(op, "2x2", "%s_pool2d_backward of 2x2 windows, stride 2." % kind, pp,
                              "R.grad.%s_pool2d_backward(g, x, (2, 2), (2, 2))" % kind, [gp, xp],
                              np_pool_backward(gp, xp, kind, (2, 2), (2, 2), (0, 0, 0, 0)), f,
                              TOL32))
        # The reference runs the NCHW layout only; the inference takes any layout, the kernel
        # refuses another when it runs.
        out.append(tagged(error_case(op, "nhwc-layout", "%s_pool2d_backward with layout NHWC "
                                     "fails when it runs: only NCHW is supported." % kind, pp,
                                     "R.grad.%s_pool2d_backward(g, x, (2, 2), (2, 2), "
                                     'layout="NHWC")' % kind, "OpPrecondition", f,
                                     args=[gp, xp]), "tvm-diverges"))
        g3 = floats(rng, (1, 2, 3, 3)).astype(F)
        x5 = floats(rng, (1, 2, 5, 5)).astype(F)
        out.append(value_case(op, "pad", "%s_pool2d_backward of 3x3 windows, stride 2, padding 1."
                              % kind, [("g", ann((1, 2, 3, 3), "float32")),
                                       ("x", ann((1, 2, 5, 5), "float32"))],
                              "R.grad.%s_pool2d_backward(g, x, (3, 3), (2, 2), (1, 1, 1, 1))"
                              % kind, [g3, x5],
                              np_pool_backward(g3, x5, kind, (3, 3), (2, 2), (1, 1, 1, 1)), f,
                              TOL32))
        if kind == "avg":
            out.append(value_case(op, "include-pad", "avg_pool2d_backward with count_include_pad: "
                                  "every window divides by 9.",
                                  [("g", ann((1, 2, 3, 3), "float32")),
                                   ("x", ann((1, 2, 5, 5), "float32"))],
                                  "R.grad.avg_pool2d_backward(g, x, (3, 3), (2, 2), (1, 1, 1, 1), "
                                  "count_include_pad=True)", [g3, x5],
                                  np_pool_backward(g3, x5, kind, (3, 3), (2, 2), (1, 1, 1, 1),
                                                   include_pad=True), f, TOL32))
        gd = floats(rng, (1, 2, 3, 3)).astype(F)
        out.append(tagged(value_case(op, "dilation", "%s_pool2d_backward with dilation 2 (TVM "
                                     "v0.22 cannot legalize a dilation)." % kind,
                                     [("g", ann((1, 2, 3, 3), "float32")),
                                      ("x", ann((1, 2, 5, 5), "float32"))],
                                     "R.grad.%s_pool2d_backward(g, x, (2, 2), dilation=(2, 2))"
                                     % kind, [gd, x5],
                                     np_pool_backward(gd, x5, kind, (2, 2), (1, 1), (0, 0, 0, 0),
                                                      d=(2, 2)), f, TOL32),
                          "tvm-no-legalization"))
        xr = np.array([[[[3, 1, 4, 1.5], [5, 9, 2, 6], [5.5, 3.5, 8, 7]]]], dtype=F)
        gr = np.array([[[[0.5, 1], [1.5, 2]]]], dtype=F)
        rect = value_case(op, "rect", "%s_pool2d_backward of 2x1 windows at strides (1, 2): "
                          "height and width take their own pool size and stride%s." %
                          (kind, " (TVM v0.22's lowering bounds the windows of an input row "
                           "from below only and reads its argmax buffer past the last window "
                           "row: undefined)" if kind == "max" else ""),
                          [("g", ann((1, 1, 2, 2), "float32")),
                           ("x", ann((1, 1, 3, 4), "float32"))],
                          "R.grad.%s_pool2d_backward(g, x, (2, 1), (1, 2))" % kind, [gr, xr],
                          np_pool_backward(gr, xr, kind, (2, 1), (1, 2), (0, 0, 0, 0)), f, TOL32)
        out.append(undefined(rect) if kind == "max" else rect)
        out.append(sinfo_case(op, "sinfo", "%s_pool2d_backward has the data's StructInfo." % kind,
                              [("g", ann(("n", 2, 2, 2), "float32")),
                               ("x", ann(("n", 2, 4, 4), "float32"))],
                              "R.grad.%s_pool2d_backward(g, x, (2, 2), (2, 2))" % kind,
                              sinfo(("n", 2, 4, 4), "float32"), f))
        out.append(diverges(error_case(op, "shape-arg", "a Shape as data is rejected (a tensor is needed).",
                              [("g", ann((1, 1, 2, 2), "float32")), ("x", 'R.Shape([1, 1, 4, 4])')],
                              "R.grad.%s_pool2d_backward(g, x, (2, 2), (2, 2))" % kind,
                              "OpArgType", f)))
        out.append(undefined(error_case(op, "grad-shape", "an output gradient not of the pooled "
                                        "shape fails when run.", pp,
                                        "R.grad.%s_pool2d_backward(g, x, (2, 2))" % kind,
                                        "OpPrecondition", f, args=[gp, xp])))
        # Each attribute's every value enters: a padding of two values (height, width) and one
        # of four unequal values (top, left, bottom, right), from the own stream.
        own = np.random.default_rng(3031)
        xq = floats(own, (1, 1, 3, 4)).astype(F)
        for cid, pad, gshape, what in [("pad-pair", (1, 0), (1, 1, 4, 3),
                                        "padding (1, 0): one row above and below, no column "
                                        "(TVM v0.22's legalization requires four padding "
                                        "values)"),
                                       ("pad-four", (0, 1, 1, 0), (1, 1, 3, 4),
                                        "padding (0, 1, 1, 0): a column on the left, a row "
                                        "below")]:
            gq = floats(own, gshape).astype(F)
            full = pad if len(pad) == 4 else (pad[0], pad[1], pad[0], pad[1])
            case = value_case(op, cid, "%s_pool2d_backward of 2x2 windows at stride 1 with %s."
                              % (kind, what), [("g", ann(gshape, "float32")),
                                               ("x", ann((1, 1, 3, 4), "float32"))],
                              "R.grad.%s_pool2d_backward(g, x, (2, 2), (1, 1), %s)"
                              % (kind, str(pad)), [gq, xq],
                              np_pool_backward(gq, xq, kind, (2, 2), (1, 1), full), f, TOL32)
            # TVM v0.22's pool_grad legalization needs the four padding values itself.
            out.append(tagged(case, "tvm-diverges") if len(pad) == 2 else case)
        # Every attribute check, one case each: the inference returns the data's StructInfo
        # unchecked, so only the run finds them.
        # The gradient (1, 2, 2, 2) is the pooled shape of 2x2 windows at stride 2 on (4, 4),
        # and with the negative padding (0, -1) read as given it would be (1, 2, 2, 1).
        gn = floats(own, (1, 2, 2, 1)).astype(F)
        for cid, attrs, what, g_arg in [
                ("pool-size-second-zero", "(2, 0), (2, 2)", "a pool size (2, 0)", gp),
                ("pool-size-three", "(2, 2, 2), (2, 2)", "three pool size values", gp),
                ("strides-second-zero", "(2, 2), (2, 0)", "strides (2, 0)", gp),
                ("strides-three", "(2, 2), (2, 2, 2)", "three stride values", gp),
                ("dilation-second-zero", "(2, 2), (2, 2), dilation=(1, 0)", "a dilation (1, 0)",
                 gp),
                ("padding-three", "(2, 2), (2, 2), (0, 0, 0)", "three padding values", gp),
                ("padding-negative", "(2, 2), (2, 2), (0, -1)", "a negative padding", gn)]:
            gshape = g_arg.shape
            out.append(undefined(error_case(op, cid, "%s_pool2d_backward with %s fails when run."
                                            % (kind, what),
                                            [("g", ann(gshape, "float32")), pp[1]],
                                            "R.grad.%s_pool2d_backward(g, x, %s)" % (kind, attrs),
                                            "OpPrecondition", f, args=[g_arg, xp])))
    return out


def np_iou(a, b):
    """nms_util.py calculate_overlap in float32: corners in either order, 0 when the union
    is not positive."""
    a, b = a.astype(F), b.astype(F)
    al, at, ar, ab = min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])
    bl, bt, br, bb = min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])
    w = max(F(0), min(ar, br) - max(al, bl))
    h = max(F(0), min(ab, bb) - max(at, bt))
    area = h * w
    u = (ar - al) * (ab - at) + (br - bl) * (bb - bt) - area
    return F(0) if u <= 0 else area / u


def np_nms_select(boxes, scores, max_boxes, iou_t, score_t):
    """topi vision/nms.py: per (batch, class) the boxes above score_threshold by descending
    score (ties: lower index first); greedy selection up to max_boxes, each selected box
    suppressing later positive candidates with IoU >= iou_threshold; none when
    iou_threshold <= 0. Returns {(b, c): [box, ...]}."""
    out = {}
    nb, nc, n = scores.shape
    for b in range(nb):
        for c in range(nc):
            sc = scores[b, c].astype(F)
            order = sorted(range(n), key=lambda i: (-float(sc[i]), i))
            cand = [i for i in order if sc[i] > F(score_t)]
            chosen, gone = [], set()
            if iou_t > 0:
                for j, bj in enumerate(cand):
                    if len(chosen) >= max_boxes:
                        break
                    if bj in gone:
                        continue
                    chosen.append(bj)
                    for bk in cand[j + 1:]:
                        if sc[bk] > 0 and np_iou(boxes[b, bj], boxes[b, bk]) >= F(iou_t):
                            gone.add(bk)
            out[(b, c)] = chosen
    return out


def np_nms_onnx(boxes, scores, max_boxes, iou_t, score_t):
    """The onnx layout: (B C N, 3) rows [batch, class, box] in (batch, class) order, the rest
    0; the count as (1,)."""
    nb, nc, n = scores.shape
    rows = [[b, c, i] for (b, c), sel in sorted(np_nms_select(boxes, scores, max_boxes, iou_t,
                                                             score_t).items()) for i in sel]
    idx = np.zeros((nb * nc * n, 3), dtype=np.int64)
    if rows:
        idx[:len(rows)] = rows
    return gen_ops.Tup([idx, np.array([len(rows)], dtype=np.int64)])


def np_nms_tf(boxes, scores, max_boxes, iou_t, score_t):
    """The tensorflow layout: per batch (C N, 2) rows [class, box], their float32 scores and
    the per-batch count; the rest 0."""
    nb, nc, n = scores.shape
    sel = np_nms_select(boxes, scores, max_boxes, iou_t, score_t)
    idx = np.zeros((nb, nc * n, 2), dtype=np.int64)
    sc = np.zeros((nb, nc * n), dtype=F)
    cnt = np.zeros((nb,), dtype=np.int64)
    for b in range(nb):
        r = 0
        for c in range(nc):
            for i in sel[(b, c)]:
                idx[b, r] = [c, i]
                sc[b, r] = scores[b, c, i]
                r += 1
        cnt[b] = r
    return gen_ops.Tup([idx, sc, cnt])


def nms_cases(rng):
    out, f = [], FILE_GRAD.replace("grad", "vision")
    op = "vision.all_class_non_max_suppression"
    boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11]],
                      [[1, 1, 0, 0], [0.5, 0.5, 1.5, 1.5], [0, 0, 1, 1], [5, 5, 6, 6]]],
                     dtype=F)
    scores = np.array([[[0.9, 0.75, 0.6, 0.95], [0.5, 0.6, 0.7, 0.1]],
                       [[0.3, 0.8, 0.8, 0.05], [0.2, 0.4, 0.35, 0.9]]], dtype=F)
    p = [("b", ann((2, 4, 4), "float32")), ("s", ann((2, 2, 4), "float32"))]

    def call(m, iou, st, fmt=None):
        extra = ', output_format="%s"' % fmt if fmt else ""
        return ('R.vision.all_class_non_max_suppression(b, s, R.const(%d, "int64"), '
                'R.const(%r, "float32"), R.const(%r, "float32")%s)' % (m, iou, st, extra))
    out.append(value_case(op, "onnx", "NMS per batch and class (ONNX layout): greedy by "
                          "descending score, IoU >= 0.5 suppresses, unused rows 0.", p,
                          call(4, 0.5, 0.0), [boxes, scores],
                          np_nms_onnx(boxes, scores, 4, 0.5, 0.0), f))
    out.append(value_case(op, "onnx-thresholds", "NMS with score_threshold 0.55 and "
                          "iou_threshold 0.8: fewer candidates, less suppression.", p,
                          call(4, 0.8, 0.55), [boxes, scores],
                          np_nms_onnx(boxes, scores, 4, 0.8, 0.55), f))
    out.append(tagged(value_case(op, "onnx-max2", "NMS keeping at most 2 boxes per class (TVM "
                                 "v0.22 returns (B C max, 3) rows against its inference's "
                                 "(B C N, 3)).", p, call(2, 0.5, 0.0), [boxes, scores],
                                 np_nms_onnx(boxes, scores, 2, 0.5, 0.0), f),
                      "tvm-bug", "tvm-nms-shape"))
    out.append(tagged(value_case(op, "tensorflow", "NMS in the tensorflow layout: per batch "
                                 "[class, box] rows, their scores and the count (TVM v0.22 "
                                 "cannot build it).", p, call(4, 0.5, 0.0, "tensorflow"),
                                 [boxes, scores], np_nms_tf(boxes, scores, 4, 0.5, 0.0), f),
                      "tvm-bug", "tvm-nms-tensorflow"))
    pp = p + [("m", ann((1,), "int64")), ("i", ann((1,), "float32")), ("t", ann((), "float32"))]
    out.append(value_case(op, "tensor-params", "NMS with its limits as tensor parameters: a "
                          "(1,) max count and iou_threshold, a scalar score_threshold.", pp,
                          "R.vision.all_class_non_max_suppression(b, s, m, i, t)",
                          [boxes, scores, np.array([3], dtype=np.int64),
                           np.array([0.5], dtype=F), np.array(0.35, dtype=F)],
                          np_nms_onnx(boxes, scores, 3, 0.5, 0.35), f))
    ps = [("b", ann(("n", "k", 4), "float32")), ("s", ann(("n", "c", "k"), "float32")),
          ("m", ann((), "int64")), ("i", ann((), "float32")), ("t", ann((), "float32"))]
    case = sinfo_case(op, "symbolic", "the ONNX result is (n c k, 3) indices and a (1,) count.",
                      ps, "R.vision.all_class_non_max_suppression(b, s, m, i, t)",
                      'R.Tuple(R.Tensor((n * c * k, 3), dtype="int64"), '
                      'R.Tensor((1,), dtype="int64"))', f)
    out.append(case)
    out.append(sinfo_case(op, "tensorflow-sinfo", "the tensorflow result is (n, c k, 2), (n, c k) "
                          "float32 and (n,).", ps,
                          'R.vision.all_class_non_max_suppression(b, s, m, i, t, "tensorflow")',
                          'R.Tuple(R.Tensor((n, c * k, 2), dtype="int64"), '
                          'R.Tensor((n, c * k), dtype="float32"), R.Tensor((n,), dtype="int64"))',
                          f))
    out.append(error_case(op, "rank", "2-D boxes are rejected.",
                          [("b", ann((4, 4), "float32"))] + ps[1:],
                          "R.vision.all_class_non_max_suppression(b, s, m, i, t)",
                          "OpShapeMismatch", f))
    out.append(diverges(error_case(op, "format", "an output_format other than onnx or "
                                   "tensorflow is rejected (TVM's inference takes it as "
                                   "tensorflow).", ps,
                                   'R.vision.all_class_non_max_suppression(b, s, m, i, t, "coco")',
                                   "OpAttr", f)))
    out.append(undefined(error_case(op, "box-count", "boxes and scores disagreeing on the box "
                                    "count fail when run.",
                                    p[:1] + [("s", ann((2, 2, 3), "float32"))], call(4, 0.5, 0.0),
                                    "OpPrecondition", f, args=[boxes, scores[:, :, :3].copy()])))
    # SPEC_NOTES 4.18: the selection keeps a count per (batch, class) row; 2^40 rows of int64
    # pass the 2 GiB tensor limit even when there is no box at all.
    out.append(tagged(error_case(op, "too-many-rows", "NMS over 2^20 batches of 2^20 classes "
                                 "and no boxes: the per-row counts pass the tensor limit, a "
                                 "clean error rather than an exhausted machine.", [],
                                 "R.vision.all_class_non_max_suppression("
                                 "R.zeros(R.shape([1048576, 0, 4]), \"float32\"), "
                                 "R.zeros(R.shape([1048576, 1048576, 0]), \"float32\"), "
                                 "R.const(1, \"int64\"), R.const(0.5, \"float32\"), "
                                 "R.const(0.0, \"float32\"))", "OpPrecondition", f, args=[]),
                      "resource-limit", "tvm-diverges"))
    # The rows are batches times classes, whichever of the two is large.
    out.append(tagged(error_case(op, "too-many-classes", "NMS over one batch of 2^40 classes "
                                 "and no boxes: the per-row counts (batch times classes) pass "
                                 "the tensor limit, a clean error rather than an exhausted "
                                 "machine.", [],
                                 "R.vision.all_class_non_max_suppression("
                                 "R.zeros(R.shape([1, 0, 4]), \"float32\"), "
                                 "R.zeros(R.shape([1, 1099511627776, 0]), \"float32\"), "
                                 "R.const(1, \"int64\"), R.const(0.5, \"float32\"), "
                                 "R.const(0.0, \"float32\"))", "OpPrecondition", f, args=[]),
                      "resource-limit", "tvm-diverges"))
    return out


def more_cases(rng):
    out = []
    for group in (create_cases, fma_wrap_cases, shape_collapse_cases, grad_cases, nms_cases):
        out.extend(group(rng))
    return out
