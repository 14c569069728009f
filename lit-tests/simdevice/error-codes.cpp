// Bad arguments, double destroys and frees of unknown pointers return the real
// error codes and never crash.
//
// RUN: %acl_cxx -DENABLE_DVPP_INTERFACE %hal_include %s -o %t
// RUN: %t | FileCheck %s --implicit-check-not=UNEXPECTED
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "driver/ascend_hal.h"

#include <stdio.h>

#define SHOW(expr) printf("%s = %d\n", #expr, (int)(expr))

int main(void) {
  void *p = NULL;
  SHOW(aclrtSetDevice(0));
  // CHECK: aclrtSetDevice(0) = 100001
  SHOW(aclFinalize());
  // CHECK-NEXT: aclFinalize() = 100037
  SHOW(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 107002
  SHOW(aclInit(NULL));
  // CHECK-NEXT: aclInit(NULL) = 0
  SHOW(aclInit(NULL));
  // CHECK-NEXT: aclInit(NULL) = 100002
  SHOW(aclrtSetDevice(7));
  // CHECK-NEXT: aclrtSetDevice(7) = 107001
  SHOW(aclrtSetDevice(-1));
  // CHECK-NEXT: aclrtSetDevice(-1) = 107001
  SHOW(aclrtResetDevice(1));
  // CHECK-NEXT: aclrtResetDevice(1) = 107002
  SHOW(aclrtSetDevice(0));
  // CHECK-NEXT: aclrtSetDevice(0) = 0

  // Memory.
  SHOW(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 100000
  SHOW(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST) = 100000
  SHOW(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)77));
  // CHECK-NEXT: aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)77) = 100000
  SHOW(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 0
  SHOW(aclrtFree((char *)p + 32));
  // CHECK-NEXT: aclrtFree((char *)p + 32) = 207002
  SHOW(aclrtFree(p));
  // CHECK-NEXT: aclrtFree(p) = 0
  SHOW(aclrtFree(p));
  // CHECK-NEXT: aclrtFree(p) = 207002
  SHOW(aclrtFree(NULL));
  // CHECK-NEXT: aclrtFree(NULL) = 100000
  int onStack = 0;
  SHOW(aclrtFreeHost(&onStack));
  // CHECK-NEXT: aclrtFreeHost(&onStack) = 207002
  SHOW(acldvppFree((void *)0x124080000200));
  // CHECK-NEXT: acldvppFree((void *)0x124080000200) = 207002
  SHOW(halMemFree(&onStack));
  // CHECK-NEXT: halMemFree(&onStack) = 3
  SHOW(halMemAlloc(&p, 64, 5));
  // CHECK-NEXT: halMemAlloc(&p, 64, 5) = 2
  SHOW(halMemAlloc(&p, 64, MEM_RESERVE));
  // CHECK-NEXT: halMemAlloc(&p, 64, MEM_RESERVE) = 5
  char host[64];
  SHOW(aclrtMemcpy(host, sizeof(host), host, 128, ACL_MEMCPY_HOST_TO_HOST));
  // CHECK-NEXT: aclrtMemcpy(host, sizeof(host), host, 128,
  // ACL_MEMCPY_HOST_TO_HOST) = 100000
  SHOW(aclrtMemcpy(host, sizeof(host), host, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  // CHECK-NEXT: aclrtMemcpy(host, sizeof(host), host, 8,
  // ACL_MEMCPY_HOST_TO_DEVICE) = 100000
  SHOW(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  // CHECK-NEXT: = 0
  SHOW(aclrtMemcpy(host, sizeof(host), p, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
  // CHECK-NEXT: aclrtMemcpy(host, sizeof(host), p, 4096,
  // ACL_MEMCPY_DEVICE_TO_HOST) = 100000
  SHOW(aclrtMemcpy(p, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  // CHECK-NEXT: aclrtMemcpy(p, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE) = 107000
  SHOW(aclrtFree(p));
  // CHECK-NEXT: aclrtFree(p) = 0
  SHOW(aclrtMemcpy(host, sizeof(host), p, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  // CHECK-NEXT: aclrtMemcpy(host, sizeof(host), p, 8,
  // ACL_MEMCPY_DEVICE_TO_HOST) = 100000

  // Handles.
  aclrtStream stream;
  SHOW(aclrtCreateStream(&stream));
  // CHECK-NEXT: aclrtCreateStream(&stream) = 0
  SHOW(aclrtDestroyStream(stream));
  // CHECK-NEXT: aclrtDestroyStream(stream) = 0
  SHOW(aclrtDestroyStream(stream));
  // CHECK-NEXT: aclrtDestroyStream(stream) = 107003
  SHOW(aclrtDestroyStream(NULL));
  // CHECK-NEXT: aclrtDestroyStream(NULL) = 100000
  aclrtEvent event;
  SHOW(aclrtCreateEvent(&event));
  // CHECK-NEXT: aclrtCreateEvent(&event) = 0
  SHOW(aclrtDestroyEvent(event));
  // CHECK-NEXT: aclrtDestroyEvent(event) = 0
  SHOW(aclrtDestroyEvent(event));
  // CHECK-NEXT: aclrtDestroyEvent(event) = 107017
  aclrtContext context, defaultContext;
  SHOW(aclrtGetCurrentContext(&defaultContext));
  // CHECK-NEXT: aclrtGetCurrentContext(&defaultContext) = 0
  SHOW(aclrtDestroyContext(defaultContext));
  // CHECK-NEXT: aclrtDestroyContext(defaultContext) = 507007
  SHOW(aclrtCreateContext(&context, 0));
  // CHECK-NEXT: aclrtCreateContext(&context, 0) = 0
  SHOW(aclrtDestroyContext(context));
  // CHECK-NEXT: aclrtDestroyContext(context) = 0
  SHOW(aclrtDestroyContext(context));
  // CHECK-NEXT: aclrtDestroyContext(context) = 107017
  SHOW(aclrtSetCurrentContext(defaultContext));
  // CHECK-NEXT: aclrtSetCurrentContext(defaultContext) = 0
  aclDataBuffer *buffer = aclCreateDataBuffer(NULL, 0);
  SHOW(aclDestroyDataBuffer(buffer));
  // CHECK-NEXT: aclDestroyDataBuffer(buffer) = 0
  SHOW(aclDestroyDataBuffer(buffer));
  // CHECK-NEXT: aclDestroyDataBuffer(buffer) = 100000
  aclmdlDataset *dataset = aclmdlCreateDataset();
  SHOW(aclmdlDestroyDataset(dataset));
  // CHECK-NEXT: aclmdlDestroyDataset(dataset) = 0
  SHOW(aclmdlDestroyDataset(dataset));
  // CHECK-NEXT: aclmdlDestroyDataset(dataset) = 100000
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
  aclDestroyTensorDesc(desc);
  aclDestroyTensorDesc(desc); // void: ignored, but explained
  printf("%s\n", aclGetRecentErrMsg());
  // CHECK-NEXT: aclDestroyTensorDesc: 0x{{[0-9a-f]+}} is not a live tensor description (error 100000)
  SHOW(aclmdlUnload(42));
  // CHECK-NEXT: aclmdlUnload(42) = 100011
  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  SHOW(acldvppDestroyChannel(channel));
  // CHECK-NEXT: acldvppDestroyChannel(channel) = 100000
  SHOW(acldvppCreateChannel(channel));
  // CHECK-NEXT: acldvppCreateChannel(channel) = 0
  SHOW(acldvppCreateChannel(channel));
  // CHECK-NEXT: acldvppCreateChannel(channel) = 100000
  SHOW(acldvppDestroyChannel(channel));
  // CHECK-NEXT: acldvppDestroyChannel(channel) = 0
  SHOW(acldvppDestroyChannelDesc(channel));
  // CHECK-NEXT: acldvppDestroyChannelDesc(channel) = 0
  SHOW(acldvppDestroyChannelDesc(channel));
  // CHECK-NEXT: acldvppDestroyChannelDesc(channel) = 100000
  char page[4096];
  void *mapped;
  SHOW(
      aclrtHostRegister(page, sizeof(page), ACL_HOST_REGISTER_MAPPED, &mapped));
  // CHECK-NEXT: = 0
  SHOW(
      aclrtHostRegister(page, sizeof(page), ACL_HOST_REGISTER_MAPPED, &mapped));
  // CHECK-NEXT: = 507910
  SHOW(aclrtHostUnregister(page));
  // CHECK-NEXT: aclrtHostUnregister(page) = 0
  SHOW(aclrtHostUnregister(page));
  // CHECK-NEXT: aclrtHostUnregister(page) = 507911
  SHOW(aclopExecuteV2("Conv2D", 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  // CHECK-NEXT: = 100024
  SHOW(aclrtResetDevice(0));
  // CHECK-NEXT: aclrtResetDevice(0) = 0
  SHOW(aclrtResetDevice(0));
  // CHECK-NEXT: aclrtResetDevice(0) = 107002
  SHOW(aclFinalize());
  // CHECK-NEXT: aclFinalize() = 0
  return 0;
}
