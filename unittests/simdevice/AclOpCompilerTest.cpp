//===- AclOpCompilerTest.cpp - operators of libacl_op_compiler.so et al. --===//
#include "AclTestSupport.h"
#include "acl/acl_op_compiler.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using AclOperators = AclTest;

/// `a` - `b` on the device, through `run`; the result read back.
template <typename Run>
std::vector<int32_t> subtract(const std::vector<int32_t> &a,
                              const std::vector<int32_t> &b, Run run) {
  size_t bytes = a.size() * sizeof(int32_t);
  void *device[3];
  for (void *&p : device)
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(device[0], bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(device[1], bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  int64_t dims[] = {static_cast<int64_t>(a.size())};
  const aclTensorDesc *desc[3];
  aclDataBuffer *buffer[3];
  for (int i = 0; i < 3; ++i) {
    desc[i] = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
    buffer[i] = aclCreateDataBuffer(device[i], bytes);
  }
  EXPECT_EQ(run(desc, buffer), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::vector<int32_t> out(a.size());
  aclrtMemcpy(out.data(), bytes, device[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  for (int i = 0; i < 3; ++i) {
    aclDestroyTensorDesc(desc[i]);
    aclDestroyDataBuffer(buffer[i]);
    aclrtFree(device[i]);
  }
  return out;
}

} // namespace

TEST_F(AclOperators, CompileAndExecuteRunsFromTheOpCompilerLibrary) {
  std::vector<int32_t> out =
      subtract({10, 20, 30}, {1, 2, 3},
               [](const aclTensorDesc **desc, aclDataBuffer **buffer) {
                 return aclopCompileAndExecute(
                     "Sub", 2, desc, buffer, 1, desc + 2, buffer + 2, nullptr,
                     ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, nullptr);
               });
  EXPECT_EQ(out, (std::vector<int32_t>{9, 18, 27}));
}

TEST_F(AclOperators, ExecuteTakesConstArrays) {
  std::vector<int32_t> out = subtract(
      {5, 5}, {2, 7}, [](const aclTensorDesc **desc, aclDataBuffer **buffer) {
        return aclopExecute("Sub", 2, desc, buffer, 1, desc + 2, buffer + 2,
                            nullptr, nullptr);
      });
  EXPECT_EQ(out, (std::vector<int32_t>{3, -2}));
}

TEST_F(AclOperators, SetModelDirWantsADirectory) {
  EXPECT_EQ(aclopSetModelDir(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetModelDir("/no/such/dir"), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_EQ(aclopSetModelDir("/tmp"), ACL_SUCCESS);
}

TEST_F(AclOperators, DatasetsKeepTensorDescriptionsByIndex) {
  aclmdlDataset *dataset = aclmdlCreateDataset();
  void *memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclDataBuffer *buffer = aclCreateDataBuffer(memory, 64);
  int64_t dims[] = {16};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset, desc, 0),
            ACL_ERROR_INVALID_PARAM)
      << "no buffer at index 0 yet";
  ASSERT_EQ(aclmdlAddDatasetBuffer(dataset, buffer), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset, desc, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 0), desc);
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 1), nullptr);
  aclDestroyTensorDesc(desc);
  aclDestroyDataBuffer(buffer);
  aclmdlDestroyDataset(dataset);
  aclrtFree(memory);
}

TEST_F(AclOperators, ModelsLoadFromMemoryTheUserManages) {
  std::vector<char> model(4096, 'm');
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(model.data(), model.size(), &work, &weight),
            ACL_SUCCESS);
  EXPECT_EQ(weight, model.size());
  void *workPtr = nullptr, *weightPtr = nullptr;
  ASSERT_EQ(aclrtMalloc(&workPtr, work, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&weightPtr, weight, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMemWithMem(model.data(), model.size(), &id, workPtr,
                                     work - 1, weightPtr, weight),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlLoadFromMemWithMem(model.data(), model.size(), &id, workPtr,
                                     work, weightPtr, weight),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  aclrtFree(workPtr);
  aclrtFree(weightPtr);
}
