#!/usr/bin/env python3
"""What building through msrewrite --launch costs, against the plain build.

Usage: utils/benchmarks/launch_bench.py [BUILD_DIR] [--runs N] [--jobs J]

Configures lit-tests/integration's multi-directory CMake project twice with
Ninja -- as it is, and with msrewrite --launch as its compiler and linker
launcher -- then, alternating in one session, times full rebuilds (clean,
then build with J jobs) of each and prints the medians and their ratio, and
the same for a one-file rebuild after touching one source.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def run(command, **kwargs):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def timed(command):
    start = time.perf_counter()
    run(command)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    project = os.path.join(root, "lit-tests", "integration", "Inputs", "cann-project")
    msrewrite = os.path.join(build, "bin", "msrewrite")
    simcann = os.path.join(build, "simcann")
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "src")
        run(["cp", "-r", project, source])
        launch = "%s;--launch;--root=%s;--" % (msrewrite, source)
        configs = {
            "plain": [],
            "launch": ["-DCMAKE_C_COMPILER_LAUNCHER=" + launch, "-DCMAKE_CXX_COMPILER_LAUNCHER=" + launch,
                       "-DCMAKE_C_LINKER_LAUNCHER=%s;--launch;--" % msrewrite,
                       "-DCMAKE_CXX_LINKER_LAUNCHER=%s;--launch;--" % msrewrite],
        }
        full = {name: [] for name in configs}
        touch = {name: [] for name in configs}
        for name, flags in configs.items():
            run(["cmake", "-S", source, "-B", os.path.join(work, name), "-G", "Ninja",
                 "-DASCEND_HOME_PATH=" + simcann] + flags)
        one = os.path.join(source, "lib", "staging.cpp")
        for _ in range(args.runs):
            for name in configs:
                directory = os.path.join(work, name)
                run(["cmake", "--build", directory, "--target", "clean"])
                full[name].append(timed(["cmake", "--build", directory, "-j", str(args.jobs)]))
                os.utime(one)
                touch[name].append(timed(["cmake", "--build", directory, "-j", str(args.jobs)]))
        for label, results in (("full build", full), ("one file touched", touch)):
            plain, launched = statistics.median(results["plain"]), statistics.median(results["launch"])
            print("%-17s plain %.3f s, --launch %.3f s: %.2fx (median of %d, -j %d)"
                  % (label, plain, launched, launched / plain, args.runs, args.jobs))


if __name__ == "__main__":
    main()
