//===- catalog_table.cpp - The catalog as the runtime sees it -------------===//
#include "catalog_table.h"

#include "msledger/msledger.h"

#include <atomic>
#include <cstring>
#include <mutex>

namespace msledger {

// Each table defines the entries it reads; catalog_table.inc makes the
// others nothing and undefines all at its end.
const char *const kNameSpaces[] = {
#define MSLEDGER_NAMESPACE(index, name) name,
#include "catalog_table.inc"
};
const size_t kNameSpaceCount = sizeof(kNameSpaces) / sizeof(kNameSpaces[0]);

// The built-in entries' counts: each entry of the table counts one.
constexpr size_t kBuiltInFamilies = 0
#define MSLEDGER_FAMILY(...) +1
#include "catalog_table.inc"
    ;
constexpr size_t kBuiltInApis = 0
#define MSLEDGER_FUNCTION(...) +1
#include "catalog_table.inc"
    ;
static_assert(kBuiltInFamilies <= kMaxCatalogFamilies &&
                  kBuiltInApis <= kMaxCatalogFunctions,
              "the catalog fits the runtime's tables");

// The built-in entries first, constant-initialized (so that events before
// any constructor ran find them), then room for the registered ones.
FamilyInfo Families[kMaxCatalogFamilies] = {
#define MSLEDGER_FAMILY(index, name, display, level, kind, space, nameSpace,   \
                        refcounted, pointer, hasHandle, perDevice,             \
                        operatorHandles, handleIsKey, releasedAs)              \
  {name,                                                                       \
   display,                                                                    \
   level,                                                                      \
   kind,                                                                       \
   static_cast<Space>(space),                                                  \
   nameSpace,                                                                  \
   refcounted,                                                                 \
   pointer,                                                                    \
   hasHandle,                                                                  \
   perDevice,                                                                  \
   operatorHandles,                                                            \
   handleIsKey,                                                                \
   releasedAs},
#include "catalog_table.inc"
};
const size_t kFamilyCount = kBuiltInFamilies;

ApiInfo Apis[kMaxCatalogFunctions] = {
#define MSLEDGER_FUNCTION(index, name, role, family, deviceArgument,           \
                          recordedByCallee, nullAccepted)                      \
  {name, role, family, deviceArgument, recordedByCallee, nullAccepted},
#include "catalog_table.inc"
};
const size_t kApiCount = kBuiltInApis;

const int kOperatorPrepareApi = -1
#define MSLEDGER_OPERATOR_RULE(prepare, run, suffix) +1 + prepare
#include "catalog_table.inc"
    ;
const int kOperatorRunApi = -1
#define MSLEDGER_OPERATOR_RULE(prepare, run, suffix) +1 + run
#include "catalog_table.inc"
    ;
namespace {
const char *const kOperatorPrepareSuffix = ""
#define MSLEDGER_OPERATOR_RULE(prepare, run, suffix) suffix
#include "catalog_table.inc"
    ;
} // namespace

std::string operatorName(const FamilyInfo &family, const msledger_site *site) {
  return family.operatorHandles ? operatorAt(site) : "";
}

std::string operatorAt(const msledger_site *site) {
  if (!site || !site->callee)
    return "";
  std::string name = site->callee;
  size_t suffix = strlen(kOperatorPrepareSuffix);
  if (name.size() > suffix &&
      name.compare(name.size() - suffix, suffix, kOperatorPrepareSuffix) == 0)
    name.resize(name.size() - suffix);
  return name;
}

const ImplicitReleaseInfo kImplicitReleases[] = {
#define MSLEDGER_IMPLICIT_RELEASE(family, api, perDevice)                      \
  {family, api, perDevice},
#include "catalog_table.inc"
};
const size_t kImplicitReleaseCount =
    sizeof(kImplicitReleases) / sizeof(kImplicitReleases[0]);

namespace {

// Registered entries: written once under the mutex, then published by
// raising the count (release); readers only use indices they were given.
constexpr size_t kMaxApis = kMaxCatalogFunctions,
                 kMaxFamilies = kMaxCatalogFamilies, kMaxNameSpaces = 255;
const char *RegisteredNameSpaces[kMaxNameSpaces];
std::atomic<size_t> ApiTotal{0}, FamilyTotal{0}, NameSpaceTotal{0};
std::mutex RegistrationMutex;

size_t total(std::atomic<size_t> &counter, size_t builtIn) {
  size_t extra = counter.load(std::memory_order_acquire);
  return builtIn + extra;
}

} // namespace

size_t apiCount() { return total(ApiTotal, kApiCount); }

int apiIndex(const char *name) {
  if (!name)
    return -1;
  size_t count = apiCount();
  for (size_t i = 0; i < count; ++i)
    if (strcmp(apiInfo(static_cast<unsigned>(i)).name, name) == 0)
      return static_cast<int>(i);
  return -1;
}

int registerApi(const ApiDescription &d) {
  if (!d.name || !d.family || !d.display || !d.nameSpace)
    return -1;
  bool memoryRole = d.role == Role::Alloc || d.role == Role::Free;
  if (memoryRole != (d.kind == Kind::Memory))
    return -1;
  std::lock_guard<std::mutex> lock(RegistrationMutex);
  if (int known = apiIndex(d.name); known >= 0)
    return known;
  size_t apis = ApiTotal.load(std::memory_order_relaxed);
  if (kApiCount + apis >= kMaxApis)
    return -1;
  // The family, by name; a new one gets its namespace by name too.
  int family = -1;
  size_t families = FamilyTotal.load(std::memory_order_relaxed);
  for (size_t i = 0; i < kFamilyCount + families && family < 0; ++i)
    if (strcmp(familyInfo(static_cast<unsigned>(i)).name, d.family) == 0)
      family = static_cast<int>(i);
  if (family < 0) {
    if (kFamilyCount + families >= kMaxFamilies)
      return -1;
    int nameSpace = -1;
    size_t spaces = NameSpaceTotal.load(std::memory_order_relaxed);
    for (size_t i = 0; i < kNameSpaceCount + spaces && nameSpace < 0; ++i) {
      const char *known = i < kNameSpaceCount
                              ? kNameSpaces[i]
                              : RegisteredNameSpaces[i - kNameSpaceCount];
      if (strcmp(known, d.nameSpace) == 0)
        nameSpace = static_cast<int>(i);
    }
    if (nameSpace < 0) {
      if (kNameSpaceCount + spaces >= kMaxNameSpaces)
        return -1;
      RegisteredNameSpaces[spaces] = strdup(d.nameSpace);
      nameSpace = static_cast<int>(kNameSpaceCount + spaces);
      NameSpaceTotal.store(spaces + 1, std::memory_order_release);
    }
    Families[kFamilyCount + families] =
        FamilyInfo{strdup(d.family),
                   strdup(d.display),
                   d.level,
                   d.kind,
                   d.space,
                   static_cast<uint8_t>(nameSpace),
                   d.refcounted,
                   d.handleIsPointer,
                   d.hasHandle,
                   /*perDevice=*/false,
                   /*operatorHandles=*/false,
                   /*handleIsKey=*/false,
                   /*releasedAs=*/-1};
    family = static_cast<int>(kFamilyCount + families);
    FamilyTotal.store(families + 1, std::memory_order_release);
  }
  // A NULL reaches the ledger only from the wrapper of a release whose
  // catalog says "null": "refused".
  Apis[kApiCount + apis] = ApiInfo{strdup(d.name),
                                   d.role,
                                   static_cast<uint16_t>(family),
                                   /*deviceArgument=*/false,
                                   /*recordedByCallee=*/false,
                                   /*nullAccepted=*/false};
  ApiTotal.store(apis + 1, std::memory_order_release);
  return static_cast<int>(kApiCount + apis);
}

} // namespace msledger
