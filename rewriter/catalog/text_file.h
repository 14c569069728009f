//===- text_file.h - Whole-file reads and atomic writes ---------*- C++ -*-===//
//
// Contract: the one implementation of reading a file whole and of replacing
// one atomically, for everything the project writes: msrewrite's sources,
// manifests and databases, msledger-catalog-gen's output, the launcher's
// and the ledger's reports (runtime/lib/output.h includes this header). Raw
// file descriptors, no locks and no exceptions: the ledger calls it inside
// the checked process, from its exit path and after fork too. It lives in
// its own small library (msledger_files), which libmsledger.so links
// without the catalog's loader.
//
// writeFileAtomically never replaces or removes what the caller did not
// create:
//   * a regular file (or none) is replaced whole: the new text goes to an
//     unnamed temporary in the same directory (O_TMPFILE; a short named one
//     where the filesystem has none), fsync'ed when it must survive a crash,
//     named and renamed over the path at once: a reader -- a concurrent
//     build, say -- sees the old file or the new one, a process killed while
//     writing leaves nothing behind, and a file name of up to NAME_MAX bytes
//     leaves room for the temporary's. An existing file's mode is kept; a
//     new one gets 0644 less the umask. Without /proc (which names the
//     temporary) a short named one is used.
//   * a symbolic link, by LinkPolicy: Follow (msledger's output files) writes
//     what it points to, as above, and the link stays -- unless it is one the
//     kernel's protected_symlinks would not follow (in a sticky,
//     world-writable directory such as /tmp, owned by another user than
//     this one and the directory's owner): refused (EACCES), so a planted
//     link cannot redirect root's report; a link to nothing yet makes its
//     target. Replace (msrewrite's files, which must stay under the project
//     root) replaces the link itself with a regular file, with the mode of
//     what it pointed to.
//   * a character device or a FIFO (--json=/dev/null, a pipe a reader
//     holds open) is written through, never replaced; a FIFO no reader holds
//     open is refused (ENXIO) rather than waited on.
//   * a directory, socket or block device is refused.
// The file's identity (device, inode) comes back, so that a writer removes
// it later only if it is still the one it wrote (removeIfUnchanged).
//
// readRegularFile reads a regular file's bytes whole: a directory, a FIFO
// or a device is refused (they would read as empty, block or never end),
// and never opened.
//
// Failures set errno and, where the caller asks for a message, say what
// failed with the path and the reason: "cannot read PATH: why", "cannot
// write PATH: why" (the new text could not be written), "cannot replace
// PATH: why" (what is at the path is refused, or the rename failed).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_TEXT_FILE_H
#define MSLEDGER_REWRITER_TEXT_FILE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace msledger {

/// Writes all of `text` to `fd`, retrying on EINTR; false on an error.
bool writeAll(int fd, const std::string &text);

/// Appends `text` to `path`, made (0644 less the umask) if missing: a log,
/// which several processes may share. A FIFO no reader holds open is
/// refused (ENXIO), never waited on; false with errno set.
bool appendToFile(const std::string &path, const std::string &text);

/// What writeFileAtomically wrote, to recognise it later.
struct WrittenFile {
  unsigned long device = 0, inode = 0;
  bool replaced = false; // a regular file replaced whole (else written through)
};

/// What a write does with a symbolic link at its path (see the contract).
enum class LinkPolicy { Follow, Replace };

/// Writes `text` to `path` as the contract says (fsync'ed first if
/// `durable`); false with errno set (and *error, if given), and no
/// temporary left.
bool writeFileAtomically(const std::string &path, const std::string &text,
                         bool durable, LinkPolicy links,
                         WrittenFile *written = nullptr,
                         std::string *error = nullptr);

/// msledger's output files (reports, snapshots, journals' companions):
/// links followed; false with errno set.
inline bool writeOutputFile(const std::string &path, const std::string &text,
                            bool durable, WrittenFile *written = nullptr) {
  return writeFileAtomically(path, text, durable, LinkPolicy::Follow, written);
}

/// msrewrite's and the generator's files: a link replaced, not followed;
/// false with *error set.
inline bool writeTextFileAtomically(const std::string &path,
                                    const std::string &text,
                                    std::string *error) {
  return writeFileAtomically(path, text, /*durable=*/false, LinkPolicy::Replace,
                             nullptr, error);
}

/// Removes `path` if it is still the regular file `written` describes (no
/// other process has replaced it since); true if it did.
bool removeIfUnchanged(const std::string &path, const WrittenFile &written);

/// Opens the regular file `path` to read it (never a FIFO, which would block,
/// nor a device, which opening may act on): its descriptor, its size in
/// *size; -1 with errno set otherwise, and *why the reason where errno has
/// no words for it ("not a regular file"; null else).
int openRegularFile(const std::string &path, uint64_t *size, const char **why);

/// The bytes of the regular file `path`, if it is one of at most `limit`
/// bytes; nullopt otherwise, with *error set if given (never blocks on a
/// FIFO or reads a device).
std::optional<std::string> readRegularFile(const std::string &path,
                                           size_t limit,
                                           std::string *error = nullptr);

/// The bytes of the regular file `path`, whatever its size, or nullopt with
/// *error set ("cannot read PATH: why").
inline std::optional<std::string> readTextFile(const std::string &path,
                                               std::string *error) {
  return readRegularFile(path, SIZE_MAX, error);
}

/// "a directory", "a FIFO", ... for a file of `mode` (stat's st_mode).
const char *fileKind(unsigned mode);

/// `dir` and its parents, as mkdir -p makes them; those that exist are
/// left as they are. Errors show when the file in it is written.
void makeDirectories(const std::string &dir);

/// `dir` as an absolute path: relative to the working directory, which is
/// what an empty `dir` names; symbolic links resolved where it exists.
std::string absoluteDirectory(const std::string &dir);

} // namespace msledger

#endif
