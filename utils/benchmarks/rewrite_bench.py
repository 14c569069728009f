#!/usr/bin/env python3
"""What msrewrite costs, against clang -fsyntax-only on the same code.

Usage: utils/benchmarks/rewrite_bench.py [BUILD_DIR] [--runs N]

Generates a large translation unit (the ACL headers, much of the standard
library, 1,000 catalog calls) and 20 smaller ones, then, alternating runs in
one session: `clang -fsyntax-only` against `msrewrite --diff` on the large TU
(medians, ratio), and msrewrite over the 20 TUs with -j 1 against -j 2.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

HEADERS = ["acl/acl.h", "acl/ops/acl_dvpp.h", "algorithm", "functional", "iostream", "map", "memory", "regex",
           "sstream", "string", "thread", "unordered_map", "vector"]


def translation_unit(calls, name):
    lines = ["#include <%s>" % h if "/" not in h else '#include "%s"' % h for h in HEADERS]
    lines.append("namespace %s {" % name)
    for i in range(calls // 4):
        lines.append("int f%d(std::vector<void *> &keep) {" % i)
        lines.append("  void *p = nullptr, *h = nullptr;")
        lines.append("  if (aclrtMalloc(&p, %d, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;" % (64 + i))
        lines.append("  aclrtMallocHost(&h, 16);")
        lines.append("  keep.push_back(p);")
        lines.append("  aclrtFreeHost(h);")
        lines.append("  return aclrtFree(keep.back());")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def timed(command, cwd):
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    msrewrite = os.path.join(build, "bin", "msrewrite")
    simcann = os.path.join(build, "simcann", "include")
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    clang = [l.split("=", 1)[1] for l in cache.splitlines() if l.startswith("MSLEDGER_CLANG:")][0]
    with tempfile.TemporaryDirectory() as work:
        files = {"big.cpp": translation_unit(1000, "big")}
        for i in range(20):
            files["small%02d.cpp" % i] = translation_unit(100, "small%d" % i)
        entries = []
        for name, text in files.items():
            open(os.path.join(work, name), "w").write(text)
            entries.append({"directory": work, "file": name,
                            "arguments": ["c++", "-std=c++17", "-I" + simcann, "-c", name]})
        os.makedirs(os.path.join(work, "build"))
        json.dump(entries, open(os.path.join(work, "build", "compile_commands.json"), "w"))

        syntax, rewrite = [], []
        for _ in range(args.runs):
            syntax.append(timed([clang, "-std=c++17", "-I" + simcann, "-fsyntax-only", "big.cpp"], work))
            rewrite.append(timed([msrewrite, "-p", "build", "--diff", "big.cpp"], work))
        s, r = statistics.median(syntax), statistics.median(rewrite)
        print("Large TU (1,000 catalog calls), median of %d: clang -fsyntax-only %.3f s, msrewrite --diff %.3f s: "
              "%.2fx" % (args.runs, s, r, r / s))

        smalls = sorted(n for n in files if n.startswith("small"))
        one, two = [], []
        for _ in range(args.runs):
            one.append(timed([msrewrite, "-p", "build", "--diff", "-j", "1"] + smalls, work))
            two.append(timed([msrewrite, "-p", "build", "--diff", "-j", "2"] + smalls, work))
        a, b = statistics.median(one), statistics.median(two)
        print("20 TUs, median of %d: -j 1 %.2f s, -j 2 %.2f s: %.2fx faster" % (args.runs, a, b, a / b))


if __name__ == "__main__":
    main()
