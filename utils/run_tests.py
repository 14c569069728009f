#!/usr/bin/env python3
"""Runs the lit suites and the GoogleTest suites of a build in one lit run.

Usage: run_tests.py BUILD_DIR [lit options...]

Prints lit's own output, then one closing line "N passed, M failed" (with
", K skipped" when tests were unsupported or skipped). Exits 1 if any test
failed or lit itself failed.
"""
import os
import re
import subprocess
import sys

PASSED = ("Passed", "Expectedly Failed")
FAILED = ("Failed", "Unresolved", "Timed Out", "Unexpectedly Passed")
SKIPPED = ("Unsupported", "Skipped")


def cache_value(build, name):
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    sys.exit("run_tests: %s is not set in %s/CMakeCache.txt" % (name, build))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        sys.exit("run_tests: %s is not a configured build (run utils/setup.sh)" % build)
    lit = cache_value(build, "MSLEDGER_LIT")
    # The lit suites, the rewriter suite again against each older simulated
    # release (lit-tests/CMakeLists.txt), and the unit tests.
    lit_tests = os.path.join(build, "lit-tests")
    releases = sorted(os.path.join(lit_tests, d) for d in os.listdir(lit_tests) if d.startswith("release-")
                      and os.path.isfile(os.path.join(lit_tests, d, "lit.site.cfg.py")))
    suites = [lit_tests] + releases + [os.path.join(build, "unittests")]
    command = [sys.executable, lit, "-sv"] + sys.argv[2:] + suites
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    counts = {}
    summary = re.compile(r"^\s*(%s)\s*:\s*(\d+)" % "|".join(PASSED + FAILED + SKIPPED))
    for line in process.stdout:
        sys.stdout.write(line)
        match = summary.match(line)
        if match:
            counts[match.group(1)] = int(match.group(2))
    status = process.wait()
    passed = sum(counts.get(key, 0) for key in PASSED)
    failed = sum(counts.get(key, 0) for key in FAILED)
    skipped = sum(counts.get(key, 0) for key in SKIPPED)
    if status != 0 and failed == 0:
        failed = 1  # lit failed without running the tests (bad config, crash)
        print("run_tests: lit exited with status %d" % status)
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print(line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
