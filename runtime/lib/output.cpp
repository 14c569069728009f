//===- output.cpp - Where the ledger's reports go -------------------------===//
#include "output.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace msledger {

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

void writeLog(const std::string &logPath, const std::string &text) {
  if (!logPath.empty()) {
    int fd =
        open(logPath.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
      bool ok = writeAll(fd, text);
      close(fd);
      if (ok)
        return;
    }
    std::string complaint = "msledger: cannot write the log file " + logPath +
                            ": " + strerror(errno) + "\n";
    writeAll(2, complaint);
  }
  writeAll(2, text);
}

bool replaceFile(const std::string &path, const std::string &text,
                 bool durable) {
  std::string temp = path + ".tmp" + std::to_string(getpid());
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0 && writeAll(fd, text) && (!durable || fsync(fd) == 0);
  if (fd >= 0)
    close(fd);
  if (ok && rename(temp.c_str(), path.c_str()) == 0)
    return true;
  int saved = errno;
  unlink(temp.c_str());
  errno = saved;
  return false;
}

void makeDirectories(const std::string &dir) {
  // One component at a time.
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    mkdir(dir.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos)
      break;
  }
}

std::string programPath() {
  char exe[4096];
  ssize_t length = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  return length > 0 ? std::string(exe, static_cast<size_t>(length))
                    : std::string();
}

void exitWithStatus(int status) {
  fflush(nullptr);
  _exit(status);
}

} // namespace msledger
