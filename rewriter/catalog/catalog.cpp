//===- catalog.cpp - The catalog of tracked APIs --------------------------===//
#include "catalog.h"

#include "text_file.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

namespace json = boost::json;

namespace msledger {

namespace {

/// The handle of a function recorded by its callee that names none.
const json::value kNoHandle = json::object{{"from", "none"}};

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\n");
  return text.substr(begin, end - begin + 1);
}

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Splits "TYPE NAME" at the trailing identifier.
bool splitDeclarator(const std::string &text, std::string *type,
                     std::string *name) {
  std::string decl = trim(text);
  size_t end = decl.size();
  size_t begin = end;
  while (begin > 0 && isIdentifierChar(decl[begin - 1]))
    --begin;
  if (begin == end || begin == 0 ||
      std::isdigit(static_cast<unsigned char>(decl[begin])))
    return false;
  *name = decl.substr(begin);
  *type = trim(decl.substr(0, begin));
  return !type->empty();
}

bool isPointerType(const std::string &type) {
  return !type.empty() && type.back() == '*';
}

/// A pointer, or one of CANN's handle types that are pointers by typedef
/// (cann_types.h: `typedef void *aclrtBinary;`): what a function returning a
/// handle may return for "nonnull".
bool isPointerOrHandleType(const std::string &type) {
  static const std::set<std::string> kPointerTypedefs = {
      "aclrtStream",    "aclrtContext",   "aclrtEvent",         "aclrtNotify",
      "aclrtBinary",    "aclrtBinHandle", "aclrtAllocatorDesc", "aclrtLabel",
      "aclrtLabelList", "aclrtCntNotify", "aclrtMbuf",          "aclmdlRI",
      "acltdtBuf",      "HcclComm",       "HcclCommSymWindow"};
  return isPointerType(type) || kPointerTypedefs.count(type) != 0;
}

/// An integer type that carries an address: the driver's DVdeviceptr.
bool isAddressInteger(const std::string &type) {
  return type == "DVdeviceptr" || type == "uintptr_t" || type == "uint64_t";
}

class Parser {
public:
  Parser(const std::string &source, std::string *error)
      : Source(source), Error(error) {}

  bool fail(const std::string &message) {
    *Error = Source + ": " + message;
    return false;
  }

  const json::object *object(const json::value &value,
                             const std::string &what) {
    const json::object *result = value.if_object();
    if (!result)
      fail(what + " must be an object");
    return result;
  }

  bool string(const json::object &object, const char *key,
              const std::string &what, std::string *out, bool required = true) {
    const json::value *value = object.if_contains(key);
    if (!value) {
      if (required)
        return fail(what + ": missing \"" + key + "\"");
      return true;
    }
    const json::string *text = value->if_string();
    if (!text || text->empty())
      return fail(what + ": \"" + key + "\" must be a non-empty string");
    *out = std::string(text->c_str());
    return true;
  }

  int paramIndex(const Function &function, const std::string &name) {
    for (size_t i = 0; i < function.params.size(); ++i)
      if (function.params[i].name == name)
        return static_cast<int>(i);
    return -1;
  }

  /// A function's field `key` that names a parameter, {`paramKey`: P}: sets
  /// *index to P's and returns the field's object, or null after an error
  /// ("LABEL \"P\" is not in the signature"). *param gets P.
  const json::object *paramField(const json::value &value,
                                 const Function &function,
                                 const std::string &what, const char *key,
                                 const char *paramKey, const char *label,
                                 int *index, std::string *param) {
    const json::object *field =
        object(value, what + ": \"" + std::string(key) + "\"");
    if (!field || !string(*field, paramKey, what + " " + key, param))
      return nullptr;
    *index = paramIndex(function, *param);
    if (*index < 0) {
      fail(what + ": " + label + " \"" + *param + "\" is not in the signature");
      return nullptr;
    }
    return field;
  }

  bool parseFamily(const json::value &value, Catalog &catalog,
                   std::vector<Family> &families,
                   std::map<std::string, unsigned> &nameSpaces,
                   std::vector<std::string> &nameSpaceList) {
    const json::object *object = this->object(value, "a family");
    if (!object)
      return false;
    Family family;
    if (!string(*object, "name", "a family", &family.name))
      return false;
    std::string what = "family '" + family.name + "'";
    std::string level, kind;
    if (!string(*object, "level", what, &level) ||
        !string(*object, "kind", what, &kind) ||
        !string(*object, "display", what, &family.display) ||
        !string(*object, "space", what, &family.space, false) ||
        !string(*object, "namespace", what, &family.nameSpace, false))
      return false;
    if (std::optional<Level> named = levelNamed(level))
      family.level = *named;
    else
      return fail(what + ": level must be \"device\" or \"cann\", not \"" +
                  level + "\"");
    if (std::optional<Kind> named = kindNamed(kind))
      family.kind = *named;
    else
      return fail(what + ": kind must be \"memory\" or \"resource\", not \"" +
                  kind + "\"");
    if (!spaceNamed(family.space))
      return fail(what + ": space must be one of GM, host, DVPP, virtual");
    std::string handle = "address";
    if (!string(*object, "handle", what, &handle, false))
      return false;
    if (handle != "address" && handle != "id" && handle != "key")
      return fail(what +
                  ": handle must be \"address\", \"id\" or \"key\", "
                  "not \"" +
                  handle + "\"");
    family.handleIsPointer = handle != "id";
    family.handleIsKey = handle == "key";
    if (const json::value *refcounted = object->if_contains("refcounted")) {
      if (!refcounted->is_bool())
        return fail(what + ": \"refcounted\" must be true or false");
      family.refcounted = refcounted->as_bool();
    }
    if (const json::value *implicit =
            object->if_contains("released_implicitly_by")) {
      const json::array *list = implicit->if_array();
      if (!list || list->size() > 2)
        return fail(what + ": \"released_implicitly_by\" must be an array of "
                           "at most two {\"function\": NAME, \"scope\": "
                           "\"device\" or \"all\"}");
      for (const json::value &entry : *list) {
        const json::object *release =
            this->object(entry, what + ": an implicit release");
        ImplicitRelease implicitRelease;
        std::string scope = "all";
        if (!release ||
            !string(*release, "function", what + " implicit release",
                    &implicitRelease.function) ||
            !string(*release, "scope", what + " implicit release", &scope,
                    false))
          return false;
        if (scope != "all" && scope != "device")
          return fail(what +
                      ": an implicit release's scope must be "
                      "\"device\" or \"all\", not \"" +
                      scope + "\"");
        implicitRelease.perDevice = scope == "device";
        family.implicitReleases.push_back(std::move(implicitRelease));
      }
    }
    if (!string(*object, "released_as", what, &family.releasedAs, false))
      return false;
    if (family.nameSpace.empty())
      family.nameSpace = family.name;
    for (const Family &other : families)
      if (other.name == family.name)
        return fail(what + " is defined twice");
    auto inserted = nameSpaces.emplace(
        family.nameSpace, static_cast<unsigned>(nameSpaceList.size()));
    if (inserted.second)
      nameSpaceList.push_back(family.nameSpace);
    family.nameSpaceIndex = inserted.first->second;
    if (nameSpaceList.size() > 255)
      return fail("more than 255 handle namespaces");
    (void)catalog;
    families.push_back(std::move(family));
    return true;
  }

  bool parseFunction(const json::value &value, std::vector<Family> &families,
                     std::vector<Function> &functions) {
    const json::object *object = this->object(value, "a function");
    if (!object)
      return false;
    Function function;
    std::string signature;
    if (!string(*object, "signature", "a function", &signature))
      return false;
    if (!parseSignature(signature, &function.returnType, &function.name,
                        &function.params))
      return fail("cannot parse the signature \"" + signature + "\"");
    std::string what = "function '" + function.name + "'";
    for (const Function &other : functions)
      if (other.name == function.name)
        return fail(what + " is listed twice");
    std::string role, familyName;
    if (!string(*object, "role", what, &role) ||
        !string(*object, "family", what, &familyName))
      return false;
    std::optional<Role> named = roleNamed(role);
    if (!named || *named == Role::Consume)
      return fail(what +
                  ": role must be alloc, free, acquire, release, access or "
                  "retain, not \"" +
                  role + "\"");
    function.role = *named;
    auto family =
        std::find_if(families.begin(), families.end(),
                     [&](const Family &f) { return f.name == familyName; });
    if (family == families.end())
      return fail(what + ": unknown family \"" + familyName + "\"");
    function.family = static_cast<unsigned>(family - families.begin());
    bool memoryRole = function.role == Role::Alloc ||
                      function.role == Role::Free ||
                      function.role == Role::Access;
    // A retain (one more reference) fits either kind.
    if (function.role != Role::Retain &&
        memoryRole != (family->kind == Kind::Memory))
      return fail(what + ": role " + role + " does not fit the " +
                  kindName(family->kind) + " family '" + familyName +
                  "' (memory: alloc/free/access, resource: acquire/release)");
    if (!string(*object, "since", what, &function.since, false))
      return false;
    static const std::regex kRelease(
        "[0-9]+\\.[0-9]+(\\.[0-9]+)?(\\.RC[0-9]+)?");
    if (!function.since.empty() && !std::regex_match(function.since, kRelease))
      return fail(what + ": since \"" + function.since +
                  "\" is not a CANN release (7.0, 8.1.RC1, 8.5.0)");
    if (function.role == Role::Access)
      return parseAccess(*object, what, function, functions);

    std::string recordedBy;
    if (!string(*object, "recorded_by", what, &recordedBy, false))
      return false;
    if (!recordedBy.empty() && recordedBy != "callee")
      return fail(what + ": recorded_by must be \"callee\", not \"" +
                  recordedBy + "\"");
    function.recordedByCallee = recordedBy == "callee";

    const json::value *handleValue = object->if_contains("handle");
    if (!handleValue && function.recordedByCallee)
      handleValue = &kNoHandle;
    if (!handleValue)
      return fail(what + ": missing \"handle\"");
    const json::object *handle =
        this->object(*handleValue, what + ": \"handle\"");
    if (!handle)
      return false;
    std::string from, param;
    if (!string(*handle, "from", what + " handle", &from))
      return false;
    if (from == "out" || from == "param" || from == "key") {
      if (!string(*handle, "param", what + " handle", &param))
        return false;
      function.handleFrom = from == "out"     ? HandleFrom::Out
                            : from == "param" ? HandleFrom::Param
                                              : HandleFrom::Key;
      function.handleParam = paramIndex(function, param);
      if (function.handleParam < 0)
        return fail(what + ": handle parameter \"" + param +
                    "\" is not in the signature");
      const std::string &type = function.params[function.handleParam].type;
      if (from == "out" && !isPointerType(type))
        return fail(what + ": out-parameter \"" + param +
                    "\" must be a pointer");
      if (from == "key" && type != "char *" && type != "const char *")
        return fail(what + ": key parameter \"" + param +
                    "\" must be a char * or const char *, not " + type);
      std::string count;
      if (!string(*handle, "count", what + " handle", &count, false))
        return false;
      if (!count.empty()) {
        function.handleCountParam = paramIndex(function, count);
        if (from != "out" || !isAcquiring(function.role))
          return fail(what + ": a handle \"count\" belongs to an acquisition "
                             "writing an array (\"from\": \"out\")");
        if (function.handleCountParam < 0 ||
            isPointerType(function.params[function.handleCountParam].type))
          return fail(what + ": handle count \"" + count +
                      "\" is not a number parameter of the signature");
      }
    } else if (from == "return") {
      function.handleFrom = HandleFrom::Return;
      if (function.returnType == "void")
        return fail(what + ": the handle cannot come from a void return");
    } else if (from == "none") {
      function.handleFrom = HandleFrom::None;
    } else {
      return fail(what +
                  ": handle \"from\" must be out, param, key, return or none");
    }

    if (const json::value *sizeValue = object->if_contains("size")) {
      if (!paramField(*sizeValue, function, what, "size", "param",
                      "size parameter", &function.sizeParam, &param))
        return false;
      if (isPointerType(function.params[function.sizeParam].type))
        return fail(what + ": size parameter \"" + param +
                    "\" is a pointer; the size is a number passed in");
    } else if (family->kind == Kind::Memory && isAcquiring(function.role) &&
               !function.recordedByCallee) {
      return fail(what + ": an allocation needs a \"size\"");
    }
    if (const json::value *deviceValue = object->if_contains("device"))
      if (!paramField(*deviceValue, function, what, "device", "param",
                      "device parameter", &function.deviceParam, &param))
        return false;

    if (const json::value *deviceValue = object->if_contains("memory_device")) {
      const json::object *device = paramField(
          *deviceValue, function, what, "memory_device", "param",
          "memory_device parameter", &function.memoryDeviceParam, &param);
      if (!device || !string(*device, "member", what + " memory_device",
                             &function.memoryDeviceMember, /*required=*/false))
        return false;
      if (family->kind != Kind::Memory || !isAcquiring(function.role))
        return fail(what + ": a \"memory_device\" belongs to an allocation");
      const std::string &member = function.memoryDeviceMember;
      if (!member.empty() &&
          !isPointerType(function.params[function.memoryDeviceParam].type))
        return fail(what + ": memory_device parameter \"" + param +
                    "\" has a member only if it is a pointer");
      static const std::regex kMemberPath(
          "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
      if (!member.empty() && !std::regex_match(member, kMemberPath))
        return fail(what + ": memory_device member \"" + member +
                    "\" is not a field name (or names, with dots)");
    }

    const json::value *successValue = object->if_contains("success");
    const json::object *success =
        successValue ? this->object(*successValue, what + ": \"success\"")
                     : nullptr;
    if (!success)
      return successValue ? false : fail(what + ": missing \"success\"");
    if (const json::value *equals = success->if_contains("equals")) {
      if (!equals->is_int64())
        return fail(what + ": success \"equals\" must be an integer");
      function.success = SuccessRule::Equals;
      function.successValue = equals->as_int64();
      if (function.returnType == "void")
        return fail(what +
                    ": a void function cannot succeed by its return value");
    } else if (const char *field = success->contains("differs")    ? "differs"
                                   : success->contains("at_least") ? "at_least"
                                                                   : nullptr) {
      // A result compared with a number: success "differs" from it, or is
      // "at_least" it.
      const json::value &value = success->at(field);
      if (!value.is_int64())
        return fail(what + ": success \"" + field + "\" must be an integer");
      function.success = std::string(field) == "differs" ? SuccessRule::Differs
                                                         : SuccessRule::AtLeast;
      function.successValue = value.as_int64();
      if (function.returnType == "void" ||
          isPointerOrHandleType(function.returnType))
        return fail(what + ": success \"" + field +
                    "\" needs a number return type");
    } else if (const json::value *nonNull = success->if_contains("nonnull")) {
      function.success = SuccessRule::NonNull;
      if (!nonNull->is_bool() || !nonNull->as_bool())
        return fail(what + ": success \"nonnull\" must be true");
      if (!isPointerOrHandleType(function.returnType))
        return fail(what + ": success \"nonnull\" needs a pointer return type");
    } else if (const json::value *always = success->if_contains("always")) {
      function.success = SuccessRule::Always;
      if (!always->is_bool() || !always->as_bool())
        return fail(what + ": success \"always\" must be true (a function "
                           "that can fail says how: \"equals\" or "
                           "\"nonnull\")");
    } else {
      return fail(what + ": success must be {\"equals\": N}, {\"differs\": "
                         "N}, {\"at_least\": N}, {\"nonnull\": true} or "
                         "{\"always\": true}");
    }

    if (const json::value *spaceValue = object->if_contains("space"))
      if (!paramField(*spaceValue, function, what, "space", "driver_flag",
                      "space flag parameter", &function.spaceFlagParam, &param))
        return false;

    if (const json::value *ownsValue = object->if_contains("owns")) {
      const json::object *owns =
          paramField(*ownsValue, function, what, "owns", "param",
                     "owned parameter", &function.ownsParam, &param);
      std::string count, ownedFamily;
      if (!owns || !string(*owns, "count", what + " owns", &count) ||
          !string(*owns, "family", what + " owns", &ownedFamily))
        return false;
      function.ownsCountParam = paramIndex(function, count);
      if (function.ownsCountParam < 0)
        return fail(what + ": owned count \"" + count +
                    "\" is not in the signature");
      if (!isAcquiring(function.role) || family->kind != Kind::Resource)
        return fail(what + ": \"owns\" belongs to a resource's acquisition");
      if (!isPointerType(function.params[function.ownsParam].type) ||
          isPointerType(function.params[function.ownsCountParam].type))
        return fail(what + ": \"owns\" needs an array of handles and a "
                           "count passed in");
      // Resolved once every function is read (resolveImplicitReleases).
      OwnedFamilies.emplace_back(functions.size(), ownedFamily);
    }

    std::string null;
    if (!string(*object, "null", what, &null, false))
      return false;
    if (!null.empty()) {
      if (null != "accepted" && null != "refused")
        return fail(what +
                    ": null must be \"accepted\" or \"refused\", not \"" +
                    null + "\"");
      if (isAcquiring(function.role) ||
          (function.handleFrom != HandleFrom::Param &&
           function.handleFrom != HandleFrom::Key))
        return fail(what +
                    ": \"null\" belongs to a release of a handle passed in");
      function.nullStated = true;
      function.nullAccepted = null == "accepted";
    }

    if ((function.handleFrom == HandleFrom::Key) != family->handleIsKey &&
        function.role != Role::Access)
      return fail(what + (family->handleIsKey
                              ? ": family '" + family->name +
                                    "' has keys: its handle is {\"from\": "
                                    "\"key\", ...}"
                              : ": a handle \"from\" \"key\" belongs to a "
                                "family of \"handle\": \"key\""));
    if (isAcquiring(function.role) && function.handleFrom == HandleFrom::None &&
        !function.recordedByCallee)
      family->hasHandle = false;
    functions.push_back(std::move(function));
    return true;
  }

  /// "operators": the operator rule (catalog.h), whose two entries are
  /// appended to the functions.
  bool parseOperators(const json::value &value, Catalog &catalog,
                      OperatorRule &rule, std::vector<Family> &families,
                      std::vector<Function> &functions) {
    (void)catalog;
    const json::object *object = this->object(value, "\"operators\"");
    std::string familyName;
    if (!object || !string(*object, "family", "\"operators\"", &familyName) ||
        !string(*object, "prefix", "\"operators\"", &rule.prefix) ||
        !string(*object, "prepare_suffix", "\"operators\"",
                &rule.prepareSuffix) ||
        !string(*object, "executor_type", "\"operators\"", &rule.executorType))
      return false;
    auto family =
        std::find_if(families.begin(), families.end(),
                     [&](const Family &f) { return f.name == familyName; });
    if (family == families.end())
      return fail("\"operators\": unknown family \"" + familyName + "\"");
    if (family->kind != Kind::Resource || !family->handleIsPointer)
      return fail("\"operators\": family '" + familyName +
                  "' must be a resource family whose handles are addresses");
    for (const Function &function : functions)
      if (rule.namesAPrepare(function.name))
        return fail("function '" + function.name +
                    "' is an operator's: the operator rule covers it");
    rule.family = static_cast<unsigned>(family - families.begin());
    family->operatorHandles = true;
    std::string executor = rule.executorType;
    auto entry = [&](OperatorPart part, const std::string &name, Role role,
                     std::vector<Param> params, int handleParam) {
      Function function;
      function.name = name;
      function.returnType = "aclnnStatus";
      function.params = std::move(params);
      function.role = role;
      function.family = rule.family;
      function.handleFrom =
          part == OperatorPart::Prepare ? HandleFrom::Out : HandleFrom::Param;
      function.handleParam = handleParam;
      function.success = SuccessRule::Equals;
      function.successValue = 0;
      function.operatorPart = part;
      functions.push_back(std::move(function));
      return static_cast<unsigned>(functions.size() - 1);
    };
    rule.prepare = entry(
        OperatorPart::Prepare, rule.prefix + "*" + rule.prepareSuffix,
        Role::Acquire,
        {{"uint64_t *", "workspaceSize"}, {executor + " **", "executor"}}, 1);
    rule.run = entry(OperatorPart::Run, rule.prefix + "*", Role::Consume,
                     {{"void *", "workspace"},
                      {"uint64_t", "workspaceSize"},
                      {executor + " *", "executor"},
                      {"aclrtStream", "stream"}},
                     2);
    rule.present = true;
    return true;
  }

  /// The rest of an access (a copy or set): its "access" ranges. It needs
  /// no handle, size or success: it is checked before the call.
  bool parseAccess(const json::object &object, const std::string &what,
                   Function &function, std::vector<Function> &functions) {
    for (const char *field : {"handle", "size", "success", "space", "device",
                              "memory_device", "recorded_by"})
      if (object.contains(field))
        return fail(what + ": an access has no \"" + field + "\"");
    const json::value *value = object.if_contains("access");
    const json::object *access =
        value ? this->object(*value, what + ": \"access\"") : nullptr;
    if (!access)
      return value ? false : fail(what + ": an access needs \"access\"");
    AccessParams &params = function.access;
    struct Field {
      const char *key;
      int *index;
      std::string *member;
      bool pointer;
    };
    const Field fields[] = {
        {"write", &params.write, &params.members[AccessParams::Write], true},
        {"write_pitch", &params.writePitch,
         &params.members[AccessParams::WritePitch], false},
        {"read", &params.read, &params.members[AccessParams::Read], true},
        {"read_pitch", &params.readPitch,
         &params.members[AccessParams::ReadPitch], false},
        {"size", &params.size, &params.members[AccessParams::Size], false},
        {"width", &params.width, &params.members[AccessParams::Width], false},
        {"height", &params.height, &params.members[AccessParams::Height],
         false},
        {"direction", &params.direction,
         &params.members[AccessParams::Direction], false}};
    for (const auto &entry : *access) {
      if (entry.key() == "when") {
        if (!parseAccessCondition(entry.value(), what, function))
          return false;
        continue;
      }
      const Field *field =
          std::find_if(std::begin(fields), std::end(fields),
                       [&](const Field &f) { return entry.key() == f.key; });
      if (field == std::end(fields))
        return fail(what + ": unknown access field \"" +
                    std::string(entry.key()) + "\"");
      const json::string *param = entry.value().if_string();
      if (!param)
        return fail(what + ": access \"" + field->key +
                    "\" must name a parameter");
      if (!accessValue(param->c_str(), what,
                       std::string("access ") + field->key + " parameter",
                       function, field->index, field->member))
        return false;
      // A member's type is the header's to know; a parameter's is here.
      if (!field->member->empty())
        continue;
      const std::string &type = function.params[*field->index].type;
      bool address = isPointerType(type) || isAddressInteger(type);
      if (field->pointer ? !address : isPointerType(type))
        return fail(what + ": access " + field->key + " parameter \"" +
                    param->c_str() + "\" must be " +
                    (field->pointer ? "an address" : "a number"));
    }
    if (params.write < 0 && params.read < 0)
      return fail(what + ": an access needs a \"write\" or \"read\"");
    bool linear = params.size >= 0;
    bool planar = params.width >= 0 || params.height >= 0 ||
                  params.writePitch >= 0 || params.readPitch >= 0;
    if (linear == planar)
      return fail(what + ": an access has a \"size\", or a \"width\", "
                         "\"height\" and a pitch for each side (2-D)");
    if (planar && (params.width < 0 || params.height < 0 ||
                   (params.write >= 0) != (params.writePitch >= 0) ||
                   (params.read >= 0) != (params.readPitch >= 0)))
      return fail(what + ": a 2-D access needs \"width\", \"height\" and "
                         "the pitch of each side it has");
    functions.push_back(std::move(function));
    return true;
  }

  /// An access field's value: a parameter, or "PARAM->member.path" (PARAM a
  /// pointer). Sets *index and *member.
  bool accessValue(const std::string &value, const std::string &what,
                   const std::string &label, const Function &function,
                   int *index, std::string *member) {
    size_t arrow = value.find("->");
    std::string param = value.substr(0, arrow);
    *member = arrow == std::string::npos ? "" : value.substr(arrow + 2);
    *index = paramIndex(function, param);
    if (*index < 0)
      return fail(what + ": " + label + " \"" + param +
                  "\" is not in the signature");
    static const std::regex kMemberPath(
        "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    if (arrow != std::string::npos &&
        (!isPointerType(function.params[*index].type) ||
         !std::regex_match(*member, kMemberPath)))
      return fail(what + ": " + label + " \"" + value +
                  "\": a member is PARAM->field.field..., of a pointer");
    return true;
  }

  /// "when": {"value": "PARAM->member", "in": [N, ...]}.
  bool parseAccessCondition(const json::value &value, const std::string &what,
                            Function &function) {
    const json::object *when = object(value, what + ": access \"when\"");
    std::string field;
    if (!when || !string(*when, "value", what + " access when", &field))
      return false;
    AccessParams &params = function.access;
    if (!accessValue(field, what, "access when parameter", function,
                     &params.when, &params.whenMember))
      return false;
    const json::value *in = when->if_contains("in");
    const json::array *values = in ? in->if_array() : nullptr;
    if (!values || values->empty())
      return fail(what + ": access \"when\" needs \"in\": [N, ...]");
    for (const json::value &number : *values) {
      if (!number.is_int64())
        return fail(what + ": access \"when\" values must be integers");
      params.whenValues.push_back(number.as_int64());
    }
    return true;
  }

  /// Checks the families' implicit releases against the functions, and
  /// finds the release function of each family an acquisition "owns".
  bool resolveImplicitReleases(std::vector<Family> &families,
                               std::vector<Function> &functions) {
    for (Family &family : families) {
      std::string what = "family '" + family.name + "'";
      if (!family.releasedAs.empty()) {
        auto as = std::find_if(
            families.begin(), families.end(),
            [&](const Family &f) { return f.name == family.releasedAs; });
        if (as == families.end() || as->name == family.name ||
            !as->releasedAs.empty())
          return fail(what + ": released as \"" + family.releasedAs +
                      "\", which is not another family released as itself");
        // Its releases find its handles: the same keys.
        if (as->level != family.level || as->nameSpace != family.nameSpace)
          return fail(what + ": released as '" + as->name +
                      "', whose level and namespace it needs");
        family.releasedAsIndex = static_cast<int>(as - families.begin());
      }
      for (ImplicitRelease &release : family.implicitReleases) {
        auto function = std::find_if(
            functions.begin(), functions.end(),
            [&](const Function &f) { return f.name == release.function; });
        if (function == functions.end())
          return fail(what + ": released implicitly by \"" + release.function +
                      "\", which is not in the catalog");
        if (!isReleasing(function->role))
          return fail(what + ": released implicitly by " + release.function +
                      ", which does not release");
        if (release.perDevice && families[function->family].handleIsPointer)
          return fail(what + ": released per device by " + release.function +
                      ", whose handle is not a device id");
        release.functionIndex =
            static_cast<unsigned>(function - functions.begin());
      }
    }
    for (const auto &[index, familyName] : OwnedFamilies) {
      Function &owner = functions[index];
      std::string what = "function '" + owner.name + "'";
      auto owned =
          std::find_if(families.begin(), families.end(),
                       [&](const Family &f) { return f.name == familyName; });
      if (owned == families.end())
        return fail(what + ": owns handles of unknown family \"" + familyName +
                    "\"");
      unsigned ownedIndex = static_cast<unsigned>(owned - families.begin());
      for (size_t i = 0; i < functions.size() && owner.ownsRelease < 0; ++i)
        if (functions[i].family == ownedIndex &&
            functions[i].role == Role::Release)
          owner.ownsRelease = static_cast<int>(i);
      if (owner.ownsRelease < 0)
        return fail(what + ": family '" + familyName +
                    "' it owns has no release function");
    }
    for (const Function &function : functions) {
      const Family &family = families[function.family];
      std::string what = "function '" + function.name + "'";
      if (function.deviceParam >= 0 &&
          (!family.perDevice() || !isAcquiring(function.role)))
        return fail(what + ": a \"device\" belongs to an acquisition of a "
                           "family released per device");
      if (family.perDevice() && function.sizeParam >= 0)
        return fail(what + ": a family released per device keeps the "
                           "device, not a \"size\"");
      if (family.kind == Kind::Memory && family.space.empty() &&
          isAcquiring(function.role) && function.spaceFlagParam < 0)
        return fail(what + ": family '" + family.name +
                    "' has no \"space\", so its allocations need a "
                    "\"space\": {\"driver_flag\": P}");
    }
    return true;
  }

private:
  std::string Source;
  std::string *Error;
  // Functions with "owns", by index, and the family they own.
  std::vector<std::pair<size_t, std::string>> OwnedFamilies;
};

} // namespace

bool parseSignature(const std::string &signature, std::string *returnType,
                    std::string *name, std::vector<Param> *params) {
  size_t open = signature.find('('), close = signature.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open ||
      !trim(signature.substr(close + 1)).empty())
    return false;
  if (!splitDeclarator(signature.substr(0, open), returnType, name))
    return false;
  params->clear();
  std::string list = trim(signature.substr(open + 1, close - open - 1));
  if (list.empty() || list == "void")
    return true;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    Param param;
    if (!splitDeclarator(item, &param.type, &param.name))
      return false;
    params->push_back(std::move(param));
  }
  return true;
}

std::string Function::signature() const {
  std::string text =
      returnType + (isPointerType(returnType) ? "" : " ") + name + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i)
      text += ", ";
    text += params[i].type + (isPointerType(params[i].type) ? "" : " ") +
            params[i].name;
  }
  return text + (params.empty() ? "void)" : ")");
}

std::optional<Catalog> Catalog::parse(const std::string &text,
                                      const std::string &source,
                                      std::string *error) {
  Parser parser(source, error);
  boost::system::error_code ec;
  json::value root = json::parse(text, ec);
  if (ec) {
    parser.fail("not valid JSON: " + ec.message());
    return std::nullopt;
  }
  const json::object *object = parser.object(root, "the catalog");
  if (!object)
    return std::nullopt;
  Catalog catalog;
  if (const json::value *version = object->if_contains("version");
      !version || !version->is_int64() || version->as_int64() != 1) {
    parser.fail("\"version\" must be 1");
    return std::nullopt;
  }
  if (const json::value *headers = object->if_contains("headers")) {
    const json::array *list = headers->if_array();
    if (!list) {
      parser.fail("\"headers\" must be an array of strings");
      return std::nullopt;
    }
    for (const json::value &header : *list) {
      if (!header.is_string()) {
        parser.fail("\"headers\" must be an array of strings");
        return std::nullopt;
      }
      catalog.Headers.emplace_back(header.as_string().c_str());
    }
  }
  const json::value *families = object->if_contains("families");
  const json::value *functions = object->if_contains("functions");
  if (!families || !families->is_array() || !functions ||
      !functions->is_array()) {
    parser.fail("needs \"families\" and \"functions\" arrays");
    return std::nullopt;
  }
  std::map<std::string, unsigned> nameSpaces{{"memory", 0}};
  catalog.NameSpaces.push_back("memory");
  for (const json::value &family : families->as_array())
    if (!parser.parseFamily(family, catalog, catalog.Families, nameSpaces,
                            catalog.NameSpaces))
      return std::nullopt;
  for (const json::value &function : functions->as_array())
    if (!parser.parseFunction(function, catalog.Families, catalog.Functions))
      return std::nullopt;
  if (const json::value *notResources = object->if_contains("not_resources")) {
    // The lifecycle-named functions that make or release nothing tracked,
    // each with the reason (utils/lifecycle_coverage.py reads them).
    const json::object *reasons = notResources->if_object();
    if (!reasons) {
      parser.fail("\"not_resources\" must map function names to reasons");
      return std::nullopt;
    }
    for (const auto &entry : *reasons) {
      std::string name(entry.key());
      const json::string *reason = entry.value().if_string();
      if (!reason || reason->empty()) {
        parser.fail("not_resources: '" + name + "' needs the reason");
        return std::nullopt;
      }
      if (catalog.findFunction(name)) {
        parser.fail("not_resources: '" + name +
                    "' is a function of the catalog");
        return std::nullopt;
      }
      catalog.NotResources.emplace(name, reason->c_str());
    }
  }
  if (const json::value *operators = object->if_contains("operators")) {
    if (!parser.parseOperators(*operators, catalog, catalog.Operators,
                               catalog.Families, catalog.Functions))
      return std::nullopt;
  }
  if (!parser.resolveImplicitReleases(catalog.Families, catalog.Functions))
    return std::nullopt;
  if (catalog.Functions.size() > kMaxCatalogFunctions ||
      catalog.Families.size() > kMaxCatalogFamilies) {
    parser.fail("more than " + std::to_string(kMaxCatalogFunctions) +
                " functions or " + std::to_string(kMaxCatalogFamilies) +
                " families: msledger's tables hold no more");
    return std::nullopt;
  }
  for (const Family &family : catalog.Families) {
    // A family released as another is released by that one's functions.
    bool acquires = false, releases = !family.releasedAs.empty();
    for (const Function &function : catalog.Functions)
      if (catalog.Families[function.family].name == family.name) {
        acquires = acquires || isAcquiring(function.role);
        releases = releases || isReleasing(function.role);
      }
    if (!acquires || !releases) {
      parser.fail("family '" + family.name + "' needs at least one " +
                  (acquires ? "releasing" : "acquiring") + " function");
      return std::nullopt;
    }
  }
  return catalog;
}

std::optional<Catalog> Catalog::load(const std::string &path,
                                     std::string *error) {
  std::optional<std::string> text = readTextFile(path, error);
  if (!text) {
    *error = path + ": cannot read the catalog";
    return std::nullopt;
  }
  return parse(*text, path, error);
}

std::optional<Catalog>
loadCatalogs(const std::string &builtin,
             const std::vector<std::string> &additionPaths,
             std::set<std::string> *additions, std::string *error) {
  std::optional<Catalog> catalog = Catalog::load(builtin, error);
  if (!catalog)
    return std::nullopt;
  for (const std::string &path : additionPaths) {
    std::optional<Catalog> added = Catalog::load(path, error);
    if (!added || !catalog->merge(*added, path, error))
      return std::nullopt;
    for (const Function &function : added->functions())
      additions->insert(function.name);
  }
  return catalog;
}

bool Catalog::merge(const Catalog &addition, const std::string &source,
                    std::string *error) {
  if (addition.Operators.present) {
    *error = source + ": \"operators\" is for the built-in catalog only";
    return false;
  }
  if (Functions.size() + addition.Functions.size() > kMaxCatalogFunctions ||
      Families.size() + addition.Families.size() > kMaxCatalogFamilies) {
    *error = source + ": with the catalog it adds to, more than " +
             std::to_string(kMaxCatalogFunctions) + " functions or " +
             std::to_string(kMaxCatalogFamilies) +
             " families: msledger's tables hold no more";
    return false;
  }
  std::vector<unsigned> familyIndex;
  for (const Family &family : addition.Families) {
    for (const Family &known : Families)
      if (known.name == family.name) {
        *error =
            source + ": family '" + family.name + "' is already in the catalog";
        return false;
      }
    if (!family.releasedAs.empty()) {
      // Registered families (msledger_register_api) do not carry it.
      *error = source + ": family '" + family.name +
               "': \"released_as\" is for the built-in catalog only";
      return false;
    }
    if (family.handleIsKey) {
      // Registered families (msledger_register_api) do not carry it.
      *error = source + ": family '" + family.name +
               "': \"handle\": \"key\" is for the built-in catalog only";
      return false;
    }
    if (!family.implicitReleases.empty()) {
      // Registered families (msledger_register_api) do not carry them.
      *error = source + ": family '" + family.name +
               "': \"released_implicitly_by\" is for the built-in catalog "
               "only";
      return false;
    }
    Family added = family;
    auto space =
        std::find(NameSpaces.begin(), NameSpaces.end(), family.nameSpace);
    added.nameSpaceIndex = static_cast<unsigned>(space - NameSpaces.begin());
    if (space == NameSpaces.end())
      NameSpaces.push_back(family.nameSpace);
    familyIndex.push_back(static_cast<unsigned>(Families.size()));
    Families.push_back(std::move(added));
  }
  for (const Function &function : addition.Functions) {
    if (findFunction(function.name)) {
      *error = source + ": function '" + function.name +
               "' is already in the catalog";
      return false;
    }
    if (function.role == Role::Access) {
      // Checked by the interposers and track.h's wrappers only.
      *error = source + ": function '" + function.name +
               "': \"role\": \"access\" is for the built-in catalog only";
      return false;
    }
    if (function.ownsParam >= 0) {
      *error = source + ": function '" + function.name +
               "': \"owns\" is for the built-in catalog only";
      return false;
    }
    if (function.role == Role::Retain) {
      // msledger_register_api takes no retain: the wrapper would be refused.
      *error = source + ": function '" + function.name +
               "': \"role\": \"retain\" is for the built-in catalog only";
      return false;
    }
    if (function.memoryDeviceParam >= 0) {
      // Only the interposers pass a device; an addition's wrapper does not.
      *error = source + ": function '" + function.name +
               "': \"memory_device\" is for the built-in catalog only";
      return false;
    }
    Function added = function;
    added.family = familyIndex[function.family];
    Functions.push_back(std::move(added));
  }
  for (const std::string &header : addition.Headers)
    if (std::find(Headers.begin(), Headers.end(), header) == Headers.end())
      Headers.push_back(header);
  return true;
}

namespace {

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A type as the compiler spells it, without spaces and without a
/// top-level const of a value ("const aclrtStream stream" passes an
/// aclrtStream): "aclOpExecutor**", "uint64_t".
std::string compact(const std::string &type) {
  std::string out;
  for (char c : type)
    if (c != ' ')
      out += c;
  if (out.find('*') == std::string::npos) {
    if (out.compare(0, 5, "const") == 0)
      out.erase(0, 5);
    else if (endsWith(out, "const"))
      out.resize(out.size() - 5); // "aclrtStream const"
  }
  if (out.compare(0, 5, "std::") == 0)
    out.erase(0, 5); // "std::uint64_t"
  return out;
}

} // namespace

OperatorPart
OperatorRule::partOf(const std::string &name,
                     const std::vector<std::string> &paramTypes) const {
  if (name.size() <= prefix.size() ||
      name.compare(0, prefix.size(), prefix) != 0)
    return OperatorPart::None;
  if (namesAPrepare(name)) {
    size_t n = paramTypes.size();
    if (n >= 2 && compact(paramTypes[n - 1]) == executorType + "**" &&
        compact(paramTypes[n - 2]) == "uint64_t*")
      return OperatorPart::Prepare;
    return OperatorPart::None;
  }
  if (paramTypes.size() == 4 && compact(paramTypes[0]) == "void*" &&
      compact(paramTypes[1]) == "uint64_t" &&
      compact(paramTypes[2]) == executorType + "*" &&
      compact(paramTypes[3]) == "aclrtStream")
    return OperatorPart::Run;
  return OperatorPart::None;
}

bool OperatorRule::namesAPrepare(const std::string &name) const {
  return name.size() > prefix.size() + prepareSuffix.size() &&
         name.compare(0, prefix.size(), prefix) == 0 &&
         endsWith(name, prepareSuffix);
}

std::string OperatorRule::operatorOf(const std::string &function) const {
  if (endsWith(function, prepareSuffix))
    return function.substr(0, function.size() - prepareSuffix.size());
  return function;
}

const Function *Catalog::findFunction(const std::string &name) const {
  for (const Function &function : Functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

} // namespace msledger
