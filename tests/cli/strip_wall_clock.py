#!/usr/bin/env python3
"""Prints a report.json without its wall-clock (machine) fields, keys sorted, so two reports of
runs with the same inputs compare equal byte for byte. Usage: strip_wall_clock.py REPORT"""
import json
import sys

WALL_CLOCK = {"sim": ("wall_s", "requests_per_wall_s", "peak_rss_mb"), "precondition": ("wall_s",)}

report = json.load(open(sys.argv[1]))
for section, fields in WALL_CLOCK.items():
    for field in fields:
        report.get(section, {}).pop(field, None)
# The files named in the report depend on where the tree is checked out: keep folder/file.
for field in ("platform_file", "scenario_file"):
    report["run"][field] = "/".join(report["run"][field].split("/")[-2:])
print(json.dumps(report, sort_keys=True, indent=1))
