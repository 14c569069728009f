#!/usr/bin/env python3
"""Whether the catalog tracks every resource lifecycle function of a toolkit.

  lifecycle_coverage.py [--release R] CATALOG TOOLKIT

TOOLKIT is a CANN toolkit (what ASCEND_HOME_PATH names: a real install or
one of the simulated ones in build/simcann*). The functions its public
headers declare -- every header under TOOLKIT/include but the operators'
(aclnnop/, covered by the catalog's operator rule) and the driver's
(experiment/, not on an application's include path) -- are read with clang,
as utils/simdevice/public_api.py reads them.

The rule: a function is a lifecycle function when a word of its name, after
the interface prefix, is one of LIFECYCLE_WORDS -- "aclrtCreateBinary" has
"create", "acltdtAllocBuf" "alloc", "hi_mpi_vb_destroy_pool" "destroy",
"HcclCommInitRootInfo" "init", "acltdtEnqueue" "enqueue",
"aclrtIpcMemClose" "close". Words are split
at case changes and underscores; "UnLoad" and "Unload" are both "unload".
Each lifecycle function must be in CATALOG's functions, or in its
"not_resources" with the reason it makes or releases nothing a leak checker
tracks.

Also checked, for the built-in catalog: every function states "since" (the
release whose public headers first declare it; msledger's own msledger_*
functions are in none) and every release of a pointer
handle passed in states "null" (what the real function does with NULL); and, when
the toolkit's release is known (TOOLKIT/.mssim-toolkit names it for the
simulated ones; --release for a real install), no function the toolkit
declares has a "since" after that release.

Prints the count of lifecycle functions and each problem on a line of its
own; exit status 1 when there is one, 2 for bad input.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "simdevice"))
import public_api  # noqa: E402

LIFECYCLE_WORDS = {"create", "destroy", "malloc", "alloc", "free", "init", "finalize",
                   "load", "unload", "register", "unregister", "deregister", "bind", "unbind",
                   "capture", "release", "enqueue", "dequeue", "open", "import", "close",
                   "retain"}
# Interface prefixes, longest first: the words after them are the name's.
PREFIXES = ("aclrt", "aclmdl", "aclop", "acldvpp", "aclvdec", "aclvenc", "aclprof",
            "acltdt", "aclfv", "aclblas", "aclnn", "acl", "hi_mpi_", "hi_", "Hccl", "hccl")
EXCLUDED_FOLDERS = ("aclnnop", "experiment")
# msledger's own API (msledger/msledger.h) is in no CANN release.
OWN_PREFIX = "msledger_"


def words(name):
    """The lower-case words of `name` after its interface prefix."""
    for prefix in PREFIXES:
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    found = []
    for part in name.split("_"):
        found += re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", part)
    found = [word.lower() for word in found]
    merged = []
    for word in found:
        # "UnLoad", "UnRegister": one word, as "Unload" is.
        if merged and merged[-1] == "un":
            merged[-1] = "un" + word
        else:
            merged.append(word)
    return merged


def is_lifecycle(name):
    return any(word in LIFECYCLE_WORDS for word in words(name))


def release_key(release):
    """An order of CANN releases: 7.0 < 8.0.RC1 < 8.0.0 < 8.1.RC1 < 8.5.0."""
    match = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.RC(\d+))?", release)
    if not match:
        raise ValueError("%s is not a CANN release" % release)
    major, minor, patch, candidate = match.groups()
    if candidate is not None:
        return (int(major), int(minor), 0, int(candidate))
    return (int(major), int(minor), 1, int(patch or 0))


def toolkit_release(toolkit):
    """The simulated toolkit's release ("latest" is none: everything)."""
    try:
        with open(os.path.join(toolkit, ".mssim-toolkit")) as stamp:
            release = stamp.read().split("release")[-1].strip()
    except OSError:
        return None
    return None if release == "latest" else release


def public_headers(include):
    headers = []
    for relative, path in public_api.headers(include):
        if relative.split(os.sep)[0] not in EXCLUDED_FOLDERS:
            headers.append(path)
    return headers


def main(argv):
    release = None
    if len(argv) >= 2 and argv[0] == "--release":
        release, argv = argv[1], argv[2:]
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    catalog_path, toolkit = argv
    include = os.path.join(toolkit, "include")
    if not os.path.isdir(include):
        sys.stderr.write("lifecycle_coverage.py: %s has no include/ folder\n" % toolkit)
        return 2
    try:
        with open(catalog_path) as source:
            catalog = json.load(source)
    except (OSError, ValueError) as error:
        sys.stderr.write("lifecycle_coverage.py: %s: %s\n" % (catalog_path, error))
        return 2
    release = release or toolkit_release(toolkit)
    try:
        release_order = release_key(release) if release else None
    except ValueError as error:
        sys.stderr.write("lifecycle_coverage.py: --release: %s\n" % error)
        return 2

    id_families = {family["name"] for family in catalog.get("families", [])
                   if family.get("handle") == "id"}
    # The driver's functions are in experiment/, which is not read, and
    # mstx's (recorded by the callee) in the tool's own tools/mstx/include/.
    driver_families = {family["name"] for family in catalog.get("families", [])
                       if family.get("level") == "device"}
    entries = {}
    for function in catalog.get("functions", []):
        name = re.search(r"(\w+)\s*\(", function["signature"]).group(1)
        entries[name] = function
    not_resources = catalog.get("not_resources", {})

    headers = public_headers(include)
    declared = public_api.declared_in(headers, public_api.include_dirs(include))
    names = sorted({function[0] for found in declared.values() for function in found})
    lifecycle = [name for name in names if is_lifecycle(name)]
    problems = []
    for name in lifecycle:
        if name not in entries and name not in not_resources:
            problems.append("%s: a lifecycle function the catalog neither tracks nor "
                            "lists in \"not_resources\"" % name)
    for name in sorted(entries):
        entry = entries[name]
        if entry.get("role") == "access":
            continue
        if "since" not in entry and not name.startswith(OWN_PREFIX):
            problems.append("%s: the catalog does not say since which release (\"since\")" % name)
        elif release_order and name in names and release_key(entry["since"]) > release_order:
            problems.append("%s: declared by release %s, but \"since\" says %s"
                            % (name, release, entry["since"]))
        elif (release_order and "since" in entry and name not in names
              and entry.get("family") not in driver_families
              and entry.get("recorded_by") != "callee"
              and release_key(entry["since"]) <= release_order):
            problems.append("%s: \"since\" says %s, but release %s does not declare it"
                            % (name, entry["since"], release))
        # Ids (device ids, model ids) have no NULL.
        releasing = (entry.get("role") in ("release", "free")
                     and entry.get("family") not in id_families)
        if releasing and entry.get("handle", {}).get("from") == "param" and "null" not in entry:
            problems.append("%s: the catalog does not say what NULL does (\"null\")" % name)
    for name in sorted(not_resources):
        if name in entries:
            problems.append("%s: both tracked and listed in \"not_resources\"" % name)
    tracked = sum(1 for name in lifecycle if name in entries)
    print("%s: %d public functions, %d lifecycle functions: %d tracked, %d ruled not resources"
          % (toolkit, len(names), len(lifecycle), tracked,
             sum(1 for name in lifecycle if name in not_resources)))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
