//===- acl_tdt_api.cpp - libacl_tdt_channel.so: datasets and channels -----===//
//
// Contract: acl/acl_tdt.h as the real library behaves on a host, for what a
// leak checker and the application can tell (utils/simdevice/README.md, "TDT
// channels, queues and feature vector search"):
//
// - Data items and datasets are host objects. An item describes bytes it
//   does not own; a dataset lists items it does not own: destroying a
//   dataset leaves the application's items alone. A dataset filled by
//   acltdtReceiveTensor owns the items it was given and the host buffer
//   their bytes are in, and destroying it destroys them; nothing can be
//   added to it, and destroying one of its items yourself is refused.
// - acltdtCreateChannelWithCapacity makes a channel on a device that is set:
//   a memory queue of `capacity` datasets on that device (mem_queue.h), what
//   the real library makes with rtMemQueueCreate. acltdtSendTensor copies a
//   dataset's items (host memory, or device memory read through the driver)
//   into the queue; acltdtReceiveTensor takes the first one out into a
//   dataset. acltdtQueryChannelSize and acltdtCleanChannel act on the queue.
//   The queue goes with its device (aclrtResetDevice, aclFinalize): the
//   channel then fails, acltdtDestroyChannel included, which, as the real
//   one does when it cannot destroy the queue, keeps the handle.
// - acltdtCreateChannel makes a channel of the TDT host process on a device
//   that is set: a host object. Sending and receiving on it go to a TDT
//   server on the device, which is not simulated: they say so and return
//   ACL_ERROR_API_NOT_SUPPORT (after the real argument checks).
// - Every handle is checked against a registry of live ones: an unknown or
//   destroyed handle is ACL_ERROR_INVALID_PARAM (null, 0, ... for the
//   functions that cannot return an error), never dereferenced.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_tdt.h"
#include "mem_queue.h"
#include "runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace mssim;

struct acltdtDataItem {
  acltdtTensorType tdtType = ACL_TENSOR_DATA_UNDEFINED;
  std::vector<int64_t> dims;
  aclDataType dataType = ACL_DT_UNDEFINED;
  void *data = nullptr;
  size_t size = 0;
  size_t sliceNum = 0, sliceId = 0;
  const acltdtDataset *owner = nullptr; // a received dataset's own item
};

struct acltdtDataset {
  enum Memory { Unknown, Host, Device };
  std::string name;
  std::vector<acltdtDataItem *> items;
  Memory memory = Unknown;
  bool ownsItems = false;        // filled by acltdtReceiveTensor
  std::vector<uint8_t> received; // the bytes its items point into
};

struct acltdtChannelHandle {
  uint32_t device = 0;
  std::string name;
  bool receiving = false; // a "TF_RECEIVE_" channel of the TDT process
  bool queued = false;    // acltdtCreateChannelWithCapacity's
  uint32_t qid = 0;
};

namespace {

using Kind = HandleKind;

/// Whether `handle` is a live object of `kind` (the runtime's registry of
/// handles, which every library of the toolkit shares).
bool isLive(const void *handle, Kind kind) {
  return handle && Runtime::instance().isLive(handle, kind);
}

template <typename T> T *track(T *object, Kind kind) {
  return trackHandle(object, kind);
}

bool untrack(const void *handle, Kind kind) {
  return handle && Runtime::instance().removeHandle(handle, kind);
}

aclError unknown(const char *api, const void *handle, const char *what) {
  return fail(ACL_ERROR_INVALID_PARAM, api,
              handle ? std::string(what) + " " + hexAddress(handle) +
                           " does not exist or was already destroyed"
                     : std::string(what) + " is null");
}

/// Whether `device` is set (has an open reference) in this process.
bool deviceOpen(uint32_t device) {
  if (device >= 8)
    return false;
  Runtime &rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.Mutex);
  return rt.DeviceRefs[device] > 0;
}

/// The part of a channel that is not simulated: says so once, like a
/// generated stand-in, and returns ACL_ERROR_API_NOT_SUPPORT.
aclError notSimulated(const char *api, int *said) {
  const char *quiet = getenv("MSSIM_QUIET_UNSIMULATED");
  if (!__atomic_exchange_n(said, 1, __ATOMIC_RELAXED) &&
      !(quiet && strcmp(quiet, "1") == 0))
    fprintf(stderr,
            "mssim: %s is not simulated on a channel of acltdtCreateChannel "
            "(the TDT server on the device): it does nothing and returns "
            "ACL_ERROR_API_NOT_SUPPORT (utils/simdevice/README.md)\n",
            api);
  return fail(ACL_ERROR_API_NOT_SUPPORT, api,
              "not simulated on a channel of acltdtCreateChannel");
}

void destroyOwnedItems(acltdtDataset *dataset) {
  if (dataset->ownsItems)
    for (acltdtDataItem *item : dataset->items)
      if (untrack(item, Kind::TdtDataItem))
        delete item;
  dataset->items.clear();
}

/// A message of the channel's queue: per item its header, dims and bytes.
struct ItemHeader {
  int32_t tdtType;
  int32_t dataType;
  uint32_t dimNum;
  uint32_t sliceNum, sliceId;
  uint64_t size;
};

template <typename T> void put(std::vector<uint8_t> *out, const T &value) {
  const auto *bytes = reinterpret_cast<const uint8_t *>(&value);
  out->insert(out->end(), bytes, bytes + sizeof value);
}

/// The bytes of `dataset` as the channel carries them, or an error.
aclError serialize(const char *api, const acltdtDataset *dataset,
                   std::vector<uint8_t> *out) {
  put(out, static_cast<uint32_t>(dataset->items.size()));
  for (const acltdtDataItem *item : dataset->items) {
    if (!isLive(item, Kind::TdtDataItem))
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "the dataset holds data item " + hexAddress(item) +
                      ", which was destroyed");
    if (item->size && !item->data)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "a data item of " + std::to_string(item->size) +
                      " bytes has no data");
    ItemHeader header{item->tdtType,
                      item->dataType,
                      static_cast<uint32_t>(item->dims.size()),
                      static_cast<uint32_t>(item->sliceNum),
                      static_cast<uint32_t>(item->sliceId),
                      item->size};
    put(out, header);
    for (int64_t dim : item->dims)
      put(out, dim);
    if (!item->size)
      continue;
    if (dataset->memory == acltdtDataset::Device) {
      std::vector<uint8_t> bytes;
      if (!readDevice(item->data, item->size, &bytes))
        return fail(ACL_ERROR_INVALID_PARAM, api,
                    "cannot read " + std::to_string(item->size) +
                        " bytes of device memory at " + hexAddress(item->data));
      out->insert(out->end(), bytes.begin(), bytes.end());
    } else {
      const auto *bytes = static_cast<const uint8_t *>(item->data);
      out->insert(out->end(), bytes, bytes + item->size);
    }
  }
  return ACL_SUCCESS;
}

/// Fills `dataset` (emptied, owning) with the items of `message`.
aclError deserialize(const char *api, std::vector<uint8_t> message,
                     acltdtDataset *dataset) {
  dataset->received = std::move(message);
  const std::vector<uint8_t> &bytes = dataset->received;
  size_t at = 0;
  auto take = [&](void *to, size_t size) {
    if (at + size > bytes.size())
      return false;
    memcpy(to, bytes.data() + at, size);
    at += size;
    return true;
  };
  dataset->ownsItems = true;
  uint32_t count = 0;
  if (!take(&count, sizeof count))
    return fail(ACL_ERROR_FAILURE, api, "a malformed message");
  for (uint32_t i = 0; i < count; ++i) {
    ItemHeader header;
    if (!take(&header, sizeof header))
      return fail(ACL_ERROR_FAILURE, api, "a malformed message");
    auto *item = new acltdtDataItem;
    item->tdtType = static_cast<acltdtTensorType>(header.tdtType);
    item->dataType = static_cast<aclDataType>(header.dataType);
    item->dims.resize(header.dimNum);
    item->sliceNum = header.sliceNum;
    item->sliceId = header.sliceId;
    item->size = header.size;
    item->owner = dataset;
    bool whole = header.dimNum == 0 ||
                 take(item->dims.data(), header.dimNum * sizeof(int64_t));
    if (whole && header.size) {
      whole = at + header.size <= bytes.size();
      item->data = const_cast<uint8_t *>(bytes.data() + at);
      at += header.size;
    }
    dataset->items.push_back(track(item, Kind::TdtDataItem));
    if (!whole)
      return fail(ACL_ERROR_FAILURE, api, "a malformed message");
  }
  return ACL_SUCCESS;
}

acltdtChannelHandle *createChannel(const char *api, uint32_t deviceId,
                                   const char *name, bool queued,
                                   size_t capacity) {
  if (!name) {
    fail(ACL_ERROR_INVALID_PARAM, api, "the channel's name is null");
    return nullptr;
  }
  if (queued && strlen(name) + 1 > kQueueNameMax) {
    fail(ACL_ERROR_INVALID_PARAM, api,
         "the channel's name is longer than " +
             std::to_string(kQueueNameMax - 1) + " characters");
    return nullptr;
  }
  if (!deviceOpen(deviceId)) {
    fail(ACL_ERROR_RT_INVALID_DEVICEID, api,
         "device " + std::to_string(deviceId) +
             " is not set (aclrtSetDevice) in this process");
    return nullptr;
  }
  auto *handle = new acltdtChannelHandle;
  handle->device = deviceId;
  handle->name = name;
  handle->queued = queued;
  handle->receiving =
      !queued && strncmp(name, "TF_RECEIVE_", strlen("TF_RECEIVE_")) == 0;
  if (queued && createQueue(api, static_cast<int32_t>(deviceId), name,
                            static_cast<uint32_t>(capacity),
                            &handle->qid) != ACL_SUCCESS) {
    delete handle;
    return nullptr;
  }
  return track(handle, Kind::TdtChannel);
}

} // namespace

extern "C" {

ACL_FUNC_VISIBILITY acltdtTensorType
acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem) {
  return isLive(dataItem, Kind::TdtDataItem) ? dataItem->tdtType
                                      : ACL_TENSOR_DATA_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType
acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem) {
  return isLive(dataItem, Kind::TdtDataItem) ? dataItem->dataType : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY void *
acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem) {
  if (!isLive(dataItem, Kind::TdtDataItem)) {
    unknown("acltdtGetDataAddrFromItem", dataItem, "data item");
    return nullptr;
  }
  return dataItem->data;
}

ACL_FUNC_VISIBILITY size_t
acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem) {
  return isLive(dataItem, Kind::TdtDataItem) ? dataItem->size : 0;
}

ACL_FUNC_VISIBILITY size_t
acltdtGetDimNumFromItem(const acltdtDataItem *dataItem) {
  return isLive(dataItem, Kind::TdtDataItem) ? dataItem->dims.size() : 0;
}

ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(
    const acltdtDataItem *dataItem, size_t *sliceNum, size_t *sliceId) {
  if (!isLive(dataItem, Kind::TdtDataItem))
    return unknown("acltdtGetSliceInfoFromItem", dataItem, "data item");
  if (!sliceNum || !sliceId)
    return fail(ACL_ERROR_INVALID_PARAM, "acltdtGetSliceInfoFromItem",
                "sliceNum or sliceId is null");
  *sliceNum = dataItem->sliceNum;
  *sliceId = dataItem->sliceId;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(
    const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum) {
  if (!isLive(dataItem, Kind::TdtDataItem))
    return unknown("acltdtGetDimsFromItem", dataItem, "data item");
  if ((dims == nullptr) != (dimNum == 0))
    return fail(ACL_ERROR_INVALID_PARAM, "acltdtGetDimsFromItem",
                "dims and dimNum disagree");
  if (dimNum < dataItem->dims.size())
    return fail(ACL_ERROR_INVALID_PARAM, "acltdtGetDimsFromItem",
                "the item has " + std::to_string(dataItem->dims.size()) +
                    " dims, more than " + std::to_string(dimNum));
  for (size_t i = 0; i < dataItem->dims.size(); ++i)
    dims[i] = dataItem->dims[i];
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY acltdtDataItem *
acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                     size_t dimNum, aclDataType dataType, void *data,
                     size_t size) {
  const char *api = "acltdtCreateDataItem";
  if ((dims == nullptr) != (dimNum == 0)) {
    fail(ACL_ERROR_INVALID_PARAM, api, "dims and dimNum disagree");
    return nullptr;
  }
  constexpr size_t kMaxDims = 128;
  if (dimNum > kMaxDims) {
    fail(ACL_ERROR_INVALID_PARAM, api,
         "more than " + std::to_string(kMaxDims) + " dims");
    return nullptr;
  }
  auto *item = new acltdtDataItem;
  item->tdtType = tdtType;
  if (tdtType != ACL_TENSOR_DATA_TENSOR) {
    // Not a tensor: no dims, no type, no data (the real library keeps none).
    if (dims) {
      delete item;
      fail(ACL_ERROR_INVALID_PARAM, api, "only a tensor item has dims");
      return nullptr;
    }
    return track(item, Kind::TdtDataItem);
  }
  item->dims.assign(dims, dims + dimNum);
  item->dataType = dataType;
  item->data = data;
  item->size = size;
  return track(item, Kind::TdtDataItem);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem) {
  const char *api = "acltdtDestroyDataItem";
  if (!isLive(dataItem, Kind::TdtDataItem))
    return unknown(api, dataItem, "data item");
  if (dataItem->owner)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "data item " + hexAddress(dataItem) +
                    " belongs to the dataset acltdtReceiveTensor filled; "
                    "acltdtDestroyDataset destroys it");
  untrack(dataItem, Kind::TdtDataItem);
  delete dataItem;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset() {
  return track(new acltdtDataset, Kind::TdtDataset);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset) {
  if (!untrack(dataset, Kind::TdtDataset))
    return unknown("acltdtDestroyDataset", dataset, "dataset");
  destroyOwnedItems(dataset);
  delete dataset;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY acltdtDataItem *
acltdtGetDataItem(const acltdtDataset *dataset, size_t index) {
  if (!isLive(dataset, Kind::TdtDataset)) {
    unknown("acltdtGetDataItem", dataset, "dataset");
    return nullptr;
  }
  if (index >= dataset->items.size()) {
    fail(ACL_ERROR_INVALID_PARAM, "acltdtGetDataItem",
         "index " + std::to_string(index) + " is past the dataset's " +
             std::to_string(dataset->items.size()) + " items");
    return nullptr;
  }
  return dataset->items[index];
}

ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset,
                                               acltdtDataItem *dataItem) {
  const char *api = "acltdtAddDataItem";
  if (!isLive(dataset, Kind::TdtDataset))
    return unknown(api, dataset, "dataset");
  if (!isLive(dataItem, Kind::TdtDataItem))
    return unknown(api, dataItem, "data item");
  if (dataset->ownsItems)
    return fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                "the dataset holds the items acltdtReceiveTensor gave it");
  acltdtDataset::Memory memory = acltdtDataset::Unknown;
  if (dataItem->data)
    memory = inDeviceMemory(dataItem->data) ? acltdtDataset::Device
                                            : acltdtDataset::Host;
  if (dataset->memory == acltdtDataset::Unknown)
    dataset->memory = memory;
  if (memory != acltdtDataset::Unknown && memory != dataset->memory)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the items of a dataset are all in host memory or all in "
                "device memory");
  dataset->items.push_back(dataItem);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset) {
  if (!isLive(dataset, Kind::TdtDataset)) {
    unknown("acltdtGetDatasetSize", dataset, "dataset");
    return 0;
  }
  return dataset->items.size();
}

ACL_FUNC_VISIBILITY const char *
acltdtGetDatasetName(const acltdtDataset *dataset) {
  return isLive(dataset, Kind::TdtDataset) ? dataset->name.c_str() : nullptr;
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId,
                                                             const char *name) {
  return createChannel("acltdtCreateChannel", deviceId, name, false, 0);
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *
acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                size_t capacity) {
  return createChannel("acltdtCreateChannelWithCapacity", deviceId, name, true,
                       capacity);
}

ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle) {
  // Stopping wakes a receiver of the TDT process's channel; nothing waits on
  // one here, and a queued channel has nothing to stop.
  if (!isLive(handle, Kind::TdtChannel))
    return unknown("acltdtStopChannel", handle, "channel");
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle) {
  const char *api = "acltdtDestroyChannel";
  if (!isLive(handle, Kind::TdtChannel))
    return unknown(api, handle, "channel");
  if (handle->queued) {
    aclError status =
        destroyQueue(api, static_cast<int32_t>(handle->device), handle->qid);
    if (status != ACL_SUCCESS)
      return status; // the handle stays, as the real one's does
  }
  untrack(handle, Kind::TdtChannel);
  delete handle;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle) {
  const char *api = "acltdtCleanChannel";
  if (!isLive(handle, Kind::TdtChannel))
    return unknown(api, handle, "channel");
  if (!handle->queued)
    return fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                "only a channel of acltdtCreateChannelWithCapacity");
  return resetQueue(api, static_cast<int32_t>(handle->device), handle->qid);
}

ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle,
                                              const acltdtDataset *dataset,
                                              int32_t timeout) {
  const char *api = "acltdtSendTensor";
  if (!isLive(handle, Kind::TdtChannel))
    return unknown(api, handle, "channel");
  if (!isLive(dataset, Kind::TdtDataset))
    return unknown(api, dataset, "dataset");
  if (!handle->queued) {
    if (timeout != -1)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "the timeout of this channel can only be -1");
    static int said;
    return notSimulated(api, &said);
  }
  QueueMessage message;
  aclError status = serialize(api, dataset, &message.data);
  if (status != ACL_SUCCESS)
    return status;
  return enqueueMessage(api, static_cast<int32_t>(handle->device), handle->qid,
                        std::move(message), timeout);
}

ACL_FUNC_VISIBILITY aclError
acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                    int32_t timeout) {
  const char *api = "acltdtReceiveTensor";
  if (!isLive(handle, Kind::TdtChannel))
    return unknown(api, handle, "channel");
  if (!isLive(dataset, Kind::TdtDataset))
    return unknown(api, dataset, "dataset");
  if (!handle->queued) {
    if (timeout != -1)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "the timeout of this channel can only be -1");
    if (!handle->receiving)
      return fail(ACL_ERROR_INVALID_PARAM, api,
                  "channel " + handle->name + " is not a receiving channel");
    static int said;
    return notSimulated(api, &said);
  }
  QueueMessage message;
  aclError status = dequeueMessage(api, static_cast<int32_t>(handle->device),
                                   handle->qid, &message, timeout, nullptr);
  if (status != ACL_SUCCESS)
    return status;
  // As the real library: the message is taken before the dataset is checked.
  if (!dataset->items.empty() && !dataset->ownsItems)
    return fail(ACL_ERROR_INVALID_PARAM, api,
                "the dataset holds items of the application's");
  destroyOwnedItems(dataset);
  status = deserialize(api, std::move(message.data), dataset);
  if (status != ACL_SUCCESS)
    destroyOwnedItems(dataset);
  return status;
}

ACL_FUNC_VISIBILITY aclError
acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size) {
  const char *api = "acltdtQueryChannelSize";
  if (!isLive(handle, Kind::TdtChannel))
    return unknown(api, handle, "channel");
  if (!size)
    return fail(ACL_ERROR_INVALID_PARAM, api, "size is null");
  if (!handle->queued)
    return fail(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                "only a channel of acltdtCreateChannelWithCapacity");
  return queueSize(api, static_cast<int32_t>(handle->device), handle->qid,
                   size);
}

} // extern "C"
