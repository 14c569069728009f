//===- output.h - Where the ledger's reports go -----------------*- C++ -*-===//
//
// Contract: every byte the ledger writes goes through here: the log (stderr,
// or log_path appended to, falling back to stderr with a complaint), files
// replaced whole (written to a temporary of this process's, fsync'ed when
// they must survive a crash, then renamed: a reader sees the old file or the
// new one), directories made on the way, and the exit with the status of the
// findings. Raw file descriptors and no locks of its own: it runs inside the
// checked process, from its exit path and after fork too. Callers that write
// the log from several threads serialise (Ledger holds a mutex).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_OUTPUT_H
#define MSLEDGER_RUNTIME_OUTPUT_H

#include <string>

namespace msledger {

/// Writes all of `text` to `fd`, retrying on EINTR; false on an error.
bool writeAll(int fd, const std::string &text);

/// Appends `text` to the file `logPath`, or writes it to stderr when
/// `logPath` is empty or cannot be written (saying so first).
void writeLog(const std::string &logPath, const std::string &text);

/// Replaces `path` with `text` atomically (fsync'ed first if `durable`);
/// false with errno set, and no temporary left.
bool replaceFile(const std::string &path, const std::string &text,
                 bool durable);

/// `dir` and its parents, as mkdir -p makes them; those that exist are
/// left as they are. Errors show when the file in it is written.
void makeDirectories(const std::string &dir);

/// `dir` as an absolute path: relative to the working directory, which is
/// what an empty `dir` names; symbolic links resolved where it exists.
std::string absoluteDirectory(const std::string &dir);

/// The running program's path (/proc/self/exe), "" if unknown.
std::string programPath();

/// Ends the process now with `status`, stdio flushed, no further exit
/// handlers: the ledger's exit status for findings, from its exit hook.
[[noreturn]] void exitWithStatus(int status);

} // namespace msledger

#endif
