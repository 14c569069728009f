//===- SuppressionsTest.cpp - suppression files and their matching --------===//
#include "suppressions.h"
#include "report.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

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

/// Whether all of `text` matches `glob` ('*' any run), by trying every
/// split: slow, and plainly right.
bool globMatchesSlowly(const char *glob, const char *text) {
  if (*glob == '\0')
    return *text == '\0';
  if (*glob == '*')
    return globMatchesSlowly(glob + 1, text) ||
           (*text != '\0' && globMatchesSlowly(glob, text + 1));
  return *text == *glob && globMatchesSlowly(glob + 1, text + 1);
}

/// LeakSanitizer's template match written the obvious way, for comparison.
bool referenceMatch(const std::string &pattern, const std::string &text) {
  if (text.empty())
    return false;
  std::string glob = pattern;
  bool atStart = !glob.empty() && glob.front() == '^';
  if (atStart)
    glob.erase(0, 1);
  bool atEnd = !glob.empty() && glob.back() == '$';
  if (atEnd)
    glob.pop_back();
  glob = (atStart ? "" : "*") + glob + (atEnd ? "" : "*");
  return globMatchesSlowly(glob.c_str(), text.c_str());
}

/// A temporary directory, removed with what is in it.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/suppressions-test-XXXXXX";
    path = mkdtemp(name);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string write(const std::string &name, const std::string &text) const {
    std::string file = path + "/" + name;
    FILE *out = fopen(file.c_str(), "wb");
    fwrite(text.data(), 1, text.size(), out);
    fclose(out);
    return file;
  }
};

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

TEST(Suppressions, AnchorsStarRunsAndEmptyPieces) {
  // '*' at an end undoes the anchor there.
  EXPECT_TRUE(patternMatches("^*main", "src/main.cpp"));
  EXPECT_TRUE(patternMatches("src*$", "src/main.cpp"));
  EXPECT_TRUE(patternMatches("^*$", "x"));
  EXPECT_TRUE(patternMatches("^***$", "anything"));
  EXPECT_TRUE(patternMatches("***", "x"));
  EXPECT_FALSE(patternMatches("***", "")) << "nothing to match";
  // Runs of '*' are one '*'.
  EXPECT_TRUE(patternMatches("^src/**main**.cpp$", "src/main.cpp"));
  EXPECT_TRUE(patternMatches("a***b", "ab"));
  EXPECT_FALSE(patternMatches("a***b", "ba"));
  // Anchored pieces at both ends must not overlap.
  EXPECT_FALSE(patternMatches("^ab*ba$", "aba"));
  EXPECT_TRUE(patternMatches("^ab*ba$", "abba"));
  EXPECT_FALSE(patternMatches("^aa*aa$", "aaa"));
  EXPECT_TRUE(patternMatches("^aa*aa$", "aaaa"));
  EXPECT_TRUE(patternMatches("^a*b*a$", "aba"));
  EXPECT_FALSE(patternMatches("^a*b*a$", "ab"));
  // The middle pieces in order, between the anchored ones.
  EXPECT_TRUE(patternMatches("^x*b*c*y$", "xabcy"));
  EXPECT_FALSE(patternMatches("^x*c*b*y$", "xabcy"));
  EXPECT_FALSE(patternMatches("^x*y*y$", "xay")) << "the last y is taken";
  // '^' and '$' elsewhere are characters.
  EXPECT_TRUE(patternMatches("a$b", "xa$by"));
  EXPECT_TRUE(patternMatches("^^a", "^a"));
  EXPECT_FALSE(patternMatches("^^a", "a"));
  EXPECT_TRUE(patternMatches("a$$", "ba$"));
  // A pattern longer than the text.
  EXPECT_FALSE(patternMatches("^main.cpp$", "main"));
  EXPECT_FALSE(patternMatches("main.cpp", "main"));
  EXPECT_FALSE(patternMatches("ma*in.cpp", "main"));
  EXPECT_FALSE(patternMatches("^main.cpp", "main.cp"));
  EXPECT_FALSE(patternMatches("main.cpp$", "ain.cpp"));
  EXPECT_TRUE(patternMatches("^main.cpp$", "main.cpp"));
}

TEST(Suppressions, PatternsAgreeWithAMatcherThatTriesEverySplit) {
  // Every pattern of up to 5 of "ab*^$" against every text of up to 4 of
  // "ab^$", as a matcher that tries every split reads it.
  std::vector<std::string> patterns = {""}, texts = {""};
  auto extend = [](std::vector<std::string> &all, const std::string &alphabet,
                   size_t longest) {
    for (size_t length = 1, begin = 0; length <= longest; ++length) {
      size_t end = all.size();
      for (size_t i = begin; i < end; ++i)
        for (char c : alphabet)
          all.push_back(all[i] + c);
      begin = end;
    }
  };
  extend(patterns, "ab*^$", 5);
  extend(texts, "ab^$", 4);
  size_t checked = 0;
  for (const std::string &pattern : patterns) {
    SuppressionPattern compiled(pattern);
    for (const std::string &text : texts) {
      ASSERT_EQ(compiled.matches(text), referenceMatch(pattern, text))
          << "'" << pattern << "' against '" << text << "'";
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000000u);
}

TEST(Suppressions, AMegabytePatternCompletes) {
  // Pieces longer than the text, many pieces, a run of a million '*'s, and
  // the case a backtracking matcher takes text x pattern steps for.
  std::string pieces;
  for (int i = 0; i < 1024; ++i)
    pieces += std::string(1023, 'x') + "*";
  EXPECT_FALSE(patternMatches(pieces, std::string(4096, 'x')));
  EXPECT_FALSE(patternMatches(pieces, "src/main.cpp"));
  std::string stars(1 << 20, '*');
  EXPECT_TRUE(patternMatches(stars + "main", "src/main.cpp"));
  EXPECT_FALSE(patternMatches(stars + "mian", "src/main.cpp"));
  std::string as;
  for (int i = 0; i < (1 << 19); ++i)
    as += "a*";
  EXPECT_FALSE(patternMatches(as + "b", std::string(1 << 20, 'a')));
  EXPECT_TRUE(patternMatches(as + "b", std::string(1 << 19, 'a') + "b"));

  Suppressions big;
  std::string error;
  ASSERT_TRUE(big.parse("leak:" + pieces + "\nleak:" + stars + "run$\n",
                        "big.supp", &error))
      << error;
  std::vector<Record> records;
  for (int i = 0; i < 20000; ++i)
    records.push_back(leakAt(1 + i % 2, "aclrtMalloc", 8));
  EXPECT_EQ(big.filterLeaks(oneChain(), records), 20000u);
  std::vector<Suppression> list = big.list();
  EXPECT_EQ(list[0].count, 0u);
  EXPECT_EQ(list[1].count, 20000u);
  EXPECT_EQ(list[1].bytes, 160000u);
  // The tables quote a long pattern, not all of it.
  EXPECT_LT(big.formatUsed().size(), 1000u);
  EXPECT_LT(big.formatUnused().size(), 1000u);
}

TEST(Suppressions, EachSiteIsMatchedOnce) {
  // 10,000 leaks at 5 sites and without one: 6 matches, 5 site lookups,
  // every leak counted.
  static const msledger_site sites[5] = {
      {"src/a.cpp", 1, 1, 1, "aclrtMalloc", "f"},
      {"src/b.cpp", 2, 1, 2, "aclrtMalloc", "g"},
      {"vendor/c.cpp", 3, 1, 3, "aclrtMalloc", "h"},
      {"vendor/d.cpp", 4, 1, 4, "aclrtMalloc", "k"},
      {"src/e.cpp", 5, 1, 5, "aclrtMalloc", "m"}};
  static std::atomic<int> lookups{0};
  lookups = 0;
  SiteTable table;
  table.site = [](uint32_t id) -> const msledger_site * {
    ++lookups;
    return id >= 1 && id <= 5 ? &sites[id - 1] : nullptr;
  };
  table.callers = [](uint32_t) { return std::vector<const msledger_site *>{}; };
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("leak:^vendor/\nleak:^src/e\nleak:^Host$\n"
                                 "leak:aclrtMallocHost\n",
                                 "s", &error));
  std::vector<Record> records;
  for (int i = 0; i < 10000; ++i)
    records.push_back(leakAt(i % 10 < 5 ? 1 + i % 5 : 0,
                             i % 10 < 5 ? "aclrtMalloc" : "aclrtMallocHost",
                             1 + i % 10));
  EXPECT_EQ(suppressions.filterLeaks(table, records), 8000u);
  EXPECT_EQ(lookups, 5) << "site 0 is not looked up";
  std::vector<Suppression> list = suppressions.list();
  EXPECT_EQ(list[0].count, 2000u); // sites 3 and 4
  EXPECT_EQ(list[0].bytes, 1000u * 3 + 1000u * 4);
  EXPECT_EQ(list[1].count, 1000u);
  EXPECT_EQ(list[1].bytes, 5000u);
  EXPECT_EQ(list[2].count, 0u);
  EXPECT_EQ(list[3].count, 5000u) << "site 0 suppressed by the API's name";
  EXPECT_EQ(list[3].bytes, 1000u * (6 + 7 + 8 + 9 + 10));
  ASSERT_EQ(records.size(), 2000u);
  for (const Record &record : records)
    EXPECT_TRUE(record.site == 1 || record.site == 2);
  // Again: nothing looked up, nothing more left out.
  EXPECT_EQ(suppressions.filterLeaks(table, records), 0u);
  EXPECT_EQ(lookups, 5);
  // Kinds are remembered apart.
  EXPECT_FALSE(suppressions.suppress(SuppressionKind::Free, table, 3,
                                     apiIndex("aclrtMalloc"), 1));
  EXPECT_EQ(lookups, 6);
  EXPECT_TRUE(suppressions.suppress(SuppressionKind::Leak, table, 3,
                                    apiIndex("aclrtMalloc"), 1));
  EXPECT_EQ(lookups, 6);
  EXPECT_EQ(suppressions.list()[0].count, 2001u);
}

TEST(Suppressions, ASiteNotYetKnownIsNotRemembered) {
  static const msledger_site site = {"vendor/late.cpp", 9,     1, 1,
                                     "aclrtMalloc",     "late"};
  static std::atomic<bool> known{false};
  known = false;
  SiteTable table;
  table.site = [](uint32_t id) -> const msledger_site * {
    return id == 7 && known ? &site : nullptr;
  };
  table.callers = [](uint32_t) { return std::vector<const msledger_site *>{}; };
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("leak:^vendor/\n", "s", &error));
  unsigned api = apiIndex("aclrtMalloc");
  EXPECT_FALSE(suppressions.suppress(SuppressionKind::Leak, table, 7, api, 1));
  known = true;
  EXPECT_TRUE(suppressions.suppress(SuppressionKind::Leak, table, 7, api, 1));
}

TEST(Suppressions, ParsingMoreForgetsWhatMatchedNothing) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("leak:never\n", "a.supp", &error));
  unsigned api = apiIndex("aclrtMalloc");
  EXPECT_FALSE(
      suppressions.suppress(SuppressionKind::Leak, oneChain(), 1, api, 8));
  ASSERT_TRUE(suppressions.parse("leak:^run$\n", "b.supp", &error));
  EXPECT_TRUE(
      suppressions.suppress(SuppressionKind::Leak, oneChain(), 1, api, 8));
  EXPECT_EQ(suppressions.list()[1].count, 1u);
}

TEST(Suppressions, MatchingFromManyThreadsCountsEveryFinding) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(suppressions.parse("leak:never\nleak:^run$\n", "s", &error));
  SiteTable sites = oneChain();
  unsigned api = apiIndex("aclrtMalloc");
  std::atomic<int> suppressed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i)
        suppressed += suppressions.suppress(SuppressionKind::Leak, sites,
                                            1 + i % 2, api, 2);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(suppressed, 20000);
  EXPECT_EQ(suppressions.list()[1].count, 20000u);
  EXPECT_EQ(suppressions.list()[1].bytes, 40000u);
}

TEST(Suppressions, ALeadingByteOrderMarkIsSkipped) {
  Suppressions suppressions;
  std::string error;
  ASSERT_TRUE(
      suppressions.parse("\xEF\xBB\xBFleak:foo\nleak:bar\n", "s.supp", &error))
      << error;
  std::vector<Suppression> list = suppressions.list();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].pattern, "foo");
  EXPECT_EQ(list[0].line, 1u);
  Suppressions comment;
  EXPECT_TRUE(comment.parse("\xEF\xBB\xBF# only a comment\n", "s", &error));
  EXPECT_TRUE(comment.empty());
  // Anywhere else a byte-order mark is no part of "leak:", and the message
  // shows it.
  Suppressions second;
  EXPECT_FALSE(
      second.parse("leak:foo\n\xEF\xBB\xBFleak:bar\n", "s.supp", &error));
  EXPECT_EQ(error, "s.supp:2: expected 'leak:PATTERN', 'free:PATTERN' or "
                   "'access:PATTERN', not '\\xef\\xbb\\xbfleak:bar'");
  Suppressions twice;
  EXPECT_FALSE(twice.parse("\xEF\xBB\xBF\xEF\xBB\xBFleak:foo\n", "s", &error));
  EXPECT_NE(error.find("not '\\xef\\xbb\\xbfleak:foo'"), std::string::npos)
      << error;
}

TEST(Suppressions, AMessageQuotesWhatDoesNotShowEscaped) {
  std::string error;
  Suppressions control;
  EXPECT_FALSE(control.parse("le\x1b[2Jak:x\n", "s", &error));
  EXPECT_EQ(error, "s:1: expected 'leak:PATTERN', 'free:PATTERN' or "
                   "'access:PATTERN', not 'le\\x1b[2Jak:x'");
  Suppressions invalid;
  EXPECT_FALSE(invalid.parse(std::string("\xff\xfel\0e\0", 6), "s", &error));
  EXPECT_NE(error.find("not '\\xff\\xfel\\x00e\\x00'"), std::string::npos)
      << error;
  Suppressions invisible; // a zero-width space and a right-to-left override
  EXPECT_FALSE(invisible.parse("le\xE2\x80\x8B"
                               "ak:x\xE2\x80\xAE\n",
                               "s", &error));
  EXPECT_NE(error.find("'le\\xe2\\x80\\x8bak:x\\xe2\\x80\\xae'"),
            std::string::npos)
      << error;
  Suppressions noPattern;
  EXPECT_FALSE(noPattern.parse("leak:\t^\n", "s", &error));
  EXPECT_EQ(error, "s:1: 'leak:\\x09^' has no pattern");
  // Names in other scripts are left as they are.
  Suppressions utf8;
  EXPECT_FALSE(utf8.parse("泄漏:x\n", "s", &error));
  EXPECT_NE(error.find("not '泄漏:x'"), std::string::npos) << error;
  // A long line is quoted in part.
  Suppressions longLine;
  EXPECT_FALSE(longLine.parse(std::string(100000, 'y') + "\n", "s", &error));
  EXPECT_LT(error.size(), 500u);
  EXPECT_NE(error.find("... (100000 bytes)'"), std::string::npos);
  // So are the patterns the tables name.
  Suppressions tables;
  ASSERT_TRUE(tables.parse("leak:a\x1b[0mb\n", "t.supp", &error));
  EXPECT_EQ(tables.formatUnused(), "msledger: suppression 'leak:a\\x1b[0mb' "
                                   "(t.supp:1) matched nothing\n");
}

TEST(Suppressions, LoadReadsOnlyARegularFile) {
  TempDir dir;
  std::string error;
  Suppressions directory;
  EXPECT_FALSE(directory.load(dir.path, &error));
  EXPECT_EQ(error, "cannot read the suppressions " + dir.path +
                       ": not a regular file");
  // A FIFO with no writer: refused, not waited on.
  std::string fifo = dir.path + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Suppressions pipe;
  EXPECT_FALSE(pipe.load(fifo, &error));
  EXPECT_EQ(error,
            "cannot read the suppressions " + fifo + ": not a regular file");
  Suppressions device;
  EXPECT_FALSE(device.load("/dev/zero", &error));
  EXPECT_EQ(error,
            "cannot read the suppressions /dev/zero: not a regular file");
  // Through a symbolic link, a regular file is read.
  std::string file = dir.write("bom.supp", "\xEF\xBB\xBFleak:foo\n");
  std::string link = dir.path + "/link.supp";
  ASSERT_EQ(symlink(file.c_str(), link.c_str()), 0);
  Suppressions linked;
  ASSERT_TRUE(linked.load(link, &error)) << error;
  EXPECT_EQ(linked.list()[0].pattern, "foo");
  Suppressions unreadable;
  EXPECT_FALSE(unreadable.load(dir.path + "/missing.supp", &error));
  EXPECT_EQ(error, "cannot read the suppressions " + dir.path +
                       "/missing.supp: No such file or directory");
}

TEST(Suppressions, LoadRefusesAFileLargerThanTheLimit) {
  TempDir dir;
  std::string error;
  // Sparse files, read as NUL bytes.
  std::string large = dir.path + "/large.supp";
  int fd = open(large.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, Suppressions::kMaxFileBytes + 1), 0);
  close(fd);
  Suppressions tooLarge;
  EXPECT_FALSE(tooLarge.load(large, &error));
  EXPECT_EQ(error, "cannot read the suppressions " + large + ": " +
                       std::to_string(Suppressions::kMaxFileBytes + 1) +
                       " bytes, more than a suppression file may have (16 "
                       "MiB)");
  // At the limit it is read (and its line of NULs is no suppression).
  std::string limit = dir.path + "/limit.supp";
  fd = open(limit.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, Suppressions::kMaxFileBytes), 0);
  close(fd);
  Suppressions atLimit;
  EXPECT_FALSE(atLimit.load(limit, &error));
  EXPECT_EQ(error.find(limit + ":1: expected 'leak:PATTERN'"), 0u) << error;
  EXPECT_LT(error.size(), 2000u);
}
