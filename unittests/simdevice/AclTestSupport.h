//===- AclTestSupport.h - shared fixture of the ACL API tests --*- C++ -*-===//
//
// Each test starts with AscendCL initialised and device 0 set, and finalises
// at the end: lit runs many tests of a binary in one process, so a test must
// leave nothing behind.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_UNITTESTS_SIMDEVICE_ACLTESTSUPPORT_H
#define MSLEDGER_UNITTESTS_SIMDEVICE_ACLTESTSUPPORT_H

#include "acl/acl.h"

#include <gtest/gtest.h>

class AclTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclFinalize(), ACL_SUCCESS); }

  /// Device memory in use on the current device, in the driver's units.
  static size_t deviceBytesInUse() {
    size_t free = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
    return total - free;
  }
};

#endif
