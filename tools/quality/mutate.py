#!/usr/bin/env python3
"""mutate: how many deliberately planted bugs the conformance corpus catches.

Samples mutants over the interpreter's C sources (a `<` made `<=`, a `&&` made `||`, a
constant changed, a condition negated, a statement deleted, a return value changed), builds
each one incrementally in a private copy of the tree, runs the whole corpus against it and
reports the mutation score: killed / (killed + survived). A mutant that does not compile is
not counted; one that crashes, hangs or fails any case is killed. With --unit, a mutant the
corpus leaves alive is then run against the unit tests (relax_unit), and the report gives
both scores: the corpus's alone and the whole suite's. With --memcheck, a mutant the rest
leaves alive is then built with AddressSanitizer and UndefinedBehaviorSanitizer and the
corpus run against it with bounds checking (RELAX_MEMCHECK=1, as tools/test-all.sh runs it),
which kills a mutant that reads or writes past a block or overflows a signed integer without
changing any printed result. Survivors are listed as
`file:line: mutation`, the list a corpus author works from; --rejudge REPORT judges again
just the survivors a previous report lists (after new cases were written for them).

Lines that call `rule_fired(...)` are not mutated: they only record which rule applied, for
`relax conform --rules-fired`, and the rules-fired lint judges them, not the corpus.

Equivalent mutants (changes that cannot alter behaviour) are listed, with the reason, in
tools/quality/equivalent.txt as `path: <original line> => <mutated line>  # reason`; they are
left out of the score.

Usage (from anywhere; needs cmake and a C compiler):
    /usr/bin/python3 tools/quality/mutate.py --seed 1 --count 300 [--paths interp values]
        [--work DIR] [--report FILE] [--jobs N] [--timeout SECONDS] [--unit] [--memcheck]
        [--rejudge REPORT]
The work folder (default: a temporary one) holds the copy and its build; giving one keeps
the build between runs, so only the mutated files recompile.
"""
import argparse
import filecmp
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COPIED = ["ast", "values", "interp", "tools", "spec-tests", "CMakeLists.txt", "SPEC_NOTES.md"]

# (name, pattern, replacement): each applies at one match of the pattern in a line.
OPERATORS = [
    ("relational boundary", r"(?<![<>=!])<(?![<=])", "<="),
    ("relational boundary", r"(?<![<>=!])<=", "<"),
    ("relational boundary", r"(?<![<>=!-])>(?![>=])", ">="),
    ("relational boundary", r"(?<![<>=!])>=", ">"),
    ("equality negation", r"==", "!="),
    ("equality negation", r"!=", "=="),
    ("logical operator", r"&&", "||"),
    ("logical operator", r"\|\|", "&&"),
    ("arithmetic operator", r"(?<=\w\s)\+(?=\s\w)", "-"),
    ("arithmetic operator", r"(?<=\w\s)-(?=\s\w)", "+"),
    ("arithmetic operator", r"(?<=\w\s)\*(?=\s\w)", "/"),
    ("constant", r"(?<![\w.])0(?![\w.x])", "1"),
    ("constant", r"(?<![\w.])1(?![\w.])", "0"),
    ("boolean constant", r"\btrue\b", "false"),
    ("boolean constant", r"\bfalse\b", "true"),
]

SKIP_LINE = re.compile(r"^\s*(#|//|/\*|\*|static const char|\{\s*\"|case\s|default:)")
STATEMENT = re.compile(r"^\s*[a-z_][\w>.\-\[\]]*(\s*(=|\+=|-=|\*=|\+\+|--)[^=].*|\(.*\));\s*$")
RETURN = re.compile(r"^(\s*)return\s+(?!NULL;|0;|false;|true;)[^;]+;\s*$")
IF_COND = re.compile(r"^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*\{?\s*)$")


def strip_strings(line):
    """The line with string and char literals blanked, so operators inside them are skipped."""
    return re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', lambda m: " " * len(m.group(0)), line)


def sites(path, lines):
    """Every mutation of every line of one file: (line index, description, new line)."""
    out = []
    in_comment = False
    for i, line in enumerate(lines):
        text = line.rstrip("\n")
        if in_comment:
            in_comment = "*/" not in text
            continue
        if "/*" in text and "*/" not in text:
            in_comment = True
        if SKIP_LINE.match(text) or "assert" in text or "rule_fired(" in text:
            continue
        code = strip_strings(text.split("//")[0].split("/*")[0])
        for name, pattern, repl in OPERATORS:
            for m in re.finditer(pattern, code):
                new = text[: m.start()] + repl + text[m.end():]
                out.append((i, name, new))
        m = IF_COND.match(code)
        if m and code.count("(") == code.count(")"):
            new = m.group(1) + "(!(" + text[len(m.group(1)) + 1: len(text) - len(m.group(3)) - 1] \
                + "))" + m.group(3)
            out.append((i, "negated condition", new))
        if STATEMENT.match(code) and not code.rstrip().endswith("{"):
            out.append((i, "deleted statement", re.match(r"^(\s*)", text).group(1) + ";"))
        m = RETURN.match(code)
        if m:
            out.append((i, "return value", m.group(1) + "return 0;"))
    return out


def read_equivalent():
    path = os.path.join(ROOT, "tools", "quality", "equivalent.txt")
    known = set()
    if not os.path.exists(path):
        return known
    for raw in open(path, encoding="utf-8"):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        body = raw.split("  # ")[0]
        known.add(re.sub(r"\s+", " ", body))
    return known


def key_of(rel, old, new):
    return re.sub(r"\s+", " ", "%s: %s => %s" % (rel, old.strip(), new.strip()))


def run(cmd, cwd, timeout=None, env=None):
    """(exit status, output) of cmd; (None, "timeout") when it outlives the timeout. The
    command runs in a session of its own, and on a timeout its whole process group is killed:
    `relax conform -j N` forks workers, which would otherwise go on running (a mutant that
    hangs one of them would keep a core busy for the rest of the sample)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=dict(os.environ, **env) if env else None, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, "timeout"


def refresh(src, dst):
    """dst made equal to src, writing only the files whose bytes differ, with the time of
    writing: in a kept --work folder make then rebuilds exactly those (and any file a
    mutant left newer than its object), never trusting an object built from a mutant."""
    if os.path.isdir(src):
        for name in sorted(os.listdir(src)):
            if name.startswith("build") or name == "__pycache__":
                continue
            refresh(os.path.join(src, name), os.path.join(dst, name))
        return
    if os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False):
        return
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


MEMCHECK_ENV = {"RELAX_MEMCHECK": "1",
                "ASAN_OPTIONS": "detect_stack_use_after_return=0:detect_leaks=0",
                "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}


def baseline_build(tree, build, options, jobs, env=None, what=""):
    """Configures and builds `relax` from the unmutated tree in `build` and runs the corpus
    once with it; returns the time of that passing run."""
    rc, out = run(["cmake", "-S", tree, "-B", build, "-DRELAX_WERROR=OFF"] + options, tree)
    if rc != 0:
        sys.exit("mutate: cmake%s failed:\n%s" % (what, out))
    rc, out = run(["cmake", "--build", build, "-j", str(jobs), "--target", "relax"], tree)
    if rc != 0:
        sys.exit("mutate: the unmutated tree does not build%s:\n%s" % (what, out[-3000:]))
    started = time.time()
    rc, out = run(conform_command(build, jobs), tree, env=env)
    if rc != 0:
        sys.exit("mutate: the unmutated corpus does not pass%s:\n%s" % (what, out[-3000:]))
    return time.time() - started


def prepare(work, jobs):
    tree = os.path.join(work, "tree")
    for item in COPIED:
        refresh(os.path.join(ROOT, item), os.path.join(tree, item))
    build = os.path.join(work, "build")
    took = baseline_build(tree, build, ["-DCMAKE_BUILD_TYPE=RelWithDebInfo"], jobs)
    return tree, build, took


def memcheck_baseline(tree, work, jobs):
    """The sanitized build of the unmutated tree, as CI makes it; returns its folder and the
    time of one passing bounds-checked corpus run."""
    build = os.path.join(work, "build-memcheck")
    took = baseline_build(tree, build, ["-DCMAKE_BUILD_TYPE=Debug", "-DRELAX_SANITIZE=ON",
                                        "-DRELAX_TESTS=OFF"], jobs, MEMCHECK_ENV,
                          " (sanitized, bounds checked)")
    return build, took


def conform_command(build, jobs):
    """The corpus run in `jobs` workers, stopping at the first failure where the runner can."""
    relax = os.path.join(build, "relax")
    _, usage = run([relax, "help", "conform"], None)
    fast = ["--fail-fast"] if "--fail-fast" in usage else []
    workers = ["-j", str(jobs)] if jobs > 1 and "--jobs" in usage else []
    return [relax, "conform"] + workers + fast + ["spec-tests"]


def unit_baseline(tree, build, jobs):
    """Builds the unit tests of the unmutated tree and times one passing run of them."""
    rc, out = run(["cmake", "--build", build, "-j", str(jobs), "--target", "relax_unit"], tree)
    if rc != 0:
        sys.exit("mutate: the unmutated unit tests do not build:\n" + out[-3000:])
    started = time.time()
    rc, out = run([os.path.join(build, "relax_unit")], tree)
    if rc != 0:
        sys.exit("mutate: the unmutated unit tests do not pass:\n" + out[-3000:])
    return time.time() - started


def judge(tree, build, rel, lines, i, new, jobs, timeout, unit, memcheck):
    """Builds and runs one mutant; returns killed / killed-by-timeout (the corpus did not end
    in time) / killed-by-unit / killed-by-memcheck / survived / unbuildable. `unit` is the unit tests' time limit (None: they do not judge);
    `memcheck` is (sanitized build folder, time limit), or None."""
    path = os.path.join(tree, rel)
    mutated = list(lines)
    mutated[i] = new + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(mutated)
    try:
        rc, _ = run(["cmake", "--build", build, "-j", str(jobs), "--target", "relax"], tree)
        if rc != 0:
            return "unbuildable"
        rc, _ = run(conform_command(build, jobs), tree, timeout)
        if rc is None:
            return "killed-by-timeout"
        if rc != 0:
            return "killed"
        if unit:
            rc, _ = run(["cmake", "--build", build, "-j", str(jobs), "--target", "relax_unit"],
                        tree)
            if rc != 0:
                return "unbuildable"
            rc, _ = run([os.path.join(build, "relax_unit")], tree, unit)
            if rc != 0:
                return "killed-by-unit"
        if memcheck:
            sanitized, limit = memcheck
            rc, _ = run(["cmake", "--build", sanitized, "-j", str(jobs), "--target", "relax"],
                        tree)
            if rc != 0:
                return "unbuildable"
            rc, _ = run(conform_command(sanitized, jobs), tree, limit, env=MEMCHECK_ENV)
            if rc != 0:
                return "killed-by-memcheck"
        return "survived"
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
        # The restored file must be older than the object built from the mutant.
        os.utime(path, None)


def same_line(a, b):
    """Two source lines alike but for spacing and a brace opened at the end."""
    norm = lambda t: re.sub(r"\s+", " ", t.strip()).rstrip("{").strip()
    return norm(a) == norm(b)


def context_score(lines, j, around):
    """How many of the lines around the original one (two before, two after) sit around j."""
    score = 0
    for d, text in around:
        k = j + d
        score += 0 <= k < len(lines) and same_line(lines[k], text)
    return score


def rejudged(tree, report, equivalent, origin=None):
    """The survivors a previous report lists, as (file, line index, kind, new line), each
    found again by its original line's text (edits move lines; a brace added at the end does
    not matter): where the tree the report was made from is given, the line whose neighbours
    match the original's best, then the nearest; those listed as equivalent since are left
    out, and those whose line is gone are counted."""
    chosen = []
    left_out = gone = 0
    pattern = re.compile(r"^survived: ([^:]+):(\d+): ([^:]+): (.*) => (.*)$")
    for raw in open(report, encoding="utf-8"):
        m = pattern.match(raw.rstrip("\n"))
        if not m:
            continue
        rel, line, what, old, new_text = m.groups()
        path = os.path.join(tree, rel)
        lines = open(path, encoding="utf-8").readlines() if os.path.exists(path) else []
        if key_of(rel, old, new_text) in equivalent:
            left_out += 1
            continue
        at = [j for j in range(len(lines)) if same_line(lines[j], old)]
        around = []
        source = os.path.join(origin, rel) if origin else None
        if source and os.path.exists(source):
            before = open(source, encoding="utf-8").readlines()
            i = int(line) - 1
            around = [(d, before[i + d]) for d in (-2, -1, 1, 2) if 0 <= i + d < len(before)]
        found = None
        for j in sorted(at, key=lambda j: (-context_score(lines, j, around),
                                           abs(j - (int(line) - 1)))):
            for k, kind, text in sites(rel, lines):
                if k == j and kind == what and same_line(text, new_text):
                    found = (rel, j, what, text)
                    break
            if found:
                break
        if found is None:
            gone += 1
            print("mutate: %s:%s: %s is no longer in the source; not judged" % (rel, line, what))
            continue
        chosen.append(found)
    print("mutate: %d survivors judged again, %d listed as equivalent now, %d no longer in the "
          "source" % (len(chosen), left_out, gone))
    return chosen


def sample(tree, paths, rng, count, equivalent):
    candidates = []
    for top in paths:
        # a folder, walked, or one file
        full = os.path.join(tree, top)
        if os.path.isdir(full):
            walk = os.walk(full)
        else:
            walk = [(os.path.dirname(full), [], [os.path.basename(full)])]
        for d, _, files in walk:
            for name in sorted(files):
                if name.endswith(".c"):
                    rel = os.path.relpath(os.path.join(d, name), tree)
                    lines = open(os.path.join(tree, rel), encoding="utf-8").readlines()
                    for i, what, new in sites(rel, lines):
                        if key_of(rel, lines[i], new) not in equivalent:
                            candidates.append((rel, i, what, new))
    candidates.sort()
    rng.shuffle(candidates)
    return candidates[:count], len(candidates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--paths", nargs="+", default=["interp", "values"],
                    help="folders (walked) or .c files to sample mutants from")
    ap.add_argument("--work", help="folder for the copy and its build (kept)")
    ap.add_argument("--report", help="write the report here too")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float,
                    help="seconds per corpus run (default: ten times the unmutated run, at least 30)")
    ap.add_argument("--min-score", type=float, help="exit 1 when the score is below this")
    ap.add_argument("--unit", action="store_true",
                    help="run the unit tests against each mutant the corpus leaves alive")
    ap.add_argument("--memcheck", action="store_true",
                    help="run the corpus with bounds checking in a sanitized build against "
                         "each mutant the rest leaves alive")
    ap.add_argument("--rejudge", metavar="REPORT",
                    help="judge again only the survivors listed in this earlier report")
    ap.add_argument("--rejudge-origin", metavar="DIR",
                    help="the source tree the report was made from (its copy under --work), "
                         "to find each survivor's line by its neighbours")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="relax-mutants-")
    tree, build, baseline = prepare(work, args.jobs)
    timeout = args.timeout or max(30.0, 10 * baseline)
    # The unit tests take longer than the corpus: their own limit, from their own run.
    unit = max(120.0, 10 * unit_baseline(tree, build, args.jobs)) if args.unit else None
    memcheck = None
    if args.memcheck:
        sanitized, took = memcheck_baseline(tree, work, args.jobs)
        memcheck = (sanitized, max(60.0, 10 * took))
    rng = random.Random(args.seed)
    if args.rejudge:
        chosen = rejudged(tree, args.rejudge, read_equivalent(), args.rejudge_origin)
        total = len(chosen)
    else:
        chosen, total = sample(tree, args.paths, rng, args.count, read_equivalent())
    counts = {"killed": 0, "killed-by-timeout": 0, "killed-by-unit": 0, "killed-by-memcheck": 0,
              "survived": 0, "unbuildable": 0}
    survivors = []
    start = time.time()
    for rel, i, what, new in chosen:
        lines = open(os.path.join(tree, rel), encoding="utf-8").readlines()
        verdict = judge(tree, build, rel, lines, i, new, args.jobs, timeout, unit, memcheck)
        counts[verdict] += 1
        if verdict == "survived":
            survivors.append("%s:%d: %s: %s => %s" % (rel, i + 1, what, lines[i].strip(),
                                                       new.strip()))
        print("mutate: %-18s %s:%d: %s" % (verdict, rel, i + 1, what), flush=True)
    by_corpus = counts["killed"] + counts["killed-by-timeout"]
    killed = by_corpus + counts["killed-by-unit"] + counts["killed-by-memcheck"]
    judged = killed + counts["survived"]
    score = 100.0 * killed / judged if judged else 0.0
    corpus = 100.0 * by_corpus / judged if judged else 0.0
    where = ("the survivors of %s" % args.rejudge if args.rejudge else
             "mutants sampled with seed %d from %d sites in %s" %
             (args.seed, total, " ".join(args.paths)))
    report = ["mutation score: %.1f%% (%d killed, %d survived, %d did not compile) of %d "
              "%s; %.0f s" % (score, killed, counts["survived"], counts["unbuildable"],
                              len(chosen), where, time.time() - start)]
    if args.unit or args.memcheck:
        report.append("of the killed, %d by the corpus (corpus alone: %.1f%%), %d only by "
                      "the unit tests and %d only by the corpus with bounds checking" %
                      (by_corpus, corpus, counts["killed-by-unit"],
                       counts["killed-by-memcheck"]))
    if counts["killed-by-timeout"]:
        report.append("%d of the corpus's kills are a run that did not end within %.0f s (a "
                      "hang, or a machine too busy: --timeout)" %
                      (counts["killed-by-timeout"], timeout))
    report += ["survived: " + s for s in survivors]
    print("\n".join(report))
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(report) + "\n")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if judged == 0:
        print("mutate: no mutant was judged")
        return 1
    if args.min_score is not None and score < args.min_score:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
