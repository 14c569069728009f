//===- timeline_chart.h - The HTML chart of msledger timeline ---*- C++ -*-===//
//
// Contract: one self-contained HTML page (inline SVG and CSS, no script, no
// network) charting live memory over time -- the total and the sites with
// the most live bytes at their peak -- from a series of snapshots (x: time)
// or from a journal (x: the event's serial number, which is all a journal
// knows of time). Every series and every point carries its site's file:line
// (and chain) as an SVG <title>, which browsers show on hover.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_LAUNCHER_TIMELINE_CHART_H
#define MSLEDGER_LAUNCHER_TIMELINE_CHART_H

#include "journal.h"
#include "snapshots.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msledger {

struct Series {
  std::string name; // "total", or a site's place and API
  std::vector<std::pair<double, uint64_t>> points; // (x, live bytes)
};

/// The total and the `top` sites of the snapshots' level (the CANN heap if
/// it was checked, else the device heap).
std::vector<Series> seriesFromSnapshots(const std::vector<Snapshot> &series,
                                        size_t top);
/// The same, replayed from a journal's events, at most `samples` points.
std::vector<Series> seriesFromJournal(const JournalContents &journal,
                                      size_t top, size_t samples);

/// A labelled moment (mark) or interval (range, `end` < 0: not ended) on
/// the x axis, the application's mstx annotations.
struct Interval {
  std::string label;
  double start = 0;
  double end = -1;
  bool range = false;
};
/// The annotations of the snapshots, in the series' x units (seconds).
std::vector<Interval>
intervalsFromSnapshots(const std::vector<Snapshot> &series);

std::string timelineHtml(const std::vector<Series> &series,
                         const std::string &title, const std::string &xLabel,
                         const std::vector<Interval> &intervals = {});

} // namespace msledger

#endif
