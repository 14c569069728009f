//===- wrappers.h - The C text of tracking wrappers -------------*- C++ -*-===//
//
// Contract: msledger_NAME(site, args...) for a catalog function, as C that
// compiles as C and C++: calls NAME(args...) once with the same arguments,
// returns what it returns, and records the event with its site -- through
// the interposer when one is active, by itself if not. Used for the built-in
// catalog at build time (msledger/track.h) and by msrewrite for a project's
// catalog additions, whose wrappers first register the API with the ledger.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_WRAPPERS_H
#define MSLEDGER_REWRITER_WRAPPERS_H

#include "catalog.h"

#include <string>

namespace msledger {

/// The C (and C++) condition under which `function` succeeded, its result
/// being in the variable `result`.
std::string successCondition(const Function &function,
                             const std::string &result);

/// The helpers every wrapper uses; once, ahead of the wrappers (track.h).
std::string wrapperHelpers();
/// The definition of one wrapper; `registers` for catalog additions.
std::string trackingWrapper(const Catalog &catalog, const Function &function,
                            bool registers);

} // namespace msledger

#endif
