//===- CollectTest.cpp - which helper calls lead to catalog calls ---------===//
#include "collect.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

HelperCall call(const std::string &callee, unsigned offset) {
  HelperCall helper;
  helper.callee = callee;
  helper.file = "/p/a.cpp";
  helper.site.frame = true;
  helper.site.nameOffset = offset;
  return helper;
}

} // namespace

TEST(Collect, HelperCallsReachCatalogCallsTransitively) {
  // main -> prepare -> load -> malloc_memory -> aclrtMalloc; log() reaches
  // nothing; recurse() calls itself and load().
  std::vector<HelperCall> calls = {call("prepare", 1), call("load", 2),
                                   call("malloc_memory", 3), call("log", 4),
                                   call("recurse", 5)};
  std::set<std::pair<std::string, std::string>> edges = {
      {"main", "prepare"}, {"prepare", "load"},    {"load", "malloc_memory"},
      {"main", "log"},     {"recurse", "recurse"}, {"recurse", "load"},
      {"log", "log_line"}};
  std::vector<const HelperCall *> pointers;
  for (const HelperCall &c : calls)
    pointers.push_back(&c);
  std::vector<const HelperCall *> reaching =
      reachingHelperCalls(pointers, {"malloc_memory"}, edges);
  std::vector<std::string> names;
  for (const HelperCall *c : reaching)
    names.push_back(c->callee);
  EXPECT_EQ(names, (std::vector<std::string>{"prepare", "load", "malloc_memory",
                                             "recurse"}));
  EXPECT_TRUE(reachingHelperCalls(pointers, {}, edges).empty());
}
