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

/// The error merging `addition`, as the project catalog mine.json, into an
/// empty catalog gives ("" if it merges).
std::string mergeError(const Catalog &addition) {
  std::string error;
  std::optional<Catalog> empty = Catalog::parse(
      R"json({"version": 1, "families": [], "functions": []})json", "base.json",
      &error);
  if (!empty)
    return "base: " + error;
  return empty->merge(addition, "mine.json", &error) ? "" : error;
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
               "role must be alloc, free, acquire, release, access or retain"));
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclError aclrtCreateStream(aclrtStream *stream)",
                                              "role": "acquire", "family": "stream",
                                              "handle": {"from": "out", "param": "stream"},
                                              "success": {"equals": 0}})json")),
      "function 'aclrtCreateStream' is listed twice"));
}

TEST(Catalog, SinceNamesARelease) {
  std::string text = withRelease(
      R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
              "role": "release", "family": "stream", "since": "8.1.RC1",
              "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}})json");
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(text, "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->findFunction("aclrtDestroyStream")->since, "8.1.RC1");
  EXPECT_EQ(catalog->findFunction("aclrtCreateStream")->since, "");
  EXPECT_TRUE(mentions(
      releaseError(
          R"json("role": "release", "family": "stream", "since": "eight",
                          "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0})json"),
      "function 'aclrtDestroyStream': since \"eight\" is not a CANN release"));
}

TEST(Catalog, NullSaysWhatTheRealReleaseDoesWithNull) {
  auto parsed = [](const std::string &null) {
    std::string error;
    std::optional<Catalog> catalog = Catalog::parse(
        withRelease(
            R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
                    "role": "release", "family": "stream", )json" +
            null +
            R"json("handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}})json"),
        "test.json", &error);
    EXPECT_TRUE(catalog) << error;
    return catalog ? *catalog->findFunction("aclrtDestroyStream") : Function();
  };
  Function unstated = parsed("");
  EXPECT_FALSE(unstated.nullStated);
  EXPECT_TRUE(unstated.nullAccepted);
  Function refused = parsed(R"json("null": "refused", )json");
  EXPECT_TRUE(refused.nullStated);
  EXPECT_FALSE(refused.nullAccepted);
  EXPECT_TRUE(parsed(R"json("null": "accepted", )json").nullAccepted);
  EXPECT_TRUE(mentions(
      releaseError(
          R"json("role": "release", "family": "stream", "null": "maybe",
                          "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0})json"),
      "null must be \"accepted\" or \"refused\", not \"maybe\""));
  // An acquisition has no NULL to release.
  EXPECT_TRUE(mentions(
      parseError(
          R"json({"version": 1, "families": [{"name": "stream", "level": "cann",
          "kind": "resource", "display": "stream"}], "functions": [
          {"signature": "aclError aclrtCreateStream(aclrtStream *stream)", "role": "acquire",
           "family": "stream", "null": "refused", "handle": {"from": "out", "param": "stream"},
           "success": {"equals": 0}}]})json"),
      "\"null\" belongs to a release of a handle passed in"));
}

TEST(Catalog, AnAcquisitionMayWriteAnArrayOfHandles) {
  std::string family = R"json({"version": 1, "families": [{"name": "comm",
      "level": "cann", "kind": "resource", "display": "communicator"}], "functions": [
      {"signature": "HcclResult HcclCommDestroy(HcclComm comm)", "role": "release",
       "family": "comm", "handle": {"from": "param", "param": "comm"}, "success": {"equals": 0}},
      {"signature": "HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms)",
       "role": "acquire", "family": "comm", "success": {"equals": 0}, )json";
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      family +
          R"json("handle": {"from": "out", "param": "comms", "count": "ndev"}}]})json",
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const Function *initAll = catalog->findFunction("HcclCommInitAll");
  EXPECT_EQ(initAll->handleParam, 2);
  EXPECT_EQ(initAll->handleCountParam, 0);
  EXPECT_EQ(catalog->findFunction("HcclCommDestroy")->handleCountParam, -1);
  EXPECT_TRUE(mentions(
      parseError(
          family +
          R"json("handle": {"from": "out", "param": "comms", "count": "devices"}}]})json"),
      "handle count \"devices\" is not a number parameter of the signature"));
  EXPECT_TRUE(mentions(
      releaseError(R"json("role": "release", "family": "stream",
                          "handle": {"from": "param", "param": "stream", "count": "stream"},
                          "success": {"equals": 0})json"),
      "a handle \"count\" belongs to an acquisition writing an array"));
}

TEST(Catalog, SuccessMayBeAnyResultButAFailureValue) {
  // hi_mpi_vb_create_pool returns the pool's id, HI_VB_INVALID_POOLID
  // (-1 as hi_u32) when it fails.
  auto pool = [](const std::string &success) {
    return R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
        "kind": "resource", "display": "pool", "handle": "id"}], "functions": [
        {"signature": "hi_s32 hi_mpi_vb_destroy_pool(hi_vb_pool pool)",
         "role": "release", "family": "pool",
         "handle": {"from": "param", "param": "pool"}, "success": {"equals": 0}},
        {"signature": "hi_vb_pool hi_mpi_vb_create_pool(const hi_vb_pool_config *config)",
         "role": "acquire", "family": "pool", "handle": {"from": "return"},
         "success": )json" +
           success + "}]}";
  };
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      pool(R"json({"differs": 4294967295})json"), "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const Function *create = catalog->findFunction("hi_mpi_vb_create_pool");
  EXPECT_EQ(create->success, SuccessRule::Differs);
  EXPECT_EQ(create->successValue, 4294967295LL);
  EXPECT_TRUE(mentions(parseError(pool(R"json({"differs": "none"})json")),
                       "success \"differs\" must be an integer"));
  // hi_mpi_venc_get_fd's descriptor, or a negative error code.
  catalog =
      Catalog::parse(pool(R"json({"at_least": 0})json"), "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  create = catalog->findFunction("hi_mpi_vb_create_pool");
  EXPECT_EQ(create->success, SuccessRule::AtLeast);
  EXPECT_EQ(create->successValue, 0);
  EXPECT_TRUE(mentions(parseError(pool(R"json({"at_least": 0.5})json")),
                       "success \"at_least\" must be an integer"));
  // A pointer, or a handle type that is one by typedef, returns NULL on
  // failure: "nonnull", never "differs".
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)",
                  "role": "acquire", "family": "stream", "handle": {"from": "return"},
                  "success": {"differs": 0}})json")),
      "success \"differs\" needs a number return type"));
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)",
                  "role": "acquire", "family": "stream", "handle": {"from": "return"},
                  "success": {"at_least": 0}})json")),
      "success \"at_least\" needs a number return type"));
  EXPECT_TRUE(Catalog::parse(
      R"json({"version": 1, "families": [{"name": "binary", "level": "cann",
          "kind": "resource", "display": "binary"}], "functions": [
          {"signature": "aclError aclrtDestroyBinary(aclrtBinary binary)",
           "role": "release", "family": "binary",
           "handle": {"from": "param", "param": "binary"}, "success": {"equals": 0}},
          {"signature": "aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)",
           "role": "acquire", "family": "binary", "handle": {"from": "return"},
           "success": {"nonnull": true}}]})json",
      "test.json", &error))
      << error;
}

TEST(Catalog, AKeyFamilyNamesItsHandlesByText) {
  // aclrtIpcMemGetExportKey writes a key's text, aclrtIpcMemClose takes it.
  auto keys = [](const std::string &familyHandle, const std::string &close,
                 const std::string &closeKeyType = "const char *") {
    return R"json({"version": 1, "families": [{"name": "ipc", "level": "cann",
        "kind": "resource", "display": "IPC shared memory", "refcounted": true,
        "handle": )json" +
           familyHandle + R"json(}], "functions": [
        {"signature": "aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags)",
         "role": "acquire", "family": "ipc", "handle": {"from": "key", "param": "key"},
         "success": {"equals": 0}},
        {"signature": "aclError aclrtIpcMemClose()json" +
           closeKeyType + R"json(key)", "role": "release",
         "family": "ipc", "null": "refused", "success": {"equals": 0}, "handle": )json" +
           close + "}]}";
  };
  const std::string byKey = R"json({"from": "key", "param": "key"})json";
  std::string error;
  std::optional<Catalog> catalog =
      Catalog::parse(keys(R"json("key")json", byKey), "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const Family &family = catalog->families()[0];
  EXPECT_TRUE(family.handleIsKey);
  EXPECT_TRUE(family.handleIsPointer) << "NULL is no key";
  const Function *close = catalog->findFunction("aclrtIpcMemClose");
  EXPECT_EQ(close->handleFrom, HandleFrom::Key);
  EXPECT_EQ(close->handleParam, 0);
  EXPECT_TRUE(close->nullStated);
  EXPECT_EQ(catalog->findFunction("aclrtIpcMemGetExportKey")->handleParam, 2);
  // A key family's functions all name keys, and only they do.
  EXPECT_TRUE(mentions(
      parseError(keys(R"json("key")json",
                      R"json({"from": "param", "param": "key"})json")),
      "family 'ipc' has keys: its handle is {\"from\": \"key\", ...}"));
  EXPECT_TRUE(
      mentions(parseError(keys(R"json("address")json", byKey)),
               "a handle \"from\" \"key\" belongs to a family of \"handle\": "
               "\"key\""));
  // The key is text: a char pointer.
  EXPECT_TRUE(
      mentions(parseError(keys(R"json("key")json", byKey, "const void *")),
               "key parameter \"key\" must be a char * or const char *"));
  // Registered families do not carry keys.
  std::optional<Catalog> addition =
      Catalog::parse(keys(R"json("key")json", byKey), "mine.json", &error);
  ASSERT_TRUE(addition) << error;
  EXPECT_TRUE(mentions(mergeError(*addition),
                       "\"handle\": \"key\" is for the built-in catalog only"));
}

TEST(Catalog, NotResourcesGiveTheirReasons) {
  auto withNotResources = [](const std::string &list) {
    std::string text = withRelease(
        R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
                "role": "release", "family": "stream",
                "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}})json");
    return text.substr(0, text.size() - 1) + ", \"not_resources\": " + list +
           "}";
  };
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      withNotResources(R"json({"aclrtCreateStreamQuery": "a query"})json"),
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->notResources().at("aclrtCreateStreamQuery"), "a query");
  EXPECT_TRUE(
      mentions(parseError(withNotResources(R"json({"aclFoo": ""})json")),
               "not_resources: 'aclFoo' needs the reason"));
  EXPECT_TRUE(mentions(
      parseError(withNotResources(R"json({"aclrtCreateStream": "no"})json")),
      "not_resources: 'aclrtCreateStream' is a function of the catalog"));
  EXPECT_TRUE(mentions(parseError(withNotResources("[]")),
                       "\"not_resources\" must map function names to reasons"));
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

TEST(Catalog, AFunctionRecordedByItsCalleeNeedsNoHandleOrSize) {
  // mstx's batch calls: the injection library records each region itself.
  std::string text =
      R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
      "kind": "memory", "display": "pool memory", "space": "GM"}], "functions": [
      {"signature": "void regionsRegister(const struct batch *b)", "role": "alloc",
       "family": "pool", "recorded_by": "callee", "success": {"always": true}},
      {"signature": "int poolFree(void *p)", "role": "free", "family": "pool",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}}]})json";
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(text, "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const Function *batch = catalog->findFunction("regionsRegister");
  ASSERT_NE(batch, nullptr);
  EXPECT_TRUE(batch->recordedByCallee);
  EXPECT_EQ(batch->handleFrom, HandleFrom::None);
  EXPECT_TRUE(catalog->familyOf(*batch).hasHandle)
      << "the family's handles are still addresses";
  EXPECT_FALSE(catalog->findFunction("poolFree")->recordedByCallee);
  std::string wrong = text;
  wrong.replace(wrong.find("\"callee\""), 8, "\"caller\"");
  EXPECT_TRUE(mentions(parseError(wrong),
                       "function 'regionsRegister': recorded_by must be "
                       "\"callee\", not \"caller\""));
}

namespace {

/// A pool family with an allocation, a free and `access`, a copy.
std::string withAccess(const std::string &signature,
                       const std::string &fields) {
  return R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
      "kind": "memory", "display": "pool memory", "space": "GM"}], "functions": [
      {"signature": "int poolAlloc(void **p, size_t n)", "role": "alloc",
       "family": "pool", "handle": {"from": "out", "param": "p"},
       "size": {"param": "n"}, "success": {"equals": 0}},
      {"signature": "int poolFree(void *p)", "role": "free", "family": "pool",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}},
      {"signature": ")json" +
         signature + R"json(", "role": "access", "family": "pool", )json" +
         fields + "}]}";
}

} // namespace

TEST(Catalog, AnAccessNamesTheRangesItTouches) {
  std::string error;
  std::optional<Catalog> linear = Catalog::parse(
      withAccess("int copy(void *to, const void *from, size_t n, int kind)",
                 R"json("access": {"write": "to", "read": "from",
                 "size": "n", "direction": "kind"})json"),
      "test.json", &error);
  ASSERT_TRUE(linear) << error;
  const AccessParams &copy = linear->findFunction("copy")->access;
  EXPECT_EQ(copy.write, 0);
  EXPECT_EQ(copy.read, 1);
  EXPECT_EQ(copy.size, 2);
  EXPECT_EQ(copy.direction, 3);
  EXPECT_FALSE(copy.twoDimensional());
  std::optional<Catalog> planar = Catalog::parse(
      withAccess("int copy2d(uint64_t to, size_t tp, size_t w, size_t h)",
                 R"json("access": {"write": "to", "write_pitch": "tp",
                 "width": "w", "height": "h"})json"),
      "test.json", &error);
  ASSERT_TRUE(planar) << error;
  const AccessParams &copy2d = planar->findFunction("copy2d")->access;
  EXPECT_TRUE(copy2d.twoDimensional());
  EXPECT_EQ(copy2d.read, -1);
  EXPECT_EQ(copy2d.writePitch, 1);
  // An access does not count as the family's release.
  EXPECT_TRUE(
      mentions(parseError(R"json({"version": 1, "families": [{"name": "pool",
      "level": "cann", "kind": "memory", "display": "pool", "space": "GM"}],
      "functions": [{"signature": "int poolAlloc(void **p, size_t n)",
      "role": "alloc", "family": "pool", "handle": {"from": "out", "param": "p"},
      "size": {"param": "n"}, "success": {"equals": 0}},
      {"signature": "int set(void *p, size_t n)", "role": "access",
      "family": "pool", "access": {"write": "p", "size": "n"}}]})json"),
               "family 'pool' needs at least one releasing function"));
}

TEST(Catalog, RejectsMalformedAccesses) {
  const char *signature = "int copy(void *to, const void *from, size_t n)";
  EXPECT_TRUE(mentions(parseError(withAccess(signature, R"json("x": 1)json")),
                       "function 'copy': an access needs \"access\""));
  EXPECT_TRUE(
      mentions(parseError(withAccess(
                   signature, R"json("access": {"write": "to", "size": "n"},
          "success": {"equals": 0})json")),
               "function 'copy': an access has no \"success\""));
  EXPECT_TRUE(mentions(
      parseError(withAccess(
          signature, R"json("access": {"write": "dst", "size": "n"})json")),
      "access write parameter \"dst\" is not in the signature"));
  EXPECT_TRUE(mentions(
      parseError(withAccess(
          signature, R"json("access": {"write": "n", "size": "n"})json")),
      "access write parameter \"n\" must be an address"));
  EXPECT_TRUE(mentions(
      parseError(withAccess(
          signature, R"json("access": {"write": "to", "size": "to"})json")),
      "access size parameter \"to\" must be a number"));
  EXPECT_TRUE(mentions(
      parseError(withAccess(signature, R"json("access": {"size": "n"})json")),
      "an access needs a \"write\" or \"read\""));
  EXPECT_TRUE(mentions(
      parseError(withAccess(
          signature, R"json("access": {"write": "to", "len": "n"})json")),
      "unknown access field \"len\""));
  EXPECT_TRUE(mentions(
      parseError(withAccess(signature, R"json("access": {"write": "to"})json")),
      "an access has a \"size\", or a \"width\""));
  EXPECT_TRUE(
      mentions(parseError(withAccess(signature, R"json("access": {"write": "to",
                            "width": "n", "height": "n"})json")),
               "a 2-D access needs \"width\", \"height\" and the pitch"));
  // Accesses are checked by the interposers and track.h only.
  std::string error;
  std::optional<Catalog> addition =
      Catalog::parse(withAccess(signature,
                                R"json("access": {"write": "to", "read": "from",
                 "size": "n"})json"),
                     "mine.json", &error);
  ASSERT_TRUE(addition) << error;
  EXPECT_TRUE(mentions(mergeError(*addition),
                       "function 'copy': \"role\": \"access\" is for the "
                       "built-in catalog only"));
}

TEST(Catalog, AnAccessMayReadMembersOfAPointerParameter) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      withAccess("int copy2d(struct copy *c)",
                 R"json("access": {"write": "c->to", "write_pitch": "c->pitch",
                 "width": "c->size.width", "height": "c->size.height",
                 "when": {"value": "c->kind", "in": [0, 1]}})json"),
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const AccessParams &access = catalog->findFunction("copy2d")->access;
  EXPECT_EQ(access.write, 0);
  EXPECT_EQ(access.members[AccessParams::Write], "to");
  EXPECT_EQ(access.members[AccessParams::Width], "size.width");
  EXPECT_EQ(access.when, 0);
  EXPECT_EQ(access.whenMember, "kind");
  EXPECT_EQ(access.whenValues, (std::vector<long long>{0, 1}));
  EXPECT_TRUE(access.hasMembers());
  EXPECT_TRUE(mentions(
      parseError(
          withAccess("int copy(void *to, size_t n)",
                     R"json("access": {"write": "n->x", "size": "n"})json")),
      "access write parameter \"n->x\": a member is PARAM->field.field..., "
      "of a pointer"));
  EXPECT_TRUE(mentions(parseError(withAccess("int copy(struct c *p)",
                                             R"json("access": {"write": "p->to",
                            "size": "p->n", "when": {"value": "p->k"}})json")),
                       "access \"when\" needs \"in\": [N, ...]"));
}

TEST(Catalog, TheCopiesAndSetsAreAccessesAtTheirLevels) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  for (const char *name :
       {"aclrtMemcpy", "aclrtMemcpyAsync", "aclrtMemcpy2d",
        "aclrtMemcpy2dAsync", "aclrtMemset", "aclrtMemsetAsync", "drvMemcpy",
        "drvMemsetD8", "halMemcpy2D"}) {
    const Function *f = catalog->findFunction(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_EQ(f->role, Role::Access) << name;
    EXPECT_EQ(catalog->familyOf(*f).level,
              name[0] == 'a' ? Level::Cann : Level::Device)
        << name;
    EXPECT_GE(f->access.write, 0) << name;
  }
  EXPECT_TRUE(catalog->findFunction("aclrtMemcpy2d")->access.twoDimensional());
  EXPECT_EQ(catalog->findFunction("aclrtMemset")->access.direction, -1);
}

TEST(Catalog, TheMstxPoolCallsAreRecordedByTheirCallee) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  for (const char *name :
       {"mstxMemHeapRegister", "mstxMemHeapUnregister",
        "mstxMemRegionsRegister", "mstxMemRegionsUnregister"}) {
    const Function *f = catalog->findFunction(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_TRUE(f->recordedByCallee) << name;
  }
  EXPECT_FALSE(catalog->findFunction("aclrtMalloc")->recordedByCallee);
}

namespace {

/// A pool family with these fields, an allocation and a free with these.
std::string pool(const std::string &familyFields, const std::string &alloc,
                 const std::string &allocFields, const std::string &success) {
  return R"json({"version": 1, "families": [{"name": "pool", "level": "cann",
      "kind": "memory", "display": "pool memory")json" +
         familyFields + R"json(}], "functions": [
      {"signature": ")json" +
         alloc + R"json(", "role": "alloc", "family": "pool",
       "handle": {"from": "out", "param": "p"}, )json" +
         allocFields + R"json("success": )json" + success + R"json(},
      {"signature": "int poolFree(void *p)", "role": "free", "family": "pool",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}}]})json";
}

} // namespace

TEST(Catalog, RefusesWhatTheRuntimeCannotHonour) {
  std::string good =
      pool(R"json(, "space": "GM")json", "int poolAlloc(void **p, size_t n)",
           R"json("size": {"param": "n"}, )json", R"json({"equals": 0})json");
  std::string error;
  EXPECT_TRUE(Catalog::parse(good, "test.json", &error)) << error;
  // A memory family says where its memory is, or each allocation a flag.
  EXPECT_TRUE(
      mentions(parseError(pool("", "int poolAlloc(void **p, size_t n)",
                               R"json("size": {"param": "n"}, )json",
                               R"json({"equals": 0})json")),
               "function 'poolAlloc': family 'pool' has no \"space\", so its "
               "allocations need a \"space\": {\"driver_flag\": P}"));
  EXPECT_TRUE(Catalog::parse(
      pool(
          "", "int poolAlloc(void **p, size_t n, unsigned long long flag)",
          R"json("size": {"param": "n"}, "space": {"driver_flag": "flag"}, )json",
          R"json({"equals": 0})json"),
      "test.json", &error))
      << error;
  // "always": false is no rule at all.
  EXPECT_TRUE(mentions(parseError(pool(R"json(, "space": "GM")json",
                                       "int poolAlloc(void **p, size_t n)",
                                       R"json("size": {"param": "n"}, )json",
                                       R"json({"always": false})json")),
                       "function 'poolAlloc': success \"always\" must be "
                       "true"));
  EXPECT_TRUE(mentions(parseError(pool(R"json(, "space": "GM")json",
                                       "void *poolAlloc(void **p, size_t n)",
                                       R"json("size": {"param": "n"}, )json",
                                       R"json({"nonnull": false})json")),
                       "function 'poolAlloc': success \"nonnull\" must be "
                       "true"));
  // The size is a number passed in, not a pointer to one.
  EXPECT_TRUE(mentions(parseError(pool(R"json(, "space": "GM")json",
                                       "int poolAlloc(void **p, size_t *n)",
                                       R"json("size": {"param": "n"}, )json",
                                       R"json({"equals": 0})json")),
                       "function 'poolAlloc': size parameter \"n\" is a "
                       "pointer"));
}

TEST(Catalog, RefusesMoreThanTheRuntimesTablesHold) {
  std::string functions;
  for (size_t i = 0; i <= kMaxCatalogFunctions / 2; ++i)
    functions += R"json({"signature": "int get)json" + std::to_string(i) +
                 R"json((void **p)", "role": "acquire", "family": "token",
        "handle": {"from": "out", "param": "p"}, "success": {"equals": 0}},
        {"signature": "int put)json" +
                 std::to_string(i) +
                 R"json((void *p)", "role": "release", "family": "token",
        "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}},)json";
  functions.pop_back();
  std::string text =
      R"json({"version": 1, "families": [{"name": "token", "level": "cann",
      "kind": "resource", "display": "token"}], "functions": [)json" +
      functions + "]}";
  EXPECT_EQ(parseError(text),
            "test.json: more than 1023 functions or 255 families: msledger's "
            "tables hold no more");
  // Nor can additions take the built-in catalog past them.
  std::string error;
  std::optional<Catalog> builtIn = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(builtIn) << error;
  std::string half = R"json({"version": 1, "families": [{"name": "token",
      "level": "cann", "kind": "resource", "display": "token"}], "functions": [)json";
  std::string list;
  for (size_t i = 0; i + builtIn->functions().size() <= kMaxCatalogFunctions;
       i += 2)
    list += R"json({"signature": "int get)json" + std::to_string(i) +
            R"json((void **p)", "role": "acquire", "family": "token",
        "handle": {"from": "out", "param": "p"}, "success": {"equals": 0}},
        {"signature": "int put)json" +
            std::to_string(i) +
            R"json((void *p)", "role": "release", "family": "token",
        "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}},)json";
  list.pop_back();
  std::optional<Catalog> addition =
      Catalog::parse(half + list + "]}", "mine.json", &error);
  ASSERT_TRUE(addition) << error;
  EXPECT_FALSE(builtIn->merge(*addition, "mine.json", &error));
  EXPECT_EQ(error, "mine.json: with the catalog it adds to, more than 1023 "
                   "functions or 255 families: msledger's tables hold no more");
}

namespace {

/// A pool whose allocation has `device` as its "memory_device".
std::string poolWithMemoryDevice(const std::string &device,
                                 const std::string &family = "pool") {
  return R"json({"version": 1, "families": [{"name": "pool", "level": "device",
      "kind": "memory", "display": "pool memory", "space": "GM"},
      {"name": "token", "level": "device", "kind": "resource", "display": "token"}],
      "functions": [
      {"signature": "int poolAlloc(void **p, size_t n, const struct prop *prop, int dev)",
       "role": ")json" +
         std::string(family == "pool" ? "alloc" : "acquire") +
         R"json(", "family": ")json" + family +
         R"json(", "handle": {"from": "out", "param": "p"},
       "size": {"param": "n"}, "memory_device": )json" +
         device +
         R"json(, "success": {"equals": 0}},
      {"signature": "int poolFree(void *p)", "role": "free", "family": "pool",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}},
      {"signature": "int tokenGet(void **p)", "role": "acquire", "family": "token",
       "handle": {"from": "out", "param": "p"}, "success": {"equals": 0}},
      {"signature": "int tokenFree(void *p)", "role": "release", "family": "token",
       "handle": {"from": "param", "param": "p"}, "success": {"equals": 0}}]})json";
}

} // namespace

TEST(Catalog, MemoryDeviceNamesAParameterOrAMemberOfIt) {
  std::string error;
  auto catalog = Catalog::parse(
      poolWithMemoryDevice(
          R"json({"param": "prop", "member": "location.id"})json"),
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const Function *alloc = catalog->findFunction("poolAlloc");
  EXPECT_EQ(alloc->memoryDeviceParam, 2);
  EXPECT_EQ(alloc->memoryDeviceMember, "location.id");
  catalog = Catalog::parse(poolWithMemoryDevice(R"json({"param": "dev"})json"),
                           "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->findFunction("poolAlloc")->memoryDeviceParam, 3);
  EXPECT_TRUE(catalog->findFunction("poolAlloc")->memoryDeviceMember.empty());
  EXPECT_EQ(catalog->findFunction("poolFree")->memoryDeviceParam, -1);

  EXPECT_TRUE(
      mentions(parseError(poolWithMemoryDevice(R"json({"param": "q"})json")),
               "memory_device parameter \"q\" is not in the signature"));
  EXPECT_TRUE(mentions(
      parseError(
          poolWithMemoryDevice(R"json({"param": "dev", "member": "id"})json")),
      "memory_device parameter \"dev\" has a member only if it is a pointer"));
  EXPECT_TRUE(mentions(parseError(poolWithMemoryDevice(
                           R"json({"param": "prop", "member": "a->b"})json")),
                       "memory_device member \"a->b\" is not a field name"));
  EXPECT_TRUE(
      mentions(parseError(poolWithMemoryDevice(R"json({"member": "id"})json")),
               "memory_device: missing \"param\""));
  EXPECT_TRUE(mentions(
      parseError(poolWithMemoryDevice(R"json({"param": "dev"})json", "token")),
      "a \"memory_device\" belongs to an allocation"));

  // Not in a project's catalog: its wrappers do not pass a device.
  EXPECT_EQ(mergeError(*catalog),
            "mine.json: function 'poolAlloc': \"memory_device\" is for the "
            "built-in catalog only");
}

namespace {

/// Streams released implicitly by `releasers` (JSON array), with a device
/// set family whose release is aclrtResetDevice; `createFields` are added to
/// aclrtCreateStream.
std::string implicitCatalog(const std::string &releasers,
                            const std::string &createFields = "") {
  return R"json({"version": 1, "families": [
      {"name": "device-set", "level": "cann", "kind": "resource",
       "display": "device set", "handle": "id"},
      {"name": "stream", "level": "cann", "kind": "resource",
       "display": "stream", "released_implicitly_by": )json" +
         releasers + R"json(}], "functions": [
      {"signature": "aclError aclrtSetDevice(int32_t deviceId)",
       "role": "acquire", "family": "device-set",
       "handle": {"from": "param", "param": "deviceId"}, "success": {"equals": 0}},
      {"signature": "aclError aclrtResetDevice(int32_t deviceId)",
       "role": "release", "family": "device-set",
       "handle": {"from": "param", "param": "deviceId"}, "success": {"equals": 0}},
      {"signature": "aclError aclrtCreateStream(aclrtStream *stream, int32_t device, size_t bytes)",
       "role": "acquire", "family": "stream", )json" +
         createFields + R"json(
       "handle": {"from": "out", "param": "stream"}, "success": {"equals": 0}},
      {"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
       "role": "release", "family": "stream",
       "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}}]})json";
}

} // namespace

TEST(Catalog, ImplicitReleases) {
  std::string error;
  std::optional<Catalog> builtIn = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(builtIn) << error;
  const Function *createStream = builtIn->findFunction("aclrtCreateStream");
  ASSERT_NE(createStream, nullptr);
  const Family &stream = builtIn->familyOf(*createStream);
  ASSERT_EQ(stream.implicitReleases.size(), 2u);
  EXPECT_EQ(stream.implicitReleases[0].function, "aclrtResetDevice");
  EXPECT_TRUE(stream.implicitReleases[0].perDevice);
  EXPECT_EQ(builtIn->functions()[stream.implicitReleases[0].functionIndex].name,
            "aclrtResetDevice");
  EXPECT_EQ(stream.implicitReleases[1].function, "aclFinalize");
  EXPECT_FALSE(stream.implicitReleases[1].perDevice);
  EXPECT_TRUE(stream.perDevice());
  const Function *createContext = builtIn->findFunction("aclrtCreateContext");
  ASSERT_NE(createContext, nullptr);
  EXPECT_EQ(createContext->params[createContext->deviceParam].name, "deviceId");

  std::optional<Catalog> parsed = Catalog::parse(
      implicitCatalog(
          R"json([{"function": "aclrtResetDevice", "scope": "device"}])json",
          R"json("device": {"param": "device"},)json"),
      "test.json", &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(parsed->functions()[2].deviceParam, 1);

  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(R"json([{"function": "aclNope"}])json")),
      "family 'stream': released implicitly by \"aclNope\", which is not in "
      "the catalog"));
  EXPECT_TRUE(mentions(
      parseError(
          implicitCatalog(R"json([{"function": "aclrtSetDevice"}])json")),
      "released implicitly by aclrtSetDevice, which does not release"));
  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(
          R"json([{"function": "aclrtDestroyStream", "scope": "device"}])json")),
      "released per device by aclrtDestroyStream, whose handle is not a "
      "device id"));
  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(
          R"json([{"function": "aclrtResetDevice", "scope": "process"}])json")),
      "scope must be \"device\" or \"all\", not \"process\""));
  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(
          R"json([{"function": "aclrtResetDevice"}, {"function": "aclrtResetDevice"},
                  {"function": "aclrtResetDevice"}])json")),
      "must be an array of at most two"));
  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(
          R"json([{"function": "aclrtResetDevice", "scope": "device"}])json",
          R"json("size": {"param": "bytes"},)json")),
      "function 'aclrtCreateStream': a family released per device keeps the "
      "device, not a \"size\""));
  EXPECT_TRUE(mentions(
      parseError(
          implicitCatalog(R"json([{"function": "aclrtResetDevice"}])json",
                          R"json("device": {"param": "device"},)json")),
      "a \"device\" belongs to an acquisition of a family released per "
      "device"));
  EXPECT_TRUE(mentions(
      parseError(implicitCatalog(
          R"json([{"function": "aclrtResetDevice", "scope": "device"}])json",
          R"json("device": {"param": "nowhere"},)json")),
      "device parameter \"nowhere\" is not in the signature"));

  // A project's catalog cannot use them: registered families do not carry
  // them to the ledger.
  std::optional<Catalog> addition = Catalog::parse(
      implicitCatalog(R"json([{"function": "aclrtResetDevice"}])json"),
      "mine.json", &error);
  ASSERT_TRUE(addition) << error;
  EXPECT_EQ(mergeError(*addition),
            "mine.json: family 'stream': \"released_implicitly_by\" is for "
            "the built-in catalog only");
}

namespace {

/// A catalog with an executor family, its retain and release, and the
/// operator rule (`rule`: the "operators" object).
std::string withOperators(const std::string &rule) {
  return R"json({"version": 1, "families": [{"name": "executor", "level": "cann",
      "kind": "resource", "display": "executor"}], "functions": [
      {"signature": "aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)",
       "role": "retain", "family": "executor",
       "handle": {"from": "param", "param": "executor"}, "success": {"equals": 0}},
      {"signature": "aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)",
       "role": "release", "family": "executor",
       "handle": {"from": "param", "param": "executor"}, "success": {"equals": 0}}],
      "operators": )json" +
         rule + "}";
}

const char *const kRule = R"json({"family": "executor", "prefix": "acl",
    "prepare_suffix": "GetWorkspaceSize", "executor_type": "aclOpExecutor"})json";

} // namespace

TEST(Catalog, TheOperatorRuleCoversEveryOperatorByNameAndParameters) {
  std::string error;
  std::optional<Catalog> catalog =
      Catalog::parse(withOperators(kRule), "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  const OperatorRule &rule = catalog->operators();
  ASSERT_TRUE(rule.present);
  // Its two entries stand for every phase 1 and every phase 2.
  const Function &prepare = catalog->functions()[rule.prepare];
  EXPECT_EQ(prepare.operatorPart, OperatorPart::Prepare);
  EXPECT_EQ(prepare.role, Role::Acquire);
  EXPECT_EQ(catalog->functions()[rule.run].role, Role::Consume);
  EXPECT_TRUE(catalog->families()[rule.family].operatorHandles);

  EXPECT_EQ(rule.partOf("aclnnAddGetWorkspaceSize",
                        {"const aclTensor *", "const aclTensor *",
                         "const aclScalar *", "aclTensor *", "uint64_t *",
                         "aclOpExecutor **"}),
            OperatorPart::Prepare);
  EXPECT_EQ(
      rule.partOf("aclStftGetWorkspaceSize",
                  {"const aclTensor *", "uint64_t *", "aclOpExecutor **"}),
      OperatorPart::Prepare)
      << "not only aclnn*: the FFT operators are acl*";
  EXPECT_EQ(rule.partOf("aclnnAdd", {"void *", "uint64_t", "aclOpExecutor *",
                                     "aclrtStream"}),
            OperatorPart::Run);
  EXPECT_EQ(rule.partOf("aclnnAbs", {"void *", "const uint64_t",
                                     "aclOpExecutor *", "const aclrtStream"}),
            OperatorPart::Run)
      << "a const value parameter is the same parameter";
  // Names alone, or parameters alone, are not enough.
  EXPECT_EQ(rule.partOf("aclnnAddGetWorkspaceSize",
                        {"const aclTensor *", "uint64_t *"}),
            OperatorPart::None);
  EXPECT_EQ(rule.partOf("aclnnInit", {"const char *"}), OperatorPart::None);
  EXPECT_EQ(rule.partOf("myRun", {"void *", "uint64_t", "aclOpExecutor *",
                                  "aclrtStream"}),
            OperatorPart::None);
  EXPECT_EQ(
      rule.partOf("aclrtMalloc", {"void **", "size_t", "aclrtMemMallocPolicy"}),
      OperatorPart::None);
  EXPECT_EQ(rule.operatorOf("aclnnAddGetWorkspaceSize"), "aclnnAdd");
  EXPECT_EQ(rule.operatorOf("aclnnAdd"), "aclnnAdd");
}

// A retain outside the operator rule's family is one more reference to a
// live handle (aclrtMemRetainAllocationHandle), of either kind of family;
// it neither acquires nor releases.
TEST(Catalog, ARetainIsOneMoreReference) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      withRelease(
          R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
                  "role": "release", "family": "stream",
                  "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}},
                 {"signature": "aclError aclrtKeep(aclrtStream *stream)",
                  "role": "retain", "family": "stream",
                  "handle": {"from": "out", "param": "stream"}, "success": {"equals": 0}})json"),
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->findFunction("aclrtKeep")->role, Role::Retain);
  EXPECT_TRUE(
      mentions(mergeError(*catalog),
               "\"role\": \"retain\" is for the built-in catalog only"));
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclError aclrtKeep(aclrtStream stream)",
                  "role": "retain", "family": "stream",
                  "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0}})json")),
      "family 'stream' needs at least one releasing function"));
}

// An imported handle is released by the releases of the family it is
// imported into (aclrtFreePhysical of aclrtMemImportFromShareableHandle's).
TEST(Catalog, AFamilyMayBeReleasedAsAnother) {
  auto imports = [](const std::string &importFamily) {
    return R"json({"version": 1, "families": [
        {"name": "physical", "level": "cann", "kind": "memory", "space": "GM",
         "display": "physical device memory", "namespace": "physical"},
        )json" +
           importFamily + R"json(], "functions": [
        {"signature": "aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags)",
         "role": "alloc", "family": "physical", "handle": {"from": "out", "param": "handle"},
         "size": {"param": "size"}, "success": {"equals": 0}},
        {"signature": "aclError aclrtFreePhysical(aclrtDrvMemHandle handle)", "role": "free",
         "family": "physical", "handle": {"from": "param", "param": "handle"},
         "success": {"equals": 0}},
        {"signature": "aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle)",
         "role": "acquire", "family": "import", "handle": {"from": "out", "param": "handle"},
         "success": {"equals": 0}}]})json";
  };
  std::string error;
  std::optional<Catalog> catalog = Catalog::parse(
      imports(R"json({"name": "import", "level": "cann", "kind": "resource",
          "display": "imported physical memory", "namespace": "physical",
          "released_as": "physical"})json"),
      "test.json", &error);
  ASSERT_TRUE(catalog) << error;
  EXPECT_EQ(catalog->families()[1].releasedAsIndex, 0);
  EXPECT_EQ(catalog->families()[0].releasedAsIndex, -1);
  EXPECT_TRUE(mentions(
      parseError(
          imports(R"json({"name": "import", "level": "cann", "kind": "resource",
          "display": "imported", "namespace": "other", "released_as": "physical"})json")),
      "released as 'physical', whose level and namespace it needs"));
  EXPECT_TRUE(mentions(
      parseError(
          imports(R"json({"name": "import", "level": "cann", "kind": "resource",
          "display": "imported", "namespace": "physical", "released_as": "import"})json")),
      "which is not another family released as itself"));
  EXPECT_TRUE(mentions(
      parseError(
          imports(R"json({"name": "import", "level": "cann", "kind": "resource",
          "display": "imported", "namespace": "physical"})json")),
      "family 'import' needs at least one releasing function"));
  EXPECT_TRUE(mentions(mergeError(*catalog),
                       "\"released_as\" is for the built-in catalog only"));
}

TEST(Catalog, TheOperatorRuleIsCheckedAndBuiltInOnly) {
  EXPECT_TRUE(mentions(parseError(withOperators(
                           R"json({"family": "nope", "prefix": "acl",
      "prepare_suffix": "GetWorkspaceSize", "executor_type": "aclOpExecutor"})json")),
                       "unknown family \"nope\""));
  EXPECT_TRUE(
      mentions(parseError(withOperators(R"json({"family": "executor"})json")),
               "missing \"prefix\""));
  std::string error;
  std::optional<Catalog> rule =
      Catalog::parse(withOperators(kRule), "test.json", &error);
  ASSERT_TRUE(rule) << error;
  EXPECT_TRUE(mentions(mergeError(*rule), "built-in catalog only"));
}

TEST(Catalog, AListOwnsWhatItIsMadeOf) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  const Function *list = catalog->findFunction("aclCreateTensorList");
  ASSERT_NE(list, nullptr);
  ASSERT_GE(list->ownsParam, 0);
  EXPECT_EQ(list->params[list->ownsParam].name, "value");
  EXPECT_EQ(list->params[list->ownsCountParam].name, "size");
  ASSERT_GE(list->ownsRelease, 0);
  EXPECT_EQ(catalog->functions()[list->ownsRelease].name, "aclDestroyTensor");
  EXPECT_TRUE(mentions(
      parseError(withRelease(
          R"json({"signature": "aclError aclrtDestroyStream(aclrtStream stream)",
                  "role": "release", "family": "stream",
                  "handle": {"from": "param", "param": "stream"}, "success": {"equals": 0},
                  "owns": {"param": "stream", "count": "stream", "family": "stream"}})json")),
      "\"owns\" belongs to a resource's acquisition"));
}
