//===- snapshots.cpp - Reading snapshots: diff and growth -----------------===//
#include "snapshots.h"

#include "catalog.h"
#include "report.h"
#include "text_file.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <set>

namespace json = boost::json;

namespace msledger {

namespace {

uint64_t number(const json::object &object, const char *name) {
  const json::value *value = object.if_contains(name);
  return value && value->is_int64() && value->as_int64() > 0
             ? static_cast<uint64_t>(value->as_int64())
         : value && value->is_uint64() ? value->as_uint64()
                                       : 0;
}

/// A site of a snapshot, with its chain: "a.cpp:5 <- b.cpp:9", formatted as
/// every report formats places.
std::string placeOf(const json::object &site) {
  auto place = [](const json::object &s) {
    const json::value *file = s.if_contains("file");
    msledger_site named{};
    named.file =
        file && file->is_string() ? file->as_string().c_str() : nullptr;
    named.line = static_cast<uint32_t>(number(s, "line"));
    return location(&named);
  };
  std::string text = place(site);
  if (const json::value *chain = site.if_contains("chain"))
    if (const json::array *callers = chain->if_array())
      for (const json::value &caller : *callers)
        if (caller.is_object())
          text += kChainArrow + place(caller.as_object());
  return text;
}

std::string describe(const Snapshot::Site &site) {
  return site.place + " (" + site.callee + ", " +
         levelTitle(levelNamed(site.level).value_or(Level::Cann)) + ")";
}

} // namespace

std::optional<Snapshot> parseSnapshot(const std::string &text,
                                      const std::string &path,
                                      std::string *error) {
  boost::system::error_code ec;
  json::value root = json::parse(text, ec);
  const json::object *object = ec ? nullptr : root.if_object();
  const json::value *kind = object ? object->if_contains("kind") : nullptr;
  if (!object || !kind || !kind->is_string() ||
      kind->as_string() != "snapshot") {
    *error = path + ": not an msledger snapshot" +
             (ec ? " (" + ec.message() + ")" : std::string());
    return std::nullopt;
  }
  Snapshot snapshot;
  snapshot.path = path;
  snapshot.sequence = number(*object, "sequence");
  snapshot.timeMs = number(*object, "time_ms");
  const json::value *sites = object->if_contains("sites");
  if (!sites || !sites->is_array()) {
    *error = path + ": a snapshot needs a \"sites\" array";
    return std::nullopt;
  }
  for (const json::value &value : sites->as_array()) {
    const json::object *site = value.if_object();
    if (!site)
      continue;
    Snapshot::Site entry;
    entry.place = placeOf(*site);
    const json::value *callee = site->if_contains("callee");
    const json::value *level = site->if_contains("level");
    entry.callee =
        callee && callee->is_string() ? callee->as_string().c_str() : "";
    entry.level = level && level->is_string() ? level->as_string().c_str() : "";
    entry.bytes = number(*site, "live_bytes");
    entry.count = number(*site, "live_count");
    // A process holds far less than 2^53 bytes, and JSON numbers above it
    // are not exact: a larger value is a corrupt snapshot, which would wrap
    // the sums and the differences below.
    if (entry.bytes > kMaxJsonInteger || entry.count > kMaxJsonInteger) {
      *error = path +
               ": a corrupt snapshot (a site's live_bytes or "
               "live_count is " +
               std::to_string(std::max(entry.bytes, entry.count)) + ")";
      return std::nullopt;
    }
    std::string key = entry.level + "\n" + entry.callee + "\n" + entry.place;
    Snapshot::Site &merged = snapshot.sites[key];
    merged.place = entry.place;
    merged.callee = entry.callee;
    merged.level = entry.level;
    merged.bytes += entry.bytes; // one site, several memory spaces
    merged.count += entry.count;
  }
  if (const json::value *annotations = object->if_contains("annotations"))
    if (annotations->is_array())
      for (const json::value &value : annotations->as_array())
        if (const json::object *a = value.if_object()) {
          Snapshot::Annotation entry;
          const json::value *message = a->if_contains("message");
          const json::value *kind = a->if_contains("kind");
          const json::value *end = a->if_contains("end_ms");
          entry.message = message && message->is_string()
                              ? std::string(message->as_string())
                              : "";
          entry.range =
              kind && kind->is_string() && kind->as_string() == "range";
          entry.startMs = static_cast<double>(number(*a, "start_ms"));
          if (end && end->is_number())
            entry.endMs = end->to_number<double>();
          snapshot.annotations.push_back(std::move(entry));
        }
  const json::value *totals = object->if_contains("totals");
  if (totals && totals->is_object())
    for (const auto &level : totals->as_object()) {
      const json::object *total = level.value().if_object();
      const json::value *devices =
          total ? total->if_contains("devices") : nullptr;
      if (!devices || !devices->is_array())
        continue; // a snapshot from before devices were recorded
      std::map<int, uint64_t> &bytes = snapshot.deviceBytes[level.key()];
      for (const json::value &value : devices->as_array())
        if (const json::object *share = value.if_object()) {
          // null, or anything but a device number: not known.
          const json::value *device = share->if_contains("device");
          int id = device && device->is_int64() && device->as_int64() >= 0 &&
                           device->as_int64() < 1024
                       ? static_cast<int>(device->as_int64())
                       : -1;
          uint64_t shareBytes = number(*share, "live_bytes");
          if (shareBytes > kMaxJsonInteger) {
            *error = path + ": a corrupt snapshot (a device's live_bytes is " +
                     std::to_string(shareBytes) + ")";
            return std::nullopt;
          }
          bytes[id] += shareBytes;
        }
    }
  return snapshot;
}

std::optional<Snapshot> readSnapshot(const std::string &path,
                                     std::string *error) {
  std::optional<std::string> text = readTextFile(path, error);
  if (!text)
    return std::nullopt;
  return parseSnapshot(*text, path, error);
}

std::optional<std::vector<Snapshot>> readSnapshots(const std::string &dir,
                                                   std::string *error) {
  DIR *handle = opendir(dir.c_str());
  if (!handle) {
    *error = "cannot read the directory " + dir;
    return std::nullopt;
  }
  std::vector<std::string> names;
  while (dirent *entry = readdir(handle)) {
    std::string name = entry->d_name;
    if (name.rfind("snapshot-", 0) == 0 && name.size() > 5 &&
        name.compare(name.size() - 5, 5, ".json") == 0)
      names.push_back(name);
  }
  closedir(handle);
  std::vector<Snapshot> series;
  for (const std::string &name : names) {
    std::optional<Snapshot> snapshot = readSnapshot(dir + "/" + name, error);
    if (!snapshot)
      return std::nullopt;
    series.push_back(std::move(*snapshot));
  }
  std::sort(series.begin(), series.end(),
            [](const Snapshot &a, const Snapshot &b) {
              return a.sequence < b.sequence;
            });
  // One run's snapshots are taken one after another: time rises with the
  // sequence. Anything else (two runs' snapshots mixed, an edited file)
  // gives rates that mean nothing.
  for (size_t i = 1; i < series.size(); ++i)
    if (series[i].timeMs <= series[i - 1].timeMs ||
        series[i].sequence == series[i - 1].sequence) {
      *error = series[i].path + " (sequence " +
               std::to_string(series[i].sequence) + ", time_ms " +
               std::to_string(series[i].timeMs) + ") does not follow " +
               series[i - 1].path + " (sequence " +
               std::to_string(series[i - 1].sequence) + ", time_ms " +
               std::to_string(series[i - 1].timeMs) +
               "): these are not the snapshots of one run";
      return std::nullopt;
    }
  return series;
}

std::string diffReport(const Snapshot &before, const Snapshot &after) {
  struct Growth {
    const Snapshot::Site *site;
    uint64_t from, to;
    long long countDelta;
  };
  std::vector<Growth> grew;
  for (const auto &entry : after.sites) {
    auto old = before.sites.find(entry.first);
    uint64_t from = old == before.sites.end() ? 0 : old->second.bytes;
    uint64_t fromCount = old == before.sites.end() ? 0 : old->second.count;
    if (entry.second.bytes > from ||
        (entry.second.bytes == 0 && entry.second.count > fromCount))
      grew.push_back({&entry.second, from, entry.second.bytes,
                      static_cast<long long>(entry.second.count) -
                          static_cast<long long>(fromCount)});
  }
  std::sort(grew.begin(), grew.end(), [](const Growth &a, const Growth &b) {
    return a.to - a.from > b.to - b.from;
  });
  std::string span = "from snapshot " + std::to_string(before.sequence) + " (" +
                     std::to_string(before.timeMs) + " ms) to snapshot " +
                     std::to_string(after.sequence) + " (" +
                     std::to_string(after.timeMs) + " ms)";
  std::string out;
  if (grew.empty())
    out = "No site's live memory grew " + span + ".\n";
  else
    out = "Sites whose live memory grew " + span + ", largest first:\n";
  for (const Growth &g : grew) {
    char line[128];
    snprintf(line, sizeof line, "  %+lld bytes (%+lld live)  ",
             static_cast<long long>(g.to - g.from), g.countDelta);
    out += line + describe(*g.site) + ": " + std::to_string(g.from) + " -> " +
           std::to_string(g.to) + " bytes\n";
  }
  // Each device's live memory, at the levels both snapshots have.
  std::string devices;
  for (const auto &[level, afterBytes] : after.deviceBytes) {
    auto beforeLevel = before.deviceBytes.find(level);
    if (beforeLevel == before.deviceBytes.end())
      continue;
    std::map<int, std::pair<uint64_t, uint64_t>> both; // before, after
    for (const auto &[device, bytes] : beforeLevel->second)
      both[device].first = bytes;
    for (const auto &[device, bytes] : afterBytes)
      both[device].second = bytes;
    for (const auto &[device, bytes] : both) {
      char line[160];
      snprintf(line, sizeof line,
               "  %s level, device %s: %llu -> %llu bytes (%+lld)\n",
               level.c_str(),
               device < 0 ? "unknown" : std::to_string(device).c_str(),
               static_cast<unsigned long long>(bytes.first),
               static_cast<unsigned long long>(bytes.second),
               static_cast<long long>(bytes.second - bytes.first));
      devices += line;
    }
  }
  if (!devices.empty())
    out += "Live device memory (GM and DVPP) per device:\n" + devices;
  return out;
}

std::string growthReport(const std::vector<Snapshot> &series) {
  if (series.size() < 3)
    return "Growth needs at least 3 snapshots; there are " +
           std::to_string(series.size()) + ".\n";
  std::set<std::string> keys;
  for (const Snapshot &snapshot : series)
    for (const auto &entry : snapshot.sites)
      keys.insert(entry.first);
  struct Suspect {
    const Snapshot::Site *site;
    double rate; // bytes per second
    uint64_t first, last;
    size_t rises;
  };
  std::vector<Suspect> suspects;
  size_t intervals = series.size() - 1;
  // readSnapshots saw that time rises; a series made otherwise has no span.
  double seconds =
      series.back().timeMs > series.front().timeMs
          ? static_cast<double>(series.back().timeMs - series.front().timeMs) /
                1000
          : 0;
  for (const std::string &key : keys) {
    std::vector<uint64_t> bytes;
    const Snapshot::Site *site = nullptr;
    for (const Snapshot &snapshot : series) {
      auto it = snapshot.sites.find(key);
      bytes.push_back(it == snapshot.sites.end() ? 0 : it->second.bytes);
      if (it != snapshot.sites.end())
        site = &it->second;
    }
    size_t rises = 0;
    for (size_t i = 0; i + 1 < bytes.size(); ++i)
      rises += bytes[i + 1] > bytes[i];
    if (bytes.back() > bytes.front() && rises * 4 >= intervals * 3)
      suspects.push_back(
          {site,
           seconds > 0
               ? static_cast<double>(bytes.back() - bytes.front()) / seconds
               : 0,
           bytes.front(), bytes.back(), rises});
  }
  std::sort(suspects.begin(), suspects.end(),
            [](const Suspect &a, const Suspect &b) { return a.rate > b.rate; });
  char span[96];
  snprintf(span, sizeof span, "%zu snapshots over %.1f s", series.size(),
           seconds);
  if (suspects.empty())
    return std::string("No site's live memory keeps rising over ") + span +
           ".\n";
  std::string out = std::string("Leak suspects over ") + span +
                    " (live bytes still rising), fastest first:\n";
  for (const Suspect &s : suspects) {
    char rate[64];
    snprintf(rate, sizeof rate, "  %.0f bytes/s  ", s.rate);
    out += rate + describe(*s.site) + ": " + std::to_string(s.first) + " -> " +
           std::to_string(s.last) + " bytes, rose in " +
           std::to_string(s.rises) + " of " + std::to_string(intervals) +
           " intervals\n";
  }
  return out;
}

} // namespace msledger
