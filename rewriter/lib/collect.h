//===- collect.h - Finding the catalog's calls in a translation unit -*- C++
//-*-//
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
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_COLLECT_H
#define MSLEDGER_REWRITER_COLLECT_H

#include "catalog.h"
#include "instrument.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"

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

/// `path` made absolute and normalised; `root` likewise, with a trailing '/'.
std::string normalisePath(const std::string &path);
bool isUnder(const std::string &path, const std::string &root);
/// Whether `path` is msledger's own, never to be rewritten or reverted:
/// msledger's headers (.../include/msledger/), or a file in an msledger
/// install prefix, build tree or the CMake package's kept copies
/// (msledger-instrumented) between `root` and the file. A root that is itself
/// inside such a tree (msledger's own tests) does not make its files
/// msledger's.
bool isMsledgerFile(const std::string &path, const std::string &root);
/// A file msrewrite may rewrite: under `root`, and not msledger's.
bool isProjectFile(const std::string &path, const std::string &root);

} // namespace msledger

#endif
