//===- catalog_table.h - The catalog as the runtime sees it ----*- C++ -*-===//
//
// Contract: constant tables of the catalog's handle namespaces, families and
// functions, generated at build time from rewriter/catalog/cann.json (see
// runtime/gen/catalog_gen.cpp). Indices are those of the catalog file.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_CATALOG_TABLE_H
#define MSLEDGER_RUNTIME_CATALOG_TABLE_H

#include "catalog.h"

#include <cstddef>
#include <cstdint>

namespace msledger {

/// msledger_space, as the tables spell it.
enum class Space : uint8_t {
  None = 0,
  GM = 1,
  Host = 2,
  DVPP = 3,
  Virtual = 4
};
const char *spaceName(Space space); // "GM", "host", "DVPP", "virtual", ""

struct FamilyInfo {
  const char *name;
  const char *display;
  Level level;
  Kind kind;
  Space space;
  uint8_t nameSpace;
  bool refcounted;
  bool handleIsPointer;
  bool hasHandle;
};

struct ApiInfo {
  const char *name;
  Role role;
  uint16_t family;
};

extern const char *const kNameSpaces[];
extern const size_t kNameSpaceCount;
extern const FamilyInfo kFamilies[];
extern const size_t kFamilyCount;
extern const ApiInfo kApis[];
extern const size_t kApiCount;

inline const FamilyInfo &familyOf(unsigned api) {
  return kFamilies[kApis[api].family];
}
/// The catalog index of `name`, or -1.
int apiIndex(const char *name);

} // namespace msledger

#endif
