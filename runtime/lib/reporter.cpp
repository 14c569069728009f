//===- reporter.cpp - The reports of a running process --------------------===//
#include "reporter.h"

#include "escape.h"
#include "fingerprint.h"
#include "job.h"
#include "json_io.h"
#include "junit.h"
#include "sarif.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace msledger {

Reporter::Reporter(const Options &options)
    : Opts(options), ProjectRoot(absoluteDirectory(options.project_root)),
      Retention(static_cast<size_t>(options.snapshot_keep)),
      Budget(options.print_limit) {}

bool Reporter::loadSuppressions(std::string *error) {
  return Opts.suppressions.empty() ||
         Suppressions_.load(Opts.suppressions, error);
}

bool Reporter::loadBaseline(std::string *error) {
  Baseline loaded;
  if (Opts.baseline.empty() || !loaded.load(Opts.baseline, error))
    return Opts.baseline.empty();
  // Compared with what this run can report: a finding of a level it does
  // not check, or of a check that is off, is neither known nor gone.
  Baseline_ = loaded.only([this](const BaselineFinding &finding) {
    std::optional<Level> level = levelNamed(finding.level);
    if (!level || !(*level == Level::Device ? Opts.check_device_heap
                                            : Opts.check_cann_heap))
      return false;
    if (isLeakRule(finding.rule))
      return Opts.leak_check &&
             (Opts.report_resources || finding.rule == "memory-leak");
    std::optional<ErrorKind> kind = errorKindOfRule(finding.rule);
    return kind && (Opts.check_access || !isAccessError(*kind));
  });
  return true;
}

void Reporter::start() { announceStart(); }

void Reporter::sayLevels() {
  if (Opts.log_level == LogLevel::Info) {
    std::string levels = Opts.check_device_heap && Opts.check_cann_heap
                             ? "the device heap and the CANN heap"
                         : Opts.check_device_heap ? "the device heap"
                         : Opts.check_cann_heap
                             ? "the CANN heap"
                             : "nothing (both levels are off)";
    write("[msledger] pid " + std::to_string(getpid()) + ": checking " +
          levels + "\n");
  }
}

bool Reporter::error(const ErrorEvent &error) {
  {
    std::lock_guard<std::mutex> lock(SuppressionMutex);
    uint64_t bytes =
        isAccessError(error.kind) ? error.badBytes
        : error.hasAcquired && familyOf(error.acquired.api).kind == Kind::Memory
            ? error.acquired.size
            : 0;
    if (Suppressions_.suppress(
            isAccessError(error.kind) ? SuppressionKind::Access
                                      : SuppressionKind::Free,
            Ledger_->siteTable(), error.site, error.api, bytes))
      return false;
  }
  // Known from the baseline: kept for the reports at exit, listed there
  // among the known findings, and not counted for the exit status.
  if (Baseline_.given() &&
      Baseline_.contains(errorFingerprint(Ledger_->siteTable(), error)))
    return true;
  NewErrors.fetch_add(1, std::memory_order_relaxed);
  {
    // Found and counted either way; printed while the limit lets it.
    std::lock_guard<std::mutex> lock(BudgetMutex);
    if (!Budget.take())
      return true;
  }
  write(formatError(Ledger_->siteTable(), error,
                    Ledger_->tracking(Level::Device) &&
                        Ledger_->tracking(Level::Cann)));
  return true;
}

void Reporter::forkedChildStarts() { announceStart(); }

void Reporter::warn(const std::string &text) {
  write("====== WARNING: " + text + "\n");
}

void Reporter::forkPrepare() {
  OutputMutex.lock();
  SuppressionMutex.lock();
  BudgetMutex.lock();
  SnapshotMutex.lock();
}

void Reporter::forkParent() {
  SnapshotMutex.unlock();
  BudgetMutex.unlock();
  SuppressionMutex.unlock();
  OutputMutex.unlock();
}

void Reporter::forkChild() {
  forkParent();
  ForkParentPid = getppid();
  // Its snapshots are its own: the parent's are not its to remove.
  Retention.clear();
  // Announced at its first event (forkedChildStarts).
  StartJsonPath.clear();
}

void Reporter::write(const std::string &text) {
  std::lock_guard<std::mutex> lock(OutputMutex);
  writeLog(Opts.log_path.empty()
               ? ""
               : expandPath(Opts.log_path, getpid(), processRank()),
           processLabel() + text);
}

ReportInput Reporter::reportInput() const {
  ReportInput input;
  input.sites = Ledger_->siteTable();
  input.tracked[0] = Ledger_->tracking(Level::Device);
  input.tracked[1] = Ledger_->tracking(Level::Cann);
  input.pid = getpid();
  input.parentPid = getppid();
  input.rank = processRank();
  input.program = programPath();
  input.startUnixMs = Ledger_->clock().startUnixMs();
  input.sinceStartMs = Ledger_->clock().nowNs() / 1000000;
  const SerialClock &clock = Ledger_->clock();
  input.timeOfSerialNs = [&clock](uint64_t serial) {
    return clock.timeOfSerial(serial);
  };
  for (Level level : {Level::Device, Level::Cann})
    input.implicit[static_cast<int>(level)] = Ledger_->implicitReleases(level);
  input.annotations = Ledger_->annotations().list();
  input.baseline = Baseline_.given() ? &Baseline_ : nullptr;
  input.baselineGoneKnown = BaselineGoneKnown.load();
  return input;
}

std::string Reporter::leakReport(std::vector<Record> (&live)[2],
                                 LeakTotals *totals) {
  LeakSections what;
  what.checked[0] = Ledger_->tracking(Level::Device);
  what.checked[1] = Ledger_->tracking(Level::Cann);
  what.groupBySite = Opts.group_by_site;
  what.includeResources = Opts.report_resources;
  what.noteImplicit = Opts.report_resources && !Opts.implicit_release_is_leak;
  std::lock_guard<std::mutex> lock(BudgetMutex);
  what.budget = &Budget;
  std::vector<ImplicitReleaseEvent> implicit[2] = {
      Ledger_->implicitReleases(Level::Device),
      Ledger_->implicitReleases(Level::Cann)};
  return formatLeakSections(Ledger_->siteTable(), what, live, implicit, totals);
}

void Reporter::reportNow() {
  bool titled =
      Ledger_->tracking(Level::Device) && Ledger_->tracking(Level::Cann);
  ReportInput input = reportInput();
  std::string text;
  for (Level level : {Level::Device, Level::Cann}) {
    if (!Ledger_->tracking(level))
      continue;
    if (!text.empty())
      text += '\n';
    text += formatLive(input, level, Ledger_->liveRecords(level), titled);
  }
  if (!text.empty())
    write(text);
}

namespace {

/// "/snapshot-NNNNNN.json", the file of snapshot `sequence` in its folder.
std::string snapshotName(uint64_t sequence) {
  char name[64];
  snprintf(name, sizeof name, "/snapshot-%06llu.json",
           static_cast<unsigned long long>(sequence));
  return name;
}

} // namespace

void Reporter::writeSnapshot() {
  std::vector<Record> live[2] = {Ledger_->liveRecords(Level::Device),
                                 Ledger_->liveRecords(Level::Cann)};
  uint64_t sequence = SnapshotSequence.fetch_add(1) + 1;
  std::string text = formatSnapshot(reportInput(), live, sequence);
  std::string dir = expandPath(Opts.snapshot_dir, getpid(), processRank());
  makeDirectories(dir);
  std::string path = dir + snapshotName(sequence);
  // Said once, with the path: a directory that cannot be made fails every
  // interval alike.
  if (!writeOutputFile(path, text, /*durable=*/false)) {
    if (!SnapshotFailed.exchange(true))
      write("msledger: cannot write the snapshot " + printable(path) + ": " +
            strerror(errno) + " (later snapshots that fail are not named)\n");
    return;
  }
  // Bounded: the ones retention lets go are removed.
  std::lock_guard<std::mutex> lock(SnapshotMutex);
  if (dir != SnapshotDir) {
    Retention.clear();
    SnapshotDir = dir;
  }
  for (uint64_t old : Retention.written(sequence))
    unlink((dir + snapshotName(old)).c_str());
}

void Reporter::finish() {
  if (Finished.exchange(true))
    return;
  Ledger_->journal().exited();
  std::vector<Record> live[2] = {Ledger_->liveRecords(Level::Device),
                                 Ledger_->liveRecords(Level::Cann)};
  std::vector<ErrorEvent> errors = Ledger_->errors();
  bool leaked = false;
  LeakTotals totals;
  // The leaks every report lists: what is live, less what suppressions
  // take, and less the resources when they are not reported; none without
  // leak_check.
  for (std::vector<Record> &records : live) {
    if (!Opts.leak_check)
      records.clear();
    if (!Opts.report_resources)
      records.erase(std::remove_if(records.begin(), records.end(),
                                   [](const Record &r) {
                                     return familyOf(r.api).kind !=
                                            Kind::Memory;
                                   }),
                    records.end());
  }
  {
    // Never both locks at once: forkPrepare takes the log's first.
    std::lock_guard<std::mutex> lock(SuppressionMutex);
    for (std::vector<Record> &records : live)
      Suppressions_.filterLeaks(Ledger_->siteTable(), records);
  }
  // What the reports list: every finding, known ones too.
  std::vector<Record> listed[2] = {live[0], live[1]};
  KnownFindings known;
  // One process of a job of several cannot tell what is gone: its baseline
  // holds the other processes' findings too (msledger merge can).
  bool goneKnown = soleProcess();
  BaselineGoneKnown.store(goneKnown);
  if (Baseline_.given())
    separateKnown(Ledger_->siteTable(), Baseline_, live, errors, &known,
                  goneKnown);
  if (Opts.leak_check) {
    std::string out = leakReport(live, &totals);
    leaked = totals.allocations || totals.resources;
    if (!out.empty())
      write(out);
    else if (Opts.log_level == LogLevel::Info)
      write("[msledger] pid " + std::to_string(getpid()) + ": no leaks\n");
  }
  // (A process of a job that made no finding -- mpirun, a shell -- says
  // nothing of the baseline.)
  if (Baseline_.given() &&
      (goneKnown || !known.tally.fresh.empty() || !known.tally.known.empty()))
    write(formatKnown(Ledger_->siteTable(), Baseline_, known));
  std::string omitted;
  {
    std::lock_guard<std::mutex> lock(BudgetMutex);
    omitted = formatOmitted(Budget);
  }
  if (!omitted.empty())
    write(omitted);
  std::string suppressed;
  {
    std::lock_guard<std::mutex> lock(SuppressionMutex);
    suppressed = Suppressions_.formatUsed() + Suppressions_.formatUnused();
  }
  if (!suppressed.empty())
    write(suppressed);
  // A report that cannot be written leaves the run incomplete: it fails as
  // findings do (runtime/README.md, "Exit status").
  bool written = true;
  if (!Opts.json_path.empty()) {
    std::string path = expandPath(Opts.json_path, getpid(), processRank());
    warnIfAnothers(path, "JSON report");
    if (!writeOutputFile(path, formatJson(reportInput(), listed, errors, true),
                         /*durable=*/true)) {
      written = false;
      write("msledger: cannot write the JSON report " + printable(path) + ": " +
            strerror(errno) + "\n");
    }
    // A rank set after the start (a worker's setenv after fork) renames it:
    // the start's report goes, unless another process has replaced it since.
    if (!StartJsonPath.empty() && StartJsonPath != path)
      removeIfUnchanged(StartJsonPath, StartJson);
  }
  if (!Opts.sarif_path.empty()) {
    std::string path = expandPath(Opts.sarif_path, getpid(), processRank());
    if (!writeOutputFile(
            path, formatSarif(reportInput(), listed, errors, ProjectRoot),
            /*durable=*/true)) {
      written = false;
      write("msledger: cannot write the SARIF log " + printable(path) + ": " +
            strerror(errno) + "\n");
    }
  }
  if (!Opts.junit_path.empty()) {
    std::string path = expandPath(Opts.junit_path, getpid(), processRank());
    if (!writeOutputFile(path, formatJunit(reportInput(), listed, errors),
                         /*durable=*/true)) {
      written = false;
      write("msledger: cannot write the JUnit report " + printable(path) +
            ": " + strerror(errno) + "\n");
    }
  }
  // The errors the baseline does not know: the new ones.
  uint64_t newErrors =
      Baseline_.given() ? NewErrors.load() : Ledger_->errorCount();
  writeJobStatus(true, totals.allocations + totals.resources + newErrors,
                 totals.bytes, written);
  if ((leaked || newErrors > 0 || !written) && Opts.exitcode != 0)
    exitWithStatus(Opts.exitcode);
}

bool Reporter::warnIfAnothers(const std::string &path, const char *what) {
  std::optional<std::string> text = readRegularFile(path, 256 << 20);
  std::string ignored;
  std::unique_ptr<boost::json::object> report =
      text ? parseJsonObject(*text, path, &ignored) : nullptr;
  if (!report)
    return false;
  JsonFields fields(*report, path);
  int pid = static_cast<int>(fields.integer("pid", 0, INT32_MAX, 0));
  if (!fields.ok() || pid == 0 || pid == getpid() ||
      fields.string("tool") != "msledger")
    return false;
  // An earlier run's report is this run's to replace: only one of a process
  // still running, or of the parent this one was forked from (which may have
  // ended since), is another's.
  bool running = kill(pid, 0) == 0 || errno == EPERM;
  if (!running && pid != ForkParentPid)
    return false;
  write("msledger: the " + std::string(what) + " " + printable(path) +
        " is also pid " + std::to_string(pid) +
        "'s: give each process its own (%p in the path)\n");
  return true;
}

void Reporter::announceStart() {
  writeJobStatus(false, 0, 0, true);
  if (Opts.json_path.empty())
    return;
  std::vector<Record> none[2];
  std::string path = expandPath(Opts.json_path, getpid(), processRank());
  // Another process's report there is its own: a start report (which says
  // nothing yet) never replaces it.
  if (warnIfAnothers(path, "JSON report"))
    return;
  StartJsonPath = path;
  if (!writeOutputFile(path, formatJson(reportInput(), none, {}, false),
                       /*durable=*/false, &StartJson))
    write("msledger: cannot write the JSON report " + printable(path) + ": " +
          strerror(errno) + "\n");
}

void Reporter::writeJobStatus(bool exited, uint64_t findings,
                              uint64_t leakedBytes, bool complete) {
  if (Opts.job_dir.empty())
    return;
  JobProcess process;
  process.pid = getpid();
  process.parentPid = getppid();
  process.rank = processRank();
  process.program = programPath();
  process.exited = exited;
  process.findings = findings;
  process.leakedBytes = leakedBytes;
  process.complete = complete;
  writeOutputFile(jobStatusPath(Opts.job_dir, process.pid),
                  formatJobStatus(process), /*durable=*/false);
}

bool Reporter::soleProcess() const {
  if (processRank() >= 0 || ForkParentPid != 0)
    return false;
  // Under the launcher: the processes of the job that have started so far
  // (at the main process's exit, all of them).
  return Opts.job_dir.empty() || readJobDirectory(Opts.job_dir).size() <= 1;
}

std::string Reporter::processLabel() const {
  int rank = processRank();
  const char *main = getenv("MSLEDGER_JOB_MAIN_PID");
  bool descendant = main && atoi(main) != getpid();
  if (rank < 0 && !descendant)
    return "";
  return "====== msledger: pid " + std::to_string(getpid()) + ", " +
         rankText(rank) + ", " + printable(programPath()) + "\n";
}

} // namespace msledger
