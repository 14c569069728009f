#!/usr/bin/env python3
"""The closing lines of a CI run made of several test runs (.ci/run).

Usage: ci_summary.py NAME STATUS LOG [NAME STATUS LOG ...]

For each run: its name, its exit status and the file holding its output,
whose last "N passed, M failed[, K skipped]" line (utils/run_tests.py's) is
its count. Prints each run's own count, then one line adding them all up:

  CI: N passed, M failed[, K skipped] (R runs)

A run that ended without a count (a build that failed) counts as one
failure, and so does a run that exited non-zero although its count has no
failure. Exit status 0 if every run exited 0 and nothing failed, else 1; 2
on bad usage.
"""
import re
import sys

COUNT = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$")


def last_count(path):
    found = None
    with open(path, errors="replace") as log:
        for line in log:
            match = COUNT.match(line)
            if match:
                found = [int(group or 0) for group in match.groups()]
    return found


def main(arguments):
    if not arguments or len(arguments) % 3:
        sys.stderr.write(__doc__)
        return 2
    total = [0, 0, 0]
    every_run_passed = True
    print("== CI: every run")
    for index in range(0, len(arguments), 3):
        name, status, log = arguments[index:index + 3]
        try:
            status = int(status)
            count = last_count(log)
        except (ValueError, OSError) as error:
            sys.stderr.write("ci_summary.py: %s: %s\n" % (name, error))
            return 2
        if count is None:
            line = "0 passed, 1 failed (ended with status %d before its tests finished)" % status
            count = [0, 1, 0]
        else:
            line = "%d passed, %d failed" % (count[0], count[1])
            if count[2]:
                line += ", %d skipped" % count[2]
            if status != 0 and count[1] == 0:
                line += "; 1 failed (exit status %d)" % status
                count[1] = 1
        every_run_passed = every_run_passed and status == 0
        total = [t + c for t, c in zip(total, count)]
        print("%s: %s" % (name, line))
    summary = "CI: %d passed, %d failed" % (total[0], total[1])
    if total[2]:
        summary += ", %d skipped" % total[2]
    print("%s (%d runs)" % (summary, len(arguments) // 3))
    return 0 if every_run_passed and total[1] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
