//===- wrappers.h - The code generated from the catalog ---------*- C++ -*-===//
//
// Contract: the text generated from the catalog, in one place for every
// generator. First, the pieces of a tracked call -- its handle, size and
// memory space as the ledger records them, its success condition, whether a
// null handle is no release -- as expressions that compile as C and as C++:
// msledger/track.h's wrappers, a catalog addition's wrapper and msledger's
// interposers (runtime/gen/catalog_gen.cpp) all use these. A driver flag's
// memory space is decoded by libmsledger (msledger_driver_space), once.
//
// Then the wrappers themselves: msledger_NAME(site, args...) for a catalog
// function calls NAME(args...) once with the same arguments, converted as the
// call converted them, returns what it returns, and records the event with
// its site -- through the interposer when one is active, by itself if not.
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
#include <vector>

namespace msledger {

/// The C (and C++) condition under which `function` succeeded, its result
/// being in the variable `result`.
std::string successCondition(const Function &function,
                             const std::string &result);

// The pieces of a call of `function` whose parameter p's value is in the
// variable args[p] and whose result is in `result`, as C and C++ expressions.

/// The handle acquired or released, as a uint64_t ("0" for none).
std::string handleExpression(const Function &function,
                             const std::vector<std::string> &args,
                             const std::string &result);
/// The parameter the ledger's size comes from: a per-device handle's device
/// (kept where a size would be), else the allocation's size; -1 for none.
int sizeParameter(const Function &function);
/// That parameter's value as a uint64_t ("0" for none).
std::string sizeExpression(const Function &function,
                           const std::vector<std::string> &args);
/// The memory space acquired, an msledger_space: the family's, or the one
/// the driver flag asks for (msledger_driver_space).
std::string spaceExpression(const Catalog &catalog, const Function &function,
                            const std::vector<std::string> &args);
/// An access's arguments to msledger_record_access after the API and site:
/// "WRITE, WRITE_SIZE, READ, READ_SIZE, DIRECTION" (a 2-D range's size by
/// msledger_extent_2d; 0 for a side it has not, -1 for no direction).
std::string accessArguments(const Function &function,
                            const std::vector<std::string> &args);
/// The C condition under which an access is checked: its pointer
/// parameters whose members it reads are not null, and its "when" holds;
/// "1" for none.
std::string accessCondition(const Function &function,
                            const std::vector<std::string> &args);
/// msledger.h's enumerator of `space`: "MSLEDGER_SPACE_GM", ...
const char *spaceEnumerator(Space space);
/// Whether a release passed a null handle releases nothing (free(NULL)):
/// an address passed in to a function that accepts NULL (catalog "null");
/// ids, and NULL where the real function refuses it, are checked.
bool nullIsNoRelease(const Catalog &catalog, const Function &function);

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
