#include "dvpp_process.h"

#include <cstdio>

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stderr, "[ERROR] " fmt "\n", ##__VA_ARGS__)

aclError DvppProcess::Init() {
  channelDesc_ = acldvppCreateChannelDesc();
  if (channelDesc_ == nullptr) {
    ERROR_LOG("acldvppCreateChannelDesc failed");
    return ACL_ERROR_INVALID_PARAM;
  }
  aclError ret = acldvppCreateChannel(channelDesc_);
  if (ret != ACL_SUCCESS)
    ERROR_LOG("acldvppCreateChannel failed, errorCode = %d", ret);
  return ret;
}

aclError DvppProcess::Process(uint32_t width, uint32_t height) {
  uint32_t size = width * height * 3 / 2;
  aclError ret = acldvppMalloc(&outputBuffer_, size);
  if (ret != ACL_SUCCESS) {
    ERROR_LOG("acldvppMalloc failed, errorCode = %d", ret);
    return ret;
  }
  outputDesc_ = acldvppCreatePicDesc();
  acldvppSetPicDescData(outputDesc_, outputBuffer_);
  acldvppSetPicDescSize(outputDesc_, size);
  INFO_LOG("dvpp process success");
  return ACL_SUCCESS;
}

void DvppProcess::DestroyResource() {
  // The sample forgets outputBuffer_ (acldvppFree) and the picture
  // description: both leak.
  if (channelDesc_ != nullptr) {
    (void)acldvppDestroyChannel(channelDesc_);
    (void)acldvppDestroyChannelDesc(channelDesc_);
    channelDesc_ = nullptr;
  }
}
