//===- launch.h - One compiler command, read and redirected -----*- C++ -*-===//
//
// Contract: `msrewrite --launch -- COMPILER ARGS...`, in two halves.
//
// The pure half (no files touched, no processes run): parseCompilerCommand
// reads a gcc- or clang-style command as a build system runs it, with clang's
// own option table: the compiler wrappers in front (ccache, sccache, distcc),
// the one C or C++ source it compiles, its object and its dependency file --
// or why the command is not one compilation to instrument (a link, -E,
// several sources, assembly), in which case the launcher runs it as it is.
// mirroredCommand is the same command compiling a rewritten mirror of the
// project instead: the mirror's copy of the source, each include directory
// under the root preceded by its mirror, the ledger's flags, and
// -ffile-prefix-map so __FILE__ and debug information name the original
// paths. remapPaths turns the mirror's paths in the compiler's output and
// dependency file back into the originals (the inverse of mirror.h's
// mirrored), so the build system never sees the mirror. isLink says whether
// a command run as it is links.
//
// The process half: runLaunched plans the source's rewrite (rewrite.h),
// writes the files it reads to a mirror private to this compilation
// (mirror.h), runs the mirrored command (runProgram), replays its output
// with the project's paths and remaps its dependency file. A command that is
// not one project source is run as it is, with the ledger's library added
// when it links; a source clang cannot parse is compiled as it is, and the
// compilation fails only if the compiler accepts what clang rejects. Its
// result is the compiler's exit status, or 1 with a message.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_LAUNCH_H
#define MSLEDGER_REWRITER_LAUNCH_H

#include "collect.h"

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

/// Whether a command run as it is links a program or library: it has inputs
/// and none of -c, -S, -E, -M, -MM, -fsyntax-only, -v, --version, --help,
/// -dumpversion, -dumpmachine or -print-*.
bool isLink(const CompilerCommand &command);

/// Runs `argv` (the program found on PATH if it names no directory) with its
/// standard output and error to the files `out` and `err`, or to ours when
/// they are empty; its exit status, or 1 with a message if it cannot run or
/// crashed.
int runProgram(const std::vector<std::string> &argv, const std::string &out,
               const std::string &err);

/// What the launcher needs beyond the command: msrewrite's settings.
struct LaunchSettings {
  std::string root;    // the project root, with a trailing '/'
  std::string keepDir; // --keep-dir: where mirrors stay ("": a private temp)
  std::string catalog; // the built-in catalog
  std::vector<std::string> catalogAdditions;           // --catalog files
  std::vector<std::string> extraArgsBefore, extraArgs; // for the parse
  ParseSettings parse;
  std::vector<std::string> compileFlags, linkFlags; // the ledger's
};

/// msrewrite --launch [options] -- ARGV...; the exit status to return.
int runLaunched(const std::vector<std::string> &argv,
                const LaunchSettings &settings);

} // namespace msledger

#endif
