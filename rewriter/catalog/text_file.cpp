//===- text_file.cpp - Whole-file reads and atomic writes -----------------===//
#include "text_file.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace msledger {

bool writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

const char *fileKind(unsigned mode) {
  switch (mode & S_IFMT) {
  case S_IFDIR:
    return "a directory";
  case S_IFCHR:
    return "a character device";
  case S_IFBLK:
    return "a block device";
  case S_IFIFO:
    return "a FIFO";
  case S_IFSOCK:
    return "a socket";
  case S_IFLNK:
    return "a symbolic link";
  default:
    return "a regular file";
  }
}

namespace {

/// Opens `path` for writing with `flags` added, writes all of `text` and
/// fsyncs it if `durable`; false with errno set. Opened non-blocking, so a
/// FIFO nobody reads is ENXIO, never a wait; written blocking.
bool writeOpened(const std::string &path, int flags, const std::string &text,
                 bool durable) {
  int fd = open(path.c_str(),
                O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | flags, 0644);
  if (fd < 0)
    return false;
  int current = fcntl(fd, F_GETFL);
  if (current >= 0)
    fcntl(fd, F_SETFL, current & ~O_NONBLOCK);
  bool ok = writeAll(fd, text) && (!durable || fsync(fd) == 0);
  int saved = errno;
  close(fd);
  errno = saved;
  return ok;
}

} // namespace

bool appendToFile(const std::string &path, const std::string &text) {
  return writeOpened(path, O_APPEND | O_CREAT, text, /*durable=*/false);
}

namespace {

/// `path`'s directory ("." for a bare name).
std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// A short name for a temporary in `dir` that does not exist yet; short so
/// that a file name near NAME_MAX leaves room for it.
std::string temporaryName(const std::string &dir) {
  static std::atomic<unsigned> counter{0};
  return dir + "/.msledger." + std::to_string(getpid()) + "." +
         std::to_string(counter.fetch_add(1)) + ".tmp";
}

/// A writable temporary in `dir`: unnamed where the filesystem allows and
/// `unnamed` asks (*named empty), else created under a fresh short name in
/// *named.
int openTemporary(const std::string &dir, mode_t mode, bool unnamed,
                  std::string *named) {
  named->clear();
  if (unnamed) {
    int fd = open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
      return fd;
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    *named = temporaryName(dir);
    int fd =
        open(named->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  named->clear();
  errno = EEXIST;
  return -1;
}

/// Names the unnamed temporary `fd` in `dir`; its name, or "" with errno
/// set (ENOENT without /proc).
std::string nameTemporary(int fd, const std::string &dir) {
  std::string self = "/proc/self/fd/" + std::to_string(fd);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string named = temporaryName(dir);
    if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, named.c_str(),
               AT_SYMLINK_FOLLOW) == 0)
      return named;
    if (errno != EEXIST)
      return "";
  }
  errno = EEXIST;
  return "";
}

/// Replaces what is at `path` (a regular file, a link, or nothing) with a
/// regular file of `text`; through an unnamed temporary if `unnamed` (and
/// the system allows), else a named one. On failure, *renaming says whether
/// it was the rename (the text was written).
bool replaceRegular(const std::string &path, const std::string &text,
                    bool durable, mode_t mode, bool keepMode,
                    WrittenFile *written, bool *renaming, bool unnamed = true) {
  *renaming = false;
  std::string dir = directoryOf(path), named;
  int fd = openTemporary(dir, mode, unnamed, &named);
  if (fd < 0)
    return false;
  // A new file has the mode open() gave it (umask applied); a replaced one
  // keeps its own.
  bool ok = writeAll(fd, text) && (!durable || fsync(fd) == 0) &&
            (!keepMode || fchmod(fd, mode) == 0);
  struct stat st;
  if (ok && fstat(fd, &st) == 0 && written) {
    written->device = st.st_dev;
    written->inode = st.st_ino;
    written->replaced = true;
  }
  if (ok && named.empty()) {
    // Named only for the rename: a kill before this leaves nothing behind.
    named = nameTemporary(fd, dir);
    if (named.empty()) {
      // No /proc (a chroot, a sandbox): a named temporary instead.
      close(fd);
      return replaceRegular(path, text, durable, mode, keepMode, written,
                            renaming, /*unnamed=*/false);
    }
  }
  int saved = errno;
  close(fd);
  if (ok && rename(named.c_str(), path.c_str()) == 0) {
    if (durable) {
      int dirFd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dirFd >= 0) {
        fsync(dirFd);
        close(dirFd);
      }
    }
    return true;
  }
  if (ok) {
    saved = errno;
    *renaming = true;
  }
  unlink(named.c_str()); // ours: made by this call, under a fresh name
  errno = saved;
  return false;
}

/// Whether following the link `path` is what the kernel's
/// protected_symlinks refuses: a link in a sticky, world-writable directory
/// (/tmp) owned neither by this user nor by the directory's owner -- one
/// another user planted to redirect root's output.
bool plantedLink(const std::string &path, const struct stat &link) {
  struct stat dir;
  if (stat(directoryOf(path).c_str(), &dir) != 0)
    return false;
  bool stickyShared = (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH);
  return stickyShared && link.st_uid != geteuid() && link.st_uid != dir.st_uid;
}

/// The steps of writeFileAtomically a failure is named by.
enum class Step { Write, Replace };

/// writeFileAtomically without the message: false with errno set and *step
/// the step that failed.
bool writeFile(const std::string &path, const std::string &text, bool durable,
               LinkPolicy links, WrittenFile *written, Step *step) {
  *step = Step::Replace; // refused for what is at the path, until written
  bool renaming = false;
  auto replace = [&](const std::string &at, mode_t mode, bool keepMode) {
    bool ok =
        replaceRegular(at, text, durable, mode, keepMode, written, &renaming);
    *step = renaming ? Step::Replace : Step::Write;
    return ok;
  };
  struct stat link, target;
  if (lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) {
      *step = Step::Write;
      return false;
    }
    return replace(path, 0644, false);
  }
  std::string resolved = path;
  if (S_ISLNK(link.st_mode) && links == LinkPolicy::Replace) {
    // The link itself is replaced, with the mode of what it points to.
    if (stat(path.c_str(), &target) == 0 && S_ISREG(target.st_mode))
      return replace(path, target.st_mode & 07777, true);
    return replace(path, 0644, false);
  }
  if (S_ISLNK(link.st_mode) && plantedLink(path, link)) {
    errno = EACCES;
    return false;
  }
  if (S_ISLNK(link.st_mode)) {
    char *real = realpath(path.c_str(), nullptr);
    if (!real) {
      // A link to nothing yet: written through it, making its target.
      *step = Step::Write;
      return writeOpened(path, O_CREAT | O_TRUNC, text, durable);
    }
    resolved = real;
    free(real);
  }
  if (stat(resolved.c_str(), &target) != 0)
    return false;
  if (S_ISREG(target.st_mode))
    return replace(resolved, target.st_mode & 07777, true);
  if (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)) {
    *step = Step::Write;
    return writeOpened(resolved, 0, text, /*durable=*/false); // through
  }
  errno = S_ISDIR(target.st_mode) ? EISDIR : EINVAL;
  return false;
}

} // namespace

bool writeFileAtomically(const std::string &path, const std::string &text,
                         bool durable, LinkPolicy links, WrittenFile *written,
                         std::string *error) {
  if (written)
    *written = WrittenFile{};
  Step step;
  if (writeFile(path, text, durable, links, written, &step))
    return true;
  int saved = errno;
  if (error)
    *error = (step == Step::Write ? "cannot write " : "cannot replace ") +
             path + ": " + strerror(saved);
  errno = saved;
  return false;
}

bool removeIfUnchanged(const std::string &path, const WrittenFile &written) {
  struct stat st;
  if (!written.replaced || lstat(path.c_str(), &st) != 0 ||
      !S_ISREG(st.st_mode) || st.st_dev != written.device ||
      st.st_ino != written.inode)
    return false;
  return unlink(path.c_str()) == 0;
}

void makeDirectories(const std::string &dir) {
  // One component at a time.
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    mkdir(dir.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos)
      break;
  }
}

std::string absoluteDirectory(const std::string &dir) {
  std::string path = dir;
  if (path.empty() || path[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
      return path.empty() ? "/" : path;
    path = path.empty() ? cwd : std::string(cwd) + "/" + path;
  }
  if (char *resolved = realpath(path.c_str(), nullptr)) {
    path = resolved;
    free(resolved);
  }
  return path;
}

int openRegularFile(const std::string &path, uint64_t *size, const char **why) {
  *why = nullptr;
  // A device is never opened (opening some acts); the type is checked again
  // on what was opened.
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return -1;
  int fd = -1;
  if (S_ISREG(st.st_mode)) {
    fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
      return -1;
    if (fstat(fd, &st) != 0) {
      int saved = errno;
      close(fd);
      errno = saved;
      return -1;
    }
  }
  if (!S_ISREG(st.st_mode)) {
    if (fd >= 0)
      close(fd);
    *why = S_ISDIR(st.st_mode) ? nullptr : "not a regular file";
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return -1;
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

namespace {

/// readRegularFile without the message: nullopt with errno set, and *why
/// the reason where errno has no words for it.
std::optional<std::string> readRegular(const std::string &path, size_t limit,
                                       const char **why) {
  uint64_t size = 0;
  int fd = openRegularFile(path, &size, why);
  if (fd < 0)
    return std::nullopt;
  int failure = 0;
  std::optional<std::string> text;
  if (size > limit) {
    failure = EFBIG;
  } else {
    text.emplace();
    char buffer[65536];
    ssize_t n;
    while (!failure && (n = read(fd, buffer, sizeof buffer)) != 0) {
      if (n < 0 && errno != EINTR)
        failure = errno;
      else if (n > 0)
        text->append(buffer, static_cast<size_t>(n));
      if (text->size() > limit)
        failure = EFBIG; // it grew while read
    }
    if (failure)
      text.reset();
  }
  close(fd);
  if (failure)
    errno = failure;
  return text;
}

} // namespace

std::optional<std::string> readRegularFile(const std::string &path,
                                           size_t limit, std::string *error) {
  const char *why = nullptr;
  std::optional<std::string> text = readRegular(path, limit, &why);
  if (!text && error) {
    int saved = errno;
    *error = "cannot read " + path + ": " + (why ? why : strerror(saved));
    errno = saved;
  }
  return text;
}

} // namespace msledger
