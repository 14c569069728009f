#!/usr/bin/env python3
"""Counts the instructions msledger adds to an aclrtMalloc+aclrtFree pair.

Usage: utils/benchmarks/instructions.py [BUILD_DIR] [--pairs N]

Wall time on a shared VM moves by tens of percent from run to run; the
number of instructions a pair executes does not. This runs peer_loop.c's
device loop under valgrind's callgrind, counting only inside its pair()
function, untracked, with the interposers preloaded and both levels off,
tracked at the CANN level and at both levels. Each configuration runs twice,
with N and 2N pairs, and the difference is divided by the difference in
pairs, so that start-up and the first calls (which resolve symbols and grow
tables) are not counted. Prints instructions per pair and what each
configuration adds to the untracked pair.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from peers import built, compile_device_loop  # noqa: E402


def instructions(valgrind, work, loop, pairs, env_extra):
    out = os.path.join(work, "callgrind.out")
    env = dict(os.environ, MSSIM_RUN_DIR=os.path.join(work, "mssim"))
    env.update(env_extra)
    subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--toggle-collect=pair", loop, str(pairs)],
                   env=env, capture_output=True, text=True, check=True)
    with open(out) as data:
        for line in data:
            match = re.match(r"summary: (\d+)", line) or re.match(r"totals: (\d+)", line)
            if match:
                return int(match.group(1))
    raise RuntimeError("callgrind wrote no summary for %s" % loop)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--pairs", type=int, default=20000)
    args = parser.parse_args()
    simcann, library = built("instructions.py", args.build, "simcann",
                             os.path.join("lib", "libmsledger_preload.so"))
    valgrind = shutil.which("valgrind")
    if not valgrind:
        sys.exit("instructions.py: valgrind is not installed (utils/setup.sh installs it)")

    configs = [("untracked", {}),
               ("interposed, both levels off",
                {"LD_PRELOAD": library,
                 "MSLEDGER_OPTIONS": "check_device_heap=0:check_cann_heap=0:leak_check=0:exitcode=0"}),
               ("tracked, CANN level",
                {"LD_PRELOAD": library, "MSLEDGER_OPTIONS": "check_device_heap=0:leak_check=0:exitcode=0"}),
               ("tracked, both levels", {"LD_PRELOAD": library, "MSLEDGER_OPTIONS": "leak_check=0:exitcode=0"})]
    work = tempfile.mkdtemp(prefix="msledger-instructions.")
    try:
        loop = os.path.join(work, "loop-acl")
        ok, why = compile_device_loop(simcann, loop)
        if not ok:
            sys.exit("instructions.py: cannot build the device loop: %s" % why[0])
        # pair() runs PAIRS times and PAIRS / 10 + 10000 times to warm up.
        counted = lambda pairs: pairs + pairs // 10 + 10000
        per_pair = {}
        for name, env in configs:
            few = instructions(valgrind, work, loop, args.pairs, env)
            many = instructions(valgrind, work, loop, 2 * args.pairs, env)
            per_pair[name] = (many - few) / (counted(2 * args.pairs) - counted(args.pairs))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    base = per_pair["untracked"]
    if base < 100:  # a simulated aclrtMalloc+aclrtFree is thousands
        sys.exit("instructions.py: callgrind counted %.0f instructions a pair: was pair() "
                 "inlined or renamed in peer_loop.c?" % base)
    print("Instructions per aclrtMalloc+aclrtFree pair of 64 bytes on the simulated device "
          "(callgrind, steady state):")
    for name, _ in configs:
        value = per_pair[name]
        added = "" if name == "untracked" else " (+%.0f)" % (value - base)
        print("  %-28s %7.0f%s" % (name, value, added))
    return 0


if __name__ == "__main__":
    sys.exit(main())
