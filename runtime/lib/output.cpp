//===- output.cpp - Where the ledger's reports go -------------------------===//
#include "output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace msledger {

void writeLog(const std::string &logPath, const std::string &text) {
  if (!logPath.empty()) {
    if (appendToFile(logPath, text))
      return;
    std::string complaint = "msledger: cannot write the log file " + logPath +
                            ": " + strerror(errno) + "\n";
    writeAll(2, complaint);
  }
  writeAll(2, text);
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
