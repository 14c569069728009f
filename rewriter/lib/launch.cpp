//===- launch.cpp - One compiler command, read and redirected ------------===//
#include "launch.h"

#include "collect.h"

#include "clang/Driver/Options.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <map>
#include <set>

namespace msledger {

namespace options = clang::driver::options;

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

} // namespace msledger
