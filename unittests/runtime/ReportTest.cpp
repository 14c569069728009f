//===- ReportTest.cpp - the text of leak and error reports ----------------===//
#include "report.h"
#include "ledger.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

Record leak(const char *api, uint64_t handle, uint64_t size, uint64_t serial,
            Space space = Space::GM) {
  Record r;
  r.api = static_cast<uint16_t>(apiIndex(api));
  r.key = keyOf(r.api, handle);
  r.size = size;
  r.serial = serial;
  r.space = static_cast<uint8_t>(space);
  return r;
}

} // namespace

TEST(Report, TheDesignCardsExampleByteForByte) {
  Ledger ledger{Options()};
  std::vector<Record> records = {leak("aclrtMalloc", 0x124080024000, 32768, 0)};
  EXPECT_EQ(formatLeaks(ledger.siteTable(), Level::Cann, records, false, true,
                        false, nullptr),
            "====== ERROR: LeakCheck: detected memory leaks\n"
            "\n"
            "======    Direct leak of 32768 byte(s)\n"
            "======      at 0x124080024000 on GM allocated in <unknown>:0 "
            "(serialNo:0)\n"
            "\n"
            "====== SUMMARY: 32768 byte(s) leaked in 1 allocation(s)\n");
}

TEST(Report, NothingLeakedMeansNoText) {
  Ledger ledger{Options()};
  std::vector<Record> none;
  EXPECT_EQ(formatLeaks(ledger.siteTable(), Level::Device, none, false, true,
                        true, nullptr),
            "");
}

TEST(Report, BlocksComeInSerialOrderWithTotals) {
  Ledger ledger{Options()};
  std::vector<Record> records = {
      leak("aclrtMallocHost", 0x7000, 10, 9, Space::Host),
      leak("acldvppMalloc", 0x124080030000, 20, 3, Space::DVPP)};
  LeakTotals totals;
  std::string text = formatLeaks(ledger.siteTable(), Level::Cann, records,
                                 false, true, false, &totals);
  EXPECT_LT(text.find("on DVPP"), text.find("on host"));
  EXPECT_NE(text.find("====== SUMMARY: 30 byte(s) leaked in 2 allocation(s)\n"),
            std::string::npos);
  EXPECT_EQ(totals.bytes, 30u);
  EXPECT_EQ(totals.allocations, 2u);
}

TEST(Report, SitesGiveFileAndLine) {
  Ledger ledger{Options()};
  static const msledger_site site = {"src/main.cpp", 55,   13, 4,
                                     "aclrtMalloc",  "run"};
  ledger.acquire(apiIndex("aclrtMalloc"), 0x5000000000, 8, Space::GM, &site);
  Record r;
  ASSERT_TRUE(ledger.table(Level::Cann).find(0x5000000000, &r));
  std::vector<Record> records = {r};
  std::string text = formatLeaks(ledger.siteTable(), Level::Cann, records,
                                 false, true, false, nullptr);
  EXPECT_NE(text.find("allocated in src/main.cpp:55 (serialNo:"),
            std::string::npos)
      << text;
  EXPECT_EQ(location(nullptr), "<unknown>:0");
  EXPECT_EQ(location(&site), "src/main.cpp:55");
}

TEST(Report, GroupingBySiteIsLargestFirst) {
  Ledger ledger{Options()};
  std::vector<Record> records = {
      leak("aclrtMalloc", 0x1000, 10, 1), leak("aclrtMalloc", 0x2000, 10, 2),
      leak("aclrtMallocHost", 0x3000, 50, 3, Space::Host)};
  std::string text = formatLeaks(ledger.siteTable(), Level::Cann, records, true,
                                 true, false, nullptr);
  EXPECT_NE(text.find("======    Direct leak of 50 byte(s) in 1 allocation(s)\n"
                      "======      on host allocated by aclrtMallocHost in "
                      "<unknown>:0 (first serialNo:3)\n"),
            std::string::npos)
      << text;
  EXPECT_LT(text.find("50 byte(s)"),
            text.find("20 byte(s) in 2 allocation(s)"));
  EXPECT_NE(text.find("====== SUMMARY: 70 byte(s) leaked in 3 allocation(s)"),
            std::string::npos);
}

TEST(Report, ResourcesHaveTheirOwnSection) {
  Ledger ledger{Options()};
  std::vector<Record> records = {
      leak("aclrtCreateStream", 0xabc0, 0, 4, Space::None),
      leak("aclrtSetDevice", 1, 2, 2, Space::None),
      leak("aclInit", 0, 0, 1, Space::None)};
  LeakTotals totals;
  std::string text = formatLeaks(ledger.siteTable(), Level::Cann, records,
                                 false, true, true, &totals);
  EXPECT_EQ(text,
            "====== LeakCheck of the CANN heap (ACL calls)\n"
            "====== ERROR: LeakCheck: detected resource leaks\n"
            "\n"
            "======    Leaked AscendCL initialisation\n"
            "======      acquired by aclInit in <unknown>:0 (serialNo:1)\n"
            "\n"
            "======    Leaked device set (2 references)\n"
            "======      id 1 acquired by aclrtSetDevice in <unknown>:0 "
            "(serialNo:2)\n"
            "\n"
            "======    Leaked stream\n"
            "======      at 0xabc0 acquired by aclrtCreateStream in "
            "<unknown>:0 (serialNo:4)\n"
            "\n"
            "====== SUMMARY: 3 resource(s) leaked (AscendCL initialisation: 1, "
            "device set: 1, stream: 1)\n");
  EXPECT_EQ(totals.resources, 3u);
  EXPECT_EQ(formatLeaks(ledger.siteTable(), Level::Cann, records, false, false,
                        true, nullptr),
            "")
      << "resources can be left out";
}

TEST(Report, Errors) {
  Ledger ledger{Options()};
  ErrorEvent error;
  error.kind = ErrorKind::IllegalRelease;
  error.api = static_cast<unsigned>(apiIndex("aclrtFree"));
  error.handle = 0x124080099000;
  error.space = Space::GM;
  error.serial = 7;
  EXPECT_EQ(formatError(ledger.siteTable(), error, false),
            "====== ERROR: illegal free()\n"
            "======    at 0x124080099000 on GM\n"
            "======    code in <unknown>:0 (serialNo:7)\n"
            "\n");
  error.kind = ErrorKind::MismatchedRelease;
  error.api = static_cast<unsigned>(apiIndex("aclrtFreeHost"));
  error.hasAcquired = true;
  error.acquired = leak("aclrtMalloc", 0x124080099000, 64, 5);
  error.callFailed = true;
  EXPECT_EQ(formatError(ledger.siteTable(), error, true),
            "====== ERROR: mismatched free: aclrtFreeHost on device memory "
            "allocated by aclrtMalloc [CANN heap]\n"
            "======    at 0x124080099000 on GM\n"
            "======    code in <unknown>:0 (serialNo:7)\n"
            "======    allocated in <unknown>:0 (serialNo:5)\n"
            "======    the call returned an error\n"
            "\n");
}

// A print limit leaves blocks out, never totals: memory, resources and
// grouped sites each take one finding's place.
TEST(Report, APrintLimitLeavesBlocksOutNotTotals) {
  Ledger ledger{Options()};
  std::vector<Record> records = {leak("aclrtMalloc", 0x124080024000, 100, 1),
                                 leak("aclrtMalloc", 0x124080025000, 200, 2),
                                 leak("aclrtCreateStream", 0x9000, 0, 3)};
  PrintBudget budget(1);
  LeakTotals totals;
  std::string text = formatLeaks(ledger.siteTable(), Level::Cann, records,
                                 false, true, false, &totals, &budget);
  EXPECT_NE(text.find("Direct leak of 100 byte(s)"), std::string::npos);
  EXPECT_EQ(text.find("Direct leak of 200 byte(s)"), std::string::npos);
  EXPECT_EQ(text.find("Leaked stream"), std::string::npos);
  EXPECT_NE(text.find("====== SUMMARY: 300 byte(s) leaked in 2 allocation(s)"),
            std::string::npos);
  EXPECT_NE(text.find("====== SUMMARY: 1 resource(s) leaked"),
            std::string::npos);
  EXPECT_EQ(totals.bytes, 300u);
  EXPECT_EQ(budget.omitted, 2u);
  EXPECT_EQ(formatOmitted(budget),
            "====== msledger: 2 more finding(s) not printed (--print-limit=1); "
            "the summaries count them, and the JSON and SARIF reports have "
            "them all\n");
  PrintBudget none;
  EXPECT_TRUE(none.take());
  EXPECT_EQ(formatOmitted(none), "");
  // Grouped by site: one block for both buffers.
  PrintBudget one(1);
  text = formatLeaks(ledger.siteTable(), Level::Cann, records, true, true,
                     false, nullptr, &one);
  EXPECT_NE(text.find("Direct leak of 300 byte(s) in 2 allocation(s)"),
            std::string::npos);
  EXPECT_EQ(one.omitted, 1u) << "the stream";
}
