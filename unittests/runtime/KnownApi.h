//===- KnownApi.h - a catalog API's index, for tests ----------*- C++ -*-===//
#ifndef MSLEDGER_UNITTESTS_RUNTIME_KNOWNAPI_H
#define MSLEDGER_UNITTESTS_RUNTIME_KNOWNAPI_H

#include "catalog_table.h"

#include <gtest/gtest.h>

namespace msledger {

/// The index of catalog API `name`; a failure of the test calling it if
/// the catalog has no such API.
inline unsigned api(const char *name) {
  int index = apiIndex(name);
  EXPECT_GE(index, 0) << name;
  return static_cast<unsigned>(index);
}

} // namespace msledger

#endif
