//===- launch.h - One compiler command, read and redirected -----*- C++ -*-===//
//
// Contract: the pure half of `msrewrite --launch -- COMPILER ARGS...` (no
// files touched, no processes run). parseCompilerCommand reads a gcc- or
// clang-style command as a build system runs it, with clang's own option
// table: the compiler wrappers in front (ccache, sccache, distcc), the one
// C or C++ source it compiles, its object and its dependency file -- or why
// the command is not one compilation to instrument (a link, -E, several
// sources, assembly), in which case the launcher runs it as it is.
// mirroredCommand is the same command compiling a rewritten mirror of the
// project instead: the mirror's copy of the source, each include directory
// under the root preceded by its mirror, the ledger's flags, and
// -ffile-prefix-map so __FILE__ and debug information name the original
// paths. remapPaths turns the mirror's paths in the compiler's output and
// dependency file back into the originals, so the build system never sees
// the mirror.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_LAUNCH_H
#define MSLEDGER_REWRITER_LAUNCH_H

#include <string>
#include <vector>

namespace msledger {

struct CompilerCommand {
  std::vector<std::string> wrappers; // run first, in order: ccache, ...
  std::vector<std::string> command;  // the compiler and its arguments,
                                     // response files expanded
  std::string directory;             // where it runs (absolute)
  // Set when the command compiles exactly one C or C++ source:
  std::string skipReason;    // otherwise: why it is run as it is
  size_t sourceArgument = 0; // index of the source in `command`
  std::string source;        // absolute, normalised
  std::string output;        // the object (absolute), "" if the default
  std::string depfile;       // the dependency file (absolute), "" if none

  /// An option naming a path: -I, -iquote, -include (joined or separate).
  struct PathOption {
    size_t argument;      // index of the option in `command`
    bool joined;          // -Idir rather than -I dir
    std::string spelling; // "-I", "-iquote", "-include", ...
    std::string path;     // absolute, normalised
  };
  std::vector<PathOption> includeDirs;
  std::vector<PathOption> forcedIncludes;
};

/// Reads `argv` (wrappers, compiler, arguments) run in `directory`. False
/// with *error set only for response files that cannot be expanded (one that
/// does not exist stays an argument, as with gcc).
bool parseCompilerCommand(const std::vector<std::string> &argv,
                          const std::string &directory, CompilerCommand *out,
                          std::string *error);

/// The full command line (wrappers first) compiling the mirror's copy of the
/// source. `root` and `mirror` are absolute with a trailing '/'; the mirror
/// holds the project files at their root-relative paths; `extraFlags` (the
/// ledger's) are appended.
std::vector<std::string>
mirroredCommand(const CompilerCommand &compile, const std::string &root,
                const std::string &mirror,
                const std::vector<std::string> &extraFlags);

/// `text` with every path under `mirror` (trailing '/') named under `root`
/// instead. For a dependency file (`makeSyntax`), the replacement is escaped
/// as Make and Ninja read it.
std::string remapPaths(const std::string &text, const std::string &mirror,
                       const std::string &root, bool makeSyntax);

} // namespace msledger

#endif
