//===- CatalogTest.cpp - loading and validating the catalog ---------------===//
#include "catalog.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

/// A one-family catalog with `function` as its releasing function.
std::string withRelease(const std::string &function) {
  return R"json({"version": 1, "families": [{"name": "stream", "level": "cann",
      "kind": "resource", "display": "stream"}], "functions": [
      {"signature": "aclError aclrtCreateStream(aclrtStream *stream)",
       "role": "acquire", "family": "stream",
       "handle": {"from": "out", "param": "stream"}, "success": {"equals": 0}},
      )json" +
         function + "]}";
}

std::string parseError(const std::string &text) {
  std::string error;
  EXPECT_FALSE(Catalog::parse(text, "test.json", &error))
      << "accepted: " << text;
  return error;
}

/// The error for a catalog whose release function has these fields.
std::string releaseError(const std::string &fields) {
  return parseError(withRelease(
      R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)", )json" +
      fields + "}"));
}

bool mentions(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(Catalog, TheBuiltInCatalogIsValid) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  const Function *malloc = catalog->findFunction("aclrtMalloc");
  ASSERT_NE(malloc, nullptr);
  EXPECT_EQ(malloc->role, Role::Alloc);
  EXPECT_EQ(catalog->familyOf(*malloc).name, "device");
  EXPECT_EQ(catalog->familyOf(*malloc).space, "GM");
  EXPECT_EQ(malloc->handleFrom, HandleFrom::Out);
  EXPECT_EQ(malloc->params[malloc->handleParam].name, "devPtr");
  EXPECT_EQ(malloc->params[malloc->sizeParam].name, "size");
  const Function *hal = catalog->findFunction("halMemAlloc");
  ASSERT_NE(hal, nullptr);
  EXPECT_EQ(catalog->familyOf(*hal).level, Level::Device);
  EXPECT_EQ(hal->params[hal->spaceFlagParam].name, "flag");
  const Function *setDevice = catalog->findFunction("aclrtSetDevice");
  ASSERT_NE(setDevice, nullptr);
  EXPECT_TRUE(catalog->familyOf(*setDevice).refcounted);
  EXPECT_FALSE(catalog->familyOf(*setDevice).handleIsPointer);
  EXPECT_FALSE(catalog->familyOf(*catalog->findFunction("aclInit")).hasHandle);
  EXPECT_EQ(catalog->findFunction("aclCreateDataBuffer")->success,
            SuccessRule::NonNull);
  EXPECT_EQ(catalog->findFunction("aclDestroyTensorDesc")->success,
            SuccessRule::Always);
  // Memory families share the "memory" namespace: wrong-family frees meet.
  EXPECT_EQ(catalog->familyOf(*malloc).nameSpaceIndex, 0u);
  EXPECT_EQ(
      catalog->familyOf(*catalog->findFunction("aclrtFreeHost")).nameSpaceIndex,
      0u);
  EXPECT_NE(catalog->familyOf(*catalog->findFunction("aclrtCreateStream"))
                .nameSpaceIndex,
            0u);
}

TEST(Catalog, EveryApiOfTheReferenceIsListed) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  for (const char *name : {"aclrtMalloc",
                           "aclrtMallocAlign32",
                           "aclrtMallocCached",
                           "aclrtMallocWithCfg",
                           "aclrtFree",
                           "aclrtFreeWithDevSync",
                           "aclrtMallocHost",
                           "aclrtMallocHostWithCfg",
                           "aclrtFreeHost",
                           "aclrtFreeHostWithDevSync",
                           "aclrtHostRegister",
                           "aclrtHostUnregister",
                           "acldvppMalloc",
                           "acldvppFree",
                           "hi_mpi_dvpp_malloc",
                           "hi_mpi_dvpp_free",
                           "aclrtReserveMemAddress",
                           "aclrtReleaseMemAddress",
                           "aclrtMallocPhysical",
                           "aclrtFreePhysical",
                           "aclrtMapMem",
                           "aclrtUnmapMem",
                           "halMemAlloc",
                           "halMemFree",
                           "aclInit",
                           "aclFinalize",
                           "aclrtSetDevice",
                           "aclrtResetDevice",
                           "aclrtCreateContext",
                           "aclrtDestroyContext",
                           "aclrtCreateStream",
                           "aclrtDestroyStream",
                           "aclrtCreateEvent",
                           "aclrtDestroyEvent",
                           "aclCreateDataBuffer",
                           "aclDestroyDataBuffer",
                           "aclCreateTensorDesc",
                           "aclDestroyTensorDesc",
                           "aclmdlCreateDataset",
                           "aclmdlDestroyDataset",
                           "aclmdlCreateDesc",
                           "aclmdlDestroyDesc",
                           "aclmdlLoadFromFile",
                           "aclmdlLoadFromFileWithMem",
                           "aclmdlLoadFromMem",
                           "aclmdlUnload",
                           "aclopCreateAttr",
                           "aclopDestroyAttr",
                           "acldvppCreatePicDesc",
                           "acldvppDestroyPicDesc",
                           "acldvppCreateRoiConfig",
                           "acldvppDestroyRoiConfig",
                           "acldvppCreateResizeConfig",
                           "acldvppDestroyResizeConfig",
                           "acldvppCreateChannelDesc",
                           "acldvppDestroyChannelDesc",
                           "acldvppCreateChannel",
                           "acldvppDestroyChannel"})
    EXPECT_NE(catalog->findFunction(name), nullptr) << name;
}

TEST(Catalog, ParsesSignatures) {
  std::string ret, name;
  std::vector<Param> params;
  ASSERT_TRUE(parseSignature("drvError_t halMemCreate(drv_mem_handle_t "
                             "**handle, size_t size, const struct "
                             "drv_mem_prop *prop, uint64_t flag)",
                             &ret, &name, &params));
  EXPECT_EQ(ret, "drvError_t");
  EXPECT_EQ(name, "halMemCreate");
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params[0].type, "drv_mem_handle_t **");
  EXPECT_EQ(params[0].name, "handle");
  EXPECT_EQ(params[2].type, "const struct drv_mem_prop *");
  ASSERT_TRUE(parseSignature("aclmdlDataset *aclmdlCreateDataset(void)", &ret,
                             &name, &params));
  EXPECT_EQ(ret, "aclmdlDataset *");
  EXPECT_TRUE(params.empty());
  EXPECT_FALSE(parseSignature("aclrtFree", &ret, &name, &params));
  EXPECT_FALSE(
      parseSignature("aclError aclrtFree(void *)", &ret, &name, &params))
      << "unnamed parameter";
  EXPECT_FALSE(parseSignature("aclrtFree(void *p)", &ret, &name, &params))
      << "no return type";
}

TEST(Catalog, SignatureRoundTrips) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->findFunction("aclrtMalloc")->signature(),
            "aclError aclrtMalloc(void **devPtr, size_t size, "
            "aclrtMemMallocPolicy policy)");
  EXPECT_EQ(catalog->findFunction("aclFinalize")->signature(),
            "aclError aclFinalize(void)");
}

TEST(Catalog, RejectsMalformedInput) {
  EXPECT_TRUE(mentions(parseError("{"), "test.json: not valid JSON"));
  EXPECT_TRUE(mentions(parseError("[]"), "the catalog must be an object"));
  EXPECT_TRUE(mentions(
      parseError(R"json({"version": 2, "families": [], "functions": []})json"),
      "\"version\" must be 1"));
  EXPECT_TRUE(mentions(parseError(R"json({"version": 1})json"),
                       "needs \"families\" and \"functions\""));
  EXPECT_TRUE(mentions(
      parseError(
          R"json({"version": 1, "families": [{"name": "x", "level": "gpu",
                                   "kind": "memory", "display": "x"}], "functions": []})json"),
      "family 'x': level must be \"device\" or \"cann\", not \"gpu\""));
  EXPECT_TRUE(
      mentions(parseError(R"json({"version": 1, "families": [{"name": "stream",
                           "level": "cann", "kind": "resource", "display": "stream"}], "functions": [
                           {"signature": "aclError aclrtCreateStream(aclrtStream *stream)",
                            "role": "acquire", "family": "stream",
                            "handle": {"from": "out", "param": "stream"},
                            "success": {"equals": 0}}]})json"),
               "family 'stream' needs at least one releasing function"));
}

TEST(Catalog, RejectsInconsistentFunctions) {
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "release", "family": "nope",
                                    "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0})json"),
               "function 'aclrtDestroyStream': unknown family \"nope\""));
  EXPECT_TRUE(mentions(releaseError(R"json("role": "free", "family": "stream",
                                    "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0})json"),
                       "role free does not fit the resource family 'stream'"));
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "release", "family": "stream",
                                    "handle": {"from": "param", "param": "s"}, "success": {"equals": 0})json"),
               "handle parameter \"s\" is not in the signature"));
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "release", "family": "stream",
                                    "handle": {"from": "out", "param": "stream"}, "success": {"equals": 0})json"),
               "out-parameter \"stream\" must be a pointer"));
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "release", "family": "stream",
                                    "handle": {"from": "param", "param": "stream"}, "success": {"nonnull": true})json"),
               "success \"nonnull\" needs a pointer return type"));
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "release", "family": "stream",
                                    "handle": {"from": "param", "param": "stream"})json"),
               "missing \"success\""));
  EXPECT_TRUE(
      mentions(releaseError(R"json("role": "destroy", "family": "stream",
                                    "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0})json"),
               "role must be alloc, free, acquire or release"));
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclError aclrtCreateStream(aclrtStream *stream)",
                                              "role": "acquire", "family": "stream",
                                              "handle": {"from": "out", "param": "stream"},
                                              "success": {"equals": 0}})json")),
      "function 'aclrtCreateStream' is listed twice"));
}

TEST(Catalog, AnAllocationNeedsASize) {
  std::string text =
      R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
      "kind": "memory", "display": "pool memory", "space": "GM"}], "functions": [
      {"signature": "int poolAlloc(void **p)", "role": "alloc", "family": "pool",
       "handle": {"from": "out", "param": "p"}, "success": {"equals": 0}},
      {"signature": "int poolFree(void *p)", "role": "free", "family": "pool",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}}]})json";
  EXPECT_TRUE(mentions(parseError(text),
                       "function 'poolAlloc': an allocation needs a \"size\""));
  std::string error;
  EXPECT_FALSE(Catalog::load("/nonexistent/catalog.json", &error));
  EXPECT_EQ(error, "/nonexistent/catalog.json: cannot read the catalog");
}
