//===- transport.cpp - HCCL ranks meeting in shared memory ----------------===//
//
// See transport.h. All state shared between ranks is in Segment, changed
// only under its mutex; every change is announced on its condition variable
// (a broadcast: the waiters check what they wait for).
//
//===----------------------------------------------------------------------===//
#include "transport.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <random>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

namespace mssim {
namespace hccl {

namespace {
constexpr uint32_t kMagic = 0x4d534843; // "MSHC"
constexpr size_t kHeaderBytes = 64u << 10;
} // namespace

struct Mailbox {
  uint64_t Bytes; // in the mailbox now
  uint64_t Total; // of the whole message
  uint32_t Full;
};

struct Segment {
  std::atomic<uint32_t> Magic; // set once the rest is initialised
  uint32_t Ranks;
  pthread_mutex_t Mutex;
  pthread_cond_t Changed;
  uint32_t Joined;
  uint32_t Unlinked; // the name is gone (whoever unlinked it says so here)
  uint32_t Broken;
  int32_t Pid[kMaxRanks];
  uint64_t Generation;
  uint32_t Arrived;
  Mailbox Boxes[kMaxRanks][kMaxRanks];
};
static_assert(sizeof(Segment) <= kHeaderBytes, "segment header too large");

namespace {

size_t segmentBytes(uint32_t ranks) {
  return kHeaderBytes + size_t(ranks) * kSlotBytes +
         size_t(ranks) * ranks * kMailboxBytes;
}

/// Whether a rank's process still runs. One that exited but is not reaped
/// yet (a zombie, state Z or X in /proc/PID/stat) answers kill(pid, 0) all
/// the same: it is gone for its peers, who would otherwise wait for it until
/// its parent happens to reap it.
bool alive(int32_t pid) {
  if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
    return false;
  char path[32];
  snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE *stat = fopen(path, "r");
  if (!stat)
    return true; // no procfs: what kill says
  char line[512] = {};
  size_t length = fread(line, 1, sizeof line - 1, stat);
  fclose(stat);
  // "PID (COMMAND) STATE ...": COMMAND may hold spaces and parentheses.
  const char *close = strrchr(line, ')');
  if (!close || close + 2 >= line + length)
    return true;
  char state = close[2];
  return state != 'Z' && state != 'X';
}

/// Holds a segment's robust mutex; a holder that died leaves the group
/// broken (what it was doing is unknown).
class Lock {
public:
  explicit Lock(Segment *segment) : S(segment) {
    if (pthread_mutex_lock(&S->Mutex) == EOWNERDEAD) {
      pthread_mutex_consistent(&S->Mutex);
      S->Broken = 1;
    }
  }
  ~Lock() { pthread_mutex_unlock(&S->Mutex); }
  Lock(const Lock &) = delete;
  Lock &operator=(const Lock &) = delete;

private:
  Segment *S;
};

timespec monotonicIn(std::chrono::milliseconds from) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long ns = now.tv_nsec + (from.count() % 1000) * 1000000LL;
  now.tv_sec += from.count() / 1000 + ns / 1000000000LL;
  now.tv_nsec = ns % 1000000000LL;
  return now;
}

/// Whether a rank that has joined is gone (its process died).
bool peerLost(const Segment *s) {
  for (uint32_t r = 0; r < s->Ranks; ++r)
    if (s->Pid[r] && !alive(s->Pid[r]))
      return true;
  return false;
}

/// Under the lock: waits until `done()`, the deadline (timeout 0: none),
/// a broken group or a lost peer (checked when `watchPeers`).
template <typename Done>
Outcome waitLocked(Segment *s, std::chrono::milliseconds timeout,
                   bool watchPeers, Done done) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::now() + timeout;
  while (true) {
    if (done())
      return Outcome::Done;
    if (s->Broken)
      return Outcome::Broken;
    if (watchPeers && peerLost(s))
      return Outcome::PeerLost;
    if (timeout.count() > 0 && Clock::now() >= deadline)
      return Outcome::TimedOut;
    // Wake now and then to look at the peers and the clock.
    timespec until = monotonicIn(std::chrono::milliseconds(100));
    int rc = pthread_cond_timedwait(&s->Changed, &s->Mutex, &until);
    if (rc == EOWNERDEAD) {
      pthread_mutex_consistent(&s->Mutex);
      s->Broken = 1;
    }
  }
}

/// Under the lock: unlinks the segment's name unless someone did.
void unlinkLocked(Segment *s, const std::string &name) {
  if (!s->Unlinked) {
    s->Unlinked = 1;
    shm_unlink(name.c_str());
  }
}

void initialise(Segment *s, uint32_t ranks) {
  pthread_mutexattr_t mutexAttr;
  pthread_mutexattr_init(&mutexAttr);
  pthread_mutexattr_setpshared(&mutexAttr, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&mutexAttr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&s->Mutex, &mutexAttr);
  pthread_mutexattr_destroy(&mutexAttr);
  pthread_condattr_t condAttr;
  pthread_condattr_init(&condAttr);
  pthread_condattr_setpshared(&condAttr, PTHREAD_PROCESS_SHARED);
  pthread_condattr_setclock(&condAttr, CLOCK_MONOTONIC);
  pthread_cond_init(&s->Changed, &condAttr);
  pthread_condattr_destroy(&condAttr);
  s->Ranks = ranks;
  s->Magic.store(kMagic, std::memory_order_release);
}

} // namespace

std::string Group::nameOf(const std::string &key) {
  return "/mssim-hccl-" + std::to_string(getuid()) + "-" + key;
}

std::unique_ptr<Group> Group::open(const std::string &key, uint32_t ranks,
                                   uint32_t rank, Outcome *outcome) {
  *outcome = Outcome::Broken;
  if (ranks == 0 || ranks > kMaxRanks || rank >= ranks)
    return nullptr;
  std::string name = nameOf(key);
  size_t bytes = segmentBytes(ranks);
  for (int attempt = 0; attempt < 20; ++attempt) {
    bool created = true;
    int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST) {
      created = false;
      fd = shm_open(name.c_str(), O_RDWR, 0600);
    }
    if (fd < 0) {
      if (errno == ENOENT)
        continue; // unlinked between the two opens: create it afresh
      return nullptr;
    }
    if (created && ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      close(fd);
      shm_unlink(name.c_str());
      return nullptr;
    }
    // An opener waits (briefly) for the creator to size and initialise it.
    struct stat info;
    for (int i = 0; !created && i < 1000; ++i) {
      if (fstat(fd, &info) == 0 && info.st_size != 0)
        break;
      usleep(1000);
    }
    if (!created &&
        (fstat(fd, &info) != 0 || static_cast<size_t>(info.st_size) != bytes)) {
      close(fd);
      return nullptr; // another number of ranks
    }
    void *map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
      return nullptr;
    auto *s = static_cast<Segment *>(map);
    if (created)
      initialise(s, ranks);
    for (int i = 0; s->Magic.load(std::memory_order_acquire) != kMagic; ++i) {
      if (i == 1000) { // the creator died initialising it
        munmap(map, bytes);
        shm_unlink(name.c_str());
        map = nullptr;
        break;
      }
      usleep(1000);
    }
    if (!map)
      continue;
    std::unique_ptr<Group> group(new Group());
    group->Name = name;
    group->Shared = s;
    group->Bytes = bytes;
    group->Ranks = ranks;
    group->Rank = rank;
    bool stale = false, taken = false;
    {
      Lock lock(s);
      stale = s->Ranks != ranks || peerLost(s) || s->Unlinked;
      taken = !stale && s->Pid[rank] != 0;
      if (stale) {
        unlinkLocked(s, name);
      } else if (!taken) {
        s->Pid[rank] = getpid();
        ++s->Joined;
        pthread_cond_broadcast(&s->Changed);
      }
    }
    if (stale) {
      // Left by a run whose ranks died (or a communicator of another size
      // under the same name): start a new one.
      munmap(map, bytes);
      group->Shared = nullptr;
      continue;
    }
    if (taken) {
      munmap(map, bytes);
      group->Shared = nullptr;
      return nullptr; // two ranks claim the same rank number
    }
    *outcome = Outcome::Done;
    return group;
  }
  return nullptr;
}

Outcome Group::waitForAll(std::chrono::milliseconds timeout) {
  Lock lock(Shared);
  Outcome outcome = waitLocked(Shared, timeout, false,
                               [&] { return Shared->Joined == Ranks; });
  // Complete or given up: no other rank may open the name now.
  unlinkLocked(Shared, Name);
  return outcome;
}

Outcome Group::barrier(std::chrono::milliseconds timeout) {
  Lock lock(Shared);
  if (Shared->Broken)
    return Outcome::Broken;
  uint64_t generation = Shared->Generation;
  if (++Shared->Arrived == Ranks) {
    Shared->Arrived = 0;
    ++Shared->Generation;
    pthread_cond_broadcast(&Shared->Changed);
    return Outcome::Done;
  }
  Outcome outcome = waitLocked(
      Shared, timeout, true, [&] { return Shared->Generation != generation; });
  if (outcome != Outcome::Done) {
    Shared->Broken = 1;
    pthread_cond_broadcast(&Shared->Changed);
  }
  return outcome;
}

uint8_t *Group::slot(uint32_t rank) {
  return reinterpret_cast<uint8_t *>(Shared) + kHeaderBytes +
         size_t(rank) * kSlotBytes;
}

namespace {
uint8_t *mailboxData(Segment *s, uint32_t from, uint32_t to) {
  return reinterpret_cast<uint8_t *>(s) + kHeaderBytes +
         size_t(s->Ranks) * kSlotBytes +
         (size_t(from) * s->Ranks + to) * kMailboxBytes;
}
} // namespace

Outcome Group::send(uint32_t peer, const uint8_t *data, uint64_t bytes,
                    std::chrono::milliseconds timeout) {
  Mailbox &box = Shared->Boxes[Rank][peer];
  uint8_t *area = mailboxData(Shared, Rank, peer);
  for (uint64_t offset = 0; offset < bytes;) {
    uint64_t piece = std::min<uint64_t>(kMailboxBytes, bytes - offset);
    Lock lock(Shared);
    Outcome outcome =
        waitLocked(Shared, timeout, true, [&] { return box.Full == 0; });
    if (outcome != Outcome::Done) {
      Shared->Broken = 1;
      pthread_cond_broadcast(&Shared->Changed);
      return outcome;
    }
    std::memcpy(area, data + offset, piece);
    box.Bytes = piece;
    box.Total = bytes;
    box.Full = 1;
    pthread_cond_broadcast(&Shared->Changed);
    offset += piece;
  }
  return Outcome::Done;
}

Outcome Group::receive(uint32_t peer, uint8_t *data, uint64_t bytes,
                       std::chrono::milliseconds timeout) {
  Mailbox &box = Shared->Boxes[peer][Rank];
  const uint8_t *area = mailboxData(Shared, peer, Rank);
  for (uint64_t offset = 0; offset < bytes;) {
    Lock lock(Shared);
    Outcome outcome =
        waitLocked(Shared, timeout, true, [&] { return box.Full != 0; });
    if (outcome == Outcome::Done &&
        (box.Total != bytes || offset + box.Bytes > bytes))
      outcome = Outcome::Broken; // the send is not the size received
    if (outcome != Outcome::Done) {
      Shared->Broken = 1;
      pthread_cond_broadcast(&Shared->Changed);
      return outcome;
    }
    std::memcpy(data + offset, area, box.Bytes);
    offset += box.Bytes;
    box.Full = 0;
    pthread_cond_broadcast(&Shared->Changed);
  }
  return Outcome::Done;
}

void Group::breakGroup() {
  Lock lock(Shared);
  Shared->Broken = 1;
  pthread_cond_broadcast(&Shared->Changed);
}

void Group::leave() {
  if (!Shared)
    return;
  {
    Lock lock(Shared);
    unlinkLocked(Shared, Name);
    // A rank that leaves is gone for its peers, as a process that exits.
    Shared->Broken = Shared->Broken || Shared->Joined != Ranks;
    pthread_cond_broadcast(&Shared->Changed);
  }
  munmap(Shared, Bytes);
  Shared = nullptr;
}

Group::~Group() { leave(); }

void sweepStaleSegments() {
  std::string prefix = "mssim-hccl-" + std::to_string(getuid()) + "-r";
  DIR *dir = opendir("/dev/shm");
  if (!dir)
    return;
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    long maker = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (maker <= 0 || alive(static_cast<int32_t>(maker)))
      continue;
    int fd = shm_open(("/" + name).c_str(), O_RDWR, 0600);
    if (fd < 0)
      continue;
    struct stat info;
    if (fstat(fd, &info) == 0 &&
        static_cast<size_t>(info.st_size) >= kHeaderBytes) {
      void *map = mmap(nullptr, kHeaderBytes, PROT_READ | PROT_WRITE,
                       MAP_SHARED, fd, 0);
      if (map != MAP_FAILED) {
        auto *s = static_cast<Segment *>(map);
        if (s->Magic.load(std::memory_order_acquire) == kMagic) {
          Lock lock(s);
          bool anyAlive = false;
          for (uint32_t r = 0; r < s->Ranks && r < kMaxRanks; ++r)
            anyAlive = anyAlive || alive(s->Pid[r]);
          if (!anyAlive)
            unlinkLocked(s, "/" + name);
        }
        munmap(map, kHeaderBytes);
      }
    }
    close(fd);
  }
  closedir(dir);
}

} // namespace hccl
} // namespace mssim
