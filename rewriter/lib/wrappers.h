//===- wrappers.h - The C text of tracking wrappers -------------*- C++ -*-===//
//
// Contract: msledger_NAME(site, args...) for a catalog function, as code that
// compiles as C and C++: calls NAME(args...) once with the same arguments,
// converted as the call converted them, returns what it returns, and records
// the event with its site -- through the interposer when one is active, by
// itself if not.
//
// For the built-in catalog (msledger/track.h) each msledger_NAME is a macro
// that names NAME, its types and its headers' declarations only where it is
// expanded, at a rewritten call: track.h includes no toolkit header, and an
// API the user's headers do not declare costs nothing unless it is called
// (which the original code could not have done). In C++ it expands to a
// template bound to &NAME, whose parameter types are NAME's own, so that
// `(msledger_NAME)(site, p)` works too; in C to a statement expression that
// evaluates the arguments into temporaries of the catalog's parameter types,
// in one call, before the site is published.
//
// A project's catalog additions get wrapper functions instead, which msrewrite
// defines in the file that calls them (trackingWrapper), and which first
// register the API with the ledger.
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
/// The macro msledger_NAME for the built-in catalog's function at `index`,
/// for C and C++ (track.h).
std::string trackingMacro(const Catalog &catalog, size_t index);
/// The definition of one catalog addition's wrapper function, which
/// registers the API with the ledger on first use.
std::string trackingWrapper(const Catalog &catalog, const Function &function);

} // namespace msledger

#endif
