//===- SuppressionsTest.cpp - suppression files and their matching --------===//
#include "suppressions.h"
#include "report.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

/// A site table of one site (id 1, "src/main.cpp:55" in run(), calling
/// aclrtMalloc) called from main() at src/main.cpp:111 (its chain, id 2).
SiteTable oneChain() {
  static const msledger_site site = {"src/main.cpp", 55,   3, 6,
                                     "aclrtMalloc",  "run"};
  static const msledger_site caller = {"src/main.cpp", 111,   10, 9,
                                       "run",          "main"};
  SiteTable table;
  table.site = [](uint32_t id) { return id == 1 || id == 2 ? &site : nullptr; };
  table.callers = [](uint32_t id) {
    return id == 2 ? std::vector<const msledger_site *>{&caller}
                   : std::vector<const msledger_site *>{};
  };
  return table;
}

Record leakAt(uint32_t site, const char *api, uint64_t size) {
  Record record;
  record.api = static_cast<uint16_t>(apiIndex(api));
  record.site = site;
  record.size = size;
  return record;
}

} // namespace

TEST(Suppressions, PatternsMatchAsLeakSanitizersDo) {
  EXPECT_TRUE(patternMatches("main.cpp", "src/main.cpp")); // anywhere
  EXPECT_TRUE(patternMatches("^src/", "src/main.cpp"));    // at the start
  EXPECT_FALSE(patternMatches("^main", "src/main.cpp"));
  EXPECT_TRUE(patternMatches(".cpp$", "src/main.cpp")); // at the end
  EXPECT_FALSE(patternMatches("main$", "src/main.cpp"));
  EXPECT_TRUE(patternMatches("^src/*.cpp$", "src/a/b.cpp")); // '*' any run
  EXPECT_TRUE(patternMatches("a*c*e", "xxabcdexx"));
  EXPECT_FALSE(patternMatches("a*c*e", "xxaedc"));
  EXPECT_TRUE(patternMatches("^aclrtMalloc$", "aclrtMalloc"));
  EXPECT_FALSE(patternMatches("^aclrtMalloc$", "aclrtMallocHost"));
  EXPECT_FALSE(patternMatches("anything", "")) << "nothing to match";
}

TEST(Suppressions, ParseTakesCommentsBlanksAndBothKinds) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("# known\n\nleak:helper\n  free: aclrtFree \n",
                                 "s.txt", &error))
      << error;
  std::vector<Suppression> list = suppressions.list();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].kind, SuppressionKind::Leak);
  EXPECT_EQ(list[0].pattern, "helper");
  EXPECT_EQ(list[0].line, 3u);
  EXPECT_EQ(list[1].kind, SuppressionKind::Free);
  EXPECT_EQ(list[1].pattern, "aclrtFree");
  EXPECT_EQ(list[1].line, 4u);
}

TEST(Suppressions, ABadLineIsAnErrorNamingFileAndLine) {
  std::string error;
  Suppressions typo;
  EXPECT_FALSE(typo.parse("leak:a\n\nleek:b\n", "s.txt", &error));
  EXPECT_EQ(error, "s.txt:3: expected 'leak:PATTERN', 'free:PATTERN' or "
                   "'access:PATTERN', not 'leek:b'");
  EXPECT_TRUE(typo.empty()) << "nothing of a bad file is kept";
  Suppressions empty;
  EXPECT_FALSE(empty.parse("leak:\n", "s.txt", &error));
  EXPECT_EQ(error, "s.txt:1: 'leak:' has no pattern");
  Suppressions bare;
  EXPECT_FALSE(bare.parse("aclrtMalloc\n", "s.txt", &error));
  Suppressions missing;
  EXPECT_FALSE(missing.load("/nonexistent/suppressions.txt", &error));
  EXPECT_NE(error.find("/nonexistent/suppressions.txt"), std::string::npos);
}

TEST(Suppressions, SiteFunctionCalleeApiAndChainFramesAllMatch) {
  SiteTable sites = oneChain();
  for (const char *pattern : {"main.cpp", "src/main.cpp:55", "^run$",
                              "aclrtMalloc", "main.cpp:111", "^main$"}) {
    Suppressions suppressions;
    std::string error;
    ASSERT_TRUE(
        suppressions.parse(std::string("leak:") + pattern + "\n", "s", &error));
    EXPECT_TRUE(suppressions.suppress(SuppressionKind::Leak, sites, 2,
                                      apiIndex("aclrtMalloc"), 64))
        << pattern;
  }
  Suppressions chainOnly;
  std::string error;
  ASSERT_TRUE(chainOnly.parse("leak:main.cpp:111\n", "s", &error));
  EXPECT_FALSE(chainOnly.suppress(SuppressionKind::Leak, sites, 1,
                                  apiIndex("aclrtMalloc"), 64))
      << "site 1 has no chain";
  // No site at all (a call that was not rewritten): the API's name.
  Suppressions byApi;
  ASSERT_TRUE(byApi.parse("leak:^aclrtMalloc$\n", "s", &error));
  EXPECT_TRUE(byApi.suppress(SuppressionKind::Leak, sites, 0,
                             apiIndex("aclrtMalloc"), 64));
  EXPECT_FALSE(byApi.suppress(SuppressionKind::Leak, sites, 0,
                              apiIndex("aclrtMallocHost"), 64));
}

TEST(Suppressions, KindsAreKeptApart) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("free:aclrtMalloc\n", "s", &error));
  EXPECT_FALSE(suppressions.suppress(SuppressionKind::Leak, oneChain(), 1,
                                     apiIndex("aclrtMalloc"), 8));
  EXPECT_TRUE(suppressions.suppress(SuppressionKind::Free, oneChain(), 1,
                                    apiIndex("aclrtMalloc"), 8));
}

TEST(Suppressions, TheUsedTableAndTheUnusedOnes) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("leak:run\nleak:never\nfree:aclrtFree\n",
                                 "supp.txt", &error));
  std::vector<Record> records = {leakAt(1, "aclrtMalloc", 32768),
                                 leakAt(2, "aclrtMalloc", 32),
                                 leakAt(0, "aclrtMallocHost", 16)};
  EXPECT_EQ(suppressions.filterLeaks(oneChain(), records), 2u);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].size, 16u);
  EXPECT_EQ(suppressions.formatUsed(),
            "-----------------------------------------------------\n"
            "Suppressions used:\n"
            "  count      bytes template\n"
            "      2      32800 leak:run\n"
            "-----------------------------------------------------\n");
  EXPECT_EQ(suppressions.formatUnused(),
            "msledger: suppression 'leak:never' (supp.txt:2) matched nothing\n"
            "msledger: suppression 'free:aclrtFree' (supp.txt:3) matched "
            "nothing\n");
  Suppressions none;
  EXPECT_EQ(none.formatUsed(), "");
  EXPECT_EQ(none.formatUnused(), "");
}
