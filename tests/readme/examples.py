#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""examples.py: the README's example outputs, made by the current code.

    examples.py [--update] [--readme README.md] [--tk build/trace-kmem]

Every example in the README is a fenced block right after a marker line

    <!-- example: trace-kmem stat ARGS... -->

whose command is run (from the top of the tree, with the trace-kmem
given) and whose output must be the block, byte for byte.  Without
--update: each example is checked, a line per example (PASS or FAIL
with the first differing line), and the exit status is 1 if any
differs.  With --update the blocks are rewritten from the command's
output (make readme).  trace-kmem prints what the plugin prints after
trace-cmd's listing, so the examples stand for both.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

MARK = re.compile(r"^<!-- example: (trace-kmem .*) -->$")


def run(cmd, tk, top):
    args = shlex.split(cmd)
    args[0] = tk
    env = dict(os.environ, COLUMNS="160")
    p = subprocess.run(args, cwd=top, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit("examples.py: '%s' failed (%d): %s"
                 % (cmd, p.returncode, p.stderr.strip()))
    return p.stdout


def blocks(lines):
    """(marker index, command, block start, block end) of each example:
    the block's lines are lines[start:end], between its fences."""
    out = []
    for i, l in enumerate(lines):
        m = MARK.match(l)
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit("examples.py: line %d: no fenced block after the "
                     "marker" % (i + 1))
        end = i + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            sys.exit("examples.py: line %d: the block is not closed" % (i + 2))
        out.append((i, m.group(1), i + 2, end))
    return out


def main():
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--readme", default=os.path.join(top, "README.md"))
    ap.add_argument("--tk", default=os.path.join(top, "build", "trace-kmem"))
    a = ap.parse_args()
    lines = open(a.readme).read().split("\n")
    found = blocks(lines)
    if not found:
        sys.exit("examples.py: no example in %s" % a.readme)
    bad = 0
    for i, cmd, start, end in reversed(found):
        want = run(cmd, os.path.abspath(a.tk), top).rstrip("\n").split("\n")
        have = lines[start:end]
        if a.update:
            lines[start:end] = want
            continue
        if have == want:
            print("PASS readme-example: %s (%d lines)" % (cmd, len(want)))
            continue
        bad += 1
        n = next((k for k, (x, y) in enumerate(zip(have, want)) if x != y),
                 min(len(have), len(want)))
        print("FAIL readme-example: %s: line %d of the block: README has %r, "
              "the code prints %r (make readme)"
              % (cmd, n + 1, have[n] if n < len(have) else "(end)",
                 want[n] if n < len(want) else "(end)"))
    if a.update:
        open(a.readme, "w").write("\n".join(lines))
        print("examples.py: %d examples written to %s" % (len(found), a.readme))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
