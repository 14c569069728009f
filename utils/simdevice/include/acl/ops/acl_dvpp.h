/* Simulated CANN device: DVPP (media processing) memory and descriptors, as in
 * the real acl_dvpp.h. */
/* As in every real toolkit, this header is for applications that say they
 * use DVPP: it refuses to compile unless ENABLE_DVPP_INTERFACE is defined. */
#if !defined(ENABLE_DVPP_INTERFACE)
#error "acl/ops/acl_dvpp.h: DVPP functions need ENABLE_DVPP_INTERFACE defined (-DENABLE_DVPP_INTERFACE)"
#endif

#ifndef INC_EXTERNAL_ACL_OPS_ACL_DVPP_H_
#define INC_EXTERNAL_ACL_OPS_ACL_DVPP_H_

#include <stddef.h>
#include <stdint.h>

#include "../acl.h"
#include "../acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct acldvppPicDesc acldvppPicDesc;
typedef struct acldvppRoiConfig acldvppRoiConfig;
typedef struct acldvppResizeConfig acldvppResizeConfig;
typedef struct acldvppChannelDesc acldvppChannelDesc;

typedef enum {
  PIXEL_FORMAT_YUV_400 = 0,
  PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1,
  PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2,
  PIXEL_FORMAT_RGB_888 = 12,
  PIXEL_FORMAT_BGR_888 = 13
} acldvppPixelFormat;

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void **devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError acldvppFree(void *devPtr);

ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppCreatePicDesc(void);
ACL_FUNC_VISIBILITY aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescData(acldvppPicDesc *picDesc,
                                                   void *dataDev);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescSize(acldvppPicDesc *picDesc,
                                                   uint32_t size);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescFormat(acldvppPicDesc *picDesc,
                                                     acldvppPixelFormat format);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc,
                                                    uint32_t width);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeight(acldvppPicDesc *picDesc,
                                                     uint32_t height);
ACL_FUNC_VISIBILITY void *acldvppGetPicDescData(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t
acldvppGetPicDescSize(const acldvppPicDesc *picDesc);

ACL_FUNC_VISIBILITY acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left,
                                                             uint32_t right,
                                                             uint32_t top,
                                                             uint32_t bottom);
ACL_FUNC_VISIBILITY aclError
acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig);
ACL_FUNC_VISIBILITY acldvppResizeConfig *acldvppCreateResizeConfig(void);
ACL_FUNC_VISIBILITY aclError
acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig);

ACL_FUNC_VISIBILITY acldvppChannelDesc *acldvppCreateChannelDesc(void);
ACL_FUNC_VISIBILITY aclError
acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc);
ACL_FUNC_VISIBILITY aclError
acldvppCreateChannel(acldvppChannelDesc *channelDesc);
ACL_FUNC_VISIBILITY aclError
acldvppDestroyChannel(acldvppChannelDesc *channelDesc);

#ifdef __cplusplus
}
#endif

#endif
