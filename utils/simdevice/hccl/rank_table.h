//===- rank_table.h - HCCL rank table files ---------------------*- C++ -*-===//
//
// Contract: reads a rank table (the cluster description
// HcclCommInitClusterInfo takes), in the real format, version "1.0":
//
//   {"status": "completed", "version": "1.0", "server_count": "N",
//    "server_list": [{"server_id": "...", "device": [
//        {"device_id": "0", "device_ip": "192.168.1.8", "rank_id": "0"},
//        ...]}]}
//
// with the real rules: every field a string; status "completed"; as many
// servers as server_count, each with a unique server_id of at most 64
// characters and at least one device; device_id and rank_id decimal; the
// rank ids 0 to N-1, each once; device_ip, when present, an IPv4 or IPv6
// address (required with more than one server); device_port, when present,
// 1 to 65535. Anything else is malformed.
//
//===----------------------------------------------------------------------===//
#ifndef MSSIM_HCCL_RANK_TABLE_H
#define MSSIM_HCCL_RANK_TABLE_H

#include <cstdint>
#include <string>
#include <vector>

namespace mssim {
namespace hccl {

struct RankEntry {
  uint32_t Rank = 0;
  int32_t Device = 0;
  uint32_t Server = 0; // index in server_list
};

struct RankTable {
  std::vector<RankEntry> Ranks; // by rank id
};

/// Parses `text`; false with *why saying what is wrong.
bool parseRankTable(const std::string &text, RankTable *table,
                    std::string *why);

} // namespace hccl
} // namespace mssim

#endif
