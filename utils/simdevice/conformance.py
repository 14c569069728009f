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
      and for the aclnn sets, whose simulation is generated from their
      tables, also:
        header      NAME  FILES          (the files below the set's prefix
                                          that declare the function, typedef,
                                          enumerator, constant or macro NAME,
                                          comma-separated: aclnnAdd is in
                                          aclnnop/aclnn_add.h, "aclnn_add.h")
        parameters  NAME  NAMES          (the function's parameter names as
                                          first declared, comma-separated;
                                          "(unnamed)" for one without a name,
                                          "(none)" if it has no parameters)
      Headers that share an include guard (real operator headers do) are
      read in separate translation units, so that each declares its own.
  conformance.py check [--set SET] [--subset] [--ours OURS.tsv] INCLUDE_DIR TABLE.tsv
      Checks the headers under INCLUDE_DIR (the simulated toolkit's) against
      TABLE, both ways. Each line of TABLE must hold there: a C++ file is
      compiled asserting that the function has that type; that the typedef
      names that type; that the enumerator is one, of that enumeration, with
      that value; that the
      constant is neither a macro nor an enumerator but of that type and
      value; that the macro is a macro of that value; that a header line
      names the toolkit's files that declare the name, and a parameters
      line its parameter names; and the header set is
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
  aclnn    aclnn/acl_meta.h, aclnn/aclnn_base.h, aclnn/opdev/op_errno.h (the
           ACLNN_* status codes); the declarations of aclnn/*. With header
           and parameters lines.
  tdt      acl/acl_tdt.h and acl/acl_tdt_queue.h; their own declarations
  fv       acl/ops/acl_fv.h; its own declarations
  hccl     hccl/hccl.h; the declarations of hccl/hccl.h, hccl/hccl_comm.h and
           hccl/hccl_types.h
  aclnnop  every aclnnop/aclnn_*.h and aclnnop/acl_*.h under INCLUDE_DIR
           (one header per operator, as ops-math and ops-nn install them;
           aclnnop/aclnn_util.h defines ACLNN_API); the declarations of
           aclnnop/*. With header and parameters lines.

The tables in utils/simdevice/reference/ were made with `table` from public
copies of the real headers (each table's first lines say which);
lit-tests/simdevice/conformance.test checks the latest simulated toolkit
against them. A user with a real toolkit can make tables of its headers and
check the simulation against those.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

CLANG = os.environ.get("MSSIM_CLANG", "clang-19")
SETS = {
    # name: (headers included, or glob patterns of them under INCLUDE_DIR;
    #        prefix of the files whose declarations count; whether the
    #        table also says where each name is declared and each function's
    #        parameter names)
    "acl": (["acl/acl.h", "acl/acl_prof.h", "acl/acl_op_compiler.h", "acl/ops/acl_cblas.h"],
            "acl/", False),
    "dvpp": (["acl/ops/acl_dvpp.h"], "acl/ops/acl_dvpp.h", False),
    "himpi": (["acl/dvpp/hi_dvpp.h"], "acl/dvpp/", False),
    "driver": (["driver/ascend_hal.h"], "driver/", False),
    "aclnn": (["aclnn/acl_meta.h", "aclnn/aclnn_base.h", "aclnn/opdev/op_errno.h"], "aclnn/",
              True),
    "aclnnop": (["aclnnop/aclnn_*.h", "aclnnop/acl_*.h"], "aclnnop/", True),
    # Tensor data transfer (libacl_tdt_channel.so) and its queues
    # (libacl_tdt_queue.so): their own declarations only, not acl_base.h's.
    "tdt": (["acl/acl_tdt.h", "acl/acl_tdt_queue.h"],
            ("acl/acl_tdt.h", "acl/acl_tdt_queue.h"), False),
    # Feature vector search (libacl_retr.so); not acl.h's declarations.
    "fv": (["acl/ops/acl_fv.h"], "acl/ops/acl_fv.h", False),
    # HCCL (libhccl.so): hccl/hccl.h and the two headers of it the
    # simulation has (not hccl_comm.h's resource and launch extensions,
    # hccl/hccl_res.h and hccl/hccl_launch.h).
    "hccl": (["hccl/hccl.h"], ("hccl/hccl.h", "hccl/hccl_comm.h", "hccl/hccl_types.h"), False),
}
LANGUAGES = (("c", ["-x", "c"]), ("c++", ["-x", "c++", "-std=c++17"]))
KINDS = ("function", "typedef", "enumerator", "constant", "macro")
ORDER = {"compiles": 0, "function": 1, "typedef": 2, "enumerator": 3, "constant": 4, "macro": 5,
         "header": 6, "parameters": 7}


def set_headers(include, set_name):
    """The headers a set includes, as paths below `include`: its patterns
    expanded there, each pattern's matches sorted."""
    headers = []
    for header in SETS[set_name][0]:
        if glob.has_magic(header):
            headers += sorted(os.path.relpath(path, include)
                              for path in glob.glob(os.path.join(include, header)))
        else:
            headers.append(header)
    return headers


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
    below `prefix`, or one of a tuple of them)."""
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


def guard(path):
    """The include guard of the header at `path` (its first directive an
    #ifndef of the macro its second defines), or None."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    directives = re.findall(r"^[ \t]*#[ \t]*(\w+)[ \t]*(\w*)", text, re.M)
    if len(directives) >= 2 and directives[0][0] == "ifndef" \
            and directives[1] == ("define", directives[0][1]):
        return directives[0][1]
    return None


def units(include, headers):
    """`headers` split into translation units, in order, no two headers of
    one with the same include guard: the second would declare nothing
    there. (Real operator headers share guards: aclnn_fill_diagonal.h has
    aclnn_add.h's.) One unit unless two share a guard."""
    result = []
    for header in headers:
        name = guard(os.path.join(include, header))
        for guards, members in result:
            if name is None or name not in guards:
                guards.add(name)
                members.append(header)
                break
        else:
            result.append(({name}, [header]))
    return [members for _, members in result]


def entries(include, set_name):
    """{(kind, name): (value, type)} of what the set's headers under
    `include` declare, or None if they do not compile as C++. The type is an
    enumerator's enumeration and a constant's declared type; None for the
    other kinds. A typedef's value is what it names, its sugar undone one
    level (DVdevice: unsigned int); a macro's or constant's is its integer
    value, as the compiler evaluates it. Also ("compiles", LANGUAGE):
    ("yes" | "no", None); and for a set whose table says where names are
    declared, ("header", NAME): (the files below the set's prefix that
    declare it, comma-separated, None) and ("parameters", FUNCTION): (its
    parameter names, comma-separated, "(unnamed)" for one without, "(none)"
    for no parameters; None)."""
    scanned = scan(include, set_name)
    return scanned and scanned[0]


def scan(include, set_name):
    """(entries, the translation units of the set's headers, {name: the
    index of the first unit declaring it}), or None."""
    include = os.path.realpath(include)
    headers, (prefix, file_lines) = set_headers(include, set_name), SETS[set_name][1:]
    found = {}
    where = {}       # name: {files below prefix declaring it}
    parameters = {}  # function name: its parameter names, as first declared
    unit_of = {}
    last = {"file": None}

    def follow(value):
        """Follows the JSON of `value` in the order clang wrote it, keeping
        the file its last location named: clang names a location's file
        only where it differs from that of the location written before it
        (a macro's spelling location, a range, a node nested in another
        included), so a declaration's file is that of its own location as
        it was written. (The file of an "includedFrom" is not one.)"""
        stack = [iter([value])]
        while stack:
            item = next(stack[-1], stack)
            if item is stack:
                stack.pop()
            elif isinstance(item, dict):
                if "file" in item:
                    last["file"] = item["file"]
                stack.append(v for k, v in item.items() if k != "includedFrom")
            elif isinstance(item, list):
                stack.append(iter(item))

    def add(key, value, file):
        if key in found and found[key] != value:
            sys.stderr.write("conformance.py: %s %s is declared as %s and as %s\n"
                             % (key + (" ".join(filter(None, found[key])),
                                       " ".join(filter(None, value)))))
        found.setdefault(key, value)
        where.setdefault(key[1], set()).add(
            os.path.relpath(os.path.realpath(file), include)[len(prefix):])
        unit_of.setdefault(key[1], index)

    def walk(node):
        for child in node.get("inner", []):
            file = last["file"]
            for key, item in child.items():
                if key not in ("loc", "inner"):
                    follow(item)
                elif key == "loc":
                    follow(item)  # a macro's expansion location comes last
                    file = last["file"]
            kind = child.get("kind")
            if kind == "LinkageSpecDecl":
                walk(child)
                continue
            follow(child.get("inner", []))
            if child.get("isImplicit") or not counts(file, include, prefix):
                continue
            if kind == "FunctionDecl":
                add(("function", child["name"]), (child["type"]["qualType"], None), file)
                parameters.setdefault(child["name"], [
                    parameter.get("name", "(unnamed)") for parameter in child.get("inner", [])
                    if parameter.get("kind") == "ParmVarDecl"])
            elif kind == "TypedefDecl":
                named = child["type"].get("desugaredQualType", child["type"]["qualType"])
                add(("typedef", child["name"]), (type_name(named), None), file)
            elif kind == "EnumDecl":
                value = -1
                for constant in child.get("inner", []):
                    if constant.get("kind") != "EnumConstantDecl":
                        continue
                    explicit = integer_literal(constant)
                    value = explicit if explicit is not None else value + 1
                    add(("enumerator", constant["name"]),
                        (str(value), type_name(constant["type"]["qualType"])), file)
            elif kind == "VarDecl" and child["type"]["qualType"].startswith("const ") \
                    and "*" not in child["type"]["qualType"]:
                constants[child["name"]] = (child["type"]["qualType"], file)

    split = units(include, headers) or [[]]
    for index, unit in enumerate(split):
        result = clang(include, ["-fsyntax-only", "-Xclang", "-ast-dump=json"], source(unit))
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            return None
        constants = {}
        last["file"] = None
        walk(json.loads(result.stdout))
        # Macros, with the file each is defined in: -dD keeps the #defines in
        # the preprocessed output, between line markers naming their files.
        # Object-like macros with a value only (a function-like one's name is
        # followed by its parameters, an include guard has no value).
        file, macros = None, {}
        for line in clang(include, ["-E", "-dD"], source(unit)).stdout.splitlines():
            marker = re.match(r'^# \d+ "(.*)"', line)
            if marker:
                file = marker.group(1)
                continue
            match = re.match(r"#define (\w+) (.+)$", line)
            if match and counts(file, include, prefix):
                macros.setdefault(match.group(1), []).append(file)
        values = evaluate(include, unit, list(macros) + sorted(constants))
        for name, files in macros.items():
            if name in values:
                for file in files:
                    add(("macro", name), (str(values[name]), None), file)
        for name, (declared_type, file) in constants.items():
            if name in values:
                add(("constant", name), (str(values[name]), declared_type), file)
    for language, flags in LANGUAGES:
        compiled = clang(include, ["-fsyntax-only"], source(headers), flags).returncode == 0
        found[("compiles", language)] = ("yes" if compiled else "no", None)
    if file_lines:
        for kind, name in list(found):
            if kind in KINDS:
                found[("header", name)] = (",".join(sorted(where[name])), None)
            if kind == "function":
                found[("parameters", name)] = (",".join(parameters[name]) or "(none)", None)
    return found, split, unit_of


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
    scanned = scan(include, set_name)
    if scanned is None:
        print("the headers under %s do not compile" % include)
        return 1
    declared, split, unit_of = scanned
    names = {name for kind, name in declared if kind != "compiles"}
    if subset:
        rows = [row for row in rows if row[0] == "compiles" or row[1] in names]
    mismatched = 0
    # One C++ file of assertions per translation unit of the headers, each
    # line's in the first that declares its name.
    lines = [source(unit).splitlines() + ["#include <type_traits>"] for unit in split]
    owner = [{} for unit in split]
    for row in rows:
        if row[0] == "compiles":
            actual = declared[("compiles", row[1])][0]
            if actual != row[2]:
                print("does not match: compiles %s %s (it %s)"
                      % (row[1], row[2], "does" if actual == "yes" else "does not"))
                mismatched += 1
            continue
        if row[0] in ("header", "parameters"):
            actual = declared.get((row[0], row[1]))
            if actual is None or actual[0] != row[2]:
                print("does not match: %s %s %s (%s)" % (row[0], row[1], row[2],
                      "not declared" if actual is None else
                      ("declared in " if row[0] == "header" else "its parameters are ")
                      + actual[0]))
                mismatched += 1
            continue
        unit = unit_of.get(row[1], 0)
        for text in assertion(*row):
            lines[unit].append(text)
            owner[unit][len(lines[unit])] = row
    failing = []
    for unit in range(len(split)):
        result = clang(include, ["-fsyntax-only", "-ferror-limit=0", "-w"],
                       "\n".join(lines[unit]) + "\n")
        found_failing = False
        for match in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", result.stderr, re.M):
            row = owner[unit].get(int(match.group(1)))
            if row is not None:
                found_failing = True
                if row not in failing:
                    failing.append(row)
                    print("does not match: %s (%s)" % (" ".join(f for f in row if f),
                                                       match.group(2)))
        if result.returncode != 0 and not found_failing:
            sys.stderr.write(result.stderr)
            print("the check of the headers under %s does not compile" % include)
            return 1
    mismatched += len(failing)
    # The other way: what the toolkit declares that the table does not.
    extra = 0
    named = {name for kind, name in listed if kind in KINDS}
    for key in sorted(declared, key=lambda k: (ORDER[k[0]], k[1])):
        if key[0] == "compiles" or key in listed:
            continue
        if key[0] in ("header", "parameters") and key[1] not in named:
            continue  # the declaration itself is reported, or ours
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
