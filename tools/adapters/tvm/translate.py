"""translate: the TVM adapter's pure half: CASE_FORMAT values to and from Python and TVM
values, TVM's error messages to the protocol's phases and codes, and YAML writing of
responses. Nothing here imports TVM: the TVM objects it needs are passed in (`rt`), so
test_translate.py runs without a TVM installation. Contract: tools/adapters/README.md."""
import json
import math
import re

import numpy as np

# ---- CASE_FORMAT values -> Python / TVM ----

FLOAT_WORDS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "+inf": math.inf,
               ".nan": math.nan, ".inf": math.inf, "-.inf": -math.inf}


def _number(x):
    if isinstance(x, str):
        word = x.strip().lower()
        if word in FLOAT_WORDS:
            return FLOAT_WORDS[word]
        return float(word) if any(c in word for c in ".e") else int(word, 0)
    return x


def _flatten(data):
    if isinstance(data, list):
        out = []
        for item in data:
            out.extend(_flatten(item))
        return out
    return [_number(data)]


def tensor_to_numpy(spec):
    """{dtype, shape, data} (data nested by shape, flat, or a scalar) -> numpy array."""
    dtype = spec["dtype"]
    shape = [int(d) for d in spec.get("shape", [])]
    flat = _flatten(spec.get("data", []))
    np_dtype = "bool" if dtype == "bool" else dtype
    arr = np.array(flat, dtype=np_dtype)
    return arr.reshape(shape)


class Unsendable(Exception):
    """A CASE_FORMAT value this adapter cannot give TVM."""


def value_to_tvm(value, rt):
    """A CASE_FORMAT value (parsed YAML) -> an argument for a TVM VM call. `rt` provides
    tensor(np_array), shape(list), string(str), dtype(str)."""
    if not isinstance(value, dict) or len(value) != 1:
        raise Unsendable("not a CASE_FORMAT value: %r" % (value,))
    (kind, body), = value.items()
    if kind is None or kind == "null":  # a YAML 1.1 reader reads the key `null` as None
        return None
    if kind == "tensor":
        return rt.tensor(tensor_to_numpy(body))
    if kind == "shape":
        return rt.shape([int(d) for d in body])
    if kind == "prim":
        return rt.prim(body["dtype"], _number(body["value"]))
    if kind == "tuple":
        return [value_to_tvm(v, rt) for v in body]
    if kind == "string":
        return rt.string(str(body))
    if kind == "dtype":
        return rt.dtype(str(body))
    raise Unsendable("cannot send a %s value to TVM" % kind)


# ---- results -> CASE_FORMAT (as YAML text) ----

def yaml_str(s):
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(s)


def yaml_number(x, dtype):
    if dtype == "bool":
        return "true" if bool(x) else "false"
    if dtype.startswith(("int", "uint")):
        return str(int(x))
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def _nested(arr, dtype):
    if arr.ndim == 0:
        return yaml_number(arr.item(), dtype)
    return "[" + ", ".join(_nested(a, dtype) for a in arr) + "]"


def numpy_to_case(arr, dtype=None):
    dtype = dtype or str(arr.dtype)
    shape = ", ".join(str(d) for d in arr.shape)
    return "{tensor: {dtype: %s, shape: [%s], data: %s}}" % (dtype, shape, _nested(arr, dtype))


def prim_dtype_hint(sinfo):
    """The dtypes a function's return StructInfo gives its PrimValues: a dtype string for
    R.Prim(dtype), a list for a tuple, else None. TVM's VM hands a PrimValue back as a bare
    Python int or float (a bool as 0 or 1), so its dtype comes from the signature."""
    if sinfo is None:
        return None
    fields = getattr(sinfo, "fields", None)
    if type(sinfo).__name__ == "TupleStructInfo" and fields is not None:
        return [prim_dtype_hint(f) for f in fields]
    if type(sinfo).__name__ == "PrimStructInfo":
        dtype = str(getattr(sinfo, "dtype", "") or "")
        return dtype or None
    return None


def _prim(x, hint):
    if isinstance(hint, str) and hint:
        return "{prim: {dtype: %s, value: %s}}" % (hint, yaml_number(x, hint))
    if isinstance(x, bool):
        return "{prim: {dtype: bool, value: %s}}" % yaml_number(x, "bool")
    if isinstance(x, int):
        return "{prim: {dtype: int64, value: %d}}" % x
    return "{prim: {dtype: float64, value: %s}}" % yaml_number(x, "float64")


def _items(obj, kind_of, hint):
    hints = hint if isinstance(hint, list) and len(hint) == len(obj) else [None] * len(obj)
    return ", ".join(result_to_case(o, kind_of, h) for o, h in zip(obj, hints))


def result_to_case(obj, kind_of, hint=None):
    """A VM result -> a CASE_FORMAT value as YAML flow text. `kind_of(obj)` says what a TVM
    object is: 'tensor' (has .numpy(), dtype), 'shape', 'tuple', 'string', 'dtype',
    'callable', 'prim' (value, dtype), or ('object', name). `hint` is prim_dtype_hint of the
    function's return StructInfo."""
    if obj is None:
        return "{null: true}"
    if isinstance(obj, (bool, int, float)):
        return _prim(obj, hint)
    if type(obj) is str:
        return "{string: %s}" % yaml_str(obj)
    if type(obj) in (list, tuple):
        return "{tuple: [%s]}" % _items(obj, kind_of, hint)
    # TVM's own classes may derive from Python's (its Shape is a tuple): ask first.
    kind = kind_of(obj)
    if kind == "tensor":
        return numpy_to_case(obj.numpy(), str(obj.dtype))
    if kind == "shape":
        return "{shape: [%s]}" % ", ".join(str(int(d)) for d in obj)
    if kind == "tuple":
        return "{tuple: [%s]}" % _items(list(obj), kind_of, hint)
    if kind == "string":
        return "{string: %s}" % yaml_str(str(obj))
    if kind == "dtype":
        return "{dtype: %s}" % yaml_str(str(obj))
    if kind == "callable":
        return "{callable: true}"
    if isinstance(kind, tuple) and kind[0] == "prim":
        return "{prim: {dtype: %s, value: %s}}" % (kind[1], yaml_number(kind[2], kind[1]))
    name = kind[1] if isinstance(kind, tuple) else str(kind)
    return "{object: %s}" % yaml_str(name)


# ---- TVM's errors -> phases and codes (SPEC_NOTES 4.1) ----

# (request kinds, pattern, phase, code): the first match wins. TVM checks well-formedness and
# infers StructInfo while parsing, so a `load` error is placed in the phase where the spec
# puts its rule, by its message.
ERROR_TABLE = [
    ("load", r"Non-void relax expressions must be bound", "struct_info", "NonVoidExprStmt"),
    ("load", r"(?i)undefined variable|is not defined|cannot find|undefined name", "parse",
     "UnknownName"),
    ("load", r"(?i)invalid syntax|SyntaxError|unexpected indent|EOL while scanning", "parse",
     "SyntaxError"),
    # The parser's own checks while it builds the IR (its frames, the Python signatures of the
    # R.* constructors, annotations that are not StructInfo): what the text itself says.
    ("load", r"(?i)missing (a|\d+) required (positional )?argument|unexpected keyword argument|"
             r"takes \d+ positional argument|unknown dtype|Expected StructInfoProxy|"
             r"Mismatched type on argument|frame|IRBuilder|Builder\.result|decl_function|"
             r"global_var_map|must have a return|Relax function.*return|Empty body|"
             r"var_name == var_name|String-defined shape expr|index out of range|"
             r"not implemented: Import|too many values to unpack|ndim must be specified|"
             r"Shape must be specified|array element with a sequence|has no attribute|"
             r"kUnknownNDim|ndim >= -1|DataType::Int\(64\)|missing required argument|"
             r"Type annotation is required|Cannot specify inconsistent|When providing both|"
             r"last_sep|buffer->shape.size|dtype(\(\))?\.is_int\(\) \|\||FuncStructInfoNode", "parse",
     None),
    ("load", r"(?i)well.?formed|DataflowVar .* outside|defined more than once|"
             r"used before definition|free variable", "wellformed", None),
    ("load", r"(?i)match_cast|MatchCast", "struct_info", None),
    # StructInfo inference and checking, which TVM's parser runs on every binding it builds.
    ("load", r"(?i)Op\(relax\.|\boperator\b|struct.?info|InferStructInfo|d(ata)?type|shape|"
             r"ndim|expects|mismatch|incompatible|must be|broadcast|annotation", "struct_info",
     None),
    ("run", r"(?i)divi(de|sion) by zero|floordiv|floormod.*zero", "runtime", "DivByZero"),
    ("run", r"(?i)assert", "runtime", "AssertFailed"),
    ("run", r"spectest\.\w+:", "runtime", "PackedFuncError"),
    ("run", r"(?i)cannot find (ffi::Function|PackedFunc|function)|PackedFunc.*not.*found",
     "runtime", "PackedFuncMissing"),
    ("run", r"(?i)match_shape|match_cast|MatchCast|ErrorContext", "runtime", "MatchCastShape"),
]


def classify_error(request, message):
    """(phase, code or None) for an exception TVM raised while answering `request`."""
    for kinds, pattern, phase, code in ERROR_TABLE:
        if request in kinds.split(",") and re.search(pattern, message or ""):
            return phase, code
    default = {"load": "parse", "wellformed": "wellformed", "struct_info": "struct_info",
               "run": "runtime", "normalize": "wellformed"}
    return default.get(request, "parse"), None


def first_line(message):
    """The line of a TVM error that says what went wrong (not the traceback)."""
    lines = [l.strip() for l in (message or "").splitlines() if l.strip()]
    for l in reversed(lines):
        if re.match(r"^(\w+\.)*\w*(Error|Exception)\b", l) or "error:" in l.lower():
            return l[:500]
    return (lines[-1] if lines else "(no message)")[:500]


# ---- responses ----

def response(version, ok=None, unsupported=False, fields=None):
    """One response document (without the `...` line). `fields` are (key, yaml_text) pairs
    in order; texts that are strings are quoted here."""
    out = ["protocol: %d" % version]
    if unsupported:
        out.append("unsupported: true")
        return "\n".join(out) + "\n"
    out.append("ok: %s" % ("true" if ok else "false"))
    for key, text in fields or []:
        out.append("%s: %s" % (key, text))
    return "\n".join(out) + "\n"


def error_fields(request, message, stdout=None):
    phase, code = classify_error(request, message)
    fields = [("phase", phase)]
    if code:
        fields.append(("code", yaml_str(code)))
    fields.append(("message", yaml_str(first_line(message))))
    if stdout is not None:
        fields.append(("stdout", yaml_str(stdout)))
    return fields


DIAGNOSTIC = re.compile(r"^error: (?P<text>.*?)\n\s*--> [^\n]*?:(?P<line>\d+):(?P<col>\d+)",
                        re.S | re.M)


def rendered_diagnostic(stderr):
    """(text, line, col) of the first `error:` diagnostic TVMScript's parser rendered, or
    None. The rendering is `error: TEXT` (maybe several lines), then ` --> <str>:LINE:COL`."""
    m = DIAGNOSTIC.search(stderr or "")
    if m is None:
        return None
    text = " ".join(l.strip() for l in m.group("text").splitlines() if l.strip())
    return text, int(m.group("line")), int(m.group("col"))


def load_error_fields(message, stderr):
    """A program TVM's parser rejected: the diagnostic it rendered on stderr names the error
    and where (the exception itself says only that diagnostics were emitted); classified by
    that text."""
    diag = rendered_diagnostic(stderr)
    if diag is None:
        return error_fields("load", message)
    text, line, col = diag
    fields = error_fields("load", text)
    fields[-1:-1] = [("line", str(line)), ("col", str(col))]
    return fields


def build_error_fields(message):
    """A program TVM cannot build for its VM: a runtime error when the message says which
    (a missing packed function), else code BuildFailed (no corpus code), phase runtime."""
    phase, code = classify_error("run", message)
    fields = [("phase", phase), ("code", yaml_str(code or "BuildFailed"))]
    fields.append(("message", yaml_str("build: " + first_line(message))))
    return fields


def lone_function_name(program):
    """The name of a lone `@R.function`'s def, or None for a module."""
    if re.search(r"^\s*@I\.ir_module", program, re.M):
        return None
    m = re.search(r"^\s*def\s+(\w+)\s*\(", program, re.M)
    return m.group(1) if m else None
