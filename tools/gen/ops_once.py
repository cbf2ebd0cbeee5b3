"""Conformance cases that every operator's static failure is reported once (DIAG-1).

Not a family of its own: `derive(files)` takes the cases the other families generate and,
for each static error of the plain form

    @R.function
    def main(<params>):
        y = <operator call>
        return y

(whatever the bound variable's name)

writes a variant whose result is then used where no tensor, tuple or unpoisoned Object may
go: `z = R.add(y, other)` with `other: R.Shape`. By DIAG-1 (SPEC_NOTES.md) a failed check
leaves its expression a poisoned R.Object and a call on poison is not checked again, so the
checker's whole error list is the original case's one error; an inference that reported its
error but went on to return a tensor (or nothing) shows a second error at the add. The
expected list is the original case's expected code, written by hand or by its family's
oracle, not the reference's output. The variants go to spec-tests/ops/once_reported.yaml,
tagged as their originals are.
"""

import re

FILE = "once_reported"

PLAIN = re.compile(r"^@R\.function\ndef main\((?P<params>.*)\):\n    (?P<var>\w+) = (?P<expr>.*)\n"
                   r"    return (?P=var)\n$")


def variant(case, file_name):
    """The DIAG-1 variant of one generated case, or None when it is not a plain static error."""
    err = case.get("error")
    if err is None or err.get("phase") != "struct_info" or "args" in case or "code" not in err:
        return None
    m = PLAIN.match(case["program"])
    if m is None or "other" in m.group("params") or m.group("var") in ("z", "other"):
        return None
    params = m.group("params")
    params = params + ", other: R.Shape" if params else "other: R.Shape"
    program = ("@R.function\ndef main(%s):\n    %s = %s\n    z = R.add(%s, other)\n"
               "    return z\n" % (params, m.group("var"), m.group("expr"), m.group("var")))
    out = {
        "id": "%s-%s" % (file_name.replace("_", "-"), case["id"]),
        "description": "As %s.yaml#%s, its result then added to a shape: the failure is "
                       "reported once, the add on its poisoned result is not checked."
                       % (file_name, case["id"]),
        "spec": ["DIAG-1"] + [r for r in case["spec"] if r != "DIAG-1"],
        "program": program,
        "error": dict(err),
        "errors": [err["code"]],
        "file": FILE,
    }
    if case.get("tags"):
        out["tags"] = list(case["tags"])
    return out


def derive(files):
    """{file name: cases} -> the DIAG-1 variants of every file's plain static errors."""
    out = []
    for name in sorted(files):
        for case in files[name]:
            v = variant(case, name)
            if v is not None:
                out.append(v)
    return out
