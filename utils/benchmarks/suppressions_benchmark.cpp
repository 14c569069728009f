//===- suppressions_benchmark.cpp - what matching suppressions costs ------===//
//
// Run through utils/benchmarks/suppressions_bench.py, which runs each
// configuration in alternating processes and prints the medians and their
// ratios to the baseline.
//
//   suppressions_benchmark CONFIG [LEAKS] [SITES]
//
// Times one Suppressions::filterLeaks over LEAKS (20,000) leaks spread over
// SITES (50) sites, each site called from a caller (a chain of one frame),
// the even sites under src/group_a/, the odd ones under src/group_b/. CONFIG
// is the suppression file:
//
//   none      no suppression at all (the baseline)
//   patterns  1,000 lines: 999 that match nothing (anchors, '*' runs) and
//             last "leak:^src/group_a/*.cpp$", which takes the even sites
//   big       one pattern of 1 MiB ('*' every 1,024 bytes) that matches
//             nothing
//   stars     one pattern of 1 MiB of '*' then "group_a/", which takes the
//             even sites
//
// Prints one line of JSON: the configuration, the seconds filterLeaks took,
// the seconds parse took and the leaks left out. What was timed is checked:
// the leaks left out, the leaks left in and each suppression's count and
// bytes must be the ones the configuration implies, or the program says what
// differs and exits with status 1 (no figure).
//
//===----------------------------------------------------------------------===//
#include "catalog_table.h"
#include "report.h"
#include "suppressions.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

using namespace msledger;

namespace {

struct Sites {
  std::deque<std::string> strings; // stable addresses for the sites' texts
  std::vector<msledger_site> own, callers;

  const char *keep(std::string text) {
    strings.push_back(std::move(text));
    return strings.back().c_str();
  }
};

std::string suppressionFile(const std::string &config) {
  std::string text = "# suppressions_benchmark: " + config + "\n";
  if (config == "patterns") {
    for (int i = 0; i < 999; ++i) {
      switch (i % 4) {
      case 0:
        text +=
            "leak:^third_party/lib" + std::to_string(i) + "/*/alloc*.cpp$\n";
        break;
      case 1:
        text += "leak:vendor_" + std::to_string(i) + "::*::init\n";
        break;
      case 2:
        text += "leak:helper_" + std::to_string(i) + "_scratch\n";
        break;
      default:
        text += "leak:*src/*/kernel_" + std::to_string(i) + ".cpp:*$\n";
        break;
      }
    }
    text += "leak:^src/group_a/*.cpp$\n";
  } else if (config == "big") {
    text += "leak:";
    for (int i = 0; i < 1024; ++i)
      text += std::string(1023, 'x') + "*";
    text += "\n";
  } else if (config == "stars") {
    text += "leak:" + std::string(1 << 20, '*') + "group_a/\n";
  } else if (config != "none") {
    return "";
  }
  return text;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: suppressions_benchmark none|patterns|big|stars "
                    "[LEAKS] [SITES]\n");
    return 2;
  }
  std::string config = argv[1];
  size_t leaks = argc > 2 ? strtoul(argv[2], nullptr, 10) : 20000;
  size_t siteCount = argc > 3 ? strtoul(argv[3], nullptr, 10) : 50;
  std::string text = suppressionFile(config);
  if (text.empty() || siteCount == 0) {
    fprintf(stderr, "suppressions_benchmark: unknown configuration '%s'\n",
            config.c_str());
    return 2;
  }

  static Sites sites;
  for (size_t i = 0; i < siteCount; ++i) {
    const char *group = i % 2 == 0 ? "group_a" : "group_b";
    sites.own.push_back(
        {sites.keep("src/" + std::string(group) + "/module_" +
                    std::to_string(i) + ".cpp"),
         static_cast<uint32_t>(40 + i), 5, i + 1, "aclrtMalloc",
         sites.keep("ns::Module" + std::to_string(i) + "::prepare")});
    sites.callers.push_back({"app/main.cpp", static_cast<uint32_t>(100 + i), 3,
                             siteCount + i + 1, sites.own.back().function,
                             "main"});
  }
  SiteTable table;
  table.site = [](uint32_t id) -> const msledger_site * {
    return id >= 1 && id <= sites.own.size() ? &sites.own[id - 1] : nullptr;
  };
  table.callers = [](uint32_t id) {
    if (id >= 1 && id <= sites.own.size())
      return std::vector<const msledger_site *>{&sites.callers[id - 1]};
    return std::vector<const msledger_site *>{};
  };

  std::vector<Record> records(leaks);
  uint16_t api = static_cast<uint16_t>(apiIndex("aclrtMalloc"));
  size_t expectedOut = 0;
  uint64_t expectedBytes = 0;
  for (size_t i = 0; i < leaks; ++i) {
    Record &record = records[i];
    record.key = 0x124080000000ull + i * 4096;
    record.size = 64 + i % 7;
    record.serial = i + 1;
    record.site = static_cast<uint32_t>(i % siteCount + 1);
    record.api = api;
    if (config != "none" && config != "big" && record.site % 2 == 1) {
      ++expectedOut; // an even site (id 1 is site 0)
      expectedBytes += record.size;
    }
  }

  Suppressions suppressions;
  std::string error;
  auto parseStart = std::chrono::steady_clock::now();
  if (!suppressions.parse(text, config + ".supp", &error)) {
    fprintf(stderr, "suppressions_benchmark: %s\n", error.c_str());
    return 1;
  }
  auto start = std::chrono::steady_clock::now();
  size_t out = suppressions.filterLeaks(table, records);
  auto end = std::chrono::steady_clock::now();

  std::string wrong;
  if (out != expectedOut || records.size() != leaks - expectedOut)
    wrong += "left out " + std::to_string(out) + " leak(s) of " +
             std::to_string(leaks) + ", not " + std::to_string(expectedOut) +
             "; ";
  for (const Record &record : records)
    if (config != "none" && config != "big" && record.site % 2 == 1) {
      wrong += "a leak of an even site was left in; ";
      break;
    }
  uint64_t counted = 0, bytes = 0;
  for (const Suppression &suppression : suppressions.list()) {
    counted += suppression.count;
    bytes += suppression.bytes;
  }
  std::vector<Suppression> list = suppressions.list();
  if (counted != expectedOut || bytes != expectedBytes ||
      (expectedOut && list.back().count != expectedOut))
    wrong += "the suppressions counted " + std::to_string(counted) +
             " leak(s) of " + std::to_string(bytes) + " bytes, not " +
             std::to_string(expectedOut) + " of " +
             std::to_string(expectedBytes) + "; ";
  if (!wrong.empty()) {
    fprintf(stderr, "suppressions_benchmark %s: %sno figure\n", config.c_str(),
            wrong.c_str());
    return 1;
  }
  using Seconds = std::chrono::duration<double>;
  printf("{\"config\": \"%s\", \"seconds\": %.6f, \"parse_seconds\": %.6f, "
         "\"suppressed\": %zu, \"leaks\": %zu, \"sites\": %zu}\n",
         config.c_str(), Seconds(end - start).count(),
         Seconds(start - parseStart).count(), out, leaks, siteCount);
  return 0;
}
