"""Dtype and shape corners of the elementwise operators: every dtype an operator accepts
(int8, int16, int64, uint8, bool, float16, bfloat16, float64 beside the float32 and int32 of
ops_elemwise.py), the dtypes TVM's inference rejects, empty tensors (a 0 dim), rank-0
operands, broadcasting corners and symbolic shapes.

The oracles are ops_elemwise.py's (TVM v0.22's topi formulas, computed in float64 from the
dtype's inputs and rounded once; integers wrapped). Inputs stay where TVM defines the
result: no signed overflow at 32 bits or more, no division by zero, shift counts inside the
bit width, no NaN where maximum/minimum would select (SPEC_NOTES 4.19). bfloat16 values are
computed in float64 from bfloat16 inputs and rounded once to bfloat16 (TVM's CPU lowering
computes bfloat16 in float32 and rounds the result).

Which dtypes TVM rejects statically: the unary operators registered with
require_float_dtype=true in src/relax/op/tensor/unary.cc reject every non-float input; the
binary operators (src/relax/op/tensor/binary.cc, op_common.h InferBinaryArithOpOutDtype)
reject two different non-bool dtypes. Integer `power` is left out: TVM v0.22's lowering
accepts only floats (its build fails), a case ops_elemwise.py already pins.
"""

import numpy as np

import gen_ops as g
import ops_elemwise as ew

INTS = ("int8", "int16", "int64", "uint8")
FLOATS = ("float16", "float64")

# op -> (dtypes for value cases, kind); kinds as ops_elemwise.BINARY.
ARITH = ("add", "subtract", "multiply", "divide", "floor_divide", "mod", "floor_mod",
         "maximum", "minimum")
BF16_BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum")
BF16_UNARY = ("exp", "sqrt", "tanh", "sigmoid", "abs", "negative", "floor", "ceil")


def ann(shape, dtype):
    return ew.tensor_ann(shape, dtype)


def sinfo(shape, dtype):
    if shape is None:
        return 'R.Tensor(dtype="%s", ndim=1)' % dtype
    if len(shape) == 0:
        return 'R.Tensor((), dtype="%s")' % dtype
    return ew.sinfo_text(shape, dtype)


def tensor_ann(shape, dtype):
    if len(shape) == 0:
        return 'R.Tensor((), "%s")' % dtype
    return ann(shape, dtype)


def prog(params, expr, ret=None):
    sig = ", ".join("%s: %s" % p for p in params)
    head = "def main(%s)%s:" % (sig, " -> " + ret if ret else "")
    return "@R.function\n%s\n    r = %s\n    return r\n" % (head, expr)


def rule(name):
    return "OP-" + name


# ---- inputs ----------------------------------------------------------------------------


def int_range(name, dtype):
    """Operand ranges that keep each operator's result defined in the dtype."""
    if dtype == "uint8":
        return (0, 41)
    if dtype == "int8" and name == "multiply":
        return (-11, 12)
    return (-20, 21)


def operands(rng, name, kind, dtype, sa, sb):
    a, b = raw_operands(rng, name, kind, dtype, sa, sb)
    return np.asarray(a, dtype), np.asarray(b, dtype)


def raw_operands(rng, name, kind, dtype, sa, sb):
    if dtype == "bool":
        return (rng.integers(0, 2, size=sa).astype(bool), rng.integers(0, 2, size=sb).astype(bool))
    if dtype.startswith("float"):
        a = ew.rand(rng, sa, dtype)
        b = ew.rand(rng, sb, dtype)
        if name == "power":
            a = (np.abs(a) + np.asarray(0.5, dtype)).astype(dtype)
        if name in ("divide", "floor_divide", "mod", "floor_mod"):
            b = np.where(b == 0, np.asarray(1, dtype), b).astype(dtype)
        return a, b
    if kind == "shift":
        bits = g.INT_RANGES[dtype]
        lo, hi = (0, 4) if bits == 8 else (0, 9)
        a = rng.integers(-3 if dtype == "int8" else -20, 4 if dtype == "int8" else 21, size=sa)
        if dtype == "uint8":
            a = rng.integers(0, 41, size=sa)
            hi = 3
        return a.astype(dtype), rng.integers(lo, hi, size=sb).astype(dtype)
    lo, hi = int_range(name, dtype)
    a = rng.integers(lo, hi, size=sa).astype(dtype)
    b = rng.integers(lo, hi, size=sb).astype(dtype)
    if name in ("divide", "floor_divide", "mod", "floor_mod"):
        b = np.where(b == 0, np.ones_like(b), b).astype(dtype)
    return a, b


# WF-20 admits no bfloat16 annotation (the spec's Float is 16, 32 or 64 bits), so bfloat16
# tensors enter as float32 values bfloat16 holds exactly and are converted by R.astype.
BF16_BINARY_PROGRAM = """@R.function
def main(x1: R.Tensor((4,), "float32"), x2: R.Tensor((4,), "float32")):
    a = R.astype(x1, "bfloat16")
    b = R.astype(x2, "bfloat16")
    r = R.%s(a, b)
    return r
"""

BF16_UNARY_PROGRAM = """@R.function
def main(x: R.Tensor((5,), "float32")):
    a = R.astype(x, "bfloat16")
    r = R.%s(a)
    return r
"""


def bf16_inputs(rng, name, shape):
    v = rng.integers(-32, 33, size=shape) / 8.0
    if name in ("divide",):
        v = np.where(v == 0, 1.0, v)
    if name == "sqrt":
        v = np.abs(v)
    return g.to_bf16(v.astype(np.float32))


# ---- binary ----------------------------------------------------------------------------


def binary_value(name, cid, a, b, desc, tags):
    out = np.asarray(ew.binary_oracle(name, a, b))
    da, db = str(a.dtype), str(b.dtype)
    return {
        "file": "dtypes_binary", "id": cid, "description": desc, "spec": [rule(name)],
        "tags": tags,
        "program": prog([("x1", tensor_ann(a.shape, da)), ("x2", tensor_ann(b.shape, db))],
                        "R.%s(x1, x2)" % name, tensor_ann(out.shape, str(out.dtype))),
        "args": [a, b], "value": out,
    }


def binary_dtypes(name, kind):
    if kind == "arith":
        return FLOATS if name == "power" else INTS + FLOATS
    if kind == "float":
        return FLOATS
    if kind == "cmp":
        return INTS + FLOATS + ("bool",)
    if kind == "bitwise":
        return INTS + ("bool",)
    if kind == "shift":
        return INTS
    return ()


def binary_dtype_cases(rng, name, kind):
    cases = []
    for dtype in binary_dtypes(name, kind):
        a, b = operands(rng, name, kind, dtype, (2, 3), (3,))
        cases.append(binary_value(
            name, "%s-%s" % (name, dtype), a, b,
            "R.%s on %s operands (2, 3) and (3,): the result dtype is %s." %
            (name, dtype, "bool" if kind == "cmp" else dtype), ["dtype-corner"]))
    if name in BF16_BINARY + ("equal", "less"):
        a = bf16_inputs(rng, name, (4,))
        b = bf16_inputs(rng, name, (4,))
        wide = ew.binary_oracle(name, a.astype(np.float64), b.astype(np.float64))
        out = wide if wide.dtype == bool else g.BF16(g.to_bf16(wide.astype(np.float32)))
        ret = "bool" if wide.dtype == bool else "bfloat16"
        cases.append({
            "file": "dtypes_binary", "id": "%s-bfloat16" % name,
            "description": "R.%s on bfloat16 operands: computed exactly and rounded once to "
                           "bfloat16." % name,
            "spec": [rule(name)], "tags": ["dtype-corner", "bfloat16"],
            "program": BF16_BINARY_PROGRAM % name,
            "args": [a, b], "value": out,
        })
    return cases


def binary_reject_cases(name, kind):
    """Two different non-bool dtypes are rejected by the arithmetic operators' inference
    (InferBinaryArithOpOutDtype). The comparisons are left out: TVM's InferStructInfoBroadcastCMP
    gives bool without comparing the operand dtypes, where the reference rejects them
    (ops_elemwise.py's `*-dtype-mismatch` cases pin that decision)."""
    if kind == "cmp":
        return []
    pairs = [("int8", "uint8"), ("float16", "float64"), ("int64", "float64")]
    if kind in ("bitwise", "shift"):
        pairs = [("int8", "uint8"), ("int16", "int64"), ("int64", "uint8")]
    cases = []
    for d1, d2 in pairs:
        cases.append({
            "file": "dtypes_binary", "id": "%s-%s-%s" % (name, d1, d2),
            "description": "R.%s of a %s and a %s operand: the dtypes differ and neither is "
                           "bool, a dtype error." % (name, d1, d2),
            "spec": [rule(name)], "tags": ["dtype-corner"],
            "program": prog([("x1", ann((2,), d1)), ("x2", ann((2,), d2))],
                            "R.%s(x1, x2)" % name),
            "error": {"phase": "struct_info", "code": "OpDTypeMismatch", "rule": rule(name)},
        })
    return cases


def binary_shape_cases(rng, name, kind):
    dtype = ew.primary_dtype(kind)
    out_dtype = "bool" if name in ew.CMP_FN else dtype
    cases = []

    def value(suffix, sa, sb, desc):
        a, b = operands(rng, name, kind, dtype, sa, sb)
        cases.append(binary_value(name, "%s-%s" % (name, suffix), a, b, desc, ["shape-corner"]))

    value("empty", (0, 3), (3,), "R.%s of a (0, 3) and a (3,) tensor is an empty (0, 3) "
          "tensor." % name)
    value("one-against-zero", (1, 2), (0, 1), "R.%s broadcasts a dim of 1 against a dim of 0: "
          "(1, 2) and (0, 1) give (0, 2)." % name)
    value("rank0", (), (), "R.%s of two rank-0 tensors is rank 0." % name)
    value("rank0-left", (), (2, 2), "R.%s of a rank-0 and a (2, 2) tensor broadcasts the "
          "scalar." % name)
    value("rank3", (2, 1, 3), (4, 1), "R.%s of (2, 1, 3) and (4, 1) broadcasts to "
          "(2, 4, 3)." % name)

    def static(suffix, sa, sb, expect, desc):
        params = [("x1", tensor_ann(sa, dtype)), ("x2", tensor_ann(sb, dtype))]
        case = {
            "file": "dtypes_binary", "id": "%s-%s" % (name, suffix), "description": desc,
            "spec": [rule(name)], "tags": ["shape-corner", "symbolic"],
            "program": prog(params, "R.%s(x1, x2)" % name),
        }
        if expect == "ndim":
            case["struct_info"] = {"r": sinfo(None, out_dtype)}
        elif expect is None:
            case["error"] = {"phase": "struct_info", "code": "OpShapeMismatch",
                             "rule": rule(name)}
            case["tags"] = ["shape-corner"]
        else:
            case["struct_info"] = {"r": sinfo(expect, out_dtype)}
        cases.append(case)

    static("sym-outer", ("n", 1), (1, "m"), ("n", "m"),
           "R.%s of (n, 1) and (1, m) derives (n, m)." % name)
    static("sym-unknown", ("n",), ("m",), "ndim",
           "R.%s of (n,) and (m,): n = m cannot be proved, so only the rank is "
           "derived." % name)
    static("sym-one", ("n", 4), (1,), ("n", 4),
           "R.%s of (n, 4) and (1,): the 1 takes the other side's dim." % name)
    static("zero-vs-two", (0,), (2,), None,
           "R.%s of (0,) and (2,): 0 and 2 do not broadcast." % name)
    static("trailing-mismatch", (2, 3), (2,), None,
           "R.%s of (2, 3) and (2,): the trailing dims 3 and 2 do not broadcast." % name)
    return cases


def binary_unknown_cases(name, kind):
    """What the inference derives when an operand's rank, dims or dtype is unknown
    (src/relax/op/tensor/binary.cc InferStructInfoBroadcast): an unknown rank on either side
    gives an unknown rank; known ranks whose dims are unknown give the larger rank; an unknown
    (void) dtype on either side gives an unknown dtype (comparisons stay bool)."""
    dtype = ew.primary_dtype(kind)
    cmp = name in ew.CMP_FN
    out = "bool" if cmp else dtype
    cases = []

    def sinfo_case(suffix, a, b, want, desc):
        cases.append({
            "file": "dtypes_binary", "id": "%s-%s" % (name, suffix), "description": desc,
            "spec": [rule(name)], "tags": ["shape-corner"],
            "program": prog([("x1", a), ("x2", b)], "R.%s(x1, x2)" % name),
            "struct_info": {"r": want},
        })

    sinfo_case("unknown-rank", 'R.Tensor(dtype="%s")' % dtype, ann((2, 3), dtype),
               'R.Tensor(dtype="%s")' % out,
               "R.%s of a tensor of unknown rank and a (2, 3) tensor: the rank is unknown." % name)
    sinfo_case("unknown-dims", 'R.Tensor(dtype="%s", ndim=3)' % dtype, ann((2, 3), dtype),
               'R.Tensor(dtype="%s", ndim=3)' % out,
               "R.%s of a rank-3 tensor of unknown dims and a (2, 3) tensor: rank 3, dims "
               "unknown." % name)
    if kind == "logical":
        # TVM infers the logical operators' dtype like arithmetic (unknown in, unknown out)
        # while the reference, which admits only bool operands, derives bool: not pinned.
        return cases
    void_out = 'R.Tensor((2, 3), dtype="bool")' if cmp else "R.Tensor((2, 3))"
    sinfo_case("unknown-dtype", "R.Tensor((2, 3))", ann((3,), dtype), void_out,
               "R.%s of a (2, 3) tensor of unknown dtype and a (3,) %s tensor: the shape "
               "broadcasts, the dtype is %s." % (name, dtype, "bool" if cmp else "unknown"))
    return cases


NON_COMMUTATIVE = {"subtract", "divide", "floor_divide", "mod", "floor_mod", "power", "less",
                   "greater", "less_equal", "greater_equal", "left_shift", "right_shift",
                   "log_add_exp"}


def prim_scalar(rng, name, kind, dtype):
    """A scalar operand that keeps the result defined (non-zero divisors, small shifts)."""
    if dtype == "bool":
        return bool(rng.integers(0, 2))
    if kind == "shift":
        return int(rng.integers(0, 5))
    if dtype.startswith("float"):
        v = float(np.float32(rng.integers(-16, 17) / 4.0))
        if name in ("divide", "floor_divide", "mod", "floor_mod") and v == 0:
            v = 1.5
        if name == "power":
            v = 2.0
        return v
    v = int(rng.integers(-9, 10))
    return v if v != 0 or name not in ("divide", "floor_divide", "mod", "floor_mod") else 3


def binary_prim_cases(rng, name, kind):
    """A PrimValue operand acts as a rank-0 tensor of its dtype (InferStructInfoBroadcast reads
    a PrimStructInfo's dtype and an empty shape); two PrimValues derive R.Prim."""
    dtype = ew.primary_dtype(kind)
    out_dtype = "bool" if name in ew.CMP_FN else dtype
    cases = []
    # multiply's tensor-then-PrimValue program is ops_elemwise.py's multiply-tensor-prim.
    orders = ([("right", False)] if name != "multiply" else [("left", True)]) + \
        ([("left", True)] if name in NON_COMMUTATIVE else [])
    for suffix, prim_first in orders:
        a, _ = operands(rng, name, kind, dtype, (2, 3), (3,))
        v = prim_scalar(rng, name, kind, dtype)
        pv = np.asarray(v, dtype=dtype if dtype != "bool" else bool)
        x1, x2 = (pv, a) if prim_first else (a, pv)
        out = np.asarray(ew.binary_oracle(name, x1, x2))
        tensor_param = ("x", tensor_ann((2, 3), dtype))
        prim_param = ("p", 'R.Prim("%s")' % dtype)
        params = [prim_param, tensor_param] if prim_first else [tensor_param, prim_param]
        expr = "R.%s(p, x)" % name if prim_first else "R.%s(x, p)" % name
        args = [g.Prim(dtype, v), a] if prim_first else [a, g.Prim(dtype, v)]
        cases.append({
            "file": "dtypes_binary", "id": "%s-prim-%s" % (name, suffix),
            "description": "R.%s of a (2, 3) %s tensor and a %s PrimValue %s: the PrimValue "
                           "acts as a rank-0 tensor." % (name, dtype, dtype,
                                                          "on the left" if prim_first else
                                                          "on the right"),
            "spec": [rule(name)], "tags": ["prim"],
            "program": prog(params, expr, tensor_ann((2, 3), out_dtype)),
            "args": args, "value": out,
        })
    cases.append({
        "file": "dtypes_binary", "id": "%s-prim-prim-sinfo" % name,
        "description": "R.%s of two %s PrimValues derives R.Prim(\"%s\")." %
                       (name, dtype, out_dtype),
        "spec": [rule(name)], "tags": ["prim"],
        "program": prog([("p", 'R.Prim("%s")' % dtype), ("q", 'R.Prim("%s")' % dtype)],
                        "R.%s(p, q)" % name),
        "struct_info": {"r": 'R.Prim("%s")' % out_dtype},
    })
    return cases


def bool_mix_cases(rng):
    """A bool operand beside any dtype (op_common.h InferBinaryArithOpOutDtype): the dtypes may
    differ when one is bool, the result takes the left operand's dtype, and the bool counts
    as 0 or 1 (TIR's BinaryOpMatchTypes casts it). With the bool on the left TVM v0.22
    computes in the other dtype against its bool StructInfo (ops_elemwise.py's add-bool-float32
    is undefined), so only the inference is pinned there."""
    cases = []
    for dtype in INTS + FLOATS:
        for name in ("add", "subtract", "multiply", "maximum", "minimum", "less", "equal"):
            a, _ = operands(rng, name, "arith", dtype, (2, 3), (3,))
            b = rng.integers(0, 2, size=(3,)).astype(bool)
            out = np.asarray(ew.binary_oracle(name, a, b.astype(dtype)))
            cases.append({
                "file": "dtypes_binary", "id": "%s-%s-bool" % (name, dtype),
                "description": "R.%s of a (2, 3) %s tensor and a (3,) bool tensor: the bool is "
                               "0 or 1 and the result is %s." %
                               (name, dtype, "bool" if name in ew.CMP_FN else dtype),
                "spec": [rule(name)], "tags": ["bool-mix", "dtype-corner"],
                "program": prog([("x1", ann((2, 3), dtype)), ("x2", ann((3,), "bool"))],
                                "R.%s(x1, x2)" % name, ann((2, 3), str(out.dtype))),
                "args": [a, b], "value": out,
            })
        cases.append({
            "file": "dtypes_binary", "id": "multiply-bool-%s-sinfo" % dtype,
            "description": "R.multiply of a bool and a %s tensor derives the left operand's "
                           "dtype, bool." % dtype,
            "spec": [rule("multiply")], "tags": ["bool-mix", "dtype-corner"],
            "program": prog([("x1", ann((3,), "bool")), ("x2", ann((3,), dtype))],
                            "R.multiply(x1, x2)"),
            "struct_info": {"r": 'R.Tensor((3,), dtype="bool")'},
        })
    return cases


# ---- unary -----------------------------------------------------------------------------


def unary_value(name, cid, x, desc, tags):
    out = np.asarray(ew.unary_oracle(name, x))
    return {
        "file": "dtypes_unary", "id": cid, "description": desc, "spec": [rule(name)],
        "tags": tags,
        "program": prog([("x", tensor_ann(x.shape, str(x.dtype)))], "R.%s(x)" % name,
                        tensor_ann(out.shape, str(out.dtype))),
        "args": [x], "value": out,
    }


def unary_input(rng, name, domain, dtype, shape):
    return np.asarray(raw_unary_input(rng, name, domain, dtype, shape), dtype)


def raw_unary_input(rng, name, domain, dtype, shape):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype == "uint8":
        return rng.integers(0, 41, size=shape).astype(dtype)
    if dtype.startswith("int"):
        lo = -11 if name == "square" else -20
        return rng.integers(lo, -lo + 1, size=shape).astype(dtype)
    return ew.rand(rng, shape, dtype, domain)


def unary_dtypes(name, kind):
    if kind == "float":
        return ("float16",)
    if kind == "any":
        # TVM v0.22 cannot build negative or sign of an unsigned tensor (its lowering makes
        # the constant -1 in the unsigned dtype); their uint8 results are left unpinned.
        if name in ("negative", "sign"):
            return ("int8", "int16", "int64") + FLOATS
        return INTS + FLOATS
    if kind == "check":
        return ("float16", "int32")
    if kind == "bitwise":
        return ("int8", "int16", "int64", "bool")
    return ()


EXISTING_FLOAT16 = {"exp", "sqrt", "sigmoid"}
STEPWISE_FLOAT16 = {"asinh", "acosh", "atanh"}


def unary_cases(rng, name, kind, domain):
    cases = []
    for dtype in unary_dtypes(name, kind):
        if dtype == "float16" and name in EXISTING_FLOAT16:
            continue
        if kind == "check" and dtype == "float16":
            x = np.array([0.5, np.nan, np.inf, -np.inf, 65504.0, -0.0], dtype="float16")
        else:
            x = unary_input(rng, name, domain, dtype, (2, 3))
        case = unary_value(name, "%s-%s" % (name, dtype), x, "R.%s on a %s tensor." %
                           (name, dtype), ["dtype-corner"])
        if dtype == "float16" and name in STEPWISE_FLOAT16:
            # TVM evaluates the formula (log(x + sqrt(x * x + 1)), ...) step by step in
            # float16; each step rounds, so its result is a few ulps from the once-rounded
            # value: 5e-3 is five float16 ulps near 1.
            case["tolerance"] = {"rtol": 5e-3, "atol": 1e-3}
            case["description"] += " TVM computes the formula step by step in float16."
        cases.append(case)
    if kind == "float":
        for dtype in ("int64", "uint8", "bool"):
            cases.append({
                "file": "dtypes_unary", "id": "%s-rejects-%s" % (name, dtype),
                "description": "R.%s requires a float tensor: %s is a dtype error "
                               "(require_float_dtype in TVM's registration)." % (name, dtype),
                "spec": [rule(name)], "tags": ["dtype-corner"],
                "program": prog([("x", ann((3,), dtype))], "R.%s(x)" % name),
                "error": {"phase": "struct_info", "code": "OpDTypeMismatch", "rule": rule(name)},
            })
    if name in BF16_UNARY:
        x = bf16_inputs(rng, name, (5,))
        wide = ew.unary_oracle(name, x.astype(np.float64))
        cases.append({
            "file": "dtypes_unary", "id": "%s-bfloat16" % name,
            "description": "R.%s on bfloat16: computed exactly and rounded once to "
                           "bfloat16." % name,
            "spec": [rule(name)], "tags": ["dtype-corner", "bfloat16"],
            "program": BF16_UNARY_PROGRAM % name,
            "args": [x], "value": g.BF16(g.to_bf16(wide.astype(np.float32))),
        })
    dtype = ew.unary_primary(kind)
    x = unary_input(rng, name, domain, dtype, (0, 2))
    cases.append(unary_value(name, "%s-empty" % name, x,
                             "R.%s of an empty (0, 2) tensor is an empty (0, 2) tensor." % name,
                             ["shape-corner"]))
    x = unary_input(rng, name, domain, dtype, ())
    if kind == "check":
        x = np.array(np.inf, dtype="float32")
    cases.append(unary_value(name, "%s-rank0" % name, x,
                             "R.%s of a rank-0 tensor is rank 0." % name, ["shape-corner"]))
    out = "bool" if kind in ("check", "bool") else dtype
    cases.append({
        "file": "dtypes_unary", "id": "%s-sym-rank0-mix" % name,
        "description": "R.%s keeps a shape mixing a constant, a variable and an expression: "
                       "(2, n, n * 2)." % name,
        "spec": [rule(name)], "tags": ["shape-corner", "symbolic"],
        "program": "@R.function\ndef main(x: R.Tensor((2, \"n\", \"n * 2\"), \"%s\")):\n"
                   "    r = R.%s(x)\n    return r\n" % (dtype, name),
        "struct_info": {"r": 'R.Tensor((2, n, n * 2), dtype="%s")' % out},
    })
    if kind in ("float", "any", "check"):
        cases.append({
            "file": "dtypes_unary", "id": "%s-unknown-dtype" % name,
            "description": "R.%s of a (2, n) tensor of unknown dtype: accepted (the dtype "
                           "check needs a known dtype), the shape kept." % name,
            "spec": [rule(name)], "tags": ["shape-corner"],
            "program": "@R.function\ndef main(x: R.Tensor((2, \"n\"))):\n"
                       "    r = R.%s(x)\n    return r\n" % name,
            "struct_info": {"r": 'R.Tensor((2, n), dtype="bool")' if kind == "check" else
                            "R.Tensor((2, n))"},
        })
    cases.append({
        "file": "dtypes_unary", "id": "%s-unknown-ndim" % name,
        "description": "R.%s of a tensor of unknown rank derives a tensor of unknown "
                       "rank and the same dtype." % name,
        "spec": [rule(name)], "tags": ["shape-corner"],
        "program": prog([("x", 'R.Tensor(dtype="%s")' % dtype)], "R.%s(x)" % name),
        "struct_info": {"r": 'R.Tensor(dtype="%s")' % out},
    })
    return cases


def single_element_cases():
    """One operand a single element of higher rank, the other one that needs broadcasting:
    (3,) against (1, 1) is (1, 3), every element reading the single one; for the operators and
    dtypes the reference computes through its general path (integer floor division and
    remainder, float16)."""
    cases = []
    for name, dtype in (("floor_divide", "int32"), ("floor_mod", "int32"), ("add", "float16"),
                        ("subtract", "float16")):
        a = np.array([7, -2, 4], dtype=dtype)
        b = np.array([[5]], dtype=dtype)
        x, y, shapes = (a, b, "(3,) and (1, 1)") if name in ("floor_divide", "add") else \
            (b, a, "(1, 1) and (3,)")
        cases.append(binary_value(
            name, "%s-single-element-%s" % (name, dtype), x, y,
            "R.%s of %s %s: the single element meets every element of the broadcast "
            "(1, 3)." % (name, dtype, shapes), ["shape-corner"]))
    return cases


def cases():
    rng = np.random.default_rng(20261126)
    prim_rng = np.random.default_rng(26112026)
    out = []
    for name, kind in ew.BINARY:
        out.extend(binary_dtype_cases(rng, name, kind))
        out.extend(binary_reject_cases(name, kind))
        out.extend(binary_shape_cases(rng, name, kind))
        out.extend(binary_unknown_cases(name, kind))
        out.extend(binary_prim_cases(prim_rng, name, kind))
    out.extend(bool_mix_cases(np.random.default_rng(1126)))
    out.extend(single_element_cases())
    for name, kind, domain in ew.UNARY:
        out.extend(unary_cases(rng, name, kind, domain))
    return out
