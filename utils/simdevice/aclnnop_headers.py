#!/usr/bin/env python3
"""The simulated toolkit's operator headers, made from a table of facts.

  aclnnop_headers.py TABLE OUT_DIR
      Writes OUT_DIR/aclnnop/<header> for every header the table names
      (`header` lines): each declares, in the table's order, the functions,
      enumerations and integer macros the table says that header of a real
      toolkit declares, with the real types and parameter names, as
      C++ (like the real ones, they include aclnn/aclnn_base.h and
      aclnn_util.h beside them, whose ACLNN_API they export with; it is
      written too). Headers no longer in
      the table are removed; unchanged ones are left alone, so that a build
      only recompiles what changed.

TABLE is a table of `conformance.py table --set aclnnop` (reference/
cann-*-aclnnop.tsv): the operators of a release, read from the real
headers -- or several, joined by ':' (the hand-written headers' table and
cann-*-aclnnop-generated.tsv, the headers a real build generates). The declarations are written from those facts, not copied: each
header is the table's lines for it, formatted here.
"""
import collections
import os
import re
import sys


# What the operator headers include beside them for ACLNN_API, as the real
# toolkit's aclnnop/aclnn_util.h.
UTIL = "aclnn_util.h"
UTIL_TEXT = """/* Simulated CANN toolkit: aclnnop/aclnn_util.h, what the operator headers
 * include for their exports (written by utils/simdevice/aclnnop_headers.py). */
#ifndef OPBASE_COMMON_ACLNN_UTIL_H
#define OPBASE_COMMON_ACLNN_UTIL_H

#define ACLNN_API __attribute__((visibility("default")))

#endif
"""


def split_parameters(function_type):
    """The parameter types of a function type "R (T1, T2)", and R."""
    open_at = function_type.index("(")
    returns = function_type[:open_at].strip()
    inner = function_type[open_at + 1:function_type.rindex(")")].strip()
    if inner in ("", "void"):
        return returns, []
    parts, depth, current = [], 0, ""
    for c in inner:
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    parts.append(current.strip())
    return returns, parts


def declarator(type_text, name):
    """`type name`, as C writes it: "const aclTensor *self", "int64_t dim"."""
    if name in ("", "(unnamed)"):
        return type_text
    return type_text + ("" if type_text.endswith("*") else " ") + name


def lines_of(tables):
    for table in tables.split(os.pathsep):
        for line in open(table):
            yield line


def read(table):
    functions, headers, parameters = {}, {}, {}
    enumerators = collections.OrderedDict()  # name -> (value, enumeration)
    macros = collections.OrderedDict()
    for line in lines_of(table):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        kind = fields[0]
        if kind == "function":
            functions[fields[1]] = fields[2]
        elif kind == "header":
            headers[fields[1]] = fields[2].split(",")
        elif kind == "parameters":
            parameters[fields[1]] = fields[2].split(",")
        elif kind == "enumerator":
            enumerators[fields[1]] = (fields[2], fields[3])
        elif kind == "macro":
            macros[fields[1]] = fields[2]
    return functions, headers, parameters, enumerators, macros


def signature(name, function_type, names):
    returns, types = split_parameters(function_type)
    if names == ["(none)"]:
        names = []
    if len(names) != len(types):
        names = ["(unnamed)"] * len(types)
    params = ", ".join(declarator(t, n) for t, n in zip(types, names))
    return returns, params


def guard(header):
    return "MSSIM_ACLNNOP_" + re.sub(r"[^A-Za-z0-9]", "_", header).upper()


def generate(table, out_dir):
    functions, headers, parameters, enumerators, macros = read(table)
    source = " and ".join(os.path.basename(t) for t in table.split(os.pathsep))
    by_header = collections.defaultdict(list)
    for name, files in headers.items():
        for header in files:
            by_header[header].append(name)
    folder = os.path.join(out_dir, "aclnnop")
    os.makedirs(folder, exist_ok=True)
    written = set()
    texts = {UTIL: UTIL_TEXT}
    for header, names in sorted(by_header.items()):
        lines = ["/* Simulated CANN toolkit: aclnnop/%s, made by" % header,
                 " * utils/simdevice/aclnnop_headers.py from the facts of",
                 " * utils/simdevice/reference/%s (what the real header of" % source,
                 " * that name declares). Generated at configure time: do not edit. */",
                 "#ifndef %s" % guard(header), "#define %s" % guard(header), "",
                 '#include "aclnn/aclnn_base.h"', '#include "aclnn_util.h"', ""]
        # A macro several headers define, each defines (the same value: a
        # repeated identical definition is allowed), as the real ones do.
        for name in names:
            if name in macros:
                lines.append("#define %s %s" % (name, macros[name]))
        enumerations = collections.OrderedDict()
        for name in names:
            if name in enumerators:
                value, enumeration = enumerators[name]
                enumerations.setdefault(enumeration, []).append((int(value), name))
        for enumeration, members in enumerations.items():
            body = ", ".join("%s = %d" % (n, v) for v, n in sorted(members))
            lines.append("enum %s { %s };" % (enumeration, body))
        lines += ["", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
        for name in names:
            if name not in functions:
                continue
            returns, params = signature(name, functions[name], parameters.get(name, []))
            lines.append("ACLNN_API %s %s(%s);" % (returns, name, params))
        lines += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif", ""]
        texts[header] = "\n".join(lines)
    for header, text in texts.items():
        path = os.path.join(folder, header)
        written.add(header)
        if os.path.exists(path) and open(path).read() == text:
            continue
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    for stale in os.listdir(folder):
        if stale.endswith(".h") and stale not in written:
            os.remove(os.path.join(folder, stale))


def main():
    if len(sys.argv) == 3:
        generate(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
