/* Simulated CANN device: tensor data transfer, channels that carry datasets
 * of tensors between the host and a device (signatures as in the real
 * acl_tdt.h). Its functions are in libacl_tdt_channel.so, as in a real
 * toolkit: a program that calls them links -lacl_tdt_channel. Like the real
 * header it is C++ only (the tensor type's enumeration has no typedef).
 * What is simulated: utils/simdevice/README.md, "TDT channels, queues and
 * feature vector search". */
#ifndef INC_EXTERNAL_ACL_ACL_TDT_H_
#define INC_EXTERNAL_ACL_ACL_TDT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a data item carries. */
enum acltdtTensorType {
  ACL_TENSOR_DATA_UNDEFINED = -1,
  ACL_TENSOR_DATA_TENSOR,
  ACL_TENSOR_DATA_END_OF_SEQUENCE,
  ACL_TENSOR_DATA_ABNORMAL,
  /* mssim-release: not in 7.0 */
  ACL_TENSOR_DATA_SLICE_TENSOR,
  ACL_TENSOR_DATA_END_TENSOR
  /* mssim-release: end */
};

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* Reading a data item: null gives ACL_TENSOR_DATA_UNDEFINED,
 * ACL_DT_UNDEFINED, NULL, 0 and 0. */
ACL_FUNC_VISIBILITY acltdtTensorType
acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY aclDataType
acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY void *
acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t
acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t
acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);
/* mssim-release: not in 7.0 */
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(
    const acltdtDataItem *dataItem, size_t *sliceNum, size_t *sliceId);
/* mssim-release: end */
/* Copies the item's dims into dims, which holds dimNum of them. */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(
    const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum);

/* A data item describes `size` bytes at `data`, which it does not own;
 * released by acltdtDestroyDataItem. */
ACL_FUNC_VISIBILITY acltdtDataItem *
acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                     size_t dimNum, aclDataType dataType, void *data,
                     size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);

/* A dataset lists data items; released by acltdtDestroyDataset. */
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset();
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);
ACL_FUNC_VISIBILITY acltdtDataItem *
acltdtGetDataItem(const acltdtDataset *dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset,
                                               acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);
/* mssim-release: not in 7.0 */
ACL_FUNC_VISIBILITY const char *
acltdtGetDatasetName(const acltdtDataset *dataset);
/* mssim-release: end */

/* Channels, on device deviceId: acltdtCreateChannel's, and
 * acltdtCreateChannelWithCapacity's, which queues at most `capacity`
 * datasets; both released by acltdtDestroyChannel. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId,
                                                             const char *name);
ACL_FUNC_VISIBILITY acltdtChannelHandle *
acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                size_t capacity);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);
/* mssim-release: not in 7.0 */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);
/* mssim-release: end */

/* Sending and receiving a dataset; timeout in milliseconds, -1 waits. */
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle,
                                              const acltdtDataset *dataset,
                                              int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(
    const acltdtChannelHandle *handle, acltdtDataset *dataset, int32_t timeout);
/* The number of datasets a channel holds. */
ACL_FUNC_VISIBILITY aclError
acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
