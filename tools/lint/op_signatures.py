#!/usr/bin/python3
"""Compares each operator's constructor in the reference's schema with TVM's Python one.

usage: op_signatures.py TVM_SRC [--relax PATH]

TVM_SRC is a TVM source tree (only python/tvm/relax/op is read; nothing of it is copied).
`relax ops --signatures` gives the schema's constructors, `relax.sum(x, axis=None,
keepdims=False)`; the Python function TVM's TVMScript calls for `R.sum` is the `sum` defined
in python/tvm/relax/op/*.py (R.nn.conv2d: `conv2d` in python/tvm/relax/op/nn/*.py, and so on).
For each operator it reports parameters that differ in name or order, required in one and
defaulted in the other, or defaulted to different values (compared as Python values, so
(1, 1) equals [1, 1]), and operators with no Python function. Exit 1 when anything differs
that is not listed with its reason in tools/lint/op_signatures_known.txt.
"""

import argparse
import ast
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
KNOWN = os.path.join(HERE, "op_signatures_known.txt")
NO_DEFAULT = object()


def literal(text):
    """A default's value, with tuples as lists; the text itself when it is no literal."""
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text.replace(" ", "")
    return normalize(v)


def normalize(v):
    if isinstance(v, (list, tuple)):
        return [normalize(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return float(v) if isinstance(v, float) else v
    return v


def python_functions(op_dir):
    """{namespace: {function name: [(param, default text or NO_DEFAULT)]}} of TVM's ops."""
    table = {}
    for dirpath, _, files in os.walk(op_dir):
        rel = os.path.relpath(dirpath, op_dir)
        ns = "" if rel == "." else rel.replace(os.sep, ".")
        for f in sorted(files):
            if not f.endswith(".py") or f.startswith("_"):
                continue
            tree = ast.parse(open(os.path.join(dirpath, f), encoding="utf-8").read())
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                    continue
                args = node.args.posonlyargs + node.args.args
                defaults = [NO_DEFAULT] * (len(args) - len(node.args.defaults)) + [
                    ast.unparse(d) for d in node.args.defaults]
                params = list(zip([a.arg for a in args], defaults))
                params += [(a.arg, ast.unparse(d) if d is not None else NO_DEFAULT)
                           for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults)]
                table.setdefault(ns, {}).setdefault(node.name, params)
    return table


SIG = re.compile(r"^(relax\.[\w.]+)\((.*)\)$")


def schema_signatures(relax):
    out = subprocess.run([relax, "ops", "--signatures"], capture_output=True, text=True,
                         check=True).stdout
    sigs = {}
    for line in out.splitlines():
        m = SIG.match(line)
        if not m:
            sys.exit(f"op_signatures: cannot read the line {line!r}")
        params = []
        if m.group(2):
            for p in split_params(m.group(2)):
                name, eq, default = p.partition("=")
                params.append((name, default if eq else NO_DEFAULT))
        sigs[m.group(1)] = params
    return sigs


def split_params(text):
    """Splits at the commas outside brackets and strings."""
    parts, depth, cur, quote = [], 0, "", None
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def compare(op, ours, theirs):
    problems = []
    names_ours = [n for n, _ in ours]
    names_theirs = [n for n, _ in theirs]
    if names_ours != names_theirs:
        problems.append(f"parameters {names_ours} in the schema, {names_theirs} in TVM")
    theirs_by_name = dict(theirs)
    for name, d in ours:
        if name not in theirs_by_name:
            continue
        t = theirs_by_name[name]
        if (d is NO_DEFAULT) != (t is NO_DEFAULT):
            problems.append(f"`{name}`: " + ("required in the schema, default " + t + " in TVM"
                                             if d is NO_DEFAULT else
                                             "default " + d + " in the schema, required in TVM"))
        elif d is not NO_DEFAULT and literal(d) != literal(t):
            problems.append(f"`{name}`: default {d} in the schema, {t} in TVM")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tvm_src")
    ap.add_argument("--relax", default=os.path.join(ROOT, "build", "relax"))
    args = ap.parse_args()
    op_dir = os.path.join(args.tvm_src, "python", "tvm", "relax", "op")
    if not os.path.isdir(op_dir):
        sys.exit(f"op_signatures: {op_dir} is not a directory")
    py = python_functions(op_dir)
    known = {}
    if os.path.exists(KNOWN):
        for line in open(KNOWN, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                op, _, reason = line.partition(" ")
                known[op] = reason
    failures = 0
    checked = 0
    for op, ours in sorted(schema_signatures(args.relax).items()):
        parts = op.split(".")[1:]
        ns, fn = ".".join(parts[:-1]), parts[-1]
        theirs = py.get(ns, {}).get(fn)
        if theirs is None:
            problems = ["no Python function in TVM's relax.op" + (f".{ns}" if ns else "")]
        else:
            checked += 1
            problems = compare(op, ours, theirs)
        if not problems:
            continue
        tag = "known" if op in known else "DIFFERS"
        failures += op not in known
        for p in problems:
            print(f"{tag} {op}: {p}" + (f" ({known[op]})" if op in known else ""))
    stale = [op for op in known if op not in schema_signatures(args.relax)]
    for op in stale:
        print(f"STALE {op}: listed in {os.path.relpath(KNOWN, ROOT)} but not in the schema")
    print(f"op_signatures: {checked} constructors compared, {failures} differ without a "
          f"listed reason")
    return 1 if failures or stale else 0


if __name__ == "__main__":
    sys.exit(main())
