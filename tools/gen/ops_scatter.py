"""Conformance cases of the indexing and scatter operators (gather, scatter, index_put, one_hot, nonzero, bucketize, meshgrid).

numpy is the oracle, computing each operator with TVM v0.22's formula: the topi compute or IR
its legalization calls (python/tvm/relax/transform/legalize_ops/manipulate.py and search.py),
element by element in the tensor's dtype. `cases()` returns the case dicts the driver
(gen_ops.py) writes to spec-tests/ops/scatter_gather.yaml, scatter_write.yaml and
scatter_coords.yaml.
"""

import itertools

import gen_ops
import numpy as np
from ops_nn import ann, error_case, sinfo, sinfo_case, tensor, value_case

SEED = 20261128

# ---- numpy oracles -------------------------------------------------------------------------


def positions(shape):
    return itertools.product(*[range(d) for d in shape])


def np_gather_elements(data, idx, axis):
    """include/tvm/topi/transform.h gather: out[p] = data[p with p[axis] = idx[p]], the index
    used as it is (no wrap)."""
    out = np.empty(idx.shape, dtype=data.dtype)
    for p in positions(idx.shape):
        q = list(p)
        q[axis] = int(idx[p])
        out[p] = data[tuple(q)]
    return out


def np_gather_nd(data, idx, batch_dims=0):
    """legalize_ops/manipulate.py _gather_nd: indices moved to (M, ...) for topi gather_nd
    (transform.h): out[b, y, r] = data[b, idx[b, y, 0..M-1], r]."""
    m = idx.shape[-1]
    shape = idx.shape[:-1] + data.shape[batch_dims + m:]
    out = np.empty(shape, dtype=data.dtype)
    for p in positions(shape):
        lead = p[:idx.ndim - 1]
        coord = list(p[:batch_dims]) + [int(v) for v in idx[lead]] + list(p[idx.ndim - 1:])
        out[p] = data[tuple(coord)]
    return out


def np_index_tensor(data, idxs):
    """topi index_tensor = adv_index (transform.h): the indices broadcast together, then
    data[I0, ..., Ik-1] (numpy advanced indexing for in-range indices)."""
    return data[tuple(idxs)]


def reduce_scalar(red, old, upd, dtype):
    """One step of topi scatter_elements / scatter_nd's reduce_func in the dtype: update, +=,
    *=, mean (old + upd) / 2, tir.min, tir.max. Integers wrap; float steps round to the dtype
    (numpy scalar arithmetic in that dtype)."""
    if dtype.startswith("float"):
        t = np.dtype(dtype).type
        a, b = t(old), t(upd)
        res = {"update": b, "add": a + b, "mul": a * b, "mean": (a + b) / t(2),
               "min": a if a < b else b, "max": a if a > b else b}[red]
        return t(res)
    a, b = int(old), int(upd)
    if red == "mean":
        s = gen_ops.wrap(a + b, dtype)
        return int(s / 2) if s >= 0 else -((-s) // 2)
    res = {"update": b, "add": a + b, "mul": a * b, "min": min(a, b), "max": max(a, b)}[red]
    return gen_ops.wrap(res, dtype)


def np_scatter_elements(data, idx, upd, axis, red="update"):
    """python/tvm/topi/scatter_elements.py: a copy of data; for each position p of indices in
    row-major order, k = idx[p] (+ the axis length when negative), out[p with p[axis] = k] =
    f(out[...], upd[p])."""
    out = data.copy()
    dt = str(data.dtype)
    for p in positions(idx.shape):
        k = int(idx[p])
        k += data.shape[axis] if k < 0 else 0
        q = list(p)
        q[axis] = k
        q = tuple(q)
        out[q] = reduce_scalar(red, out[q], upd[p], dt)
    return out


def np_scatter_nd(data, idx, upd, red="update"):
    """legalize _scatter_nd + python/tvm/topi/scatter.py: for each row y of indices (in
    order), the slice out[idx[y, 0..M-1]] = f(slice, upd[y]); indices used as they are."""
    out = data.copy()
    dt = str(data.dtype)
    m = idx.shape[-1]
    for y in positions(idx.shape[:-1]):
        base = tuple(int(v) for v in idx[y])
        for r in positions(data.shape[m:]):
            out[base + r] = reduce_scalar(red, out[base + r], upd[y + r], dt)
    return out


def np_index_put(data, idxs, values, accumulate=False):
    """python/tvm/topi/index_put.py: out = data; for k in order, the element at
    (idx_0[k], ..., idx_n-1[k]) (each + its dim when negative) = values[k] (or += values[k])."""
    out = data.copy()
    dt = str(data.dtype)
    flat = values.reshape(-1)
    for k in range(idxs[0].shape[0]):
        coord = tuple(int(ix[k]) + (data.shape[d] if ix[k] < 0 else 0)
                      for d, ix in enumerate(idxs))
        out[coord] = reduce_scalar("add" if accumulate else "update", out[coord], flat[k], dt)
    return out


def np_slice_scatter(data, src, start, end, step, axis):
    """python/tvm/topi/slice_scatter.py: out[.., i, ..] = src[.., (i - start + step - 1) //
    step, ..] where start <= i < end and (i - start) % step == 0, else data (start and end
    are not counted from the end)."""
    out = data.copy()
    for p in positions(data.shape):
        i = p[axis]
        if start <= i < end and (i - start) % step == 0:
            q = list(p)
            q[axis] = (i - start + step - 1) // step
            out[p] = src[tuple(q)]
    return out


def np_one_hot(idx, on, off, depth, axis, dtype):
    """include/tvm/topi/transform.h one_hot: Select(indices == position, on, off); an index
    outside [0, depth) gives off everywhere."""
    nd = idx.ndim + 1
    axis = axis + nd if axis < 0 else axis
    shape = idx.shape[:axis] + (depth,) + idx.shape[axis:]
    out = np.empty(shape, dtype=dtype)
    for p in positions(shape):
        rest = p[:axis] + p[axis + 1:]
        out[p] = on if int(idx[rest]) == p[axis] else off
    return out


def np_nonzero(x):
    """python/tvm/relax/op/set.py relax.run.nonzero: np.stack(np.atleast_1d(x).nonzero())."""
    return np.stack(np.atleast_1d(x).nonzero(), axis=0).astype(np.int64)


def np_bucketize(x, bounds, right, dtype):
    """python/tvm/topi/searchsorted.py binary_search: lo = 0, hi = n; while lo < hi: mid =
    lo + ((hi - lo) >> 1); lo = mid + 1 if b[mid] < v (<= with right) else hi = mid."""
    out = np.empty(x.shape, dtype=dtype)
    for p in positions(x.shape):
        v, lo, hi = x[p], 0, bounds.shape[0]
        while lo < hi:
            mid = lo + ((hi - lo) >> 1)
            if (bounds[mid] <= v) if right else (bounds[mid] < v):
                lo = mid + 1
            else:
                hi = mid
        out[p] = lo
    return out


def np_meshgrid(xs, indexing):
    """include/tvm/topi/transform.h meshgrid: grid i reads input i along axis i; "xy" swaps
    the first two axes (numpy's meshgrid)."""
    return [np.array(g) for g in np.meshgrid(*xs, indexing=indexing)]


# ---- case helpers --------------------------------------------------------------------------


def with_file(cases, name):
    for c in cases:
        c["file"] = name
    return cases


def tagged(case, *tags):
    case["tags"] = list(case.get("tags") or []) + list(tags)
    return case


def undefined(case):
    """RESULT-3: TVM reads or writes outside the tensor; the reference stops."""
    case["result"] = "undefined"
    case["spec"] = case["spec"] + ["RESULT-3"]
    return case


def impl_defined(case, alts):
    case["value"] = gen_ops.Allowed(case["value"], alts)
    case["result"] = "implementation-defined"
    case["spec"] = case["spec"] + ["RESULT-1", "RESULT-2"]
    return case


def ints(rng, shape, lo=-9, hi=10):
    return rng.integers(lo, hi, size=shape)


def eighths(rng, shape):
    return rng.integers(-32, 32, size=shape) / 8.0


UNKNOWN_F32 = 'R.Tensor(dtype="float32")'


# ---- gathers --------------------------------------------------------------------------------


def gather_elements_cases(rng):
    op, out = "gather_elements", []
    x = eighths(rng, (2, 3))
    i = np.array([[2, 0, 0], [1, 1, 2]])
    p = [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "int64"))]
    out.append(value_case(op, "axis1", "gather_elements along axis 1; an index may repeat.", p,
                          "R.gather_elements(x, i, axis=1)", [tensor(x, "float32"),
                                                              tensor(i, "int64")],
                          tensor(np_gather_elements(x, i, 1), "float32")))
    xi = np.array([[1, 2, 3], [4, 5, 6]])
    i2 = np.array([[1, 1, 1]])
    out.append(value_case(op, "axis0-smaller", "gather_elements along axis 0 with indices "
                          "smaller than the data: the result has the indices' shape.",
                          [("x", ann((2, 3), "int32")), ("i", ann((1, 3), "int32"))],
                          "R.gather_elements(x, i)", [tensor(xi, "int32"), tensor(i2, "int32")],
                          tensor(np_gather_elements(xi, i2, 0), "int32")))
    xv, iv = np.array([10, 20, 30, 40]), np.array([3, 0, 3])
    out.append(value_case(op, "vector-default-axis", "gather_elements of a vector without an "
                          "axis: axis defaults to 0, the only axis.",
                          [("x", ann((4,), "int32")), ("i", ann((3,), "int64"))],
                          "R.gather_elements(x, i)", [tensor(xv, "int32"), tensor(iv, "int64")],
                          tensor(np_gather_elements(xv, iv, 0), "int32")))
    x3 = ints(rng, (2, 2, 3))
    i3 = rng.integers(0, 3, size=(2, 2, 2))
    out.append(value_case(op, "negative-axis", "gather_elements along axis -1 of a 3-d tensor.",
                          [("x", ann((2, 2, 3), "int64")), ("i", ann((2, 2, 2), "int64"))],
                          "R.gather_elements(x, i, axis=-1)", [tensor(x3, "int64"),
                                                               tensor(i3, "int64")],
                          tensor(np_gather_elements(x3, i3, 2), "int64")))
    out.append(sinfo_case(op, "symbolic", "The result has the indices' shape and the data's "
                          "dtype.", [("x", ann(("n", "m"), "float16")),
                                     ("i", ann(("k", "m"), "int32"))],
                          "R.gather_elements(x, i, axis=0)", sinfo(("k", "m"), "float16")))
    out.append(sinfo_case(op, "unknown-rank", "Data of unknown rank gives a result of unknown "
                          "rank.", [("x", 'R.Tensor(dtype="float32")'),
                                    ("i", ann((2, 2), "int64"))],
                          "R.gather_elements(x, i)", UNKNOWN_F32))
    out.append(error_case(op, "float-indices", "Indices must be integers.",
                          [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "float32"))],
                          "R.gather_elements(x, i)", "OpDTypeMismatch"))
    out.append(error_case(op, "uint-indices", "Indices must be signed integers (TVM v0.22 "
                          "checks is_int).", [("x", ann((2, 3), "float32")),
                                              ("i", ann((2, 3), "uint32"))],
                          "R.gather_elements(x, i)", "OpDTypeMismatch"))
    out.append(error_case(op, "axis", "axis 2 is out of range for rank 2.", p,
                          "R.gather_elements(x, i, axis=2)", "OpAttr"))
    out.append(error_case(op, "rank", "Data and indices must have the same rank.",
                          [("x", ann((2, 3), "float32")), ("i", ann((6,), "int64"))],
                          "R.gather_elements(x, i)", "OpShapeMismatch"))
    out.append(error_case(op, "not-tensor", "The indices must be a tensor.",
                          [("x", ann((2, 3), "float32")), ("i", "R.Shape([2, 3])")],
                          "R.gather_elements(x, i)", "OpArgType"))
    out.append(undefined(error_case(
        op, "out-of-range", "An index past the axis stops the reference; TVM reads out of "
        "bounds: undefined.", p, "R.gather_elements(x, i, axis=1)", "OpPrecondition",
        [tensor(x, "float32"), tensor(np.array([[0, 1, 3], [0, 0, 0]]), "int64")])))
    out.append(undefined(error_case(
        op, "negative-index", "A negative index is not counted from the end (topi gather uses "
        "it as it is): undefined.", p, "R.gather_elements(x, i, axis=1)", "OpPrecondition",
        [tensor(x, "float32"), tensor(np.array([[0, -1, 0], [0, 0, 0]]), "int64")])))
    return out


def gather_nd_cases(rng):
    op, out = "gather_nd", []
    x = np.array([[0, 1], [2, 3]])
    i = np.array([[0, 0], [1, 1]])
    out.append(value_case(op, "points", "gather_nd with a full index per row picks elements.",
                          [("x", ann((2, 2), "int32")), ("i", ann((2, 2), "int64"))],
                          "R.gather_nd(x, i)", [tensor(x, "int32"), tensor(i, "int64")],
                          tensor(np_gather_nd(x, i), "int32")))
    x3 = eighths(rng, (3, 2, 2))
    i3 = np.array([[2], [0]])
    out.append(value_case(op, "slices", "gather_nd with one index per row picks slices along "
                          "axis 0.", [("x", ann((3, 2, 2), "float32")),
                                      ("i", ann((2, 1), "int64"))],
                          "R.gather_nd(x, i)", [tensor(x3, "float32"), tensor(i3, "int64")],
                          tensor(np_gather_nd(x3, i3), "float32")))
    xb = np.arange(8).reshape(2, 2, 2)
    ib = np.array([[1], [0]])
    out.append(value_case(op, "batch-dims", "gather_nd with batch_dims=1: each batch indexes "
                          "its own slice.", [("x", ann((2, 2, 2), "int64")),
                                             ("i", ann((2, 1), "int64"))],
                          "R.gather_nd(x, i, batch_dims=1)", [tensor(xb, "int64"),
                                                               tensor(ib, "int64")],
                          tensor(np_gather_nd(xb, ib, 1), "int64")))
    out.append(sinfo_case(op, "symbolic", "The result is indices.shape[:-1] + "
                          "data.shape[M:].", [("x", ann(("n", 4, 5), "float32")),
                                              ("i", ann(("k", 2), "int64"))],
                          "R.gather_nd(x, i)", sinfo(("k", 5), "float32")))
    out.append(sinfo_case(op, "symbolic-m", "With the last dim of indices symbolic only the "
                          "dtype is known.", [("x", ann((3, 4), "float32")),
                                              ("i", ann(("k", "m"), "int64"))],
                          "R.gather_nd(x, i)", UNKNOWN_F32))
    out.append(error_case(op, "int32-indices", "TVM v0.22 requires int64 indices.",
                          [("x", ann((2, 2), "float32")), ("i", ann((2, 2), "int32"))],
                          "R.gather_nd(x, i)", "OpDTypeMismatch"))
    out.append(error_case(op, "batch-dims-range", "batch_dims may not exceed the indices' rank "
                          "minus 1.", [("x", ann((2, 3), "float32")), ("i", ann((2,), "int64"))],
                          "R.gather_nd(x, i, batch_dims=1)", "OpAttr"))
    out.append(error_case(op, "batch-dims-data", "batch_dims may not exceed the data's rank.",
                          [("x", ann((2,), "float32")), ("i", ann((2, 2, 1), "int64"))],
                          "R.gather_nd(x, i, batch_dims=2)", "OpAttr"))
    out.append(error_case(op, "batch-dims-negative", "batch_dims may not be negative.",
                          [("x", ann((2, 3), "float32")), ("i", ann((2, 1), "int64"))],
                          "R.gather_nd(x, i, batch_dims=-1)", "OpAttr"))
    out.append(error_case(op, "m-too-large", "The last dim of indices may not exceed the data's "
                          "rank.", [("x", ann((2, 3), "float32")), ("i", ann((4, 3), "int64"))],
                          "R.gather_nd(x, i)", "OpShapeMismatch"))
    out.append(undefined(error_case(
        op, "out-of-range", "An index past its axis stops the reference; TVM reads out of "
        "bounds: undefined.", [("x", ann((2, 2), "int32")), ("i", ann((2, 2), "int64"))],
        "R.gather_nd(x, i)", "OpPrecondition",
        [tensor(x, "int32"), tensor(np.array([[0, 0], [2, 1]]), "int64")])))
    return out


def index_tensor_cases(rng):
    op, out = "index_tensor", []
    x = np.arange(9).reshape(3, 3).astype(np.float64)
    r, c = np.array([0, 2]), np.array([1, 0])
    p2 = [("x", ann((3, 3), "float32")), ("r", ann((2,), "int64")), ("c", ann((2,), "int64"))]
    out.append(value_case(op, "pairs", "index_tensor with two index vectors picks x[r[k], c[k]].",
                          p2, "R.index_tensor(x, (r, c))",
                          [tensor(x, "float32"), tensor(r, "int64"), tensor(c, "int64")],
                          tensor(np_index_tensor(x, [r, c]), "float32")))
    rb, cb = np.array([[0], [2]]), np.array([[0, 1, 2]])
    out.append(value_case(op, "broadcast", "Index tensors of shapes (2, 1) and (1, 3) broadcast "
                          "to (2, 3).", [("x", ann((3, 3), "int32")), ("r", ann((2, 1), "int32")),
                                         ("c", ann((1, 3), "int32"))],
                          "R.index_tensor(x, (r, c))",
                          [tensor(x, "int32"), tensor(rb, "int32"), tensor(cb, "int32")],
                          tensor(np_index_tensor(x, [rb, cb]), "int32")))
    x4 = eighths(rng, (3, 4))
    rows = np.array([[2, 0], [1, 2]])
    out.append(value_case(op, "rows", "One index tensor of shape (2, 2) on a (3, 4) tensor "
                          "picks whole rows: shape (2, 2, 4).",
                          [("x", ann((3, 4), "float32")), ("r", ann((2, 2), "int64"))],
                          "R.index_tensor(x, (r,))", [tensor(x4, "float32"), tensor(rows, "int64")],
                          tensor(np_index_tensor(x4, [rows]), "float32")))
    out.append(sinfo_case(op, "symbolic", "The broadcast index shape, then the data's "
                          "remaining dims.", [("x", ann(("n", "m", 4), "float32")),
                                              ("r", ann(("k",), "int64")),
                                              ("c", ann(("k",), "int64"))],
                          "R.index_tensor(x, (r, c))", sinfo(("k", 4), "float32")))
    out.append(sinfo_case(op, "undecided-broadcast", "Index dims a and b that the prover cannot "
                          "equate leave only the dtype (TVM's InferStructInfoIndexTensor).",
                          [("x", ann((5, 5, 4), "float32")), ("r", ann(("a",), "int64")),
                           ("c", ann(("b",), "int64"))],
                          "R.index_tensor(x, (r, c))", UNKNOWN_F32))
    out.append(error_case(op, "empty", "An empty tuple of index tensors.",
                          [("x", ann((3, 3), "float32"))], "R.index_tensor(x, [])", "OpArity"))
    out.append(error_case(op, "float-index", "Index tensors must be integers.",
                          [("x", ann((3, 3), "float32")), ("r", ann((2,), "float32"))],
                          "R.index_tensor(x, (r,))", "OpDTypeMismatch"))
    out.append(error_case(op, "too-many", "Three index tensors for a rank-2 tensor.", p2,
                          "R.index_tensor(x, (r, c, r))", "OpShapeMismatch"))
    out.append(error_case(op, "no-broadcast", "Index shapes (2,) and (3,) do not broadcast.",
                          [("x", ann((3, 3), "float32")), ("r", ann((2,), "int64")),
                           ("c", ann((3,), "int64"))],
                          "R.index_tensor(x, (r, c))", "OpShapeMismatch"))
    out.append(undefined(error_case(
        op, "negative", "A negative index is not counted from the end (topi adv_index uses it "
        "as it is): undefined.", p2, "R.index_tensor(x, (r, c))", "OpPrecondition",
        [tensor(x, "float32"), tensor(np.array([-1, 2]), "int64"), tensor(c, "int64")])))
    return out


# ---- scatters --------------------------------------------------------------------------------


def scatter_elements_cases(rng):
    op, out = "scatter_elements", []
    d0 = np.zeros((3, 3))
    i0 = np.array([[1, 0, 2], [0, 2, 1]])
    u0 = np.array([[1.0, 1.125, 1.25], [2.0, 2.125, 2.25]])
    p = [("x", ann((3, 3), "float32")), ("i", ann((2, 3), "int64")), ("u", ann((2, 3), "float32"))]
    out.append(value_case(op, "update", "scatter_elements replaces data[i[r][c]][c] with "
                          "u[r][c] (axis 0).", p, "R.scatter_elements(x, i, u)",
                          [tensor(d0, "float32"), tensor(i0, "int64"), tensor(u0, "float32")],
                          tensor(np_scatter_elements(d0, i0, u0, 0), "float32")))
    d = np.array([[1, 2, 3], [4, 5, 6]])
    i = np.array([[0, 0, 2], [1, 1, 1]])
    u = np.array([[10, 20, 30], [40, 50, 61]])
    pi = [("x", ann((2, 3), "int32")), ("i", ann((2, 3), "int64")), ("u", ann((2, 3), "int32"))]
    args = [tensor(d, "int32"), tensor(i, "int64"), tensor(u, "int32")]
    out.append(value_case(op, "add", "reduction=\"add\" along axis 1 sums repeated indices.", pi,
                          'R.scatter_elements(x, i, u, axis=1, reduction="add")', args,
                          tensor(np_scatter_elements(d, i, u, 1, "add"), "int32")))
    im = np.array([[0, 0, 1], [0, 1, 1]])
    out.append(value_case(op, "mul", "reduction=\"mul\" along axis 0 on int64.",
                          [("x", ann((2, 3), "int64")), ("i", ann((2, 3), "int64")),
                           ("u", ann((2, 3), "int64"))],
                          'R.scatter_elements(x, i, u, reduction="mul")',
                          [tensor(d, "int64"), tensor(im, "int64"), tensor(u, "int64")],
                          tensor(np_scatter_elements(d, im, u, 0, "mul"), "int64")))
    pf = [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "int64")), ("u", ann((2, 3), "float32"))]
    fargs = [tensor(d, "float32"), tensor(i, "int64"), tensor(u, "float32")]
    out.append(value_case(op, "mean", "reduction=\"mean\" halves (old + update) at each step, "
                          "in index order: repeated indices weigh later updates more.", pf,
                          'R.scatter_elements(x, i, u, axis=1, reduction="mean")', fargs,
                          tensor(np_scatter_elements(d.astype(np.float32), i,
                                                     u.astype(np.float32), 1, "mean"),
                                 "float32")))
    for red in ("min", "max"):
        uu = np.array([[0.5, 2.5, -1.0], [7.0, 4.5, 5.5]])
        out.append(value_case(op, red, "reduction=\"%s\" keeps the %s of the element and the "
                              "updates." % (red, "smaller" if red == "min" else "larger"), pf,
                              'R.scatter_elements(x, i, u, axis=1, reduction="%s")' % red,
                              [tensor(d, "float32"), tensor(i, "int64"), tensor(uu, "float32")],
                              tensor(np_scatter_elements(d.astype(np.float32), i,
                                                         uu.astype(np.float32), 1, red),
                                     "float32")))
    for red, dtype in (("min", "int32"), ("max", "int32"), ("min", "uint8"), ("max", "uint8")):
        ui = np.array([[0, 200, 9], [7, 4, 1]] if dtype == "uint8" else [[0, -2, 9], [7, -4, 1]])
        out.append(value_case(op, "%s-%s" % (red, dtype), "reduction=\"%s\" on %s keeps the "
                              "%s of the element and the updates, compared as %s integers."
                              % (red, dtype, "smaller" if red == "min" else "larger",
                                 "unsigned" if dtype.startswith("u") else "signed"),
                              [("x", ann((2, 3), dtype)), ("i", ann((2, 3), "int64")),
                               ("u", ann((2, 3), dtype))],
                              'R.scatter_elements(x, i, u, axis=1, reduction="%s")' % red,
                              [tensor(d, dtype), tensor(i, "int64"), tensor(ui, dtype)],
                              tensor(np_scatter_elements(d.astype(dtype), i, ui.astype(dtype),
                                                         1, red), dtype)))
    dn = np.array([[np.nan, 2.0, 3.0], [4.0, 5.0, 6.0]])
    un = np.array([[1.0, np.nan, 0.5], [7.0, 4.5, 5.5]])
    inn = np.array([[0, 1, 2], [0, 1, 2]])
    case = value_case(op, "max-nan", "reduction=\"max\" is tir.max, a select: a NaN in place "
                      "yields the update, a NaN update stays (TVM v0.22's LLVM lowering); "
                      "implementation-defined there.", pf,
                      'R.scatter_elements(x, i, u, axis=1, reduction="max")',
                      [tensor(dn, "float32"), tensor(inn, "int64"), tensor(un, "float32")],
                      tensor(np_scatter_elements(dn.astype(np.float32), inn,
                                                 un.astype(np.float32), 1, "max"), "float32"))
    out.append(impl_defined(case, {0: [float("nan")], 1: [2.0]}))
    ineg = np.array([[-1, 0, 1], [-3, -2, 2]])
    out.append(value_case(op, "negative", "A negative index counts once from the end of the "
                          "axis.", pi, "R.scatter_elements(x, i, u, axis=1)",
                          [tensor(d, "int32"), tensor(ineg, "int64"), tensor(u, "int32")],
                          tensor(np_scatter_elements(d, ineg, u, 1), "int32")))
    idup = np.array([[0, 0, 0], [2, 2, 1]])
    case = value_case(op, "duplicates", "Repeated indices with reduction=\"update\": TVM v0.22 "
                      "applies the updates in index order (the last wins); which one wins is "
                      "implementation-defined.", pi, "R.scatter_elements(x, i, u, axis=1)",
                      [tensor(d, "int32"), tensor(idup, "int64"), tensor(u, "int32")],
                      tensor(np_scatter_elements(d, idup, u, 1), "int32"))
    out.append(impl_defined(case, {0: [10, 20], 5: [40]}))
    ds = ints(rng, (3, 3))
    i1 = np.array([[2, 0, 1]])
    u1 = np.array([[7, 8, 9]])
    out.append(value_case(op, "fewer-rows", "Indices with fewer rows than the data along the "
                          "scatter axis.", [("x", ann((3, 3), "int64")), ("i", ann((1, 3), "int32")),
                                            ("u", ann((1, 3), "int64"))],
                          "R.scatter_elements(x, i, u)",
                          [tensor(ds, "int64"), tensor(i1, "int32"), tensor(u1, "int64")],
                          tensor(np_scatter_elements(ds, i1, u1, 0), "int64")))
    case = value_case(op, "mean-int", "reduction=\"mean\" on int32: (old + update) / 2 "
                      "truncated; TVM v0.22 cannot lower the integer division.", pi,
                      'R.scatter_elements(x, i, u, axis=1, reduction="mean")',
                      [tensor(d, "int32"), tensor(i, "int64"), tensor(-u, "int32")],
                      tensor(np_scatter_elements(d, i, -u, 1, "mean"), "int32"))
    out.append(tagged(case, "tvm-bug", "tvm-scatter-mean-int"))
    out.append(sinfo_case(op, "symbolic", "The result has the data's StructInfo.",
                          [("x", ann(("n", "m"), "float32")), ("i", ann(("k", "m"), "int64")),
                           ("u", ann(("k", "m"), "float32"))],
                          'R.scatter_elements(x, i, u, reduction="add")',
                          sinfo(("n", "m"), "float32")))
    out.append(error_case(op, "rank", "Indices of rank 1 for data of rank 2.",
                          [("x", ann((2, 3), "float32")), ("i", ann((3,), "int64")),
                           ("u", ann((3,), "float32"))],
                          "R.scatter_elements(x, i, u)", "OpShapeMismatch"))
    out.append(error_case(op, "rank0-indices", "Rank-0 indices and updates for data of rank 1: "
                          "the ranks must agree even when the indices are scalars.",
                          [("x", ann((3,), "float32")), ("i", ann((), "int64")),
                           ("u", ann((), "float32"))],
                          "R.scatter_elements(x, i, u)", "OpShapeMismatch"))
    out.append(error_case(op, "dtype", "Updates must have the data's dtype.",
                          [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "int64")),
                           ("u", ann((2, 3), "float16"))],
                          "R.scatter_elements(x, i, u)", "OpDTypeMismatch"))
    out.append(error_case(op, "float-indices", "Indices must be integers.",
                          [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "float32")),
                           ("u", ann((2, 3), "float32"))],
                          "R.scatter_elements(x, i, u)", "OpDTypeMismatch"))
    out.append(error_case(op, "shape", "Indices and updates of provably different shapes.",
                          [("x", ann((2, 3), "float32")), ("i", ann((2, 3), "int64")),
                           ("u", ann((2, 2), "float32"))],
                          "R.scatter_elements(x, i, u)", "OpShapeMismatch"))
    out.append(tagged(error_case(op, "reduction", "An unknown reduction is rejected (TVM v0.22 "
                                 "fails only when legalizing it).", p,
                                 'R.scatter_elements(x, i, u, reduction="sum")', "OpAttr"),
                      "tvm-diverges"))
    out.append(tagged(error_case(op, "axis", "axis 2 is out of range for rank 2 (TVM v0.22 fails "
                                 "only when legalizing it).", pf,
                                 "R.scatter_elements(x, i, u, axis=2)", "OpAttr"), "tvm-diverges"))
    out.append(undefined(error_case(
        op, "wider", "Indices wider than the data off the scatter axis stop the reference; "
        "TVM's flat offsets reach other elements or past the end: undefined.",
        [("x", ann((2, 2), "int32")), ("i", ann((2, 3), "int64")), ("u", ann((2, 3), "int32"))],
        "R.scatter_elements(x, i, u)", "OpPrecondition",
        [tensor(np.zeros((2, 2)), "int32"), tensor(np.zeros((2, 3)), "int64"),
         tensor(u, "int32")])))
    out.append(undefined(error_case(
        op, "out-of-range", "An index past the axis stops the reference; TVM writes out of "
        "bounds: undefined.", pi, "R.scatter_elements(x, i, u, axis=1)", "OpPrecondition",
        [tensor(d, "int32"), tensor(np.array([[0, 3, 0], [0, 0, 0]]), "int64"),
         tensor(u, "int32")])))
    return out


def scatter_nd_cases(rng):
    op, out = "scatter_nd", []
    d = np.arange(1, 9)
    i = np.array([[4], [3], [1], [7]])
    u = np.array([9, 10, 11, 12])
    out.append(value_case(op, "update", "scatter_nd on a vector: data[i[k, 0]] = u[k].",
                          [("x", ann((8,), "int32")), ("i", ann((4, 1), "int64")),
                           ("u", ann((4,), "int32"))], "R.scatter_nd(x, i, u)",
                          [tensor(d, "int32"), tensor(i, "int64"), tensor(u, "int32")],
                          tensor(np_scatter_nd(d, i, u), "int32")))
    d2 = eighths(rng, (3, 3))
    i2 = np.array([[0, 1], [2, 2], [0, 1]])
    u2 = np.array([1.5, -2.0, 0.25])
    p2 = [("x", ann((3, 3), "float32")), ("i", ann((3, 2), "int64")), ("u", ann((3,), "float32"))]
    args2 = [tensor(d2, "float32"), tensor(i2, "int64"), tensor(u2, "float32")]
    out.append(value_case(op, "add", "reduction=\"add\" with a full index per row; a repeated "
                          "index adds twice.", p2, 'R.scatter_nd(x, i, u, reduction="add")', args2,
                          tensor(np_scatter_nd(d2.astype(np.float32), i2, u2.astype(np.float32),
                                               "add"), "float32")))
    for red in ("mul", "min", "max"):
        out.append(value_case(op, red, "reduction=\"%s\" with a full index per row." % red, p2,
                              'R.scatter_nd(x, i, u, reduction="%s")' % red, args2,
                              tensor(np_scatter_nd(d2.astype(np.float32), i2,
                                                   u2.astype(np.float32), red), "float32")))
    ds = ints(rng, (3, 4))
    irow = np.array([[2], [0]])
    urow = ints(rng, (2, 4))
    out.append(value_case(op, "rows", "One index per row replaces whole rows.",
                          [("x", ann((3, 4), "int64")), ("i", ann((2, 1), "int64")),
                           ("u", ann((2, 4), "int64"))], "R.scatter_nd(x, i, u)",
                          [tensor(ds, "int64"), tensor(irow, "int64"), tensor(urow, "int64")],
                          tensor(np_scatter_nd(ds, irow, urow), "int64")))
    idup = np.array([[1], [1]])
    case = value_case(op, "duplicates", "A repeated index with reduction=\"update\": TVM v0.22 "
                      "applies rows in order (the last wins); which one wins is "
                      "implementation-defined.",
                      [("x", ann((3,), "int32")), ("i", ann((2, 1), "int64")),
                       ("u", ann((2,), "int32"))], "R.scatter_nd(x, i, u)",
                      [tensor(np.array([1, 2, 3]), "int32"), tensor(idup, "int64"),
                       tensor(np.array([7, 8]), "int32")],
                      tensor(np_scatter_nd(np.array([1, 2, 3]), idup, np.array([7, 8])), "int32"))
    out.append(impl_defined(case, {1: [7]}))
    out.append(sinfo_case(op, "symbolic", "The result has the data's StructInfo; updates are "
                          "indices.shape[:-1] + data.shape[M:].",
                          [("x", ann(("n", 4), "float32")), ("i", ann(("k", 1), "int64")),
                           ("u", ann(("k", 4), "float32"))], "R.scatter_nd(x, i, u)",
                          sinfo(("n", 4), "float32")))
    # The updates-shape check needs every shape known (TVM's InferStructInfoScatterND): data
    # or indices of unknown shape skip it, whatever the updates' shape.
    out.append(sinfo_case(op, "data-shape-unknown", "Data of rank 2 and unknown shape beside "
                          "indices (2, 1) and updates (2, 3): no static shape check, the data's "
                          "StructInfo.", [("x", 'R.Tensor(dtype="int64", ndim=2)'),
                                          ("i", ann((2, 1), "int64")),
                                          ("u", ann((2, 3), "int64"))],
                          "R.scatter_nd(x, i, u)", sinfo(2, "int64")))
    out.append(sinfo_case(op, "indices-shape-unknown", "Indices of unknown shape beside known "
                          "data and updates shapes: no static shape check, the data's "
                          "StructInfo.", [("x", ann((3, 3), "float32")),
                                          ("i", 'R.Tensor(dtype="int64")'),
                                          ("u", ann((2, 3), "float32"))],
                          "R.scatter_nd(x, i, u)", sinfo((3, 3), "float32")))
    out.append(error_case(op, "updates-shape", "Updates of shape (3, 3) where (3,) is needed.",
                          [("x", ann((3, 3), "float32")), ("i", ann((3, 2), "int64")),
                           ("u", ann((3, 3), "float32"))], "R.scatter_nd(x, i, u)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "slice-shape", "Updates of rank 2 but shape (3, 4) where (3, 3) "
                          "is needed.", [("x", ann((3, 3), "float32")), ("i", ann((3, 1), "int64")),
                                         ("u", ann((3, 4), "float32"))], "R.scatter_nd(x, i, u)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "m-too-large", "The last dim of indices (2) exceeds the data's rank "
                          "(1).", [("x", ann((3,), "float32")), ("i", ann((2, 2), "int64")),
                                   ("u", "R.Tensor((), \"float32\")")], "R.scatter_nd(x, i, u)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "symbolic-m", "With every shape known, the last dim of indices must "
                          "be a constant.", [("x", ann((3, 3), "float32")),
                                             ("i", ann((2, "m"), "int64")),
                                             ("u", ann((2,), "float32"))], "R.scatter_nd(x, i, u)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "unknown-dtype", "TVM v0.22 requires data and updates of known "
                          "dtype.", [("x", "R.Tensor((3,))"), ("i", ann((2, 1), "int64")),
                                     ("u", ann((2,), "float32"))], "R.scatter_nd(x, i, u)",
                          "OpDTypeMismatch"))
    out.append(error_case(op, "dtype", "Updates must have the data's dtype.",
                          [("x", ann((3,), "float32")), ("i", ann((2, 1), "int64")),
                           ("u", ann((2,), "int32"))], "R.scatter_nd(x, i, u)", "OpDTypeMismatch"))
    out.append(tagged(error_case(op, "mean", "scatter_nd has no \"mean\" reduction (topi "
                                 "scatter_nd implements update, add, mul, min, max; TVM v0.22 "
                                 "fails only when legalizing it).", p2,
                                 'R.scatter_nd(x, i, u, reduction="mean")', "OpAttr"),
                      "tvm-diverges"))
    out.append(error_case(op, "float-indices", "Indices must be integers.",
                          [("x", ann((3,), "float32")), ("i", ann((2, 1), "float32")),
                           ("u", ann((2,), "float32"))], "R.scatter_nd(x, i, u)",
                          "OpDTypeMismatch"))
    out.append(undefined(error_case(
        op, "negative", "A negative index is not counted from the end (topi scatter_nd uses it "
        "as it is, writing out of bounds): undefined.",
        [("x", ann((4,), "int32")), ("i", ann((2, 1), "int64")), ("u", ann((2,), "int32"))],
        "R.scatter_nd(x, i, u)", "OpPrecondition",
        [tensor(np.arange(4), "int32"), tensor(np.array([[-1], [2]]), "int64"),
         tensor(np.array([9, 8]), "int32")])))
    return out


INDEX_PUT_BUG = ("tvm-bug", "tvm-fixed-v0.23")


def index_put_cases(rng):
    op, out = "index_put", []
    d = np.zeros((3, 3))
    a, b = np.array([0, 2]), np.array([1, 1])
    v = np.array([1.0, 2.0])
    p = [("x", ann((3, 3), "float32")), ("a", ann((2,), "int64")), ("b", ann((2,), "int64")),
         ("v", ann((2,), "float32"))]
    args = [tensor(d, "float32"), tensor(a, "int64"), tensor(b, "int64"), tensor(v, "float32")]
    desc = " (TVM v0.22's legalization cannot lower index_put; fixed in v0.23.)"
    out.append(tagged(value_case(op, "update", "index_put sets x[a[k], b[k]] = v[k]." + desc, p,
                                 "R.index_put(x, R.tuple(a, b), v)", args,
                                 tensor(np_index_put(d, [a, b], v), "float32")), *INDEX_PUT_BUG))
    a2 = np.array([0, 2, 2])
    b2 = np.array([1, 1, 1])
    v2 = np.array([1.0, 2.0, 0.5])
    p3 = [("x", ann((3, 3), "float32")), ("a", ann((3,), "int64")), ("b", ann((3,), "int64")),
          ("v", ann((3,), "float32"))]
    out.append(tagged(value_case(op, "accumulate", "accumulate=True adds, a repeated position "
                                 "once per occurrence." + desc, p3,
                                 "R.index_put(x, R.tuple(a, b), v, accumulate=True)",
                                 [tensor(d, "float32"), tensor(a2, "int64"), tensor(b2, "int64"),
                                  tensor(v2, "float32")],
                                 tensor(np_index_put(d, [a2, b2], v2, True), "float32")),
                      *INDEX_PUT_BUG))
    di = ints(rng, (4,))
    ineg = np.array([-1, 0])
    out.append(tagged(value_case(op, "negative", "A negative index counts once from the end of "
                                 "its axis." + desc,
                                 [("x", ann((4,), "int32")), ("a", ann((2,), "int32")),
                                  ("v", ann((2,), "int32"))], "R.index_put(x, R.tuple(a), v)",
                                 [tensor(di, "int32"), tensor(ineg, "int32"),
                                  tensor(np.array([7, 8]), "int32")],
                                 tensor(np_index_put(di, [ineg], np.array([7, 8])), "int32")),
                      *INDEX_PUT_BUG))
    case = value_case(op, "duplicates", "A repeated position without accumulate: the last "
                      "write wins in the reference; TVM's loop is parallel, so which one wins is "
                      "implementation-defined." + desc, p3, "R.index_put(x, R.tuple(a, b), v)",
                      [tensor(d, "float32"), tensor(a2, "int64"), tensor(b2, "int64"),
                       tensor(v2, "float32")], tensor(np_index_put(d, [a2, b2], v2), "float32"))
    out.append(tagged(impl_defined(case, {7: [2.0]}), *INDEX_PUT_BUG))
    out.append(sinfo_case(op, "symbolic", "The result has the data's StructInfo.",
                          [("x", ann(("n", "m"), "float32")), ("a", ann(("k",), "int64")),
                           ("b", ann(("k",), "int64")), ("v", ann(("k",), "float32"))],
                          "R.index_put(x, R.tuple(a, b), v)", sinfo(("n", "m"), "float32")))
    out.append(error_case(op, "count", "One index tensor for a rank-2 tensor.",
                          [("x", ann((3, 3), "float32")), ("a", ann((2,), "int64")),
                           ("v", ann((2,), "float32"))], "R.index_put(x, R.tuple(a), v)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "index-rank", "Index tensors must be 1-D.",
                          [("x", ann((3, 3), "float32")), ("a", ann((2, 1), "int64")),
                           ("b", ann((2,), "int64")), ("v", ann((2,), "float32"))],
                          "R.index_put(x, R.tuple(a, b), v)", "OpShapeMismatch"))
    out.append(error_case(op, "float-index", "Index tensors must be integers.",
                          [("x", ann((3,), "float32")), ("a", ann((2,), "float32")),
                           ("v", ann((2,), "float32"))], "R.index_put(x, R.tuple(a), v)",
                          "OpDTypeMismatch"))
    out.append(error_case(op, "values-dtype", "Values must have the data's dtype.",
                          [("x", ann((3,), "float32")), ("a", ann((2,), "int64")),
                           ("v", ann((2,), "int32"))], "R.index_put(x, R.tuple(a), v)",
                          "OpDTypeMismatch"))
    out.append(tagged(error_case(
        op, "lengths", "Index tensors of lengths 2 and 3 fail when run." + desc,
        [("x", ann((3, 3), "float32")), ("a", ann(("m",), "int64")), ("b", ann(("k",), "int64")),
         ("v", ann(("m",), "float32"))], "R.index_put(x, R.tuple(a, b), v)", "OpPrecondition",
        [tensor(d, "float32"), tensor(a, "int64"), tensor(np.array([0, 1, 2]), "int64"),
         tensor(v, "float32")]), *INDEX_PUT_BUG))
    out.append(undefined(error_case(
        op, "out-of-range", "An index past its axis stops the reference; TVM writes out of "
        "bounds: undefined.", p, "R.index_put(x, R.tuple(a, b), v)", "OpPrecondition",
        [tensor(d, "float32"), tensor(np.array([0, 3]), "int64"), tensor(b, "int64"),
         tensor(v, "float32")])))
    big = np.array([2 ** 64 - 1, 0], dtype=np.uint64)
    out.append(undefined(error_case(
        op, "uint64-above-int64", "A uint64 index 2^64 - 1 is past the axis, not -1 counted from "
        "the end (only a signed index below 0 counts from the end); TVM writes out of bounds: "
        "undefined.", [("x", ann((3,), "float32")), ("a", ann((2,), "uint64")),
                       ("v", ann((2,), "float32"))], "R.index_put(x, R.tuple(a), v)",
        "OpPrecondition", [tensor(np.zeros(3), "float32"), tensor(big, "uint64"),
                           tensor(np.array([1.0, 2.0]), "float32")])))
    return out


def slice_scatter_cases(rng):
    op, out = "slice_scatter", []
    d = np.zeros((2, 6))
    s = np.array([[1.0, 2.0], [3.0, 4.0]])
    p = [("x", ann((2, 6), "float32")), ("s", ann((2, 2), "float32"))]
    args = [tensor(d, "float32"), tensor(s, "float32")]
    out.append(value_case(op, "step", "slice_scatter writes src at positions 1 and 3 of axis 1 "
                          "(start 1, end 5, step 2).", p, "R.slice_scatter(x, s, 1, 5, 2, axis=1)",
                          args, tensor(np_slice_scatter(d, s, 1, 5, 2, 1), "float32")))
    dw = ints(rng, (3, 2))
    sw = ints(rng, (3, 2))
    out.append(value_case(op, "whole", "A slice covering the whole axis gives src.",
                          [("x", ann((3, 2), "int32")), ("s", ann((3, 2), "int32"))],
                          "R.slice_scatter(x, s, 0, 3, 1)",
                          [tensor(dw, "int32"), tensor(sw, "int32")],
                          tensor(np_slice_scatter(dw, sw, 0, 3, 1, 0), "int32")))
    dm = ints(rng, (5, 2))
    sm = ints(rng, (2, 2))
    out.append(value_case(op, "middle", "Rows 2 and 3 of axis 0 from src.",
                          [("x", ann((5, 2), "int64")), ("s", ann((2, 2), "int64"))],
                          "R.slice_scatter(x, s, 2, 4, 1)",
                          [tensor(dm, "int64"), tensor(sm, "int64")],
                          tensor(np_slice_scatter(dm, sm, 2, 4, 1, 0), "int64")))
    out.append(value_case(op, "negative-start", "start -2 is not counted from the end: the "
                          "slice covers -2 and 0, and position 0 takes src's second element "
                          "(topi slice_scatter's mask).", p,
                          "R.slice_scatter(x, s, -2, 2, 2, axis=1)", args,
                          tensor(np_slice_scatter(d, s, -2, 2, 2, 1), "float32")))
    out.append(sinfo_case(op, "symbolic", "The result has the data's StructInfo.",
                          [("x", ann(("n", 6), "float32")), ("s", ann(("n", 2), "float32"))],
                          "R.slice_scatter(x, s, 1, 5, 2, axis=1)", sinfo(("n", 6), "float32")))
    out.append(error_case(op, "step-zero", "step 0 is rejected.", p,
                          "R.slice_scatter(x, s, 0, 2, 0, axis=1)", "OpAttr"))
    out.append(error_case(op, "reversed", "start after end is rejected.", p,
                          "R.slice_scatter(x, s, 4, 2, 1, axis=1)", "OpAttr"))
    out.append(error_case(op, "src-length", "src's axis must have ceil((end - start) / step) "
                          "elements: 3 here.", p, "R.slice_scatter(x, s, 0, 5, 2, axis=1)",
                          "OpShapeMismatch"))
    out.append(error_case(op, "src-dims", "src's other dims must equal the data's.",
                          [("x", ann((2, 6), "float32")), ("s", ann((3, 2), "float32"))],
                          "R.slice_scatter(x, s, 1, 5, 2, axis=1)", "OpShapeMismatch"))
    out.append(error_case(op, "dtype", "src must have the data's dtype.",
                          [("x", ann((2, 6), "float32")), ("s", ann((2, 2), "int32"))],
                          "R.slice_scatter(x, s, 1, 5, 2, axis=1)", "OpDTypeMismatch"))
    out.append(error_case(op, "float-start", "start must be an integer PrimValue.", p,
                          "R.slice_scatter(x, s, R.prim_value(T.float32(1.0)), 5, 2, axis=1)",
                          "OpDTypeMismatch"))
    out.append(error_case(op, "axis", "axis 2 is out of range for rank 2.", p,
                          "R.slice_scatter(x, s, 1, 5, 2, axis=2)", "OpAttr"))
    out.append(undefined(error_case(
        op, "src-length-run", "A symbolic src length that does not fit the slice when run stops "
        "the reference (TVM reads src out of bounds: undefined).",
        [("x", ann((2, 6), "float32")), ("s", ann((2, "k"), "float32"))],
        "R.slice_scatter(x, s, 1, 5, 2, axis=1)", "OpPrecondition",
        [tensor(d, "float32"), tensor(np.ones((2, 3)), "float32")])))
    out.append(error_case(op, "rank", "src must have the data's rank.",
                          [("x", ann((2, 6), "float32")), ("s", ann((2,), "float32"))],
                          "R.slice_scatter(x, s, 1, 5, 2, axis=1)", "OpShapeMismatch"))
    out.append(sinfo_case(op, "symbolic-start", "With a symbolic start k (y's length) the slice "
                          "length is unknown, so any src length on the axis is accepted "
                          "statically.",
                          [("x", ann((2, 6), "float32")), ("s", ann((2, 3), "float32")),
                           ("y", ann(("k",), "float32"))],
                          "R.slice_scatter(x, s, k, 5, 1, axis=1)", sinfo((2, 6), "float32")))
    out.append(error_case(op, "symbolic-start-src-dims", "With a symbolic start src's other "
                          "dims must still equal the data's: 3 rows against 2.",
                          [("x", ann((2, 6), "float32")), ("s", ann((3, 2), "float32")),
                           ("y", ann(("k",), "float32"))],
                          "R.slice_scatter(x, s, k, 5, 1, axis=1)", "OpShapeMismatch"))
    return out


# ---- index and coordinate tensors ----------------------------------------------------------


def one_hot_cases(rng):
    op, out = "one_hot", []
    i = np.array([0, 2, 5, -1])
    out.append(value_case(op, "int64", "one_hot with int64 on/off PrimValues; an index outside "
                          "[0, depth) gives off everywhere.", [("i", ann((4,), "int64"))],
                          "R.one_hot(i, R.prim_value(1), R.prim_value(0), 3)", [tensor(i, "int64")],
                          tensor(np_one_hot(i, 1, 0, 3, -1, np.int64), "int64")))
    i2 = np.array([[0, 1, 5], [-1, 3, 2]])
    f = "R.prim_value(T.float32(%s))"
    out.append(value_case(op, "float-axis0", "float32 values, the new axis first.",
                          [("i", ann((2, 3), "int32"))],
                          "R.one_hot(i, %s, %s, 4, axis=0)" % (f % "2.5", f % "-1.0"),
                          [tensor(i2, "int32")],
                          tensor(np_one_hot(i2, 2.5, -1.0, 4, 0, np.float32), "float32")))
    out.append(value_case(op, "axis1", "The new axis in the middle (axis=1).",
                          [("i", ann((2, 3), "int32"))],
                          "R.one_hot(i, R.prim_value(1), R.prim_value(0), 4, axis=1)",
                          [tensor(i2, "int32")],
                          tensor(np_one_hot(i2, 1, 0, 4, 1, np.int64), "int64")))
    case = value_case(op, "axis-minus2", "axis=-2 counts from the end of the result (as TVM's "
                      "inference does); TVM v0.22's topi one_hot handles only -1.",
                      [("i", ann((2, 3), "int32"))],
                      "R.one_hot(i, R.prim_value(1), R.prim_value(0), 4, axis=-2)",
                      [tensor(i2, "int32")], tensor(np_one_hot(i2, 1, 0, 4, -2, np.int64), "int64"))
    out.append(tagged(case, "tvm-bug", "tvm-one-hot-negative-axis"))
    out.append(sinfo_case(op, "symbolic", "The depth is inserted at the axis; the dtype is the "
                          "on/off values'.", [("i", ann(("n",), "int32"))],
                          "R.one_hot(i, %s, %s, 4)" % (f % "1.0", f % "0.0"),
                          sinfo(("n", 4), "float32")))
    out.append(error_case(op, "depth", "depth must be positive.", [("i", ann((3,), "int64"))],
                          "R.one_hot(i, R.prim_value(1), R.prim_value(0), 0)", "OpAttr"))
    out.append(error_case(op, "value-dtypes", "on_value and off_value must have one dtype.",
                          [("i", ann((3,), "int64"))],
                          "R.one_hot(i, R.prim_value(1), %s, 3)" % (f % "0.0"), "OpDTypeMismatch"))
    out.append(error_case(op, "float-indices", "Indices must be integers.",
                          [("i", ann((3,), "float32"))],
                          "R.one_hot(i, R.prim_value(1), R.prim_value(0), 3)", "OpDTypeMismatch"))
    out.append(error_case(op, "axis", "axis 2 is out of range for 1-d indices (result rank 2).",
                          [("i", ann((3,), "int64"))],
                          "R.one_hot(i, R.prim_value(1), R.prim_value(0), 3, axis=2)", "OpAttr"))
    return out


def nonzero_cases(rng):
    op, out = "nonzero", []
    x = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]])
    out.append(value_case(op, "matrix", "nonzero gives one row of coordinates per axis, one "
                          "column per non-zero element, in row-major order.",
                          [("x", ann((2, 3), "float32"))], "R.nonzero(x)", [tensor(x, "float32")],
                          np_nonzero(x)))
    b = np.array([True, False, True, True])
    out.append(value_case(op, "bool", "nonzero of a bool vector.", [("x", ann((4,), "bool"))],
                          "R.nonzero(x)", [tensor(b, "bool")], np_nonzero(b)))
    s = np.array(5)
    out.append(value_case(op, "scalar", "A 0-d tensor counts as 1-d (numpy's atleast_1d): "
                          "shape (1, 1) when non-zero.", [("x", "R.Tensor((), \"int32\")")],
                          "R.nonzero(x)", [tensor(s, "int32")], np_nonzero(s)))
    xr = np.array([[0, 0, 0], [0, 4, 0], [5, 0, 6]])
    out.append(value_case(op, "first-row-empty", "nonzero of a matrix whose first row is zero: "
                          "the coordinates start at row 1 and end at column 2.",
                          [("x", ann((3, 3), "int32"))], "R.nonzero(x)", [tensor(xr, "int32")],
                          np_nonzero(xr)))
    xf = np.array([0.25, -0.0, np.nan, 0.0, -0.5, 1e-30])
    out.append(value_case(op, "float-fractions", "A float element is non-zero by its value, "
                          "not by its integer part: 0.25, -0.5, a tiny 1e-30 and NaN count, "
                          "0.0 and -0.0 do not.", [("x", ann((6,), "float32"))],
                          "R.nonzero(x)", [tensor(xf, "float32")], np_nonzero(xf)))
    z = np.zeros((2, 2))
    out.append(value_case(op, "none", "No non-zero element: shape (2, 0).",
                          [("x", ann((2, 2), "int64"))], "R.nonzero(x)", [tensor(z, "int64")],
                          np_nonzero(z)))
    xc = np.array([0.0, 2.0, 0.0, -1.0, 7.5])
    out.append({"id": "nonzero-match-cast", "description": "The count of non-zero elements, "
                "unknown statically, bound by a MatchCast and returned as a shape.",
                "spec": ["OP-nonzero"],
                "program": "@R.function\ndef main(x: R.Tensor((5,), \"float32\")):\n"
                           "    k = T.int64()\n    y = R.nonzero(x)\n"
                           "    z = R.match_cast(y, R.Tensor((1, k), \"int64\"))\n"
                           "    return R.shape([k])\n",
                "args": [tensor(xc, "float32")],
                "value": gen_ops.Shape([np_nonzero(xc).shape[1]])})
    out.append(sinfo_case(op, "sinfo", "The result's second dim depends on the data: int64 of "
                          "rank 2.", [("x", ann(("n", 3), "float32"))], "R.nonzero(x)",
                          sinfo(2, "int64")))
    out.append(error_case(op, "not-tensor", "The argument must be a tensor.",
                          [("x", "R.Shape([2, 3])")], "R.nonzero(x)", "OpArgType"))
    # TVM v0.22 prints R.nonzero(x) but its TVMScript parser does not know the name.
    return [tagged(c, "tvm-bug", "tvm-script-nonzero") for c in out]


BUCKETIZE_BUG = ("tvm-bug", "tvm-fixed-v0.26")


def bucketize_cases(rng):
    op, out = "bucketize", []
    x = np.array([[0, 1, 2], [3, 7, -4]])
    b = np.array([1, 3, 5])
    p = [("x", ann((2, 3), "int64")), ("b", ann((3,), "int64"))]
    args = [tensor(x, "int64"), tensor(b, "int64")]
    out.append(value_case(op, "left", "bucketize: the count of boundaries below each value.", p,
                          "R.bucketize(x, b)", args,
                          tensor(np_bucketize(x, b, False, np.int64), "int64")))
    out.append(value_case(op, "right", "right=True also counts the boundaries equal to the "
                          "value.", p, "R.bucketize(x, b, right=True)", args,
                          tensor(np_bucketize(x, b, True, np.int64), "int64")))
    xf = np.array([0.5, 1.0, 1.5, 2.0, 9.0])
    bf = np.array([1.0, 2.0, 3.0])
    out.append(tagged(value_case(op, "float", "float32 values and boundaries; TVM v0.22 "
                                 "legalizes with the input's dtype as the result's (fixed in "
                                 "v0.26).", [("x", ann((5,), "float32")),
                                             ("b", ann((3,), "float32"))],
                                 "R.bucketize(x, b)", [tensor(xf, "float32"), tensor(bf, "float32")],
                                 tensor(np_bucketize(xf, bf, False, np.int64), "int64")),
                      *BUCKETIZE_BUG))
    out.append(tagged(value_case(op, "int32-out", "out_int32=True gives int32 indices (TVM "
                                 "v0.22 returns the input's dtype, fixed in v0.26).", p,
                                 "R.bucketize(x, b, out_int32=True)", args,
                                 tensor(np_bucketize(x, b, False, np.int32), "int32")),
                      *BUCKETIZE_BUG))
    xe = np.array([9, 2, 0, 5])
    be = np.array([1, 3, 5])
    pe = [("x", ann((4,), "int64")), ("b", ann((3,), "int64"))]
    out.append(value_case(op, "first-last", "bucketize whose first value is past every "
                          "boundary and whose last equals one: the first and last results are "
                          "3 and 2.", pe, "R.bucketize(x, b)", [tensor(xe, "int64"),
                                                                tensor(be, "int64")],
                          tensor(np_bucketize(xe, be, False, np.int64), "int64")))
    out.append(sinfo_case(op, "symbolic", "The input's shape in int64.",
                          [("x", ann(("n", 3), "float32")), ("b", ann(("k",), "float32"))],
                          "R.bucketize(x, b)", sinfo(("n", 3), "int64")))
    out.append(sinfo_case(op, "symbolic-int32", "The input's shape in int32 with out_int32.",
                          [("x", ann(("n", 3), "float32")), ("b", ann(("k",), "float32"))],
                          "R.bucketize(x, b, out_int32=True)", sinfo(("n", 3), "int32")))
    out.append(error_case(op, "boundaries-rank", "The boundaries must be 1-d.",
                          [("x", ann((3,), "float32")), ("b", ann((2, 2), "float32"))],
                          "R.bucketize(x, b)", "OpShapeMismatch"))
    return out


def meshgrid_cases(rng):
    op, out = "meshgrid", []
    a, b = np.array([1, 2]), np.array([5, 6, 7])
    p = [("a", ann((2,), "int32")), ("b", ann((3,), "int32"))]
    args = [tensor(a, "int32"), tensor(b, "int32")]
    for idx in ("ij", "xy"):
        grids = np_meshgrid([a, b], idx)
        out.append(value_case(op, idx, "meshgrid with indexing=\"%s\"%s." % (
            idx, "" if idx == "ij" else ": grids of shape (3, 2), numpy's Cartesian indexing"),
            p, 'R.meshgrid((a, b), indexing="%s")' % idx, args,
            gen_ops.Tup([tensor(g, "int32") for g in grids])))
    c = np.array([0.5, -1.0])
    xs = [a.astype(np.float64), np.array([3.0]), c]
    grids = np_meshgrid(xs, "ij")
    out.append(value_case(op, "three", "Three inputs with the default indexing \"ij\".",
                          [("a", ann((2,), "float32")), ("b", ann((1,), "float32")),
                           ("c", ann((2,), "float32"))], "R.meshgrid([a, b, c])",
                          [tensor(x, "float32") for x in xs],
                          gen_ops.Tup([tensor(g, "float32") for g in grids])))
    one = np_meshgrid([b], "ij")
    out.append(tagged(value_case(op, "one", "One input gives a tuple of one grid, the input "
                                 "itself (TVM v0.22 legalizes it to a lone tensor, not a tuple).",
                                 [("b", ann((3,), "int32"))], "R.meshgrid((b,))",
                                 [tensor(b, "int32")], gen_ops.Tup([tensor(one[0], "int32")])),
                      "tvm-bug", "tvm-meshgrid-one-input"))
    ps = [("a", ann(("m",), "float32")), ("b", ann(("n",), "float32"))]
    out.append(sinfo_case(op, "symbolic-ij", "n grids of shape (len_0, ..., len_n-1).", ps,
                          "R.meshgrid((a, b))", "R.Tuple(%s, %s)" % (
                              sinfo(("m", "n"), "float32"), sinfo(("m", "n"), "float32"))))
    out.append(tagged(sinfo_case(op, "symbolic-xy", "With \"xy\" the first two dims swap, as "
                                 "the computed grids; TVM v0.22's inference does not swap them.",
                                 ps, 'R.meshgrid((a, b), indexing="xy")', "R.Tuple(%s, %s)" % (
                                     sinfo(("n", "m"), "float32"), sinfo(("n", "m"), "float32"))),
                      "tvm-bug", "tvm-meshgrid-xy-shape"))
    out.append(error_case(op, "empty", "An empty tuple of tensors.", [("a", ann((2,), "float32"))],
                          "R.meshgrid([])", "OpArity"))
    out.append(error_case(op, "rank", "Every input must be 1-d.",
                          [("a", ann((2,), "float32")), ("b", ann((2, 2), "float32"))],
                          "R.meshgrid((a, b))", "OpShapeMismatch"))
    out.append(error_case(op, "dtype", "The inputs must have one dtype.",
                          [("a", ann((2,), "float32")), ("b", ann((2,), "int32"))],
                          "R.meshgrid((a, b))", "OpDTypeMismatch"))
    out.append(tagged(error_case(op, "indexing", "indexing other than \"ij\" and \"xy\" is "
                                 "rejected (TVM v0.22 reads it as \"ij\").", p,
                                 'R.meshgrid((a, b), indexing="ab")', "OpAttr"),
                      "tvm-bug", "tvm-meshgrid-indexing"))
    return out


def cases():
    rng = np.random.default_rng(SEED)
    out = []
    out += with_file(gather_elements_cases(rng) + gather_nd_cases(rng) + index_tensor_cases(rng),
                     "scatter_gather")
    out += with_file(scatter_elements_cases(rng) + scatter_nd_cases(rng) + index_put_cases(rng) +
                     slice_scatter_cases(rng), "scatter_write")
    out += with_file(one_hot_cases(rng) + nonzero_cases(rng) + bucketize_cases(rng) +
                     meshgrid_cases(rng), "scatter_coords")
    return out
