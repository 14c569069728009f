//===- AclModelTest.cpp - model descriptions, their tensors, execution ----===//
#include "AclTestSupport.h"
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

using AclModel = AclTest;

const char *const kDescription = "\nmssim-model 1\n# a classifier\n"
                                 "weight 65536\nworkspace 4096\n"
                                 "input image uint8 NHWC 1,8,8,3\n"
                                 "output logits float16 ND 1,10\n";

uint32_t load(const std::string &text) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMem(text.data(), text.size(), &id), ACL_SUCCESS);
  return id;
}

} // namespace

TEST_F(AclModel, TheDescriptionAnswersTheQueries) {
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(kDescription, strlen(kDescription), &work,
                                   &weight),
            ACL_SUCCESS);
  EXPECT_EQ(work, 4096u);
  EXPECT_EQ(weight, 65536u);
  uint32_t id = load(kDescription);
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 8u * 8 * 3);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 20u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 1), 0u);
  EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NHWC);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT16);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "image");
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "image");
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[3], 3);
  size_t index = 9;
  EXPECT_EQ(aclmdlGetOutputIndexByName(desc, "logits", &index), ACL_SUCCESS);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(aclmdlGetOutputIndexByName(desc, "nothing", &index),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclModel, ExecutionChecksTheDatasetsAgainstTheModel) {
  uint32_t id = load(kDescription);
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclmdlDataset *input = aclmdlCreateDataset();
  aclmdlDataset *output = aclmdlCreateDataset();
  aclDataBuffer *inBuffer = aclCreateDataBuffer(in, 192);
  aclDataBuffer *outBuffer = aclCreateDataBuffer(out, 20);
  EXPECT_EQ(aclmdlExecute(id, input, output), ACL_ERROR_INVALID_PARAM)
      << "no buffers yet";
  aclmdlAddDatasetBuffer(input, inBuffer);
  aclmdlAddDatasetBuffer(output, outBuffer);
  ASSERT_EQ(aclmdlExecute(id, input, output), ACL_SUCCESS);
  aclFloat16 logits[10];
  ASSERT_EQ(
      aclrtMemcpy(logits, sizeof logits, out, 20, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(aclFloat16ToFloat(logits[4]), 4.0f / 256);
  EXPECT_EQ(aclmdlExecute(id + 100, input, output), ACL_ERROR_INVALID_MODEL_ID);
  aclDestroyDataBuffer(inBuffer);
  aclDestroyDataBuffer(outBuffer);
  aclmdlDestroyDataset(input);
  aclmdlDestroyDataset(output);
  aclrtFree(in);
  aclrtFree(out);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclModel, AMalformedDescriptionIsAParseError) {
  uint32_t id = 0;
  for (const char *text :
       {"mssim-model 2\nweight 1\n", "mssim-model 1\ninput x float32 ND 0\n",
        "mssim-model 1\nweight 8\ninput x complex ND 1\n",
        "mssim-model 1\nworkspace 8\n"}) {
    EXPECT_EQ(aclmdlLoadFromMem(text, strlen(text), &id), ACL_ERROR_PARSE_MODEL)
        << text;
  }
}
