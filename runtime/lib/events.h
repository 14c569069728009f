//===- events.h - What the ledger hands its reports -------------*- C++ -*-===//
//
// Contract: the values the ledger makes and its reports read -- the error
// kinds (one list, error_kinds.def), an error event, a handle released
// implicitly, an mstx annotation -- and SiteTable, how a report reads an
// event's site id, whatever keeps the sites (the running ledger's
// SiteRegistry, or a journal's). Plain data: nothing here reads or writes
// anything.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_EVENTS_H
#define MSLEDGER_RUNTIME_EVENTS_H

#include "catalog.h"
#include "msledger/msledger.h"
#include "record_table.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace msledger {

enum class ErrorKind {
#define MSLEDGER_ERROR_KIND(Name, ...) Name,
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
};

/// Every error kind, in error_kinds.def's order.
constexpr ErrorKind kErrorKinds[] = {
#define MSLEDGER_ERROR_KIND(Name, ...) ErrorKind::Name,
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
};

/// A bad copy or set (Ledger::access), not a bad release.
constexpr bool isAccessError(ErrorKind kind) {
  switch (kind) {
#define MSLEDGER_ERROR_KIND(Name, json, access, ...)                           \
  case ErrorKind::Name:                                                        \
    return access;
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
  }
  return false;
}

/// An error kind as the JSON report and `msledger merge` name it:
/// "illegal_release", ...
constexpr const char *errorKindName(ErrorKind kind) {
  switch (kind) {
#define MSLEDGER_ERROR_KIND(Name, json, ...)                                   \
  case ErrorKind::Name:                                                        \
    return json;
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
  }
  return "";
}

struct ErrorEvent {
  ErrorKind kind = ErrorKind::IllegalRelease;
  unsigned api = 0; // the releasing call
  uint64_t handle = 0;
  Space space = Space::None;
  uint64_t serial = 0;
  uint32_t site = 0;
  uint16_t thread = 0;
  uint64_t timeNs = 0;
  bool callFailed = false;
  bool hasAcquired = false; // the record the release matched, or ended before
  Record acquired;
  bool hasPrevious = false; // the earlier release, for double releases
  FreedRecord previous;     // (and the release of freed memory accessed)
  // An access error's: `handle` is the first byte at fault, `space` that of
  // the memory touched.
  bool write = false;
  uint64_t badBytes = 0;
  uint64_t accessStart = 0, accessSize = 0; // the side's whole range
  int direction = -1;                       // the call's aclrtMemcpyKind
};

/// A handle released without being named: a stream destroyed by the reset
/// of its device, a model unloaded by aclFinalize.
struct ImplicitReleaseEvent {
  Record acquired;
  ReleaseEvent release; // the call that released it
};

/// An mstx mark (a moment) or range (an interval) the application named.
struct Annotation {
  std::string message;
  bool range = false;
  uint64_t startMs = 0; // since the ledger started
  int64_t endMs = -1;   // a range's end; -1: a mark, or not ended yet
  uint64_t id = 0;      // a range's id
};

/// How a report reads an event's site id -- from the running ledger's sites
/// and chains, or from a journal's: the site, and the calls that led there,
/// innermost first (empty for none).
struct SiteTable {
  std::function<const msledger_site *(uint32_t id)> site;
  std::function<std::vector<const msledger_site *>(uint32_t id)> callers;
};

} // namespace msledger

#endif
