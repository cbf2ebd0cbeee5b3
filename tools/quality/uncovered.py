#!/usr/bin/env python3
"""uncovered: the mutation sites on lines the suite never executes.

A mutant on a line that no case and no unit test reaches survives whatever the line says, so
these sites are the surest survivors of a mutation run and the first place to write cases.
This script builds the project with gcc's line coverage (`--coverage`, no optimization) in
its own folder, runs the whole corpus and the unit tests once, reads the counts with
`gcov`, and lists every mutation site of tools/quality/mutate.py (equivalent mutants left
out, as there) on an executable line that ran zero times: per file, the number of such
sites against all of the file's sites, most first; with --list, each site as
`file:line: mutation: source line`, grouped by line.

Lines gcov does not count as executable (a data table, a declaration, the continuation of a
statement) are never reported; a site there is left to mutate.py to judge.

Usage (from anywhere; needs cmake, gcc and gcov, as Debian's gcc package has them):
    /usr/bin/python3 tools/quality/uncovered.py [--build DIR] [--paths interp values]
        [--no-unit] [--list] [--top N]
"""
import argparse
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402  (the same sites and the same equivalent list)

ROOT = mutate.ROOT


def build(folder):
    steps = [["cmake", "-S", ROOT, "-B", folder, "-DCMAKE_BUILD_TYPE=Debug",
              "-DRELAX_WERROR=OFF", "-DCMAKE_C_FLAGS=--coverage -O0",
              "-DCMAKE_EXE_LINKER_FLAGS=--coverage"],
             ["cmake", "--build", folder, "-j", str(os.cpu_count() or 2), "--target", "relax",
              "relax_unit"]]
    for cmd in steps:
        # gcc on a folder's first configuration (CMake keeps the compiler it found first).
        rc, out = mutate.run(cmd, ROOT, env={"CC": "gcc"})
        if rc != 0:
            sys.exit("uncovered: %s failed:\n%s" % (" ".join(cmd[:2]), out[-3000:]))


def exercise(folder, unit):
    """Clears earlier counts, then runs the corpus and (with `unit`) the unit tests."""
    for old in glob.glob(os.path.join(folder, "**", "*.gcda"), recursive=True):
        os.remove(old)
    runs = [[os.path.join(folder, "relax"), "conform", "spec-tests"]]
    if unit:
        runs.append([os.path.join(folder, "relax_unit")])
    for cmd in runs:
        rc, out = mutate.run(cmd, ROOT)
        if rc != 0:
            sys.exit("uncovered: %s does not pass:\n%s" % (os.path.basename(cmd[0]),
                                                          out[-3000:]))


def executed_lines(folder):
    """{source path relative to the root: (lines that ran, lines gcov counts as code)}."""
    lines = {}
    for gcda in glob.glob(os.path.join(os.path.abspath(folder), "**", "*.gcda"),
                          recursive=True):
        rc, out = mutate.run(["gcov", "-t", "-o", os.path.dirname(gcda), gcda], folder)
        if rc != 0:
            sys.exit("uncovered: gcov failed on %s:\n%s" % (gcda, out[-2000:]))
        current = None
        for row in out.splitlines():
            parts = row.split(":", 2)
            if len(parts) < 3 or not parts[1].strip().isdigit():
                continue
            count, number, text = parts[0].strip(), int(parts[1]), parts[2]
            if number == 0:
                if text.startswith("Source:"):
                    path = os.path.normpath(os.path.join(ROOT, text[len("Source:"):]))
                    current = lines.setdefault(os.path.relpath(path, ROOT), (set(), set()))
                continue
            if current is None or count == "-":
                continue
            current[1].add(number)
            if not count.startswith(("#", "=")):
                current[0].add(number)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-coverage"),
                    help="the coverage build's folder (default: build-coverage)")
    ap.add_argument("--paths", nargs="+", default=["interp", "values"])
    ap.add_argument("--no-unit", action="store_true", help="the corpus alone")
    ap.add_argument("--list", action="store_true", help="every uncovered site, by line")
    ap.add_argument("--top", type=int, default=40, help="files in the summary (default 40)")
    args = ap.parse_args()
    build(args.build)
    exercise(args.build, not args.no_unit)
    ran = executed_lines(args.build)
    equivalent = mutate.read_equivalent()
    per_file, uncovered = {}, []
    for top in args.paths:
        for folder, _, names in sorted(os.walk(os.path.join(ROOT, top))):
            for name in sorted(names):
                if not name.endswith(".c"):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), ROOT)
                source = open(os.path.join(ROOT, rel), encoding="utf-8").readlines()
                done, code = ran.get(rel, (set(), set()))
                total = missed = 0
                for i, what, new in mutate.sites(rel, source):
                    if mutate.key_of(rel, source[i], new) in equivalent:
                        continue
                    total += 1
                    if i + 1 in code and i + 1 not in done:
                        missed += 1
                        uncovered.append((rel, i + 1, what, source[i].strip()))
                per_file[rel] = (missed, total)
    sites = sum(t for _, t in per_file.values())
    missed = len(uncovered)
    print("uncovered: %d of %d mutation sites in %s (%.1f%%) are on lines never "
          "executed by %s" % (missed, sites, " ".join(args.paths), 100.0 * missed / max(sites, 1),
                        "the corpus" if args.no_unit else "the corpus or the unit tests"))
    ranked = sorted((f for f in per_file.items() if f[1][0]), key=lambda f: (-f[1][0], f[0]))
    for rel, (m, t) in ranked[:args.top]:
        print("%6d of %5d  %s" % (m, t, rel))
    if args.list:
        last = None
        for rel, number, what, text in uncovered:
            if (rel, number) != last:
                print("%s:%d: %s" % (rel, number, text))
                last = (rel, number)
            print("    %s" % what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
