//===- JunitTest.cpp - findings as JUnit test results ---------------------===//
#include "junit.h"

#include "catalog_table.h"

#include <gtest/gtest.h>

using namespace msledger;

namespace {

Record leak(const char *api, uint64_t handle, uint64_t size, uint64_t serial,
            uint32_t site) {
  Record r;
  r.api = static_cast<uint16_t>(apiIndex(api));
  r.key = keyOf(r.api, handle);
  r.size = size;
  r.serial = serial;
  r.site = site;
  r.space = static_cast<uint8_t>(Space::GM);
  return r;
}

} // namespace

TEST(Junit, EscapesWhatXmlCannotHold) {
  EXPECT_EQ(xmlEscape("a&b<c>\"d'"), "a&amp;b&lt;c&gt;&quot;d&apos;");
  EXPECT_EQ(xmlEscape(std::string("x\x01y\n\tz", 6)), "x\\x01y\n\tz");
  EXPECT_EQ(xmlEscape("数据.cpp"), "数据.cpp") << "UTF-8 stays";
  EXPECT_EQ(xmlEscape("a\xef\xbf\xbf"
                      "b"),
            "a\\xef\\xbf\\xbf"
            "b")
      << "U+FFFF is no XML character";
}

// One case per site and kind, in the order the findings came; a clean run
// is one passing case.
TEST(Junit, OneFailedCasePerSiteAndKind) {
  static const msledger_site first = {"src/a.cpp",   12,    3, 1,
                                      "aclrtMalloc", "load"};
  static const msledger_site second = {"src/a.cpp",   20,    3, 2,
                                       "aclrtMalloc", "load"};
  const uint32_t a = 1, b = 2;
  ReportInput input;
  input.sites.site = [](uint32_t id) -> const msledger_site * {
    return id == 1 ? &first : id == 2 ? &second : nullptr;
  };
  input.sites.callers = [](uint32_t) {
    return std::vector<const msledger_site *>();
  };
  input.tracked[1] = true;
  input.pid = 42;
  input.program = "svc";
  std::vector<Record> live[2];
  live[1] = {leak("aclrtMalloc", 0x1000, 10, 5, b),
             leak("aclrtMalloc", 0x2000, 20, 3, a),
             leak("aclrtMalloc", 0x3000, 30, 4, a)};
  std::string xml = formatJunit(input, live, {});
  EXPECT_NE(xml.find("<testsuites name=\"msledger\" tests=\"2\" failures=\"2\" "
                     "errors=\"0\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"msledger svc (pid 42)\""),
            std::string::npos);
  size_t twelve = xml.find("<testcase name=\"src/a.cpp:12: aclrtMalloc\" "
                           "classname=\"msledger.cann.memory-leak\">");
  size_t twenty = xml.find("<testcase name=\"src/a.cpp:20: aclrtMalloc\"");
  ASSERT_NE(twelve, std::string::npos) << xml;
  ASSERT_NE(twenty, std::string::npos);
  EXPECT_LT(twelve, twenty) << "in the order of the first finding";
  EXPECT_NE(xml.find("message=\"2 leak(s) of 50 byte(s) in all\""),
            std::string::npos);

  std::vector<Record> none[2];
  xml = formatJunit(input, none, {});
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"no findings\" classname=\"msledger\"/>"),
            std::string::npos);
}
