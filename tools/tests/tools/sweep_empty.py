#!/usr/bin/python3
"""Empty tensors with huge other dims reach every operator: bounded working memory (SPEC_NOTES 4.18).

An empty tensor holds no element, so the limits on tensors never see it, yet its other dims
may be near 2^63 and an operator that sizes an index array, a permutation or an accumulator
by a dim rather than by an element count asks for exabytes (`R.unique(x, axis=1)` of a
0 x (2^63 - 1) tensor). For every operator `relax ops --signatures` lists, the valid cases of
spec-tests/ that call it with run arguments are seeds; their parameters' static shapes are
relaxed to their rank, and each tensor argument of rank n becomes, in turn, an empty tensor
whose 0 stands at each of its n positions and whose other dims are 2^31, 2^62 or 2^63 - 1;
and (not with --quick) the tensor arguments together, a dim value made 0 and another made
huge in all of them at once, for operators that check their operands' dims against each
other.
Through `relax run` each must print a value or one error line (exit 2 to 7) within 10
CPU-seconds and 1 GiB, with no sanitizer report (the judge of sweep_args.py).

Run: /usr/bin/python3 tools/tests/tools/sweep_empty.py [RELAX] [--jobs N] [--seeds N] [--quick]
Run it against a build with -DRELAX_SANITIZE=ON; exits 1 with one line per finding."""
import argparse
import concurrent.futures
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_args  # noqa: E402  (the relaxed programs and the judge of a run)
import sweep_sizes  # noqa: E402  (the corpus reader and the operator list)

HUGE = [2**31, 2**62, 2**63 - 1]
QUICK_HUGE = [2**63 - 1]


def seeds(ops, per_op):
    """Per operator, up to per_op valid cases that call it and run with arguments, each
    with its program relaxed to rank-only parameter shapes."""
    found = {op: [] for op in ops}
    for _, case in sweep_sizes.corpus_cases():
        program = case.get("program")
        expect = case.get("expect") or {}
        run = case.get("run") or ((case.get("runs") or [None])[0])
        args = run.get("args") if isinstance(run, dict) else None
        if not isinstance(program, str) or "error" in expect or not args:
            continue
        loose = sweep_args.relaxed(program)
        if loose is None:
            continue
        for op in found:
            if len(found[op]) < per_op and sweep_sizes.call_line(program, op) is not None:
                found[op].append({"id": case["id"], "program": loose, "args": args,
                                  "entry": run.get("entry")})
    return found


def empties(t, huge):
    """(tag, value): the tensor argument empty, its 0 at each position, huge elsewhere."""
    shape, dtype = t.get("shape"), t.get("dtype")
    if not isinstance(shape, list) or not shape:
        return
    for k in range(len(shape)):
        for x in huge:
            dims = [x] * len(shape)
            dims[k] = 0
            yield f"zero{k}-{x}", {"tensor": {"dtype": dtype, "shape": dims, "data": []}}


def together(seed, huge):
    """(tag, args): operands whose dims must agree emptied together. For two dim values d0
    and d1 of the seed's tensor arguments, every dim d0 becomes 0 and every dim d1 huge, in
    all arguments at once, so that an operator checking its operands' dims against each
    other (attention's head dims, a normalization's parameters, matmul's batch) still
    accepts them; only where every argument holding d1 also holds d0 (all of them empty)."""
    ts = [(i, a["tensor"]) for i, a in enumerate(seed["args"])
          if isinstance(a, dict) and isinstance(a.get("tensor"), dict)
          and isinstance(a["tensor"].get("shape"), list)]
    values = sorted({d for _, t in ts for d in t["shape"] if isinstance(d, int) and d > 1})
    for d0 in values:
        for d1 in values:
            if d1 == d0 or any(d1 in t["shape"] and d0 not in t["shape"] for _, t in ts):
                continue
            for x in huge:
                args = list(seed["args"])
                for i, t in ts:
                    if d0 in t["shape"]:
                        shape = [0 if d == d0 else x if d == d1 else d for d in t["shape"]]
                        args[i] = {"tensor": {"dtype": t["dtype"], "shape": shape, "data": []}}
                yield f"{d0}to0-{d1}to{x}", args


def mutants(seed, huge, quick):
    for i, arg in enumerate(seed["args"]):
        if isinstance(arg, dict) and isinstance(arg.get("tensor"), dict):
            for tag, v in empties(arg["tensor"], huge):
                args = list(seed["args"])
                args[i] = v
                yield f"{seed['id']}--a{i}-{tag}", args
    if not quick:
        for tag, args in together(seed, huge):
            yield f"{seed['id']}--all-{tag}", args


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("relax", nargs="?", default=os.path.join(sweep_sizes.ROOT, "build", "relax"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=2, help="seed cases per operator")
    ap.add_argument("--filter", default="", help="only operators whose name contains this")
    ap.add_argument("--quick", action="store_true", help="one seed per operator, one value (CI)")
    args = ap.parse_args()
    os.environ.setdefault("ASAN_OPTIONS", "detect_stack_use_after_return=0:detect_leaks=0")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    relax = os.path.abspath(args.relax)
    ops = [op for op in sweep_sizes.operators(relax) if args.filter in op]
    by_op = seeds(ops, 1 if args.quick else args.seeds)
    huge = QUICK_HUGE if args.quick else HUGE
    work, paths, seen = [], {}, set()
    with tempfile.TemporaryDirectory() as tmp:
        for op_seeds in by_op.values():
            for seed in op_seeds:
                if seed["id"] in seen:
                    continue
                seen.add(seed["id"])
                if seed["program"] not in paths:
                    paths[seed["program"]] = os.path.join(tmp, f"program{len(paths)}.py")
                    with open(paths[seed["program"]], "w") as f:
                        f.write(seed["program"])
                for name, margs in mutants(seed, huge, args.quick):
                    work.append((paths[seed["program"]], seed["entry"], name, margs))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            findings = [f for f in pool.map(lambda w: sweep_args.run_with_rss(relax, *w), work)
                        if f]
    for f in findings:
        print("FINDING " + f)
    unseeded = [op for op, s in by_op.items() if not s]
    print(f"sweep_empty: {len(ops) - len(unseeded)} operators, {len(seen)} seeds, "
          f"{len(work)} runs, {len(findings)} findings; no seed with arguments: {len(unseeded)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
