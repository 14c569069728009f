//===- catalog_table.h - The catalog as the runtime sees it ----*- C++ -*-===//
//
// Contract: constant tables of the catalog's handle namespaces, families and
// functions, generated at build time from rewriter/catalog/cann.json (see
// runtime/gen/catalog_gen.cpp). Indices are those of the catalog file. And
// how a family's handle keys a record: the handle with its namespace in the
// top 8 bits; the memory namespace (0) keys by the address itself. A key
// family's handle is the hash of the key's text (keyHandle); an id numbered
// per device carries its device above the id (deviceScopedId).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_CATALOG_TABLE_H
#define MSLEDGER_RUNTIME_CATALOG_TABLE_H

#include "catalog.h"
#include "fnv1a.h"
#include "msledger/msledger.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace msledger {

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
  // Released per device by an implicit release: records keep the device
  // where a size would be.
  bool perDevice;
  // The operator rule's executors: each belongs to the operator its site's
  // callee names ("executor of aclnnAdd").
  bool operatorHandles;
  // Handles are keys (text), named by their hash (msledger_key_handle):
  // reports write "key 0x...".
  bool handleIsKey;
  // The family whose releases release this one's handles as their own
  // (catalog "released_as"); -1 for none.
  int16_t releasedAs;
};

/// The operator rule's entries (catalog.h: OperatorRule): the API index of
/// every operator's phase 1 and of every phase 2; -1 without the rule.
extern const int kOperatorPrepareApi;
extern const int kOperatorRunApi;

struct ApiInfo {
  const char *name;
  Role role;
  uint16_t family;
  bool deviceArgument;   // passes the device of a per-device handle (else the
                         // ledger asks for the current device)
  bool recordedByCallee; // records its own events (mstx): no interposer
  bool nullAccepted;     // a release that returns success on NULL, as
                         // free(NULL) does: no finding (catalog "null")
};

/// A call that releases a family's live handles without naming them
/// (catalog: "released_implicitly_by").
struct ImplicitReleaseInfo {
  uint16_t family;
  uint16_t api;   // the releasing call
  bool perDevice; // only the handles of the device the call names
};
extern const ImplicitReleaseInfo kImplicitReleases[];
extern const size_t kImplicitReleaseCount;

extern const char *const kNameSpaces[];
extern const size_t kNameSpaceCount;

/// The catalog as the ledger knows it now: the built-in families and APIs
/// (the first kFamilyCount and kApiCount entries, from the catalog file),
/// then those that instrumented code registered at run time (a project's
/// catalog additions, msrewrite --catalog). Entries never change or move
/// once published, so readers take no lock. Hidden: the library's own code
/// reads them directly, not through the GOT.
#define MSLEDGER_CATALOG_TABLE __attribute__((visibility("hidden")))
extern MSLEDGER_CATALOG_TABLE FamilyInfo Families[];
extern MSLEDGER_CATALOG_TABLE const size_t kFamilyCount;
extern MSLEDGER_CATALOG_TABLE ApiInfo Apis[];
extern MSLEDGER_CATALOG_TABLE const size_t kApiCount;
#undef MSLEDGER_CATALOG_TABLE

// Inline: every tracked call looks its API and family up several times.
inline const ApiInfo &apiInfo(unsigned api) { return Apis[api]; }
inline const FamilyInfo &familyInfo(unsigned family) {
  return Families[family];
}
size_t apiCount();
inline const FamilyInfo &familyOf(unsigned api) {
  return familyInfo(apiInfo(api).family);
}
/// The function an event of `api` at `site` called: the API's name, but for
/// the operator rule's entries the operator function its site names
/// ("aclnnAddGetWorkspaceSize", not the rule's "aclnn*GetWorkspaceSize").
inline const char *calledName(unsigned api, const msledger_site *site) {
  if ((static_cast<int>(api) == kOperatorPrepareApi ||
       static_cast<int>(api) == kOperatorRunApi) &&
      site && site->callee)
    return site->callee;
  return apiInfo(api).name;
}
/// The operator a handle of the operator rule's family acquired at `site`
/// belongs to ("aclnnAdd" for a phase 1 "aclnnAddGetWorkspaceSize"); ""
/// for other families, or without a site.
std::string operatorName(const FamilyInfo &family, const msledger_site *site);
/// The operator whose phase 1 is called at `site` ("aclnnAdd" for a callee
/// "aclnnAddGetWorkspaceSize"); "" without a site.
std::string operatorAt(const msledger_site *site);
/// The index of API `name`, built-in or registered, or -1.
int apiIndex(const char *name);

constexpr uint64_t kHandleBits = 0x00FFFFFFFFFFFFFFULL;
/// The record key of `handle` in namespace `nameSpace`.
inline uint64_t keyInNameSpace(uint64_t nameSpace, uint64_t handle) {
  return nameSpace == 0 ? handle : (nameSpace << 56) | (handle & kHandleBits);
}
/// The record key of a handle `api` acquires or releases.
inline uint64_t keyOf(unsigned api, uint64_t handle) {
  return keyInNameSpace(familyOf(api).nameSpace, handle);
}
/// The handle (or address) a record key names.
inline uint64_t handleOf(uint64_t key) { return key & kHandleBits; }

/// The handle of key text `key` (a family of "handle": "key"): the 64-bit
/// FNV-1a of its bytes up to its NUL (at most 4096), its low 56 bits, never
/// 0; 0 for NULL.
/// msledger_key_handle.
inline uint64_t keyHandle(const char *key) {
  if (!key)
    return 0;
  // Within a record key's handle bits, so that every report writes the
  // same value; never 0, which is NULL's.
  uint64_t hash =
      fnv1a64(std::string_view(key, strnlen(key, 4096))) & kHandleBits;
  return hash ? hash : 1;
}

/// Whether `family`'s ids are numbered per device: ids (not addresses) of a
/// family released per device (acltdtCreateQueue's queue ids, which each
/// device numbers from 0). Its records are keyed by the id and the device
/// of the call (deviceScopedId), so that the same id on two devices is two
/// handles.
inline bool idsPerDevice(const FamilyInfo &family) {
  return family.perDevice && !family.handleIsPointer;
}
/// The bits of an id numbered per device that are the id; the device is
/// above them.
constexpr uint64_t kDeviceScopedIdBits = (1ULL << 40) - 1;
/// The handle that keys id `id` on device `device` (UINT32_MAX: none, kept
/// as 0xFFFF, apart from every device's ids).
inline uint64_t deviceScopedId(uint64_t device, uint64_t id) {
  return ((device & 0xFFFF) << 40) | (id & kDeviceScopedIdBits);
}
/// The handle a record of `family` names, as reports write it: an id
/// numbered per device without its device.
inline uint64_t handleOf(const FamilyInfo &family, uint64_t key) {
  return idsPerDevice(family) ? key & kDeviceScopedIdBits : handleOf(key);
}

/// An API of a catalog addition, as msledger_register_api describes it.
struct ApiDescription {
  const char *name;
  Role role;
  const char *family;
  const char *display;
  Level level;
  Kind kind;
  Space space;
  const char *nameSpace;
  bool refcounted;
  bool handleIsPointer;
  bool hasHandle;
};
/// Registers `description` (or finds an API of that name) and returns its
/// index; -1 when the tables are full or the role does not fit the kind.
int registerApi(const ApiDescription &description);

} // namespace msledger

#endif
