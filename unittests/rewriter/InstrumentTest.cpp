//===- InstrumentTest.cpp - the text edits of msrewrite -------------------===//
#include "instrument.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace msledger;

namespace {

CallSite site(const std::string &text, const std::string &callee,
              size_t occurrence = 0) {
  size_t at = text.find(callee + "(");
  for (size_t i = 0; i < occurrence; ++i)
    at = text.find(callee + "(", at + 1);
  CallSite s;
  s.callee = callee;
  s.nameOffset = static_cast<unsigned>(at);
  s.parenOffset = static_cast<unsigned>(at + callee.size());
  s.hasArguments = text[at + callee.size() + 1] != ')';
  s.line = 1;
  s.column = static_cast<unsigned>(at + 1);
  return s;
}

/// The original's lines keep their numbers (one trailer follows) and
/// --revert gives back its bytes.
void expectNoLineMovesAndExactRevert(const std::string &original,
                                     const std::string &rewritten) {
  EXPECT_EQ(std::count(rewritten.begin(), rewritten.end(), '\n'),
            std::count(original.begin(), original.end(), '\n') + 1);
  bool exact = false;
  std::optional<std::string> back = revert(rewritten, &exact);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, original);
  EXPECT_TRUE(exact);
}

} // namespace

TEST(Instrument, RewritesCallsAndRevertsExactly) {
  std::string original = "int f(void **p) {\n  aclrtMalloc(p, 8, 0); "
                         "aclFinalize();\n  return 0;\n}\n";
  std::vector<CallSite> sites = {site(original, "aclFinalize"),
                                 site(original, "aclrtMalloc")};
  assignSerials("src/f.c", sites);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].callee, "aclrtMalloc") << "sorted by offset";
  EXPECT_NE(sites[1].serial, sites[0].serial);
  std::string rewritten = instrument(original, "src/f.c", sites);
  EXPECT_TRUE(isInstrumented(rewritten));
  EXPECT_FALSE(isInstrumented(original));
  EXPECT_NE(
      rewritten.find("  msledger_aclrtMalloc(MSLEDGER_SITE(\"src/f.c\", 1, "),
      std::string::npos)
      << rewritten;
  EXPECT_NE(
      rewritten.find(
          "\"aclrtMalloc\", 0), p, 8, 0); msledger_aclFinalize(MSLEDGER_SITE("),
      std::string::npos);
  EXPECT_NE(rewritten.find("\"aclFinalize\", 0));"), std::string::npos)
      << "no comma without arguments";
  // No line moves: the original's lines keep their numbers, one trailer
  // follows.
  EXPECT_EQ(rewritten.compare(0, 18, "int f(void **p) {\n"), 0);
  expectNoLineMovesAndExactRevert(original, rewritten);
}

TEST(Instrument, DuplicateSitesCollapse) {
  std::string original = "void g() { aclrtFree(0); }\n";
  std::vector<CallSite> sites = {site(original, "aclrtFree"),
                                 site(original, "aclrtFree")};
  assignSerials("g.cpp", sites);
  EXPECT_EQ(sites.size(), 1u)
      << "one call seen through two instantiations is one site";
}

TEST(Instrument, SerialsDependOnThePathOnly) {
  std::string original = "void g() { aclrtFree(0); }\n";
  std::vector<CallSite> a = {site(original, "aclrtFree")}, b = a, c = a;
  assignSerials("x/g.cpp", a);
  assignSerials("x/g.cpp", b);
  assignSerials("y/g.cpp", c);
  EXPECT_EQ(a[0].serial, b[0].serial);
  EXPECT_NE(a[0].serial, c[0].serial);
}

namespace {

/// The serials of `callees` called (once each, in that order) in
/// `function` of file.cpp, after `lines` lines of something else.
std::vector<uint64_t> serialsOf(const std::vector<std::string> &callees,
                                const std::string &function,
                                unsigned lines = 0) {
  std::string text(lines, '\n');
  text += "void " + function + "() {";
  for (const std::string &callee : callees)
    text += " " + callee + "(0);";
  text += " }\n";
  std::vector<CallSite> sites;
  for (size_t i = 0; i < callees.size(); ++i) {
    size_t occurrence = 0;
    for (size_t j = 0; j < i; ++j)
      occurrence += callees[j] == callees[i];
    sites.push_back(site(text, callees[i], occurrence));
    sites.back().function = function;
    sites.back().scope = function + " void (void)";
  }
  assignSerials("src/file.cpp", sites);
  std::vector<uint64_t> serials;
  for (const CallSite &s : sites)
    serials.push_back(s.serial);
  return serials;
}

} // namespace

// A serial names the call by what a person would -- file, function, API,
// and its ordinal among the function's calls of that API -- not by where it
// is: lines added before it, or calls of other APIs, leave it; an equal call
// added before it in its function moves it.
TEST(Instrument, SerialsNameTheCallNotItsPlace) {
  std::vector<uint64_t> before = serialsOf({"aclrtMalloc", "aclrtFree"}, "f");
  EXPECT_EQ(serialsOf({"aclrtMalloc", "aclrtFree"}, "f", 10), before)
      << "lines added above";
  std::vector<uint64_t> other =
      serialsOf({"aclrtMallocHost", "aclrtMalloc", "aclrtFree"}, "f");
  EXPECT_EQ(other[1], before[0]) << "a call of another API added before";
  EXPECT_EQ(other[2], before[1]);
  std::vector<uint64_t> equal =
      serialsOf({"aclrtMalloc", "aclrtMalloc", "aclrtFree"}, "f");
  EXPECT_EQ(equal[0], before[0]) << "the first aclrtMalloc is still first";
  EXPECT_NE(equal[1], before[0]) << "the second is another call";
  EXPECT_EQ(equal[2], before[1]);
  EXPECT_NE(serialsOf({"aclrtMalloc", "aclrtFree"}, "g")[0], before[0])
      << "another function";
  for (uint64_t serial : equal)
    EXPECT_NE(serial, 0u);
}

TEST(Instrument, ParenthesisedCalleesAndCommentsSurviveTheRoundTrip) {
  std::string original =
      "void h(void *p) { (aclrtFree)(p); aclrtFree /* why */ (p); }\n";
  CallSite first = site(original, "aclrtFree");
  first.nameOffset = static_cast<unsigned>(original.find("aclrtFree"));
  first.parenOffset = static_cast<unsigned>(original.find(")(p)") + 1);
  first.hasArguments = true;
  CallSite second;
  second.callee = "aclrtFree";
  second.nameOffset = static_cast<unsigned>(original.find("aclrtFree /*"));
  second.parenOffset = static_cast<unsigned>(original.find("(p); }"));
  second.hasArguments = true;
  std::vector<CallSite> sites = {first, second};
  assignSerials("h.c", sites);
  std::string rewritten = instrument(original, "h.c", sites);
  EXPECT_NE(rewritten.find("(msledger_aclrtFree)(MSLEDGER_SITE("),
            std::string::npos);
  bool exact = false;
  EXPECT_EQ(*revert(rewritten, &exact), original);
  EXPECT_TRUE(exact);
}

TEST(Instrument, EditsAfterRewritingAreKeptButFlagged) {
  std::string original = "void k() { aclFinalize(); }\n";
  std::vector<CallSite> sites = {site(original, "aclFinalize")};
  assignSerials("k.c", sites);
  std::string rewritten = instrument(original, "k.c", sites);
  rewritten.replace(rewritten.find("void k()"), 8, "void k2()");
  bool exact = true;
  std::optional<std::string> back = revert(rewritten, &exact);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, "void k2() { aclFinalize(); }\n");
  EXPECT_FALSE(exact);
  EXPECT_FALSE(revert(original, &exact))
      << "not instrumented: nothing to revert";
}

TEST(Instrument, SitesQuotePathsAndNameTheFunction) {
  std::string original = "void m() { aclFinalize(); }\n";
  std::vector<CallSite> sites = {site(original, "aclFinalize")};
  sites[0].function = "m";
  assignSerials("dir with \"quote\".c", sites);
  std::string rewritten = instrument(original, "dir with \"quote\".c", sites);
  EXPECT_NE(rewritten.find("MSLEDGER_SITE(\"dir with \\\"quote\\\".c\", 1, "),
            std::string::npos)
      << rewritten;
  EXPECT_NE(rewritten.find("\"aclFinalize\", \"m\"))"), std::string::npos);
}

TEST(Instrument, AFileWithoutAFinalNewlineRoundTrips) {
  std::string original = "void n() { aclFinalize(); }";
  std::vector<CallSite> sites = {site(original, "aclFinalize")};
  assignSerials("n.c", sites);
  std::string rewritten = instrument(original, "n.c", sites);
  EXPECT_TRUE(isInstrumented(rewritten));
  bool exact = false;
  EXPECT_EQ(*revert(rewritten, &exact), original);
  EXPECT_TRUE(exact);
}

TEST(Instrument, WrappersGoOnTheLineOfTheirDeclaration) {
  std::string original = "int a;\nvoid p() { poolFree(0); }\n";
  std::vector<CallSite> sites = {site(original, "poolFree")};
  assignSerials("p.c", sites);
  WrapperInsertions wrappers = {
      {7u, "static int msledger_poolFree(const msledger_site *s, void *p) {\n  "
           "return 0;\n}\n"}};
  std::string rewritten = instrument(original, "p.c", sites, wrappers);
  EXPECT_EQ(std::count(rewritten.begin(), rewritten.end(), '\n'), 3)
      << "two lines and the trailer";
  EXPECT_NE(rewritten.find("\n" + std::string(kWrapperBegin) +
                           "static int msledger_poolFree("),
            std::string::npos);
  bool exact = false;
  EXPECT_EQ(*revert(rewritten, &exact), original);
  EXPECT_TRUE(exact);
}

TEST(Instrument, TheLinearDiffEqualsTheGeneralOne) {
  std::string original;
  std::vector<size_t> calls;
  for (int i = 0; i < 40; ++i) {
    if (i % 7 == 3) {
      calls.push_back(original.size() + 2);
      original += "  aclFinalize();\n";
    } else {
      original += "  int x" + std::to_string(i) + " = 0;\n";
    }
  }
  std::vector<CallSite> sites;
  for (size_t at : calls) {
    CallSite s;
    s.callee = "aclFinalize";
    s.nameOffset = static_cast<unsigned>(at);
    s.parenOffset = static_cast<unsigned>(at + 11);
    sites.push_back(s);
  }
  assignSerials("d.c", sites);
  std::string rewritten = instrument(original, "d.c", sites);
  EXPECT_EQ(instrumentationDiff("d.c", original, rewritten),
            unifiedDiff("d.c", original, rewritten));
}

TEST(Instrument, UnifiedDiff) {
  std::string before = "a\nb\nc\nd\n", after = "a\nB\nc\nd\ne\n";
  EXPECT_EQ(unifiedDiff("f.txt", before, after),
            "--- f.txt\n+++ f.txt\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n d\n+e\n");
  EXPECT_EQ(unifiedDiff("f.txt", before, before), "--- f.txt\n+++ f.txt\n");
}

namespace {

/// A helper call of `callee`, wrapped whole up to `end` (just past its ')',
/// as clang's source locations give it).
CallSite frame(const std::string &text, const std::string &callee, size_t end) {
  CallSite s = site(text, callee);
  s.frame = true;
  s.endOffset = static_cast<unsigned>(end);
  return s;
}

} // namespace

TEST(Instrument, HelperCallsAreWrappedWholeAndRevertExactly) {
  // Nested helpers, a catalog call in a helper's arguments, parentheses in
  // literals and comments inside the wrapped call.
  std::string original =
      "void *g(void) {\n"
      "  return outer(inner(aclrtMalloc(p, 8, 0)), \")(\", ')' /* ) */);\n"
      "}\n";
  std::vector<CallSite> sites = {
      frame(original, "outer", original.find("*/)") + 3),
      frame(original, "inner", original.find("0))") + 3),
      site(original, "aclrtMalloc")};
  assignSerials("g.c", sites);
  std::string rewritten = instrument(original, "g.c", sites);
  EXPECT_NE(rewritten.find("return MSLEDGER_CHAIN(MSLEDGER_SITE(\"g.c\", 1, "),
            std::string::npos)
      << rewritten;
  EXPECT_NE(
      rewritten.find("\"outer\", 0), outer(MSLEDGER_CHAIN(MSLEDGER_SITE("),
      std::string::npos)
      << rewritten;
  EXPECT_NE(rewritten.find("\"inner\", 0), inner(msledger_aclrtMalloc("),
            std::string::npos)
      << rewritten;
  EXPECT_NE(rewritten.find("p, 8, 0))), \")(\", ')' /* ) */));\n"),
            std::string::npos)
      << "each chain closes after its call: " << rewritten;
  expectNoLineMovesAndExactRevert(original, rewritten);
}
