#!/usr/bin/env python3
"""The operator functions a toolkit's headers declare, for msledger's
interposers of the catalog's operator rule.

  operator_functions.py CLANG OUT INCLUDE_DIR...
      Reads every aclnnop/*.h under the INCLUDE_DIRs (a toolkit's include/
      folder: a real one's, or the simulated toolkit's folders) with clang,
      in one parse, and writes to OUT one line per function they declare:
          NAME <TAB> RETURN_TYPE { <TAB> PARAMETER_TYPE <TAB> PARAMETER_NAME }
      types as the header spells them ("const aclTensor *"), a parameter
      without a name as "". msledger-catalog-gen keeps those the operator rule
      covers (rewriter/catalog/catalog.h, OperatorRule) and interposes them.
      OUT is rewritten only when it changes; no header: an empty OUT.
"""
import glob
import json
import os
import subprocess
import sys


def parse(clang, includes, headers, lines, found):
    """Appends to `lines` the functions `headers` declare (one parse), those
    not in `lines` yet; adds to `found` the headers that declared one."""
    if not headers:
        return
    command = [clang, "-x", "c++", "-std=c++17", "-fsyntax-only", "-Xclang",
               "-ast-dump=json"]
    for include in includes:
        command += ["-I", include, "-I", os.path.join(include, "aclnnop")]
    source = "".join('#include "%s"\n' % os.path.realpath(h) for h in headers)
    result = subprocess.run(command + ["-"], input=source, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        sys.exit("operator_functions.py: the operator headers do not compile")
    wanted = {os.path.realpath(h) for h in headers}
    seen = {line.split("\t", 1)[0] for line in lines}
    current = [None]

    def note_file(location):
        if isinstance(location, dict):
            if "file" in location:
                current[0] = location["file"]
            for key in ("spellingLoc", "expansionLoc"):
                note_file(location.get(key))

    def walk(node, top):
        note_file(node.get("loc"))
        span = node.get("range", {})
        note_file(span.get("begin"))
        file = current[0]
        note_file(span.get("end"))
        if (top and node.get("kind") == "FunctionDecl" and not node.get("isImplicit")
                and file and os.path.realpath(file) in wanted):
            found.add(os.path.realpath(file))
            if node["name"] not in seen:
                seen.add(node["name"])
                whole = node["type"]["qualType"]
                fields = [node["name"], whole[:whole.index("(")].strip()]
                for child in node.get("inner", []):
                    if child.get("kind") == "ParmVarDecl":
                        fields += [child["type"]["qualType"], child.get("name", "")]
                lines.append("\t".join(fields))
        inside = top and node.get("kind") == "LinkageSpecDecl"
        for child in node.get("inner", []):
            walk(child, inside)

    for node in json.loads(result.stdout).get("inner", []):
        walk(node, True)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    clang, out, includes = sys.argv[1], sys.argv[2], sys.argv[3:]
    headers = []
    for include in includes:
        headers += sorted(glob.glob(os.path.join(include, "aclnnop", "*.h")))
    lines, found = [], set()
    parse(clang, includes, headers, lines, found)
    # Two real headers may share an include guard (9.1.0's aclnn_add.h and
    # aclnn_fill_diagonal.h): one parse sees the first only. Those that gave
    # nothing are read again, each alone.
    for header in headers:
        if os.path.realpath(header) not in found:
            parse(clang, includes, [header], lines, found)
    text = "".join(line + "\n" for line in sorted(lines))
    if os.path.exists(out) and open(out).read() == text:
        return
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
