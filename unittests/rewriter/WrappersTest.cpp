//===- WrappersTest.cpp - the C text of tracking wrappers -----------------===//
#include "wrappers.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

Catalog builtIn() {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  EXPECT_TRUE(catalog) << error;
  return *catalog;
}

/// The macro msledger/track.h defines for `name`.
std::string macroFor(const Catalog &catalog, const std::string &name) {
  for (size_t i = 0; i < catalog.functions().size(); ++i)
    if (catalog.functions()[i].name == name)
      return trackingMacro(catalog, i);
  ADD_FAILURE() << name << " is not in the catalog";
  return "";
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(Wrappers, CxxBindsATemplateToTheApiItself) {
  Catalog catalog = builtIn();
  std::string macro = macroFor(catalog, "aclrtMalloc");
  // Parenthesised (its commas survive other macros), and no name of the API
  // but where it is expanded.
  EXPECT_TRUE(contains(macro, "#define msledger_aclrtMalloc "
                              "(msledger_track_::Api<decltype(&aclrtMalloc), "
                              "&aclrtMalloc, 0, 1, 1, 0, 1, -1, "))
      << macro;
  EXPECT_FALSE(contains(macro, "#include"));
}

TEST(Wrappers, CEvaluatesArgumentsIntoTemporariesOfTheParameterTypes) {
  Catalog catalog = builtIn();
  std::string macro = macroFor(catalog, "aclrtMalloc");
  // Arguments pass through __VA_ARGS__ first: a macro that expands to
  // several arguments is counted after expansion.
  EXPECT_TRUE(contains(macro, "#define msledger_aclrtMalloc(msledger_s_, ...) "
                              "msledger_c_aclrtMalloc_(msledger_s_, "
                              "__VA_ARGS__)"))
      << macro;
  EXPECT_TRUE(contains(macro, "void **msledger_a0_;"));
  EXPECT_TRUE(contains(macro, "aclrtMemMallocPolicy msledger_a2_;"));
  EXPECT_TRUE(contains(macro, "msledger_args_((msledger_a0_ = (a0), 0), "
                              "(msledger_a1_ = (a1), 0), "
                              "(msledger_a2_ = (a2), 0));"));
  // The site is published after the arguments were evaluated.
  EXPECT_LT(macro.find("msledger_args_("), macro.find("msledger_set_site("));
}

TEST(Wrappers, AnApiWithoutParametersTakesOnlyTheSite) {
  Catalog catalog = builtIn();
  std::string macro = macroFor(catalog, "aclmdlCreateDesc");
  EXPECT_TRUE(contains(macro, "#define msledger_aclmdlCreateDesc(msledger_s_) "
                              "msledger_c_aclmdlCreateDesc_(msledger_s_)\n"))
      << macro;
  EXPECT_FALSE(contains(macro, "msledger_args_("));
}

TEST(Wrappers, AVoidApiYieldsVoid) {
  Catalog catalog = builtIn();
  std::string macro = macroFor(catalog, "aclDestroyTensorDesc");
  EXPECT_FALSE(contains(macro, "msledger_result_"));
  EXPECT_TRUE(contains(macro, "(void)0;"));
}

TEST(Wrappers, ACatalogAdditionsStringsAreEscaped) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
        "kind": "memory", "space": "GM", "display": "a \"quoted\"\\pool\n"}],
        "functions": [
        {"signature": "int poolAlloc(void **p, size_t n)", "role": "alloc",
         "family": "pool", "handle": {"from": "out", "param": "p"},
         "size": {"param": "n"}, "success": {"equals": 0}},
        {"signature": "int poolFree(void *p)", "role": "free",
         "family": "pool", "handle": {"from": "param", "param": "p"},
         "success": {"equals": 0}}]})json",
      "pool.json", &error);
  ASSERT_TRUE(catalog) << error;
  std::string wrapper =
      trackingWrapper(*catalog, *catalog->findFunction("poolAlloc"));
  EXPECT_TRUE(contains(wrapper, R"("a \"quoted\"\\pool\n")")) << wrapper;
  EXPECT_TRUE(contains(wrapper, "static inline int msledger_poolAlloc("
                                "const msledger_site *msledger_site_, "
                                "void **p, size_t n)"));
}

namespace {

const Function &function(const Catalog &catalog, const std::string &name) {
  const Function *found = catalog.findFunction(name);
  EXPECT_NE(found, nullptr) << name;
  return *found;
}

/// The parameters' names, as an interposer has them.
std::vector<std::string> names(const Function &f) {
  std::vector<std::string> args;
  for (const Param &param : f.params)
    args.push_back(param.name);
  return args;
}

} // namespace

// One set of expressions for every generator: track.h (C and C++), the
// interposers (C++) and additions' wrappers (C).
TEST(Wrappers, TheSharedExpressionsOfATrackedCall) {
  Catalog catalog = builtIn();
  const Function &malloc = function(catalog, "aclrtMalloc");
  EXPECT_EQ(handleExpression(malloc, names(malloc), "result"),
            "(uint64_t)(uintptr_t)(*devPtr)");
  EXPECT_EQ(sizeExpression(malloc, names(malloc)), "(uint64_t)(size)");
  EXPECT_EQ(spaceExpression(catalog, malloc, names(malloc)),
            "MSLEDGER_SPACE_GM");
  const Function &free = function(catalog, "aclrtFree");
  EXPECT_EQ(handleExpression(free, {"p"}, "result"),
            "(uint64_t)(uintptr_t)(p)");
  EXPECT_EQ(sizeExpression(free, {"p"}), "0");
  // aclrtFree(NULL) fails on the real runtime: an illegal release, not a
  // no-op; aclDestroyTensor(NULL) succeeds and does nothing.
  EXPECT_FALSE(nullIsNoRelease(catalog, free));
  EXPECT_TRUE(nullIsNoRelease(catalog, function(catalog, "aclDestroyTensor")));
  // An id whose failure is one value: hi_mpi_vb_create_pool's
  // HI_VB_INVALID_POOLID, -1 (as the unsigned id type has it).
  EXPECT_EQ(successCondition(function(catalog, "hi_mpi_vb_create_pool"), "r"),
            "r != (hi_vb_pool)(-1)");
  // A descriptor, whose failures are negative error codes.
  EXPECT_EQ(successCondition(function(catalog, "hi_mpi_venc_get_fd"), "r"),
            "(long long)(r) >= 0");
  // The driver's allocation: its space is decoded from its flag, by the
  // ledger (msledger_driver_space), for the interposer and track.h alike.
  const Function &hal = function(catalog, "halMemAlloc");
  ASSERT_GE(hal.spaceFlagParam, 0);
  EXPECT_EQ(spaceExpression(catalog, hal, names(hal)),
            "msledger_driver_space(" + hal.params[hal.spaceFlagParam].name +
                ")");
  std::string macro = macroFor(catalog, "halMemAlloc");
  EXPECT_TRUE(contains(macro, "msledger_driver_space(")) << macro;
  // An id of 0 is a handle like any other, released all the same.
  const Function &unload = function(catalog, "aclmdlUnload");
  EXPECT_FALSE(catalog.familyOf(unload).handleIsPointer);
  EXPECT_FALSE(nullIsNoRelease(catalog, unload));
  // An IPC memory key: the hash of its text, read by the ledger's function
  // both where it is written (after the call) and where it is passed in.
  const Function &exportKey = function(catalog, "aclrtIpcMemGetExportKey");
  EXPECT_EQ(handleExpression(exportKey, names(exportKey), "result"),
            "msledger_key_handle(key)");
  const Function &close = function(catalog, "aclrtIpcMemClose");
  EXPECT_EQ(handleExpression(close, {"k"}, "result"), "msledger_key_handle(k)");
  EXPECT_FALSE(nullIsNoRelease(catalog, close))
      << "aclrtIpcMemClose(NULL) fails";
}

TEST(Wrappers, EverySpaceHasTheEnumeratorOfMsledgerH) {
  EXPECT_STREQ(spaceEnumerator(Space::None), "MSLEDGER_SPACE_NONE");
  EXPECT_STREQ(spaceEnumerator(Space::GM), "MSLEDGER_SPACE_GM");
  EXPECT_STREQ(spaceEnumerator(Space::Host), "MSLEDGER_SPACE_HOST");
  EXPECT_STREQ(spaceEnumerator(Space::DVPP), "MSLEDGER_SPACE_DVPP");
  EXPECT_STREQ(spaceEnumerator(Space::Virtual), "MSLEDGER_SPACE_VIRTUAL");
}

TEST(Wrappers, AnAccessIsCheckedBeforeTheCall) {
  Catalog catalog = builtIn();
  const Function *copy2d = catalog.findFunction("aclrtMemcpy2d");
  ASSERT_NE(copy2d, nullptr);
  std::vector<std::string> args = {"d", "dp", "s", "sp", "w", "h", "k"};
  EXPECT_EQ(accessArguments(*copy2d, args),
            "(uint64_t)(uintptr_t)(d), msledger_extent_2d((uint64_t)(dp), "
            "(uint64_t)(w), (uint64_t)(h)), (uint64_t)(uintptr_t)(s), "
            "msledger_extent_2d((uint64_t)(sp), (uint64_t)(w), (uint64_t)(h)), "
            "(int)(k)");
  const Function *set = catalog.findFunction("aclrtMemset");
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(accessArguments(*set, {"p", "max", "v", "n"}),
            "(uint64_t)(uintptr_t)(p), (uint64_t)(n), 0, 0, -1");
  // C: the check, then the call; C++: the Access template.
  std::string macro = macroFor(catalog, "aclrtMemset");
  EXPECT_TRUE(contains(macro, "msledger_record_access(msledger_api_, "
                              "msledger_site_, "))
      << macro;
  EXPECT_LT(macro.find("msledger_record_access"),
            macro.rfind("aclrtMemset(msledger_a0_"))
      << macro;
  EXPECT_TRUE(contains(macro,
                       "(msledger_track_::Access<decltype(&aclrtMemset), "
                       "&aclrtMemset, "))
      << macro;
}

TEST(Wrappers, AnAccessThroughMembersHasTheCFormInCxxToo) {
  Catalog catalog = builtIn();
  const Function *copy2d = catalog.findFunction("halMemcpy2D");
  ASSERT_NE(copy2d, nullptr);
  EXPECT_EQ(accessCondition(*copy2d, {"p"}),
            "(p) != 0 && (((p)->type) == 0 || ((p)->type) == 1)");
  EXPECT_EQ(accessCondition(*catalog.findFunction("aclrtMemcpy"),
                            {"d", "m", "s", "n", "k"}),
            "1");
  std::string macro = macroFor(catalog, "halMemcpy2D");
  EXPECT_FALSE(contains(macro, "__cplusplus")) << macro;
  EXPECT_TRUE(
      contains(macro, "(uint64_t)(uintptr_t)((msledger_a0_)->copy2d.dst)"))
      << macro;
}
