//===- rewrite.h - Planning the rewrite of translation units ----*- C++ -*-===//
//
// Contract: planRewrite parses the translation units named, `jobs` at a time,
// and plans the instrumentation of every project file they read -- the files
// named and the project headers they include -- as whole new texts. It writes
// nothing and prints nothing: what it found comes back in the plan.
//
// A header read by several translation units gets the union of their sites,
// numbered once (assignSerials), so it is rewritten once, consistently. A
// call that one translation unit cannot compile rewritten stays as it is for
// all of them. Calls of the project's functions that reach a catalog call in
// any translation unit parsed are wrapped for call chains. A file already
// instrumented is left as it is. A catalog addition's wrapper is defined in
// each file that calls it, on the line of the first declaration calling it.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_REWRITE_H
#define MSLEDGER_REWRITER_REWRITE_H

#include "catalog.h"
#include "collect.h"
#include "instrument.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <set>
#include <string>
#include <vector>

namespace msledger {

/// What parsing and planning the translation units found.
struct RewritePlan {
  std::vector<FileRewrite> files;        // the files to write, by path
  std::set<std::string> failedFiles;     // named files that do not compile
  std::set<std::string> projectFiles;    // every project file they read
  std::set<std::string> notes;           // calls reported, with the reason
  std::vector<std::string> instrumented; // named files already instrumented
  unsigned outside = 0;                  // calls in files never touched
  unsigned sites = 0;                    // sites in `files`
};

/// Plans the rewrite of `files` (absolute, each in `database`) under `root`
/// (trailing '/'). `additions` names the catalog's functions that come from
/// a project's catalog (no macro in msledger/track.h). Clang's diagnostics
/// go to `diagnostics` if given -- and then, as a consumer is not
/// thread-safe, the files are parsed one at a time -- else to stderr.
RewritePlan planRewrite(const clang::tooling::CompilationDatabase &database,
                        const std::vector<std::string> &files,
                        const Catalog &catalog,
                        const std::set<std::string> &additions,
                        const std::string &root, const ParseSettings &settings,
                        unsigned jobs,
                        clang::DiagnosticConsumer *diagnostics = nullptr);

/// The note telling that a file named was already instrumented.
std::string alreadyInstrumentedNote(const std::string &file);

} // namespace msledger

#endif
