# SPDX-License-Identifier: LGPL-2.1
"""The JSON documents of a trace-kmem or plugin JSON file.

One input gives one document; several inputs (and kmem:json with several
-i) give one document per input and then the merged one, written one
after the other.  docs() returns them all, in order; json.load() would
refuse the second.  tests/lib/common.sh puts this directory on
PYTHONPATH, so a test's python reads: from jsondocs import docs
"""
import json


def parse(text):
    """Every JSON document in TEXT, in order (whitespace between)."""
    dec, out, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        doc, i = dec.raw_decode(text, i)
        out.append(doc)


def docs(path):
    """Every JSON document in the file PATH, in order."""
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
