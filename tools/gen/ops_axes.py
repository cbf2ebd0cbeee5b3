"""Axis, dtype and shape corners of the manipulation, indexing, creation and statistical
operators: negative axes, keepdims, rank-0 and empty (0-dim) tensors, every dtype a data
movement accepts (values only move, so bool, int8, uint8, float16, int64 and float64 must
come out as they went in), and the static errors of an axis out of range.

Expected values are numpy's: data movement is numpy's own operation on the same axes
(TVM's topi transforms index the same way); sums and products accumulate in the dtype in
index order (ops_manip.tvm_reduce, topi reduction.h); integer inputs stay small enough that
no signed 32/64-bit arithmetic overflows (SPEC_NOTES 4.19). StructInfo expectations are
derived by hand from the operators' inference rules in src/relax/op/tensor/ of TVM v0.22.
"""

import numpy as np

import manip_helpers as mh
import ops_manip as om

MOVE_DTYPES = ("bool", "int8", "uint8", "int64", "float16", "float64")


def data(rng, shape, dtype):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype == "uint8":
        return rng.integers(0, 200, size=shape).astype(dtype)
    if dtype.startswith("int"):
        return rng.integers(-100, 100, size=shape).astype(dtype)
    return mh.floats(rng, shape, dtype)


def ann(shape, dtype):
    if len(shape) == 0:
        return 'R.Tensor((), "%s")' % dtype
    return mh.tensor_ann(shape, dtype)


def sinfo(shape, dtype):
    if not isinstance(shape, int) and len(shape) == 0:
        return 'R.Tensor((), dtype="%s")' % dtype
    return mh.sinfo_text(shape, dtype)


def value(op, cid, desc, params, expr, args, expected, file, tags, pre=()):
    case = mh.value_case(op, cid, desc, params, expr, [np.asarray(a) for a in args],
                         expected if not isinstance(expected, np.ndarray) else
                         np.asarray(expected), pre)
    case["file"] = file
    case["tags"] = tags
    return case


def static(op, cid, desc, params, expr, expect, file, tags):
    if isinstance(expect, str) and expect[0].isupper() and not expect.startswith("R."):
        case = mh.error_case(op, cid, desc, params, expr, expect)
    else:
        case = mh.sinfo_case(op, cid, desc, params, expr, expect)
    case["file"] = file
    case["tags"] = tags
    return case


# ---- data movement over every dtype ----------------------------------------------------

# (op, input shape, expression, numpy function)
MOVES = [
    ("reshape", (2, 3), "R.reshape(x, (3, -1))", lambda x: x.reshape(3, -1)),
    ("permute_dims", (2, 3, 2), "R.permute_dims(x, [-1, 0, -2])",
     lambda x: np.transpose(x, (2, 0, 1))),
    ("expand_dims", (2, 3), "R.expand_dims(x, -1)", lambda x: np.expand_dims(x, -1)),
    ("squeeze", (2, 1, 3, 1), "R.squeeze(x, axis=[-1])", lambda x: np.squeeze(x, -1)),
    ("flatten", (2, 2, 2), "R.flatten(x)", lambda x: x.reshape(-1)),
    ("flip", (2, 3), "R.flip(x, -1)", lambda x: np.flip(x, -1)),
    ("tile", (2, 2), "R.tile(x, [2, 1, 2])", lambda x: np.tile(x, (2, 1, 2))),
    ("repeat", (2, 3), "R.repeat(x, 2, axis=-1)", lambda x: np.repeat(x, 2, axis=-1)),
    ("broadcast_to", (3, 1), "R.broadcast_to(x, (2, 3, 4))",
     lambda x: np.broadcast_to(x, (2, 3, 4))),
    ("strided_slice", (5, 4), "R.strided_slice(x, axes=[0, 1], begin=[-1, 0], end=[-6, 4], "
     "strides=[-2, 3])", lambda x: x[-1:-6:-2, 0:4:3]),
    ("tril", (3, 4), "R.tril(x, -1)", lambda x: np.tril(x, -1)),
    ("triu", (3, 4), "R.triu(x, 2)", lambda x: np.triu(x, 2)),
]


def move_cases(rng):
    cs = []
    for op, shape, expr, fn in MOVES:
        for dtype in MOVE_DTYPES:
            x = data(rng, shape, dtype)
            want = np.array(fn(x))
            cs.append(value(op, dtype, "%s on a %s tensor: the values move unchanged." %
                            (expr.replace("x", "x", 1), dtype), [("x", ann(shape, dtype))], expr,
                            [x], want, "axes_move", ["dtype-corner"]))
    return cs


# ---- shape corners of the movements ----------------------------------------------------


def move_corner_cases(rng):
    F = "float32"
    cs = []

    def v(op, cid, desc, shape, expr, fn, dtype=F, extra=None):
        x = data(rng, shape, dtype)
        args = [x] + ([extra] if extra is not None else [])
        params = [("x", ann(shape, dtype))]
        if extra is not None:
            params.append(("i", ann(extra.shape, str(extra.dtype))))
        cs.append(value(op, cid, desc, params, expr, args,
                        np.array(fn(*args)), "axes_corners", ["shape-corner"]))

    def s(op, cid, desc, shape, expr, expect, dtype=F, tags=("shape-corner",)):
        cs.append(static(op, cid, desc, [("x", ann(shape, dtype))], expr, expect,
                         "axes_corners", list(tags)))

    v("reshape", "to-rank0", "Reshaping a one-element tensor to () gives rank 0.", (1, 1),
      "R.reshape(x, ())", lambda x: x.reshape(()))
    v("reshape", "from-rank0", "Reshaping a rank-0 tensor to (1, 1, 1).", (),
      "R.reshape(x, (1, 1, 1))", lambda x: x.reshape(1, 1, 1))
    v("reshape", "zero-copies", "A 0 in the new shape copies the input's dim at that "
      "index (TVM's reshape): (2, 3, 4) to (0, 12) is (2, 12).", (2, 3, 4),
      "R.reshape(x, (0, 12))", lambda x: x.reshape(2, 12))
    s("reshape", "zero-copies-count", "A 0 in the new shape copies the input dim, so (0, 4) "
      "to (2, 0, 2) asks for 2 * 4 * 2 elements of 0: a shape error.", (0, 4),
      "R.reshape(x, (2, 0, 2))", "OpShapeMismatch")
    v("reshape", "empty", "Reshaping an empty (0, 4) tensor to (-1, 2): the -1 is "
      "0 / 2 = 0.", (0, 4), "R.reshape(x, (-1, 2))", lambda x: x.reshape(0, 2))
    v("reshape", "minus-one-first", "-1 as the first dim is inferred from the rest.", (2, 6),
      "R.reshape(x, (-1, 3, 2))", lambda x: x.reshape(-1, 3, 2))
    s("reshape", "count-mismatch", "Reshaping 6 elements to (4, 2) is a shape error.", (2, 3),
      "R.reshape(x, (4, 2))", "OpShapeMismatch")
    s("reshape", "sym-minus-one", "(n, 4) reshaped to (-1, 2) derives (n * 2, 2).", ("n", 4),
      "R.reshape(x, (-1, 2))", 'R.Tensor((n * 2, 2), dtype="float32")', tags=("symbolic",))
    v("permute_dims", "rank0", "permute_dims of a rank-0 tensor with no axes.", (),
      "R.permute_dims(x, [])", lambda x: x)
    v("permute_dims", "empty", "permute_dims of a (0, 3) tensor gives (3, 0).", (0, 3),
      "R.permute_dims(x)", lambda x: x.T)
    v("permute_dims", "reverse-default", "Without axes, permute_dims reverses the axes.",
      (2, 3, 4), "R.permute_dims(x)", lambda x: np.transpose(x))
    s("permute_dims", "axis-out-of-range", "Axis 3 of a rank-3 tensor is out of range.",
      (2, 3, 4), "R.permute_dims(x, [0, 1, 3])", "OpAttr")
    s("permute_dims", "too-few-axes", "Two axes for a rank-3 tensor is an error.", (2, 3, 4),
      "R.permute_dims(x, [1, 0])", "OpAttr")
    s("permute_dims", "sym-negative", "Negative axes move symbolic dims: (n, m, 4) to "
      "(4, n, m).", ("n", "m", 4), "R.permute_dims(x, [-1, -3, -2])",
      'R.Tensor((4, n, m), dtype="float32")', tags=("symbolic",))
    v("expand_dims", "rank0", "expand_dims of a rank-0 tensor at axis -1 gives (1,).", (),
      "R.expand_dims(x, -1)", lambda x: np.expand_dims(x, -1))
    v("expand_dims", "neg-pair", "expand_dims at [-1, 0] of (2, 3) gives (1, 2, 3, 1): negative "
      "axes count in the result's rank.", (2, 3), "R.expand_dims(x, [-1, 0])",
      lambda x: x.reshape(1, 2, 3, 1))
    s("expand_dims", "axis-out-of-range", "expand_dims of (2, 3) at axis 3 is out of range "
      "(the result has rank 3).", (2, 3), "R.expand_dims(x, 3)", "OpAttr")
    s("expand_dims", "axis-repeated", "expand_dims at [1, -2] of (2, 3) names axis 1 twice.",
      (2, 3), "R.expand_dims(x, [1, -3])", "OpAttr")
    v("squeeze", "all-ones", "squeeze without axes removes every dim of 1, to rank 0.",
      (1, 1, 1), "R.squeeze(x)", lambda x: np.squeeze(x))
    v("squeeze", "empty", "squeeze keeps a 0 dim and removes the 1.", (0, 1),
      "R.squeeze(x, axis=[1])", lambda x: np.squeeze(x, 1))
    s("squeeze", "not-one", "squeeze of an axis of length 3 is a shape error.", (2, 3),
      "R.squeeze(x, axis=[-1])", "OpShapeMismatch")
    s("squeeze", "sym-unknown", "squeeze without axes of (n, 1): n may be 1, so only the dtype "
      "is known.", ("n", 1), "R.squeeze(x)", 'R.Tensor(dtype="float32")', tags=("symbolic",))
    v("flatten", "rank0", "flatten of a rank-0 tensor gives (1,).", (), "R.flatten(x)",
      lambda x: x.reshape(1))
    v("flatten", "empty", "flatten of (2, 0, 3) gives (0,).", (2, 0, 3), "R.flatten(x)",
      lambda x: x.reshape(-1))
    s("flatten", "sym", "flatten of (n, 3) derives (n * 3,).", ("n", 3), "R.flatten(x)",
      'R.Tensor((n * 3,), dtype="float32")', tags=("symbolic",))
    v("flip", "empty", "flip of an empty (2, 0) tensor.", (2, 0), "R.flip(x, 0)",
      lambda x: np.flip(x, 0))
    s("flip", "axis-out-of-range", "flip of a rank-2 tensor at axis -3 is out of range.",
      (2, 3), "R.flip(x, -3)", "OpAttr")
    v("tile", "zero-repeat", "tile with a 0 repeat gives an empty dim.", (2, 3),
      "R.tile(x, [0, 2])", lambda x: np.tile(x, (0, 2)))
    v("tile", "rank0", "tile of a rank-0 tensor by [3] gives (3,).", (), "R.tile(x, [3])",
      lambda x: np.tile(x, 3))
    v("tile", "short-repeats", "tile with fewer repeats than dims repeats the last axes.",
      (2, 2, 2), "R.tile(x, [3])", lambda x: np.tile(x, 3))
    v("repeat", "flat", "repeat without an axis flattens first.", (2, 2), "R.repeat(x, 2)",
      lambda x: np.repeat(x, 2))
    v("repeat", "empty", "repeat of an empty (0, 2) tensor along axis 0.", (0, 2),
      "R.repeat(x, 3, axis=0)", lambda x: np.repeat(x, 3, axis=0))
    s("repeat", "axis-out-of-range", "repeat along axis 2 of a rank-2 tensor is out of range.",
      (2, 3), "R.repeat(x, 2, axis=2)", "OpAttr")
    v("broadcast_to", "rank0", "broadcast_to of a rank-0 tensor to (2, 3).", (),
      "R.broadcast_to(x, (2, 3))", lambda x: np.broadcast_to(x, (2, 3)))
    v("broadcast_to", "to-empty", "broadcast_to of (1, 3) to (0, 3).", (1, 3),
      "R.broadcast_to(x, (0, 3))", lambda x: np.broadcast_to(x, (0, 3)))
    s("broadcast_to", "incompatible", "broadcast_to of (2, 3) to (4, 3) is a shape error.",
      (2, 3), "R.broadcast_to(x, (4, 3))", "OpShapeMismatch")
    s("broadcast_to", "fewer-dims", "broadcast_to a shape of lower rank is a shape error.",
      (2, 3), "R.broadcast_to(x, (3,))", "OpShapeMismatch")
    v("strided_slice", "empty-range", "strided_slice with begin = end gives an empty axis.",
      (4, 3), "R.strided_slice(x, axes=[0], begin=[2], end=[2])", lambda x: x[2:2])
    v("strided_slice", "clamped", "begin and end past the axis are clamped to it.", (4, 3),
      "R.strided_slice(x, axes=[1], begin=[-10], end=[10])", lambda x: x[:, -10:10])
    v("strided_slice", "reverse-all", "strides -1 from the last element to before the first "
      "reverses the axis.", (5,), "R.strided_slice(x, axes=[0], begin=[4], end=[-6], "
      "strides=[-1])", lambda x: x[4:-6:-1])
    v("strided_slice", "neg-axes", "strided_slice over axes [-1, -2] of a (3, 4) tensor. TVM "
      "v0.22's inference accepts negative axes but its lowering indexes with them unnormalized "
      "and fails to build.", (3, 4),
      "R.strided_slice(x, axes=[-1, -2], begin=[1, 0], end=[3, 2])", lambda x: x[0:2, 1:3])
    cs[-1]["tags"] = ["shape-corner", "tvm-diverges"]
    s("strided_slice", "prefix-static", "strided_slice from 0 to 2 of an axis of 4 derives "
      "length 2: a slice from the start is not the whole axis.", (4, 3),
      "R.strided_slice(x, axes=[0], begin=[0], end=[2])", 'R.Tensor((2, 3), dtype="float32")')
    xs5 = np.arange(5, dtype=F)
    cs.append(value("strided_slice", "negative-end", "strided_slice from 1 to -1 of (5,) stops "
                    "one element before the end, as Python's x[1:-1].",
                    [("x", ann((5,), F))], "R.strided_slice(x, axes=[0], begin=[1], end=[-1])",
                    [xs5], xs5[1:-1], "axes_corners", ["shape-corner"]))
    s("strided_slice", "whole-static", "strided_slice from 0 to a huge end at stride 1 keeps "
      "the whole axis.", (4, 3),
      "R.strided_slice(x, axes=[1], begin=[0], end=[2147483647])",
      'R.Tensor((4, 3), dtype="float32")')
    v("tril", "batched", "tril applies to the last two axes of a (2, 3, 3) tensor.", (2, 3, 3),
      "R.tril(x, 0)", lambda x: np.tril(x, 0))
    v("triu", "k-past-end", "triu with k past the last column zeroes everything.", (3, 3),
      "R.triu(x, 3)", lambda x: np.triu(x, 3))
    v("tril", "k-before-start", "tril with k = -3 on (3, 3) zeroes everything.", (3, 3),
      "R.tril(x, -3)", lambda x: np.tril(x, -3))
    idx = np.array([[0, 2], [1, 1]], dtype="int64")
    v("take", "neg-axis", "take along axis -1 with (2, 2) indices gives (3, 2, 2).", (3, 4),
      "R.take(x, i, axis=-1)", lambda x, i: np.take(x, i, axis=-1), extra=idx)
    v("take", "rank0-index", "take with a rank-0 index drops the axis.", (3, 4),
      "R.take(x, i, axis=0)", lambda x, i: np.take(x, i, axis=0),
      extra=np.array(2, dtype="int32"))
    v("take", "empty-indices", "take with an empty index tensor gives an empty axis.", (3, 4),
      "R.take(x, i, axis=1)", lambda x, i: np.take(x, i, axis=1),
      extra=np.zeros((0,), dtype="int64"))
    cs.append(static("take", "rank0-index-static", "take of (3, 4) along axis 0 with a rank-0 "
                     "index derives (4,): the axis is dropped, nothing added.",
                     [("x", ann((3, 4), F)), ("i", ann((), "int32"))], "R.take(x, i, axis=0)",
                     sinfo((4,), F), "axes_corners", ["shape-corner"]))
    for axis, shape in ((1, (3, 2, 5)), (2, (3, 4, 2))):
        cs.append(static("take", "axis%d-static" % axis, "take along axis %d of (3, 4, 5) with "
                         "(2,) indices: the dims before the axis, the indices' dims, the dims "
                         "after it." % axis,
                         [("x", ann((3, 4, 5), F)), ("i", ann((2,), "int64"))],
                         "R.take(x, i, axis=%d)" % axis, sinfo(shape, F), "axes_corners",
                         ["shape-corner"]))
    return cs


# ---- joins -------------------------------------------------------------------------------


def join_corner_cases(rng):
    F = "float32"
    cs = []

    def v(op, cid, desc, shapes, expr, fn, dtype=F):
        xs = [data(rng, sh, dtype) for sh in shapes]
        names = ["a", "b", "c"][:len(shapes)]
        cs.append(value(op, cid, desc, [(n, ann(sh, dtype)) for n, sh in zip(names, shapes)],
                        expr, xs, np.array(fn(*xs)), "axes_corners",
                        ["shape-corner"]))

    def s(op, cid, desc, params, expr, expect, tags=("shape-corner",)):
        cs.append(static(op, cid, desc, params, expr, expect, "axes_corners", list(tags)))

    for dtype in MOVE_DTYPES:
        v("concat", dtype, "concat of %s tensors along axis -1." % dtype, [(2, 1), (2, 3)],
          "R.concat((a, b), axis=-1)", lambda a, b: np.concatenate([a, b], -1), dtype)
        v("stack", dtype, "stack of %s tensors at a new last axis." % dtype, [(2,), (2,)],
          "R.stack((a, b), axis=-1)", lambda a, b: np.stack([a, b], -1), dtype)
    v("concat", "empty-piece", "concat with an empty (2, 0) piece.", [(2, 0), (2, 3)],
      "R.concat((a, b), axis=1)", lambda a, b: np.concatenate([a, b], 1))
    v("concat", "single", "concat of a one-tensor tuple is the tensor.", [(2, 3)],
      "R.concat((a,), axis=0)", lambda a: a)
    v("concat", "three", "concat of three tensors along axis 0.", [(1, 2), (2, 2), (1, 2)],
      "R.concat((a, b, c), axis=0)", lambda a, b, c: np.concatenate([a, b, c], 0))
    s("concat", "dtype-mismatch", "concat of float32 and int32 tensors is a dtype error.",
      [("a", ann((2,), F)), ("b", ann((2,), "int32"))], "R.concat((a, b), axis=0)",
      "OpDTypeMismatch")
    s("concat", "rank-mismatch", "concat of a rank-1 and a rank-2 tensor is a shape error.",
      [("a", ann((2,), F)), ("b", ann((2, 2), F))], "R.concat((a, b), axis=0)",
      "OpShapeMismatch")
    s("concat", "other-axis-mismatch", "concat along axis 0 of (2, 3) and (2, 4): axis 1 "
      "differs.", [("a", ann((2, 3), F)), ("b", ann((2, 4), F))], "R.concat((a, b), axis=0)",
      "OpShapeMismatch")
    s("concat", "axis-out-of-range", "concat along axis -3 of rank-2 tensors is out of range.",
      [("a", ann((2, 3), F)), ("b", ann((2, 3), F))], "R.concat((a, b), axis=-3)", "OpAttr")
    s("concat", "sym-sum", "concat of (n, 2) and (m, 2) along axis 0 derives (n + m, 2).",
      [("a", ann(("n", 2), F)), ("b", ann(("m", 2), F))], "R.concat((a, b), axis=0)",
      'R.Tensor((n + m, 2), dtype="float32")', tags=("symbolic",))
    v("stack", "rank0", "stack of two rank-0 tensors gives (2,).", [(), ()],
      "R.stack((a, b), axis=0)", lambda a, b: np.stack([a, b]))
    v("stack", "empty", "stack of two (0,) tensors at axis 1 gives (0, 2).", [(0,), (0,)],
      "R.stack((a, b), axis=1)", lambda a, b: np.stack([a, b], 1))
    s("stack", "shape-mismatch", "stack of (2,) and (3,) is a shape error.",
      [("a", ann((2,), F)), ("b", ann((3,), F))], "R.stack((a, b), axis=0)",
      "OpShapeMismatch")
    s("stack", "axis-out-of-range", "stack of rank-1 tensors at axis 2 is out of range (the "
      "result has rank 2).", [("a", ann((2,), F)), ("b", ann((2,), F))],
      "R.stack((a, b), axis=2)", "OpAttr")
    s("stack", "axis-none", "stack with axis=None stacks at a new axis 0 (TVM's StackAttrs: "
      "an undefined axis is 0): (3, 4) and (3, 4) give (2, 3, 4).",
      [("a", ann((3, 4), F)), ("b", ann((3, 4), F))], "R.stack((a, b), axis=None)",
      'R.Tensor((2, 3, 4), dtype="float32")')
    a0 = np.arange(12, dtype=F).reshape(3, 4)
    cs.append(value("stack", "axis-none-value", "stack with axis=None of two (3, 4) tensors "
                    "puts them at a new first axis.", [("a", ann((3, 4), F)), ("b", ann((3, 4), F))],
                    "R.stack((a, b), axis=None)", [a0, -a0], np.stack([a0, -a0]),
                    "axes_corners", ["shape-corner"]))
    x = data(rng, (2, 5), F)
    for cid, expr, pieces, desc in [
            ("sections-neg-axis", "R.split(x, 5, axis=-1)", np.split(x, 5, -1),
             "split into 5 sections along axis -1."),
            ("indices-neg-axis", "R.split(x, [1, 3], axis=-1)", np.split(x, [1, 3], -1),
             "split at [1, 3] along axis -1 gives pieces of 1, 2 and 2.")]:
        cs.append(value("split", cid, desc, [("x", ann((2, 5), F))], expr, [x],
                        mh.tuple_value([np.array(p) for p in pieces]),
                        "axes_corners", ["shape-corner"]))
    s("split", "uneven-sections", "split of 5 elements into 2 sections: pieces of "
      "ceil(5 / 2) = 3, the last one the rest.", [("x", ann((2, 5), F))],
      "R.split(x, 2, axis=1)", 'R.Tuple(R.Tensor((2, 3), dtype="float32"), '
      'R.Tensor((2, 2), dtype="float32"))')
    s("split", "axis-out-of-range", "split along axis 2 of a rank-2 tensor is out of range.",
      [("x", ann((2, 4), F))], "R.split(x, 2, axis=2)", "OpAttr")
    return cs


# ---- statistics --------------------------------------------------------------------------

REDUCE_INT_DTYPES = ("int8", "int16", "int64", "uint8")


def small(rng, shape, dtype, op):
    if dtype.startswith("float"):
        return mh.floats(rng, shape, dtype)
    lo, hi = (0, 4) if op == "prod" else (0, 30)
    if dtype.startswith("int"):
        lo, hi = (-3, 4) if op == "prod" else (-30, 30)
    return rng.integers(lo, hi, size=shape).astype(dtype)


def reduce_expect(x, op, axes, keepdims):
    dtype = str(x.dtype)
    if op in ("max", "min"):
        return getattr(np, op)(x, axis=axes, keepdims=keepdims)
    if op in ("sum", "prod", "mean", "variance"):
        moved = x
        nd = x.ndim
        ax = tuple(sorted(a % nd for a in (axes if axes is not None else range(nd))))
        rest = [a for a in range(nd) if a not in ax]
        moved = np.transpose(x, rest + list(ax)).reshape([x.shape[a] for a in rest] + [-1])
        out = om.tvm_reduce(moved, -1, op, dtype) if op != "variance" else None
        if op == "variance":
            out = om.tvm_reduce(moved, moved.ndim - 1, "variance", dtype)
        out = np.asarray(out, dtype)
        if keepdims:
            out = out.reshape([1 if a in ax else x.shape[a] for a in range(nd)])
        return out
    raise ValueError(op)


def stat_cases(rng):
    cs = []
    for op in ("sum", "prod", "max", "min"):
        for dtype in REDUCE_INT_DTYPES + ("float16", "float64"):
            x = small(rng, (2, 3), dtype, op)
            want = reduce_expect(x, op, (-1,), False)
            c = value(op, dtype, "R.%s over axis -1 of a %s tensor, accumulated in %s." %
                      (op, dtype, dtype), [("x", ann((2, 3), dtype))],
                      "R.%s(x, axis=[-1])" % op, [x], want, "axes_stat", ["dtype-corner"])
            cs.append(c)
    for op in ("sum", "prod", "max", "min", "mean", "variance"):
        x = small(rng, (2, 3, 2), "float32", op)
        cs.append(value(op, "neg-keepdims", "R.%s over axes [-1, 0] keeping dims gives "
                        "(1, 3, 1)." % op, [("x", ann((2, 3, 2), "float32"))],
                        "R.%s(x, axis=[-1, 0], keepdims=True)" % op, [x],
                        reduce_expect(x, op, (-1, 0), True), "axes_stat", ["shape-corner"]))
        cs.append(static(op, "rank0", "R.%s of a rank-0 tensor derives rank 0 (TVM v0.22's "
                         "lowering cannot reduce a rank-0 tensor, so no value is pinned)." % op,
                         [("x", ann((), "float32"))], "R.%s(x)" % op,
                         'R.Tensor((), dtype="float32")', "axes_stat", ["shape-corner"]))
        cs.append(static(op, "axis-out-of-range", "R.%s over axis 2 of a rank-2 tensor is out "
                         "of range." % op, [("x", ann((2, 3), "float32"))],
                         "R.%s(x, axis=[2])" % op, "OpAttr", "axes_stat", ["shape-corner"]))
        cs.append(static(op, "axis-below-range", "R.%s over axis -3 of a rank-2 tensor is out "
                         "of range." % op, [("x", ann((2, 3), "float32"))],
                         "R.%s(x, axis=[-3])" % op, "OpAttr", "axes_stat", ["shape-corner"]))
        cs.append(static(op, "sym-keepdims", "R.%s over axis -1 of (n, m) keeping dims derives "
                         "(n, 1)." % op, [("x", ann(("n", "m"), "float32"))],
                         "R.%s(x, axis=[-1], keepdims=True)" % op,
                         'R.Tensor((n, 1), dtype="float32")', "axes_stat", ["symbolic"]))
        cs.append(static(op, "unknown-rank", "R.%s over every axis of a tensor of unknown rank "
                         "derives rank 0." % op, [("x", 'R.Tensor(dtype="float32")')],
                         "R.%s(x)" % op, 'R.Tensor((), dtype="float32")', "axes_stat",
                         ["shape-corner"]))
    for op in ("sum", "max"):
        cs.append(static(op, "rank0-keepdims", "R.%s of a rank-0 tensor keeping dims derives "
                         "rank 0: there is no axis to keep." % op, [("x", ann((), "float32"))],
                         "R.%s(x, keepdims=True)" % op, 'R.Tensor((), dtype="float32")',
                         "axes_stat", ["shape-corner"]))
    for op in ("sum", "max", "argmax"):
        dt = "int64" if op == "argmax" else "float32"
        one_axis = "axis=0" if op == "argmax" else "axis=[0]"
        cs.append(static(op, "ndim-known-all-keep", "R.%s over every axis of a rank-2 tensor "
                         "of unknown dims keeping dims derives (1, 1)." % op,
                         [("x", 'R.Tensor(dtype="float32", ndim=2)')],
                         "R.%s(x, keepdims=True)" % op, 'R.Tensor((1, 1), dtype="%s")' % dt,
                         "axes_stat", ["shape-corner"]))
        cs.append(static(op, "ndim-known-one-axis", "R.%s over one axis of a rank-2 tensor of "
                         "unknown dims derives rank 1, dims unknown." % op,
                         [("x", 'R.Tensor(dtype="float32", ndim=2)')],
                         "R.%s(x, %s)" % (op, one_axis),
                         'R.Tensor(dtype="%s", ndim=1)' % dt, "axes_stat", ["shape-corner"]))
        cs.append(static(op, "unknown-rank-keep", "R.%s over every axis of a tensor of unknown "
                         "rank keeping dims: the rank stays unknown." % op,
                         [("x", 'R.Tensor(dtype="float32")')], "R.%s(x, keepdims=True)" % op,
                         'R.Tensor(dtype="%s")' % dt, "axes_stat", ["shape-corner"]))
    for op in ("sum", "prod"):
        x = np.zeros((0, 3), "int8")
        want = np.full((3,), 0 if op == "sum" else 1, "int8")
        cs.append(value(op, "empty-axis-int8", "R.%s over an empty axis of an int8 tensor is "
                        "the identity %d. TVM v0.22's lowering runs the reduction's init "
                        "inside the empty loop, so its output is left unwritten." %
                        (op, 0 if op == "sum" else 1),
                        [("x", ann((0, 3), "int8"))], "R.%s(x, axis=[0])" % op, [x], want,
                        "axes_stat", ["shape-corner", "tvm-diverges"]))
    x = np.array([[-128, 127, 0], [5, -5, 127]], "int8")
    for op in ("max", "min"):
        cs.append(value(op, "int8-extremes", "R.%s over int8 values at both ends of the range." %
                        op, [("x", ann((2, 3), "int8"))], "R.%s(x, axis=[1])" % op, [x],
                        getattr(np, op)(x, axis=1), "axes_stat", ["dtype-corner"]))
    for op in ("argmax", "argmin"):
        for dtype in ("int8", "uint8", "int64", "float16", "float64"):
            x = small(rng, (3, 4), dtype, op)
            x[0, 1] = x[0, 3] = getattr(np, op[3:])(x[0])  # a tie: the first index wins
            want = getattr(np, op)(x, axis=-1).astype("int64")
            cs.append(value(op, dtype, "R.%s along axis -1 of a %s tensor; a tie in row 0 gives "
                            "the first index." % (op, dtype), [("x", ann((3, 4), dtype))],
                            "R.%s(x, axis=-1)" % op, [x], want, "axes_stat", ["dtype-corner"]))
        x = small(rng, (2, 3), "float32", op)
        cs.append(value(op, "keepdims-neg", "R.%s along axis -2 keeping dims gives (1, 3)." % op,
                        [("x", ann((2, 3), "float32"))], "R.%s(x, axis=-2, keepdims=True)" % op,
                        [x], getattr(np, op)(x, axis=0).reshape(1, 3).astype("int64"),
                        "axes_stat", ["shape-corner"]))
        cs.append(static(op, "axis-out-of-range", "R.%s along axis 2 of a rank-2 tensor is out "
                         "of range." % op, [("x", ann((2, 3), "float32"))],
                         "R.%s(x, axis=2)" % op, "OpAttr", "axes_stat", ["shape-corner"]))
        cs.append(static(op, "sym", "R.%s along axis 0 of (n, m) derives (m,) int64." % op,
                         [("x", ann(("n", "m"), "float32"))], "R.%s(x, axis=0)" % op,
                         'R.Tensor((m,), dtype="int64")', "axes_stat", ["symbolic"]))
    for op, fn in (("cumsum", np.cumsum), ("cumprod", np.cumprod)):
        for dtype in ("int8", "int64", "uint8", "float16", "float64"):
            x = small(rng, (2, 3), dtype, "prod" if op == "cumprod" else "sum")
            acc = x.copy()
            for k in range(1, 3):
                acc[:, k] = (acc[:, k - 1] + x[:, k]) if op == "cumsum" else \
                    (acc[:, k - 1] * x[:, k])
            cs.append(value(op, dtype, "R.%s along axis -1 of a %s tensor, accumulated in "
                            "%s." % (op, dtype, dtype), [("x", ann((2, 3), dtype))],
                            "R.%s(x, axis=-1)" % op, [x], acc.astype(dtype), "axes_stat",
                            ["dtype-corner"]))
        x = small(rng, (2, 2), "int32", "prod")
        cs.append(value(op, "flat", "R.%s without an axis runs over the flattened tensor." % op,
                        [("x", ann((2, 2), "int32"))], "R.%s(x)" % op, [x],
                        fn(x.reshape(-1)).astype("int32"), "axes_stat", ["shape-corner"]))
        cs.append(value(op, "empty", "R.%s of an empty (0, 3) tensor along axis 0." % op,
                        [("x", ann((0, 3), "float32"))], "R.%s(x, axis=0)" % op,
                        [np.zeros((0, 3), "float32")], np.zeros((0, 3), "float32"), "axes_stat",
                        ["shape-corner"]))
    return cs


# ---- creation ------------------------------------------------------------------------------

CREATE_DTYPES = ("bool", "int8", "uint8", "int64", "float16", "float64")


def create_cases():
    cs = []
    for dtype in CREATE_DTYPES:
        for op, fill in (("zeros", 0), ("ones", 1)):
            cs.append(value(op, dtype, "R.%s of shape (2, 2) and dtype %s." % (op, dtype), [],
                            'R.%s(R.shape([2, 2]), "%s")' % (op, dtype), [],
                            np.full((2, 2), fill, mh.np_dtype(dtype)), "axes_create",
                            ["dtype-corner"]))
        cs.append(value("eye", dtype, "R.eye(2, 3, k=1) of dtype %s." % dtype, [],
                        'R.eye(2, 3, 1, "%s")' % dtype, [],
                        np.eye(2, 3, 1, dtype=mh.np_dtype(dtype)), "axes_create",
                        ["dtype-corner"]))
    for op, fill in (("zeros", 0), ("ones", 1)):
        cs.append(value(op, "empty", "R.%s of shape (0, 3) is an empty tensor." % op, [],
                        'R.%s(R.shape([0, 3]), "int32")' % op, [],
                        np.full((0, 3), fill, "int32"), "axes_create", ["shape-corner"]))
        cs.append(value(op, "rank0", "R.%s of shape () is a rank-0 tensor." % op, [],
                        'R.%s(R.shape([]), "float32")' % op, [],
                        np.asarray(fill, "float32"), "axes_create", ["shape-corner"]))
    for cid, expr, want, desc in [
            ("empty-range", 'R.arange(5, 5, 1, dtype="int64")', np.arange(5, 5, 1),
             "R.arange with start = end is empty."),
            ("wrong-direction", 'R.arange(0, 5, -1, dtype="int64")', np.arange(0, 5, -1),
             "R.arange stepping away from end is empty."),
            ("int8", 'R.arange(-4, 4, 3, dtype="int8")', np.arange(-4, 4, 3, dtype="int8"),
             "R.arange of int8 values."),
            ("float16", 'R.arange(0, 2, 0.5, dtype="float16")',
             np.arange(0, 2, 0.5).astype("float16"), "R.arange of float16 values."),
            ("float64-neg", 'R.arange(1, -1, -0.5, dtype="float64")',
             np.arange(1, -1, -0.5), "R.arange of float64 values with a negative step.")]:
        cs.append(value("arange", cid, desc, [], expr, [], np.asarray(want), "axes_create",
                        ["shape-corner"]))
    cs.append(static("arange", "float-constant-length", "R.arange(0.0, 1.0, 0.25) has the "
                     "constant length ceil(1.0 / 0.25) = 4.", [], "R.arange(0.0, 1.0, 0.25)",
                     'R.Tensor((4,), dtype="float32")', "axes_create", ["shape-corner"]))
    cs.append(static("eye", "float-n", "R.eye with a float32 PrimValue as n is rejected: n, m "
                     "and k must be integers.", [], "R.eye(R.prim_value(T.float32(2.0)), 3, 0)",
                     "OpArgType", "axes_create", ["dtype-corner"]))
    cs.append(static("arange", "float-start-symbolic-end", "R.arange(0.5, n, 1): with a float "
                     "bound and a symbolic one the reference keeps only the rank (TVM v0.22 "
                     "derives the length ceil(float32(n) - 0.5)).",
                     [("x", ann(("n",), "float32"))], "R.arange(0.5, n, 1)",
                     'R.Tensor(dtype="float32", ndim=1)', "axes_create",
                     ["shape-corner", "tvm-diverges"]))
    return cs


# ---- indexing, sorting and *_like over every dtype ----------------------------------------


def distinct(rng, shape, dtype):
    """Values without ties (sorting orders them one way only)."""
    n = int(np.prod(shape))
    if dtype == "bool":
        return np.array([False, True] * (n // 2) + [False] * (n % 2)).reshape(shape)
    base = rng.permutation(n) - (0 if dtype.startswith("uint") else n // 2)
    if dtype.startswith("float"):
        return (base / 4.0).astype(dtype).reshape(shape)
    return base.astype(dtype).reshape(shape)


def sweep_cases(rng):
    cs = []
    for k, dtype in enumerate(MOVE_DTYPES):
        x = data(rng, (3, 4), dtype)
        ity = "int32" if k % 2 else "int64"
        idx = np.array([[2, 0], [1, 3]], dtype=ity)
        cs.append(value("take", dtype, "take of a %s tensor along axis 1 with %s indices." %
                        (dtype, ity), [("x", ann((3, 4), dtype)), ("i", ann((2, 2), ity))],
                        "R.take(x, i, axis=1)", [x, idx], np.take(x, idx, axis=1), "axes_sweep",
                        ["dtype-corner"]))
        gi = np.array([[0, 2, 1, 0], [2, 2, 0, 1]], dtype=ity)
        cs.append(value("gather_elements", dtype, "gather_elements of a %s tensor along axis 0 "
                        "with %s indices." % (dtype, ity),
                        [("x", ann((3, 4), dtype)), ("i", ann((2, 4), ity))],
                        "R.gather_elements(x, i, axis=0)", [x, gi],
                        np.take_along_axis(x, gi.astype(np.int64), axis=0), "axes_sweep",
                        ["dtype-corner"]))
        ni = np.array([[2, 1], [0, 3]], dtype="int64")
        cs.append(value("gather_nd", dtype, "gather_nd of a %s tensor with int64 index pairs." %
                        dtype, [("x", ann((3, 4), dtype)), ("i", ann((2, 2), "int64"))],
                        "R.gather_nd(x, i)", [x, ni], x[ni[:, 0], ni[:, 1]], "axes_sweep",
                        ["dtype-corner"]))
        cs.append(value("split", dtype, "split of a %s tensor into 2 along axis 1." % dtype,
                        [("x", ann((3, 4), dtype))], "R.split(x, 2, axis=1)", [x],
                        mh.tuple_value([np.array(p) for p in np.split(x, 2, 1)]), "axes_sweep",
                        ["dtype-corner"]))
        for op, fill in (("zeros_like", 0), ("ones_like", 1)):
            cs.append(value(op, dtype, "R.%s of a %s tensor has its shape and dtype." %
                            (op, dtype), [("x", ann((2, 3), dtype))], "R.%s(x)" % op,
                            [data(rng, (2, 3), dtype)],
                            np.full((2, 3), fill, mh.np_dtype(dtype)), "axes_sweep",
                            ["dtype-corner"]))
        if dtype != "bool":
            d = distinct(rng, (2, 4), dtype)
        # TVM v0.22's CPU sort library has no int8/uint8 kernel ("Unsupported input dtype").
        if dtype not in ("bool", "int8", "uint8"):
            cs.append(value("sort", dtype, "sort of distinct %s values along the last axis." %
                            dtype, [("x", ann((2, 4), dtype))], "R.sort(x)", [d],
                            np.sort(d, axis=-1), "axes_sweep", ["dtype-corner"]))
            cs.append(value("argsort", dtype, "argsort of distinct %s values, descending, "
                            "int64 indices." % dtype, [("x", ann((2, 4), dtype))],
                            'R.argsort(x, descending=True, dtype="int64")', [d],
                            np.argsort(-d.astype(np.float64), axis=-1).astype("int64"),
                            "axes_sweep", ["dtype-corner"]))
        if dtype != "bool":
            order = np.argsort(-d.astype(np.float64), axis=-1)[:, :2]
            cs.append(value("topk", dtype, "topk of distinct %s values: the two largest and "
                            "their int32 indices." % dtype, [("x", ann((2, 4), dtype))],
                            "R.topk(x, k=2)", [d],
                            mh.tuple_value([np.take_along_axis(d, order, -1),
                                            order.astype("int32")]), "axes_sweep",
                            ["dtype-corner"]))
    cs.append(static("gather_nd", "int32-indices", "gather_nd requires int64 indices (TVM's "
                     "InferStructInfoGatherND): int32 indices are a dtype error.",
                     [("x", ann((3, 4), "float32")), ("i", ann((2, 2), "int32"))],
                     "R.gather_nd(x, i)", "OpDTypeMismatch", "axes_sweep", ["dtype-corner"]))
    return cs


# ---- inference on tensors of unknown rank or dims ----------------------------------------

# (op, cid, input StructInfo, expression, derived StructInfo, what TVM's inference does), read
# from InferStructInfoFlatten / ExpandDims / PermuteDims / Tile / Repeat / Flip in
# src/relax/op/tensor/manipulate.cc of TVM v0.22.
UNKNOWN = [
    ("flatten", "unknown-rank", 'R.Tensor(dtype="float32")', "R.flatten(x)",
     'R.Tensor(dtype="float32", ndim=1)', "an unknown rank flattens to rank 1"),
    ("flatten", "unknown-dims", 'R.Tensor(dtype="float32", ndim=3)', "R.flatten(x)",
     'R.Tensor(dtype="float32", ndim=1)', "unknown dims flatten to rank 1, length unknown"),
    ("flatten", "rank1-itself", 'R.Tensor(("n",), "float32")', "R.flatten(x)",
     'R.Tensor((n,), dtype="float32")', "a rank-1 tensor is its own flattening"),
    ("flatten", "rank0-sinfo", 'R.Tensor((), "float32")', "R.flatten(x)",
     'R.Tensor((1,), dtype="float32")', "a rank-0 tensor flattens to (1,)"),
    ("flatten", "product", 'R.Tensor(("n", 2, "m"), "float32")', "R.flatten(x)",
     'R.Tensor((n * 2 * m,), dtype="float32")', "known dims flatten to their product"),
    ("expand_dims", "unknown-rank", 'R.Tensor(dtype="float32")', "R.expand_dims(x, 0)",
     'R.Tensor(dtype="float32")', "an unknown rank stays unknown"),
    ("expand_dims", "unknown-dims", 'R.Tensor(dtype="float32", ndim=2)',
     "R.expand_dims(x, [0, -1])", 'R.Tensor(dtype="float32", ndim=4)',
     "unknown dims gain the new axes in the rank"),
    ("expand_dims", "sym", 'R.Tensor(("n", "m"), "float32")', "R.expand_dims(x, [1])",
     'R.Tensor((n, 1, m), dtype="float32")', "a 1 is inserted at axis 1"),
    ("permute_dims", "identity", 'R.Tensor(("n", "m"), "float32")',
     "R.permute_dims(x, [0, 1])", 'R.Tensor((n, m), dtype="float32")',
     "the identity permutation keeps the StructInfo"),
    ("permute_dims", "unknown-dims", 'R.Tensor(dtype="float32", ndim=3)',
     "R.permute_dims(x, [2, 0, 1])", 'R.Tensor(dtype="float32", ndim=3)',
     "unknown dims keep only the rank"),
    ("permute_dims", "unknown-rank-default", 'R.Tensor(dtype="float32")', "R.permute_dims(x)",
     'R.Tensor(dtype="float32")', "reversing an unknown rank gives an unknown rank"),
    ("tile", "unknown-rank", 'R.Tensor(dtype="float32")', "R.tile(x, [2, 2])",
     'R.Tensor(dtype="float32")', "an unknown rank stays unknown"),
    ("tile", "unknown-dims-longer-repeats", 'R.Tensor(dtype="float32", ndim=2)',
     "R.tile(x, [2, 1, 1])", 'R.Tensor(dtype="float32", ndim=3)',
     "more repeats than dims give the repeats' rank"),
    ("tile", "unknown-dims-all-ones", 'R.Tensor(dtype="float32", ndim=2)',
     "R.tile(x, [1, 1])", 'R.Tensor(dtype="float32", ndim=2)',
     "repeats that are all 1 keep the StructInfo"),
    ("tile", "sym-short-repeats", 'R.Tensor(("n", 3), "float32")', "R.tile(x, [2])",
     'R.Tensor((n, 6), dtype="float32")', "a short repeats list multiplies the last dims"),
    ("tile", "sym-long-repeats", 'R.Tensor(("n", 3), "float32")', "R.tile(x, [2, 1, 1])",
     'R.Tensor((2, n, 3), dtype="float32")', "a long repeats list prepends its first entries"),
    ("repeat", "unknown-dims-axis", 'R.Tensor(dtype="float32", ndim=2)',
     "R.repeat(x, 2, axis=0)", 'R.Tensor(dtype="float32", ndim=2)',
     "unknown dims repeated along an axis keep the rank"),
    ("repeat", "unknown-dims-once", 'R.Tensor(dtype="float32", ndim=2)',
     "R.repeat(x, 1, axis=1)", 'R.Tensor(dtype="float32", ndim=2)',
     "repeating once keeps the StructInfo"),
    ("repeat", "unknown-rank-flat", 'R.Tensor(dtype="float32")', "R.repeat(x, 3)",
     'R.Tensor(dtype="float32", ndim=1)', "without an axis the result is rank 1"),
    ("repeat", "sym-axis", 'R.Tensor(("n", 3), "float32")', "R.repeat(x, 2, axis=0)",
     'R.Tensor((n * 2, 3), dtype="float32")', "the repeated axis is multiplied"),
    ("repeat", "sym-flat", 'R.Tensor(("n", 3), "float32")', "R.repeat(x, 2)",
     'R.Tensor((n * 6,), dtype="float32")', "without an axis the product of the dims is"),
    ("flip", "unknown-rank", 'R.Tensor(dtype="int8")', "R.flip(x, 0)",
     'R.Tensor(dtype="int8")', "flip keeps the StructInfo"),
]


def unknown_cases():
    cs = []
    for op, cid, sinfo_in, expr, want, why in UNKNOWN:
        cs.append(static(op, cid, "%s of %s derives %s: %s." % (expr.split("(")[0], sinfo_in,
                                                                  want, why),
                         [("x", sinfo_in)], expr, want, "axes_unknown", ["shape-corner"]))
    return cs


# Cases another family already holds with the same program and expectation (ops_manip.py).
DUPLICATES = {
    "argmax-sym", "argmin-sym", "concat-other-axis-mismatch", "expand_dims-axis-out-of-range",
    "flatten-sym", "reshape-count-mismatch", "squeeze-sym-unknown", "expand_dims-sym",
    "repeat-sym-axis"
}


def fill_clip_scan_cases(rng):
    """full/full_like converting a rank-0 fill value to each dtype (TIR-CAST on in-range
    values), clip over every dtype, cumsum accumulating in a wider dtype, and mean/variance
    over float16/float64 as ops_manip.tvm_reduce computes them."""
    cs = []
    fills = {"bool": 1.0, "int8": -7.75, "uint8": 200.5, "int64": 123456.25, "float16": 0.1,
             "float64": -2.5}
    for dtype in MOVE_DTYPES:
        v = np.asarray(fills[dtype], "float32")
        if dtype == "bool":
            want_one = True
        elif dtype.startswith("float"):
            want_one = np.asarray(v, dtype)
        else:
            want_one = int(np.trunc(float(v)))
        want = np.full((2, 3), want_one, mh.np_dtype(dtype))
        cs.append(value("full", dtype, "R.full of the float32 fill %s as %s: converted as a "
                        "cast." % (float(v), dtype), [("v", ann((), "float32"))],
                        'R.full((2, 3), v, "%s")' % dtype, [v], want, "axes_fill",
                        ["dtype-corner"]))
        x = data(rng, (2, 2), dtype)
        w = np.asarray(fills[dtype], "float64") if dtype != "bool" else np.asarray(1.0)
        fv = np.asarray(w, mh.np_dtype(dtype)) if dtype.startswith("float") or dtype == "bool" \
            else np.asarray(int(np.trunc(float(w))), dtype)
        cs.append(value("full_like", dtype, "R.full_like of a %s tensor takes its shape and "
                        "dtype." % dtype, [("x", ann((2, 2), dtype)),
                                           ("v", ann((), dtype))],
                        "R.full_like(x, v)", [x, fv], np.full((2, 2), fv, mh.np_dtype(dtype)),
                        "axes_fill", ["dtype-corner"]))
    for dtype, lo, hi in (("int8", -5, 5), ("uint8", 10, 100), ("int64", -1000, 1000),
                          ("float16", -0.5, 0.5), ("float64", -1.25, 2.5)):
        x = data(rng, (2, 4), dtype)
        if dtype.startswith("float"):
            want = np.minimum(np.maximum(x.astype(np.float64), lo), hi).astype(dtype)
        else:
            want = np.minimum(np.maximum(x.astype(np.int64), lo), hi).astype(dtype)
        cs.append(value("clip", dtype, "R.clip of a %s tensor to [%s, %s]." % (dtype, lo, hi),
                        [("x", ann((2, 4), dtype))], "R.clip(x, %r, %r)" % (lo, hi), [x], want,
                        "axes_fill", ["dtype-corner"]))
    x = np.array([100, 100, 100], "int8")
    cs.append(value("cumsum", "int8-to-int32", "R.cumsum of int8 values with dtype int32 "
                    "accumulates in int32: 100, 200, 300 do not wrap.",
                    [("x", ann((3,), "int8"))], 'R.cumsum(x, dtype="int32")', [x],
                    np.array([100, 200, 300], "int32"), "axes_fill", ["dtype-corner"]))
    cs.append(value("cumprod", "int8-to-int64", "R.cumprod of int8 values with dtype int64 "
                    "accumulates in int64.", [("x", ann((3,), "int8"))],
                    'R.cumprod(x, dtype="int64")', [np.array([100, 100, -100], "int8")],
                    np.array([100, 10000, -1000000], "int64"), "axes_fill", ["dtype-corner"]))
    x = mh.floats(rng, (2, 3), "float64")
    want = np.concatenate([np.zeros((2, 1)), np.cumsum(x, axis=1)[:, :-1]], axis=1)
    cs.append(value("cumsum", "exclusive-float64", "R.cumsum exclusive along axis 1 of a float64 "
                    "tensor starts from 0.", [("x", ann((2, 3), "float64"))],
                    "R.cumsum(x, axis=1, exclusive=True)", [x], want, "axes_fill",
                    ["shape-corner"]))
    for op in ("mean", "variance"):
        for dtype in ("float16", "float64"):
            x = mh.floats(rng, (2, 4), dtype)
            cs.append(value(op, dtype, "R.%s over axis -1 of a %s tensor, computed in %s as "
                            "TVM's legalization does." % (op, dtype, dtype),
                            [("x", ann((2, 4), dtype))], "R.%s(x, axis=[-1])" % op, [x],
                            reduce_expect(x, op, (-1,), False), "axes_fill", ["dtype-corner"]))
    return cs


def cases():
    rng = np.random.default_rng(11260)
    out = (move_cases(rng) + move_corner_cases(rng) + join_corner_cases(rng) + stat_cases(rng) +
           create_cases() + sweep_cases(rng) + unknown_cases() + fill_clip_scan_cases(rng))
    return [c for c in out if c["id"] not in DUPLICATES]
