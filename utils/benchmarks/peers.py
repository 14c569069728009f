#!/usr/bin/env python3
"""msledger beside the leak checkers a user would otherwise pick.

Usage: utils/benchmarks/peers.py [BUILD_DIR] [--rounds N] [--pairs N]

Builds peer_loop.c (alloc+free pairs, timed inside the process) twice: on
host memory (malloc/free of 64 bytes) and on the simulated device
(aclrtMalloc/aclrtFree of 64 bytes, against BUILD_DIR/simcann). Then runs,
in N alternating rounds so that drift hits all alike:

  host:   glibc alone (the baseline), LeakSanitizer (clang 19,
          -fsanitize=leak), heaptrack, valgrind memcheck
  device: the simulated toolkit alone (the baseline), msledger at the CANN
          level, msledger at both levels

and prints the median ns per pair, the ns each checker adds to its baseline
and the ratio, measured in this one run. A checker that is not installed is
skipped with a line saying so (utils/setup.sh installs them all). Timings,
never assertions: the test suite only checks that this runs.
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


def ns_per_pair(command, env=None):
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})))
    for line in result.stdout.splitlines():
        if line.startswith("ns_per_pair "):
            return float(line.split()[1])
    raise RuntimeError("%s printed no timing (exit %d): %s"
                       % (" ".join(command), result.returncode, result.stderr[-300:]))


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
        compile_loop("cc", host, [])
        ok, why = compile_device_loop(simcann, device)
        if not ok:
            sys.exit("peers.py: cannot build the device loop: %s" % why[0])

        slow = max(1, args.pairs // 5)
        configs = [("host", "glibc malloc+free", [host, str(args.pairs)], None)]
        skipped = []
        clang = shutil.which("clang-19")
        ok, why = compile_loop(clang, lsan, ["-fsanitize=leak"]) if clang else (False, ["no clang-19"])
        if ok:
            configs.append(("host", "LeakSanitizer (clang 19)", [lsan, str(args.pairs)], None))
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
                                                          "--leak-check=full", host, str(slow)], None))
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
                times[name].append(ns_per_pair(command, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    baselines = {"host": "glibc malloc+free", "device": "simulated aclrtMalloc+aclrtFree"}
    print("Alloc+free pairs of 64 bytes, median of %d alternating rounds (ns per pair):"
          % args.rounds)
    print("| per alloc+free pair | ns | ns added | ratio |")
    print("|---|---|---|---|")
    for kind, name, _, _ in configs:
        value = statistics.median(times[name])
        base = statistics.median(times[baselines[kind]])
        if name == baselines[kind]:
            print("| %s (baseline) | %.1f | | |" % (name, value))
        else:
            print("| %s | %.1f | %+.1f | %.2fx |" % (name, value, value - base, value / base))
    for line in skipped:
        print("skipped: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
