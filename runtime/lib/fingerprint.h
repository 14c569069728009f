//===- fingerprint.h - What names a finding across runs ---------*- C++ -*-===//
//
// Contract: findingFingerprint() is the one function that names a finding
// for tools that follow findings from run to run: SARIF's
// partialFingerprints and the JSON report's "fingerprint", of a live run, of
// `msledger report JOURNAL` and of `msledger merge` alike. It is made of the
// finding's rule ("memory-leak", "double-free", ...), level, the site's file,
// the API and the site serials of the site and of its chain's callers --
// what msrewrite derives from the project, never the machine, the run or
// the event's serialNo. A site serial names a call by its file, enclosing
// function (name and type; a lambda's calls are its function's), callee and
// ordinal among that function's calls of the callee
// (rewriter/lib/instrument.h), so a finding keeps its fingerprint when lines
// or calls elsewhere are added or removed, and changes it when an equal
// call is added before it in its function. A call that was not rewritten
// (no file) is named by its rule, level and API alone.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_FINGERPRINT_H
#define MSLEDGER_RUNTIME_FINGERPRINT_H

#include "catalog.h"
#include "events.h"

#include <optional>
#include <string>
#include <string_view>

namespace msledger {

/// "memory-leak/cann/src/main.cpp/aclrtMalloc/a517e0e617000006<...".
/// `api` is the API's name: a merged report's may be one this catalog lacks.
std::string findingFingerprint(const char *rule, Level level,
                               const SiteTable &sites, uint32_t site,
                               const std::string &api);
/// The fingerprint of the leak `record` at `level`.
std::string leakFingerprint(const SiteTable &sites, Level level,
                            const Record &record);
/// The fingerprint of the bad release or access `error`.
std::string errorFingerprint(const SiteTable &sites, const ErrorEvent &error);
/// The rule of a leak of what `api` acquired: "memory-leak" or
/// "resource-leak".
const char *leakRule(unsigned api);
/// The rule of an error kind: "illegal-free", ... (error_kinds.def).
const char *errorRule(ErrorKind kind);
/// The error kind whose rule is `rule`, if one is.
std::optional<ErrorKind> errorKindOfRule(std::string_view rule);

} // namespace msledger

#endif
