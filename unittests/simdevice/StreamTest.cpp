//===- StreamTest.cpp - ordered work queues and events --------------------===//
#include "stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace mssim;

TEST(Stream, RunsTasksInOrder) {
  Stream stream;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i)
    stream.enqueue([&order, i] {
      order.push_back(i);
      return 0;
    });
  EXPECT_EQ(stream.synchronize(), 0);
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(order[i], i);
}

TEST(Stream, SynchronizeWaitsForSlowWork) {
  Stream stream;
  std::atomic<bool> done{false};
  stream.enqueue([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    done = true;
    return 0;
  });
  EXPECT_EQ(stream.synchronize(), 0);
  EXPECT_TRUE(done);
  EXPECT_TRUE(stream.idle());
}

TEST(Stream, ReportsTheFirstErrorOnceAndKeepsRunning) {
  Stream stream;
  int ran = 0;
  stream.enqueue([&] { return ++ran, 507011; });
  stream.enqueue([&] { return ++ran, 123; });
  stream.enqueue([&] { return ++ran, 0; });
  EXPECT_EQ(stream.synchronize(), 507011);
  EXPECT_EQ(ran, 3);
  EXPECT_EQ(stream.synchronize(), 0) << "the error is cleared once reported";
}

TEST(Stream, DestructorDrainsTheQueue) {
  std::atomic<int> ran{0};
  {
    Stream stream;
    for (int i = 0; i < 10; ++i)
      stream.enqueue([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return ++ran, 0;
      });
  }
  EXPECT_EQ(ran, 10);
}

TEST(Stream, ACaptureRecordsTasksInsteadOfRunningThem) {
  Stream stream;
  std::vector<int> order;
  EXPECT_FALSE(stream.capturing());
  ASSERT_TRUE(stream.beginCapture());
  EXPECT_FALSE(stream.beginCapture()) << "one capture at a time";
  EXPECT_TRUE(stream.capturing());
  for (int i = 0; i < 3; ++i)
    stream.enqueue([&order, i] {
      order.push_back(i);
      return 0;
    });
  EXPECT_EQ(stream.synchronize(), 0);
  EXPECT_TRUE(order.empty()) << "recorded, not run";
  std::vector<Stream::Task> tasks;
  ASSERT_TRUE(stream.endCapture(&tasks));
  EXPECT_FALSE(stream.endCapture(&tasks)) << "no capture is on";
  ASSERT_EQ(tasks.size(), 3u);
  // Replayed twice, in order; the stream runs again what it is given.
  for (int round = 0; round < 2; ++round)
    for (const Stream::Task &task : tasks)
      stream.enqueue(task);
  EXPECT_EQ(stream.synchronize(), 0);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(Event, CompletesWhenTheStreamReachesTheRecord) {
  Stream stream;
  auto event = std::make_shared<Event>();
  EXPECT_TRUE(event->isComplete()) << "never recorded reads as complete";
  std::atomic<bool> release{false};
  stream.enqueue([&] {
    while (!release)
      std::this_thread::yield();
    return 0;
  });
  uint64_t generation = event->beginRecord();
  stream.enqueue(
      [event, generation] { return event->complete(generation), 0; });
  EXPECT_FALSE(event->isComplete());
  Event::Clock::time_point when;
  EXPECT_FALSE(event->timestamp(&when));
  release = true;
  event->waitFor(event->latest());
  EXPECT_TRUE(event->isComplete());
  EXPECT_TRUE(event->timestamp(&when));
}

TEST(Event, AnotherStreamWaitsForTheRecord) {
  Stream producer, consumer;
  auto event = std::make_shared<Event>();
  std::atomic<int> value{0};
  producer.enqueue([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    value = 1;
    return 0;
  });
  uint64_t generation = event->beginRecord();
  producer.enqueue(
      [event, generation] { return event->complete(generation), 0; });
  int seen = -1;
  consumer.enqueue(
      [event, generation] { return event->waitFor(generation), 0; });
  consumer.enqueue([&] { return seen = value, 0; });
  consumer.synchronize();
  EXPECT_EQ(seen, 1);
}

TEST(Event, ResetMakesItCompleteWithoutTimestamp) {
  Event event;
  event.beginRecord();
  EXPECT_FALSE(event.isComplete());
  event.reset();
  EXPECT_TRUE(event.isComplete());
  Event::Clock::time_point when;
  EXPECT_FALSE(event.timestamp(&when));
}
