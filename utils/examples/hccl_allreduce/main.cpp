// hccl_allreduce: a sum over every rank of a job, one process per device, as
// multi-card training and inference jobs run it.
//
// Where it finds its place in the job:
//  * started by mpirun: OMPI_COMM_WORLD_RANK, _SIZE and _LOCAL_RANK; the
//    communicator comes from the rank table file RANK_TABLE_FILE names
//    (HcclCommInitClusterInfo), as Ascend jobs started by mpirun make it;
//  * started the way torchrun starts workers: RANK, WORLD_SIZE, LOCAL_RANK,
//    MASTER_ADDR and MASTER_PORT; rank 0 makes the root info
//    (HcclGetRootInfo) and hands it to the others over TCP at
//    MASTER_ADDR:MASTER_PORT, and each makes its communicator from it
//    (HcclCommInitRootInfo).
// Each rank uses the device of its local rank. Built with
// -DHCCL_ALLREDUCE_LEAK_RANK=N, rank N never destroys its communicator.
#include "acl/acl.h"
#include "hccl/hccl.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

constexpr uint64_t kCount = 4096;
constexpr int kConnectAttempts = 600; // 60 s of 100 ms waits for rank 0

int rank = -1, worldSize = 0, localRank = 0;

[[noreturn]] void fail(const char *what, long code) {
  std::fprintf(stderr, "[hccl_allreduce] rank %d: %s failed: %ld\n", rank, what,
               code);
  std::exit(1);
}

void check(const char *what, long code) {
  if (code != 0)
    fail(what, code);
}

/// The first of `names` set in the environment, as a whole number; -1 if
/// none is.
int environmentNumber(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (const char *value = std::getenv(name); value && *value)
      return std::atoi(value);
  return -1;
}

bool writeAll(int fd, const void *data, size_t size) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = write(fd, bytes, size);
    if (n <= 0)
      return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool readAll(int fd, void *data, size_t size) {
  char *bytes = static_cast<char *>(data);
  while (size > 0) {
    ssize_t n = read(fd, bytes, size);
    if (n <= 0)
      return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

/// MASTER_ADDR:MASTER_PORT, resolved.
sockaddr_in masterAddress() {
  const char *host = std::getenv("MASTER_ADDR");
  const char *port = std::getenv("MASTER_PORT");
  if (!host || !port)
    fail("finding MASTER_ADDR and MASTER_PORT", -1);
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host, port, &hints, &found) != 0 || !found)
    fail("resolving MASTER_ADDR", -1);
  sockaddr_in address;
  std::memcpy(&address, found->ai_addr, sizeof address);
  freeaddrinfo(found);
  return address;
}

/// The root info of the job: made by rank 0 and sent to every other rank
/// over TCP (what torch.distributed's store does for a launcher's workers).
HcclRootInfo exchangeRootInfo() {
  HcclRootInfo info;
  sockaddr_in address = masterAddress();
  if (rank == 0) {
    check("HcclGetRootInfo", HcclGetRootInfo(&info));
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (listener < 0 ||
        bind(listener, reinterpret_cast<sockaddr *>(&address),
             sizeof address) != 0 ||
        listen(listener, worldSize) != 0)
      fail("listening on MASTER_PORT", errno);
    for (int peer = 1; peer < worldSize; ++peer) {
      int connection = accept(listener, nullptr, nullptr);
      if (connection < 0 || !writeAll(connection, &info, sizeof info))
        fail("sending the root info", errno);
      close(connection);
    }
    close(listener);
    return info;
  }
  for (int attempt = 0;; ++attempt) {
    int connection = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(connection, reinterpret_cast<sockaddr *>(&address),
                sizeof address) == 0) {
      if (!readAll(connection, &info, sizeof info))
        fail("receiving the root info", errno);
      close(connection);
      return info;
    }
    close(connection);
    if (attempt == kConnectAttempts)
      fail("connecting to MASTER_ADDR:MASTER_PORT", errno);
    usleep(100 * 1000); // rank 0 is not listening yet
  }
}

} // namespace

int main() {
  rank = environmentNumber({"OMPI_COMM_WORLD_RANK", "RANK"});
  worldSize = environmentNumber({"OMPI_COMM_WORLD_SIZE", "WORLD_SIZE"});
  localRank = environmentNumber({"OMPI_COMM_WORLD_LOCAL_RANK", "LOCAL_RANK"});
  if (rank < 0 || worldSize <= 0 || rank >= worldSize) {
    std::fprintf(stderr, "hccl_allreduce: start it with mpirun or as torchrun "
                         "starts workers (RANK, WORLD_SIZE, LOCAL_RANK)\n");
    return 2;
  }
  if (localRank < 0)
    localRank = rank;

  check("aclInit", aclInit(nullptr));
  check("aclrtSetDevice", aclrtSetDevice(localRank));
  aclrtStream stream = nullptr;
  check("aclrtCreateStream", aclrtCreateStream(&stream));

  HcclComm comm = nullptr;
  if (const char *rankTable = std::getenv("RANK_TABLE_FILE")) {
    check(
        "HcclCommInitClusterInfo",
        HcclCommInitClusterInfo(rankTable, static_cast<uint32_t>(rank), &comm));
  } else {
    HcclRootInfo info = exchangeRootInfo();
    check("HcclCommInitRootInfo",
          HcclCommInitRootInfo(static_cast<uint32_t>(worldSize), &info,
                               static_cast<uint32_t>(rank), &comm));
  }

  // Rank r contributes (r + 1) * (i % 7 + 1) to element i.
  const size_t bytes = kCount * sizeof(float);
  std::vector<float> host(kCount);
  for (uint64_t i = 0; i < kCount; ++i)
    host[i] = static_cast<float>((rank + 1) * static_cast<int>(i % 7 + 1));
  void *send = nullptr, *receive = nullptr;
  check("aclrtMalloc", aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  check("aclrtMalloc", aclrtMalloc(&receive, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  check("aclrtMemcpy", aclrtMemcpy(send, bytes, host.data(), bytes,
                                   ACL_MEMCPY_HOST_TO_DEVICE));
  check("HcclAllReduce",
        HcclAllReduce(send, receive, kCount, HCCL_DATA_TYPE_FP32,
                      HCCL_REDUCE_SUM, comm, stream));
  check("aclrtSynchronizeStream", aclrtSynchronizeStream(stream));
  check("aclrtMemcpy", aclrtMemcpy(host.data(), bytes, receive, bytes,
                                   ACL_MEMCPY_DEVICE_TO_HOST));
  const int ranksSum = worldSize * (worldSize + 1) / 2;
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < kCount; ++i)
    if (host[i] != static_cast<float>(ranksSum * static_cast<int>(i % 7 + 1)))
      ++wrong;
  std::printf("[hccl_allreduce] rank %d of %d on device %d: sum of %llu "
              "elements: %s\n",
              rank, worldSize, localRank,
              static_cast<unsigned long long>(kCount), wrong ? "WRONG" : "ok");

  check("aclrtFree", aclrtFree(send));
  check("aclrtFree", aclrtFree(receive));
#ifdef HCCL_ALLREDUCE_LEAK_RANK
  if (rank != HCCL_ALLREDUCE_LEAK_RANK)
#endif
    check("HcclCommDestroy", HcclCommDestroy(comm));
  check("aclrtDestroyStream", aclrtDestroyStream(stream));
  check("aclrtResetDevice", aclrtResetDevice(localRank));
  check("aclFinalize", aclFinalize());
  return wrong ? 1 : 0;
}
