#!/usr/bin/python3
"""Extreme run arguments: every input of a run is checked (SPEC_NOTES 4.18).

The valid cases of spec-tests/ that run with arguments are seeds. Each argument of a seed is
replaced in turn by values at the edges: a tensor whose declared shape its data cannot fill
(2^31 per dim), an empty tensor whose other dims are 2^31, 2^62 or 2^63 - 1, a dim of -1;
a shape whose dims are 2^31, 2^62, 2^63 - 1, -2^63, -1 or 0; an integer PrimValue at
INT64_MAX, INT64_MIN, -1 or 2^62, a float one at inf or nan; the argument inside 100 and
300 nested tuples (the value notation reads 256 levels). The empty tensors are also passed to
the program with its parameters' static shapes relaxed to their rank, so that they reach the
operators. Each mutant is run twice:

- `relax run FILE --arg ...`: it must print a value (exit 0) or one error line (exit 2 to
  7; a usage error's hint to `relax help` and a note on the syntax read aside), within 10 CPU-seconds and 1 GiB of
  resident memory, with no sanitizer report;
- as a case of a case file, through `relax conform`: no crash, hang or sanitizer report.

Run: /usr/bin/python3 tools/tests/tools/sweep_args.py [RELAX] [--jobs N] [--seeds N] [--quick]
Run it against a build with -DRELAX_SANITIZE=ON; exits 1 with one line per finding."""
import argparse
import concurrent.futures
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_sizes  # noqa: E402  (the corpus reader and the conform judge are shared)

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
SHAPE_VALUES = [2**31, 2**62, INT64_MAX, INT64_MIN, -1, 0]
EMPTY_BESIDE = [2**31, 2**62, INT64_MAX]
PRIM_INTS = [INT64_MAX, INT64_MIN, -1, 2**62]
PRIM_FLOATS = ["inf", "nan"]
NESTS = [100, 300]
# --quick (the CI's run against a sanitizer build, about a minute): fewer seeds and values.
QUICK_SHAPE_VALUES = [2**62, INT64_MAX, -1]
QUICK_EMPTY_BESIDE = [INT64_MAX]
QUICK_PRIM_INTS = [INT64_MAX, INT64_MIN]
QUICK_NESTS = [300]
CPU_SECONDS = 10
MAX_RSS_KIB = 1 << 20
WALL_SECONDS = 60
CALL = re.compile(r"\b(?:R|T)\.([a-z][\w.]*)\(")  # the operators and builtins a program calls
STATIC_SHAPE = re.compile(r"R\.Tensor\(\(([^()]*)\),\s*(?=\")")
HELP_HINT = "(run 'relax help"
NOTE = "relax: note: "  # how a program is read (the legacy syntax), not an error


def seeds(per_key, limit):
    """Valid cases with arguments, one per program, at most per_key per set of operators
    called, spread evenly over the corpus when there are more than `limit`."""
    taken, per, seen = [], {}, set()
    for doc, case in sweep_sizes.corpus_cases():
        program = case.get("program")
        expect = case.get("expect") or {}
        run = case.get("run")
        if run is None and case.get("runs"):
            run = case["runs"][0]
        args = (run or {}).get("args") if isinstance(run, dict) else None
        if not isinstance(program, str) or "error" in expect or not args or program in seen:
            continue
        seen.add(program)
        key = tuple(sorted(set(CALL.findall(program))))
        if per.get(key, 0) >= per_key:
            continue
        per[key] = per.get(key, 0) + 1
        taken.append({"id": case["id"], "program": program, "args": args,
                      "entry": (run or {}).get("entry")})
    step = max(1, len(taken) // limit)
    return taken[::step][:limit]


def tensor_mutants(t, quick):
    shape, dtype = t.get("shape"), t.get("dtype")
    if not isinstance(shape, list):
        return
    n = max(len(shape), 1)
    yield "lie", {"tensor": {"dtype": dtype, "shape": [2**31] * n, "data": t.get("data")}}
    for x in (QUICK_EMPTY_BESIDE if quick else EMPTY_BESIDE):
        yield f"empty-first-{x}", {"tensor": {"dtype": dtype, "shape": [x] * (n - 1) + [0],
                                              "data": []}}
        if n > 1:
            yield f"empty-last-{x}", {"tensor": {"dtype": dtype, "shape": [0] + [x] * (n - 1),
                                                 "data": []}}
    yield "negative", {"tensor": {"dtype": dtype, "shape": [-1] + [2] * (n - 1), "data": []}}


def value_mutants(v, quick):
    """(tag, value) pairs for one argument."""
    if isinstance(v, dict) and isinstance(v.get("tensor"), dict):
        yield from tensor_mutants(v["tensor"], quick)
    if isinstance(v, dict) and isinstance(v.get("shape"), list):
        for k in range(len(v["shape"])):
            for x in (QUICK_SHAPE_VALUES if quick else SHAPE_VALUES):
                dims = list(v["shape"])
                dims[k] = x
                yield f"shape{k}-{x}", {"shape": dims}
    if isinstance(v, dict) and isinstance(v.get("prim"), dict):
        dtype = str(v["prim"].get("dtype"))
        values = PRIM_FLOATS if dtype.startswith(("float", "bfloat")) else (
            QUICK_PRIM_INTS if quick else PRIM_INTS)
        for x in values:
            yield f"prim-{x}", {"prim": {"dtype": dtype, "value": x}}
    for depth in (QUICK_NESTS if quick else NESTS):
        nested = v
        for _ in range(depth):
            nested = {"tuple": [nested]}
        yield f"nest-{depth}", nested


def mutants(seed, quick):
    for i, arg in enumerate(seed["args"]):
        for tag, v in value_mutants(arg, quick):
            args = list(seed["args"])
            args[i] = v
            yield f"{seed['id']}--a{i}-{tag}", args


def relaxed(program):
    """The program with its parameters' static tensor shapes replaced by their rank (the
    first line of a `def` through its colon), so that empty tensors with huge dims pass the
    signature and reach the operators; None when nothing changes."""
    start = program.find("def ")
    end = program.find(":\n", start)
    if start < 0 or end < 0:
        return None
    head = STATIC_SHAPE.sub(lambda m: "R.Tensor(ndim=%d, dtype=" % (
        m.group(1).count(",") + (1 if m.group(1).strip().rstrip(",") else 0)
        - (1 if m.group(1).strip().endswith(",") else 0)), program[start:end])
    return None if head == program[start:end] else program[:start] + head + program[end:]


def all_mutants(seed, quick):
    """(name, program, args): the seed's program with each mutant, and its relaxed program
    with the empty tensors."""
    loose = relaxed(seed["program"])
    for name, args in mutants(seed, quick):
        yield name, seed["program"], args
        if loose is not None and "-empty-" in name:
            yield name + "-relaxed", loose, args


def flow(value):
    return yaml.safe_dump(value, default_flow_style=True, width=1 << 30).strip()


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))


def judge_run(name, code, stdout, stderr):
    if sweep_sizes.SANITIZER.search(stderr):
        return f"{name}: sanitizer: " + stderr.strip().splitlines()[0][:200]
    if code < 0:
        return f"{name}: killed by signal {-code}" + (
            " (more than 10 CPU-seconds)" if -code in (9, 24) else "")
    lines = [l for l in stderr.splitlines()
             if l.strip() and not l.startswith(HELP_HINT) and not l.startswith(NOTE)]
    if code == 0:
        return None if stdout.strip() else f"{name}: exit 0 without a value"
    if not 2 <= code <= 7:
        return f"{name}: exit {code}: " + " | ".join(lines[:2])[:200]
    if len(lines) != 1 or " error [" not in lines[0]:
        return f"{name}: exit {code} with {len(lines)} lines: " + " | ".join(lines[:3])[:200]
    return None


def run_all(relax, seeds_, quick, jobs, tmp):
    """Runs every mutant through `relax run`; (count, findings)."""
    work, paths = [], {}
    for seed in seeds_:
        for name, program, args in all_mutants(seed, quick):
            if program not in paths:
                paths[program] = os.path.join(tmp, f"program{len(paths)}.py")
                with open(paths[program], "w") as f:
                    f.write(program)
            work.append((paths[program], seed["entry"], name, args))

    def one(w):
        return run_with_rss(relax, *w)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        findings = [f for f in pool.map(one, work) if f]
    return len(work), findings


def run_with_rss(relax, path, entry, name, args):
    """A finding for one `relax run` of a mutant, or None."""
    cmd = [relax, "run", path, "--quiet"] + (["--entry", entry] if entry else [])
    for a in args:
        cmd += ["--arg", flow(a)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, preexec_fn=limit_cpu)
        code, rss = wait_rss(p.pid)
        p.returncode = code if code is not None else -9
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    if code is None:
        return f"{name}: no end within {WALL_SECONDS} s"
    if rss > MAX_RSS_KIB:
        return f"{name}: {rss // 1024} MiB resident"
    return judge_run(name, code, stdout, stderr)


def wait_rss(pid):
    """(exit code, negative for a signal; the child's own peak RSS in KiB), or (None, 0)
    after killing a child that did not end within WALL_SECONDS."""
    deadline = time.monotonic() + WALL_SECONDS
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            return os.waitstatus_to_exitcode(status), usage.ru_maxrss
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.wait4(pid, 0)
            return None, 0
        time.sleep(0.02)


def conform_cases(seeds_, quick):
    cases = []
    for seed in seeds_:
        for name, program, args in all_mutants(seed, quick):
            run = {"args": args}
            if seed["entry"]:
                run["entry"] = seed["entry"]
            cases.append({"id": name, "description": "mutant", "spec": ["MC-2"],
                          "program": program, "run": run,
                          "expect": {"value": {"null": True}}})
    return cases


def conform_all(relax, cases, jobs, tmp):
    """Each mutant in a case file of its own: a value the loader refuses fails the whole
    file, which would hide the other cases of a chunk."""
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = pool.map(lambda ic: sweep_sizes.judge_one(relax, ic[1], tmp, f"a{ic[0]}")[1],
                           enumerate(cases))
        return [f for fs in results for f in fs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("relax", nargs="?", default=os.path.join(sweep_sizes.ROOT, "build", "relax"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=400, help="seed cases at most")
    ap.add_argument("--quick", action="store_true", help="fewer seeds and values (CI)")
    args = ap.parse_args()
    os.environ.setdefault("ASAN_OPTIONS", "detect_stack_use_after_return=0:detect_leaks=0")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    relax = os.path.abspath(args.relax)
    sys.setrecursionlimit(20000)  # PyYAML writes the 300 nested tuples recursively
    chosen = seeds(1 if args.quick else 3, 40 if args.quick else args.seeds)
    with tempfile.TemporaryDirectory() as tmp:
        runs, findings = run_all(relax, chosen, args.quick, args.jobs, tmp)
        cases = conform_cases(chosen, args.quick)
        conform_findings = conform_all(relax, cases, args.jobs, tmp)
        findings += conform_findings
    for f in findings:
        print("FINDING " + f)
    print(f"sweep_args: {len(chosen)} seeds, {runs} runs of relax run, {len(cases)} cases "
          f"through relax conform, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
