#!/usr/bin/python3
# Measures how much of the Relax that TVM's own tests write the reference reads, prints
# and checks (SPEC_NOTES §4.10): extracts the programs, runs relax parse/print/check.
"""Measure relax-ref against the Relax programs of a TVM source tree.

usage: measure.py TVM_SRC OUT_DIR [--relax PATH] [--tvm-check] [--top N]

TVM_SRC is a TVM source tree (only tests/python/relax and tests/python/tvmscript are
read).  OUT_DIR receives one file per extracted program and a manifest; it must lie
outside the project, since TVM's program texts are never committed.  With --tvm-check
each program is also given to a TVM that Python can import (tvm.script.from_source);
programs TVM rejects are left out of the figures.  Without it every extracted program
counts.

A program is a class decorated @I.ir_module / @tvm.script.ir_module holding at least one
@R.function, or an @R.function outside any class.  Programs that use a Python name they
do not bind themselves (a variable of the test, a helper) are skipped: that is the
heuristic for "depends on a Python variable of the test".
"""

import argparse
import ast
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

TEST_DIRS = ("tests/python/relax", "tests/python/tvmscript")
HEADER = "from tvm.script import ir as I, relax as R, tir as T\n\n"
SCRIPT_NAMES = {"R", "T", "I", "tvm", "relax", "tir", "ir"}
PY_BUILTINS = {"float", "int", "range", "True", "False", "None", "bool", "str", "len",
               "tuple", "list", "min", "max", "abs"}


def decorator_name(dec):
    """'I.ir_module' for @I.ir_module and @I.ir_module(...)."""
    if isinstance(dec, ast.Call):
        dec = dec.func
    return ast.unparse(dec)


def is_module_class(node):
    return isinstance(node, ast.ClassDef) and any(
        decorator_name(d) in ("I.ir_module", "tvm.script.ir_module", "ir_module",
                              "ir.ir_module")
        for d in node.decorator_list)


def is_relax_function(node):
    return isinstance(node, ast.FunctionDef) and any(
        decorator_name(d) in ("R.function", "relax.function") for d in node.decorator_list)


def has_relax_function(cls):
    return any(is_relax_function(n) for n in cls.body)


def bound_names(tree):
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
    return names


def free_names(tree):
    """Names the program loads but neither binds nor gets from TVMScript or builtins."""
    bound = bound_names(tree) | SCRIPT_NAMES | PY_BUILTINS
    return sorted({n.id for n in ast.walk(tree)
                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                   and n.id not in bound})


def candidates(tree):
    """Yield (node, kind) for every module class and every R.function outside a class."""
    def visit(node, in_class):
        for child in ast.iter_child_nodes(node):
            if is_module_class(child):
                if has_relax_function(child):
                    yield child, "module"
                continue
            if isinstance(child, ast.ClassDef):
                yield from visit(child, True)
                continue
            if is_relax_function(child) and not in_class:
                yield child, "function"
                continue
            yield from visit(child, in_class)
    yield from visit(tree, False)


def source_of(text, node):
    lines = text.splitlines(keepends=True)
    first = min([d.lineno for d in node.decorator_list] + [node.lineno])
    return textwrap.dedent("".join(lines[first - 1:node.end_lineno]))


def extract(tvm_src):
    """Return a list of {origin, kind, text} for the test programs of TVM_SRC."""
    progs, skipped = [], collections.Counter()
    for sub in TEST_DIRS:
        root = os.path.join(tvm_src, sub)
        for dirpath, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                try:
                    tree = ast.parse(text)
                except SyntaxError:
                    continue
                for node, kind in candidates(tree):
                    body = source_of(text, node)
                    if free_names(ast.parse(body)):
                        skipped["python-variable"] += 1
                        continue
                    rel = os.path.relpath(path, tvm_src)
                    progs.append({"origin": f"{rel}:{node.lineno}", "kind": kind,
                                  "text": HEADER + body})
    return progs, skipped


def tvm_verdicts(progs, cache_path):
    """True where TVM's parser (with its well-formedness check) accepts the program.

    Verdicts are cached in OUT_DIR by the program's hash, so a second run is quick."""
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            cache = json.load(f)
    keys = [hashlib.sha256(p["text"].encode()).hexdigest() for p in progs]
    if any(k not in cache for k in keys):
        import tvm  # noqa: F401  (the user's TVM; only with --tvm-check)
        from tvm.script import from_source
        quiet = os.open(os.devnull, os.O_WRONLY)
        saved = os.dup(2)
        os.dup2(quiet, 2)  # TVM writes every rejection to stderr
        for k, p in zip(keys, progs):
            if k in cache:
                continue
            try:
                from_source(p["text"][len(HEADER):])
                cache[k] = True
            except Exception:  # any rejection: parse, well-formedness, StructInfo
                cache[k] = False
        os.dup2(saved, 2)
        with open(cache_path, "w", encoding="utf-8") as f:
            json.dump(cache, f)
    return [cache[k] for k in keys]


def run_relax(relax, args, path):
    try:
        r = subprocess.run([relax] + args + [path], capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return 124, "", f"{args[0]}: timed out after 60 s"
    lines = (r.stderr or "").strip().splitlines()
    errors = [ln for ln in lines if " error [" in ln]
    first = errors[0] if errors else (lines[0] if lines else "")
    return r.returncode, r.stdout, first


def category(line):
    """'parse UnsupportedSyntax: message with names blanked' for one error line."""
    m = re.match(r"^.*?:\d+:\d+: (\w+) error \[(\S+) ?[^\]]*\]: (.*)$", line)
    if not m:
        return line[:100] or "(no message)"
    msg = m.group(3)
    if m.group(1) != "parse":  # parse errors quote the construct; keep it
        msg = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'_'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return f"{m.group(1)} {m.group(2)}: {msg[:90]}"


def measure_one(relax, path, tmp):
    """(parsed, fixpoint, checked, first error) for one program file."""
    rc, _, err = run_relax(relax, ["parse"], path)
    if rc != 0:
        return False, False, False, category(err)
    rc, first, err = run_relax(relax, ["print"], path)
    fix = False
    if rc == 0:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(first)
        rc2, second, err = run_relax(relax, ["print"], tmp)
        fix = rc2 == 0 and second == first
        if rc2 == 0 and not fix:
            err = "print: not a fixpoint"
        elif rc2 != 0:
            err = "print: " + category(err)
    fix_err = None if fix else (err or "print: failed")
    rc, _, cerr = run_relax(relax, ["check"], path)
    ok = rc == 0
    first_err = fix_err if fix_err else (None if ok else category(cerr))
    return True, fix, ok, first_err


def percent(n, d):
    return f"{100.0 * n / d:.1f}%" if d else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tvm_src")
    ap.add_argument("out_dir")
    ap.add_argument("--relax", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "relax"))
    ap.add_argument("--tvm-check", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    # A private copy of the binary, so that rebuilding it meanwhile does not disturb a run.
    relax = os.path.join(a.out_dir, ".relax")
    shutil.copy2(a.relax, relax)
    progs, skipped = extract(a.tvm_src)
    print(f"extracted {len(progs)} programs ({skipped['python-variable']} skipped: "
          "use a Python variable of the test)")
    if a.tvm_check:
        verdicts = tvm_verdicts(progs, os.path.join(a.out_dir, "tvm_verdicts.json"))
        progs = [p for p, v in zip(progs, verdicts) if v]
        print(f"TVM accepts {len(progs)}")
    counts, hist, manifest = collections.Counter(), collections.Counter(), []
    tmp = os.path.join(a.out_dir, ".print.py")
    for i, p in enumerate(progs):
        path = os.path.join(a.out_dir, f"p{i:05d}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(p["text"])
        parsed, fix, ok, err = measure_one(relax, path, tmp)
        counts.update(parse=parsed, fixpoint=fix, check=ok)
        if err:
            hist[err] += 1
        manifest.append({"file": os.path.basename(path), "origin": p["origin"],
                         "kind": p["kind"], "parse": parsed, "fixpoint": fix,
                         "check": ok, "first_error": err})
    with open(os.path.join(a.out_dir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    n = len(progs)
    print(f"programs {n}: parse {percent(counts['parse'], n)}, "
          f"print fixpoint {percent(counts['fixpoint'], counts['parse'])} of parsed, "
          f"check {percent(counts['check'], n)}")
    print("first errors:")
    for msg, c in hist.most_common(a.top):
        print(f"{c:6d}  {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
