//===- acl_objects.h - What ACL's object handles are ------------*- C++ -*-===//
//
// Contract: the host objects behind the opaque ACL handles of data buffers,
// tensor descriptions, datasets, model descriptions and operator attributes,
// shared by the calls on them (acl_objects_api.cpp) and the model calls
// (acl_model_api.cpp). Each lives between its create and destroy calls,
// registered with the runtime under its HandleKind.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_ACL_OBJECTS_H
#define MSSIM_ACL_OBJECTS_H

#include "runtime.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

struct aclDataBuffer {
  void *data;
  size_t size;
};

// As the real library keeps one: the origin format and shape that
// aclCreateTensorDesc, aclSetTensorOriginFormat/-Shape and the getters use,
// and the storage format and shape that aclSetTensorFormat/-Shape (and their
// deprecated Storage twins) set.
struct aclTensorDesc {
  aclDataType type;
  aclFormat format;
  std::vector<int64_t> dims;
  aclFormat storageFormat = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> storageDims;
  std::vector<std::pair<int64_t, int64_t>> shapeRange;
  std::vector<std::pair<int64_t, int64_t>> valueRange;
  std::string name;
  std::string dynamicInputName;
  std::vector<char> constData; // aclSetTensorConst's copy (empty: not const)
  aclMemType memType = ACL_MEMTYPE_DEVICE;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
  std::map<size_t, aclTensorDesc *> tensorDescs; // by buffer index
};

struct aclmdlDesc {
  uint32_t modelId = 0;
  mssim::ModelShape shape; // copied by aclmdlGetDesc
};

struct aclopAttr {
  std::map<std::string, double> values;
};

namespace mssim {

/// Loads a model from its bytes (acl_objects_api.cpp): weights go to the
/// device, plus a workspace, unless the caller supplies both (`userMemory`:
/// at least `workSize` and `weightSize` of them, what the queries report).
/// What aclmdlLoadFromFile and the other loads do, and
/// acl_model_more_api.cpp's configured and bundle loads.
aclError loadModel(const char *api, const std::string &bytes, uint32_t *modelId,
                   bool userMemory, size_t workSize = 0, size_t weightSize = 0);
/// Reads the whole file at `path`; false if it cannot be read.
bool readFile(const char *path, std::string *bytes);

} // namespace mssim

#endif
