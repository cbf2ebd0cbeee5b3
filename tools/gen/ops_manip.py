"""Conformance cases for the creation, manipulation, linear algebra and statistical
operators. Expected values come from numpy; StructInfo expectations are derived by hand."""

import math

import numpy as np

import gen_ops as g

from manip_helpers import (error_case, floats, ints, sinfo_case, sinfo_text as S,
                           tensor, tensor_ann as T, tuple_value, value_case)

F32 = "float32"


def rng_for(name):
    return np.random.default_rng(sum(ord(c) for c in name) * 7919)


# ---- creation ---------------------------------------------------------------------------------

def creation_cases():
    cs = []
    for op, fill in (("zeros", 0), ("ones", 1)):
        cs.append(value_case(op, "static", "%s of a static shape." % op, [("x", T((2,), F32))],
                             'R.%s(R.shape([2, 3]), "float32")' % op,
                             [tensor([1, 2], F32)], tensor(np.full((2, 3), fill), F32)))
        cs.append(value_case(op, "int32", "%s with an integer dtype." % op, [("x", T((1,), F32))],
                             'R.%s((3,), "int32")' % op, [tensor([0], F32)],
                             tensor(np.full((3,), fill), "int32")))
        cs.append(sinfo_case(op, "symbolic", "The shape argument's symbolic dims pass through.",
                             [("s", 'R.Shape(["n", 4])')], 'R.%s(s, "float16")' % op,
                             S(["n", 4], "float16")))
        cs.append(error_case(op, "shape-not-shape", "The shape must be a Shape, not a Tensor.",
                             [("x", T((2,), "int64"))], 'R.%s(x, "float32")' % op, "OpArgType"))
    cs.append(value_case("full", "static", "full fills with the scalar tensor.", [("v", T((), F32))],
                         "R.full((2, 2), v)", [tensor(2.5, F32)], tensor(np.full((2, 2), 2.5), F32)))
    cs.append(value_case("full", "dtype", "full converts the fill value to dtype.",
                         [("v", T((), F32))], 'R.full((3,), v, "int32")', [tensor(-7.75, F32)],
                         tensor(np.full((3,), -7), "int32")))
    cs.append(sinfo_case("full", "symbolic", "full keeps symbolic dims.",
                         [("s", 'R.Shape(["m", "n"])'), ("v", T((), "int8"))], "R.full(s, v)",
                         S(["m", "n"], "int8")))
    cs.append(error_case("full", "fill-not-scalar", "The fill value must be a rank-0 tensor.",
                         [("v", T((2,), F32))], "R.full((2, 2), v)", "OpShapeMismatch"))
    rng = rng_for("like")
    x = floats(rng, (2, 3))
    for op, fill in (("zeros_like", 0), ("ones_like", 1)):
        cs.append(value_case(op, "static", "%s takes the input's shape and dtype." % op,
                             [("x", T((2, 3), F32))], "R.%s(x)" % op, [tensor(x, F32)],
                             tensor(np.full((2, 3), fill), F32)))
        cs.append(value_case(op, "dtype", "%s with a dtype override." % op,
                             [("x", T((2, 3), F32))], 'R.%s(x, "int64")' % op, [tensor(x, F32)],
                             tensor(np.full((2, 3), fill), "int64")))
        cs.append(sinfo_case(op, "symbolic", "%s keeps the symbolic shape." % op,
                             [("x", T(("n", 2), F32))], "R.%s(x)" % op, S(["n", 2], F32)))
        cs.append(error_case(op, "not-tensor", "The input must be a tensor.",
                             [("s", 'R.Shape([2])')], "R.%s(s)" % op, "OpArgType"))
    cs.append(value_case("full_like", "static", "full_like fills with the scalar.",
                         [("x", T((2, 3), "int32")), ("v", T((), "int32"))], "R.full_like(x, v)",
                         [tensor(np.zeros((2, 3)), "int32"), tensor(9, "int32")],
                         tensor(np.full((2, 3), 9), "int32")))
    cs.append(sinfo_case("full_like", "symbolic", "full_like keeps the symbolic shape and x's dtype.",
                         [("x", T(("n",), F32)), ("v", T((), "float16"))], "R.full_like(x, v)",
                         S(["n"], F32)))
    cs.append(error_case("full_like", "fill-not-scalar", "The fill value must be a rank-0 tensor.",
                         [("x", T((2,), F32)), ("v", T((1,), F32))], "R.full_like(x, v)",
                         "OpShapeMismatch"))
    cs += arange_eye_cases() + trilu_cases()
    return cs


def arange_eye_cases():
    cs = []
    cs.append(value_case("arange", "int", "arange of integers defaults to int64.",
                         [("x", T((1,), F32))], "R.arange(1, 10, 3)", [tensor([0], F32)],
                         tensor(np.arange(1, 10, 3), "int64")))
    cs.append(value_case("arange", "float", "arange with a float step gives float32.",
                         [("x", T((1,), F32))], "R.arange(0.0, 1.0, 0.25)", [tensor([0], F32)],
                         tensor(np.arange(0.0, 1.0, 0.25), F32)))
    cs.append(value_case("arange", "negative-step", "arange counts down with a negative step.",
                         [("x", T((1,), F32))], 'R.arange(5, -3, -2, dtype="int32")',
                         [tensor([0], F32)], tensor(np.arange(5, -3, -2), "int32")))
    cs.append(sinfo_case("arange", "symbolic", "arange(0, n, 1) has n elements.",
                         [("n", 'R.Prim(value="n")')], "R.arange(0, n, 1)", S(["n"], "int64")))
    cs.append(error_case("arange", "tensor-bound", "arange's bounds must be PrimValues.",
                         [("x", T((1,), "int64"))], "R.arange(0, x, 1)", "OpArgType"))
    cs.append(value_case("eye", "square", "eye(3) is the identity.", [("x", T((1,), F32))],
                         "R.eye(3, 3, 0)", [tensor([0], F32)], tensor(np.eye(3), F32)))
    cs.append(value_case("eye", "offset", "eye with m and a positive k.", [("x", T((1,), F32))],
                         'R.eye(3, 4, 1, dtype="int32")', [tensor([0], F32)],
                         tensor(np.eye(3, 4, 1), "int32")))
    cs.append(value_case("eye", "negative-k", "eye with a negative k.", [("x", T((1,), F32))],
                         "R.eye(4, 2, -1)", [tensor([0], F32)], tensor(np.eye(4, 2, -1), F32)))
    cs.append(sinfo_case("eye", "symbolic", "eye(n, n, 0) is n x n.", [("n", 'R.Prim(value="n")')],
                         "R.eye(n, n, 0)", S(["n", "n"], F32)))
    cs.append(error_case("eye", "tensor-n", "eye's n must be a PrimValue.", [("x", T((1,), "int64"))],
                         "R.eye(x, x, 0)", "OpArgType"))
    cs.extend(constructor_sugar_cases())
    return cs


def constructor_sugar_cases():
    """OP-SUGAR: python/tvm/relax/op/create.py fills arange's start (0) and dtype (int64 for
    integer bounds, else float32) and eye's m (= n)."""
    cs = [
        value_case("arange", "end-only", "R.arange(5) is arange(0, 5, 1) of int64.",
                   [("x", T((1,), F32))], "R.arange(5)", [tensor([0], F32)],
                   tensor(np.arange(0, 5, 1), "int64")),
        value_case("arange", "end-only-float", "R.arange(2.5) starts at 0 and is float32.",
                   [("x", T((1,), F32))], "R.arange(2.5)", [tensor([0], F32)],
                   tensor(np.arange(0, 2.5, 1), F32)),
        sinfo_case("arange", "negative-step-length", "arange(10, 0, -3) has ceil(-10 / -3) = 4 elements.",
                   [("x", T((1,), F32))], "R.arange(10, 0, -3)", S([4], "int64")),
        value_case("eye", "n-only", "R.eye(3) is the 3 x 3 identity (m defaults to n).",
                   [("x", T((1,), F32))], "R.eye(3)", [tensor([0], F32)], tensor(np.eye(3), F32)),
    ]
    for c in cs:
        c["spec"] = c["spec"] + ["OP-SUGAR"]
    return cs


def trilu_cases():
    cs = []
    rng = rng_for("trilu")
    x = ints(rng, (3, 4))
    b = ints(rng, (2, 3, 3))
    for op, fn in (("tril", np.tril), ("triu", np.triu)):
        cs.append(value_case(op, "k0", "%s keeps the main diagonal." % op, [("x", T((3, 4), "int32"))],
                             "R.%s(x, 0)" % op, [tensor(x, "int32")], tensor(fn(x, 0), "int32")))
        cs.append(value_case(op, "k1", "%s with k=1." % op, [("x", T((3, 4), "int32"))],
                             "R.%s(x, 1)" % op, [tensor(x, "int32")], tensor(fn(x, 1), "int32")))
        cs.append(value_case(op, "batch", "%s applies to the last two axes." % op,
                             [("x", T((2, 3, 3), F32))], "R.%s(x, -1)" % op, [tensor(b, F32)],
                             tensor(fn(b, -1), F32)))
        cs.append(sinfo_case(op, "symbolic", "%s keeps the input's StructInfo." % op,
                             [("x", T(("m", "n"), F32))], "R.%s(x, 0)" % op, S(["m", "n"], F32)))
        cs.append(error_case(op, "rank1", "%s needs at least two dims." % op, [("x", T((4,), F32))],
                             "R.%s(x, 0)" % op, "OpShapeMismatch"))
    return cs


# ---- manipulation -----------------------------------------------------------------------------

def reshape_cases():
    cs = []
    rng = rng_for("reshape")
    x = floats(rng, (2, 3, 4))
    cs.append(value_case("reshape", "static", "reshape keeps row-major order.",
                         [("x", T((2, 3, 4), F32))], "R.reshape(x, (6, 4))", [tensor(x, F32)],
                         tensor(x.reshape(6, 4), F32)))
    cs.append(value_case("reshape", "minus-one", "A -1 dim is inferred.", [("x", T((2, 3, 4), F32))],
                         "R.reshape(x, (3, -1, 8))", [tensor(x, F32)], tensor(x.reshape(3, -1, 8), F32)))
    cs.append(sinfo_case("reshape", "minus-one-static", "Inference computes the -1 dim.",
                         [("x", T((2, 3, 4), F32))], "R.reshape(x, (6, 1, -1))", S([6, 1, 4], F32)))
    x24 = np.arange(24, dtype=F32).reshape(2, 3, 4)
    cs.append(value_case("reshape", "zero-copies-dim", "A 0 in the new shape copies the input's dim "
                         "(ConvertNewShapeToExpr): (0, -1) on (2, 3, 4) is (2, 12).",
                         [("x", T((2, 3, 4), F32))], "R.reshape(x, (0, -1))", [tensor(x24, F32)],
                         tensor(x24.reshape(2, 12), F32)))
    cs.append(sinfo_case("reshape", "zero-copies-symbolic-dim", "A 0 copies a symbolic dim.",
                         [("x", T(("n", 3, 4), F32))], "R.reshape(x, (0, 12))", S(["n", 12], F32)))
    cs.append(sinfo_case("reshape", "symbolic", "A symbolic shape passes through.",
                         [("x", T(("n", 4), F32))], "R.reshape(x, R.shape([4, n]))", S([4, "n"], F32),
                         pre=["n = T.int64()"]))
    cs.append(value_case("reshape", "symbolic-value", "reshape of a symbolic input at run time.",
                         [("x", T(("n", 2), "int32"))], "R.reshape(x, (-1,))",
                         [tensor([[1, 2], [3, 4], [5, 6]], "int32")], tensor([1, 2, 3, 4, 5, 6], "int32")))
    cs.append(error_case("reshape", "count", "A provably different element count is an error.",
                         [("x", T((2, 3), F32))], "R.reshape(x, (4, 2))", "OpShapeMismatch"))
    cs.append(error_case("reshape", "minus-one-indivisible", "-1 must divide evenly.",
                         [("x", T((2, 3), F32))], "R.reshape(x, (4, -1))", "OpShapeMismatch"))
    cs += reshape_sugar_cases()
    return cs


def reshape_sugar_cases():
    """OP-SUGAR: TVM v0.22's reshape constructor (ConvertNewShapeToExpr, manipulate.cc)
    resolves a 0 and a -1 of a literal shape from the input's known shape when the call is
    built, so TVM prints R.reshape(x, (0, -1)) on (2, 3, 4) as R.reshape(x, R.shape([2, 12]))
    and on (n, 3, 4) as R.shape([n, 12]) (measured with TVM v0.22)."""
    cs = []
    head = "# from tvm.script import tir as T\n# from tvm.script import relax as R\n\n@R.function\n"
    forms = [("printed-static", (2, 3, 4), "(0, -1)", "R.shape([2, 12])", False),
             ("printed-symbolic", ("n", 3, 4), "(0, -1)", "R.shape([n, 12])", True),
             ("printed-symbolic-minus-one", ("n", 3, 4), "(-1, 0, 2)", "R.shape([n * 2, 3, 2])",
              True)]
    for cid, shape, new, printed, symbolic in forms:
        head_t = head if symbolic else head.replace("# from tvm.script import tir as T\n", "")
        dims = ", ".join('"%s"' % d if isinstance(d, str) else str(d) for d in shape)
        case = {"id": "reshape-" + cid,
                "description": "R.reshape(x, %s) on %s prints the shape TVM's constructor "
                               "resolves: %s." % (new, str(shape).replace("'", ""), printed),
                "spec": ["OP-reshape", "OP-SUGAR"],
                "program": "@R.function\ndef main(x: %s):\n    y = R.reshape(x, %s)\n"
                           "    return y\n" % (T(shape, F32), new),
                "printed": head_t + 'def main(x: R.Tensor((%s), dtype="float32")):\n%s'
                           "    y = R.reshape(x, %s)\n    return y\n"
                           % (dims, "    n = T.int64()\n" if symbolic else "", printed)}
        cs.append(case)
    cs.append(sinfo_case("reshape", "zero-minus-one-symbolic", "(0, -1) on (n, 3, 4) is (n, 12): "
                         "the -1 is n * 12 // n simplified, as TVM's analyzer does.",
                         [("x", T(("n", 3, 4), F32))], "R.reshape(x, (0, -1))", S(["n", 12], F32)))
    cs[-1]["spec"] = cs[-1]["spec"] + ["OP-SUGAR"]
    cs.append(sinfo_case("reshape", "minus-one-unannotated", "(-1, 0, 2) on a binding of (n, 3, "
                         "4) without an annotation: inference resolves it as the constructor does, "
                         "(n * 2, 3, 2).", [("x", T(("n", 3, 4), F32))], "R.reshape(lv, (-1, 0, 2))",
                         S(["n * 2", 3, 2], F32), pre=["lv = R.add(x, x)"]))
    cs.append(error_case("reshape", "zero-count", "(0, 5) on (2, 3, 4) resolves to (2, 5), whose "
                         "element count differs.", [("x", T((2, 3, 4), F32))], "R.reshape(x, (0, 5))",
                         "OpShapeMismatch"))
    return cs


def permute_expand_squeeze_cases():
    cs = []
    rng = rng_for("permute")
    x = ints(rng, (2, 3, 4))
    cs.append(value_case("permute_dims", "axes", "permute_dims reorders axes.",
                         [("x", T((2, 3, 4), "int64"))], "R.permute_dims(x, [1, 2, 0])",
                         [tensor(x, "int64")], tensor(np.transpose(x, (1, 2, 0)), "int64")))
    cs.append(value_case("permute_dims", "reverse", "axes=None reverses the axes.",
                         [("x", T((2, 3, 4), "int64"))], "R.permute_dims(x)", [tensor(x, "int64")],
                         tensor(np.transpose(x), "int64")))
    cs.append(sinfo_case("permute_dims", "symbolic", "Symbolic dims move with their axes.",
                         [("x", T(("a", "b", 3), F32))], "R.permute_dims(x, [2, 0, 1])",
                         S([3, "a", "b"], F32)))
    cs.append(error_case("permute_dims", "repeated", "An axis given twice is an error.",
                         [("x", T((2, 3), F32))], "R.permute_dims(x, [0, 0])", "OpAttr"))
    y = ints(rng, (2, 3))
    cs.append(value_case("expand_dims", "one", "expand_dims inserts a unit axis.",
                         [("x", T((2, 3), "int32"))], "R.expand_dims(x, 1)", [tensor(y, "int32")],
                         tensor(np.expand_dims(y, 1), "int32")))
    cs.append(value_case("expand_dims", "several", "Negative and multiple axes.",
                         [("x", T((2, 3), "int32"))], "R.expand_dims(x, [0, -1])", [tensor(y, "int32")],
                         tensor(np.expand_dims(y, (0, -1)), "int32")))
    cs.append(sinfo_case("expand_dims", "symbolic", "Symbolic dims keep their places.",
                         [("x", T(("n", "m"), F32))], "R.expand_dims(x, [1])", S(["n", 1, "m"], F32)))
    cs.append(error_case("expand_dims", "range", "The axis must lie in [-ndim-1, ndim].",
                         [("x", T((2, 3), F32))], "R.expand_dims(x, 3)", "OpAttr"))
    z = ints(rng, (1, 3, 1))
    cs.append(value_case("squeeze", "all", "axis=None drops every unit dim.", [("x", T((1, 3, 1), F32))],
                         "R.squeeze(x)", [tensor(z, F32)], tensor(np.squeeze(z), F32)))
    cs.append(value_case("squeeze", "axis", "squeeze drops the given unit axis.",
                         [("x", T((1, 3, 1), F32))], "R.squeeze(x, [2])", [tensor(z, F32)],
                         tensor(np.squeeze(z, 2), F32)))
    cs.append(sinfo_case("squeeze", "symbolic", "A named axis of a symbolic tensor is removed.",
                         [("x", T(("n", 1), F32))], "R.squeeze(x, [1])", S(["n"], F32)))
    cs.append(sinfo_case("squeeze", "symbolic-none", "axis=None with a symbolic dim leaves the rank unknown.",
                         [("x", T(("n", 1), F32))], "R.squeeze(x)", S(-1, F32)))
    cs.append(error_case("squeeze", "not-one", "Squeezing a dim that is not 1 is an error.",
                         [("x", T((2, 3), F32))], "R.squeeze(x, [0])", "OpShapeMismatch"))
    w = ints(rng, (2, 3))
    cs.append(value_case("flatten", "static", "flatten gives a 1-D tensor.", [("x", T((2, 3), "int8"))],
                         "R.flatten(x)", [tensor(w, "int8")], tensor(w.flatten(), "int8")))
    cs.append(value_case("flatten", "scalar", "flatten of a scalar has one element.",
                         [("x", T((), "int8"))], "R.flatten(x)", [tensor(5, "int8")], tensor([5], "int8")))
    cs.append(sinfo_case("flatten", "symbolic", "The length is the product of the dims.",
                         [("x", T(("n", 3), F32))], "R.flatten(x)", S(["n * 3"], F32)))
    cs.append(error_case("flatten", "not-tensor", "flatten needs a tensor.", [("s", "R.Shape([2])")],
                         "R.flatten(s)", "OpArgType"))
    return cs


def join_cases():
    cs = []
    rng = rng_for("join")
    a, b = ints(rng, (2, 3)), ints(rng, (2, 2))
    cs.append(value_case("concat", "axis1", "concat along axis 1.",
                         [("a", T((2, 3), "int32")), ("b", T((2, 2), "int32"))], "R.concat((a, b), axis=1)",
                         [tensor(a, "int32"), tensor(b, "int32")],
                         tensor(np.concatenate([a, b], 1), "int32")))
    c = ints(rng, (1, 3))
    cs.append(value_case("concat", "axis0", "concat along axis 0 (the default).",
                         [("a", T((2, 3), "int32")), ("c", T((1, 3), "int32"))], "R.concat((a, c))",
                         [tensor(a, "int32"), tensor(c, "int32")],
                         tensor(np.concatenate([a, c], 0), "int32")))
    rng_none = rng_for("join-axis-none")
    d, e = ints(rng_none, (3,)), ints(rng_none, (2,))
    # InferStructInfoConcat (src/relax/op/tensor/manipulate.cc): with axis None the result is
    # 1-D and every input must be 1-D; the tensors are joined in order.
    cs.append(value_case("concat", "axis-none", "concat with axis=None joins 1-D tensors in order.",
                         [("d", T((3,), "int32")), ("e", T((2,), "int32"))],
                         "R.concat((d, e), axis=None)",
                         [tensor(d, "int32"), tensor(e, "int32")],
                         tensor(np.concatenate([d, e]), "int32")))
    cs.append(sinfo_case("concat", "symbolic", "The axis dims add up symbolically.",
                         [("a", T(("n", 3), F32)), ("b", T(("m", 3), F32))], "R.concat((a, b), axis=0)",
                         S(["n + m", 3], F32)))
    cs.append(sinfo_case("concat", "self-symbolic", "concat((x, x)) on (n, 3) is (n * 2, 3): like "
                         "terms are collected as TVM's arith analyzer does.",
                         [("x", T(("n", 3), F32))], "R.concat((x, x))", S(["n * 2", 3], F32)))
    cs[-1]["spec"] = cs[-1]["spec"] + ["ARITH-1"]
    cs.append(sinfo_case("concat", "self-symbolic-by-meaning", "The expectation 2 * n is judged by "
                         "meaning: an implementation printing n * 2 passes.",
                         [("x", T(("n", 3), F32))], "R.concat((x, x))", S(["2 * n", 3], F32)))
    cs[-1]["spec"] = cs[-1]["spec"] + ["SINFO-CMP-1"]
    cs.append(sinfo_case("tile", "symbolic-twice", "tile of (n, 3) by (2, 3) is (n * 2, 9); "
                         "a repeat of a repeat is n * 6 as TVM prints it.",
                         [("x", T(("n", 3), F32))], "R.tile(R.tile(x, [2, 1]), [3, 1])",
                         S(["n * 6", 3], F32)))
    cs[-1]["spec"] = cs[-1]["spec"] + ["ARITH-1"]
    cs.append(error_case("concat", "dim-mismatch", "Dims off the axis must agree.",
                         [("a", T((2, 3), F32)), ("b", T((2, 4), F32))], "R.concat((a, b), axis=0)",
                         "OpShapeMismatch"))
    cs.append(error_case("concat", "dtype-mismatch", "The tensors must share a dtype.",
                         [("a", T((2, 3), F32)), ("b", T((2, 3), "int32"))], "R.concat((a, b))",
                         "OpDTypeMismatch"))
    x = ints(rng, (6, 2))
    cs.append(value_case("split", "one-index", "split at one index gives two pieces.",
                         [("x", T((6, 2), "int64"))], "R.split(x, [4])", [tensor(x, "int64")],
                         tuple_value([tensor(p, "int64") for p in np.split(x, [4])])))
    cs.append(value_case("split", "indices", "split at indices along axis 1.",
                         [("x", T((2, 5), "int64"))], "R.split(x, [1, 3], axis=1)",
                         [tensor(ints(rng, (2, 5)) * 0 + np.arange(10).reshape(2, 5), "int64")],
                         tuple_value([tensor(p, "int64") for p in
                                      np.split(np.arange(10).reshape(2, 5), [1, 3], 1)])))
    # src/relax/op/tensor/manipulate.cc InferStructInfoSplit: each index clamped into [0, n],
    # a piece max(right - left, 0), simplified by TVM's analyzer (so n < 2 gives empty pieces).
    cs.append(sinfo_case("split", "symbolic", "Pieces of a symbolic dim clamp the index to the "
                         "dim, as TVM infers them: min(2, n) and max(n - 2, 0).",
                         [("x", T(("n", 4), F32))], "R.split(x, [2], axis=0)",
                         "R.Tuple(%s, %s)" % (S(["T.min(2, n)", 4], F32),
                                              S(["T.max(n - 2, 0)", 4], F32))))
    cs.append(sinfo_case("split", "symbolic-indices", "Three pieces of a symbolic dim at 1 and 3: "
                         "min(1, n), max(min(3, n) - min(1, n), 0) and max(n - 3, 0).",
                         [("x", T(("n", 4), F32))], "R.split(x, [1, 3], axis=0)",
                         "R.Tuple(%s, %s, %s)" % (
                             S(["T.min(1, n)", 4], F32),
                             S(["T.max(T.min(3, n) - T.min(1, n), 0)", 4], F32),
                             S(["T.max(n - 3, 0)", 4], F32))))
    cs.append(sinfo_case("split", "symbolic-zero-index", "An index 0 gives an empty first piece "
                         "and a second from the start: (0, 4), min(2, n), max(n - 2, 0).",
                         [("x", T(("n", 4), F32))], "R.split(x, [0, 2], axis=0)",
                         "R.Tuple(%s, %s, %s)" % (S([0, 4], F32), S(["T.min(2, n)", 4], F32),
                                                  S(["T.max(n - 2, 0)", 4], F32))))
    # Indices that descend (4 then 2) give a piece max(min(2, n) - min(4, n), 0), which is 0
    # for every n >= 0 (min(2, n) <= min(4, n)); TVM's analyzer leaves the expression as it
    # is, and so does the reference.
    cs.append(sinfo_case("split", "symbolic-descending-indices", "Indices 4 then 2 on a "
                         "symbolic dim: min(4, n), the middle piece max(min(2, n) - min(4, n), "
                         "0) (empty for every n, kept unsimplified as TVM v0.22 does) and "
                         "max(n - 2, 0).",
                         [("x", T((2, "n"), F32))], "R.split(x, [4, 2], axis=1)",
                         "R.Tuple(%s, %s, %s)" % (S([2, "T.min(4, n)"], F32),
                                                  S([2, "T.max(T.min(2, n) - T.min(4, n), 0)"],
                                                    F32),
                                                  S([2, "T.max(n - 2, 0)"], F32))))
    # TVM gives sections of a symbolic dim as ceildiv(n, k) and n - ceildiv(n, k) (k - 1),
    # negative for small n when k > 2; the reference keeps the rank only.
    cs.append(sinfo_case("split", "symbolic-sections", "Sections of a symbolic dim keep the rank "
                         "only (TVM: (n + 1) // 2 and n - (n + 1) // 2).",
                         [("x", T(("n", 4), F32))], "R.split(x, 2, axis=0)",
                         'R.Tuple(R.Tensor(dtype="float32", ndim=2), '
                         'R.Tensor(dtype="float32", ndim=2))'))
    cs[-1]["tags"] = ["tvm-diverges"]
    cs.append(error_case("split", "bad-axis", "The axis must be in range.", [("x", T((2, 3), F32))],
                         "R.split(x, 2, axis=2)", "OpAttr"))
    p, q = ints(rng, (2, 3)), ints(rng, (2, 3))
    cs.append(value_case("stack", "axis0", "stack adds a new leading axis.",
                         [("a", T((2, 3), F32)), ("b", T((2, 3), F32))], "R.stack((a, b))",
                         [tensor(p, F32), tensor(q, F32)], tensor(np.stack([p, q]), F32)))
    cs.append(value_case("stack", "last", "stack along the last new axis.",
                         [("a", T((2, 3), F32)), ("b", T((2, 3), F32))], "R.stack((a, b), axis=-1)",
                         [tensor(p, F32), tensor(q, F32)], tensor(np.stack([p, q], -1), F32)))
    cs.append(sinfo_case("stack", "symbolic", "stack of symbolic tensors.",
                         [("a", T(("n",), F32)), ("b", T(("n",), F32))], "R.stack((a, b), axis=1)",
                         S(["n", 2], F32)))
    cs.append(error_case("stack", "shape-mismatch", "stacked tensors must have equal shapes.",
                         [("a", T((2,), F32)), ("b", T((3,), F32))], "R.stack((a, b))", "OpShapeMismatch"))
    return cs


def broadcast_tile_cases():
    cs = []
    rng = rng_for("tile")
    x = ints(rng, (3, 1))
    cs.append(value_case("broadcast_to", "static", "broadcast_to stretches unit dims.",
                         [("x", T((3, 1), "int32"))], "R.broadcast_to(x, (2, 3, 4))", [tensor(x, "int32")],
                         tensor(np.broadcast_to(x, (2, 3, 4)), "int32")))
    cs.append(sinfo_case("broadcast_to", "symbolic", "The target shape is the result shape.",
                         [("x", T((1, 4), F32)), ("s", 'R.Shape(["n", 4])')], "R.broadcast_to(x, s)",
                         S(["n", 4], F32)))
    cs.append(error_case("broadcast_to", "mismatch", "A dim that is neither 1 nor the target's is an error.",
                         [("x", T((3, 2), F32))], "R.broadcast_to(x, (3, 4))", "OpShapeMismatch"))
    y = ints(rng, (2, 3))
    cs.append(value_case("tile", "list", "tile repeats along each axis.", [("x", T((2, 3), "int16"))],
                         "R.tile(x, [2, 3])", [tensor(y, "int16")], tensor(np.tile(y, (2, 3)), "int16")))
    cs.append(value_case("tile", "promote", "More repeats than dims prepend axes.",
                         [("x", T((3,), "int16"))], "R.tile(x, [2, 1, 2])", [tensor(y[0], "int16")],
                         tensor(np.tile(y[0], (2, 1, 2)), "int16")))
    cs.append(sinfo_case("tile", "symbolic", "Symbolic dims multiply by their repeats.",
                         [("x", T(("n", 3), F32))], "R.tile(x, 2)", S(["n", 6], F32)))
    cs.append(error_case("tile", "negative", "A negative repeat is an error.", [("x", T((2,), F32))],
                         "R.tile(x, [-1])", "OpAttr"))
    cs.append(value_case("repeat", "axis", "repeat along an axis.", [("x", T((2, 3), "int32"))],
                         "R.repeat(x, 2, axis=1)", [tensor(y, "int32")],
                         tensor(np.repeat(y, 2, axis=1), "int32")))
    cs.append(value_case("repeat", "flat", "repeat with axis=None flattens.", [("x", T((2, 3), "int32"))],
                         "R.repeat(x, 3)", [tensor(y, "int32")], tensor(np.repeat(y, 3), "int32")))
    cs.append(sinfo_case("repeat", "symbolic", "The axis dim multiplies.", [("x", T(("n", 3), F32))],
                         "R.repeat(x, 2, axis=0)", S(["n * 2", 3], F32)))
    cs.append(error_case("repeat", "bad-axis", "The axis must be in range.", [("x", T((2, 3), F32))],
                         "R.repeat(x, 2, axis=-3)", "OpAttr"))
    z = ints(rng, (2, 3))
    cs.append(value_case("flip", "axis0", "flip reverses axis 0.", [("x", T((2, 3), F32))],
                         "R.flip(x, 0)", [tensor(z, F32)], tensor(np.flip(z, 0), F32)))
    cs.append(value_case("flip", "last", "flip with a negative axis.", [("x", T((2, 3), F32))],
                         "R.flip(x, -1)", [tensor(z, F32)], tensor(np.flip(z, -1), F32)))
    cs.append(sinfo_case("flip", "symbolic", "flip keeps the shape.", [("x", T(("n", 3), F32))],
                         "R.flip(x, 1)", S(["n", 3], F32)))
    cs.append(error_case("flip", "bad-axis", "The axis must be in range.", [("x", T((2, 3), F32))],
                         "R.flip(x, 2)", "OpAttr"))
    return cs


def index_cases():
    cs = []
    rng = rng_for("index")
    x = floats(rng, (3, 4))
    idx = np.array([2, 0, 2])
    cs.append(value_case("take", "axis0", "take rows.", [("x", T((3, 4), F32)), ("i", T((3,), "int64"))],
                         "R.take(x, i, axis=0)", [tensor(x, F32), tensor(idx, "int64")],
                         tensor(np.take(x, idx, 0), F32)))
    idx2 = np.array([[3, -1], [0, 1]])
    cs.append(value_case("take", "axis1-2d", "take with 2-D indices along axis 1 (negative index wraps once).",
                         [("x", T((3, 4), F32)), ("i", T((2, 2), "int32"))], "R.take(x, i, axis=1)",
                         [tensor(x, F32), tensor(idx2, "int32")], tensor(np.take(x, idx2, 1), F32)))
    # topi take mode="fast" (the default) reads a[i] unchecked: a negative index is an
    # out-of-bounds read in TVM v0.22; the reference wraps it once.
    cs[-1]["result"] = "undefined"
    cs.append(value_case("take", "mode-wrap", "mode=\"wrap\" takes indices modulo the axis length.",
                         [("x", T((4,), F32)), ("i", T((3,), "int64"))], 'R.take(x, i, axis=0, mode="wrap")',
                         [tensor(np.arange(4.0), F32), tensor([5, -1, 2], "int64")],
                         tensor(np.take(np.arange(4.0), [5, -1, 2], mode="wrap"), F32)))
    cs.append(value_case("take", "mode-clip", "mode=\"clip\" clamps indices into the axis.",
                         [("x", T((4,), F32)), ("i", T((3,), "int64"))], 'R.take(x, i, axis=0, mode="clip")',
                         [tensor(np.arange(4.0), F32), tensor([5, -1, 2], "int64")],
                         tensor(np.take(np.arange(4.0), [5, -1, 2], mode="clip"), F32)))
    # uint64 indices above INT64_MAX: topi take clamps and wraps them as unsigned numbers
    # (checked against TVM v0.22: clip [30, 30, 20], wrap [10, 30, 20]).
    xu, iu = [10.0, 20.0, 30.0], [2 ** 64 - 1, 2 ** 63, 1]
    pu = [("x", T((3,), F32)), ("i", T((3,), "uint64"))]
    cs.append(value_case("take", "uint64-clip", "mode=\"clip\" clamps a uint64 index above "
                         "INT64_MAX to the last position: it is a large unsigned number, not a "
                         "negative one.", pu, 'R.take(x, i, axis=0, mode="clip")',
                         [tensor(xu, F32), tensor(np.array(iu, dtype=np.uint64), "uint64")],
                         tensor([xu[min(u, 2)] for u in iu], F32)))
    cs.append(value_case("take", "uint64-wrap", "mode=\"wrap\" takes a uint64 index above "
                         "INT64_MAX modulo the axis length as an unsigned number (2^64 - 1 mod 3 "
                         "is 0, 2^63 mod 3 is 2).", pu, 'R.take(x, i, axis=0, mode="wrap")',
                         [tensor(xu, F32), tensor(np.array(iu, dtype=np.uint64), "uint64")],
                         tensor([xu[u % 3] for u in iu], F32)))
    cs.append(error_case("take", "uint64-fast-out-of-range", "With mode=\"fast\" a uint64 index "
                         "2^64 - 1 is out of range, not -1 counted from the end; TVM reads out of "
                         "bounds: undefined.", [("x", T((3,), F32)), ("i", T((1,), "uint64"))],
                         "R.take(x, i, axis=0)", "OpPrecondition", phase="runtime",
                         args=[tensor(xu, F32),
                               tensor(np.array([2 ** 64 - 1], dtype=np.uint64), "uint64")]))
    cs[-1]["result"] = "undefined"
    cs[-1]["spec"] = cs[-1]["spec"] + ["RESULT-3"]
    cs.append(sinfo_case("take", "symbolic", "The indices' shape replaces the axis.",
                         [("x", T(("n", 4), F32)), ("i", T(("k",), "int64"))], "R.take(x, i, axis=0)",
                         S(["k", 4], F32)))
    cs.append(error_case("take", "float-indices", "Indices must be integers.",
                         [("x", T((3,), F32)), ("i", T((2,), F32))], "R.take(x, i, axis=0)",
                         "OpDTypeMismatch"))
    cs.append(error_case("take", "out-of-range", "An index out of range stops evaluation in the "
                         "reference; with mode=\"fast\" (the default) TVM reads out of bounds: "
                         "undefined.",
                         [("x", T((3,), F32)), ("i", T((1,), "int64"))], "R.take(x, i, axis=0)",
                         "OpPrecondition", phase="runtime",
                         args=[tensor([1, 2, 3], F32), tensor([3], "int64")]))
    cs[-1]["result"] = "undefined"
    cs[-1]["spec"] = cs[-1]["spec"] + ["RESULT-3"]
    # TVM v0.22's InferStructInfoTake reads a PrimValue index as a rank-0 tensor of its dtype
    # (index.cc), and topi take indexes with it as with a 0-d tensor: the axis is dropped.
    x3 = floats(np.random.default_rng(12), (2, 3, 4))
    prim = [("x", T((2, 3, 4), F32)), ("i", 'R.Prim("int64")')]
    cs.append(value_case("take", "prim-index", "A PrimValue index drops the axis, as a rank-0 "
                         "index tensor does.", prim, "R.take(x, i, axis=1)",
                         [tensor(x3, F32), g.Prim("int64", 2)], tensor(np.take(x3, 2, 1), F32)))
    cs.append(value_case("take", "prim-index-wrap", "An int32 PrimValue index with mode=\"wrap\".",
                         [("x", T((2, 3, 4), F32)), ("i", 'R.Prim("int32")')],
                         'R.take(x, i, axis=2, mode="wrap")', [tensor(x3, F32), g.Prim("int32", -3)],
                         tensor(np.take(x3, -3, 2, mode="wrap"), F32)))
    cs.append(value_case("take", "prim-index-symbolic", "R.prim_value(n - 1) indexes the last row "
                         "of an axis of length n.", [("x", T((2, "n", 4), F32))],
                         "R.take(x, R.prim_value(n - 1), axis=1)", [tensor(x3, F32)],
                         tensor(np.take(x3, 2, 1), F32), pre=["n = T.int64()"]))
    cs.append(sinfo_case("take", "prim-index-sinfo", "A PrimValue index gives the data's shape "
                         "without the axis.", [("x", T((2, "n", 4), F32)), ("i", 'R.Prim("int64")')],
                         "R.take(x, i, axis=1)", S([2, 4], F32)))
    cs.append(error_case("take", "prim-float-index", "A float PrimValue index is rejected.",
                         [("x", T((2, 3), F32)), ("i", 'R.Prim("float32")')], "R.take(x, i, axis=1)",
                         "OpDTypeMismatch"))
    y = ints(rng, (4, 5))
    cs.append(value_case("strided_slice", "basic", "Slices with a stride.", [("x", T((4, 5), "int32"))],
                         "R.strided_slice(x, axes=[0, 1], begin=[1, 0], end=[4, 5], strides=[2, 2])",
                         [tensor(y, "int32")], tensor(y[1:4:2, 0:5:2], "int32")))
    v8 = np.arange(8, dtype=np.int32)
    cs.append(value_case("strided_slice", "symbolic-begin", "axes/begin/end/strides are Relax "
                         "tuples of PrimValues in v0.22 (index.cc, strided_slice): a begin may be "
                         "a shape variable, bound at run time.",
                         [("x", T((8,), "int32")), ("s", 'R.Shape(["k"])')],
                         "R.strided_slice(x, axes=[0], begin=[k], end=[8], strides=[2])",
                         [tensor(v8, "int32"), g.Shape([3])], tensor(v8[3:8:2], "int32")))
    cs.append(sinfo_case("strided_slice", "tuple-arguments", "The tuple-of-PrimValue form TVM "
                         "prints reads back with the same meaning.", [("x", T(("n", 8), F32))],
                         "R.strided_slice(x, (R.prim_value(1),), (R.prim_value(1),), "
                         "(R.prim_value(7),), (R.prim_value(2),), assume_inbound=False)",
                         S(["n", 3], F32)))
    cs.append(value_case("strided_slice", "negative", "Negative stride and clamped bounds.",
                         [("x", T((4, 5), "int32"))],
                         "R.strided_slice(x, axes=[1], begin=[-1], end=[-100], strides=[-2])",
                         [tensor(y, "int32")], tensor(y[:, -1:-100:-2], "int32")))
    cs.append(sinfo_case("strided_slice", "static", "The sliced dim is computed; others stay symbolic.",
                         [("x", T((10, "n"), F32))], "R.strided_slice(x, axes=[0], begin=[2], end=[9], strides=[3])",
                         S([3, "n"], F32)))
    cs.append(error_case("strided_slice", "lengths", "axes, begin and end must have equal lengths.",
                         [("x", T((4, 5), F32))], "R.strided_slice(x, axes=[0, 1], begin=[0], end=[2])",
                         "OpAttr"))
    cs.append(value_case("dynamic_strided_slice", "basic", "begin/end/strides are tensors.",
                         [("x", T((4, 5), "int32")), ("b", T((2,), "int64")), ("e", T((2,), "int64")),
                          ("s", T((2,), "int64"))], "R.dynamic_strided_slice(x, b, e, s)",
                         [tensor(y, "int32"), tensor([0, 1], "int64"), tensor([3, 5], "int64"),
                          tensor([1, 2], "int64")], tensor(y[0:3:1, 1:5:2], "int32")))
    cs.append(sinfo_case("dynamic_strided_slice", "unknown", "The result keeps only the rank.",
                         [("x", T(("n", 5), F32)), ("b", T((2,), "int64")), ("e", T((2,), "int64")),
                          ("s", T((2,), "int64"))], "R.dynamic_strided_slice(x, b, e, s)",
                         S(2, F32)))
    cs.append(error_case("dynamic_strided_slice", "int32-begin", "begin/end/strides must be int64 "
                         "(index.cc, InferStructInfoDynStridedSlice).",
                         [("x", T((4, 4), F32)), ("b", T((2,), "int32")), ("e", T((2,), "int64")),
                          ("s", T((2,), "int64"))], "R.dynamic_strided_slice(x, b, e, s)",
                         "OpDTypeMismatch"))
    cs.append(error_case("dynamic_strided_slice", "rank", "begin must be 1-D.",
                         [("x", T((4,), F32)), ("b", T((1, 1), "int64")), ("e", T((1,), "int64")),
                          ("s", T((1,), "int64"))], "R.dynamic_strided_slice(x, b, e, s)",
                         "OpShapeMismatch"))
    c = rng.integers(0, 2, size=(2, 3)).astype(bool)
    a, b = floats(rng, (2, 3)), floats(rng, (3,))
    cs.append(value_case("where", "broadcast", "where picks per element, broadcasting.",
                         [("c", T((2, 3), "bool")), ("a", T((2, 3), F32)), ("b", T((3,), F32))],
                         "R.where(c, a, b)", [tensor(c, "bool"), tensor(a, F32), tensor(b, F32)],
                         tensor(np.where(c, a, b), F32)))
    cs.append(sinfo_case("where", "symbolic", "The operands broadcast symbolically.",
                         [("c", T(("n", 1), "bool")), ("a", T((1, "m"), F32)), ("b", T(("n", "m"), F32))],
                         "R.where(c, a, b)", S(["n", "m"], F32)))
    cs.append(error_case("where", "dtype", "x1 and x2 must share a dtype.",
                         [("c", T((2,), "bool")), ("a", T((2,), F32)), ("b", T((2,), "int32"))],
                         "R.where(c, a, b)", "OpDTypeMismatch"))
    v = np.array([-2.5, -0.5, 0.5, 1.75, 300.0])
    cs.append(value_case("astype", "to-int", "Float to int truncates toward zero.",
                         [("x", T((5,), F32))], 'R.astype(x, "int32")', [tensor(v, F32)],
                         tensor(np.trunc(v), "int32")))
    # fptosi of NaN or of a value outside the target's range is poison in LLVM (TVM v0.22's
    # Cast lowering); the reference truncates toward zero in int64 (NaN is 0, beyond int64
    # saturates) and wraps into the target type.
    bad = [float("nan"), 1e10, -1e10, 2.5]
    def ref_cast(v):
        return 0 if math.isnan(v) else ((int(v) + 2**31) % 2**32) - 2**31
    cs.append(value_case("astype", "nan-out-of-range-int", "Float NaN or out-of-range to int32 is "
                         "undefined in TVM.", [("x", T((4,), F32))], 'R.astype(x, "int32")',
                         [tensor(bad, F32)], tensor([ref_cast(np.float32(v)) for v in bad], "int32")))
    cs[-1]["result"] = "undefined"
    cs.append(value_case("astype", "narrow-int16-to-int8", "Integer narrowing wraps modulo 2^8 "
                         "(LLVM trunc: defined).", [("x", T((3,), "int16"))], 'R.astype(x, "int8")',
                         [tensor([300, -129, 127], "int16")],
                         tensor(np.array([300, -129, 127], np.int16).astype(np.int8), "int8")))
    cs.append(value_case("astype", "to-uint8", "Integers wrap modulo 2^8.", [("x", T((3,), "int32"))],
                         'R.astype(x, "uint8")', [tensor([300, -1, 7], "int32")],
                         tensor(np.array([300, -1, 7]).astype(np.uint8), "uint8")))
    cs.append(value_case("astype", "to-f16", "float32 to float16 rounds to nearest.",
                         [("x", T((2,), F32))], 'R.astype(x, "float16")', [tensor([0.1, 65504.0], F32)],
                         tensor(np.array([0.1, 65504.0], np.float32).astype(np.float16), "float16")))
    cs.append(sinfo_case("astype", "symbolic", "astype keeps the shape.", [("x", T(("n",), F32))],
                         'R.astype(x, "int8")', S(["n"], "int8")))
    cs.append(error_case("astype", "not-tensor", "astype needs a tensor.", [("s", "R.Shape([2])")],
                         'R.astype(s, "int8")', "OpArgType"))
    return cs


# ---- linear algebra ---------------------------------------------------------------------------

def linalg_cases():
    cs = []
    rng = rng_for("linalg")
    a, b = floats(rng, (2, 3)), floats(rng, (3, 4))
    f64 = lambda arr: np.asarray(arr, np.float64)
    cs.append(value_case("matmul", "2d", "matmul of matrices.", [("a", T((2, 3), F32)), ("b", T((3, 4), F32))],
                         "R.matmul(a, b)", [tensor(a, F32), tensor(b, F32)], tensor(f64(a) @ f64(b), F32)))
    v = floats(rng, (3,))
    cs.append(value_case("matmul", "vec", "A 1-D right operand drops its axis.",
                         [("a", T((2, 3), F32)), ("v", T((3,), F32))], "R.matmul(a, v)",
                         [tensor(a, F32), tensor(v, F32)], tensor(f64(a) @ f64(v), F32)))
    ba, bb = ints(rng, (2, 1, 2, 3)), ints(rng, (3, 3, 2))
    cs.append(value_case("matmul", "batch", "Batch dims broadcast; integers stay exact.",
                         [("a", T((2, 1, 2, 3), "int32")), ("b", T((3, 3, 2), "int32"))], "R.matmul(a, b)",
                         [tensor(ba, "int32"), tensor(bb, "int32")], tensor(np.matmul(ba, bb), "int32")))
    cs.append(value_case("matmul", "out-dtype", "out_dtype sets the result dtype.",
                         [("a", T((2, 3), "int8")), ("b", T((3, 4), "int8"))], 'R.matmul(a, b, out_dtype="int32")',
                         [tensor(ints(rng, (2, 3)) * 0 + 100, "int8"), tensor(np.full((3, 4), 100), "int8")],
                         tensor(np.full((2, 4), 30000), "int32")))
    cs.append(sinfo_case("matmul", "symbolic", "Symbolic batch and matrix dims.",
                         [("a", T(("b", "n", "k"), F32)), ("w", T(("k", "m"), F32))], "R.matmul(a, w)",
                         S(["b", "n", "m"], F32)))
    cs.append(error_case("matmul", "k-mismatch", "The reduction dims must agree.",
                         [("a", T((2, 3), F32)), ("b", T((4, 5), F32))], "R.matmul(a, b)", "OpShapeMismatch"))
    cs.append(error_case("matmul", "dtype", "Operand dtypes must agree without out_dtype.",
                         [("a", T((2, 3), F32)), ("b", T((3, 4), "float16"))], "R.matmul(a, b)",
                         "OpDTypeMismatch"))
    x, w, bias = floats(rng, (2, 3)), floats(rng, (4, 3)), floats(rng, (4,))
    cs.append(value_case("linear", "bias", "linear is x @ w.T + b.",
                         [("x", T((2, 3), F32)), ("w", T((4, 3), F32)), ("b", T((4,), F32))], "R.linear(x, w, b)",
                         [tensor(x, F32), tensor(w, F32), tensor(bias, F32)],
                         tensor(f64(x) @ f64(w).T + f64(bias), F32)))
    cs.append(value_case("linear", "nobias", "linear without a bias.",
                         [("x", T((2, 3), F32)), ("w", T((4, 3), F32))], "R.linear(x, w)",
                         [tensor(x, F32), tensor(w, F32)], tensor(f64(x) @ f64(w).T, F32)))
    cs.append(sinfo_case("linear", "symbolic", "linear over a symbolic batch.",
                         [("x", T(("n", 3), F32)), ("w", T((4, 3), F32))], "R.linear(x, w)", S(["n", 4], F32)))
    err = error_case("linear", "k-mismatch", "The weight's inner dim must match.",
                     [("x", T((2, 3), F32)), ("w", T((4, 2), F32))], "R.linear(x, w)", "OpShapeMismatch")
    # OP-SUGAR: linear_algebra.py builds matmul(x, permute_dims(w)); matmul reports the mismatch.
    err["spec"] = ["OP-linear", "OP-SUGAR", "OP-matmul"]
    err["error"]["rule"] = "OP-matmul"
    cs.append(err)
    p, q = ints(rng, (3,)), ints(rng, (4,))
    cs.append(value_case("outer", "int", "outer product of vectors.",
                         [("a", T((3,), "int64")), ("b", T((4,), "int64"))], "R.outer(a, b)",
                         [tensor(p, "int64"), tensor(q, "int64")], tensor(np.outer(p, q), "int64")))
    cs.append(sinfo_case("outer", "symbolic", "outer of symbolic vectors.",
                         [("a", T(("n",), F32)), ("b", T(("m",), F32))], "R.outer(a, b)", S(["n", "m"], F32)))
    cs.append(error_case("outer", "rank", "outer needs 1-D operands.",
                         [("a", T((2, 2), F32)), ("b", T((2,), F32))], "R.outer(a, b)", "OpShapeMismatch"))
    cs += einsum_cases(rng)
    cs += linalg_dtype_cases()
    return cs


def linalg_dtype_cases():
    """outer in floats and einsum in integers: the other accumulation domain of each."""
    cs = []
    rng = rng_for("linalg-dtypes")
    f64 = lambda arr: np.asarray(arr, np.float64)
    u, v = floats(rng, (3,)), floats(rng, (2,))
    cs.append(value_case("outer", "float", "outer product of float32 vectors, each product rounded once.",
                         [("a", T((3,), F32)), ("b", T((2,), F32))], "R.outer(a, b)",
                         [tensor(u, F32), tensor(v, F32)], tensor(np.outer(f64(u), f64(v)), F32)))
    ia, ib = ints(rng, (2, 3)), ints(rng, (3, 2))
    cs.append(value_case("einsum", "int32", "einsum ij,jk->ik over int32 sums exactly in integers.",
                         [("a", T((2, 3), "int32")), ("b", T((3, 2), "int32"))], 'R.einsum((a, b), "ij,jk->ik")',
                         [tensor(ia, "int32"), tensor(ib, "int32")],
                         tensor(np.einsum("ij,jk->ik", ia.astype(np.int64), ib.astype(np.int64)), "int32")))
    big = np.array([[100, 100], [-100, 100]])
    cs.append(value_case("einsum", "int8-wraps", "einsum in int8 wraps its sums to the dtype: 100 * 100 * 2 "
                         "is 20000, which is 32 modulo 256.",
                         [("a", T((2, 2), "int8")), ("b", T((2, 2), "int8"))], 'R.einsum((a, b), "ij,jk->ik")',
                         [tensor(big, "int8"), tensor(big.T.copy(), "int8")],
                         tensor(np.vectorize(lambda e: g.wrap(e, "int8"))(np.einsum("ij,jk->ik", big, big.T)), "int8")))
    return cs


def einsum_cases(rng):
    cs = []
    forms = [("matmul", "ij,jk->ik", [(2, 3), (3, 4)]),
             ("transpose", "ij->ji", [(2, 3)]),
             ("trace", "ii->", [(3, 3)]),
             ("sum-axis", "ijk->ik", [(2, 3, 4)]),
             ("outer", "i,j->ij", [(3,), (2,)]),
             ("batch-matmul", "bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
             ("implicit", "ij,jk", [(2, 3), (3, 2)])]
    for name, sub, shapes in forms:
        ops = [floats(rng, s) for s in shapes]
        params = [("x%d" % i, T(s, F32)) for i, s in enumerate(shapes)]
        names = ", ".join(p[0] for p in params)
        tail = "," if len(params) == 1 else ""
        expected = np.einsum(sub, *[np.asarray(o, np.float64) for o in ops])
        cs.append(value_case("einsum", name, "einsum %s." % sub, params,
                             'R.einsum((%s%s), "%s")' % (names, tail, sub), [tensor(o, F32) for o in ops],
                             tensor(expected, F32)))
    cs.append(sinfo_case("einsum", "symbolic", "Label dims come from the operands.",
                         [("a", T(("n", "k"), F32)), ("b", T(("k", "m"), F32))], 'R.einsum((a, b), "ij,jk->ik")',
                         S(["n", "m"], F32)))
    cs += einsum_topi_cases()
    cs.append(error_case("einsum", "label-size", "A label bound to two different dims is an error.",
                         [("a", T((2, 3), F32)), ("b", T((4, 2), F32))], 'R.einsum((a, b), "ij,jk->ik")',
                         "OpShapeMismatch"))
    return cs


def einsum_topi(sub, *ops):
    """topi einsum (TVM v0.22 src/topi/einsum.cc): the equation read as FromString (spaces
    ignored, the implicit output the ellipsis then the labels used once, sorted), an ellipsis
    aligned from the right and broadcast as numpy broadcasts, each label's extent the
    broadcast of its dims (a dim of 1 indexes 0), the product of the operands summed over the
    labels the output leaves out; in float64, rounded once by the caller."""
    sub = sub.replace(" ", "")
    lhs, arrow, rhs = sub.partition("->")
    terms = lhs.split(",")
    width = max(o.ndim - len(t.replace("...", "")) for t, o in zip(terms, ops) if "..." in t) \
        if "..." in lhs else 0
    ell = [chr(1 + j) for j in range(width)]

    def expand(t, k):
        return t.replace("...", "".join(ell[width - k:])) if "..." in t else t
    if not arrow:
        once = sorted(c for c in set(lhs) if c.isalpha() and lhs.count(c) == 1)
        rhs = ("..." if "..." in lhs else "") + "".join(once)
    terms = [expand(t, o.ndim - len(t.replace("...", ""))) for t, o in zip(terms, ops)]
    out = expand(rhs, width)
    size = {}
    for t, o in zip(terms, ops):
        for c, d in zip(t, o.shape):
            size[c] = d if size.get(c, 1) == 1 else size[c]
    summed = sorted(set("".join(terms)) - set(out))
    result = np.zeros([size[c] for c in out], np.float64)
    for oi in np.ndindex(*[size[c] for c in out]):
        total = 0.0
        for ri in np.ndindex(*[size[c] for c in summed]):
            at = dict(zip(out, oi))
            at.update(zip(summed, ri))
            prod = 1.0
            for t, o in zip(terms, ops):
                prod *= float(o[tuple(at[c] if d != 1 else 0 for c, d in zip(t, o.shape))])
            total += prod
        result[oi] = total
    return result


def einsum_topi_cases():
    """Ellipses and broadcast labels, as topi einsum computes them (TVM v0.22)."""
    cs, rng = [], np.random.default_rng(2026)
    forms = [("broadcast-label", "ij, ij -> i", [(1, 4), (2, 4)],
              "a label of dim 1 broadcasts against 2 (TVM's own einsum test program)"),
             ("broadcast-label-later", "ij, ij -> ij", [(2, 3), (2, 1)],
              "the dim of 1 comes after the label's dim of 3, and broadcasts against it"),
             ("broadcast-label-three-operands", "ij, ij, ij -> j", [(1, 3), (2, 3), (1, 3)],
              "a label of dims 1, 2 and 1: the dim of 1 broadcasts before and after the 2"),
             ("ellipsis-batch", "...ij,...jk->...ik", [(2, 3, 4), (2, 4, 2)],
              "the ellipsis carries the batch dim"),
             ("ellipsis-implicit", "i...j", [(2, 3, 4)],
              "the implicit output puts the ellipsis first, then the labels"),
             ("ellipsis-broadcast", "a...,...->a...", [(3, 1, 2), (4, 2)],
              "ellipses of different widths broadcast from the right"),
             ("ellipsis-reduce", "i...->", [(2, 2, 3)], "an ellipsis left out of the output is summed")]
    for name, sub, shapes, why in forms:
        ops = [floats(rng, sh) for sh in shapes]
        params = [("x%d" % i, T(sh, F32)) for i, sh in enumerate(shapes)]
        names = ", ".join(p[0] for p in params)
        tail = "," if len(params) == 1 else ""
        expected = einsum_topi(sub, *[np.asarray(o, np.float64) for o in ops])
        cs.append(value_case("einsum", name, "einsum %s: %s." % (sub, why), params,
                             'R.einsum((%s%s), "%s")' % (names, tail, sub), [tensor(o, F32) for o in ops],
                             tensor(expected, F32)))
        if name == "ellipsis-reduce":
            # TVM v0.22's topi einsum makes the summed ellipsis axes int32 variables over int64
            # extents, and its build fails.
            cs[-1]["tags"] = ["tvm-bug", "tvm-einsum-ellipsis-reduce"]
    cs.append(sinfo_case("einsum", "symbolic-max", "Two symbolic dims of one label give their max.",
                         [("a", T(("n", 4), F32)), ("b", T(("m", 4), F32))], 'R.einsum((a, b), "ij,ij->i")',
                         S(["T.max(n, m)"], F32)))
    cs.append(sinfo_case("einsum", "symbolic-ellipsis", "A symbolic dim under an ellipsis.",
                         [("a", T(("n", 3, 4), F32)), ("b", T((4, 5), F32))], 'R.einsum((a, b), "...j,jk")',
                         S(["n", 3, 5], F32)))
    # TVM v0.22's inference returns the rank of the operand of unknown shape instead.
    cs.append(sinfo_case("einsum", "unknown-rank-operand", "An operand of unknown rank leaves the "
                         "result's dims unknown, its rank the explicit output's letters: 2.",
                         [("a", 'R.Tensor(dtype="float32")'), ("b", T((4, 5), F32))],
                         'R.einsum((a, b), "ij,jk->ik")', 'R.Tensor(ndim=2, dtype="float32")'))
    cs[-1]["tags"] = ["tvm-diverges"]
    cs.append(sinfo_case("einsum", "unknown-rank-ellipsis-output", "An operand of unknown rank "
                         "with an ellipsis in the output leaves the result's rank unknown too.",
                         [("a", 'R.Tensor(dtype="float32")')], 'R.einsum((a,), "...ij->...ji")',
                         'R.Tensor(dtype="float32")'))
    cs.append(error_case("einsum", "ellipsis-rank", "An operand of rank 2 cannot hold three labels and "
                         "an ellipsis.", [("a", T((2, 3), F32))], 'R.einsum((a,), "ij...k->")',
                         "OpShapeMismatch"))
    cs.append(error_case("einsum", "two-dots", "\"..\" is no ellipsis.", [("a", T((2, 3), F32))],
                         'R.einsum((a,), "i..j")', "OpAttr"))
    return cs


# ---- statistical ------------------------------------------------------------------------------

def tvm_reduce(x, axis, op, dtype):
    """topi's sum and prod (topi/reduction.h, comm_reducer): the reduce axis walked in index
    order, the running value kept in the tensor's dtype, so every step rounds; mean divides
    that sum by the element count converted to the dtype (legalize_ops/statistical.py
    _te_mean), variance is the mean of the squared deviations from that mean (_te_variance).
    numpy's float16 and float32 arithmetic rounds each operation correctly in the dtype."""
    x = np.asarray(x, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if op == "variance":
            mean = tvm_reduce(x, axis, "mean", dtype)
            dev = (x - np.expand_dims(mean, axis)).astype(dtype)
            return tvm_reduce((dev * dev).astype(dtype), axis, "mean", dtype)
        moved = np.moveaxis(x, axis, -1)
        acc = np.full(moved.shape[:-1], 1 if op == "prod" else 0, dtype)
        for k in range(moved.shape[-1]):
            acc = (acc * moved[..., k] if op == "prod" else acc + moved[..., k]).astype(dtype)
        if op == "mean":
            acc = (acc / np.asarray(moved.shape[-1], dtype)).astype(dtype)
        return acc


def accumulation_cases():
    """Reductions accumulate in the tensor's dtype as TVM computes them; bit for bit."""
    cs = []
    rows = np.array([[2048, 1, 1], [1, 1, 2048]])
    table = [
        ("sum", "f32-in-order", "float32 sums round at each step: 1e8 + 3 + 3 stays 1e8 (in "
         "double it would round to 100000008).", F32, [1e8, 3, 3], None),
        ("sum", "f16-in-order", "float16 sums round at each step, in index order: 2048 + 1 + 1 "
         "is 2048 but 1 + 1 + 2048 is 2050.", "float16", rows, 1),
        ("mean", "f16-in-order", "float16 mean is the float16 sum (2048, 2050) over 3.",
         "float16", rows, 1),
        ("prod", "f16-overflow", "float16 products overflow at the step that passes 65504: "
         "300 * 300 is inf before the 0.001.", "float16", [300, 300, 0.001], None),
        ("variance", "f16-steps", "float16 variance: the float16 mean, then the float16 mean "
         "of squared float16 deviations.", "float16", [300, 300, 0.001], None),
    ]
    for op, cid, desc, dt, data, axis in table:
        x = np.asarray(data, dt)
        expr = "R.%s(x%s)" % (op, ", axis=[%d]" % axis if axis is not None else "")
        want = tvm_reduce(x, axis if axis is not None else 0, op, dt)
        if axis is None:
            want = tvm_reduce(x.reshape(-1), 0, op, dt)
        c = value_case(op, cid, desc, [("x", T(x.shape, dt))], expr, [tensor(x, dt)],
                       tensor(want, dt))
        c["exact"] = True
        cs.append(c)
    # Integer sums of int8 and int16 wrap: LLVM's add carries no nsw flag below 32 bits in
    # TVM's codegen, so the overflow is defined (int32 and int64 overflow is not: 4.19).
    for dt, data in (("int8", [100, 100, 1]), ("int16", [30000, 30000, 7])):
        x = np.asarray(data, dt)
        with np.errstate(over="ignore"):
            want = tvm_reduce(x, 0, "sum", dt)
        cs.append(value_case("sum", "%s-wraps" % dt, "%s sums wrap modulo 2^%d at each step "
                             "(defined in TVM's lowering)." % (dt, np.dtype(dt).itemsize * 8),
                             [("x", T(x.shape, dt))], "R.sum(x)", [tensor(x, dt)], tensor(want, dt)))
    return cs


def reduce_cases():
    cs = []
    rng = rng_for("reduce")
    x = floats(rng, (2, 3, 4))
    xi = ints(rng, (2, 3))
    f64 = np.asarray(x, np.float64)
    table = [("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min), ("prod", np.prod),
             ("std", np.std), ("variance", np.var)]
    for op, fn in table:
        cs.append(value_case(op, "axis", "%s over axis 1." % op, [("x", T((2, 3, 4), F32))],
                             "R.%s(x, axis=[1])" % op, [tensor(x, F32)], tensor(fn(f64, axis=1), F32)))
        cs.append(value_case(op, "all-keepdims", "%s over every axis, keeping dims." % op,
                             [("x", T((2, 3, 4), F32))], "R.%s(x, keepdims=True)" % op, [tensor(x, F32)],
                             tensor(fn(f64, keepdims=True), F32)))
        exp_int = fn(xi.astype(np.float64), axis=(0, 1))
        cs.append(value_case(op, "int", "%s of int32 keeps int32 (mean/std/variance truncate)." % op,
                             [("x", T((2, 3), "int32"))], "R.%s(x, axis=[0, -1])" % op, [tensor(xi, "int32")],
                             tensor(np.trunc(exp_int), "int32")))
        if op in ("mean", "std", "variance"):
            # TVM v0.22's legalization (legalize_ops/statistical.py) returns int64 for mean and
            # variance of int32 (variance from the truncated mean) and float32 for std,
            # against the int32 its own inference gives: no defined result. The reference
            # keeps int32 and truncates the exact value.
            cs[-1]["result"] = "undefined"
            cs[-1]["spec"] = cs[-1]["spec"] + ["RESULT-3"]
            cs[-1]["tags"] = ["tvm-bug", "tvm-int-statistics"]
        cs.append(sinfo_case(op, "symbolic", "%s keeps the symbolic dims not reduced." % op,
                             [("x", T(("n", "m", 4), F32))], "R.%s(x, axis=[2], keepdims=False)" % op,
                             S(["n", "m"], F32)))
        cs.append(error_case(op, "bad-axis", "A repeated axis is an error.", [("x", T((2, 3), F32))],
                             "R.%s(x, axis=[1, -1])" % op, "OpAttr"))
    cs.append(value_case("sum", "empty", "The sum of an empty axis is 0. TVM v0.22's lowered loop "
                         "never writes such an output, so its result is whatever the memory held.",
                         [("x", T((2, 0), F32))],
                         "R.sum(x, axis=[1])", [tensor(np.zeros((2, 0)), F32)], tensor([0.0, 0.0], F32)))
    cs[-1]["tags"] = ["tvm-bug", "tvm-empty-reduction"]
    cs.append(value_case("prod", "empty", "The product of an empty axis is 1.", [("x", T((0,), "int32"))],
                         "R.prod(x)", [tensor(np.zeros((0,)), "int32")], tensor(1, "int32")))
    cs.append(error_case("max", "empty", "max of an empty axis stops evaluation.", [("x", T((0,), F32))],
                         "R.max(x)", "OpPrecondition", phase="runtime", args=[tensor(np.zeros((0,)), F32)]))
    # topi max/min reduce with tvm::max/min, select(a > b, a, b) in LLVM: TVM v0.22 gives 2.0
    # for [1, nan, 2] (the NaN is dropped by the next compare); numpy propagates NaN, as the
    # reference does. Implementation-defined.
    nan_max = value_case("max", "nan", "max over a NaN: NaN (the reference) or 2.0 (TVM's select).",
                         [("x", T((3,), F32))], "R.max(x)",
                         [tensor([1.0, float("nan"), 2.0], F32)], tensor(float("nan"), F32))
    nan_max["result"] = "implementation-defined"
    nan_max["value"] = g.Allowed(nan_max["value"], {0: [2.0]})
    nan_max["spec"] = nan_max["spec"] + ["RESULT-2"]
    cs.append(nan_max)
    nan_min = value_case("min", "nan", "min over a NaN: NaN (the reference) or 2.0 (TVM's select).",
                         [("x", T((3,), F32))], "R.min(x)",
                         [tensor([3.0, float("nan"), 2.0], F32)], tensor(float("nan"), F32))
    nan_min["result"] = "implementation-defined"
    nan_min["value"] = g.Allowed(nan_min["value"], {0: [2.0]})
    nan_min["spec"] = nan_min["spec"] + ["RESULT-2"]
    cs.append(nan_min)
    cs.append(value_case("sum", "inf", "+inf and -inf in a sum give NaN; a lone inf stays.",
                         [("x", T((2, 2), F32))], "R.sum(x, axis=[1])",
                         [tensor([[np.inf, -np.inf], [np.inf, 1.0]], F32)], tensor([np.nan, np.inf], F32)))
    cs.append(value_case("max", "inf", "max over -inf and +inf.", [("x", T((3,), F32))], "R.max(x)",
                         [tensor([-np.inf, 1.0, np.inf], F32)], tensor(np.inf, F32)))
    return cs


def scan_cases():
    cs = []
    rng = rng_for("scan")
    x = ints(rng, (2, 3), -3, 4)
    for op, fn, ident in (("cumsum", np.cumsum, 0), ("cumprod", np.cumprod, 1)):
        cs.append(value_case(op, "axis", "%s along axis 1." % op, [("x", T((2, 3), "int32"))],
                             "R.%s(x, axis=1)" % op, [tensor(x, "int32")], tensor(fn(x, axis=1), "int32")))
        cs.append(value_case(op, "flat-dtype", "axis=None scans the flattened tensor into dtype.",
                             [("x", T((2, 3), "int32"))], 'R.%s(x, dtype="float32")' % op,
                             [tensor(x, "int32")], tensor(fn(x.astype(np.float64)), F32)))
        inc = fn(x, axis=0)
        exc = np.concatenate([np.full((1, 3), ident), inc[:-1]], 0)
        cs.append(value_case(op, "exclusive", "exclusive=True shifts in the identity.",
                             [("x", T((2, 3), "int64"))], "R.%s(x, axis=0, exclusive=True)" % op,
                             [tensor(x, "int64")], tensor(exc, "int64")))
        cs.append(sinfo_case(op, "symbolic", "axis=None gives a 1-D result of the element count.",
                             [("x", T(("n", 3), F32))], "R.%s(x)" % op, S(["n * 3"], F32)))
        cs.append(error_case(op, "bad-axis", "The axis must be in range.", [("x", T((2, 3), F32))],
                             "R.%s(x, axis=2)" % op, "OpAttr"))
    return cs


def arg_cases():
    cs = []
    rng = rng_for("arg")
    x = ints(rng, (3, 4), 0, 3)
    for op, fn in (("argmax", np.argmax), ("argmin", np.argmin)):
        cs.append(value_case(op, "axis", "%s along axis 1; ties pick the first." % op,
                             [("x", T((3, 4), "int32"))], "R.%s(x, axis=1)" % op, [tensor(x, "int32")],
                             tensor(fn(x, axis=1), "int64")))
        cs.append(value_case(op, "flat-keepdims", "%s over the flattened tensor, keeping dims." % op,
                             [("x", T((3, 4), "int32"))], "R.%s(x, keepdims=True)" % op, [tensor(x, "int32")],
                             tensor(fn(x, keepdims=True), "int64")))
        # The reference (and numpy) count NaN as the extreme, the first winning: 1. TVM v0.22's
        # LLVM argmax/argmin reducer (topi reduction.h, select-based comparison) gives 3, the
        # last NaN; a NaN-ignoring implementation gives the extreme number's index.
        nan_case = value_case(op, "nan", "With NaN the index is implementation-defined: the "
                              "first NaN (the reference), the last (TVM v0.22) or the number's.",
                              [("x", T((4,), F32))], "R.%s(x)" % op,
                              [tensor([1.0, float("nan"), 3.0, float("nan")], F32)], tensor(1, "int64"))
        nan_case["result"] = "implementation-defined"
        nan_case["value"] = g.Allowed(nan_case["value"], {0: [3, 2 if op == "argmax" else 0]})
        nan_case["spec"] = nan_case["spec"] + ["RESULT-2"]
        cs.append(nan_case)
        cs.append(sinfo_case(op, "symbolic", "The result is int64 without the axis.",
                             [("x", T(("n", "m"), F32))], "R.%s(x, axis=0)" % op, S(["m"], "int64")))
        cs.append(error_case(op, "bad-axis", "The axis must be in range.", [("x", T((2, 3), F32))],
                             "R.%s(x, axis=-3)" % op, "OpAttr"))
    return cs


def in_file(name, cs):
    for c in cs:
        c["file"] = name
    return cs


def cases():
    """Every case, each tagged with its output file spec-tests/ops/<file>.yaml."""
    return (in_file("manip_create", creation_cases()) +
            in_file("manip_shape", reshape_cases() + permute_expand_squeeze_cases() + join_cases() +
                    broadcast_tile_cases()) +
            in_file("manip_index", index_cases()) +
            in_file("manip_linalg", linalg_cases()) +
            in_file("manip_stat", reduce_cases() + accumulation_cases() + scan_cases() + arg_cases()))


if __name__ == "__main__":
    import sys
    out = cases()
    ids = [c["id"] for c in out]
    assert len(ids) == len(set(ids)), "duplicate ids"
    sys.stdout.write("%d cases\n" % len(out))
