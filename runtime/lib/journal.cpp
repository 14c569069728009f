//===- journal.cpp - A crash-safe journal of the ledger's events ----------===//
#include "journal.h"

#include "catalog_table.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace msledger {

namespace {

// Each thread's block being filled; a generation tells blocks of an earlier
// open (or of the parent, after fork) from this one's.
struct Cursor {
  JournalUnit *next = nullptr;
  JournalUnit *end = nullptr;
  uint64_t generation = 0;
};
__attribute__((tls_model("initial-exec"))) thread_local Cursor ThreadCursor;

uint64_t fnv1a(const char *text, uint64_t hash) {
  for (; *text; ++text)
    hash = (hash ^ static_cast<unsigned char>(*text)) * 0x100000001b3ULL;
  return hash;
}

} // namespace

uint64_t journalCatalogHash() {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < kApiCount; ++i)
    hash = fnv1a(kApis[i].name, hash) * 31;
  return hash;
}

bool Journal::open(const std::string &path, uint64_t bytes,
                   uint64_t startUnixMs, std::string *error) {
  uint64_t units = std::max<uint64_t>(bytes, 1 << 20) / sizeof(JournalUnit);
  uint64_t blocks = (units - 2) / kBlockUnits;
  uint64_t size = sizeof(JournalHeader) + blocks * kBlockUnits * 32;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    *error = "cannot create the journal " + path + ": " + strerror(errno);
    if (fd >= 0)
      close(fd);
    return false;
  }
  void *memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (memory == MAP_FAILED) {
    *error = "cannot map the journal " + path + ": " + strerror(errno);
    return false;
  }
  auto *header = static_cast<JournalHeader *>(memory);
  memcpy(header->magic, "MSLJRNL1", 8);
  header->version = kJournalVersion;
  header->unitSize = sizeof(JournalUnit);
  header->capacityUnits = blocks * kBlockUnits;
  header->startUnixMs = startUnixMs;
  header->pid = static_cast<uint32_t>(getpid());
  header->apiCount = static_cast<uint32_t>(kApiCount);
  header->catalogHash = journalCatalogHash();
  Units = reinterpret_cast<JournalUnit *>(header + 1);
  Blocks = blocks;
  NextBlock.store(0);
  Full.store(false);
  Generation.fetch_add(1);
  Header = header;
  Populated = 0;
  prefault();
  return true;
}

JournalUnit *Journal::reserve(unsigned count) {
  Cursor &cursor = ThreadCursor;
  uint64_t generation = Generation.load(std::memory_order_relaxed);
  if (cursor.generation != generation || cursor.next + count > cursor.end) {
    if (Full.load(std::memory_order_relaxed))
      return nullptr;
    uint64_t block = NextBlock.fetch_add(1, std::memory_order_relaxed);
    if (block >= Blocks) {
      Full.store(true, std::memory_order_relaxed);
      __atomic_store_n(&Header->full, 1, __ATOMIC_RELAXED);
      cursor.next = cursor.end = nullptr;
      cursor.generation = generation;
      return nullptr;
    }
    cursor.next = Units + block * kBlockUnits;
    cursor.end = cursor.next + kBlockUnits;
    cursor.generation = generation;
  }
  JournalUnit *unit = cursor.next;
  cursor.next += count;
  return unit;
}

void Journal::populate(uint64_t firstBlock) {
#ifdef MADV_POPULATE_WRITE
  if (firstBlock >= Blocks)
    return;
  uint64_t blocks = std::min<uint64_t>(kChunkBlocks, Blocks - firstBlock);
  madvise(Units + firstBlock * kBlockUnits,
          blocks * kBlockUnits * sizeof(JournalUnit), MADV_POPULATE_WRITE);
#else
  (void)firstBlock;
#endif
}

void Journal::prefault() {
  if (!active())
    return;
  // Keep kAheadChunks chunks faulted in ahead of the writers, so that no
  // event pays for a fresh page.
  uint64_t wanted =
      NextBlock.load(std::memory_order_relaxed) + kAheadChunks * kChunkBlocks;
  while (Populated < wanted && Populated < Blocks) {
    populate(Populated);
    Populated += kChunkBlocks;
  }
}

void Journal::commit(JournalUnit *unit) {
  __atomic_store_n(&unit->commit, kCommitted, __ATOMIC_RELEASE);
}

void Journal::acquire(int level, const Record &record) {
  JournalUnit *unit = reserve(1);
  if (!unit)
    return;
  unit->type = kJournalAcquire;
  unit->levelSpace = static_cast<uint8_t>(level | (record.space << 4));
  unit->count = 1;
  unit->site = record.site;
  unit->serial = record.serial;
  unit->key = record.key;
  unit->sizeApi = (record.size & ((1ULL << 48) - 1)) |
                  (static_cast<uint64_t>(record.api) << 48);
  commit(unit);
}

void Journal::release(int level, uint64_t key, uint64_t serial, unsigned api,
                      bool allReferences) {
  JournalUnit *unit = reserve(1);
  if (!unit)
    return;
  unit->type = allReferences ? kJournalReleaseAll : kJournalRelease;
  unit->levelSpace = static_cast<uint8_t>(level);
  unit->count = 1;
  unit->site = 0;
  unit->serial = serial;
  unit->key = key;
  unit->sizeApi = static_cast<uint64_t>(api) << 48;
  commit(unit);
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
  JournalUnit *unit = reserve(count);
  if (!unit)
    return;
  memset(unit + 1, 0, (count - 1) * sizeof(JournalUnit));
  memcpy(unit + 1, text.data(), text.size());
  unit->type = kJournalSite;
  unit->levelSpace = 0;
  unit->count = static_cast<uint8_t>(count);
  unit->site = id;
  unit->serial = (static_cast<uint64_t>(site->line) << 32) | site->column;
  unit->key = text.size();
  unit->sizeApi = 0;
  commit(unit);
}

void Journal::chain(uint32_t id, uint32_t siteId, const uint32_t *callerIds,
                    unsigned callers) {
  unsigned count = 1 + (callers + 7) / 8;
  JournalUnit *unit = reserve(count);
  if (!unit)
    return;
  memset(unit + 1, 0, (count - 1) * sizeof(JournalUnit));
  memcpy(unit + 1, callerIds, callers * sizeof(uint32_t));
  unit->type = kJournalChain;
  unit->levelSpace = 0;
  unit->count = static_cast<uint8_t>(count);
  unit->site = id;
  unit->serial = siteId;
  unit->key = callers;
  unit->sizeApi = 0;
  commit(unit);
}

void Journal::exited() {
  if (active())
    __atomic_store_n(&Header->exited, 1, __ATOMIC_RELEASE);
}

bool readJournal(const std::string &bytes, JournalContents *out,
                 std::string *error) {
  *out = JournalContents();
  if (bytes.size() < sizeof(JournalHeader) ||
      memcmp(bytes.data(), "MSLJRNL1", 8) != 0) {
    *error = "not an msledger journal";
    return false;
  }
  memcpy(&out->header, bytes.data(), sizeof(JournalHeader));
  if (out->header.version != kJournalVersion ||
      out->header.unitSize != sizeof(JournalUnit)) {
    *error = "a journal of version " + std::to_string(out->header.version) +
             "; this msledger reads version " + std::to_string(kJournalVersion);
    return false;
  }
  uint64_t available = (bytes.size() - sizeof(JournalHeader)) / 32;
  uint64_t units = std::min(out->header.capacityUnits, available);
  out->truncated = available < out->header.capacityUnits;
  const auto *all = reinterpret_cast<const JournalUnit *>(
      bytes.data() + sizeof(JournalHeader));
  for (uint64_t block = 0; block * kBlockUnits < units; ++block) {
    uint64_t end = std::min(units, (block + 1) * kBlockUnits);
    for (uint64_t i = block * kBlockUnits; i < end;) {
      const JournalUnit &unit = all[i];
      if (unit.commit != kCommitted || unit.count == 0 ||
          i + unit.count > end) {
        // The rest of the block is empty -- or a killed writer's record.
        bool empty = true;
        for (uint64_t j = i; j < end && empty; ++j)
          empty = all[j].type == 0 && all[j].commit == 0;
        if (!empty)
          ++out->skipped;
        break;
      }
      switch (unit.type) {
      case kJournalAcquire:
      case kJournalRelease:
      case kJournalReleaseAll:
        out->events.push_back(JournalContents::Event{
            unit.type, unit.levelSpace & 1,
            static_cast<uint8_t>((unit.levelSpace >> 4) & 7),
            static_cast<unsigned>(unit.sizeApi >> 48), unit.site, unit.serial,
            unit.key, unit.sizeApi & ((1ULL << 48) - 1)});
        break;
      case kJournalSite: {
        std::string text(reinterpret_cast<const char *>(&all[i + 1]),
                         std::min<uint64_t>(unit.key, (unit.count - 1) * 32));
        JournalContents::Site site;
        size_t a = text.find('\0'), b = text.find('\0', a + 1);
        site.file = text.substr(0, a);
        if (a != std::string::npos)
          site.callee = text.substr(a + 1, b - a - 1);
        if (b != std::string::npos)
          site.function = text.substr(b + 1, text.find('\0', b + 1) - b - 1);
        site.line = static_cast<uint32_t>(unit.serial >> 32);
        site.column = static_cast<uint32_t>(unit.serial);
        out->sites[unit.site] = site;
        break;
      }
      case kJournalChain: {
        std::vector<uint32_t> ids = {static_cast<uint32_t>(unit.serial)};
        const auto *callers = reinterpret_cast<const uint32_t *>(&all[i + 1]);
        for (uint64_t c = 0; c < unit.key && c < (unit.count - 1) * 8u; ++c)
          ids.push_back(callers[c]);
        out->chains[unit.site] = ids;
        break;
      }
      default:
        ++out->skipped;
        break;
      }
      i += unit.count;
    }
  }
  std::sort(
      out->events.begin(), out->events.end(),
      [](const JournalContents::Event &a, const JournalContents::Event &b) {
        return a.serial < b.serial;
      });
  return true;
}

} // namespace msledger
