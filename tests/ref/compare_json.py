#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Compare the plugin's kmem JSON document and text tables with the
reference (tests/ref/kmem_ref.py).

    compare_json.py --ref REF.json --name NAME --json PLUGIN.json
                    [--text PLUGIN_STDOUT] [--sort KEYS] [--raw-ip]
                    [--lines N]
    compare_json.py --ref REF.json
                    --case NAME PLUGIN.json PLUGIN_STDOUT KEYS RAW_IP LINES
                    [--case ...]

REF.json is kmem_ref.py's output for the same file (any sort: the rows
are re-sorted here for --sort with the reference's own sort, see
Documentation/kmem-stat-definitions.txt "Sorting").  Prints one
"PASS NAME:check" or "FAIL NAME:check: reason" line per check, details
of every mismatch on the lines after a FAIL (indented), and exits 1 if
anything failed.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kmem_ref  # noqa: E402

PCT_TOL = 1e-3
MAX_DETAIL = 25

failed = False


def report(name, problems, what="", count=None):
    """One PASS/FAIL line for a check; problems is a list of strings."""
    global failed
    if not problems:
        print("PASS %s%s" % (name, (" (%s)" % what) if what else ""))
        return
    failed = True
    head = "; ".join(problems[:3])
    more = len(problems) - 3
    n = count if count is not None else \
        sum(1 for p in problems if not p.startswith(("note: ", "hint: ")))
    print("FAIL %s: %d mismatch(es): %s%s" % (
        name, n, head, (" ... and %d more" % more) if more > 0
        else ""))
    for p in problems[:MAX_DETAIL]:
        print("    " + p)
    if len(problems) > MAX_DETAIL:
        print("    ... %d more" % (len(problems) - MAX_DETAIL))


def same(field, got, want):
    if field.endswith("_pct"):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            return False
        return abs(got - want) <= PCT_TOL
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    return got == want and type(got) is type(want)


def fmtv(v):
    return json.dumps(v)


# ---------------------------------------------------------------- JSON

def cmp_members(where, got, want, fields, problems):
    for f in fields:
        if f not in got:
            problems.append("%s: member %s missing (reference %s)"
                            % (where, f, fmtv(want.get(f))))
            continue
        if not same(f, got[f], want[f]):
            problems.append("%s: %s: plugin %s, reference %s"
                            % (where, f, fmtv(got[f]), fmtv(want[f])))


SUMMARY_FIELDS = ["allocs", "frees", "bytes_requested", "bytes_allocated",
                  "bytes_freed", "net_bytes", "wasted_bytes",
                  "fragmentation_pct", "cross_cpu_frees", "alloc_failures",
                  "events_lost", "double_frees", "double_frees_doubt",
                  "null_frees", "zero_size_allocs"]
SUMMARY_PAIRS = {"alloc_freed": ("count", "bytes"),
                 "alloc_only": ("count", "bytes"),
                 "free_only": ("count",),
                 "live": ("count", "bytes"),
                 "missed_frees": ("count", "bytes"),
                 "memcg": ("count", "bytes", "by_accounted_field",
                           "by_gfp_account", "unknown")}

CALLSITE_FIELDS = ["address", "cache", "hits", "failures", "bytes_req", "bytes_alloc",
                   "frees", "pingpong", "frag_pct", "live_count",
                   "live_bytes", "peak_bytes", "memcg_bytes",
                   "mean_lifetime_ns"]
ALLOC_FIELDS = ["address", "hits", "bytes_req", "bytes_alloc", "frees",
                "pingpong", "frag_pct", "live", "live_bytes",
                "mean_lifetime_ns"]
ANOMALY_FIELDS = ["free_only", "double_frees", "missed_frees"]
CACHE_FIELDS = ["allocs", "frees", "free_only", "bytes_req", "bytes_alloc",
                "frag_pct", "live_count", "live_bytes", "memcg_bytes"]


def check_top(name, got, want, check_file=True):
    problems = []
    if not check_file:
        pass
    elif got.get("file") != want["file"]:
        report(name + ":file", ['"file": plugin %s, reference %s (the real '
                                'path, relative to the current directory '
                                'when below it)'
                                % (fmtv(got.get("file")), fmtv(want["file"]))])
    else:
        report(name + ":file", [])
    cmp_members("document", got, want, ["events_lost", "lost_unknown"],
                problems)
    if got.get("undecodable") != 0:
        problems.append("document: undecodable: plugin %s, reference 0 "
                        "(every record decoded)"
                        % fmtv(got.get("undecodable")))
    gs = got.get("slab")
    if not isinstance(gs, dict):
        problems.append("document: no \"slab\" object")
    else:
        cmp_members("slab", gs, want["slab"], ["events", "complete",
                                               "handled_elsewhere"], problems)
    report(name + ":document", problems)


def check_summary(name, got, want):
    problems = []
    gs = got.get("summary", {})
    ws = want["summary"]
    cmp_members("summary", gs, ws, SUMMARY_FIELDS, problems)
    for k, subs in SUMMARY_PAIRS.items():
        g = gs.get(k)
        if not isinstance(g, dict):
            problems.append("summary: %s: plugin %s, reference %s"
                            % (k, fmtv(g), fmtv(ws[k])))
            continue
        cmp_members("summary." + k, g, ws[k], subs, problems)
    # the documented identities, on the plugin's numbers
    try:
        if gs["allocs"] != gs["alloc_freed"]["count"] + \
                gs["alloc_only"]["count"]:
            problems.append("summary: identity allocs = alloc_freed.count + "
                            "alloc_only.count does not hold")
        if gs["frees"] != gs["alloc_freed"]["count"] + \
                gs["free_only"]["count"] + gs["double_frees"]:
            problems.append("summary: identity frees = alloc_freed.count + "
                            "free_only.count + double_frees does not hold")
        if gs["live"]["count"] > gs["alloc_only"]["count"]:
            problems.append("summary: live.count > alloc_only.count")
    except (KeyError, TypeError):
        pass
    try:
        d = gs["free_only"]["count"] - ws["free_only"]["count"]
        if d and gs["double_frees"] - ws["double_frees"] == -d:
            problems.append(
                "hint: %d free(s) of a pointer never allocated in the trace "
                "but already freed: the plugin counts them as %s, the "
                "reference as %s (both rules of \"Matching\" apply; "
                "kmem_ref.py --refree-free-only gives the other reading)"
                % (abs(d), "freed-only" if d > 0 else "double frees",
                   "double frees" if d > 0 else "freed-only"))
    except (KeyError, TypeError):
        pass
    report(name + ":summary", problems)


def callsite_ok(got, want_row):
    return got == want_row["callsite"] or \
        got in want_row.get("_callsite_aliases", ())


def check_rows(name, table, key, fields, got_rows, want_rows, raw_ip):
    problems = []
    if not isinstance(got_rows, list):
        report("%s:%s" % (name, table), ["slab.%s is not an array" % table])
        return
    want = {r[key]: r for r in want_rows}
    got = {}
    for i, r in enumerate(got_rows):
        k = r.get(key)
        if k in got:
            problems.append("%s: duplicate row %s=%s (index %d)"
                            % (table, key, k, i))
        got[k] = r
    missing = [k for k in want if k not in got]
    extra = [k for k in got if k not in want]
    for k in missing:
        problems.append("%s: row %s missing in the plugin's array "
                        "(reference: %s)" % (table, k, brief(want[k])))
    for k in extra:
        problems.append("%s: row %s in the plugin's array only (%s)"
                        % (table, k, brief(got[k])))
    for k, w in want.items():
        g = got.get(k)
        if g is None:
            continue
        where = "%s[%s]" % (table, k)
        cmp_members(where, g, w, fields, problems)
        if "callsite" in w:
            gc = g.get("callsite")
            if not callsite_ok(gc, w):
                problems.append("%s: callsite: plugin %s, reference %s"
                                % (where, fmtv(gc), " or ".join(
                                    fmtv(x) for x in w.get(
                                        "_callsite_aliases",
                                        [w["callsite"]]))))
    report("%s:%s" % (name, table), problems, "%d rows" % len(want))


def brief(row):
    return ", ".join("%s=%s" % (k, fmtv(v)) for k, v in row.items()
                     if not k.startswith("_") and k in (
                         "callsite", "hits", "allocs", "bytes_alloc",
                         "frees", "free_only", "live_bytes"))


def check_order(name, table, key, got_rows, want_sorted, keys):
    """The plugin's array order must be the reference's sort order."""
    problems = []
    gk = [r.get(key) for r in got_rows] if isinstance(got_rows, list) else []
    wk = [r[key] for r in want_sorted]
    if set(gk) != set(wk) or len(gk) != len(wk):
        report("%s:order-%s" % (name, table),
               ["rows differ (see %s:%s); order not compared"
                % (name, table)])
        return
    wpos = {k: i for i, k in enumerate(wk)}
    wrow = {r[key]: r for r in want_sorted}
    wrong = sum(1 for i, k in enumerate(gk) if k != wk[i])
    if wrong:
        problems.append("note: %d of %d rows out of place, the first 5:"
                        % (wrong, len(gk)))
    for i, k in enumerate(gk):
        if k != wk[i]:
            problems.append(
                "%s sort=%s: position %d: plugin has %s (%s), reference "
                "order has %s (%s); plugin's row belongs at %d"
                % (table, ",".join(keys), i, k, sortvals(wrow[k], table, keys),
                   wk[i], sortvals(wrow[wk[i]], table, keys), wpos[k]))
            if len(problems) >= 6:
                break
    if problems:
        problems.insert(0, "note: ties are broken by the order in which the rows "
                        "first appeared (\"appeared #N\"; %s)" % {
                            "callsites": "a call site's row appears with "
                                         "its first allocation",
                            "allocs": "an address's row appears with its "
                                      "first allocation, not with an "
                                      "earlier freed-only free",
                            "caches": "a cache's row appears with its "
                                      "first allocation or freed-only free"
                        }[table])
    report("%s:order-%s" % (name, table), problems, count=wrong)


def sortvals(row, table, keys):
    out = []
    for k in kmem_ref.table_keys(keys):
        if kmem_ref.sort_key_fn(table, k) is None:
            continue
        col = {"ptr": "ptr", "callsite": "address", "bytes": "bytes_alloc",
               "hit": "allocs" if table == "caches" else "hits",
               "pingpong": "pingpong", "frag": "frag_pct",
               "live": "live_bytes", "peak": "peak_bytes"}[k]
        out.append("%s=%s" % (col, fmtv(row.get(col))))
    out.append("appeared #%d" % row["_seq"])
    return " ".join(out)


# ---------------------------------------------------------------- text

NUM_RE = re.compile(r"^(?:\.|\d{1,3}(?:,\d{3})*)$")


def num(tok, where, problems):
    """A number as the tables print it: thousands separators, '.' for 0."""
    tok = tok.strip()
    if not NUM_RE.match(tok):
        problems.append("%s: %r is not a number with thousands separators"
                        % (where, tok))
        return None
    return 0 if tok == "." else int(tok.replace(",", ""))


def pair(tok, where, problems):
    """'total/size' (or '.')."""
    tok = tok.strip()
    if tok == ".":
        return 0, 0
    a, sep, b = tok.partition("/")
    if not sep:
        problems.append("%s: %r is not N/M" % (where, tok))
        return None, None
    return num(a, where, problems), num(b, where, problems)


def pct_text(tok, where, problems):
    tok = tok.strip()
    if tok == ".":
        return 0.0
    m = re.match(r"^(-?\d+\.\d\d)%$", tok)
    if not m:
        problems.append("%s: %r is not a percentage" % (where, tok))
        return None
    return float(m.group(1))


UNITS = {"ns": 1, "us": 10 ** 3, "ms": 10 ** 6, "s": 10 ** 9}


def check_lifetime(tok, want, where, problems):
    tok = tok.strip()
    if want is None:
        if tok != "-":
            problems.append("%s: lifetime %r, reference none ('-')"
                            % (where, tok))
        return
    m = re.match(r"^(\d+)(?:\.(\d+))?(ns|us|ms|s)$", tok)
    if not m:
        problems.append("%s: lifetime %r, reference %d ns" % (where, tok, want))
        return
    dec = len(m.group(2) or "")
    val = float(m.group(1) + "." + (m.group(2) or "0")) * UNITS[m.group(3)]
    tol = 0.5 * UNITS[m.group(3)] / 10 ** dec + 1.0
    if abs(val - want) > tol:
        problems.append("%s: lifetime %r, reference %d ns" % (where, tok, want))


def check_pct(tok, want, where, problems):
    v = pct_text(tok, where, problems)
    if v is not None and abs(v - want) > 0.005 + 1e-9:
        problems.append("%s: frag %r, reference %.4f%%" % (where, tok, want))


def check_eq(got, want, what, where, problems):
    if got is not None and got != want:
        problems.append("%s: %s: text %s, reference %s"
                        % (where, what, got, want))


def tables(text):
    """{kind: [row cells]} of the slab tables printed on stdout (they
    come before the slab summary; the page allocator's come after)."""
    out = {}
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if line.startswith(" SUMMARY (slab allocator)"):
            lines = lines[:n]
            break
    i = 0
    while i < len(lines):
        line = lines[i]
        kind = None
        if "|" in line and line.rstrip().endswith("| Callsite") and \
                "Alloc ptr" not in line and "Freed-only" not in line:
            kind = "callsites"
        elif "|" in line and "Alloc ptr" in line:
            kind = "allocs"
        elif "|" in line and line.rstrip().endswith("| Cache"):
            kind = "caches"
        if kind is None:
            i += 1
            continue
        i += 1
        if i < len(lines) and set(lines[i].strip()) == {"-"}:
            i += 1
        rows = []
        more = False
        while i < len(lines) and "|" in lines[i]:
            cells = [c.strip() for c in lines[i].split("|")]
            if cells[0] == "...":
                more = True
            else:
                rows.append(cells)
            i += 1
        out[kind] = (rows, more)
    return out


def check_memcg(cell, want, where, problems):
    """The Memcg bytes cell: "-" when the trace tells nothing."""
    if want is None:
        if cell != "-":
            problems.append("%s: Memcg bytes %r, reference -" % (where, cell))
        return
    check_eq(num(cell, where, problems), want, "Memcg bytes", where,
             problems)


def check_text_tables(name, text, ref, lines, shown):
    """The text tables SHOWN (the others must not be there)."""
    found = tables(text)
    for kind in ("callsites", "allocs", "caches"):
        if kind not in shown:
            if kind in found:
                report("%s:text-%s" % (name, kind),
                       ["a %s table on stdout, not asked for" % kind])
            continue
        want = ref["slab"][kind]
        problems = []
        if kind not in found:
            report("%s:text-%s" % (name, kind),
                   ["no %s table on stdout" % kind])
            continue
        rows, more = found[kind]
        nshow = len(want) if lines == 0 else min(lines, len(want))
        if len(rows) != nshow:
            problems.append("%s table: %d rows printed, expected %d"
                            % (kind, len(rows), nshow))
        if more != (len(want) > nshow):
            problems.append("%s table: '...' row %s, expected %s"
                            % (kind, more, len(want) > nshow))
        for i, (cells, w) in enumerate(zip(rows, want)):
            where = "%s text row %d" % (kind, i)
            if kind == "callsites":
                if len(cells) != 10:
                    problems.append("%s: %d columns" % (where, len(cells)))
                    continue
                hits = w["hits"]
            elif kind == "allocs":
                if len(cells) != 9:
                    problems.append("%s: %d columns" % (where, len(cells)))
                    continue
                hits = w["hits"]
            else:
                if len(cells) != 8:
                    problems.append("%s: %d columns" % (where, len(cells)))
                    continue
                hits = w["allocs"]
            tot, size = pair(cells[0], where, problems)
            check_eq(tot, w["bytes_alloc"], "Total alloc", where, problems)
            check_eq(size, w["bytes_alloc"] // hits if hits else 0,
                     "alloc Size", where, problems)
            tot, size = pair(cells[1], where, problems)
            check_eq(tot, w["bytes_req"], "Total req", where, problems)
            check_eq(size, w["bytes_req"] // hits if hits else 0,
                     "req Size", where, problems)
            check_eq(num(cells[2], where, problems), hits, "Hits/Allocs",
                     where, problems)
            if kind == "caches":
                check_eq(num(cells[3], where, problems),
                         w["frees"] + w["free_only"], "Frees",
                         where, problems)
                check_pct(cells[4], w["frag_pct"], where, problems)
                lc, lb = pair(cells[5], where, problems)
                check_eq(lc, w["live_count"], "Live count", where, problems)
                check_eq(lb, w["live_bytes"], "Live bytes", where, problems)
                check_memcg(cells[6], w["memcg_bytes"], where, problems)
                check_eq(cells[7], w["name"], "Cache", where, problems)
                continue
            check_eq(num(cells[3], where, problems), w["pingpong"],
                     "Ping-pong", where, problems)
            check_pct(cells[4], w["frag_pct"], where, problems)
            if kind == "callsites":
                lc, lb = pair(cells[5], where, problems)
                check_eq(lc, w["live_count"], "Live count", where, problems)
                check_eq(lb, w["live_bytes"], "Live bytes", where, problems)
                check_eq(num(cells[6], where, problems), w["peak_bytes"],
                         "Peak", where, problems)
                check_memcg(cells[7], w["memcg_bytes"], where, problems)
                check_lifetime(cells[8], w["mean_lifetime_ns"], where,
                               problems)
                if not callsite_ok(cells[9], w):
                    problems.append("%s: Callsite %r, reference %r"
                                    % (where, cells[9], w["callsite"]))
            else:
                check_eq(num(cells[5], where, problems), w["live_bytes"],
                         "Live", where, problems)
                check_lifetime(cells[6], w["mean_lifetime_ns"], where,
                               problems)
                check_eq(cells[7], w["ptr"], "Alloc ptr", where, problems)
                if not callsite_ok(cells[8], w):
                    problems.append("%s: Callsite %r, reference %r"
                                    % (where, cells[8], w["callsite"]))
        report("%s:text-%s" % (name, kind), problems,
               "%d rows" % len(rows))


SUMMARY_LINES = [
    # label, regex after the label, [(group, reference value getter)]
    ("Allocated+freed:", r"([\d,.]+)\s+\[\s*([\d,.]+) bytes \]",
     [lambda s: s["alloc_freed"]["count"], lambda s: s["alloc_freed"]["bytes"]]),
    ("Allocated-only:", r"([\d,.]+)\s+\[\s*([\d,.]+) bytes \]",
     [lambda s: s["alloc_only"]["count"], lambda s: s["alloc_only"]["bytes"]]),
    ("Freed-only:", r"([\d,.]+)", [lambda s: s["free_only"]["count"]]),
    ("Allocation failures:", r"([\d,.]+)", [lambda s: s["alloc_failures"]]),
    ("Total bytes requested:", r"([\d,.]+)",
     [lambda s: s["bytes_requested"]]),
    ("Total bytes allocated:", r"([\d,.]+)",
     [lambda s: s["bytes_allocated"]]),
    ("Total bytes freed:", r"([\d,.]+)", [lambda s: s["bytes_freed"]]),
    ("Net total bytes allocated:", r"([\d,.]+)", [lambda s: s["net_bytes"]]),
    ("Total bytes wasted:", r"([\d,.]+)", [lambda s: s["wasted_bytes"]]),
    ("Cross-CPU frees:", r"([\d,.]+)", [lambda s: s["cross_cpu_frees"]]),
    ("Live at end of trace:", r"([\d,.]+)\s+\[\s*([\d,.]+) bytes \]",
     [lambda s: s["live"]["count"], lambda s: s["live"]["bytes"]]),
]
OPTIONAL_LINES = [
    ("Missed frees:", r"([\d,.]+)\s+\[\s*([\d,.]+) bytes \]",
     [lambda s: s["missed_frees"]["count"],
      lambda s: s["missed_frees"]["bytes"]]),
    ("Frees of NULL:", r"([\d,.]+)", [lambda s: s["null_frees"]]),
    ("Double frees:", r"([\d,.]+)", [lambda s: s["double_frees"]]),
    ("Repeated frees:", r"([\d,.]+)", [lambda s: s["double_frees"]]),
]


def check_text_summary(name, text, ref):
    problems = []
    s = ref["slab"]["summary"]
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines)
                     if l.strip() == "SUMMARY (slab allocator)")
    except StopIteration:
        report(name + ":text-summary", ["no 'SUMMARY (slab allocator)' "
                                        "section on stdout"])
        return
    body = lines[start + 1:start + 40]

    def find(label):
        for l in body:
            if l.strip().startswith(label):
                return l.strip()[len(label):].strip()
        return None

    checked = 0
    for required, table in ((True, SUMMARY_LINES), (False, OPTIONAL_LINES)):
        for label, rx, getters in table:
            rest = find(label)
            if rest is None:
                if required:
                    problems.append("summary line %r missing" % label)
                continue
            m = re.match(rx, rest)
            if not m:
                problems.append("summary line %r: cannot read %r"
                                % (label, rest))
                continue
            for gi, get in enumerate(getters):
                v = num(m.group(gi + 1), "summary " + label, problems)
                if v is not None and v != get(s):
                    problems.append("summary %s %s (=%d), reference %d"
                                    % (label, m.group(gi + 1), v, get(s)))
            checked += 1
    rest = find("Total bytes wasted:")
    if rest:
        m = re.search(r"\((\d+\.\d\d)% internal fragmentation\)", rest)
        if not m:
            problems.append("summary: no fragmentation percentage in %r"
                            % rest)
        elif abs(float(m.group(1)) - s["fragmentation_pct"]) > 0.005 + 1e-9:
            problems.append("summary: fragmentation %s%%, reference %.4f%%"
                            % (m.group(1), s["fragmentation_pct"]))
    lost = ref["events_lost"]
    if lost:
        want = "the ring buffer lost {:,} events".format(lost)
        if want not in text:
            problems.append("no warning %r on stdout" % want)
    report(name + ":text-summary", problems, "%d lines" % checked)


# ---------------------------------------------------------------- main

def text_tail(text):
    """The part of the plugin's stdout after the event listing."""
    i = text.rfind("\n kmem statistics")
    return text[i:] if i >= 0 else text


def run_case(ref, name, json_path, text_path, keys, raw_ip, lines,
             check_file=True, shown=("callsites", "allocs", "caches")):
    try:
        with open(json_path) as f:
            got = json.load(f)
    except (OSError, ValueError) as e:
        report(name + ":json", ["cannot read the plugin's JSON %s: %s"
                                % (json_path, e)])
        return
    ref = dict(ref)
    ws = ref["slab"] = dict(ref["slab"])
    for table in ("callsites", "allocs", "caches"):
        rows = [dict(r) for r in ws[table]]
        if raw_ip and table != "caches":
            for r in rows:
                r["callsite"] = r["address"]
                r.pop("_callsite_aliases", None)
        ws[table] = kmem_ref.sort_rows(table, rows, keys)

    check_top(name, got, ref, check_file)
    gs = got.get("slab") if isinstance(got.get("slab"), dict) else {}
    check_summary(name, gs, ws)
    check_rows(name, "callsites", "address", CALLSITE_FIELDS,
               gs.get("callsites"), ws["callsites"], raw_ip)
    check_rows(name, "allocs", "ptr", ALLOC_FIELDS, gs.get("allocs"),
               ws["allocs"], raw_ip)
    check_rows(name, "caches", "name", CACHE_FIELDS, gs.get("caches"),
               ws["caches"], raw_ip)
    if "anomalies" in ref["slab"]:
        rows = [dict(r) for r in ref["slab"]["anomalies"]]
        if raw_ip:
            for r in rows:
                r["callsite"] = r["address"]
                r.pop("_callsite_aliases", None)
        check_rows(name, "anomalies", "address", ANOMALY_FIELDS,
                   gs.get("anomalies"), rows, raw_ip)
    check_order(name, "callsites", "address", gs.get("callsites"),
                ws["callsites"], keys)
    check_order(name, "allocs", "ptr", gs.get("allocs"), ws["allocs"], keys)
    check_order(name, "caches", "name", gs.get("caches"), ws["caches"], keys)
    if text_path:
        with open(text_path, errors="replace") as f:
            text = text_tail(f.read())
        check_text_summary(name, text, ref)
        check_text_tables(name, text, ref, lines, shown)


def main():
    import argparse
    ap = argparse.ArgumentParser(
        description="Compare plugin output with the reference.  Either "
        "one case (--name, --json, [--text, --sort, --raw-ip, --lines]) or "
        "any number of --case NAME JSON TEXT SORT RAW_IP(0|1) LINES.")
    ap.add_argument("--ref", required=True)
    ap.add_argument("--name")
    ap.add_argument("--json")
    ap.add_argument("--text")
    ap.add_argument("--sort", default="bytes,hit")
    ap.add_argument("--raw-ip", action="store_true")
    ap.add_argument("--lines", type=int, default=20)
    ap.add_argument("--tables", default="callsites,allocs,caches",
                    help="the text tables asked for (with --name)")
    ap.add_argument("--case", nargs="+", action="append", default=[],
                    metavar="NAME JSON TEXT SORT RAW_IP LINES [TABLES]",
                    help="TABLES: the text tables asked for, comma "
                    "separated (default: all three)")
    a = ap.parse_args()
    cases = []
    if a.name:
        if not a.json:
            ap.error("--name needs --json")
        cases.append((a.name, a.json, a.text, a.sort, a.raw_ip, a.lines,
                      a.tables))
    for c in a.case:
        if len(c) not in (6, 7):
            ap.error("--case takes 6 or 7 values")
        name, js, text, sort, raw, lines = c[:6]
        cases.append((name, js, text or None, sort or "bytes,hit",
                      raw == "1", int(lines),
                      c[6] if len(c) == 7 else "callsites,allocs,caches"))
    if not cases:
        ap.error("nothing to compare")

    with open(a.ref) as f:
        ref = json.load(f)
    # "file" does not depend on the options: checked in the first case only
    for i, (name, js, text, sort, raw, lines, shown) in enumerate(cases):
        run_case(ref, name, js, text, sort.split(","), raw, lines, i == 0,
                 shown.split(","))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
