#!/usr/bin/python3
"""End-to-end checks of `relax gen`, `relax reduce`, `--timeout` and the byte limits: generated programs are deterministic,
their case files are valid and judge an adapter, the differential checks pass on 1,000
programs, and the reducer shrinks a planted disagreement (an adapter whose R.maximum is
wrong) and an error to a few lines, writing a case file that reproduces it.
Run: /usr/bin/python3 tools/tests/tools/test_gen_reduce.py RELAX"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
RELAX = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "relax")
FAKE = os.path.join(ROOT, "tools", "tests", "fixtures", "adapters", "fake.py")
SUMMARY = re.compile(r"^conformance: (\d+) passed, (\d+) failed, (\d+) skipped$", re.M)


def relax(*args, timeout=600):
    env = dict(os.environ, RELAX=RELAX)
    return subprocess.run([RELAX, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=timeout)


def counts(out):
    m = SUMMARY.search(out)
    assert m, "no summary line in:\n" + out
    return tuple(int(x) for x in m.groups())


def program_lines(case_text):
    """The non-blank lines of the first case's program block."""
    lines = case_text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "program: |") + 1
    body = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("      "):
            break
        if line.strip():
            body.append(line.strip())
    return body


class Generate(unittest.TestCase):
    def test_same_seed_same_program(self):
        a = relax("gen", "--text", "--seed", "42", "--size", "12").stdout
        b = relax("gen", "--text", "--seed", "42", "--size", "12").stdout
        c = relax("gen", "--text", "--seed", "43", "--size", "12").stdout
        self.assertEqual(a, b)
        self.assertNotEqual(a, c)
        self.assertIn("def main(", a)
        self.assertIn("# --arg '{tensor:", a)

    def test_without_leaves_constructs_out(self):
        p = relax("gen", "--text", "--count", "50", "--without", "if,closure,dataflow")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("if cond", p.stdout)
        self.assertNotIn("R.dataflow()", p.stdout)
        self.assertNotIn("def f", p.stdout)
        full = relax("gen", "--text", "--count", "50").stdout
        for construct in ("if cond", "R.dataflow()", "def f", "R.match_cast(", "cls.helper"):
            self.assertIn(construct, full)

    def test_differential_checks_pass(self):
        p = relax("gen", "--check", "--count", "1000", "--seed", "1", "--size", "12")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("1000 passed the differential checks, 0 failed", p.stdout)

    def test_case_file_judges_an_adapter(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "gen.yaml")
            p = relax("gen", "--count", "20", "--seed", "7", "--out", path)
            self.assertEqual(p.returncode, 0, p.stderr)
            p = relax("conform", path)
            self.assertEqual(counts(p.stdout), (20, 0, 0), p.stdout)
            p = relax("conform", "--adapter", FAKE + " wrong-value", path)
            self.assertEqual(counts(p.stdout), (0, 20, 0), p.stdout)

    def test_usage_errors(self):
        for args in (["--size", "0"], ["--count", "x"], ["--without", "loops"],
                     ["--check", "--text"]):
            p = relax("gen", *args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("relax help gen", p.stderr)


LOOP = """@I.ir_module
class Module:
    @R.function
    def spin(p: R.Prim("int64")) -> R.Prim("int64"):
        cls = Module
        r = cls.spin(p)
        return r

    @R.function
    def main() -> R.Prim("int64"):
        cls = Module
        r = cls.spin(R.prim_value(0))
        return r
"""


class Timeout(unittest.TestCase):
    """LIMIT-time: --timeout stops a run that the step budget would let go on."""

    def test_run_timeout(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "loop.py")
            with open(src, "w") as f:
                f.write(LOOP)
            p = relax("run", src, "--timeout", "0.5", "--fuel", "1000000000000", timeout=60)
            self.assertEqual(p.returncode, 7, p.stderr)
            self.assertIn("[Timeout LIMIT-time]", p.stderr)
            self.assertEqual(relax("run", src, "--timeout", "0").returncode, 2)

    def test_conform_timeout(self):
        case = "spec-tests/eval/limits.yaml#infinite-tail-loop-step-limit"
        self.assertEqual(counts(relax("conform", case).stdout), (1, 0, 0))
        p = relax("conform", "--timeout", "0.05", case)
        self.assertEqual(counts(p.stdout), (0, 1, 0), p.stdout)
        self.assertIn("Timeout", p.stdout)


ZEROS = """@R.function
def main():
    y = R.zeros((%d,), "float32")
    return R.shape_of(y)
"""


class Limits(unittest.TestCase):
    """Resource limits set on the command line: --max-tensor-bytes and --max-heap."""

    def run_zeros(self, n, *opts):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "zeros.py")
            with open(src, "w") as f:
                f.write(ZEROS % n)
            return relax("run", src, "--fuel", "1000000000", *opts, timeout=120)

    def test_tensor_bytes(self):
        # 1,000 float32 elements: 4,000 bytes, under a 4K limit and over a 3,999-byte one.
        self.assertEqual(self.run_zeros(1000, "--max-tensor-bytes", "4K").returncode, 0)
        p = self.run_zeros(1000, "--max-tensor-bytes=3999")
        self.assertEqual(p.returncode, 7, p.stderr)
        self.assertIn("[OpPrecondition OP-zeros]", p.stderr)
        self.assertIn("limit of 3999 bytes (--max-tensor-bytes)", p.stderr)

    def test_tensor_bytes_checks_arguments(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "id.py")
            with open(src, "w") as f:
                f.write('@R.function\ndef main(x: R.Tensor((4,), "float32")):\n    return x\n')
            arg = "{tensor: {dtype: float32, shape: [4], data: [1, 2, 3, 4]}}"
            self.assertEqual(relax("run", src, "--arg", arg, "--max-tensor-bytes", "16").returncode, 0)
            p = relax("run", src, "--arg", arg, "--max-tensor-bytes", "15")
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("limit of 15 bytes", p.stderr)

    def test_heap(self):
        # 200 MB in one tensor: over a 64 MiB heap, one line and the runtime exit code.
        p = self.run_zeros(50000000, "--max-heap", "64M")
        self.assertEqual(p.returncode, 7, p.stderr)
        self.assertIn("runtime error [OutOfMemory]", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def test_fuel_refuses_a_large_result_before_making_it(self):
        # LIMIT-fuel: a result of constant shape is charged before the kernel runs, so
        # 50,000,000 elements under a budget of 1,000 stop at the budget, not in a 64 MiB heap.
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "zeros.py")
            with open(src, "w") as f:
                f.write(ZEROS % 50000000)
            p = relax("run", src, "--fuel", "1000", "--max-heap", "64M", timeout=120)
        self.assertEqual(p.returncode, 7, p.stderr)
        self.assertNotIn("OutOfMemory", p.stderr)
        self.assertIn("[StepLimit LIMIT-fuel]", p.stderr)

    def test_usage_errors(self):
        for opts in (["--max-heap", "1M"], ["--max-heap"], ["--max-tensor-bytes", "0"],
                     ["--max-tensor-bytes=12X"], ["--max-tensor-bytes", "-5"],
                     ["--max-tensor-bytes", "99999999999999999999G"]):
            p = self.run_zeros(10, *opts)
            self.assertEqual(p.returncode, 2, (opts, p.stderr))
            self.assertIn("usage error", p.stderr)


class Reduce(unittest.TestCase):
    def test_planted_disagreement(self):
        with tempfile.TemporaryDirectory() as tmp:
            cases = os.path.join(tmp, "gen.yaml")
            relax("gen", "--count", "1", "--seed", "1", "--size", "8", "--out", cases)
            with open(cases) as f:
                original = program_lines(f.read())
            self.assertTrue(any("R.maximum(" in line for line in original))
            out = os.path.join(tmp, "reduced.yaml")
            p = relax("reduce", cases + "#gen-1-size-8", "--adapter", FAKE + " planted",
                      "--out", out)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(out) as f:
                reduced = program_lines(f.read())
            self.assertTrue(any("R.maximum(" in line for line in reduced), reduced)
            self.assertLessEqual(len(reduced), 7, reduced)
            self.assertLess(len(reduced), len(original))
            # The case reproduces it: the reference passes it, the planted bug fails it.
            self.assertEqual(counts(relax("conform", out).stdout), (1, 0, 0))
            p = relax("conform", "--adapter", FAKE + " planted", out)
            self.assertEqual(counts(p.stdout), (0, 1, 0), p.stdout)

    def test_error_code(self):
        program = "\n".join([
            "@I.ir_module",
            "class Module:",
            "    @R.function",
            "    def helper(a: R.Tensor((2, 3), \"float32\")):",
            "        b = R.add(a, a)",
            "        return b",
            "",
            "    @R.function",
            "    def main(x: R.Tensor((2, 3), \"float32\"), y: R.Tensor((3, 2), \"float32\")):",
            "        cls = Module",
            "        with R.dataflow():",
            "            t = cls.helper(x)",
            "            u = R.multiply(t, x)",
            "            w = R.add(u, y)",
            "            R.output(w)",
            "        return w",
            ""])
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "p.py")
            with open(src, "w") as f:
                f.write(program)
            p = relax("reduce", src, "--error", "OpShapeMismatch")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("code: OpShapeMismatch", p.stdout)
            reduced = program_lines(p.stdout)
            self.assertLessEqual(len(reduced), 6, reduced)
            self.assertFalse(any("helper" in line for line in reduced), reduced)
            out = os.path.join(tmp, "r.yaml")
            with open(out, "w") as f:
                f.write(p.stdout)
            self.assertEqual(counts(relax("conform", out).stdout), (1, 0, 0))
            # A predicate that does not hold for the input is exit 1.
            p = relax("reduce", src, "--error", "DivByZero")
            self.assertEqual(p.returncode, 1)
            self.assertEqual(relax("reduce", src).returncode, 2)


if __name__ == "__main__":
    unittest.main(verbosity=1)
