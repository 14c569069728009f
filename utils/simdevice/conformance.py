#!/usr/bin/env python3
"""Does a toolkit's ACL interface match a real one's, name for name?

  conformance.py table [--dvpp] INCLUDE_DIR > TABLE.tsv
      Reads the ACL headers under INCLUDE_DIR (a real toolkit's include/
      folder: acl/acl.h, acl/acl_prof.h, acl/acl_op_compiler.h,
      acl/ops/acl_cblas.h and what they include; with --dvpp also
      acl/ops/acl_dvpp.h and acl/dvpp/hi_dvpp.h, ENABLE_DVPP_INTERFACE
      defined) with clang and writes what they declare, one line each,
      tab-separated:
        function    NAME  TYPE      (the function's type as the header spells it)
        enumerator  NAME  VALUE
        constant    NAME  VALUE     (a static const int, e.g. an ACL error code)
        macro       NAME  VALUE     (an object-like macro with an integer value)
  conformance.py check [--dvpp] INCLUDE_DIR TABLE.tsv
      Compiles, against the headers under INCLUDE_DIR (the simulated
      toolkit's), a C++ file asserting each line of TABLE: the function is
      declared with that type, the enumerator, constant or macro has that
      value, and a constant is not a macro nor a macro a constant. Prints each
      line that does not hold and a summary; exit status 1 if one does not.

The tables in utils/simdevice/reference/ were made with `table` from the
public headers of real releases; `check` against the latest simulated
toolkit is lit-tests/simdevice/conformance.test.
"""
import json
import os
import re
import subprocess
import sys

CLANG = os.environ.get("MSSIM_CLANG", "clang-19")
HEADERS = ["acl/acl.h", "acl/acl_prof.h", "acl/acl_op_compiler.h",
           "acl/ops/acl_cblas.h"]
DVPP_HEADERS = ["acl/ops/acl_dvpp.h", "acl/dvpp/hi_dvpp.h"]
INTEGER = re.compile(r"^\(?-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\)?$")


def source(headers):
    return "#define ENABLE_DVPP_INTERFACE\n" + "".join(
        '#include "%s"\n' % h for h in headers)


def clang(include, arguments, stdin):
    command = [CLANG, "-x", "c++", "-std=c++17", "-I", include,
               "-I", os.path.join(include, "acl")] + arguments + ["-"]
    return subprocess.run(command, input=stdin, capture_output=True, text=True)


def integer_literal(node):
    """The value clang evaluated for `node` (an enumerator's initialiser is
    a ConstantExpr), else that of the first integer literal under it,
    signed."""
    if node.get("kind") == "ConstantExpr" and "value" in node:
        return int(node["value"])
    if node.get("kind") == "IntegerLiteral":
        return int(node["value"])
    for child in node.get("inner", []):
        value = integer_literal(child)
        if value is not None:
            if node.get("kind") == "UnaryOperator" and node.get("opcode") == "-":
                return -value
            return value
    return None


def table(include, headers):
    include = os.path.realpath(include)
    result = clang(include, ["-fsyntax-only", "-Xclang", "-ast-dump=json"],
                   source(headers))
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return 1
    entries = {}

    def walk(node, file):
        for child in node.get("inner", []):
            file = (child.get("loc") or {}).get("file", file)
            kind = child.get("kind")
            if kind == "LinkageSpecDecl":
                file = walk(child, file)
                continue
            if not file or not os.path.realpath(file).startswith(include):
                continue
            if kind == "FunctionDecl":
                entries[("function", child["name"])] = child["type"]["qualType"]
            elif kind == "EnumDecl":
                value = -1
                for constant in child.get("inner", []):
                    if constant.get("kind") != "EnumConstantDecl":
                        continue
                    explicit = integer_literal(constant)
                    value = explicit if explicit is not None else value + 1
                    entries[("enumerator", constant["name"])] = str(value)
            elif kind == "VarDecl" and child["name"].startswith("ACL_"):
                value = integer_literal(child)
                if value is not None:
                    entries[("constant", child["name"])] = str(value)
        return file

    walk(json.loads(result.stdout), None)
    builtin = set(clang(include, ["-E", "-dM"],
                        "#define ENABLE_DVPP_INTERFACE\n").stdout.splitlines())
    for line in clang(include, ["-E", "-dM"],
                      source(headers)).stdout.splitlines():
        match = re.match(r"#define (\w+) (.+)$", line)
        if line in builtin or not match or not INTEGER.match(match.group(2)):
            continue
        if match.group(1).startswith("INC_") or match.group(1).endswith("_H_"):
            continue  # include guards
        entries[("macro", match.group(1))] = match.group(2)
    order = {"function": 0, "enumerator": 1, "constant": 2, "macro": 3}
    for (kind, name), value in sorted(entries.items(),
                                      key=lambda e: (order[e[0][0]], e[0][1])):
        print("%s\t%s\t%s" % (kind, name, value))
    return 0


def read_table(path):
    entries = []
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        kind, name, value = line.split("\t")
        entries.append((kind, name, value))
    return entries


def assertion(kind, name, value):
    """C++ lines asserting one table entry."""
    if kind == "function":
        return ["static_assert(std::is_same<decltype(&%s), "
                "std::add_pointer<%s>::type>::value, \"%s\");" % (name, value, name)]
    if kind == "macro":
        return ["#ifndef %s" % name, "#error %s is not a macro" % name, "#endif",
                "static_assert((%s) == (%s), \"%s\");" % (name, value, name)]
    lines = []
    if kind == "constant":
        lines = ["#ifdef %s" % name, "#error %s is a macro" % name, "#endif"]
    return lines + ["static_assert((long long)(%s) == (%sLL), \"%s\");"
                    % (name, value, name)]


def check(include, table_path, headers):
    include = os.path.realpath(include)
    lines = source(headers).splitlines() + ["#include <type_traits>"]
    owner = {}
    entries = read_table(table_path)
    for entry in entries:
        for text in assertion(*entry):
            lines.append(text)
            owner[len(lines)] = entry
    result = clang(include, ["-fsyntax-only", "-ferror-limit=0", "-w"],
                   "\n".join(lines) + "\n")
    failing = []
    for match in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$",
                             result.stderr, re.M):
        entry = owner.get(int(match.group(1)))
        if entry is not None and entry not in failing:
            failing.append(entry)
            print("does not match: %s %s %s (%s)" % (entry + (match.group(2),)))
    if result.returncode != 0 and not failing:
        sys.stderr.write(result.stderr)
        print("the headers under %s do not compile" % include)
        return 1
    counts = {}
    for kind, _, _ in entries:
        counts[kind] = counts.get(kind, 0) + 1
    print("%d of %d entries match (%s)" % (
        len(entries) - len(failing), len(entries),
        ", ".join("%d %ss" % (n, k) for k, n in sorted(counts.items()))))
    return 1 if failing else 0


def main():
    arguments = sys.argv[1:]
    headers = HEADERS
    if len(arguments) > 1 and arguments[1] == "--dvpp":
        headers = HEADERS + DVPP_HEADERS
        del arguments[1]
    if len(arguments) == 2 and arguments[0] == "table":
        return table(arguments[1], headers)
    if len(arguments) == 3 and arguments[0] == "check":
        return check(arguments[1], arguments[2], headers)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
