//===- SerialClockTest.cpp - event serials and their times ----------------===//
#include "serial_clock.h"

#include <gtest/gtest.h>

#include <vector>

using namespace msledger;

// The clock never hands out a serial whose low 40 bits are all ones (a
// record table's mark for a record whose serial it keeps aside), and goes
// on past 2^40 without wrapping.
TEST(SerialClock, PassesTwoToTheFortyWithoutItsMark) {
  SerialClock clock;
  const uint64_t limit = 1ULL << 40;
  clock.startAt(limit - 3000);
  uint64_t last = 0;
  for (int i = 0; i < 6000; ++i) {
    uint64_t serial = clock.serialAtLeast(0);
    EXPECT_GT(serial, last);
    EXPECT_NE(serial & SerialClock::kMarkBits, SerialClock::kMarkBits);
    last = serial;
  }
  EXPECT_GT(last, limit);
}

// A week of 10 ms epochs keeps a bounded number of time marks: the older
// ones thinned, the times of serials still in order.
TEST(SerialClock, KeepsBoundedTimeMarksOverManyEpochs) {
  SerialClock clock;
  std::vector<uint64_t> serials;
  for (int epoch = 0; epoch < 200000; ++epoch) {
    clock.tickForTests();
    serials.push_back(clock.serialAtLeast(0));
  }
  EXPECT_LE(clock.timeMarks(), size_t(1) << 16);
  uint64_t last = 0;
  for (uint64_t serial : serials) {
    uint64_t time = clock.timeOfSerial(serial);
    EXPECT_GE(time, last);
    last = time;
  }
}
