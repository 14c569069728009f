//===- AclTdtTest.cpp - libacl_tdt_channel.so: datasets and channels ------===//
#include "AclTestSupport.h"
#include "acl/acl_tdt.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using AclTdt = AclTest;

std::vector<int64_t> dimsOf(const acltdtDataItem *item) {
  std::vector<int64_t> dims(acltdtGetDimNumFromItem(item));
  EXPECT_EQ(acltdtGetDimsFromItem(item, dims.empty() ? nullptr : dims.data(),
                                  dims.size()),
            ACL_SUCCESS);
  return dims;
}

std::vector<float> floatsOf(const acltdtDataItem *item) {
  std::vector<float> values(acltdtGetDataSizeFromItem(item) / sizeof(float));
  memcpy(values.data(), acltdtGetDataAddrFromItem(item),
         values.size() * sizeof(float));
  return values;
}

} // namespace

TEST_F(AclTdt, DataItemDescribesBytesItDoesNotOwn) {
  float values[6] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3};
  acltdtDataItem *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2,
                                              ACL_FLOAT, values, sizeof values);
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_FLOAT);
  EXPECT_EQ(acltdtGetDataAddrFromItem(item), values);
  EXPECT_EQ(acltdtGetDataSizeFromItem(item), sizeof values);
  EXPECT_EQ(dimsOf(item), (std::vector<int64_t>{2, 3}));
  int64_t small[1];
  EXPECT_EQ(acltdtGetDimsFromItem(item, small, 1), ACL_ERROR_INVALID_PARAM);
  size_t sliceNum = 9, sliceId = 9;
  EXPECT_EQ(acltdtGetSliceInfoFromItem(item, &sliceNum, &sliceId), ACL_SUCCESS);
  EXPECT_EQ(sliceNum, 0u);
  EXPECT_EQ(sliceId, 0u);
  EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
  EXPECT_EQ(values[5], 6); // not the item's to free
  // Destroyed: an error, and the readers' failure values.
  EXPECT_EQ(acltdtDestroyDataItem(item), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_UNDEFINED);
  EXPECT_EQ(acltdtGetDataAddrFromItem(item), nullptr);
  EXPECT_EQ(acltdtGetDataSizeFromItem(item), 0u);
  EXPECT_EQ(acltdtDestroyDataItem(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTdt, DataItemChecksItsShape) {
  const int64_t dims[1] = {4};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 1, ACL_FLOAT,
                                 nullptr, 0),
            nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT,
                                 nullptr, 0),
            nullptr);
  std::vector<int64_t> many(129, 1);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many.data(), 129,
                                 ACL_FLOAT, nullptr, 0),
            nullptr);
  // Not a tensor: no dims; what it is given of data is not kept.
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1,
                                 ACL_FLOAT, nullptr, 0),
            nullptr);
  int data = 0;
  acltdtDataItem *end = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE,
                                             nullptr, 0, ACL_FLOAT, &data, 4);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(acltdtGetDataTypeFromItem(end), ACL_DT_UNDEFINED);
  EXPECT_EQ(acltdtGetDataSizeFromItem(end), 0u);
  EXPECT_EQ(acltdtDestroyDataItem(end), ACL_SUCCESS);
}

TEST_F(AclTdt, DatasetDoesNotOwnTheApplicationsItems) {
  float a = 1, b = 2;
  const int64_t dims[1] = {1};
  acltdtDataItem *first =
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &a, 4);
  acltdtDataItem *second =
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &b, 4);
  acltdtDataset *dataset = acltdtCreateDataset();
  ASSERT_NE(dataset, nullptr);
  EXPECT_EQ(acltdtAddDataItem(dataset, first), ACL_SUCCESS);
  EXPECT_EQ(acltdtAddDataItem(dataset, second), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 2u);
  EXPECT_EQ(acltdtGetDataItem(dataset, 1), second);
  EXPECT_EQ(acltdtGetDataItem(dataset, 2), nullptr);
  EXPECT_STREQ(acltdtGetDatasetName(dataset), "");
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
  // The items outlive it and are the application's to destroy.
  EXPECT_EQ(acltdtGetDataAddrFromItem(first), &a);
  EXPECT_EQ(acltdtDestroyDataItem(first), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(second), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 0u);
  EXPECT_EQ(acltdtGetDatasetName(dataset), nullptr);
}

TEST_F(AclTdt, DatasetIsAllHostOrAllDeviceMemory) {
  float host = 1;
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t dims[1] = {1};
  acltdtDataItem *onHost = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1,
                                                ACL_FLOAT, &host, 4);
  acltdtDataItem *onDevice = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims,
                                                  1, ACL_FLOAT, device, 4);
  acltdtDataset *dataset = acltdtCreateDataset();
  EXPECT_EQ(acltdtAddDataItem(dataset, onHost), ACL_SUCCESS);
  EXPECT_EQ(acltdtAddDataItem(dataset, onDevice), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 1u);
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(onHost), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(onDevice), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclTdt, ChannelIsMadeOnASetDevice) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 4), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(1, "not-set", 4), nullptr);
  EXPECT_EQ(acltdtCreateChannel(1, "not-set"), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "too-shallow", 1), nullptr);
  EXPECT_EQ(
      acltdtCreateChannelWithCapacity(0, std::string(128, 'n').c_str(), 4),
      nullptr);
  // The queue is the driver's, not device memory aclrtMalloc would take.
  size_t before = deviceBytesInUse();
  acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(0, "c", 4);
  ASSERT_NE(channel, nullptr);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(acltdtStopChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtStopChannel(channel), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTdt, ChannelCarriesDatasetsInOrder) {
  acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(0, "pipe", 2);
  ASSERT_NE(channel, nullptr);
  float first[6] = {1, 2, 3, 4, 5, 6};
  float second[2] = {-1, 0.5f};
  const int64_t dims23[2] = {2, 3};
  const int64_t dims2[1] = {2};
  acltdtDataItem *a = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims23, 2,
                                           ACL_FLOAT, first, sizeof first);
  acltdtDataItem *b = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims2, 1,
                                           ACL_FLOAT, second, sizeof second);
  acltdtDataItem *end =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                           ACL_DT_UNDEFINED, nullptr, 0);
  acltdtDataset *one = acltdtCreateDataset();
  acltdtDataset *two = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(one, a), ACL_SUCCESS);
  ASSERT_EQ(acltdtAddDataItem(two, b), ACL_SUCCESS);
  ASSERT_EQ(acltdtAddDataItem(two, end), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, one, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, two, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, one, 0), ACL_ERROR_RT_QUEUE_FULL);
  size_t size = 0;
  EXPECT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 2u);
  // What was sent is copied: changing the source now does not change it.
  first[0] = 100;

  acltdtDataset *received = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(channel, received, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetDatasetSize(received), 1u);
  acltdtDataItem *got = acltdtGetDataItem(received, 0);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(got), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(got), ACL_FLOAT);
  EXPECT_EQ(dimsOf(got), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(floatsOf(got), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // The dataset owns what it received: the item is not the application's
  // to destroy, and nothing can be added to it.
  EXPECT_EQ(acltdtDestroyDataItem(got), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAddDataItem(received, a), ACL_ERROR_FEATURE_UNSUPPORTED);

  // Receiving again replaces the items.
  ASSERT_EQ(acltdtReceiveTensor(channel, received, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetDatasetSize(received), 2u);
  EXPECT_EQ(floatsOf(acltdtGetDataItem(received, 0)),
            (std::vector<float>{-1, 0.5f}));
  EXPECT_EQ(acltdtGetTensorTypeFromItem(acltdtGetDataItem(received, 1)),
            ACL_TENSOR_DATA_END_OF_SEQUENCE);
  EXPECT_EQ(acltdtReceiveTensor(channel, received, 0),
            ACL_ERROR_RT_QUEUE_EMPTY);
  acltdtDataItem *owned = acltdtGetDataItem(received, 0);
  EXPECT_EQ(acltdtDestroyDataset(received), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDataSizeFromItem(owned), 0u); // destroyed with it

  // A dataset holding the application's items cannot receive, and the
  // message taken for it is lost, as in the real library.
  EXPECT_EQ(acltdtSendTensor(channel, one, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtReceiveTensor(channel, two, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);

  // A dataset with a destroyed item is not sent.
  EXPECT_EQ(acltdtDestroyDataItem(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, one, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataset(one), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(two), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(b), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(end), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(AclTdt, ChannelSendsDeviceMemory) {
  std::vector<int32_t> values = {7, -8, 9, 10};
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(
      aclrtMemcpy(device, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  const int64_t dims[1] = {4};
  acltdtDataItem *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1,
                                              ACL_INT32, device, 16);
  acltdtDataset *dataset = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(dataset, item), ACL_SUCCESS);
  acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(0, "dev", 2);
  ASSERT_EQ(acltdtSendTensor(channel, dataset, -1), ACL_SUCCESS);
  acltdtDataset *received = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(channel, received, -1), ACL_SUCCESS);
  acltdtDataItem *got = acltdtGetDataItem(received, 0);
  ASSERT_EQ(acltdtGetDataSizeFromItem(got), 16u);
  std::vector<int32_t> back(4);
  memcpy(back.data(), acltdtGetDataAddrFromItem(got), 16);
  EXPECT_EQ(back, values);
  EXPECT_EQ(acltdtGetDataTypeFromItem(got), ACL_INT32);
  EXPECT_EQ(acltdtDestroyDataset(received), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(AclTdt, CleanChannelDropsWhatItHolds) {
  acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(0, "c", 3);
  acltdtDataset *empty = acltdtCreateDataset();
  EXPECT_EQ(acltdtSendTensor(channel, empty, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, empty, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtCleanChannel(channel), ACL_SUCCESS);
  size_t size = 9;
  EXPECT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(acltdtQueryChannelSize(channel, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataset(empty), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtCleanChannel(channel), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTdt, ChannelQueueGoesWithItsDevice) {
  acltdtChannelHandle *channel = acltdtCreateChannelWithCapacity(0, "c", 2);
  ASSERT_NE(channel, nullptr);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  acltdtDataset *dataset = acltdtCreateDataset();
  EXPECT_EQ(acltdtSendTensor(channel, dataset, 0), ACL_ERROR_RT_PARAM_INVALID);
  // The real library keeps a handle whose queue it cannot destroy.
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(acltdtStopChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
}

TEST_F(AclTdt, TdtProcessChannelIsAHandleOnly) {
  acltdtChannelHandle *channel = acltdtCreateChannel(0, "TF_RECEIVE_x");
  ASSERT_NE(channel, nullptr);
  acltdtDataset *dataset = acltdtCreateDataset();
  EXPECT_EQ(acltdtSendTensor(channel, dataset, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtReceiveTensor(channel, dataset, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtReceiveTensor(channel, dataset, -1),
            ACL_ERROR_API_NOT_SUPPORT);
  size_t size = 0;
  EXPECT_EQ(acltdtQueryChannelSize(channel, &size),
            ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtCleanChannel(channel), ACL_ERROR_FEATURE_UNSUPPORTED);
  acltdtChannelHandle *sender = acltdtCreateChannel(0, "out");
  EXPECT_EQ(acltdtReceiveTensor(sender, dataset, -1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtStopChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(sender), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(sender), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataset(dataset), ACL_SUCCESS);
}
