#ifndef DVPP_PROCESS_H
#define DVPP_PROCESS_H
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

class DvppProcess {
public:
  explicit DvppProcess(aclrtStream stream) : stream_(stream) {}
  aclError Init();
  aclError Process(uint32_t width, uint32_t height);
  void DestroyResource();

private:
  aclrtStream stream_;
  acldvppChannelDesc *channelDesc_ = nullptr;
  acldvppPicDesc *outputDesc_ = nullptr;
  void *outputBuffer_ = nullptr;
};
#endif
