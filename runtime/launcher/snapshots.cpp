//===- snapshots.cpp - Reading snapshots: diff and growth -----------------===//
#include "snapshots.h"

#include "catalog.h"
#include "json_io.h"
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

/// A site of a snapshot, with its chain: "a.cpp:5 <- b.cpp:9", formatted as
/// every report formats places; its fields checked through `in`.
std::string placeOf(JsonFields &in) {
  auto place = [](JsonFields &fields) {
    std::string file = fields.string("file");
    msledger_site named{};
    named.file = file.empty() ? nullptr : file.c_str();
    named.line =
        static_cast<uint32_t>(fields.integer("line", 0, UINT32_MAX, 0));
    return location(&named);
  };
  std::string text = place(in);
  in.forEachObject(
      "chain", "a caller is not an object",
      [&](JsonFields &caller) { text += kChainArrow + place(caller); });
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
  std::unique_ptr<json::object> object = parseJsonObject(text, path, error);
  static const json::object kNothing;
  JsonFields in(object ? *object : kNothing, path);
  if (!object || in.string("kind") != "snapshot") {
    // "PATH: not JSON (why)" becomes "PATH: not an msledger snapshot (not
    // JSON (why))".
    std::string why = object ? "" : " (" + error->substr(path.size() + 2) + ")";
    *error = path + ": not an msledger snapshot" + why;
    return std::nullopt;
  }
  // Every number through the one checked reader (json_io.h): a process
  // holds far less than 2^53 bytes, and a larger or inexact value would wrap
  // the sums and differences below.
  Snapshot snapshot;
  snapshot.path = path;
  snapshot.sequence = in.count("sequence");
  snapshot.timeMs = in.count("time_ms");
  if (in.ok() && !in.array("sites"))
    in.fail("sites", "missing: a snapshot needs a \"sites\" array");
  in.forEachObject("sites", "an entry is not an object", [&](JsonFields &site) {
    Snapshot::Site entry;
    entry.place = placeOf(site);
    entry.callee = site.string("callee");
    entry.level = site.string("level");
    entry.bytes = site.count("live_bytes");
    entry.count = site.count("live_count");
    std::string key = entry.level + "\n" + entry.callee + "\n" + entry.place;
    Snapshot::Site &merged = snapshot.sites[key];
    merged.place = entry.place;
    merged.callee = entry.callee;
    merged.level = entry.level;
    merged.bytes += entry.bytes; // one site, several memory spaces
    merged.count += entry.count;
  });
  if (const json::array *annotations = in.array("annotations"))
    for (size_t i = 0; i < annotations->size() && in.ok(); ++i) {
      if (!(*annotations)[i].is_object())
        continue;
      JsonFields a =
          in.nested((*annotations)[i].get_object(), "annotations", i);
      Snapshot::Annotation entry;
      entry.message = a.string("message");
      entry.range = a.string("kind") == "range";
      entry.startMs = a.real("start_ms", 0, 1e15, 0);
      entry.endMs = a.real("end_ms", 0, 1e15, -1, /*nullable=*/true);
      snapshot.annotations.push_back(std::move(entry));
    }
  if (const json::object *totals = in.object("totals"))
    for (const auto &level : *totals) {
      const json::object *total = level.value().if_object();
      if (!total)
        continue;
      JsonFields levelFields =
          in.nested(*total, "totals." + std::string(level.key()));
      const json::array *devices = levelFields.array("devices");
      if (!devices)
        continue; // a snapshot from before devices were recorded
      std::map<int, uint64_t> &bytes = snapshot.deviceBytes[level.key()];
      for (size_t i = 0; i < devices->size() && in.ok(); ++i) {
        if (!(*devices)[i].is_object())
          continue;
        JsonFields share =
            levelFields.nested((*devices)[i].get_object(), "devices", i);
        // null: the device is not known.
        int id = static_cast<int>(
            share.integer("device", 0, 1023, -1, /*nullable=*/true));
        bytes[id] += share.count("live_bytes");
      }
    }
  if (!in.ok()) {
    *error = in.error();
    return std::nullopt;
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
  // The run is cut into parts of equal time (four, or one per interval
  // when there are fewer), and a site's live bytes are looked at where each
  // part begins and ends (the latest snapshot by then), in the parts a
  // snapshot fell in: a leak slower than the snapshots, or one whose old
  // snapshots were thinned, still rises in every part; a cache that filled
  // and held rises in the first alone.
  const size_t parts = std::min<size_t>(4, series.size() - 1);
  std::vector<size_t> bounds; // the snapshot in effect at each part's end
  bounds.push_back(0);
  for (size_t part = 1; part <= parts; ++part) {
    uint64_t end =
        series.front().timeMs +
        (series.back().timeMs - series.front().timeMs) * part / parts;
    size_t at = bounds.back();
    while (at + 1 < series.size() && series[at + 1].timeMs <= end)
      ++at;
    // Without a span (one moment), the parts are the intervals.
    if (series.back().timeMs == series.front().timeMs)
      at = std::min(series.size() - 1, (series.size() - 1) * part / parts);
    bounds.push_back(part == parts ? series.size() - 1 : at);
  }
  // A part no snapshot fell in (thinned ones, far apart) says nothing.
  size_t seen = 0;
  for (size_t part = 0; part < parts; ++part)
    seen += bounds[part + 1] != bounds[part];
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
    for (size_t part = 0; part < parts; ++part)
      rises += bytes[bounds[part + 1]] > bytes[bounds[part]];
    if (bytes.back() > bytes.front() && rises * 4 >= seen * 3)
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
           std::to_string(s.rises) + " of " + std::to_string(seen) +
           " parts of the run\n";
  }
  return out;
}

} // namespace msledger
