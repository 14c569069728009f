//===- npu_smi.cpp - npu-smi for the simulated CANN device ----------------===//
//
// `npu-smi info` prints, like the real tool, one block per device with its
// memory in use and one table of the processes holding device memory, read
// from the records every process using the simulated device publishes (see
// hal/process_registry.h). `--bytes` prints exact byte counts instead of MB.
//
//===----------------------------------------------------------------------===//
#include "process_registry.h"
#include "sim_config.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace mssim;

namespace {

constexpr const char *kVersion = "24.1.0";

const char *kRule = "+---------------------------+---------------+-------------"
                    "---------------------------------------+";
const char *kDoubleRule = "+===========================+===============+======="
                          "=============================================+";

uint64_t mebibytes(uint64_t bytes) {
  return (bytes + (1ULL << 20) - 1) >> 20;
} // anything held shows

std::string amount(uint64_t bytes, bool exact) {
  return std::to_string(exact ? bytes : mebibytes(bytes));
}

void usage(FILE *out) {
  fprintf(
      out,
      "Usage: npu-smi info [--bytes]\n"
      "       npu-smi -v | --version\n"
      "       npu-smi -h | --help\n\n"
      "Shows the simulated NPUs and the device memory each process holds.\n"
      "  --bytes   exact byte counts instead of MB (simulation extension)\n\n"
      "Environment: MSSIM_DEVICE_COUNT, MSSIM_DEVICE_MEMORY, MSSIM_RUN_DIR "
      "(see utils/simdevice/README.md).\n");
}

int info(bool exact) {
  const SimConfig &config = SimConfig::get();
  std::vector<ProcessUsage> processes = ProcessRegistry::readAll(config.runDir);
  const char *unit = exact ? "B" : "MB";
  printf("+--------------------------------------------------------------------"
         "----------------------------+\n");
  char title[96];
  snprintf(title, sizeof(title),
           "npu-smi %s (simulated CANN device)   Version: %s", kVersion,
           kVersion);
  printf("| %-94s |\n", title);
  printf("%s\n", kRule);
  printf("| NPU   Name                | Health        | Power(W)    Temp(C)    "
         "       Hugepages-Usage(page)|\n");
  char header[128];
  snprintf(header, sizeof(header),
           "AICore(%%)   Memory-Usage(%s)  HBM-Usage(%s)", unit, unit);
  printf("| Chip                      | Bus-Id        | %-50s |\n", header);
  printf("%s\n", kDoubleRule);
  for (uint32_t d = 0; d < config.deviceCount; ++d) {
    uint64_t used = 0;
    for (const ProcessUsage &p : processes)
      if (d < p.usedBytes.size())
        used += p.usedBytes[d];
    char busId[16], hbm[64];
    snprintf(busId, sizeof(busId), "0000:%02X:00.0", 0xC1 + d);
    snprintf(hbm, sizeof(hbm), "%-4s / %s", amount(used, exact).c_str(),
             amount(config.deviceMemoryBytes, exact).c_str());
    printf("| %-5u %-19s | %-13s | %-11s %-17s %-20s |\n", d, "910B3", "OK",
           "0.0", "40", "0    / 0");
    printf("| %-25s | %-13s | %-11s %-17s %-20s |\n", "0", busId, "0",
           "0    / 0", hbm);
    printf("%s\n", kDoubleRule);
  }
  printf("%s\n", kRule);
  char memoryHeader[32];
  snprintf(memoryHeader, sizeof(memoryHeader), "Process memory(%s)", unit);
  printf("| NPU     Chip              | Process id    | Process name           "
         "  | "
         "%-23s |\n",
         memoryHeader);
  printf("%s\n", kDoubleRule);
  for (uint32_t d = 0; d < config.deviceCount; ++d) {
    bool any = false;
    for (const ProcessUsage &p : processes) {
      if (d >= p.usedBytes.size() ||
          (p.usedBytes[d] == 0 && p.liveAllocations[d] == 0))
        continue;
      any = true;
      printf("| %-7u %-17s | %-13d | %-24s | %-23s |\n", d, "0", p.pid,
             p.name.c_str(), amount(p.usedBytes[d], exact).c_str());
    }
    if (!any) {
      char line[96];
      snprintf(line, sizeof(line), "No running processes found in NPU %u", d);
      printf("| %-94s |\n", line);
    }
    printf("%s\n", kDoubleRule);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string command = argv[1];
  if (command == "-h" || command == "--help") {
    usage(stdout);
    return 0;
  }
  if (command == "-v" || command == "--version") {
    printf("npu-smi version: %s (msledger simulated CANN device)\n", kVersion);
    return 0;
  }
  if (command != "info") {
    fprintf(stderr, "npu-smi: unknown command '%s'\n", command.c_str());
    usage(stderr);
    return 2;
  }
  bool exact = false;
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--bytes") == 0) {
      exact = true;
    } else {
      fprintf(stderr, "npu-smi: unknown option '%s' for info\n", argv[i]);
      return 2;
    }
  }
  return info(exact);
}
