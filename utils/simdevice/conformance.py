#!/usr/bin/env python3
"""Does a toolkit's interface match a real one's, name for name?

  conformance.py table [--set SET] INCLUDE_DIR > TABLE.tsv
      Reads one set of headers under INCLUDE_DIR (a real toolkit's include/
      folder, or a public copy of its headers) with clang and writes what
      they declare, one line each, tab-separated:
        function    NAME  TYPE           (as the header spells it)
        typedef     NAME  TYPE           (what it names, one level of
                                          typedefs undone: DVdevice is
                                          "unsigned int"; "(anonymous)")
        enumerator  NAME  VALUE  ENUM    (its enumeration's name, or
                                          "(anonymous)")
        constant    NAME  VALUE  TYPE    (a const of an integer type, e.g.
                                          an ACL error code: "const int")
        macro       NAME  VALUE          (an object-like macro whose value
                                          is an integer constant expression,
                                          as the compiler evaluates it)
        compiles    LANGUAGE  yes|no     (whether the set's header compiles
                                          as C, as C++ on its own)
  conformance.py check [--set SET] [--subset] [--ours OURS.tsv] INCLUDE_DIR TABLE.tsv
      Checks the headers under INCLUDE_DIR (the simulated toolkit's) against
      TABLE, both ways. Each line of TABLE must hold there: a C++ file is
      compiled asserting that the function has that type; that the typedef
      names that type; that the enumerator is one, of that enumeration, with
      that value; that the
      constant is neither a macro nor an enumerator but of that type and
      value; that the macro is a macro of that value; and the header set is
      compiled as C and as C++ on its own. With --subset only the lines
      whose name the toolkit declares are checked (for a header the
      simulation declares part of, such as the driver's). And every
      function, typedef, enumerator, constant and macro the toolkit declares
      must be
      in TABLE, unless OURS lists it (KIND, NAME and the reason,
      tab-separated); a line of OURS that no longer applies is a problem too.
      (Not compared: the members of structures and unions.)
      Prints each problem and a summary; exit status 1 if there is one.

Sets (SET; INCLUDE_DIR is the folder the set's header is included from):
  acl      acl/acl.h, acl/acl_prof.h, acl/acl_op_compiler.h,
           acl/ops/acl_cblas.h and what they include (the default)
  dvpp     acl/ops/acl_dvpp.h (ENABLE_DVPP_INTERFACE defined); its own
           declarations only
  himpi    acl/dvpp/hi_dvpp.h; the declarations of acl/dvpp/*
  driver   driver/ascend_hal.h; the declarations of driver/* (INCLUDE_DIR is
           a toolkit's include/experiment/ascend_hal)

The tables in utils/simdevice/reference/ were made with `table` from public
copies of the real headers (each table's first lines say which);
lit-tests/simdevice/conformance.test checks the latest simulated toolkit
against them. A user with a real toolkit can make tables of its headers and
check the simulation against those.
"""
import argparse
import json
import os
import re
import subprocess
import sys

CLANG = os.environ.get("MSSIM_CLANG", "clang-19")
SETS = {
    # name: (headers included, prefix of the files whose declarations count)
    "acl": (["acl/acl.h", "acl/acl_prof.h", "acl/acl_op_compiler.h", "acl/ops/acl_cblas.h"],
            "acl/"),
    "dvpp": (["acl/ops/acl_dvpp.h"], "acl/ops/acl_dvpp.h"),
    "himpi": (["acl/dvpp/hi_dvpp.h"], "acl/dvpp/"),
    "driver": (["driver/ascend_hal.h"], "driver/"),
}
LANGUAGES = (("c", ["-x", "c"]), ("c++", ["-x", "c++", "-std=c++17"]))
KINDS = ("function", "typedef", "enumerator", "constant", "macro")
ORDER = {"compiles": 0, "function": 1, "typedef": 2, "enumerator": 3, "constant": 4, "macro": 5}


def source(headers):
    return "#define ENABLE_DVPP_INTERFACE\n" + "".join('#include "%s"\n' % h for h in headers)


def clang(include, arguments, stdin, language=("-x", "c++", "-std=c++17")):
    command = [CLANG] + list(language) + ["-I", include, "-I", os.path.join(include, "acl")]
    return subprocess.run(command + arguments + ["-"], input=stdin, capture_output=True,
                          text=True)


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


def counts(path, include, prefix):
    """Whether declarations in `path` belong to the set (under `include`,
    below `prefix`)."""
    if not path:
        return False
    relative = os.path.relpath(os.path.realpath(path), include)
    return not relative.startswith("..") and relative.startswith(prefix)


def evaluate(include, headers, names):
    """{name: value} of those of `names` (macros or constants) that are
    integer constant expressions, as the compiler evaluates them with the
    set's headers included (each an enumerator of its own; a string, a
    float, a pointer or a function-like use is not one and is left out)."""
    lines = source(headers).splitlines()
    for index, name in enumerate(names):
        lines.append("enum : __int128 { mssim_value_%d = (%s) };" % (index, name))
    result = clang(include, ["-fsyntax-only", "-ferror-limit=0", "-w", "-Xclang",
                             "-ast-dump=json"], "\n".join(lines) + "\n")
    values = {}
    for node in json.loads(result.stdout or "{}").get("inner", []):
        if node.get("kind") != "EnumDecl":
            continue
        for constant in node.get("inner", []):
            match = re.match(r"mssim_value_(\d+)$", constant.get("name", ""))
            evaluated = [c for c in constant.get("inner", []) if c.get("kind") == "ConstantExpr"
                         and "value" in c]
            if match and evaluated:
                values[names[int(match.group(1))]] = int(evaluated[0]["value"])
    return values


def type_name(qualified):
    """A type as a table keeps it: "(anonymous)" for an unnamed one, whose
    spelling names a file and line."""
    return "(anonymous)" if " at " in qualified or qualified.startswith("(") else qualified


def entries(include, set_name):
    """{(kind, name): (value, type)} of what the set's headers under
    `include` declare, or None if they do not compile as C++. The type is an
    enumerator's enumeration and a constant's declared type; None for the
    other kinds. A typedef's value is what it names, its sugar undone one
    level (DVdevice: unsigned int); a macro's or constant's is its integer
    value, as the compiler evaluates it. Also ("compiles", LANGUAGE):
    ("yes" | "no", None)."""
    include = os.path.realpath(include)
    headers, prefix = SETS[set_name]
    result = clang(include, ["-fsyntax-only", "-Xclang", "-ast-dump=json"], source(headers))
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return None
    found = {}
    constants = {}

    def walk(node, file):
        for child in node.get("inner", []):
            file = (child.get("loc") or {}).get("file", file)
            kind = child.get("kind")
            if kind == "LinkageSpecDecl":
                file = walk(child, file)
                continue
            if not counts(file, include, prefix):
                continue
            if kind == "FunctionDecl":
                found[("function", child["name"])] = (child["type"]["qualType"], None)
            elif kind == "TypedefDecl":
                named = child["type"].get("desugaredQualType", child["type"]["qualType"])
                found[("typedef", child["name"])] = (type_name(named), None)
            elif kind == "EnumDecl":
                value = -1
                for constant in child.get("inner", []):
                    if constant.get("kind") != "EnumConstantDecl":
                        continue
                    explicit = integer_literal(constant)
                    value = explicit if explicit is not None else value + 1
                    found[("enumerator", constant["name"])] = (
                        str(value), type_name(constant["type"]["qualType"]))
            elif kind == "VarDecl" and child["type"]["qualType"].startswith("const ") \
                    and "*" not in child["type"]["qualType"]:
                constants[child["name"]] = child["type"]["qualType"]
        return file

    walk(json.loads(result.stdout), None)
    # Macros, with the file each is defined in: -dD keeps the #defines in
    # the preprocessed output, between line markers naming their files.
    # Object-like macros with a value only (a function-like one's name is
    # followed by its parameters, an include guard has no value).
    file, macros = None, []
    for line in clang(include, ["-E", "-dD"], source(headers)).stdout.splitlines():
        marker = re.match(r'^# \d+ "(.*)"', line)
        if marker:
            file = marker.group(1)
            continue
        match = re.match(r"#define (\w+) (.+)$", line)
        if match and counts(file, include, prefix):
            macros.append(match.group(1))
    values = evaluate(include, headers, macros + sorted(constants))
    for name in macros:
        if name in values:
            found[("macro", name)] = (str(values[name]), None)
    for name, declared_type in constants.items():
        if name in values:
            found[("constant", name)] = (str(values[name]), declared_type)
    for language, flags in LANGUAGES:
        compiled = clang(include, ["-fsyntax-only"], source(headers), flags).returncode == 0
        found[("compiles", language)] = ("yes" if compiled else "no", None)
    return found


def table(include, set_name):
    found = entries(include, set_name)
    if found is None:
        return 1
    for (kind, name), (value, type_) in sorted(found.items(),
                                               key=lambda e: (ORDER[e[0][0]], e[0][1])):
        print("\t".join([kind, name, value] + ([type_] if type_ else [])))
    return 0


def read_table(path):
    """[(kind, name, value, type or None)] of a table file."""
    rows = []
    for number, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (3, 4) or fields[0] not in ORDER:
            sys.exit("conformance.py: %s:%d: not a table line: %s" % (path, number, line))
        rows.append(tuple(fields) + ((None,) if len(fields) == 3 else ()))
    return rows


def read_ours(path):
    """{(kind, name): reason} of an OURS file."""
    ours = {}
    for number, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in KINDS or not fields[2].strip():
            sys.exit("conformance.py: %s:%d: want KIND, NAME and a reason, tab-separated: %s"
                     % (path, number, line))
        ours[(fields[0], fields[1])] = fields[2]
    return ours


def literal(value):
    """An integer of a table as a C++ literal of a type that holds it."""
    number = int(value)
    return "%dULL" % number if number > 2**63 - 1 else "(%dLL)" % number


def assertion(kind, name, value, type_):
    """C++ lines asserting one table entry."""
    if kind == "function":
        return ["static_assert(std::is_same<decltype(&%s), "
                "std::add_pointer<%s>::type>::value, \"%s\");" % (name, value, name)]
    if kind == "typedef":
        if value == "(anonymous)":  # a type at least
            return ["static_assert(sizeof(%s *) != 0, \"%s\");" % (name, name)]
        return ["static_assert(std::is_same<%s, %s>::value, \"%s does not name %s\");"
                % (name, value, name, value)]
    if kind == "macro":
        return ["#ifndef %s" % name, "#error %s is not a macro" % name, "#endif",
                "static_assert((__int128)(%s) == (__int128)%s, \"%s has another value\");"
                % (name, literal(value), name)]
    lines = ["#ifdef %s" % name, "#error %s is a macro" % name, "#endif",
             "static_assert((__int128)(%s) == (__int128)%s, \"%s has another value\");"
             % (name, literal(value), name)]
    if kind == "enumerator":
        if type_ and type_ != "(anonymous)":
            lines.append("static_assert(std::is_same<decltype(%s), %s>::value, "
                         "\"%s is not an enumerator of %s\");" % (name, type_, name, type_))
        else:
            lines.append("static_assert(std::is_enum<decltype(%s)>::value, "
                         "\"%s is not an enumerator\");" % (name, name))
    elif kind == "constant" and type_:
        lines.append("static_assert(std::is_same<decltype(%s), %s>::value, "
                     "\"%s is not a %s\");" % (name, type_, name, type_))
    return lines


def check(include, table_path, set_name, subset, ours_path):
    include = os.path.realpath(include)
    every_row = read_table(table_path)
    listed = {(row[0], row[1]) for row in every_row}
    rows = every_row
    ours = read_ours(ours_path) if ours_path else {}
    declared = entries(include, set_name)
    if declared is None:
        print("the headers under %s do not compile" % include)
        return 1
    names = {name for kind, name in declared if kind != "compiles"}
    if subset:
        rows = [row for row in rows if row[0] == "compiles" or row[1] in names]
    mismatched = 0
    lines = source(SETS[set_name][0]).splitlines() + ["#include <type_traits>"]
    owner = {}
    for row in rows:
        if row[0] == "compiles":
            actual = declared[("compiles", row[1])][0]
            if actual != row[2]:
                print("does not match: compiles %s %s (it %s)"
                      % (row[1], row[2], "does" if actual == "yes" else "does not"))
                mismatched += 1
            continue
        for text in assertion(*row):
            lines.append(text)
            owner[len(lines)] = row
    result = clang(include, ["-fsyntax-only", "-ferror-limit=0", "-w"], "\n".join(lines) + "\n")
    failing = []
    for match in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", result.stderr, re.M):
        row = owner.get(int(match.group(1)))
        if row is not None and row not in failing:
            failing.append(row)
            print("does not match: %s (%s)" % (" ".join(f for f in row if f), match.group(2)))
    if result.returncode != 0 and not failing:
        sys.stderr.write(result.stderr)
        print("the check of the headers under %s does not compile" % include)
        return 1
    mismatched += len(failing)
    # The other way: what the toolkit declares that the table does not.
    extra = 0
    for key in sorted(declared, key=lambda k: (ORDER[k[0]], k[1])):
        if key[0] == "compiles" or key in listed:
            continue
        if key in ours:
            continue
        print("not in the reference: %s %s" % key)
        extra += 1
    for key in sorted(ours):
        if key not in declared:
            print("listed as ours but not declared: %s %s" % key)
            extra += 1
        elif key in listed:
            print("listed as ours but in the reference: %s %s" % key)
            extra += 1
    tally = {}
    for row in rows:
        tally[row[0]] = tally.get(row[0], 0) + 1
    checked = len(rows)
    print("%d of %d entries match (%s); %d declaration(s) not in the reference (%d listed as ours)"
          % (checked - mismatched, checked, ", ".join("%d %s" % (n, k) for k, n in sorted(tally.items())),
             extra, sum(1 for k in ours if k in declared and k not in listed)))
    return 1 if mismatched or extra else 0


def main():
    parser = argparse.ArgumentParser(usage=__doc__, add_help=False)
    parser.add_argument("command", choices=("table", "check"))
    parser.add_argument("--set", default="acl", choices=sorted(SETS))
    parser.add_argument("--subset", action="store_true")
    parser.add_argument("--ours")
    parser.add_argument("include")
    parser.add_argument("table", nargs="?")
    arguments = parser.parse_args()
    if arguments.command == "table":
        if arguments.table or arguments.subset or arguments.ours:
            parser.error("table takes --set and INCLUDE_DIR only")
        return table(arguments.include, arguments.set)
    if not arguments.table:
        parser.error("check wants INCLUDE_DIR and TABLE")
    return check(arguments.include, arguments.table, arguments.set, arguments.subset,
                 arguments.ours)


if __name__ == "__main__":
    sys.exit(main())
