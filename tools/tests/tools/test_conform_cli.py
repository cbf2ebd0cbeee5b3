#!/usr/bin/python3
"""End-to-end checks of `relax conform` as CI uses it: fixture adapters that misbehave fail
the cases they must, fast; empty selections and all-skipped runs exit non-zero; SIGINT still
writes the summary and the reports; -j N gives the same summary; and the JUnit, TAP 14 and
JSON Lines reports validate. Run: /usr/bin/python3 tools/tests/tools/test_conform_cli.py RELAX"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
RELAX = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "relax")
FAKE = os.path.join(ROOT, "tools", "tests", "fixtures", "adapters", "fake.py")
CHAPTER = os.path.join(ROOT, "spec-tests", "eval", "closures.yaml")
SUMMARY = re.compile(r"^conformance: (\d+) passed, (\d+) failed, (\d+) skipped$", re.M)


def conform(*args, env=None):
    full_env = dict(os.environ, RELAX=RELAX, **(env or {}))
    start = time.monotonic()
    p = subprocess.run([RELAX, "conform", *args], capture_output=True, text=True, cwd=ROOT,
                       env=full_env, timeout=300)
    return p, time.monotonic() - start


def counts(out):
    m = SUMMARY.search(out)
    assert m, "no summary line in:\n" + out
    return tuple(int(x) for x in m.groups())


def ncases(path):
    p, _ = conform("--list", path)
    return len(p.stdout.split())


class FixtureAdapters(unittest.TestCase):
    """Each misbehaving adapter fails every case (protocol 1 and 2), with its reason."""

    def judge(self, mode, protocol, timeout="2"):
        return conform("--adapter", "%s %s" % (FAKE, mode), "--adapter-protocol", protocol,
                       "--adapter-timeout", timeout, CHAPTER)

    def check_all_fail(self, mode, reason, protocol, limit, timeout="2"):
        p, secs = self.judge(mode, protocol, timeout)
        n = ncases(CHAPTER)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        passed, failed, skipped = counts(p.stdout)
        if mode == "always-ok":
            # A static `valid: true` case could pass; this file has none but value cases.
            self.assertEqual(passed, 0)
        self.assertEqual((failed, skipped), (n - passed, 0))
        self.assertIn(reason, p.stdout)
        self.assertLess(secs, limit, "%s took %.1f s" % (mode, secs))

    def test_always_ok(self):
        for protocol in "12":
            self.check_all_fail("always-ok", "got {tuple: []}", protocol, 60)

    def test_wrong_value(self):
        for protocol in "12":
            self.check_all_fail("wrong-value", "12345", protocol, 60)

    def check_preflight_fails(self, mode, reason):
        """Protocol 1's preflight is a load: an adapter broken on every request fails once."""
        p, secs = self.judge(mode, "1")
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        self.assertIn("failed its preflight", p.stderr)
        self.assertIn(reason, p.stderr)
        self.assertLess(secs, 10)

    def test_crash_reports_its_own_words(self):
        self.check_all_fail("crash", "fake adapter: crashing on purpose", "2", 60)
        self.check_preflight_fails("crash", "died of signal 11 on the load request: fake adapter")
        p, _ = self.judge("crash", "2")
        self.assertNotIn("Segmentation fault", p.stdout)

    def test_hang_costs_one_timeout(self):
        # One timeout of 4 s, then the restarted adapter's liveness probe (1 s) goes
        # unanswered: the rest are not sent. Two timeouts would take 8 s.
        self.check_all_fail("hang", "did not answer a liveness probe within 1 s", "2", 7, "4")

    def test_garbage(self):
        self.check_all_fail("garbage", "malformed response", "2", 60)
        self.check_preflight_fails("garbage", "malformed response to the load request")

    def test_bad_hello_fails_once(self):
        p, secs = self.judge("no-hello", "2")
        self.assertEqual(p.returncode, 3)
        self.assertIn("failed its preflight", p.stderr)
        self.assertNotIn("conformance:", p.stdout)
        self.assertLess(secs, 10)

    def test_all_unsupported_is_not_green(self):
        p, _ = self.judge("unsupported", "2")
        self.assertEqual(p.returncode, 1)
        self.assertIn("every selected case was skipped", p.stderr)
        p, _ = conform("--allow-skips", "--adapter", FAKE + " unsupported", CHAPTER)
        self.assertEqual(p.returncode, 0, p.stderr)


class Selection(unittest.TestCase):
    def test_empty_selection_is_an_error(self):
        for args in (["--filter", "no-such-case-anywhere"], ["--tag", "no-such-tag"]):
            p, _ = conform(*args, CHAPTER)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("no case matches", p.stderr)

    def test_one_case_by_its_id(self):
        p, _ = conform("--list", CHAPTER)
        first = p.stdout.split()[0]
        file_part, case_id = first.split("#")
        p, _ = conform("-v", CHAPTER + "#" + case_id)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(counts(p.stdout), (1, 0, 0))
        self.assertIn("PASS " + first, p.stdout)

    def test_fail_fast(self):
        p, _ = conform("--fail-fast", "--adapter", FAKE + " wrong-value", "--adapter-protocol",
                       "2", CHAPTER)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(counts(p.stdout)[1], 1)
        self.assertIn("stopped:", p.stdout)


class Workers(unittest.TestCase):
    def test_same_summary_whatever_n(self):
        files = [CHAPTER, os.path.join(ROOT, "spec-tests", "builtins", "spectest.yaml"),
                 os.path.join(ROOT, "spec-tests", "syntax", "if_else.yaml")]
        one, _ = conform("-v", "-j", "1", *files)
        two, _ = conform("-v", "-j", "2", *files)
        self.assertEqual(counts(one.stdout), counts(two.stdout))
        self.assertEqual(one.stdout, two.stdout)


class Reports(unittest.TestCase):
    def test_formats_validate(self):
        with tempfile.TemporaryDirectory() as d:
            paths = {k: os.path.join(d, k) for k in ("junit.xml", "run.tap", "run.jsonl",
                                                     "board.md")}
            p, _ = conform("--junit", paths["junit.xml"], "--tap", paths["run.tap"],
                           "--jsonl", paths["run.jsonl"], "--scoreboard", paths["board.md"],
                           "--adapter", FAKE + " wrong-value", "--adapter-protocol", "2",
                           CHAPTER, os.path.join(ROOT, "spec-tests", "syntax", "if_else.yaml"))
            n = sum(counts(p.stdout))
            validate_junit(self, paths["junit.xml"], n)
            validate_tap(self, paths["run.tap"], n)
            validate_jsonl(self, paths["run.jsonl"], n)
            with open(paths["board.md"]) as f:
                board = f.read()
            self.assertIn("# Conformance scoreboard: fake-wrong-value 1 (protocol 2)", board)
            self.assertIn("## Per chapter", board)

    def test_sigint_still_reports(self):
        with tempfile.TemporaryDirectory() as d:
            jsonl = os.path.join(d, "run.jsonl")
            p = subprocess.Popen([RELAX, "conform", "--jsonl", jsonl, "--adapter",
                                  FAKE + " hang", "--adapter-protocol", "2",
                                  "--adapter-timeout", "30", CHAPTER],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=ROOT)
            time.sleep(1.5)
            p.send_signal(signal.SIGINT)
            out, _ = p.communicate(timeout=60)
            self.assertEqual(p.returncode, 128 + signal.SIGINT)
            self.assertIsNotNone(SUMMARY.search(out), out)
            self.assertIn("interrupted", out)
            self.assertTrue(os.path.exists(jsonl))

    def test_signal_stops_the_case_being_judged(self):
        """SIGTERM or SIGINT while the reference evaluates a long case (a TIR loop of
        9,000,000 steps of eight stores each, seconds of work on any machine, well inside the
        step budget) stops it at its next step: the summary within a second or two, the case
        not run rather than failed, exit 128 + N; in one process and with workers."""
        program = "\n".join([
            "@I.ir_module", "class Module:", "    @T.prim_func",
            '    def spin(a: T.Buffer((1,), "int64"), b: T.Buffer((1,), "int64")):',
            "        b[0] = a[0]", "        for i in range(9000000):"] +
            ["            b[0] = b[0] + T.int64(1)"] * 8 + ["    @R.function",
            '    def main(x: R.Tensor((1,), "int64")):',
            '        y = R.call_tir(Module.spin, (x,), out_sinfo=R.Tensor((1,), "int64"))',
            "        return y", ""])
        case = {"id": "long-loop", "description": "spins", "spec": ["TIR-LOOP"],
                "program": program,
                "run": {"args": [{"tensor": {"dtype": "int64", "shape": [1], "data": [0]}}]},
                "expect": {"value": {"tensor": {"dtype": "int64", "shape": [1],
                                                "data": [72000000]}}}}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "long.yaml")
            with open(path, "w") as f:
                json.dump({"format": 1, "cases": [case]}, f)
            for sig in (signal.SIGTERM, signal.SIGINT):
                for jobs in ("1", "2"):
                    p = subprocess.Popen([RELAX, "conform", "-j", jobs, path],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, cwd=ROOT, start_new_session=True)
                    time.sleep(0.5)
                    start = time.monotonic()
                    p.send_signal(sig)
                    out, _ = p.communicate(timeout=60)
                    took = time.monotonic() - start
                    self.assertEqual(p.returncode, 128 + sig, out)
                    self.assertLess(took, 3.0, f"{sig} -j {jobs}: {took:.1f} s to stop")
                    self.assertEqual(counts(out), (0, 0, 0), out)
                    self.assertIn("1 selected cases not run", out)


def validate_junit(t, path, n):
    root = ET.parse(path).getroot()
    t.assertEqual(root.tag, "testsuites")
    cases = root.findall("./testsuite/testcase")
    t.assertEqual(len(cases), n)
    for suite in root.findall("testsuite"):
        kids = suite.findall("testcase")
        t.assertEqual(int(suite.get("tests")), len(kids))
        t.assertEqual(int(suite.get("failures")), sum(1 for k in kids if k.find("failure") is not None))
        t.assertEqual(int(suite.get("skipped")), sum(1 for k in kids if k.find("skipped") is not None))
    for c in cases:
        t.assertTrue(c.get("classname") and c.get("name"))
        float(c.get("time"))


TAP_POINT = re.compile(r"^(not )?ok (\d+)( - (\\.|[^#\\])*)?( # (SKIP|TODO)\b.*)?$")


def validate_tap(t, path, n):
    """TAP version 14: the version line, the plan, numbered points in order, YAML blocks
    indented under failing points."""
    with open(path) as f:
        lines = f.read().splitlines()
    t.assertEqual(lines[0], "TAP version 14")
    t.assertEqual(lines[1], "1..%d" % n)
    expected, i = 1, 2
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            i += 1
            continue
        m = TAP_POINT.match(line)
        t.assertIsNotNone(m, "not a TAP test point: %r" % line)
        t.assertEqual(int(m.group(2)), expected)
        expected += 1
        i += 1
        if i < len(lines) and lines[i] == "  ---":
            end = lines.index("  ...", i)
            import yaml
            block = yaml.safe_load("\n".join(l[2:] for l in lines[i + 1:end]))
            t.assertIn("message", block)
            i = end + 1
    t.assertEqual(expected - 1, n)


def validate_jsonl(t, path, n):
    keys = {"id", "file", "case", "outcome", "expect", "phase", "code", "spec", "tags", "time",
            "message"}
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    t.assertEqual(len(rows), n)
    for row in rows:
        t.assertEqual(set(row), keys)
        t.assertIn(row["outcome"], ("PASS", "FAIL", "WRONG-PHASE", "REJECTED-EARLY", "KNOWN", "SKIP"))
        t.assertIsInstance(row["spec"], list)
        t.assertIsInstance(row["time"], float)
        t.assertTrue(row["id"].endswith("#" + row["case"]))


class ErrorList(unittest.TestCase):
    """`errors:` pins every error the static checker reports (DIAG-1), through the built-in
    adapter and through protocol 2; it is refused beside anything but a struct_info error."""

    PROGRAM = """      @R.function
      def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((4, 5), "float32")):
          a = R.add(x, y)
          b = R.multiply(a, x)
          return b
"""

    def case_file(self, expect):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "errors.yaml")
        with open(path, "w") as f:
            f.write("format: 1\ncases:\n  - id: c\n    description: d\n    spec: [DIAG-1]\n"
                    "    program: |\n" + self.PROGRAM + "    expect:\n" + expect)
        return path

    def test_cascade_would_fail(self):
        path = self.case_file("      error: {phase: struct_info}\n"
                              "      errors: [OpShapeMismatch, OpArgType]\n")
        for extra in ([], ["--adapter", "tools/adapters/relax-ref", "--adapter-protocol", "2"]):
            p, _ = conform(*extra, path)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("expected the errors [OpShapeMismatch, OpArgType], got "
                          "[OpShapeMismatch]", p.stdout)
        path = self.case_file("      error: {phase: struct_info}\n      errors: [OpShapeMismatch]\n")
        for extra in ([], ["--adapter", "tools/adapters/relax-ref", "--adapter-protocol", "2"]):
            p, _ = conform(*extra, path)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_only_with_a_struct_info_error(self):
        path = self.case_file("      valid: true\n      errors: [OpShapeMismatch]\n")
        p, _ = conform(path)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("case error [CaseSchema]: errors is only allowed with a struct_info error", p.stdout + p.stderr)


class LegacyUpgrade(unittest.TestCase):
    """`relax print --syntax current` upgrades a legacy program; parse --syntax current
    reads today's syntax only."""

    CASE = os.path.join(ROOT, "spec-tests", "legacy", "forms.yaml") + "#match-shape-tensor-and-shape"

    def test_print_current_upgrades(self):
        p = subprocess.run([RELAX, "print", "--syntax", "current", self.CASE], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("R.match_cast(", p.stdout)
        self.assertNotIn("match_shape", p.stdout)
        again = subprocess.run([RELAX, "parse", "--syntax", "current", "-"], input=p.stdout,
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(again.returncode, 0, again.stderr)

    def test_parse_current_rejects_legacy(self):
        p = subprocess.run([RELAX, "parse", "--syntax", "current", self.CASE], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 4, p.stderr)


if __name__ == "__main__":
    unittest.main()
