#!/usr/bin/env python3
"""Checks that the runtime builds from declarations it owns.

Usage: own_declarations.py SRCROOT OBJROOT [COMPILE_COMMANDS]

The runtime (runtime/, and what it generates into OBJROOT/runtime/generated)
never sees the simulated toolkit, utils/simdevice, nor one laid out from it
(OBJROOT/simcann*): only the tests, the demo and the benchmarks do. Checked
three ways:
  * no compile command of a runtime source names either (an include
    directory, a forced include, anything), in COMPILE_COMMANDS
    (default OBJROOT/compile_commands.json);
  * no runtime source includes a toolkit header (acl/..., driver/...,
    mstx/..., hccl/..., aclnn...): lib/cann_types.h, lib/mstx_types.h and
    lib/cann_api.h declare what the runtime needs;
  * runtime/CMakeLists.txt names neither outside its comments, nor links
    the simulated libraries.
Prints each problem on a line of its own and exits 1, or prints one line
saying what it checked and exits 0.
"""
import json
import os
import re
import shlex
import sys

TOOLKIT_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](acl/|acl_|driver/|mstx/|hccl/|aclnn)', re.M)
SIMULATED = re.compile(r"simdevice|simcann|\bmssim|\bascendcl\b|\bacl_dvpp\b|\bascend_hal\b", re.I)


def runtime_sources(srcroot):
    for directory, _, files in os.walk(os.path.join(srcroot, "runtime")):
        for name in sorted(files):
            if name.endswith((".cpp", ".h", ".inc", ".def", ".c")):
                yield os.path.join(directory, name)


def main():
    srcroot, objroot = (os.path.realpath(p) for p in sys.argv[1:3])
    database = sys.argv[3] if len(sys.argv) > 3 else os.path.join(objroot, "compile_commands.json")
    runtime = (os.path.join(srcroot, "runtime") + os.sep, os.path.join(objroot, "runtime", "generated") + os.sep)
    problems = []
    compiled = 0
    for entry in json.load(open(database)):
        source = os.path.realpath(os.path.join(entry.get("directory", ""), entry["file"]))
        if not source.startswith(runtime):
            continue
        compiled += 1
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        for argument in arguments:
            if "simdevice" in argument or "simcann" in argument:
                problems.append("%s is compiled with %s" % (os.path.relpath(source, srcroot), argument))
    if not compiled:
        problems.append("%s has no runtime source" % database)
    for path in runtime_sources(srcroot):
        with open(path, errors="replace") as source:
            for match in TOOLKIT_INCLUDE.finditer(source.read()):
                problems.append("%s includes a toolkit header: %s" % (os.path.relpath(path, srcroot),
                                                                      match.group(0).strip()))
    cmake = os.path.join(srcroot, "runtime", "CMakeLists.txt")
    with open(cmake) as lists:
        for number, line in enumerate(lists, 1):
            code = line.split("#", 1)[0]
            if SIMULATED.search(code):
                problems.append("runtime/CMakeLists.txt:%d names the simulated toolkit: %s" % (number, line.strip()))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("%d runtime source(s) compiled without the simulated toolkit" % compiled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
