//===- journal.h - A crash-safe journal of the ledger's events --*- C++ -*-===//
//
// Contract: with journal_path set, every recorded event also goes to a
// memory-mapped file (MAP_SHARED), so what was recorded survives the process
// being killed at any instant -- SIGKILL, the OOM killer -- and
// `msledger report FILE` rebuilds the leak report from it afterwards.
//
// Format (version 4, little-endian): a 128-byte header (JournalHeader) in a
// page of its own, then 32-byte units in blocks of kBlockUnits, each block a
// page that starts with a block unit (which lap of the ring it is, and the
// checkpoint it belongs to, if any). Older journals are still read: version
// 3 had no block units and no checkpoints and ended when full, version 2's
// site records lack the site serial (read as 0, so their findings'
// fingerprints differ from a live run's), version 1 also had the units
// right after the header.
//
// A thread takes a whole block at a time (one atomic operation per block,
// not per event) and fills it in order; a record is one or more units, the
// first carrying the type, the unit count and, written last (release), the
// commit byte. A reader takes committed records and skips the rest of a
// block at the first uncommitted unit: a record a killed thread was writing
// is lost, nothing else. Sites and chains are recorded once, when first
// seen, so events refer to them by id.
//
// The file has a fixed size (journal_size_mb), and its blocks are a ring:
// the ledger's monitor writes a checkpoint (every live record, site, chain,
// each shard's serial floor, and, when they count as leaks, the implicit
// releases) into blocks of its own whenever a quarter of the ring was
// taken since the last one (or any block, once the writers are quiet for a
// second), and a block is taken again once it was let go
// (its thread moved on, or exited) before the last complete checkpoint
// began: everything in it is then in that checkpoint. A block taken again
// is invalidated (its block unit zeroed) before it is cleared and written,
// so a kill at any point leaves it either as it was or as the new lap's.
// The reader takes the last complete checkpoint (its end record counts its
// blocks and records) and the events at or above its shards' floors, in
// serial order; a kill in the middle of a checkpoint leaves the previous
// one, whose events are all still there. Events take blocks up to a limit
// that leaves a quarter of the ring for the next checkpoint; a writer at the
// limit asks the monitor for one and waits for it (at most kWaitSeconds).
// Only when no checkpoint comes (none fits: what is live takes more than a
// quarter of the journal) are events dropped; the header says so, and the
// next complete checkpoint makes the journal whole again
// (JournalHeader::healedBy).
//
// Blocks of the first lap are reserved on disk as the journal fills, each
// before any unit in it is written (no SIGBUS on a full filesystem: the
// journal ends there, for good). The ledger's monitor thread faults pages
// in ahead of the writers (prefault), so events do not pay for fresh
// pages; a writer starting a new chunk of blocks calls the chunk hook,
// which wakes the monitor to do so, and to write a checkpoint when one is
// due.
//
// What an application thread can wait for: an event takes a block of its
// own every kBlockUnits - 1 events (an atomic add and, in later laps, one
// compare-and-swap and clearing the block's 4 KiB); the checkpoint runs on
// the monitor, taking each record table shard's lock for as long as a
// copy of that shard takes (RecordTable::forEachShard); a call that
// releases others implicitly (aclrtResetDevice) and fork() wait for a
// checkpoint in progress (Ledger::checkpointJournal holds the ledger's
// implicit-release lock); and a writer that outruns the monitor by three
// quarters of the ring waits for its next checkpoint, as above. A
// checkpoint that finds no room frees its blocks at once, and the monitor
// tries again at each wake-up (at least once a second) while events are
// dropped.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_JOURNAL_H
#define MSLEDGER_RUNTIME_JOURNAL_H

#include "msledger/msledger.h"
#include "record_table.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace msledger {

constexpr uint32_t kJournalVersion = 4;
/// More units than any journal holds (journal_size_mb is an int of MiB):
/// a header that says so is corrupt.
constexpr uint64_t kMaxJournalUnits = (uint64_t(INT32_MAX) << 20) / 32;
constexpr uint32_t kJournalDataOffset = 4096; // the header's page
constexpr unsigned kBlockUnits = 128;         // 4 KiB
constexpr unsigned kReadChunkBlocks = 256;    // 1 MiB a read
constexpr uint8_t kCommitted = 0xC5;

struct JournalHeader {
  char magic[8]; // "MSLJRNL1"
  uint32_t version;
  uint32_t unitSize;
  uint64_t capacityUnits; // units after the header
  uint64_t startUnixMs;
  uint32_t pid;
  uint32_t apiCount;    // the catalog the journal's API indices refer to
  uint64_t catalogHash; // journalCatalogHash() of the ledger that wrote it
  uint32_t full;        // 1: events were dropped (see healedBy)
  uint32_t exited;      // 1: the process exited normally
  uint32_t dataOffset;  // where the units start (version 2 on)
  uint32_t ledgerFlags; // kJournalLevel* | kJournalImplicitIsLeak (v2 on)
  // Version 4 on (read as 0 before). When `full`: the number of the first
  // checkpoint begun after the latest dropped event; once one that late is
  // complete, nothing is missing. kNeverHealed: the filesystem had no more
  // room, and the journal ended there.
  uint64_t healedBy;
  uint64_t reserved[7];
};
static_assert(sizeof(JournalHeader) == 128, "the header is 128 bytes");
/// The header of versions 1 to 3.
constexpr uint64_t kJournalHeaderV3Bytes = 64;
constexpr uint64_t kNeverHealed = UINT64_MAX;

/// What the ledger checked, so that the rebuilt report has its sections.
constexpr uint32_t kJournalDeviceLevel = 1;    // check_device_heap
constexpr uint32_t kJournalCannLevel = 2;      // check_cann_heap
constexpr uint32_t kJournalImplicitIsLeak = 4; // implicit_release_is_leak

enum JournalType : uint8_t {
  kJournalAcquire = 1,
  kJournalRelease = 2,    // one reference, or the record
  kJournalReleaseAll = 3, // every reference: an implicit release, by `api`
  // A site: its id in `site`, line << 32 | column in `serial`, the length
  // of "file\0callee\0function\0" (in the units after) in `key`, and the
  // site serial in `sizeApi` (version 3 on; 0 before).
  kJournalSite = 4,
  // A chain: its id in `site`, its site's id in `serial`, the callers' count
  // in `key`, their ids (4 bytes each) in the units after.
  kJournalChain = 5,
  // Version 4 on. The first unit of each block: the block's number counted
  // from the journal's start in `serial` (which lap of the ring it is), the
  // checkpoint it belongs to in `key` (0: events), its index among that
  // checkpoint's blocks in `site`.
  kJournalBlock = 6,
  // A checkpoint's live record: an acquisition's fields, its size the
  // reference count for a refcounted handle.
  kJournalLive = 7,
  // A checkpoint's shard floors: the level in `levelSpace`, the first shard
  // in `site`, how many in `key`, the floors (8 bytes each) in the units
  // after.
  kJournalFloors = 8,
  // A checkpoint's implicit release: the record as kJournalLive, then a unit
  // with the release's serial, API index and site (8, 8 and 4 bytes).
  kJournalImplicit = 9,
  // The end of checkpoint `serial`: its blocks in `site`, its records
  // (block units and this one aside) in `key`, how long it took to write
  // in nanoseconds in `sizeApi` (utils/benchmarks/soak.py reads it).
  kJournalCheckpointEnd = 10,
};

// The first unit of a record, as a little-endian machine lays it out.
struct JournalUnit {
  uint8_t type;
  uint8_t levelSpace; // level in bit 0, space in bits 4-6
  uint8_t count;      // units in this record
  uint8_t commit;     // kCommitted once the record is complete
  uint32_t site;      // site or chain id
  uint64_t serial;
  uint64_t key;
  uint64_t sizeApi; // size in bits 0-47, API index in bits 48-63
};
static_assert(sizeof(JournalUnit) == 32, "units are 32 bytes");

/// The catalog's identity, as the journal records it: its API names in
/// index order, each folded in with FNV-1a's step and the running hash then
/// multiplied by 31 (so that names cut differently differ). Not plain
/// fnv1a64 of the names; fixed, since journals outlive the build.
uint64_t journalCatalogHash();

class Journal {
public:
  static constexpr uint64_t kChunkBlocks = 256; // 1 MiB
  /// Chunks kept reserved on disk and faulted in ahead of the writers. The
  /// file's blocks are reserved (posix_fallocate) as it fills -- by the
  /// monitor ahead of the writers, by a writer that finds none left -- so a
  /// journal holding 16 events takes a few MiB of disk, not its whole size.
  /// No unit is written, and no page touched, before its block is reserved:
  /// a full filesystem ends the journal (its header says full) instead of a
  /// SIGBUS in the application.
  static constexpr uint64_t kAheadChunks = 4;
  Journal() = default;
  Journal(const Journal &) = delete;
  Journal &operator=(const Journal &) = delete;
  ~Journal();
  /// Creates `path`, or reuses the regular file there, `bytes` long; a
  /// path that is not a regular file (a device, a FIFO) is refused and
  /// left as it is, and on failure only a file this call created is
  /// removed. A journal there of another process still running is refused,
  /// never truncated under it. False with *error set.
  bool open(const std::string &path, uint64_t bytes, uint64_t startUnixMs,
            uint32_t ledgerFlags, std::string *error);
  bool active() const {
    return Ready.load(std::memory_order_acquire) && !Disabled && !Paused;
  }
  void acquire(int level, const Record &record);
  /// `serial`, `api` and `site` are the releasing call's.
  void release(int level, uint64_t key, uint64_t serial, unsigned api,
               uint32_t site, bool allReferences);
  void site(uint32_t id, const msledger_site *site);
  void chain(uint32_t id, uint32_t siteId, const uint32_t *callerIds,
             unsigned count);
  void exited();

  /// Whether a checkpoint is due: a quarter of the ring was taken since the
  /// last one ended, or a writer waits for one -- or, when the writers are
  /// `quiet`, any block was taken since.
  bool checkpointDue(bool quiet = false) const;
  /// Starts a checkpoint, which the calling thread (the monitor) writes: its
  /// records, and the sites and chains it writes with site() and chain(),
  /// go to blocks of their own until endCheckpoint(). Its number; 0 when
  /// nothing is journaled. What it holds must be read after this call: a
  /// block let go before it is taken again once it is complete.
  uint64_t beginCheckpoint();
  /// A live record, its serial the full one (RecordTable::widenSerial).
  void checkpointLive(int level, const Record &record);
  /// The floors of the shards of `level`'s table, from shard 0.
  void checkpointFloors(int level, const uint64_t *floors, unsigned count);
  /// A record a call released implicitly, and that call's event.
  void checkpointImplicit(int level, const Record &acquired,
                          uint64_t releaseSerial, unsigned releaseApi,
                          uint32_t releaseSite);
  /// Writes the end: the checkpoint is complete, and the blocks let go
  /// before it began may be taken again. False if a record found no room
  /// (the checkpoint is not complete, the previous one stays the last).
  bool endCheckpoint();
  /// Stops a checkpoint without its end, as a kill in its middle would
  /// (tests); no checkpoint is written after it.
  void abandonCheckpoint();
  /// Blocks taken so far (the monitor sees the writers go quiet by it).
  uint64_t blocksTaken() const {
    return NextBlock.load(std::memory_order_relaxed);
  }
  uint64_t checkpointsCompleted() const {
    return Completed.load(std::memory_order_acquire);
  }

  /// Faults in the file ahead of the writers (the monitor thread, when the
  /// chunk hook asks).
  void prefault();
  /// `hook` is called by a writer that takes the first block of a chunk: a
  /// signal to run prefault() soon. It must be async-signal-safe and cheap.
  void setChunkHook(void (*hook)()) { ChunkHook.store(hook); }
  /// The pages of the first `bytes` of the units that are in memory
  /// (mincore); for tests of prefault().
  uint64_t residentBytes(uint64_t bytes) const;
  /// In a fork child: lets go of the parent's journal (unmapped, its
  /// descriptor closed; nothing more is written to it), so that the child
  /// may open one of its own.
  void detach();
  /// The path it was opened with; "" if none is open.
  const std::string &path() const { return Path; }
  /// Faults pages in by touching them, as on kernels without
  /// MADV_POPULATE_WRITE (which prefault() falls back to); for tests.
  void populateByTouch() { PopulateByTouch = true; }
  /// While paused, events are not journaled (a benchmark's baseline); only
  /// the thread that writes may pause.
  void pause(bool paused) { Paused = paused; }

private:
  /// The calling thread's next `count` units, or null when the journal is
  /// full or failed.
  JournalUnit *reserve(unsigned count);
  /// reserve() for a record a checkpoint may write (a site, a chain, the
  /// checkpoint's own): counted for its end record. Events, which the
  /// checkpoint's thread never writes, take reserve() alone.
  JournalUnit *reserveRecord(unsigned count);
  /// A record's fields (acquisitions, checkpoints' live records).
  static void writeRecord(JournalUnit *unit, uint8_t type, uint8_t count,
                          int level, const Record &record);
  /// A new block for the calling thread (`generation`: the journal's now),
  /// its block unit written; the block it had is let go. False when there
  /// is none.
  bool takeBlock(uint64_t generation);
  /// A block of the first lap: its disk space reserved first.
  bool takeFirstLapBlock(uint64_t block);
  /// Makes a block one no reader takes: its block unit is zeroed.
  void invalidateBlock(uint64_t block);
  /// Clears a block of an earlier lap, invalidated first.
  void clearBlock(uint64_t block);
  /// The calling thread's block is let go: taken again once a checkpoint
  /// begun after this is complete.
  void letGo(uint64_t block);
  /// An event found no block: the header says so, and which checkpoint
  /// makes the journal whole again.
  void noteDropped();
  /// A thread that exits lets its block go.
  static void threadExits(void *);
  /// The calling thread's checkpoint writing ends (complete or not).
  void leaveCheckpoint();
  /// Writes a record's first unit, its commit byte last.
  static void write(JournalUnit *unit, uint8_t type, uint8_t levelSpace,
                    uint8_t count, uint32_t site, uint64_t serial, uint64_t key,
                    uint64_t sizeApi);
  /// Faults in the pages of kChunkBlocks blocks from `firstBlock` on.
  void populate(uint64_t firstBlock);
  uint64_t Populated = 0; // blocks faulted in; under PrefaultMutex
  std::mutex PrefaultMutex;
  /// Reserves the file's blocks through `blocks`, a step ahead if there is
  /// room. False if there is none: for a `writer`, the journal is full from
  /// then on (with a message); the monitor leaves that to the writers.
  bool reserveThrough(uint64_t blocks, bool writer);
  std::atomic<uint64_t> Reserved{0}; // blocks whose disk space is reserved
  std::mutex ReserveMutex;
  int Fd = -1;
  std::string Path;

  JournalHeader *Header = nullptr;
  std::atomic<bool> Ready{false}; // open, Header and the rest set
  uint64_t MappedBytes = 0;
  JournalUnit *Units = nullptr;
  uint64_t Blocks = 0;
  /// Blocks taken so far, counted from the start (the ring's block is this
  /// modulo Blocks).
  std::atomic<uint64_t> NextBlock{0};
  /// Each block's state: kFreshBlock, kBlockInUse, or the number of the
  /// latest checkpoint begun when it was let go, plus one: it may be taken
  /// again once that many checkpoints are complete.
  std::unique_ptr<std::atomic<uint64_t>[]> BlockStates;
  static constexpr uint64_t kFreshBlock = 0, kBlockInUse = UINT64_MAX;
  std::atomic<uint64_t> Begun{0};     // checkpoints begun
  std::atomic<uint64_t> Completed{0}; // the number of the last complete one
  /// No block is free until this checkpoint is complete.
  std::atomic<uint64_t> FullUntil{0};
  /// Events take blocks numbered below this: a quarter of the ring past the
  /// last complete checkpoint's start is left for the next one's blocks.
  std::atomic<uint64_t> Limit{0};
  std::atomic<bool> Waiting{false};       // a writer waits for a checkpoint
  std::atomic<bool> Overwhelmed{false};   // the last one found no room
  uint64_t CheckpointBeginBlock = 0;      // NextBlock when the latest began
  std::vector<uint64_t> CheckpointBlocks; // the blocks it took (monitor's)
  uint64_t CheckpointStartNs = 0;         // and when
  static constexpr uint64_t kWaitSeconds = 10;
  /// A writer at the limit waits for the checkpoint after `completed`
  /// (asked for through the chunk hook); false if none is coming.
  bool waitForCheckpoint(uint64_t completed);
  std::atomic<uint64_t> BlocksAtCheckpoint{0}; // NextBlock at the last end
  uint64_t HookBlocks = kChunkBlocks;          // the chunk hook's period
  bool CheckpointsAbandoned = false;
  std::atomic<bool> Full{false}; // the filesystem had no more room
  std::atomic<uint64_t> Generation{0};
  std::atomic<void (*)()> ChunkHook{nullptr};
  bool Disabled = false;
  bool Paused = false;
  bool PopulateByTouch = false; // no MADV_POPULATE_WRITE (Linux < 5.14)
};

/// What a journal holds, read back.
struct JournalContents {
  JournalHeader header{};
  struct Event {
    uint8_t type;
    int level;
    uint8_t space;
    unsigned api;
    uint32_t site;
    uint64_t serial, key, size;
  };
  /// The events after the checkpoint (all of them without one), in serial
  /// order.
  std::vector<Event> events;
  /// The last complete checkpoint (version 4 on), which the events follow.
  struct Checkpoint {
    uint64_t number = 0; // 0: none
    /// Its live records as acquisitions (a refcounted handle's size is its
    /// reference count).
    std::vector<Event> live;
    struct Implicit {
      Event acquired, release;
    };
    std::vector<Implicit> implicit;
  } checkpoint;
  struct Site {
    std::string file, callee, function;
    uint32_t line = 0, column = 0;
    uint64_t siteSerial = 0; // msledger_site::serial (version 3 on)
  };
  std::map<uint32_t, Site> sites;
  std::map<uint32_t, std::vector<uint32_t>> chains; // id -> site, callers
  uint64_t skipped = 0;   // incomplete records (a writer was killed)
  bool truncated = false; // the file is shorter than its header says
  /// Events were dropped and no complete checkpoint since makes up for
  /// them: what was live may be wrong.
  bool eventsMissing() const {
    return header.full &&
           (header.version < 4 || checkpoint.number < header.healedBy);
  }
};

/// Parses journal bytes. False with *error set if they are not a journal.
bool readJournal(const std::string &bytes, JournalContents *out,
                 std::string *error);
/// Reads the journal at `path` as readJournal() reads its bytes, in time
/// and memory in proportion to what it holds, not to its size: only the
/// file's data is read (lseek's SEEK_DATA and SEEK_HOLE skip the blocks no
/// writer took; a filesystem without them is read whole), kReadChunkBlocks
/// blocks at a time. False with *error set: "cannot read PATH: why", or
/// readJournal()'s.
bool readJournalFile(const std::string &path, JournalContents *out,
                     std::string *error);

} // namespace msledger

#endif
