//===- instrument.h - Turning collected call sites into file edits -*- C++ -*-//
//
// Contract: pure text transformations, no clang. A file's instrumentation is
//
//   * a prologue inserted at offset 0: a marker comment carrying a hash of the
//     original bytes, #include "msledger/track.h", the file's site table
//     (guarded, so a header included twice defines it once), and #line 1 so
//     that diagnostics and debuggers still see the original line numbers;
//   * at each call, the callee's name NAME replaced by msledger_NAME and the
//     site inserted as the first argument: NAME(a, b) -> msledger_NAME(SITE, a,
//     b);
//   * at each call of a helper (a project function that reaches a catalog
//     call), the call wrapped: f(a) -> MSLEDGER_CHAIN(SITE, f(a)).
//
// revert() undoes exactly that and reports whether the result hashes to the
// original; instrument() of an instrumented file is refused (idempotence).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_INSTRUMENT_H
#define MSLEDGER_REWRITER_INSTRUMENT_H

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
};

/// Wrapper definitions to insert at offsets of the original (catalog
/// additions): each is put on the line where its declaration starts, so no
/// line moves.
using WrapperInsertions = std::map<unsigned, std::string>;

uint64_t fnv1a64(const std::string &text);
/// The marker of the trailer line that ends every instrumented file.
extern const char *const kMarker;
/// What encloses an inserted wrapper definition, for --revert.
extern const char *const kWrapperBegin, *const kWrapperEnd;
bool isInstrumented(const std::string &text);

/// Sorts `sites` by offset, drops duplicates (one call seen through several
/// template instantiations or TUs) and numbers them: serial = 40 bits of the
/// path's hash, then the index in the file. Deterministic.
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
