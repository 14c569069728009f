//===- JournalTest.cpp - the crash-safe journal, written and read back ----===//
#include "journal.h"

#include "catalog_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace msledger;

namespace {

std::string contentsOf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST(Journal, EventsSitesAndChainsReadBackInSerialOrder) {
  std::string path =
      "/tmp/msledger-journal-test-" + std::to_string(getpid()) + ".journal";
  Journal journal;
  std::string error;
  ASSERT_TRUE(journal.open(path, 1 << 20, 1234, &error)) << error;
  static const msledger_site site = {"src/a.cpp",   12,    3, 7,
                                     "aclrtMalloc", "load"};
  journal.site(5, &site);
  uint32_t callers[2] = {6, 7};
  journal.chain(70000, 5, callers, 2);
  Record record;
  record.key = 0x124080024000;
  record.size = 4096;
  record.serial = 2;
  record.site = 70000;
  record.api = static_cast<uint16_t>(apiIndex("aclrtMalloc"));
  record.space = 1;
  journal.acquire(1, record);
  journal.release(1, 0x124080024000, 1, apiIndex("aclrtFree"), false);
  journal.exited();

  JournalContents contents;
  ASSERT_TRUE(readJournal(contentsOf(path), &contents, &error)) << error;
  EXPECT_EQ(contents.header.startUnixMs, 1234u);
  EXPECT_EQ(contents.header.exited, 1u);
  EXPECT_EQ(contents.skipped, 0u);
  EXPECT_FALSE(contents.truncated);
  ASSERT_EQ(contents.events.size(), 2u);
  EXPECT_EQ(contents.events[0].type, kJournalRelease) << "serial order";
  EXPECT_EQ(contents.events[1].type, kJournalAcquire);
  EXPECT_EQ(contents.events[1].size, 4096u);
  EXPECT_EQ(contents.events[1].space, 1u);
  EXPECT_EQ(contents.events[1].level, 1);
  EXPECT_EQ(contents.events[1].api, record.api);
  ASSERT_EQ(contents.sites.count(5), 1u);
  EXPECT_EQ(contents.sites[5].file, "src/a.cpp");
  EXPECT_EQ(contents.sites[5].callee, "aclrtMalloc");
  EXPECT_EQ(contents.sites[5].function, "load");
  EXPECT_EQ(contents.sites[5].line, 12u);
  EXPECT_EQ(contents.chains[70000], (std::vector<uint32_t>{5, 6, 7}));

  // Cut in the middle of the first block: what is left reads back, marked.
  std::string bytes = contentsOf(path).substr(0, 64 + 32 * 3);
  ASSERT_TRUE(readJournal(bytes, &contents, &error)) << error;
  EXPECT_TRUE(contents.truncated);
  EXPECT_EQ(contents.sites.size(), 1u);
  EXPECT_FALSE(readJournal("MSLJRNL", &contents, &error));
  EXPECT_EQ(error, "not an msledger journal");
  unlink(path.c_str());
}
