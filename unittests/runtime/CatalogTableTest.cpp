//===- CatalogTableTest.cpp - the generated table is the catalog ----------===//
//
// The runtime's family table is generated from the catalog at build time;
// this proves the generated table says what the catalog file says.
//
//===----------------------------------------------------------------------===//
#include "catalog.h"
#include "catalog_table.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace msledger;

TEST(CatalogTable, MatchesTheCatalogFile) {
  std::string error;
  std::optional<Catalog> catalog = Catalog::load(MSLEDGER_CATALOG_PATH, &error);
  ASSERT_TRUE(catalog) << error;
  ASSERT_EQ(kNameSpaceCount, catalog->nameSpaces().size());
  for (size_t i = 0; i < kNameSpaceCount; ++i)
    EXPECT_EQ(kNameSpaces[i], catalog->nameSpaces()[i]);
  ASSERT_EQ(kFamilyCount, catalog->families().size());
  for (size_t i = 0; i < kFamilyCount; ++i) {
    const Family &family = catalog->families()[i];
    EXPECT_EQ(Families[i].name, family.name);
    EXPECT_EQ(Families[i].display, family.display);
    EXPECT_EQ(Families[i].level, family.level);
    EXPECT_EQ(Families[i].kind, family.kind);
    EXPECT_EQ(std::string(spaceName(Families[i].space)), family.space);
    EXPECT_EQ(Families[i].nameSpace, family.nameSpaceIndex);
    EXPECT_EQ(Families[i].refcounted, family.refcounted);
    EXPECT_EQ(Families[i].handleIsPointer, family.handleIsPointer);
    EXPECT_EQ(Families[i].hasHandle, family.hasHandle);
    EXPECT_EQ(Families[i].perDevice, family.perDevice());
    EXPECT_EQ(Families[i].operatorHandles, family.operatorHandles);
    EXPECT_EQ(Families[i].handleIsKey, family.handleIsKey);
    EXPECT_EQ(Families[i].releasedAs, family.releasedAsIndex);
  }
  size_t implicit = 0;
  for (size_t i = 0; i < kFamilyCount; ++i)
    for (const ImplicitRelease &release :
         catalog->families()[i].implicitReleases) {
      ASSERT_LT(implicit, kImplicitReleaseCount);
      EXPECT_EQ(kImplicitReleases[implicit].family, i);
      EXPECT_EQ(kImplicitReleases[implicit].api, release.functionIndex);
      EXPECT_EQ(kImplicitReleases[implicit].perDevice, release.perDevice);
      ++implicit;
    }
  EXPECT_EQ(implicit, kImplicitReleaseCount);
  ASSERT_EQ(kApiCount, catalog->functions().size());
  for (size_t i = 0; i < kApiCount; ++i) {
    const Function &function = catalog->functions()[i];
    EXPECT_EQ(Apis[i].name, function.name);
    EXPECT_EQ(Apis[i].role, function.role);
    EXPECT_EQ(Apis[i].family, function.family);
    EXPECT_EQ(Apis[i].deviceArgument, function.deviceParam >= 0);
    EXPECT_EQ(apiIndex(function.name.c_str()), static_cast<int>(i));
  }
  EXPECT_EQ(apiIndex("malloc"), -1);
  EXPECT_EQ(apiIndex(nullptr), -1);
}

// A TDT queue id is numbered per device: the same id on two devices keys two
// records, and reports write the id alone.
TEST(CatalogTable, IdsNumberedPerDeviceAreKeyedByTheirDevice) {
  int create = apiIndex("acltdtCreateQueue");
  ASSERT_GE(create, 0);
  const FamilyInfo &queue = familyOf(static_cast<unsigned>(create));
  ASSERT_TRUE(idsPerDevice(queue));
  EXPECT_FALSE(idsPerDevice(
      familyOf(static_cast<unsigned>(apiIndex("aclrtCreateStream")))))
      << "a stream is an address, unique in the process";
  EXPECT_FALSE(idsPerDevice(
      familyOf(static_cast<unsigned>(apiIndex("aclmdlLoadFromFile")))))
      << "model ids are the process's";
  uint64_t onFirst = keyInNameSpace(queue.nameSpace, deviceScopedId(0, 5));
  uint64_t onSecond = keyInNameSpace(queue.nameSpace, deviceScopedId(1, 5));
  EXPECT_NE(onFirst, onSecond);
  EXPECT_EQ(handleOf(queue, onFirst), 5u);
  EXPECT_EQ(handleOf(queue, onSecond), 5u);
  EXPECT_NE(keyInNameSpace(queue.nameSpace, deviceScopedId(UINT32_MAX, 5)),
            onFirst)
      << "no device is none of the devices";
}

// A key is named by the hash of its text (msledger_key_handle): the same text,
// wherever it lies, is the same handle; NULL is none.
TEST(CatalogTable, AKeyIsNamedByItsText) {
  char written[65] = "mssim-ipc-memory-42-1";
  const char *passed = "mssim-ipc-memory-42-1";
  EXPECT_EQ(keyHandle(written), keyHandle(passed));
  EXPECT_NE(keyHandle(written), 0u);
  EXPECT_NE(keyHandle("mssim-ipc-memory-42-2"), keyHandle(passed));
  EXPECT_EQ(keyHandle(nullptr), 0u);
  EXPECT_NE(keyHandle(""), 0u) << "an empty key is a key";
  int close = apiIndex("aclrtIpcMemClose");
  ASSERT_GE(close, 0);
  EXPECT_TRUE(familyOf(static_cast<unsigned>(close)).handleIsKey);
}
