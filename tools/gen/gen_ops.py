#!/usr/bin/python3
"""Generates the operator conformance cases in spec-tests/ops/ from numpy.

Each family module tools/gen/ops_<family>.py exposes cases(): a list of case dicts (see
README.md in this folder for the format). This driver turns them into one YAML file per
output name, deterministically: fixed key order, floats written as the repr of the value
rounded to its dtype (exact in double, so the reader's rounding to the dtype is exact too).

    /usr/bin/python3 tools/gen/gen_ops.py           # write spec-tests/ops/*.yaml
    /usr/bin/python3 tools/gen/gen_ops.py --check   # compare with the committed files
"""

import difflib
import importlib
import json
import math
import os
import sys
import tempfile

import numpy as np

FAMILIES = ["ops_registry", "ops_elemwise", "ops_manip", "ops_nn", "ops_window", "ops_act",
            "ops_scatter", "ops_norm", "ops_misc", "ops_ccl", "ops_dtypes", "ops_axes", "ops_kinds",
            "ops_rank0", "ops_axis_corners"]

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(ROOT, "spec-tests", "ops")


# ---- values the family modules build ---------------------------------------------------


class Prim:
    """A PrimValue: {prim: {dtype, value}}."""

    def __init__(self, dtype, value):
        self.dtype = dtype
        self.value = value


class Shape:
    """A shape value: {shape: [dims]}."""

    def __init__(self, dims):
        self.dims = [int(d) for d in dims]


class Tup:
    """A tuple value: {tuple: [values]}."""

    def __init__(self, items):
        self.items = list(items)


class BF16:
    """A bfloat16 tensor: `array` holds float32 values that bfloat16 represents exactly."""

    def __init__(self, array):
        self.array = np.asarray(array, dtype=np.float32)


def to_bf16(values):
    """float32 values rounded to the nearest bfloat16 (ties to even), as float32."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(values), np.float32(np.nan), out)


INT_RANGES = {
    "int8": 8, "int16": 16, "int32": 32, "int64": 64,
    "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
}


def wrap(value, dtype):
    """An integer reduced modulo 2**bits into the dtype's range (two's complement)."""
    bits = INT_RANGES[dtype]
    value = int(value) % (1 << bits)
    if dtype.startswith("int") and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def dtype_name(array):
    name = str(array.dtype)
    return "bool" if name == "bool" else name


# ---- YAML emission ---------------------------------------------------------------------


def fmt_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = repr(x)
    return text


def fmt_scalar(x, dtype):
    if dtype == "bool":
        return "true" if bool(x) else "false"
    if dtype.startswith("float") or dtype.startswith("bfloat"):
        return fmt_float(x)
    return str(int(x))


class OneOf:
    """An implementation-defined element (RESULT-2): the reference's value first."""

    def __init__(self, *values):
        self.values = list(values)


def fmt_data(array, dtype):
    if isinstance(array, np.ndarray) and array.ndim == 0:
        array = array[()]
    if isinstance(array, OneOf):
        return "{one_of: [%s]}" % ", ".join(fmt_scalar(v, dtype) for v in array.values)
    if not isinstance(array, np.ndarray) or array.ndim == 0:
        return fmt_scalar(array if not isinstance(array, np.ndarray) else array[()], dtype)
    return "[" + ", ".join(fmt_data(array[i], dtype) for i in range(array.shape[0])) + "]"


class Allowed:
    """An expected tensor with implementation-defined elements: `array` holds the reference's
    values, `alts` maps a flat index to the other allowed values there."""

    def __init__(self, array, alts):
        self.array = array
        self.alts = alts


def fmt_value(v):
    if isinstance(v, Allowed):
        dtype = dtype_name(v.array)
        cells = np.empty(v.array.size, dtype=object)
        for i, x in enumerate(v.array.flat):
            cells[i] = OneOf(x, *v.alts[i]) if i in v.alts else x
        shape = "[" + ", ".join(str(d) for d in v.array.shape) + "]"
        data = fmt_data(cells.reshape(v.array.shape), dtype)
        return "{tensor: {dtype: %s, shape: %s, data: %s}}" % (dtype, shape, data)
    if isinstance(v, BF16):
        shape = "[" + ", ".join(str(d) for d in v.array.shape) + "]"
        return "{tensor: {dtype: bfloat16, shape: %s, data: %s}}" % (
            shape, fmt_data(v.array, "bfloat16"))
    if isinstance(v, np.ndarray):
        dtype = dtype_name(v)
        shape = "[" + ", ".join(str(d) for d in v.shape) + "]"
        return "{tensor: {dtype: %s, shape: %s, data: %s}}" % (dtype, shape, fmt_data(v, dtype))
    if isinstance(v, Prim):
        return "{prim: {dtype: %s, value: %s}}" % (v.dtype, fmt_scalar(v.value, v.dtype))
    if isinstance(v, Shape):
        return "{shape: [%s]}" % ", ".join(str(d) for d in v.dims)
    if isinstance(v, Tup):
        return "{tuple: [%s]}" % ", ".join(fmt_value(x) for x in v.items)
    raise TypeError("not a case value: %r" % (v,))


def q(text):
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json.dumps(text)


def emit_expect(case, indent):
    pad = " " * indent
    lines = [pad + "expect:"]
    kinds = [k for k in ("value", "error", "struct_info", "valid", "printed") if k in case]
    if len(kinds) != 1:
        raise ValueError("case %s: exactly one of value/error/struct_info/valid/printed"
                         % case["id"])
    kind = kinds[0]
    if kind == "value":
        lines.append(pad + "  value: " + fmt_value(case["value"]))
    elif kind == "error":
        err = case["error"]
        parts = ["phase: " + err["phase"]]
        for key in ("code", "rule"):
            if key in err:
                parts.append("%s: %s" % (key, err[key]))
        lines.append(pad + "  error: {" + ", ".join(parts) + "}")
        if "errors" in case:
            lines.append(pad + "  errors: [" + ", ".join(case["errors"]) + "]")
    elif kind == "struct_info":
        lines.append(pad + "  struct_info:")
        for var in sorted(case["struct_info"]):
            lines.append(pad + "    %s: %s" % (var, q(case["struct_info"][var])))
    elif kind == "printed":
        lines.append(pad + "  roundtrip: true")
        lines.append(pad + "  printed: |")
        for line in case["printed"].rstrip("\n").split("\n"):
            lines.append((pad + "    " + line) if line else "")
    else:
        lines.append(pad + "  valid: true")
    return lines


def emit_case(case):
    lines = ["  - id: " + case["id"], "    description: " + q(case["description"])]
    lines.append("    spec: [" + ", ".join(case["spec"]) + "]")
    if case.get("tags"):
        lines.append("    tags: [" + ", ".join(case["tags"]) + "]")
    if case.get("result"):
        lines.append("    result: " + case["result"])
    lines.append("    program: |")
    for line in case["program"].rstrip("\n").split("\n"):
        lines.append(("      " + line) if line else "")
    if "args" in case:
        args = ", ".join(fmt_value(a) for a in case["args"])
        lines.append("    run: {args: [%s]}" % args)
    lines.extend(emit_expect(case, 4))
    if "tolerance" in case:
        tol = case["tolerance"]
        lines.append("    tolerance: {rtol: %s, atol: %s}" % (fmt_float(tol["rtol"]),
                                                               fmt_float(tol["atol"])))
    if case.get("exact"):
        lines.append("    exact: true")
    return lines


def emit_file(name, cases):
    family = name.split("_")[0]
    lines = [
        "# Generated by tools/gen/gen_ops.py from tools/gen/ops_%s.py; do not edit." % family,
        "format: 1",
        "tags: [ops, %s]" % family,
        "cases:",
    ]
    for i, case in enumerate(cases):
        if i:
            lines.append("")
        lines.extend(emit_case(case))
    return "\n".join(lines) + "\n"


# ---- driver ----------------------------------------------------------------------------


def load_families():
    sys.path.insert(0, HERE)
    # Family modules `import gen_ops` for the value classes: make that this module.
    sys.modules.setdefault("gen_ops", sys.modules[__name__])
    mods = []
    for name in FAMILIES:
        if not os.path.exists(os.path.join(HERE, name + ".py")):
            continue
        mods.append((name, importlib.import_module(name)))
    return mods


# Where the reference deliberately differs from TVM v0.22.0 because TVM fixed a bug later
# (SPEC_NOTES "Operator semantics that are TVM's"): the case carries `tvm-bug` and the TVM
# version with the fix. (rule or program text, tags)
TVM_BUGS = [
    # v0.22's LLVM lowering of round rounds ties away from zero; v0.24 rounds to even.
    (lambda c: "OP-round" in c["spec"] and "float" in c["program"], ["tvm-bug", "tvm-fixed-v0.24"]),
    # v0.22's asin/acos/atan are Taylor series, inaccurate away from 0; fixed in v0.25.
    (lambda c: any(r in c["spec"] for r in ("OP-asin", "OP-acos", "OP-atan")) and
     "float" in c["program"], ["tvm-bug", "tvm-fixed-v0.25"]),
    # v0.22 legalizes isnan/isinf/isfinite wrongly for some dtypes; fixed in v0.24.
    (lambda c: any(r in c["spec"] for r in ("OP-isnan", "OP-isinf", "OP-isfinite")),
     ["tvm-bug", "tvm-fixed-v0.24"]),
    # v0.22's pool output length with ceil_mode ignores the last window rule of v0.23 (the
    # `ceil-static` cases pick sizes where no window starts in padding: both rules agree).
    (lambda c: "ceil_mode=True" in c["program"] and not c["id"].endswith("-ceil-static"),
     ["tvm-bug", "tvm-fixed-v0.23"]),
    # v0.22's topi batch_norm inverts `training`; fixed in v0.23.
    (lambda c: "OP-nn.batch_norm" in c["spec"] and "batch_norm(" in c["program"] and
     "training=False" not in c["program"] and "value" in c, ["tvm-bug", "tvm-fixed-v0.23"]),
    # TVM's layer_norm legalization ignores center/scale (still open at v0.22).
    (lambda c: "layer_norm(" in c["program"] and ("center=False" in c["program"] or
                                                  "scale=False" in c["program"]),
     ["tvm-bug", "tvm-layer-norm-center-scale"]),
]


TAGGED_FAMILIES = {"ops_registry", "ops_elemwise", "ops_manip", "ops_nn", "ops_dtypes",
                   "ops_axes", "ops_kinds"}


def tag_tvm_bugs(case):
    for test, tags in TVM_BUGS:
        if test(case):
            case["tags"] = list(case.get("tags") or []) + [t for t in tags
                                                           if t not in (case.get("tags") or [])]


def add_triage_tags(case, file_name):
    """The TVM v0.22 triage of the case (tvm_triage_ops.py), after its own tags."""
    import tvm_triage_ops
    extra = tvm_triage_ops.TAGS.get((file_name, case["id"]), [])
    case["tags"] = list(case.get("tags") or []) + [t for t in extra
                                                   if t not in (case.get("tags") or [])]


def render_all():
    """{file name: text} for every output file."""
    files = {}
    for modname, mod in load_families():
        family = modname[len("ops_"):]
        seen = set()
        for case in mod.cases():
            if case["id"] in seen:
                raise ValueError("%s: duplicate case id %s" % (modname, case["id"]))
            seen.add(case["id"])
            if modname in TAGGED_FAMILIES:
                tag_tvm_bugs(case)
            add_triage_tags(case, case.get("file", family))
            files.setdefault(case.get("file", family), []).append(case)
    import ops_argkind
    import ops_once
    once = ops_once.derive(files)
    argkind = ops_argkind.derive(files)
    if once:
        files[ops_once.FILE] = once
    if argkind:
        files[ops_argkind.FILE] = argkind
    return {name + ".yaml": emit_file(name, cases) for name, cases in sorted(files.items())}


def write(out_dir, files):
    os.makedirs(out_dir, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)


def check(files):
    """Non-zero when a committed generated file differs from what the generator writes now."""
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        write(tmp, files)
        for name in sorted(files):
            fresh = open(os.path.join(tmp, name), encoding="utf-8").read()
            path = os.path.join(OUT_DIR, name)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if fresh != old:
                status = 1
                diff = difflib.unified_diff(old.splitlines(True), fresh.splitlines(True),
                                            "spec-tests/ops/" + name, "generated")
                sys.stdout.writelines(list(diff)[:40])
                print("gen_ops: spec-tests/ops/%s is stale; run tools/gen/gen_ops.py" % name)
    return status


def main(argv):
    files = render_all()
    if "--check" in argv[1:]:
        return check(files)
    write(OUT_DIR, files)
    total = sum(text.count("\n  - id: ") for text in files.values())
    print("gen_ops: wrote %d files, %d cases" % (len(files), total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
