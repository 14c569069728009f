//===- AclObjectsTest.cpp - buffers, tensors, datasets, models, ops, DVPP -===//
#include "AclTestSupport.h"
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using AclObjects = AclTest;

std::string writeModel(size_t bytes) {
  std::string path = "/tmp/mssim-model-" + std::to_string(getpid()) + ".om";
  FILE *file = fopen(path.c_str(), "wb");
  std::vector<char> content(bytes, 'm');
  fwrite(content.data(), 1, content.size(), file);
  fclose(file);
  return path;
}

} // namespace

TEST_F(AclObjects, DataBuffersAndDatasets) {
  char storage[16];
  aclDataBuffer *buffer = aclCreateDataBuffer(storage, sizeof(storage));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(storage));
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 10), nullptr);
  aclmdlDataset *dataset = aclmdlCreateDataset();
  ASSERT_EQ(aclmdlAddDatasetBuffer(dataset, buffer), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset), 1u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset, 0), buffer);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset, 1), nullptr);
  EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage)
      << "buffers outlive their dataset";
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr)
      << "destroyed handles read as null";
}

TEST_F(AclObjects, TensorDescriptions) {
  int64_t dims[] = {2, 3, 4};
  aclTensorDesc *desc =
      aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_NCHW);
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclGetTensorDescType(desc), ACL_FLOAT16);
  EXPECT_EQ(aclGetTensorDescFormat(desc), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclGetTensorDescNumDims(desc), 3u);
  EXPECT_EQ(aclGetTensorDescElementCount(desc), 24u);
  EXPECT_EQ(aclGetTensorDescSize(desc), 48u);
  int64_t dim = 0;
  EXPECT_EQ(aclGetTensorDescDimV2(desc, 2, &dim), ACL_SUCCESS);
  EXPECT_EQ(dim, 4);
  EXPECT_EQ(aclGetTensorDescDimV2(desc, 3, &dim), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
  aclDestroyTensorDesc(desc);
  EXPECT_EQ(aclGetTensorDescType(desc), ACL_DT_UNDEFINED);
}

// Once generated stand-ins that returned 0 (a dimension of 0 for a 7, a
// name never kept): every getter and setter of a tensor description reads
// and writes the description, as the real library's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(AclObjects, TensorDescriptionGettersAndSettersKeepWhatWasSet) {
  int64_t dims[] = {1, 7, 5};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 3, dims, ACL_FORMAT_ND);
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclGetTensorDescDim(desc, 1), 7);
  EXPECT_EQ(aclGetTensorDescDim(desc, 3), -1) << "-1 is its failure";

  EXPECT_STREQ(aclGetTensorDescName(desc), "");
  aclSetTensorDescName(desc, "input_0");
  EXPECT_STREQ(aclGetTensorDescName(desc), "input_0");
  aclSetTensorDescName(desc, nullptr);
  EXPECT_STREQ(aclGetTensorDescName(desc), "");

  // The origin format and shape are what the getters read; aclSetTensorFormat
  // and aclSetTensorShape set the storage ones, as in the real library.
  EXPECT_EQ(aclSetTensorFormat(desc, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescFormat(desc), ACL_FORMAT_ND);
  EXPECT_EQ(aclSetTensorOriginFormat(desc, ACL_FORMAT_NCHW), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescFormat(desc), ACL_FORMAT_NCHW);
  int64_t storage[] = {1, 1, 7, 5, 16};
  EXPECT_EQ(aclSetTensorShape(desc, 5, storage), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescNumDims(desc), 3u);
  int64_t origin[] = {2, 7};
  EXPECT_EQ(aclSetTensorOriginShape(desc, 2, origin), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescNumDims(desc), 2u);
  EXPECT_EQ(aclGetTensorDescElementCount(desc), 14u);
  EXPECT_EQ(aclSetTensorShape(desc, 2, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetTensorStorageFormat(desc, ACL_FORMAT_ND), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorStorageShape(desc, 2, origin), ACL_SUCCESS);

  int64_t ranges[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 4}, {7, 7}};
  EXPECT_EQ(aclSetTensorShapeRange(desc, 2, ranges), ACL_SUCCESS);
  int64_t range[2] = {0, 0};
  EXPECT_EQ(aclGetTensorDescDimRange(desc, 0, 2, range), ACL_SUCCESS);
  EXPECT_EQ(range[0], 1);
  EXPECT_EQ(range[1], 4);
  EXPECT_EQ(aclGetTensorDescDimRange(desc, 2, 2, range),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetTensorDescDimRange(desc, 0, 1, range),
            ACL_ERROR_INVALID_PARAM);
  int64_t values[1][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 255}};
  EXPECT_EQ(aclSetTensorValueRange(desc, 1, values), ACL_SUCCESS);

  float constant[2] = {1.0f, 2.0f};
  EXPECT_EQ(aclSetTensorConst(desc, constant, sizeof(constant)), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorConst(desc, constant, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetTensorPlaceMent(desc, ACL_MEMTYPE_HOST), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorDynamicInput(desc, "x"), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorDynamicInput(desc, nullptr), ACL_ERROR_INVALID_PARAM);

  // An application's own description has no device address, and is an
  // array of one.
  EXPECT_EQ(aclGetTensorDescAddress(desc), nullptr);
  EXPECT_EQ(aclGetTensorDescByIndex(desc, 0), desc);
  EXPECT_EQ(aclGetTensorDescByIndex(desc, 1), nullptr);

  int64_t unknownRank[] = {-2};
  aclTensorDesc *unknown =
      aclCreateTensorDesc(ACL_FLOAT, 1, unknownRank, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescNumDims(unknown), ACL_UNKNOWN_RANK);
  aclDestroyTensorDesc(unknown);

  aclDestroyTensorDesc(desc);
  EXPECT_EQ(aclGetTensorDescDim(desc, 0), -1);
  EXPECT_STREQ(aclGetTensorDescName(desc), "");
  EXPECT_EQ(aclSetTensorFormat(desc, ACL_FORMAT_ND), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetTensorPlaceMent(desc, ACL_MEMTYPE_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetTensorDescByIndex(desc, 0), nullptr);
}
#pragma GCC diagnostic pop

TEST_F(AclObjects, ModelsHoldDeviceMemoryUntilUnloaded) {
  std::string path = writeModel(10000);
  size_t before = deviceBytesInUse();
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(path.c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_EQ(weight, 10000u);
  uint32_t id = 0, other = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS);
  EXPECT_GT(deviceBytesInUse(), before + weight);
  aclmdlDesc *desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
  std::vector<char> bytes(100, 'x');
  ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &other), ACL_SUCCESS);
  EXPECT_NE(id, other);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlUnload(other), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);

  void *workPtr = nullptr, *weightPtr = nullptr;
  ASSERT_EQ(aclrtMalloc(&workPtr, work, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&weightPtr, weight, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  size_t withUserMemory = deviceBytesInUse();
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, workPtr, work,
                                      weightPtr, weight - 1),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, workPtr, work,
                                      weightPtr, weight),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), withUserMemory)
      << "the model uses the caller's memory";
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  aclrtFree(workPtr);
  aclrtFree(weightPtr);
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent.om", &id),
            ACL_ERROR_READ_MODEL_FAILURE);
  unlink(path.c_str());
}

TEST_F(AclObjects, FinalizeUnloadsModels) {
  std::string path = writeModel(4096);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  unlink(path.c_str());
}

TEST_F(AclObjects, AddOperatorOnTheStream) {
  const size_t n = 1000;
  std::vector<int32_t> a(n), b(n), out(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i);
    b[i] = static_cast<int32_t>(2 * i);
  }
  void *device[3];
  for (void *&p : device)
    ASSERT_EQ(aclrtMalloc(&p, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(device[0], n * 4, a.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(device[1], n * 4, b.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  int64_t dims[] = {static_cast<int64_t>(n)};
  aclTensorDesc *desc[3];
  aclDataBuffer *buffer[3];
  for (int i = 0; i < 3; ++i) {
    desc[i] = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
    buffer[i] = aclCreateDataBuffer(device[i], n * 4);
  }
  aclopAttr *attr = aclopCreateAttr();
  EXPECT_EQ(aclopSetAttrInt(attr, "unused", 1), ACL_SUCCESS);
  ASSERT_EQ(aclopExecuteV2("Add", 2, desc, buffer, 1, desc + 2, buffer + 2,
                           attr, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  aclrtMemcpy(out.data(), n * 4, device[2], n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], static_cast<int32_t>(3 * i));
  EXPECT_EQ(aclopExecuteV2("Add", 1, desc, buffer, 1, desc + 2, buffer + 2,
                           attr, nullptr),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
  aclDataBuffer *hostBuffer = aclCreateDataBuffer(a.data(), n * 4);
  aclDataBuffer *mixed[] = {hostBuffer, buffer[1], buffer[2]};
  EXPECT_EQ(aclopExecuteV2("Add", 2, desc, mixed, 1, desc + 2, mixed + 2, attr,
                           nullptr),
            ACL_ERROR_INVALID_PARAM)
      << "operands must be in device memory";
  aclDestroyDataBuffer(hostBuffer);
  aclopDestroyAttr(attr);
  for (int i = 0; i < 3; ++i) {
    aclDestroyTensorDesc(desc[i]);
    aclDestroyDataBuffer(buffer[i]);
    aclrtFree(device[i]);
  }
}

TEST_F(AclObjects, DvppDescriptorsAndChannels) {
  acldvppPicDesc *pic = acldvppCreatePicDesc();
  void *data = nullptr;
  ASSERT_EQ(acldvppMalloc(&data, 4096), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescData(pic, data), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetPicDescSize(pic, 4096), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescData(pic), data);
  EXPECT_EQ(acldvppGetPicDescSize(pic), 4096u);
  EXPECT_EQ(acldvppDestroyPicDesc(pic), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyPicDesc(pic), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppFree(data), ACL_SUCCESS);

  EXPECT_EQ(acldvppCreateRoiConfig(10, 5, 0, 1), nullptr);
  acldvppRoiConfig *roi = acldvppCreateRoiConfig(0, 15, 0, 15);
  ASSERT_NE(roi, nullptr);
  EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_ERROR_INVALID_PARAM);
  acldvppResizeConfig *resize = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppDestroyResizeConfig(resize), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyResizeConfig(resize), ACL_ERROR_INVALID_PARAM);

  size_t before = deviceBytesInUse();
  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse() - before, 1u << 20)
      << "a channel holds DVPP memory";
  EXPECT_EQ(acldvppDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(acldvppDestroyChannelDesc(channel), ACL_SUCCESS);
}
