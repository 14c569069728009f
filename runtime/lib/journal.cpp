//===- journal.cpp - A crash-safe journal of the ledger's events ----------===//
#include "journal.h"

#include "output.h"
#include "text_file.h"

#include "catalog_table.h"
#include "fnv1a.h"
#include "serial_clock.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <pthread.h>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace msledger {

namespace {

// Each thread's block being filled; a generation tells blocks of an earlier
// open (or of the parent, after fork) from this one's.
struct Cursor {
  JournalUnit *next = nullptr;
  JournalUnit *end = nullptr;
  uint64_t generation = 0;
  uint64_t block = UINT64_MAX; // the ring's block held, if any
  // While the thread writes a checkpoint: its number, and what it wrote.
  uint64_t checkpoint = 0;
  uint64_t checkpointBlocks = 0;
  uint64_t checkpointRecords = 0;
  bool checkpointFailed = false;
  bool exitHooked = false; // threadExits() will let its block go
};
__attribute__((tls_model("initial-exec"))) thread_local Cursor ThreadCursor;

// The journals open in the process, by generation, for a thread that exits
// holding a block of one (Journal::threadExits). Lock-free: a thread may
// exit while another forks.
struct OpenJournal {
  std::atomic<uint64_t> generation{0};
  std::atomic<Journal *> journal{nullptr};
};
OpenJournal OpenJournals[8];
pthread_key_t ExitKey;
pthread_once_t ExitKeyOnce = PTHREAD_ONCE_INIT;

uintptr_t pageSize() {
  static const uintptr_t size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

/// The start of the page `address` is in.
uintptr_t pageStart(const void *address) {
  return reinterpret_cast<uintptr_t>(address) & ~(pageSize() - 1);
}

} // namespace

uint64_t journalCatalogHash() {
  uint64_t hash = kFnv1a64Basis;
  for (size_t i = 0; i < kApiCount; ++i)
    hash = fnv1a64(Apis[i].name, hash) * 31;
  return hash;
}

/// Forgets `journal` among the open ones.
static void unregisterJournal(Journal *journal) {
  for (OpenJournal &open : OpenJournals)
    if (open.journal.load() == journal) {
      open.generation.store(0);
      open.journal.store(nullptr);
    }
}

Journal::~Journal() {
  unregisterJournal(this);
  if (Header)
    munmap(Header, MappedBytes);
  if (Fd >= 0)
    close(Fd);
}

void Journal::detach() {
  unregisterJournal(this);
  Ready.store(false, std::memory_order_release);
  if (Header)
    munmap(Header, MappedBytes);
  if (Fd >= 0)
    close(Fd);
  Header = nullptr;
  Units = nullptr;
  Fd = -1;
  Path.clear();
  // A thread of the parent may have held it at the fork: the child's copy
  // would stay locked.
  new (&ReserveMutex) std::mutex;
  new (&PrefaultMutex) std::mutex;
}

bool Journal::reserveThrough(uint64_t blocks, bool writer) {
  if (blocks <= Reserved.load(std::memory_order_acquire))
    return true;
  std::lock_guard<std::mutex> lock(ReserveMutex);
  uint64_t reserved = Reserved.load(std::memory_order_relaxed);
  if (blocks <= reserved)
    return true;
  if (Full.load(std::memory_order_relaxed))
    return false;
  constexpr uint64_t kBlockBytes = kBlockUnits * sizeof(JournalUnit);
  // Whole chunks, which prefault() touches a chunk at a time.
  auto chunks = [&](uint64_t through) {
    return std::min(Blocks,
                    (through + kChunkBlocks - 1) / kChunkBlocks * kChunkBlocks);
  };
  auto reserve = [&](uint64_t through) {
    return posix_fallocate(
        Fd, static_cast<off_t>(kJournalDataOffset + reserved * kBlockBytes),
        static_cast<off_t>((through - reserved) * kBlockBytes));
  };
  // A step ahead; a writer short of room takes what it needs, if that fits.
  uint64_t through =
      chunks(std::max(blocks, reserved + kAheadChunks * kChunkBlocks));
  int failed = reserve(through);
  if (failed && writer) {
    through = chunks(blocks);
    failed = reserve(through);
  }
  if (failed) {
    if (!writer)
      return false; // the writers have room still; they will try themselves
    // Writers see Full and journal no more; the report says so.
    Full.store(true, std::memory_order_relaxed);
    __atomic_store_n(&Header->healedBy, kNeverHealed, __ATOMIC_RELAXED);
    __atomic_store_n(&Header->full, 1, __ATOMIC_RELAXED);
    char message[512];
    int length = snprintf(message, sizeof message,
                          "msledger: the journal %s has no more room on its "
                          "filesystem (%s); later events are not journaled\n",
                          Path.c_str(), strerror(failed));
    if (length > 0)
      (void)!::write(STDERR_FILENO, message,
                     std::min<size_t>(length, sizeof message - 1));
    return false;
  }
  Reserved.store(through, std::memory_order_release);
  return true;
}

/// Gives the journal being made (`fd`) the name `path`: links the unnamed
/// file there, or, where `path` exists (or the file has a name already,
/// `making`), renames a name of its own over it.
static bool nameJournal(int fd, bool unnamed, const std::string &making,
                        const std::string &path) {
  if (unnamed) {
    std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(),
               AT_SYMLINK_FOLLOW) == 0)
      return true;
    if (errno != EEXIST)
      return false;
    unlink(making.c_str()); // a stale one of this pid's, killed
    if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, making.c_str(),
               AT_SYMLINK_FOLLOW) != 0)
      return false;
  }
  if (rename(making.c_str(), path.c_str()) == 0)
    return true;
  int failed = errno;
  unlink(making.c_str());
  errno = failed;
  return false;
}

bool Journal::open(const std::string &path, uint64_t bytes,
                   uint64_t startUnixMs, uint32_t ledgerFlags,
                   std::string *error) {
  if (Header) {
    *error = "a journal is open already";
    return false;
  }
  constexpr uint64_t kBlockBytes = kBlockUnits * sizeof(JournalUnit);
  uint64_t blocks =
      (std::max<uint64_t>(bytes, 1 << 20) - kJournalDataOffset) / kBlockBytes;
  uint64_t size = kJournalDataOffset + blocks * kBlockBytes;
  // A journal is a file of its own: a device or a FIFO at the path is the
  // user's, never truncated or removed.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    *error = "the journal " + path + " is " + fileKind(st.st_mode) +
             ", not a regular file";
    return false;
  }
  // The journal of a process still running is its own: never replaced
  // under it (it has the file mapped).
  int existing = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (existing >= 0) {
    JournalHeader previous{};
    bool running =
        fstat(existing, &st) == 0 && S_ISREG(st.st_mode) &&
        pread(existing, &previous, sizeof previous, 0) ==
            static_cast<ssize_t>(sizeof previous) &&
        memcmp(previous.magic, "MSLJRNL1", 8) == 0 && !previous.exited &&
        previous.pid != static_cast<uint32_t>(getpid()) &&
        (kill(static_cast<pid_t>(previous.pid), 0) == 0 || errno == EPERM);
    close(existing);
    if (running) {
      *error = "the journal " + path + " is pid " +
               std::to_string(previous.pid) +
               "'s, still running: give each process its own (%p in the path)";
      return false;
    }
  }
  // The journal is made whole before it has PATH: an unnamed file in PATH's
  // folder (O_TMPFILE), linked in once its header is written -- so a kill at
  // any moment leaves no journal, the previous one, or one msledger report
  // reads, never a file of zeros. Where PATH exists it is replaced by a
  // rename from a name of its own beside it (PATH.making.PID), as on a
  // filesystem without O_TMPFILE, where that name holds the file as it is
  // made. Every failure removes what it made.
  std::string folder = path.substr(0, path.find_last_of('/') + 1);
  std::string making = path + ".making." + std::to_string(getpid());
  int fd = ::open(folder.empty() ? "." : folder.c_str(),
                  O_RDWR | O_TMPFILE | O_CLOEXEC, 0644);
  bool unnamed = fd >= 0;
  if (!unnamed)
    fd = ::open(making.c_str(),
                O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    *error = "cannot create the journal " + path + ": " + strerror(errno);
    return false;
  }
  void *memory = MAP_FAILED;
  auto failWith = [&](const std::string &message) {
    *error = message;
    if (memory != MAP_FAILED)
      munmap(memory, size);
    close(fd);
    if (!unnamed)
      unlink(making.c_str());
    return false;
  };
  if (ftruncate(fd, static_cast<off_t>(size)) != 0)
    return failWith("cannot size the journal " + path + ": " + strerror(errno));
  // The header and the first blocks are reserved now, the rest as the
  // journal fills (reserveThrough): a page of a sparse file the filesystem
  // has no room for would be a SIGBUS in the application's thread writing
  // it.
  uint64_t first = std::min(blocks, kAheadChunks * kChunkBlocks);
  uint64_t firstBytes = kJournalDataOffset + first * kBlockBytes;
  if (int failed = posix_fallocate(fd, 0, static_cast<off_t>(firstBytes)))
    return failWith("cannot reserve " + std::to_string(firstBytes >> 20) +
                    " MiB for the journal " + path + ": " + strerror(failed));
  memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED)
    return failWith("cannot map the journal " + path + ": " + strerror(errno));
  auto *header = static_cast<JournalHeader *>(memory);
  memcpy(header->magic, "MSLJRNL1", 8);
  header->version = kJournalVersion;
  header->unitSize = sizeof(JournalUnit);
  header->capacityUnits = blocks * kBlockUnits;
  header->startUnixMs = startUnixMs;
  header->pid = static_cast<uint32_t>(getpid());
  header->apiCount = static_cast<uint32_t>(kApiCount);
  header->catalogHash = journalCatalogHash();
  header->dataOffset = kJournalDataOffset;
  header->ledgerFlags = ledgerFlags;
  // Whole now (its pages are the file's, whatever happens to this process):
  // it takes PATH's place.
  if (!nameJournal(fd, unnamed, making, path))
    return failWith("cannot create the journal " + path + ": " +
                    strerror(errno));
  Fd = fd; // kept, to reserve more as the journal fills
  Path = path;
  Reserved.store(first);
  MappedBytes = size;
  Units = reinterpret_cast<JournalUnit *>(static_cast<char *>(memory) +
                                          kJournalDataOffset);
  Blocks = blocks;
  BlockStates.reset(new std::atomic<uint64_t>[blocks]);
  for (uint64_t block = 0; block < blocks; ++block)
    BlockStates[block].store(kFreshBlock, std::memory_order_relaxed);
  NextBlock.store(0);
  Full.store(false);
  Begun.store(0);
  Completed.store(0);
  FullUntil.store(0);
  BlocksAtCheckpoint.store(0);
  Limit.store(blocks - blocks / 4);
  Waiting.store(false);
  Overwhelmed.store(false);
  CheckpointsAbandoned = false;
  // Often enough that the monitor hears of each quarter of a small ring.
  HookBlocks = std::max<uint64_t>(1, std::min(kChunkBlocks, blocks / 8));
  // Unique across journals, so no thread's cursor outlives the one it is for.
  static std::atomic<uint64_t> lastGeneration{0};
  uint64_t generation = lastGeneration.fetch_add(1) + 1;
  Generation.store(generation);
  for (OpenJournal &open : OpenJournals) {
    Journal *none = nullptr;
    if (open.journal.compare_exchange_strong(none, this)) {
      open.generation.store(generation);
      break;
    } // more than 8 at once (tests): their threads' blocks stay held
  }
  Header = header;
  Populated = 0;
  // Published whole: the monitor (a fork child's, started before the
  // child's journal opens) looks at the journal once this is set.
  Ready.store(true, std::memory_order_release);
  prefault();
  return true;
}

// Inline into the writers: the common case is a few loads and an add.
inline __attribute__((always_inline)) JournalUnit *
Journal::reserve(unsigned count) {
  Cursor &cursor = ThreadCursor;
  uint64_t generation = Generation.load(std::memory_order_relaxed);
  if (cursor.generation != generation || cursor.next + count > cursor.end)
    if (!takeBlock(generation)) {
      if (cursor.checkpoint)
        cursor.checkpointFailed = true;
      return nullptr;
    }
  JournalUnit *unit = cursor.next;
  cursor.next += count;
  // Ask for the line 1 KiB (32 events) ahead, for writing: it is not in the
  // cache (fresh page-cache memory), and without this the event that first
  // touches it waits for it (about 13 ns per event here, 5 with the line
  // 256 bytes ahead, which became too close once an event took under 15 ns;
  // 4.4 at 1 KiB).
  __builtin_prefetch(unit + 32, 1, 3);
  return unit;
}

JournalUnit *Journal::reserveRecord(unsigned count) {
  JournalUnit *unit = reserve(count);
  Cursor &cursor = ThreadCursor;
  if (unit && cursor.checkpoint)
    ++cursor.checkpointRecords;
  return unit;
}

void Journal::letGo(uint64_t block) {
  // After every unit written in it, and every store before them (a chain's
  // state, which a checkpoint reads): a checkpoint begun after this load
  // began after them, so that its copies saw what they recorded. The fence
  // keeps those stores from passing the load (x86 reorders a store and a
  // later load).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t begun = Begun.load(std::memory_order_seq_cst);
  BlockStates[block].store(begun + 1, std::memory_order_release);
}

void Journal::threadExits(void *) {
  Cursor &cursor = ThreadCursor;
  if (cursor.block == UINT64_MAX)
    return;
  for (OpenJournal &open : OpenJournals)
    if (open.generation.load() == cursor.generation)
      if (Journal *journal = open.journal.load()) {
        journal->letGo(cursor.block);
        break;
      }
  // An event of a later destructor takes a block of its own, let go again
  // by the next round of destructors.
  cursor.block = UINT64_MAX;
  cursor.next = cursor.end = nullptr;
  cursor.generation = 0;
  cursor.exitHooked = false;
}

void Journal::noteDropped() {
  // The first checkpoint begun after this drop was begun after the event's
  // record changed: it holds what the event did.
  uint64_t healer = Begun.load(std::memory_order_seq_cst) + 1;
  uint64_t seen = __atomic_load_n(&Header->healedBy, __ATOMIC_RELAXED);
  while (seen < healer &&
         !__atomic_compare_exchange_n(&Header->healedBy, &seen, healer, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  if (!__atomic_load_n(&Header->full, __ATOMIC_RELAXED))
    __atomic_store_n(&Header->full, 1, __ATOMIC_RELAXED);
}

bool Journal::takeFirstLapBlock(uint64_t block) {
  // The monitor reserves ahead; a writer that outran it reserves itself.
  if (block >= Reserved.load(std::memory_order_acquire) &&
      !reserveThrough(block + 1, /*writer=*/true))
    return false;
  BlockStates[block].store(kBlockInUse, std::memory_order_relaxed);
  return true;
}

void Journal::invalidateBlock(uint64_t block) {
  // The block unit's first word holds its commit byte.
  __atomic_store_n(reinterpret_cast<uint64_t *>(Units + block * kBlockUnits), 0,
                   __ATOMIC_RELAXED);
}

void Journal::clearBlock(uint64_t block) {
  JournalUnit *first = Units + block * kBlockUnits;
  // The block unit first: a kill from here on leaves a block no reader
  // takes, never old units behind new ones.
  invalidateBlock(block);
  std::atomic_thread_fence(std::memory_order_release);
  memset(reinterpret_cast<char *>(first) + 8, 0,
         kBlockUnits * sizeof(JournalUnit) - 8);
  std::atomic_thread_fence(std::memory_order_release);
}

bool Journal::waitForCheckpoint(uint64_t completed) {
  void (*hook)() = ChunkHook.load(std::memory_order_relaxed);
  if (!hook || Overwhelmed.load(std::memory_order_relaxed))
    return false; // no monitor to write one, or no room for one
  Waiting.store(true, std::memory_order_relaxed);
  hook();
  // Polled: the wait is rare (a ring short of room for the event rate), and
  // a monitor that does not finish in kWaitSeconds is not coming.
  timespec pause = {0, 100000}; // 0.1 ms
  for (uint64_t waited = 0; waited < kWaitSeconds * 10000; ++waited) {
    if (Completed.load(std::memory_order_acquire) > completed)
      return true;
    if (Overwhelmed.load(std::memory_order_relaxed))
      return false;
    if (waited % 1000 == 999)
      hook(); // a wake-up the monitor missed
    nanosleep(&pause, nullptr);
  }
  return false;
}

bool Journal::takeBlock(uint64_t generation) {
  Cursor &cursor = ThreadCursor;
  if (cursor.generation == generation && cursor.block != UINT64_MAX)
    letGo(cursor.block);
  cursor.next = cursor.end = nullptr;
  cursor.generation = generation;
  cursor.block = UINT64_MAX;
  for (uint64_t passedOver = 0;;) {
    if (Full.load(std::memory_order_relaxed))
      return false;
    uint64_t completed = Completed.load(std::memory_order_acquire);
    // Events find no block until a checkpoint is complete; the checkpoint
    // looks for one.
    if (!cursor.checkpoint &&
        FullUntil.load(std::memory_order_relaxed) > completed) {
      noteDropped();
      return false;
    }
    // Events stay below the limit, which leaves the checkpoint room for its
    // blocks; at it, they wait for the checkpoint that moves it on.
    uint64_t limit =
        cursor.checkpoint ? UINT64_MAX : Limit.load(std::memory_order_acquire);
    if (NextBlock.load(std::memory_order_relaxed) >= limit) {
      if (!waitForCheckpoint(completed)) {
        FullUntil.store(completed + 1, std::memory_order_relaxed);
        noteDropped();
        return false;
      }
      continue;
    }
    uint64_t number = NextBlock.fetch_add(1, std::memory_order_relaxed);
    uint64_t block = number % Blocks;
    if (number < Blocks) {
      if (!takeFirstLapBlock(block))
        return false; // the filesystem is full: so is the journal, for good
    } else {
      // A block of an earlier lap, if everything in it is in the last
      // complete checkpoint; one still needed is passed over.
      uint64_t state = BlockStates[block].load(std::memory_order_acquire);
      if (state == kBlockInUse || state > completed ||
          !BlockStates[block].compare_exchange_strong(
              state, kBlockInUse, std::memory_order_acq_rel)) {
        if (cursor.checkpoint && ++passedOver >= Blocks)
          return false; // a whole lap, and no room for the checkpoint
        continue;
      }
      clearBlock(block);
    }
    if (number % HookBlocks == 0)
      if (void (*hook)() = ChunkHook.load(std::memory_order_relaxed))
        hook();
    JournalUnit *first = Units + block * kBlockUnits;
    write(first, kJournalBlock, 0, 1,
          static_cast<uint32_t>(cursor.checkpointBlocks), number,
          cursor.checkpoint, 0);
    if (cursor.checkpoint) {
      ++cursor.checkpointBlocks;
      CheckpointBlocks.push_back(block);
    }
    cursor.next = first + 1;
    cursor.end = first + kBlockUnits;
    cursor.block = block;
    if (!cursor.exitHooked) {
      pthread_once(&ExitKeyOnce,
                   [] { pthread_key_create(&ExitKey, threadExits); });
      pthread_setspecific(ExitKey, &cursor);
      cursor.exitHooked = true;
    }
    return true;
  }
}

bool Journal::checkpointDue(bool quiet) const {
  if (!active() || CheckpointsAbandoned)
    return false;
  // A writer waits for one, or events are dropped for want of one.
  if (Waiting.load(std::memory_order_relaxed) ||
      Overwhelmed.load(std::memory_order_relaxed))
    return true;
  uint64_t taken = NextBlock.load(std::memory_order_relaxed) -
                   BlocksAtCheckpoint.load(std::memory_order_relaxed);
  return taken >= (quiet ? 1 : std::max<uint64_t>(1, Blocks / 4));
}

uint64_t Journal::beginCheckpoint() {
  if (!active() || CheckpointsAbandoned)
    return 0;
  leaveCheckpoint(); // the block the thread held, if any, let go
  Cursor &cursor = ThreadCursor;
  CheckpointBeginBlock = NextBlock.load(std::memory_order_relaxed);
  CheckpointStartNs = monotonicNs();
  cursor.checkpoint = Begun.fetch_add(1, std::memory_order_seq_cst) + 1;
  return cursor.checkpoint;
}

void Journal::checkpointLive(int level, const Record &record) {
  JournalUnit *unit = reserveRecord(1);
  if (!unit)
    return;
  writeRecord(unit, kJournalLive, 1, level, record);
}

void Journal::checkpointFloors(int level, const uint64_t *floors,
                               unsigned count) {
  constexpr unsigned kPerRecord = 16; // in four units after the first
  for (unsigned first = 0; first < count; first += kPerRecord) {
    unsigned here = std::min(kPerRecord, count - first);
    JournalUnit *unit = reserveRecord(1 + kPerRecord / 4);
    if (!unit)
      return;
    memset(unit + 1, 0, kPerRecord / 4 * sizeof(JournalUnit));
    memcpy(unit + 1, floors + first, here * sizeof(uint64_t));
    write(unit, kJournalFloors, static_cast<uint8_t>(level), 1 + kPerRecord / 4,
          first, 0, here, 0);
  }
}

void Journal::checkpointImplicit(int level, const Record &acquired,
                                 uint64_t releaseSerial, unsigned releaseApi,
                                 uint32_t releaseSite) {
  JournalUnit *unit = reserveRecord(2);
  if (!unit)
    return;
  uint64_t release[4] = {releaseSerial, releaseApi, releaseSite, 0};
  memcpy(unit + 1, release, sizeof release);
  writeRecord(unit, kJournalImplicit, 2, level, acquired);
}

void Journal::leaveCheckpoint() {
  Cursor &cursor = ThreadCursor;
  if (cursor.block != UINT64_MAX &&
      cursor.generation == Generation.load(std::memory_order_relaxed))
    letGo(cursor.block);
  cursor = Cursor{nullptr, nullptr, cursor.generation, UINT64_MAX, 0, 0,
                  0,       false,   cursor.exitHooked};
}

bool Journal::endCheckpoint() {
  Cursor &cursor = ThreadCursor;
  uint64_t number = cursor.checkpoint;
  if (!number)
    return false;
  JournalUnit *unit = cursor.checkpointFailed ? nullptr : reserveRecord(1);
  bool complete = unit && !cursor.checkpointFailed;
  if (complete)
    write(unit, kJournalCheckpointEnd, 0, 1,
          static_cast<uint32_t>(cursor.checkpointBlocks), number,
          cursor.checkpointRecords - 1, monotonicNs() - CheckpointStartNs);
  leaveCheckpoint();
  if (!complete) {
    // No room for a checkpoint: writers drop events instead of waiting for
    // one, until one is complete (the monitor tries again). Its blocks are
    // free at once, invalidated first: nothing needs them.
    for (uint64_t block : CheckpointBlocks) {
      invalidateBlock(block);
      BlockStates[block].store(kFreshBlock, std::memory_order_release);
    }
    CheckpointBlocks.clear();
    Overwhelmed.store(true, std::memory_order_relaxed);
    return false;
  }
  CheckpointBlocks.clear();
  BlocksAtCheckpoint.store(NextBlock.load(std::memory_order_relaxed),
                           std::memory_order_relaxed);
  // The blocks let go before it began are free; a quarter of the ring is
  // left for the next checkpoint.
  Limit.store(CheckpointBeginBlock + Blocks - Blocks / 4,
              std::memory_order_relaxed);
  Waiting.store(false, std::memory_order_relaxed);
  Overwhelmed.store(false, std::memory_order_relaxed);
  // Release: a writer that sees it taking a block sees the end written.
  Completed.store(number, std::memory_order_release);
  return true;
}

void Journal::abandonCheckpoint() {
  leaveCheckpoint();
  CheckpointBlocks.clear(); // left as a kill would leave them
  CheckpointsAbandoned = true;
  Overwhelmed.store(true); // no writer waits for a checkpoint now
}

void Journal::populate(uint64_t firstBlock) {
  if (firstBlock >= Blocks)
    return;
  uint64_t blocks = std::min<uint64_t>(kChunkBlocks, Blocks - firstBlock);
  const JournalUnit *start = Units + firstBlock * kBlockUnits;
  // From the start of its first page, which madvise wants: the units' start
  // is not one with pages larger than 4 KiB (version 1's never was, so its
  // prefault silently did nothing).
  uintptr_t first = pageStart(start);
  uint64_t length =
      reinterpret_cast<uintptr_t>(start + blocks * kBlockUnits) - first;
  if (!PopulateByTouch) {
#ifdef MADV_POPULATE_WRITE
    if (madvise(reinterpret_cast<void *>(first), length,
                MADV_POPULATE_WRITE) == 0 ||
        errno != EINVAL) // EINVAL: a kernel without it (before 5.14)
      return;
#endif
    PopulateByTouch = true;
  }
  // An atomic add of zero faults a page in writable without changing what a
  // writer may be storing there at the same moment.
  for (uintptr_t page = first; page < first + length; page += pageSize())
    __atomic_fetch_add(reinterpret_cast<uint64_t *>(page), 0, __ATOMIC_RELAXED);
}

uint64_t Journal::residentBytes(uint64_t bytes) const {
  if (!Header)
    return 0;
  bytes = std::min<uint64_t>(bytes, Blocks * kBlockUnits * sizeof(JournalUnit));
  uintptr_t first = pageStart(Units);
  uint64_t length = reinterpret_cast<uintptr_t>(Units) - first + bytes;
  std::vector<unsigned char> pages((length + pageSize() - 1) / pageSize());
  if (mincore(reinterpret_cast<void *>(first), length, pages.data()) != 0)
    return 0;
  uint64_t resident = 0;
  for (unsigned char state : pages)
    resident += (state & 1) ? pageSize() : 0;
  return std::min<uint64_t>(resident, bytes);
}

void Journal::prefault() {
  if (!Ready.load(std::memory_order_acquire) || Disabled)
    return;
  // The monitor's, and open()'s in a fork child whose monitor runs.
  std::lock_guard<std::mutex> lock(PrefaultMutex);
  uint64_t taken = NextBlock.load(std::memory_order_relaxed);
  if (taken >= Blocks) {
    // Later laps: the whole file is reserved, its pages most likely still
    // in memory; the chunk after the writers' is faulted in again in case
    // the kernel let some go.
    uint64_t chunks = (Blocks + kChunkBlocks - 1) / kChunkBlocks;
    populate((taken % Blocks / kChunkBlocks + 1) % chunks * kChunkBlocks);
    return;
  }
  // Keep kAheadChunks chunks faulted in ahead of the writers, so that no
  // event pays for a fresh page.
  uint64_t next = NextBlock.load(std::memory_order_relaxed);
  uint64_t wanted = std::min(Blocks, next + kAheadChunks * kChunkBlocks);
  // Only reserved pages are touched: one the filesystem has no room for
  // would be a SIGBUS here. The next step is reserved once the writers are
  // into the current one's second chunk, so a journal of a few events keeps
  // its first step alone.
  if (next + (kAheadChunks - 1) * kChunkBlocks >
      Reserved.load(std::memory_order_acquire))
    reserveThrough(wanted, /*writer=*/false);
  wanted = std::min(wanted, Reserved.load(std::memory_order_acquire));
  while (Populated < wanted) {
    populate(Populated);
    Populated += kChunkBlocks;
  }
}

void Journal::write(JournalUnit *unit, uint8_t type, uint8_t levelSpace,
                    uint8_t count, uint32_t site, uint64_t serial, uint64_t key,
                    uint64_t sizeApi) {
  // Four 8-byte stores, the one with the commit byte last: x86 and the
  // release store keep them in order, and fewer stores mean fewer
  // store-buffer entries waiting for a line not in the cache yet.
  using Word = uint64_t __attribute__((may_alias));
  Word *words = reinterpret_cast<Word *>(unit);
  words[1] = serial;
  words[2] = key;
  words[3] = sizeApi;
  uint64_t head = type | (uint64_t{levelSpace} << 8) | (uint64_t{count} << 16) |
                  (uint64_t{kCommitted} << 24) | (uint64_t{site} << 32);
  __atomic_store_n(&words[0], head, __ATOMIC_RELEASE);
}

void Journal::writeRecord(JournalUnit *unit, uint8_t type, uint8_t count,
                          int level, const Record &record) {
  write(unit, type, static_cast<uint8_t>(level | (record.space << 4)), count,
        record.site, record.serial, record.key,
        (record.size & ((1ULL << 48) - 1)) |
            (static_cast<uint64_t>(record.api) << 48));
}

void Journal::acquire(int level, const Record &record) {
  JournalUnit *unit = reserve(1);
  if (!unit)
    return;
  writeRecord(unit, kJournalAcquire, 1, level, record);
}

void Journal::release(int level, uint64_t key, uint64_t serial, unsigned api,
                      uint32_t site, bool allReferences) {
  JournalUnit *unit = reserve(1);
  if (!unit)
    return;
  write(unit, allReferences ? kJournalReleaseAll : kJournalRelease,
        static_cast<uint8_t>(level), 1, site, serial, key,
        static_cast<uint64_t>(api) << 48);
}

void Journal::site(uint32_t id, const msledger_site *site) {
  if (!site)
    return;
  // "file\0callee\0function\0", each cut at 200 bytes.
  std::string text;
  for (const char *part : {site->file, site->callee, site->function}) {
    std::string piece = part ? part : "";
    text += piece.substr(0, 200);
    text += '\0';
  }
  unsigned count = 1 + static_cast<unsigned>((text.size() + 31) / 32);
  JournalUnit *unit = reserveRecord(count);
  if (!unit)
    return;
  memset(unit + 1, 0, (count - 1) * sizeof(JournalUnit));
  memcpy(unit + 1, text.data(), text.size());
  write(unit, kJournalSite, 0, static_cast<uint8_t>(count), id,
        (static_cast<uint64_t>(site->line) << 32) | site->column, text.size(),
        site->serial);
}

void Journal::chain(uint32_t id, uint32_t siteId, const uint32_t *callerIds,
                    unsigned callers) {
  unsigned count = 1 + (callers + 7) / 8;
  JournalUnit *unit = reserveRecord(count);
  if (!unit)
    return;
  memset(unit + 1, 0, (count - 1) * sizeof(JournalUnit));
  memcpy(unit + 1, callerIds, callers * sizeof(uint32_t));
  write(unit, kJournalChain, 0, static_cast<uint8_t>(count), id, siteId,
        callers, 0);
}

void Journal::exited() {
  if (active())
    __atomic_store_n(&Header->exited, 1, __ATOMIC_RELEASE);
}

namespace {

/// Checks the header of a journal of `fileSize` bytes, whose first
/// `headBytes` are at `head`, into out->header; *dataOffset gets where its
/// units start. False with *error set if it is not one we read.
bool readJournalHeader(const char *head, uint64_t headBytes, uint64_t fileSize,
                       JournalContents *out, uint64_t *dataOffset,
                       std::string *error) {
  if (headBytes < kJournalHeaderV3Bytes || memcmp(head, "MSLJRNL1", 8) != 0) {
    *error = "not an msledger journal";
    return false;
  }
  memcpy(&out->header, head, kJournalHeaderV3Bytes);
  // Version 4's header is longer; before it, what follows is units.
  if (out->header.version >= 4 && headBytes >= sizeof(JournalHeader))
    memcpy(&out->header, head, sizeof(JournalHeader));
  // Version 1 had its units right after the header.
  *dataOffset =
      out->header.version == 1 ? kJournalHeaderV3Bytes : out->header.dataOffset;
  if (out->header.version < 1 || out->header.version > kJournalVersion ||
      out->header.unitSize != sizeof(JournalUnit)) {
    *error = "a journal of version " + std::to_string(out->header.version) +
             "; this msledger reads versions 1 to " +
             std::to_string(kJournalVersion);
    return false;
  }
  if (*dataOffset < (out->header.version >= 4 ? sizeof(JournalHeader)
                                              : kJournalHeaderV3Bytes) ||
      *dataOffset % 32 != 0) {
    *error = "a corrupt journal header (units at offset " +
             std::to_string(*dataOffset) + ")";
    return false;
  }
  // A header that does not fit the file would read as "0 events, nothing
  // was live": a plausible answer, and a wrong one. A file cut short after
  // its first units is a truncated journal, read as far as it goes.
  if (*dataOffset >= fileSize) {
    *error = "a corrupt or truncated journal: its units start at offset " +
             std::to_string(*dataOffset) + ", past the end of the file (" +
             std::to_string(fileSize) + " bytes)";
    return false;
  }
  if (out->header.capacityUnits == 0 ||
      out->header.capacityUnits > kMaxJournalUnits) {
    *error = "a corrupt journal header (room for " +
             std::to_string(out->header.capacityUnits) + " units)";
    return false;
  }
  return true;
}

/// A checkpoint's records as read, complete or not.
struct CheckpointParts {
  std::vector<JournalContents::Event> live;
  std::vector<JournalContents::Checkpoint::Implicit> implicit;
  std::vector<uint64_t> floors[2];
  std::set<uint32_t> blocks; // the indices of its blocks read
  uint64_t records = 0;
  bool ended = false;
  uint64_t endBlocks = 0, endRecords = 0;
  bool complete() const {
    return ended && blocks.size() == endBlocks && records == endRecords;
  }
};

/// Reads a journal's blocks one by one, then puts together what they say.
class JournalReader {
public:
  explicit JournalReader(JournalContents *out) : Out(out) {}

  /// The records of `units` units (whole blocks but perhaps the last) at
  /// `all`, the journal's from a block's start.
  void blocks(const JournalUnit *all, uint64_t units) {
    for (uint64_t block = 0; block * kBlockUnits < units; ++block)
      this->block(all + block * kBlockUnits,
                  std::min<uint64_t>(kBlockUnits, units - block * kBlockUnits));
  }

  /// The last complete checkpoint, and the events that follow it, in
  /// serial order.
  void finish() {
    const CheckpointParts *last = nullptr;
    for (const auto &[number, parts] : Checkpoints)
      if (parts.complete()) {
        Out->checkpoint.number = number;
        last = &parts;
      }
    if (last) {
      Out->checkpoint.live = last->live;
      Out->checkpoint.implicit = last->implicit;
      // What the checkpoint holds already: an event of a key below its
      // shard's floor. An implicit release is kept whatever its serial: it
      // ends only records acquired before it (JournalReplay).
      auto reflected = [last](const JournalContents::Event &event) {
        const std::vector<uint64_t> &floors = last->floors[event.level & 1];
        unsigned shard = RecordTable::shardIndex(event.key);
        return event.type != kJournalReleaseAll && shard < floors.size() &&
               event.serial < floors[shard];
      };
      Out->events.erase(
          std::remove_if(Out->events.begin(), Out->events.end(), reflected),
          Out->events.end());
    }
    // Stable: the records one implicit release took out share its serial,
    // and stay in the order it wrote them (the order they were acquired).
    std::stable_sort(
        Out->events.begin(), Out->events.end(),
        [](const JournalContents::Event &a, const JournalContents::Event &b) {
          return a.serial < b.serial;
        });
  }

private:
  /// The records of one block of `units` units, up to its first unit that
  /// holds no committed record.
  void block(const JournalUnit *units, uint64_t count) {
    CheckpointParts *parts = nullptr;
    uint64_t i = 0;
    if (Out->header.version >= 4) {
      // A block without its block unit was never taken, or is being
      // cleared for another lap: nothing in it is to be read.
      const JournalUnit &first = units[0];
      if (first.commit != kCommitted || first.type != kJournalBlock)
        return;
      if (first.key) {
        parts = &Checkpoints[first.key];
        parts->blocks.insert(first.site);
      }
      i = 1;
    }
    while (i < count) {
      const JournalUnit &unit = units[i];
      if (unit.commit != kCommitted || unit.count == 0 ||
          i + unit.count > count) {
        // The rest of the block is empty -- or a killed writer's record.
        bool empty = true;
        for (uint64_t j = i; j < count && empty; ++j)
          empty = units[j].type == 0 && units[j].commit == 0;
        if (!empty)
          ++Out->skipped;
        return;
      }
      record(&unit, parts);
      i += unit.count;
    }
  }

  static JournalContents::Event eventOf(const JournalUnit *unit) {
    return JournalContents::Event{
        unit->type,
        unit->levelSpace & 1,
        static_cast<uint8_t>((unit->levelSpace >> 4) & 7),
        static_cast<unsigned>(unit->sizeApi >> 48),
        unit->site,
        unit->serial,
        unit->key,
        unit->sizeApi & ((1ULL << 48) - 1)};
  }

  /// One committed record, `unit` and the units after it; `parts`: the
  /// checkpoint whose block it is in, if any.
  void record(const JournalUnit *unit, CheckpointParts *parts) {
    if (parts)
      ++parts->records;
    switch (unit->type) {
    case kJournalAcquire:
    case kJournalRelease:
    case kJournalReleaseAll:
      if (!parts)
        Out->events.push_back(eventOf(unit));
      break;
    case kJournalSite: {
      std::string text(reinterpret_cast<const char *>(unit + 1),
                       std::min<uint64_t>(unit->key, (unit->count - 1) * 32));
      JournalContents::Site site;
      size_t a = text.find('\0'), b = text.find('\0', a + 1);
      site.file = text.substr(0, a);
      if (a != std::string::npos)
        site.callee = text.substr(a + 1, b - a - 1);
      if (b != std::string::npos)
        site.function = text.substr(b + 1, text.find('\0', b + 1) - b - 1);
      site.line = static_cast<uint32_t>(unit->serial >> 32);
      site.column = static_cast<uint32_t>(unit->serial);
      site.siteSerial = unit->sizeApi; // 0 before version 3
      Out->sites[unit->site] = site;
      break;
    }
    case kJournalChain: {
      std::vector<uint32_t> ids = {static_cast<uint32_t>(unit->serial)};
      const auto *callers = reinterpret_cast<const uint32_t *>(unit + 1);
      for (uint64_t c = 0; c < unit->key && c < (unit->count - 1) * 8u; ++c)
        ids.push_back(callers[c]);
      Out->chains[unit->site] = ids;
      break;
    }
    case kJournalLive:
      if (parts) {
        JournalContents::Event live = eventOf(unit);
        live.type = kJournalAcquire;
        parts->live.push_back(live);
      }
      break;
    case kJournalImplicit:
      if (parts && unit->count >= 2) {
        JournalContents::Event acquired = eventOf(unit);
        acquired.type = kJournalAcquire;
        uint64_t release[4];
        memcpy(release, unit + 1, sizeof release);
        JournalContents::Event released = acquired;
        released.type = kJournalReleaseAll;
        released.serial = release[0];
        released.api = static_cast<unsigned>(release[1]);
        released.site = static_cast<uint32_t>(release[2]);
        released.size = 0;
        parts->implicit.push_back({acquired, released});
      }
      break;
    case kJournalFloors:
      if (parts) {
        std::vector<uint64_t> &floors = parts->floors[unit->levelSpace & 1];
        uint64_t first = unit->site;
        uint64_t count = std::min<uint64_t>(unit->key, (unit->count - 1) * 4u);
        if (first + count <= RecordTable::kShards) {
          floors.resize(std::max<uint64_t>(floors.size(), first + count));
          memcpy(floors.data() + first, unit + 1, count * sizeof(uint64_t));
        }
      }
      break;
    case kJournalCheckpointEnd:
      if (parts) {
        --parts->records; // the end counts the records before it
        parts->ended = true;
        parts->endBlocks = unit->site;
        parts->endRecords = unit->key;
      }
      break;
    default:
      ++Out->skipped;
      break;
    }
  }

  JournalContents *Out;
  std::map<uint64_t, CheckpointParts> Checkpoints;
};

/// The units a journal of `fileSize` bytes holds, from `dataOffset`: its
/// capacity, or fewer in a file cut short (out->truncated).
uint64_t unitsHeld(uint64_t fileSize, uint64_t dataOffset,
                   JournalContents *out) {
  uint64_t available = (fileSize - dataOffset) / 32;
  out->truncated = available < out->header.capacityUnits;
  return std::min(out->header.capacityUnits, available);
}

/// pread() of `bytes` bytes at `offset`, all of them; false on an error
/// (errno says it) or an early end (the file shrank: errno 0).
bool readFully(int fd, void *into, uint64_t bytes, uint64_t offset) {
  auto *at = static_cast<char *>(into);
  while (bytes) {
    ssize_t n = pread(fd, at, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0)
      errno = 0;
    if (n <= 0)
      return false;
    at += n;
    offset += static_cast<uint64_t>(n);
    bytes -= static_cast<uint64_t>(n);
  }
  return true;
}

} // namespace

bool readJournal(const std::string &bytes, JournalContents *out,
                 std::string *error) {
  *out = JournalContents();
  uint64_t dataOffset = 0;
  if (!readJournalHeader(bytes.data(), bytes.size(), bytes.size(), out,
                         &dataOffset, error))
    return false;
  uint64_t units = unitsHeld(bytes.size(), dataOffset, out);
  JournalReader reader(out);
  if (units)
    reader.blocks(
        reinterpret_cast<const JournalUnit *>(bytes.data() + dataOffset),
        units);
  reader.finish();
  return true;
}

bool readJournalFile(const std::string &path, JournalContents *out,
                     std::string *error) {
  *out = JournalContents();
  uint64_t size = 0;
  const char *why = nullptr;
  int fd = openRegularFile(path, &size, &why);
  auto cannot = [&](const char *reason) {
    *error = "cannot read " + path + ": " + reason;
    if (fd >= 0)
      close(fd);
    return false;
  };
  if (fd < 0)
    return cannot(why ? why : strerror(errno));
  std::string head(std::min<uint64_t>(size, sizeof(JournalHeader)), '\0');
  if (!readFully(fd, head.data(), head.size(), 0))
    return cannot(errno ? strerror(errno) : "it shrank while read");
  uint64_t dataOffset = 0;
  if (!readJournalHeader(head.data(), head.size(), size, out, &dataOffset,
                         error)) {
    close(fd);
    return false;
  }
  uint64_t end = dataOffset + unitsHeld(size, dataOffset, out) * 32;
  // Only the file's data: the blocks no writer took were never written, and
  // are holes of a sparse file (or the few reserved ahead of the writers).
  // Read whole blocks around each run of data, a chunk at a time.
  const uint64_t blockBytes = kBlockUnits * 32;
  std::vector<JournalUnit> chunk(kReadChunkBlocks * kBlockUnits);
  JournalReader reader(out);
  for (uint64_t at = dataOffset; at < end;) {
    off_t data = lseek(fd, static_cast<off_t>(at), SEEK_DATA);
    off_t hole = data < 0 ? -1 : lseek(fd, data, SEEK_HOLE);
    if (data < 0 && errno == ENXIO)
      break;                    // nothing but holes from here
    if (data < 0 || hole < 0) { // no SEEK_DATA here: read it all
      data = static_cast<off_t>(at);
      hole = static_cast<off_t>(end);
    }
    uint64_t first = dataOffset + (static_cast<uint64_t>(data) - dataOffset) /
                                      blockBytes * blockBytes;
    uint64_t last = std::min(end, dataOffset + (static_cast<uint64_t>(hole) -
                                                dataOffset + blockBytes - 1) /
                                                   blockBytes * blockBytes);
    for (uint64_t offset = first; offset < last;) {
      uint64_t bytes = std::min<uint64_t>(chunk.size() * 32, last - offset);
      if (!readFully(fd, chunk.data(), bytes, offset))
        return cannot(errno ? strerror(errno) : "it shrank while read");
      reader.blocks(chunk.data(), bytes / 32);
      offset += bytes;
    }
    at = std::max(last, first + blockBytes);
  }
  close(fd);
  reader.finish();
  return true;
}

} // namespace msledger
