//===- fingerprint.cpp - What names a finding across runs -----------------===//
#include "fingerprint.h"

#include "catalog_table.h"

#include <cstdio>

namespace msledger {

namespace {

std::string hexSerial(uint64_t serial) {
  char digits[17];
  snprintf(digits, sizeof digits, "%016llx",
           static_cast<unsigned long long>(serial));
  return digits;
}

} // namespace

std::string findingFingerprint(const char *rule, Level level,
                               const SiteTable &sites, uint32_t id,
                               const std::string &api) {
  std::string out = std::string(rule) + "/" + levelName(level) + "/";
  const msledger_site *site = id ? sites.site(id) : nullptr;
  if (site && site->file) {
    out += site->file;
    out += "/";
    out += api;
    out += "/" + hexSerial(site->serial);
    for (const msledger_site *caller : sites.callers(id))
      out += "<" + hexSerial(caller ? caller->serial : 0);
  } else {
    out += api; // not rewritten: only the API is known
  }
  return out;
}

std::string leakFingerprint(const SiteTable &sites, Level level,
                            const Record &record) {
  return findingFingerprint(leakRule(record.api), level, sites, record.site,
                            calledName(record.api, sites.site(record.site)));
}

std::string errorFingerprint(const SiteTable &sites, const ErrorEvent &error) {
  return findingFingerprint(errorRule(error.kind), familyOf(error.api).level,
                            sites, error.site,
                            calledName(error.api, sites.site(error.site)));
}

const char *leakRule(unsigned api) {
  return familyOf(api).kind == Kind::Memory ? "memory-leak" : "resource-leak";
}

const char *errorRule(ErrorKind kind) {
  switch (kind) {
#define MSLEDGER_ERROR_KIND(Name, json, access, sarifId, ...)                  \
  case ErrorKind::Name:                                                        \
    return sarifId;
#include "error_kinds.def"
#undef MSLEDGER_ERROR_KIND
  }
  return "";
}

std::optional<ErrorKind> errorKindOfRule(std::string_view rule) {
  for (ErrorKind kind : kErrorKinds)
    if (rule == errorRule(kind))
      return kind;
  return std::nullopt;
}

} // namespace msledger
