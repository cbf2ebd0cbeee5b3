"""Helpers for the creation, manipulation, linear algebra and statistical operator cases:
program text, argument values and numpy expectations (numpy is the oracle)."""

import numpy as np

import gen_ops

FLOAT_DTYPES = ("float16", "float32", "float64")


def np_dtype(dtype):
    return np.dtype("bool" if dtype == "bool" else dtype)


def rounded(arr, dtype):
    """The array as the dtype holds it (floats rounded once, ints wrapped)."""
    a = np.asarray(arr)
    if dtype in FLOAT_DTYPES:
        return a.astype(np.float64).astype(np_dtype(dtype))
    if dtype == "bool":
        return a.astype(bool)
    return a.astype(np.int64).astype(np_dtype(dtype))


def data_of(arr, dtype):
    a = rounded(arr, dtype)
    if dtype in FLOAT_DTYPES:
        return a.astype(np.float64).tolist()
    if dtype == "bool":
        return a.tolist()
    return a.astype(np.int64).tolist()


def tensor(arr, dtype):
    """A tensor value: a numpy array of the dtype (the driver writes its dtype and data)."""
    return np.array(rounded(arr, dtype))


def prim(value, dtype="int64"):
    return gen_ops.Prim(dtype, value)


def tuple_value(items):
    return gen_ops.Tup(items)


def ints(rng, shape, lo=-5, hi=6):
    return rng.integers(lo, hi, size=shape)


def floats(rng, shape, dtype="float32"):
    """Values exact in the dtype: multiples of 1/8 in [-4, 4)."""
    return rounded(rng.integers(-32, 32, size=shape) / 8.0, dtype)


def program(params, expr, pre=()):
    """A lone @R.function main(params) binding y = expr and returning y."""
    sig = ", ".join("%s: %s" % p for p in params)
    lines = ["@R.function", "def main(%s):" % sig]
    lines += ["    " + line for line in pre]
    lines += ["    y = " + expr, "    return y", ""]
    return "\n".join(lines)


def tensor_ann(shape, dtype):
    dims = ", ".join('"%s"' % d if isinstance(d, str) else str(d) for d in shape)
    if len(shape) == 1:
        dims += ","
    return 'R.Tensor((%s), "%s")' % (dims, dtype)


def sinfo_text(shape, dtype):
    """Canonical TVMScript text of a TensorStructInfo (shape None: rank only)."""
    if isinstance(shape, int):
        if shape < 0:
            return 'R.Tensor(dtype="%s")' % dtype
        return 'R.Tensor(dtype="%s", ndim=%d)' % (dtype, shape)
    dims = ", ".join(str(d) for d in shape)
    if len(shape) == 1:
        dims += ","
    return 'R.Tensor((%s), dtype="%s")' % (dims, dtype)


def rule(op):
    return "OP-" + op


def value_case(op, cid, desc, params, expr, args, expected, pre=(), tolerance=None):
    case = {
        "id": "%s-%s" % (op, cid),
        "description": desc,
        "spec": [rule(op)],
        "program": program(params, expr, pre),
        "args": list(args),
        "value": expected,
    }
    if tolerance:
        case["tolerance"] = tolerance
    return case


def sinfo_case(op, cid, desc, params, expr, sinfo, pre=()):
    return {
        "id": "%s-%s" % (op, cid),
        "description": desc,
        "spec": [rule(op)],
        "program": program(params, expr, pre),
        "struct_info": {"y": sinfo},
    }


def error_case(op, cid, desc, params, expr, code, phase="struct_info", pre=(), args=None):
    case = {
        "id": "%s-%s" % (op, cid),
        "description": desc,
        "spec": [rule(op)],
        "program": program(params, expr, pre),
        "error": {"phase": phase, "code": code, "rule": rule(op)},
    }
    if args is not None:
        case["args"] = list(args)
    return case
