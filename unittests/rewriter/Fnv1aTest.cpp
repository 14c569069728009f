//===- Fnv1aTest.cpp - the one 64-bit FNV-1a hash -------------------------===//
#include "fnv1a.h"

#include <gtest/gtest.h>

#include <string>

using namespace msledger;

namespace {

// The published FNV-1a 64 test vectors (Fowler, Noll and Vo's test suite).
static_assert(fnv1a64("") == 0xcbf29ce484222325ULL, "the offset basis");
static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cULL, "one byte");
static_assert(fnv1a64("foobar") == 0x85944171f73967e8ULL, "six bytes");

TEST(Fnv1a, KnownVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64(""), kFnv1a64Basis);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(fnv1a64(std::string("foobar")), 0x85944171f73967e8ULL);
}

TEST(Fnv1a, HashesBytesNotCharacters) {
  // Bytes above 0x7f are folded in unsigned, whatever char's signedness;
  // an embedded NUL is a byte like any other.
  EXPECT_EQ(fnv1a64("\xff"), (kFnv1a64Basis ^ 0xffULL) * 0x100000001b3ULL);
  EXPECT_NE(fnv1a64(std::string("a\0b", 3)), fnv1a64("ab"));
}

TEST(Fnv1a, ARunningHashContinuesWhereItStopped) {
  EXPECT_EQ(fnv1a64("bar", fnv1a64("foo")), fnv1a64("foobar"));
  EXPECT_EQ(fnv1a64("", 42), 42u);
}

} // namespace
