//===- catalog_gen.cpp - Generates msledger's tables and interposers -----===//
//
// msledger-catalog-gen CATALOG TABLE_INC INTERPOSERS_CPP TRACK_H [OPERATORS]
//
// Reads the catalog and writes, at build time,
//   TABLE_INC        X-macro rows of namespaces, families and functions that
//                    the ledger's family table is built from, and of the
//                    interposed functions' declarations (lib/cann_api.h),
//   INTERPOSERS_CPP  one interposer per catalog function, with the function's
//                    own signature, that calls the real function and records
//                    the event, and
//   TRACK_H          msledger/track.h: one tracking wrapper per function,
//                    msledger_NAME(site, args...), that msrewrite calls in
//                    place of NAME(args...).
// With OPERATORS (gen/operator_functions.py's list of the functions a
// toolkit's operator headers declare), INTERPOSERS_CPP also interposes each
// of them that the catalog's operator rule covers: every operator's phase 1
// and phase 2 of the toolkit msledger is built against. (msrewrite covers
// any toolkit's, by the rule alone.)
// so that an API is added to msledger by adding it to the catalog. The
// three files are written beside their places first and renamed over them
// only when all three are written: on any problem none is replaced, the
// message names it and the exit status is 1.
//
//===----------------------------------------------------------------------===//
#include "catalog.h"
#include "text_file.h"
#include "wrappers.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

using namespace msledger;

namespace {

const char *roleEnum(Role role) {
  switch (role) {
  case Role::Alloc:
    return "Role::Alloc";
  case Role::Free:
    return "Role::Free";
  case Role::Acquire:
    return "Role::Acquire";
  case Role::Release:
    return "Role::Release";
  case Role::Access:
    return "Role::Access";
  case Role::Retain:
    return "Role::Retain";
  case Role::Consume:
    return "Role::Consume";
  }
  return "";
}

std::string table(const Catalog &catalog, const std::string &source) {
  std::ostringstream out;
  static const char *const kinds[] = {
      "MSLEDGER_NAMESPACE", "MSLEDGER_FAMILY",      "MSLEDGER_IMPLICIT_RELEASE",
      "MSLEDGER_FUNCTION",  "MSLEDGER_DECLARATION", "MSLEDGER_OPERATOR_RULE"};
  out << "// Generated from " << source
      << " by msledger-catalog-gen; do not edit.\n"
      << "// Define the entries you read before including this file; the\n"
      << "// others read as nothing, and all are undefined at its end.\n";
  for (const char *kind : kinds)
    out << "#ifndef " << kind << "\n#define " << kind << "(...)\n#endif\n";
  out << "// MSLEDGER_NAMESPACE(index, name)\n";
  for (size_t i = 0; i < catalog.nameSpaces().size(); ++i)
    out << "MSLEDGER_NAMESPACE(" << i << ", \"" << catalog.nameSpaces()[i]
        << "\")\n";
  out << "// MSLEDGER_FAMILY(index, name, display, level, kind, space, "
         "namespace, refcounted, "
         "handleIsPointer, hasHandle, perDevice, operatorHandles, "
         "handleIsKey, releasedAs)\n";
  for (size_t i = 0; i < catalog.families().size(); ++i) {
    const Family &f = catalog.families()[i];
    out << "MSLEDGER_FAMILY(" << i << ", \"" << f.name << "\", \"" << f.display
        << "\", "
        << (f.level == Level::Device ? "Level::Device" : "Level::Cann") << ", "
        << (f.kind == Kind::Memory ? "Kind::Memory" : "Kind::Resource") << ", "
        << spaceEnumerator(f.memorySpace()) << ", " << f.nameSpaceIndex << ", "
        << (f.refcounted ? "true" : "false") << ", "
        << (f.handleIsPointer ? "true" : "false") << ", "
        << (f.hasHandle ? "true" : "false") << ", "
        << (f.perDevice() ? "true" : "false") << ", "
        << (f.operatorHandles ? "true" : "false") << ", "
        << (f.handleIsKey ? "true" : "false") << ", " << f.releasedAsIndex
        << ")\n";
  }
  out << "// MSLEDGER_IMPLICIT_RELEASE(family, function, perDevice)\n";
  for (size_t i = 0; i < catalog.families().size(); ++i)
    for (const ImplicitRelease &release :
         catalog.families()[i].implicitReleases)
      out << "MSLEDGER_IMPLICIT_RELEASE(" << i << ", " << release.functionIndex
          << ", " << (release.perDevice ? "true" : "false") << ")\n";
  out << "// MSLEDGER_FUNCTION(index, name, role, family, deviceArgument, "
         "recordedByCallee, nullAccepted)\n";
  for (size_t i = 0; i < catalog.functions().size(); ++i) {
    const Function &f = catalog.functions()[i];
    out << "MSLEDGER_FUNCTION(" << i << ", \"" << f.name << "\", "
        << roleEnum(f.role) << ", " << f.family << ", "
        << (f.deviceParam >= 0 ? "true" : "false") << ", "
        << (f.recordedByCallee ? "true" : "false") << ", "
        << (f.nullAccepted ? "true" : "false") << ")\n";
  }
  if (catalog.operators().present)
    out << "// MSLEDGER_OPERATOR_RULE(prepare, run, prepareSuffix): the "
           "operator rule's entries\n"
        << "MSLEDGER_OPERATOR_RULE(" << catalog.operators().prepare << ", "
        << catalog.operators().run << ", \""
        << catalog.operators().prepareSuffix << "\")\n";
  // The interposed functions' declarations, from their signatures
  // (cann_api.h): those recorded by their callee are inline in the
  // application, never interposed.
  out << "// MSLEDGER_DECLARATION(name, result, (parameters))\n";
  for (const Function &f : catalog.functions()) {
    if (f.recordedByCallee || f.operatorPart != OperatorPart::None)
      continue;
    out << "MSLEDGER_DECLARATION(" << f.name << ", " << f.returnType << ", (";
    for (size_t p = 0; p < f.params.size(); ++p)
      out << (p ? ", " : "") << f.params[p].type << " " << f.params[p].name;
    out << "))\n";
  }
  for (const char *kind : kinds)
    out << "#undef " << kind << "\n";
  return out.str();
}

/// What an interposer returns when the process has no real function: the
/// API family's own "not supported" code, a null handle, or (for a return
/// type of no known family) the first value that is not success.
std::string unsupported(const Function &f) {
  if (f.returnType == "void")
    return "";
  if (f.success == SuccessRule::NonNull)
    return " nullptr";
  if (f.success == SuccessRule::Differs) // the function's own failure value
    return " static_cast<" + f.returnType + ">(" +
           std::to_string(f.successValue) + ")";
  if (f.success == SuccessRule::AtLeast) // below the least success
    return " static_cast<" + f.returnType + ">(" +
           std::to_string(f.successValue - 1) + ")";
  if (f.returnType == "aclError")
    return " ACL_ERROR_API_NOT_SUPPORT";
  if (f.returnType == "drvError_t")
    return " DRV_ERROR_NOT_SUPPORT";
  if (f.returnType == "HcclResult")
    return " HCCL_E_NOT_SUPPORT";
  return " static_cast<" + f.returnType + ">(" +
         std::to_string(f.successValue == 0 ? -1 : 0) + ")";
}

std::string interposers(const Catalog &catalog, const std::string &source) {
  std::ostringstream out;
  out << "// Generated from " << source
      << " by msledger-catalog-gen; do not edit.\n"
      << "// One interposer per catalog function: call the real function (the "
         "next\n"
      << "// definition after libmsledger), then record the event if it "
         "succeeded.\n";
  // The runtime's own declarations, made from the catalog: no toolkit's
  // headers (the catalog's "headers" name those that declare the same).
  out << "#include \"cann_api.h\"\n"
      << "#include \"interpose.h\"\n\n";
  for (size_t i = 0; i < catalog.functions().size(); ++i) {
    const Function &f = catalog.functions()[i];
    if (f.recordedByCallee)
      continue; // inline in the application (mstx): nothing to interpose
    if (f.operatorPart != OperatorPart::None)
      continue; // the operator rule's: operatorInterposers()
    std::string types, names;
    std::vector<std::string> args;
    for (size_t p = 0; p < f.params.size(); ++p) {
      types += (p ? ", " : "") + f.params[p].type;
      names += (p ? ", " : "") + f.params[p].name;
      args.push_back(f.params[p].name);
    }
    bool isVoid = f.returnType == "void";
    std::string call =
        isVoid ? "  real(" + names + ");\n"
               : "  " + f.returnType + " result = real(" + names + ");\n";
    out << "extern \"C\" MSLEDGER_INTERPOSER " << f.signature() << " {\n"
        << "  using Real = " << f.returnType << " (*)(" << types << ");\n"
        << "  static Real real = "
           "reinterpret_cast<Real>(msledger::resolveNext(\""
        << f.name << "\"));\n"
        << "  if (!real)\n"
        << "    return" << unsupported(f) << ";\n"
        << "  msledger::CallScope scope(" << i << ", msledger::Level::"
        << (catalog.families()[f.family].level == Level::Device ? "Device"
                                                                : "Cann")
        << ");\n";
    std::string handle = handleExpression(f, args, "result");
    if (f.role == Role::Access) {
      // Checked before the call, which may fail on (or, on a device, not
      // notice) what it is about to touch.
      out << "  if (scope.tracking() && " << accessCondition(f, args) << ")\n"
          << "    scope.accessed({" << accessArguments(f, args) << "});\n"
          << call;
    } else if (f.role == Role::Retain) {
      out << call << "  if (scope.tracking() && "
          << successCondition(f, "result") << ")\n"
          << "    scope.retained(" << handle << ");\n";
    } else if (isAcquiring(f.role)) {
      out << call;
      // The device the memory is on, for this record and the ACL call's.
      std::string device;
      if (f.memoryDeviceParam >= 0) {
        const std::string &name = f.params[f.memoryDeviceParam].name;
        device = f.memoryDeviceMember.empty()
                     ? "static_cast<int32_t>(" + name + ")"
                     : name + " ? static_cast<int32_t>(" + name + "->" +
                           f.memoryDeviceMember + ") : -1";
      } else if (f.spaceFlagParam >= 0) {
        device = "msledger::deviceFromDriverFlag(" +
                 f.params[f.spaceFlagParam].name + ")";
      }
      if (!device.empty())
        out << "  if (" << successCondition(f, "result") << ")\n"
            << "    scope.allocatedOn(" << device << ");\n";
      if (f.handleCountParam >= 0) {
        // An array of handles, each acquired.
        const std::string &array = f.params[f.handleParam].name;
        out << "  if (scope.tracking() && " << successCondition(f, "result")
            << " && " << array << ")\n"
            << "    for (uint64_t i = 0; i < (uint64_t)"
            << f.params[f.handleCountParam].name << "; ++i)\n"
            << "      scope.acquired((uint64_t)(uintptr_t)" << array << "[i], "
            << sizeExpression(f, args) << ", static_cast<msledger::Space>("
            << spaceExpression(catalog, f, args) << "));\n";
      } else {
        out << "  if (scope.tracking() && " << successCondition(f, "result")
            << ")\n"
            << "    scope.acquired(" << handle << ", "
            << sizeExpression(f, args) << ", static_cast<msledger::Space>("
            << spaceExpression(catalog, f, args) << "));\n";
      }
      if (f.ownsParam >= 0) {
        // What the new handle takes over is released by the call.
        const std::string &array = f.params[f.ownsParam].name;
        out << "  if (scope.tracking() && " << successCondition(f, "result")
            << " && " << array << ")\n"
            << "    for (uint64_t i = 0; i < (uint64_t)"
            << f.params[f.ownsCountParam].name << "; ++i)\n"
            << "      if (" << array << "[i])\n"
            << "        scope.owned(" << f.ownsRelease
            << ", (uint64_t)(uintptr_t)" << array << "[i]);\n";
      }
    } else {
      // Releases are looked at whether or not they succeed: a failed free of
      // an unknown pointer is an illegal free all the same. The record is
      // taken before the real call (see RecordTable::take).
      std::string nullCheck =
          nullIsNoRelease(catalog, f)
              ? " && " + f.params[f.handleParam].name + " != nullptr"
              : "";
      out << "  bool releasing = scope.tracking()" << nullCheck << ";\n"
          << "  if (releasing)\n"
          << "    scope.releasing(" << handle << ");\n"
          << call << "  if (releasing)\n"
          << "    scope.released(" << successCondition(f, "result") << ");\n";
    }
    if (!isVoid)
      out << "  return result;\n";
    out << "}\n\n";
  }
  return out.str();
}

/// Whether an operator function's parameter of type `type` (as its header
/// spells it) can be declared from cann_types.h: the framework's handles,
/// the enums and typedefs it declares, and C's own types, const or pointed
/// to.
bool knownOperatorType(const std::string &type) {
  static const char *const kKnown[] = {
      "aclTensor",    "aclScalar",     "aclIntArray",   "aclFloatArray",
      "aclBoolArray", "aclTensorList", "aclScalarList", "aclOpExecutor",
      "aclDataType",  "aclFormat",     "aclrtStream",   "aclnnStatus",
      "void",         "bool",          "char",          "int",
      "float",        "double",        "int8_t",        "int16_t",
      "int32_t",      "int64_t",       "uint8_t",       "uint16_t",
      "uint32_t",     "uint64_t",      "size_t"};
  std::string base;
  std::stringstream words(type);
  for (std::string word; words >> word;) {
    while (!word.empty() && word.back() == '*')
      word.pop_back();
    while (!word.empty() && word.front() == '*')
      word.erase(0, 1);
    if (word.empty() || word == "const")
      continue;
    if (!base.empty())
      return false; // "unsigned int", "struct X": not in the list
    base = word;
  }
  for (const char *known : kKnown)
    if (base == known)
      return true;
  return false;
}

/// Interposers of the operator functions listed in `path` (one per line:
/// name, return type, then each parameter's type and name, tab-separated)
/// that the operator rule covers. False with *error set if it cannot be read.
bool operatorInterposers(const Catalog &catalog, const std::string &path,
                         std::string *out, std::string *error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  const OperatorRule &rule = catalog.operators();
  std::ostringstream text;
  text << "\n// The operator rule's functions of the toolkit's headers ("
       << path << "): each operator's phase 1 and phase 2.\n";
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');)
      fields.push_back(field);
    if (line.empty() || line.back() == '\t')
      fields.push_back(""); // an unnamed last parameter
    if (fields.size() < 2 || fields.size() % 2 != 0 || !rule.present)
      continue;
    std::vector<std::string> types;
    for (size_t i = 2; i < fields.size(); i += 2)
      types.push_back(fields[i]);
    OperatorPart part = rule.partOf(fields[0], types);
    if (part == OperatorPart::None)
      continue;
    const std::string &name = fields[0], &returns = fields[1];
    std::string params, args;
    for (size_t i = 0; i < types.size(); ++i) {
      std::string arg = "a" + std::to_string(i);
      const std::string &type = types[i];
      params += (i ? ", " : "") + type +
                (type.empty() || type.back() == '*' ? "" : " ") + arg;
      args += (i ? ", " : "") + arg;
    }
    std::string typeList;
    for (size_t i = 0; i < types.size(); ++i)
      typeList += (i ? ", " : "") + types[i];
    std::string unknown;
    for (const std::string &type : types)
      if (!knownOperatorType(type))
        unknown = type;
    if (returns != "aclnnStatus")
      unknown = returns;
    if (!unknown.empty()) {
      // Interposed code compiles from msledger's own declarations
      // (cann_types.h): a type it does not know is left to msrewrite.
      text << "// " << name << ": not interposed, it names " << unknown
           << "\n\n";
      continue;
    }
    unsigned index = part == OperatorPart::Prepare ? rule.prepare : rule.run;
    text << "extern \"C\" MSLEDGER_INTERPOSER " << returns << " " << name << "("
         << params << ") {\n"
         << "  static const msledger_site own = {nullptr, 0, 0, 0, \"" << name
         << "\", nullptr};\n"
         << "  using Real = " << returns << " (*)(" << typeList << ");\n"
         << "  static Real real = "
            "reinterpret_cast<Real>(msledger::resolveNext(\""
         << name << "\"));\n"
         << "  if (!real)\n"
         << "    return static_cast<" << returns
         << ">(161002); // ACLNN_ERR_PARAM_INVALID\n"
         << "  msledger::CallScope scope(" << index
         << ", msledger::Level::Cann);\n";
    if (part == OperatorPart::Prepare) {
      std::string executor = "a" + std::to_string(types.size() - 1);
      std::string workspace = "a" + std::to_string(types.size() - 2);
      // Whether or not the CANN level is tracked: the workspace it names
      // may be the device level's.
      text << "  " << returns << " result = real(" << args << ");\n"
           << "  if (scope.outermostAndChecking() && result == 0)\n"
           << "    scope.prepared(&own, " << executor
           << " ? (uint64_t)(uintptr_t)*" << executor << " : 0, " << workspace
           << " ? *" << workspace << " : 0);\n";
    } else {
      // Consumed whatever the outcome: recorded before the call.
      text << "  if (scope.tracking() && a2)\n"
           << "    scope.consuming(&own, (uint64_t)(uintptr_t)a2);\n"
           << "  " << returns << " result = real(" << args << ");\n";
    }
    text << "  return result;\n}\n\n";
  }
  *out = text.str();
  return true;
}

// The C library's feature-test macros, and those of its own that
// <features.h> defines from them (glibc's, musl's), with its guard: see
// track() for why.
const char *const kFeatureMacros[] = {"_FEATURES_H",
                                      "_DEFAULT_SOURCE",
                                      "_BSD_SOURCE",
                                      "_SVID_SOURCE",
                                      "_ISOC95_SOURCE",
                                      "_ISOC99_SOURCE",
                                      "_ISOC11_SOURCE",
                                      "_ISOC2X_SOURCE",
                                      "_POSIX_SOURCE",
                                      "_POSIX_C_SOURCE",
                                      "_XOPEN_SOURCE",
                                      "_XOPEN_SOURCE_EXTENDED",
                                      "_LARGEFILE_SOURCE",
                                      "_LARGEFILE64_SOURCE",
                                      "_ATFILE_SOURCE",
                                      "_DYNAMIC_STACK_SIZE_SOURCE",
                                      "__USE_POSIX_IMPLICITLY",
                                      "__USE_EXTERN_INLINES"};

std::string macroMark(const std::string &macro) {
  return "MSLEDGER_UNSET" + (macro[1] == '_' ? macro.substr(1) : macro) + "_";
}

std::string track(const Catalog &catalog, const std::string &source) {
  std::ostringstream out;
  out << "/* Generated from " << source
      << " by msledger-catalog-gen; do not edit.\n"
      << " *\n"
      << " * msledger/track.h: the tracking wrappers msrewrite puts in place "
         "of the\n"
      << " * catalog's calls (see rewriter/catalog/wrappers.h). Usable from C "
         "and "
         "C++;\n"
      << " * rewritten code gets it with -include (msrewrite "
         "--print-build-flags).\n"
      << " * It includes no toolkit header, so it compiles with any "
         "release's\n"
      << " * headers, or none. */\n"
      << "#ifndef MSLEDGER_TRACK_H\n#define MSLEDGER_TRACK_H\n\n";
  // Read with -include, this header comes ahead of the file's own
  // `#define _GNU_SOURCE` (or _POSIX_C_SOURCE, ...), and the headers it
  // includes read the C library's <features.h>, which settles what the C
  // library declares from the macros defined at that moment -- and defines
  // some itself, so the file's own definition can even be a redefinition.
  // What the headers here include (<stdint.h>, <stddef.h>, <stdbool.h>)
  // declares nothing those macros change; so <features.h> and what it
  // defined are undone at the end, and the file's first C library header
  // reads it again, under the file's macros.
  out << "/* Feature-test macros: see the end of this header. */\n";
  for (const char *macro : kFeatureMacros)
    out << "#ifndef " << macro << "\n#define " << macroMark(macro)
        << "\n#endif\n";
  out << "\n#include \"msledger/msledger.h\"\n\n#include <stdint.h>\n\n"
      << wrapperHelpers()
      << "/* One macro per catalog function. Each names its API and the API's "
         "types\n"
      << " * only where msrewrite put it, in place of a call of that API: "
         "nothing\n"
      << " * here needs a toolkit header, or an API that the file's headers "
         "do not\n"
      << " * declare. */\n";
  for (size_t i = 0; i < catalog.functions().size(); ++i)
    out << trackingMacro(catalog, i);
  out << "\n/* Read with -include, this header came ahead of the file's own\n"
         " * feature-test macros (_GNU_SOURCE, _POSIX_C_SOURCE, ...), but what "
         "it\n"
         " * includes read the C library's <features.h>: undo that, so that "
         "the\n"
         " * file's first C library header reads it again, under the file's "
         "macros. */\n";
  for (const char *macro : kFeatureMacros)
    out << "#ifdef " << macroMark(macro) << "\n#undef " << macro << "\n#undef "
        << macroMark(macro) << "\n#endif\n";
  out << "\n#endif\n";
  return out.str();
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: msledger-catalog-gen CATALOG TABLE_INC "
                    "INTERPOSERS_CPP TRACK_H [OPERATORS]\n");
    return 2;
  }
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(argv[1], &error);
  if (!catalog) {
    fprintf(stderr, "msledger-catalog-gen: %s\n", error.c_str());
    return 1;
  }
  std::string source = argv[1];
  size_t slash = source.rfind("/rewriter/");
  if (slash != std::string::npos)
    source = source.substr(slash + 1);
  std::string operators;
  if (argc == 6 &&
      !operatorInterposers(*catalog, argv[5], &operators, &error)) {
    fprintf(stderr, "msledger-catalog-gen: %s\n", error.c_str());
    return 1;
  }
  const std::pair<std::string, std::string> outputs[] = {
      {argv[2], table(*catalog, source)},
      {argv[3], interposers(*catalog, source) + operators},
      {argv[4], track(*catalog, source)}};
  bool written = true;
  for (const auto &[path, text] : outputs)
    written = written && writeTextFileAtomically(path + ".new", text, &error);
  for (const auto &[path, text] : outputs) {
    std::string staged = path + ".new";
    if (written && rename(staged.c_str(), path.c_str()) != 0) {
      error = "cannot replace " + path + ": " + strerror(errno);
      written = false;
    }
    remove(staged.c_str()); // what was not renamed
  }
  if (!written)
    fprintf(stderr, "msledger-catalog-gen: %s\n", error.c_str());
  return written ? 0 : 1;
}
