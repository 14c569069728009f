#!/usr/bin/env python3
"""What reading a journal costs, by its declared size, for the same events.

Usage: utils/benchmarks/journal_read_bench.py [BUILD_DIR] [--runs N] [--sizes MIB,...]

Builds a small program against BUILD_DIR's simulated toolkit (two device
buffers, one freed: a handful of events, one leak), runs it under
BUILD_DIR/bin/msledger with --journal once for each declared journal size
(journal_size_mb; 1 MiB is the baseline, then 256 MiB -- the default --,
4 GiB and 8 GiB), and times `msledger report JOURNAL` on each, N times (5),
alternating so that drift hits all alike. Prints the median seconds and the
peak memory (the reader's maximum resident set) of each, and both as ratios
to the baseline: reading costs what a journal holds, not what it could hold,
when the ratios stay near 1. Each run checks what it timed (exit status 23,
one leak of 4096 bytes): a run that fails stops this script, naming it.
Timings, never assertions: the test suite only checks that this runs.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = r"""
#include "acl/acl.h"
int main(void) {
  void *kept = 0, *freed = 0;
  aclInit(0);
  aclrtSetDevice(0);
  aclrtMalloc(&kept, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&freed, 8192, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtFree(freed);
  return 0;
}
"""


def fail(message):
    sys.exit("journal_read_bench.py: " + message)


def run_measured(command):
    """Runs `command`; (seconds, peak resident KiB, exit status, stdout)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss, child.returncode, output.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1,256,4096,8192",
                        help="declared sizes in MiB, the first the baseline")
    args = parser.parse_args()
    msledger = os.path.join(args.build, "bin", "msledger")
    toolkit = os.path.join(args.build, "simcann")
    if not os.path.exists(msledger) or not os.path.isdir(toolkit):
        fail("%s or %s not found: build first (utils/setup.sh)" % (msledger, toolkit))
    sizes = [int(size) for size in args.sizes.split(",")]

    work = tempfile.mkdtemp(prefix="msledger-journal-read-")
    try:
        source = os.path.join(work, "app.c")
        with open(source, "w") as out:
            out.write(PROGRAM)
        app = os.path.join(work, "app")
        lib = os.path.join(toolkit, "lib64")
        subprocess.run(["cc", "-std=c11", "-I", os.path.join(toolkit, "include"), source,
                        "-L", lib, "-Wl,-rpath," + lib, "-lascendcl", "-o", app], check=True)
        journals = {}
        for size in sizes:
            journal = os.path.join(work, "%d.journal" % size)
            environment = dict(os.environ, MSLEDGER_OPTIONS="journal_size_mb=%d" % size)
            done = subprocess.run([msledger, "--check-cann-heap=yes", "--check-device-heap=no",
                                   "--journal=" + journal, app],
                                  env=environment, capture_output=True, text=True)
            if done.returncode != 23 or not os.path.exists(journal):
                fail("the %d MiB run failed (exit status %d): %s"
                     % (size, done.returncode, done.stderr.strip()))
            journals[size] = journal

        seconds = {size: [] for size in sizes}
        peak = {size: [] for size in sizes}
        for _ in range(args.runs):
            for size in sizes:
                command = [msledger, "report", journals[size]]
                taken, resident, status, output = run_measured(command)
                if status != 23 or "Direct leak of 4096 byte(s)" not in output \
                        or "Direct leak of 8192" in output:
                    fail("%s gave exit status %d and not the one leak:\n%s"
                         % (" ".join(command), status, output))
                seconds[size].append(taken)
                peak[size].append(resident)

        base_seconds = statistics.median(seconds[sizes[0]])
        base_peak = statistics.median(peak[sizes[0]])
        print("msledger report of the same journal (%d runs each, medians):" % args.runs)
        print("%10s %12s %8s %14s %8s %14s" % ("declared", "seconds", "ratio", "peak memory",
                                              "ratio", "file on disk"))
        for size in sizes:
            taken = statistics.median(seconds[size])
            resident = statistics.median(peak[size])
            on_disk = os.stat(journals[size]).st_blocks * 512
            print("%7d MiB %12.4f %7.2fx %11.1f MiB %7.2fx %10.1f MiB"
                  % (size, taken, taken / base_seconds, resident / 1024.0,
                     resident / base_peak, on_disk / 1048576.0))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
