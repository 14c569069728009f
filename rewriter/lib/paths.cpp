//===- paths.cpp - The project root and the files under it ----------------===//
#include "paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

namespace msledger {

std::string normalisePath(const std::string &path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute.str());
}

bool isUnder(const std::string &path, const std::string &root) {
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0;
}

std::string relativeTo(const std::string &path, const std::string &root) {
  return isUnder(path, root) ? path.substr(root.size()) : path;
}

namespace {

/// Whether `dir` (no trailing '/') is msledger's own: an install prefix, a
/// build tree, or the CMake package's kept copies. Cached: a rewrite asks for
/// the same few directories over and over, from several threads.
bool isMsledgerTree(const std::string &dir) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = known.find(dir);
    if (found != known.end())
      return found->second;
  }
  bool owned = llvm::sys::path::filename(dir) == "msledger-instrumented" ||
               (llvm::sys::fs::exists(dir + "/share/msledger/cann.json") &&
                llvm::sys::fs::exists(dir + "/include/msledger/track.h"));
  if (!owned) {
    // A build tree: CMakeCache.txt of the project msledger.
    auto cache = llvm::MemoryBuffer::getFile(dir + "/CMakeCache.txt");
    owned = cache && (*cache)->getBuffer().contains(
                         "\nCMAKE_PROJECT_NAME:STATIC=msledger\n");
  }
  std::lock_guard<std::mutex> lock(mutex);
  known.emplace(dir, owned);
  return owned;
}

} // namespace

bool isMsledgerFile(const std::string &path, const std::string &root) {
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (llvm::sys::path::filename(parent) == "msledger" &&
      llvm::sys::path::filename(llvm::sys::path::parent_path(parent)) ==
          "include")
    return true; // msledger/msledger.h, msledger/track.h
  // The directories below the root (which ends in '/'), file's first.
  for (llvm::StringRef dir = parent; dir.size() >= root.size();
       dir = llvm::sys::path::parent_path(dir))
    if (isMsledgerTree(dir.str()))
      return true;
  return false;
}

bool isProjectFile(const std::string &path, const std::string &root) {
  return isUnder(path, root) && !isMsledgerFile(path, root);
}

} // namespace msledger
