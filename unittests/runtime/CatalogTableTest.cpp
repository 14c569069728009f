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
