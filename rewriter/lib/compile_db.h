//===- compile_db.h - Reading compile_commands.json as it comes -*- C++ -*-===//
//
// Contract: loads BUILD_DIR/compile_commands.json with Boost.JSON and accepts
// what real databases contain: "arguments" or "command", a relative
// "directory" (resolved against the database's own directory) and relative
// "file" paths, and response files (@file, expanded). Flags that gcc accepts
// and clang rejects are dropped, each noted once: those named by a fixed list
// of prefixes (isGccOnlyFlag; the ones seen in real databases, kernel and
// CANN builds among them), not every flag clang does not know -- an unknown
// flag outside the list still fails the parse, with clang's message. Any
// problem loading is one message naming the file and what is wrong.
//
// SingleCommandDatabase holds one command: what `msrewrite --launch` parses.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_COMPILE_DB_H
#define MSLEDGER_REWRITER_COMPILE_DB_H

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace msledger {

class CompileDatabase : public clang::tooling::CompilationDatabase {
public:
  /// nullptr with *error set if the database is missing or malformed.
  static std::unique_ptr<CompileDatabase> load(const std::string &buildDir,
                                               std::string *error);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef file) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override;
  /// Flags dropped because clang does not know them.
  const std::set<std::string> &droppedFlags() const { return Dropped; }

private:
  std::map<std::string, std::vector<clang::tooling::CompileCommand>>
      Commands; // absolute file -> commands
  std::set<std::string> Dropped;
};

/// The one command of a launched compilation, as the parser sees it: its
/// file is known by its absolute, normalised path.
class SingleCommandDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit SingleCommandDatabase(clang::tooling::CompileCommand command)
      : Command(std::move(command)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef file) const override;
  std::vector<std::string> getAllFiles() const override {
    return {Command.Filename};
  }

private:
  clang::tooling::CompileCommand Command;
};

/// Whether `flag` is one of the gcc-only flags that clang rejects (a fixed
/// list of prefixes).
bool isGccOnlyFlag(const std::string &flag);

} // namespace msledger

#endif
