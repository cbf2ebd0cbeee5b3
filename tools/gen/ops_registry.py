"""Cases for the operator registry itself: unknown operators and the binding of an
operator call's arguments to the operator's signature."""

import numpy as np

ADD_PROGRAM = """@R.function
def main(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")):
    r = %s
    return r
"""


def case(cid, desc, spec, expr, **expect):
    c = {"id": cid, "description": desc, "spec": spec, "program": ADD_PROGRAM % expr}
    c.update(expect)
    return c


def cases():
    return [
        case("unknown-operator", "An operator the registry does not know is UnknownOp.",
             ["OP-REGISTRY"], "R.no_such_operator(x, y)",
             error={"phase": "struct_info", "code": "UnknownOp", "rule": "OP-REGISTRY"}),
        case("unknown-nn-operator", "R.nn.<name> outside the registry is UnknownOp too.",
             ["OP-REGISTRY"], "R.nn.no_such_operator(x)",
             error={"phase": "struct_info", "code": "UnknownOp", "rule": "OP-REGISTRY"}),
        case("keyword-arguments", "Arguments bind by keyword as in Python.",
             ["OP-REGISTRY", "TS-8"], "R.subtract(x2=y, x1=x)",
             args=[np.array([5.0, 1.5], dtype="float32"), np.array([2.0, 4.0], dtype="float32")],
             value=np.array([3.0, -2.5], dtype="float32")),
        case("unknown-keyword", "A keyword the operator does not take is a parse error.",
             ["OP-REGISTRY", "TS-8"], "R.add(x, y, alpha=2)",
             error={"phase": "parse", "code": "UnknownKeyword", "rule": "TS-8"}),
        case("too-many-arguments", "More positional arguments than parameters.",
             ["OP-REGISTRY", "TS-8"], "R.add(x, y, x)",
             error={"phase": "parse", "code": "BadArguments", "rule": "TS-8"}),
        case("missing-argument", "A required argument left out.",
             ["OP-REGISTRY", "TS-8"], "R.add(x)",
             error={"phase": "parse", "code": "BadArguments", "rule": "TS-8"}),
        case("argument-twice", "An argument given by position and by keyword.",
             ["OP-REGISTRY", "TS-8"], "R.add(x, x1=y)",
             error={"phase": "parse", "code": "BadArguments", "rule": "TS-8"}),
    ]
