#!/usr/bin/env python3
"""What suppression files cost the leak report, against none.

Usage: utils/benchmarks/suppressions_bench.py [BUILD_DIR] [--runs N] [--leaks L] [--sites S]

Runs BUILD_DIR/bin/suppressions_benchmark, which times one
Suppressions::filterLeaks over L leaks (20,000) at S sites (50), N times
(5) for each suppression file, alternating so that drift hits all alike:

  none      no suppressions (the baseline)
  patterns  1,000 patterns, the last one taking the leaks of half the sites
  big       one 1 MiB pattern that matches nothing
  stars     one 1 MiB pattern of '*' runs that takes half the sites

and prints the median seconds of each and its ratio to the baseline (and,
beside them, the median seconds parse took, not in the ratio). Each run
checks what it timed (the leaks left out, each suppression's count and
bytes): a run that fails stops this script, naming it. Timings, never
assertions: the test suite only checks that this runs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

CONFIGS = [("none", "no suppressions (baseline)"),
           ("patterns", "1,000 patterns"),
           ("big", "one 1 MiB pattern, no match"),
           ("stars", "one 1 MiB pattern of '*', matching")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--leaks", type=int, default=20000)
    parser.add_argument("--sites", type=int, default=50)
    args = parser.parse_args()
    binary = os.path.join(args.build, "bin", "suppressions_benchmark")
    if not os.path.exists(binary):
        sys.exit("suppressions_bench.py: %s not found: build first (utils/setup.sh)" % binary)

    seconds = {name: [] for name, _ in CONFIGS}
    parse = {name: [] for name, _ in CONFIGS}
    suppressed = {}
    for _ in range(args.runs):
        for name, _ in CONFIGS:
            command = [binary, name, str(args.leaks), str(args.sites)]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit("suppressions_bench.py: %s failed (exit status %d, no figure): %s\n%s"
                         % (name, done.returncode, " ".join(command), done.stderr.strip()))
            result = json.loads(done.stdout)
            seconds[name].append(result["seconds"])
            parse[name].append(result["parse_seconds"])
            suppressed[name] = result["suppressed"]

    base = statistics.median(seconds["none"])
    print("filterLeaks over %d leaks at %d sites, median of %d alternating runs; ratios are to the baseline"
          % (args.leaks, args.sites, args.runs))
    print("| suppressions | leaks left out | filterLeaks seconds | ratio | parse seconds |")
    print("|---|---|---|---|---|")
    for name, label in CONFIGS:
        value = statistics.median(seconds[name])
        ratio = "" if name == "none" else "%.1fx" % (value / base if base > 0 else float("inf"))
        print("| %s | %d | %.6f | %s | %.6f |" % (label, suppressed[name], value, ratio,
                                                statistics.median(parse[name])))


if __name__ == "__main__":
    main()
