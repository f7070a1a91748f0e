# SPDX-License-Identifier: LGPL-2.1
"""The reports in a trace-kmem or plugin JSON file.

A file is one JSON document (json.loads() must take it whole), whose
first member is "schema_version".  One report is the document itself;
several (several inputs, an input's buffer instances, kmem:json with
several -i) are {"schema_version", "inputs": [a report each], "merged":
the merged summary, when trace-kmem made one}.  docs() returns the
reports in order, the merged summary last.  tests/lib/common.sh puts
this directory on PYTHONPATH, so a test's python reads:
from jsondocs import docs
"""
import json

SCHEMA_VERSION = 1


def parse(text):
    """The reports in TEXT, one JSON document, in order."""
    doc = json.loads(text)
    assert isinstance(doc, dict), "the top level is an object"
    assert next(iter(doc), None) == "schema_version", list(doc)[:3]
    assert doc["schema_version"] == SCHEMA_VERSION, doc["schema_version"]
    inputs = doc.get("inputs")
    if "file" in doc or not isinstance(inputs, list):
        return [doc]		# one report (or a diff document)
    assert set(doc) <= {"schema_version", "inputs", "merged"}, list(doc)
    assert all(isinstance(d, dict) and "schema_version" not in d
               for d in inputs), "reports are objects without a version"
    return inputs + ([doc["merged"]] if "merged" in doc else [])


def docs(path):
    """The reports in the file PATH, in order."""
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
