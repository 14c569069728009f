//===- catalog_table.cpp - The catalog as the runtime sees it
//--------------===//
#include "catalog_table.h"

#include <cstring>

namespace msledger {

const char *const kNameSpaces[] = {
#define MSLEDGER_NAMESPACE(index, name) name,
#define MSLEDGER_FAMILY(...)
#define MSLEDGER_FUNCTION(...)
#include "catalog_table.inc"
#undef MSLEDGER_NAMESPACE
#undef MSLEDGER_FAMILY
#undef MSLEDGER_FUNCTION
};
const size_t kNameSpaceCount = sizeof(kNameSpaces) / sizeof(kNameSpaces[0]);

const FamilyInfo kFamilies[] = {
#define MSLEDGER_NAMESPACE(...)
#define MSLEDGER_FAMILY(index, name, display, level, kind, space, nameSpace,   \
                        refcounted, pointer, hasHandle)                        \
  {name,      display,    level,   kind,     space,                            \
   nameSpace, refcounted, pointer, hasHandle},
#define MSLEDGER_FUNCTION(...)
#include "catalog_table.inc"
#undef MSLEDGER_NAMESPACE
#undef MSLEDGER_FAMILY
#undef MSLEDGER_FUNCTION
};
const size_t kFamilyCount = sizeof(kFamilies) / sizeof(kFamilies[0]);

const ApiInfo kApis[] = {
#define MSLEDGER_NAMESPACE(...)
#define MSLEDGER_FAMILY(...)
#define MSLEDGER_FUNCTION(index, name, role, family) {name, role, family},
#include "catalog_table.inc"
#undef MSLEDGER_NAMESPACE
#undef MSLEDGER_FAMILY
#undef MSLEDGER_FUNCTION
};
const size_t kApiCount = sizeof(kApis) / sizeof(kApis[0]);

const char *spaceName(Space space) {
  switch (space) {
  case Space::GM:
    return "GM";
  case Space::Host:
    return "host";
  case Space::DVPP:
    return "DVPP";
  case Space::Virtual:
    return "virtual";
  case Space::None:
    break;
  }
  return "";
}

int apiIndex(const char *name) {
  if (!name)
    return -1;
  for (size_t i = 0; i < kApiCount; ++i)
    if (strcmp(kApis[i].name, name) == 0)
      return static_cast<int>(i);
  return -1;
}

} // namespace msledger
