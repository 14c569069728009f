#!/usr/bin/env python3
"""tree_hash.py DIR [--skip SUBDIR] [--only PATTERN...]

Prints "sha256  path" for every regular file under DIR (paths relative to DIR,
sorted), or only for those whose name matches one of the glob PATTERNs,
leaving out the directory SUBDIR of DIR. Two runs compare with diff: any file
changed, added or removed shows.
"""
import fnmatch
import hashlib
import os
import sys

root = sys.argv[1]
patterns = sys.argv[sys.argv.index("--only") + 1:] if "--only" in sys.argv else []
root = root.rstrip("/") or "/"
skip = os.path.join(root, sys.argv[sys.argv.index("--skip") + 1]) if "--skip" in sys.argv else None
lines = []
for directory, subdirs, files in os.walk(root):
    subdirs[:] = sorted(d for d in subdirs if os.path.join(directory, d) != skip)
    for name in files:
        path = os.path.join(directory, name)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        if patterns and not any(fnmatch.fnmatch(name, p) for p in patterns):
            continue
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        lines.append("{}  {}".format(digest, os.path.relpath(path, root)))
print("\n".join(sorted(lines, key=lambda line: line[66:])))
