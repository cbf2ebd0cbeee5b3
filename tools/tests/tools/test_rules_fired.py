#!/usr/bin/python3
"""The rules-fired lint (tools/lint/rules_fired.py) and `relax rules --fired` on a fixture case
file: a case naming a rule that does not fire while it is judged is reported, the cases whose
named rules (spec ids and expected errors' rules) fire are not, and the per-rule counts split
positive from negative cases; the list of accepted cases accepts what it lists and fails on a
stale line. Run: /usr/bin/python3 tools/tests/tools/test_rules_fired.py RELAX"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
RELAX = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "relax")
LINT = os.path.join(ROOT, "tools", "lint", "rules_fired.py")
FIXTURE = "tools/tests/fixtures/rules_fired/cases.yaml"
CASE = FIXTURE + "#"


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, cwd=ROOT, timeout=300)


class RulesFired(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        fd, cls.path = tempfile.mkstemp(suffix=".jsonl")
        os.close(fd)
        p = run(RELAX, "conform", "--rules-fired", cls.path, FIXTURE)
        assert p.returncode == 0, p.stdout + p.stderr
        with open(cls.path, encoding="utf-8") as f:
            cls.records = {r["id"]: r for r in map(json.loads, f)}

    @classmethod
    def tearDownClass(cls):
        os.unlink(cls.path)

    def test_records(self):
        self.assertEqual(len(self.records), 3)
        r = self.records[CASE + "names-an-error-that-fires"]
        self.assertEqual(r["outcome"], "PASS")
        self.assertFalse(r["success"])
        self.assertEqual(r["errors"], ["FN-2"])
        self.assertIn("FN-2", r["fired"])
        r = self.records[CASE + "names-what-fires"]
        self.assertTrue(r["success"])
        self.assertEqual(r["named"], ["E-7", "E-13"])
        self.assertTrue({"E-7", "E-13"} <= set(r["fired"]))
        # A static case never evaluates: no evaluation rule fires for it.
        r = self.records[CASE + "names-what-does-not-fire"]
        self.assertFalse([x for x in r["fired"] if x.startswith("E-")])
        self.assertEqual(r["fired"], sorted(r["fired"]))

    def test_lint_reports_the_rule_that_did_not_fire(self):
        p = run(sys.executable, LINT, "--fired", self.path)
        self.assertEqual(p.returncode, 1, p.stdout)
        problems = [l for l in p.stdout.splitlines() if "did not fire" in l and "#" in l]
        self.assertEqual(problems, ["rules_fired: %snames-what-does-not-fire: names E-7, which "
                                    "did not fire" % CASE])

    def test_lint_runs_relax_itself(self):
        p = run(sys.executable, LINT, "--relax", RELAX, "-j", "2", FIXTURE)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("names-what-does-not-fire: names E-7", p.stdout)
        self.assertIn("3 cases, 1 named rules did not fire", p.stdout)

    def test_lint_passes_cases_whose_rules_fire(self):
        p = run(sys.executable, LINT, "--relax", RELAX, CASE + "names-what-fires",
                CASE + "names-an-error-that-fires")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("2 cases, ok", p.stdout)

    def test_lint_rejects_a_malformed_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write('{"id": "x"}\n')
        p = run(sys.executable, LINT, "--fired", f.name)
        os.unlink(f.name)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn(":1: not a --rules-fired record", p.stdout)

    def known_list(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_known_list_accepts_a_listed_rule(self):
        known = self.known_list("# accepted\n%snames-what-does-not-fire E-7 named on purpose\n"
                                % CASE)
        p = run(sys.executable, LINT, "--fired", self.path, "--known", known)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("3 cases, ok", p.stdout)

    def test_known_list_line_that_fires_is_stale(self):
        known = self.known_list("%snames-what-does-not-fire E-7 named on purpose\n"
                                "%snames-what-fires E-13 it fires\n"
                                "%snames-what-fires SI-99 never named\n" % (CASE, CASE, CASE))
        p = run(sys.executable, LINT, "--fired", self.path, "--known", known)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn(":2: E-13 fires for %snames-what-fires now" % CASE, p.stdout)
        self.assertIn(":3: %snames-what-fires no longer names SI-99" % CASE, p.stdout)
        self.assertNotIn("names E-7, which did not fire", p.stdout)

    def test_rules_report_positive_and_negative(self):
        p = run(RELAX, "rules", "--fired", self.path)
        rows = {}
        for line in p.stdout.splitlines():
            cells = line.split()
            if len(cells) == 6 and cells[1].isdigit():
                rows[cells[0]] = tuple(int(c) for c in cells[1:])
        # named counts the corpus (spec-tests); fired, positive, negative and own (the
        # negative cases whose expected error is the rule's) count the file. FN-2 checks both
        # cases' arguments: the value case passes it, the error case fails it.
        self.assertEqual(rows["FN-2"][1:], (2, 1, 1, 1))
        self.assertEqual(rows["E-7"][1:], (1, 1, 0, 0))  # only the value case evaluates x[1]
        # The kinds of rule listed apart: judging rules need no negative case, DIAG-* no
        # positive one, and the legacy contrasts fire for none.
        self.assertIn("judging rules (need no negative case) (5): RESULT-1 RESULT-2 RESULT-3 "
                      "TOL-1 SINFO-CMP-1", p.stdout)
        self.assertIn("diagnostic rules (need no positive case) (1): DIAG-1", p.stdout)
        self.assertIn("legacy contrasts (fire for no case) (6): LEG-15", p.stdout)
        self.assertIn("fire for a positive and a negative case", p.stdout)
        self.assertEqual(p.returncode, 1)  # most rules fire for neither here

    def test_rules_lists_the_cases_of_one_rule(self):
        p = run(RELAX, "rules", "--fired", self.path, "--rule", "E-7")
        self.assertEqual(p.returncode, 0, p.stderr)
        sections = {}
        current = None
        for line in p.stdout.splitlines():
            if line.endswith(":"):
                current = line[:-1]
                sections[current] = []
            else:
                sections[current].append(line.strip())
        self.assertEqual(sections["named by"], [CASE + "names-what-fires",
                                                CASE + "names-what-does-not-fire"])
        self.assertEqual(sections["fired by"], [CASE + "names-what-fires"])
        self.assertEqual(sections["positive"], [CASE + "names-what-fires"])
        self.assertEqual(sections["negative"], [])

    def test_not_with_an_adapter(self):
        p = run(RELAX, "conform", "--rules-fired", os.devnull, "--adapter", "true", FIXTURE)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
