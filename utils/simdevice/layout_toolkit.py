#!/usr/bin/env python3
"""Lays out the simulated CANN toolkit as one release's install tree.

  layout_toolkit.py layout RELEASE HEADERS TOOLKIT [NAME=LIBRARY | stub/NAME=STUB ...]
  layout_toolkit.py hidden RELEASE HEADERS OUT.map

HEADERS is a folder of headers, or several joined by ':'. `layout` writes
TOOLKIT the way a real toolkit (ascend-toolkit/latest) is laid out: the ACL headers under include/ and again under runtime/include/, the
driver's header only under include/experiment/ascend_hal/driver/ (and not at
all in 7.0, whose public header sets have none), each library NAME (e.g.
libascendcl.so) linked into lib64/, runtime/lib64/ and both stub/ folders, and
.mssim-toolkit naming the release. `hidden` writes a linker version script that
hides the functions RELEASE's headers lack, so that its libraries lack them
too.

Headers mark what a release lacks, each on lines of their own:

  /* mssim-release: not in 7.0 8.1.RC1 */   ... /* mssim-release: end */
  /* mssim-release: file not in 7.0 */      (the whole header)

The markers are removed from what is written, with the blocks the release
lacks. Releases: 7.0, 8.1.RC1, latest (everything).
"""
import os
import re
import shutil
import sys

RELEASES = ("7.0", "8.1.RC1", "latest")
MARK = re.compile(r"^\s*/\* mssim-release: (not in|file not in|end)([^*]*)\*/\s*$")
# The prefixes of the public interface's function names (public_api.py
# refuses an export with one that no header declares).
INTERFACE_PREFIXES = ("acl", "hi_mpi_", "hi_vdec_", "hal", "drv", "Hccl")
API = re.compile(r"\b((?:%s)\w*)\s*\(" % "|".join(INTERFACE_PREFIXES))
DRIVER = os.path.join("driver", "ascend_hal.h")
SET_ENV = """# Source this file to build and run against this simulated CANN toolkit,
# as with a real toolkit's set_env.sh (which names its install path too).
export ASCEND_TOOLKIT_HOME="{0}"
export ASCEND_HOME_PATH="{0}"
export LD_LIBRARY_PATH="{0}/lib64:{0}/runtime/lib64${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
export PATH="{0}/bin${{PATH:+:$PATH}}"
"""


def strip(text, release):
    """The header as RELEASE has it (None: it has none), and the APIs dropped."""
    out, dropped, skipping = [], [], False
    for line in text.splitlines(keepends=True):
        mark = MARK.match(line)
        if mark:
            kind, releases = mark.group(1), mark.group(2).split()
            if kind == "file not in" and release in releases:
                return None, API.findall(text)
            if kind == "not in":
                skipping = release in releases
            elif kind == "end":
                skipping = False
            continue
        if skipping:
            dropped += API.findall(line)
        else:
            out.append(line)
    return "".join(out), dropped


def headers(roots):
    """(relative path, path) of the headers under HEADERS: one folder, or
    several joined by ':' (the sources' and the generated operator
    headers')."""
    for root in roots.split(os.pathsep):
        for directory, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if name.endswith(".h"):
                    path = os.path.join(directory, name)
                    yield os.path.relpath(path, root), path


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as out:
        out.write(text)
    os.replace(path + ".tmp", path)


def layout(release, source, toolkit, libraries):
    for tree in ("include", os.path.join("runtime", "include")):
        shutil.rmtree(os.path.join(toolkit, tree), ignore_errors=True)
    for relative, path in headers(source):
        with open(path) as header:
            text, _ = strip(header.read(), release)
        if text is None:
            continue
        if relative == DRIVER:
            if release != "7.0":
                write(os.path.join(toolkit, "include", "experiment", "ascend_hal", DRIVER), text)
            continue
        for tree in ("include", os.path.join("runtime", "include")):
            write(os.path.join(toolkit, tree, relative), text)
    # A library's link stub (stub/NAME=PATH) goes in the stub folders in its
    # place; a library without one is its own stub.
    stubs = dict(spec[len("stub/"):].split("=", 1) for spec in libraries if spec.startswith("stub/"))
    for spec in libraries:
        if spec.startswith("stub/"):
            continue
        name, _, library = spec.partition("=")
        for folder in ("lib64", os.path.join("lib64", "stub"), os.path.join("runtime", "lib64"),
                       os.path.join("runtime", "lib64", "stub")):
            target = stubs.get(name, library) if folder.endswith("stub") else library
            directory = os.path.join(toolkit, folder)
            os.makedirs(directory, exist_ok=True)
            link = os.path.join(directory, name)
            if os.path.realpath(link) == os.path.realpath(target):
                continue  # the library itself, built here
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.relpath(target, directory), link)
    write(os.path.join(toolkit, "set_env.sh"), SET_ENV.format(os.path.abspath(toolkit)))
    write(os.path.join(toolkit, ".mssim-toolkit"), "msledger simulated CANN toolkit, release %s\n" % release)


def hidden(release, source, out):
    dropped = []
    for _, path in headers(source):
        with open(path) as header:
            dropped += strip(header.read(), release)[1]
    lines = ["/* Generated by layout_toolkit.py: what release %s lacks. */" % release, "{", "  global: *;"]
    if dropped:
        lines.append("  local: %s;" % "; ".join(sorted(set(dropped))))
    write(out, "\n".join(lines + ["};", ""]))


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("layout", "hidden") or sys.argv[2] not in RELEASES:
        sys.exit(__doc__)
    if sys.argv[1] == "layout":
        layout(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        hidden(sys.argv[2], sys.argv[3], sys.argv[4])


if __name__ == "__main__":
    main()
