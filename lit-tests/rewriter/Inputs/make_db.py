#!/usr/bin/env python3
"""make_db.py DIR SIMCANN [--command] FILE[:FLAGS]...

Writes DIR/build/compile_commands.json for FILEs (relative to DIR), compiled
as C or C++ by their extension against the simulated toolkit at SIMCANN, with
"arguments" (or a "command" string with --command) and a relative "directory".
FLAGS after a ':' are extra flags for that file, separated by commas.
"""
import json
import os
import shlex
import sys

directory, simcann = sys.argv[1], sys.argv[2]
use_command = "--command" in sys.argv
entries = []
for spec in [a for a in sys.argv[3:] if a != "--command"]:
    name, _, extra = spec.partition(":")
    compiler = ["cc", "-std=c11"] if name.endswith(".c") else ["c++", "-std=c++17"]
    arguments = compiler + ["-I" + os.path.join(simcann, "include"), "-Iinclude"] + \
        [f for f in extra.split(",") if f] + ["-c", name, "-o", name + ".o"]
    entry = {"directory": "..", "file": name}
    if use_command:
        entry["command"] = " ".join(shlex.quote(a) for a in arguments)
    else:
        entry["arguments"] = arguments
    entries.append(entry)
os.makedirs(os.path.join(directory, "build"), exist_ok=True)
with open(os.path.join(directory, "build", "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=1)
