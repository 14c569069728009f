/*
 * Simulated CANN device: HCCL's communicators (hccl/hccl_comm.h, which
 * hccl/hccl.h includes): creating them (root info, rank table, all devices
 * of one process, sub-communicators), querying and destroying them, the
 * barrier, error strings and configuration. Signatures as in the real header,
 * which declares most of them weak (HCOMM_WEAK_SYMBOL), so that a program
 * not linking the library links and fails when it calls one. The real header
 * also includes hccl/hccl_res.h and hccl/hccl_launch.h (resource and kernel
 * launch extensions), which the simulation does not have. C++ only, as the
 * real header.
 */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_

#include <acl/acl.h>
#include <hccl/hccl_types.h>

#ifndef HCOMM_WEAK_SYMBOL
#define HCOMM_WEAK_SYMBOL __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Communicators from a rank table file (the cluster's JSON description). */
extern HcclResult HcclCommInitClusterInfo(const char *clusterInfo,
                                          uint32_t rank,
                                          HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* mssim-release: not in 7.0 */
extern HcclResult
HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank,
                              HcclCommConfig *config,
                              HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* mssim-release: end */

/* mssim-release: not in 7.0 */
/* A communicator of some ranks of `comm`. */
extern HcclResult HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum,
                                          uint32_t *rankIds, uint64_t subCommId,
                                          uint32_t subCommRankId,
                                          HcclCommConfig *config,
                                          HcclComm *subComm) HCOMM_WEAK_SYMBOL;
/* mssim-release: end */

/* Communicators from the root info one rank makes and hands to the others. */
extern HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommInitRootInfo(uint32_t nRanks,
                                       const HcclRootInfo *rootInfo,
                                       uint32_t rank,
                                       HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* mssim-release: not in 7.0 */
extern HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks,
                                             const HcclRootInfo *rootInfo,
                                             uint32_t rank,
                                             const HcclCommConfig *config,
                                             HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* mssim-release: end */

extern HcclResult HcclSetConfig(HcclConfig config,
                                HcclConfigValue configValue) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetConfig(HcclConfig config,
                                HcclConfigValue *configValue) HCOMM_WEAK_SYMBOL;

extern HcclResult HcclGetCommName(HcclComm comm,
                                  char *commName) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommGetHandleWithName(const char *commName,
                                            HcclComm *comm);

extern HcclResult HcclGetRankSize(HcclComm comm,
                                  uint32_t *rankSize) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetRankId(HcclComm comm,
                                uint32_t *rank) HCOMM_WEAK_SYMBOL;

/* Every rank waits for all the others, in stream order. */
extern HcclResult HcclBarrier(HcclComm comm,
                              aclrtStream stream) HCOMM_WEAK_SYMBOL;

extern HcclResult HcclCommDestroy(HcclComm comm) HCOMM_WEAK_SYMBOL;

/* mssim-release: not in 7.0 */
/* One communicator per device of `devices`, all in this process. */
extern HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices,
                                  HcclComm *comms) HCOMM_WEAK_SYMBOL;
/* mssim-release: end */

extern HcclResult
HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError) HCOMM_WEAK_SYMBOL;
extern const char *HcclGetErrorString(HcclResult code) HCOMM_WEAK_SYMBOL;
extern uint32_t HcclGetCommConfigCapability() HCOMM_WEAK_SYMBOL;

/* Sets a configuration to "nothing configured": its header (size, magic
 * word, version) and each field's not-set value. */
static inline void HcclCommConfigInit(HcclCommConfig *config) {
  if (config == nullptr) {
    return;
  }
  typedef struct {
    size_t size;
    uint32_t magicWord;
    uint32_t version;
    uint64_t reserved;
  } configHeader_t;
  configHeader_t *header = (configHeader_t *)config;
  header->size = sizeof(HcclCommConfig);
  header->magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
  header->version = HCCL_COMM_CONFIG_VERSION;
  header->reserved = 0;
  config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
  config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
  config->hcclCommName[0] = '\0';
  config->hcclUdi[0] = '\0';
  config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
  config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
  config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
  config->hcclWorldRankID = 0;
  config->hcclJobID = 0;
  config->aclGraphZeroCopyEnable = 0;
  config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
  config->hcclAlgo[0] = '\0';
  config->hcclRetryEnable[0] = '\0';
  config->hcclRetryParams[0] = '\0';
  config->hcclBufferName[0] = '\0';
  config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
  config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

extern HcclResult HcclCommSuspend(HcclComm comm) HCOMM_WEAK_SYMBOL;

typedef HcclResult (*HcclCommStateCallback)(HcclComm comm,
                                            HcclCommStatePhase state,
                                            void *args);
extern HcclResult HcclCommRegCommStateCallback(const char *regName,
                                               HcclCommStateCallback cb,
                                               void *args);
extern HcclResult HcclCommResume(HcclComm comm) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommGetStatus(const char *commId, HcclCommStatus *status);

/* Memory the application gives a communicator. */
extern HcclResult HcclCommSetMemoryRange(HcclComm comm, void *baseVirPtr,
                                         size_t size, size_t alignment,
                                         uint64_t flags) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommUnsetMemoryRange(HcclComm comm,
                                           void *baseVirPtr) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr,
                                             size_t size, size_t offset,
                                             aclrtDrvMemHandle handle,
                                             uint64_t flags) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommDeactivateCommMemory(HcclComm comm,
                                               void *virPtr) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t *ranks,
                                           bool *useBackup,
                                           uint32_t nRanks) HCOMM_WEAK_SYMBOL;

/* Groups of operations (experimental in the real library). */
extern HcclResult HcclGroupStart();
extern HcclResult HcclGroupEnd();
extern HcclResult HcclGroupStatusGet(bool *isGroupEnabled);

/* mssim-release: not in 7.0 8.1.RC1 */
/* Symmetric memory windows. */
extern HcclResult HcclCommSymWinRegister(HcclComm comm, void *addr,
                                         uint64_t size,
                                         HcclCommSymWindow *winHandle,
                                         uint32_t flag);
extern HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle);
extern HcclResult HcclCommSymWinGet(HcclComm comm, void *ptr, size_t size,
                                    HcclCommSymWindow *winHandle,
                                    size_t *offset);
/* mssim-release: end */

typedef enum {
  HCCL_OP_EXPANSION_MODE_INVALID = -1,
  HCCL_OP_EXPANSION_MODE_AI_CPU = 0,
  HCCL_OP_EXPANSION_MODE_AIV = 1,
  HCCL_OP_EXPANSION_MODE_HOST = 2,
  HCCL_OP_EXPANSION_MODE_HOST_TS = 3,
  HCCL_OP_EXPANSION_MODE_CCU_MS = 4,
  HCCL_OP_EXPANSION_MODE_CCU_SCHED = 5,
  HCCL_OP_EXPANSION_AIV_ONLY = 6
} HcclOpExpansionMode;

typedef enum {
  HCCL_CONFIG_TYPE_INVALID = -1,
  HCCL_CONFIG_TYPE_OP_EXPANSION_MODE = 0
} HcclConfigType;

typedef HcclOpExpansionMode HcclConfigTypeOpExpansionMode;

extern HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType,
                                    uint32_t infoLen, void *info);

#ifdef __cplusplus
}
#endif
#endif
