//===- JournalTest.cpp - the crash-safe journal, written and read back ----===//
#include "journal.h"

#include "catalog_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

using namespace msledger;

namespace {

std::string contentsOf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Where the prefault tests keep their journals: on tmpfs the blocks
/// reserved at open are memory already, and there is nothing to see.
bool onTmpfs(const std::string &dir) {
  struct statfs info;
  return statfs(dir.c_str(), &info) == 0 && info.f_type == 0x01021994;
}

/// Opens a journal of `bytes` in /tmp and unlinks it (the mapping keeps
/// it), for tests that look at memory rather than the file.
void openUnlinked(Journal &journal, const char *name, uint64_t bytes) {
  std::string path = "/tmp/msledger-journal-" + std::string(name) + "-" +
                     std::to_string(getpid()) + ".journal";
  std::string error;
  ASSERT_TRUE(journal.open(path, bytes, 1, kJournalCannLevel, &error)) << error;
  unlink(path.c_str());
}

/// The bytes of a journal (in /tmp, removed) that holds one release, serial
/// 9.
std::string oneReleaseJournal(const char *name) {
  std::string path = "/tmp/msledger-journal-" + std::string(name) + "-" +
                     std::to_string(getpid()) + ".journal";
  Journal journal;
  std::string error;
  EXPECT_TRUE(journal.open(path, 1 << 20, 1, kJournalCannLevel, &error))
      << error;
  journal.release(0, 0x1000, 9, apiIndex("aclrtFree"), 0, false);
  std::string bytes = contentsOf(path);
  unlink(path.c_str());
  return bytes;
}

} // namespace

TEST(Journal, EventsSitesAndChainsReadBackInSerialOrder) {
  std::string path =
      "/tmp/msledger-journal-test-" + std::to_string(getpid()) + ".journal";
  Journal journal;
  std::string error;
  ASSERT_TRUE(journal.open(path, 1 << 20, 1234, kJournalCannLevel, &error))
      << error;
  static const msledger_site site = {"src/a.cpp",   12,    3, 7,
                                     "aclrtMalloc", "load"};
  journal.site(5, &site);
  uint32_t callers[2] = {6, 7};
  journal.chain(70000, 5, callers, 2);
  Record record;
  record.key = 0x124080024000;
  record.size = 4096;
  record.serial = 2;
  record.site = 70000;
  record.api = static_cast<uint16_t>(apiIndex("aclrtMalloc"));
  record.space = 1;
  journal.acquire(1, record);
  journal.release(1, 0x124080024000, 1, apiIndex("aclrtFree"), 0, false);
  journal.exited();

  JournalContents contents;
  ASSERT_TRUE(readJournal(contentsOf(path), &contents, &error)) << error;
  EXPECT_EQ(contents.header.startUnixMs, 1234u);
  EXPECT_EQ(contents.header.exited, 1u);
  EXPECT_EQ(contents.skipped, 0u);
  EXPECT_FALSE(contents.truncated);
  ASSERT_EQ(contents.events.size(), 2u);
  EXPECT_EQ(contents.events[0].type, kJournalRelease) << "serial order";
  EXPECT_EQ(contents.events[1].type, kJournalAcquire);
  EXPECT_EQ(contents.events[1].size, 4096u);
  EXPECT_EQ(contents.events[1].space, 1u);
  EXPECT_EQ(contents.events[1].level, 1);
  EXPECT_EQ(contents.events[1].api, record.api);
  ASSERT_EQ(contents.sites.count(5), 1u);
  EXPECT_EQ(contents.sites[5].file, "src/a.cpp");
  EXPECT_EQ(contents.sites[5].callee, "aclrtMalloc");
  EXPECT_EQ(contents.sites[5].function, "load");
  EXPECT_EQ(contents.sites[5].line, 12u);
  EXPECT_EQ(contents.sites[5].siteSerial, 7u)
      << "the site serial: fingerprints of a journal are a live run's";
  EXPECT_EQ(contents.chains[70000], (std::vector<uint32_t>{5, 6, 7}));

  // Cut in the middle of the first block: what is left reads back, marked.
  std::string bytes = contentsOf(path).substr(0, kJournalDataOffset + 32 * 3);
  ASSERT_TRUE(readJournal(bytes, &contents, &error)) << error;
  EXPECT_TRUE(contents.truncated);
  EXPECT_EQ(contents.sites.size(), 1u);
  // Cut inside the header's page: no unit is left to say what happened, and
  // "nothing was live" would be a guess.
  EXPECT_FALSE(readJournal(contentsOf(path).substr(0, 100), &contents, &error));
  EXPECT_FALSE(readJournal("MSLJRNL", &contents, &error));
  EXPECT_EQ(error, "not an msledger journal");
  unlink(path.c_str());
}

TEST(Journal, ReadsVersionOneWithUnitsRightAfterTheHeader) {
  std::string bytes = oneReleaseJournal("v1");
  ASSERT_GT(bytes.size(), kJournalDataOffset);
  std::string error;
  // The same journal as version 1 wrote it.
  JournalHeader header;
  memcpy(&header, bytes.data(), sizeof header);
  header.version = 1;
  header.dataOffset = 0;
  std::string v1(reinterpret_cast<const char *>(&header),
                 kJournalHeaderV3Bytes);
  // Its blocks had no block unit.
  v1 += bytes.substr(kJournalDataOffset + sizeof(JournalUnit));
  v1.append(sizeof(JournalUnit), '\0'); // as many units as before
  JournalContents contents;
  ASSERT_TRUE(readJournal(v1, &contents, &error)) << error;
  ASSERT_EQ(contents.events.size(), 1u);
  EXPECT_EQ(contents.events[0].serial, 9u);
  EXPECT_FALSE(contents.truncated);

  header.version = 5;
  std::string v5(reinterpret_cast<const char *>(&header), sizeof header);
  EXPECT_FALSE(readJournal(v5, &contents, &error));
  EXPECT_EQ(error, "a journal of version 5; this msledger reads versions 1 "
                   "to 4");
}

TEST(Journal, ReadsVersionTwoWithoutSiteSerials) {
  std::string path =
      "/tmp/msledger-journal-v2-" + std::to_string(getpid()) + ".journal";
  std::string error;
  {
    Journal journal;
    ASSERT_TRUE(journal.open(path, 1 << 20, 0, 0, &error)) << error;
    static const msledger_site site = {"b.cpp",       4,      2, 0x1234,
                                       "aclrtMalloc", nullptr};
    journal.site(1, &site);
  }
  std::string bytes = contentsOf(path);
  unlink(path.c_str());
  JournalContents contents;
  ASSERT_TRUE(readJournal(bytes, &contents, &error)) << error;
  EXPECT_EQ(contents.sites[1].siteSerial, 0x1234u);
  // Version 2 wrote 0 where version 3 writes the site serial; the rest of
  // the record is the same. Its blocks had no block unit, its header was
  // shorter.
  JournalHeader header;
  memcpy(&header, bytes.data(), sizeof header);
  header.version = 2;
  memset(&bytes[0], 0, kJournalDataOffset);
  memcpy(&bytes[0], &header, kJournalHeaderV3Bytes);
  bytes.erase(kJournalDataOffset, sizeof(JournalUnit));
  JournalUnit unit;
  memcpy(&unit, bytes.data() + kJournalDataOffset, sizeof unit);
  ASSERT_EQ(unit.type, kJournalSite);
  unit.sizeApi = 0;
  memcpy(&bytes[kJournalDataOffset], &unit, sizeof unit);
  ASSERT_TRUE(readJournal(bytes, &contents, &error)) << error;
  EXPECT_EQ(contents.sites[1].file, "b.cpp");
  EXPECT_EQ(contents.sites[1].siteSerial, 0u);
}

TEST(Journal, AFailedOpenLeavesNoFileBehind) {
  // A file size limit makes sizing the journal fail (EFBIG, with SIGXFSZ
  // ignored), as a full quota would.
  std::string path =
      "/tmp/msledger-journal-limit-" + std::to_string(getpid()) + ".journal";
  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = 1 << 16;
  void (*previous)(int) = signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  Journal journal;
  std::string error;
  bool opened = journal.open(path, 1 << 20, 1, kJournalCannLevel, &error);
  setrlimit(RLIMIT_FSIZE, &saved);
  signal(SIGXFSZ, previous);
  EXPECT_FALSE(opened);
  EXPECT_EQ(error.rfind("cannot size the journal " + path + ": ", 0), 0u)
      << error;
  EXPECT_NE(access(path.c_str(), F_OK), 0) << path << " was left behind";
  unlink(path.c_str());
}

TEST(Journal, AHeaderThatDoesNotFitTheFileIsRefused) {
  std::string bytes = oneReleaseJournal("header");
  ASSERT_GT(bytes.size(), kJournalDataOffset);
  std::string error;
  JournalHeader header;
  memcpy(&header, bytes.data(), sizeof header);
  auto withHeader = [&](const JournalHeader &changed) {
    std::string copy = bytes;
    memcpy(&copy[0], &changed, sizeof changed);
    return copy;
  };
  JournalContents contents;
  JournalHeader past = header;
  past.dataOffset = static_cast<uint32_t>(bytes.size() + 4096);
  EXPECT_FALSE(readJournal(withHeader(past), &contents, &error));
  EXPECT_EQ(error.rfind("a corrupt or truncated journal: its units start at "
                        "offset ",
                        0),
            0u)
      << error;
  for (uint64_t capacity : {uint64_t(0), kMaxJournalUnits + 1}) {
    JournalHeader room = header;
    room.capacityUnits = capacity;
    EXPECT_FALSE(readJournal(withHeader(room), &contents, &error));
    EXPECT_EQ(error, "a corrupt journal header (room for " +
                         std::to_string(capacity) + " units)");
  }
  // Cut short after its units began: truncated, read as far as it goes.
  std::string cut = bytes.substr(0, kJournalDataOffset + 4096);
  ASSERT_TRUE(readJournal(cut, &contents, &error)) << error;
  EXPECT_TRUE(contents.truncated);
  EXPECT_EQ(contents.events.size(), 1u);
}

// The bug this catches: madvise(MADV_POPULATE_WRITE) refused the units'
// unaligned start, so nothing was faulted in ahead and every event that
// began a page paid for the fault. The same holds where pages are touched
// instead (kernels without MADV_POPULATE_WRITE).
TEST(Journal, PrefaultPutsTheChunksAheadInMemory) {
  if (onTmpfs("/tmp"))
    GTEST_SKIP() << "/tmp is tmpfs";
  for (bool byTouch : {false, true}) {
    SCOPED_TRACE(byTouch ? "touching pages" : "MADV_POPULATE_WRITE");
    Journal journal;
    if (byTouch)
      journal.populateByTouch();
    openUnlinked(journal, "prefault", 256 << 20);
    if (HasFatalFailure())
      return;
    // open() prefaults the chunks ahead; nothing has been written to them
    // but the header. (The kernel may fault in more than a page for the
    // header's write -- a large folio, 8 MiB on ext4 here -- so the check is
    // over all the chunks ahead.)
    constexpr uint64_t kAhead =
        Journal::kAheadChunks * Journal::kChunkBlocks * kBlockUnits * 32;
    EXPECT_EQ(journal.residentBytes(kAhead), kAhead);
    EXPECT_LT(journal.residentBytes(256 << 20), 256u << 20)
        << "prefault runs ahead, not over the whole file";
  }
}

namespace {
std::atomic<int> ChunksStarted{0};
void countChunk() { ++ChunksStarted; }
} // namespace

TEST(Journal, WritersAskForPrefaultAtEachChunkAndItRunsAhead) {
  if (onTmpfs("/tmp"))
    GTEST_SKIP() << "/tmp is tmpfs";
  Journal journal;
  openUnlinked(journal, "hook", 256 << 20);
  if (HasFatalFailure())
    return;
  journal.setChunkHook(countChunk);
  constexpr uint64_t kChunkUnits = Journal::kChunkBlocks * kBlockUnits;
  constexpr uint64_t kChunkBytes = kChunkUnits * 32;
  constexpr uint64_t kAhead = Journal::kAheadChunks * kChunkBytes;
  // 24 chunks' worth of events (more than open() faulted in ahead): the
  // hook runs at the first block of each.
  constexpr uint64_t kWritten = 24;
  for (uint64_t i = 0; i < kWritten * Journal::kChunkBlocks * (kBlockUnits - 1);
       ++i) // each block's first unit is its block unit
    journal.release(0, 0x1000 + i, i, apiIndex("aclrtFree"), 0, false);
  EXPECT_EQ(ChunksStarted.load(), static_cast<int>(kWritten));
  const uint64_t wanted = kWritten * kChunkBytes + kAhead;
  journal.prefault(); // what the monitor does when woken
  EXPECT_EQ(journal.residentBytes(wanted), wanted);
  // Ahead, not over the whole file. (Reserving a step of the file may bring
  // its pages in too, so what was resident before prefault() says nothing.)
  EXPECT_LT(journal.residentBytes(256 << 20), 256u << 20);
}

namespace {

/// `contents` as a comparable text: events, sites and chains.
std::string described(const JournalContents &contents) {
  std::ostringstream out;
  for (const JournalContents::Event &e : contents.events)
    out << int(e.type) << ' ' << e.level << ' ' << e.api << ' ' << e.site << ' '
        << e.serial << ' ' << e.key << ' ' << e.size << '\n';
  for (const auto &[id, site] : contents.sites)
    out << "site " << id << ' ' << site.file << ':' << site.line << '\n';
  for (const auto &[id, chain] : contents.chains)
    out << "chain " << id << ' ' << chain.size() << '\n';
  out << "skipped " << contents.skipped << " truncated " << contents.truncated
      << " exited " << contents.header.exited;
  return out.str();
}

/// The data (not hole) bytes of the file at `path`.
uint64_t allocatedBytes(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? uint64_t(st.st_blocks) * 512 : 0;
}

} // namespace

// Reading a journal from its file reads what it holds, not what it could
// hold: the blocks no writer took are holes, skipped. It reads back what
// the bytes read whole give, from a journal declared 64 MiB, from one
// whose records lie far apart (a block of its own written past holes),
// and from one cut short; a path that is no journal says why.
TEST(Journal, AFileReadsWhatItHoldsAsItsBytesDo) {
  std::string path =
      "/tmp/msledger-journal-file-" + std::to_string(getpid()) + ".journal";
  Journal journal;
  std::string error;
  ASSERT_TRUE(journal.open(path, 64 << 20, 1, kJournalCannLevel, &error))
      << error;
  static const msledger_site site = {"svc.cpp",     40,     3, 9,
                                     "aclrtMalloc", "serve"};
  journal.site(3, &site);
  for (uint64_t i = 0; i < 1000; ++i) {
    Record record;
    record.key = 0x124080000000 + i * 0x1000;
    record.size = 64;
    record.serial = 2 * i;
    record.site = 3;
    record.api = static_cast<uint16_t>(apiIndex("aclrtMalloc"));
    journal.acquire(1, record);
    if (i % 3)
      journal.release(1, record.key, 2 * i + 1, apiIndex("aclrtFree"), 3,
                      false);
  }
  journal.exited();
  JournalContents fromFile, fromBytes;
  ASSERT_TRUE(readJournalFile(path, &fromFile, &error)) << error;
  ASSERT_TRUE(readJournal(contentsOf(path), &fromBytes, &error)) << error;
  EXPECT_EQ(fromFile.events.size(), 1000u + 666u);
  EXPECT_EQ(described(fromFile), described(fromBytes));
  EXPECT_LT(allocatedBytes(path), 16u << 20)
      << "the test needs a sparse journal to mean anything";

  // A record far past the others, with holes between: the site's, a
  // committed record of its own, copied 40 MiB on.
  std::string far = contentsOf(path);
  uint64_t dataOffset = fromBytes.header.dataOffset;
  uint64_t farOffset = dataOffset + (40ULL << 20);
  std::string farPath = path + ".far";
  {
    std::ofstream out(farPath, std::ios::binary);
    out.write(far.data(), static_cast<std::streamsize>(dataOffset + 32 * 4));
    out.seekp(static_cast<std::streamoff>(farOffset));
    out.write(far.data() + dataOffset, 32 * 4);
  }
  ASSERT_EQ(truncate(farPath.c_str(), static_cast<off_t>(far.size())), 0);
  ASSERT_TRUE(readJournalFile(farPath, &fromFile, &error)) << error;
  ASSERT_TRUE(readJournal(contentsOf(farPath), &fromBytes, &error)) << error;
  EXPECT_EQ(described(fromFile), described(fromBytes));

  // Cut short, inside a block.
  ASSERT_EQ(truncate(farPath.c_str(), static_cast<off_t>(dataOffset + 32 * 3)),
            0);
  ASSERT_TRUE(readJournalFile(farPath, &fromFile, &error)) << error;
  ASSERT_TRUE(readJournal(contentsOf(farPath), &fromBytes, &error)) << error;
  EXPECT_TRUE(fromFile.truncated);
  EXPECT_EQ(described(fromFile), described(fromBytes));

  EXPECT_FALSE(readJournalFile(path + ".none", &fromFile, &error));
  EXPECT_EQ(error, "cannot read " + path + ".none: No such file or directory");
  EXPECT_FALSE(readJournalFile("/tmp", &fromFile, &error));
  EXPECT_EQ(error, "cannot read /tmp: Is a directory");
  ASSERT_EQ(truncate(farPath.c_str(), 7), 0);
  EXPECT_FALSE(readJournalFile(farPath, &fromFile, &error));
  EXPECT_EQ(error, "not an msledger journal");
  unlink(farPath.c_str());
  unlink(path.c_str());
}
