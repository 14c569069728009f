#!/usr/bin/env python3
"""Prints the fingerprints of a JSON report's findings (leaks, resources,
errors), one a line, sorted and without repeats: what a SARIF log of the same
findings lists once per result."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    report = json.load(handle)
prints = set()
for section in ("leaks", "resources", "errors"):
    for finding in report.get(section, []):
        prints.add(finding["fingerprint"])
for fingerprint in sorted(prints):
    print(fingerprint)
