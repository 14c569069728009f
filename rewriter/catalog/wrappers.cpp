//===- wrappers.cpp - The code generated from the catalog ----------------===//
#include "wrappers.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace msledger {

namespace {

std::string declarator(const std::string &type, const std::string &name) {
  return type + (type.back() == '*' ? "" : " ") + name;
}

/// `text` as a C string literal.
std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  return out + "\"";
}

/// The statements of a C wrapper around `f`, whose parameter p's value is in
/// the variable args[p]; msledger_site_, msledger_api_ (the API's index) and,
/// unless `f` returns void, msledger_result_ are declared and the first two
/// set. The result is left in msledger_result_.
std::string wrapperStatements(const Catalog &catalog, const Function &f,
                              const std::vector<std::string> &args) {
  std::string list;
  for (size_t p = 0; p < args.size(); ++p)
    list += (p ? ", " : "") + args[p];
  std::string call = (f.returnType == "void" ? "" : "msledger_result_ = ") +
                     f.name + "(" + list + ");\n";
  std::string handle = handleExpression(f, args, "msledger_result_");
  std::ostringstream out;
  out << "  if (msledger_api_interposed(msledger_api_)) {\n"
      << "    msledger_set_site(msledger_site_);\n"
      << "    " << call << "    msledger_set_site(0);\n"
      << "  } else {\n";
  if (f.role == Role::Access) {
    // Checked before the call: what it would touch is what is checked.
    out << "    if (" << accessCondition(f, args) << ")\n"
        << "      msledger_record_access(msledger_api_, msledger_site_, "
        << accessArguments(f, args) << ");\n"
        << "    " << call;
  } else if (f.role == Role::Retain) {
    out << "    " << call << "    if ("
        << successCondition(f, "msledger_result_") << ")\n"
        << "      msledger_record_retain(msledger_api_, " << handle
        << ", msledger_site_);\n";
  } else if (isAcquiring(f.role) && f.handleCountParam >= 0) {
    // An array of handles, each acquired.
    const std::string &array = args[f.handleParam];
    out << "    " << call << "    if (("
        << successCondition(f, "msledger_result_") << ") && " << array
        << ") {\n"
        << "      uint64_t msledger_i_;\n"
        << "      for (msledger_i_ = 0; msledger_i_ < (uint64_t)("
        << args[f.handleCountParam] << "); ++msledger_i_)\n"
        << "        msledger_record_acquire(msledger_api_, "
        << "(uint64_t)(uintptr_t)" << array << "[msledger_i_], "
        << sizeExpression(f, args) << ", " << spaceExpression(catalog, f, args)
        << ", msledger_site_);\n"
        << "    }\n";
  } else if (isAcquiring(f.role)) {
    out << "    " << call << "    if ("
        << successCondition(f, "msledger_result_") << ")\n"
        << "      msledger_record_acquire(msledger_api_, " << handle << ", "
        << sizeExpression(f, args) << ", " << spaceExpression(catalog, f, args)
        << ", msledger_site_);\n";
    if (f.ownsParam >= 0) {
      // What the new handle takes over is released by the call ("owns").
      const std::string &array = args[f.ownsParam];
      out << "    if ((" << successCondition(f, "msledger_result_") << ") && "
          << array << ") {\n"
          << "      uint64_t msledger_i_;\n"
          << "      for (msledger_i_ = 0; msledger_i_ < (uint64_t)("
          << args[f.ownsCountParam] << "); ++msledger_i_)\n"
          << "        if (" << array << "[msledger_i_])\n"
          << "          msledger_record_release(msledger_api_index_hint("
          << f.ownsRelease << ", "
          << quoted(catalog.functions()[f.ownsRelease].name)
          << "), (uint64_t)(uintptr_t)" << array
          << "[msledger_i_], 1, msledger_site_);\n"
          << "    }\n";
    }
  } else {
    // A null pointer is no release (free(NULL)); other handles are checked.
    std::string guard = nullIsNoRelease(catalog, f)
                            ? "(" + args[f.handleParam] + ") != 0"
                            : "1";
    out << "    msledger_release msledger_state_;\n"
        << "    int msledger_tracked_ = " << guard << ";\n"
        << "    if (msledger_tracked_)\n"
        << "      msledger_release_begin(msledger_api_, " << handle
        << ", msledger_site_, &msledger_state_);\n"
        << "    " << call << "    if (msledger_tracked_)\n"
        << "      msledger_release_end(&msledger_state_, "
        << successCondition(f, "msledger_result_") << ");\n";
  }
  out << "  }\n";
  return out.str();
}

/// `text` as the body of a #define: every line ends in a backslash.
std::string macroBody(const std::string &text) {
  std::string out;
  for (char c : text)
    out += c == '\n' ? std::string(" \\\n") : std::string(1, c);
  return out;
}

} // namespace

std::string successCondition(const Function &f, const std::string &result) {
  switch (f.success) {
  case SuccessRule::Equals:
    return result + " == " + std::to_string(f.successValue);
  case SuccessRule::NonNull:
    return result + " != 0";
  case SuccessRule::Always:
    return "1";
  case SuccessRule::Differs: // in the result's type: -1 of an unsigned id
    return result + " != (" + f.returnType + ")(" +
           std::to_string(f.successValue) + ")";
  case SuccessRule::AtLeast:
    return "(long long)(" + result + ") >= " + std::to_string(f.successValue);
  }
  return "0";
}

std::string handleExpression(const Function &f,
                             const std::vector<std::string> &args,
                             const std::string &result) {
  switch (f.handleFrom) {
  case HandleFrom::Out:
    return "(uint64_t)(uintptr_t)(*" + args[f.handleParam] + ")";
  case HandleFrom::Param:
    return "(uint64_t)(uintptr_t)(" + args[f.handleParam] + ")";
  case HandleFrom::Return:
    return "(uint64_t)(uintptr_t)(" + result + ")";
  case HandleFrom::Key:
    return "msledger_key_handle(" + args[f.handleParam] + ")";
  case HandleFrom::None:
    break;
  }
  return "0";
}

int sizeParameter(const Function &f) {
  return f.deviceParam >= 0 ? f.deviceParam : f.sizeParam;
}

std::string sizeExpression(const Function &f,
                           const std::vector<std::string> &args) {
  int param = sizeParameter(f);
  return param >= 0 ? "(uint64_t)(" + args[param] + ")" : "0";
}

namespace {

/// A parameter's value, or its member's: "(p)->copy2d.dst".
std::string valueOf(const std::vector<std::string> &args, int param,
                    const std::string &member) {
  return member.empty() ? args[param] : "(" + args[param] + ")->" + member;
}

} // namespace

std::string accessArguments(const Function &f,
                            const std::vector<std::string> &args) {
  using Field = AccessParams::Field;
  const AccessParams &access = f.access;
  // A field's value as written in the call: the parameter or its member.
  auto value = [&](Field field) {
    return valueOf(args, access.param(field), access.members[field]);
  };
  auto number = [&](Field field) {
    return access.param(field) >= 0 ? "(uint64_t)(" + value(field) + ")"
                                    : std::string("0");
  };
  auto side = [&](Field address, Field pitch) {
    if (access.param(address) < 0)
      return std::string("0, 0");
    std::string size = access.twoDimensional()
                           ? "msledger_extent_2d(" + number(pitch) + ", " +
                                 number(AccessParams::Width) + ", " +
                                 number(AccessParams::Height) + ")"
                           : number(AccessParams::Size);
    return "(uint64_t)(uintptr_t)(" + value(address) + "), " + size;
  };
  return side(AccessParams::Write, AccessParams::WritePitch) + ", " +
         side(AccessParams::Read, AccessParams::ReadPitch) + ", " +
         (access.direction >= 0
              ? "(int)(" + value(AccessParams::Direction) + ")"
              : std::string("-1"));
}

std::string accessCondition(const Function &f,
                            const std::vector<std::string> &args) {
  const AccessParams &access = f.access;
  std::vector<int> dereferenced;
  for (int field = 0; field < AccessParams::kFieldCount; ++field)
    if (!access.members[field].empty())
      dereferenced.push_back(
          access.param(static_cast<AccessParams::Field>(field)));
  if (access.when >= 0)
    dereferenced.push_back(access.when);
  std::string condition;
  for (size_t i = 0; i < dereferenced.size(); ++i)
    if (std::find(dereferenced.begin(), dereferenced.begin() + i,
                  dereferenced[i]) == dereferenced.begin() + i)
      condition += (condition.empty() ? "" : " && ") + std::string("(") +
                   args[dereferenced[i]] + ") != 0";
  if (access.when >= 0) {
    std::string value = valueOf(args, access.when, access.whenMember);
    std::string any;
    for (long long accepted : access.whenValues)
      any += (any.empty() ? "" : " || ") + std::string("(") + value +
             ") == " + std::to_string(accepted);
    condition += (condition.empty() ? "(" : " && (") + any + ")";
  }
  return condition.empty() ? "1" : condition;
}

const char *spaceEnumerator(Space space) {
  switch (space) {
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

std::string spaceExpression(const Catalog &catalog, const Function &f,
                            const std::vector<std::string> &args) {
  if (f.spaceFlagParam >= 0)
    return "msledger_driver_space(" + args[f.spaceFlagParam] + ")";
  return spaceEnumerator(catalog.familyOf(f).memorySpace());
}

bool nullIsNoRelease(const Catalog &catalog, const Function &f) {
  return (f.handleFrom == HandleFrom::Param ||
          f.handleFrom == HandleFrom::Key) &&
         catalog.familyOf(f).handleIsPointer && f.nullAccepted;
}

std::string wrapperHelpers() {
  return R"(/* A call site as static data, defined where msrewrite put it (inside a
 * function: a statement expression). */
#define MSLEDGER_SITE(file, line, column, serial, callee, function) \
  (__extension__({ \
    static const msledger_site msledger_site_data_ = {file, line, column, serial, callee, function}; \
    &msledger_site_data_; \
  }))

/* A call of a project function that reaches a catalog call, as msrewrite
 * wraps it: the call's site is pushed on the thread's call chain while it
 * runs (popped on return, and by unwinding in C++), so events inside it
 * name the chain of calls that led to them. */
#ifdef __cplusplus
struct msledger_frame_guard_ {
  explicit msledger_frame_guard_(const msledger_site *site) { msledger_frame_push(site); }
  ~msledger_frame_guard_() { msledger_frame_pop(); }
  msledger_frame_guard_(const msledger_frame_guard_ &) = delete;
  msledger_frame_guard_ &operator=(const msledger_frame_guard_ &) = delete;
};
#define MSLEDGER_CHAIN(site, ...) ((void)msledger_frame_guard_(site), __VA_ARGS__)
#else
static inline void msledger_frame_pop_(char *frame) { (void)frame; msledger_frame_pop(); }
#define MSLEDGER_CHAIN(site, ...) \
  (__extension__({ \
    __attribute__((cleanup(msledger_frame_pop_))) char msledger_frame_ = (msledger_frame_push(site), 0); \
    __VA_ARGS__; \
  }))
#endif

/* The API of a catalog addition (a wrapper function msrewrite defines in the
 * file), registered on first use. */
static inline int msledger_api_registered_(const msledger_api_description *description, int *cache) {
  int api = __atomic_load_n(cache, __ATOMIC_RELAXED);
  if (api == -2) {
    api = msledger_register_api(description);
    __atomic_store_n(cache, api, __ATOMIC_RELAXED);
  }
  return api;
}

#ifdef __cplusplus
/* C++: msledger_NAME is (msledger_track_::Api<decltype(&NAME), &NAME, ...>{..}),
 * a call of which takes the site and then NAME's own parameter types: the
 * arguments are converted exactly as NAME(args) converts them. (C++11.) */
namespace msledger_track_ {
template <class T> inline uint64_t bits(T *pointer) { return (uint64_t)(uintptr_t)pointer; }
template <class T> inline uint64_t bits(T value) { return (uint64_t)value; }
/* The catalog's value `expected` as a result of `like`'s type has it: -1 for
 * an unsigned 32-bit id is 0xFFFFFFFF, as the C comparison makes it. */
template <class T> inline uint64_t sameBits(T *, long long expected) { return (uint64_t)expected; }
template <class T> inline uint64_t sameBits(T, long long expected) { return bits((T)expected); }

/* The I-th of a parameter pack. */
template <int I> struct At {
  template <class T, class... Rest>
  static auto get(T &, Rest &...rest) -> decltype(At<I - 1>::get(rest...)) { return At<I - 1>::get(rest...); }
};
template <> struct At<0> {
  template <class T, class... Rest> static T &get(T &first, Rest &...) { return first; }
};
/* The value of parameter I (or what it points to), as a ledger number; 0 for none (-1). */
template <int I, bool Deref> struct Arg {
  template <class... A> static uint64_t value(A &...args) { return bits(At<I>::get(args...)); }
};
template <int I> struct Arg<I, true> {
  template <class... A> static uint64_t value(A &...args) { return bits(*At<I>::get(args...)); }
};
struct NoArg {
  template <class... A> static uint64_t value(A &...) { return 0; }
};
template <> struct Arg<-1, false> : NoArg {};
template <> struct Arg<-1, true> : NoArg {};

/* Whether a number result is not below `least` (never for a pointer). */
template <class T> inline bool notBelow(T *, long long) { return false; }
template <class T> inline bool notBelow(T value, long long least) { return (long long)value >= least; }

/* A call's result, void included. Rule: 0 equals Expected, 1 non-null, 2 always,
 * 3 differs from Expected, 4 at least Expected. */
template <class R> struct Result {
  R value;
  template <class F, class... A> void call(F function, A &...args) { value = function(args...); }
  bool succeeded(int rule, long long expected) const {
    return rule == 0   ? bits(value) == sameBits(value, expected)
           : rule == 1 ? bits(value) != 0
           : rule == 3 ? bits(value) != sameBits(value, expected)
           : rule == 4 ? notBelow(value, expected)
                       : true;
  }
  uint64_t handle() const { return bits(value); }
  R get() const { return value; }
};
template <> struct Result<void> {
  template <class F, class... A> void call(F function, A &...args) { function(args...); }
  bool succeeded(int, long long) const { return true; }
  uint64_t handle() const { return 0; }
  void get() const {}
};

/* The call through msledger's interposer, if it is active: it records the
 * event with `site`. False if it is not (nothing was called). */
template <class R, class F, class... A>
bool throughInterposer(int api, const msledger_site *site, Result<R> &result, F function, A &...args) {
  if (!msledger_api_interposed(api))
    return false;
  msledger_set_site(site);
  result.call(function, args...);
  msledger_set_site(0);
  return true;
}

/* A copy or set ("role": "access"): the ranges it writes and reads are
 * checked before the call. Parameters -1: none; Size -1: a 2-D range. */
template <class F, F Function, int Index, int Write, int WritePitch, int Read, int ReadPitch, int Size,
          int Width, int Height, int Direction>
struct Access;
template <class R, class... P, R (*Function)(P...), int Index, int Write, int WritePitch, int Read,
          int ReadPitch, int Size, int Width, int Height, int Direction>
struct Access<R (*)(P...), Function, Index, Write, WritePitch, Read, ReadPitch, Size, Width, Height, Direction> {
  const char *name;
  template <int Address, int Pitch> static uint64_t extent(P &...args) {
    if (Address < 0)
      return 0;
    return Size >= 0 ? Arg<Size, false>::value(args...)
                     : msledger_extent_2d(Arg<Pitch, false>::value(args...), Arg<Width, false>::value(args...),
                                          Arg<Height, false>::value(args...));
  }
  R operator()(const msledger_site *site, P... args) const {
    int api = msledger_api_index_hint(Index, name);
    Result<R> result;
    if (throughInterposer(api, site, result, Function, args...))
      return result.get();
    msledger_record_access(api, site, Arg<Write, false>::value(args...), extent<Write, WritePitch>(args...),
                           Arg<Read, false>::value(args...), extent<Read, ReadPitch>(args...),
                           Direction >= 0 ? (int)Arg<Direction, false>::value(args...) : -1);
    result.call(Function, args...);
    return result.get();
  }
};

/* "owns": after an acquisition, the handles in array parameter Param (Count
 * of them) are released, as the built-in API OwnsApi would. */
template <int Param, int Count, int OwnsApi> struct Owned {
  template <class... A> static void release(const msledger_site *site, A &...args) {
    auto array = At<Param>::get(args...);
    if (!array)
      return;
    uint64_t n = Arg<Count, false>::value(args...);
    for (uint64_t i = 0; i < n; ++i)
      if (array[i])
        msledger_record_release(OwnsApi, bits(array[i]), 1, site);
  }
};
template <int Count, int OwnsApi> struct Owned<-1, Count, OwnsApi> {
  template <class... A> static void release(const msledger_site *, A &...) {}
};

/* An acquisition writing an array of handles through parameter Param, Count
 * of them (HcclCommInitAll's communicators): each is acquired. */
template <int Param, int Count> struct HandleArray {
  template <class... A>
  static void acquire(int api, uint64_t size, msledger_space space, const msledger_site *site, A &...args) {
    auto array = At<Param>::get(args...);
    uint64_t n = Arg<Count, false>::value(args...);
    for (uint64_t i = 0; array && i < n; ++i)
      msledger_record_acquire(api, bits(array[i]), size, space, site);
  }
};
template <int Param> struct HandleArray<Param, -1> {
  template <class... A> static void acquire(int, uint64_t, msledger_space, const msledger_site *, A &...) {}
};

/* Mode: 0 a release, 1 an acquisition, 2 a retain. Handle: 0 none, 1 written
 * through parameter HandleParam, 2 passed in it, 3 returned, 4 the key text it
 * points to (msledger_key_handle). */
template <class F, F Function, int Index, int Mode, int Handle, int HandleParam, int SizeParam,
          int SpaceFlagParam, int Space, int Rule, long long Expected, bool NullIsNoRelease,
          int OwnsParam = -1, int OwnsCount = -1, int OwnsApi = -1, int HandleCount = -1>
struct Api;
template <class R, class... P, R (*Function)(P...), int Index, int Mode, int Handle, int HandleParam,
          int SizeParam, int SpaceFlagParam, int Space, int Rule, long long Expected, bool NullIsNoRelease,
          int OwnsParam, int OwnsCount, int OwnsApi, int HandleCount>
struct Api<R (*)(P...), Function, Index, Mode, Handle, HandleParam, SizeParam, SpaceFlagParam, Space, Rule,
           Expected, NullIsNoRelease, OwnsParam, OwnsCount, OwnsApi, HandleCount> {
  typedef Arg<(Handle == 1 || Handle == 2 || Handle == 4) ? HandleParam : -1, Handle == 1> HandleArg;
  const char *name;
  static uint64_t handleOf(P &...args) {
    uint64_t value = HandleArg::value(args...);
    return Handle == 4 ? msledger_key_handle((const char *)(uintptr_t)value) : value;
  }
  R operator()(const msledger_site *site, P... args) const {
    int api = msledger_api_index_hint(Index, name);
    Result<R> result;
    if (throughInterposer(api, site, result, Function, args...))
      return result.get();
    if (Mode == 2) {
      result.call(Function, args...);
      if (result.succeeded(Rule, Expected))
        msledger_record_retain(api, handleOf(args...), site);
    } else if (Mode == 1) {
      result.call(Function, args...);
      if (result.succeeded(Rule, Expected)) {
        msledger_space space = SpaceFlagParam >= 0
            ? msledger_driver_space(Arg<SpaceFlagParam, false>::value(args...)) : (msledger_space)Space;
        if (HandleCount >= 0) {
          HandleArray<HandleParam, HandleCount>::acquire(api, Arg<SizeParam, false>::value(args...), space, site,
                                                        args...);
        } else {
          uint64_t handle = Handle == 3 ? result.handle() : handleOf(args...);
          msledger_record_acquire(api, handle, Arg<SizeParam, false>::value(args...), space, site);
        }
        Owned<OwnsParam, OwnsCount, OwnsApi>::release(site, args...);
      }
    } else {
      uint64_t handle = handleOf(args...);
      int tracked = !(NullIsNoRelease && handle == 0);
      msledger_release state;
      if (tracked)
        msledger_release_begin(api, handle, site, &state);
      result.call(Function, args...);
      if (tracked)
        msledger_release_end(&state, result.succeeded(Rule, Expected));
    }
    return result.get();
  }
};

/* The catalog's operator rule (aclnn): an operator's phase 1 and phase 2,
 * which no catalog entry names. msrewrite writes a call of NAME as
 * MSLEDGER_OPERATOR(Prepare or Run, NAME)(site, args...): an object of one
 * of these bound to &NAME, so that the arguments convert as NAME(args)
 * converts them, whatever operator of whatever release NAME is. The wrapper
 * records the call itself; an interposer of NAME, if msledger has one,
 * records nothing inside it. */
template <class F, F Function> struct OperatorPrepare;
template <class R, class... P, R (*Function)(P...)> struct OperatorPrepare<R (*)(P...), Function> {
  const char *name;
  R operator()(const msledger_site *site, P... args) const {
    msledger_operator_enter();
    R status = Function(args...);
    msledger_operator_leave();
    /* The executor: written through the last parameter; the workspace's
     * size through the one before. */
    auto executor = At<sizeof...(P) - 1>::get(args...);
    auto workspace = At<sizeof...(P) - 2>::get(args...);
    if (status == 0)
      msledger_operator_prepared(name, executor ? bits(*executor) : 0, workspace ? (uint64_t)*workspace : 0,
                                 site);
    return status;
  }
};
template <class F, F Function> struct OperatorRun;
template <class R, class... P, R (*Function)(P...)> struct OperatorRun<R (*)(P...), Function> {
  const char *name;
  R operator()(const msledger_site *site, P... args) const {
    msledger_operator_run(name, bits(At<2>::get(args...)), site);
    msledger_operator_enter();
    R status = Function(args...);
    msledger_operator_leave();
    return status;
  }
};
} /* namespace msledger_track_ */
#define MSLEDGER_OPERATOR(part, name) \
  (msledger_track_::Operator##part<decltype(&name), &name>{#name})
#endif
/* C (and C++, for an access through members): the arguments of a wrapped call
 * are evaluated into temporaries as the arguments of one call, in the order
 * the compiler evaluates a call's. */
static inline void msledger_args_(int first, ...) { (void)first; }

)";
}

namespace {

/// The C++ form of msledger_NAME: a template bound to &NAME, parenthesised so
/// that the commas of its arguments survive being passed on through other
/// macros; "" for an access whose ranges are members of what a parameter
/// points to, which has the C form in C++ too (a GNU statement expression,
/// as MSLEDGER_SITE is).
std::string cxxWrapper(const Catalog &catalog, const Function &f,
                       size_t index) {
  std::ostringstream out;
  const AccessParams &access = f.access;
  if (f.role == Role::Access) {
    if (access.hasMembers())
      return "";
    out << "(msledger_track_::Access<decltype(&" << f.name << "), &" << f.name
        << ", " << index << ", " << access.write << ", " << access.writePitch
        << ", " << access.read << ", " << access.readPitch << ", "
        << access.size << ", " << access.width << ", " << access.height << ", "
        << access.direction << ">{" << quoted(f.name) << "})";
    return out.str();
  }
  int handle = 0;
  switch (f.handleFrom) {
  case HandleFrom::None:
    handle = 0;
    break;
  case HandleFrom::Out:
    handle = 1;
    break;
  case HandleFrom::Param:
    handle = 2;
    break;
  case HandleFrom::Return:
    handle = 3;
    break;
  case HandleFrom::Key:
    handle = 4;
    break;
  }
  int rule = f.success == SuccessRule::Equals    ? 0
             : f.success == SuccessRule::NonNull ? 1
             : f.success == SuccessRule::Differs ? 3
             : f.success == SuccessRule::AtLeast ? 4
                                                 : 2;
  out << "(msledger_track_::Api<decltype(&" << f.name << "), &" << f.name
      << ", " << index << ", "
      << (isAcquiring(f.role)      ? 1
          : f.role == Role::Retain ? 2
                                   : 0)
      << ", " << handle << ", " << f.handleParam << ", " << sizeParameter(f)
      << ", " << f.spaceFlagParam << ", "
      << spaceEnumerator(catalog.familyOf(f).memorySpace()) << ", " << rule
      << ", " << f.successValue << "LL, "
      << (nullIsNoRelease(catalog, f) ? "true" : "false");
  if (f.ownsParam >= 0 || f.handleCountParam >= 0)
    out << ", " << f.ownsParam << ", " << f.ownsCountParam << ", "
        << f.ownsRelease;
  if (f.handleCountParam >= 0)
    out << ", " << f.handleCountParam;
  out << ">{" << quoted(f.name) << "})";
  return out.str();
}

} // namespace

std::string trackingMacro(const Catalog &catalog, size_t index) {
  const Function &f = catalog.functions()[index];
  if (f.operatorPart != OperatorPart::None)
    return ""; // no function of that name: MSLEDGER_OPERATOR at each call
  std::ostringstream out;
  std::string cxx = cxxWrapper(catalog, f, index);
  if (!cxx.empty())
    out << "#ifdef __cplusplus\n#define msledger_" << f.name << " " << cxx
        << "\n#else\n";
  // C: the arguments go through __VA_ARGS__ first, so that a macro that
  // expands to several of them is expanded before they are counted.
  std::vector<std::string> args;
  std::string params, assignments;
  for (size_t p = 0; p < f.params.size(); ++p) {
    args.push_back("msledger_a" + std::to_string(p) + "_");
    params += ", a" + std::to_string(p);
    assignments += std::string(p ? ", " : "") + "(" + args[p] + " = (a" +
                   std::to_string(p) + "), 0)";
  }
  std::string inner = "msledger_c_" + f.name + "_";
  if (f.params.empty())
    out << "#define msledger_" << f.name << "(msledger_s_) " << inner
        << "(msledger_s_)\n";
  else
    out << "#define msledger_" << f.name << "(msledger_s_, ...) " << inner
        << "(msledger_s_, __VA_ARGS__)\n";
  std::ostringstream body;
  body << "(__extension__({\n"
       << "  const msledger_site *msledger_site_ = (msledger_s_);\n"
       << "  int msledger_api_;\n";
  if (f.returnType != "void")
    body << "  " << declarator(f.returnType, "msledger_result_") << ";\n";
  for (size_t p = 0; p < f.params.size(); ++p)
    body << "  " << declarator(f.params[p].type, args[p]) << ";\n";
  if (!f.params.empty())
    body << "  msledger_args_(" << assignments << ");\n";
  body << "  msledger_api_ = msledger_api_index_hint(" << index << ", "
       << quoted(f.name) << ");\n"
       << wrapperStatements(catalog, f, args)
       << (f.returnType == "void" ? "  (void)0;\n" : "  msledger_result_;\n")
       << "}))";
  out << "#define " << inner << "(msledger_s_" << params << ") "
      << macroBody(body.str()) << (cxx.empty() ? "\n" : "\n#endif\n");
  return out.str();
}

std::string trackingWrapper(const Catalog &catalog, const Function &f) {
  const Family &family = catalog.familyOf(f);
  std::string params = "const msledger_site *msledger_site_";
  std::vector<std::string> args;
  for (const Param &param : f.params) {
    params += ", " + declarator(param.type, param.name);
    args.push_back(param.name);
  }
  std::ostringstream out;
  out << "static inline " << declarator(f.returnType, "msledger_" + f.name)
      << "(" << params << ") {\n"
      << "  static int msledger_cache_ = -2;\n"
      << "  static const msledger_api_description msledger_description_ = {"
      << quoted(f.name) << ", " << quoted(roleName(f.role)) << ", "
      << quoted(family.name) << ", " << quoted(family.display) << ", "
      << quoted(levelName(family.level)) << ", "
      << quoted(kindName(family.kind)) << ", " << quoted(family.space) << ", "
      << quoted(family.nameSpace) << ", " << (family.refcounted ? 1 : 0) << ", "
      << (family.handleIsPointer ? 1 : 0) << ", " << (family.hasHandle ? 1 : 0)
      << "};\n"
      << "  int msledger_api_ = msledger_api_registered_("
         "&msledger_description_, &msledger_cache_);\n";
  if (f.returnType != "void")
    out << "  " << declarator(f.returnType, "msledger_result_") << ";\n";
  out << wrapperStatements(catalog, f, args)
      << (f.returnType == "void" ? "" : "  return msledger_result_;\n")
      << "}\n";
  return out.str();
}

} // namespace msledger
