#!/usr/bin/python3
"""seeds.py OUT_DIR [--sample N]: the starting inputs of the fuzz harnesses (tools/fuzz/README.md).
seeds.py --vdevice-chain N FILE: writes one of them at N bindings (tools/bench/run.sh's scaling).

OUT_DIR/script and OUT_DIR/run get every program of spec-tests/ (one file each), OUT_DIR/case
every case file, OUT_DIR/value every argument and expected value (flow style). Each also gets
the long and deep shapes random mutation never reaches (hostile input, SPEC_NOTES 4.18):
30,000-term sums, chains of subscripts and calls, deeply nested tuples and brackets, a
25,000-term sum inside a shape, YAML alias cycles and "billion laughs" expansions, a NUL byte
after a valid program, and very long names. Deterministic: the same tree gives the same files.
With --sample N only every Nth input taken from the corpus is written (the CI smoke's seeds);
the long and deep ones always are.
"""
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROLOGUE = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"


def long_and_deep_programs():
    """Programs of the shapes that once overflowed the stack or took quadratic time."""
    n = 30000
    yield "long-sum", PROLOGUE + "    y = " + " + ".join(["x"] * n) + "\n    return y\n"
    yield "long-subscript", PROLOGUE + "    y = x" + "[0]" * 20000 + "\n    return y\n"
    yield "long-call-chain", PROLOGUE + "    y = x" + "()" * 20000 + "\n    return y\n"
    yield "deep-parens", PROLOGUE + "    y = " + "(" * 5000 + "x" + ")" * 5000 + "\n    return y\n"
    yield "deep-tuple", PROLOGUE + "    y = " + "(" * 3000 + "x," + ")" * 3000 + "\n    return y\n"
    yield "shape-sum", ("@R.function\ndef main(x: R.Tensor((\"n\",), \"float32\")):\n"
                        "    n = T.int64()\n    y = R.reshape(x, (" +
                        " + ".join(["n"] * 25000) + ",))\n    return y\n")
    body = "".join("    t%d = (t%d,)\n" % (i + 1, i) for i in range(20000))
    yield "nested-tuple-bindings", (PROLOGUE + "    t0 = (x,)\n" + body + "    return t20000\n")
    yield "many-bindings", (PROLOGUE + "".join("    v%d = R.add(x, x)\n" % i
                                                for i in range(20000)) + "    return v0\n")
    yield "nul-byte", PROLOGUE + "    return x\n\0garbage"
    yield "long-name", PROLOGUE + "    " + "v" * 100000 + " = x\n    return x\n"
    yield "vdevice-chain", vdevice_chain(20000)
    yield "deep-indent", PROLOGUE + "".join("    " * (i + 1) + "if x:\n" for i in range(150))


def vdevice_chain(n):
    """N bindings, each using only the one before, in a module with VDevices whose result is
    annotated on cuda: the backward pass (VDEV-4) carries it through all N to the parameter."""
    lines = ["@I.ir_module", "class Module:",
             '    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0)]})',
             "    @R.function",
             '    def main(x: R.Tensor((2,), "float32"))'
             ' -> R.Tensor((2,), "float32", vdevice="cuda:0"):',
             "        v0 = R.negative(x)"]
    lines += ["        v%d = R.negative(v%d)" % (i, i - 1) for i in range(1, n)]
    lines.append("        return v%d" % (n - 1))
    return "\n".join(lines) + "\n"


def hostile_values():
    yield "alias-cycle", "&a {tuple: [*a]}"
    laughs = ["a0: &a0 {tuple: [{prim: {dtype: int64, value: 1}}]}"]
    for i in range(1, 30):
        laughs.append("a%d: &a%d {tuple: [*a%d, *a%d, *a%d, *a%d]}" % (i, i, i - 1, i - 1, i - 1, i - 1))
    yield "billion-laughs", "{" + ", ".join(laughs) + "}"
    yield "deep-tuple", "{tuple: [" * 2000 + "]}" * 2000
    yield "shape-lie", "{tensor: {dtype: float32, shape: [1000000000, 1000000000], data: [1]}}"
    yield "huge-dims", "{tensor: {dtype: float32, shape: [9223372036854775807, 2], data: []}}"


def hostile_cases():
    yield "alias-cycle", "cases: &a [*a]\n"
    laughs = "".join("l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n"
                     % ((i, i) + (i - 1,) * 9) for i in range(1, 9))
    yield "billion-laughs", "format: 1\nl0: &l0 [x]\n" + laughs + "cases: []\n"
    yield "deep-nesting", "format: 1\ncases: " + "[" * 10000 + "]" * 10000 + "\n"
    ids = "".join("  - {id: c%d, description: d, spec: [E-1], program: 'x', expect: {valid: true}}\n"
                  % i for i in range(20000))
    yield "many-cases", "format: 1\ncases:\n" + ids


class Loader(yaml.SafeLoader):
    """Reads the project's tagged values (`!index_map "..."`) as the text they hold."""


Loader.add_multi_constructor("!", lambda loader, suffix, node: (
    loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None))


SAMPLE = 1
COUNT = [0]


def write_sampled(folder, name, text):
    COUNT[0] += 1
    if COUNT[0] % SAMPLE == 0:
        write(folder, name, text)


def write(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def flow(value):
    return yaml.safe_dump(value, default_flow_style=True, width=1 << 30).strip()


def main():
    global SAMPLE
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--vdevice-chain" and args[1].isdigit():
        write(os.path.dirname(os.path.abspath(args[2])), os.path.basename(args[2]),
              vdevice_chain(int(args[1])))
        return
    if len(args) == 3 and args[1] == "--sample" and args[2].isdigit() and int(args[2]) > 0:
        SAMPLE = int(args[2])
        args = args[:1]
    if len(args) != 1:
        sys.exit("usage: seeds.py OUT_DIR [--sample N]")
    out = args[0]
    corpus = os.path.join(ROOT, "spec-tests")
    for dirpath, _, files in sorted(os.walk(corpus)):
        for fname in sorted(files):
            if not fname.endswith(".yaml"):
                continue
            path = os.path.join(dirpath, fname)
            rel = os.path.relpath(path, corpus).replace(os.sep, "_")[:-5]
            text = open(path, encoding="utf-8").read()
            write_sampled(os.path.join(out, "case"), rel, text)
            doc = yaml.load(text, Loader=Loader) or {}
            for case in doc.get("cases") or []:
                cid = "%s_%s" % (rel, case.get("id"))
                if isinstance(case.get("program"), str):
                    write_sampled(os.path.join(out, "script"), cid, case["program"])
                    write_sampled(os.path.join(out, "run"), cid, case["program"])
                runs = case.get("run")
                runs = runs if isinstance(runs, list) else [runs] if runs else []
                for k, run in enumerate(runs):
                    for j, arg in enumerate((run or {}).get("args") or []):
                        write_sampled(os.path.join(out, "value"), "%s_%d_%d" % (cid, k, j),
                                      flow(arg))
    for name, text in long_and_deep_programs():
        write(os.path.join(out, "script"), "hostile-" + name, text)
        write(os.path.join(out, "run"), "hostile-" + name, text)
    for name, text in hostile_values():
        write(os.path.join(out, "value"), "hostile-" + name, text)
    for name, text in hostile_cases():
        write(os.path.join(out, "case"), "hostile-" + name, text)


if __name__ == "__main__":
    main()
