//===- timeline_chart.cpp - The HTML chart of msledger timeline -----------===//
#include "timeline_chart.h"

#include "catalog_table.h"
#include "journal_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace msledger {

namespace {

/// The total first, then the `top` series with the highest peaks.
std::vector<Series> pickTop(const std::map<std::string, Series> &sites,
                            Series total, size_t top) {
  std::vector<Series> chosen;
  for (const auto &entry : sites)
    chosen.push_back(entry.second);
  auto peak = [](const Series &s) {
    uint64_t most = 0;
    for (const auto &point : s.points)
      most = std::max(most, point.second);
    return most;
  };
  std::sort(
      chosen.begin(), chosen.end(),
      [&](const Series &a, const Series &b) { return peak(a) > peak(b); });
  if (chosen.size() > top)
    chosen.resize(top);
  chosen.insert(chosen.begin(), std::move(total));
  return chosen;
}

std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string number(double value) {
  char text[32];
  snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string bytesText(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", bytes, units[unit]);
  return text;
}

} // namespace

std::vector<Series> seriesFromSnapshots(const std::vector<Snapshot> &series,
                                        size_t top) {
  bool cann = false;
  for (const Snapshot &snapshot : series)
    for (const auto &entry : snapshot.sites)
      cann |= entry.second.level == "cann";
  const std::string level = cann ? "cann" : "device";
  std::map<std::string, Series> sites;
  Series total{"total", {}};
  for (const Snapshot &snapshot : series) {
    double x = static_cast<double>(snapshot.timeMs) / 1000;
    uint64_t sum = 0;
    for (const auto &entry : snapshot.sites) {
      if (entry.second.level != level || entry.second.bytes == 0)
        continue;
      Series &site = sites[entry.first];
      site.name = entry.second.place + " (" + entry.second.callee + ")";
      site.points.emplace_back(x, entry.second.bytes);
      sum += entry.second.bytes;
    }
    total.points.emplace_back(x, sum);
  }
  // A site absent from a snapshot had nothing live then.
  for (auto &entry : sites) {
    std::vector<std::pair<double, uint64_t>> filled;
    size_t next = 0;
    for (const auto &point : total.points) {
      if (next < entry.second.points.size() &&
          entry.second.points[next].first == point.first)
        filled.push_back(entry.second.points[next++]);
      else
        filled.emplace_back(point.first, 0);
    }
    entry.second.points = filled;
  }
  return pickTop(sites, std::move(total), top);
}

std::vector<Series> seriesFromJournal(const JournalContents &journal,
                                      size_t top, size_t samples) {
  // Replay: live bytes per site, by the journal's levels (the CANN heap if
  // it has events, else the device heap).
  bool cann = false;
  for (const auto &event : journal.events)
    cann |= event.level == 1;
  for (const auto &event : journal.checkpoint.live)
    cann |= event.level == 1;
  int level = cann ? 1 : 0;
  // One replay for every reader: a refcounted handle acquired again is one
  // more reference to the same memory, not more memory.
  JournalReplay replay(journal, /*keepImplicit=*/false);
  std::map<uint32_t, uint64_t> bySite;
  uint64_t total = 0;
  size_t every = std::max<size_t>(1, journal.events.size() / samples);
  std::map<uint32_t, Series> perSite;
  Series totalSeries{"total", {}};
  std::set<uint32_t> seen;
  auto started = [&](uint32_t site, uint64_t size) {
    bySite[site] += size;
    total += size;
    seen.insert(site);
  };
  // What the checkpoint holds is live from the start of the chart.
  for (const Record &record : replay.live(level))
    if (familyOf(record.api).kind == Kind::Memory)
      started(record.site, record.size);
  size_t index = 0;
  auto counted = [level](const JournalContents::Event &event) {
    return event.level == level && familyOf(event.api).kind == Kind::Memory;
  };
  for (const auto &event : journal.events) {
    ++index;
    JournalReplay::Step step = replay.apply(event);
    if (step.ended && counted(step.ended->acquired)) {
      bySite[step.ended->acquired.site] -= step.ended->acquired.size;
      total -= step.ended->acquired.size;
    }
    if (step.started && counted(step.started->acquired))
      started(event.site, event.size);
    if (event.level != level || event.api >= kApiCount ||
        familyOf(event.api).kind != Kind::Memory)
      continue;
    if (index % every == 0 || index == journal.events.size()) {
      double x = static_cast<double>(event.serial);
      totalSeries.points.emplace_back(x, total);
      for (uint32_t site : seen)
        perSite[site].points.emplace_back(x, bySite[site]);
    }
  }
  std::map<std::string, Series> sites;
  JournalSites names(journal);
  for (auto &entry : perSite) {
    entry.second.name = placeLine(names.table(), entry.first);
    // Series that began late start at zero.
    size_t missing = totalSeries.points.size() - entry.second.points.size();
    std::vector<std::pair<double, uint64_t>> points;
    for (size_t i = 0; i < missing; ++i)
      points.emplace_back(totalSeries.points[i].first, 0);
    points.insert(points.end(), entry.second.points.begin(),
                  entry.second.points.end());
    entry.second.points = points;
    sites[std::to_string(entry.first)] = entry.second;
  }
  return pickTop(sites, std::move(totalSeries), top);
}

std::vector<Interval>
intervalsFromSnapshots(const std::vector<Snapshot> &series) {
  std::vector<Interval> intervals;
  if (series.empty())
    return intervals;
  // Each snapshot holds every annotation so far: the latest has them all.
  const Snapshot *latest = &series.front();
  for (const Snapshot &snapshot : series)
    if (snapshot.timeMs >= latest->timeMs)
      latest = &snapshot;
  for (const Snapshot::Annotation &a : latest->annotations)
    intervals.push_back({a.message, a.startMs / 1000,
                         a.endMs < 0 ? -1 : a.endMs / 1000, a.range});
  return intervals;
}

std::string timelineHtml(const std::vector<Series> &series,
                         const std::string &title, const std::string &xLabel,
                         const std::vector<Interval> &intervals) {
  static const char *const colours[] = {"#222222", "#d62728", "#1f77b4",
                                        "#2ca02c", "#ff7f0e", "#9467bd",
                                        "#8c564b", "#e377c2"};
  const double width = 960, height = 480, left = 90, right = 20, top = 20,
               bottom = 50;
  double minX = 0, maxX = 1;
  uint64_t maxY = 1;
  bool first = true;
  for (const Series &s : series)
    for (const auto &point : s.points) {
      minX = first ? point.first : std::min(minX, point.first);
      maxX = first ? point.first : std::max(maxX, point.first);
      maxY = std::max(maxY, point.second);
      first = false;
    }
  if (maxX <= minX)
    maxX = minX + 1;
  auto px = [&](double x) {
    return left + (x - minX) / (maxX - minX) * (width - left - right);
  };
  auto py = [&](uint64_t y) {
    return height - bottom -
           static_cast<double>(y) / maxY * (height - top - bottom);
  };
  std::string svg = "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
                    "width=\"960\" height=\"480\" viewBox=\"0 0 960 480\">\n";
  // Axes and a few grid lines.
  for (int i = 0; i <= 4; ++i) {
    double y = py(maxY / 4 * i);
    svg += "<line class=\"grid\" x1=\"" + number(left) + "\" x2=\"" +
           number(width - right) + "\" y1=\"" + number(y) + "\" y2=\"" +
           number(y) + "\"/>\n<text class=\"tick\" x=\"" + number(left - 6) +
           "\" y=\"" + number(y + 4) + "\" text-anchor=\"end\">" +
           bytesText(maxY / 4.0 * i) + "</text>\n";
    double x = minX + (maxX - minX) / 4 * i;
    svg += "<text class=\"tick\" x=\"" + number(px(x)) + "\" y=\"" +
           number(height - bottom + 18) + "\" text-anchor=\"middle\">" +
           number(x) + "</text>\n";
  }
  // The application's marks and ranges, under the series.
  for (size_t i = 0; i < intervals.size(); ++i) {
    const Interval &a = intervals[i];
    double x1 = px(std::clamp(a.start, minX, maxX));
    double x2 =
        a.range ? px(a.end < 0 ? maxX : std::clamp(a.end, minX, maxX)) : x1;
    double labelY = top + 12 + static_cast<double>(i % 4) * 14;
    svg += "<g class=\"annotation " + std::string(a.range ? "range" : "mark") +
           "\" data-label=\"" + escape(a.label) + "\">\n<title>" +
           escape(a.label) + "</title>\n";
    if (a.range)
      svg += "<rect x=\"" + number(x1) + "\" y=\"" + number(top) +
             "\" width=\"" + number(std::max(1.0, x2 - x1)) + "\" height=\"" +
             number(height - top - bottom) +
             "\" fill=\"#9467bd\" fill-opacity=\"0.12\"/>\n";
    else
      svg += "<line x1=\"" + number(x1) + "\" x2=\"" + number(x1) + "\" y1=\"" +
             number(top) + "\" y2=\"" + number(height - bottom) +
             "\" stroke=\"#9467bd\" stroke-dasharray=\"4 3\"/>\n";
    svg += "<text class=\"tick\" x=\"" + number(x1 + 3) + "\" y=\"" +
           number(labelY) + "\">" + escape(a.label) + "</text>\n</g>\n";
  }
  svg += "<text class=\"label\" x=\"" + number((left + width) / 2) + "\" y=\"" +
         number(height - 8) + "\" text-anchor=\"middle\">" + escape(xLabel) +
         "</text>\n";
  std::string legend;
  for (size_t i = 0; i < series.size(); ++i) {
    const Series &s = series[i];
    const char *colour = colours[i % 8];
    std::string path;
    for (const auto &point : s.points)
      path += (path.empty() ? "M" : " L") + number(px(point.first)) + " " +
              number(py(point.second));
    svg += "<g class=\"series\" data-site=\"" + escape(s.name) +
           "\">\n<title>" + escape(s.name) + "</title>\n<path d=\"" + path +
           "\" stroke=\"" + colour + "\" fill=\"none\" stroke-width=\"" +
           (i == 0 ? "3" : "2") + "\"/>\n";
    for (const auto &point : s.points)
      svg += "<circle cx=\"" + number(px(point.first)) + "\" cy=\"" +
             number(py(point.second)) + "\" r=\"3\" fill=\"" + colour +
             "\"><title>" + escape(s.name) + ": " + bytesText(point.second) +
             " at " + number(point.first) + "</title></circle>\n";
    svg += "</g>\n";
    legend +=
        "<li><span class=\"swatch\" style=\"background:" + std::string(colour) +
        "\"></span>" + escape(s.name) + "</li>\n";
  }
  svg += "</svg>\n";
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n"
         "<title>" +
         escape(title) +
         "</title>\n<style>\n"
         "body { font-family: sans-serif; margin: 24px; color: #222; }\n"
         "svg { background: #fff; border: 1px solid #ddd; }\n"
         ".grid { stroke: #eee; } .tick, .label { font-size: 12px; fill: #555; "
         "}\n"
         ".series:hover path { stroke-width: 4; }\n"
         "ul.legend { list-style: none; padding: 0; }\n"
         ".swatch { display: inline-block; width: 14px; height: 14px; "
         "margin-right: 8px; vertical-align: middle; }\n"
         "</style>\n</head>\n<body>\n<h1>" +
         escape(title) + "</h1>\n" + svg + "<ul class=\"legend\">\n" + legend +
         "</ul>\n</body>\n</html>\n";
}

} // namespace msledger
