//===- TimelineTest.cpp - msledger timeline's series and page -------------===//
#include "timeline_chart.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

Snapshot snapshot(uint64_t sequence,
                  std::vector<std::pair<std::string, uint64_t>> sites) {
  Snapshot s;
  s.sequence = sequence;
  s.timeMs = sequence * 500;
  for (const auto &site : sites) {
    Snapshot::Site entry;
    entry.place = site.first;
    entry.callee = "aclrtMalloc";
    entry.level = "cann";
    entry.bytes = site.second;
    s.sites["cann\naclrtMalloc\n" + site.first] = entry;
  }
  return s;
}

} // namespace

TEST(Timeline, SeriesFromSnapshotsFillGapsAndKeepTheTopSites) {
  std::vector<Snapshot> series = {
      snapshot(1, {{"a.cpp:1", 100}, {"b.cpp:2", 5}}),
      snapshot(2, {{"a.cpp:1", 200}, {"c.cpp:3", 50}}),
      snapshot(3, {{"a.cpp:1", 300}, {"b.cpp:2", 5}, {"c.cpp:3", 50}})};
  std::vector<Series> chart = seriesFromSnapshots(series, 2);
  ASSERT_EQ(chart.size(), 3u); // the total and the two highest peaks
  EXPECT_EQ(chart[0].name, "total");
  EXPECT_EQ(chart[0].points, (std::vector<std::pair<double, uint64_t>>{
                                 {0.5, 105}, {1.0, 250}, {1.5, 355}}));
  EXPECT_EQ(chart[1].name, "a.cpp:1 (aclrtMalloc)");
  EXPECT_EQ(chart[2].name, "c.cpp:3 (aclrtMalloc)");
  EXPECT_EQ(chart[2].points, (std::vector<std::pair<double, uint64_t>>{
                                 {0.5, 0}, {1.0, 50}, {1.5, 50}}))
      << "absent from a snapshot: nothing live then";
}

TEST(Timeline, ThePageIsSelfContainedAndTitlesEverySeries) {
  std::vector<Series> chart = {{"total", {{0, 10}, {1, 20}}},
                               {"a.cpp:1 <x> & \"y\"", {{0, 10}, {1, 20}}}};
  std::string page = timelineHtml(chart, "Live memory", "seconds");
  EXPECT_NE(page.find("<svg id=\"timeline\""), std::string::npos);
  EXPECT_NE(page.find("<title>a.cpp:1 &lt;x&gt; &amp; &quot;y&quot;</title>"),
            std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
}
