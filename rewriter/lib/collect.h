//===- collect.h - A translation unit's catalog calls -----------*- C++ -*-===//
//
// Contract: an ASTConsumer that, for one translation unit, finds every call
// to a catalog function (by name, at global scope: template patterns and
// dependent calls included, each call once however many instantiations) and
// every use of one that is not a call (its address taken). A call is
// rewritable when its name and its '(' are spelled one after the other in one
// file under the project root -- directly, in a macro argument, or in a macro
// body; anything else is reported with the reason. Files outside the root
// (system, CANN and msledger headers) and msledger's own files inside it
// (isMsledgerFile) are never touched. It also records the
// calls between the project's own functions, so that calls of helpers that
// reach a catalog call can be marked for call chains (reachingHelperCalls).
// collectTranslationUnit runs it over one file of a compile database: a
// syntax-only parse that writes no output or dependency file, in a file
// system with a working directory of its own (so parses can run in
// parallel), with what rewritten files are compiled with added.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_COLLECT_H
#define MSLEDGER_REWRITER_COLLECT_H

#include "catalog.h"
#include "instrument.h"
#include "paths.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace msledger {

/// A call to one of the project's own functions: a helper, if that
/// function reaches a catalog call (directly or through other project
/// functions, in any translation unit).
struct HelperCall {
  std::string callee; // the function's USR
  std::string file;   // absolute path of the file the call is spelled in
  CallSite site;      // frame = true
};

/// What one translation unit contributed.
struct TranslationUnitSites {
  std::map<std::string, std::vector<CallSite>> sites; // absolute path -> calls
  std::map<std::string, std::string> contents; // absolute path -> original text
  std::vector<std::string> notes;              // "file:line:col: note: ..."
  unsigned outsideRoot = 0;                    // calls in files we never touch
  // Calls that this translation unit cannot compile rewritten (by name
  // offset): left as they are for every translation unit.
  std::map<std::string, std::set<unsigned>> unrewritable;
  std::set<std::string> projectFiles; // files under the root the TU read
  // For call chains: the project functions (by USR) that call a catalog
  // function, which project function calls which, and the calls to them.
  std::set<std::string> callsCatalog;
  std::set<std::pair<std::string, std::string>> calls; // caller, callee
  std::vector<HelperCall> helperCalls;
};

/// The helper calls among `calls` whose callees reach a catalog call,
/// directly or through the `edges` (caller, callee), transitively.
std::vector<const HelperCall *>
reachingHelperCalls(const std::vector<const HelperCall *> &calls,
                    const std::set<std::string> &callsCatalog,
                    const std::set<std::pair<std::string, std::string>> &edges);

/// Reports the catalog calls spelled in preprocessor branches this build
/// skips (#ifdef variants): they cannot be rewritten now, and say so.
std::unique_ptr<clang::PPCallbacks>
makeSkippedBranchReporter(const Catalog &catalog, const std::string &root,
                          clang::SourceManager &sm, TranslationUnitSites &out);
/// Records the files under `root` that the translation unit read.
void recordProjectFiles(clang::SourceManager &sm, const std::string &root,
                        TranslationUnitSites &out);

std::unique_ptr<clang::ASTConsumer> makeCollector(const Catalog &catalog,
                                                  const std::string &root,
                                                  TranslationUnitSites &out);

/// How a translation unit is parsed for collection, beyond its compile
/// command: the resource directory of clang's builtin headers and the flags
/// rewritten code is compiled with (so that msledger/track.h is seen).
struct ParseSettings {
  std::string resourceDir;
  std::vector<std::string> extraFlags;
};

/// Parses `file` with its commands from `database` (syntax only: no output,
/// no dependency file is written) and collects its sites into `out`. False
/// if it does not compile. Clang's diagnostics go to `diagnostics` if given
/// (and then nothing is printed), else to stderr.
bool collectTranslationUnit(const clang::tooling::CompilationDatabase &database,
                            const std::string &file, const Catalog &catalog,
                            const std::string &root,
                            const ParseSettings &settings,
                            TranslationUnitSites &out,
                            clang::DiagnosticConsumer *diagnostics);

} // namespace msledger

#endif
