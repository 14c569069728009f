//===- SarifTest.cpp - findings as a SARIF log
//-----------------------------===//
#include "sarif.h"

#include <boost/json.hpp>
#include <gtest/gtest.h>

using namespace msledger;
namespace json = boost::json;

namespace {

const msledger_site kSite = {"src/a b.cpp", 7,     5, 0x1234,
                             "aclrtMalloc", "load"};

ReportInput oneSite() {
  ReportInput input;
  input.sites.site = [](uint32_t id) { return id == 1 ? &kSite : nullptr; };
  input.sites.callers = [](uint32_t) {
    return std::vector<const msledger_site *>{};
  };
  return input;
}

Record leakAt(uint32_t site, const char *api, uint64_t size, uint64_t serial) {
  Record record;
  record.api = static_cast<uint16_t>(apiIndex(api));
  record.site = site;
  record.size = size;
  record.serial = serial;
  record.space = static_cast<uint8_t>(Space::GM);
  return record;
}

json::array resultsOf(const std::string &sarif) {
  json::value log = json::parse(sarif);
  EXPECT_EQ(log.at("version"), "2.1.0");
  return log.at("runs").at(0).at("results").as_array();
}

} // namespace

TEST(Sarif, FileUrisArePercentEncoded) {
  EXPECT_EQ(fileUri("/home/me/my project", true),
            "file:///home/me/my%20project/");
  EXPECT_EQ(fileUri("/root/", true), "file:///root/");
  EXPECT_EQ(fileUri("src/a b.cpp", false), "src/a%20b.cpp");
  EXPECT_EQ(fileUri("src/x#1%.cpp", false), "src/x%231%25.cpp");
}

TEST(Sarif, OneResultPerSiteWithCountAndBytes) {
  std::vector<Record> live[2];
  live[static_cast<int>(Level::Cann)] = {leakAt(1, "aclrtMalloc", 100, 4),
                                         leakAt(1, "aclrtMalloc", 28, 2),
                                         leakAt(0, "aclrtMalloc", 8, 9)};
  json::array results = resultsOf(formatSarif(oneSite(), live, {}, "/p"));
  ASSERT_EQ(results.size(), 2u);
  const json::object &site = results[0].as_object();
  EXPECT_EQ(site.at("ruleId"), "memory-leak");
  EXPECT_EQ(site.at("properties").at("count"), 2);
  EXPECT_EQ(site.at("properties").at("bytes"), 128);
  const json::value &physical =
      site.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(physical.at("artifactLocation").at("uri"), "src/a%20b.cpp");
  EXPECT_EQ(physical.at("artifactLocation").at("uriBaseId"), "PROJECTROOT");
  EXPECT_EQ(physical.at("region").at("startLine"), 7);
  EXPECT_EQ(physical.at("region").at("startColumn"), 5);
  EXPECT_EQ(site.at("partialFingerprints").at("msledgerFinding/v1"),
            "memory-leak/cann/src/a b.cpp/aclrtMalloc/0000000000001234");
  // Not rewritten: no location, and the message says why.
  const json::object &unknown = results[1].as_object();
  EXPECT_FALSE(unknown.contains("locations"));
  EXPECT_NE(std::string(unknown.at("message").at("text").as_string())
                .find("not rewritten"),
            std::string::npos);
}

TEST(Sarif, NothingFoundIsAnEmptyRunWithItsRules) {
  std::vector<Record> live[2];
  json::value log = json::parse(formatSarif(oneSite(), live, {}, "/p"));
  const json::object &run = log.at("runs").at(0).as_object();
  EXPECT_TRUE(run.at("results").as_array().empty());
  EXPECT_EQ(run.at("tool").at("driver").at("rules").as_array().size(), 8u);
  EXPECT_EQ(run.at("originalUriBaseIds").at("PROJECTROOT").at("uri"),
            "file:///p/");
}

TEST(Sarif, AbsoluteFilesAreRelativeInsideTheRootAndBaselessOutside) {
  static const msledger_site inside = {"/p/src/a.cpp", 3,      1, 1,
                                       "aclrtMalloc",  nullptr};
  static const msledger_site outside = {"/opt/sdk/b.h", 4,      1, 2,
                                        "aclrtMalloc",  nullptr};
  ReportInput input;
  input.sites.site = [](uint32_t id) {
    return id == 1 ? &inside : id == 2 ? &outside : nullptr;
  };
  input.sites.callers = [](uint32_t) {
    return std::vector<const msledger_site *>{};
  };
  std::vector<Record> live[2];
  live[static_cast<int>(Level::Cann)] = {leakAt(1, "aclrtMalloc", 100, 1),
                                         leakAt(2, "aclrtMalloc", 50, 2)};
  json::array results = resultsOf(formatSarif(input, live, {}, "/p"));
  ASSERT_EQ(results.size(), 2u);
  auto artifact = [&](size_t i) {
    return results[i]
        .at("locations")
        .at(0)
        .at("physicalLocation")
        .at("artifactLocation")
        .as_object();
  };
  EXPECT_EQ(artifact(0).at("uri"), "src/a.cpp");
  EXPECT_EQ(artifact(0).at("uriBaseId"), "PROJECTROOT");
  EXPECT_EQ(artifact(1).at("uri"), "file:///opt/sdk/b.h");
  EXPECT_FALSE(artifact(1).contains("uriBaseId")) << "SARIF1004";
}
