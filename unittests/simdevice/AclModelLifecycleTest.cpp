//===- AclModelLifecycleTest.cpp - creates and destroys of acl_mdl, acl_op ===//
//
// The lifecycle of what acl/acl_mdl.h, acl/acl_op.h, acl/acl_op_compiler.h
// and the model capture calls of acl/acl_rt.h make: success, null
// arguments, unknown and double destroys, the device memory a load holds,
// and what aclFinalize does to each.
//
//===----------------------------------------------------------------------===//
#include "AclTestSupport.h"
#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

const std::string kModel = "mssim-model 1\nweight 65536\nworkspace 4096\n"
                           "input x float32 ND 1,4\noutput y float32 ND 1,4\n";
const std::string kBundle = "mssim-bundle 1\n" + kModel + kModel;

/// A temporary file holding `text`, removed with the object.
struct TempFile {
  explicit TempFile(const std::string &text) {
    char name[] = "/tmp/mssim-model-XXXXXX";
    int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, text.data(), text.size()),
              static_cast<ssize_t>(text.size()));
    close(fd);
    path = name;
  }
  ~TempFile() { unlink(path.c_str()); }
  std::string path;
};

template <typename T>
aclError setOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr, T value) {
  return aclmdlSetConfigOpt(handle, attr, &value, sizeof value);
}

class AclModelLifecycle : public AclTest {
protected:
  /// The device memory one load of kModel holds.
  static size_t modelBytes() {
    size_t before = deviceBytesInUse();
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(kModel.data(), kModel.size(), &id),
              ACL_SUCCESS);
    size_t held = deviceBytesInUse() - before;
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    return held;
  }
};

} // namespace

TEST_F(AclModelLifecycle, AippSetsAreCreatedAndDestroyedOnce) {
  EXPECT_EQ(aclmdlCreateAIPP(0), nullptr);
  aclmdlAIPP *set = aclmdlCreateAIPP(2);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(aclmdlDestroyAIPP(set), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyAIPP(set), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyAIPP(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclModelLifecycle, AConfigChecksItsAttributesAsGeDoes) {
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  ASSERT_NE(config, nullptr);
  size_t type = ACL_MDL_LOAD_FROM_MEM;
  EXPECT_EQ(
      aclmdlSetConfigOpt(nullptr, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, nullptr, sizeof type),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, 4),
            ACL_ERROR_INVALID_PARAM)
      << "the value's size is checked";
  EXPECT_EQ(setOpt(config, ACL_MDL_LOAD_TYPE_SIZET, size_t{7}),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(setOpt(config, ACL_MDL_PATH_PTR, static_cast<void *>(nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(setOpt(config, ACL_MDL_MODEL_DESC_PTR, static_cast<void *>(config)),
            ACL_ERROR_INVALID_PARAM)
      << "not an attribute of a load configuration";
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "no load type set";
  EXPECT_EQ(setOpt(config, ACL_MDL_LOAD_TYPE_SIZET, type), ACL_SUCCESS);
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "a load from memory needs the model's address and size";
  EXPECT_EQ(aclmdlLoadWithConfig(config, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadWithConfig(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "a destroyed configuration";
}

TEST_F(AclModelLifecycle, LoadWithConfigHoldsWhatAPlainLoadHolds) {
  size_t held = modelBytes();
  ASSERT_GT(held, 0u);
  TempFile file(kModel);
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  ASSERT_EQ(
      setOpt(config, ACL_MDL_LOAD_TYPE_SIZET, size_t{ACL_MDL_LOAD_FROM_FILE}),
      ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_PATH_PTR, file.path.c_str()), ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  uint32_t fromFile = 0, fromMem = 0;
  ASSERT_EQ(aclmdlLoadWithConfig(config, &fromFile), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - before, held);

  aclmdlConfigHandle *memory = aclmdlCreateConfigHandle();
  ASSERT_EQ(
      setOpt(memory, ACL_MDL_LOAD_TYPE_SIZET, size_t{ACL_MDL_LOAD_FROM_MEM}),
      ACL_SUCCESS);
  ASSERT_EQ(setOpt(memory, ACL_MDL_MEM_ADDR_PTR, kModel.data()), ACL_SUCCESS);
  ASSERT_EQ(setOpt(memory, ACL_MDL_MEM_SIZET, kModel.size()), ACL_SUCCESS);
  ASSERT_EQ(aclmdlLoadWithConfig(memory, &fromMem), ACL_SUCCESS);
  EXPECT_NE(fromMem, fromFile);
  EXPECT_EQ(deviceBytesInUse() - before, 2 * held);

  // The configuration is not the model: destroying it unloads nothing.
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyConfigHandle(memory), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - before, 2 * held);
  EXPECT_EQ(aclmdlUnload(fromFile), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(fromMem), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclmdlUnload(fromMem), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(AclModelLifecycle, LoadWithConfigInTheCallersMemoryTakesNone) {
  size_t work = 0, weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(kModel.data(), kModel.size(), &work, &weight),
      ACL_SUCCESS);
  void *workPtr = nullptr, *weightPtr = nullptr;
  ASSERT_EQ(aclrtMalloc(&workPtr, work, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&weightPtr, weight, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  ASSERT_EQ(setOpt(config, ACL_MDL_LOAD_TYPE_SIZET,
                   size_t{ACL_MDL_LOAD_FROM_MEM_WITH_MEM}),
            ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_MEM_ADDR_PTR, kModel.data()), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_MEM_SIZET, kModel.size()), ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "no work or weight memory set";
  ASSERT_EQ(setOpt(config, ACL_MDL_WORKSPACE_ADDR_PTR, workPtr), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_WORKSPACE_SIZET, work), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_WEIGHT_ADDR_PTR, weightPtr), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_WEIGHT_SIZET, weight - 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "less weight memory than the query reports";
  ASSERT_EQ(setOpt(config, ACL_MDL_WEIGHT_SIZET, weight), ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  ASSERT_EQ(aclmdlLoadWithConfig(config, &id), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(workPtr), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(weightPtr), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, QueueFedLoadsAreNotSimulated) {
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  uint32_t queues[1] = {0};
  ASSERT_EQ(setOpt(config, ACL_MDL_LOAD_TYPE_SIZET,
                   size_t{ACL_MDL_LOAD_FROM_MEM_WITH_Q}),
            ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_MEM_ADDR_PTR, kModel.data()), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_MEM_SIZET, kModel.size()), ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_INVALID_PARAM)
      << "the queues are not set";
  ASSERT_EQ(setOpt(config, ACL_MDL_INPUTQ_ADDR_PTR, &queues[0]), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_INPUTQ_NUM_SIZET, size_t{1}), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_OUTPUTQ_ADDR_PTR, &queues[0]), ACL_SUCCESS);
  ASSERT_EQ(setOpt(config, ACL_MDL_OUTPUTQ_NUM_SIZET, size_t{1}), ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  EXPECT_EQ(aclmdlLoadWithConfig(config, &id), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, ExecConfigsTakeTheTwoTimeouts) {
  aclmdlExecConfigHandle *config = aclmdlCreateExecConfigHandle();
  ASSERT_NE(config, nullptr);
  int32_t timeout = 100;
  EXPECT_EQ(aclmdlSetExecConfigOpt(config, ACL_MDL_STREAM_SYNC_TIMEOUT,
                                   &timeout, sizeof timeout),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetExecConfigOpt(config, ACL_MDL_EVENT_SYNC_TIMEOUT, &timeout,
                                   sizeof timeout),
            ACL_SUCCESS);
  EXPECT_EQ(
      aclmdlSetExecConfigOpt(config, ACL_MDL_EVENT_SYNC_TIMEOUT, &timeout, 8),
      ACL_ERROR_INVALID_PARAM);
  timeout = -2;
  EXPECT_EQ(aclmdlSetExecConfigOpt(config, ACL_MDL_STREAM_SYNC_TIMEOUT,
                                   &timeout, sizeof timeout),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetExecConfigOpt(config, ACL_MDL_WORK_SIZET, &timeout,
                                   sizeof timeout),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetExecConfigOpt(nullptr, ACL_MDL_STREAM_SYNC_TIMEOUT,
                                   &timeout, sizeof timeout),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyExecConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyExecConfigHandle(config), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyExecConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclModelLifecycle, ABundleLoadsItsModelsAndUnloadsThemTogether) {
  size_t held = modelBytes();
  size_t before = deviceBytesInUse();
  uint32_t bundle = 0;
  ASSERT_EQ(aclmdlBundleLoadFromMem(kBundle.data(), kBundle.size(), &bundle),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - before, 2 * held);
  size_t count = 0;
  ASSERT_EQ(aclmdlBundleGetModelNum(bundle, &count), ACL_SUCCESS);
  ASSERT_EQ(count, 2u);
  uint32_t first = 0, second = 0;
  ASSERT_EQ(aclmdlBundleGetModelId(bundle, 0, &first), ACL_SUCCESS);
  ASSERT_EQ(aclmdlBundleGetModelId(bundle, 1, &second), ACL_SUCCESS);
  EXPECT_NE(first, second);
  EXPECT_EQ(aclmdlBundleGetModelId(bundle, 2, &first), ACL_ERROR_INVALID_PARAM);
  aclmdlDesc *desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDesc(desc, second), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 1u);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(first), ACL_ERROR_INVALID_PARAM)
      << "a bundle's model is unloaded with its bundle";
  EXPECT_EQ(aclmdlBundleUnload(first), ACL_ERROR_INVALID_BUNDLE_MODEL_ID);
  EXPECT_EQ(aclmdlBundleUnload(bundle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclmdlBundleUnload(bundle), ACL_ERROR_INVALID_BUNDLE_MODEL_ID);
  EXPECT_EQ(aclmdlBundleGetModelNum(bundle, &count),
            ACL_ERROR_INVALID_BUNDLE_MODEL_ID);
  EXPECT_EQ(aclmdlUnload(first), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(AclModelLifecycle, BundleLoadsCheckTheirArguments) {
  uint32_t bundle = 0;
  EXPECT_EQ(aclmdlBundleLoadFromMem(nullptr, 4, &bundle),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlBundleLoadFromMem(kBundle.data(), 0, &bundle),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlBundleLoadFromMem(kBundle.data(), kBundle.size(), nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlBundleLoadFromFile(nullptr, &bundle),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlBundleLoadFromFile("/nonexistent/bundle", &bundle),
            ACL_ERROR_READ_MODEL_FAILURE);
  size_t before = deviceBytesInUse();
  EXPECT_EQ(aclmdlBundleLoadFromMem(kModel.data(), kModel.size(), &bundle),
            ACL_ERROR_PARSE_MODEL)
      << "a model is not a bundle";
  const std::string broken = "mssim-bundle 1\n" + kModel + "mssim-model 2\n";
  EXPECT_EQ(aclmdlBundleLoadFromMem(broken.data(), broken.size(), &bundle),
            ACL_ERROR_PARSE_MODEL);
  EXPECT_EQ(deviceBytesInUse(), before)
      << "the models loaded before the failure are unloaded";
  TempFile file(kBundle);
  ASSERT_EQ(aclmdlBundleLoadFromFile(file.path.c_str(), &bundle), ACL_SUCCESS);
  EXPECT_GT(deviceBytesInUse(), before);
  EXPECT_EQ(aclmdlBundleUnload(bundle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
}

TEST_F(AclModelLifecycle, FinalizeUnloadsBundlesAndKeepsHostObjects) {
  uint32_t bundle = 0;
  ASSERT_EQ(aclmdlBundleLoadFromMem(kBundle.data(), kBundle.size(), &bundle),
            ACL_SUCCESS);
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  aclmdlAIPP *aipp = aclmdlCreateAIPP(1);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlBundleUnload(bundle), ACL_ERROR_INVALID_BUNDLE_MODEL_ID)
      << "aclFinalize unloaded the bundle's models";
  // Host objects outlive aclFinalize: only their destroy releases them.
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyAIPP(aipp), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, OperatorHandlesRunTheirOperator) {
  int64_t dims[] = {4};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  const aclTensorDesc *inputs[] = {desc, desc};
  const aclTensorDesc *outputs[] = {desc};
  aclopHandle *handle = nullptr;
  EXPECT_EQ(aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopCreateHandle(nullptr, 2, inputs, 1, outputs, nullptr, &handle),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopCreateHandle("Add", -1, inputs, 1, outputs, nullptr, &handle),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclopCreateHandle("Conv2D", 2, inputs, 1, outputs, nullptr, &handle),
      ACL_ERROR_OP_NOT_FOUND);
  ASSERT_EQ(aclopCreateHandle("Mul", 2, inputs, 1, outputs, nullptr, &handle),
            ACL_SUCCESS);
  // The handle keeps its own copies of the descriptions.
  aclDestroyTensorDesc(desc);

  float a[4] = {1, 2, 3, 4}, b[4] = {2, 2, 2, 2}, c[4] = {};
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  for (void **p : {&da, &db, &dc})
    ASSERT_EQ(aclrtMalloc(p, sizeof a, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(da, sizeof a, a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(db, sizeof b, b, sizeof b, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  aclDataBuffer *ba = aclCreateDataBuffer(da, sizeof a);
  aclDataBuffer *bb = aclCreateDataBuffer(db, sizeof b);
  aclDataBuffer *bc = aclCreateDataBuffer(dc, sizeof c);
  const aclDataBuffer *in[] = {ba, bb};
  aclDataBuffer *out[] = {bc};
  EXPECT_EQ(aclopExecWithHandle(handle, 1, in, 1, out, nullptr),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, out, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(c, sizeof c, dc, sizeof c, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(c[0], 2.0f);
  EXPECT_EQ(c[3], 8.0f);

  aclopDestroyHandle(handle);
  EXPECT_EQ(aclopExecWithHandle(handle, 2, in, 1, out, nullptr),
            ACL_ERROR_INVALID_PARAM);
  aclopDestroyHandle(handle); // reported, not touched
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclopDestroyHandle"),
            std::string::npos);
  aclopDestroyHandle(nullptr); // nothing, as the real delete of null
  for (aclDataBuffer *buffer : {ba, bb, bc})
    aclDestroyDataBuffer(buffer);
  for (void *p : {da, db, dc})
    aclrtFree(p);
}

TEST_F(AclModelLifecycle, GraphDumpOptionsAreDestroyedOnce) {
  aclGraphDumpOption *option = aclCreateGraphDumpOpt();
  ASSERT_NE(option, nullptr);
  EXPECT_EQ(aclDestroyGraphDumpOpt(option), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyGraphDumpOpt(option), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclDestroyGraphDumpOpt(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclModelLifecycle, ACaptureRecordsTheStreamsWorkForReplay) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, 64, 0, 64), ACL_SUCCESS);

  EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureBegin(stream, static_cast<aclmdlRICaptureMode>(3)),
            ACL_ERROR_RT_PARAM_INVALID);
  aclmdlRI ri = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI during = nullptr;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream, &status, &during), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(during, nullptr);
  EXPECT_EQ(aclmdlRIDestroy(during), ACL_ERROR_RT_INVALID_HANDLE)
      << "its capture has not ended";

  ASSERT_EQ(aclrtMemsetAsync(device, 64, 7, 64, stream), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(during, stream), ACL_ERROR_RT_INVALID_HANDLE)
      << "its capture has not ended";

  EXPECT_EQ(aclmdlRICaptureEnd(stream, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclmdlRICaptureEnd(stream, &ri), ACL_SUCCESS);
  EXPECT_EQ(ri, during);
  // Had the set been queued, this synchronize would have waited for it.
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  unsigned char bytes[64] = {};
  ASSERT_EQ(aclrtMemcpy(bytes, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(bytes[0], 0) << "captured, not run";
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

  // Replayed, twice: the recorded set runs each time.
  ASSERT_EQ(aclmdlRIExecuteAsync(ri, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(bytes, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(bytes[0], 7);
  EXPECT_EQ(bytes[63], 7);
  ASSERT_EQ(aclrtMemset(device, 64, 0, 64), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(ri, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(bytes, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(bytes[10], 7);

  // Not onto a stream that is capturing.
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(ri, other), ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRI empty = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(other, &empty), ACL_SUCCESS);
  EXPECT_NE(empty, ri);
  EXPECT_EQ(aclmdlRIDestroy(empty), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);

  EXPECT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclmdlRIExecuteAsync(ri, stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclmdlRIDestroy(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecuteAsync(nullptr, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, CaptureModesAreExchangedPerThread) {
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(nullptr),
            ACL_ERROR_INVALID_PARAM);
  mode = static_cast<aclmdlRICaptureMode>(9);
  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclModelLifecycle, TheDumpSessionIsInitialisedOnce) {
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, TheLastResetOfItsDeviceDestroysAnInstance) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 5, 64, stream), ACL_SUCCESS);
  aclmdlRI ri = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream, &ri), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before) << "an instance holds no device memory";
  // Another reference keeps the device, and the instance, alive.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(ri, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  unsigned char bytes[64] = {};
  ASSERT_EQ(aclrtMemcpy(bytes, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(bytes[63], 5);
  // The last reset tears the device's instances down with its streams.
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(ri, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclModelLifecycle, FinalizeDestroysInstancesEvenMidCapture) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_SUCCESS);
  aclmdlRI ri = nullptr;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream, nullptr, &ri), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_INVALID_HANDLE);
  // A new stream, perhaps at the old one's address, does not capture.
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream, &status, nullptr), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}
