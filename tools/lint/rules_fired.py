#!/usr/bin/env python3
"""rules_fired: every rule a conformance case names must fire while the reference judges it.

A case names rules in its `spec:` (and its file's), in its expected errors' `rule:` and in its
`normal_form: {rule: ...}` verdicts. `relax conform --rules-fired FILE` records the rule ids the
reference applied while judging each case; a named rule that is not among them means the case
does not pin what it says (it passes because of another rule), or the rule is applied by code
that does not report it. Either is a defect: fix the case's rule names or add the recording call
at the code that enforces the rule (SPEC_NOTES "Rule ids").

A few cases name a rule on purpose without applying it (the legacy chapter's old rules, the
programs outside the normal form): tools/lint/rules_fired_known.txt lists them, one case and
rule a line with the reason; a listed rule that fires after all, or that the case no longer
names, fails the lint until its line is removed.

With --both-ways (and --relax, over the whole corpus) it also asks `relax rules --fired` whether
every rule fires for a positive and a negative case (spec-tests/README.md), and fails if not.

Usage:
  /usr/bin/python3 tools/lint/rules_fired.py --relax build/relax [-j N] [--both-ways] [PATH ...]
      runs `relax conform --rules-fired` over PATH (default spec-tests) and lints the result
  /usr/bin/python3 tools/lint/rules_fired.py --fired FILE
      lints a file `relax conform --rules-fired FILE` wrote
Exit 0 when every named rule fired, 1 when some did not (one line per case and rule), 2 when
the file cannot be read or relax conform could not judge the cases.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def read_records(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                records.append((r["id"], r["named"], set(r["fired"])))
            except (ValueError, KeyError, TypeError) as e:
                raise OSError("%s:%d: not a --rules-fired record (%s)" % (path, lineno, e))
    return records


KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules_fired_known.txt")


def read_known(path):
    """{(case id, rule): line number} of the accepted cases."""
    known = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise OSError("%s:%d: expected '<case> <rule> <reason>'" % (path, lineno))
            known[(parts[0], parts[1])] = lineno
    return known


def problems(records, known, known_path):
    """One line per named rule that did not fire, and per stale line of the known list."""
    out = []
    for case_id, named, fired in records:
        for rule in named:
            if rule not in fired and (case_id, rule) not in known:
                out.append("%s: names %s, which did not fire" % (case_id, rule))
    judged = {case_id: (named, fired) for case_id, named, fired in records}
    for (case_id, rule), lineno in sorted(known.items(), key=lambda kv: kv[1]):
        if case_id not in judged:
            continue
        named, fired = judged[case_id]
        if rule in fired:
            out.append("%s:%d: %s fires for %s now (remove the line)" % (known_path, lineno,
                                                                       rule, case_id))
        elif rule not in named:
            out.append("%s:%d: %s no longer names %s (remove the line)" % (known_path, lineno,
                                                                         case_id, rule))
    return out


def run_conform(relax, jobs, paths):
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    cmd = [relax, "conform", "-j", str(jobs), "--rules-fired", path] + (paths or ["spec-tests"])
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A failing case is the corpus's business; the lint needs the file to be written.
    if done.returncode not in (0, 1) or not os.path.getsize(path):
        sys.stderr.write(done.stdout + done.stderr)
        os.unlink(path)
        raise SystemExit(2)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--relax", help="the relax program: run relax conform --rules-fired first")
    ap.add_argument("--fired", help="a file relax conform --rules-fired wrote")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--known", default=KNOWN, help="the list of accepted cases (default: %(default)s)")
    ap.add_argument("--both-ways", action="store_true",
                    help="also fail when a rule fires for no positive or no negative case")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    if (a.relax is None) == (a.fired is None):
        ap.error("give exactly one of --relax and --fired")
    if a.both_ways and a.relax is None:
        ap.error("--both-ways needs --relax")
    path = a.fired or run_conform(a.relax, a.jobs, a.paths)
    both_ways = None
    try:
        records = read_records(path)
        known = read_known(a.known) if a.known else {}
        if a.both_ways:
            both_ways = subprocess.run([a.relax, "rules", "--fired", path] + a.paths,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True)
    except OSError as e:
        print("rules_fired: %s" % e)
        return 2
    finally:
        if a.relax is not None:
            os.unlink(path)
    found = problems(records, known, os.path.relpath(a.known) if a.known else "")
    for p in found:
        print("rules_fired: " + p)
    print("rules_fired: %d cases, %s" % (len(records), "ok" if not found else
                                         "%d named rules did not fire" % len(found)))
    if both_ways is not None:
        tail = [line for line in both_ways.stdout.splitlines()
                if line.startswith(("fired for no", "rules:")) or "rules fired for no" in line]
        for line in tail:
            print("rules_fired: " + line)
        if both_ways.returncode != 0:
            return 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
