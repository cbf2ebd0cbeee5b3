"""Conformance cases of the collective communication operators (R.ccl.*).

StructInfo follows TVM v0.22's src/relax/op/ccl/ccl.cc and the constructors of
python/tvm/relax/op/ccl/ccl.py. Values follow SPEC_NOTES 4.23: the reference runs a disco
session of one worker, where allreduce (every op_type) and broadcast_from_worker0 give each
worker its own input, and allgather / scatter_from_worker0 with num_workers 1 are the
identity (CCL-2, CCL-3); a collective that needs more workers is a run-time error. The
oracle is therefore the input itself. `cases()` returns the cases of spec-tests/ops/ccl.yaml.
"""

import numpy as np
from ops_nn import ann, error_case, floats, ints, sinfo, sinfo_case, tensor, value_case

SEED = 20261126
FILE = "ccl"


def tagged(case, *tags):
    case["tags"] = list(tags)
    return case


def with_rule(case, rule, code=None):
    """A case that also names a CCL-* rule; a run-time error reported under it."""
    case["spec"].append(rule)
    if code is not None:
        case["error"]["code"] = code
        case["error"]["rule"] = rule
    return case


def allreduce_cases(rng):
    op, out = "ccl.allreduce", []
    x = floats(rng, (2, 3))
    p = [("x", ann((2, 3), "float32"))]
    for kind in ["sum", "prod", "min", "max", "avg"]:
        out.append(with_rule(value_case(
            op, kind, "allreduce with op_type %s over one worker is the input." % kind, p,
            'R.ccl.allreduce(x, "%s")' % kind, [tensor(x, "float32")], tensor(x, "float32")),
            "CCL-2"))
    i = ints(rng, (4,), -7, 8)
    out.append(with_rule(value_case(
        op, "int-avg", "allreduce avg of int32 over one worker is the input (nothing divides).",
        [("x", ann((4,), "int32"))], 'R.ccl.allreduce(x, op_type="avg", in_group=False)',
        [tensor(i, "int32")], tensor(i, "int32")), "CCL-1"))
    out[-1]["spec"].append("CCL-2")
    out.append(sinfo_case(op, "symbolic", "allreduce keeps its input's StructInfo.",
                          [("x", ann(("n", 4), "float16"))], "R.ccl.allreduce(x)",
                          sinfo(("n", 4), "float16")))
    out.append(with_rule(error_case(op, "bad-op-type", "allreduce knows sum, prod, min, max and "
                                    "avg only.", p, 'R.ccl.allreduce(x, "mean")', "OpAttr"),
                         "CCL-2"))
    out.append(error_case(op, "shape-arg", "allreduce of a shape is rejected (a tensor only).",
                          [("x", "R.Shape((2, 3))")], "R.ccl.allreduce(x)", "OpArgType"))
    return out


def allgather_cases(rng):
    op, out = "ccl.allgather", []
    x = floats(rng, (3, 2))
    out.append(with_rule(value_case(
        op, "one-worker", "allgather over num_workers 1 is the input.",
        [("x", ann((3, 2), "float32"))], "R.ccl.allgather(x, 1)", [tensor(x, "float32")],
        tensor(x, "float32")), "CCL-3"))
    out.append(sinfo_case(op, "dim0", "allgather multiplies dim 0 by num_workers.",
                          [("x", ann((10, "n"), "float32"))], "R.ccl.allgather(x, 2)",
                          sinfo((20, "n"), "float32")))
    out.append(sinfo_case(op, "symbolic-dim0", "allgather of a symbolic dim 0 gives n * 4.",
                          [("x", ann(("n", 3), "int8"))],
                          "R.ccl.allgather(x, num_workers=4, in_group=False)",
                          sinfo(("n * 4", 3), "int8")))
    out.append(sinfo_case(op, "rank-only", "allgather of a tensor of known rank only keeps it.",
                          [("x", 'R.Tensor(ndim=3, dtype="float32")')], "R.ccl.allgather(x, 2)",
                          sinfo(3, "float32")))
    out.append(error_case(op, "rank0", "allgather of a rank-0 tensor has no dim 0 to multiply.",
                          [("x", ann((), "float32"))], "R.ccl.allgather(x, 2)",
                          "OpShapeMismatch"))
    out.append(with_rule(tagged(error_case(
        op, "zero-workers", "allgather over zero workers is refused (TVM v0.22 infers a dim 0).",
        [("x", ann((3, 2), "float32"))], "R.ccl.allgather(x, 0)", "OpAttr"), "tvm-diverges"),
        "CCL-4"))
    out.append(with_rule(error_case(
        op, "two-workers", "allgather over 2 workers needs a session of 2; the reference runs one.",
        [("x", ann((3, 2), "float32"))], "R.ccl.allgather(x, 2)", "CclWorkers",
        [tensor(x, "float32")]), "CCL-3", "CclWorkers"))
    return out


def broadcast_cases(rng):
    op, out = "ccl.broadcast_from_worker0", []
    x = floats(rng, (2, 2, 2))
    out.append(with_rule(value_case(
        op, "float32", "broadcast_from_worker0 on the only worker, worker 0, is the input.",
        [("x", ann((2, 2, 2), "float32"))], "R.ccl.broadcast_from_worker0(x)",
        [tensor(x, "float32")], tensor(x, "float32")), "CCL-2"))
    i = ints(rng, (5,), -100, 100)
    out.append(with_rule(value_case(
        op, "int8", "broadcast_from_worker0 of an int8 tensor is the input.",
        [("x", ann((5,), "int8"))], "R.ccl.broadcast_from_worker0(x)", [tensor(i, "int8")],
        tensor(i, "int8")), "CCL-2"))
    out.append(sinfo_case(op, "symbolic", "broadcast_from_worker0 keeps its input's StructInfo.",
                          [("x", ann(("a", "b"), "float32"))], "R.ccl.broadcast_from_worker0(x)",
                          sinfo(("a", "b"), "float32")))
    out.append(error_case(op, "prim-arg", "broadcast_from_worker0 of a PrimValue is rejected.",
                          [("x", 'R.Prim("int64")')], "R.ccl.broadcast_from_worker0(x)",
                          "OpArgType"))
    return out


def scatter_cases(rng):
    op, out = "ccl.scatter_from_worker0", []
    x = floats(rng, (2, 4))
    p = [("x", ann((2, 4), "float32"))]
    out.append(with_rule(value_case(
        op, "one-worker", "scatter_from_worker0 into one part along axis 1 is the input.", p,
        "R.ccl.scatter_from_worker0(x, num_workers=1, axis=1)", [tensor(x, "float32")],
        tensor(x, "float32")), "CCL-3"))
    out.append(sinfo_case(op, "axis1", "scatter_from_worker0 divides axis 1 by num_workers.",
                          [("x", ann((10, 10), "float32"))],
                          "R.ccl.scatter_from_worker0(x, num_workers=2, axis=1)",
                          sinfo((10, 5), "float32")))
    out.append(sinfo_case(op, "default-axis", "scatter_from_worker0's axis defaults to 0.",
                          [("x", ann((12, "n"), "float32"))], "R.ccl.scatter_from_worker0(x, 3)",
                          sinfo((4, "n"), "float32")))
    out.append(sinfo_case(op, "symbolic", "scatter_from_worker0 of a symbolic axis divides it "
                          "(TIR Div, as TVM prints it).", [("x", ann((10, "n"), "float32"))],
                          "R.ccl.scatter_from_worker0(x, num_workers=2, axis=1)",
                          sinfo((10, "T.Div(n, 2)"), "float32")))
    out.append(error_case(op, "indivisible", "scatter_from_worker0 of 9 rows into 2 parts is "
                          "rejected.", [("x", ann((9, 10), "float32"))],
                          "R.ccl.scatter_from_worker0(x, 2)", "OpShapeMismatch"))
    out.append(error_case(op, "negative-axis", "scatter_from_worker0 takes no negative axis "
                          "(TVM indexes the shape with it).", [("x", ann((4, 4), "float32"))],
                          "R.ccl.scatter_from_worker0(x, 2, axis=-1)", "OpAttr"))
    out.append(error_case(op, "unknown-shape", "scatter_from_worker0 needs the input's shape.",
                          [("x", 'R.Tensor(ndim=2, dtype="float32")')],
                          "R.ccl.scatter_from_worker0(x, 2)", "OpShapeMismatch"))
    out.append(with_rule(error_case(
        op, "two-workers", "scatter_from_worker0 into 2 parts needs a session of 2 workers.", p,
        "R.ccl.scatter_from_worker0(x, 2)", "CclWorkers", [tensor(x, "float32")]),
        "CCL-3", "CclWorkers"))
    return out


def cases():
    rng = np.random.default_rng(SEED)
    out = allreduce_cases(rng) + allgather_cases(rng) + broadcast_cases(rng) + scatter_cases(rng)
    for c in out:
        c.setdefault("file", FILE)
        if "args" in c:
            # TVM v0.22's VM runs a collective only on a disco worker thread (4.23).
            c["tags"] = sorted(set(c.get("tags", []) + ["tvm-diverges"]))
    return out
