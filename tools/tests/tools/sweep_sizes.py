#!/usr/bin/python3
"""Extreme sizes for every operator: checked size arithmetic (SPEC_NOTES 4.18).

For every operator `relax ops --signatures` lists, the valid cases of spec-tests/ that call
it are seeds. In each seed's program every integer literal (an attribute, a shape
argument, a dim of an annotation) is replaced in turn by 2^62, 2^62 + 1, 2^63 - 1, -2^63,
-1 and 0, and once all the literals of the operator's call at the same time by 2^62. Each
mutant is judged twice by `relax conform`: statically (the StructInfo of the call's
variable) and, when the seed has arguments, by running it. A mutant may be refused with any
clean error; the sweep fails on a crash, a sanitizer report, a hang, or a derived StructInfo
that holds a negative dim no literal of the program wrote (a wrapped size).

Run: /usr/bin/python3 tools/tests/tools/sweep_sizes.py [RELAX] [--jobs N] [--seeds N] [--quick]
Run it against a build with -DRELAX_SANITIZE=ON to find undefined arithmetic; exits 1 with
one line per finding."""
import argparse
import concurrent.futures
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tokenize

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXTREMES = [2**62, 2**62 + 1, 2**63 - 1, -(2**63), -1, 0]
NEAR_2_62 = [2**62, 2**62 + 1, 2**63 - 1]
# --quick (the CI's run, under a minute against a sanitizer build): fewer values, one seed
# per operator.
QUICK_EXTREMES = [2**62, 2**63 - 1, -1]
QUICK_NEAR_2_62 = [2**62 + 1]
CHUNK = 100
# Seconds: a chunk of cases that takes longer has hung on one of them (then each case of it
# is judged alone, with twice the per-case limit).
CHUNK_TIMEOUT = 60
CASE_TIMEOUT = 5
SANITIZER = re.compile(r"ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer")
# A negative integer standing as a dim: right after "(" "[" or ",", up to "," ")" or "]".
NEGATIVE_DIM = re.compile(r"[(\[,]\s*(-\d+)(?=\s*[,)\]])")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
BINDING = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]")


def operators(relax):
    out = subprocess.run([relax, "ops", "--signatures"], capture_output=True, text=True,
                         check=True).stdout
    return [line.split("(", 1)[0] for line in out.splitlines() if line.strip()]


def corpus_cases():
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "spec-tests"))):
        for name in sorted(files):
            if not name.endswith(".yaml"):
                continue
            with open(os.path.join(folder, name)) as f:
                text = f.read()
            if "R." not in text:
                continue
            try:
                doc = yaml.load(text, Loader=LOADER)
            except yaml.YAMLError:
                continue  # a case file with tags of its own (!index_map) seeds nothing here
            if not isinstance(doc, dict):
                continue
            for case in doc.get("cases") or []:
                yield doc, case


def int_tokens(program):
    """(start, end) character offsets of each integer literal, with its unary minus."""
    lines = program.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spans = []
    prev = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(program).readline):
            if tok.type == tokenize.NUMBER and re.fullmatch(r"\d+", tok.string):
                start = starts[tok.start[0] - 1] + tok.start[1]
                end = starts[tok.end[0] - 1] + tok.end[1]
                if prev is not None and prev.string == "-" and prev.end == tok.start:
                    start -= 1
                spans.append((start, end))
            if tok.type not in (tokenize.NL, tokenize.COMMENT):
                prev = tok
    except (tokenize.TokenError, IndentationError):
        return []
    return spans


def call_line(program, op):
    """The line calling the operator and the variable it binds, or None."""
    needle = "R." + op[len("relax."):] + "("
    for line in program.splitlines():
        if needle in line:
            m = BINDING.match(line)
            return line, (m.group(1) if m else None)
    return None


def seeds(ops, per_op):
    found = {op: [] for op in ops}
    for doc, case in corpus_cases():
        program = case.get("program")
        expect = case.get("expect") or {}
        if not isinstance(program, str) or "error" in expect:
            continue
        for op in found:
            located = call_line(program, op)
            if located is None or located[1] is None:
                continue
            run = case.get("run")
            if run is None and case.get("runs"):
                run = case["runs"][0]
            found[op].append({"op": op, "id": case["id"], "program": program,
                              "var": located[1], "line": located[0],
                              "args": (run or {}).get("args")})
    for op, cands in found.items():
        # Seeds with arguments first, then those whose call has the most integer literals,
        # then the shortest programs.
        cands.sort(key=lambda s: (s["args"] is None, -len(int_tokens(s["line"])),
                                  len(s["program"])))
        found[op] = cands[:per_op]
    return found


def mutants(seed, extremes, near):
    """(tag, program) pairs: extreme attributes and arguments in the operator's call, dims
    near 2^62 in the rest of the program (the annotations)."""
    program = seed["program"]
    spans = int_tokens(program)
    line_start = program.find(seed["line"])
    line_end = line_start + len(seed["line"])
    in_call = [(s, e) for s, e in spans if line_start <= s < line_end]
    for k, (start, end) in enumerate(spans):
        values = extremes if (start, end) in in_call else near
        for v in values:
            if program[start:end] != str(v):
                yield f"t{k}-{v}", program[:start] + str(v) + program[end:]
    if len(in_call) > 1:
        text = program
        for start, end in reversed(in_call):
            text = text[:start] + str(2**62) + text[end:]
        yield "call-all", text


def static_cases(ops_seeds, extremes, near):
    cases, seed_of = [], {}
    for op, op_seeds in ops_seeds.items():
        for seed in op_seeds:
            for tag, program in mutants(seed, extremes, near):
                case = {"id": f"{op}--{seed['id']}--{tag}", "description": "mutant",
                        "spec": ["OP-" + op[len("relax."):]], "program": program,
                        "expect": {"struct_info": {seed["var"]: "R.Object"}}}
                cases.append(case)
                seed_of[case["id"]] = seed
    return cases, seed_of


def run_case(case, seed):
    return dict(case, id=case["id"] + "--run", run={"args": seed["args"]},
                expect={"value": {"null": True}})


def conform(relax, cases, tmp, tag, timeout):
    """The reports of the cases, or None and why the run of them broke."""
    path = os.path.join(tmp, f"chunk-{tag}.yaml")
    report = os.path.join(tmp, f"chunk-{tag}.jsonl")
    with open(path, "w") as f:
        yaml.safe_dump({"format": 1, "cases": cases}, f, sort_keys=False, width=1 << 20)
    try:
        p = subprocess.run([relax, "conform", "--timeout", str(CASE_TIMEOUT), "--jsonl", report,
                            path], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"hang (no result within {timeout} s)"
    if p.returncode not in (0, 1) or SANITIZER.search(p.stderr) or not os.path.exists(report):
        lines = [l.strip() for l in p.stderr.splitlines() if SANITIZER.search(l) or "#" in l[:8]]
        return None, f"exit {p.returncode}: " + (" | ".join(lines[:4]) or p.stderr[-300:])
    with open(report) as f:
        return [json.loads(line) for line in f], None


def judge(relax, cases, tmp, tag):
    """(reports, findings): a chunk that crashes or hangs is judged again case by case."""
    records, broke = conform(relax, cases, tmp, tag, CHUNK_TIMEOUT)
    if broke is None:
        return records, []
    if len(cases) == 1:
        return [], [f"{cases[0]['id']}: {broke}"]
    records, findings = [], []
    for i, case in enumerate(cases):
        r, f = judge_one(relax, case, tmp, f"{tag}-{i}")
        records += r
        findings += f
    return records, findings


def judge_one(relax, case, tmp, tag):
    records, broke = conform(relax, [case], tmp, tag, 2 * CASE_TIMEOUT)
    return (records, []) if broke is None else ([], [f"{case['id']}: {broke}"])


def judge_all(relax, cases, jobs, tmp, stage):
    chunks = [cases[i:i + CHUNK] for i in range(0, len(cases), CHUNK)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda ic: judge(relax, ic[1], tmp, f"{stage}{ic[0]}"),
                                enumerate(chunks)))
    return [r for rs, _ in results for r in rs], [f for _, fs in results for f in fs]


def negative_dims(records, programs):
    """Derived StructInfo with a negative dim that no literal of the program wrote (a dim
    copied from an annotation or a shape argument as written is the program's own)."""
    findings = []
    for rec in records:
        message = rec.get("message") or ""
        got = message.split(", got ", 1)
        if not message.startswith("StructInfo of ") or len(got) != 2:
            continue
        program = programs[rec["case"]]
        written = {int(program[a:b]) for a, b in int_tokens(program)}
        dims = [int(m.group(1)) for m in NEGATIVE_DIM.finditer(got[1])]
        if any(d not in written for d in dims):
            findings.append(f"{rec['case']}: negative dim in {got[1]}")
    return findings


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("relax", nargs="?", default=os.path.join(ROOT, "build", "relax"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=2, help="seed cases per operator")
    ap.add_argument("--filter", default="", help="only operators whose name contains this")
    ap.add_argument("--quick", action="store_true",
                    help="one seed per operator and fewer values (CI)")
    args = ap.parse_args()
    os.environ.setdefault("ASAN_OPTIONS", "detect_stack_use_after_return=0:detect_leaks=0")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    relax = os.path.abspath(args.relax)
    ops = [op for op in operators(relax) if args.filter in op]
    ops_seeds = seeds(ops, 1 if args.quick else args.seeds)
    unseeded = [op for op, s in ops_seeds.items() if not s]
    cases, seed_of = static_cases(ops_seeds, QUICK_EXTREMES if args.quick else EXTREMES,
                                  QUICK_NEAR_2_62 if args.quick else NEAR_2_62)
    with tempfile.TemporaryDirectory() as tmp:
        records, findings = judge_all(relax, cases, args.jobs, tmp, "s")
        findings += negative_dims(records, {c["id"]: c["program"] for c in cases})
        # Mutants that derive (the reported StructInfo differs from the dummy expectation)
        # and whose seed has arguments are run.
        derived = {r["case"] for r in records
                   if (r.get("message") or "").startswith("StructInfo of ")}
        runs = [run_case(c, seed_of[c["id"]]) for c in cases
                if c["id"] in derived and seed_of[c["id"]]["args"] is not None]
        records, run_findings = judge_all(relax, runs, args.jobs, tmp, "r")
        findings += run_findings
    for f in findings:
        print("FINDING " + f)
    print(f"sweep_sizes: {len(ops) - len(unseeded)} operators, {len(cases)} mutants "
          f"({len(runs)} run), "
          f"{len(findings)} findings; no seed case: {len(unseeded)}"
          + (f" ({', '.join(unseeded)})" if unseeded else ""))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
