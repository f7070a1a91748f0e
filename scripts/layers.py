#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""layers.py: who may include whom, in lib/ and between the front ends.

    layers.py [--root DIR] [--allow FILE] [-v]
    layers.py --selftest

(-v: first the -I directories of each compile rule of the Makefile.)

lib/ is in layers, each a directory of a rank:

    rank 0  lib/base/      tables, number formatting, utf8, json, text
                           tables, kvblock, path_label, numa, msg, sortkey
    rank 1  lib/pprof/     the pprof profile writer (protobuf-c, zlib)
    rank 1  lib/event/     event table, field lookup, decoding, fmtprobe,
                           symbols, tep_names, extent
    rank 2  lib/alloc/     object lifecycle: slab, page, percpu, match,
                           touched, lifetime
    rank 3  lib/analysis/  agg, folded, leaks, timeline, diff
    rank 4  lib/render/    report, tables, sort, renderers, plot_svg
    rank 4  lib/feed/      the one front-end loop
    rank 5  lib/options/   option table, kmem_opts, outputs

A file of lib/X may include the headers of lib/X and of the layers of a
lower rank, nothing else: not a layer of its own rank, nor reader/ or a
front end.  reader/ includes only reader/.  A front end (cli/, plugin/,
kernelshark/) includes lib/, reader/ and itself, never another front
end.  tests/ are exempt.  Among lib/'s headers there is no include cycle.

A file in lib/<layer>/ is of that layer; a file directly in lib/ (before
the move into layers) is of the layer FLAT_MAP gives its name, and a
name it does not know is an error.

Includes are resolved as the compiler does: "x.h" first in the
including file's own directory, then in the -I directories of the
Makefile's compile rule ($(B)/DIR/%.o: DIR/%.c, or $(B)/%.o: %.c) of
each translation unit that reaches the file; <x.h> only in those -I
directories.  What resolves to no file of the tree (libtraceevent,
libkshark, libc) is not looked at.

Each violation is a line

    path:line: includes "x" (layer A rank N -> layer B rank M)

and one with "[allowed]" after it is in the allow list (default
tests/layers.allow): lines "path -> included/path", both as the tree
spells them from its top, comments after "#".  The exit status is 1 if
a violation is not in the list, if an entry of the list no longer
happens (the list only shrinks: take the line out) or if lib/'s headers
include each other in a cycle (which no list allows); 2 for a tree or
list this script cannot read (an unmapped flat lib/ file, a malformed
line); else 0.

--selftest builds small trees in a temporary directory and checks that
exactly their planted violations are found.
"""
import argparse
import contextlib
import io
import os
import re
import sys
import tempfile

LAYERS = {
    "base": 0,
    "event": 1,
    "pprof": 1,
    "alloc": 2,
    "analysis": 3,
    "render": 4,
    "feed": 4,
    "options": 5,
}

# lib/NAME.[ch] -> its layer, while lib/ is flat: exact names first,
# then the patterns, in order
FLAT_MAP = {
    "addrtab": "base",
    "hashtab": "base",
    "json": "base",
    "jtree": "base",
    "kvblock": "base",
    "msg": "base",
    "numa": "base",
    "numfmt": "base",
    "path_label": "base",
    "sortkey": "base",
    "table": "base",
    "utf8": "base",
    "decode": "event",
    "decode_internal": "event",
    "decode_page": "event",
    "decode_percpu": "event",
    "extent": "event",
    "fmtprobe": "event",
    "kmem_event": "event",
    "symbols": "event",
    "tep_names": "event",
    "lifetime": "alloc",
    "match": "alloc",
    "page": "alloc",
    "percpu": "alloc",
    "slab": "alloc",
    "touched": "alloc",
    "agg": "analysis",
    "diff": "analysis",
    "folded": "analysis",
    "leaks": "analysis",
    "timeline": "analysis",
    "plot_svg": "render",
    "report": "render",
    "sort": "render",
    "feed": "feed",
    "options": "options",
    "output": "options",
}
FLAT_PATTERNS = [
    (re.compile(r"^decode_\w+$"), "event"),
    (re.compile(r"^report_\w+$"), "render"),
]

FRONT_ENDS = ("cli", "plugin", "kernelshark")
SCANNED = ("lib", "reader") + FRONT_ENDS
SOURCES = (".c", ".cc", ".cpp")
HEADERS = (".h", ".hh", ".hpp")
# the compile rules whose -I directories a header of each kind sees
HEADER_RULE_EXTS = {".h": (".c", ".cpp", ".cc"), ".hh": (".cc", ".cpp", ".c"),
                    ".hpp": (".cpp", ".cc", ".c")}


class TreeError(Exception):
    pass


# ---------------------------------------------------------------------
# what a path is: a layer of lib/, reader/, a front end or other


class Part:
    def __init__(self, kind, name, rank=None):
        self.kind = kind  # "lib", "reader", "front", "other"
        self.name = name
        self.rank = rank

    def __str__(self):
        if self.kind == "lib":
            return "layer %s rank %d" % (self.name, self.rank)
        if self.kind == "reader":
            return "reader"
        if self.kind == "front":
            return "front end %s" % self.name
        return "%s (no layer)" % self.name


def flat_layer(stem):
    if stem in FLAT_MAP:
        return FLAT_MAP[stem]
    for pat, layer in FLAT_PATTERNS:
        if pat.match(stem):
            return layer
    return None


def part_of(rel):
    """The Part of the file REL (from the top of the tree)."""
    parts = rel.split("/")
    top = parts[0]
    if top == "lib" and len(parts) > 2:
        if parts[1] not in LAYERS:
            raise TreeError("%s: lib/%s/ is no layer (%s)" %
                            (rel, parts[1], ", ".join(sorted(LAYERS))))
        return Part("lib", parts[1], LAYERS[parts[1]])
    if top == "lib":
        stem = os.path.splitext(parts[1])[0]
        layer = flat_layer(stem)
        if layer is None:
            raise TreeError("%s: a flat lib/ file of no layer: add \"%s\" "
                            "to FLAT_MAP in scripts/layers.py, or move it "
                            "into its layer's directory" % (rel, stem))
        return Part("lib", layer, LAYERS[layer])
    if top == "reader":
        return Part("reader", "reader")
    if top in FRONT_ENDS:
        return Part("front", top)
    return Part("other", top + "/" if len(parts) > 1 else rel)


def verdict(src, dst):
    """None if SRC may include DST, else what is wrong."""
    if src.kind == "lib":
        if dst.kind != "lib":
            return "outside"
        if dst.name == src.name or dst.rank < src.rank:
            return None
        return "same-rank" if dst.rank == src.rank else "upward"
    if src.kind == "reader":
        return None if dst.kind == "reader" else "outside"
    if src.kind == "front":
        if dst.kind in ("lib", "reader"):
            return None
        if dst.kind == "front":
            return None if dst.name == src.name else "cross-front-end"
        return "outside"
    return None


# ---------------------------------------------------------------------
# the Makefile's compile rules and their -I directories

ASSIGN = re.compile(r"^(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*"
                    r"(?:::=|:=|\?=|\+=|=)\s*(.*)$")
RULE = re.compile(r"^\$\(B\)/(\S*)%\.o\s*:\s*(\S*)%(\.\w+)(?:\s|$)")
REF_OR_I = re.compile(r"\$\((\w+)\)|(?<!\S)-I([\w./+-]+)(?!\S)")


def logical_lines(text):
    """The Makefile's lines, continuations joined."""
    out, cur = [], None
    for line in text.split("\n"):
        if cur is not None:
            cur += " " + line.lstrip()
        else:
            cur = line
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        out.append(cur)
        cur = None
    if cur is not None:
        out.append(cur)
    return out


def include_dirs(text, variables):
    """The -I directories of TEXT, its $(VAR)s expanded, in order."""
    dirs = []

    def walk(t, stack):
        for m in REF_OR_I.finditer(t):
            if m.group(1):
                name = m.group(1)
                if name in variables and name not in stack:
                    for value in variables[name]:
                        walk(value, stack | {name})
            else:
                d = os.path.normpath(m.group(2))
                if d not in dirs:
                    dirs.append(d)

    walk(text, frozenset())
    return dirs


class Rule:
    def __init__(self, prefix, ext, dirs):
        self.prefix = prefix  # "cli/", or "" for $(B)/%.o: %.c
        self.ext = ext
        self.dirs = dirs


def parse_makefile(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = logical_lines(f.read())
    except OSError as e:
        raise TreeError("%s: %s" % (path, e.strerror))
    variables = {}
    for line in lines:
        if line.startswith("\t"):
            continue
        m = ASSIGN.match(line)
        if m:
            variables.setdefault(m.group(1), []).append(m.group(2))
    rules = []
    for i, line in enumerate(lines):
        m = RULE.match(line)
        if not m:
            continue
        recipe = []
        for r in lines[i + 1:]:
            if not r.startswith("\t"):
                break
            recipe.append(r)
        rules.append(Rule(m.group(2), m.group(3),
                          include_dirs(" ".join(recipe), variables)))
    if not rules:
        raise TreeError("%s: no compile rule $(B)/...%%.o: ...%%.c" % path)
    return rules


def rule_dirs(rules, rel):
    """The -I directories REL is compiled with (a source), or that a
    translation unit of its directory gives it (a header)."""
    ext = os.path.splitext(rel)[1]
    exts = HEADER_RULE_EXTS.get(ext, (ext,))
    dirs, found = [], False
    for e in exts:
        best = None
        for r in rules:
            if r.ext == e and rel.startswith(r.prefix):
                if best is None or len(r.prefix) > len(best.prefix):
                    best = r
        if best is not None:
            found = True
            dirs += [d for d in best.dirs if d not in dirs]
        if ext not in HEADERS:
            break
    if not found:
        raise TreeError("%s: no compile rule for it in the Makefile" % rel)
    return tuple(dirs)


# ---------------------------------------------------------------------
# the includes of a file


def strip_comments(text):
    """TEXT with its comments blanked (newlines kept), strings left."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] not in (c, "\n"):
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)',
                     re.M)


class Tree:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.rules = parse_makefile(os.path.join(self.root, "Makefile"))
        self._includes = {}
        # (src, line, text, dst): every include that some compilation
        # resolves to a file of the tree
        self.edges = set()
        self._walked = set()

    def includes(self, rel):
        """[(line, text, quoted)] of the file REL."""
        if rel not in self._includes:
            with open(os.path.join(self.root, rel), encoding="utf-8",
                      errors="replace") as f:
                text = strip_comments(f.read())
            found = []
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                if m.group(1) is not None:
                    found.append((line, m.group(1), True))
                else:
                    found.append((line, m.group(2), False))
            self._includes[rel] = found
        return self._includes[rel]

    def resolve(self, rel, text, quoted, dirs):
        cands = ([os.path.dirname(rel)] if quoted else []) + list(dirs)
        for d in cands:
            p = os.path.normpath(os.path.join(d, text))
            if p.startswith("..") or os.path.isabs(p):
                continue
            if os.path.isfile(os.path.join(self.root, p)):
                return p.replace(os.sep, "/")
        return None

    def walk(self, rel, dirs):
        """The includes of REL and of what it includes, as a
        translation unit compiled with -I DIRS finds them."""
        stack = [rel]
        while stack:
            cur = stack.pop()
            if (cur, dirs) in self._walked:
                continue
            self._walked.add((cur, dirs))
            for line, text, quoted in self.includes(cur):
                dst = self.resolve(cur, text, quoted, dirs)
                if dst is None:
                    continue
                self.edges.add((cur, line, text, dst))
                if dst.split("/")[0] in SCANNED:
                    stack.append(dst)

    def files(self):
        out = []
        for top in SCANNED:
            base = os.path.join(self.root, top)
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = sorted(d for d in dirnames
                                     if not d.startswith("."))
                for fn in sorted(filenames):
                    if os.path.splitext(fn)[1] in SOURCES + HEADERS:
                        p = os.path.join(dirpath, fn)
                        out.append(os.path.relpath(p, self.root)
                                   .replace(os.sep, "/"))
        return out


# ---------------------------------------------------------------------
# the check


class Result:
    def __init__(self):
        self.errors = []      # what makes the tree unreadable
        self.violations = []  # (src, line, text, dst, what, message)
        self.cycles = []      # (src, line, [files...]) closed: last == first
        self.stale = []       # (allow line, src, dst)
        self.allowed = set()  # (src, dst) of the allow list

    def new(self):
        return [v for v in self.violations
                if (v[0], v[3]) not in self.allowed]

    def failures(self):
        """(what, src, dst) of every failure, for the self-test."""
        out = {(v[4], v[0], v[3]) for v in self.new()}
        out |= {("cycle", c[0], " -> ".join(c[2])) for c in self.cycles}
        out |= {("stale", s[1], s[2]) for s in self.stale}
        return out


def read_allow(path, result):
    entries = {}
    if path is None or not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"^(\S+)\s*->\s*(\S+)$", line)
            if not m:
                result.errors.append("%s:%d: not \"path -> included/path\": %s"
                                     % (path, n, line))
                continue
            key = (m.group(1), m.group(2))
            if key in entries:
                result.errors.append("%s:%d: %s -> %s again (line %d)" %
                                     (path, n, key[0], key[1], entries[key]))
                continue
            entries[key] = n
    return entries


def find_cycles(edges):
    """The cycles among lib/'s headers a DFS finds, each a list of
    files whose last is its first, rotated to start at its least."""
    graph, line_of = {}, {}
    for src, line, _text, dst in edges:
        if (src.startswith("lib/") and dst.startswith("lib/") and
                os.path.splitext(src)[1] in HEADERS and
                os.path.splitext(dst)[1] in HEADERS):
            graph.setdefault(src, set()).add(dst)
            line_of.setdefault((src, dst), line)
            line_of[(src, dst)] = min(line, line_of[(src, dst)])
    colour, seen, cycles = {}, set(), []
    for start in sorted(graph):
        if colour.get(start):
            continue
        # iterative DFS: path of (node, its successors left)
        path, on_path = [], {}
        colour[start] = 1
        path.append((start, iter(sorted(graph.get(start, ())))))
        on_path[start] = 0
        while path:
            node, succ = path[-1]
            nxt = next(succ, None)
            if nxt is None:
                colour[node] = 2
                del on_path[node]
                path.pop()
                continue
            if colour.get(nxt) == 1:
                cyc = [p[0] for p in path[on_path[nxt]:]]
                k = cyc.index(min(cyc))
                cyc = cyc[k:] + cyc[:k]
                if tuple(cyc) not in seen:
                    seen.add(tuple(cyc))
                    cycles.append((cyc[0], line_of[(cyc[0], cyc[1 % len(cyc)])],
                                   cyc + [cyc[0]]))
            elif not colour.get(nxt):
                colour[nxt] = 1
                on_path[nxt] = len(path)
                path.append((nxt, iter(sorted(graph.get(nxt, ())))))
    return sorted(cycles)


def check(root, allow_path):
    result = Result()
    try:
        tree = Tree(root)
    except TreeError as e:
        result.errors.append(str(e))
        return result
    files = tree.files()
    parts = {}
    for rel in files:
        try:
            parts[rel] = part_of(rel)
        except TreeError as e:
            result.errors.append(str(e))
    for rel in files:
        try:
            # every file on its own, and every translation unit with what
            # it reaches: a header may resolve an include differently in
            # the translation units of another directory
            tree.walk(rel, rule_dirs(tree.rules, rel))
        except TreeError as e:
            result.errors.append(str(e))
        except OSError as e:
            result.errors.append("%s: %s" % (rel, e.strerror))
    for src, line, text, dst in sorted(tree.edges):
        if src not in parts:
            continue
        try:
            dpart = parts.get(dst) or part_of(dst)
        except TreeError as e:
            if str(e) not in result.errors:
                result.errors.append(str(e))
            continue
        what = verdict(parts[src], dpart)
        if what:
            result.violations.append(
                (src, line, text, dst, what,
                 '%s:%d: includes "%s" (%s -> %s)' %
                 (src, line, text, parts[src], dpart)))
    result.cycles = find_cycles(tree.edges)
    entries = read_allow(allow_path, result)
    result.allowed = set(entries)
    happening = {(v[0], v[3]) for v in result.violations}
    for key, n in sorted(entries.items(), key=lambda kv: kv[1]):
        if key not in happening:
            result.stale.append((n, key[0], key[1]))
    return result


def report(result, root, allow_path):
    """Print RESULT; its exit status."""
    for e in result.errors:
        print("error: %s" % e)
    if result.errors:
        return 2
    for v in result.violations:
        allowed = (v[0], v[3]) in result.allowed
        print(v[5] + ("  [allowed]" if allowed else ""))
    for src, line, files in result.cycles:
        print("%s:%d: include cycle: %s" % (src, line, " -> ".join(files)))
    shown = os.path.relpath(allow_path, root)
    for n, src, dst in result.stale:
        print("%s:%d: %s -> %s no longer happens: take the line out" %
              (shown, n, src, dst))
    new = result.new()
    print("layers: %d violations (%d allowed, %d new), %d include cycles, "
          "%d stale lines in %s" %
          (len(result.violations), len(result.violations) - len(new),
           len(new), len(result.cycles), len(result.stale), shown))
    return 1 if new or result.cycles or result.stale else 0


# ---------------------------------------------------------------------
# the self-test

SELF_MAKEFILE = """\
CFLAGS ?= -O2
ALL_CFLAGS = -std=gnu11 -Ilib $(TEP_CFLAGS) $(CFLAGS)
TEP_CFLAGS = $(shell pkg-config --cflags libtraceevent)
KS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libkshark))

$(B)/%.o: %.c
\t$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/cli/%.o: cli/%.c
\t$(CC) $(ALL_CFLAGS) -pthread \\
\t\t-Ireader $(KS) -c -o $@ $<

$(B)/plugin/%.o: plugin/%.c
\t$(CC) $(ALL_CFLAGS) -Ireader -c -o $@ $<

$(B)/reader/%.o: reader/%.c
\t$(CC) $(ALL_CFLAGS) -c -o $@ $<
"""

# the tree every case starts from: no violation, no cycle
SELF_TREE = {
    "lib/base/hashtab.h": "#include <stdint.h>\n",
    "lib/base/hashtab.c": '#include <stdio.h>\n#include "hashtab.h"\n',
    "lib/event/decode.h": '#include "base/hashtab.h"\n#include <event-parse.h>\n',
    "lib/event/decode.c": ('#include "decode.h"\n#include "../base/hashtab.h"\n'
                           '/* #include "options/options.h" */\n'
                           '// #include "render/report.h"\n'
                           'static const char *s = "#include \\"x\\"";\n'),
    "lib/alloc/slab.h": '#include "event/decode.h"\n',
    "lib/alloc/slab.c": '#include "slab.h"\n#include "base/hashtab.h"\n',
    "lib/render/report.h": '#include "alloc/slab.h"\n',
    "lib/render/report.c": '#include "report.h"\n#include "agg.h"\n',
    "lib/feed/feed.h": '#include "alloc/slab.h"\n',
    "lib/feed/feed.c": '#include "feed.h"\n',
    "lib/options/options.h": '#include "render/report.h"\n#include "feed/feed.h"\n',
    "lib/options/options.c": '#include "options.h"\n',
    # a flat file, of the layer FLAT_MAP gives it (agg: analysis)
    "lib/agg.h": '#include "alloc/slab.h"\n',
    "lib/agg.c": '#include "agg.h"\n',
    "reader/tdat.h": "#include <zlib.h>\n",
    "reader/internal.h": '#include "tdat.h"\n',
    "reader/open.c": '#include "internal.h"\n',
    # cli/hashtab.h hides lib/base/hashtab.h from cli/main.c
    "cli/hashtab.h": "",
    "cli/main.c": ('#include "hashtab.h"\n#include "event/decode.h"\n'
                   '#include "tdat.h"\n#include "options/options.h"\n'),
    "plugin/plugin.h": '#include "options/options.h"\n#include "tdat.h"\n',
    "plugin/plugin.c": '#include "plugin.h"\n',
    "tests/t.c": '#include "../cli/hashtab.h"\n#include "../plugin/plugin.h"\n',
}

# the four failures the brief plants
PLANTED = {
    "lib/base/numa.c": '#include "hashtab.h"\n#include "options/options.h"\n',
    "cli/cross.c": '#include "../plugin/plugin.h"\n',
    "lib/render/sort.h": '#include "feed/feed.h"\n',
    "lib/alloc/p.h": '#include "q.h"\n',
    "lib/alloc/q.h": '#include "base/hashtab.h"\n#include "p.h"\n',
}
PLANTED_FAILURES = {
    ("upward", "lib/base/numa.c", "lib/options/options.h"),
    ("cross-front-end", "cli/cross.c", "plugin/plugin.h"),
    ("same-rank", "lib/render/sort.h", "lib/feed/feed.h"),
    ("cycle", "lib/alloc/p.h", "lib/alloc/p.h -> lib/alloc/q.h -> lib/alloc/p.h"),
}
PLANTED_LINES = [
    'lib/base/numa.c:2: includes "options/options.h" '
    '(layer base rank 0 -> layer options rank 5)',
    'cli/cross.c:1: includes "../plugin/plugin.h" '
    '(front end cli -> front end plugin)',
    'lib/render/sort.h:1: includes "feed/feed.h" '
    '(layer render rank 4 -> layer feed rank 4)',
    'lib/alloc/p.h:1: include cycle: lib/alloc/p.h -> lib/alloc/q.h -> '
    'lib/alloc/p.h',
]


def make_tree(top, files, allow=None):
    if os.path.exists(top):
        raise TreeError("%s exists" % top)
    os.makedirs(top)
    with open(os.path.join(top, "Makefile"), "w") as f:
        f.write(SELF_MAKEFILE)
    for rel, text in files.items():
        p = os.path.join(top, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    path = os.path.join(top, "tests", "layers.allow")
    if allow is not None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(allow)
    return path


def run_main(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    return rc, out.getvalue()


def selftest():
    failed = []

    def case(name, ok, detail):
        print("%s %s" % ("ok  " if ok else "FAIL", name))
        if not ok:
            print("    " + detail.replace("\n", "\n    "))
            failed.append(name)

    with tempfile.TemporaryDirectory(prefix="layers-selftest.") as tmp:
        n = [0]

        def tree(files, allow=None):
            n[0] += 1
            top = os.path.join(tmp, "t%d" % n[0])
            return top, make_tree(top, files, allow)

        # 1. a clean tree: nothing
        top, allow = tree(SELF_TREE)
        r = check(top, allow)
        case("clean tree: no failure", not r.errors and not r.violations
             and not r.cycles and not r.stale,
             "errors %s violations %s cycles %s" %
             (r.errors, [v[5] for v in r.violations], r.cycles))

        # 2. the four planted failures, exactly, and their lines
        top, allow = tree(dict(SELF_TREE, **PLANTED))
        r = check(top, allow)
        case("planted: exactly the four failures",
             not r.errors and r.failures() == PLANTED_FAILURES,
             "errors %s\nfound %s\nwanted %s" %
             (r.errors, sorted(r.failures()), sorted(PLANTED_FAILURES)))
        rc, out = run_main(["--root", top])
        case("planted: exit 1, a line each",
             rc == 1 and all(line in out.split("\n") for line in PLANTED_LINES),
             "exit %d, output:\n%s" % (rc, out))

        # 3. the violations in the allow list (a cycle cannot be): exit 0
        no_cycle = {k: v for k, v in PLANTED.items()
                    if k not in ("lib/alloc/p.h", "lib/alloc/q.h")}
        listed = ("# planted\nlib/base/numa.c -> lib/options/options.h\n"
                  "cli/cross.c -> plugin/plugin.h  # a comment\n"
                  "lib/render/sort.h   ->   lib/feed/feed.h\n")
        top, allow = tree(dict(SELF_TREE, **no_cycle), listed)
        rc, out = run_main(["--root", top])
        case("allowed: exit 0", rc == 0 and out.count("[allowed]") == 3,
             "exit %d, output:\n%s" % (rc, out))

        # 4. an entry that no longer happens: exit 1, that line named
        top, allow = tree(dict(SELF_TREE, **no_cycle),
                          listed + "lib/agg.h -> lib/options/options.h\n"
                          "lib/feed/feed.h -> lib/alloc/slab.h\n")
        r = check(top, allow)
        case("stale entries fail",
             r.failures() == {("stale", "lib/agg.h", "lib/options/options.h"),
                              ("stale", "lib/feed/feed.h",
                               "lib/alloc/slab.h")},
             "found %s" % sorted(r.failures()))
        rc, out = run_main(["--root", top])
        case("stale entries: exit 1, line 5 named",
             rc == 1 and "layers.allow:5: lib/agg.h -> lib/options/options.h "
             "no longer happens" in out, "exit %d, output:\n%s" % (rc, out))

        # 5. a flat file by FLAT_MAP, an include only another directory's
        # translation units resolve (lib/ has no -Ireader; cli/ has), a
        # same-directory header that hides -I's, reader/ reaching lib/
        top, allow = tree(dict(SELF_TREE, **{
            "lib/tep_names.h": '#include "agg.h"\n',
            "lib/base/sneak.h": '#include "tdat.h"\n',
            "cli/sneak.c": '#include "base/sneak.h"\n',
            "lib/base/event/decode.h": "",
            "lib/base/fields.c": '#include "event/decode.h"\n',
            "reader/scan.c": '#include "internal.h"\n#include "base/hashtab.h"\n',
        }))
        r = check(top, allow)
        want = {("upward", "lib/tep_names.h", "lib/agg.h"),
                ("outside", "lib/base/sneak.h", "reader/tdat.h"),
                ("outside", "reader/scan.c", "lib/base/hashtab.h")}
        case("flat map, resolution per translation unit, reader",
             not r.errors and r.failures() == want,
             "errors %s\nfound %s\nwanted %s" %
             (r.errors, sorted(r.failures()), sorted(want)))

        # 6. what the tree or the list cannot say: exit 2
        top, allow = tree(dict(SELF_TREE, **{"lib/mystery.c": "",
                                             "lib/stuff/x.h": ""}),
                          "lib/agg.h lib/base/hashtab.h\n")
        rc, out = run_main(["--root", top])
        case("unmapped flat file, unknown layer, bad list line: exit 2",
             rc == 2 and "lib/mystery.c: a flat lib/ file of no layer" in out
             and "lib/stuff/ is no layer" in out
             and "layers.allow:1: not" in out,
             "exit %d, output:\n%s" % (rc, out))

    print("layers selftest: %s" % ("%d failed: %s" % (len(failed), ", ".join(failed))
                                   if failed else "all passed"))
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="lib/'s include layers and what may include what")
    ap.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."),
        help="the top of the tree (default: this script's ..)")
    ap.add_argument("--allow", help="the allow list (default: "
                    "ROOT/tests/layers.allow)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also the -I directories of each compile rule")
    ap.add_argument("--selftest", action="store_true",
                    help="check this script on trees of its own")
    args = ap.parse_args(argv)
    if args.selftest:
        return selftest()
    root = os.path.normpath(args.root)
    if args.allow and not os.path.isfile(args.allow):
        print("error: %s: no such allow list" % args.allow)
        return 2
    allow = args.allow or os.path.join(root, "tests", "layers.allow")
    if args.verbose:
        try:
            for r in parse_makefile(os.path.join(root, "Makefile")):
                print("rule %s%%%s: -I %s" % (r.prefix, r.ext,
                                              " ".join(r.dirs) or "(none)"))
        except TreeError:
            pass
    return report(check(root, allow), root, allow)


if __name__ == "__main__":
    sys.exit(main())
