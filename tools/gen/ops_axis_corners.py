"""Two corners of the operators that take an axis, for each operator of that family.

An explicit axis on a rank-0 tensor: a rank of 0 is known, and no axis is in the range
[-0, 0), so each program below is rejected (OpAttr, as for any axis out of range). TVM
v0.22's inference normalizes the axis against the data's rank for each of them
(src/relax/op/tensor/*.cc, NormalizeAxis), but for the scans and the sorts: cumsum's and
cumprod's inference (InferStructInfoScan, statistical.cc) and sort's and argsort's
(sorting.cc) never look at the axis, so TVM v0.22 accepts those four programs, as it accepts
any axis out of range for them; the reference range-checks every axis (as for sort's
existing axis-range case), and those cases are tagged `tvm-diverges`. Each program was
checked against TVM v0.22.

The middle axis of a rank-3 tensor: the kernels walk an axis as `outer` blocks of `len`
elements `inner` apart; an axis with outer >= 2 and inner >= 2 is the only one where a step
past the lane's end lands inside the next block, or a block's offset forgets `inner`. The
expected values are numpy's on the same axis (softmax in float64 then rounded to float32,
as TVM's float32 kernel computes within that tolerance; sums and cumulative sums of small
integers, exact in int32; argmax/argmin of distinct values; data movement exact). `cases()`
returns the case dicts the driver (gen_ops.py) writes to spec-tests/ops/axis_rank0.yaml and
spec-tests/ops/walk_middle_axis.yaml.
"""

import numpy as np

import manip_helpers as mh
import ops_nn

RANK0_FILE = "axis_rank0"
MIDDLE_FILE = "walk_middle_axis"


def ann(shape, dtype="float32"):
    return mh.tensor_ann(shape, dtype) if len(shape) else 'R.Tensor((), "%s")' % dtype


# (operator, case id, what the description says, params, expression)
RANK0 = [
    ("take", "rank-0-data-axis-0", "take along axis 0",
     [("x", ann(())), ("i", ann((1,), "int64"))], "R.take(x, i, axis=0)"),
    ("cumsum", "rank-0-axis-0", "cumsum along axis 0", [("x", ann(()))], "R.cumsum(x, axis=0)"),
    ("cumprod", "rank-0-axis-0", "cumprod along axis 0", [("x", ann(()))],
     "R.cumprod(x, axis=0)"),
    ("flip", "rank-0-axis-0", "flip along axis 0", [("x", ann(()))], "R.flip(x, axis=0)"),
    ("split", "rank-0-axis-0", "split along axis 0", [("x", ann(()))],
     "R.split(x, 1, axis=0)"),
    ("argmax", "rank-0-axis-0", "argmax along axis 0", [("x", ann(()))],
     "R.argmax(x, axis=0)"),
    ("argmin", "rank-0-axis-0", "argmin along axis 0", [("x", ann(()))],
     "R.argmin(x, axis=0)"),
    ("sort", "rank-0-axis-0", "sort along axis 0", [("x", ann(()))], "R.sort(x, axis=0)"),
    ("argsort", "rank-0-axis-0", "argsort along axis 0", [("x", ann(()))],
     "R.argsort(x, axis=0)"),
    ("repeat", "rank-0-axis-0", "repeat along axis 0", [("x", ann(()))],
     "R.repeat(x, 2, axis=0)"),
    ("nn.softmax", "rank-0-axis-0", "softmax along axis 0", [("x", ann(()))],
     "R.nn.softmax(x, axis=0)"),
    ("nn.log_softmax", "rank-0-axis-0", "log_softmax along axis 0", [("x", ann(()))],
     "R.nn.log_softmax(x, axis=0)"),
    ("sum", "rank-0-axis-0", "sum over axis 0", [("x", ann(()))], "R.sum(x, axis=[0])"),
    ("max", "rank-0-axis-0", "max over axis 0", [("x", ann(()))], "R.max(x, axis=[0])"),
    ("gather_elements", "rank-0-axis-0", "gather_elements along axis 0",
     [("x", ann(())), ("i", ann((), "int64"))], "R.gather_elements(x, i, axis=0)"),
]


# TVM v0.22's inference of these never checks the axis (see above).
UNCHECKED_IN_TVM = {"cumsum", "cumprod", "sort", "argsort"}


def rank0_cases():
    out = []
    for op, cid, what, params, expr in RANK0:
        case = mh.error_case(op, cid, "%s of a rank-0 tensor is rejected: a rank of 0 has no "
                             "axis 0." % what, params, expr, "OpAttr")
        case["file"] = RANK0_FILE
        case["tags"] = ["shape-corner"] + (["tvm-diverges"] if op in UNCHECKED_IN_TVM else [])
        out.append(case)
    return out


def distinct(rng, shape, dtype):
    """Distinct values (so argmax, argmin and sorts have one answer), exact in the dtype."""
    n = int(np.prod(shape))
    return (rng.permutation(n) - n // 2).reshape(shape).astype(dtype)


def middle(op, desc, params, expr, args, expected, tolerance=None):
    case = mh.value_case(op, "middle-axis-of-rank-3", desc, params, expr, args, expected,
                         tolerance=tolerance)
    case["file"] = MIDDLE_FILE
    case["tags"] = ["shape-corner"]
    return case


def middle_cases(rng):
    out = []
    shape = (2, 3, 2)
    for op, fn in (("nn.softmax", ops_nn.np_softmax), ("nn.log_softmax", ops_nn.np_log_softmax)):
        x = mh.floats(rng, shape)
        out.append(middle(op, "%s along axis 1 of a (2, 3, 2) tensor: two blocks of three "
                          "lanes two apart." % op, [("x", ann(shape))], "R.%s(x, axis=1)" % op,
                          [mh.tensor(x, "float32")],
                          mh.tensor(fn(x.astype(np.float64), 1), "float32"),
                          {"rtol": 1e-5, "atol": 1e-6}))
    x = mh.ints(rng, shape).astype("int32")
    for op, fn in (("cumsum", np.cumsum), ("cumprod", np.cumprod)):
        out.append(middle(op, "%s along axis 1 of a (2, 3, 2) int32 tensor." % op,
                          [("x", ann(shape, "int32"))], "R.%s(x, axis=1)" % op,
                          [mh.tensor(x, "int32")], mh.tensor(fn(x, axis=1), "int32")))
    x = distinct(rng, shape, "int32")
    for op, fn in (("argmax", np.argmax), ("argmin", np.argmin)):
        out.append(middle(op, "%s along axis 1 of a (2, 3, 2) tensor of distinct values."
                          % op, [("x", ann(shape, "int32"))], "R.%s(x, axis=1)" % op,
                          [mh.tensor(x, "int32")], mh.tensor(fn(x, axis=1), "int64")))
    for op, fn in (("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod)):
        x = mh.ints(rng, shape, -3, 4).astype("int32")
        out.append(middle(op, "%s over axis 1 of a (2, 3, 2) int32 tensor." % op,
                          [("x", ann(shape, "int32"))], "R.%s(x, axis=[1])" % op,
                          [mh.tensor(x, "int32")], mh.tensor(fn(x, axis=1), "int32")))
    x = distinct(rng, shape, "int32")
    out.append(middle("sort", "sort along axis 1 of a (2, 3, 2) tensor of distinct values.",
                      [("x", ann(shape, "int32"))], "R.sort(x, axis=1)",
                      [mh.tensor(x, "int32")], mh.tensor(np.sort(x, axis=1), "int32")))
    out.append(middle("argsort", "argsort along axis 1 of a (2, 3, 2) tensor of distinct "
                      "values.", [("x", ann(shape, "int32"))], "R.argsort(x, axis=1)",
                      [mh.tensor(x, "int32")],
                      mh.tensor(np.argsort(x, axis=1, kind="stable"), "int32")))
    order = np.argsort(-x, axis=1, kind="stable")[:, :2, :]
    out.append(middle("topk", "topk with k=2 along axis 1 of a (2, 3, 2) tensor of distinct "
                      "values: the two largest of each lane and their indices.",
                      [("x", ann(shape, "int32"))], "R.topk(x, k=2, axis=1)",
                      [mh.tensor(x, "int32")],
                      mh.tuple_value([mh.tensor(np.take_along_axis(x, order, 1), "int32"),
                                      mh.tensor(order, "int32")])))
    x = mh.ints(rng, shape).astype("int32")
    out.append(middle("flip", "flip along axis 1 of a (2, 3, 2) tensor.",
                      [("x", ann(shape, "int32"))], "R.flip(x, axis=1)",
                      [mh.tensor(x, "int32")], mh.tensor(np.flip(x, 1), "int32")))
    out.append(middle("repeat", "repeat twice along axis 1 of a (2, 3, 2) tensor.",
                      [("x", ann(shape, "int32"))], "R.repeat(x, 2, axis=1)",
                      [mh.tensor(x, "int32")], mh.tensor(np.repeat(x, 2, axis=1), "int32")))
    y = mh.ints(rng, (2, 1, 2)).astype("int32")
    out.append(middle("concat", "concat along axis 1 of a (2, 3, 2) and a (2, 1, 2) tensor.",
                      [("x", ann(shape, "int32")), ("z", ann((2, 1, 2), "int32"))],
                      "R.concat((x, z), axis=1)", [mh.tensor(x, "int32"), mh.tensor(y, "int32")],
                      mh.tensor(np.concatenate([x, y], axis=1), "int32")))
    out.append(middle("split", "split at index 1 along axis 1 of a (2, 3, 2) tensor: pieces "
                      "of one and two rows from each block.", [("x", ann(shape, "int32"))],
                      "R.split(x, [1], axis=1)", [mh.tensor(x, "int32")],
                      mh.tuple_value([mh.tensor(p, "int32") for p in np.split(x, [1], axis=1)])))
    i = np.array([2, 0], dtype="int64")
    out.append(middle("take", "take indices [2, 0] along axis 1 of a (2, 3, 2) tensor.",
                      [("x", ann(shape, "int32")), ("i", ann((2,), "int64"))],
                      "R.take(x, i, axis=1)", [mh.tensor(x, "int32"), mh.tensor(i, "int64")],
                      mh.tensor(np.take(x, i, axis=1), "int32")))
    return out


def cases():
    rng = np.random.default_rng(20261127)
    return rank0_cases() + middle_cases(rng)
