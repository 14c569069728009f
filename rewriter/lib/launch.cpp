//===- launch.cpp - One compiler command, read and redirected ------------===//
#include "launch.h"

#include "compile_db.h"
#include "fnv1a.h"
#include "mirror.h"
#include "paths.h"
#include "rewrite.h"
#include "text_file.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"

#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace msledger {

namespace options = clang::driver::options;
using namespace clang;
using clang::tooling::CompileCommand;

namespace {

bool isCompilerWrapper(const std::string &program) {
  static const std::set<std::string> wrappers = {"ccache", "sccache", "distcc",
                                                 "icecc", "buildcache"};
  return wrappers.count(std::string(llvm::sys::path::filename(program))) != 0;
}

/// Whether a source of this name, or this -x language, is C or C++.
bool isCOrCxx(const std::string &path, const std::string &language) {
  if (!language.empty())
    return language == "c" || language == "c++";
  static const std::set<std::string> extensions = {
      ".c", ".cc", ".cp", ".cpp", ".cxx", ".c++", ".C", ".CPP"};
  return extensions.count(std::string(llvm::sys::path::extension(path))) != 0;
}

std::string absoluteIn(const std::string &directory, llvm::StringRef path) {
  llvm::SmallString<256> full(path);
  if (llvm::sys::path::is_relative(full)) {
    full = directory;
    llvm::sys::path::append(full, path);
  }
  return normalisePath(std::string(full.str()));
}

} // namespace

bool parseCompilerCommand(const std::vector<std::string> &argv,
                          const std::string &directory, CompilerCommand *out,
                          std::string *error) {
  *out = CompilerCommand();
  out->directory = normalisePath(directory);
  size_t first = 0;
  while (first < argv.size() && isCompilerWrapper(argv[first]))
    out->wrappers.push_back(argv[first++]);
  if (first == argv.size()) {
    out->skipReason = "no compiler";
    return true;
  }
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 64> expanded;
  for (size_t i = first; i < argv.size(); ++i)
    expanded.push_back(saver.save(argv[i]).data());
  llvm::cl::ExpansionContext expander(allocator,
                                      llvm::cl::TokenizeGNUCommandLine);
  expander.setCurrentDir(out->directory);
  if (llvm::Error failed = expander.expandResponseFiles(expanded)) {
    *error = llvm::toString(std::move(failed));
    return false;
  }
  for (const char *argument : expanded)
    out->command.push_back(argument);

  unsigned missingIndex = 0, missingCount = 0;
  llvm::ArrayRef<const char *> arguments(expanded);
  // gcc's options: /o and /w are paths, not cl.exe's options.
  llvm::opt::InputArgList parsed = clang::driver::getDriverOptTable().ParseArgs(
      arguments.drop_front(), missingIndex, missingCount,
      llvm::opt::Visibility(options::ClangOption));
  if (missingCount) {
    out->skipReason = "an option lacks its value";
    return true;
  }
  if (!parsed.hasArg(options::OPT_c) && !parsed.hasArg(options::OPT_S)) {
    out->skipReason = "not a compilation (no -c or -S)";
    return true;
  }
  if (parsed.hasArg(options::OPT_E) || parsed.hasArg(options::OPT_M) ||
      parsed.hasArg(options::OPT_MM) ||
      parsed.hasArg(options::OPT_fsyntax_only)) {
    out->skipReason = "produces no object";
    return true;
  }
  std::string language;
  std::vector<const llvm::opt::Arg *> sources;
  for (const llvm::opt::Arg *arg : parsed) {
    if (arg->getOption().matches(options::OPT_x))
      language = arg->getValue();
    else if (arg->getOption().matches(options::OPT_INPUT)) {
      if (!isCOrCxx(arg->getValue(), language)) {
        out->skipReason = std::string("not C or C++: ") + arg->getValue();
        return true;
      }
      sources.push_back(arg);
    }
  }
  if (sources.size() != 1) {
    out->skipReason = std::to_string(sources.size()) + " sources";
    return true;
  }
  out->sourceArgument = sources[0]->getIndex() + 1;
  out->source = absoluteIn(out->directory, sources[0]->getValue());
  if (const llvm::opt::Arg *arg = parsed.getLastArg(options::OPT_o))
    out->output = absoluteIn(out->directory, arg->getValue());
  if (const llvm::opt::Arg *arg = parsed.getLastArg(options::OPT_MF)) {
    out->depfile = absoluteIn(out->directory, arg->getValue());
  } else if (parsed.hasArg(options::OPT_MD) ||
             parsed.hasArg(options::OPT_MMD)) {
    // gcc's rule: the object's name with .d for its suffix, or the source's
    // base name with .d in the working directory.
    llvm::SmallString<256> path(
        out->output.empty()
            ? absoluteIn(out->directory, llvm::sys::path::filename(out->source))
            : out->output);
    llvm::sys::path::replace_extension(path, ".d");
    out->depfile = std::string(path.str());
  }
  for (const llvm::opt::Arg *arg : parsed) {
    bool isDir = arg->getOption().matches(options::OPT_I) ||
                 arg->getOption().matches(options::OPT_iquote);
    if (!isDir && !arg->getOption().matches(options::OPT_include))
      continue;
    size_t at = arg->getIndex() + 1;
    CompilerCommand::PathOption option{
        at, out->command[at] != arg->getSpelling(),
        std::string(arg->getSpelling()),
        absoluteIn(out->directory, arg->getValue())};
    (isDir ? out->includeDirs : out->forcedIncludes).push_back(option);
  }
  return true;
}

std::vector<std::string>
mirroredCommand(const CompilerCommand &compile, const std::string &root,
                const std::string &mirror,
                const std::vector<std::string> &extraFlags) {
  auto inMirror = [&](const std::string &path) {
    return path + "/" == root ? mirror.substr(0, mirror.size() - 1)
                              : mirror + path.substr(root.size());
  };
  auto underRoot = [&](const std::string &path) {
    return path + "/" == root || isUnder(path, root);
  };
  auto spelled = [&](const CompilerCommand::PathOption &option,
                     const std::string &path) {
    return option.joined ? std::vector<std::string>{option.spelling + path}
                         : std::vector<std::string>{option.spelling, path};
  };
  // The arguments (by index in `command`) preceded or replaced.
  std::map<size_t, std::vector<std::string>> before, replaced;
  for (const CompilerCommand::PathOption &option : compile.includeDirs)
    if (underRoot(option.path)) // the mirror's directory first
      before[option.argument] = spelled(option, inMirror(option.path));
  for (const CompilerCommand::PathOption &option : compile.forcedIncludes)
    if (underRoot(option.path))
      replaced[option.argument] = spelled(option, inMirror(option.path));
  replaced[compile.sourceArgument] = {inMirror(compile.source)};
  std::vector<std::string> result = compile.wrappers;
  for (size_t i = 0; i < compile.command.size(); ++i) {
    auto prefix = before.find(i);
    if (prefix != before.end())
      result.insert(result.end(), prefix->second.begin(), prefix->second.end());
    auto replacement = replaced.find(i);
    if (replacement == replaced.end()) {
      result.push_back(compile.command[i]);
      continue;
    }
    result.insert(result.end(), replacement->second.begin(),
                  replacement->second.end());
    const CompilerCommand::PathOption *forced = nullptr;
    for (const CompilerCommand::PathOption &option : compile.forcedIncludes)
      if (option.argument == i)
        forced = &option;
    if (forced && !forced->joined)
      ++i; // the separate value was replaced with its option
  }
  result.insert(result.end(), extraFlags.begin(), extraFlags.end());
  result.push_back("-ffile-prefix-map=" + mirror.substr(0, mirror.size() - 1) +
                   "=" + root.substr(0, root.size() - 1));
  return result;
}

std::string remapPaths(const std::string &text, const std::string &mirror,
                       const std::string &root, bool makeSyntax) {
  std::string replacement = root;
  if (makeSyntax) {
    replacement.clear();
    for (char c : root) {
      if (c == ' ' || c == '#')
        replacement += '\\';
      else if (c == '$')
        replacement += '$';
      replacement += c;
    }
  }
  std::string result;
  size_t from = 0;
  for (size_t at; (at = text.find(mirror, from)) != std::string::npos;
       from = at + mirror.size()) {
    result.append(text, from, at - from);
    result += replacement;
  }
  result.append(text, from, std::string::npos);
  return result;
}

namespace {

/// Where a launched compilation's rewritten copy of the project goes:
/// --keep-dir, or a directory private to this user under $TMPDIR. Named after
/// the object, so a rebuild uses the same paths (ccache hits) and two
/// compilations never share one (headers are rewritten per translation
/// unit, so parallel builds do not race on them).
std::string launchMirror(const CompilerCommand &compile,
                         const std::string &keepDir, std::string *error) {
  std::string base = keepDir;
  if (base.empty()) {
    llvm::SmallString<128> temp;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, temp);
    base = std::string(temp.str()) + "/msledger-launch-" +
           std::to_string(getuid());
    // Shared /tmp: the directory must be ours and no one else's to write.
    mkdir(base.c_str(), 0700);
    struct stat st;
    if (lstat(base.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid() || (st.st_mode & 022)) {
      *error = base + " is not a directory private to this user";
      return "";
    }
  }
  base = normalisePath(base);
  std::string key = compile.directory + '\0' +
                    (compile.output.empty() ? compile.source : compile.output);
  char hash[17];
  snprintf(hash, sizeof hash, "%016llx",
           static_cast<unsigned long long>(fnv1a64(key)));
  std::string mirror = base + "/" +
                       std::string(llvm::sys::path::filename(compile.source)) +
                       "-" + hash;
  // A rebuild starts afresh: no header deleted since may linger.
  llvm::sys::fs::remove_directories(mirror);
  if (std::error_code ec = llvm::sys::fs::create_directories(mirror)) {
    *error = "cannot create " + mirror + ": " + ec.message();
    return "";
  }
  return mirror + "/";
}

/// Prints a file's bytes to `out` with the mirror's paths turned back into
/// the project's.
void replay(const std::string &path, llvm::raw_ostream &out,
            const std::string &mirror, const std::string &root) {
  std::string error;
  if (std::optional<std::string> text = readTextFile(path, &error))
    out << remapPaths(*text, mirror, root, /*makeSyntax=*/false);
  out.flush();
}

} // namespace

int runProgram(const std::vector<std::string> &argv, const std::string &out,
               const std::string &err) {
  std::string program = argv[0];
  if (program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program);
    if (!found) {
      llvm::errs() << "msrewrite: error: cannot find the compiler " << program
                   << " on PATH\n";
      return 1;
    }
    program = *found;
  }
  std::vector<StringRef> args(argv.begin(), argv.end());
  std::optional<StringRef> redirects[3] = {std::nullopt, std::nullopt,
                                           std::nullopt};
  if (!out.empty())
    redirects[1] = StringRef(out);
  if (!err.empty())
    redirects[2] = StringRef(err);
  std::string error;
  bool crashed = false;
  int status = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                         0, 0, &error, &crashed);
  if (status < 0 || crashed) {
    llvm::errs() << "msrewrite: error: " << program << ": "
                 << (error.empty() ? "crashed" : error) << "\n";
    return 1;
  }
  return status;
}

bool isLink(const CompilerCommand &how) {
  if (how.command.empty())
    return false;
  static const std::set<std::string> notLinking = {
      "-c",           "-S",        "-E",
      "-M",           "-MM",       "-fsyntax-only",
      "-v",           "--version", "-dumpversion",
      "-dumpmachine", "--help"};
  bool inputs = false;
  for (size_t i = 1; i < how.command.size(); ++i) {
    const std::string &arg = how.command[i];
    if (notLinking.count(arg) || arg.rfind("-print-", 0) == 0)
      return false;
    inputs |= arg[0] != '-';
  }
  return inputs;
}

namespace {

/// The command clang parses: the compiler's, gcc-only flags left out, with
/// --extra-arg-before and --extra-arg.
SingleCommandDatabase parseDatabase(const CompilerCommand &compile,
                                    const LaunchSettings &settings) {
  std::vector<std::string> parseCommand = {compile.command[0]};
  parseCommand.insert(parseCommand.end(), settings.extraArgsBefore.begin(),
                      settings.extraArgsBefore.end());
  for (size_t i = 1; i < compile.command.size(); ++i)
    if (!isGccOnlyFlag(compile.command[i]))
      parseCommand.push_back(compile.command[i]);
  parseCommand.insert(parseCommand.end(), settings.extraArgs.begin(),
                      settings.extraArgs.end());
  return SingleCommandDatabase(CompileCommand(compile.directory, compile.source,
                                              parseCommand, compile.output));
}

/// Compiles the mirror's copy of the source with `compile`'s command, its
/// output and dependency file naming the project's files; the exit status.
int compileMirrored(const CompilerCommand &compile, const RewritePlan &rewrite,
                    const LaunchSettings &settings) {
  const std::string &root = settings.root;
  std::string error;
  std::string mirror = launchMirror(compile, settings.keepDir, &error);
  std::set<std::string> written;
  auto note = [](const std::string &text) { llvm::errs() << text << "\n"; };
  if (mirror.empty() ||
      !writeMirrorFiles(mirror, {compile.source}, {}, rewrite.projectFiles,
                        rewrite.files, root, &written, note, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  for (const CompilerCommand::PathOption &dir : compile.includeDirs)
    if (isUnder(dir.path + "/", root))
      llvm::sys::fs::create_directories(mirror + relativeTo(dir.path, root));
  std::vector<std::string> mirrored =
      mirroredCommand(compile, root, mirror, settings.compileFlags);
  // The compiler's messages name the mirror's files; they are replayed with
  // the project's paths.
  std::string outPath = mirror + ".msledger-stdout",
              errPath = mirror + ".msledger-stderr";
  int status = runProgram(mirrored, outPath, errPath);
  replay(outPath, llvm::outs(), mirror, root);
  replay(errPath, llvm::errs(), mirror, root);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  if (status == 0 && !compile.depfile.empty()) {
    std::optional<std::string> depfile = readTextFile(compile.depfile, &error);
    if (depfile &&
        !writeTextFileAtomically(
            compile.depfile,
            remapPaths(*depfile, mirror, root, /*makeSyntax=*/true), &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      status = 1;
    }
  }
  if (settings.keepDir.empty())
    llvm::sys::fs::remove_directories(mirror);
  return status;
}

} // namespace

int runLaunched(const std::vector<std::string> &argv,
                const LaunchSettings &settings) {
  if (argv.empty()) {
    llvm::errs() << "msrewrite: error: --launch needs the compiler command "
                    "after --\n";
    return 1;
  }
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  CompilerCommand compile;
  std::string error;
  if (!parseCompilerCommand(argv, std::string(cwd.str()), &compile, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  std::vector<std::string> command = compile.wrappers;
  command.insert(command.end(), compile.command.begin(), compile.command.end());
  if (!compile.skipReason.empty() ||
      !isProjectFile(compile.source, settings.root)) {
    // Not one project source: run it as it is, with the ledger's library if
    // it links.
    if (compile.skipReason.empty() || !isLink(compile))
      return runProgram(command.empty() ? argv : command, "", "");
    command.insert(command.end(), settings.linkFlags.begin(),
                   settings.linkFlags.end());
    return runProgram(command, "", "");
  }
  std::set<std::string> additions;
  std::optional<Catalog> catalog = loadCatalogs(
      settings.catalog, settings.catalogAdditions, &additions, &error);
  if (!catalog) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  // Clang's diagnostics are kept back: if the compiler itself rejects the
  // source, its own messages are the ones to show.
  std::string diagnosticText;
  llvm::raw_string_ostream diagnosticStream(diagnosticText);
  IntrusiveRefCntPtr<DiagnosticOptions> diagnosticOptions(
      new DiagnosticOptions);
  TextDiagnosticPrinter diagnostics(diagnosticStream, diagnosticOptions.get());
  RewritePlan rewrite = planRewrite(
      parseDatabase(compile, settings), {compile.source}, *catalog, additions,
      settings.root, settings.parse, /*jobs=*/1, &diagnostics);
  for (const std::string &file : rewrite.instrumented)
    llvm::errs() << alreadyInstrumentedNote(file) << "\n";
  if (!rewrite.failedFiles.empty()) {
    int status = runProgram(command, "", "");
    if (status != 0)
      return status;
    diagnosticStream.flush();
    llvm::errs() << diagnosticText << "msrewrite: error: " << compile.source
                 << " compiles, but not with clang " << LLVM_VERSION_STRING
                 << " (above), so it cannot be instrumented\n";
    if (!compile.output.empty())
      llvm::sys::fs::remove(compile.output);
    return 1;
  }
  for (const std::string &note : rewrite.notes)
    llvm::errs() << note << "\n";
  if (rewrite.files.empty()) {
    // Nothing to rewrite: the original compiles, with the ledger's header if
    // it was rewritten in place before (msrewrite -i).
    if (!rewrite.instrumented.empty())
      command.insert(command.end(), settings.compileFlags.begin(),
                     settings.compileFlags.end());
    return runProgram(command, "", "");
  }
  return compileMirrored(compile, rewrite, settings);
}

} // namespace msledger
