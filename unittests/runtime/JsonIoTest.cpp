//===- JsonIoTest.cpp - the one reader and writer of the tools' JSON ------===//
#include "escape.h"
#include "json_io.h"

#include <gtest/gtest.h>

using namespace msledger;
namespace json = boost::json;

namespace {

json::object parsed(const std::string &text) {
  return json::parse(text).as_object();
}

} // namespace

TEST(Escape, PrintableEscapesWhatWouldBreakALine) {
  EXPECT_EQ(printable("src/a.cpp"), "src/a.cpp");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("a\nb\x1b[31m\x7f"), "a\\x0ab\\x1b[31m\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9") << "UTF-8 stays";
  EXPECT_EQ(printable("app\xff"), "app\\xff");
  EXPECT_EQ(printable("\xef\xbb\xbfleak:a\xe2\x80\x8b"),
            "\\xef\\xbb\\xbfleak:a\\xe2\\x80\\x8b")
      << "a byte-order mark and a zero-width space show";
  EXPECT_EQ(printable(std::string(300, 'a'), 256),
            std::string(256, 'a') + "... (300 bytes)");
  EXPECT_EQ(printable("\xe4\xb8\xad\xe4\xb8\xad", 4),
            "\xe4\xb8\xad... (6 bytes)")
      << "cut between characters";
}

TEST(Escape, ValidUtf8KeepsControlsForJsonToEscape) {
  EXPECT_EQ(validUtf8("a\nb"), "a\nb");
  EXPECT_EQ(validUtf8("app\xff"), "app\\xff");
  EXPECT_TRUE(isValidUtf8("\xe4\xb8\xad"));
  EXPECT_FALSE(isValidUtf8("\xc0\xaf")) << "overlong";
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80")) << "a surrogate";
  EXPECT_FALSE(isValidUtf8("\xf4\x90\x80\x80")) << "past U+10FFFF";
  EXPECT_FALSE(isValidUtf8("\xe4\xb8")) << "cut short";
}

TEST(JsonIo, WrittenJsonIsValidUtf8AndReadsBack) {
  json::object value{{"program", "/tmp/app\xff"}, {"ok", "caf\xc3\xa9"}};
  value["key\xfe"] = 1;
  std::string text = writeJson(value);
  EXPECT_TRUE(isValidUtf8(text));
  std::string error;
  std::unique_ptr<json::object> back = parseJsonObject(text, "f", &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->at("program"), "/tmp/app\\xff");
  EXPECT_EQ(back->at("ok"), "caf\xc3\xa9");
  EXPECT_TRUE(back->contains("key\\xfe"));
}

TEST(JsonIo, IntegersMustBeExactAndInRange) {
  json::object in = parsed(
      R"({"a": 7, "b": 1.5, "c": 1e300, "d": 9223372036854775808, "e": -1,
          "f": 3.0, "g": "7", "h": null, "i": 4294967301,
          "j": 9007199254740993.0})");
  struct Case {
    const char *name;
    int64_t min, max;
    bool ok;
    int64_t value;
  } cases[] = {{"a", 0, 10, true, 7},         {"b", 0, 10, false, 0},
               {"c", 0, INT64_MAX, false, 0}, {"d", 0, INT64_MAX, false, 0},
               {"e", 0, 10, false, 0},        {"f", 0, 10, true, 3},
               {"g", 0, 10, false, 0},        {"i", 0, UINT32_MAX, false, 0},
               {"j", 0, INT64_MAX, false, 0}, {"absent", 0, 10, true, 42}};
  for (const Case &c : cases) {
    JsonFields fields(in, "r.json");
    EXPECT_EQ(fields.integer(c.name, c.min, c.max, c.ok ? 42 : 0),
              c.ok && std::string(c.name) != "absent" ? c.value
                                                      : (c.ok ? 42 : 0))
        << c.name;
    EXPECT_EQ(fields.ok(), c.ok) << c.name << ": " << fields.error();
  }
  JsonFields nullable(in, "r.json");
  EXPECT_EQ(nullable.integer("h", 0, 10, -1, /*nullable=*/true), -1);
  EXPECT_TRUE(nullable.ok());
}

TEST(JsonIo, TheFirstProblemNamesTheFileAndTheField) {
  json::object in = parsed(R"({"leaks": [{"size": 1.5, "line": -1}]})");
  JsonFields root(in, "r.json");
  const json::array *leaks = root.array("leaks");
  ASSERT_NE(leaks, nullptr);
  JsonFields leak = root.nested((*leaks)[0].as_object(), "leaks", 0);
  leak.count("size");
  leak.integer("line", 0, 10, 0);
  EXPECT_FALSE(root.ok()) << "nested readers share the error";
  EXPECT_EQ(root.error(), "r.json: leaks[0].size: 1.5 is not a whole number "
                          "from 0 to 9007199254740992");
  EXPECT_EQ(leak.string("anything"), "") << "later reads give the default";
}

TEST(JsonIo, TypesAreChecked) {
  json::object in = parsed(R"({"s": 1, "b": "yes", "o": [], "a": {}})");
  for (int field = 0; field < 4; ++field) {
    JsonFields fields(in, "f");
    if (field == 0)
      fields.string("s");
    else if (field == 1)
      fields.boolean("b", false);
    else if (field == 2)
      fields.object("o");
    else
      fields.array("a");
    EXPECT_FALSE(fields.ok()) << field;
  }
  std::string error;
  EXPECT_FALSE(parseJsonObject("[1]", "f", &error));
  EXPECT_EQ(error, "f: not a JSON object");
  EXPECT_FALSE(parseJsonObject("{\"a\": \"\xff\"}", "f", &error))
      << "not UTF-8: refused";
}
