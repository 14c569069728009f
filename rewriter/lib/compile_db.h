//===- compile_db.h - Reading compile_commands.json as it comes -*- C++ -*-===//
//
// Contract: loads BUILD_DIR/compile_commands.json with Boost.JSON and accepts
// what real databases contain: "arguments" or "command", a relative
// "directory" (resolved against the database's own directory) and relative
// "file" paths, response files (@file, expanded), and compilers' flags clang
// does not know (gcc's -f and -m options; dropped, each noted once). Any
// problem is one message naming the file and what is wrong.
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

/// Whether clang rejects `flag` (gcc-only options).
bool isGccOnlyFlag(const std::string &flag);

} // namespace msledger

#endif
