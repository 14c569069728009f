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
                              "&aclrtMalloc, 0, true, 1, 0, 1, -1, "))
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
