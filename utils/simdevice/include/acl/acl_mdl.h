/* Simulated CANN device: model loading interfaces (signatures as in the real
 * acl_mdl.h). */
#ifndef INC_EXTERNAL_ACL_ACL_MODEL_H_
#define INC_EXTERNAL_ACL_ACL_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc,
                                           uint32_t modelId);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                                    aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t
aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclDataBuffer *
aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);

ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName,
                                             size_t *workSize,
                                             size_t *weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath,
                                                uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model,
                                               size_t modelSize,
                                               uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(
    const char *modelPath, uint32_t *modelId, void *workPtr, size_t workSize,
    void *weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

#ifdef __cplusplus
}
#endif

#endif
