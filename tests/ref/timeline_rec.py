# SPDX-License-Identifier: LGPL-2.1
"""The timeline of a reference, written from kmem-stat-definitions.txt
("Timeline") and kmem-json.txt ("timeline"), not from lib/timeline.c.

A line's value is followed as it changes, after each event.  The trace's
time from start_ns is cut into `spans` spans of span_ns; in each span a
line has a point at the first time it reached its lowest value there, at
the first time it reached its highest, and at its last value.  Used by
kmem_ref.py and kmem_page_ref.py with --timeline=PLOT.json.
"""

import json


class Recorder:
    def __init__(self, plot_json):
        with open(plot_json) as f:
            tl = json.load(f)["timeline"]
        self.start = tl["start_ns"]
        self.end = tl["end_ns"]
        self.span = tl["span_ns"]
        self.nspans = tl["spans"]
        self.values = {}    # key -> value now
        self.peaks = {}     # key -> highest value
        self.spans = {}     # key -> {span index: [min, tmin, max, tmax, last, tlast]}
        self.outside = 0    # changes outside [start, end]

    def set(self, key, ts, v):
        if self.values.get(key, 0) == v:
            return
        self.values[key] = v
        self.peaks[key] = max(self.peaks.get(key, 0), v)
        if ts < self.start or ts > self.end:
            self.outside += 1
        b = min((ts - self.start) // self.span, self.nspans - 1)
        sp = self.spans.setdefault(key, {})
        s = sp.get(b)
        if s is None:
            sp[b] = [v, ts, v, ts, v, ts]
            return
        if v < s[0]:
            s[0], s[1] = v, ts
        if v > s[2]:
            s[2], s[3] = v, ts
        s[4], s[5] = v, ts

    def points(self, key):
        """The set of (time, value) points of a line."""
        out = set()
        for s in self.spans.get(key, {}).values():
            out.update({(s[1], s[0]), (s[3], s[2]), (s[5], s[4])})
        return out

    def result(self, names):
        """names: key -> (kind, address, name); JSON-able result."""
        series = {}
        for key, (kind, addr, name) in names.items():
            series[kind + ":" + name] = dict(
                kind=kind, address=addr, name=name,
                peak=self.peaks.get(key, 0),
                points=sorted(self.points(key)))
        return dict(series=series, outside=self.outside)


class Lines:
    """One allocator's lines: its total (named KIND) and its call sites
    (("site", address) keys in sites), written to a Recorder once a
    record has been read.  Subclasses say when they change."""

    def __init__(self, rec, kind, title):
        self.rec = rec
        self.kind = kind
        self.total = 0
        self.sites = {}     # call-site address -> live bytes
        self.names = {kind: (kind, 0, title)}
        self.pending = {}   # cpu -> object waiting for its call site
        self.changed = set()    # lines the record being read changed
        self.ts = None          # ... and its time

    def record(self, ts):
        """A record starts: the values after the one before count."""
        self.flush()
        self.ts = ts

    def flush(self):
        for k in sorted(self.changed, key=str):
            self.rec.set(k, self.ts,
                         self.total if k == self.kind else self.sites[k[1]])
        self.changed = set()
