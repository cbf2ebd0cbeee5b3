#!/usr/bin/python3
"""Every class of hostile input SPEC_NOTES 4.18 bounds, end to end: each command ends with the
right answer or one clean error line (exit 2 to 7) within 10 CPU-seconds and 1 GiB of resident
memory, with no sanitizer report.

The classes: long flat syntax (sums, subscript and call chains, a sum inside a shape) and deep
legal values (nested tuple bindings) through parse, check, print and run; YAML alias cycles and
"billion laughs" in case files and in --arg; size arithmetic near 2^62 in shapes and operator
attributes; nominal memory limits (a huge R.zeros, a --arg shape its data cannot fill, a format
width, a split count, broadcast_to, an operator's working memory for an empty tensor beside a
dim near 2^63, the heap full within one case of a conformance run); quadratic algorithms
(100,000 bindings run and entered in the REPL, 20,000 cases, a call chain printed, a
20,000-function call chain checked, deep YAML);
fuel inside one operator (an 8192 x 8192 matmul; arange, eye, pad, resize2d, meshgrid,
broadcast_to, tile and repeat to 2e8 or more elements; an add that broadcasts to 4e8; take,
one_hot and builtin.alloc_tensor to 4e8, refused by the bound on the tensors an operator makes;
under --fuel 100000); a NUL byte.

Run: /usr/bin/python3 tools/tests/tools/hostile_classes.py [RELAX] [--table]
Run it against a release build and a -DRELAX_SANITIZE=ON build; exits 1 with one line per
finding; --table prints class, command, exit code, CPU seconds and peak resident memory."""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "fuzz"))
import seeds  # noqa: E402  (the long and deep inputs of the fuzz harnesses)

CPU_SECONDS = 10
MAX_RSS_KIB = 1 << 20
WALL_SECONDS = 120
SANITIZER = re.compile(r"ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer")
HELP_HINT = "(run 'relax help"
PROLOGUE = seeds.PROLOGUE
ARG2 = "{tensor: {dtype: float32, shape: [2], data: [1, 2]}}"


def programs():
    """(class, name, program text, command words after FILE, expected stdout or None)."""
    long = dict(seeds.long_and_deep_programs())
    for name in ("long-sum", "long-subscript", "long-call-chain", "shape-sum"):
        for cmd in ("parse", "check", "print"):
            yield "long flat syntax", f"{name} {cmd}", long[name], [cmd], None
    nested = long["nested-tuple-bindings"]
    body = "".join("    t%d = (t%d,)\n" % (i + 1, i) for i in range(100000))
    deep = PROLOGUE + "    t0 = (x,)\n" + body + "    return t100000\n"
    yield "deep legal values", "100,000 nested tuples check", deep, ["check"], None
    yield "deep legal values", "100,000 nested tuples run", deep, ["run", "--arg", ARG2], None
    yield "deep legal values", "20,000 nested tuples print", nested, ["print"], None
    near = 2**62
    shape_ops = {
        "broadcast_to": f"R.broadcast_to(x, R.shape([{near}, {near}]))",
        "tile": f"R.tile(x, [{near}])",
        "repeat": f"R.repeat(x, {near}, axis=0)",
        "reshape": f"R.reshape(x, R.shape([{near}, {near}, -1]))",
    }
    for op, call in shape_ops.items():
        yield ("size arithmetic", f"{op} near 2^62 check",
               PROLOGUE + f"    y = {call}\n    return y\n", ["check"], None)
    conv = ("@R.function\ndef main(x: R.Tensor((1, 1, 4, 4), \"float32\"), "
            "w: R.Tensor((1, 1, 3, 3), \"float32\")):\n"
            f"    y = R.nn.conv2d(x, w, padding=[{near}, {near}, {near}, {near}])\n"
            "    return y\n")
    yield "size arithmetic", "conv2d padding 2^62 check", conv, ["check"], None
    pool = ("@R.function\ndef main(x: R.Tensor((1, 1, 4, 4), \"float32\")):\n"
            f"    y = R.nn.max_pool2d(x, pool_size=[1, 1], padding=[{near}, 0, {near}, 0])\n"
            "    return y\n")
    yield "size arithmetic", "max_pool2d padding 2^62 check", pool, ["check"], None
    yield ("nominal memory limits", "R.zeros of 8 GiB run",
           "@R.function\ndef main():\n    y = R.zeros(R.shape([2147483648]), \"float32\")\n"
           "    return y\n", ["run"], None)
    yield ("nominal memory limits", "print width 9999999999 run",
           PROLOGUE + "    R.print(x, format=\"{:>9999999999}\")\n    return x\n",
           ["run", "--arg", ARG2], None)
    yield ("nominal memory limits", "split into 10^9 check",
           PROLOGUE + "    y = R.split(x, 1000000000)\n    return y\n", ["check"], None)
    yield ("nominal memory limits", "broadcast_to 2^31 x 2^31 run",
           PROLOGUE + "    y = R.broadcast_to(x, R.shape([2147483648, 2]))\n    return y\n",
           ["run", "--arg", ARG2], None)
    yield ("nominal memory limits", "unique axis=1 of 0 x (2^63-1) run",
           "@R.function\ndef main(x: R.Tensor(ndim=2, dtype=\"float32\")):\n"
           "    y = R.unique(x, axis=1)\n    return y\n",
           ["run", "--arg", "{tensor: {dtype: float32, shape: [0, 9223372036854775807], "
            "data: []}}"], None)
    yield ("nominal memory limits", "--arg shape its data cannot fill",
           PROLOGUE + "    return x\n",
           ["run", "--arg", "{tensor: {dtype: float32, shape: [100000000], data: [1]}}"], None)
    chain = "@I.ir_module\nclass Module:\n" + "".join(
        "    @R.function\n    def f%d(x: R.Tensor((2,), \"float32\")):\n"
        "        y = Module.f%d(x)\n        return y\n" % (i, i + 1) for i in range(2000)) + (
        "    @R.function\n    def f2000(x: R.Tensor((2,), \"float32\")):\n        return x\n")
    yield "quadratic algorithms", "2,000-function call chain print", chain, ["print"], None
    # a chain of 20,000 functions without return annotations: the call graph's questions
    # (WF-7, WF-8) in linear time, and StructInfo deriving each callee first, 20,000 deep
    long_chain = "@I.ir_module\nclass Module:\n" + "".join(
        "    @R.function\n    def f%d(x: R.Tensor((2,), \"float32\")):\n"
        "        y = Module.f%d(x)\n        return y\n" % (i, i + 1) for i in range(20000)) + (
        "    @R.function\n    def f20000(x: R.Tensor((2,), \"float32\")):\n        return x\n")
    yield ("quadratic algorithms", "20,000-function call chain check", long_chain, ["check"],
           None)
    many = PROLOGUE + "    v0 = R.add(x, x)\n" + "".join(
        "    v%d = R.add(v%d, x)\n" % (i, i - 1) for i in range(1, 100000)) + "    return v99999\n"
    yield ("quadratic algorithms", "100,000 bindings run", many, ["run", "--arg", ARG2],
           "{tensor: {dtype: float32, shape: [2], data: [100001, 200002]}}")
    yield ("fuel inside an operator", "8192 x 8192 matmul --fuel 100000",
           "@R.function\ndef main():\n    a = R.ones(R.shape([8192, 8192]), \"float32\")\n"
           "    y = R.matmul(a, a)\n    return y\n", ["run", "--fuel", "100000"], None)
    # operators whose result outgrows their operands pay for it before making it: each result
    # is under the tensor limit, so only the fuel refuses it in time
    for name, expr in [("arange", "R.arange(0, 200000000, 1, \"int64\")"),
                       ("eye", "R.eye(20000, 20000, 0, \"float32\")"),
                       ("pad", "R.nn.pad(x, [0, 200000000])"),
                       ("resize2d", "R.image.resize2d(R.reshape(x, R.shape([1, 1, 1, 1])), "
                                    "(20000, 20000))"),
                       ("meshgrid", "R.meshgrid((R.ones((20000,), \"int8\"), "
                                    "R.ones((20000,), \"int8\")))"),
                       ("broadcast_to", "R.broadcast_to(x, R.shape([200000000]))"),
                       ("tile", "R.tile(x, [200000000])"),
                       ("repeat", "R.repeat(x, 200000000, axis=0)")]:
        yield ("fuel inside an operator", "%s, 2e8 elements or more, --fuel 100000" % name,
               "@R.function\ndef main(x: R.Tensor((1,), \"int8\")):\n"
               "    y = %s\n    return y\n" % expr,
               ["run", "--fuel", "100000", "--arg",
                "{tensor: {dtype: int8, shape: [1], data: [1]}}"], None)
    # a broadcasting binary operator pays for its result before making it: (20000, 1) beside
    # (1, 20000) makes 1.6 GB of float32 from 160 KB of operands
    yield ("fuel inside an operator", "add (20000, 1) + (1, 20000) --fuel 100000",
           "@R.function\ndef main():\n    x = R.ones((20000, 1), \"float32\")\n"
           "    y = R.ones((1, 20000), \"float32\")\n    z = R.add(x, y)\n    return z\n",
           ["run", "--fuel", "100000"], None)
    # every other operator and builtin: no tensor it makes may pass the fuel left as it is
    # called, so a result far larger than its operands is refused before its memory is taken
    for name, body in [
            ("take", "    x = R.ones((1, 20000), \"float32\")\n"
                     "    i = R.zeros((20000,), \"int64\")\n    y = R.take(x, i, axis=0)\n"),
            ("one_hot", "    i = R.zeros((20000,), \"int32\")\n"
                        "    y = R.one_hot(i, R.prim_value(T.float32(1)), "
                        "R.prim_value(T.float32(0)), 20000)\n"),
            ("builtin.alloc_tensor", "    y = R.builtin.alloc_tensor(R.shape([20000, 20000]), "
                                     "\"float32\", 0)\n")]:
        yield ("fuel inside an operator", "%s, 4e8 elements, --fuel 100000" % name,
               "@R.function\ndef main():\n" + body + "    return y\n",
               ["run", "--fuel", "100000"], None)
    yield "NUL byte", "NUL after a program parse", long["nul-byte"], ["parse"], None


def values():
    for name, text in seeds.hostile_values():
        yield "YAML aliases" if "alias" in name or "laughs" in name else "value limits", name, text


def cases():
    for name, text in seeds.hostile_cases():
        yield ("quadratic algorithms" if name in ("many-cases", "deep-nesting")
               else "YAML aliases"), name, text


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))


def run(cmd, stdin_path=None):
    """(exit code or None for a hang, CPU seconds, peak KiB, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=stdin, preexec_fn=limit_cpu)
        deadline = time.monotonic() + WALL_SECONDS
        while True:
            done, status, usage = os.wait4(p.pid, os.WNOHANG)
            if done == p.pid:
                code = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                os.kill(p.pid, 9)
                _, status, usage = os.wait4(p.pid, 0)
                code = None
                break
            time.sleep(0.02)
        if stdin_path:
            stdin.close()
        out.seek(0)
        err.seek(0)
        return (code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
                out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def judge(name, result, expected=None, conform=False):
    code, cpu, rss, stdout, stderr = result
    if SANITIZER.search(stderr):
        return f"{name}: sanitizer: " + stderr.strip().splitlines()[0][:200]
    if code is None:
        return f"{name}: no end within {WALL_SECONDS} s"
    if code < 0:
        return f"{name}: killed by signal {-code}" + (
            " (more than 10 CPU-seconds)" if -code in (9, 24) else "")
    if rss > MAX_RSS_KIB:
        return f"{name}: {rss // 1024} MiB resident"
    if cpu > CPU_SECONDS:
        return f"{name}: {cpu:.1f} CPU-seconds"
    if conform:
        return None if code in (0, 1) and "conformance:" in stdout else (
            f"{name}: conform exit {code}: {stderr.strip()[-200:]}")
    lines = [l for l in stderr.splitlines() if l.strip() and not l.startswith(HELP_HINT)]
    if code == 0:
        if expected is not None and stdout.strip().splitlines()[-1:] != [expected]:
            return f"{name}: wrong answer: {stdout.strip()[-200:]}"
        return None
    if not 2 <= code <= 7:
        return f"{name}: exit {code}: " + " | ".join(lines[:2])[:200]
    if len(lines) != 1 or " error [" not in lines[0]:
        return f"{name}: exit {code} with {len(lines)} lines: " + " | ".join(lines[:3])[:200]
    return None


def heap_case(tmp):
    """A case file whose first case fills the heap (64 MiB) and whose second adds: the first
    is an OutOfMemory runtime error, the second still passes."""
    path = os.path.join(tmp, "heap.yaml")
    with open(path, "w") as f:
        f.write("format: 1\ncases:\n"
                "  - id: heap-full\n    description: d\n    spec: [OP-zeros]\n    program: |\n"
                "      @R.function\n      def main():\n"
                + "".join("          a%d = R.zeros(R.shape([3000000]), \"float64\")\n" % i
                          for i in range(3))
                + "          return (a0, a1, a2)\n"
                "    run: {args: []}\n"
                "    expect: {error: {phase: runtime, code: OutOfMemory}}\n"
                "  - id: after\n    description: d\n    spec: [OP-add]\n    program: |\n"
                "      @R.function\n      def main(x: R.Tensor((2,), \"float32\")):\n"
                "          return R.add(x, x)\n"
                f"    run: {{args: [{ARG2}]}}\n"
                "    expect: {value: {tensor: {dtype: float32, shape: [2], data: [2, 4]}}}\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("relax", nargs="?", default=os.path.join(ROOT, "build", "relax"))
    ap.add_argument("--table", action="store_true", help="print every command's measures")
    args = ap.parse_args()
    os.environ.setdefault("ASAN_OPTIONS", "detect_stack_use_after_return=0:detect_leaks=0")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    relax = os.path.abspath(args.relax)
    rows, findings = [], []
    sys.setrecursionlimit(20000)

    def one(klass, name, cmd, expected=None, conform=False, stdin_path=None, env_heap=None):
        if env_heap:
            os.environ["RELAX_MAX_HEAP"] = str(env_heap)
        r = run(cmd, stdin_path)
        os.environ.pop("RELAX_MAX_HEAP", None)
        rows.append((klass, name, r[0], r[1], r[2]))
        f = judge(name, r, expected, conform)
        if f:
            findings.append(f)

    with tempfile.TemporaryDirectory() as tmp:
        for i, (klass, name, text, words, expected) in enumerate(programs()):
            path = os.path.join(tmp, f"p{i}.py")
            with open(path, "w") as f:
                f.write(text)
            one(klass, name, [relax, words[0], path] + words[1:], expected)
        identity = os.path.join(tmp, "identity.py")
        with open(identity, "w") as f:
            f.write("@R.function\ndef main(x: R.Object):\n    return x\n")
        for klass, name, text in values():
            one(klass, f"--arg {name}", [relax, "run", identity, "--arg", text])
        for klass, name, text in cases():
            path = os.path.join(tmp, f"{name}.yaml")
            with open(path, "w") as f:
                f.write(text)
            one(klass, f"case file {name} conform", [relax, "conform", path], conform=True)
        deep_case = os.path.join(tmp, "deep.yaml")
        with open(deep_case, "w") as f:
            f.write("format: 1\ncases:\n  - id: deep\n    description: d\n    spec: [E-6]\n"
                    "    program: |\n      @R.function\n"
                    "      def main(x: R.Tensor((2,), \"float32\")):\n          t0 = (x,)\n"
                    + "".join("          t%d = (t%d,)\n" % (i + 1, i) for i in range(100000))
                    + "          return t100000\n"
                    f"    run: {{args: [{ARG2}]}}\n    expect: {{value: {ARG2}}}\n")
        one("deep legal values", "100,000 nested tuples conform", [relax, "conform", deep_case],
            conform=True)
        one("nominal memory limits", "heap full in one case conform",
            [relax, "conform", heap_case(tmp)], conform=True, env_heap=64 << 20)
        repl_in = os.path.join(tmp, "repl.txt")
        with open(repl_in, "w") as f:
            f.write(PROLOGUE + "    v0 = R.add(x, x)\n" + "".join(
                "    v%d = R.add(v%d, x)\n" % (i, i - 1) for i in range(1, 100000))
                + "    return v99999\n\n:quit\n")
        one("quadratic algorithms", "100,000 bindings into relax repl", [relax, "repl"],
            stdin_path=repl_in)
    if args.table:
        print("| class | command | exit | CPU s | max RSS MiB |")
        print("|---|---|---|---|---|")
        for klass, name, code, cpu, rss in rows:
            print(f"| {klass} | {name} | {code} | {cpu:.2f} | {rss // 1024} |")
    for f in findings:
        print("FINDING " + f)
    print(f"hostile_classes: {len(rows)} commands, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
