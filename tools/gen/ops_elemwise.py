"""Cases for the elementwise operators (binary broadcasting, unary, clip).

Expected values come from numpy: floats are computed in float64 from the (already rounded)
inputs and rounded once to the dtype, the reference's rule; integers with Python integers
and wrapped to the dtype.
"""

import math

import numpy as np

import gen_ops as g

# name -> operand class: arith (any dtype), float (float only), cmp (any, gives bool),
# logical (bool), bitwise (int or bool), shift (int).
BINARY = [
    ("add", "arith"), ("subtract", "arith"), ("multiply", "arith"), ("divide", "arith"),
    ("floor_divide", "arith"), ("power", "arith"), ("mod", "arith"), ("floor_mod", "arith"),
    ("log_add_exp", "float"), ("maximum", "arith"), ("minimum", "arith"),
    ("equal", "cmp"), ("not_equal", "cmp"), ("less", "cmp"), ("less_equal", "cmp"),
    ("greater", "cmp"), ("greater_equal", "cmp"),
    ("logical_and", "logical"), ("logical_or", "logical"), ("logical_xor", "logical"),
    ("bitwise_and", "bitwise"), ("bitwise_or", "bitwise"), ("bitwise_xor", "bitwise"),
    ("left_shift", "shift"), ("right_shift", "shift"),
]

# name -> (operand class, float domain for the random inputs)
UNARY = [
    ("abs", "any", None), ("negative", "any", None), ("exp", "float", None),
    ("log", "float", "pos"), ("sqrt", "float", "pos"), ("rsqrt", "float", "pos"),
    ("sin", "float", None), ("cos", "float", None), ("tan", "float", "unit"),
    ("sinh", "float", None), ("cosh", "float", None), ("tanh", "float", None),
    ("asin", "float", "unit"), ("acos", "float", "unit"), ("atan", "float", None),
    ("asinh", "float", None), ("acosh", "float", "ge1"), ("atanh", "float", "unit"),
    ("sigmoid", "float", None), ("square", "any", None), ("floor", "any", None),
    ("ceil", "any", None), ("round", "any", "halves"), ("trunc", "any", None),
    ("sign", "any", None), ("erf", "float", None), ("isnan", "check", None),
    ("isinf", "check", None), ("isfinite", "check", None), ("logical_not", "bool", None),
    ("bitwise_not", "bitwise", None),
]

CMP = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def rule(name):
    return "OP-" + name


def tensor_ann(shape, dtype):
    dims = ", ".join(str(d) if isinstance(d, int) else '"%s"' % d for d in shape)
    if len(shape) == 1:
        dims += ","
    return 'R.Tensor((%s), "%s")' % (dims, dtype)


def sinfo_text(shape, dtype):
    dims = ", ".join(str(d) for d in shape)
    if len(shape) == 1:
        dims += ","
    return 'R.Tensor((%s), dtype="%s")' % (dims, dtype)


def program(params, body, ret=None):
    sig = ", ".join("%s: %s" % p for p in params)
    head = "def main(%s)%s:" % (sig, " -> " + ret if ret else "")
    lines = ["@R.function", head] + ["    " + line for line in body]
    return "\n".join(lines) + "\n"


# ---- oracles ---------------------------------------------------------------------------


def is_float(dtype):
    return dtype.startswith("float")


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trunc_mod(a, b):
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def shift_left(a, b, bits):
    return a << b if 0 <= b < bits else 0


def shift_right(a, b, bits):
    if 0 <= b < bits:
        return a >> b
    return -1 if a < 0 else 0


INT_BINARY = {
    "add": lambda a, b, n: a + b,
    "subtract": lambda a, b, n: a - b,
    "multiply": lambda a, b, n: a * b,
    "divide": lambda a, b, n: trunc_div(a, b),
    "floor_divide": lambda a, b, n: a // b,
    "power": lambda a, b, n: a ** b,
    "mod": lambda a, b, n: trunc_mod(a, b),
    "floor_mod": lambda a, b, n: a % b,
    "maximum": lambda a, b, n: max(a, b),
    "minimum": lambda a, b, n: min(a, b),
    "bitwise_and": lambda a, b, n: a & b,
    "bitwise_or": lambda a, b, n: a | b,
    "bitwise_xor": lambda a, b, n: a ^ b,
    "left_shift": lambda a, b, n: shift_left(a, b, n),
    "right_shift": lambda a, b, n: shift_right(a, b, n),
}

FLOAT_BINARY = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "power": np.power,
    "mod": np.fmod,
    # include/tvm/topi/broadcast.h maximum/minimum: tvm::max/min, lowered by LLVM to
    # select(a > b, a, b) / select(a < b, a, b): a NaN operand yields b.
    "maximum": lambda a, b: np.where(a > b, a, b),
    "minimum": lambda a, b: np.where(a < b, a, b),
}


def float_floor_divide(a, b, dtype):
    """include/tvm/topi/broadcast.h floor_divide on floats: floor(a / b), the quotient rounded
    to the dtype first (src/tir/transforms/lower_intrin.cc lowers floordiv so)."""
    return np.floor((a / b).astype(dtype).astype(np.float64))


def float_floor_mod(a, b, dtype):
    """include/tvm/topi/broadcast.h floor_mod on floats: a - floor_divide(a, b) * b, the
    product rounded to the dtype before the subtraction."""
    return a - (float_floor_divide(a, b, dtype) * b).astype(dtype).astype(np.float64)


def float_log_add_exp(a, b, dtype):
    """src/tir/op/op.cc logaddexp (topi log_add_exp): log(exp(a) + exp(b)), each step in the
    dtype, with no rescaling: exp overflows to inf (float32 above about 88.7) and underflows
    to 0, so the result is inf or -inf where numpy's logaddexp stays finite."""
    ea = np.exp(a).astype(dtype).astype(np.float64)
    eb = np.exp(b).astype(dtype).astype(np.float64)
    return np.log((ea + eb).astype(dtype).astype(np.float64))


FLOAT_BINARY_DT = {"floor_divide": float_floor_divide, "floor_mod": float_floor_mod,
                   "log_add_exp": float_log_add_exp}

CMP_FN = {
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}


def binary_oracle(name, a, b):
    dtype = str(a.dtype)
    a, b = np.broadcast_arrays(a, b)
    if name == "not_equal" and is_float(dtype):
        return (a < b) | (a > b)  # LLVM's ordered `fcmp one`: false with a NaN operand
    if name in CMP_FN:
        return CMP_FN[name](a, b)
    if is_float(dtype):
        with np.errstate(all="ignore"):
            fa, fb = a.astype(np.float64), b.astype(np.float64)
            if name in FLOAT_BINARY_DT:
                r = FLOAT_BINARY_DT[name](fa, fb, dtype)
            else:
                r = FLOAT_BINARY[name](fa, fb)
        return np.asarray(r).astype(dtype)
    if dtype == "bool":
        r = [bool(INT_BINARY[name](int(x), int(y), 1)) for x, y in zip(a.flat, b.flat)]
        return np.array(r, dtype=bool).reshape(a.shape)
    bits = g.INT_RANGES[dtype]
    r = [g.wrap(INT_BINARY[name](int(x), int(y), bits), dtype) for x, y in zip(a.flat, b.flat)]
    return np.array(r, dtype=dtype).reshape(a.shape)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


FLOAT_UNARY = {
    "abs": np.abs, "negative": np.negative, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x), "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
    "atanh": np.arctanh, "sigmoid": sigmoid, "square": np.square, "floor": np.floor,
    "ceil": np.ceil, "round": np.round, "trunc": np.trunc, "sign": np.sign,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
}

INT_UNARY = {
    "abs": abs, "negative": lambda x: -x, "square": lambda x: x * x, "floor": lambda x: x,
    "ceil": lambda x: x, "round": lambda x: x, "trunc": lambda x: x,
    "sign": lambda x: (x > 0) - (x < 0), "bitwise_not": lambda x: ~x,
}


def unary_oracle(name, x):
    dtype = str(x.dtype)
    if name in ("isnan", "isinf", "isfinite"):
        if not is_float(dtype):
            return np.full(x.shape, name == "isfinite", dtype=bool)
        return getattr(np, name)(x)
    if name == "logical_not":
        return np.logical_not(x)
    if is_float(dtype):
        with np.errstate(all="ignore"):
            return np.asarray(FLOAT_UNARY[name](x.astype(np.float64))).astype(dtype)
    if dtype == "bool":
        return np.logical_not(x)
    r = [g.wrap(INT_UNARY[name](int(v)), dtype) for v in x.flat]
    return np.array(r, dtype=dtype).reshape(x.shape)


# ---- inputs ----------------------------------------------------------------------------


def rand(rng, shape, dtype, domain=None):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if not is_float(dtype):
        lo, hi = (-20, 21) if dtype.startswith("int") else (0, 41)
        return rng.integers(lo, hi, size=shape).astype(dtype)
    if domain == "pos":
        v = rng.uniform(0.1, 5.0, size=shape)
    elif domain == "unit":
        v = rng.uniform(-0.95, 0.95, size=shape)
    elif domain == "ge1":
        v = rng.uniform(1.0, 5.0, size=shape)
    elif domain == "halves":
        v = rng.integers(-8, 8, size=shape) + 0.5
    else:
        v = rng.uniform(-3.0, 3.0, size=shape)
    return np.round(v, 3).astype(dtype)


def nonzero(rng, shape, dtype):
    v = rand(rng, shape, dtype)
    return np.where(v == 0, np.ones_like(v), v)


# ---- binary cases ----------------------------------------------------------------------


def binary_value_case(name, cid, a, b, desc, tags=None):
    out = binary_oracle(name, a, b)
    da, db, do = str(a.dtype), str(b.dtype), str(out.dtype)
    params = [("x1", tensor_ann(a.shape, da)), ("x2", tensor_ann(b.shape, db))]
    case = {
        "file": "elemwise_binary", "id": cid, "description": desc, "spec": [rule(name)],
        "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"],
                           tensor_ann(out.shape, do)),
        "args": [a, b], "value": out,
    }
    if tags:
        case["tags"] = tags
    return case


def primary_dtype(kind):
    return {"logical": "bool", "bitwise": "int32", "shift": "int32"}.get(kind, "float32")


def binary_inputs(rng, name, kind, dtype, sa, sb):
    a = rand(rng, sa, dtype)
    if kind == "shift":
        return a, rng.integers(0, 8, size=sb).astype(dtype)
    if name == "power" and is_float(dtype):
        return np.abs(a) + np.asarray(0.5, dtype=dtype), rand(rng, sb, dtype)
    if name == "power":
        return rand(rng, sa, dtype) % 7 - 3, rng.integers(0, 5, size=sb).astype(dtype)
    if name in ("divide", "floor_divide", "mod", "floor_mod"):
        return a, nonzero(rng, sb, dtype)
    return a, rand(rng, sb, dtype)


def second_dtype(kind):
    return {"arith": "int32", "float": "float64", "cmp": "int64", "logical": None,
            "bitwise": "uint8", "shift": "int8"}[kind]


def binary_symbolic_case(name, kind):
    dtype = primary_dtype(kind)
    out = "bool" if name in CMP_FN else dtype
    params = [("x1", tensor_ann(("n", 3), dtype)), ("x2", tensor_ann((1, 3), dtype))]
    return {
        "file": "elemwise_binary", "id": "%s-symbolic" % name,
        "description": "R.%s of (n, 3) and (1, 3) broadcasts to (n, 3)." % name,
        "spec": [rule(name)], "tags": ["symbolic"],
        "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
        "struct_info": {"r": sinfo_text(("n", 3), out)},
    }


def binary_symbolic_run(rng, name, kind):
    dtype = primary_dtype(kind)
    a, b = binary_inputs(rng, name, kind, dtype, (2, 3), (3,))
    out = binary_oracle(name, a, b)
    params = [("x1", tensor_ann(("n", 3), dtype)), ("x2", tensor_ann((3,), dtype))]
    return {
        "file": "elemwise_binary", "id": "%s-symbolic-run" % name,
        "description": "R.%s on a (n, 3) parameter called with n = 2." % name,
        "spec": [rule(name)], "tags": ["symbolic"],
        "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
        "args": [a, b], "value": out,
    }


def binary_error_cases(name, kind):
    dtype = primary_dtype(kind)
    other = "int32" if dtype != "int32" else "int64"
    first = dtype
    if dtype == "bool":  # a bool beside another dtype is accepted (bool_mix_cases)
        first, other = "int32", "int64"
    params = [("x1", tensor_ann((2, 3), first)), ("x2", tensor_ann((3,), other))]
    cases = [{
        "file": "elemwise_binary", "id": "%s-dtype-mismatch" % name,
        "description": "R.%s of %s and %s operands is a dtype error." % (name, first, other),
        "spec": [rule(name)],
        "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
        "error": {"phase": "struct_info", "code": "OpDTypeMismatch", "rule": rule(name)},
    }]
    params = [("x1", tensor_ann((2, 3), dtype)), ("x2", tensor_ann((4,), dtype))]
    cases.append({
        "file": "elemwise_binary", "id": "%s-shape-mismatch" % name,
        "description": "R.%s of shapes (2, 3) and (4,) does not broadcast." % name,
        "spec": [rule(name)],
        "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
        "error": {"phase": "struct_info", "code": "OpShapeMismatch", "rule": rule(name)},
    })
    wrong = {"logical": "int32", "bitwise": "float32", "shift": "bool", "float": "int32"}
    if kind in wrong:
        w = wrong[kind]
        params = [("x1", tensor_ann((2,), w)), ("x2", tensor_ann((2,), w))]
        cases.append({
            "file": "elemwise_binary", "id": "%s-dtype-class" % name,
            "description": "R.%s does not take %s operands." % (name, w),
            "spec": [rule(name)],
            "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
            "error": {"phase": "struct_info", "code": "OpDTypeMismatch", "rule": rule(name)},
        })
    return cases


def binary_cases_for(rng, name, kind):
    dtype = primary_dtype(kind)
    a, b = binary_inputs(rng, name, kind, dtype, (2, 3), (3,))
    cases = [binary_value_case(name, "%s-%s-broadcast" % (name, dtype), a, b,
                               "R.%s of %s (2, 3) and (3,) broadcasts the row." % (name, dtype))]
    d2 = second_dtype(kind)
    if d2 is not None:
        a, b = binary_inputs(rng, name, kind, d2, (3, 1), (1, 4))
        cases.append(binary_value_case(name, "%s-%s-outer" % (name, d2), a, b,
                                       "R.%s of %s (3, 1) and (1, 4) broadcasts both." % (name, d2)))
    cases.append(binary_symbolic_case(name, kind))
    cases.append(binary_symbolic_run(rng, name, kind))
    cases.extend(binary_error_cases(name, kind))
    return cases


def int_semantics_cases():
    """Division, modulo and shifts on negative, zero and out-of-range operands."""
    cases = []
    a = np.array([7, -7, 7, -7, -128, 5], dtype="int8")
    b = np.array([2, 2, -2, -2, -1, 3], dtype="int8")
    for name in ("divide", "floor_divide", "mod", "floor_mod"):
        case = binary_value_case(
            name, "%s-int8-signs" % name, a, b,
            "R.%s on int8 with every sign combination, and -128 / -1 wrapping." % name,
            ["int-semantics"])
        # LLVM's sdiv/srem of INT_MIN by -1 is undefined behaviour (TVM v0.22 lowers integer
        # division to them, src/target/llvm/codegen_llvm.cc); the reference wraps.
        case["result"] = "undefined"
        case["spec"] = case["spec"] + ["RESULT-1", "RESULT-3"]
        cases.append(case)
        za = np.array([1, 2], dtype="int32")
        zb = np.array([1, 0], dtype="int32")
        params = [("x1", tensor_ann((2,), "int32")), ("x2", tensor_ann((2,), "int32"))]
        cases.append({
            "file": "elemwise_binary", "id": "%s-int-by-zero" % name,
            "description": "Integer R.%s by zero stops with OpPrecondition." % name,
            "spec": [rule(name)], "tags": ["int-semantics"],
            "program": program(params, ["r = R.%s(x1, x2)" % name, "return r"]),
            "args": [za, zb],
            "error": {"phase": "runtime", "code": "OpPrecondition", "rule": rule(name)},
        })
    x = np.array([1, -1, 3, -128, 64, 1], dtype="int8")
    s = np.array([7, 1, 8, 1, 9, -1], dtype="int8")
    for name in ("left_shift", "right_shift"):
        case = binary_value_case(
            name, "%s-int8-range" % name, x, s,
            "R.%s on int8 with counts 8, 9 and -1 outside [0, 8)." % name, ["int-semantics"])
        # LLVM's shl/ashr by the bit width or more, or by a negative count, is poison
        # (topi left_shift/right_shift lower to them); the reference shifts every bit out.
        case["result"] = "undefined"
        case["spec"] = case["spec"] + ["RESULT-1", "RESULT-3"]
        cases.append(case)
    cases.extend(undefined_int_cases())
    u = np.array([200, 255, 1], dtype="uint8")
    v = np.array([100, 1, 2], dtype="uint8")
    for name in ("add", "subtract", "multiply"):
        cases.append(binary_value_case(name, "%s-uint8-wrap" % name, u, v,
                                       "R.%s on uint8 wraps modulo 256." % name,
                                       ["int-semantics"]))
    f = np.array([1.0, np.nan, -np.inf, 0.0], dtype="float32")
    h = np.array([np.nan, 2.0, 1.0, -0.0], dtype="float32")
    for name in ("equal", "less", "divide"):
        cases.append(binary_value_case(name, "%s-float32-special" % name, f, h,
                                       "R.%s with NaN, infinity and signed zero." % name,
                                       ["ieee"]))
    cases.extend(nan_select_cases(f, h))
    cases.extend(bool_mix_cases())
    big = np.array([100.0, -200.0, 1.0, 88.0], dtype="float32")
    cases.append(binary_value_case(
        "log_add_exp", "log_add_exp-float32-overflow", big, big,
        "R.log_add_exp is log(exp(a) + exp(b)) in float32 as TVM lowers it: exp(100) overflows "
        "to inf and exp(-200) underflows to 0, giving inf and -inf where a rescaled formula "
        "gives 100.69 and -199.31.", ["ieee"]))
    cases.extend(float_floor_cases())
    cases.extend(float16_tolerance_cases())
    return cases


def bool_mix_cases():
    """src/relax/op/op_common.h InferBinaryArithOpOutDtype: a bool operand is accepted beside
    any dtype and the result takes the left operand's; the bool is cast to the other dtype
    (TIR BinaryOpMatchTypes). With a bool on the left TVM v0.22 computes in the other dtype
    against its own bool StructInfo: undefined, the reference converts the value to bool."""
    cases = []
    x = np.array([1.5, -2.0, 0.25], dtype="float32")
    y = np.array([True, False, True])
    z = np.array([4, 5, -6], dtype="int32")
    cases.append(binary_value_case("add", "add-float32-bool", x, y,
                                   "float32 + bool: the bool counts as 0 or 1, the result is "
                                   "float32.", ["bool-mix"]))
    cases.append(binary_value_case("multiply", "multiply-int32-bool", z, y,
                                   "int32 * bool keeps int32.", ["bool-mix"]))
    cases.append(binary_value_case("less", "less-float32-bool", x, y,
                                   "float32 < bool compares with the bool as 0 or 1.",
                                   ["bool-mix"]))
    params = [("x1", tensor_ann((3,), "bool")), ("x2", tensor_ann((3,), "float32"))]
    cases.append({
        "file": "elemwise_binary", "id": "add-bool-float32",
        "description": "bool + float32 is bool by TVM's inference, but TVM v0.22 computes "
                       "float32 values; the reference converts the sum to bool.",
        "spec": [rule("add"), "RESULT-1", "RESULT-3"], "tags": ["bool-mix", "tvm-bug"],
        "program": program(params, ["r = R.add(x1, x2)", "return r"],
                           tensor_ann((3,), "bool")),
        "args": [y, x], "value": (y.astype(np.float64) + x.astype(np.float64)) != 0,
        "result": "undefined",
    })
    return cases


def undefined_int_cases():
    """RESULT-3: results TVM v0.22 leaves undefined, with the reference's documented answer:
    int32/int64 add/subtract/multiply overflow (codegen_llvm.cc emits `add nsw` for signed
    integers of 32 bits or more; int8/int16 and unsigned types below 32 bits wrap, defined),
    int32 shifts by 32 or more."""
    cases = []
    big = np.array([2147483647, -2147483648, 5], dtype="int32")
    one = np.array([1, 1, 1], dtype="int32")
    case = binary_value_case("add", "add-int32-overflow", big, one,
                             "int32 overflow is undefined in TVM (nsw); the reference wraps.",
                             ["int-semantics"])
    case["result"] = "undefined"
    case["spec"] = case["spec"] + ["RESULT-1", "RESULT-3"]
    cases.append(case)
    small = np.array([200, -1, 7], dtype="int16")
    cases.append(binary_value_case("multiply", "multiply-int16-wrap", small, small,
                                   "int16 multiply wraps: defined, LLVM's plain mul below 32 "
                                   "bits.", ["int-semantics"]))
    x = np.array([1, -8, 3], dtype="int32")
    n = np.array([32, 33, 31], dtype="int32")
    for name in ("left_shift", "right_shift"):
        case = binary_value_case(name, "%s-int32-by-32" % name, x, n,
                                 "int32 R.%s by 32 or more is poison in LLVM; the reference "
                                 "shifts every bit out." % name, ["int-semantics"])
        case["result"] = "undefined"
        case["spec"] = case["spec"] + ["RESULT-1", "RESULT-3"]
        cases.append(case)
    return cases


def nan_select_cases(f, h):
    """RESULT-2: where an operand is NaN, maximum/minimum/not_equal are implementation-defined:
    TVM v0.22's LLVM lowering gives the select's b (and false for not_equal); CUDA's fmaxf or
    IEEE's maxNum give the other operand, numpy gives NaN (and true)."""
    cases = []
    nan_at = [i for i in range(f.size) if np.isnan(f[i]) or np.isnan(h[i])]
    for name in ("maximum", "minimum", "not_equal"):
        case = binary_value_case(name, "%s-float32-special" % name, f, h,
                                 "R.%s with NaN, infinity and signed zero; where an operand is "
                                 "NaN the result is implementation-defined." % name,
                                 ["ieee", "nan"])
        out = case["value"]
        alts = {}
        for i in nan_at:
            if name == "not_equal":
                alts[i] = [True]
            else:
                other = [v for v in (f[i], h[i], np.float32(np.nan)) if
                         not (np.isnan(v) and np.isnan(out[i])) and v != out[i]]
                alts[i] = sorted(set(float(v) for v in other if not np.isnan(v))) + (
                    [float("nan")] if not np.isnan(out[i]) else [])
        case["value"] = g.Allowed(out, alts)
        case["result"] = "implementation-defined"
        case["spec"] = case["spec"] + ["RESULT-1", "RESULT-2"]
        cases.append(case)
    return cases


def float16_tolerance_cases():
    """TOL-1: float16 sigmoid as TVM's topi computes it, 1 / (1 + exp(-x)) with every step
    rounded to float16 (include/tvm/topi/elemwise.h, sigmoid); a once-rounded result differs
    from it by an ulp in places, inside float16's default tolerance (rtol 1e-3)."""
    x = np.array([-3.0, -1.3, -0.7, 0.1, 0.9, 1.7, 2.2, 4.1], dtype="float16")
    h = np.float16
    e = np.exp(-x.astype(np.float64)).astype(h)
    d = (h(1) + e).astype(h)
    out = (h(1) / d).astype(h)
    once = (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(h)
    assert (out != once).any(), "the case must show a stepwise/once-rounded difference"
    case = unary_value_case("sigmoid", "sigmoid-float16-stepwise", x,
                            "float16 sigmoid computed step by step in float16 (TVM's "
                            "lowering) is within float16's default tolerance.", ["tolerance"])
    case["value"] = out
    case["spec"] = case["spec"] + ["TOL-1"]
    return [case]


def float_floor_cases():
    """float32 floor_divide/floor_mod follow TVM's formula with the quotient rounded to
    float32: 1 // 0.1 is 10 (numpy, dividing in double, says 9)."""
    a = np.array([1.0, 1.0, -1.0, 7.5], dtype="float32")
    b = np.array([0.1, 0.3, 0.1, -2.0], dtype="float32")
    return [binary_value_case(name, "%s-float32-rounded-quotient" % name, a, b,
                              "float32 R.%s rounds the quotient to float32 before floor, as "
                              "TVM's lowering does." % name, ["tvm-lowering"])
            for name in ("floor_divide", "floor_mod")]


def prim_cases():
    cases = []
    for name, dtype, x, y, expect in [("add", "int64", 3, 4, 7), ("multiply", "int64", -3, 5, -15),
                                      ("floor_divide", "int64", -7, 2, -4)]:
        params = [("p", 'R.Prim("%s")' % dtype), ("q", 'R.Prim("%s")' % dtype)]
        cases.append({
            "file": "elemwise_binary", "id": "%s-prim-prim" % name,
            "description": "R.%s of two PrimValues is a PrimValue." % name,
            "spec": [rule(name)], "tags": ["prim"],
            "program": program(params, ["r = R.%s(p, q)" % name, "return r"],
                               'R.Prim("%s")' % dtype),
            "args": [g.Prim(dtype, x), g.Prim(dtype, y)], "value": g.Prim(dtype, expect),
        })
        cases.append({
            "file": "elemwise_binary", "id": "%s-prim-prim-sinfo" % name,
            "description": "R.%s of two PrimValues derives R.Prim." % name,
            "spec": [rule(name)], "tags": ["prim"],
            "program": program(params, ["r = R.%s(p, q)" % name, "return r"]),
            "struct_info": {"r": 'R.Prim("%s")' % dtype},
        })
    x = np.array([[1.5, -2.0, 0.25], [3.0, 4.5, -1.0]], dtype="float32")
    params = [("x", tensor_ann((2, 3), "float32")), ("p", 'R.Prim("float32")')]
    cases.append({
        "file": "elemwise_binary", "id": "multiply-tensor-prim",
        "description": "R.multiply of a tensor and a PrimValue scales every element.",
        "spec": [rule("multiply")], "tags": ["prim"],
        "program": program(params, ["r = R.multiply(x, p)", "return r"],
                           tensor_ann((2, 3), "float32")),
        "args": [x, g.Prim("float32", 2.0)], "value": (x * np.float32(2.0)).astype("float32"),
    })
    return cases


# ---- unary cases -----------------------------------------------------------------------


def unary_primary(kind):
    return {"bool": "bool", "bitwise": "int32"}.get(kind, "float32")


def unary_value_case(name, cid, x, desc, tags=None):
    out = unary_oracle(name, x)
    params = [("x", tensor_ann(x.shape, str(x.dtype)))]
    case = {
        "file": "elemwise_unary", "id": cid, "description": desc, "spec": [rule(name)],
        "program": program(params, ["r = R.%s(x)" % name, "return r"],
                           tensor_ann(out.shape, str(out.dtype))),
        "args": [x], "value": out,
    }
    if tags:
        case["tags"] = tags
    return case


def unary_second(rng, name, kind, domain):
    if kind == "float":
        return rand(rng, (4,), "float64", domain)
    if kind == "any":
        return rand(rng, (2, 2), "int32")
    if kind == "check":
        return np.array([1.0, np.nan, np.inf, -np.inf, -0.0, 3.5], dtype="float64")
    if kind == "bitwise":
        return np.array([0, 1, 255, 128], dtype="uint8")
    return None


def unary_error_case(name, kind):
    if kind == "float":
        params, what = [("x", tensor_ann((2,), "int32"))], "an int32 tensor"
        code = "OpDTypeMismatch"
    elif kind in ("bool", "bitwise"):
        params, what = [("x", tensor_ann((2,), "float32"))], "a float32 tensor"
        code = "OpDTypeMismatch"
    else:
        params, what = [("x", "R.Shape([2, 3])")], "a shape"
        code = "OpArgType"
    return {
        "file": "elemwise_unary", "id": "%s-bad-operand" % name,
        "description": "R.%s does not take %s." % (name, what), "spec": [rule(name)],
        "program": program(params, ["r = R.%s(x)" % name, "return r"]),
        "error": {"phase": "struct_info", "code": code, "rule": rule(name)},
    }


def unary_cases_for(rng, name, kind, domain):
    dtype = unary_primary(kind)
    x = rand(rng, (2, 3), dtype, domain)
    if kind == "check":
        x = np.array([[0.5, np.nan, np.inf], [-np.inf, -2.0, 0.0]], dtype="float32")
    cases = [unary_value_case(name, "%s-%s" % (name, dtype), x,
                              "R.%s on a (2, 3) %s tensor." % (name, dtype))]
    x2 = unary_second(rng, name, kind, domain)
    if x2 is not None:
        cases.append(unary_value_case(name, "%s-%s" % (name, x2.dtype), x2,
                                      "R.%s on a %s tensor." % (name, x2.dtype)))
    out = "bool" if kind in ("check", "bool") else dtype
    cases.append({
        "file": "elemwise_unary", "id": "%s-symbolic" % name,
        "description": "R.%s keeps the symbolic shape (n, m)." % name,
        "spec": [rule(name)], "tags": ["symbolic"],
        "program": program([("x", tensor_ann(("n", "m"), dtype))],
                           ["r = R.%s(x)" % name, "return r"]),
        "struct_info": {"r": sinfo_text(("n", "m"), out)},
    })
    cases.append(unary_error_case(name, kind))
    return cases


def unary_special_cases():
    cases = []
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], dtype="float32")
    cases.append(unary_value_case("round", "round-half-even", x,
                                  "R.round rounds halves to even, as numpy.", ["ieee"]))
    x = np.array([-128, -1, 0, 127], dtype="int8")
    for name in ("abs", "negative", "square"):
        cases.append(unary_value_case(name, "%s-int8-wrap" % name, x,
                                      "R.%s on int8 wraps (abs(-128) is -128)." % name,
                                      ["int-semantics"]))
    x = np.array([0.5, -1.25, 2.0], dtype="float16")
    for name in ("exp", "sqrt", "sigmoid"):
        arg = np.abs(x) if name == "sqrt" else x
        cases.append(unary_value_case(name, "%s-float16" % name, arg,
                                      "R.%s on float16 computes in double and rounds once." % name))
    x = np.array([np.nan, -np.inf, np.inf, -0.0], dtype="float32")
    sign = unary_value_case("sign", "sign-special", x,
                            "R.sign of NaN is NaN in the reference, 0 in TVM v0.22 (topi sign is "
                            "select-based): implementation-defined; of infinities +-1.",
                            ["ieee", "nan"])
    sign["result"] = "implementation-defined"
    sign["value"] = g.Allowed(sign["value"], {0: [0.0]})
    sign["spec"] = sign["spec"] + ["RESULT-2"]
    cases.append(sign)
    return cases


def clip_cases():
    def case(cid, x, lo, hi, desc):
        dtype = str(x.dtype)
        a = x.astype(np.float64) if is_float(dtype) else x.astype(np.int64)
        out = np.maximum(np.minimum(a, hi), lo).astype(dtype)
        return {
            "file": "elemwise_unary", "id": cid, "description": desc, "spec": [rule("clip")],
            "program": program([("x", tensor_ann(x.shape, dtype))],
                               ["r = R.clip(x, %r, %r)" % (lo, hi), "return r"],
                               tensor_ann(x.shape, dtype)),
            "args": [x], "value": out,
        }
    x = np.array([[-3.0, -0.5, 0.0], [0.5, 2.0, np.nan]], dtype="float32")
    clip = case("clip-float32", x, -1.0, 1.0, "R.clip bounds a float32 tensor; NaN stays in the "
                "reference; TVM v0.22's select-based min/max give the upper bound: "
                "implementation-defined.")
    clip["result"] = "implementation-defined"
    clip["value"] = g.Allowed(clip["value"], {5: [1.0, -1.0]})
    clip["spec"] = clip["spec"] + ["RESULT-2"]
    cases = [clip]
    x = np.array([-10, -1, 0, 5, 100], dtype="int32")
    cases.append(case("clip-int32", x, -2, 6, "R.clip bounds an int32 tensor."))
    cases.append(case("clip-crossed", x, 3, 1, "R.clip with min > max gives min everywhere."))
    cases.append({
        "file": "elemwise_unary", "id": "clip-symbolic",
        "description": "R.clip keeps the symbolic shape (n,).", "spec": [rule("clip")],
        "tags": ["symbolic"],
        "program": program([("x", tensor_ann(("n",), "float32"))],
                           ["r = R.clip(x, 0, 1)", "return r"]),
        "struct_info": {"r": sinfo_text(("n",), "float32")},
    })
    cases.append({
        "file": "elemwise_unary", "id": "clip-bad-operand",
        "description": "R.clip of a shape is an argument error.", "spec": [rule("clip")],
        "program": program([("x", "R.Shape([2])")], ["r = R.clip(x, 0, 1)", "return r"]),
        "error": {"phase": "struct_info", "code": "OpArgType", "rule": rule("clip")},
    })
    return cases


def cases():
    rng = np.random.default_rng(20241)
    out = []
    for name, kind in BINARY:
        out.extend(binary_cases_for(rng, name, kind))
    out.extend(int_semantics_cases())
    out.extend(prim_cases())
    for name, kind, domain in UNARY:
        out.extend(unary_cases_for(rng, name, kind, domain))
    out.extend(unary_special_cases())
    out.extend(clip_cases())
    return out
