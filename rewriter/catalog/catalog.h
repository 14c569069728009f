//===- catalog.h - The catalog of tracked APIs ------------------*- C++ -*-===//
//
// Contract: the catalog is data (JSON, rewriter/catalog/cann.json; format in
// rewriter/catalog/README.md) and the single source of truth for which
// functions msrewrite rewrites and msledger interposes, and what they mean:
// role, family (which release matches which acquire), level, where the
// pointer or handle and the size are, and what return value means success.
//
// Catalog::parse validates everything a consumer relies on -- the runtime's
// table limits (kMaxCatalogFunctions, kMaxCatalogFamilies) included, which
// merge() checks again for a catalog with a project's additions -- and
// reports the first problem as "SOURCE: message" (naming the function or
// family); it never throws. Indices are stable: families and functions keep
// the order of the file, namespaces are numbered from 0 = "memory" in order
// of first use. This component (rewriter/catalog, the msledger_catalog
// library) is shared by msrewrite and the runtime's generator; the runtime
// itself uses only this header's types and spellings.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_CATALOG_H
#define MSLEDGER_REWRITER_CATALOG_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace msledger {

enum class Level { Device, Cann };
enum class Kind { Memory, Resource };
/// Retain and Consume are the operator rule's (Catalog::operators()): a
/// retained handle (an executor made repeatable) is not released by the
/// calls that consume the others (an operator's phase 2).
enum class Role { Alloc, Free, Acquire, Release, Access, Retain, Consume };
/// Key: the handle is the text a `char *` parameter points to (an IPC
/// memory key), named by its hash (msledger_key_handle).
enum class HandleFrom { Out, Param, Return, None, Key };
/// Differs: success is any result but successValue (hi_mpi_vb_create_pool's
/// pool id, whose failure is HI_VB_INVALID_POOLID). AtLeast: any result not
/// below successValue (hi_mpi_vdec_get_fd's descriptor, whose failures are
/// negative error codes).
enum class SuccessRule { Equals, NonNull, Always, Differs, AtLeast };

inline bool isAcquiring(Role role) {
  return role == Role::Alloc || role == Role::Acquire;
}
inline bool isReleasing(Role role) {
  return role == Role::Free || role == Role::Release || role == Role::Consume;
}

// The catalog's spellings of levels, kinds and roles, and back: one table for
// the loader, the generated wrappers, the reports and msledger_register_api.
inline const char *levelName(Level level) {
  return level == Level::Device ? "device" : "cann";
}
inline const char *kindName(Kind kind) {
  return kind == Kind::Memory ? "memory" : "resource";
}
inline const char *roleName(Role role) {
  switch (role) {
  case Role::Alloc:
    return "alloc";
  case Role::Free:
    return "free";
  case Role::Acquire:
    return "acquire";
  case Role::Release:
    return "release";
  case Role::Access:
    return "access";
  case Role::Retain:
    return "retain";
  case Role::Consume:
    return "consume";
  }
  return "?";
}
/// msledger_space, as the runtime's tables spell it; a family's space in the
/// catalog is one of these names, "" for none.
enum class Space : uint8_t {
  None = 0,
  GM = 1,
  Host = 2,
  DVPP = 3,
  Virtual = 4
};
inline const char *spaceName(Space space) {
  switch (space) {
  case Space::GM:
    return "GM";
  case Space::Host:
    return "host";
  case Space::DVPP:
    return "DVPP";
  case Space::Virtual:
    return "virtual";
  case Space::None:
    break;
  }
  return "";
}
inline std::optional<Space> spaceNamed(std::string_view name) {
  for (Space space :
       {Space::None, Space::GM, Space::Host, Space::DVPP, Space::Virtual})
    if (name == spaceName(space))
      return space;
  return std::nullopt;
}
inline std::optional<Level> levelNamed(std::string_view name) {
  for (Level level : {Level::Device, Level::Cann})
    if (name == levelName(level))
      return level;
  return std::nullopt;
}
inline std::optional<Kind> kindNamed(std::string_view name) {
  for (Kind kind : {Kind::Memory, Kind::Resource})
    if (name == kindName(kind))
      return kind;
  return std::nullopt;
}
inline std::optional<Role> roleNamed(std::string_view name) {
  for (Role role : {Role::Alloc, Role::Free, Role::Acquire, Role::Release,
                    Role::Access, Role::Retain, Role::Consume})
    if (name == roleName(role))
      return role;
  return std::nullopt;
}

struct Param {
  std::string type; // as written, e.g. "void **"
  std::string name;
};

/// A call that ends a family's live handles without naming them: resetting
/// a device destroys its streams, aclFinalize everything the runtime holds.
struct ImplicitRelease {
  std::string function;       // the releasing call, a function of the catalog
  bool perDevice = false;     // only the handles of the device it names
  unsigned functionIndex = 0; // index of `function`
};

/// What the runtime's tables hold -- its records keep an API index in 10 bits
/// -- and so what a catalog, the built-in one with a project's additions,
/// may have.
constexpr size_t kMaxCatalogFunctions = 1023;
constexpr size_t kMaxCatalogFamilies = 255;

struct Family {
  std::string name;
  std::string display;   // "stream", "device memory", ...
  std::string space;     // spaceName(): "GM", "host", "DVPP", "virtual", ""
  std::string nameSpace; // families sharing one compare handles with each other
  Level level = Level::Cann;
  Kind kind = Kind::Memory;
  bool refcounted = false;
  bool handleIsPointer =
      true; // "handle": "address" (default) or "id" (device id, model id)
  /// "released_as": the family whose releasing functions release this
  /// one's handles as their own (an imported physical handle, which
  /// aclrtFreePhysical releases); its index, -1 for none. Built-in catalog
  /// only.
  std::string releasedAs;
  int releasedAsIndex = -1;
  /// "handle": "key": the handle is a key's text, kept as its hash (NULL is
  /// no key, as a NULL pointer is no address). Built-in catalog only.
  bool handleIsKey = false;
  bool hasHandle = true; // false when the acquire hands out nothing (aclInit)
  /// The operator rule's family: its handles (executors) belong to an
  /// operator, which reports name ("executor of aclnnAdd").
  bool operatorHandles = false;
  unsigned nameSpaceIndex = 0;
  // "released_implicitly_by", at most two. A family released per device
  // keeps the device of each handle where a size would be.
  std::vector<ImplicitRelease> implicitReleases;
  Space memorySpace() const { return spaceNamed(space).value_or(Space::None); }
  bool perDevice() const {
    for (const ImplicitRelease &release : implicitReleases)
      if (release.perDevice)
        return true;
    return false;
  }
};

/// What a copy or set touches ("role": "access"): the parameters of the
/// range it writes and the one it reads (-1: none). A range is `size` bytes,
/// or for a 2-D copy `height` rows of `width` bytes, `pitch` apart.
struct AccessParams {
  int write = -1, writePitch = -1;
  int read = -1, readPitch = -1;
  int size = -1;
  int width = -1, height = -1;
  int direction = -1; // an aclrtMemcpyKind: which side is host, which device
  /// The fields above, by name, for what treats them alike.
  enum Field {
    Write,
    WritePitch,
    Read,
    ReadPitch,
    Size,
    Width,
    Height,
    Direction,
    kFieldCount
  };
  int param(Field field) const {
    static constexpr int AccessParams::*kParams[kFieldCount] = {
        &AccessParams::write,  &AccessParams::writePitch,
        &AccessParams::read,   &AccessParams::readPitch,
        &AccessParams::size,   &AccessParams::width,
        &AccessParams::height, &AccessParams::direction};
    return this->*kParams[field];
  }
  /// A field may be a member of what its (pointer) parameter points to,
  /// "pCopy->copy2d.dst": the member path, by Field, "" for the parameter
  /// itself.
  std::string members[kFieldCount];
  /// The access is checked only when this parameter's member (`when`, -1:
  /// always) has one of `whenValues` (halMemcpy2D's type).
  int when = -1;
  std::string whenMember;
  std::vector<long long> whenValues;
  bool twoDimensional() const { return width >= 0; }
  /// Whether a field is a member: track.h then wraps the call as a C
  /// statement expression in C++ too (its templates take parameters).
  bool hasMembers() const {
    for (const std::string &member : members)
      if (!member.empty())
        return true;
    return when >= 0;
  }
};

/// Which part of the operator rule a function is (Catalog::operators()):
/// the rule's two entries stand for every operator's phase 1 (Prepare,
/// "aclnn*GetWorkspaceSize") and phase 2 (Run, "aclnn*").
enum class OperatorPart { None, Prepare, Run };

struct Function {
  std::string name;
  std::string returnType;
  std::vector<Param> params;
  Role role = Role::Alloc;
  unsigned family = 0;
  HandleFrom handleFrom = HandleFrom::None;
  int handleParam = -1; // index into params for Out and Param
  /// An acquisition that writes an array of handles through its Out
  /// parameter (HcclCommInitAll's comms): the parameter with their count;
  /// -1 for one handle.
  int handleCountParam = -1;
  int sizeParam = -1;
  SuccessRule success = SuccessRule::Equals;
  long long successValue = 0;
  int spaceFlagParam = -1; // driver flag that decides the memory space
  int deviceParam = -1;    // the device of a per-device handle (else current)
  // The device the memory is allocated on: a parameter, or a member of the
  // struct it points to ("location.id").
  int memoryDeviceParam = -1;
  std::string memoryDeviceMember;
  // "recorded_by": "callee": the function records its events itself (an
  // mstx call, which an injection library of msledger's receives): there is
  // no interposer, a rewritten call only names its site for it, and it needs
  // no handle or size.
  bool recordedByCallee = false;
  /// For "role": "access": the ranges checked against live and freed memory
  /// of the family's level (any memory family of it), before the call.
  AccessParams access;
  /// An entry of the operator rule, standing for many functions: no
  /// interposer or wrapper of its own (see OperatorRule).
  OperatorPart operatorPart = OperatorPart::None;
  /// "owns": an acquisition that takes over the handles of another family
  /// passed in an array (aclCreateTensorList's tensors, which the list
  /// destroys): on success each non-null one is released, by the call, as
  /// that family's release function (ownsRelease, an index) would.
  int ownsParam = -1, ownsCountParam = -1, ownsRelease = -1;
  /// "null" of a release or free of a pointer passed in: "accepted" (the
  /// default) when the real function returns success and does nothing for
  /// NULL, as free(NULL) does -- such a call is no event; "refused" when it
  /// fails -- the call is then an illegal release, as the real runtime
  /// logs an error for it.
  bool nullAccepted = true;
  /// Whether "null" was stated at all (the built-in catalog states it for
  /// every release: lit-tests/rewriter/lifecycle-coverage.test).
  bool nullStated = false;
  /// "since": the CANN release whose public headers first declare it
  /// ("7.0": that release or an earlier one; "8.1.RC1", "8.5.0", ...); empty
  /// when not stated.
  std::string since;

  /// "aclError aclrtMalloc(void **devPtr, size_t size, ...)"
  std::string signature() const;
};

/// The two-phase operator API (aclnn): "operators" in the catalog. Every
/// function named PREFIX...SUFFIX whose last two parameters are
/// `uint64_t *` (the workspace size) and `EXECUTOR **` is an operator's
/// phase 1: on success it acquires the executor written through its last
/// parameter, in `family`. The function named PREFIX...(the same operator)
/// taking (void *workspace, uint64_t workspaceSize, EXECUTOR *executor,
/// aclrtStream stream) is its phase 2: it consumes the executor -- releases
/// it, whether it succeeds or not, unless a function of role "retain"
/// (aclSetAclOpExecutorRepeatable) retained it; a retained executor is
/// released by the family's release (aclDestroyAclOpExecutor). No operator
/// is listed: the rule covers those of any toolkit release.
struct OperatorRule {
  bool present = false;
  std::string prefix;        // "aclnn"
  std::string prepareSuffix; // "GetWorkspaceSize"
  std::string executorType;  // "aclOpExecutor"
  unsigned family = 0;
  unsigned prepare = 0, run = 0; // the rule's entries among the functions

  /// The part a function of this name and parameter types (as the compiler
  /// spells them, "aclOpExecutor **") is of, OperatorPart::None if none.
  OperatorPart partOf(const std::string &name,
                      const std::vector<std::string> &paramTypes) const;
  /// Whether `name` alone is a phase 1's (a catalog entry checked against
  /// the rule, whose types do not matter).
  bool namesAPrepare(const std::string &name) const;
  /// "aclnnAdd" of "aclnnAddGetWorkspaceSize" and of "aclnnAdd".
  std::string operatorOf(const std::string &function) const;
};

class Catalog {
public:
  /// Parses and validates catalog text. On failure returns nullopt and sets
  /// *error to "SOURCE: message".
  static std::optional<Catalog>
  parse(const std::string &text, const std::string &source, std::string *error);
  /// Reads and parses a catalog file.
  static std::optional<Catalog> load(const std::string &path,
                                     std::string *error);

  const std::vector<std::string> &headers() const { return Headers; }
  const std::vector<Family> &families() const { return Families; }
  const std::vector<Function> &functions() const { return Functions; }
  const std::vector<std::string> &nameSpaces() const { return NameSpaces; }
  const Function *findFunction(const std::string &name) const;
  const OperatorRule &operators() const { return Operators; }
  /// "not_resources": functions whose names read like a lifecycle's that
  /// make or release nothing tracked, by name, with the reason.
  const std::map<std::string, std::string> &notResources() const {
    return NotResources;
  }
  /// Appends a catalog's families and functions (a project's additions). A
  /// family or function both catalogs define is an error naming it.
  bool merge(const Catalog &addition, const std::string &source,
             std::string *error);
  const Family &familyOf(const Function &function) const {
    return Families[function.family];
  }

private:
  std::vector<std::string> Headers;
  std::vector<Family> Families;
  std::vector<Function> Functions;
  std::vector<std::string> NameSpaces;
  OperatorRule Operators;
  std::map<std::string, std::string> NotResources;
};

/// The catalog at `builtin` with the catalogs at `additionPaths` merged in,
/// in order: a project's own allocators and handles. `additions` gets the
/// names of the functions they add. nullopt with *error set on the first
/// problem.
std::optional<Catalog>
loadCatalogs(const std::string &builtin,
             const std::vector<std::string> &additionPaths,
             std::set<std::string> *additions, std::string *error);

/// Splits "RET NAME(TYPE NAME, ...)" into its parts; false if malformed.
bool parseSignature(const std::string &signature, std::string *returnType,
                    std::string *name, std::vector<Param> *params);

} // namespace msledger

#endif
