//===- HcclTest.cpp - libhccl.so: communicators and collectives -----------===//
//
// The ranks of a communicator are fork()ed processes (2 and 4), as ranks
// are on a real machine; each one does the collectives on several data
// types and reductions and checks the results against a reference
// computed here, independently of the library. The single-process parts
// (HcclCommInitAll, errors, handles, timeouts) run in the test process.
//
//===----------------------------------------------------------------------===//
#include "hccl/hccl.h"
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

//===-- Values and their encodings, independent of the library -----------===//

/// The test value of element i on rank r: small integers in [-3, 3], so
/// that every sum, product, maximum and minimum of up to four ranks is
/// exact in every type (float16 and bfloat16 included).
int valueOf(uint32_t rank, uint64_t i) {
  return static_cast<int>((rank * 7 + i * 3 + 1) % 7) - 3;
}

/// An integer of magnitude below 2048 as IEEE binary16 (exact).
uint16_t halfOf(double value) {
  if (value == 0)
    return 0;
  uint16_t sign = value < 0 ? 0x8000 : 0;
  double magnitude = value < 0 ? -value : value;
  int exponent = 0;
  while (magnitude >= 2) {
    magnitude /= 2;
    ++exponent;
  }
  uint16_t mantissa = static_cast<uint16_t>((magnitude - 1) * 1024);
  return sign | static_cast<uint16_t>((exponent + 15) << 10) | mantissa;
}

/// A float's top half: bfloat16 (exact for small integers).
uint16_t bfloat16Of(double value) {
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

struct TypeCase {
  HcclDataType Type;
  size_t Size;
  bool Unsigned;
  const char *Name;
};

const TypeCase kTypes[] = {
    {HCCL_DATA_TYPE_INT8, 1, false, "int8"},
    {HCCL_DATA_TYPE_INT16, 2, false, "int16"},
    {HCCL_DATA_TYPE_INT32, 4, false, "int32"},
    {HCCL_DATA_TYPE_INT64, 8, false, "int64"},
    {HCCL_DATA_TYPE_UINT64, 8, true, "uint64"},
    {HCCL_DATA_TYPE_FP16, 2, false, "fp16"},
    {HCCL_DATA_TYPE_FP32, 4, false, "fp32"},
    {HCCL_DATA_TYPE_FP64, 8, false, "fp64"},
    {HCCL_DATA_TYPE_BFP16, 2, false, "bf16"},
};

/// `value` as the bytes of one element of `type`.
void encode(const TypeCase &type, double value, uint8_t *out) {
  switch (type.Type) {
  case HCCL_DATA_TYPE_INT8: {
    int8_t v = static_cast<int8_t>(value);
    std::memcpy(out, &v, 1);
    break;
  }
  case HCCL_DATA_TYPE_INT16: {
    int16_t v = static_cast<int16_t>(value);
    std::memcpy(out, &v, 2);
    break;
  }
  case HCCL_DATA_TYPE_INT32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(out, &v, 4);
    break;
  }
  case HCCL_DATA_TYPE_INT64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(out, &v, 8);
    break;
  }
  case HCCL_DATA_TYPE_UINT64: {
    uint64_t v = static_cast<uint64_t>(value);
    std::memcpy(out, &v, 8);
    break;
  }
  case HCCL_DATA_TYPE_FP16: {
    uint16_t v = halfOf(value);
    std::memcpy(out, &v, 2);
    break;
  }
  case HCCL_DATA_TYPE_FP32: {
    float v = static_cast<float>(value);
    std::memcpy(out, &v, 4);
    break;
  }
  case HCCL_DATA_TYPE_FP64:
    std::memcpy(out, &value, 8);
    break;
  default: {
    uint16_t v = bfloat16Of(value);
    std::memcpy(out, &v, 2);
    break;
  }
  }
}

/// Rank r's input value of element i in `type` (unsigned types shifted to
/// [0, 6]).
double inputOf(const TypeCase &type, uint32_t rank, uint64_t i) {
  return valueOf(rank, i) + (type.Unsigned ? 3 : 0);
}

double reduceRef(HcclReduceOp op, double a, double b) {
  switch (op) {
  case HCCL_REDUCE_SUM:
    return a + b;
  case HCCL_REDUCE_PROD:
    return a * b;
  case HCCL_REDUCE_MAX:
    return a > b ? a : b;
  default:
    return a < b ? a : b;
  }
}

std::vector<uint8_t> encodeAll(const TypeCase &type,
                               const std::vector<double> &values) {
  std::vector<uint8_t> bytes(values.size() * type.Size);
  for (size_t i = 0; i < values.size(); ++i)
    encode(type, values[i], bytes.data() + i * type.Size);
  return bytes;
}

//===-- A rank: a forked process reporting by its exit status ------------===//

/// Fails the rank (the process's exit status names the line).
#define RANK_CHECK(condition)                                                  \
  do {                                                                         \
    if (!(condition)) {                                                        \
      fprintf(stderr, "rank check failed at line %d: %s\n", __LINE__,          \
              #condition);                                                     \
      return __LINE__ % 250 + 1;                                               \
    }                                                                          \
  } while (0)

void *toDevice(const std::vector<uint8_t> &bytes) {
  void *device = nullptr;
  if (aclrtMalloc(&device, bytes.size(), ACL_MEM_MALLOC_HUGE_FIRST) !=
      ACL_SUCCESS)
    return nullptr;
  if (aclrtMemcpy(device, bytes.size(), bytes.data(), bytes.size(),
                  ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
    return nullptr;
  return device;
}

std::vector<uint8_t> fromDevice(void *device, size_t bytes) {
  std::vector<uint8_t> out(bytes);
  if (aclrtMemcpy(out.data(), bytes, device, bytes,
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
    out.clear();
  return out;
}

size_t deviceBytesInUse() {
  size_t free = 0, total = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
  return total - free;
}

/// Runs `ranks` processes, each `body(rank, pipe to read the root info from
/// or, for rank 0, the pipes to write it to)`; the pids in *pids. True if
/// every rank exited 0.
bool runRanks(uint32_t ranks, const std::function<int(uint32_t)> &body,
              std::vector<pid_t> *pids = nullptr) {
  std::vector<pid_t> children;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0)
      _exit(body(rank));
    children.push_back(pid);
  }
  bool ok = true;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    int status = 0;
    waitpid(children[rank], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ADD_FAILURE() << "rank " << rank << " failed: status " << status;
      ok = false;
    }
  }
  if (pids)
    *pids = children;
  return ok;
}

/// The shared memory segments of the simulated HCCL of this user whose
/// names start with `prefix` (after "mssim-hccl-<uid>-").
std::vector<std::string> segments(const std::string &prefix) {
  std::vector<std::string> found;
  std::string start = "mssim-hccl-" + std::to_string(getuid()) + "-" + prefix;
  if (DIR *dir = opendir("/dev/shm")) {
    while (dirent *entry = readdir(dir))
      if (std::string(entry->d_name).compare(0, start.size(), start) == 0)
        found.push_back(entry->d_name);
    closedir(dir);
  }
  return found;
}

/// Rank `rank` of `ranks`: every collective on every type and reduction
/// (the ones the real library supports), checked against the reference.
int collectives(HcclComm comm, uint32_t rank, uint32_t ranks,
                aclrtStream stream) {
  uint32_t size = 0, id = 99;
  RANK_CHECK(HcclGetRankSize(comm, &size) == HCCL_SUCCESS && size == ranks);
  RANK_CHECK(HcclGetRankId(comm, &id) == HCCL_SUCCESS && id == rank);
  const HcclReduceOp ops[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD,
                              HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
  for (const TypeCase &type : kTypes) {
    // fp32 crosses the staging slot (1 MiB) several times.
    uint64_t count = type.Type == HCCL_DATA_TYPE_FP32 ? 300000 : 1000;
    std::vector<double> mine(count);
    for (uint64_t i = 0; i < count; ++i)
      mine[i] = inputOf(type, rank, i);
    void *send = toDevice(encodeAll(type, mine));
    RANK_CHECK(send != nullptr);
    void *recv = nullptr;
    RANK_CHECK(aclrtMalloc(&recv, count * type.Size * ranks,
                           ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    for (HcclReduceOp op : ops) {
      bool refused =
          op == HCCL_REDUCE_PROD && (type.Type == HCCL_DATA_TYPE_INT16 ||
                                     type.Type == HCCL_DATA_TYPE_BFP16);
      HcclResult result =
          HcclAllReduce(send, recv, count, type.Type, op, comm, stream);
      if (refused) {
        RANK_CHECK(result == HCCL_E_NOT_SUPPORT);
        continue;
      }
      RANK_CHECK(result == HCCL_SUCCESS);
      RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
      std::vector<double> expected(count);
      for (uint64_t i = 0; i < count; ++i) {
        expected[i] = inputOf(type, 0, i);
        for (uint32_t r = 1; r < ranks; ++r)
          expected[i] = reduceRef(op, expected[i], inputOf(type, r, i));
      }
      if (fromDevice(recv, count * type.Size) != encodeAll(type, expected)) {
        fprintf(stderr, "AllReduce %s op %d differs\n", type.Name, op);
        return 2;
      }
      // ReduceScatter: rank r gets the reduction of every rank's block r,
      // each rank's input being `ranks` blocks of `count / ranks`.
      uint64_t share = count / ranks;
      RANK_CHECK(HcclReduceScatter(send, recv, share, type.Type, op, comm,
                                   stream) == HCCL_SUCCESS);
      RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
      std::vector<double> scattered(share);
      for (uint64_t i = 0; i < share; ++i)
        scattered[i] = expected[rank * share + i];
      if (fromDevice(recv, share * type.Size) != encodeAll(type, scattered)) {
        fprintf(stderr, "ReduceScatter %s op %d differs\n", type.Name, op);
        return 3;
      }
    }
    // AllGather: every rank's input, in rank order.
    RANK_CHECK(HcclAllGather(send, recv, count, type.Type, comm, stream) ==
               HCCL_SUCCESS);
    RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    std::vector<double> gathered;
    for (uint32_t r = 0; r < ranks; ++r)
      for (uint64_t i = 0; i < count; ++i)
        gathered.push_back(inputOf(type, r, i));
    if (fromDevice(recv, count * type.Size * ranks) !=
        encodeAll(type, gathered)) {
      fprintf(stderr, "AllGather %s differs\n", type.Name);
      return 4;
    }
    // Broadcast from the last rank, in place.
    uint32_t root = ranks - 1;
    RANK_CHECK(HcclBroadcast(send, count, type.Type, root, comm, stream) ==
               HCCL_SUCCESS);
    RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    std::vector<double> rootValues(count);
    for (uint64_t i = 0; i < count; ++i)
      rootValues[i] = inputOf(type, root, i);
    if (fromDevice(send, count * type.Size) != encodeAll(type, rootValues)) {
      fprintf(stderr, "Broadcast %s differs\n", type.Name);
      return 5;
    }
    RANK_CHECK(aclrtFree(send) == ACL_SUCCESS);
    RANK_CHECK(aclrtFree(recv) == ACL_SUCCESS);
  }
  // Unsupported combinations fail at once, with the real codes.
  void *buffer = nullptr;
  RANK_CHECK(aclrtMalloc(&buffer, 64, ACL_MEM_MALLOC_HUGE_FIRST) ==
             ACL_SUCCESS);
  RANK_CHECK(HcclAllReduce(buffer, buffer, 4, HCCL_DATA_TYPE_UINT8,
                           HCCL_REDUCE_SUM, comm,
                           stream) == HCCL_E_NOT_SUPPORT);
  RANK_CHECK(HcclAllGather(buffer, buffer, 1, HCCL_DATA_TYPE_INT128, comm,
                           stream) == HCCL_E_NOT_SUPPORT);
  RANK_CHECK(HcclAllReduce(buffer, buffer, 4, HCCL_DATA_TYPE_INT32,
                           HCCL_REDUCE_RESERVED, comm, stream) == HCCL_E_PARA);
  RANK_CHECK(aclrtFree(buffer) == ACL_SUCCESS);

  // Send and receive round a ring, in pieces bigger than a mailbox: even
  // ranks send first, odd ranks receive first.
  const uint64_t count = 100000;
  std::vector<double> mine(count), theirs(count);
  uint32_t next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  for (uint64_t i = 0; i < count; ++i) {
    mine[i] = inputOf(kTypes[2], rank, i);
    theirs[i] = inputOf(kTypes[2], previous, i);
  }
  void *send = toDevice(encodeAll(kTypes[2], mine));
  void *recv = nullptr;
  RANK_CHECK(send && aclrtMalloc(&recv, count * 4, ACL_MEM_MALLOC_HUGE_FIRST) ==
                         ACL_SUCCESS);
  if (rank % 2 == 0) {
    RANK_CHECK(HcclSend(send, count, HCCL_DATA_TYPE_INT32, next, comm,
                        stream) == HCCL_SUCCESS);
    RANK_CHECK(HcclRecv(recv, count, HCCL_DATA_TYPE_INT32, previous, comm,
                        stream) == HCCL_SUCCESS);
  } else {
    RANK_CHECK(HcclRecv(recv, count, HCCL_DATA_TYPE_INT32, previous, comm,
                        stream) == HCCL_SUCCESS);
    RANK_CHECK(HcclSend(send, count, HCCL_DATA_TYPE_INT32, next, comm,
                        stream) == HCCL_SUCCESS);
  }
  RANK_CHECK(HcclSend(send, count, HCCL_DATA_TYPE_INT32, rank, comm, stream) ==
             HCCL_E_NOT_SUPPORT);
  RANK_CHECK(HcclBarrier(comm, stream) == HCCL_SUCCESS);
  RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  RANK_CHECK(fromDevice(recv, count * 4) == encodeAll(kTypes[2], theirs));
  RANK_CHECK(aclrtFree(send) == ACL_SUCCESS);
  RANK_CHECK(aclrtFree(recv) == ACL_SUCCESS);
  return 0;
}

/// A rank made from a root info: rank 0 makes it and writes it to the
/// others' pipes.
int rootInfoRank(uint32_t rank, uint32_t ranks,
                 const std::vector<std::array<int, 2>> &pipes) {
  setenv("HCCL_BUFFSIZE", "1", 1);
  RANK_CHECK(aclInit(nullptr) == ACL_SUCCESS);
  uint32_t devices = 0;
  RANK_CHECK(aclrtGetDeviceCount(&devices) == ACL_SUCCESS && devices > 0);
  RANK_CHECK(aclrtSetDevice(static_cast<int32_t>(rank % devices)) ==
             ACL_SUCCESS);
  HcclRootInfo root;
  if (rank == 0) {
    RANK_CHECK(HcclGetRootInfo(&root) == HCCL_SUCCESS);
    for (uint32_t r = 1; r < ranks; ++r)
      RANK_CHECK(write(pipes[r][1], &root, sizeof root) ==
                 static_cast<ssize_t>(sizeof root));
  } else {
    size_t got = 0;
    while (got < sizeof root) {
      ssize_t n = read(pipes[rank][0], reinterpret_cast<char *>(&root) + got,
                       sizeof root - got);
      RANK_CHECK(n > 0);
      got += static_cast<size_t>(n);
    }
  }
  aclrtStream stream = nullptr;
  RANK_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  size_t before = deviceBytesInUse();
  HcclComm comm = nullptr;
  RANK_CHECK(HcclCommInitRootInfo(ranks, &root, rank, &comm) == HCCL_SUCCESS);
  // Two CCL buffers of HCCL_BUFFSIZE (1 MB) at the driver level.
  RANK_CHECK(deviceBytesInUse() == before + 2 * (1u << 20));
  if (int failed = collectives(comm, rank, ranks, stream))
    return failed;
  RANK_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
  RANK_CHECK(deviceBytesInUse() == before);
  RANK_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  RANK_CHECK(aclFinalize() == ACL_SUCCESS);
  return 0;
}

void rootInfoRanks(uint32_t ranks) {
  std::vector<std::array<int, 2>> pipes(ranks);
  for (auto &p : pipes)
    ASSERT_EQ(pipe(p.data()), 0);
  std::vector<pid_t> pids;
  EXPECT_TRUE(runRanks(
      ranks, [&](uint32_t rank) { return rootInfoRank(rank, ranks, pipes); },
      &pids));
  for (auto &p : pipes) {
    close(p[0]);
    close(p[1]);
  }
  // Nothing is left in /dev/shm of the root info rank 0 made.
  EXPECT_TRUE(segments("r" + std::to_string(pids[0]) + "-").empty());
}

TEST(Hccl, TwoRanksComputeEveryCollective) { rootInfoRanks(2); }

TEST(Hccl, FourRanksComputeEveryCollective) { rootInfoRanks(4); }

/// Rank `rank` of `ranks` made from the root info rank 0 hands out, then
/// `body(comm, stream)`.
int withCommunicator(uint32_t rank, uint32_t ranks,
                     const std::vector<std::array<int, 2>> &pipes,
                     const std::function<int(HcclComm, aclrtStream)> &body) {
  setenv("HCCL_BUFFSIZE", "1", 1);
  RANK_CHECK(aclInit(nullptr) == ACL_SUCCESS);
  RANK_CHECK(aclrtSetDevice(static_cast<int32_t>(rank % 2)) == ACL_SUCCESS);
  HcclRootInfo root;
  if (rank == 0) {
    RANK_CHECK(HcclGetRootInfo(&root) == HCCL_SUCCESS);
    for (uint32_t r = 1; r < ranks; ++r)
      RANK_CHECK(write(pipes[r][1], &root, sizeof root) ==
                 static_cast<ssize_t>(sizeof root));
  } else {
    RANK_CHECK(read(pipes[rank][0], &root, sizeof root) ==
               static_cast<ssize_t>(sizeof root));
  }
  aclrtStream stream = nullptr;
  RANK_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  HcclComm comm = nullptr;
  RANK_CHECK(HcclCommInitRootInfo(ranks, &root, rank, &comm) == HCCL_SUCCESS);
  if (int failed = body(comm, stream))
    return failed;
  RANK_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
  RANK_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  RANK_CHECK(aclFinalize() == ACL_SUCCESS);
  return 0;
}

std::vector<std::array<int, 2>> makePipes(uint32_t ranks) {
  std::vector<std::array<int, 2>> pipes(ranks);
  for (auto &p : pipes)
    if (pipe(p.data()) != 0)
      ADD_FAILURE() << "pipe";
  return pipes;
}

TEST(Hccl, SubCommunicatorsComputeAmongTheirRanks) {
  const uint32_t ranks = 4;
  auto pipes = makePipes(ranks);
  EXPECT_TRUE(runRanks(ranks, [&](uint32_t rank) {
    return withCommunicator(
        rank, ranks, pipes, [&](HcclComm comm, aclrtStream stream) {
          // Even ranks and odd ranks, each a sub-communicator.
          uint32_t parity = rank % 2;
          uint32_t members[2] = {parity, parity + 2};
          HcclCommConfig config;
          HcclCommConfigInit(&config);
          HcclComm sub = nullptr;
          RANK_CHECK(HcclCreateSubCommConfig(&comm, 2, members, parity,
                                             rank / 2, &config,
                                             &sub) == HCCL_SUCCESS);
          uint32_t size = 0, id = 9;
          RANK_CHECK(HcclGetRankSize(sub, &size) == HCCL_SUCCESS && size == 2);
          RANK_CHECK(HcclGetRankId(sub, &id) == HCCL_SUCCESS && id == rank / 2);
          char name[COMM_NAME_MAX_LENGTH], parent[COMM_NAME_MAX_LENGTH];
          RANK_CHECK(HcclGetCommName(sub, name) == HCCL_SUCCESS);
          RANK_CHECK(HcclGetCommName(comm, parent) == HCCL_SUCCESS);
          RANK_CHECK(std::string(name) ==
                     std::string(parent) + "_sub_" + std::to_string(parity));
          // Not this rank's index; not ascending; no further split.
          HcclComm bad = nullptr;
          RANK_CHECK(HcclCreateSubCommConfig(&comm, 2, members, 7, 1 - rank / 2,
                                             &config, &bad) == HCCL_E_PARA);
          uint32_t descending[2] = {members[1], members[0]};
          RANK_CHECK(HcclCreateSubCommConfig(&comm, 2, descending, 7, 0,
                                             &config, &bad) == HCCL_E_PARA);
          RANK_CHECK(HcclCreateSubCommConfig(&sub, 2, members, 7, rank / 2,
                                             &config,
                                             &bad) == HCCL_E_NOT_SUPPORT);
          RANK_CHECK(HcclCreateSubCommConfig(&comm, 0, nullptr, 0xFFFFFFFF, 0,
                                             &config, &bad) == HCCL_SUCCESS &&
                     bad == nullptr);
          std::vector<double> mine(256);
          for (size_t i = 0; i < mine.size(); ++i)
            mine[i] = inputOf(kTypes[2], rank, i);
          void *buffer = toDevice(encodeAll(kTypes[2], mine));
          RANK_CHECK(buffer != nullptr);
          RANK_CHECK(HcclAllReduce(buffer, buffer, mine.size(),
                                   HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, sub,
                                   stream) == HCCL_SUCCESS);
          RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
          std::vector<double> expected(mine.size());
          for (size_t i = 0; i < mine.size(); ++i)
            expected[i] = inputOf(kTypes[2], members[0], i) +
                          inputOf(kTypes[2], members[1], i);
          RANK_CHECK(fromDevice(buffer, mine.size() * 4) ==
                     encodeAll(kTypes[2], expected));
          RANK_CHECK(aclrtFree(buffer) == ACL_SUCCESS);
          RANK_CHECK(HcclCommDestroy(sub) == HCCL_SUCCESS);
          return 0;
        });
  }));
}

TEST(Hccl, ACrashedPeerFailsTheOthersAtOnce) {
  const uint32_t ranks = 2;
  auto pipes = makePipes(ranks);
  EXPECT_TRUE(runRanks(ranks, [&](uint32_t rank) {
    return withCommunicator(
        rank, ranks, pipes, [&](HcclComm comm, aclrtStream stream) {
          if (rank == 1)
            _exit(0); // gone, its communicator never destroyed
          void *buffer = nullptr;
          RANK_CHECK(aclrtMalloc(&buffer, 64, ACL_MEM_MALLOC_HUGE_FIRST) ==
                     ACL_SUCCESS);
          RANK_CHECK(HcclAllReduce(buffer, buffer, 16, HCCL_DATA_TYPE_FP32,
                                   HCCL_REDUCE_SUM, comm,
                                   stream) == HCCL_SUCCESS);
          // The operation fails when its peer is found dead, long before
          // HCCL_EXEC_TIMEOUT (1836 s).
          RANK_CHECK(aclrtSynchronizeStream(stream) ==
                     ACL_ERROR_RT_DEVICE_TASK_ABORT);
          HcclResult async = HCCL_SUCCESS;
          RANK_CHECK(HcclGetCommAsyncError(comm, &async) == HCCL_SUCCESS &&
                     async == HCCL_E_REMOTE);
          RANK_CHECK(aclrtFree(buffer) == ACL_SUCCESS);
          return 0;
        });
  }));
}

/// The sizes and offsets the real hccl_types.h gives (x86_64).
TEST(Hccl, TypesHaveTheRealLayouts) {
  EXPECT_EQ(sizeof(HcclRootInfo), 4108u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclBufferSize), 24u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclCommName), 32u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclOpExpansionMode), 288u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclJobID), 304u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclExecTimeOut), 316u);
  EXPECT_EQ(offsetof(HcclCommConfig, hcclSymWinMaxMemSizePerRank), 2232u);
  EXPECT_EQ(sizeof(HcclCommConfig), 2240u);
  EXPECT_EQ(offsetof(HcclSendRecvItem, buf), 8u);
  EXPECT_EQ(offsetof(HcclSendRecvItem, remoteRank), 28u);
  EXPECT_EQ(sizeof(HcclSendRecvItem), 32u);
}

//===-- Rank tables
//--------------------------------------------------------===//

std::string writeFile(const std::string &name, const std::string &text) {
  std::string path =
      "/tmp/mssim-hccl-test-" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

std::string rankTable(const std::string &status, const std::string &ranks) {
  return "{\"status\": \"" + status +
         "\", \"version\": \"1.0\", \"server_count\": \"1\",\n"
         " \"server_list\": [{\"server_id\": \"node_0\", \"device\": [" +
         ranks + "]}]}\n";
}

const char kTwoDevices[] =
    "{\"device_id\": \"0\", \"device_ip\": \"192.168.1.8\", \"rank_id\": "
    "\"0\"}, {\"device_id\": \"1\", \"device_ip\": \"192.168.1.9\", "
    "\"rank_id\": \"1\"}";

TEST(Hccl, RankTableCommunicatorsComputeBetweenProcesses) {
  std::string table =
      writeFile("table.json", rankTable("completed", kTwoDevices));
  EXPECT_TRUE(runRanks(2, [&](uint32_t rank) {
    setenv("HCCL_BUFFSIZE", "2", 1);
    RANK_CHECK(aclInit(nullptr) == ACL_SUCCESS);
    RANK_CHECK(aclrtSetDevice(static_cast<int32_t>(rank)) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    RANK_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    size_t before = deviceBytesInUse();
    HcclComm comm = nullptr;
    RANK_CHECK(HcclCommInitClusterInfo(table.c_str(), rank, &comm) ==
               HCCL_SUCCESS);
    RANK_CHECK(deviceBytesInUse() == before + 2 * (2u << 20));
    char name[COMM_NAME_MAX_LENGTH] = {};
    RANK_CHECK(HcclGetCommName(comm, name) == HCCL_SUCCESS &&
               std::string(name) == "hccl_world_group");
    // One rank table communicator per device and process.
    HcclComm second = nullptr;
    RANK_CHECK(HcclCommInitClusterInfo(table.c_str(), rank, &second) ==
               HCCL_E_UNAVAIL);
    std::vector<double> mine(64);
    for (size_t i = 0; i < mine.size(); ++i)
      mine[i] = inputOf(kTypes[6], rank, i);
    void *buffer = toDevice(encodeAll(kTypes[6], mine));
    RANK_CHECK(buffer != nullptr);
    RANK_CHECK(HcclAllReduce(buffer, buffer, mine.size(), HCCL_DATA_TYPE_FP32,
                             HCCL_REDUCE_MAX, comm, stream) == HCCL_SUCCESS);
    RANK_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    std::vector<double> expected(mine.size());
    for (size_t i = 0; i < mine.size(); ++i)
      expected[i] =
          std::max(inputOf(kTypes[6], 0, i), inputOf(kTypes[6], 1, i));
    RANK_CHECK(fromDevice(buffer, mine.size() * 4) ==
               encodeAll(kTypes[6], expected));
    RANK_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
    RANK_CHECK(aclrtFree(buffer) == ACL_SUCCESS);
    RANK_CHECK(deviceBytesInUse() == before);
    RANK_CHECK(aclFinalize() == ACL_SUCCESS);
    return 0;
  }));
  EXPECT_TRUE(segments("t").empty());
  unlink(table.c_str());
}

TEST(Hccl, MalformedRankTablesAreRefused) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclComm comm = nullptr;
  const std::string broken[] = {
      rankTable("initializing", kTwoDevices),
      rankTable("completed", kTwoDevices).substr(0, 40),
      rankTable("completed", "{\"device_id\": \"0\", \"rank_id\": \"1\"}"),
      rankTable("completed", "{\"device_id\": \"0\", \"rank_id\": \"0\"}, "
                             "{\"device_id\": \"1\", \"rank_id\": \"0\"}"),
      rankTable("completed", "{\"device_id\": \"0\", \"device_ip\": "
                             "\"300.1.1.1\", \"rank_id\": \"0\"}"),
      rankTable("completed", "{\"device_id\": 0, \"rank_id\": \"0\"}"),
      "{\"status\": \"completed\", \"version\": \"1.0\", \"server_count\": "
      "\"2\", \"server_list\": [{\"server_id\": \"a\", \"device\": [{"
      "\"device_id\": \"0\", \"rank_id\": \"0\"}]}]}",
  };
  for (const std::string &text : broken) {
    std::string path = writeFile("broken.json", text);
    EXPECT_EQ(HcclCommInitClusterInfo(path.c_str(), 0, &comm), HCCL_E_PARA)
        << text;
    unlink(path.c_str());
  }
  // A rank the table does not have, or a rank on another device.
  std::string table =
      writeFile("table.json", rankTable("completed", kTwoDevices));
  EXPECT_EQ(HcclCommInitClusterInfo(table.c_str(), 2, &comm), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitClusterInfo(table.c_str(), 1, &comm), HCCL_E_PARA);
  // A file that cannot be read; null pointers.
  EXPECT_EQ(HcclCommInitClusterInfo("/nonexistent/table.json", 0, &comm),
            HCCL_E_INTERNAL);
  EXPECT_EQ(HcclCommInitClusterInfo(nullptr, 0, &comm), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitClusterInfo(table.c_str(), 0, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitClusterInfoConfig(table.c_str(), 0, nullptr, &comm),
            HCCL_E_PTR);
  HcclCommConfig config;
  std::memset(&config, 0, sizeof config);
  EXPECT_EQ(HcclCommInitClusterInfoConfig(table.c_str(), 0, &config, &comm),
            HCCL_E_PARA)
      << "a configuration HcclCommConfigInit did not initialise";
  unlink(table.c_str());
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

//===-- One process
//---------------------------------------------------------===//

TEST(Hccl, InitAllMakesOneCommunicatorPerDevice) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const uint32_t ndev = 2;
  int32_t devices[ndev] = {0, 1};
  size_t before[ndev];
  for (uint32_t d = 0; d < ndev; ++d) {
    ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
    before[d] = deviceBytesInUse();
  }
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  unsetenv("HCCL_BUFFSIZE");
  HcclComm comms[ndev] = {};
  ASSERT_EQ(HcclCommInitAll(ndev, devices, comms), HCCL_SUCCESS);
  // Enqueue every rank's all-reduce, each on a stream of its device, then
  // synchronise every stream.
  const uint64_t count = 5000;
  aclrtStream streams[ndev];
  void *buffers[ndev];
  for (uint32_t d = 0; d < ndev; ++d) {
    ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
    // The default HCCL_BUFFSIZE: two buffers of 200 MB on each device.
    EXPECT_EQ(deviceBytesInUse(), before[d] + 2 * (200u << 20));
    ASSERT_EQ(aclrtCreateStream(&streams[d]), ACL_SUCCESS);
    std::vector<double> mine(count);
    for (uint64_t i = 0; i < count; ++i)
      mine[i] = inputOf(kTypes[3], d, i);
    buffers[d] = toDevice(encodeAll(kTypes[3], mine));
    ASSERT_NE(buffers[d], nullptr);
    uint32_t rank = 99;
    EXPECT_EQ(HcclGetRankId(comms[d], &rank), HCCL_SUCCESS);
    EXPECT_EQ(rank, d);
    ASSERT_EQ(HcclAllReduce(buffers[d], buffers[d], count, HCCL_DATA_TYPE_INT64,
                            HCCL_REDUCE_SUM, comms[d], streams[d]),
              HCCL_SUCCESS);
  }
  std::vector<double> expected(count);
  for (uint64_t i = 0; i < count; ++i)
    expected[i] = inputOf(kTypes[3], 0, i) + inputOf(kTypes[3], 1, i);
  for (uint32_t d = 0; d < ndev; ++d) {
    ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(streams[d]), ACL_SUCCESS);
    EXPECT_EQ(fromDevice(buffers[d], count * 8),
              encodeAll(kTypes[3], expected));
    EXPECT_EQ(aclrtFree(buffers[d]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(streams[d]), ACL_SUCCESS);
  }
  for (uint32_t d = 0; d < ndev; ++d)
    EXPECT_EQ(HcclCommDestroy(comms[d]), HCCL_SUCCESS);
  for (uint32_t d = 0; d < ndev; ++d) {
    ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
    EXPECT_EQ(deviceBytesInUse(), before[d]) << "device " << d;
  }
  // Its checks.
  int32_t twice[2] = {1, 1};
  EXPECT_EQ(HcclCommInitAll(2, twice, comms), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitAll(0, devices, comms), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitAll(2, nullptr, comms), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitAll(2, devices, nullptr), HCCL_E_PTR);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

/// A one-rank communicator of this process (it needs no peer).
HcclComm soloCommunicator() {
  HcclRootInfo root;
  EXPECT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_SUCCESS);
  return comm;
}

TEST(Hccl, DestroyedAndUnknownHandlesAreRefused) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  setenv("HCCL_BUFFSIZE", "1", 1);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *buffer = nullptr;
  ASSERT_EQ(aclrtMalloc(&buffer, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  HcclComm comm = soloCommunicator();
  ASSERT_NE(comm, nullptr);
  EXPECT_EQ(HcclAllReduce(buffer, buffer, 16, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, comm, stream),
            HCCL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  // Null pointers, host memory, counts.
  float host[16] = {};
  EXPECT_EQ(HcclAllReduce(buffer, buffer, 16, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, comm, nullptr),
            HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(nullptr, buffer, 16, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, comm, stream),
            HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(host, buffer, 16, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, comm, stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, nullptr, nullptr),
            HCCL_SUCCESS)
      << "a count of 0 succeeds before any check, as in the real library";
  EXPECT_EQ(HcclAllReduce(buffer, buffer, 0x800000000ULL, HCCL_DATA_TYPE_INT8,
                          HCCL_REDUCE_SUM, comm, stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclBroadcast(buffer, 16, HCCL_DATA_TYPE_FP32, 1, comm, stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclGetRankSize(comm, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRankId(nullptr, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetCommName(comm, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRootInfo(nullptr), HCCL_E_PTR);
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm other = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(2, nullptr, 0, &other), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitRootInfo(0, &root, 0, &other), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 2, &other), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 0, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitRootInfoConfig(2, &root, 0, nullptr, &other),
            HCCL_E_PTR);
  HcclRootInfo garbage;
  std::memset(&garbage, 0x5a, sizeof garbage);
  EXPECT_EQ(HcclCommInitRootInfo(1, &garbage, 0, &other), HCCL_E_PARA);

  // A configuration: its buffer size and name.
  HcclCommConfig config;
  HcclCommConfigInit(&config);
  config.hcclBufferSize = 3;
  std::strcpy(config.hcclCommName, "solo");
  size_t before = deviceBytesInUse();
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  ASSERT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &other),
            HCCL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + 2 * (3u << 20));
  char name[COMM_NAME_MAX_LENGTH] = {};
  EXPECT_EQ(HcclGetCommName(other, name), HCCL_SUCCESS);
  EXPECT_STREQ(name, "solo");
  EXPECT_EQ(HcclCommDestroy(other), HCCL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);

  // Destroyed: refused everywhere, without touching it; null is skipped.
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  uint32_t size = 0;
  EXPECT_EQ(HcclGetRankSize(comm, &size), HCCL_E_PARA);
  EXPECT_EQ(HcclGetCommName(comm, name), HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(buffer, buffer, 16, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, comm, stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclBarrier(comm, stream), HCCL_E_PARA);
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_E_PARA);
  int local = 0;
  EXPECT_EQ(HcclCommDestroy(&local), HCCL_E_PARA);
  EXPECT_EQ(HcclCommDestroy(nullptr), HCCL_SUCCESS);

  // A communicator outlives its device's reset: its buffers stay allocated
  // (a leak at the device level) and destroying it needs a device again.
  HcclComm survivor = soloCommunicator();
  EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(survivor), HCCL_E_RUNTIME);
  EXPECT_EQ(HcclGetRootInfo(&root), HCCL_E_RUNTIME);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(survivor), HCCL_SUCCESS);
  EXPECT_STREQ(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout");
  unsetenv("HCCL_BUFFSIZE");
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Hccl, ARankThatNeverJoinsTimesTheOthersOut) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm comm = nullptr;
  // The real range of HCCL_CONNECT_TIMEOUT is [120, 7200] seconds.
  setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 0, &comm), HCCL_E_PARA);
  unsetenv("HCCL_CONNECT_TIMEOUT");
  // The simulation's shorter wait: rank 1 never joins.
  setenv("MSSIM_HCCL_CONNECT_TIMEOUT", "1", 1);
  size_t before = deviceBytesInUse();
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 0, &comm), HCCL_E_TIMEOUT);
  unsetenv("MSSIM_HCCL_CONNECT_TIMEOUT");
  EXPECT_EQ(comm, nullptr);
  EXPECT_EQ(deviceBytesInUse(), before) << "no buffers without the peers";
  EXPECT_TRUE(segments("r" + std::to_string(getpid()) + "-").empty())
      << "the segment is gone with the rank that gave up";
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Hccl, CallsNeedADevice) {
  HcclRootInfo root;
  std::memset(&root, 0, sizeof root);
  EXPECT_EQ(HcclGetRootInfo(&root), HCCL_E_RUNTIME);
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_E_RUNTIME);
}

} // namespace
