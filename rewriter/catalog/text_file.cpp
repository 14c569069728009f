//===- text_file.cpp - Whole-file reads and atomic writes -----------------===//
#include "text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace msledger {

std::optional<std::string> readTextFile(const std::string &path,
                                        std::string *error) {
  // A directory opens as a stream and reads as empty, a FIFO blocks and a
  // device never ends: only a regular file is read.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    *error = "cannot read " + path + ": " +
             (S_ISDIR(st.st_mode) ? std::strerror(EISDIR)
                                  : "not a regular file");
    return std::nullopt;
  }
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  if (file)
    text << file.rdbuf();
  if (!file || file.bad()) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return text.str();
}

bool writeTextFileAtomically(const std::string &path, const std::string &text,
                             std::string *error) {
  struct stat st;
  mode_t mode = stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
  std::string temp = path + ".msledger-tmp";
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    if (!(file << text) || !file.flush()) {
      *error = "cannot write " + temp + ": " + std::strerror(errno);
      unlink(temp.c_str());
      return false;
    }
  }
  if (chmod(temp.c_str(), mode) != 0 ||
      std::rename(temp.c_str(), path.c_str()) != 0) {
    *error = "cannot replace " + path + ": " + std::strerror(errno);
    unlink(temp.c_str());
    return false;
  }
  return true;
}

} // namespace msledger
