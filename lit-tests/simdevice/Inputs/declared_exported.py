#!/usr/bin/env python3
"""declared_exported.py TOOLKIT

Every function a simulated toolkit's public headers declare must be
exported by the library a real application links for it: acl/ops/acl_dvpp.h
and acl/dvpp/* by libacl_dvpp.so, acl/ops/acl_cblas.h by libacl_cblas.so,
acl/acl_op_compiler.h by libacl_op_compiler.so, the driver's header by
libascend_hal.so, every other acl/ header by libascendcl.so. The headers are
read by clang (its JSON AST), not by pattern, so whatever declares a
function -- a macro, a table -- counts. Prints the count per library and
each function declared but not exported; exit status 1 if there is one.
"""
import glob
import json
import os
import subprocess
import sys

toolkit = os.path.realpath(sys.argv[1])
include = os.path.join(toolkit, "include")
hal_include = os.path.join(include, "experiment", "ascend_hal")


def library_of(header):
    relative = os.path.relpath(header, include)
    if relative.startswith("experiment/"):
        return "libascend_hal.so"
    if relative in ("acl/ops/acl_dvpp.h",) or relative.startswith("acl/dvpp/"):
        return "libacl_dvpp.so"
    if relative == "acl/ops/acl_cblas.h":
        return "libacl_cblas.so"
    if relative == "acl/acl_op_compiler.h":
        return "libacl_op_compiler.so"
    return "libascendcl.so"


def declared(header):
    """The functions declared in `header` itself (not in what it includes)."""
    command = ["clang-19", "-x", "c", "-std=c11", "-fsyntax-only", "-Xclang",
               "-ast-dump=json", "-DENABLE_DVPP_INTERFACE", "-I", include,
               "-I", hal_include, header]
    ast = json.loads(subprocess.run(command, check=True, capture_output=True,
                                    text=True).stdout)
    names = set()
    current = [None]  # clang names a location's file only when it changes

    def note_file(location):
        if isinstance(location, dict):
            if "file" in location:
                current[0] = location["file"]
            for key in ("spellingLoc", "expansionLoc"):
                note_file(location.get(key))

    def walk(node, top):
        note_file(node.get("loc"))
        span = node.get("range", {})
        begin_file = None
        note_file(span.get("begin"))
        begin_file = current[0]
        note_file(span.get("end"))
        if top and node.get("kind") == "FunctionDecl" and not node.get("isImplicit"):
            if begin_file and os.path.realpath(begin_file) == header:
                names.add(node["name"])
        for child in node.get("inner", []):
            walk(child, False)

    for node in ast.get("inner", []):
        walk(node, True)
    return names


def exported(library):
    path = os.path.join(toolkit, "lib64", library)
    if not os.path.exists(path):
        return set()
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


headers = sorted(os.path.realpath(h) for h in
                 glob.glob(os.path.join(include, "**", "*.h"), recursive=True))
by_library = {}
for header in headers:
    by_library.setdefault(library_of(header), set()).update(declared(header))
missing = 0
for library in sorted(by_library):
    names = by_library[library]
    absent = sorted(names - exported(library))
    print("%s: %d function(s) declared, %d not exported" %
          (library, len(names), len(absent)))
    for name in absent:
        print("  declared but not exported: " + name)
    missing += len(absent)
sys.exit(1 if missing else 0)
