//===- output.h - Where the ledger's reports go -----------------*- C++ -*-===//
//
// Contract: every byte the ledger writes goes through here: the log (stderr,
// or log_path appended to, falling back to stderr with a complaint), output
// files (writeOutputFile, below), directories made on the way, and the exit
// with the status of the findings. Raw file descriptors and no locks of its
// own: it runs inside the checked process, from its exit path and after
// fork too. Callers that write the log from several threads serialise
// (Ledger holds a mutex).
//
// An output file never replaces or removes what the run did not create:
//   * a regular file (or none) is replaced whole: the new text goes to an
//     unnamed temporary in the same directory (O_TMPFILE; a short named one
//     where the filesystem has none), fsync'ed when it must survive a crash,
//     named and renamed over the path at once: a reader sees the old file or
//     the new one, a process killed while writing leaves nothing behind, and
//     a file name of up to NAME_MAX bytes leaves room for the temporary's.
//     An existing file's mode is kept. Without /proc (which names the
//     temporary) a short named one is used.
//   * a symbolic link is followed: what it points to is written, the link
//     stays -- unless it is one the kernel's protected_symlinks would not
//     follow (in a sticky, world-writable directory such as /tmp, owned by
//     another user than this one and the directory's owner): refused
//     (EACCES), so a planted link cannot redirect root's report.
//   * a character device or a FIFO (--json=/dev/null, a pipe a reader
//     holds open) is written through, never replaced; a FIFO no reader holds
//     open is refused (ENXIO) rather than waited on.
//   * a directory, socket or block device is refused.
// The file's identity (device, inode) comes back, so that a writer removes
// it later only if it is still the one it wrote (removeIfUnchanged).
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_OUTPUT_H
#define MSLEDGER_RUNTIME_OUTPUT_H

#include <optional>
#include <string>

namespace msledger {

/// Writes all of `text` to `fd`, retrying on EINTR; false on an error.
bool writeAll(int fd, const std::string &text);

/// Appends `text` to the file `logPath`, or writes it to stderr when
/// `logPath` is empty or cannot be written (saying so first).
void writeLog(const std::string &logPath, const std::string &text);

/// What writeOutputFile wrote, to recognise it later.
struct WrittenFile {
  unsigned long device = 0, inode = 0;
  bool replaced = false; // a regular file replaced whole (else written through)
};

/// Writes `text` to `path` as the contract says (fsync'ed first if
/// `durable`); false with errno set, and no temporary left.
bool writeOutputFile(const std::string &path, const std::string &text,
                     bool durable, WrittenFile *written = nullptr);

/// Removes `path` if it is still the regular file `written` describes (no
/// other process has replaced it since); true if it did.
bool removeIfUnchanged(const std::string &path, const WrittenFile &written);

/// The bytes of the regular file `path`, if it is one of at most `limit`
/// bytes; nullopt otherwise (never blocks on a FIFO or reads a device).
std::optional<std::string> readRegularFile(const std::string &path,
                                           size_t limit);

/// "a directory", "a FIFO", ... for a file of `mode` (stat's st_mode).
const char *fileKind(unsigned mode);

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
