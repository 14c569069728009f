#!/usr/bin/env python3
"""The simulated toolkit's public API, as its headers declare it.

  public_api.py stubs LIBRARY INCLUDE_DIR OUT.cpp
      A C++ file defining, for every function the headers under INCLUDE_DIR
      declare for LIBRARY (libascendcl.so, ...), a weak stand-in: the
      simulation's own definition, where it has one, replaces it at link
      time. A stand-in never returns what could pass for a result. Where the
      function's return value can say failure, the stand-in says once on
      stderr that its function is not simulated (unless
      MSSIM_QUIET_UNSIMULATED=1) and returns that failure:
      ACL_ERROR_API_NOT_SUPPORT for aclError, ACLNN_ERR_PARAM_INVALID
      (161002) for aclnnStatus, HCCL_E_NOT_SUPPORT for HcclResult,
      DRV_ERROR_NOT_SUPPORT for
      drvError_t, the module's HI_ERR_*_NOT_SUPPORT for hi_s32, NULL for
      pointers, the documented failure value of the few others that have one
      (FAILURE_VALUES). Where it cannot (numbers, enumerations, void), the
      stand-in stops the program (abort), naming the function -- but for a
      void function given a null first argument (a null handle, what a
      failed create leaves), which has nothing to act on and returns.
  public_api.py check TOOLKIT
      Every function the toolkit's headers declare is exported by the library
      a real application links for it, and no library exports an interface
      name (acl*, hi_mpi_*, hi_vdec_*, hal*, drv*) its headers do not declare;
      prints counts and each exception. Exit status 1 if there is one.
  public_api.py counts TOOLKIT
      A Markdown table: per library, the functions declared, simulated and
      stood in (by what the stand-ins do), and the stand-ins that stop.
  public_api.py counts --check|--update README TOOLKIT
      Whether the table between README's "public_api.py counts" markers is
      the toolkit's (exit status 1 and a diff if not); --update rewrites it.

Which library a header's functions are in, as in a real toolkit:
acl/ops/acl_dvpp.h and acl/dvpp/* in libacl_dvpp.so, acl/ops/acl_cblas.h in
libacl_cblas.so, acl/acl_op_compiler.h in libacl_op_compiler.so,
acl/acl_prof.h in libmsprofiler.so, acl/acl_tdt.h in libacl_tdt_channel.so,
acl/acl_tdt_queue.h in libacl_tdt_queue.so, acl/ops/acl_fv.h in
libacl_retr.so, the aclnn framework's aclnn/* in
libnnopbase.so, the operators' aclnnop/* in libopapi.so, HCCL's hccl/* in
libhccl.so, the driver's
header in libascend_hal.so, every other acl/ header in libascendcl.so. The
headers are read by clang (its JSON AST): whatever declares a function counts.
"""
import difflib
import glob
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from layout_toolkit import INTERFACE_PREFIXES  # noqa: E402

CLANG = os.environ.get("MSSIM_CLANG", "clang-19")


def library_of(relative):
    """The library of the header at `relative` (to the include directory)."""
    if relative.startswith("experiment/") or relative.startswith("driver/"):
        return "libascend_hal.so"
    if relative == "acl/ops/acl_dvpp.h" or relative.startswith("acl/dvpp/"):
        return "libacl_dvpp.so"
    if relative == "acl/ops/acl_cblas.h":
        return "libacl_cblas.so"
    if relative == "acl/acl_op_compiler.h":
        return "libacl_op_compiler.so"
    if relative == "acl/acl_prof.h":
        return "libmsprofiler.so"
    if relative == "acl/acl_tdt.h":
        return "libacl_tdt_channel.so"
    if relative == "acl/acl_tdt_queue.h":
        return "libacl_tdt_queue.so"
    if relative == "acl/ops/acl_fv.h":
        return "libacl_retr.so"
    if relative.startswith("aclnn/"):
        return "libnnopbase.so"
    if relative.startswith("aclnnop/"):
        return "libopapi.so"
    if relative.startswith("hccl/"):
        return "libhccl.so"
    return "libascendcl.so"


def headers(include):
    """(relative path, absolute path) of every header under `include`: one
    folder, or several joined by ':' (the sources' and the generated operator
    headers')."""
    found = []
    for root in include.split(os.pathsep):
        for path in sorted(glob.glob(os.path.join(root, "**", "*.h"), recursive=True)):
            found.append((os.path.relpath(path, root), os.path.realpath(path)))
    return found


def declared(header, include_dirs):
    """The functions declared in `header` itself (not in what it includes),
    as (name, return type, whether it is a pointer, [parameter types],
    whether the first parameter is a pointer, variadic), in order."""
    return declared_in([header], include_dirs)[header]


def declared_in(paths, include_dirs):
    """declared() of each header of `paths`, read in one parse: {path: [...]}.
    (Hundreds of operator headers, one clang each, took minutes.)"""
    # As C++: acl/ops/acl_dvpp.h, like the real one, is not C.
    command = [CLANG, "-x", "c++", "-std=c++17", "-fsyntax-only", "-Xclang",
               "-ast-dump=json", "-DENABLE_DVPP_INTERFACE"]
    for directory in include_dirs:
        command += ["-I", directory]
    source = "".join('#include "%s"\n' % path for path in paths)
    ast = json.loads(subprocess.run(command + ["-"], input=source, check=True,
                                    capture_output=True, text=True).stdout)
    wanted = set(paths)
    by_header = {path: [] for path in paths}
    functions, seen, typedefs = [], set(), {}
    current = [None]  # clang names a location's file only when it changes

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
        begin_file = current[0]
        note_file(span.get("end"))
        # A function the header defines (HCCL's static inline
        # HcclCommConfigInit) is no library's to define.
        defined = any(child.get("kind") == "CompoundStmt" for child in node.get("inner", []))
        if (top and node.get("kind") == "FunctionDecl" and not node.get("isImplicit")
                and not defined and begin_file and os.path.realpath(begin_file) in wanted
                and node["name"] not in seen):
            seen.add(node["name"])
            parameters = [child["type"]["qualType"] for child in node.get("inner", [])
                          if child.get("kind") == "ParmVarDecl"]
            whole = node["type"]["qualType"]
            returns = whole[:whole.index("(")].strip()
            functions.append((os.path.realpath(begin_file), node["name"], returns, parameters,
                              node.get("variadic", False)))
        if top and node.get("kind") == "TypedefDecl":
            typedefs[node["name"]] = node["type"].get("desugaredQualType",
                                                      node["type"]["qualType"])
        # Declarations inside extern "C" { ... } are at file scope too.
        inside = top and node.get("kind") == "LinkageSpecDecl"
        for child in node.get("inner", []):
            walk(child, inside)

    for node in ast.get("inner", []):
        walk(node, True)

    def is_pointer(spelled):
        """Whether `spelled` is a pointer (to data or to a function) once its
        typedefs are undone."""
        seen = set()
        spelled = spelled.strip()
        while spelled in typedefs and spelled not in seen:
            seen.add(spelled)
            spelled = typedefs[spelled].strip()
        return spelled.endswith("*") or spelled.endswith("*const") or "(*)" in spelled

    for path, name, returns, parameters, variadic in functions:
        by_header[path].append((name, returns, is_pointer(returns), parameters,
                                bool(parameters) and is_pointer(parameters[0]), variadic))
    return by_header


def include_dirs(include):
    dirs = []
    for root in include.split(os.pathsep):
        dirs += [root, os.path.join(root, "experiment", "ascend_hal")]
    return dirs


# hi_mpi's "not supported", by the module a function belongs to: the
# HI_ERR_<MODULE>_NOT_SUPPORT of the module's header.
HI_NOT_SUPPORTED = (("hi_mpi_vpc_", "HI_ERR_VPC_NOT_SUPPORT"),
                    ("hi_mpi_vdec_", "HI_ERR_VDEC_NOT_SUPPORT"),
                    ("hi_mpi_venc_", "HI_ERR_VENC_NOT_SUPPORT"),
                    ("hi_mpi_pngd_", "HI_ERR_PNGD_NOT_SUPPORT"),
                    ("hi_mpi_png_", "HI_ERR_PNGD_NOT_SUPPORT"),
                    ("hi_mpi_", "HI_ERR_SYS_NOT_SUPPORT"))
# Functions whose return value has a failure of its own that is not a status
# code: the value the API documents for failure.
FAILURE_VALUES = {
    "hi_mpi_vb_create_pool": "HI_VB_INVALID_POOLID",
    "hi_mpi_vb_get_block": "HI_VB_INVALID_HANDLE",
}


def failure(name, returns, pointer):
    """What the stand-in of `name` returns: the API's own "not supported" or
    failure value, as C source, or None where the return value has no way to
    say failure (a number, an enumeration, void): then the stand-in stops the
    program rather than hand back a value the caller would take for a result.
    `pointer`: the return type is a pointer once its typedefs are undone (NULL
    is how the ACL and hi_mpi functions that return pointers fail)."""
    if name in FAILURE_VALUES:
        return FAILURE_VALUES[name]
    if returns == "aclError":
        return "ACL_ERROR_API_NOT_SUPPORT"
    if returns == "drvError_t":
        return "DRV_ERROR_NOT_SUPPORT"
    if returns == "HcclResult":
        return "HCCL_E_NOT_SUPPORT"
    if returns == "aclnnStatus":
        # What an operator returns for what it does not support (the
        # framework's status codes are in no public header).
        return "161002"
    if returns == "hi_s32":
        for prefix, code in HI_NOT_SUPPORTED:
            if name.startswith(prefix):
                return code
    if pointer:
        return "NULL"
    return None


def stubs(library, include, out):
    lines = ["/* Generated by utils/simdevice/public_api.py: a weak stand-in for every",
             " * function of %s that the simulation does not define. C++, as the" % library,
             " * DVPP header is; each keeps the C linkage its header declares. */",
             "#ifndef ENABLE_DVPP_INTERFACE",
             "#define ENABLE_DVPP_INTERFACE",
             "#endif",
             "#include <stdio.h>",
             "#include <stdlib.h>",
             "#include <string.h>"]
    mine = [(relative, path) for relative, path in headers(include)
            if library_of(relative) == library]
    for relative, _ in mine:
        if relative.startswith("experiment/"):
            relative = relative[len("experiment/ascend_hal/"):]
        lines.append('#include "%s"' % relative)
    lines += ["",
              "/* A stand-in that can say failure: once per function, unless",
              " * MSSIM_QUIET_UNSIMULATED=1. */",
              "__attribute__((unused)) static void mssim_unsimulated(const char *name,",
              "                                                      const char *result,",
              "                                                      int *said) {",
              "  const char *quiet = getenv(\"MSSIM_QUIET_UNSIMULATED\");",
              "  if (__atomic_exchange_n(said, 1, __ATOMIC_RELAXED) ||",
              "      (quiet && strcmp(quiet, \"1\") == 0))",
              "    return;",
              "  fprintf(stderr, \"mssim: %s is not simulated: it does nothing and \"",
              "                  \"%s (utils/simdevice/README.md)\\n\", name, result);",
              "}",
              "",
              "/* A stand-in that cannot: any value it returned would be taken for a",
              " * result, so it stops the program, always saying why. */",
              "__attribute__((unused, noreturn)) static void mssim_cannot_fail(const char *name) {",
              "  fprintf(stderr, \"mssim: %s is not simulated, and it has no way to say \"",
              "                  \"so: stopping the program rather than making up a \"",
              "                  \"result (utils/simdevice/README.md)\\n\", name);",
              "  abort();",
              "}",
              ""]
    count = 0
    found = declared_in([path for _, path in mine], include_dirs(include))
    for _, path in mine:
        for name, returns, pointer, parameters, first_pointer, variadic in found[path]:
            arguments = ", ".join("__typeof__(%s) a%d" % (t, i) for i, t in enumerate(parameters))
            if variadic:
                arguments += ", ..."
            if not arguments:
                arguments = "void"
            result = failure(name, returns, pointer)
            lines += ["__attribute__((weak, visibility(\"default\"))) __typeof__(%s)" % returns,
                      "%s(%s) {" % (name, arguments)]
            lines += ["  (void)a%d;" % i for i in range(len(parameters))]
            if result is None and returns == "void" and first_pointer:
                # A void call on a null handle (what a failed create leaves)
                # has nothing to act on, here as in the real library.
                lines += ["  static int said;",
                          "  if (!a0) {",
                          "    mssim_unsimulated(\"%s\", \"returns: its handle is null\", "
                          "&said);" % name,
                          "    return;",
                          "  }",
                          "  mssim_cannot_fail(\"%s\");" % name]
            elif result is None:
                lines.append("  mssim_cannot_fail(\"%s\");" % name)
            else:
                lines += ["  static int said;",
                          "  mssim_unsimulated(\"%s\", \"returns %s\", &said);" % (name, result),
                          "  return (__typeof__(%s))%s;" % (returns, result)]
            lines += ["}", ""]
            count += 1
    text = "\n".join(lines) + "\n"
    if not os.path.exists(out) or open(out).read() != text:
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    return count


def exported(toolkit, library):
    """{name: nm type} of what `library` of `toolkit` exports (T: defined,
    W: weak, a stand-in)."""
    path = os.path.join(toolkit, "lib64", library)
    if not os.path.exists(path):
        return {}
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1]: line.split()[-2] for line in out.splitlines() if line.strip()}


# The names of the public interface: what no library may export unless a
# header declares it for that library.
API_NAME = re.compile(r"^(%s)[A-Za-z0-9_]*$" % "|".join(INTERFACE_PREFIXES))


def interface(toolkit):
    """{library: {name: (return type, pointer)}} of what the toolkit's
    headers declare."""
    include = os.path.join(toolkit, "include")
    paths = {}
    for relative, path in headers(include):
        paths.setdefault(library_of(relative), []).append(path)
    by_library = {}
    for library, library_paths in paths.items():
        # One parse per library: its headers compile together (its stand-ins
        # include them all).
        found = declared_in(library_paths, include_dirs(include))
        functions = by_library.setdefault(library, {})
        for path in library_paths:
            for name, returns, pointer, _, _, _ in found[path]:
                functions[name] = (returns, pointer)
    return by_library


def check(toolkit):
    toolkit = os.path.realpath(toolkit)
    problems = 0
    by_library = interface(toolkit)
    for library in sorted(by_library):
        names = set(by_library[library])
        symbols = exported(toolkit, library)
        absent = sorted(names - set(symbols))
        undeclared = sorted(n for n in symbols if API_NAME.match(n) and n not in names)
        print("%s: %d function(s) declared, %d not exported, %d exported but not declared"
              % (library, len(names), len(absent), len(undeclared)))
        for name in absent:
            print("  declared but not exported: " + name)
        for name in undeclared:
            print("  exported but not declared: " + name)
        problems += len(absent) + len(undeclared)
    return 1 if problems else 0


def counts(toolkit):
    """Per library: functions declared, simulated (defined by the
    simulation) and stood in (the weak stand-ins), by what the stand-ins do;
    a Markdown table, and the stand-ins that stop the program by name."""
    toolkit = os.path.realpath(toolkit)
    rows, stopping = [], []
    totals = [0, 0, 0, 0, 0]
    for library, functions in sorted(interface(toolkit).items()):
        symbols = exported(toolkit, library)
        simulated = code = null = stop = 0
        for name, (returns, pointer) in sorted(functions.items()):
            if name not in symbols:
                sys.exit("public_api.py: %s declares %s but does not export it "
                         "(public_api.py check)" % (library, name))
            if symbols.get(name) != "W":
                simulated += 1
                continue
            result = failure(name, returns, pointer)
            if result is None:
                stop += 1
                stopping.append(name)
            elif result == "NULL":
                null += 1
            else:
                code += 1
        row = [len(functions), simulated, code, null, stop]
        totals = [t + n for t, n in zip(totals, row)]
        rows.append("| `%s` | %s |" % (library, " | ".join(str(n) for n in row)))
    lines = ["| library | declared | simulated | stand-ins returning a failure code "
             "| stand-ins returning NULL | stand-ins stopping the program |",
             "|---|---|---|---|---|---|"] + rows
    lines.append("| all | %s |" % " | ".join(str(n) for n in totals))
    lines += ["", "The stand-ins that stop the program (their return value has no "
              "way to say failure): " + ", ".join("`%s`" % n for n in sorted(stopping)) + "."]
    return "\n".join(lines) + "\n"


BEGIN = "<!-- public_api.py counts: generated, begin -->\n"
END = "<!-- public_api.py counts: generated, end -->\n"


def counts_in(readme, toolkit, update):
    """Checks (or, with `update`, rewrites) the counts between the markers of
    `readme`."""
    text = open(readme).read()
    if BEGIN not in text or END not in text:
        sys.stderr.write("public_api.py: %s has no counts markers\n" % readme)
        return 2
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    new = counts(toolkit)
    if old == new:
        print("%s: the counts are those of %s" % (readme, toolkit))
        return 0
    if update:
        with open(readme + ".tmp", "w") as f:
            f.write(head + BEGIN + new + END + tail)
        os.replace(readme + ".tmp", readme)
        print("%s: counts updated" % readme)
        return 0
    print("%s: the counts are not those of %s (public_api.py counts --update):" % (readme, toolkit))
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                               "README", "toolkit"))
    return 1


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "stubs":
        stubs(sys.argv[2], os.pathsep.join(os.path.realpath(root)
                                       for root in sys.argv[3].split(os.pathsep)),
          sys.argv[4])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        return check(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == "counts":
        sys.stdout.write(counts(sys.argv[2]))
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "counts" and sys.argv[2] in ("--check", "--update"):
        return counts_in(sys.argv[3], sys.argv[4], sys.argv[2] == "--update")
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
