#!/usr/bin/env python3
"""msledger beside the leak checkers a user would otherwise pick.

Usage: utils/benchmarks/peers.py [BUILD_DIR] [--rounds N] [--pairs N]

Builds peer_loop.c (alloc+free pairs, timed inside the process) on host
memory (malloc/free of 64 bytes) and on the simulated device
(aclrtMalloc/aclrtFree of 64 bytes, against BUILD_DIR/simcann). Then runs,
in N alternating rounds so that drift hits all alike:

  host:   glibc alone (the baseline), LeakSanitizer (-fsanitize=leak),
          heaptrack, valgrind memcheck -- all on the loop clang 19 builds
          (LeakSanitizer's compiler), so that each differs from its baseline
          in the checker alone
  device: the simulated toolkit alone (the baseline), msledger at the CANN
          level, msledger at both levels -- one binary, built with cc

and prints, per baseline, the median ns per pair, the ns each checker adds
and the ratio to that baseline, measured in this one run. Compare checkers
of different baselines by the ns they add, never by their ratios. Every run
must exit with status 0 having checked every call it timed (peer_loop.c),
valgrind having found no error: anything else stops this script, naming the
run. A checker that is not installed is skipped with a line saying so
(utils/setup.sh installs them all). Timings, never assertions: the test
suite only checks that this runs.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_loop(compiler, out, extra):
    command = [compiler, "-O2", "-std=c11", "-o", out,
               os.path.join(HERE, "peer_loop.c")] + extra
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode == 0, result.stderr.strip().splitlines()[-1:] or [""]


def built(tool, build, *paths):
    """PATHS under the build tree BUILD, absolute; exits saying to build first if one is missing."""
    found = [os.path.join(os.path.abspath(build), path) for path in paths]
    for needed in found:
        if not os.path.exists(needed):
            sys.exit("%s: %s not found: build first (utils/setup.sh)" % (tool, needed))
    return found


def compile_device_loop(simcann, out):
    """The loop on the simulated toolkit laid out at `simcann`: aclrtMalloc+aclrtFree."""
    lib64 = os.path.join(simcann, "lib64")
    return compile_loop("cc", out, ["-DPEER_ACL", "-I" + os.path.join(simcann, "include"),
                                    "-L" + lib64, "-Wl,-rpath," + lib64, "-lascendcl"])


def ns_per_pair(name, command, env=None):
    """The loop's figure; exits naming the run if it failed in any way."""
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})))
    figures = [float(line.split()[1]) for line in result.stdout.splitlines()
               if line.startswith("ns_per_pair ")]
    if result.returncode != 0 or len(figures) != 1:
        sys.exit("peers.py: %s failed (exit status %d, %s): %s\n%s"
                 % (name, result.returncode,
                    "a figure" if figures else "no figure", " ".join(command),
                    result.stderr[-600:].rstrip()))
    return figures[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=1000000,
                        help="pairs per run for the fast configurations (the slow "
                             "checkers run a fifth of them)")
    args = parser.parse_args()
    simcann, msledger = built("peers.py", args.build, "simcann", os.path.join("bin", "msledger"))

    work = tempfile.mkdtemp(prefix="msledger-peers.")
    try:
        host = os.path.join(work, "loop-host")
        device = os.path.join(work, "loop-acl")
        lsan = os.path.join(work, "loop-lsan")
        skipped = []
        # The host loop and LeakSanitizer's from one compiler: the baseline
        # differs from each checker's run in the checker alone.
        clang = shutil.which("clang-19")
        compiler = clang or "cc"
        ok, why = compile_loop(compiler, host, [])
        if not ok:
            sys.exit("peers.py: cannot build the host loop: %s" % why[0])
        ok, why = compile_device_loop(simcann, device)
        if not ok:
            sys.exit("peers.py: cannot build the device loop: %s" % why[0])

        slow = max(1, args.pairs // 5)
        configs = [("host", "glibc malloc+free", [host, str(args.pairs)], None)]
        ok, why = compile_loop(clang, lsan, ["-fsanitize=leak"]) if clang else (False, ["no clang-19"])
        if ok:
            configs.append(("host", "LeakSanitizer", [lsan, str(args.pairs)], None))
        else:
            skipped.append("LeakSanitizer (clang 19): %s" % why[0])
        heaptrack = shutil.which("heaptrack")
        if heaptrack:
            configs.append(("host", "heaptrack", [heaptrack, "-o", os.path.join(work, "heaptrack"),
                                                  host, str(slow)], None))
        else:
            skipped.append("heaptrack: not installed")
        valgrind = shutil.which("valgrind")
        if valgrind:
            configs.append(("host", "valgrind memcheck", [valgrind, "-q", "--tool=memcheck",
                                                          "--leak-check=full", "--error-exitcode=99",
                                                          host, str(slow)], None))
        else:
            skipped.append("valgrind: not installed")
        quiet = {"MSSIM_RUN_DIR": os.path.join(work, "mssim")}
        configs += [
            ("device", "simulated aclrtMalloc+aclrtFree", [device, str(args.pairs)], quiet),
            ("device", "msledger, CANN level", [msledger, "--check-cann-heap=yes", "--leak-check=no",
                                                device, str(args.pairs)], quiet),
            ("device", "msledger, both levels", [msledger, "--check-cann-heap=yes",
                                                 "--check-device-heap=yes", "--leak-check=no",
                                                 device, str(args.pairs)], quiet),
        ]
        times = {name: [] for _, name, _, _ in configs}
        for _ in range(args.rounds):
            for _, name, command, env in configs:
                times[name].append(ns_per_pair(name, command, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    baselines = {"host": "glibc malloc+free", "device": "simulated aclrtMalloc+aclrtFree"}
    built_with = {"host": "clang 19" if clang else "cc", "device": "cc"}
    print("Alloc+free pairs of 64 bytes, median of %d alternating rounds (ns per pair); "
          "ratios are to each table's own baseline, so compare checkers across tables "
          "by the ns they add:" % args.rounds)
    for kind in ("host", "device"):
        base = statistics.median(times[baselines[kind]])
        print()
        print("| over %s (built with %s) | ns | ns added | ratio |" % (baselines[kind], built_with[kind]))
        print("|---|---|---|---|")
        for config_kind, name, _, _ in configs:
            if config_kind != kind:
                continue
            value = statistics.median(times[name])
            if name == baselines[kind]:
                print("| %s (baseline) | %.1f | | |" % (name, value))
            else:
                print("| %s | %.1f | %+.1f | %.2fx |" % (name, value, value - base, value / base))
    for line in skipped:
        print("skipped: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
