"""Conformance cases that every operator refuses a Shape where its first operand, a tensor,
goes: OpArgType, the operator's own error (SPEC_NOTES "Operators": an argument of the
wrong kind).

Not a family of its own: `derive(files)` takes the positive cases the other families
generate and, for the first of each operator of the plain form

    @R.function
    def main(<params>):
        y = R.<operator>(<first param>, ...)
        return y

whose first parameter is annotated as a tensor and is the call's first operand, writes a
variant where that parameter is an `R.Shape` instead. TVM v0.22 refuses every such program
while inferring StructInfo (GetInputTensorStructInfo and the operators' own checks), but for
clip (tagged `tvm-diverges`); tools/gen/check_tvm.sh runs them through it. The expected code follows from the spec's
definition of OpArgType, not from the reference's output. The variants go to
spec-tests/ops/arg_kind.yaml, tagged as their originals are.
"""

import re

FILE = "arg_kind"

# Operators left out: nn.relu6 and linear are TVMScript's spellings of clip and matmul (the
# error is theirs), tensor_to_shape's operand is checked by its own call rule (SI-14), and
# the gradient markers take any expression, and the backward operators' first operand (the
# output gradient) is one TVM v0.22 does not check, which this file leaves undecided.
NOT_OWN = {"nn.relu6", "linear", "tensor_to_shape", "grad.no_grad", "grad.start_checkpoint",
           "grad.end_checkpoint", "grad.take_backward", "grad.nll_loss_backward",
           "grad.max_pool2d_backward", "grad.avg_pool2d_backward"}
# TVM v0.22 infers clip's StructInfo as its first operand's, whatever it is (unary.cc,
# ReturnStructInfoFromArg<0>), so it accepts a Shape there (SPEC_NOTES OP-clip).
TVM_ACCEPTS = {"clip"}

PLAIN = re.compile(r"^@R\.function\ndef main\((?P<params>.*?)\)(?P<ret> -> [^\n]*)?:\n"
                   r"    (?P<var>\w+) = "
                   r"(?P<expr>R\.(?P<op>[\w.]+)\((?P<first>\w+)[,)].*)\n"
                   r"    return (?P=var)\n$")


def split_params(text):
    """`a: R.Tensor((2, 3), "float32"), b: R.Shape` -> [("a", "R.Tensor(...)"), ("b", ...)]."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            name, _, ann = text[start:i].strip().partition(":")
            out.append((name.strip(), ann.strip()))
            start = i + 1
    return out


def variant(case, file_name):
    """The first-operand-is-a-Shape variant of one generated positive case, or None."""
    if "error" in case or "valid" in case or "printed" in case:
        return None
    m = PLAIN.match(case["program"])
    if m is None or m.group("op") in NOT_OWN:
        return None
    params = split_params(m.group("params"))
    names = [n for n, _ in params]
    first = m.group("first")
    if first not in names or not dict(params)[first].startswith("R.Tensor("):
        return None
    new = ", ".join("%s: %s" % (n, "R.Shape" if n == first else a) for n, a in params)
    program = "@R.function\ndef main(%s)%s:\n    %s = %s\n    return %s\n" % (
        new, m.group("ret") or "", m.group("var"), m.group("expr"), m.group("var"))
    rule = "OP-" + m.group("op")
    out = {
        "id": "shape-for-tensor-%s" % m.group("op").replace(".", "-").replace("_", "-"),
        "description": "As %s.yaml#%s with a Shape where its first operand, a tensor, goes: "
                       "an argument of the wrong kind." % (file_name, case["id"]),
        "spec": [rule],
        "program": program,
        "error": {"phase": "struct_info", "code": "OpArgType", "rule": rule},
        "file": FILE,
    }
    tags = [t for t in case.get("tags") or [] if not t.startswith("tvm-")]
    if m.group("op") in TVM_ACCEPTS:
        tags.append("tvm-diverges")
    if tags:
        out["tags"] = tags
    return out


def derive(files):
    """{file name: cases} -> one variant per operator, from the first case that has one."""
    out, seen = [], set()
    for name in sorted(files):
        for case in files[name]:
            v = variant(case, name)
            if v is not None and v["id"] not in seen:
                seen.add(v["id"])
                out.append(v)
    return out
