//===- instrument.h - Call sites into file edits ----------------*- C++ -*-===//
//
// Contract: a file's instrumentation as text, and the two operations over
// instrumented files. instrument() changes no line's number:
//
//   * at each call, the callee's name NAME replaced by msledger_NAME and the
//     site, defined where it is used, inserted as the first argument:
//     NAME(a, b) -> msledger_NAME(MSLEDGER_SITE(file, line, ...), a, b);
//   * at each call of a helper (a project function that reaches a catalog
//     call), the call wrapped: f(a) -> MSLEDGER_CHAIN(SITE, f(a));
//   * a catalog addition's wrapper definition, flattened onto the line where
//     the declaration that first calls it starts, between kWrapperBegin and
//     kWrapperEnd;
//   * one trailer line at the end (kMarker), carrying the fnv1a64 hash of the
//     original bytes. The file is compiled with -include msledger/track.h,
//     which defines the macros.
//
// revert() undoes exactly that and reports whether the result hashes to the
// original. instrument() does not look for a trailer: its callers leave an
// instrumented file (isInstrumented) as it is, which makes rewriting
// idempotent. These are pure functions; revertTree() and sitesManifest() are
// the only ones that touch files.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_INSTRUMENT_H
#define MSLEDGER_REWRITER_INSTRUMENT_H

#include "catalog.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msledger {

/// One call to rewrite, by byte offsets into the original file.
struct CallSite {
  unsigned nameOffset = 0;  // the callee's identifier
  unsigned parenOffset = 0; // the '(' that opens the arguments
  bool hasArguments = false;
  std::string callee;
  unsigned line = 0, column = 0;
  std::string function; // enclosing function, may be empty
  // The enclosing named function with its type ("ns::f void (int)"): a
  // lambda's calls are its function's, overloads apart. Names the site in
  // its serial (assignSerials).
  std::string scope;
  std::string lineText; // the source line, for the manifest
  uint64_t serial = 0;  // assigned by assignSerials()
  // Start of the file-scope declaration that holds the call, where the
  // wrapper of a catalog addition can be defined (-1: none in this file).
  long topLevelOffset = -1;
  // A call to one of the project's functions that reaches a catalog call (a
  // helper): wrapped whole, MSLEDGER_CHAIN(SITE, helper(args)), so the ledger
  // knows the chain of calls that led to an allocation. endOffset is just
  // past the call's ')'.
  bool frame = false;
  unsigned endOffset = 0;
  // A call of an operator's phase 1 or phase 2 (the catalog's operator
  // rule): its wrapper is defined in the file, as a catalog addition's is.
  OperatorPart operatorPart = OperatorPart::None;
};

/// Wrapper definitions to insert at offsets of the original (catalog
/// additions): each is put on the line where its declaration starts, so no
/// line moves.
using WrapperInsertions = std::map<unsigned, std::string>;

/// A file's rewrite, planned before anything is written.
struct FileRewrite {
  std::string path;     // absolute
  std::string relative; // to the project root: how sites name the file
  std::string before, after;
  std::vector<CallSite> sites; // numbered (assignSerials)
};

/// The marker of the trailer line that ends every instrumented file.
extern const char *const kMarker;
/// What encloses an inserted wrapper definition, for --revert.
extern const char *const kWrapperBegin, *const kWrapperEnd;
bool isInstrumented(const std::string &text);

/// Sorts `sites` by offset, drops duplicates (one call seen through several
/// template instantiations or TUs) and names each by a serial: the 64-bit
/// FNV-1a of the path, the enclosing named function with its type (scope:
/// a lambda's calls are its function's), the callee and the call's ordinal
/// among that function's calls of the callee (in source order) -- unchanged
/// by lines or calls added elsewhere. Unique in the file; deterministic.
void assignSerials(const std::string &relativePath,
                   std::vector<CallSite> &sites);

/// The instrumented text of `original`; `relativePath` names the file in sites.
std::string instrument(const std::string &original,
                       const std::string &relativePath,
                       const std::vector<CallSite> &sites,
                       const WrapperInsertions &wrappers = {});

/// The original text of an instrumented file; *exact says whether it hashes
/// to what the marker recorded (false: the file was edited after rewriting).
std::optional<std::string> revert(const std::string &instrumented, bool *exact);

/// What revertTree() did.
struct RevertCount {
  unsigned reverted = 0; // files restored
  unsigned inexact = 0;  // of those, files edited after they were rewritten
  unsigned failures = 0; // files that could not be restored
};
/// Restores every instrumented project file under `root` (trailing '/') to
/// its original text, each written atomically; msledger's own files and
/// trees are skipped (isMsledgerFile). Each failure and each file edited
/// since it was rewritten is told to `message` as it is met.
RevertCount revertTree(const std::string &root,
                       llvm::function_ref<void(const std::string &)> message);

/// The sites manifest (--export-sites): JSON naming every site of `plan`
/// with its serial (a string: it may exceed 2^53), file relative to `root`,
/// line, column, callee, enclosing function and source line.
std::string sitesManifest(const std::vector<FileRewrite> &plan,
                          const std::string &root);

/// A unified diff of two texts, as `diff -u` prints it (quadratic: small
/// texts).
std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after);
/// The same diff of original and instrument()ed text, in linear time.
std::string instrumentationDiff(const std::string &path,
                                const std::string &original,
                                const std::string &instrumented);

} // namespace msledger

#endif
