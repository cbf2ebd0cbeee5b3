#!/usr/bin/env python3
"""layout: checks that the source tree keeps the shape ARCHITECTURE.md describes.

- every path ARCHITECTURE.md names in backquotes exists (a bare file name is looked up
  under the folder the same table row or sentence names);
- no folder holds more than 20 .c files, no source file passes 1,000 lines;
- includes never climb a layer: ast <- values <- interp <- tools.

Usage: /usr/bin/python3 tools/lint/layout.py   (from anywhere; exit 1 on a violation)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS = ["ast", "values", "interp", "tools"]
MAX_C_FILES = 20
MAX_LINES = 1000


def sources():
    for layer in LAYERS:
        for d, _, files in os.walk(os.path.join(ROOT, layer)):
            for f in files:
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def check_paths(problems):
    text = open(os.path.join(ROOT, "ARCHITECTURE.md"), encoding="utf-8").read()
    all_files = {os.path.relpath(p, ROOT) for p in sources()}
    names = {os.path.basename(p) for p in all_files}
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.rstrip("/")
        if "/" in token:
            if "*" in token or "<" in token:
                base = token.split("*")[0].split("<")[0]
                if not os.path.exists(os.path.join(ROOT, os.path.dirname(base))):
                    problems.append("ARCHITECTURE.md names %s: no such folder" % token)
            elif not os.path.exists(os.path.join(ROOT, token)):
                problems.append("ARCHITECTURE.md names %s: no such path" % token)
        elif re.fullmatch(r"[a-z_]+\.[ch]", token) and token not in names:
            problems.append("ARCHITECTURE.md names %s: no such source file" % token)


def check_sizes(problems):
    per_dir = {}
    for p in sources():
        if p.endswith(".c"):
            per_dir[os.path.dirname(p)] = per_dir.get(os.path.dirname(p), 0) + 1
        with open(p, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            problems.append("%s: %d lines (more than %d)" % (os.path.relpath(p, ROOT), n, MAX_LINES))
    for d, n in sorted(per_dir.items()):
        if n > MAX_C_FILES:
            problems.append("%s: %d .c files (more than %d)" % (os.path.relpath(d, ROOT), n, MAX_C_FILES))


def check_includes(problems):
    for p in sources():
        rel = os.path.relpath(p, ROOT)
        layer = LAYERS.index(rel.split(os.sep)[0])
        with open(p, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"([a-z]+)/', line)
                if m and m.group(1) in LAYERS and LAYERS.index(m.group(1)) > layer:
                    problems.append("%s:%d: includes %s, a later layer" % (rel, lineno, m.group(1)))


def main():
    problems = []
    check_paths(problems)
    check_sizes(problems)
    check_includes(problems)
    for p in problems:
        print("layout: " + p)
    print("layout: %s" % ("ok" if not problems else "%d problem(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
