#!/usr/bin/env python3
"""null_releases.py CATALOG OUT.cpp: a program that calls every release and
free of the catalog whose handle is a pointer passed in with NULL (and every
other argument zero), on the simulated toolkit with AscendCL initialised and
device 0 set, and prints one line per call: whether what the function did
agrees with the catalog's "null" -- "accepted": it succeeded, "refused": it
failed. A void function can only accept. The catalog's "null" values come
from the real sources; the simulation must behave the same.

The functions msledger itself defines (msledger_*) and those recorded by
their callee (mstx, implemented in the header) are not the toolkit's.
"""
import json
import re
import sys



def main(catalog_path, out_path):
    catalog = json.load(open(catalog_path))
    families = {family["name"]: family for family in catalog["families"]}
    calls = []
    for function in catalog["functions"]:
        signature = function["signature"]
        name = re.search(r"(\w+)\s*\(", signature).group(1)
        handle = function.get("handle", {})
        family = families[function["family"]]
        if (function["role"] not in ("release", "free") or handle.get("from") != "param"
                or family.get("handle") == "id" or name.startswith("msledger_")
                or function.get("recorded_by") == "callee" or "null" not in function):
            continue
        returns = signature[:signature.index(name)].strip()
        parameters = signature[signature.index("(") + 1:signature.rindex(")")]
        count = 0 if parameters.strip() in ("", "void") else parameters.count(",") + 1
        arguments = ", ".join(["{}"] * count)
        expected = function["null"]
        if returns == "void":
            check = "(%s(%s), true)" % (name, arguments)
        else:
            success = function["success"]["equals"]
            check = "static_cast<long long>(%s(%s)) == %d" % (name, arguments, success)
        calls.append((name, expected, check))
    with open(out_path, "w") as out:
        # The catalog's "headers" declare its functions (msledger's own aside).
        for header in catalog["headers"]:
            if not header.startswith("msledger/"):
                out.write('#include "%s"\n' % header)
        out.write("\n#include <cstdio>\n")
        out.write("\nint main() {\n  aclInit(nullptr);\n  aclrtSetDevice(0);\n"
                  "  int disagree = 0;\n")
        for name, expected, check in calls:
            out.write('  {\n    bool succeeded = %s;\n' % check)
            out.write('    bool agrees = succeeded == %s;\n' % ("true" if expected == "accepted" else "false"))
            out.write('    std::printf("%%s(NULL) %%s: %%s\\n", "%s", succeeded ? "succeeds" : "fails", '
                      'agrees ? "as the catalog says (%s)" : "NOT as the catalog says (%s)");\n'
                      % (name, expected, expected))
            out.write('    disagree += !agrees;\n  }\n')
        out.write('  std::printf("%%d release(s) of NULL, %%d disagree\\n", %d, disagree);\n' % len(calls))
        out.write("  aclrtResetDevice(0);\n  aclFinalize();\n  return disagree != 0;\n}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
