//===- job.h - Jobs of many processes ---------------------------*- C++ -*-===//
//
// Contract: what the processes of one job (a program that forks workers,
// mpirun, torchrun- and msrun-style launchers) and the msledger launcher
// agree on.
//
//   * A process's rank is what the job's launcher put in its environment:
//     the first of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK,
//     SLURM_PROCID, LOCAL_RANK that holds a whole number; read when asked,
//     so a worker that sets RANK after fork() has it. expandPath() expands
//     %p (the pid) and %r (the rank, "norank" without one) in a file name.
//   * Under the launcher (the job_dir option), each tracked process keeps a
//     status file in the job directory, <pid>.json, replaced whole: written
//     "running" when its ledger starts (a forked child: at its first
//     tracked allocation, so that fork-and-exec writes nothing), "exited"
//     with its findings when it reports at exit, and "complete" false when
//     a report it was asked for (--json, --sarif) could not be written. A
//     process that never reaches its report -- killed, ended by _exit() or
//     abort(), or replaced by exec() with a program msledger does not track --
//     stays "running"; exec() of a tracked program rewrites the file under the
//     same pid.
//   * The launcher reads the directory when the job is over: the findings of
//     every process, and the processes that did not report. A status file
//     that cannot be parsed is a process that did not report, never one
//     skipped.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_JOB_H
#define MSLEDGER_RUNTIME_JOB_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace msledger {

/// The rank in the environment now, or -1.
int processRank();

/// `path` with "%p" replaced by `pid` and "%r" by `rank` ("norank" if -1).
std::string expandPath(const std::string &path, int pid, int rank);

/// "rank 2" or "no rank".
std::string rankText(int rank);

/// One process of a job, as its status file says.
struct JobProcess {
  int pid = 0;
  int parentPid = 0;
  int rank = -1;
  std::string program;
  bool exited = false;   // it reached its report at exit
  uint64_t findings = 0; // leaks and errors not suppressed, not known
                         // from a baseline
  uint64_t leakedBytes = 0;
  bool complete = true; // its reports were written (false: one failed)
};

/// The status file's text.
std::string formatJobStatus(const JobProcess &process);
/// Parses a status file's text; nullopt if it is not one.
std::optional<JobProcess> parseJobStatus(const std::string &text);
/// Where `pid`'s status goes in `dir`.
std::string jobStatusPath(const std::string &dir, int pid);
/// Every status file in `dir`, by pid.
std::vector<JobProcess> readJobDirectory(const std::string &dir);

} // namespace msledger

#endif
