//===- journal.h - A crash-safe journal of the ledger's events --*- C++ -*-===//
//
// Contract: with journal_path set, every recorded event also goes to a
// memory-mapped file (MAP_SHARED), so what was recorded survives the process
// being killed at any instant -- SIGKILL, the OOM killer -- and
// `msledger report FILE` rebuilds the leak report from it afterwards.
//
// Format (version 3, little-endian): a 64-byte header (JournalHeader) in a
// page of its own, then 32-byte units in blocks of kBlockUnits, each block a
// page. Older journals are still read: version 2's site records lack the
// site serial (read as 0, so their findings' fingerprints differ from a live
// run's), version 1 also had the units right after the header.
// A thread takes a whole block at a time (one atomic operation per block,
// not per event) and fills it in order; a record is one or more units, the
// first carrying the type, the unit count and, written last (release), the
// commit byte. A reader takes committed records and skips the rest of a
// block at the first uncommitted unit: a record a killed thread was writing
// is lost, nothing else. Sites and chains are recorded once, when first
// seen, so events refer to them by id. The file has a fixed size
// (journal_size_mb), its blocks reserved as it fills, each before any unit
// in it is written (no SIGBUS on a full filesystem: the journal ends
// there); when it is full, later events are not journaled and the header
// says so. The ledger's monitor thread faults pages in ahead of the
// writers (prefault), so events do not pay for fresh pages; a writer
// starting a new chunk of blocks calls the chunk hook, which wakes the
// monitor to do so.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_JOURNAL_H
#define MSLEDGER_RUNTIME_JOURNAL_H

#include "msledger/msledger.h"
#include "record_table.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace msledger {

constexpr uint32_t kJournalVersion = 3;
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
  uint32_t full;        // 1: events were dropped, the file was full
  uint32_t exited;      // 1: the process exited normally
  uint32_t dataOffset;  // where the units start (version 2 on)
  uint32_t ledgerFlags; // kJournalLevel* | kJournalImplicitIsLeak (v2 on)
};
static_assert(sizeof(JournalHeader) == 64, "the header is 64 bytes");

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
  bool active() const { return Header != nullptr && !Disabled && !Paused; }
  void acquire(int level, const Record &record);
  /// `serial`, `api` and `site` are the releasing call's.
  void release(int level, uint64_t key, uint64_t serial, unsigned api,
               uint32_t site, bool allReferences);
  void site(uint32_t id, const msledger_site *site);
  void chain(uint32_t id, uint32_t siteId, const uint32_t *callerIds,
             unsigned count);
  void exited();
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
  /// A new block for the calling thread (`generation`: the journal's now);
  /// false when there is none.
  bool takeBlock(uint64_t generation);
  /// Writes a record's first unit, its commit byte last.
  static void write(JournalUnit *unit, uint8_t type, uint8_t levelSpace,
                    uint8_t count, uint32_t site, uint64_t serial, uint64_t key,
                    uint64_t sizeApi);
  /// Faults in the pages of kChunkBlocks blocks from `firstBlock` on.
  void populate(uint64_t firstBlock);
  uint64_t Populated = 0; // blocks faulted in; the monitor's
  /// Reserves the file's blocks through `blocks`, a step ahead if there is
  /// room. False if there is none: for a `writer`, the journal is full from
  /// then on (with a message); the monitor leaves that to the writers.
  bool reserveThrough(uint64_t blocks, bool writer);
  std::atomic<uint64_t> Reserved{0}; // blocks whose disk space is reserved
  std::mutex ReserveMutex;
  int Fd = -1;
  std::string Path;

  JournalHeader *Header = nullptr;
  uint64_t MappedBytes = 0;
  JournalUnit *Units = nullptr;
  uint64_t Blocks = 0;
  std::atomic<uint64_t> NextBlock{0};
  std::atomic<bool> Full{false};
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
  std::vector<Event> events; // in serial order
  struct Site {
    std::string file, callee, function;
    uint32_t line = 0, column = 0;
    uint64_t siteSerial = 0; // msledger_site::serial (version 3 on)
  };
  std::map<uint32_t, Site> sites;
  std::map<uint32_t, std::vector<uint32_t>> chains; // id -> site, callers
  uint64_t skipped = 0;   // incomplete records (a writer was killed)
  bool truncated = false; // the file is shorter than its header says
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
