//===- SnapshotsTest.cpp - msledger diff and growth -----------------------===//
#include "snapshots.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

/// A snapshot with a leaking site (+1 MiB a snapshot), a cache that fills
/// in two snapshots and then holds, and a site that shrinks.
Snapshot at(uint64_t sequence) {
  std::string text =
      R"({"tool": "msledger", "format": 1, "kind": "snapshot", "sequence": )" +
      std::to_string(sequence) + R"(, "time_ms": )" +
      std::to_string(sequence * 100) + R"(, "sites": [
        {"file": "svc.cpp", "line": 52, "callee": "aclrtMalloc", "level": "cann",
         "chain": [{"file": "svc.cpp", "line": 73}],
         "live_bytes": )" +
      std::to_string(sequence << 20) + R"(, "live_count": )" +
      std::to_string(sequence) + R"(},
        {"file": "svc.cpp", "line": 39, "callee": "aclrtMalloc", "level": "cann",
         "live_bytes": )" +
      std::to_string(std::min<uint64_t>(sequence, 2) * 1000) +
      R"(, "live_count": 2},
        {"file": "old.cpp", "line": 7, "callee": "halMemAlloc", "level": "device",
         "live_bytes": )" +
      std::to_string(10000 - sequence * 1000) + R"(, "live_count": 1}]})";
  std::string error;
  std::optional<Snapshot> snapshot = parseSnapshot(text, "s.json", &error);
  EXPECT_TRUE(snapshot) << error;
  return snapshot ? *snapshot : Snapshot();
}

} // namespace

TEST(Snapshots, DiffListsWhatGrewLargestFirst) {
  std::string report = diffReport(at(1), at(4));
  EXPECT_EQ(
      report,
      "Sites whose live memory grew from snapshot 1 (100 ms) to snapshot "
      "4 (400 ms), largest first:\n"
      "  +3145728 bytes (+3 live)  svc.cpp:52 <- svc.cpp:73 "
      "(aclrtMalloc, CANN heap): 1048576 -> 4194304 bytes\n"
      "  +1000 bytes (+0 live)  svc.cpp:39 (aclrtMalloc, CANN heap): 1000 "
      "-> 2000 bytes\n");
  EXPECT_EQ(diffReport(at(4), at(4)),
            "No site's live memory grew from snapshot 4 (400 ms) to snapshot "
            "4 (400 ms).\n");
}

TEST(Snapshots, DiffAddsEachDevicesLiveMemory) {
  auto snapshot = [](uint64_t sequence, const std::string &devices) {
    std::string text =
        R"({"kind": "snapshot", "sequence": )" + std::to_string(sequence) +
        R"(, "time_ms": 100, "sites": [], "totals": {"cann": {"live_bytes": 0,
           "devices": )" +
        devices + R"(}, "device": {"live_bytes": 0}}})";
    std::string error;
    std::optional<Snapshot> parsed = parseSnapshot(text, "s.json", &error);
    EXPECT_TRUE(parsed) << error;
    return parsed ? *parsed : Snapshot();
  };
  Snapshot before = snapshot(
      1,
      R"([{"device": 0, "live_bytes": 100}, {"device": 1, "live_bytes": 50}])");
  Snapshot after = snapshot(
      2, R"([{"device": 1, "live_bytes": 20}, {"device": 3, "live_bytes": 7},
             {"device": null, "live_bytes": 5}, {"device": null, "live_bytes": 4}])");
  EXPECT_EQ(before.deviceBytes.count("device"), 0u)
      << "a level without devices has none";
  EXPECT_EQ(diffReport(before, after),
            "No site's live memory grew from snapshot 1 (100 ms) to snapshot "
            "2 (100 ms).\n"
            "Live device memory (GM and DVPP) per device:\n"
            "  cann level, device unknown: 0 -> 9 bytes (+9)\n"
            "  cann level, device 0: 100 -> 0 bytes (-100)\n"
            "  cann level, device 1: 50 -> 20 bytes (-30)\n"
            "  cann level, device 3: 0 -> 7 bytes (+7)\n");
}

TEST(Snapshots, GrowthNamesWhatKeepsRisingNotWhatFilledAndHeld) {
  std::vector<Snapshot> series;
  for (uint64_t i = 1; i <= 8; ++i)
    series.push_back(at(i));
  EXPECT_EQ(growthReport(series),
            "Leak suspects over 8 snapshots over 0.7 s (live bytes still "
            "rising), fastest first:\n"
            "  10485760 bytes/s  svc.cpp:52 <- svc.cpp:73 (aclrtMalloc, "
            "CANN heap): 1048576 -> 8388608 bytes, rose in 4 of 4 parts of the "
            "run\n");
  EXPECT_EQ(growthReport({at(1), at(2)}),
            "Growth needs at least 3 snapshots; there are 2.\n");
  EXPECT_EQ(growthReport({at(5), at(5), at(5)}),
            "No site's live memory keeps rising over 3 snapshots over 0.0 "
            "s.\n");
}

// A leak slower than the snapshots (a buffer every third one), over
// snapshots whose oldest were thinned (no third): it rises in three of the
// four quarters of the run, though in three of seven intervals alone, and
// is a suspect; the cache, full after two, is not.
TEST(Snapshots, GrowthFindsALeakSlowerThanItsSnapshots) {
  std::vector<Snapshot> series;
  for (uint64_t i : {1, 2, 4, 5, 6, 7, 8, 9}) {
    Snapshot snapshot = at(i);
    for (auto &entry : snapshot.sites)
      if (entry.second.place.rfind("svc.cpp:52", 0) == 0)
        entry.second.bytes = (i / 3) << 20;
    series.push_back(snapshot);
  }
  std::string report = growthReport(series);
  EXPECT_NE(report.find("svc.cpp:52 <- svc.cpp:73 (aclrtMalloc, CANN heap): 0 "
                        "-> 3145728 bytes, rose in 3 of 4 parts of the run"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("svc.cpp:39"), std::string::npos) << report;
}

TEST(Snapshots, ValuesNoProcessHoldsAreCorrupt) {
  std::string error;
  EXPECT_FALSE(parseSnapshot(
      R"({"kind": "snapshot", "sequence": 1, "time_ms": 5, "sites": [
        {"file": "a.cpp", "line": 1, "callee": "aclrtMalloc", "level": "cann",
         "live_bytes": 18446744073709551615, "live_count": 1}]})",
      "big.json", &error));
  EXPECT_EQ(error, "big.json: sites[0].live_bytes: 18446744073709551615 is "
                   "not a whole number from 0 to 9007199254740992");
  // Every number through the one checked reader: a device of 1.5, a
  // negative count, a line past 2^32 are refused, not guessed.
  for (const char *field :
       {R"("devices": [{"device": 1.5, "live_bytes": 4}])",
        R"("devices": [{"device": 0, "live_bytes": -4}])"}) {
    std::string text =
        std::string(R"({"kind": "snapshot", "sequence": 1, "time_ms": 5,
          "sites": [], "totals": {"cann": {)") +
        field + "}}}";
    EXPECT_FALSE(parseSnapshot(text, "d.json", &error)) << field;
    EXPECT_EQ(error.rfind("d.json: totals.cann.devices[0].", 0), 0u) << error;
  }
  EXPECT_FALSE(parseSnapshot(
      R"({"kind": "snapshot", "sequence": 1, "time_ms": 5, "sites": [
        {"file": "a.cpp", "line": 4294967301, "live_bytes": 1}]})",
      "line.json", &error));
  EXPECT_EQ(error, "line.json: sites[0].line: 4294967301 is not a whole "
                   "number from 0 to 4294967295");
}

TEST(Snapshots, MalformedInputNamesTheFile) {
  std::string error;
  EXPECT_FALSE(parseSnapshot("{", "a.json", &error));
  EXPECT_EQ(error.rfind("a.json: not an msledger snapshot", 0), 0u) << error;
  EXPECT_FALSE(parseSnapshot(R"({"kind": "snapshot"})", "b.json", &error));
  EXPECT_EQ(error, "b.json: sites: missing: a snapshot needs a \"sites\" "
                   "array");
  EXPECT_FALSE(readSnapshot("/nonexistent/s.json", &error));
  EXPECT_EQ(error,
            "cannot read /nonexistent/s.json: No such file or directory");
}
