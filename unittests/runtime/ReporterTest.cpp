//===- ReporterTest.cpp - a ledger and its reporter, built by the test ----===//
//
// The ledger tells its reporter what it found (LedgerObserver) and never
// calls it otherwise; the reporter decides what is written and kept. Each
// test builds both from options of its own, as process.cpp does from the
// environment.
//
//===----------------------------------------------------------------------===//
#include "reporter.h"
#include "KnownApi.h"
#include "ledger.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace msledger;

namespace {

std::string tempPath(const char *what) {
  return "/tmp/msledger-reporter-" + std::to_string(getpid()) + "-" + what;
}

std::string contentsOf(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void doubleFree(Ledger &ledger, uint64_t address) {
  ledger.acquire(api("aclrtMalloc"), address, 64, Space::GM, nullptr);
  for (int i = 0; i < 2; ++i) {
    PendingRelease pending;
    ledger.beginRelease(api("aclrtFree"), address, nullptr, &pending);
    ledger.endRelease(pending, true);
  }
}

TEST(Reporter, WritesErrorsAsTheLedgerFindsThem) {
  Options options;
  options.log_path = tempPath("log");
  unlink(options.log_path.c_str());
  Reporter reporter(options);
  Ledger ledger(options, &reporter);
  reporter.attach(ledger);
  doubleFree(ledger, 0x6000001000);
  EXPECT_EQ(ledger.errorCount(), 1u) << "kept: the reporter did not refuse it";
  std::string log = contentsOf(options.log_path);
  EXPECT_NE(log.find("double free"), std::string::npos) << log;
  unlink(options.log_path.c_str());
}

TEST(Reporter, ASuppressedErrorIsNeitherWrittenNorCounted) {
  Options options;
  options.log_path = tempPath("suppressed-log");
  options.suppressions = tempPath("supp");
  unlink(options.log_path.c_str());
  std::ofstream(options.suppressions) << "free:aclrtFree\n";
  Reporter reporter(options);
  std::string error;
  ASSERT_TRUE(reporter.loadSuppressions(&error)) << error;
  Ledger ledger(options, &reporter);
  reporter.attach(ledger);
  doubleFree(ledger, 0x6000002000);
  EXPECT_EQ(ledger.errorCount(), 0u);
  EXPECT_TRUE(ledger.errors().empty());
  EXPECT_EQ(contentsOf(options.log_path).find("double free"),
            std::string::npos);
  unlink(options.log_path.c_str());
  unlink(options.suppressions.c_str());
}

TEST(Reporter, ALedgerWithoutOneKeepsEveryErrorAndSaysNothing) {
  Ledger ledger{Options()};
  doubleFree(ledger, 0x6000003000);
  EXPECT_EQ(ledger.errorCount(), 1u);
}

} // namespace
