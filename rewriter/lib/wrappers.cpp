//===- wrappers.cpp - The C text of tracking wrappers
//----------------------===//
#include "wrappers.h"

#include <sstream>

namespace msledger {

namespace {

/// msledger_space's enumerator for a family's space (catalog name); a
/// switch, so that a new Space cannot be left out.
const char *cSpace(const std::string &space) {
  switch (spaceNamed(space).value_or(Space::None)) {
  case Space::None:
    break;
  case Space::GM:
    return "MSLEDGER_SPACE_GM";
  case Space::Host:
    return "MSLEDGER_SPACE_HOST";
  case Space::DVPP:
    return "MSLEDGER_SPACE_DVPP";
  case Space::Virtual:
    return "MSLEDGER_SPACE_VIRTUAL";
  }
  return "MSLEDGER_SPACE_NONE";
}

std::string declarator(const std::string &type, const std::string &name) {
  return type + (type.back() == '*' ? "" : " ") + name;
}

std::string quoted(const std::string &text) { return "\"" + text + "\""; }

} // namespace

std::string successCondition(const Function &f, const std::string &result) {
  switch (f.success) {
  case SuccessRule::Equals:
    return result + " == " + std::to_string(f.successValue);
  case SuccessRule::NonNull:
    return result + " != 0";
  case SuccessRule::Always:
    return "1";
  }
  return "0";
}

std::string wrapperHelpers() {
  return "/* A call site as static data, defined where msrewrite put it "
         "(inside a\n"
         " * function: a statement expression). */\n"
         "#define MSLEDGER_SITE(file, line, column, serial, callee, function) "
         "\\\n"
         "  (__extension__({ \\\n"
         "    static const msledger_site msledger_site_data_ = {file, line, "
         "column, serial, callee, function}; \\\n"
         "    &msledger_site_data_; \\\n"
         "  }))\n\n"
         "/* A call of a project function that reaches a catalog call, as "
         "msrewrite\n"
         " * wraps it: the call's site is pushed on the thread's call chain "
         "while it\n"
         " * runs (popped on return, and by unwinding in C++), so events "
         "inside it\n"
         " * name the chain of calls that led to them. */\n"
         "#ifdef __cplusplus\n"
         "struct msledger_frame_guard_ {\n"
         "  explicit msledger_frame_guard_(const msledger_site *site) { "
         "msledger_frame_push(site); }\n"
         "  ~msledger_frame_guard_() { msledger_frame_pop(); }\n"
         "  msledger_frame_guard_(const msledger_frame_guard_ &) = delete;\n"
         "  msledger_frame_guard_ &operator=(const msledger_frame_guard_ &) = "
         "delete;\n"
         "};\n"
         "#define MSLEDGER_CHAIN(site, ...) "
         "((void)msledger_frame_guard_(site), __VA_ARGS__)\n"
         "#else\n"
         "static inline void msledger_frame_pop_(char *frame) { (void)frame; "
         "msledger_frame_pop(); }\n"
         "#define MSLEDGER_CHAIN(site, ...) \\\n"
         "  (__extension__({ \\\n"
         "    __attribute__((cleanup(msledger_frame_pop_))) char "
         "msledger_frame_ = (msledger_frame_push(site), 0); \\\n"
         "    __VA_ARGS__; \\\n"
         "  }))\n"
         "#endif\n\n"
         "/* The catalog index of an API, looked up once per wrapper. */\n"
         "static inline int msledger_api_cached_(const char *name, int *cache) "
         "{\n"
         "  int api = __atomic_load_n(cache, __ATOMIC_RELAXED);\n"
         "  if (api == -2) {\n"
         "    api = msledger_api_index(name);\n"
         "    __atomic_store_n(cache, api, __ATOMIC_RELAXED);\n"
         "  }\n"
         "  return api;\n"
         "}\n\n"
         "/* The same for an API of a catalog addition, registered on first "
         "use. */\n"
         "static inline int msledger_api_registered_(const "
         "msledger_api_description *description, int *cache) {\n"
         "  int api = __atomic_load_n(cache, __ATOMIC_RELAXED);\n"
         "  if (api == -2) {\n"
         "    api = msledger_register_api(description);\n"
         "    __atomic_store_n(cache, api, __ATOMIC_RELAXED);\n"
         "  }\n"
         "  return api;\n"
         "}\n\n"
         "static inline msledger_space msledger_driver_space_(unsigned long "
         "long flag) {\n"
         "  unsigned type = (unsigned)((flag >> 10) & 0xF);\n"
         "  return type == 2 ? MSLEDGER_SPACE_HOST : type == 3 ? "
         "MSLEDGER_SPACE_DVPP : MSLEDGER_SPACE_GM;\n"
         "}\n\n";
}

std::string trackingWrapper(const Catalog &catalog, const Function &f,
                            bool registers) {
  const Family &family = catalog.familyOf(f);
  bool isVoid = f.returnType == "void";
  std::string params = "const msledger_site *msledger_site_", args;
  for (size_t p = 0; p < f.params.size(); ++p) {
    params += ", " + declarator(f.params[p].type, f.params[p].name);
    args += (p ? ", " : "") + f.params[p].name;
  }
  std::string handle;
  switch (f.handleFrom) {
  case HandleFrom::Out:
    handle = "(uint64_t)(uintptr_t)(*" + f.params[f.handleParam].name + ")";
    break;
  case HandleFrom::Param:
    handle = "(uint64_t)(uintptr_t)(" + f.params[f.handleParam].name + ")";
    break;
  case HandleFrom::Return:
    handle = "(uint64_t)(uintptr_t)(msledger_result_)";
    break;
  case HandleFrom::None:
    handle = "0";
    break;
  }
  std::string call = isVoid ? f.name + "(" + args + ");\n"
                            : declarator(f.returnType, "msledger_result_") +
                                  " = " + f.name + "(" + args + ");\n";
  std::ostringstream out;
  out << "static inline " << declarator(f.returnType, "msledger_" + f.name)
      << "(" << params << ") {\n"
      << "  static int msledger_api_ = -2;\n";
  if (registers) {
    out << "  static const msledger_api_description msledger_description_ = {"
        << quoted(f.name) << ", " << quoted(roleName(f.role)) << ", "
        << quoted(family.name) << ", " << quoted(family.display) << ", "
        << quoted(levelName(family.level)) << ", "
        << quoted(kindName(family.kind)) << ", " << quoted(family.space) << ", "
        << quoted(family.nameSpace) << ", " << (family.refcounted ? 1 : 0)
        << ", " << (family.handleIsPointer ? 1 : 0) << ", "
        << (family.hasHandle ? 1 : 0) << "};\n"
        << "  int api = msledger_api_registered_(&msledger_description_, "
           "&msledger_api_);\n";
  } else {
    out << "  int api = msledger_api_cached_(" << quoted(f.name)
        << ", &msledger_api_);\n";
  }
  out << "  if (msledger_api_interposed(api)) {\n"
      << "    msledger_set_site(msledger_site_);\n"
      << "    " << call << "    msledger_set_site(0);\n"
      << (isVoid ? "    return;\n" : "    return msledger_result_;\n")
      << "  }\n";
  if (isAcquiring(f.role)) {
    // A per-device handle keeps its device where a size would be.
    int sizeParam = f.deviceParam >= 0 ? f.deviceParam : f.sizeParam;
    std::string size =
        sizeParam >= 0 ? "(uint64_t)(" + f.params[sizeParam].name + ")" : "0";
    std::string space =
        f.spaceFlagParam >= 0
            ? "msledger_driver_space_(" + f.params[f.spaceFlagParam].name + ")"
            : cSpace(family.space);
    out << "  {\n  " << call << "  if ("
        << successCondition(f, "msledger_result_") << ")\n"
        << "    msledger_record_acquire(api, " << handle << ", " << size << ", "
        << space << ", msledger_site_);\n";
  } else {
    std::string guard =
        f.handleFrom == HandleFrom::Param && family.handleIsPointer
            ? "(" + f.params[f.handleParam].name + ") != 0"
            : "1";
    out << "  {\n"
        << "  msledger_release msledger_state_;\n"
        << "  int msledger_tracked_ = " << guard << ";\n"
        << "  if (msledger_tracked_)\n"
        << "    msledger_release_begin(api, " << handle
        << ", msledger_site_, &msledger_state_);\n"
        << "  " << call << "  if (msledger_tracked_)\n"
        << "    msledger_release_end(&msledger_state_, "
        << successCondition(f, "msledger_result_") << ");\n";
  }
  out << (isVoid ? "  }\n" : "  return msledger_result_;\n  }\n") << "}\n";
  return out.str();
}

} // namespace msledger
